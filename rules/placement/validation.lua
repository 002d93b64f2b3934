-- Figures of validation/placement.yaml (spec/placement.md 10): the
-- constants the gates rest on, the great-circle facts behind the latency
-- domains, and four sanity properties of the gates over a 200-workload
-- synthetic fleet drawn from CPython's random.Random(0). Mutations replace
-- one entry of the pack's tables (GATES, CONST, POLICY, DEFAULT_TIERS,
-- VARIANT) for the validation run only.
local M = models.placement

-- ---- inputs (10.1) ---------------------------------------------------------------

local CITIES = {
  ny = { 40.7128, -74.0060 }, secaucus = { 40.7895, -74.0565 },
  newark = { 40.7357, -74.1724 }, sf = { 37.7749, -122.4194 },
  santa_clara = { 37.3541, -121.9552 }, ashburn = { 39.0438, -77.4874 },
  london = { 51.5074, -0.1278 }, paris = { 48.8566, 2.3522 },
  frankfurt = { 50.1109, 8.6821 }, amsterdam = { 52.3676, 4.9041 },
  tokyo = { 35.6762, 139.6503 }, osaka = { 34.6937, 135.5023 },
  dallas = { 32.7767, -96.7970 }, houston = { 29.7604, -95.3698 },
}

local PAIRS = {
  { "ny", "secaucus" }, { "ny", "newark" }, { "sf", "santa_clara" }, { "ny", "ashburn" },
  { "london", "paris" }, { "frankfurt", "amsterdam" }, { "tokyo", "osaka" },
  { "dallas", "houston" }, { "ny", "sf" },
}

-- The source's 4,148 km New York - San Francisco great circle [1], the
-- observed internet RTT floor it is compared with, and the Bifrost runs [2].
local NYC_SF_SOURCE_KM = 4148.0
local OBSERVED_RTT_MS = 60.0
local BIFROST_TESTBED = { rate = 100.0, km = 80.0 }
local BIFROST_LONGHAUL = { rate = 400.0, km = 600.0 }

-- The choice lists of the synthetic fleet, in draw order (10.1); the model
-- returns indices into them.
local INF = math.huge
local SYNTH = {
  collective = { "none", "pod", "large" },
  latency_sla_ms = { 0.2, 5.0, 20.0, 100.0, 150.0, INF },
  access_rtt_ms = { 0.0, 2.0, 5.0, 20.0 },
  gpus = { 1, 2, 4, 8, 64, 512, 16384 },
  gpu_watts = { 72.0, 75.0, 350.0, 700.0, 1400.0 },
  data_gravity = { "local", "mixed", "central" },
  ingest_gbps = { 0.0, 0.1, 1.0, 25.0 },
  resilience_class = { "R0", "R1", "R2" },
}
local SYNTH_SEED, SYNTH_COUNT = 0, 200
local SWEEP_KM = { 1, 5, 20, 40, 100, 500, 2000 }
local SWEEP_TIER = "metro-pop"
local GRID = { cooling = { "air", "liquid" }, max_gpu_watts = { 350, 699, 700, 701, 1400 },
               ai_power_kw = { 5, 10, 50 }, tier = "aggregation-hub",
               workload = "medium-llm-serving" }

-- ---- helpers -------------------------------------------------------------------------

-- The model switches a mutation turned on, for one model's own switches.
local function variant(...)
  local v = {}
  for _, name in ipairs({ ... }) do v[name] = VARIANT[name] == true end
  return v
end

local function registry_rtt_ms(km)
  return M.rtt_ms(km, CONST.FIBER_US_PER_KM, variant("rtt_one_way"))
end

local function haversine(a, b)
  local p, q = CITIES[a], CITIES[b]
  return M.haversine_km(p[1], p[2], q[1], q[2], CONST.EARTH_R_KM)
end

