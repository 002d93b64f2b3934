-- Figures of validation/resiliency.yaml (spec/resiliency.md 7): one sweep
-- of every ladder rung over the registry's seeds, the grid-hours helper
-- with and without storms, and the statistics of 7.1 over the rounded
-- per-run figures, exactly as the reference computes them. The sweep and
-- both grid runs go to the C model as one threaded batch. Mutations change
-- the pack globals below (or VARIANT, BUILTINS and RUNGS of pack.lua),
-- never anything a document can reach.

-- The storm and power block of the grid-hours helper: the default storm
-- and P0's power (7.1). Mutations storms-off and routine-outage-halved
-- change these, not the sweep.
REGISTRY_STORM = RS.copy(DEFAULTS.storm)
GRID_POWER = RS.copy(RS.rung("P0").power)

-- The references the registry declares (7.4: the numbering is the
-- contract) and those its points cite; validation/resiliency.yaml states
-- the same lists, which the registry loader checks against each other.
DECLARED_REFERENCES = {}
for i = 1, 20 do DECLARED_REFERENCES[i] = i end
CITED_REFERENCES = { 1, 2, 12, 13 }

local DETERMINISM_YEARS, DETERMINISM_SEED, DETERMINISM_RUNG = 50, 5, "P2"
local RETENTION_WALL = 0.999

-- ---- statistics (7.1) --------------------------------------------------------

-- Sum with Neumaier's compensation: the exact sum to within an ulp, as
-- statistics.mean's exact fractions are (a relative 1e-12 is allowed).
local function fsum(xs)
  local s, c = 0.0, 0.0
  for _, x in ipairs(xs) do
    local t = s + x
    if math.abs(s) >= math.abs(x) then
      c = c + ((s - t) + x)
    else
      c = c + ((x - t) + s)
    end
    s = t
  end
  return s + c
end

local function mean(xs)
  return fsum(xs) / #xs
end

