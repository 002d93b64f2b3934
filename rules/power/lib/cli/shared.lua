-- What several of infragate power's verbs use: compiled with the first verb that
-- needs it, never for a verb that does not.
local py = require "py"
local verbs = require "verbs"

local fail = verbs.failer("power")

local raise, usage, guarded = verbs.raise, verbs.usage, verbs.guard(fail)

local pyfloat = verbs.pyfloat

-- lua/yaml11.lua types --set text; it is compiled only by a run that has
-- some, so these reach it on demand.
local function yaml_scalar(text)
  return require("yaml11").scalar(text)
end

-- Whether v is yaml11's sentinel for an integer beyond 64 bits: a table,
-- so no other value needs yaml11 compiled to be told apart from it.
local function is_bigint(v)
  return type(v) == "table" and v == require("yaml11").BIGINT
end

-- Lua writes a float with a '.', an exponent, "inf" or "nan"; an integer
-- with digits only (math.type is outside the sandbox's minimal std).
local function is_integer(v)
  return type(v) == "number" and not tostring(v):find("[%.eEin]")
end

local function type_name(v)
  if is_bigint(v) then return "int" end
  if v == engine.null then return "null" end
  if is_integer(v) then return "int" end
  if type(v) == "number" then return "float" end
  if type(v) == "boolean" then return "bool" end
  return "str"
end

-- The problem with value v for field f, or nil.
local function field_problem(f, v)
  if (f.type == "number" or f.type == "int") and is_bigint(v) then
    return ("%s must be within its range; the value is beyond 64 bits"):format(f.name)
  end
  local tn = type_name(v)
  if f.type == "number" then
    if tn ~= "int" and tn ~= "float" then
      return ("%s must be a number, got %s %s"):format(f.name, tn, py.repr(v))
    end
    if v ~= v or v == math.huge or v == -math.huge then
      return ("%s must be finite, got %s"):format(f.name, py.repr(v))
    end
  elseif f.type == "int" then
    if tn ~= "int" then
      return ("%s must be an integer, got %s %s"):format(f.name, tn, py.repr(v))
    end
  elseif f.type == "enum" then
    for _, c in ipairs(f.choices) do if v == c then return nil end end
    return ("%s must be one of %s, got %s"):format(f.name, table.concat(f.choices, ", "),
                                                 py.repr(v))
  elseif f.type == "string" then
    if tn ~= "str" then return ("%s must be a string, got %s"):format(f.name, tn) end
    return nil
  end
  local low_bad = f.lo and (f.lo_open and v <= f.lo or not f.lo_open and v < f.lo)
  local high_bad = f.hi and v > f.hi
  if low_bad or high_bad then
    return ("%s must be %s %s and <= %s (got %s)"):format(f.name, f.lo_open and ">" or ">=",
      py.repr(f.lo), py.repr(f.hi), py.repr(f.type == "number" and v + 0.0 or v))
  end
  return nil
end

local function field_named(fields, name)
  for _, f in ipairs(fields) do if f.name == name then return f end end
end

-- Resolve the input document of a verb. Returns the resolved plain table
-- and a map of where each key came from ({file, line, column} or "set").
local function resolve_input(args, kind, fields)
  local values, origin = {}, {}
  if args.config then verbs.config_document(args.config, kind, values, origin) end
  local sets = {}
  for _, s in ipairs(args.set or {}) do sets[#sets + 1] = s end
  if #sets == 0 then return PW.resolve(fields, values), origin end
  verbs.apply_sets(sets, values, origin, {
    field = function(key) return key ~= "kind" and field_named(fields, key) or nil end,
    unknown = function(key) return ("unknown field '%s' for %s"):format(key, kind) end,
    problem = field_problem,
  })
  return PW.resolve(fields, values), origin
end

-- Where a strict finding on `key` points (2.4).
local function site(origin, key, path)
  local o = origin[key]
  if type(o) == "table" then
    return { file = o.file, line = o.line, column = o.column, path = path or "/" .. key }
  end
  return { path = path or "/" .. key }
end

local function input_error_at(origin, key, message)
  local s = site(origin, key)
  local o = origin[key]
  return { rule = "input.type", message = message, file = s.file, line = s.line,
           column = s.column, path = s.path, argument = o == "set" and "--set" or nil }
end

-- A fleet config's cross-field and verb-specific bounds (3.2).
local function check_fleet(cfg, origin, causal)
  local errors = {}
  if cfg.spike_max_mwh < cfg.spike_min_mwh then
    errors[#errors + 1] = input_error_at(origin, "spike_max_mwh",
      ("spike_max_mwh %s is below spike_min_mwh %s"):format(py.repr(cfg.spike_max_mwh),
                                                           py.repr(cfg.spike_min_mwh)))
  end
  if causal and cfg.flexible_fraction <= 0 then
    errors[#errors + 1] = input_error_at(origin, "flexible_fraction",
      ("the causal controller needs flexible_fraction > 0 (got %s)")
      :format(py.repr(cfg.flexible_fraction)))
  end
  if causal and cfg.curtail_budget_frac >= 1 then
    errors[#errors + 1] = input_error_at(origin, "curtail_budget_frac",
      ("the causal controller needs curtail_budget_frac < 1 (got %s)")
      :format(py.repr(cfg.curtail_budget_frac)))
  end
  if #errors > 0 then raise(errors) end
end

local function set_list(args)
  local list = {}
  for i, s in ipairs(args.set or {}) do list[i] = { option = "--set", text = s } end
  return list
end

local function job_input(args)
  local saved = args.set
  args.set = set_list(args)
  local job, origin = resolve_input(args, "power-job", JOB_FIELDS)
  args.set = saved
  return job, origin
end

local function fleet_input(args, causal)
  local saved = args.set
  args.set = set_list(args)
  local cfg, origin = resolve_input(args, "fleet-config", FLEET_FIELDS)
  args.set = saved
  check_fleet(cfg, origin, causal)
  return cfg, origin
end

local function finding(args, rule, message, where)
  local o = engine.object()
  o.rule = rule
  o.severity = args.strict and "error" or "warning"
  o.message = message
  o.file = where.file or engine.null
  o.line = where.line or engine.null
  o.column = where.column or engine.null
  o.path = where.path or engine.null
  return o
end

local finish = verbs.finish

local function truncated_finding(args, cfg, origin, hours)
  if cfg.curtail_budget_frac > 0 and PW.budget_hours(cfg.curtail_budget_frac, hours) == 0 then
    return finding(args, "power.strict.budget-truncated",
                   PW.truncated_message(cfg.curtail_budget_frac, hours),
                   site(origin, "curtail_budget_frac"))
  end
end

local function job_json(job)
  return PW.object(JOB_FIELDS, job)
end

local function config_json(cfg)
  return PW.object(FLEET_FIELDS, cfg)
end

return {
  fail = fail,
  raise = raise,
  usage = usage,
  guarded = guarded,
  pyfloat = pyfloat,
  yaml_scalar = yaml_scalar,
  is_integer = is_integer,
  type_name = type_name,
  field_problem = field_problem,
  field_named = field_named,
  resolve_input = resolve_input,
  site = site,
  input_error_at = input_error_at,
  check_fleet = check_fleet,
  set_list = set_list,
  job_input = job_input,
  fleet_input = fleet_input,
  finding = finding,
  finish = finish,
  truncated_finding = truncated_finding,
  job_json = job_json,
  config_json = config_json,
}