local function synthetic(v)
  return v:once("synthetic", function()
    local out = {}
    for i = 0, SYNTH_COUNT - 1 do
      local d = M.synthetic_workload { seed = SYNTH_SEED, index = i }
      local function pick(k) return SYNTH[k][math.floor(d[k]) + 1] end
      out[#out + 1] = {
        name = "synth-" .. i, note = "", collective = pick("collective"),
        latency_sla_ms = pick("latency_sla_ms"), access_rtt_ms = pick("access_rtt_ms"),
        gpus = pick("gpus"), gpu_watts = pick("gpu_watts"), data_gravity = pick("data_gravity"),
        ingest_gbps = pick("ingest_gbps"), sovereign = d.sovereign == 1,
        resilience_class = pick("resilience_class"),
      }
    end
    return out
  end)
end

local function placements(v)
  return v:once("placements", function()
    local tiers, rows = PL.default_ladder(), {}
    for i, w in ipairs(synthetic(v)) do rows[i] = PL.evaluate_ladder(w, tiers) end
    return { tiers = tiers, rows = rows }
  end)
end

local function gate_index(name)
  for i, gate in ipairs(GATES) do
    if gate.name == name then return i end
  end
  error("no gate named " .. name)
end

local function tier_named(name)
  for _, t in ipairs(DEFAULT_TIERS) do
    if t.name == name then return t end
  end
  error("no default tier named " .. name)
end

-- ---- points (10.2), in registry order ------------------------------------------------

engine.figure {
  id = "placement.fronthaul-radius-20km",
  compute = function() return CONST.FRONTHAUL_BUDGET_US / CONST.FIBER_US_PER_KM end,
}

engine.figure {
  id = "placement.nyc-sf-great-circle-rtt",
  compute = function() return registry_rtt_ms(NYC_SF_SOURCE_KM) end,
}

engine.figure {
  id = "placement.metro-boundary-falls-in-an-empty-band",
  compute = function()
    local shortest_refused, longest_allowed = INF, -INF
    for _, p in ipairs(PAIRS) do
      local km = haversine(p[1], p[2])
      if M.collectives_allowed(km, variant("metro_10km", "metro_60km")) == 1 then
        if km > longest_allowed then longest_allowed = km end
      elseif km < shortest_refused then
        shortest_refused = km
      end
    end
    if shortest_refused == INF or longest_allowed == -INF then return nil end
    return shortest_refused - longest_allowed,
           engine.object("shortest_refused_km", shortest_refused,
                         "longest_allowed_km", longest_allowed)
  end,
}

engine.figure {
  id = "placement.floor-sits-under-observed-internet-rtt",
  compute = function()
    local floor = registry_rtt_ms(haversine("ny", "sf"))
    return OBSERVED_RTT_MS / floor >= 1 and 1.0 or 0.0, engine.object("floor_ms", floor)
  end,
}

engine.figure {
  id = "placement.every-gate-blocks-something",
  compute = function(v)
    local seen, n = {}, 0
    for _, row in ipairs(placements(v).rows) do
      for _, verdict in ipairs(row.verdicts) do
        if verdict.status == "BLOCKED" and not seen[verdict.gate] then
          seen[verdict.gate] = true
          n = n + 1
        end
      end
    end
    return n + 0.0
  end,
}

engine.figure {
  id = "placement.latency-blocking-monotone-in-distance",
  compute = function(v)
    local count, always = 0, 0
    for _, w in ipairs(synthetic(v)) do
      local first, stays = nil, true
      for k, km in ipairs(SWEEP_KM) do
        local t = PL.default_tier(SWEEP_TIER)
        t.km_to_user = km + 0.0
        local verdict = PL.evaluate(w, t)
        local lat = verdict.status == "BLOCKED" and verdict.gate == "latency"
        if lat and not first then first = k end
        if first and not lat then stays = false end
      end
      if first and stays then
        count = count + 1
        if first == 1 then always = always + 1 end
      end
    end
    return count + 0.0, engine.object("blocked_at_every_distance", always)
  end,
}

engine.figure {
  id = "placement.synthetic-fleet-unplaceable-count",
  compute = function(v)
    local n = 0
    for _, row in ipairs(placements(v).rows) do
      if not row.rec then n = n + 1 end
    end
    return n + 0.0
  end,
}

