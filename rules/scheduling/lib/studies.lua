-- What the scheduling pack's studies share between the verbs and the
-- validation registry (spec/scheduling.md 4.3, 4.6, 4.7): the job-size table
-- and its figures, the factorial of tracking x elasticity, and the conserving
-- capacity report of one replay. Compiled by the first verb or registry
-- point that uses one (workload, sensitivity, replay, compare, validate),
-- never by `stranded` or `simulate`.
-- luacheck: read globals SCHED VARIANT
local py = require "py"
local cli_base = require "cli.base"
local cli_input = require "cli.input"

local float, array, CONFIG = cli_base.float, cli_base.array, cli_base.CONFIG
local limited, limit_check = cli_base.limited, cli_base.limit_check
local input_error, config_json = cli_input.input_error, cli_base.config_json
local metrics_json = cli_base.metrics_json

local M = {}

local SIZES = { 1, 2, 4, 8, 16, 32, 64, 128, 256, 512 }

local MEDIANS = { 2, 2, 2, 6, 6, 6, 16, 16, 36, 36 }

local LOADS, POWERS = { 0.7, 0.95, 1.2 }, { 0.6, 0.75, 1.0 }

local CELLS = { { false, false, "00" }, { true, false, "10" }, { false, true, "01" },
                { true, true, "11" } }

local MODEL_ID = "scheduling-sim/1"

local ASSUMPTIONS = {
  "the workload is synthetic and time moves in five-minute steps; placement is abstract "
  .. "and the cluster has one tenant",
  "training progress is linear in the GPUs a job holds, less one step of overhead after "
  .. "each start, restart or resize",
  "inference is an aggregate demand curve, not request latency or token goodput",
  "a graceful preemption keeps its work and is charged no checkpoint write",
  "network and reliability penalties are not composed into this ledger",
}

local CAL_KEYS = { "workload_id", "hardware_id", "model_id", "protocol_id", "unit",
                   "units_per_productive_gpu_h", "evidence_kind", "source", "assumptions" }

local function close(a, b)
  return math.abs(a - b) <= math.max(1e-9 * math.max(math.abs(a), math.abs(b)), 1e-6)
end

local function digest(v)
  return (models.scheduling.canonical_digest(v))
end

-- A bucket within -1e-6 of 0 reads 0.0; further below is an internal error.
local function bucket(x, name)
  if x < -1e-6 then
    error(("ledger bucket %s is negative (%s GPU-h): the accounting broke")
          :format(name, py.repr(x)))
  end
  if x < 0 then return 0.0 end
  return x
end

-- A projection must be finite (5.9.2): a rate near the largest double times
-- the credited GPU-hours can overflow, which refuses the rate.
local function projection(credited, cal, key, file)
  local units = credited * float(cal.units_per_productive_gpu_h)
  if units ~= units or units == math.huge then
    local w = engine.where(cal, "units_per_productive_gpu_h")
    input_error({ { file = file, line = w.line, column = w.column,
                    path = ("/workloads/%s/units_per_productive_gpu_h"):format(key),
                    message = ("units_per_productive_gpu_h %s times %s productive GPU-h is not a "
                               .. "finite projection"):format(py.repr(
                               float(cal.units_per_productive_gpu_h)), py.repr(credited)) } })
  end
  return units
end


function M.probabilities()
  return VARIANT.size_probabilities
         or { 0.42, 0.13, 0.13, 0.18, 0.05, 0.04, 0.025, 0.015, 0.007, 0.003 }
end

function M.workload_figures(cfg)
  local ew = models.scheduling.expected_work(VARIANT)
  local p = M.probabilities()
  local small = 0.0
  local rows = engine.array()
  for i, s in ipairs(SIZES) do
    if s < 8 then small = small + p[i] end
    rows[i] = engine.object("size", s, "probability", p[i], "median_h", MEDIANS[i],
                            "capped_mean_h",
                            models.scheduling.capped_lognormal_mean(MEDIANS[i], 0.8, 168))
  end
  local w = cfg and limited(models.scheduling.workload, cfg, VARIANT)
  return { expected = ew.expected_work, large = ew.large_gpu_time_share, small = small,
           rows = rows, w = w }
end

