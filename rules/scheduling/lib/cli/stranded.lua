-- infragate scheduling stranded: three-layer stranded-capacity calculator for
-- one fleet and window.
-- Compiled when the verb runs; its options are declared in commands.lua.
local py = require "py"
local cli_base = require "cli.base"
local cli_shared = require "cli.shared"

local money = cli_base.money
local STRANDED = cli_base.STRANDED
local origin_of = cli_base.origin_of
local load_doc = cli_base.load_doc
local take_fields = cli_base.take_fields
local apply_sets = cli_base.apply_sets
local cross_errors = cli_base.cross_errors
local guarded = cli_shared.guarded
local strict_finding = cli_shared.strict_finding
local finish = cli_shared.finish
local findings_array = cli_shared.findings_array

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

return guarded("stranded", function(args, out)
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
