-- infragate power prices: the synthetic hourly price series of a fleet config.
-- Compiled when the verb runs (or its help is asked): it declares its options
-- and its run.
local py = require "py"
local cli_shared = require "cli.shared"
local cli_base = require "cli.base"

local guarded = cli_shared.guarded
local fleet_input = cli_shared.fleet_input
local finish = cli_shared.finish
local truncated_finding = cli_shared.truncated_finding
local config_json = cli_shared.config_json

local options = cli_base.FLEET_OPTS

local run = guarded("prices", function(args, out)
  local cfg, origin = fleet_input(args)
  local prices, spikes = models.power.prices(cfg)
  local findings = engine.array()
  findings[1] = truncated_finding(args, cfg, origin, cfg.horizon_h)
  local maxp = prices[1]
  for _, p in ipairs(prices) do if p > maxp then maxp = p end end
  if args.format == "json" then
    local sp = engine.array()
    for i, s in ipairs(spikes) do
      sp[i] = engine.object("start_h", s.start_h, "magnitude_mwh", s.magnitude_mwh)
    end
    out:json(engine.object("pack", "power", "config", config_json(cfg),
      "hours", cfg.horizon_h, "prices", PW.array(prices), "spikes", sp,
      "max_price_mwh", maxp, "findings", findings))
  else
    local lines = {}
    for h, p in ipairs(prices) do lines[h] = ("%d %s\n"):format(h - 1, py.fixed(p, 2)) end
    for _, s in ipairs(spikes) do
      lines[#lines + 1] = ("spike at hour %d: %s $/MWh\n"):format(s.start_h,
                                                                py.fixed(s.magnitude_mwh, 2))
    end
    out:write(table.concat(lines))
  end
  return finish(args, out, findings)
end)

return { options = options, run = run }