-- The factorial of 4.6: summaries, each run's metrics, the first censored run.
function M.factorial(days, seeds, keep_runs)
  local summaries, runs, censored = {}, {}, nil
  for _, load in ipairs(LOADS) do
    for _, power in ipairs(POWERS) do
      local cfg = SCHED.resolved(CONFIG, { offered_load = load, power_envelope = true,
                                           power_frac = power, failures = true,
                                           inf_surges = true, horizon_days = days })
      limit_check(cfg)
      local cells = {}
      for _, c in ipairs(CELLS) do cells[c[3]] = {} end
      -- The cell's runs at once, on threads, in seed-then-cell order.
      local batch = {}
      for _, seed in ipairs(seeds) do
        for _, c in ipairs(CELLS) do
          batch[#batch + 1] = { config = SCHED.with_seed(cfg, seed), policy = "intent-closed-loop",
                                opts = { tracking = c[1], elasticity = c[2] } }
        end
      end
      local results, next_result = SCHED.simulate_batch(batch), 0
      for _, seed in ipairs(seeds) do
        for _, c in ipairs(CELLS) do
          next_result = next_result + 1
          local r = results[next_result]
          local xs = cells[c[3]]
          xs[#xs + 1] = r.metrics.capacity_realization
          if r.jobs_never_started > 0 and not censored then
            censored = { summary = #summaries, n = r.jobs_never_started }
          end
          if keep_runs then
            runs[#runs + 1] = engine.object("load", load, "power_fraction", power,
                                            "seed", seed, "tracking", c[1],
                                            "elasticity", c[2],
                                            "metrics", metrics_json(r.metrics))
          end
        end
      end
      local m = {}
      for _, c in ipairs(CELLS) do m[c[3]] = models.scheduling.mean(cells[c[3]]) end
      summaries[#summaries + 1] = { load = load, power = power, cells = m,
                                    interaction = ((m["11"] - m["10"]) - m["01"]) + m["00"] }
    end
  end
  return summaries, runs, censored
end

function M.replay_report(cfg, policy, workloads, file)
  local run = limited(SCHED.simulate, cfg, policy, {})
  local L = run.ledger
  local productive = L.train_productive_gpu_h + L.inf_productive_gpu_h
  local buckets = engine.object(
    "productive", bucket(productive, "productive"),
    "unavailable", bucket(L.nominal_gpu_h - L.envelope_gpu_h, "unavailable"),
    "idle", bucket((L.envelope_gpu_h - L.inf_alloc_gpu_h) - L.train_alloc_gpu_h, "idle"),
    "inference_reservation", bucket(L.inf_alloc_gpu_h - L.inf_productive_gpu_h,
                                    "inference_reservation"),
    "training_overhead_and_discarded", bucket(L.train_alloc_gpu_h - L.train_productive_gpu_h,
                                              "training_overhead_and_discarded"))
  local sum = 0.0
  for _, k in ipairs({ "productive", "unavailable", "idle", "inference_reservation",
                       "training_overhead_and_discarded" }) do
    sum = sum + buckets[k]
  end
  if not close(sum, L.nominal_gpu_h) then
    error(("ledger buckets sum to %s GPU-h, not the nominal %s"):format(py.repr(sum),
                                                                       py.repr(L.nominal_gpu_h)))
  end
  local credit = { training = L.train_productive_gpu_h, inference = L.inf_productive_gpu_h }
  local wl = engine.object()
  for _, key in ipairs({ "inference", "training" }) do
    local cal = workloads and workloads[key]
    if cal then
      local plain = engine.plain(cal)
      local ordered = engine.object()
      for _, k in ipairs(CAL_KEYS) do ordered[k] = plain[k] end
      wl[key] = engine.object("calibration", ordered, "calibration_id", digest(plain),
                              "projected_units", projection(credit[key], cal, key, file),
                              "evidence_kind", "simulation")
    end
  end
  local provenance = engine.object("implementation", "infragate " .. engine.version,
                                   "model", MODEL_ID, "config", config_json(cfg),
                                   "policy", policy)
  local envelope = L.envelope_gpu_h
  return engine.object(
    "schema_version", "scheduler-capacity/v1", "evidence_kind", "simulation",
    "run_id", digest({ provenance = provenance, workloads = wl }),
    "provenance", provenance, "unit", "GPU-hour", "window_hours", 24 * cfg.horizon_days,
    "nominal_gpu_h", L.nominal_gpu_h, "envelope_gpu_h", envelope,
    "productive_by_workload_gpu_h", engine.object("training", L.train_productive_gpu_h,
                                                  "inference", L.inf_productive_gpu_h),
    "buckets_gpu_h", buckets,
    "productive_fraction_of_nominal", productive / L.nominal_gpu_h,
    "productive_fraction_of_envelope", envelope > 0 and productive / envelope or engine.null,
    "workloads", wl, "assumptions", array(ASSUMPTIONS))
end

M.SIZES, M.MEDIANS = SIZES, MEDIANS
M.close, M.digest = close, digest

return M
