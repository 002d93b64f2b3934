/*
 * scheduling_models.c: the descriptors of the scheduling models, listed by
 * `infragate models` (spec/scheduling.md 11). One plain model (the capped
 * log-normal mean); the others take tables and are converted by
 * core/lua/l_model_scheduling.c, which checks every field first.
 */
#include <math.h>
#include <stddef.h>

#include "core/models/model.h"
#include "core/models/scheduling.h"

static const struct model_arg args_capped[] = {
	{ "median_h", "h", 0, NAN, NAN, MODEL_ARG_LO_OPEN },
	{ "sigma", "-", 0, NAN, NAN, 0 },
	{ "cap_h", "h", 0, NAN, NAN, MODEL_ARG_LO_OPEN },
};

static int eval_capped(const double *in, double *out, unsigned variant, struct diag *err)
{
	(void)variant;
	(void)err;
	out[0] = sched_capped_lognormal_mean(in[0], in[1], in[2]);
	return 0;
}

const struct model model_scheduling_capped_lognormal_mean = {
	.name = "scheduling.capped_lognormal_mean",
	.summary = "E[min(X, cap)] of a log-normal duration with this median and shape, h",
	.args = args_capped,
	.nargs = 3,
	.result_unit = "h",
	.nout = 1,
	.eval = eval_capped,
};

#define TABLE_MODEL(id, nm, sum, unit, input)                                      \
	const struct model model_scheduling_##id = { .name = "scheduling." nm,       \
						     .summary = sum,                 \
						     .result_unit = unit,            \
						     .table_input = input }

TABLE_MODEL(stranded, "stranded",
	    "three-layer stranded capacity: usable = nominal x A x E x P and each layer's loss",
	    "table: GPU-h, fractions and USD",
	    "{gpus, window_hours (h), hard_outage_hours (h), degraded_hours (h), "
	    "degradation_weight, allocation_efficiency, productive_ratio, usd_per_gpu_hour "
	    "($/GPU-h)}");
TABLE_MODEL(expected_work, "expected_work",
	    "expected GPU-hours of work per generated job (capped log-normal means)",
	    "GPU-h per job", "no arguments (optional variant)");
TABLE_MODEL(workload, "workload",
	    "arrival rate, static inference reservation and the generated job stream's counts",
	    "table: jobs per step, GPUs, job counts", "a scheduler-config table");
TABLE_MODEL(check_limits, "check_limits",
	    "nil, or the limit of spec 5.13 a scheduler config breaks", "table or nil",
	    "a scheduler-config table");
TABLE_MODEL(demand, "demand", "inference demand at a five-minute step", "GPUs",
	    "(scheduler-config table, step, surge GPUs)");
TABLE_MODEL(simulate, "simulate",
	    "one scheduler simulation: the 17 rounded metrics, the ledger (GPU-h) and "
	    "censored jobs",
	    "table: GPU-h, fractions, counts, h",
	    "(scheduler-config, policy rigid-fifo|tiered-preemption|intent-closed-loop, "
	    "{tracking, elasticity, waits, jobs})");
TABLE_MODEL(simulate_mean, "simulate_mean",
	    "exact mean of one rounded metric over seeds 0..seeds-1", "the metric's unit",
	    "(scheduler-config, policy, opts, seeds 1..64, metric name)");
TABLE_MODEL(simulate_batch, "simulate_batch",
	    "independent simulations on threads, each result that run's alone", "list of "
	    "simulate results, in run order",
	    "({{config, policy, opts}...} 1..4096 runs[, variant])");
TABLE_MODEL(mean, "mean", "exact mean of a list of numbers, rounded once", "as the list",
	    "a list of numbers");
TABLE_MODEL(stdev, "stdev", "sample standard deviation of a list of numbers",
	    "as the list", "a list of numbers");
TABLE_MODEL(inference, "inference",
	    "single-device inference service: TTFT, inter-token gaps and SLO goodput",
	    "table: s, tokens/s", "(hardware, requests, options) tables of spec 3.5");
TABLE_MODEL(canonical_digest, "canonical_digest",
	    "SHA-256 hex of a value's canonical JSON (sorted keys, no white space)",
	    "64 hex digits", "a string, number, boolean, null, list or string-keyed table");
