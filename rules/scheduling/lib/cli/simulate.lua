-- infragate scheduling simulate: one simulation per policy on one cluster
-- config and seed.
-- Compiled when the verb runs (or its help is asked): it declares its options
-- and its run.
local py = require "py"
local cli_base = require "cli.base"
local cli_shared = require "cli.shared"
local cli_options = require "cli.options"
local cli_edge = require "cli.edge"

local limited = cli_base.limited
local limit_check = cli_base.limit_check
local resolve_config = cli_base.resolve_config
local config_json = cli_base.config_json
local metrics_json = cli_base.metrics_json
local guarded = cli_edge.guarded
local strict_finding = cli_edge.strict_finding
local finish = cli_edge.finish
local findings_array = cli_edge.findings_array
local parse_list = cli_shared.parse_list
local CENSORED = cli_shared.CENSORED
local censored_message = cli_shared.censored_message

local function ledger_json(l)
  local o = engine.object()
  for _, k in ipairs(SCHED.LEDGER) do o[k] = l[k] end
  return o
end

local function policy_item(s)
  for _, p in ipairs(SCHED.POLICIES) do
    if p == s then return p end
  end
  return nil
end

local function metrics_text(m)
  return ("  realization %s  SLO attainment %s  train ETTR %s\n"
          .. "  GPU-h: productive %s  stranded %s (idle %s, reservation %s, overhead %s)\n"
          .. "  jobs %d submitted, %d completed; %d preemptions, %d kills, %d resizes; "
          .. "work lost %s GPU-h; mean wait %s h\n")
    :format(py.fixed(m.capacity_realization, 4), py.fixed(m.slo_attainment, 4),
            py.fixed(m.train_ettr, 4), py.fixed(m.productive_gpu_h, 1),
            py.fixed(m.stranded_gpu_h, 1), py.fixed(m.stranded_idle_gpu_h, 1),
            py.fixed(m.stranded_reservation_gpu_h, 1),
            py.fixed(m.stranded_train_overhead_gpu_h, 1), m.jobs_submitted, m.jobs_completed,
            m.preemptions, m.emergency_kills, m.resizes, py.fixed(m.work_lost_gpu_h, 1),
            py.fixed(m.mean_wait_h, 2))
end

local options = {
  { "--policy", type = "string", default = "all", metavar = "P[,P...]|all",
    help = "policies to run: " .. table.concat(SCHED.POLICIES, ", ") .. " or all" },
  cli_options.CONFIG_OPT, cli_options.SET_OPT, cli_options.SEED_OPT, cli_options.DAYS_OPT,
  { "--no-tracking", type = "flag", help = "intent controller keeps the static reservation" },
  { "--no-elasticity", type = "flag", help = "no job is elastic" },
  cli_options.fmt_opt(), cli_options.STRICT_OPT,
}

local run = guarded("simulate", function(args, out)
  local policies = args.policy == "all" and SCHED.POLICIES
                   or parse_list("--policy", args.policy, policy_item)
  local has_intent = false
  for _, p in ipairs(policies) do
    if p == "intent-closed-loop" then has_intent = true end
  end
  if (args.no_tracking or args.no_elasticity) and not has_intent then
    engine.usage(args.no_tracking and "--no-tracking" or "--no-elasticity",
                 "--no-tracking and --no-elasticity apply to intent-closed-loop only")
  end
  local cfg = resolve_config(args)
  limit_check(cfg)
  local opts = { tracking = not args.no_tracking, elasticity = not args.no_elasticity }
  local runs, findings = engine.array(), {}
  local texts = {}
  for i, p in ipairs(policies) do
    local o = p == "intent-closed-loop" and opts or {}
    local r = limited(SCHED.simulate, cfg, p, o)
    runs[i] = engine.object("policy", p, "seed", cfg.seed, "metrics", metrics_json(r.metrics),
                            "ledger", ledger_json(r.ledger),
                            "jobs_never_started", r.jobs_never_started)
    if r.jobs_never_started > 0 and #findings == 0 then
      findings[1] = strict_finding(args, CENSORED,
                                   censored_message(r.jobs_never_started, p),
                                   ("/runs/%d/metrics/mean_wait_h"):format(i - 1))
    end
    texts[i] = ("%s, seed %d, %d days:\n"):format(p, cfg.seed, cfg.horizon_days)
               .. metrics_text(r.metrics)
  end
  if args.format == "json" then
    out:json(engine.object("pack", "scheduling", "config", config_json(cfg),
                           "tracking", opts.tracking, "elasticity", opts.elasticity,
                           "runs", runs, "findings", findings_array(findings)))
  else
    out:write(table.concat(texts))
  end
  return finish(args, out, findings)
end)

return { options = options, run = run }
