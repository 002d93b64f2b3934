/*
 * resiliency.c: every constant of spec/resiliency.md in one place (the
 * built-in catalog, the power, timing and storm defaults, the policy
 * ladder, the cost constants, the resilience classes), seeds as CPython
 * keys them, the monthly cost, the per-class figures of 5.12, and the
 * model descriptors `infragate models` lists. The simulation itself is in
 * resiliency_sim.c, the threaded batch in resiliency_batch.c.
 *
 * Nothing here allocates or keeps state; the tables are read-only.
 */
#include "core/models/resiliency.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/models/model.h"
#include "core/util/num.h"

/* ---- the built-in catalog (5.2) ----------------------------------------- */

static const struct rs_mode fiber_modes[] = {
	/* [1] 13 cuts/yr per 1,000 route-miles over a ~10 km access route;
	 * [2] buried repair 8-14 h, three times longer inside a storm. */
	{ "cut", 0.08, 8.0, 0.0, 1.0, 3.0, 1 },
	/* Calibrated so a single-homed access lands at its ~99.9% SLA [2]. */
	{ "upstream", 6.0, 1.2, 0.0, 1.0, 1.0, 0 },
};

static const struct rs_mode microwave_modes[] = {
	{ "hardware", 0.5, 4.0, 0.0, 1.0, 1.0, 0 },
	/* Rain degrades an E-band link rather than dropping it [3]. */
	{ "rain-fade", 40.0, 0.3, 0.25, 3.0, 1.0, 0 },
};

static const struct rs_mode fwa_modes[] = {
	{ "outage", 12.0, 1.0, 0.0, 1.0, 1.0, 0 },
};

static const struct rs_mode leo_modes[] = {
	/* ~15,000 brief interruptions a year aggregated to 200 of ~72 s [5][6]. */
	{ "flap", 200.0, 0.02, 0.0, 1.0, 1.0, 0 },
	{ "outage", 3.0, 1.5, 0.0, 1.0, 1.0, 0 },
};

const struct rs_transport rs_builtin_catalog[RS_NBUILTINS] = {
	{ "fiber", "fiber", 10.0, 0.5, 1500.0, RS_CARRIES_ALL, 0, fiber_modes, 2 },
	{ "microwave", "microwave", 10.0, 0.3, 800.0, RS_CARRIES_ALL, 0,
	  microwave_modes, 2 },
	{ "5g-fwa", "cellular", 0.3, 25.0, 150.0,
	  RS_CARRIES(RS_R1) | RS_CARRIES(RS_R2), 1, fwa_modes, 1 },
	{ "leo", "leo", 0.15, 50.0, 250.0, RS_CARRIES(RS_R1) | RS_CARRIES(RS_R2), 0,
	  leo_modes, 2 },
};

/* ---- power, timing, storms (5.3-5.5) ------------------------------------- */

const struct rs_power rs_default_power = {
	.battery_h = 4.0,                  /* cell-site bridge 4-8 h [11] */
	.has_generator = 0,
	.generator_fuel_h = 96.0,          /* 72-120 h per tank [11] */
	.generator_start_fail_p = 0.06,    /* rule of thumb, declined */
	.routine_outages_per_year = 1.5,   /* EIA routine component [12] */
	.routine_outage_h = 1.3,
};

const char *const rs_holdover_names[] = { "ocxo", "rubidium", NULL };
const double rs_holdover_hours[] = { 6.0, 36.0 }; /* [13] */

const struct rs_timing rs_default_timing = {
	.holdover = "ocxo",
	.holdover_h = 6.0,
	.gnss_events_per_year = 0.5,
	.gnss_event_h = 8.0,
};

const struct rs_storm rs_default_storm = {
	.rate_per_year = 0.8,
	.mean_duration_h = 24.0,
	.grid_outage_p = 0.7,
	.neighbor_battery_h = 4.0,
};

const double rs_default_shared_cut_fraction = 0.15; /* SRLG guess, declined */
const long rs_default_years = 2000;
const int rs_default_seed = 7;

/* ---- the ladder and its costs (5.7) ---------------------------------------- */

static const char *const p0_transports[] = { "fiber", NULL };
static const char *const p2_transports[] = { "fiber", "microwave", NULL };
static const char *const p3_transports[] = { "fiber", "5g-fwa", "leo", NULL };
static const char *const p4_transports[] = { "fiber", "microwave", "5g-fwa", "leo",
					     NULL };

