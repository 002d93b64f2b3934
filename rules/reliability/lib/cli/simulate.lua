-- infragate reliability simulate: run one recovery policy, or all five on one
-- shared fault timeline.
-- Compiled when the verb runs (or its help is asked): it declares its options
-- and its run.
local py = require "py"
local cli_shared = require "cli.shared"
local cli_base = require "cli.base"

local guarded = cli_shared.guarded
local config_input = cli_shared.config_input
local findings_of = cli_shared.findings_of
local finish = cli_shared.finish
local MODEL_STRICT = cli_shared.MODEL_STRICT
local fmt6 = cli_shared.fmt6

local function result_object(r)
  return engine.object("policy", r.policy, "seed", r.seed, "ettr", r.ettr,
    "availability", r.availability, "mttf_h", r.mttf_h, "mttr_h", r.mttr_h,
    "interruptions", r.interruptions, "reserved_spare_gpu_h", r.reserved_spare_gpu_h,
    "productive_gpu_h", r.productive_gpu_h, "waste_gpu_h", r.waste_gpu_h,
    "waste_dollars", r.waste_dollars)
end

local options = cli_base.with(cli_base.CONFIG_OPTS, cli_base.policy_opt("all", true))

local run = guarded("simulate", function(args, out)
  local c, origin = config_input(args)
  local policies = args.policy == "all" and REL.POLICIES or { args.policy }
  local sim = REL.simulate(c, args.policy)
  local findings = findings_of(args, REL.strict_problems({ c }, policies, MODEL_STRICT,
    args.policy == "all" and {} or policies), origin)
  if args.format == "json" then
    local results = engine.array()
    for i, r in ipairs(sim.results) do results[i] = result_object(r) end
    out:json(engine.object("pack", "reliability", "config", REL.config_object(c),
                           "events", sim.events, "results", results, "findings", findings))
  else
    local lines = { ("seed %d: %d latent events over %s h on %d nodes\n")
                    :format(c.seed, sim.events, fmt6(c.horizon_h), c.nodes),
                    ("%-17s %7s %7s %8s %8s %6s %14s %12s\n"):format("policy", "ETTR",
                    "avail", "MTTF h", "MTTR h", "intr", "waste GPU-h", "waste $") }
    for _, r in ipairs(sim.results) do
      lines[#lines + 1] = ("%-17s %7s %7s %8s %8s %6d %14s %12s\n"):format(r.policy,
        py.fixed(r.ettr, 4), py.fixed(r.availability, 4), py.fixed(r.mttf_h, 2),
        py.fixed(r.mttr_h, 2), r.interruptions, py.fixed(r.waste_gpu_h, 1),
        py.fixed(r.waste_dollars, 0))
    end
    out:write(table.concat(lines))
  end
  return finish(args, out, findings)
end)

return { options = options, run = run }
