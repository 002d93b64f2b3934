/*
 * network_models.c: the descriptors of the network models (spec/network.md
 * 11), as `infragate models network` lists them. The table models take a
 * resolved scenario table (3.1, defaults filled) and are converted by
 * core/lua/l_model_network.c; the 5.5 primitives and Meta's closed form
 * take plain numbers through the generic binding.
 */
#include "core/models/network.h"

#include <math.h>

#include "core/models/model.h"

#define SCN "scenario table of spec 3.1 (sections model, accelerator, topology, parallelism, " \
	    "reliability, kernel; defaults filled)"

#define TABLE_MODEL(id, nm, sum, unit, input)                                           \
	const struct model model_network_##id = {                                         \
		.name = "network." nm, .summary = sum, .result_unit = unit,              \
		.switches = nw_switches, .nswitches = NW_NSWITCHES, .table_input = input, \
	}

TABLE_MODEL(fields, "fields", "the scenario fields of spec 3.1 with types, defaults and ranges",
	    "list of {path, type, default, lo, hi, lo_open, nullable, required, choices}",
	    "no arguments");
TABLE_MODEL(scenario, "scenario", "resolve a scenario: defaults, n_pool derived (5.1)",
	    "scenario table plus world_size, window_s (s), overhead", SCN);
TABLE_MODEL(check, "check", "check a scenario against spec 3.1 (ranges and cross-field rules)",
	    "nil, or {path, message}", SCN);
TABLE_MODEL(ring, "ring", "ring collective time for k ranks (5.2)", "s",
	    "(kind allreduce|reducescatter|allgather, bytes B, k ranks, bw_Bps B/s, alpha_s s)");
TABLE_MODEL(layout, "layout", "group layout of one parallel dimension (5.3)",
	    "{per_su, su_per_pod, pods, halls, contention, ring, span_latency_allreduce_s, "
	    "span_latency_allgather_s (s)}", "(scenario, dim tp|cp|pp|dp)");
TABLE_MODEL(span_share, "span_share", "per-rank share of the stitch, capped at the NIC (5.3)",
	    "B/s (0 without a stitch)", "(scenario, contention >= 0)");
TABLE_MODEL(step, "step", "healthy-step breakdown (5.4)",
	    "table of seconds, MFU, TFLOP/s per GPU, memory GB", "(scenario)");
TABLE_MODEL(reliability, "reliability", "failure, recovery and checkpoint time (5.5, 5.6)",
	    "table of s per accelerator; interval_s and mttf_s nil when infinite",
	    "(scenario, {fidelity analytical|monte-carlo, seed 0..2^63-1, replicates 1..100000})");
TABLE_MODEL(ledger, "ledger", "four-fate accelerator-time ledger (5.7.0)",
	    "table of accelerator-seconds, ucf, ettr, productive accelerators",
	    "(scenario, {fidelity, seed, replicates})");
TABLE_MODEL(rescale, "rescale", "the scenario on a pool of accelerators (5.7.1)",
	    "scenario table, or nil when impossible", "(scenario, pool accelerators)");
TABLE_MODEL(curve, "curve", "productive throughput against pool size (5.7.2)",
	    "list of {n_pool, productive} (accelerators)", "(scenario, max_factor 1 < x <= 1024)");
TABLE_MODEL(expand, "expand", "what adding N accelerators buys (4.4)",
	    "table: target_pool, realizable, expanded figures (accelerators)",
	    "(scenario, n accelerators)");
TABLE_MODEL(sea, "sea", "substitution-equivalent accelerators of interventions (5.7.4)",
	    "one row per intervention (accelerators; sea nil when unattainable)",
	    "(scenario, intervention {name, category, overrides, multipliers, cost} or a list of them)");
TABLE_MODEL(winner, "winner", "decision-map winner: first strictly largest SEA (5.8)",
	    "{name, category, sea (nil: unattainable), index, seas}", "(scenario, interventions)");
TABLE_MODEL(shapley, "shapley", "Shapley attribution of a bundle of interventions (5.7.6)",
	    "{shapley list, bundle_sea, sum_of_individual_sea, capped}",
	    "(scenario, interventions, 1..12)");
