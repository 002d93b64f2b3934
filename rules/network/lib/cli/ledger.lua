-- infragate network ledger: four-fate accelerator-time ledger (analytical or
-- Monte Carlo).
-- Compiled when the verb runs; its options are declared in commands.lua.
local py = require "py"
local cli_shared = require "cli.shared"

local null = cli_shared.null
local usage = cli_shared.usage
local guarded = cli_shared.guarded
local scenario_of = cli_shared.scenario_of
local head = cli_shared.head
local strict_findings = cli_shared.strict_findings
local finish = cli_shared.finish
local envelope = cli_shared.envelope
local f4 = cli_shared.f4
local f1 = cli_shared.f1

local BUCKETS = { "productive", "blocked_comm", "blocked_sync", "blocked_bubble",
                  "blocked_checkpoint", "blocked_restart", "discarded", "unavailable_down",
                  "unavailable_spare_stranded" }

return guarded("ledger", function(args, out)
  local mc = args.fidelity == "monte-carlo"
  if not mc and args.seed then usage("--seed", "--seed needs --fidelity monte-carlo") end
  if not mc and args.replicates then
    usage("--replicates", "--replicates needs --fidelity monte-carlo")
  end
  local run = scenario_of(args)
  local seed, reps = mc and (args.seed or 0) or nil, mc and (args.replicates or 200) or nil
  local ok, l = pcall(NW.ledger, run.scn, { fidelity = args.fidelity, seed = seed,
                                            replicates = reps })
  if not ok then
    local why = tostring(l):match("would draw.-rate")
    if not why then error(l, 0) end
    usage("--replicates", ("%d replicates of this job %s"):format(reps, why))
  end
  run.ledger = l
  local secs = engine.object()
  for _, b in ipairs(BUCKETS) do secs[b] = l[b] end
  secs.total = l.total
  local o = envelope()
  o.scenario = head(run)
  o.fidelity = args.fidelity
  o.seed = null(seed)
  o.replicates = null(reps)
  o.window_days = run.scn.window_days + 0.0
  o.accelerator_seconds = secs
  o.ucf = l.ucf
  o.productive_accelerators = l.productive_accelerators
  o.tokens_per_second = l.tokens_per_second
  o.ettr = l.ettr
  o.step_efficiency = l.step_efficiency
  o.t_step_s = l.t_step_s
  o.failure_free = l.failure_free
  o.job_mttf_hours = null(l.job_mttf_hours)
  o.checkpoint_interval_s = null(l.checkpoint_interval_s)
  o.n_failures = l.n_failures
  o.recovery_pressure = l.recovery_pressure
  o.within_validity_envelope = l.within_validity_envelope
  local lines = { ("%s ledger of %s over %s days (%d accelerators, pool %d)\n")
                  :format(args.fidelity, run.scn.name or "", py.repr(run.scn.window_days + 0.0),
                          run.scn.world_size, run.scn.n_pool) }
  for _, b in ipairs(BUCKETS) do
    lines[#lines + 1] = ("  %-28s %s\n"):format(b, f4(l[b] / l.total))
  end
  lines[#lines + 1] = ("  useful capacity %s, ETTR %s, MTTF %s h, checkpoint every %s s\n")
                      :format(f4(l.ucf), f4(l.ettr),
                              l.job_mttf_hours and py.fixed(l.job_mttf_hours, 2) or "infinite",
                              l.checkpoint_interval_s and f1(l.checkpoint_interval_s) or "never")
  lines[#lines + 1] = ("  %s failures, recovery pressure %s, inside the validity envelope: %s\n")
                      :format(py.fixed(l.n_failures, 2), f4(l.recovery_pressure),
                              l.within_validity_envelope and "yes" or "no")
  return finish(out, args, o, strict_findings(run, args, { "outside-validity-envelope",
                                                            "small-job",
                                                            "more-than-two-halls" }),
                table.concat(lines))
end)
