-- Figures of validation/cooling.yaml (spec/cooling.md 7): rung PUEs against
-- published fleet figures, exact 24-seed means of the synthetic fleet, and
-- sanity properties of the ladder and the admission. A mutation turns on
-- one switch of the C model (COOL.variant, passed by every COOL call), so
-- one rung table and one parameter set feed the ladder, the fleet and the
-- admission alike; no document, option or rule can set it.
local M = models.cooling

-- The fleet over seeds 0..N-1, shared by the fleet points (one sweep).
local function fleet(v)
  return v:once("fleet", function()
    local s = v.settings
    local first, last, gaps = {}, {}, {}
    local over = 0
    for _, years in ipairs(COOL.simulate_seeds(s.seeds, s.start_year, s.end_year,
                                               s.legacy_sites)) do
      local a, z = years[1], years[#years]
      first[#first + 1] = a.survey_avg
      last[#last + 1] = z.survey_avg
      gaps[#gaps + 1] = z.gap
      if z.gap > s.gap_floor then over = over + 1 end
    end
    return { survey_first = M.mean_exact(first), survey_last = M.mean_exact(last),
             gap = M.mean_exact(gaps), over = over }
  end)
end

local function pue_figure(id, rung, climate)
  engine.figure { id = id, compute = function() return COOL.pue(rung, climate, "evaporative") end }
end

pue_figure("google-fleet-ttm-pue", "contained-air", "temperate")
pue_figure("meta-fleet-avg-pue", "rear-door-hx", "cold")
pue_figure("nrel-esif-pue", "direct-to-chip", "cold")
pue_figure("immersion-vendor-claim", "immersion", "temperate")
pue_figure("legacy-stock-pue", "legacy-air", "temperate")

-- The fleet points, by the field of the sweep they report.
for id, field in pairs({ ["uptime-2014-survey-avg"] = "survey_first",
                         ["uptime-2024-survey-avg"] = "survey_last",
                         ["energy-weighted-divergence"] = "gap" }) do
  engine.figure { id = id, compute = function(v) return fleet(v)[field] end }
end
engine.figure {
  id = "divergence-holds-in-every-seed",
  compute = function(v) return fleet(v).over + 0.0 end,
}

engine.figure {
  id = "nvl72-feasible-rungs",
  compute = function() return #COOL.feasible(120.0) + 0.0 end,
}
engine.figure {
  id = "dgx-h100-rack-needs-rear-door",
  compute = function() return #COOL.feasible(10.2 * 4) + 0.0 end,
}
engine.figure {
  id = "thinnest-rung-is-direct-to-chip",
  compute = function()
    local name = COOL.thinnest()
    for i, n in ipairs(COOL.RUNGS) do if n == name then return i - 1.0 end end
  end,
}
engine.figure {
  id = "two-rungs-at-one-density-differ-27x",
  compute = function()
    return COOL.ride_through("immersion", 132.0) / COOL.ride_through("direct-to-chip", 132.0)
  end,
}

-- Two direct-to-chip halls on one feeder, starting 10 racks in 'which'.
local function pair_verdict(which)
  local halls, racks = {}, {}
  for _, id in ipairs({ "hall-a", "hall-b" }) do
    halls[#halls + 1] = { id = id, feeder = "F1", rung = "direct-to-chip", kw_per_rack = 100.0,
                          racks_running = 0, feed_mw = 8.0, climate = "temperate",
                          water_mode = "evaporative" }
  end
  for _, id in ipairs(which) do racks[#racks + 1] = { hall = id, racks = 10 } end
  local plan = { halls = halls, feeders = { { id = "F1", limit_mw = 40.0, max_step_mw = 1.5 } },
                 running_mw = {}, start = { racks = racks, need_s = 0.0 } }
  return COOL.admit(plan).verdict
end

engine.figure {
  id = "a-shared-feeder-turns-two-admits-into-a-stagger",
  compute = function()
    local ok = pair_verdict({ "hall-a" }) == "ADMIT" and pair_verdict({ "hall-b" }) == "ADMIT"
               and pair_verdict({ "hall-a", "hall-b" }) == "STAGGER"
    return ok and 1.0 or 0.0
  end,
}

-- Each mutation is one switch of the model (spec 7.4).
for _, name in ipairs({ "contained-air-floor-up", "frozen-fleet", "collapsed-fleets",
                        "ceilings-250kw", "pue-flat", "initial-stock-3-3-3", "step-as-ceiling",
                        "dtc-buffer-40000kj", "legacy-air-economizer", "no-growth",
                        "new-build-contained-air" }) do
  engine.mutation { name = name, apply = function(pack) pack.COOL.variant = { [name] = true } end }
end
