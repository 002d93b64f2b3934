-- Figures of validation/scheduling.yaml (spec/scheduling.md 7.2) and its
-- mutations (7.4). Simulation points run 14 days on the registry's seeds
-- with every other field at its default; runs several points read are made
-- once (v:once). Mutations change the pack globals below, a preset, a
-- Lua-side default, or VARIANT, which every model call passes to C; no
-- document, option or rule can reach any of them.
local studies = require "studies"
local float = SCHED.float

-- The policies the policy points run as "intent" and "tiered", point 5's
-- bands and point 8's loads: what the Lua-side mutations change.
POLICY_INTENT = "intent-closed-loop"
POLICY_TIERED = "tiered-preemption"
BAND_LARGE = { 64, 512 }
BAND_SMALL = { 1, 8 }
QUEUE_LOADS = { 0.85, 0.95 }

local function array(list)
  local a = engine.array()
  for i, x in ipairs(list) do a[i] = x end
  return a
end

-- A config of the registry: defaults (the Lua-side ones a mutation may
-- change) with 'over' applied.
local function config(v, over)
  local given = { horizon_days = v.settings.horizon_days }
  for k, x in pairs(over or {}) do given[k] = x end
  return SCHED.resolved(SCHED.CONFIG_FIELDS, given)
end

-- One run per registry seed, all at once on threads: list of results.
local function runs(v, name, policy, over, opts)
  return v:once(name .. "/" .. policy, function()
    local batch = {}
    for i, seed in ipairs(v.settings.seeds) do
      batch[i] = { config = SCHED.with_seed(config(v, over), seed), policy = policy,
                   opts = opts or { waits = true } }
    end
    return SCHED.simulate_batch(batch)
  end)
end

local function metric(list, key)
  local xs = {}
  for i, r in ipairs(list) do xs[i] = r.metrics[key] end
  return xs
end

local function preset_loss(name, key)
  return SCHED.stranded(SCHED.preset(name).scenario)[key]
end

