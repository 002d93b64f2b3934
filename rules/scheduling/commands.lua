-- infragate scheduling: the pack's verbs (spec/scheduling.md 4). Each verb
-- resolves its input (defaults, then --config or the operand, then each
-- --set), refuses what section 3 refuses with the field's position, runs
-- models.scheduling and prints the JSON shape of section 4 or a text table
-- with the spec's rounding. Text layouts and sentences are ours.
local py = require "py"
local verbs = require "verbs"

local float, money = SCHED.float, SCHED.money
local CONFIG, STRANDED = SCHED.CONFIG_FIELDS, SCHED.STRANDED_FIELDS
local FORMATS = { "text", "json" }
local LINT_FORMATS = { "text", "json", "sarif", "github", "junit" }
local MAX_SEEDS = 64
local MUTATIONS = { "intent-is-rigid", "tiered-kills", "flat-sizes", "rsc1-rate-13",
                    "checkpoint-every-step", "equal-loads", "small-vs-small",
                    "intent-peak-provisioned", "alibaba-after-unoptimized",
                    "medians-as-means", "no-elasticity" }

local prog = engine.program {
  name    = "scheduling",
  summary = "stranded capacity and allocation policy: calculate, simulate, replay, gate",
  help    = "Prices the GPU-hours a fleet strands at the scheduler, allocation and "
            .. "productivity layers, simulates a 1,024-GPU cluster under three allocation "
            .. "policies, replays a conserving capacity ledger, models one inference device, "
            .. "analyses the Philly trace's workload shape, and gates capacity requests and "
            .. "scheduler policies.",
}

-- ---- small helpers -------------------------------------------------------------

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

-- Input errors (power.md 2.5): raised from deep inside a verb and printed by
-- the shared verb guard (lua/verbs.lua), so that an entry can name the option
-- it came from (`argument`), which the engine's own input errors cannot carry.
local fail = verbs.failer("scheduling")
local guarded = verbs.guard(fail)

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

-- ---- input resolution (2.2) ------------------------------------------------------

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
SCHED.load_doc = load_doc

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
      local v = SCHED.yaml_scalar(text)
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
SCHED.resolve_config = resolve_config

local function config_json(cfg)
  return SCHED.ordered(CONFIG, cfg)
end
SCHED.config_json = config_json

-- A strict finding of a model verb (6.4): a warning, an error under --strict.
local function strict_finding(args, id, message, path, o)
  o = o or {}
  return engine.object("rule", id, "severity", args.strict and "error" or "warning",
                       "message", message, "file", o.file or engine.null,
                       "line", o.line or engine.null, "column", o.column or engine.null,
                       "path", path)
end

local finish = verbs.finish

local function findings_array(list)
  local a = engine.array()
  for i, f in ipairs(list) do a[i] = f end
  return a
end

-- ---- stranded (4.1) ------------------------------------------------------------

local STRANDED_FLAGS = {
  { "--gpus", "gpus", "int" }, { "--window-hours", "window_hours" },
  { "--hard-outage-hours", "hard_outage_hours" }, { "--degraded-hours", "degraded_hours" },
  { "--degradation-weight", "degradation_weight" },
  { "--allocation-efficiency", "allocation_efficiency" },
  { "--productive-ratio", "productive_ratio" }, { "--usd-per-gpu-hour", "usd_per_gpu_hour" },
}

local PRESET_NAMES = {}
for i, p in ipairs(SCHED.PRESETS) do PRESET_NAMES[i] = p.name end

local stranded_options = {
  { "--preset", type = "choice", choices = PRESET_NAMES, metavar = "NAME",
    help = "start from a worked example: " .. table.concat(PRESET_NAMES, ", ") },
  CONFIG_OPT,
}
-- Each flag is a --set of its field in its argv place (4.1): expands_to
-- appends "field=value" to args.set, and args.set_via names the flag.
for _, fl in ipairs(STRANDED_FLAGS) do
  stranded_options[#stranded_options + 1] = { fl[1], type = fl[3] or "float",
                                              finite = false, metavar = "X",
                                              help = "set " .. fl[2],
                                              expands_to = "--set " .. fl[2] .. "=" }
