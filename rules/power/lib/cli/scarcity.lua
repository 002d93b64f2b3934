-- infragate power scarcity: value of moving off a site before a price spike.
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
  { "--spike-price", type = "float", default = 5000.0, min = -1e6, max = 1e6, metavar = "P",
    help = "spike price, $/MWh" },
  { "--spike-hours", type = "float", default = 12.0, min_exclusive = 0, max = 8760,
    metavar = "H", help = "spike length, h" })

local run = guarded("scarcity", function(args, out)
  local job = job_input(args)
  local P, H = args.spike_price + 0.0, args.spike_hours + 0.0
  local sc = models.power.scarcity(job, P, H, VARIANT)
  local mig = models.power.migration(job, VARIANT)
  local findings = engine.array()
  if H <= mig.downtime_h then
    findings[1] = finding(args, "power.strict.spike-within-migration",
      ("the spike lasts %s h, no longer than the %s h migration: the move cannot finish "
       .. "before it ends"):format(py.repr(H), py.repr(mig.downtime_h)),
      { path = "/spike_hours" })
  end
  local u = sc.unrounded
  if args.format == "json" then
    out:json(engine.object("pack", "power", "job", job_json(job), "spike_price_mwh", P,
      "spike_hours", H, "stay_through_spike_dollars", sc.stay_through_spike_dollars,
      "move_and_ride_it_out_dollars", sc.move_and_ride_it_out_dollars,
      "net_benefit_of_moving", sc.net_benefit_of_moving, "worth_moving", sc.worth_moving,
      "migration_downtime_h", mig.downtime_h, "migration_cost_dollars", mig.cost_dollars,
      "unrounded", engine.object("stay_through_spike_dollars", u.stay_through_spike_dollars,
        "move_and_ride_it_out_dollars", u.move_and_ride_it_out_dollars,
        "net_benefit_of_moving", u.net_benefit_of_moving),
      "findings", findings))
  else
    out:write(("a %s h spike at %s $/MWh\n"):format(py.repr(H), py.repr(P))
      .. ("  stay through it:       %s $\n"):format(PW.money(sc.stay_through_spike_dollars))
      .. ("  move and ride it out:  %s $\n"):format(PW.money(sc.move_and_ride_it_out_dollars))
      .. ("  net benefit of moving: %s $\n"):format(PW.money(sc.net_benefit_of_moving))
      .. ("  worth moving: %s\n"):format(sc.worth_moving and "yes" or "no"))
  end
  return finish(args, out, findings)
end)

return { options = options, run = run }
