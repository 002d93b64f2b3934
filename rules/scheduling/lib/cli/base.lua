-- What infragate scheduling's declarations (commands.lua) and its verbs' code both
-- use: option lists, defaults and their helpers.
local verbs = require "verbs"
local yaml11 = require "yaml11"

local float, money = SCHED.float, SCHED.money

local CONFIG, STRANDED = SCHED.CONFIG_FIELDS, SCHED.STRANDED_FIELDS

local FORMATS = { "text", "json" }

local LINT_FORMATS = { "text", "json", "sarif", "github", "junit" }

local MUTATIONS = { "intent-is-rigid", "tiered-kills", "flat-sizes", "rsc1-rate-13",
                    "checkpoint-every-step", "equal-loads", "small-vs-small",
                    "intent-peak-provisioned", "alibaba-after-unoptimized",
                    "medians-as-means", "no-elasticity" }

local function array(list)
  local a = engine.array()
  for i, x in ipairs(list) do a[i] = x end
  return a
end

local function fmt_opt(choices)
  return { "--format", type = "choice", choices = choices or FORMATS, default = "text",
           help = "output format" }
end

local STRICT_OPT = { "--strict", type = "flag",
                     help = "strict findings become errors and make the exit status 1" }

local SET_OPT = { "--set", type = "string", ["repeat"] = "append", metavar = "KEY=VALUE",
                  help = "override one field of the input document (typed as YAML)" }

local CONFIG_OPT = { "--config", type = "path", metavar = "FILE",
                     help = "the verb's input document" }

local function input_error(list)
  local errs = {}
  for i, e in ipairs(list) do
    errs[i] = { rule = e.rule or "input.type", message = e.message, file = e.file,
                line = e.line, column = e.column, path = e.path, argument = e.argument }
  end
  verbs.raise(errs)
end

-- A model call that can meet a limit of 5.13 only while it runs (the job
-- count of a generated stream): its "input.limit: ..." error becomes the
-- input error it is, with the field the model names.
local function limited(fn, ...)
  local res = table.pack(pcall(fn, ...))
  if res[1] then return table.unpack(res, 2, res.n) end
  local msg = res[2]
  if type(msg) == "string" then
    local text = msg:match("input%.limit: (.*)$")
    if text then
      local body, path = text:match("^(.-) at (/[%w_/]+)$")
      input_error({ { rule = "input.limit", message = body or text, path = path } })
    end
  end
  error(msg, 0)
end

-- Where a resolved field came from: {file, line, column} or nil (a flag).
local function origin_of(origins, key)
  local o = origins[key]
  if o == nil then return {} end
  return o
end

-- Read an input document. A regular file whose whole content is JSON is read
-- as JSON (JSON typing); anything else goes through the YAML loader. Standard
-- input can be read once, so it takes the verb's preferred reader.
-- Every problem the loader and the schema find is reported, not the first.
local function load_checked(path, opts)
  opts.collect = true
  local doc, findings = engine.load(path, opts)
  if findings and #findings > 0 then
    local errs = {}
    for i, f in ipairs(findings) do
      errs[i] = { rule = f.rule, message = f.message, file = f.file or path, line = f.line,
                  column = f.column, path = f.path }
    end
    input_error(errs)
  end
  return doc
end

