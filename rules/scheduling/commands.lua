-- infragate scheduling: the pack's verbs (spec/scheduling.md 4). Each verb
-- resolves its input (defaults, then --config or the operand, then each
-- --set), refuses what section 3 refuses with the field's position, runs
-- models.scheduling and prints the JSON shape of section 4 or a text table
-- with the spec's rounding. Text layouts and sentences are ours.
--
-- This file declares the program, its verbs and their options (what help and
-- argument parsing need); each verb's code is its module in lib/cli/,
-- compiled only when that verb runs (spec/core.md 5.8-5.9).
local py = require "py"

local cli_base = require "cli.base"
local CONFIG = cli_base.CONFIG
local LINT_FORMATS = cli_base.LINT_FORMATS
local MUTATIONS = cli_base.MUTATIONS
local array = cli_base.array
local fmt_opt = cli_base.fmt_opt
local STRICT_OPT = cli_base.STRICT_OPT
local SET_OPT = cli_base.SET_OPT
local CONFIG_OPT = cli_base.CONFIG_OPT
local limited = cli_base.limited
local load_doc = cli_base.load_doc
local limit_check = cli_base.limit_check
local resolve_config = cli_base.resolve_config
local config_json = cli_base.config_json
local STRANDED_FLAGS = cli_base.STRANDED_FLAGS
local PRESET_NAMES = cli_base.PRESET_NAMES
local stranded_options = cli_base.stranded_options
local SIZES = cli_base.SIZES
local MEDIANS = cli_base.MEDIANS
local metrics_json = cli_base.metrics_json
local LOADS = cli_base.LOADS
local POWERS = cli_base.POWERS
local CELLS = cli_base.CELLS
local MODEL_ID = cli_base.MODEL_ID
local ASSUMPTIONS = cli_base.ASSUMPTIONS
local CAL_KEYS = cli_base.CAL_KEYS
local close = cli_base.close
local digest = cli_base.digest
local bucket = cli_base.bucket
local projection = cli_base.projection

local prog = engine.program {
  name    = "scheduling",
  summary = "stranded capacity and allocation policy: calculate, simulate, replay, gate",
  help    = "Prices the GPU-hours a fleet strands at the scheduler, allocation and "
            .. "productivity layers, simulates a 1,024-GPU cluster under three allocation "
            .. "policies, replays a conserving capacity ledger, models one inference device, "
            .. "analyses the Philly trace's workload shape, and gates capacity requests and "
            .. "scheduler policies.",
}

SCHED.load_doc = load_doc

SCHED.resolve_config = resolve_config

SCHED.config_json = config_json

for i, p in ipairs(SCHED.PRESETS) do PRESET_NAMES[i] = p.name end

-- Each flag is a --set of its field in its argv place (4.1): expands_to
-- appends "field=value" to args.set, and args.set_via names the flag.
for _, fl in ipairs(STRANDED_FLAGS) do
  stranded_options[#stranded_options + 1] = { fl[1], type = fl[3] or "float",
                                              finite = false, metavar = "X",
                                              help = "set " .. fl[2],
                                              expands_to = "--set " .. fl[2] .. "=" }
