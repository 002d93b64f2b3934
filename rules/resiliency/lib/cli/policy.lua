-- airan-resiliency policy: simulate one rung of the ladder.
-- Compiled when the verb runs; its options are declared in commands.lua.
local cli_shared = require "cli.shared"

local seed_value = cli_shared.seed_value
local emit = cli_shared.emit
local policy_text = cli_shared.policy_text

return function(args, out)
  local pol = RS.rung(args.policy)
  local res = models.resiliency.simulate(RS.run(BUILTINS, pol, DEFAULTS.storm, args.years,
                                                args.seed), VARIANT)
  if args.format == "json" then
    local seed, big = seed_value(args.seed)
    emit(out, "policy", engine.object("pack", "resiliency", "years", args.years,
                                      "seed", seed, "policy", RS.policy_json(pol, res)), big)
    return 0
  end
  out:write(("rung %s over %d simulated years, seed %s\n")
            :format(pol.name, args.years, RS.seed_text(args.seed)) .. policy_text(pol, res))
  return 0
end