-- Mean wait of started jobs of a size band (exact mean), 0.0 when none.
local function band_wait(run, band)
  local xs = {}
  for i, w in ipairs(run.waits_h) do
    local s = run.wait_sizes[i]
    if s >= band[1] and s <= band[2] then xs[#xs + 1] = w end
  end
  if #xs == 0 then return 0.0 end
  return SCHED.mean(xs)
end

engine.figure { id = "meta-most-jobs-small", compute = function()
  return studies.workload_figures(nil).small
end }

engine.figure { id = "meta-most-gpu-time-large", compute = function()
  return studies.workload_figures(nil).large
end }

engine.figure { id = "rsc1-failure-rate-constant", compute = function()
  return float(SCHED.field(SCHED.CONFIG_FIELDS, "failures_per_1000_node_days")[3])
end }

engine.figure { id = "meta-ettr-band", compute = function(v)
  local xs = metric(runs(v, "failures", "rigid-fifo", { failures = true }), "train_ettr")
  return SCHED.mean(xs), engine.object("per_seed", array(xs))
end }

engine.figure { id = "philly-large-jobs-wait-longer", compute = function(v)
  local large, small, count = {}, {}, 0
  for i, r in ipairs(runs(v, "steady", "rigid-fifo")) do
    large[i], small[i] = band_wait(r, BAND_LARGE), band_wait(r, BAND_SMALL)
    if large[i] > 2.0 * small[i] then count = count + 1 end
  end
  return float(count), engine.object("wait_large_h", array(large), "wait_small_h", array(small))
end }

engine.figure { id = "scheduler-work-reclaims-capacity", compute = function(v)
  local rigid = metric(runs(v, "steady", "rigid-fifo"), "capacity_realization")
  local intent = metric(runs(v, "steady", POLICY_INTENT), "capacity_realization")
  local count = 0
  for i = 1, #rigid do
    if intent[i] > rigid[i] then count = count + 1 end
  end
  return float(count), engine.object("rigid", array(rigid), "intent", array(intent))
end }

engine.figure { id = "emergency-kills-lose-work", compute = function(v)
  local rigid = metric(runs(v, "power", "rigid-fifo", { power_envelope = true }), "work_lost_gpu_h")
  local tiered = metric(runs(v, "power", POLICY_TIERED, { power_envelope = true }),
                        "work_lost_gpu_h")
  local count = 0
  for i = 1, #rigid do
    if rigid[i] > 0 and tiered[i] == 0.0 then count = count + 1 end
  end
  return float(count), engine.object("rigid_lost", array(rigid))
end }

-- The controlled queue of point 8: 60 full-cluster batch jobs, no inference.
local function queue_wait(v, load)
  local jobs = {}
  for i = 0, 59 do
    jobs[#jobs + 1] = { submit = math.floor(((i * 2) / load) / (5 / 60.0)), size = 1024,
                        min_size = 1024, work = 2048.0, elastic = false, besteffort = false }
  end
  local cfg = config(v, { inf_base = 0.0, inf_diurnal_amp = 0.0 })
  return SCHED.simulate(cfg, "rigid-fifo", { jobs = jobs }).metrics.mean_wait_h
end

engine.figure { id = "queueing-grows-with-load", compute = function(v)
  local low, high = queue_wait(v, QUEUE_LOADS[1]), queue_wait(v, QUEUE_LOADS[2])
  return high > low and 1.0 or 0.0, engine.object("wait_085", low, "wait_095", high)
end }

engine.figure { id = "demand-tracking-cuts-reservation-waste", compute = function(v)
  local intent = runs(v, "steady", POLICY_INTENT)
  local rigid = SCHED.mean(metric(runs(v, "steady", "rigid-fifo"), "stranded_reservation_gpu_h"))
  local mean_intent = SCHED.mean(metric(intent, "stranded_reservation_gpu_h"))
  local min_slo = math.huge
  for _, x in ipairs(metric(intent, "slo_attainment")) do min_slo = math.min(min_slo, x) end
  if min_slo < 0.99 or mean_intent <= 0 then return 0.0 end
  return rigid / mean_intent
end }

engine.figure { id = "preset-alibaba-recovered-allocation", compute = function()
  return preset_loss("alibaba-allocation-before", "loss_allocation")
         - preset_loss("alibaba-allocation-after", "loss_allocation")
end }

engine.figure { id = "preset-harvard-aug2026-scheduler-layer", compute = function()
  return preset_loss("harvard-aug2026", "loss_scheduler")
end }

engine.figure { id = "preset-meta-ettr-productivity-layer", compute = function()
  return preset_loss("meta-ettr", "loss_productivity")
end }

engine.figure { id = "expected-work-uses-capped-mean", compute = function()
  return studies.workload_figures(nil).expected
end }

engine.figure { id = "preset-alibaba-before-allocation-layer", compute = function()
  return preset_loss("alibaba-allocation-before", "loss_allocation")
end }

engine.figure { id = "typical-composite-realized-share", compute = function()
  local r = SCHED.stranded(SCHED.preset("typical-composite").scenario)
  return r.usable_gpu_hours / r.nominal_gpu_hours
end }

engine.figure { id = "allocation-gap-per-gpu-vs-outage", compute = function()
  return (preset_loss("alibaba-allocation-before", "loss_allocation") / 155410)
         / (preset_loss("harvard-aug2026", "loss_scheduler") / 1000)
end }

engine.figure { id = "tracking-and-elasticity-each-help", compute = function(v)
  local seeds = {}
  for i = 0, v.settings.sensitivity_seeds - 1 do seeds[#seeds + 1] = i end
  local summaries = studies.factorial(v.settings.sensitivity_days, seeds, false)
  local count = 0
  for _, s in ipairs(summaries) do
    local c = s.cells
    if c["10"] > c["00"] and c["01"] > c["00"] and c["11"] > c["10"] and c["11"] > c["01"] then
      count = count + 1
    end
  end
  return float(count)
end }

-- ---- mutations (7.4) ----

local function mutation(name, apply)
  engine.mutation { name = name, apply = apply }
end

mutation("intent-is-rigid", function(env) env.POLICY_INTENT = "rigid-fifo" end)
mutation("tiered-kills", function(env) env.POLICY_TIERED = "rigid-fifo" end)
mutation("flat-sizes", function(env)
  env.VARIANT.size_probabilities = { 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1 }
end)
mutation("rsc1-rate-13", function(env)
  env.SCHED.field(env.SCHED.CONFIG_FIELDS, "failures_per_1000_node_days")[3] = 13.0
end)
mutation("checkpoint-every-step", function(env) env.VARIANT.checkpoint_interval_steps = 1 end)
mutation("equal-loads", function(env) env.QUEUE_LOADS = { 0.95, 0.95 } end)
mutation("small-vs-small", function(env) env.BAND_LARGE = { 1, 8 } end)
mutation("intent-peak-provisioned", function(env) env.POLICY_INTENT = "tiered-preemption" end)
mutation("alibaba-after-unoptimized", function(env)
  env.SCHED.preset("alibaba-allocation-after").scenario.allocation_efficiency = 0.68
end)
mutation("medians-as-means", function(env) env.VARIANT.capped_mean = "median" end)
mutation("no-elasticity", function(env) env.VARIANT.elastic_size = math.huge end)
