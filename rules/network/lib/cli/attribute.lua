-- infragate network attribute: Shapley attribution of a bundle of
-- interventions.
-- Compiled when the verb runs; its options are declared in commands.lua.
local cli_shared = require "cli.shared"

local array = cli_shared.array
local null = cli_shared.null
local guarded = cli_shared.guarded
local scenario_of = cli_shared.scenario_of
local head = cli_shared.head
local finish = cli_shared.finish
local envelope = cli_shared.envelope
local f1 = cli_shared.f1
local intervention_set = cli_shared.intervention_set
local names_list = cli_shared.names_list
local pick = cli_shared.pick

return guarded("attribute", function(args, out)
  local run = scenario_of(args)
  local set = intervention_set(args, run.scn)
  local names = names_list(args.bundle, "--bundle", set, 1, 12)
  local r = models.network.shapley(run.scn, pick(set, names), VARIANT)
  local shap = engine.object()
  local lines = { ("Shapley attribution of %s on %s\n"):format(table.concat(names, ", "),
                                                              run.scn.name or "") }
  for i, n in ipairs(names) do
    shap[n] = r.shapley[i]
    lines[#lines + 1] = ("  %-20s %s\n"):format(n, f1(r.shapley[i]))
  end
  local add = r.bundle_sea > 0 and (r.sum_of_individual_sea - r.bundle_sea) / r.bundle_sea or nil
  lines[#lines + 1] = ("  bundle SEA %s, sum of individual SEAs %s\n")
                      :format(f1(r.bundle_sea), f1(r.sum_of_individual_sea))
  local o = envelope()
  o.scenario = head(run)
  o.bundle = array(names)
  o.shapley = shap
  o.bundle_sea = r.bundle_sea
  o.sum_of_individual_sea = r.sum_of_individual_sea
  o.additivity_error = null(add)
  o.capped = r.capped
  return finish(out, args, o, engine.array(), table.concat(lines))
end)
