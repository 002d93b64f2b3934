-- infragate scheduling presets: the six worked examples of the calculator.
-- Compiled when the verb runs (or its help is asked): it declares its options
-- and its run.
local cli_options = require "cli.options"
local cli_edge = require "cli.edge"

local money = SCHED.money
local STRANDED = SCHED.STRANDED_FIELDS
local guarded = cli_edge.guarded

local options = { cli_options.fmt_opt() }

local run = guarded("presets", function(args, out)
  if args.format == "json" then
    local list = engine.array()
    for i, p in ipairs(SCHED.presets()) do
      list[i] = engine.object("name", p.name, "description", p.description,
                              "scenario", SCHED.ordered(STRANDED, p.scenario))
    end
    out:json(engine.object("pack", "scheduling", "presets", list,
                           "findings", engine.array()))
    return 0
  end
  local lines = {}
  for _, p in ipairs(SCHED.presets()) do
    local r = SCHED.stranded(p.scenario)
    lines[#lines + 1] = ("%-26s %s\n%26s stranded %s GPU-hours of %s\n")
                        :format(p.name, p.description, "", money(r.stranded_gpu_hours),
                                money(r.nominal_gpu_hours))
  end
  out:write(table.concat(lines))
  return 0
end)

return { options = options, run = run }
