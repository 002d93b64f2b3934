-- What the config-driven verbs of infragate scheduling (workload, simulate,
-- grid, the studies) share: the scheduler config of --config, --set, --seed
-- and --days, the limits of 5.13, and the JSON of configs and metrics.
local cli_input = require "cli.input"

local input_error = cli_input.input_error
local load_doc = cli_input.load_doc
local take_fields = cli_input.take_fields
local apply_sets = cli_input.apply_sets
local apply_value = cli_input.apply_value
local cross_errors = cli_input.cross_errors

local float, money = SCHED.float, SCHED.money

local CONFIG, STRANDED = SCHED.CONFIG_FIELDS, SCHED.STRANDED_FIELDS

local function array(list)
  local a = engine.array()
  for i, x in ipairs(list) do a[i] = x end
  return a
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
  array = array,
  limited = limited,
  limit_check = limit_check,
  resolve_config = resolve_config,
  config_json = config_json,
  metrics_json = metrics_json,
}
