/*
 * reliability.c: the model descriptors of the reliability pack (listed by
 * `infragate models reliability`). The two closed forms take numbers; the
 * simulation models take a config table, converted and checked by
 * core/lua/l_model_reliability.c before the C of reliability_sim.c runs.
 */
#include <math.h>
#include <stddef.h>

#include "core/models/model.h"
#include "core/models/reliability.h"

#define NSW(a) (sizeof(a) / sizeof((a)[0]))

static const char *const rel_switches[] = { "full_interval_loss" };

static int eval_checkpoint(const double *in, double *out, unsigned variant,
			   struct diag *err)
{
	struct rel_checkpoint k;

	(void)variant;
	(void)err;
	rel_checkpoint(in[0], in[1], in[2], in[3], &k);
	out[0] = k.young_h;
	out[1] = k.daly_h;
	out[2] = k.young_daly_mr_h;
	out[3] = k.ratio_to_young;
	out[4] = k.overhead;
	out[5] = k.optimal_overhead;
	out[6] = k.overhead_excess;
	return 0;
}

static const struct model_arg args_checkpoint[] = {
	{ "write_h", "h", 0, NAN, NAN, MODEL_ARG_LO_OPEN },
	{ "mtbf_h", "h", 0, NAN, NAN, MODEL_ARG_LO_OPEN },
	{ "reload_h", "h", 0, NAN, 0.25, 0 },
	{ "interval_h", "h", 0, NAN, NAN, MODEL_ARG_LO_OPEN },
};

static const char *const outs_checkpoint[] = {
	"young_h", "daly_h", "young_daly_mr_h", "ratio_to_young",
	"overhead", "optimal_overhead", "overhead_excess",
};

const struct model model_reliability_checkpoint = {
	"reliability.checkpoint",
	"Young and Daly optimum checkpoint interval, h, and the first-order overhead "
	"of a declared interval (fractions)",
	args_checkpoint, NSW(args_checkpoint), "h (young_h, daly_h, young_daly_mr_h); "
	"ratios for the rest", outs_checkpoint, NSW(outs_checkpoint), NULL, 0,
	eval_checkpoint, NULL
};

static int eval_legal_loss(const double *in, double *out, unsigned variant,
			   struct diag *err)
{
	(void)variant;
	(void)err;
	out[0] = (double)rel_legal_loss((int64_t)in[0], (int64_t)in[1]);
	return 0;
}

static const struct model_arg args_legal_loss[] = {
	{ "down", "nodes", 0, 1e15, NAN, MODEL_ARG_INTEGER },
	{ "granularity", "nodes", 1, 1e15, 8, MODEL_ARG_INTEGER },
};

const struct model model_reliability_legal_loss = {
	"reliability.legal_loss",
	"nodes an elastic job gives up when d nodes are down: whole replicas of g nodes",
	args_legal_loss, NSW(args_legal_loss), "nodes", NULL, 1, NULL, 0,
	eval_legal_loss, NULL
};

#define CONFIG_TABLE "config = reliability-config with all 19 fields (nodes, " \
	"horizon_h h, seed, dollars_per_gpu_h $/GPU-h, rates /node/h and /h, clocks h, " \
	"spare_nodes, legal_shape_nodes)"

const struct model model_reliability_simulate = {
	.name = "reliability.simulate",
	.summary = "one recovery policy, or all five on one shared latent fault timeline: "
		   "ETTR, availability, MTTF/MTTR h, interruptions, GPU-h and $ of waste",
	.result_unit = "table: events and results (the 11-key result of each policy)",
	.switches = rel_switches,
	.nswitches = NSW(rel_switches),
	.table_input = "{" CONFIG_TABLE ", policy = name or \"all\"}",
};

const struct model model_reliability_events = {
	.name = "reliability.events",
	.summary = "the latent fault timeline of a config: count, nodes failed, the first "
		   "and last events (t h, nodes)",
	.result_unit = "table: count, nodes_failed, first, last, events",
	.table_input = "{" CONFIG_TABLE ", first = 0..1000000, last = 0..1000000, all = bool}",
};

const struct model model_reliability_means = {
	.name = "reliability.means",
	.summary = "exact seed means (seeds 0..N-1, fresh timeline per seed) of every "
		   "result field of the named policies, and of the event count",
	.result_unit = "table: policy -> field -> mean",
	.switches = rel_switches,
	.nswitches = NSW(rel_switches),
	.table_input = "{" CONFIG_TABLE ", policies = {name...}, seeds = 1..100000}",
};

const struct model model_reliability_exact_mean = {
	.name = "reliability.exact_mean",
	.summary = "the exact mean of a list of numbers, rounded once (Python "
		   "statistics.mean)",
	.result_unit = "same unit as the values",
	.table_input = "{number...}, at least one",
};
