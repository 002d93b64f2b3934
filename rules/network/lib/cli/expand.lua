-- infragate network expand: what adding N accelerators to the pool buys.
-- Compiled when the verb runs; its options are declared in commands.lua.
local cli_shared = require "cli.shared"

local null = cli_shared.null
local guarded = cli_shared.guarded
local scenario_of = cli_shared.scenario_of
local head = cli_shared.head
local finish = cli_shared.finish
local envelope = cli_shared.envelope
local f4 = cli_shared.f4
local f1 = cli_shared.f1

return guarded("expand", function(args, out)
  local run = scenario_of(args)
  local e = models.network.expand(run.scn, args.add, VARIANT)
  local o = envelope()
  o.scenario = head(run)
  o.add_accelerators = args.add
  o.target_pool = e.target_pool
  o.realizable = e.realizable
  o.expanded_pool = null(e.expanded_pool)
  o.expanded_world_size = null(e.expanded_world_size)
  o.baseline_productive_accelerators = e.baseline_productive_accelerators
  o.expanded_productive_accelerators = null(e.expanded_productive_accelerators)
  o.gain_fraction = null(e.gain_fraction)
  o.pool_growth_fraction = null(e.pool_growth_fraction)
  o.marginal_productivity = null(e.marginal_productivity)
  o.average_productivity = e.average_productivity
  local text
  if e.realizable then
    text = ("adding %d accelerators to the pool of %d: pool %d (target %d), world %d; "
            .. "productive %s -> %s (gain %s, pool growth %s)\n")
           :format(args.add, run.scn.n_pool, e.expanded_pool, e.target_pool,
                   e.expanded_world_size, f1(e.baseline_productive_accelerators),
                   f1(e.expanded_productive_accelerators), f4(e.gain_fraction),
                   f4(e.pool_growth_fraction))
  else
    text = ("adding %d accelerators to the pool of %d: the target %d cannot host a whole "
            .. "replica the batch can feed\n"):format(args.add, run.scn.n_pool, e.target_pool)
  end
  return finish(out, args, o, engine.array(), text)
end)
