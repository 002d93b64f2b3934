-- infragate scheduling presets: the six worked examples of the calculator.
-- Compiled when the verb runs; its options are declared in commands.lua.
local cli_base = require "cli.base"
local cli_shared = require "cli.shared"

local money = cli_base.money
local STRANDED = cli_base.STRANDED
local guarded = cli_shared.guarded

return guarded("presets", function(args, out)
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
end)