end
for _, o in ipairs({ SET_OPT, fmt_opt(), STRICT_OPT }) do
  stranded_options[#stranded_options + 1] = o
end

prog:verb {
  name    = "stranded",
  summary = "three-layer stranded-capacity calculator for one fleet and window",
  options = stranded_options,
  run = "cli.stranded",
}

prog:verb {
  name    = "presets",
  summary = "the six worked examples of the calculator",
  options = { fmt_opt() },
  run = "cli.presets",
}

SCHED.SIZES, SCHED.MEDIANS = SIZES, MEDIANS

function SCHED.probabilities()
  return VARIANT.size_probabilities
         or { 0.42, 0.13, 0.13, 0.18, 0.05, 0.04, 0.025, 0.015, 0.007, 0.003 }
end

function SCHED.workload_figures(cfg)
  local ew = models.scheduling.expected_work(VARIANT)
  local p = SCHED.probabilities()
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

prog:verb {
  name    = "workload",
  summary = "expected work per job, arrival rate and the generated job stream",
  options = { CONFIG_OPT, SET_OPT,
              { "--seed", type = "int", metavar = "N", help = "shorthand for --set seed=N" },
              { "--days", type = "int", metavar = "N",
                help = "shorthand for --set horizon_days=N" },
              fmt_opt() },
  run = "cli.workload",
}

SCHED.metrics_json = metrics_json

prog:verb {
  name    = "simulate",
  summary = "one simulation per policy on one cluster config and seed",
  options = { { "--policy", type = "string", default = "all", metavar = "P[,P...]|all",
                help = "policies to run: " .. table.concat(SCHED.POLICIES, ", ") .. " or all" },
              CONFIG_OPT, SET_OPT,
              { "--seed", type = "int", metavar = "N", help = "shorthand for --set seed=N" },
              { "--days", type = "int", metavar = "N",
                help = "shorthand for --set horizon_days=N" },
              { "--no-tracking", type = "flag",
                help = "intent controller keeps the static reservation" },
              { "--no-elasticity", type = "flag", help = "no job is elastic" },
              fmt_opt(), STRICT_OPT },
  run = "cli.simulate",
}

prog:verb {
  name    = "grid",
  summary = "the headline experiment: 4 scenarios x 3 policies x seeds",
  options = { { "--days", type = "int", default = 30, metavar = "N", help = "horizon in days" },
              { "--seeds", type = "string", metavar = "S,S,...",
                help = "seeds (default 42,43,44)" },
              CONFIG_OPT, SET_OPT, fmt_opt(), STRICT_OPT },
  run = "cli.grid",
}

-- The factorial of 4.6: summaries, each run's metrics, the first censored run.
function SCHED.factorial(days, seeds, keep_runs)
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

prog:verb {
  name    = "sensitivity",
  summary = "factorial ablation of demand tracking and elasticity",
  options = { { "--days", type = "int", default = 14, min = 1, max = 366, metavar = "N",
                help = "horizon in days" },
              { "--seeds", type = "string", metavar = "S,S,...", help = "seeds (default 0..11)" },
              { "--runs", type = "flag", help = "also print every run" },
              fmt_opt(), STRICT_OPT },
  run = "cli.sensitivity",
}

function SCHED.replay_report(cfg, policy, workloads, file)
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

prog:verb {
  name     = "replay",
  summary  = "conserving capacity ledger of one policy run",
  operands = { name = "SCENARIO", min = 1, max = 1 },
  options  = { SET_OPT, fmt_opt(), STRICT_OPT },
  run = "cli.replay",
}

prog:verb {
  name     = "compare",
  summary  = "difference of two capacity reports made on identical inputs",
  operands = { name = "REPORT", min = 2, max = 2 },
  options  = { fmt_opt() },
  run = "cli.compare",
}

prog:verb {
  name    = "inference",
  summary = "single-device inference service model, or the built-in 72-run sweep",
  options = { { "--scenario", type = "path", metavar = "FILE", help = "an inference-scenario" },
              { "--sweep", type = "flag", help = "run the 72 built-in scenarios" },
              fmt_opt() },
  run = "cli.inference",
}

prog:verb {
  name     = "philly",
  summary  = "workload-shape validation of a Philly job log: temporal split, sizes",
  operands = { name = "LOG", min = 1, max = 1 },
  options  = { { "--cutoff", type = "string", default = "2017-11-20", metavar = "YYYY-MM-DD",
                 help = "calibration before, validation on or after this date" },
               fmt_opt() },
  run = "cli.philly",
}

prog:verb {
  name    = "validate",
  summary = "the validation registry: 17 points, declined anchors, mutations",
  options = { { "--mutate", type = "choice", choices = MUTATIONS, metavar = "NAME",
                help = "break one mechanism on purpose: " .. table.concat(MUTATIONS, ", ") },
              fmt_opt() },
  run = "cli.validate",
}

prog:verb {
  name     = "lint",
  summary  = "rules over capacity requests and scheduler policies",
  lint     = true,
  operands = { name = "PATH", min = 1 },
  options  = { { "--strict", type = "flag", help = "run strict rules (the default)" },
               { "--no-strict", type = "flag", help = "do not run the strict rules" },
               fmt_opt(LINT_FORMATS) },
  run = "cli.lint",
}
