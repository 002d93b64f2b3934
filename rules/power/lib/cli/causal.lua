-- infragate power causal: online curtailment controller over a price list
-- (file or generated).
-- Compiled when the verb runs (or its help is asked): it declares its options
-- and its run.
local py = require "py"
local cli_shared = require "cli.shared"

local verbs = require "verbs"
local cli_base = require "cli.base"
local usage = cli_shared.usage
local guarded = cli_shared.guarded
local fleet_input = cli_shared.fleet_input
local finish = cli_shared.finish
local truncated_finding = cli_shared.truncated_finding
local config_json = cli_shared.config_json

local LIMITATIONS = {
  "the prices are synthetic (the model's own process) unless the caller supplied observed "
    .. "prices with --prices",
  "catching up draws up to the flexible share above the fleet load: that extra headroom is "
    .. "an assumption of the model, not a measured capacity",
  "deferred energy is assumed to turn into useful work at a constant rate; no migration, "
    .. "service-level or restart cost is modelled",
}

local CAUSAL_FILE_KEYS = { fleet_mw = true, flexible_fraction = true,
                           curtail_threshold_mwh = true, curtail_budget_frac = true }

local function load_prices(path)
  local doc = verbs.load_checked(path, "price-series")
  local list = engine.type(doc) == "map" and doc.prices or doc
  local prices = {}
  for i = 1, #list do prices[i] = list[i] + 0.0 end
  return prices
end

local options = cli_base.with(cli_base.FLEET_OPTS,
  { "--prices", type = "path", metavar = "FILE", help = "a price-series document" },
  { "--cheap-threshold", type = "float", default = 50.0, min = 0, max = 1e6, metavar = "X",
    help = "catch-up price, $/MWh" },
  { "--actions", type = "flag", help = "list every hour's action" })

local run = guarded("causal", function(args, out)
  local cfg, origin = fleet_input(args, true)
  local prices, source
  if args.prices then
    for k, o in pairs(origin) do
      if not CAUSAL_FILE_KEYS[k] then
        usage(o == "set" and (k == "seed" and args.seed and "--seed" or "--set") or "--config",
              ("%s has no effect with --prices: the prices come from the file"):format(k))
      end
    end
    prices = load_prices(args.prices)
    source = "file"
  else
    prices = models.power.prices(cfg)
    source = "generated"
  end
  local n = #prices
  local opts = { fleet_mw = cfg.fleet_mw, flexible_fraction = cfg.flexible_fraction,
                 threshold = cfg.curtail_threshold_mwh,
                 budget_fraction = cfg.curtail_budget_frac,
                 cheap_threshold = args.cheap_threshold + 0.0, actions = args.actions }
  local res = models.power.causal(prices, opts, VARIANT)
  local oracle, oracle_detail
  if source == "generated" then oracle, oracle_detail = models.power.fleet(cfg, nil, VARIANT) end
  local ratio = engine.null
  if res.saving_dollars and oracle_detail and oracle_detail.saving_dollars > 0 then
    ratio = res.saving_dollars / oracle_detail.saving_dollars
  end
  local findings = engine.array()
  findings[1] = truncated_finding(args, cfg, origin, n)
  local saving = res.saving_dollars or engine.null
  local frac = res.saving_dollars and res.saving_dollars / res.blind_cost_dollars or engine.null
  if args.format == "json" then
    local doc = engine.object("pack", "power",
      "inputs", engine.object("source", source,
        "file", args.prices or engine.null,
        "config", source == "generated" and config_json(cfg) or engine.null,
        "hours", n, "fleet_mw", cfg.fleet_mw, "flexible_fraction", cfg.flexible_fraction,
        "threshold_mwh", cfg.curtail_threshold_mwh,
        "budget_fraction", cfg.curtail_budget_frac,
        "cheap_threshold_mwh", opts.cheap_threshold, "budget_hours", res.budget_hours),
      "evidence_class", "simulated", "input_class", "scenario",
      "cost_dollars", res.cost_dollars, "blind_cost_dollars", res.blind_cost_dollars,
      "saving_dollars", saving, "served_mwh", res.served_mwh,
      "unserved_mwh", res.unserved_mwh, "extra_headroom_mw", res.extra_headroom_mw,
      "curtailed_hours", res.curtailed_hours, "saving_frac", frac)
    if args.actions then
      local acts = engine.array()
      for i, a in ipairs(res.actions) do
        acts[i] = engine.object("hour", a.hour, "price", a.price, "draw_mw", a.draw_mw,
                                "backlog_mwh", a.backlog_mwh, "curtailed", a.curtailed)
      end
      doc.actions = acts
    end
    doc.limitations = PW.array(LIMITATIONS)
    doc.oracle = oracle and cli_base.result_json(oracle) or engine.null
    doc.ratio_to_oracle = ratio
    doc.findings = findings
    out:json(doc)
  else
    local t = {
      ("cost            %s $\n"):format(PW.money(res.cost_dollars)),
      ("blind cost      %s $\n"):format(PW.money(res.blind_cost_dollars)),
      ("saving          %s\n"):format(res.saving_dollars
                                      and (PW.money(res.saving_dollars) .. " $")
                                      or "none (energy left unserved)"),
      ("served          %s MWh\n"):format(py.fixed(res.served_mwh, 3)),
      ("unserved        %s MWh\n"):format(py.fixed(res.unserved_mwh, 3)),
      ("curtailed hours %d\n"):format(res.curtailed_hours),
    }
    if oracle then
      t[#t + 1] = ("oracle saving   %s $\n"):format(PW.money(oracle.saving_dollars))
      t[#t + 1] = ("ratio to oracle %s\n"):format(ratio == engine.null and "n/a"
                                                  or py.fixed(ratio, 3))
    end
    if args.actions then
      for _, a in ipairs(res.actions) do
        t[#t + 1] = ("hour %d price %s draw %s MW backlog %s MWh%s\n"):format(a.hour,
          py.fixed(a.price, 2), py.fixed(a.draw_mw, 3), py.fixed(a.backlog_mwh, 3),
          a.curtailed and " curtailed" or "")
      end
    end
    out:write(table.concat(t))
  end
  return finish(args, out, findings)
end)

return { options = options, run = run }
