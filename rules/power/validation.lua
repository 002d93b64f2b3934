-- Figures of validation/power.yaml (spec/power.md 7): the closed-form
-- points on the default job, month and year fleet runs over seeds 0..23,
-- the causal controller against the offline oracle, and the span taxes.
-- Every figure reads the pack's shipped defaults (JOB_FIELDS, FLEET_FIELDS,
-- SPAN_DEFAULTS, SOURCES) and VARIANT, which is what the mutations change.
-- The references the calibrated points cite (7.2; the registry checks the
-- same list against its own).
POINT_REFS = { 5, 4, 2, 8 }

local function with_fields(base, changes)
  local c = {}
  for k, v in pairs(base) do c[k] = v end
  for k, v in pairs(changes or {}) do c[k] = v end
  return c
end

local function fleet_cfg(hours, changes)
  return with_fields(PW.fleet_of(nil), with_fields({ horizon_h = hours }, changes))
end

local function job()
  return PW.resolve(JOB_FIELDS, nil)
end

-- Per-seed fleet results (result tables) of a config over seeds
-- 0..seeds-1, run on threads by the model.
local function per_seed(v, key, cfg, seeds)
  return v:once(key, function()
    return models.power.fleet_seeds(cfg, seeds, VARIANT)
  end)
end