local function stdev(xs)
  local m, sq = mean(xs), {}
  for i, x in ipairs(xs) do sq[i] = (x - m) * (x - m) end
  return math.sqrt(fsum(sq) / (#xs - 1))
end

local function minmax(xs)
  local lo, hi = xs[1], xs[1]
  for _, x in ipairs(xs) do
    if x < lo then lo = x end
    if x > hi then hi = x end
  end
  return lo, hi
end

local function spread(xs)
  local lo, hi = minmax(xs)
  return hi - lo
end

local function float(x)
  return x + 0.0
end

local function array(list)
  local a = engine.array()
  for i, x in ipairs(list) do a[i] = x end
  return a
end

-- ---- the sweep -----------------------------------------------------------------

-- Per rung name: lists over the seeds of R2 nines, R0 nines, R2 downtime
-- and R2 retention (as reported: 2 dp, 5 dp), plus each rung's unrounded
-- cost, the two grid-hour figures and the determinism pair.
local function sweep(v)
  return v:once("sweep", function()
    local s = v.settings
    local runs, where = {}, {}
    for _, r in ipairs(RUNGS) do
      for _, seed in ipairs(s.seeds) do
        runs[#runs + 1] = RS.run(BUILTINS, r, DEFAULTS.storm, s.years, seed)
        where[#runs] = r.name
      end
    end
    local det = RS.rung(DETERMINISM_RUNG)
    for _ = 1, 2 do
      runs[#runs + 1] = RS.run(BUILTINS, det, DEFAULTS.storm, DETERMINISM_YEARS,
                               DETERMINISM_SEED)
    end
    local quiet = RS.copy(REGISTRY_STORM)
    quiet.rate_per_year = 0.0
    runs[#runs + 1] = { grid_hours = true, storm = quiet, power = GRID_POWER,
                        years = s.grid_years, seed = s.grid_seed }
    runs[#runs + 1] = { grid_hours = true, storm = REGISTRY_STORM, power = GRID_POWER,
                        years = s.grid_years, seed = s.grid_seed }
    local res = models.resiliency.batch(runs, VARIANT)
    local out = { rungs = {}, cost = {} }
    for _, r in ipairs(RUNGS) do
      out.rungs[r.name] = { r2 = {}, r0 = {}, r2_down = {}, r2_ret = {} }
    end
    for i, name in ipairs(where) do
      local t, c = out.rungs[name], res[i].classes
      t.r2[#t.r2 + 1] = c.R2.nines
      t.r0[#t.r0 + 1] = c.R0.nines
      t.r2_down[#t.r2_down + 1] = c.R2.downtime_h_yr
      t.r2_ret[#t.r2_ret + 1] = c.R2.retention
      out.cost[name] = res[i].monthly_usd_unrounded
    end
    local n = #where
    out.det = { res[n + 1].classes.R2.downtime_h_yr, res[n + 2].classes.R2.downtime_h_yr }
    out.routine, out.full = res[n + 3], res[n + 4]
    return out
  end)
end

local TRANSPORT_RUNGS = { "P1", "P2", "P3" }

local function rungs_of(sw, names)
  local t = {}
  for i, n in ipairs(names) do t[i] = sw.rungs[n] end
  return t
end

-- ---- the points (7.2, registry order) ----------------------------------------------

engine.figure {
  id = "routine-grid-hours-match-eia-routine",
  compute = function(v)
    local sw = sweep(v)
    return sw.routine, engine.object(
      "routine_outages_per_year", GRID_POWER.routine_outages_per_year,
      "routine_outage_h", GRID_POWER.routine_outage_h)
  end,
}

engine.figure {
  id = "holdover-constants",
  compute = function()
    return RS.rung("P4").timing.holdover_h, engine.object("ocxo_h", DEFAULTS.holdover_h.ocxo)
  end,
}

engine.figure {
  id = "single-fiber-site-is-2.7-nines",
  compute = function(v)
    local p0 = sweep(v).rungs.P0
    local lo, hi = minmax(p0.r2)
    return mean(p0.r2), engine.object(
      "per_seed", array(p0.r2), "min", lo, "max", hi,
      "standard_error", stdev(p0.r2) / math.sqrt(#p0.r2),
      "mean_r2_downtime_h_yr", mean(p0.r2_down))
  end,
}

engine.figure {
  id = "transport-rungs-tie-within-monte-carlo-noise",
  compute = function(v)
    local t = rungs_of(sweep(v), TRANSPORT_RUNGS)
    local gaps, spreads = {}, {}
    for i = 1, #t[1].r2 do
      local at = {}
      for k, r in ipairs(t) do at[k] = r.r2[i] end
      gaps[i] = spread(at)
    end
    for k, r in ipairs(t) do spreads[k] = spread(r.r2) end
    local between, within = mean(gaps), mean(spreads)
    return between <= within and 1.0 or 0.0,
           engine.object("between", between, "within", within)
  end,
}

engine.figure {
  id = "every-transport-rung-beats-single-fiber",
  compute = function(v)
    local sw = sweep(v)
    local t = rungs_of(sw, TRANSPORT_RUNGS)
    local _, p0_best = minmax(sw.rungs.P0.r2)
    local count = 0
    for i = 1, #t[1].r2 do
      local worst = math.huge
      for _, r in ipairs(t) do worst = math.min(worst, r.r2[i]) end
      if worst > p0_best then count = count + 1 end
    end
    return float(count), engine.object("p0_best", p0_best)
  end,
}

engine.figure {
  id = "generator-outranks-every-transport-rung",
  compute = function(v)
    local sw = sweep(v)
    local t = rungs_of(sw, TRANSPORT_RUNGS)
    local p0, p3, p4 = sw.rungs.P0.r2, sw.rungs.P3.r2, sw.rungs.P4.r2
    local count, gains = 0, {}
    for i = 1, #p0 do
      local best_gain, best = -math.huge, -math.huge
      for _, r in ipairs(t) do
        best_gain = math.max(best_gain, r.r2[i] - p0[i])
        best = math.max(best, r.r2[i])
      end
      if p4[i] - p3[i] > best_gain then count = count + 1 end
      gains[i] = p4[i] - best
    end
    local lo, hi = minmax(gains)
    return float(count), engine.object("gain_min", lo, "gain_max", hi,
                                       "gain_mean", mean(gains))
  end,
}

engine.figure {
  id = "bonding-leaves-r0-inside-its-own-noise",
  compute = function(v)
    local sw = sweep(v)
    local p0, p3 = sw.rungs.P0.r0, sw.rungs.P3.r0
    local d = {}
    for i = 1, #p0 do d[i] = math.abs(p3[i] - p0[i]) end
    local gap, noise = mean(d), spread(p0)
    return gap <= noise and 1.0 or 0.0, engine.object("gap", gap, "noise", noise)
  end,
}

engine.figure {
  id = "capacity-retention-wall",
  compute = function(v)
    local sw = sweep(v)
    local count = 0
    for _, r in ipairs(rungs_of(sw, TRANSPORT_RUNGS)) do
      for _, x in ipairs(r.r2_ret) do
        if x <= RETENTION_WALL then count = count + 1 end
      end
    end
    return float(count), engine.object(
      "threshold", RETENTION_WALL,
      "p3_mean_retention", mean(sw.rungs.P3.r2_ret),
      "p4_mean_retention", mean(sw.rungs.P4.r2_ret))
  end,
}

engine.figure {
  id = "storm-excess-is-a-model-input",
  compute = function(v)
    local sw = sweep(v)
    return sw.full - sw.routine, engine.object("grid_hours_full", sw.full,
                                               "grid_hours_routine", sw.routine)
  end,
}

engine.figure {
  id = "top-rung-is-the-least-seed-stable",
  compute = function(v)
    local sw = sweep(v)
    local sd, others = engine.object(), -math.huge
    for _, r in ipairs(RUNGS) do sd[r.name] = stdev(sw.rungs[r.name].r2) end
    for i = 1, #RUNGS - 1 do others = math.max(others, sd[RUNGS[i].name]) end
    return sd[RUNGS[#RUNGS].name] > others and 1.0 or 0.0, engine.object("sd", sd)
  end,
}

engine.figure {
  id = "simulation-is-deterministic-per-seed",
  compute = function(v)
    local det = sweep(v).det
    return det[1] == det[2] and 1.0 or 0.0, engine.object("r2_downtime_h_yr", det[1])
  end,
}

engine.figure {
  id = "ladder-has-two-price-inversions",
  compute = function(v)
    local cost = sweep(v).cost
    local list, count = engine.array(), 0
    for i, r in ipairs(RUNGS) do
      list[i] = cost[r.name]
      if i > 1 and cost[r.name] < cost[RUNGS[i - 1].name] then count = count + 1 end
    end
    return float(count), engine.object("monthly_usd", list)
  end,
}

engine.figure {
  id = "every-ref-resolves",
  compute = function()
    local declared, missing = {}, 0
    for _, id in ipairs(DECLARED_REFERENCES) do declared[id] = true end
    for _, id in ipairs(CITED_REFERENCES) do
      if not declared[id] then missing = missing + 1 end
    end
    return float(missing), engine.object(
      "cited", array(CITED_REFERENCES), "declared", #DECLARED_REFERENCES)
  end,
}

-- ---- mutations (7.5) ------------------------------------------------------------------

engine.mutation {
  name  = "power-chain-deleted",
  about = "step 3 of the year removed: no site-dark intervals, no generator draws",
  apply = function(env) env.VARIANT.power_chain_deleted = true end,
}

engine.mutation {
  name  = "transport-rungs-stripped",
  about = "P1, P2 and P3 keep their power and timing but ride one fiber only",
  apply = function(env)
    for _, r in ipairs(env.RUNGS) do
      if r.name == "P1" or r.name == "P2" or r.name == "P3" then
        r.transports = { "fiber" }
        r.dual_fiber = false
      end
    end
  end,
}

engine.mutation {
  name  = "r0-on-any-transport",
  about = "leo and 5g-fwa carry R0 as well",
  apply = function(env)
    for _, t in ipairs(env.BUILTINS) do
      if t.name == "leo" or t.name == "5g-fwa" then t.carries = { "R0", "R1", "R2" } end
    end
  end,
}

engine.mutation {
  name  = "storms-off",
  about = "the storm of the full grid-hours run has rate 0",
  apply = function(env) env.REGISTRY_STORM.rate_per_year = 0.0 end,
}

engine.mutation {
  name  = "routine-outage-halved",
  about = "the grid-hours power block's routine outages last 0.65 h",
  apply = function(env) env.GRID_POWER.routine_outage_h = 0.65 end,
}

engine.mutation {
  name  = "fiber-rates-doubled",
  about = "both fiber failure modes arrive twice as often",
  apply = function(env)
    for _, t in ipairs(env.BUILTINS) do
      if t.name == "fiber" then
        for _, m in ipairs(t.modes) do m.rate_per_year = m.rate_per_year * 2 end
      end
    end
  end,
}

engine.mutation {
  name  = "references-removed",
  about = "the registry declares no references",
  apply = function(env) env.DECLARED_REFERENCES = {} end,
}
