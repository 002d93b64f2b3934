-- infragate network sea: substitution-equivalent accelerators of
-- interventions, ranked.
-- Compiled when the verb runs; its options are declared in commands.lua.
local py = require "py"
local cli_shared = require "cli.shared"

local array = cli_shared.array
local null = cli_shared.null
local usage = cli_shared.usage
local guarded = cli_shared.guarded
local scenario_of = cli_shared.scenario_of
local head = cli_shared.head
local finish = cli_shared.finish
local envelope = cli_shared.envelope
local f1 = cli_shared.f1
local intervention_set = cli_shared.intervention_set
local names_list = cli_shared.names_list
local pick = cli_shared.pick

local function sea_row(r)
  return engine.object(
    "name", r.name, "category", r.category, "sea", null(r.sea), "attainable", r.attainable,
    "sea_fraction_of_pool", null(r.sea_fraction_of_pool),
    "baseline_productive_accelerators", r.baseline_productive_accelerators,
    "treated_productive_accelerators", r.treated_productive_accelerators,
    "delta_productive_accelerators", r.delta_productive_accelerators,
    "best_throughput_by_scaling", null(r.best_throughput_by_scaling),
    "naive_equivalent", r.naive_equivalent, "baseline_ucf", r.baseline_ucf,
    "treated_ucf", r.treated_ucf,
    "cost_accelerator_equivalents", null(r.cost_accelerator_equivalents),
    "value_ratio", null(r.value_ratio), "rank", r.rank)
end

return guarded("sea", function(args, out)
  local run = scenario_of(args)
  local set, regimes = intervention_set(args, run.scn)
  if args.regime then
    if not regimes or not regimes[args.regime] then
      usage("--regime", ("--regime %s is not a regime of the interventions file")
                        :format(py.repr(args.regime)))
    end
    local plain = NW.copy(run.scn)
    plain.world_size, plain.window_s, plain.overhead = nil, nil, nil
    local touched, bad = NW.apply_sets(plain, regimes[args.regime])
    if not touched then
      usage("--regime", ("regime %s names no scenario field %s"):format(args.regime, bad.path))
    end
    local scn, problems = NW.convert(plain, {})
    if not scn then
      usage("--regime", ("regime %s: %s"):format(args.regime, problems[1].message))
    end
    run.scn = NW.resolve(scn)
  end
  if args.only then
    set = pick(set, names_list(args.only, "--only", set, 1, math.huge))
    local keep, order = {}, {}
    for _, e in ipairs(set) do keep[e.name] = e end
    -- --only keeps file order
    for _, e in ipairs(args.interventions and set or NW.BUILTIN_INTERVENTIONS) do
      if keep[e.name] then order[#order + 1] = keep[e.name] end
    end
    set = order
  end
  local rows = models.network.sea(run.scn, set, VARIANT)
  local ranking = NW.rank(rows)
  local list = engine.array()
  local lines = { ("SEA of %d interventions on %s (pool %d)\n")
                  :format(#rows, run.scn.name or "", run.scn.n_pool) }
  for i, r in ipairs(rows) do
    list[i] = sea_row(r)
    lines[#lines + 1] = ("  %-20s SEA %12s  naive %10s  rank %d\n")
                        :format(r.name, r.sea and f1(r.sea) or "unattainable",
                                f1(r.naive_equivalent), r.rank)
  end
  local o = envelope()
  o.scenario = head(run)
  o.interventions = list
  o.ranking = array(ranking)
  return finish(out, args, o, engine.array(), table.concat(lines))
end)