TABLE_MODEL(check_intervention, "check_intervention",
	    "check that an intervention's values satisfy spec 3.1 on a scenario",
	    "nil, or {path, message}", "(scenario, intervention)");
TABLE_MODEL(regimes, "regimes", "distance regimes of 5.9", "list of {name, alpha_us (us)}",
	    "no arguments");
TABLE_MODEL(span, "span", "one cut across one stitch (5.9)",
	    "{applicable, retention, step_ratio}",
	    "(scenario, cut tp|cp|pp|dp|checkpoint, alpha_us us, gbps Gbit/s, halls 2..64, "
	    "placement hierarchical|blind)");
TABLE_MODEL(stitch, "stitch", "a second hall's accelerators delivered by a stitch (5.9)",
	    "{applicable, accelerators_connected, accelerators_delivered, efficiency, ...}",
	    "(scenario, cut, alpha_us us, gbps Gbit/s)");
TABLE_MODEL(bytes, "bytes", "bytes one cut pushes across the stitch per step (5.9)",
	    "{modelled, raw, exposed (B), lower_bound_s (s)}",
	    "(scenario, cut, halls 2..64, gbps Gbit/s)");

static int eval_daly(const double *in, double *out, unsigned variant, struct diag *err)
{
	(void)variant;
	(void)err;
	out[0] = nw_daly(in[0], in[1]);
	return 0;
}

static int eval_lost_work(const double *in, double *out, unsigned variant, struct diag *err)
{
	(void)variant;
	(void)err;
	out[0] = nw_lost_work(in[0], in[1]);
	return 0;
}

static int eval_spare(const double *in, double *out, unsigned variant, struct diag *err)
{
	(void)variant;
	(void)err;
	out[0] = nw_spare_availability(floor(in[0]), in[1], in[2]);
	return 0;
}

static int eval_meta(const double *in, double *out, unsigned variant, struct diag *err)
{
	(void)variant;
	(void)err;
	out[0] = nw_meta_ettr(in[0], in[1], in[2], in[3], in[4]);
	return 0;
}

static const struct model_arg args_daly[] = {
	{ "write_s", "s", 0, 1e7, NAN, 0 },
	{ "mttf_s", "s", 0, NAN, NAN, MODEL_ARG_LO_OPEN },
};
static const struct model_arg args_lost[] = {
	{ "rate", "1/s", 0, 1e3, NAN, 0 },
	{ "period", "s", 0, 1e12, NAN, 0 },
};
static const struct model_arg args_spare[] = {
	{ "k", "spares", 0, 1e8, NAN, MODEL_ARG_INTEGER },
	{ "rate", "1/s", 0, 1e3, NAN, 0 },
	{ "repair_s", "s", 0, 1e8, NAN, 0 },
};
static const struct model_arg args_meta[] = {
	{ "nodes", "nodes", 1, 1e8, NAN, 0 },
	{ "rate", "1/(node s)", 0, 1, NAN, 0 },
	{ "restart_s", "s", 0, 1e7, NAN, 0 },
	{ "interval_s", "s", 0, 1e9, NAN, MODEL_ARG_LO_OPEN },
	{ "write_s", "s", 0, 1e7, NAN, 0 },
};

const struct model model_network_daly = {
	"network.daly", "Daly's optimum checkpoint interval, at least 60 s (5.5)", args_daly, 2, "s",
	NULL, 1, NULL, 0, eval_daly, NULL
};
const struct model model_network_lost_work = {
	"network.lost_work", "expected work lost per failure between checkpoints (5.5)", args_lost,
	2, "s", NULL, 1, NULL, 0, eval_lost_work, NULL
};
const struct model model_network_spare_availability = {
	"network.spare_availability",
	"probability that k spares cover the nodes under repair (Poisson CDF at k-1, 5.5)",
	args_spare, 3, "probability", NULL, 1, NULL, 0, eval_spare, NULL
};
const struct model model_network_meta_ettr = {
	"network.meta_ettr",
	"Meta's closed-form ETTR (1 - N r (u0 + dt/2)) / (1 + w/dt), an external check",
	args_meta, 5, "fraction", NULL, 1, NULL, 0, eval_meta, NULL
};
