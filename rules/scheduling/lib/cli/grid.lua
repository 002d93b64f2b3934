-- infragate scheduling grid: the headline experiment: 4 scenarios x 3 policies
-- x seeds.
-- Compiled when the verb runs (or its help is asked): it declares its options
-- and its run.
local py = require "py"
local cli_base = require "cli.base"
local cli_shared = require "cli.shared"
local cli_options = require "cli.options"
local cli_edge = require "cli.edge"

local float = cli_base.float
local money = cli_base.money
local array = cli_base.array
local limited = cli_base.limited
local limit_check = cli_base.limit_check
local resolve_config = cli_base.resolve_config
local metrics_json = cli_base.metrics_json
local guarded = cli_edge.guarded
local strict_finding = cli_edge.strict_finding
local finish = cli_edge.finish
local findings_array = cli_edge.findings_array
local CENSORED = cli_shared.CENSORED
local censored_message = cli_shared.censored_message
local seeds_arg = cli_shared.seeds_arg

local SCENARIOS = {
  { "S1-steady", {} },
  { "S2-power", { power_envelope = true } },
  { "S3-failures", { failures = true } },
  { "S4-full", { power_envelope = true, failures = true, inf_surges = true } },
}

local function mean_sd(rows)
  local mean, sd = engine.object(), engine.object()
  for _, k in ipairs(SCHED.METRICS) do
    local xs = {}
    for i, m in ipairs(rows) do xs[i] = float(m[k]) end
    mean[k] = models.scheduling.mean(xs)
    sd[k] = models.scheduling.stdev(xs)
  end
  return mean, sd
end

local options = {
  { "--days", type = "int", default = 30, metavar = "N", help = "horizon in days" },
  { "--seeds", type = "string", metavar = "S,S,...", help = "seeds (default 42,43,44)" },
  cli_options.CONFIG_OPT, cli_options.SET_OPT, cli_options.fmt_opt(), cli_options.STRICT_OPT,
}

local run = guarded("grid", function(args, out)
  local seeds = seeds_arg(args, { 42, 43, 44 })
  local base = resolve_config(args, { horizon_days = args.days })
  local rows, agg, findings, lines = engine.array(), engine.array(), {}, {}
  lines[1] = ("%-12s %-19s %6s %6s %6s %10s %9s %9s %9s %6s %6s %6s %6s\n"):format(
    "scenario", "policy", "real.", "SLO", "ETTR", "stranded", "idle", "reserv.",
    "overhead", "preem.", "kills", "resize", "wait")
  local scenario_cfgs = {}
  for i, sc in ipairs(SCENARIOS) do
    local cfg = {}
    for k, v in pairs(base) do cfg[k] = v end
    for k, v in pairs(sc[2]) do cfg[k] = v end
    limit_check(cfg)    -- every scenario before the first run (5.13)
    scenario_cfgs[i] = cfg
  end
  -- Every run of the grid at once, on threads (simulate_batch), in the
  -- order the rows list them.
  local batch = {}
  for i in ipairs(SCENARIOS) do
    for _, p in ipairs(SCHED.POLICIES) do
      for _, seed in ipairs(seeds) do
        batch[#batch + 1] = { config = SCHED.with_seed(scenario_cfgs[i], seed), policy = p,
                              opts = {} }
      end
    end
  end
  local results, next_result = limited(SCHED.simulate_batch, batch), 0
  for _, sc in ipairs(SCENARIOS) do
    for _, p in ipairs(SCHED.POLICIES) do
      local per = {}
      for _, seed in ipairs(seeds) do
        next_result = next_result + 1
        local r = results[next_result]
        rows[#rows + 1] = engine.object("scenario", sc[1], "policy", p, "seed", seed,
                                        "metrics", metrics_json(r.metrics))
        per[#per + 1] = r.metrics
        if r.jobs_never_started > 0 and #findings == 0 then
          findings[1] = strict_finding(args, CENSORED,
            censored_message(r.jobs_never_started, ("%s %s seed %d"):format(sc[1], p, seed)),
            ("/rows/%d/metrics/mean_wait_h"):format(#rows - 1))
        end
      end
      local mean, sd = mean_sd(per)
      agg[#agg + 1] = engine.object("scenario", sc[1], "policy", p, "mean", mean, "sd", sd)
      lines[#lines + 1] = ("%-12s %-19s %6s %6s %6s %10s %9s %9s %9s %6s %6s %6s %6s\n"):format(
        sc[1], p, py.fixed(mean.capacity_realization, 3), py.fixed(mean.slo_attainment, 3),
        py.fixed(mean.train_ettr, 3), money(mean.stranded_gpu_h),
        money(mean.stranded_idle_gpu_h), money(mean.stranded_reservation_gpu_h),
        money(mean.stranded_train_overhead_gpu_h), py.fixed(mean.preemptions, 0),
        py.fixed(mean.emergency_kills, 0), py.fixed(mean.resizes, 0),
        py.fixed(mean.mean_wait_h, 1))
    end
  end
  if args.format == "json" then
    out:json(engine.object("pack", "scheduling", "days", base.horizon_days,
                           "seeds", array(seeds), "rows", rows, "aggregate", agg,
                           "findings", findings_array(findings)))
  else
    out:write(table.concat(lines))
  end
  return finish(args, out, findings)
end)

return { options = options, run = run }
