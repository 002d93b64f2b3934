-- infragate power fleet: offline (full-foresight) curtailment of a fleet over
-- one price series.
-- Compiled when the verb runs (or its help is asked): it declares its options
-- and its run.
local py = require "py"
local cli_base = require "cli.base"
local cli_shared = require "cli.shared"

local RESULT_KEYS = cli_base.RESULT_KEYS
local keyed = cli_base.keyed
local guarded = cli_shared.guarded
local fleet_input = cli_shared.fleet_input
local finish = cli_shared.finish
local truncated_finding = cli_shared.truncated_finding
local config_json = cli_shared.config_json

local DETAIL_KEYS = { "budget_hours", "top1pct_hours", "budget_binds", "flex_mw", "firm_mw",
  "blind_cost_dollars", "firm_cost_dollars", "flex_cost_dollars", "deferral_cost_dollars",
  "aware_cost_dollars", "saving_dollars", "saving_frac", "gross_avoided_dollars",
  "gross_from_top1pct_dollars" }

local options = cli_base.FLEET_OPTS

local run = guarded("fleet", function(args, out)
  local cfg, origin = fleet_input(args)
  local res, detail = models.power.fleet(cfg, nil, VARIANT)
  local findings = engine.array()
  findings[1] = truncated_finding(args, cfg, origin, cfg.horizon_h)
  if args.format == "json" then
    local d = keyed(detail, DETAIL_KEYS)
    d.curtailed_hours = PW.array(detail.curtailed_hours)
    out:json(engine.object("pack", "power", "config", config_json(cfg),
      "result", cli_base.result_json(res), "detail", d, "findings", findings))
  else
    local t = {}
    for _, k in ipairs(RESULT_KEYS) do
      local v = res[k]
      local shown = k:match("_dollars$") and (PW.money(v) .. " $") or py.repr(v)
      if k == "saving_pct" then shown = shown .. (" (%s%%)"):format(py.fixed(v * 100, 2)) end
      t[#t + 1] = ("%-32s %s\n"):format(k, shown)
    end
    out:write(table.concat(t))
  end
  return finish(args, out, findings)
end)

return { options = options, run = run }