-- Year runs of the default config with some fields changed, shared by
-- every point that runs the same config (keyed by the resolved config).
local function year_runs(v, changes)
  local st = v.settings
  local cfg = fleet_cfg(st.year_h, changes)
  local parts = {}
  for _, f in ipairs(FLEET_FIELDS) do parts[#parts + 1] = tostring(cfg[f.name]) end
  return per_seed(v, "year:" .. table.concat(parts, "|"), cfg, st.year_seeds)
end

local function month_mean(v, field, changes)
  local st = v.settings
  return models.power.fleet_mean(fleet_cfg(st.month_h, changes), field, st.month_seeds, VARIANT)
end

-- ---- closed-form points ---------------------------------------------------------

engine.figure { id = "state-size-405b",
  compute = function() return models.power.migration(job(), VARIANT).state_gb end }

engine.figure { id = "energy-share-of-gpu-cost",
  compute = function()
    return models.power.decide(job(), 168.0, VARIANT).energy_share_of_gpu_cost
  end }

engine.figure { id = "curtailed-vs-dc-load-ratio", compute = function() return 20.0 / 176.0 end }

engine.figure { id = "weight-transfer-arithmetic",
  compute = function() return (400e12 * 8) / 5e15 end }

engine.figure { id = "scarcity-headline-arithmetic",
  compute = function()
    return models.power.scarcity(job(), 5000.0, 12.0, VARIANT).net_benefit_of_moving
  end }

local function breakeven_length()
  return models.power.breakeven_length(job(), 30.0, VARIANT)
end

engine.figure { id = "breakeven-job-length", compute = breakeven_length }

engine.figure { id = "breakeven-function-matches-closed-form",
  compute = function()
    return models.power.breakeven_spread(job(), breakeven_length(), VARIANT)
  end }

engine.figure { id = "every-ref-resolves",
  compute = function()
    local dangling, used = 0, {}
    for _, r in ipairs(POINT_REFS) do used[r] = true end
    for _, src in ipairs(SOURCES) do
      for _, r in ipairs(src.refs) do
        used[r] = true
        if not DECLARED_REFERENCES[r] then dangling = dangling + 1 end
      end
    end
    local list = {}
    for r in pairs(used) do list[#list + 1] = r end
    table.sort(list)
    return dangling + 0.0, engine.object("refs_used", PW.array(list))
  end }

-- ---- fleet points -------------------------------------------------------------------

-- Points 5 and 6: binding year seeds where the shipped order beats `other`.
local function ranking(v, other)
  local ranked, rival = year_runs(v), year_runs(v, { curtail_order = other })
  local wins, binding, ratios = 0, 0, {}
  for i, res in ipairs(ranked) do
    if res.eligible_hours > res.hours_curtailed then
      binding = binding + 1
      if res.saving_pct > rival[i].saving_pct then wins = wins + 1 end
      if rival[i].saving_pct > 0 then
        ratios[#ratios + 1] = res.saving_pct / rival[i].saving_pct
      end
    end
  end
  local detail = engine.object("binding_years", binding)
  if #ratios > 0 then
    local lo, hi = ratios[1], ratios[1]
    for _, x in ipairs(ratios) do lo, hi = math.min(lo, x), math.max(hi, x) end
    detail.ratio_min, detail.ratio_max = lo, hi
    detail.ratio_mean = models.power.mean_exact(ratios)
  end
  return wins + 0.0, detail
end

engine.figure { id = "ranking-beats-unranked-in-every-price-year",
  compute = function(v) return ranking(v, "random") end }

engine.figure { id = "ranking-beats-inverted-in-every-price-year",
  compute = function(v)
    local n, d = ranking(v, "least-expensive-first")
    d.binding_years = nil
    return n, d
  end }

engine.figure { id = "headline-saving-at-5000-ceiling",
  compute = function(v) return month_mean(v, "saving_pct") end }

engine.figure { id = "headline-saving-at-rt-cap-2000",
  compute = function(v) return month_mean(v, "saving_pct", { spike_max_mwh = 2000.0 }) end }

engine.figure { id = "spike-ceiling-is-a-model-input",
  compute = function() return PW.fleet_of(nil).spike_max_mwh end }

local function concentration(runs)
  local num, den = 0.0, 0.0
  for _, res in ipairs(runs) do
    local g = res.gross_avoided_dollars
    if g > 0 then
      num = num + g * res.saving_from_top1pct_hours_frac
      den = den + g
    end
  end
  if den == 0 then return nil end
  return num / den
end

engine.figure { id = "concentration-is-a-property-of-the-price-process",
  compute = function(v)
    local default = year_runs(v, { curtail_budget_frac = 1.0 })
    local inverted = year_runs(v, { curtail_budget_frac = 1.0,
                                  curtail_order = "least-expensive-first" })
    local gap = 0.0
    for i, res in ipairs(default) do
      gap = math.max(gap, math.abs(res.saving_from_top1pct_hours_frac
                                   - inverted[i].saving_from_top1pct_hours_frac))
    end
    return concentration(default), engine.object("inverted_gap", gap)
  end }

engine.figure { id = "curtailment-share-of-fleet-energy",
  compute = function(v)
    local frac = month_mean(v, "curtailed_frac_of_uptime")
    return frac * PW.fleet_of(nil).flexible_fraction,
           engine.object("curtailed_hour_frac", frac)
  end }

engine.figure { id = "spikes-off-policy-is-inert",
  compute = function(v)
    local st = v.settings
    local runs = per_seed(v, "month:spikes-off", fleet_cfg(st.month_h, { spike_rate_per_h = 0.0 }),
                          st.month_seeds)
    local top, maxp = 0.0, 0.0
    for _, res in ipairs(runs) do
      top = math.max(top, res.saving_pct)
      maxp = math.max(maxp, res.max_price_mwh)
    end
    return top, engine.object("max_price_mwh", maxp)
  end }

-- ---- span points ----------------------------------------------------------------------

local function tax(changes)
  local s = {
    job = PW.resolve(SPAN_JOB_FIELDS, nil),
    home = PW.resolve(HALL_FIELDS, { hall_id = "A", free_gpus = 8192 }),
    away = PW.resolve(HALL_FIELDS, { hall_id = "B", free_gpus = 10000 }),
    circuit = PW.resolve(CIRCUIT_FIELDS, changes.circuit),
    cut = changes.cut or SPAN_DEFAULTS.cut,
    activation_gb_per_step = SPAN_DEFAULTS.activation_gb_per_step + 0.0,
  }
  return PW.ledger(s).stitch_tax
end

engine.figure { id = "pipeline-stitch-tax", compute = function() return tax({}) end }

engine.figure { id = "allreduce-stitch-tax",
  compute = function() return tax({ cut = "allreduce" }) end }

engine.figure { id = "allreduce-tax-is-payload-not-latency",
  compute = function()
    local zero_rtt = tax({ cut = "allreduce", circuit = { rtt_ms = 0.0 } })
    return math.abs(tax({ cut = "allreduce" }) - zero_rtt)
  end }

-- ---- causal points ------------------------------------------------------------------------

local function causal_runs(v, ceiling)
  return v:once("causal:" .. ceiling, function()
    local st = v.settings
    local cfg = fleet_cfg(st.year_h, { spike_max_mwh = ceiling })
    -- Seeds 0..year_seeds-1 over each seed's generated prices, on threads.
    return models.power.causal_seeds(cfg, {
      fleet_mw = cfg.fleet_mw, flexible_fraction = cfg.flexible_fraction,
      threshold = cfg.curtail_threshold_mwh, budget_fraction = cfg.curtail_budget_frac,
      cheap_threshold = CAUSAL_CHEAP_THRESHOLD }, st.year_seeds, VARIANT)
  end)
end

CAUSAL_CHEAP_THRESHOLD = 50.0

engine.figure { id = "causal-controller-clears-its-backlog",
  compute = function(v)
    local n = 0
    for _, ceiling in ipairs({ 2000.0, 5000.0 }) do
      for _, res in ipairs(causal_runs(v, ceiling)) do
        if not res.saving_dollars then n = n + 1 end
      end
    end
    return n + 0.0
  end }

-- (mean causal saving/blind) / (mean offline saving_pct) at one ceiling.
local function recovery(v, ceiling)
  local fracs = {}
  for i, res in ipairs(causal_runs(v, ceiling)) do
    if not res.saving_dollars then return nil end
    fracs[i] = res.saving_dollars / res.blind_cost_dollars
  end
  local oracle = {}
  local runs = year_runs(v, { spike_max_mwh = ceiling })
  for i, res in ipairs(runs) do oracle[i] = res.saving_pct end
  local cm, om = models.power.mean_exact(fracs), models.power.mean_exact(oracle)
  if om == 0 then return nil end
  return cm / om, cm, om
end

engine.figure { id = "causal-recovers-most-of-the-oracle",
  compute = function(v)
    local ratio, cm, om = recovery(v, 5000.0)
    if not ratio then return nil end
    local detail = engine.object("causal_mean", cm, "oracle_mean", om)
    detail.ratio_2000 = recovery(v, 2000.0) or engine.null
    return ratio, detail
  end }

-- ---- mutations (7.4) --------------------------------------------------------------------------

local function set_default(fields, name, value)
  for _, f in ipairs(fields) do if f.name == name then f.default = value end end
end

local MUTATIONS = {
  unranked = function(env) set_default(env.FLEET_FIELDS, "curtail_order", "random") end,
  ["reversed-ranking"] = function(env)
    set_default(env.FLEET_FIELDS, "curtail_order", "least-expensive-first")
  end,
  ["spikes-off"] = function(env) set_default(env.FLEET_FIELDS, "spike_rate_per_h", 0.0) end,
  ["ceiling-2000"] = function(env) set_default(env.FLEET_FIELDS, "spike_max_mwh", 2000.0) end,
  ["gloss-12-bytes"] = function(env) env.VARIANT.gloss_12_bytes = true end,
  ["slow-wan"] = function(env) set_default(env.JOB_FIELDS, "wan_gbps", 12.5) end,
  ["energy-price-120"] = function(env) set_default(env.JOB_FIELDS, "price_here_mwh", 120.0) end,
  ["dangling-ref"] = function(env)
    env.SOURCES[#env.SOURCES + 1] = { what = "a constant citing an undeclared source",
                                      refs = { 99 } }
  end,
  ["fp32-gradients"] = function(env) env.VARIANT.fp32_gradients = true end,
  ["fat-activations"] = function(env) env.SPAN_DEFAULTS.activation_gb_per_step = 40.0 end,
  ["causal-no-budget"] = function(env) env.VARIANT.causal_no_budget = true end,
  ["causal-never-catches-up"] = function(env) env.VARIANT.causal_never_catches_up = true end,
  ["rtt-in-seconds"] = function(env) env.VARIANT.rtt_in_seconds = true end,
}

local MUTATION_ORDER = { "unranked", "reversed-ranking", "spikes-off", "ceiling-2000",
  "gloss-12-bytes", "slow-wan", "energy-price-120", "dangling-ref", "fp32-gradients",
  "fat-activations", "causal-no-budget", "causal-never-catches-up", "rtt-in-seconds" }

for _, name in ipairs(MUTATION_ORDER) do
  engine.mutation { name = name, apply = MUTATIONS[name] }
end

