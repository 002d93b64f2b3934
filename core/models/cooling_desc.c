/*
 * cooling_desc.c: the descriptors of the cooling models (the cooling lines
 * of core/models/models.def), which `infragate models` lists. The three
 * all-numeric ones go through the generic binding with their domains; the
 * others take rung, climate and mode names or tables, and their converters
 * live in core/lua/l_model_cooling.c. Every cooling model accepts the
 * mutation switches of spec/cooling.md 7.4 as its `variant`.
 */
#include "core/models/cooling.h"

#include <math.h>

#include "core/models/model.h"

#define SWITCHES .switches = cooling_switch_names, .nswitches = COOLING_SW_COUNT

static int eval_it_mw(const double *in, double *out, unsigned variant, struct diag *err)
{
	const char *why = NULL;

	(void)variant;
	if (cooling_it_mw(in[0], in[1], out, &why) < 0) {
		diag_set(err, DIAG_E_ERROR, 0, 0, "%s", why);
		return -1;
	}
	return 0;
}

static int eval_freed_mw(const double *in, double *out, unsigned variant, struct diag *err)
{
	const char *why = NULL;

	(void)variant;
	if (cooling_freed_mw(in[0], in[1], in[2], out, &why) < 0) {
		diag_set(err, DIAG_E_ERROR, 0, 0, "%s", why);
		return -1;
	}
	return 0;
}

static int eval_h100(const double *in, double *out, unsigned variant, struct diag *err)
{
	(void)variant;
	(void)err;
	out[0] = (double)cooling_h100(in[0]);
	return 0;
}

/* Feeds up to 1e12 MW keep every H100 count inside int64 (spec 8 item 4). */
static const struct model_arg args_it_mw[] = {
	{ "feed_mw", "MW", 0, 1e12, NAN, MODEL_ARG_LO_OPEN },
	{ "pue", "ratio", 1.0, NAN, NAN, 0 },
};

static const struct model_arg args_freed_mw[] = {
	{ "feed_mw", "MW", 0, 1e12, NAN, MODEL_ARG_LO_OPEN },
	{ "pue_from", "ratio", 1.0, NAN, NAN, 0 },
	{ "pue_to", "ratio", 1.0, NAN, NAN, 0 },
};

static const struct model_arg args_h100[] = {
	{ "mw", "MW", 0, 1e12, NAN, 0 },
};

const struct model model_cooling_it_mw = {
	.name = "cooling.it_mw",
	.summary = "IT megawatts a facility feed delivers at a PUE: feed / pue, MW",
	.args = args_it_mw, .nargs = 2, .result_unit = "MW", .nout = 1,
	.eval = eval_it_mw, SWITCHES,
};

const struct model model_cooling_freed_mw = {
	.name = "cooling.freed_mw",
	.summary = "IT megawatts freed behind a fixed feed when the PUE moves: "
		   "feed/pue_to - feed/pue_from, MW",
	.args = args_freed_mw, .nargs = 3, .result_unit = "MW", .nout = 1,
	.eval = eval_freed_mw, SWITCHES,
};

const struct model model_cooling_h100 = {
	.name = "cooling.h100",
	.summary = "H100 GPUs in whole 10.2 kW 8-GPU DGX nodes that fit in a number of IT MW",
	.args = args_h100, .nargs = 1, .result_unit = "GPUs", .nout = 1,
	.eval = eval_h100, SWITCHES,
};

static const struct model_arg args_kw[] = {
	{ "kw", "kW per rack", 0, NAN, NAN, MODEL_ARG_LO_OPEN },
};

static const struct model_arg args_retrofit[] = {
	{ "feed_mw", "MW", 0, 1e12, NAN, MODEL_ARG_LO_OPEN },
	{ "pue_to", "ratio", 1.0, NAN, NAN, 0 },
};

static const struct model_arg args_cost_per_freed[] = {
	{ "feed_mw", "MW", 0, 1e12, NAN, MODEL_ARG_LO_OPEN },
	{ "pue_from", "ratio", 1.0, NAN, NAN, 0 },
};

const struct model model_cooling_ladder = {
	.name = "cooling.ladder",
	.summary = "the five rungs with their constants and PUE grid, the climates, the water "
		   "modes, the free-cooling grid and the thinnest rung",
	.result_unit = "table", SWITCHES,
	.table_input = "([variant])",
};

