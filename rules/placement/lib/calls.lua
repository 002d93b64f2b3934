-- Model calls of a placement-model-calls document (spec/placement.md 5.7): each
-- call's arguments checked against the model's signature, then computed.
-- Required by lint and physics --calls only; pack.lua keeps a stub.

local M = PL.M
local problem = PL.problem
local quoted_list = PL.quoted_list
local r = PL.r

-- The signatures of the models as documents call them: argument names in
-- order, defaults (nil: required), and how the value reads.
local MODEL_SIGNATURES = {
  one_way_us = { { "km" }, { "us_per_km", CONST.FIBER_US_PER_KM } },
  rtt_ms = { { "km" }, { "us_per_km", CONST.FIBER_US_PER_KM } },
  bdp_mb = { { "rate_gbps" }, { "km" }, { "us_per_km", CONST.FIBER_US_PER_KM } },
  pfc_headroom_mb = { { "rate_gbps" }, { "km" }, { "mult", CONST.PFC_HEADROOM_BDP_MULT } },
  pfc_max_lossless_km = { { "rate_gbps" }, { "headroom_mb" },
                          { "mult", CONST.PFC_HEADROOM_BDP_MULT } },
  ib_credit_max_km = { { "rate_gbps" }, { "vl_buffer_kb", CONST.IB_VL_BUFFER_KB + 0.0 } },
  ring_allreduce_ms = { { "n_ranks" }, { "payload_gb" }, { "bw_gbps" },
                        { "one_way_latency_us" } },
  sync_step_efficiency = { { "n_ranks" }, { "payload_gb" }, { "inter_site_gbps" },
                           { "compute_ms" }, { "distance_km" }, { "overlap_fraction", 1.0 },
                           { "us_per_km", CONST.FIBER_US_PER_KM } },
  latency_domain = { { "km" }, result = "domain" },
  collectives_allowed = { { "km" }, result = "boolean" },
  power_gpus = { { "ai_power_kw" }, { "gpu_watts" }, { "overhead", CONST.POWER_OVERHEAD },
                 result = "integer" },
  haversine_km = { { "lat1" }, { "lon1" }, { "lat2" }, { "lon2" },
                   { "radius_km", CONST.EARTH_R_KM } },
}
local MODEL_ORDER = { "one_way_us", "rtt_ms", "bdp_mb", "pfc_headroom_mb", "pfc_max_lossless_km",
                "ib_credit_max_km", "ring_allreduce_ms", "sync_step_efficiency",
                "latency_domain", "collectives_allowed", "power_gpus", "haversine_km" }

local function model_value(sig, x)
  if sig.result == "domain" then return DOMAIN_NAMES[math.floor(x) + 1] end
  if sig.result == "boolean" then return x == 1 end
  if sig.result == "integer" then return math.floor(x) end
  return x
end

-- Evaluate the calls of a placement-model-calls document. Returns the
-- results, each {model, names, values, value}; problems name the call.
local function run_calls(doc, file, ps)
  local results, calls = {}, doc.calls
  for i = 1, #calls do
    local c = calls[i]
    local short = c.model:gsub("^placement%.", "")
    local sig = MODEL_SIGNATURES[short]
    local where = ("call %d (%s)"):format(i, c.model)
    if not sig then
      problem(ps, file, c, "model", ("%s: no placement model is named '%s'; the models are %s")
              :format(where, c.model, quoted_list(MODEL_ORDER)))
    else
      local vals, names, bad = {}, {}, false
      local given = c.args
      local function arg_problem(key, msg)
        bad = true
        problem(ps, file, given or c, given and key or "args", ("%s: %s"):format(where, msg))
      end
      if given ~= nil and engine.type(given) == "list" then
        if #given > #sig then
          arg_problem(#sig + 1, ("the model takes %d arguments, the call gives %d")
                      :format(#sig, #given))
        end
        for k = 1, math.min(#given, #sig) do vals[k] = given[k] end
      elseif given ~= nil then
        for name in pairs(given) do
          local known = false
          for _, a in ipairs(sig) do known = known or a[1] == name end
          if not known then
            local all = {}
            for k, a in ipairs(sig) do all[k] = a[1] end
            arg_problem(name, ("the model has no argument '%s'; its arguments are %s")
                        :format(name, quoted_list(all)))
          end
        end
        for k, a in ipairs(sig) do vals[k] = given[a[1]] end
      end
      for k, a in ipairs(sig) do
        names[k] = a[1]
        if vals[k] == nil then
          if a[2] == nil then
            arg_problem(engine.type(given) == "list" and k or a[1],
                        ("argument '%s' has no default and is missing"):format(a[1]))
          else
            vals[k] = a[2]
          end
        elseif a[1] == "n_ranks" then
          if engine.type(vals[k]) ~= "int" then
            arg_problem(engine.type(given) == "list" and k or a[1],
                        ("n_ranks must be an integer, not %s"):format(r(vals[k])))
          end
        else
          vals[k] = vals[k] + 0.0
        end
      end
      if not bad then
        local named = {}
        for k = 1, #sig do named[names[k]] = vals[k] end
        local ok, x = pcall(M[short], named)
        if not ok then
          local msg = tostring(x):gsub("^[^:]*:%d+: ", "")
          -- Point at the argument the model refused, when the call gave it.
          local at, key = c, given ~= nil and "args" or "model"
          local arg = msg:match("^bad argument '([%w_]+)'")
          for k, name in ipairs(names) do
            if given ~= nil and name == arg then
              local gk = engine.type(given) == "list" and k or name
              if given[gk] ~= nil then at, key = given, gk end
            end
          end
          problem(ps, file, at, key, ("%s: %s"):format(where, msg))
        else
          results[#results + 1] = { model = "placement." .. short, names = names,
                                    values = vals, value = model_value(sig, x) }
        end
      end
    end
  end
  return results
end

return {
  model_value = model_value,
  run_calls = run_calls,
}
