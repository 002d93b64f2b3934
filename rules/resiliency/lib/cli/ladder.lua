-- airan-resiliency ladder: simulate the five-rung policy ladder P0..P4.
-- Compiled when the verb runs; its options are declared in commands.lua.
local py = require "py"
local cli_shared = require "cli.shared"

local CLASSES = cli_shared.CLASSES
local pct = cli_shared.pct
local money = cli_shared.money
local seed_value = cli_shared.seed_value
local emit = cli_shared.emit

local function ladder_runs(years, seed)
  local runs = {}
  for i, r in ipairs(RUNGS) do
    runs[i] = RS.run(BUILTINS, r, DEFAULTS.storm, years, seed)
  end
  return runs
end

return function(args, out)
  local results = models.resiliency.batch(ladder_runs(args.years, args.seed), VARIANT)
  local first, last = results[1], results[#results]
  local gain_nines = last.classes.R2.nines - first.classes.R2.nines
  local gain_usd = last.monthly_usd - first.monthly_usd
  if args.format == "json" then
    local policies = engine.array()
    for i, r in ipairs(RUNGS) do policies[i] = RS.policy_json(r, results[i]) end
    local seed, big = seed_value(args.seed)
    emit(out, "ladder", engine.object(
      "pack", "resiliency", "years", args.years, "seed", seed, "policies", policies,
      "gain", engine.object("from", RUNGS[1].name, "to", RUNGS[#RUNGS].name,
                            "r2_nines", gain_nines, "monthly_usd", gain_usd)), big)
    return 0
  end
  local lines = {
    ("policy ladder over %d simulated years per rung, seed %s\n")
      :format(args.years, RS.seed_text(args.seed)),
    ("%-4s %9s  %-18s %-18s %-18s %-11s %s\n"):format("rung", "USD/month",
      "R0 avail% nines", "R1 avail% nines", "R2 avail% nines", "R2 retain%", "label"),
  }
  for i, r in ipairs(RUNGS) do
    local res, cells = results[i], {}
    for _, c in ipairs(CLASSES) do
      local f = res.classes[c]
      cells[#cells + 1] = ("%-18s"):format(("%s %s"):format(pct(f.availability, 4),
                                                            py.fixed(f.nines, 1)))
    end
    lines[#lines + 1] = ("%-4s %9s  %s %s %s %-11s %s\n"):format(r.name,
      money(res.monthly_usd), cells[1], cells[2], cells[3],
      pct(res.classes.R2.retention, 3), r.label)
  end
  lines[#lines + 1] = ("%s -> %s: R2 gains %s nines for %s USD/month more\n")
                      :format(RUNGS[1].name, RUNGS[#RUNGS].name, py.fixed(gain_nines, 1),
                              money(gain_usd))
  out:write(table.concat(lines))
  return 0
end
