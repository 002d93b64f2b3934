-- infragate scheduling stranded: three-layer stranded-capacity calculator for
-- one fleet and window.
-- Compiled when the verb runs (or its help is asked): it declares its options
-- and its run.
local py = require "py"
local cli_options = require "cli.options"
local cli_edge = require "cli.edge"

local money = SCHED.money
local STRANDED = SCHED.STRANDED_FIELDS
local guarded = cli_edge.guarded
local strict_finding = cli_edge.strict_finding
local finish = cli_edge.finish
local findings_array = cli_edge.findings_array
local origin_of = cli_edge.origin_of

-- The preset --preset names, nil without one; a name that is none of the
-- presets is a usage error (3.7: exact names only).
local function preset_of(name)
  if name == nil then return nil end
  local p = SCHED.preset(name)
  if p then return p end
  local names = {}
  for i, q in ipairs(SCHED.presets()) do names[i] = q.name end
  engine.usage("--preset", ("--preset: '%s' is not one of %s")
                           :format(name, table.concat(names, ", ")))
end

-- Reading documents and --set items (lib/cli/input.lua) is compiled only by
-- a run that has one, or a problem to report: a preset or a run at the
-- defaults needs neither.
local function input() return require "cli.input" end

local function resolve_stranded(args)
  local given, origins = {}, {}
  local preset = preset_of(args.preset)
  local others = false
  local weight_given = false
  if preset then
    for _, f in ipairs(STRANDED) do given[f[1]] = preset.scenario[f[1]] end
  end
  if args.config then
    local doc = input().load_doc(args.config, "stranded-scenario")
    local before = {}
    input().take_fields(STRANDED, doc, args.config, before, origins)
    for k, v in pairs(before) do
      given[k] = v
      if k ~= "usd_per_gpu_hour" then others = true end
      if k == "degradation_weight" then weight_given = true end
    end
  end
  if #args.set > 0 then
    input().apply_sets(STRANDED, args.set, given, origins, "", args.set_via)
  end
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
  local problems = SCHED.stranded_cross(s)
  if #problems > 0 then input().cross_errors(problems, origins, "") end
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

-- Each flag is a --set of its field in its argv place (4.1): expands_to
-- appends "field=value" to args.set, and args.set_via names the flag.
local FLAGS = {
  { "--gpus", "gpus", "int" }, { "--window-hours", "window_hours" },
  { "--hard-outage-hours", "hard_outage_hours" }, { "--degraded-hours", "degraded_hours" },
  { "--degradation-weight", "degradation_weight" },
  { "--allocation-efficiency", "allocation_efficiency" },
  { "--productive-ratio", "productive_ratio" }, { "--usd-per-gpu-hour", "usd_per_gpu_hour" },
}

-- --preset is checked by the verb against the pack's presets (3.7), read
-- only when a run names one.
local options = {
  { "--preset", metavar = "NAME",
    help = "start from a worked example (`infragate scheduling presets` lists the six)" },
  cli_options.CONFIG_OPT,
}
for _, fl in ipairs(FLAGS) do
  options[#options + 1] = { fl[1], type = fl[3] or "float", finite = false, metavar = "X",
                            help = "set " .. fl[2], expands_to = "--set " .. fl[2] .. "=" }
end
for _, o in ipairs({ cli_options.SET_OPT, cli_options.fmt_opt(), cli_options.STRICT_OPT }) do
  options[#options + 1] = o
end

local run = guarded("stranded", function(args, out)
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
end)

return { options = options, run = run }
