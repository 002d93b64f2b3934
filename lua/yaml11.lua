-- yaml11.lua: the value PyYAML's YAML 1.1 resolver gives a plain scalar
-- (spec/yaml.md 2.2-2.3), for option text a verb types "as the same text
-- in a document" (`--set KEY=VALUE`, `--vary KEY=V1,V2`). One copy, so
-- that the packs' option typing cannot drift apart. Loaded like py.lua:
-- `local yaml11 = require "yaml11"`, into the calling pack's environment.
--
-- yaml11.scalar(text) returns engine.null, a boolean, an integer, a float,
-- yaml11.BIGINT (an integer beyond 64 bits: Python's int has no bound, a
-- Lua integer has, and every field here has a smaller one), or the text
-- itself (a string). Timestamps stay strings: no option takes a date.
local yaml11 = {}

yaml11.BIGINT = setmetatable({}, {
  __tostring = function() return "an integer beyond 64 bits" end,
})

local NULLS = { [""] = true, ["~"] = true, null = true, Null = true, NULL = true }

local BOOLS = { yes = true, Yes = true, YES = true, no = false, No = false, NO = false,
                ["true"] = true, True = true, TRUE = true, ["false"] = false,
                False = false, FALSE = false, on = true, On = true, ON = true,
                off = false, Off = false, OFF = false }

-- Digits in a base, as a Lua integer with the sign applied, or BIGINT when
-- the value leaves 64 bits. The magnitude is gathered as a negative number,
-- so that -2^63 (which fits) does not overflow on the way.
local function int_of(digits, base, neg)
  local v, min = 0, math.mininteger
  for ch in digits:gsub("_", ""):gmatch(".") do
    local d = tonumber(ch, 16)
    -- v * base - d must stay >= min: v >= ceil((min + d) / base).
    local q, r = (min + d) // base, (min + d) % base
    if v < q or (r ~= 0 and v == q) then return yaml11.BIGINT end
    v = v * base - d
  end
  if neg then return v end
  if v == min then return yaml11.BIGINT end
  return -v
end

-- PyYAML's base-60 groups after the first: one or more ":[0-5]?[0-9]",
-- nothing else ("1:60" and "1:5_9" stay strings).
local function base60_tail(tail)
  return tail ~= "" and tail:gsub(":[0-5]?[0-9]", "") == ""
end

-- "1:30:15" (base 60, PyYAML's sexagesimal), without its sign: an integer,
-- or BIGINT past 64 bits (as a float with 'as_float', which cannot overflow).
local function sexagesimal(s, as_float)
  local v = as_float and 0.0 or 0
  for part in s:gmatch("[^:]+") do
    local digits = part:gsub("_", "")
    if #digits > 18 then return yaml11.BIGINT end   -- tonumber would give a float
    local d = tonumber(digits)
    if not as_float and v > (math.maxinteger - d) // 60 then return yaml11.BIGINT end
    v = v * 60 + d
  end
  return v
end

-- The float forms of the resolver, sign removed; 'signed' tells whether
-- there was one, because ".5" takes none ("-.5" is a string in PyYAML).
local function is_float(body, signed)
  if body:match("^[0-9][0-9_]*%.[0-9_]*$")
     or body:match("^[0-9][0-9_]*%.[0-9_]*[eE][-+][0-9]+$") then
    return true
  end
  return not signed and (body:match("^%.[0-9_]+$") or body:match("^%.[0-9_]+[eE][-+][0-9]+$"))
end

function yaml11.scalar(s)
  if NULLS[s] then return engine.null end
  if BOOLS[s] ~= nil then return BOOLS[s] end
  local sign, body = s:match("^([+-]?)(.+)$")
  if not body then return s end
  local neg = sign == "-"
  local v
  if body:match("^0b[01_]+$") then
    v = int_of(body:sub(3), 2, neg)
  elseif body:match("^0x[0-9a-fA-F_]+$") then
    v = int_of(body:sub(3), 16, neg)
  elseif body:match("^0[0-7_]+$") then
    v = int_of(body, 8, neg)
  elseif body == "0" or body:match("^[1-9][0-9_]*$") then
    v = int_of(body, 10, neg)
  else
    local head, tail = body:match("^([1-9][0-9_]*)(:[0-9:]*)$")
    if head and base60_tail(tail) then
      v = sexagesimal(body)
      if v ~= yaml11.BIGINT and neg then v = -v end
    end
  end
  if v then return v end
  if is_float(body, sign ~= "") then
    local f = tonumber((body:gsub("_", ""))) + 0.0
    return neg and -f or f
  end
  local head, tail, frac = body:match("^([0-9][0-9_]*)(:[0-9:]*)(%.[0-9_]*)$")
  if head and base60_tail(tail) then
    local f = sexagesimal(head .. tail, true) + (tonumber((frac:gsub("_", ""))) or 0.0)
    return neg and -f or f
  end
  if body == ".inf" or body == ".Inf" or body == ".INF" then
    return neg and -math.huge or math.huge
  end
  if sign == "" and (s == ".nan" or s == ".NaN" or s == ".NAN") then return 0 / 0 end
  return s
end

return yaml11
