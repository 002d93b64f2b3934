-- The typing of config values given on the command line or in a --config
-- document (spec/reliability.md 3.1): a --set value is typed by the YAML
-- 1.1 resolver, as the same text would be in a document, then checked
-- against its field. Compiled only by a run that gives --config, --set,
-- --seed or --vary; a run at the defaults never needs it.
local py = require "py"
local verbs = require "verbs"
local cli_shared = require "cli.shared"

local raise, usage = cli_shared.raise, cli_shared.usage
local NUMBER_MAX = cli_shared.NUMBER_MAX

local function sexagesimal(s)
  local v = 0
  for part in s:gmatch("[^:]+") do v = v * 60 + tonumber((part:gsub("_", ""))) end
  return v
end

local BOOLS = { yes = true, Yes = true, YES = true, no = false, No = false, NO = false,
                ["true"] = true, True = true, TRUE = true, ["false"] = false,
                False = false, FALSE = false, on = true, On = true, ON = true,
                off = false, Off = false, OFF = false }

-- An integer scalar beyond 64 bits.
local BIGINT = setmetatable({}, { __tostring = function() return "an integer beyond 64 bits" end })

-- The value PyYAML's YAML 1.1 resolver gives a plain scalar.
local function yaml_scalar(s)
  if s == "" or s == "~" or s == "null" or s == "Null" or s == "NULL" then return engine.null end
  if BOOLS[s] ~= nil then return BOOLS[s] end
  local sign, body = s:match("^([+-]?)(.+)$")
  if not body then return s end
  local neg = sign == "-"
  -- Digits in a base, or BIGINT when the value leaves 64 bits (Python's
  -- int has no such bound; every field here has a smaller one).
  local function int_of(digits, base)
    local v = 0
    for ch in digits:gsub("_", ""):gmatch(".") do
      local d = tonumber(ch, 16)
      if v > (math.maxinteger - d) // base then return BIGINT end
      v = v * base + d
    end
    return v
  end
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
  if v == BIGINT then return BIGINT end
  if v then return neg and -v or v end
  if body:match("^[0-9][0-9_]*%.[0-9_]*$") or body:match("^[0-9][0-9_]*%.[0-9_]*[eE][-+][0-9]+$")
     or body:match("^%.[0-9_]+$") or body:match("^%.[0-9_]+[eE][-+][0-9]+$") then
    local f = tonumber((body:gsub("_", ""))) + 0.0
    return neg and -f or f
  end
  if body == ".inf" or body == ".Inf" or body == ".INF" then
    return neg and -math.huge or math.huge
  end
  if sign == "" and (s == ".nan" or s == ".NaN" or s == ".NAN") then return 0 / 0 end
  return s
end

local function type_name(v)
  if v == BIGINT then return "int" end
  if v == engine.null then return "null" end
  local t = math.type(v)
  if t == "integer" then return "int" end
  if t == "float" then return "float" end
  if type(v) == "boolean" then return "bool" end
  return "str"
end

-- The problem with value v for config field f (3.1), or nil.
local function field_problem(f, v)
  if v == BIGINT then
    return ("%s must be within its range; the value is beyond 64 bits"):format(f.name)
  end
  local tn = type_name(v)
  if f.type == "number" then
    if tn ~= "int" and tn ~= "float" then
      return ("%s must be a number, got %s %s"):format(f.name, tn, py.repr(v))
    end
    if v ~= v or v == math.huge or v == -math.huge then
      return ("%s must be a finite number, got %s"):format(f.name, py.repr(v))
    end
  elseif tn ~= "int" then
    return ("%s must be an integer, got %s %s"):format(f.name, tn, py.repr(v))
  end
  local hi = f.hi or (f.type == "number" and NUMBER_MAX or nil)
  if (f.lo_open and v <= f.lo) or (not f.lo_open and v < f.lo) then
    return ("%s must be %s %s (got %s)"):format(f.name, f.lo_open and ">" or ">=",
                                                 py.repr(f.lo), py.repr(v))
  end
  if hi and v > hi then
    return ("%s must be <= %s (got %s)"):format(f.name, py.repr(hi), py.repr(v))
  end
  return nil
end

local FIELD_LIST = (function()
  local names = {}
  for i, f in ipairs(REL.FIELDS) do names[i] = f.name end
  return table.concat(names, ", ")
end)()

-- The resolved config and the origin of each field: {file, line, column}
-- for --config, "set" for --set/--seed, nil for a default.
local function resolve_config(args)
  local values, origin, errors = {}, {}, {}
  if args.config then verbs.config_document(args.config, "reliability-config", values, origin) end
  -- `--seed N` arrives in args.set as "seed=N" at its argv place (3.1:
  -- each --set/--seed in argv order; the option's expands_to).
  local sets = {}
  for _, s in ipairs(args.set or {}) do sets[#sets + 1] = { option = "--set", text = s } end
  for _, s in ipairs(sets) do
    local key, text = s.text:match("^([^=]*)=(.*)$")
    if not key or key == "" then
      usage(s.option, ("%s takes KEY=VALUE, got '%s'"):format(s.option, s.text))
    end
    local f = REL.FIELD[key]
    local v = s.value
    if v == nil then v = yaml_scalar(text) end
    if not f then
      errors[#errors + 1] = { rule = "input.type", path = "/" .. key, argument = s.option,
        message = ("unknown field '%s' of reliability-config; the fields are %s")
                  :format(key, FIELD_LIST) }
    else
      local problem = field_problem(f, v)
      if problem then
        errors[#errors + 1] = { rule = "input.type", path = "/" .. key, argument = s.option,
                                message = problem }
      else
        values[key] = v
        origin[key] = "set"
      end
    end
  end
  if #errors > 0 then raise(errors) end
  return REL.resolve(values), origin
end

return {
  yaml_scalar = yaml_scalar,
  field_problem = field_problem,
  resolve_config = resolve_config,
}