local function load_doc(path, kind, stdin_json)
  if path == "-" then
    return load_checked(path, { kind = kind, json = stdin_json or nil })
  end
  local probe, findings = engine.load(path, { json = true, collect = true })
  if probe ~= nil and (findings == nil or #findings == 0) then
    return load_checked(path, { kind = kind, json = true })
  end
  return load_checked(path, { kind = kind })
end

-- Fields of a document mapping into 'given', remembering their positions.
local function take_fields(fields, node, file, given, origins)
  if node == nil then return end
  for _, f in ipairs(fields) do
    local v = node[f[1]]
    if v ~= nil then
      given[f[1]] = v
      local w = engine.where(node, f[1])
      origins[f[1]] = { file = file, line = w.line, column = w.column, path = w.path }
    end
  end
end

-- Apply --set items in argv order; 'prefix' is the JSON Pointer of the
-- overridden mapping ("" or "/config").
-- The --set items in order; via[i] names the flag that gave item i (a
-- flag of expands_to), so that its errors name that flag.
local function apply_sets(fields, sets, given, origins, prefix, via)
  local errs = {}
  for i, item in ipairs(sets or {}) do
    local option = via and via[i] or "--set"
    local key, text = item:match("^([^=]+)=(.*)$")
    if not key then
      engine.usage("--set", ("--set takes KEY=VALUE, got '%s'"):format(item))
    end
    local f = SCHED.field(fields, key)
    if not f then
      errs[#errs + 1] = { message = ("--set: unknown field '%s'"):format(key),
                          path = prefix .. "/" .. key, argument = "--set" }
    else
      local v = yaml11.scalar(text)
      local why = SCHED.bad_value(f, v)
      if why then
        errs[#errs + 1] = { message = option .. ": " .. why, path = prefix .. "/" .. key,
                            argument = option }
      else
        given[key] = v
        origins[key] = { argument = option }
      end
    end
  end
  if #errs > 0 then input_error(errs) end
end

-- One value from a typed flag, validated as its field.
local function apply_value(fields, key, v, given, origins, option)
  local f = SCHED.field(fields, key)
  local why = SCHED.bad_value(f, v)
  if why then
    input_error({ { message = ("%s: %s"):format(option, why), path = "/" .. key,
                    argument = option } })
  end
  given[key] = v
  origins[key] = { argument = option }
end

local function cross_errors(problems, origins, prefix)
  local errs = {}
  for _, p in ipairs(problems) do
    local o = origin_of(origins, p[1])
    errs[#errs + 1] = { message = p[2], file = o.file, line = o.line, column = o.column,
                        path = prefix .. "/" .. p[1], argument = o.argument }
  end
  if #errs > 0 then input_error(errs) end
end

local function limit_check(cfg, prefix)
  local lim = models.scheduling.check_limits(cfg, VARIANT)
  if lim then
    input_error({ { rule = "input.limit", message = lim.message,
                    path = (prefix or "") .. lim.path } })
  end
end

-- The scheduler config of --config, --set, --seed and --days (3.2).
local function resolve_config(args, overrides)
  local given, origins = {}, {}
  if args.config then
    local doc = load_doc(args.config, "scheduler-config")
    take_fields(CONFIG, doc, args.config, given, origins)
  end
  for k, v in pairs(overrides or {}) do given[k] = v end
  apply_sets(CONFIG, args.set, given, origins, "")
  if args.seed ~= nil then apply_value(CONFIG, "seed", args.seed, given, origins, "--seed") end
  if args.days ~= nil then
    apply_value(CONFIG, "horizon_days", args.days, given, origins, "--days")
  end
  local cfg = SCHED.resolved(CONFIG, given)
  cross_errors(SCHED.config_cross(cfg), origins, "")
  return cfg, origins
end

local function config_json(cfg)
  return SCHED.ordered(CONFIG, cfg)
end

local STRANDED_FLAGS = {
  { "--gpus", "gpus", "int" }, { "--window-hours", "window_hours" },
  { "--hard-outage-hours", "hard_outage_hours" }, { "--degraded-hours", "degraded_hours" },
  { "--degradation-weight", "degradation_weight" },
  { "--allocation-efficiency", "allocation_efficiency" },
  { "--productive-ratio", "productive_ratio" }, { "--usd-per-gpu-hour", "usd_per_gpu_hour" },
}

local PRESET_NAMES = {}

local stranded_options = {
  { "--preset", type = "choice", choices = PRESET_NAMES, metavar = "NAME",
    help = "start from a worked example: " .. table.concat(PRESET_NAMES, ", ") },
  CONFIG_OPT,
}

local function metrics_json(m)
  local o = engine.object()
  for _, k in ipairs(SCHED.METRICS) do o[k] = m[k] end
  return o
end

return {
  float = float,
  money = money,
  CONFIG = CONFIG,
  STRANDED = STRANDED,
  FORMATS = FORMATS,
  LINT_FORMATS = LINT_FORMATS,
  MUTATIONS = MUTATIONS,
  array = array,
  fmt_opt = fmt_opt,
  STRICT_OPT = STRICT_OPT,
  SET_OPT = SET_OPT,
  CONFIG_OPT = CONFIG_OPT,
  input_error = input_error,
  limited = limited,
  origin_of = origin_of,
  load_checked = load_checked,
  load_doc = load_doc,
  take_fields = take_fields,
  apply_sets = apply_sets,
  apply_value = apply_value,
  cross_errors = cross_errors,
  limit_check = limit_check,
  resolve_config = resolve_config,
  config_json = config_json,
  metrics_json = metrics_json,
  STRANDED_FLAGS = STRANDED_FLAGS,
  PRESET_NAMES = PRESET_NAMES,
  stranded_options = stranded_options,
}