const struct model model_cooling_pue = {
	.name = "cooling.pue",
	.summary = "PUE of a rung in a climate and heat-rejection mode: "
		   "floor + (1 - free cooling) x penalty",
	.result_unit = "ratio", SWITCHES,
	.table_input = "(rung, climate, mode[, variant]): names of spec/cooling.md 5.1",
};

const struct model model_cooling_free_cooling = {
	.name = "cooling.free_cooling",
	.summary = "effective free-cooling fraction of a climate and mode, clamped to 0..1",
	.result_unit = "fraction of the year", SWITCHES,
	.table_input = "(climate, mode[, variant])",
};

const struct model model_cooling_wue = {
	.name = "cooling.wue",
	.summary = "water use of a heat-rejection mode",
	.result_unit = "L per IT kWh", SWITCHES,
	.table_input = "(mode[, variant])",
};

const struct model model_cooling_feasible = {
	.name = "cooling.feasible",
	.summary = "the rungs whose density ceiling is at least kw, in ladder order",
	.args = args_kw, .nargs = 1, .result_unit = "list of rung names", SWITCHES,
	.table_input = "(kw[, variant])",
};

const struct model model_cooling_ride_through = {
	.name = "cooling.ride_through",
	.summary = "seconds a rack survives total cooling loss: buffer kJ / kW",
	.args = args_kw, .nargs = 1, .result_unit = "s", SWITCHES,
	.table_input = "(rung, kw[, variant]): kw at most the rung's ceiling",
};

const struct model model_cooling_thinnest = {
	.name = "cooling.thinnest",
	.summary = "the rung with the least ride-through at its own ceiling",
	.result_unit = "rung name", SWITCHES,
	.table_input = "([variant])",
};

const struct model model_cooling_retrofit_cost = {
	.name = "cooling.retrofit_cost",
	.summary = "retrofit price of all IT capacity cooled at the destination rung",
	.args = args_retrofit, .nargs = 2, .result_unit = "USD", SWITCHES,
	.table_input = "(feed_mw, pue_to, rung[, variant])",
};

const struct model model_cooling_cost_per_freed = {
	.name = "cooling.cost_per_freed",
	.summary = "freed MW, retrofit USD and USD per freed MW of a move to a rung",
	.args = args_cost_per_freed, .nargs = 2,
	.result_unit = "MW, USD, USD/MW (nil when nothing is freed)", SWITCHES,
	.table_input = "(feed_mw, pue_from, rung, climate, mode[, variant])",
};

const struct model model_cooling_admit = {
	.name = "cooling.admit",
	.summary = "admission of a job start: ride-through, hall headroom, feeder ceiling and "
		   "step; ADMIT, STAGGER or DENY with reasons, steps and stagger order",
	.result_unit = "table", SWITCHES,
	.table_input = "(plan[, variant]): {halls = {{id, feeder, rung, kw_per_rack, "
		       "racks_running, feed_mw, climate, water_mode}...}, feeders = {{id, limit_mw, "
		       "max_step_mw}...}, running_mw = {{id, mw}...}, start = {racks = {{hall, "
		       "racks}...}, need_s}}",
};

const struct model model_cooling_simulate = {
	.name = "cooling.simulate",
	.summary = "synthetic fleet per year: survey-average and energy-weighted PUE, sites, "
		   "IT MW (CPython MT19937)",
	.result_unit = "list of years", SWITCHES,
	.table_input = "(seed, start_year, end_year, legacy_sites[, variant]): seed an integer "
		       "or decimal text; years 1900..2200, at most 50; 1..10000 sites",
};

const struct model model_cooling_simulate_seeds = {
	.name = "cooling.simulate_seeds",
	.summary = "cooling.simulate for seeds 0..N-1 at once, on a few threads (the same "
		   "figures as N calls in order)",
	.result_unit = "list (per seed) of lists of years", SWITCHES,
	.table_input = "(seeds, start_year, end_year, legacy_sites[, variant]): 1..256 seeds; "
		       "years 1900..2200, at most 50; 1..10000 sites",
};

const struct model model_cooling_mean_exact = {
	.name = "cooling.mean_exact",
	.summary = "statistics.mean of finite numbers: the exact sum / n, rounded once",
	.result_unit = "same unit as the values",
	.table_input = "(list of 1..1048576 finite numbers)",
};