const struct rs_rung rs_rungs[RS_NRUNGS] = {
	{ "P0", "single fiber", p0_transports, 0, 4.0, 0, "ocxo", 0 },
	{ "P1", "dual diverse fiber", p0_transports, 1, 4.0, 0, "ocxo", 0 },
	{ "P2", "fiber + e-band microwave", p2_transports, 0, 4.0, 0, "ocxo", 0 },
	{ "P3", "fiber + 5G + LEO bonded", p3_transports, 0, 4.0, 0, "ocxo", 0 },
	{ "P4", "multi-transport + generator + autonomy", p4_transports, 0, 8.0, 1,
	  "rubidium", 1 },
};

/* Planning-grade figures [20], USD per month. */
const struct rs_costs rs_costs = {
	.battery_per_h = 40.0,
	.generator = 400.0,
	.rubidium = 60.0,
	.ocxo = 0.0,
	.local_autonomy = 300.0,
};

/* ---- resilience classes (5.6) ------------------------------------------------ */

const struct rs_class_info rs_classes[RS_NCLASSES] = {
	{ "R0", 1, 0, 0.0, 1, 0 }, /* fronthaul, DU/CU, PTP */
	{ "R1", 0, 0, 0.0, 0, 0 }, /* near-RT RIC, orchestration */
	{ "R2", 0, 1, 0.6, 0, 1 }, /* tenant AI */
};

const char *const rs_switches[] = { "power_chain_deleted", NULL };
const size_t rs_nswitches = 1;

double rs_holdover_h(const char *holdover)
{
	size_t i;

	for (i = 0; rs_holdover_names[i]; i++)
		if (strcmp(rs_holdover_names[i], holdover) == 0)
			return rs_holdover_hours[i];
	return -1.0;
}

const struct rs_transport *rs_catalog_find(const struct rs_transport *catalog,
					   size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(catalog[i].name, name) == 0)
			return &catalog[i];
	return NULL;
}

int rs_policy_from_rung(const struct rs_rung *r,
			const struct rs_transport *catalog, size_t n,
			struct rs_policy *out, struct diag *err)
{
	size_t i;

	memset(out, 0, sizeof *out);
	out->name = r->name;
	out->label = r->label;
	out->fiber = out->fiber_b = -1;
	for (i = 0; i < RS_MAX_LISTED && r->transports[i]; i++) {
		const struct rs_transport *t = rs_catalog_find(catalog, n, r->transports[i]);

		if (!t) {
			diag_set(err, DIAG_E_ERROR, 0, 0, "rung %s: no transport '%s'",
				 r->name, r->transports[i]);
			return -1;
		}
		if (strcmp(r->transports[i], "fiber") == 0)
			out->fiber = (int)i;
		out->inst[out->ninst++] = t;
	}
	out->dual_fiber = r->dual_fiber;
	if (r->dual_fiber) {
		if (out->fiber < 0) {
			diag_set(err, DIAG_E_ERROR, 0, 0, "rung %s: dual fiber without fiber",
				 r->name);
			return -1;
		}
		out->fiber_b = (int)out->ninst;
		out->inst[out->ninst++] = out->inst[out->fiber];
	}
	out->shared_cut_fraction = rs_default_shared_cut_fraction;
	out->local_autonomy = r->local_autonomy;
	out->power = rs_default_power;
	out->power.battery_h = r->battery_h;
	out->power.has_generator = r->has_generator;
	out->timing = rs_default_timing;
	out->timing.holdover = r->holdover;
	out->timing.holdover_h = rs_holdover_h(r->holdover);
	return 0;
}

/* ---- seeds (5.9) ------------------------------------------------------------ */

int rs_seed_parse(struct rs_seed *s, const char *text, struct diag *err)
{
	const char *p = text;
	size_t digits;

	if (*p == '-')
		p++;
	for (digits = 0; p[digits] >= '0' && p[digits] <= '9'; digits++)
		;
	if (digits == 0 || p[digits] != '\0') {
		diag_set(err, DIAG_E_ERROR, 0, 0, "seed '%.40s' is not an integer", text);
		return -1;
	}
	if (digits > RS_MAX_SEED_DIGITS) {
		diag_set(err, DIAG_E_ERROR, 0, 0,
			 "a seed has at most %d digits, this one %zu", RS_MAX_SEED_DIGITS,
			 digits);
		return -1;
	}
	memcpy(s->text, text, (size_t)(p - text) + digits + 1);
	return 0;
}

