-- The typing of config values given on the command line or in a --config
-- document (spec/reliability.md 3.1): a --set value is typed by the YAML
-- 1.1 resolver, as the same text would be in a document, then checked
-- against its field. Compiled only by a run that gives --config, --set,
-- --seed or --vary; a run at the defaults never needs it.
local py = require "py"
local verbs = require "verbs"
local yaml11 = require "yaml11"
local cli_shared = require "cli.shared"

local NUMBER_MAX = cli_shared.NUMBER_MAX

local yaml_scalar = yaml11.scalar
local BIGINT = yaml11.BIGINT

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
  local values, origin = {}, {}
  if args.config then verbs.config_document(args.config, "reliability-config", values, origin) end
  -- `--seed N` arrives in args.set as "seed=N" at its argv place (3.1:
  -- each --set/--seed in argv order; the option's expands_to).
  local sets = {}
  for _, s in ipairs(args.set or {}) do sets[#sets + 1] = { option = "--set", text = s } end
  verbs.apply_sets(sets, values, origin, {
    field = function(key) return REL.FIELD[key] end,
    unknown = function(key)
      return ("unknown field '%s' of reliability-config; the fields are %s")
             :format(key, FIELD_LIST)
    end,
    problem = field_problem,
  })
  return REL.resolve(values), origin
end

return {
  yaml_scalar = yaml_scalar,
  field_problem = field_problem,
  resolve_config = resolve_config,
}
