-- edge-placement evaluate --format json: the verb's JSON document (spec/
-- placement.md 6.1). Required only by a JSON run of the verb.
local cli_shared = require "cli.shared"

local null_if_nil = cli_shared.null_if_nil
local finite_or_null = cli_shared.finite_or_null
local add_findings_json = cli_shared.add_findings_json
local ladder_names = cli_shared.ladder_names

local function workload_json(w)
  return engine.object(
    "name", w.name, "note", w.note, "latency_sla_ms", finite_or_null(w.latency_sla_ms),
    "access_rtt_ms", w.access_rtt_ms, "gpus", w.gpus, "gpu_watts", w.gpu_watts,
    "collective", w.collective, "data_gravity", w.data_gravity,
    "ingest_gbps", w.ingest_gbps, "sovereign", w.sovereign,
    "resilience_class", w.resilience_class)
end

local function tier_json(v)
  local f = v.fig
  return engine.object("tier", v.tier.name, "status", v.status, "gate", null_if_nil(v.gate),
                       "reason", null_if_nil(v.reason), "rule", null_if_nil(v.rule),
                       "detail", null_if_nil(v.detail), "km_to_user", f.km_to_user,
                       "fronthaul_us", f.fronthaul_us,
                       "propagation_rtt_ms", f.propagation_rtt_ms,
                       "path_rtt_ms", f.path_rtt_ms, "power_gpus", f.power_gpus)
end

local function passed_over(a)
  local list = engine.array()
  local from = a.rec and a.rec + 1 or 1
  for i = from, #a.verdicts do
    local v = a.verdicts[i]
    list[#list + 1] = engine.object("tier", v.tier.name, "status", v.status,
                                    "gate", null_if_nil(v.gate),
                                    "reason", null_if_nil(v.reason))
  end
  return list
end

return function(args, rc, a, findings)
  local tiers = engine.array()
  for i, v in ipairs(a.verdicts) do tiers[i] = tier_json(v) end
  local check = engine.null
  if a.check then
    check = engine.object("requested", a.check.requested, "tier", a.check.tier,
                          "match", a.check.match, "status", a.check.status,
                          "ok", a.check.ok)
  end
  local obj = engine.object(
    "file", null_if_nil(args.request), "workload", workload_json(rc.workload),
    "ladder", ladder_names(rc.tiers), "tiers", tiers,
    "recommended", a.rec and rc.tiers[a.rec].name or engine.null,
    "forced_by", null_if_nil(a.forced_by), "passed_over", passed_over(a),
    "check", check)
  add_findings_json(obj, findings)
  return obj
end
