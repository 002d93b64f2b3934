-- infragate power decide: move versus stay for one job and its remaining
-- length.
-- Compiled when the verb runs (or its help is asked): it declares its options
-- and its run.
local py = require "py"
local cli_shared = require "cli.shared"
local cli_base = require "cli.base"

local guarded = cli_shared.guarded
local job_input = cli_shared.job_input
local finding = cli_shared.finding
local finish = cli_shared.finish
local job_json = cli_shared.job_json

local options = cli_base.with(cli_base.JOB_OPTS,
  { "--length-h", type = "float", required = true, min = 0, max = 1e7, metavar = "L",
    help = "remaining length, h" })

local run = guarded("decide", function(args, out)
  local job = job_input(args)
  local L = args.length_h + 0.0
  local dec = models.power.decide(job, L, VARIANT)
  local u = dec.unrounded
  local bl = models.power.breakeven_length(job, u.spread_mwh, VARIANT)
  local bs = models.power.breakeven_spread(job, L, VARIANT)
  local findings = engine.array()
  if L <= u.migration_downtime_h then
    findings[1] = finding(args, "power.strict.length-within-migration",
      ("the job has %s h left, no more than the %s h migration: it ends before the move "
       .. "completes"):format(py.repr(L), py.repr(u.migration_downtime_h)),
      { path = "/length_h" })
  end
  if args.format == "json" then
    out:json(engine.object("pack", "power", "job", job_json(job), "length_h", L,
      "decision", dec.decision, "net_dollars", dec.net_dollars,
      "energy_saving_dollars", dec.energy_saving_dollars,
      "migration_cost_dollars", dec.migration_cost_dollars,
      "migration_downtime_h", dec.migration_downtime_h, "state_gb", dec.state_gb,
      "energy_share_of_gpu_cost", dec.energy_share_of_gpu_cost,
      "unrounded", engine.object("net_dollars", u.net_dollars,
        "energy_saving_dollars", u.energy_saving_dollars,
        "migration_cost_dollars", u.migration_cost_dollars,
        "migration_downtime_h", u.migration_downtime_h, "state_gb", u.state_gb,
        "energy_share_of_gpu_cost", u.energy_share_of_gpu_cost, "remaining_h", u.remaining_h,
        "power_mw", u.power_mw, "spread_mwh", u.spread_mwh, "transfer_h", u.transfer_h,
        "idle_dollars", u.idle_dollars, "egress_dollars", u.egress_dollars),
      "breakeven_length_h", bl or engine.null, "breakeven_spread_mwh", bs,
      "findings", findings))
  else
    out:write(("decision: %s (%s h left)\n"):format(dec.decision, py.fixed(L, 2))
      .. ("  net:               %s $\n"):format(PW.money(dec.net_dollars))
      .. ("  energy saving:     %s $\n"):format(PW.money(dec.energy_saving_dollars))
      .. ("  migration cost:    %s $\n"):format(PW.money(dec.migration_cost_dollars))
      .. ("  migration downtime %s h\n"):format(py.fixed(dec.migration_downtime_h, 2))
      .. ("  training state:    %s GB\n"):format(py.fixed(dec.state_gb, 0))
      .. ("  energy share of the GPU-hour cost: %s%%\n")
         :format(py.fixed(dec.energy_share_of_gpu_cost * 100, 2))
      .. ("  break-even length at this spread: %s\n")
         :format(bl and (py.fixed(bl, 2) .. " h") or "never")
      .. ("  break-even spread over %s h: %s $/MWh\n"):format(py.fixed(L, 2),
         py.fixed(bs, 2)))
  end
  return finish(args, out, findings)
end)

return { options = options, run = run }