end
for _, o in ipairs({ SET_OPT, fmt_opt(), STRICT_OPT }) do
  stranded_options[#stranded_options + 1] = o
end

local function resolve_stranded(args)
  local given, origins = {}, {}
  local preset = args.preset and SCHED.preset(args.preset)
  local others = false
  local weight_given = false
  if preset then
    for _, f in ipairs(STRANDED) do given[f[1]] = preset.scenario[f[1]] end
  end
  if args.config then
    local doc = load_doc(args.config, "stranded-scenario")
    local before = {}
    take_fields(STRANDED, doc, args.config, before, origins)
    for k, v in pairs(before) do
      given[k] = v
      if k ~= "usd_per_gpu_hour" then others = true end
      if k == "degradation_weight" then weight_given = true end
    end
  end
  apply_sets(STRANDED, args.set, given, origins, "", args.set_via)
  for _, item in ipairs(args.set or {}) do
    local key = item:match("^([^=]+)=")
    if key ~= "usd_per_gpu_hour" then others = true end
    if key == "degradation_weight" then weight_given = true end
  end
  if given.gpus == nil then
    engine.usage("--gpus", "one of --preset, --config or --gpus is required (the fleet size)")
  end
  local name_set = given.name ~= nil and (not preset or given.name ~= preset.name)
  if preset and others and not name_set then
    given.name = "custom"
    if given.description == preset.description then
      given.description = ("the %s preset with fields changed on the command line")
                          :format(preset.name)
    end
  end
  if given.description == nil then
    given.description = "a scenario given on the command line"
  end
  local s = SCHED.resolved(STRANDED, given)
  cross_errors(SCHED.stranded_cross(s), origins, "")
  return s, origins, weight_given
end

local function stranded_text(s, r)
  local lines = {
    ("%s: %s\n"):format(s.name, s.description),
    ("fleet: %s GPUs x %s h window = %s nominal GPU-hours\n")
      :format(money(s.gpus), money(s.window_hours), money(r.nominal_gpu_hours)),
    ("A %s  E %s  P %s\n"):format(py.fixed(r.availability, 4),
                                  py.fixed(s.allocation_efficiency, 4),
                                  py.fixed(s.productive_ratio, 4)),
    ("usable: %s GPU-hours\n"):format(money(r.usable_gpu_hours)),
  }
  for _, l in ipairs({ { "scheduler", r.loss_scheduler }, { "allocation", r.loss_allocation },
                       { "productivity", r.loss_productivity } }) do
    lines[#lines + 1] = ("  lost at the %-12s layer: %s GPU-hours ($%s)\n")
                        :format(l[1], money(l[2]), money(l[2] * s.usd_per_gpu_hour))
  end
  lines[#lines + 1] = ("stranded: %s GPU-hours ($%s at $%s per GPU-hour)\n")
                      :format(money(r.stranded_gpu_hours), money(r.stranded_usd),
                              py.fixed(s.usd_per_gpu_hour, 2))
  return table.concat(lines)
end

prog:verb {
  name    = "stranded",
  summary = "three-layer stranded-capacity calculator for one fleet and window",
  options = stranded_options,
  run     = guarded("stranded", function(args, out)
    local s, origins, weight_given = resolve_stranded(args)
    local r = SCHED.stranded(s)
    local findings = {}
    local m = SCHED.windows_exceed(s)
    if m then
      findings[#findings + 1] = strict_finding(args, "scheduling.strict.windows-exceed-horizon",
                                               m, "/degraded_hours",
                                               origin_of(origins, "degraded_hours"))
    end
    m = SCHED.assumed_weight(s, weight_given)
    if m then
      findings[#findings + 1] = strict_finding(args,
                                               "scheduling.strict.assumed-degradation-weight",
                                               m, "/degraded_hours",
                                               origin_of(origins, "degraded_hours"))
    end
    if args.format == "json" then
      local scen = engine.object()
      for _, f in ipairs(STRANDED) do scen[f[1]] = s[f[1]] end
      out:json(engine.object(
        "pack", "scheduling", "scenario", scen,
        "result", engine.object(
          "nominal_gpu_hours", r.nominal_gpu_hours, "availability", r.availability,
          "usable_gpu_hours", r.usable_gpu_hours, "loss_scheduler", r.loss_scheduler,
          "loss_allocation", r.loss_allocation, "loss_productivity", r.loss_productivity,
          "usd_per_gpu_hour", s.usd_per_gpu_hour,
          "stranded_gpu_hours", r.stranded_gpu_hours, "stranded_usd", r.stranded_usd),
        "findings", findings_array(findings)))
    else
      out:write(stranded_text(s, r))
    end
    return finish(args, out, findings)
  end),
}

-- ---- presets (4.2) ---------------------------------------------------------------

prog:verb {
  name    = "presets",
  summary = "the six worked examples of the calculator",
  options = { fmt_opt() },
  run     = guarded("presets", function(args, out)
    if args.format == "json" then
      local list = engine.array()
      for i, p in ipairs(SCHED.PRESETS) do
        list[i] = engine.object("name", p.name, "description", p.description,
                                "scenario", SCHED.ordered(STRANDED, p.scenario))
      end
      out:json(engine.object("pack", "scheduling", "presets", list,
                             "findings", engine.array()))
      return 0
    end
    local lines = {}
    for _, p in ipairs(SCHED.PRESETS) do
      local r = SCHED.stranded(p.scenario)
      lines[#lines + 1] = ("%-26s %s\n%26s stranded %s GPU-hours of %s\n")
                          :format(p.name, p.description, "", money(r.stranded_gpu_hours),
                                  money(r.nominal_gpu_hours))
    end
    out:write(table.concat(lines))
    return 0
  end),
}

-- ---- workload (4.3) ----------------------------------------------------------------

local SIZES = { 1, 2, 4, 8, 16, 32, 64, 128, 256, 512 }
local MEDIANS = { 2, 2, 2, 6, 6, 6, 16, 16, 36, 36 }
SCHED.SIZES, SCHED.MEDIANS = SIZES, MEDIANS

function SCHED.probabilities()
  return VARIANT.size_probabilities
         or { 0.42, 0.13, 0.13, 0.18, 0.05, 0.04, 0.025, 0.015, 0.007, 0.003 }
end

function SCHED.workload_figures(cfg)
  local ew = models.scheduling.expected_work(VARIANT)
  local p = SCHED.probabilities()
  local small = 0.0
  local rows = engine.array()
  for i, s in ipairs(SIZES) do
    if s < 8 then small = small + p[i] end
    rows[i] = engine.object("size", s, "probability", p[i], "median_h", MEDIANS[i],
                            "capped_mean_h",
                            models.scheduling.capped_lognormal_mean(MEDIANS[i], 0.8, 168))
  end
  local w = cfg and limited(models.scheduling.workload, cfg, VARIANT)
  return { expected = ew.expected_work, large = ew.large_gpu_time_share, small = small,
           rows = rows, w = w }
end

prog:verb {
  name    = "workload",
  summary = "expected work per job, arrival rate and the generated job stream",
  options = { CONFIG_OPT, SET_OPT,
              { "--seed", type = "int", metavar = "N", help = "shorthand for --set seed=N" },
              { "--days", type = "int", metavar = "N",
                help = "shorthand for --set horizon_days=N" },
              fmt_opt() },
  run     = guarded("workload", function(args, out)
    local cfg = resolve_config(args)
    limit_check(cfg)
    local f = SCHED.workload_figures(cfg)
    if args.format == "json" then
      out:json(engine.object(
        "pack", "scheduling", "config", config_json(cfg),
        "expected_gpu_hours_per_job", f.expected, "capped_mean_h", f.rows,
        "small_job_share", f.small, "large_gpu_time_share", f.large,
        "arrivals_per_step", f.w.arrivals_per_step,
        "inf_reservation_gpus", f.w.inf_reservation_gpus,
        "jobs_generated", f.w.jobs_generated,
        "jobs_by_tier", engine.object("batch", f.w.jobs_by_tier.batch,
                                      "besteffort", f.w.jobs_by_tier.besteffort),
        "findings", engine.array()))
      return 0
    end
    local lines = { ("expected work per job: %s GPU-hours\n"):format(py.fixed(f.expected, 4)) }
    for _, r in ipairs(f.rows) do
      lines[#lines + 1] = ("  %4d GPUs  p %s  median %2d h  capped mean %s h\n")
                          :format(r.size, py.fixed(r.probability, 4), r.median_h,
                                  py.fixed(r.capped_mean_h, 4))
    end
    lines[#lines + 1] = ("small-job share %s, large-job GPU-time share %s\n")
                        :format(py.fixed(f.small, 4), py.fixed(f.large, 4))
    lines[#lines + 1] = ("arrivals %s jobs per step; static reservation %d GPUs\n")
                        :format(py.fixed(f.w.arrivals_per_step, 4), f.w.inf_reservation_gpus)
    lines[#lines + 1] = ("jobs generated over %d days (seed %d): %d (%d batch, %d best-effort)\n")
                        :format(cfg.horizon_days, cfg.seed, f.w.jobs_generated,
                                f.w.jobs_by_tier.batch, f.w.jobs_by_tier.besteffort)
    out:write(table.concat(lines))
    return 0
  end),
}

-- ---- simulate (4.4) ----------------------------------------------------------------

local function metrics_json(m)
  local o = engine.object()
  for _, k in ipairs(SCHED.METRICS) do o[k] = m[k] end
  return o
end
SCHED.metrics_json = metrics_json

local function ledger_json(l)
  local o = engine.object()
  for _, k in ipairs(SCHED.LEDGER) do o[k] = l[k] end
  return o
end

local function parse_list(option, text, parse)
  local items = {}
  for item in (text .. ","):gmatch("([^,]*),") do
    local v = parse(item)
    if v == nil then
      engine.usage(option, ("%s: '%s' is not a valid item"):format(option, item))
    end
    items[#items + 1] = v
  end
  return items
end

local function policy_item(s)
  for _, p in ipairs(SCHED.POLICIES) do
    if p == s then return p end
  end
  return nil
end

local function seed_item(s)
  local v = math.tointeger(tonumber((s:gsub("_", ""))))
  if s:match("^%s*[-+]?%d[%d_]*%s*$") and v and v >= 0 then return v end
  return nil
end

local function metrics_text(m)
  return ("  realization %s  SLO attainment %s  train ETTR %s\n"
          .. "  GPU-h: productive %s  stranded %s (idle %s, reservation %s, overhead %s)\n"
          .. "  jobs %d submitted, %d completed; %d preemptions, %d kills, %d resizes; "
          .. "work lost %s GPU-h; mean wait %s h\n")
    :format(py.fixed(m.capacity_realization, 4), py.fixed(m.slo_attainment, 4),
            py.fixed(m.train_ettr, 4), py.fixed(m.productive_gpu_h, 1),
            py.fixed(m.stranded_gpu_h, 1), py.fixed(m.stranded_idle_gpu_h, 1),
            py.fixed(m.stranded_reservation_gpu_h, 1),
            py.fixed(m.stranded_train_overhead_gpu_h, 1), m.jobs_submitted, m.jobs_completed,
            m.preemptions, m.emergency_kills, m.resizes, py.fixed(m.work_lost_gpu_h, 1),
            py.fixed(m.mean_wait_h, 2))
end

local CENSORED = "scheduling.strict.censored-wait"

local function censored_message(n, what)
  return ("%d submitted jobs never started in %s; they are left out of mean_wait_h, which "
          .. "flatters it"):format(n, what)
end

prog:verb {
  name    = "simulate",
  summary = "one simulation per policy on one cluster config and seed",
  options = { { "--policy", type = "string", default = "all", metavar = "P[,P...]|all",
                help = "policies to run: " .. table.concat(SCHED.POLICIES, ", ") .. " or all" },
              CONFIG_OPT, SET_OPT,
              { "--seed", type = "int", metavar = "N", help = "shorthand for --set seed=N" },
              { "--days", type = "int", metavar = "N",
                help = "shorthand for --set horizon_days=N" },
              { "--no-tracking", type = "flag",
                help = "intent controller keeps the static reservation" },
              { "--no-elasticity", type = "flag", help = "no job is elastic" },
              fmt_opt(), STRICT_OPT },
  run     = guarded("simulate", function(args, out)
    local policies = args.policy == "all" and SCHED.POLICIES
                     or parse_list("--policy", args.policy, policy_item)
    local has_intent = false
    for _, p in ipairs(policies) do
      if p == "intent-closed-loop" then has_intent = true end
    end
    if (args.no_tracking or args.no_elasticity) and not has_intent then
      engine.usage(args.no_tracking and "--no-tracking" or "--no-elasticity",
                   "--no-tracking and --no-elasticity apply to intent-closed-loop only")
    end
    local cfg = resolve_config(args)
    limit_check(cfg)
    local opts = { tracking = not args.no_tracking, elasticity = not args.no_elasticity }
    local runs, findings = engine.array(), {}
    local texts = {}
    for i, p in ipairs(policies) do
      local o = p == "intent-closed-loop" and opts or {}
      local r = limited(SCHED.simulate, cfg, p, o)
      runs[i] = engine.object("policy", p, "seed", cfg.seed, "metrics", metrics_json(r.metrics),
                              "ledger", ledger_json(r.ledger),
                              "jobs_never_started", r.jobs_never_started)
      if r.jobs_never_started > 0 and #findings == 0 then
        findings[1] = strict_finding(args, CENSORED,
                                     censored_message(r.jobs_never_started, p),
                                     ("/runs/%d/metrics/mean_wait_h"):format(i - 1))
      end
      texts[i] = ("%s, seed %d, %d days:\n"):format(p, cfg.seed, cfg.horizon_days)
                 .. metrics_text(r.metrics)
    end
    if args.format == "json" then
      out:json(engine.object("pack", "scheduling", "config", config_json(cfg),
                             "tracking", opts.tracking, "elasticity", opts.elasticity,
                             "runs", runs, "findings", findings_array(findings)))
    else
      out:write(table.concat(texts))
    end
    return finish(args, out, findings)
  end),
}

-- ---- grid (4.5) ----------------------------------------------------------------

local SCENARIOS = {
  { "S1-steady", {} },
  { "S2-power", { power_envelope = true } },
  { "S3-failures", { failures = true } },
  { "S4-full", { power_envelope = true, failures = true, inf_surges = true } },
}

local function seeds_arg(args, default)
  local seeds = args.seeds and parse_list("--seeds", args.seeds, seed_item) or default
  if #seeds > MAX_SEEDS then
    input_error({ { rule = "input.limit", argument = "--seeds",
                    message = ("%d seeds is over the limit of %d"):format(#seeds, MAX_SEEDS) } })
  end
  for _, s in ipairs(seeds) do
    if s > math.maxinteger - 20000 then
      engine.usage("--seeds", ("seed %d is over the largest seed %d")
                   :format(s, math.maxinteger - 20000))
    end
  end
  return seeds
end

local function mean_sd(rows)
  local mean, sd = engine.object(), engine.object()
  for _, k in ipairs(SCHED.METRICS) do
    local xs = {}
    for i, m in ipairs(rows) do xs[i] = float(m[k]) end
    mean[k] = models.scheduling.mean(xs)
    sd[k] = models.scheduling.stdev(xs)
  end
  return mean, sd
end

prog:verb {
  name    = "grid",
  summary = "the headline experiment: 4 scenarios x 3 policies x seeds",
  options = { { "--days", type = "int", default = 30, metavar = "N", help = "horizon in days" },
              { "--seeds", type = "string", metavar = "S,S,...",
                help = "seeds (default 42,43,44)" },
              CONFIG_OPT, SET_OPT, fmt_opt(), STRICT_OPT },
  run     = guarded("grid", function(args, out)
    local seeds = seeds_arg(args, { 42, 43, 44 })
    local base = resolve_config(args, { horizon_days = args.days })
    local rows, agg, findings, lines = engine.array(), engine.array(), {}, {}
    lines[1] = ("%-12s %-19s %6s %6s %6s %10s %9s %9s %9s %6s %6s %6s %6s\n"):format(
      "scenario", "policy", "real.", "SLO", "ETTR", "stranded", "idle", "reserv.",
      "overhead", "preem.", "kills", "resize", "wait")
    local scenario_cfgs = {}
    for i, sc in ipairs(SCENARIOS) do
      local cfg = {}
      for k, v in pairs(base) do cfg[k] = v end
      for k, v in pairs(sc[2]) do cfg[k] = v end
      limit_check(cfg)    -- every scenario before the first run (5.13)
      scenario_cfgs[i] = cfg
    end
    -- Every run of the grid at once, on threads (simulate_batch), in the
    -- order the rows list them.
    local batch = {}
    for i in ipairs(SCENARIOS) do
      for _, p in ipairs(SCHED.POLICIES) do
        for _, seed in ipairs(seeds) do
          batch[#batch + 1] = { config = SCHED.with_seed(scenario_cfgs[i], seed), policy = p,
                                opts = {} }
        end
      end
    end
    local results, next_result = limited(SCHED.simulate_batch, batch), 0
    for _, sc in ipairs(SCENARIOS) do
      for _, p in ipairs(SCHED.POLICIES) do
        local per = {}
        for _, seed in ipairs(seeds) do
          next_result = next_result + 1
          local r = results[next_result]
          rows[#rows + 1] = engine.object("scenario", sc[1], "policy", p, "seed", seed,
                                          "metrics", metrics_json(r.metrics))
          per[#per + 1] = r.metrics
          if r.jobs_never_started > 0 and #findings == 0 then
            findings[1] = strict_finding(args, CENSORED,
              censored_message(r.jobs_never_started, ("%s %s seed %d"):format(sc[1], p, seed)),
              ("/rows/%d/metrics/mean_wait_h"):format(#rows - 1))
          end
        end
        local mean, sd = mean_sd(per)
        agg[#agg + 1] = engine.object("scenario", sc[1], "policy", p, "mean", mean, "sd", sd)
        lines[#lines + 1] = ("%-12s %-19s %6s %6s %6s %10s %9s %9s %9s %6s %6s %6s %6s\n"):format(
          sc[1], p, py.fixed(mean.capacity_realization, 3), py.fixed(mean.slo_attainment, 3),
          py.fixed(mean.train_ettr, 3), money(mean.stranded_gpu_h),
          money(mean.stranded_idle_gpu_h), money(mean.stranded_reservation_gpu_h),
          money(mean.stranded_train_overhead_gpu_h), py.fixed(mean.preemptions, 0),
          py.fixed(mean.emergency_kills, 0), py.fixed(mean.resizes, 0),
          py.fixed(mean.mean_wait_h, 1))
      end
    end
    if args.format == "json" then
      out:json(engine.object("pack", "scheduling", "days", base.horizon_days,
                             "seeds", array(seeds), "rows", rows, "aggregate", agg,
                             "findings", findings_array(findings)))
    else
      out:write(table.concat(lines))
    end
    return finish(args, out, findings)
  end),
}

-- ---- sensitivity (4.6) ----------------------------------------------------------

local LOADS, POWERS = { 0.7, 0.95, 1.2 }, { 0.6, 0.75, 1.0 }
local CELLS = { { false, false, "00" }, { true, false, "10" }, { false, true, "01" },
                { true, true, "11" } }

-- The factorial of 4.6: summaries, each run's metrics, the first censored run.
function SCHED.factorial(days, seeds, keep_runs)
  local summaries, runs, censored = {}, {}, nil
  for _, load in ipairs(LOADS) do
    for _, power in ipairs(POWERS) do
      local cfg = SCHED.resolved(CONFIG, { offered_load = load, power_envelope = true,
                                           power_frac = power, failures = true,
                                           inf_surges = true, horizon_days = days })
      limit_check(cfg)
      local cells = {}
      for _, c in ipairs(CELLS) do cells[c[3]] = {} end
      -- The cell's runs at once, on threads, in seed-then-cell order.
      local batch = {}
      for _, seed in ipairs(seeds) do
        for _, c in ipairs(CELLS) do
          batch[#batch + 1] = { config = SCHED.with_seed(cfg, seed), policy = "intent-closed-loop",
                                opts = { tracking = c[1], elasticity = c[2] } }
        end
      end
      local results, next_result = SCHED.simulate_batch(batch), 0
      for _, seed in ipairs(seeds) do
        for _, c in ipairs(CELLS) do
          next_result = next_result + 1
          local r = results[next_result]
          local xs = cells[c[3]]
          xs[#xs + 1] = r.metrics.capacity_realization
          if r.jobs_never_started > 0 and not censored then
            censored = { summary = #summaries, n = r.jobs_never_started }
          end
          if keep_runs then
            runs[#runs + 1] = engine.object("load", load, "power_fraction", power,
                                            "seed", seed, "tracking", c[1],
                                            "elasticity", c[2],
                                            "metrics", metrics_json(r.metrics))
          end
        end
      end
      local m = {}
      for _, c in ipairs(CELLS) do m[c[3]] = models.scheduling.mean(cells[c[3]]) end
      summaries[#summaries + 1] = { load = load, power = power, cells = m,
                                    interaction = ((m["11"] - m["10"]) - m["01"]) + m["00"] }
    end
  end
  return summaries, runs, censored
end

prog:verb {
  name    = "sensitivity",
  summary = "factorial ablation of demand tracking and elasticity",
  options = { { "--days", type = "int", default = 14, min = 1, max = 366, metavar = "N",
                help = "horizon in days" },
              { "--seeds", type = "string", metavar = "S,S,...", help = "seeds (default 0..11)" },
              { "--runs", type = "flag", help = "also print every run" },
              fmt_opt(), STRICT_OPT },
  run     = guarded("sensitivity", function(args, out)
    local default = {}
    for i = 0, 11 do default[#default + 1] = i end
    local seeds = seeds_arg(args, default)
    local summaries, runs, censored = SCHED.factorial(args.days, seeds, args.runs)
    local findings = {}
    if censored then
      findings[1] = strict_finding(args, CENSORED,
                                   censored_message(censored.n, "a factorial run"),
                                   ("/summaries/%d"):format(censored.summary))
    end
    if args.format == "json" then
      local list = engine.array()
      for i, s in ipairs(summaries) do
        list[i] = engine.object("load", s.load, "power_fraction", s.power,
                                "cells", engine.object("00", s.cells["00"], "10", s.cells["10"],
                                                       "01", s.cells["01"], "11", s.cells["11"]),
                                "interaction", s.interaction)
      end
      local rl = engine.null
      if args.runs then
        rl = engine.array()
        for i, r in ipairs(runs) do rl[i] = r end
      end
      out:json(engine.object("pack", "scheduling", "days", args.days, "seeds", array(seeds),
                             "summaries", list, "runs", rl, "findings", findings_array(findings)))
    else
      local lines = { ("%-5s %-6s %8s %8s %8s %8s %12s\n"):format("load", "power", "00", "10",
                                                                  "01", "11", "interaction") }
      for _, s in ipairs(summaries) do
        lines[#lines + 1] = ("%-5s %-6s %8s %8s %8s %8s %12s\n"):format(
          py.repr(s.load), py.repr(s.power), py.fixed(s.cells["00"], 4),
          py.fixed(s.cells["10"], 4), py.fixed(s.cells["01"], 4), py.fixed(s.cells["11"], 4),
          py.fixed(s.interaction, 4))
      end
      out:write(table.concat(lines))
    end
    return finish(args, out, findings)
  end),
}

-- ---- replay (4.7) and the capacity ledger (5.9) -----------------------------------

local MODEL_ID = "scheduling-sim/1"
local ASSUMPTIONS = {
  "the workload is synthetic and time moves in five-minute steps; placement is abstract "
  .. "and the cluster has one tenant",
  "training progress is linear in the GPUs a job holds, less one step of overhead after "
  .. "each start, restart or resize",
  "inference is an aggregate demand curve, not request latency or token goodput",
  "a graceful preemption keeps its work and is charged no checkpoint write",
  "network and reliability penalties are not composed into this ledger",
}
local CAL_KEYS = { "workload_id", "hardware_id", "model_id", "protocol_id", "unit",
                   "units_per_productive_gpu_h", "evidence_kind", "source", "assumptions" }

local function close(a, b)
  return math.abs(a - b) <= math.max(1e-9 * math.max(math.abs(a), math.abs(b)), 1e-6)
end

local function digest(v)
  return (models.scheduling.canonical_digest(v))
end

-- A bucket within -1e-6 of 0 reads 0.0; further below is an internal error.
local function bucket(x, name)
  if x < -1e-6 then
    error(("ledger bucket %s is negative (%s GPU-h): the accounting broke")
          :format(name, py.repr(x)))
  end
  if x < 0 then return 0.0 end
  return x
end

-- A projection must be finite (5.9.2): a rate near the largest double times
-- the credited GPU-hours can overflow, which refuses the rate.
local function projection(credited, cal, key, file)
  local units = credited * float(cal.units_per_productive_gpu_h)
  if units ~= units or units == math.huge then
    local w = engine.where(cal, "units_per_productive_gpu_h")
    input_error({ { file = file, line = w.line, column = w.column,
                    path = ("/workloads/%s/units_per_productive_gpu_h"):format(key),
                    message = ("units_per_productive_gpu_h %s times %s productive GPU-h is not a "
                               .. "finite projection"):format(py.repr(
                               float(cal.units_per_productive_gpu_h)), py.repr(credited)) } })
  end
  return units
end

function SCHED.replay_report(cfg, policy, workloads, file)
  local run = limited(SCHED.simulate, cfg, policy, {})
  local L = run.ledger
  local productive = L.train_productive_gpu_h + L.inf_productive_gpu_h
  local buckets = engine.object(
    "productive", bucket(productive, "productive"),
    "unavailable", bucket(L.nominal_gpu_h - L.envelope_gpu_h, "unavailable"),
    "idle", bucket((L.envelope_gpu_h - L.inf_alloc_gpu_h) - L.train_alloc_gpu_h, "idle"),
    "inference_reservation", bucket(L.inf_alloc_gpu_h - L.inf_productive_gpu_h,
                                    "inference_reservation"),
    "training_overhead_and_discarded", bucket(L.train_alloc_gpu_h - L.train_productive_gpu_h,
                                              "training_overhead_and_discarded"))
  local sum = 0.0
  for _, k in ipairs({ "productive", "unavailable", "idle", "inference_reservation",
                       "training_overhead_and_discarded" }) do
    sum = sum + buckets[k]
  end
  if not close(sum, L.nominal_gpu_h) then
    error(("ledger buckets sum to %s GPU-h, not the nominal %s"):format(py.repr(sum),
                                                                       py.repr(L.nominal_gpu_h)))
  end
  local credit = { training = L.train_productive_gpu_h, inference = L.inf_productive_gpu_h }
  local wl = engine.object()
  for _, key in ipairs({ "inference", "training" }) do
    local cal = workloads and workloads[key]
    if cal then
      local plain = engine.plain(cal)
      local ordered = engine.object()
      for _, k in ipairs(CAL_KEYS) do ordered[k] = plain[k] end
      wl[key] = engine.object("calibration", ordered, "calibration_id", digest(plain),
                              "projected_units", projection(credit[key], cal, key, file),
                              "evidence_kind", "simulation")
    end
  end
  local provenance = engine.object("implementation", "infragate " .. engine.version,
                                   "model", MODEL_ID, "config", config_json(cfg),
                                   "policy", policy)
  local envelope = L.envelope_gpu_h
  return engine.object(
    "schema_version", "scheduler-capacity/v1", "evidence_kind", "simulation",
    "run_id", digest({ provenance = provenance, workloads = wl }),
    "provenance", provenance, "unit", "GPU-hour", "window_hours", 24 * cfg.horizon_days,
    "nominal_gpu_h", L.nominal_gpu_h, "envelope_gpu_h", envelope,
    "productive_by_workload_gpu_h", engine.object("training", L.train_productive_gpu_h,
                                                  "inference", L.inf_productive_gpu_h),
    "buckets_gpu_h", buckets,
    "productive_fraction_of_nominal", productive / L.nominal_gpu_h,
    "productive_fraction_of_envelope", envelope > 0 and productive / envelope or engine.null,
    "workloads", wl, "assumptions", array(ASSUMPTIONS))
end

-- A replay scenario document into (config, policy, workloads), --set over /config.
local function scenario_inputs(doc, file, sets)
  local given, origins = {}, {}
  if doc.config ~= nil and engine.has(doc.config, "kind") then
    local w = engine.where(doc.config, "kind", "key")
    input_error({ { message = "kind is not allowed inside a replay scenario's config",
                    file = file, line = w.line, column = w.column, path = "/config/kind" } })
  end
  take_fields(CONFIG, doc.config, file, given, origins)
  apply_sets(CONFIG, sets, given, origins, "/config")
  local cfg = SCHED.resolved(CONFIG, given)
  cross_errors(SCHED.config_cross(cfg), origins, "/config")
  limit_check(cfg, "/config")
  return cfg, doc.policy, doc.workloads
end

local function synthetic_findings(args, report, doc, file)
  local findings = {}
  for _, key in ipairs({ "inference", "training" }) do
    local w = report.workloads[key]
    if w and w.calibration.evidence_kind == "synthetic" then
      local where = engine.where(doc.workloads[key], "evidence_kind")
      findings[#findings + 1] = strict_finding(args, "scheduling.strict.synthetic-calibration",
        ("the %s calibration is synthetic: its %s projected %s rest on an invented rate")
          :format(key, py.repr(w.projected_units), w.calibration.unit),
        ("/workloads/%s/evidence_kind"):format(key),
        { file = file, line = where.line, column = where.column })
    end
  end
  return findings
end

local function report_text(r)
  local b = r.buckets_gpu_h
  local lines = {
    ("%s over %d h (%s), nominal %s GPU-h, envelope %s GPU-h\n")
      :format(r.provenance.policy, r.window_hours, r.unit, py.fixed(r.nominal_gpu_h, 1),
              py.fixed(r.envelope_gpu_h, 1)),
  }
  for _, k in ipairs({ "productive", "unavailable", "idle", "inference_reservation",
                       "training_overhead_and_discarded" }) do
    lines[#lines + 1] = ("  %-32s %14s GPU-h  %7s of nominal\n")
                        :format(k, py.fixed(b[k], 1), py.fixed(b[k] / r.nominal_gpu_h, 4))
  end
  lines[#lines + 1] = ("productive share: %s of nominal, %s of the envelope\n")
                      :format(py.fixed(r.productive_fraction_of_nominal, 4),
                              engine.isnull(r.productive_fraction_of_envelope) and "n/a"
                              or py.fixed(r.productive_fraction_of_envelope, 4))
  for _, key in ipairs({ "inference", "training" }) do
    local w = r.workloads[key]
    if w then
      lines[#lines + 1] = ("  %s: %s %s projected (a simulation)\n")
                          :format(key, py.fixed(w.projected_units, 1), w.calibration.unit)
    end
  end
  return table.concat(lines)
end

local REPORT_ORDER = { "schema_version", "evidence_kind", "run_id", "provenance", "unit",
                       "window_hours", "nominal_gpu_h", "envelope_gpu_h",
                       "productive_by_workload_gpu_h", "buckets_gpu_h",
                       "productive_fraction_of_nominal", "productive_fraction_of_envelope",
                       "workloads", "assumptions" }

prog:verb {
  name     = "replay",
  summary  = "conserving capacity ledger of one policy run",
  operands = { name = "SCENARIO", min = 1, max = 1 },
  options  = { SET_OPT, fmt_opt(), STRICT_OPT },
  run      = guarded("replay", function(args, out)
    local file = args.operands[1]
    local doc = load_doc(file, "capacity-replay", false)
    local cfg, policy, workloads = scenario_inputs(doc, file, args.set)
    local report = SCHED.replay_report(cfg, policy, workloads, file)
    local findings = synthetic_findings(args, report, doc, file)
    if args.format == "json" then
      local o = engine.object("pack", "scheduling")
      for _, k in ipairs(REPORT_ORDER) do o[k] = report[k] end
      o.findings = findings_array(findings)
      out:json(o)
    else
      out:write(report_text(report))
    end
    return finish(args, out, findings)
  end),
}

-- ---- compare (4.8) ---------------------------------------------------------------

local function refuse(file, path, message)
  input_error({ { message = message, file = file, path = path } })
end

-- The report checks of 5.9.4 beyond the schema's types.
local function check_report(r, file)
  local c = r.provenance.config
  local given = {}
  for _, f in ipairs(CONFIG) do
    if c[f[1]] == nil then
      refuse(file, "/provenance/config/" .. f[1],
             ("provenance.config lacks %s: a report names its whole config"):format(f[1]))
    end
    given[f[1]] = c[f[1]]
  end
  local cfg = SCHED.resolved(CONFIG, given)
  for _, p in ipairs(SCHED.config_cross(cfg)) do
    refuse(file, "/provenance/config/" .. p[1], p[2])
  end
  local b = r.buckets_gpu_h
  local productive = b.productive
  local checks = {
    { close(r.window_hours, 24 * cfg.horizon_days), "/window_hours",
      "window_hours is not 24 x horizon_days" },
    { close(r.nominal_gpu_h, cfg.gpus * r.window_hours), "/nominal_gpu_h",
      "nominal_gpu_h is not gpus x window_hours" },
    { r.envelope_gpu_h <= r.nominal_gpu_h, "/envelope_gpu_h", "the envelope exceeds nominal" },
    { close((((b.productive + b.unavailable) + b.idle) + b.inference_reservation)
            + b.training_overhead_and_discarded, r.nominal_gpu_h), "/buckets_gpu_h",
      "the buckets do not sum to nominal" },
    { close(b.unavailable, r.nominal_gpu_h - r.envelope_gpu_h), "/buckets_gpu_h/unavailable",
      "unavailable is not nominal - envelope" },
    { close(r.productive_by_workload_gpu_h.training + r.productive_by_workload_gpu_h.inference,
            productive), "/productive_by_workload_gpu_h",
      "the workload credits do not sum to the productive bucket" },
    { close(r.productive_fraction_of_nominal, productive / r.nominal_gpu_h),
      "/productive_fraction_of_nominal", "the nominal fraction is not productive / nominal" },
  }
  local fe = r.productive_fraction_of_envelope
  if r.envelope_gpu_h == 0 then
    checks[#checks + 1] = { engine.isnull(fe), "/productive_fraction_of_envelope",
                            "the envelope fraction must be null when the envelope is 0" }
  else
    checks[#checks + 1] = { not engine.isnull(fe) and close(fe, productive / r.envelope_gpu_h),
                            "/productive_fraction_of_envelope",
                            "the envelope fraction is not productive / envelope" }
  end
  for _, ck in ipairs(checks) do
    if not ck[1] then refuse(file, ck[2], "the report fails its accounting: " .. ck[3]) end
  end
  local credit = { training = r.productive_by_workload_gpu_h.training,
                   inference = r.productive_by_workload_gpu_h.inference }
  for key, w in pairs(r.workloads) do
    local plain = engine.plain(w.calibration)
    if digest(plain) ~= w.calibration_id then
      refuse(file, ("/workloads/%s/calibration_id"):format(key),
             "calibration_id is not the digest of its calibration")
    end
    if not close(w.projected_units, credit[key] * plain.units_per_productive_gpu_h) then
      refuse(file, ("/workloads/%s/projected_units"):format(key),
             "projected_units is not the credit times the calibration's rate")
    end
  end
  local wl = engine.plain(r.workloads)
  if digest({ provenance = engine.plain(r.provenance), workloads = wl }) ~= r.run_id then
    refuse(file, "/run_id", "run_id is not the digest of provenance and workloads")
  end
end

-- An operand of compare as a report: a report document, or a scenario replayed.
local function compare_operand(file)
  local probe = load_doc(file, nil, true)
  if engine.type(probe) == "map" and probe.schema_version == nil and probe.policy ~= nil then
    local doc = file == "-" and engine.view("capacity-replay", engine.plain(probe))
                or load_doc(file, "capacity-replay")
    local cfg, policy, workloads = scenario_inputs(doc, file, nil)
    local rep = SCHED.replay_report(cfg, policy, workloads, file)
    return rep, true
  end
  local doc = file == "-" and engine.view("capacity-report", engine.plain(probe))
              or load_doc(file, "capacity-report", true)
  check_report(doc, file)
  return doc, false
end

local function same(a, b)
  return digest(engine.type(a) == "lua" and a or engine.plain(a))
         == digest(engine.type(b) == "lua" and b or engine.plain(b))
end

prog:verb {
  name     = "compare",
  summary  = "difference of two capacity reports made on identical inputs",
  operands = { name = "REPORT", min = 2, max = 2 },
  options  = { fmt_opt() },
  run      = guarded("compare", function(args, out)
    local fb, fc = args.operands[1], args.operands[2]
    local base = compare_operand(fb)
    local cand = compare_operand(fc)
    for _, k in ipairs({ "config", "model", "implementation" }) do
      if not same(base.provenance[k], cand.provenance[k]) then
        refuse(fc, "/provenance/" .. k,
               ("the two reports differ in provenance.%s: they were not made on identical "
                .. "inputs"):format(k))
      end
    end
    local keys = {}
    for k in pairs(base.workloads) do keys[#keys + 1] = k end
    table.sort(keys)
    local ck = 0
    for _ in pairs(cand.workloads) do ck = ck + 1 end
    if ck ~= #keys then refuse(fc, "/workloads", "the two reports project different workloads") end
    local deltas = engine.object()
    for _, k in ipairs(keys) do
      local bw, cw = base.workloads[k], cand.workloads[k]
      if cw == nil then refuse(fc, "/workloads/" .. k, "the candidate lacks workload " .. k) end
      if not same(bw.calibration, cw.calibration) then
        refuse(fc, ("/workloads/%s/calibration"):format(k),
               ("the calibrations of workload %s differ"):format(k))
      end
      deltas[k] = engine.object("unit", bw.calibration.unit,
                                "delta_projected_units", cw.projected_units - bw.projected_units)
    end
    local delta = cand.buckets_gpu_h.productive - base.buckets_gpu_h.productive
    if args.format == "json" then
      out:json(engine.object("pack", "scheduling", "evidence_kind", "simulation",
                             "baseline_run_id", base.run_id, "candidate_run_id", cand.run_id,
                             "delta_productive_gpu_h", delta, "workloads", deltas,
                             "findings", engine.array()))
    else
      local lines = { ("candidate minus baseline: %s productive GPU-h\n")
                      :format(py.fixed(delta, 1)) }
      for _, k in ipairs(keys) do
        lines[#lines + 1] = ("  %s: %s %s\n"):format(k,
                                                     py.fixed(deltas[k].delta_projected_units, 1),
                                                    deltas[k].unit)
      end
      out:write(table.concat(lines))
    end
    return 0
  end),
}

-- ---- inference (4.9, 5.10) ------------------------------------------------------

local REQ_KEYS = { "arrival_s", "input_tokens", "output_tokens", "cached_prefix_tokens" }

local function request_of(item, i, file)
  local r = {}
  local list = engine.type(item) == "list"
  for k, key in ipairs(REQ_KEYS) do
    local v
    if list then v = item[k] else v = item[key] end
    r[key] = v
  end
  r.cached_prefix_tokens = r.cached_prefix_tokens or 0
  local problems = {}
  local function bad(key, why)
    local idx = list and 0 or nil
    for k, name in ipairs(REQ_KEYS) do
      if name == key then idx = k end
    end
    local at = list and (idx <= #item and idx or nil) or key
    local w = at and engine.where(item, at) or engine.where(item)
    problems[#problems + 1] = { message = ("request %d: %s %s"):format(i - 1, key, why),
                                file = file, line = w.line, column = w.column,
                                path = ("/requests/%d%s"):format(i - 1,
                                  list and ("/" .. (idx - 1)) or ("/" .. key)) }
  end
  local a = r.arrival_s
  if type(a) ~= "number" or a ~= a or a == math.huge or a < 0 then
    bad("arrival_s", "must be a finite number >= 0")
  end
  for _, key in ipairs({ "input_tokens", "output_tokens" }) do
    if math.type(r[key]) ~= "integer" or r[key] < 1 then bad(key, "must be an integer >= 1") end
  end
  local c = r.cached_prefix_tokens
  if math.type(c) ~= "integer" or c < 0
     or (math.type(r.input_tokens) == "integer" and c > r.input_tokens) then
    bad("cached_prefix_tokens", "must be an integer within 0..input_tokens")
  end
  if type(a) == "number" then r.arrival_s = float(a) end
  return r, problems
end

local HW_KEYS = { "compute_flops_s", "memory_bytes", "memory_bandwidth_bytes_s" }

local function inference_result(hw, requests, options, input_class)
  local res = models.scheduling.inference(hw, requests, options)
  local list = engine.array()
  for i, r in ipairs(res.requests) do
    if r.state == "done" then
      list[i] = engine.object("id", i - 1, "rejected", false, "ttft_s", r.ttft_s,
                              "max_itl_s", r.max_itl_s,
                              "output_tokens", requests[i].output_tokens, "slo_met", r.slo_met)
    else
      list[i] = engine.object("id", i - 1, "rejected", true, "reason", r.state)
    end
  end
  local hwo = engine.object("name", hw.name)
  for _, k in ipairs(HW_KEYS) do hwo[k] = hw[k] end
  hwo.efficiency = hw.efficiency
  return engine.object("evidence_class", "simulated", "input_class", input_class,
                       "hardware", hwo, "policy", options.policy,
                       "peak_concurrency", res.peak_concurrency, "makespan_s", res.makespan_s,
                       "requests", list, "slo_attainment", res.slo_attainment,
                       "slo_goodput_output_tokens_s", res.slo_goodput_output_tokens_s)
end

local MAX_REQUESTS, MAX_OUTPUT_TOKENS = 100000, 10000000   -- spec 3.5 (input.limit)

local OPTION_DEFAULTS = { parameters = 7e9, bytes_per_parameter = 2.0,
                          kv_bytes_per_token = 131072.0, ttft_slo_s = 1.0, itl_slo_s = 0.05 }

local function scenario_inference(file)
  local doc = load_doc(file, "inference-scenario")
  local hw = { name = doc.hardware.name, efficiency = float(doc.hardware.efficiency or 0.5) }
  for _, k in ipairs(HW_KEYS) do hw[k] = float(doc.hardware[k]) end
  local opts = { max_batch = 16, policy = "decode-first" }
  for k, d in pairs(OPTION_DEFAULTS) do
    opts[k] = float(doc.options and doc.options[k] or d)
  end
  if doc.options then
    opts.max_batch = doc.options.max_batch or 16
    opts.policy = doc.options.policy or "decode-first"
  end
  if not (opts.parameters * opts.bytes_per_parameter < hw.memory_bytes) then
    local at = doc.options and engine.has(doc.options, "parameters") and doc.options or doc
    local w = at == doc and engine.where(doc) or engine.where(doc.options, "parameters")
    input_error({ { message = ("the weights (parameters %s x bytes_per_parameter %s) leave no "
                               .. "KV memory in memory_bytes %s"):format(py.repr(opts.parameters),
                               py.repr(opts.bytes_per_parameter), py.repr(hw.memory_bytes)),
                    file = file, line = w.line, column = w.column, path = "/options/parameters" } })
  end
  if #doc.requests > MAX_REQUESTS then
    local w = engine.where(doc, "requests")
    input_error({ { rule = "input.limit", file = file, line = w.line, column = w.column,
                    path = "/requests",
                    message = ("%d requests is over the limit of 100,000")
                              :format(#doc.requests) } })
  end
  local requests, problems, tokens = {}, {}, 0
  for i, item in ipairs(doc.requests) do
    local r, p = request_of(item, i, file)
    requests[i] = r
    for _, x in ipairs(p) do problems[#problems + 1] = x end
    -- Summed as a float and capped per item: huge counts cannot wrap around.
    if math.type(r.output_tokens) == "integer" then
      tokens = math.min(tokens + r.output_tokens, MAX_OUTPUT_TOKENS + 1.0)
    end
  end
  if #problems > 0 then input_error(problems) end
  if tokens > MAX_OUTPUT_TOKENS then
    local w = engine.where(doc, "requests")
    input_error({ { rule = "input.limit", file = file, line = w.line, column = w.column,
                    path = "/requests",
                    message = "the requests ask for more than 10,000,000 output tokens "
                              .. "in total" } })
  end
  return inference_result(hw, requests, opts, "scenario")
end

local SWEEP_HW = {
  { name = "scenario-compute-rich", compute_flops_s = 2e14, memory_bytes = 8e10,
    memory_bandwidth_bytes_s = 1e12, efficiency = 0.5 },
  { name = "scenario-bandwidth-rich", compute_flops_s = 1e14, memory_bytes = 8e10,
    memory_bandwidth_bytes_s = 2e12, efficiency = 0.5 },
}
local SWEEP_SHAPES = { { 128, 128 }, { 2048, 128 }, { 8192, 32 } }

local function sweep()
  local runs = engine.array()
  for _, hw in ipairs(SWEEP_HW) do
    for _, shape in ipairs(SWEEP_SHAPES) do
      for _, conc in ipairs({ 1, 8, 32 }) do
        for _, cache in ipairs({ 0.0, 0.5 }) do
          for _, policy in ipairs({ "decode-first", "prefill-first" }) do
            local requests = {}
            for i = 0, conc - 1 do
              requests[i + 1] = { arrival_s = i * 0.001, input_tokens = shape[1],
                                  output_tokens = shape[2],
                                  cached_prefix_tokens = math.floor(shape[1] * cache) }
            end
            local opts = { max_batch = 16, policy = policy }
            for k, d in pairs(OPTION_DEFAULTS) do opts[k] = d end
            runs[#runs + 1] = engine.object("input_length", shape[1], "output_length", shape[2],
                                            "concurrency", conc, "cache_fraction", cache,
                                            "result", inference_result(hw, requests, opts, "sweep"))
          end
        end
      end
    end
  end
  return runs
end

local function inference_text(r)
  local lines = {
    ("%s on %s (%s): peak concurrency %d, makespan %s s\n")
      :format(r.input_class, r.hardware.name, r.policy, r.peak_concurrency,
              py.fixed(r.makespan_s, 4)),
  }
  for _, q in ipairs(r.requests) do
    if q.rejected then
      lines[#lines + 1] = ("  request %d rejected (%s)\n"):format(q.id, q.reason)
    else
      lines[#lines + 1] = ("  request %d: TTFT %s s, worst gap %s s, %d tokens, SLO %s\n")
                          :format(q.id, py.fixed(q.ttft_s, 4), py.fixed(q.max_itl_s, 4),
                                  q.output_tokens, q.slo_met and "met" or "missed")
    end
  end
  lines[#lines + 1] = ("SLO attainment %s, goodput %s tokens/s\n")
                      :format(py.fixed(r.slo_attainment, 4),
                              py.fixed(r.slo_goodput_output_tokens_s, 2))
  return table.concat(lines)
end

prog:verb {
  name    = "inference",
  summary = "single-device inference service model, or the built-in 72-run sweep",
  options = { { "--scenario", type = "path", metavar = "FILE", help = "an inference-scenario" },
              { "--sweep", type = "flag", help = "run the 72 built-in scenarios" },
              fmt_opt() },
  run     = guarded("inference", function(args, out)
    if (args.scenario ~= nil) == (args.sweep == true) then
      engine.usage(args.scenario and "--sweep" or "--scenario",
                   "give exactly one of --scenario FILE and --sweep")
    end
    if args.sweep then
      local runs = sweep()
      if args.format == "json" then
        out:json(engine.object("pack", "scheduling", "runs", runs, "findings", engine.array()))
      else
        local lines = {}
        for _, r in ipairs(runs) do
          lines[#lines + 1] = ("%-24s %5d/%-4d x%-3d cache %s %-14s makespan %s s  SLO %s  "
                               .. "goodput %s tok/s\n"):format(r.result.hardware.name,
            r.input_length, r.output_length, r.concurrency, py.fixed(r.cache_fraction, 1),
            r.result.policy, py.fixed(r.result.makespan_s, 4),
            py.fixed(r.result.slo_attainment, 4),
            py.fixed(r.result.slo_goodput_output_tokens_s, 2))
        end
        out:write(table.concat(lines))
      end
      return 0
    end
    local r = scenario_inference(args.scenario)
    if args.format == "json" then
      local o = engine.object("pack", "scheduling")
      for _, k in ipairs({ "evidence_class", "input_class", "hardware", "policy",
                           "peak_concurrency", "makespan_s", "requests", "slo_attainment",
                           "slo_goodput_output_tokens_s" }) do
        o[k] = r[k]
      end
      o.findings = engine.array()
      out:json(o)
    else
      out:write(inference_text(r))
    end
    return 0
  end),
}

-- ---- philly (4.10, 5.11) -----------------------------------------------------------

local function days_from_civil(y, m, d)
  y = m <= 2 and y - 1 or y
  local era = (y >= 0 and y or y - 399) // 400
  local yoe = y - era * 400
  local doy = (153 * (m + (m > 2 and -3 or 9)) + 2) // 5 + d - 1
  local doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
  return era * 146097 + doe - 719468
end

local MONTH_DAYS = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 }

local function valid_date(y, m, d)
  if m < 1 or m > 12 or d < 1 then return false end
  local leap = (y % 4 == 0 and y % 100 ~= 0) or y % 400 == 0
  return d <= (m == 2 and leap and 29 or MONTH_DAYS[m])
end

-- Seconds since the epoch of "YYYY-MM-DD HH:MM:SS", or nil.
local function parse_time(v)
  if type(v) ~= "string" then return nil end
  local y, mo, d, h, mi, s = v:match("^(%d%d%d%d)%-(%d%d?)%-(%d%d?) (%d%d?):(%d%d?):(%d%d?)$")
  if not y then return nil end
  y, mo, d, h, mi, s = tonumber(y), tonumber(mo), tonumber(d), tonumber(h), tonumber(mi),
                       tonumber(s)
  if not valid_date(y, mo, d) or h > 23 or mi > 59 or s > 61 then return nil end
  return ((days_from_civil(y, mo, d) * 24 + h) * 60 + mi) * 60 + s
end

local function is_map(v) return engine.type(v) == "map" end
local function is_list(v) return engine.type(v) == "list" end

-- One attempt: size and hours, or nil when it is incomplete or invalid.
local function attempt_of(a, submitted)
  if not is_map(a) then return nil end
  local start, finish_t = parse_time(a.start_time), parse_time(a.end_time)
  if not start or not finish_t or not is_list(a.detail) then return nil end
  local seen, n = {}, 0
  for _, dev in ipairs(a.detail) do
    if not is_map(dev) or not is_list(dev.gpus) or dev.ip == nil then return nil end
    for _, gpu in ipairs(dev.gpus) do
      local key = engine.json(engine.plain(dev.ip)) .. "\0" .. engine.json(engine.plain(gpu))
      if seen[key] then return nil end
      seen[key] = true
      n = n + 1
    end
  end
  local hours = (finish_t - start) / 3600
  if n == 0 or hours <= 0 or start < submitted then return nil end
  return { size = n, hours = hours, finish = finish_t }
end

local function partition_stats(list)
  local gpu_h, large, small = 0.0, 0.0, 0
  local counts = {}
  for _, a in ipairs(list) do
    local gh = a.size * a.hours
    gpu_h = gpu_h + gh
    if a.size >= 256 then large = large + gh end
    if a.size < 8 then small = small + 1 end
    counts[a.size] = (counts[a.size] or 0) + 1
  end
  local n = #list
  local sizes = {}
  for s in pairs(counts) do sizes[#sizes + 1] = s end
  table.sort(sizes)
  local probs, pmap = engine.object(), {}
  for _, s in ipairs(sizes) do
    probs[tostring(s)] = counts[s] / n
    pmap[s] = counts[s] / n
  end
  return engine.object("attempts", n, "mean_allocated_gpu_hours", gpu_h / n,
                       "small_attempt_share", small / n,
                       "large_allocated_time_share", gpu_h > 0 and large / gpu_h or 0.0,
                       "size_probability", probs), pmap
end

-- Seconds since the epoch of the cutoff's midnight; a usage error otherwise.
local function parse_cutoff(cutoff_text)
  local y, m, d = cutoff_text:match("^(%d%d%d%d)%-(%d%d)%-(%d%d)$")
  local cutoff = y and valid_date(tonumber(y), tonumber(m), tonumber(d))
                 and days_from_civil(tonumber(y), tonumber(m), tonumber(d)) * 86400
  if not cutoff then
    engine.usage("--cutoff", ("--cutoff takes a date YYYY-MM-DD, got '%s'"):format(cutoff_text))
  end
  return cutoff
end

-- A copy of a log view that canonical JSON can encode: a YAML timestamp
-- (a userdata) becomes its Python str() text.
local function digestible(v)
  local t = engine.type(v)
  if t == "map" then
    local o = engine.object()
    for k, x in pairs(v) do o[k] = digestible(x) end
    return o
  elseif t == "list" then
    local a = engine.array()
    for i, x in ipairs(v) do a[i] = digestible(x) end
    return a
  end
  if type(v) == "userdata" and not engine.isnull(v) then return tostring(v) end
  return v
end

-- The digest of the log as read (divergence: its canonical JSON, not its bytes).
local function log_digest(doc)
  local ok, d = pcall(models.scheduling.canonical_digest, engine.plain(doc))
  if ok then return d end
  return models.scheduling.canonical_digest(digestible(doc))
end

local function philly(doc, cutoff_text, file)
  local cutoff = parse_cutoff(cutoff_text)
  local ex = { missing_or_invalid_submission = 0, no_attempts = 0,
               incomplete_or_invalid_attempt = 0, cross_cutoff_attempts = 0 }
  local cal, val = {}, {}
  for _, rec in ipairs(doc) do
    local submitted = is_map(rec) and parse_time(rec.submitted_time)
    if not submitted then
      ex.missing_or_invalid_submission = ex.missing_or_invalid_submission + 1
    elseif not is_list(rec.attempts) or #rec.attempts == 0 then
      ex.no_attempts = ex.no_attempts + 1
    else
      for _, a in ipairs(rec.attempts) do
        local at = attempt_of(a, submitted)
        if not at then
          ex.incomplete_or_invalid_attempt = ex.incomplete_or_invalid_attempt + 1
        elseif submitted >= cutoff then
          val[#val + 1] = at
        elseif at.finish < cutoff then
          cal[#cal + 1] = at
        else
          ex.cross_cutoff_attempts = ex.cross_cutoff_attempts + 1
        end
      end
    end
  end
  for _, part in ipairs({ { "calibration", cal }, { "validation", val } }) do
    if #part[2] == 0 then
      input_error({ { file = file,
                      message = ("the %s partition is empty: no valid attempt falls %s the "
                                 .. "cutoff %s"):format(part[1], part[1] == "calibration"
                                 and "wholly before" or "on or after", cutoff_text) } })
    end
  end
  local cs, cp = partition_stats(cal)
  local vs, vp = partition_stats(val)
  local union = {}
  for s in pairs(cp) do union[s] = true end
  for s in pairs(vp) do union[s] = true end
  local sizes = {}
  for s in pairs(union) do sizes[#sizes + 1] = s end
  table.sort(sizes)
  local tv = 0.0
  for _, s in ipairs(sizes) do tv = tv + math.abs((cp[s] or 0.0) - (vp[s] or 0.0)) end
  return engine.object(
    "schema_version", "philly-workload-validation/v1", "evidence_class", "external-observed",
    "source_sha256", log_digest(doc),
    "calibration_before", cutoff_text, "validation_on_or_after", cutoff_text,
    "excluded", engine.object("missing_or_invalid_submission", ex.missing_or_invalid_submission,
                              "no_attempts", ex.no_attempts,
                              "incomplete_or_invalid_attempt", ex.incomplete_or_invalid_attempt,
                              "cross_cutoff_attempts", ex.cross_cutoff_attempts),
    "calibration", cs, "validation", vs, "held_out_size_total_variation", 0.5 * tv)
end

prog:verb {
  name     = "philly",
  summary  = "workload-shape validation of a Philly job log: temporal split, sizes",
  operands = { name = "LOG", min = 1, max = 1 },
  options  = { { "--cutoff", type = "string", default = "2017-11-20", metavar = "YYYY-MM-DD",
                 help = "calibration before, validation on or after this date" },
               fmt_opt() },
  run      = guarded("philly", function(args, out)
    parse_cutoff(args.cutoff)    -- a usage error comes before reading the log
    local doc = load_doc(args.operands[1], "philly-job-log", true)
    local r = philly(doc, args.cutoff, args.operands[1])
    if args.format == "json" then
      local o = engine.object("pack", "scheduling")
      for _, k in ipairs({ "schema_version", "evidence_class", "source_sha256",
                           "calibration_before", "validation_on_or_after", "excluded",
                           "calibration", "validation", "held_out_size_total_variation" }) do
        o[k] = r[k]
      end
      o.findings = engine.array()
      out:json(o)
      return 0
    end
    local lines = { ("cutoff %s; log digest %s\n"):format(args.cutoff, r.source_sha256) }
    for _, part in ipairs({ "calibration", "validation" }) do
      local p = r[part]
      lines[#lines + 1] = ("%-11s %d attempts, mean %s GPU-h, small share %s, large GPU-time "
                           .. "share %s\n"):format(part, p.attempts,
        py.fixed(p.mean_allocated_gpu_hours, 4), py.fixed(p.small_attempt_share, 4),
        py.fixed(p.large_allocated_time_share, 4))
    end
    local e = r.excluded
    lines[#lines + 1] = ("excluded: %d invalid submissions, %d jobs without attempts, %d invalid "
                         .. "attempts, %d across the cutoff\n"):format(
      e.missing_or_invalid_submission, e.no_attempts, e.incomplete_or_invalid_attempt,
      e.cross_cutoff_attempts)
    lines[#lines + 1] = ("held-out size total variation %s\n")
                        :format(py.fixed(r.held_out_size_total_variation, 4))
    out:write(table.concat(lines))
    return 0
  end),
}

-- ---- validate (4.11) ----------------------------------------------------------------

-- The model each point exercises and the references of 7.1 (the pack's
-- own validate verb prints both; 4a and 4b are cited by no point).
local POINT_MODELS = {
  ["meta-most-jobs-small"] = "workload", ["meta-most-gpu-time-large"] = "workload",
  ["rsc1-failure-rate-constant"] = "-", ["meta-ettr-band"] = "sim",
  ["philly-large-jobs-wait-longer"] = "sim", ["scheduler-work-reclaims-capacity"] = "sim",
  ["emergency-kills-lose-work"] = "sim", ["queueing-grows-with-load"] = "sim",
  ["demand-tracking-cuts-reservation-waste"] = "sim",
  ["preset-alibaba-recovered-allocation"] = "calc",
  ["preset-harvard-aug2026-scheduler-layer"] = "calc",
  ["preset-meta-ettr-productivity-layer"] = "calc",
  ["expected-work-uses-capped-mean"] = "workload",
  ["preset-alibaba-before-allocation-layer"] = "calc",
  ["typical-composite-realized-share"] = "calc",
  ["allocation-gap-per-gpu-vs-outage"] = "calc",
  ["tracking-and-elasticity-each-help"] = "sens",
}

local REFERENCES = {
  { id = 1, source = "Harvard FASRC status page, 'Cannon cluster down', 29 May - 1 Jun 2026" },
  { id = 4, source = "Harvard FASRC cluster computing service page: Cannon has 1,000+ GPUs" },
  { id = "4a", source = "Harvard FASRC status page, emergency Slurm patch, 18 Aug 2026" },
  { id = "4b", source = "SchedMD bug 25685 (Slurm memory leak, fixed in 26.05.3)" },
  { id = 25, source = "Verma et al., Large-scale cluster management at Google with Borg, "
                      .. "EuroSys 2015" },
  { id = 34, source = "Kokolis et al. (Meta), Revisiting Reliability in Large-Scale ML Research "
                      .. "Clusters, arXiv:2410.21680" },
  { id = 35, source = "Jeon et al. (Microsoft), Analysis of Large-Scale Multi-Tenant GPU Clusters, "
                      .. "USENIX ATC 2019" },
  { id = 37, source = "Li et al. (Alibaba), Heterogeneity at Hyperscale, OSDI 2026" },
  { id = 41, source = "US 11,128,536 B2, intent-based traffic management" },
}

local function refs_text(refs)
  if #refs == 0 then return "-" end
  local parts = {}
  for i, r in ipairs(refs) do parts[i] = ("[%s]"):format(py.str(r)) end
  return table.concat(parts)
end

local function g4(x)
  if x == nil or engine.isnull(x) then return "none" end
  return ("%.4g"):format(x)
end

prog:verb {
  name    = "validate",
  summary = "the validation registry: 17 points, declined anchors, mutations",
  options = { { "--mutate", type = "choice", choices = MUTATIONS, metavar = "NAME",
                help = "break one mechanism on purpose: " .. table.concat(MUTATIONS, ", ") },
              fmt_opt() },
  run     = guarded("validate", function(args, out)
    local entry = engine.validate { mutation = args.mutate }
    local counts = { calibrated = 0, emergent = 0, sanity = 0 }
    local passed, exercising = 0, 0
    local points = engine.array()
    for i, p in ipairs(entry.points) do
      local model = POINT_MODELS[p.id] or "-"
      counts[p.kind] = counts[p.kind] + 1
      if p.ok then passed = passed + 1 end
      if model ~= "-" then exercising = exercising + 1 end
      points[i] = engine.object("id", p.id, "kind", p.kind, "model", model, "figure", p.figure,
                                "expected", p.expected, "tolerance", p.tolerance,
                                "actual", p.actual == nil and engine.null or p.actual,
                                "ok", p.ok, "refs", array(p.refs),
                                "source", p.source or engine.null, "note", p.note or engine.null,
                                "detail", p.detail or engine.object())
    end
    if args.format == "json" then
      local declined, refs = engine.array(), engine.array()
      for i, d in ipairs(entry.declined) do
        declined[i] = engine.object("what", d.what, "why", d.why)
      end
      for i, r in ipairs(REFERENCES) do refs[i] = engine.object("id", r.id, "source", r.source) end
      out:json(engine.object(
        "pack", "scheduling", "mutation", args.mutate or engine.null, "ok", entry.ok,
        "settings", entry.settings, "points", points, "declined", declined, "references", refs,
        "summary", engine.object("points", #points, "passed", passed, "failed", #points - passed,
                                 "calibrated", counts.calibrated, "emergent", counts.emergent,
                                 "sanity", counts.sanity, "exercising_model", exercising)))
      return entry.ok and 0 or 1
    end
    local lines = { ("scheduling validation registry%s\n")
                    :format(args.mutate and (" under mutation " .. args.mutate) or "") }
    for _, p in ipairs(points) do
      lines[#lines + 1] = ("%-44s %-10s %-9s %-8s expected %10s  actual %10s  tol %-8s %s\n")
                          :format(p.id, p.kind, refs_text(p.refs), p.model, g4(p.expected),
                                  g4(p.actual), g4(p.tolerance), p.ok and "PASS" or "FAIL")
    end
    lines[#lines + 1] = "declined anchors:\n"
    for _, d in ipairs(entry.declined) do
      lines[#lines + 1] = ("  %s: %s\n"):format(d.what, d.why)
    end
    lines[#lines + 1] = ("%d points: %d passed, %d failed (%d calibrated, %d emergent, %d sanity; "
                         .. "%d exercise a model)\n"):format(#points, passed, #points - passed,
      counts.calibrated, counts.emergent, counts.sanity, exercising)
    out:write(table.concat(lines))
    return entry.ok and 0 or 1
  end),
}

-- ---- lint (4.12) ------------------------------------------------------------------

prog:verb {
  name     = "lint",
  summary  = "rules over capacity requests and scheduler policies",
  lint     = true,
  operands = { name = "PATH", min = 1 },
  options  = { { "--strict", type = "flag", help = "run strict rules (the default)" },
               { "--no-strict", type = "flag", help = "do not run the strict rules" },
               fmt_opt(LINT_FORMATS) },
  run      = guarded("lint", function(args)
    return engine.lint { operands = args.operands, pack = "scheduling",
                         strict = verbs.strict_choice(args), format = args.format }
  end),
}
