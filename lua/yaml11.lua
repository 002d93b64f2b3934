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

-- Digits in a base, or BIGINT when the value leaves 64 bits.
local function int_of(digits, base)
  local v = 0
  for ch in digits:gsub("_", ""):gmatch(".") do
    local d = tonumber(ch, 16)
    if v > (math.maxinteger - d) // base then return yaml11.BIGINT end
    v = v * base + d
  end
  return v
end

-- "1:30:15" (base 60, PyYAML's sexagesimal), without its sign.
local function sexagesimal(s)
  local v = 0
  for part in s:gmatch("[^:]+") do v = v * 60 + tonumber((part:gsub("_", ""))) end
  return v
end

local function is_float(body)
  return body:match("^[0-9][0-9_]*%.[0-9_]*$")
         or body:match("^[0-9][0-9_]*%.[0-9_]*[eE][-+][0-9]+$")
         or body:match("^%.[0-9_]+$") or body:match("^%.[0-9_]+[eE][-+][0-9]+$")
end

function yaml11.scalar(s)
  if NULLS[s] then return engine.null end
  if BOOLS[s] ~= nil then return BOOLS[s] end
  local sign, body = s:match("^([+-]?)(.+)$")
  if not body then return s end
  local neg = sign == "-"
  local v
  if body:match("^0b[01_]+$") then
    v = int_of(body:sub(3), 2)
  elseif body:match("^0x[0-9a-fA-F_]+$") then
    v = int_of(body:sub(3), 16)
  elseif body:match("^0[0-7_]+$") then
    v = int_of(body, 8)
  elseif body == "0" or body:match("^[1-9][0-9_]*$") then
    v = int_of(body, 10)
  elseif body:match("^[1-9][0-9_]*:[0-5]?[0-9]") and body:match("^[0-9_:]+$") then
    v = sexagesimal(body)
  end
  if v == yaml11.BIGINT then return v end
  if v then return neg and -v or v end
  if is_float(body) then
    local f = tonumber((body:gsub("_", ""))) + 0.0
    return neg and -f or f
  end
  if body:match("^[0-9][0-9_]*:[0-5]?[0-9][0-9_:]*%.[0-9_]*$") then
    local whole, frac = body:match("^(.-)(%.[0-9_]*)$")
    local f = sexagesimal(whole) + (tonumber((frac:gsub("_", ""))) or 0.0)
    return neg and -f or f
  end
  if body == ".inf" or body == ".Inf" or body == ".INF" then
    return neg and -math.huge or math.huge
  end
  if sign == "" and (s == ".nan" or s == ".NaN" or s == ".NAN") then return 0 / 0 end
  return s
end

return yaml11
