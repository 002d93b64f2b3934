-- airan-resiliency simulate: simulate the policy of a site document.
-- Compiled when the verb runs; its options are declared in commands.lua.
local cli_shared = require "cli.shared"

local array = cli_shared.array
local seed_value = cli_shared.seed_value
local emit = cli_shared.emit
local load_site = cli_shared.load_site
local policy_text = cli_shared.policy_text

local function inputs_json(doc, r)
  local p = r.policy
  local power, timing, storm = engine.object(), engine.object(), engine.object()
  for _, k in ipairs(RS.POWER_FIELDS) do power[k] = p.power[k] end
  for _, k in ipairs({ "holdover", "holdover_h", "gnss_events_per_year", "gnss_event_h" }) do
    timing[k] = p.timing[k]
  end
  for _, k in ipairs(RS.STORM_FIELDS) do storm[k] = r.storm[k] end
  return engine.object(
    "base", doc.policy.base or engine.null,
    "transports", array(RS.instances(p)),
    "dual_fiber", p.dual_fiber,
    "shared_cut_fraction", p.shared_cut_fraction,
    "local_autonomy", p.local_autonomy,
    "power", power, "timing", timing, "storm", storm)
end

return function(args, out)
  local doc = load_site(args.site)
  local r = RS.resolve(doc, { years = args.years, seed = args.seed })
  local res = RS.simulate(r)
  if args.format == "json" then
    local seed, big = seed_value(r.seed)
    emit(out, "simulate", engine.object(
      "pack", "resiliency", "file", args.site, "site", doc.site or engine.null,
      "years", r.years, "seed", seed, "inputs", inputs_json(doc, r),
      "policy", RS.policy_json(r.policy, res)), big)
    return 0
  end
  out:write(("%s%s: policy %s over %d simulated years, seed %s\n")
            :format(args.site, doc.site and (" (site " .. doc.site .. ")") or "",
                    r.policy.name, r.years, RS.seed_text(r.seed))
            .. policy_text(r.policy, res))
  return 0
end