engine.figure {
  id = "placement.centralize-by-default-on-synthetic-input",
  compute = function(v)
    local p, candidates, central = placements(v), 0, 0
    for i, w in ipairs(synthetic(v)) do
      if not w.sovereign and w.latency_sla_ms == INF and w.data_gravity ~= "local"
          and w.resilience_class ~= "R0" then
        candidates = candidates + 1
        local rec = p.rows[i].rec
        if rec and p.tiers[rec].name == "central-factory" then central = central + 1 end
      end
    end
    return central + 0.0, engine.object("candidates", candidates)
  end,
}

engine.figure {
  id = "placement.bifrost-testbed-headroom",
  compute = function()
    return M.pfc_headroom_mb(BIFROST_TESTBED.rate, BIFROST_TESTBED.km,
                             CONST.PFC_HEADROOM_BDP_MULT, variant("bdp_rtt"))
  end,
}

engine.figure {
  id = "placement.bifrost-longhaul-headroom",
  compute = function()
    return M.pfc_headroom_mb(BIFROST_LONGHAUL.rate, BIFROST_LONGHAUL.km,
                             CONST.PFC_HEADROOM_BDP_MULT, variant("bdp_rtt"))
  end,
}

engine.figure {
  id = "placement.ib-credit-reach-100g",
  compute = function()
    return M.ib_credit_max_km(100.0, CONST.IB_VL_BUFFER_KB, variant("ib_one_way"))
  end,
}

engine.figure {
  id = "placement.cooling-envelope-grid",
  compute = function()
    local w = PL.find_by_name(LIBRARY, GRID.workload)
    local n = 0
    for _, cooling in ipairs(GRID.cooling) do
      for _, watts in ipairs(GRID.max_gpu_watts) do
        for _, kw in ipairs(GRID.ai_power_kw) do
          local t = PL.default_tier(GRID.tier)
          t.cooling, t.max_gpu_watts, t.ai_power_kw = cooling, watts + 0.0, kw + 0.0
          local verdict = PL.evaluate(w, t)
          if not (verdict.status == "BLOCKED" and verdict.gate == "power") then n = n + 1 end
        end
      end
    end
    return n + 0.0
  end,
}

-- ---- mutations (10.4) ---------------------------------------------------------------

local function no_gate(name)
  return function(env)
    env.GATES[gate_index(name)].check = function() return nil end
  end
end

engine.mutation { name = "no-fabric-gate", apply = no_gate("fabric") }
engine.mutation { name = "no-power-gate", apply = no_gate("power") }
engine.mutation { name = "no-latency-gate", apply = no_gate("latency") }
engine.mutation { name = "no-gravity-gate", apply = no_gate("gravity") }
engine.mutation { name = "rtt-one-way", apply = function(env) env.VARIANT.rtt_one_way = true end }
engine.mutation { name = "fiber-5us",
                  apply = function(env) env.CONST.FIBER_US_PER_KM = 5.0 end }
engine.mutation { name = "fiber-8us",
                  apply = function(env) env.CONST.FIBER_US_PER_KM = 8.0 end }
engine.mutation { name = "metro-10km", apply = function(env) env.VARIANT.metro_10km = true end }
engine.mutation { name = "metro-60km", apply = function(env) env.VARIANT.metro_60km = true end }
engine.mutation { name = "reverse-walk",
                  apply = function(env) env.POLICY.walk = "edge-first" end }
engine.mutation { name = "central-fabric-8",
                  apply = function() tier_named("central-factory").max_fabric_gpus = 8 end }
engine.mutation { name = "air-cooling-cutoff",
                  apply = function(env) env.POLICY.air_cooling_cutoff_w = 350.0 end }
engine.mutation { name = "bdp-rtt", apply = function(env) env.VARIANT.bdp_rtt = true end }
engine.mutation { name = "ib-one-way", apply = function(env) env.VARIANT.ib_one_way = true end }