void rs_seed_int(struct rs_seed *s, int64_t v)
{
	snprintf(s->text, sizeof s->text, "%lld", (long long)v);
}

/* ---- cost and figures ---------------------------------------------------------- */

double rs_monthly_usd(const struct rs_policy *p)
{
	double cost = 0.0, power;
	size_t i;

	/* The listed transports in order, then the second fiber: exactly the
	 * instance order, fiber-b being the last instance. */
	for (i = 0; i < p->ninst; i++)
		cost += p->inst[i]->monthly_usd;
	power = p->power.battery_h * rs_costs.battery_per_h +
		(p->power.has_generator ? rs_costs.generator : 0.0);
	cost += power;
	cost += strcmp(p->timing.holdover, "rubidium") == 0 ? rs_costs.rubidium
							     : rs_costs.ocxo;
	if (p->local_autonomy)
		cost += rs_costs.local_autonomy;
	return cost;
}

/* Never hand out a negative zero: -log10(1.0) is -0.0 (divergence 2). */
static double unsigned_zero(double x)
{
	return x == 0.0 ? 0.0 : x;
}

void rs_figures(const struct rs_totals *t, long years, enum rs_class c,
		struct rs_figures *out)
{
	const double n = (double)years;
	const double dr = rs_classes[c].degraded_retention;
	double down_yr = t->down_h / n, avail, nu, ret;

	avail = 1.0 - down_yr / RS_HOURS;
	nu = avail >= 1.0 ? 9.0 : -log10(1.0 - avail);
	ret = 1.0 - ((down_yr + (1.0 - dr) * (t->degraded_h / n)) +
		     t->capacity_loss_h / n) / RS_HOURS;
	out->availability = unsigned_zero(avail);
	out->nines_unrounded = unsigned_zero(nu);
	out->nines = unsigned_zero(num_round(nu, 2));
	out->down_yr = unsigned_zero(down_yr);
	out->downtime_h_yr = unsigned_zero(num_round(down_yr, 2));
	out->ettr_unrounded = t->episodes > 0 ? t->down_h / (double)t->episodes : 0.0;
	out->ettr_h = unsigned_zero(num_round(out->ettr_unrounded, 2));
	out->episodes_unrounded = (double)t->episodes / n;
	out->episodes_per_year = unsigned_zero(num_round(out->episodes_unrounded, 2));
	out->retention_unrounded = unsigned_zero(ret);
	out->retention = unsigned_zero(num_round(ret, 5));
	out->totals = *t;
}

/* ---- descriptors ------------------------------------------------------------- */

const struct model model_resiliency_catalog = {
	.name = "resiliency.catalog",
	.summary = "the built-in transports and failure modes, in catalog order",
	.result_unit = "list of transports",
	.table_input = "no arguments",
};

const struct model model_resiliency_defaults = {
	.name = "resiliency.defaults",
	.summary = "the ladder rungs P0..P4, power, timing and storm defaults, cost constants",
	.result_unit = "table of defaults",
	.table_input = "no arguments",
};

const struct model model_resiliency_simulate = {
	.name = "resiliency.simulate",
	.summary = "Monte Carlo of one policy: availability, nines, downtime h/yr, "
		   "episodes/yr, restore h, retention per class, and monthly USD",
	.result_unit = "table: monthly_usd (USD/month) and classes R0 R1 R2",
	.switches = rs_switches,
	.nswitches = 1,
	.table_input = "{catalog = {transport...}, policy = {...}, storm = {...}, "
		       "years = 1..10000000, seed = integer or decimal text}",
};

const struct model model_resiliency_batch = {
	.name = "resiliency.batch",
	.summary = "independent simulations and grid-hours runs on threads, figures "
		   "identical to running each alone",
	.result_unit = "list of results, in job order",
	.switches = rs_switches,
	.nswitches = 1,
	.table_input = "list of simulate tables, or {grid_hours = true, storm =, power =, "
		       "years =, seed =}",
};

const struct model model_resiliency_grid_hours = {
	.name = "resiliency.grid_hours",
	.summary = "mean grid-outage hours per year of a storm and power block "
		   "(validation registry helper)",
	.result_unit = "h/yr",
	.table_input = "{storm = {...}, power = {...}, years = 1..10000000, seed = integer}",
};
