/*
 * cooling.c: the ladder constants of spec/cooling.md 5.1, the mutation
 * switches of 7.4 applied to them, the PUE model (5.2), density and
 * ride-through (5.3), the capacity arithmetic (5.4) and CPython's float
 * sum (5.8). Every formula is evaluated in the order the spec writes it,
 * one IEEE operation at a time, so the figures match the reference bit for
 * bit (the build disables contraction).
 */
#include "core/models/cooling.h"

#include <math.h>
#include <string.h>

static const struct cooling_rung ladder[COOLING_RUNGS] = {
	{ "legacy-air", 10.0, 1.45, 0.45, 0, 0.00, 2500.0, 0.0 },
	{ "contained-air", 20.0, 1.06, 0.35, 1, 0.00, 2500.0, 250.0 },
	{ "rear-door-hx", 50.0, 1.09, 0.22, 1, 0.85, 1200.0, 550.0 },
	{ "direct-to-chip", 132.0, 1.03, 0.15, 1, 0.75, 1500.0, 900.0 },
	{ "immersion", 200.0, 1.02, 0.10, 1, 0.95, 40000.0, 1400.0 },
};

/* Four synthetic planning archetypes, not weather data. */
static const struct cooling_climate climates[COOLING_CLIMATES] = {
	{ "cold", 0.97 }, { "temperate", 0.85 }, { "hot-dry", 0.55 }, { "hot-humid", 0.35 },
};

static const struct cooling_mode modes[COOLING_MODES] = {
	{ "evaporative", 0.10, 1.20 }, { "hybrid", 0.03, 0.40 }, { "dry", -0.12, 0.05 },
};

const char *const cooling_switch_names[COOLING_SW_COUNT] = {
	[COOLING_SW_CONTAINED_AIR_FLOOR_UP] = "contained-air-floor-up",
	[COOLING_SW_FROZEN_FLEET] = "frozen-fleet",
	[COOLING_SW_COLLAPSED_FLEETS] = "collapsed-fleets",
	[COOLING_SW_CEILINGS_250KW] = "ceilings-250kw",
	[COOLING_SW_PUE_FLAT] = "pue-flat",
	[COOLING_SW_INITIAL_STOCK_333] = "initial-stock-3-3-3",
	[COOLING_SW_STEP_AS_CEILING] = "step-as-ceiling",
	[COOLING_SW_DTC_BUFFER_40000KJ] = "dtc-buffer-40000kj",
	[COOLING_SW_LEGACY_AIR_ECONOMIZER] = "legacy-air-economizer",
	[COOLING_SW_NO_GROWTH] = "no-growth",
	[COOLING_SW_NEW_BUILD_CONTAINED_AIR] = "new-build-contained-air",
};

enum { LEGACY_AIR, CONTAINED_AIR, REAR_DOOR, DIRECT_TO_CHIP, IMMERSION };

static void fleet_defaults(struct cooling_fleet_params *f)
{
	/* Two thirds legacy air, one third contained air: the calibrated
	 * initial condition; temperate counts twice in the climate mix. */
	static const int stock[] = { LEGACY_AIR, LEGACY_AIR, CONTAINED_AIR };
	static const int mix[] = { 0, 1, 1, 2, 3 };

	memset(f, 0, sizeof *f);
	memcpy(f->stock, stock, sizeof stock);
	f->nstock = sizeof stock / sizeof stock[0];
	memcpy(f->mix, mix, sizeof mix);
	f->nmix = sizeof mix / sizeof mix[0];
	f->growth = 0.15;
	f->retirement = 0.02;
	f->new_site_mw = 20.0;
	f->legacy_mw = 1.0;
	f->legacy_lo = 0.5;
	f->legacy_hi = 2.0;
	f->survey_floor_mw = 0.1;
	f->new_build_fixed = -1;
}

static void apply_switch(struct cooling_model *m, enum cooling_switch s)
{
	int i;

	switch (s) {
	case COOLING_SW_CONTAINED_AIR_FLOOR_UP:
		m->rungs[CONTAINED_AIR].pue_floor += 0.20;
		break;
	case COOLING_SW_FROZEN_FLEET:
		m->fleet.frozen = 1;
		break;
	case COOLING_SW_COLLAPSED_FLEETS:
		m->fleet.collapsed = 1;
		break;
	case COOLING_SW_CEILINGS_250KW:
		for (i = 0; i < COOLING_RUNGS; i++)
			m->rungs[i].max_kw = 250.0;
		break;
	case COOLING_SW_PUE_FLAT:
		m->pue_flat = 1.30;
		break;
	case COOLING_SW_INITIAL_STOCK_333:
		for (i = 0; i < 3; i++)
			m->fleet.stock[i] = DIRECT_TO_CHIP;
		m->fleet.nstock = 3;
		break;
	case COOLING_SW_STEP_AS_CEILING:
		m->step_as_ceiling = 1;
		break;
	case COOLING_SW_DTC_BUFFER_40000KJ:
		m->rungs[DIRECT_TO_CHIP].buffer_kj = 40000.0;
		break;
	case COOLING_SW_LEGACY_AIR_ECONOMIZER:
		m->rungs[LEGACY_AIR].economizer = 1;
		break;
	case COOLING_SW_NO_GROWTH:
		m->fleet.growth = 0.0;
		break;
	case COOLING_SW_NEW_BUILD_CONTAINED_AIR:
		m->fleet.new_build_fixed = CONTAINED_AIR;
		break;
	case COOLING_SW_COUNT:
		break;
	}
}

void cooling_model_init(struct cooling_model *m, unsigned variant)
{
	int s;

	memcpy(m->rungs, ladder, sizeof ladder);
	memcpy(m->climates, climates, sizeof climates);
	memcpy(m->modes, modes, sizeof modes);
	fleet_defaults(&m->fleet);
	m->pue_flat = NAN;
	m->step_as_ceiling = 0;
	for (s = 0; s < COOLING_SW_COUNT; s++)
		if (variant & (1u << s))
			apply_switch(m, (enum cooling_switch)s);
}

int cooling_rung_index(const struct cooling_model *m, const char *name)
{
	int i;

	for (i = 0; i < COOLING_RUNGS; i++)
		if (strcmp(m->rungs[i].name, name) == 0)
			return i;
	return -1;
}

int cooling_climate_index(const struct cooling_model *m, const char *name)
{
	int i;

	for (i = 0; i < COOLING_CLIMATES; i++)
		if (strcmp(m->climates[i].name, name) == 0)
			return i;
	return -1;
}

int cooling_mode_index(const struct cooling_model *m, const char *name)
{
	int i;

	for (i = 0; i < COOLING_MODES; i++)
		if (strcmp(m->modes[i].name, name) == 0)
			return i;
	return -1;
}

double cooling_free_cooling(const struct cooling_model *m, int climate, int mode)
{
	double f = m->climates[climate].free_cooling + m->modes[mode].shift;

	/* Python's min(1.0, max(0.0, f)). */
	if (!(f > 0.0))
		f = 0.0;
	if (f > 1.0)
		f = 1.0;
	return f;
}

double cooling_pue(const struct cooling_model *m, int rung, int climate, int mode)
{
	const struct cooling_rung *r = &m->rungs[rung];
	double f_eff, t, u;

	if (!isnan(m->pue_flat))
		return m->pue_flat;
	f_eff = r->economizer ? cooling_free_cooling(m, climate, mode) : 0.0;
	t = 1.0 - f_eff;
	u = t * r->mech_penalty;
	return r->pue_floor + u;
}

size_t cooling_feasible(const struct cooling_model *m, double kw, int *out)
{
	size_t n = 0;
	int i;

	for (i = 0; i < COOLING_RUNGS; i++)
		if (kw <= m->rungs[i].max_kw)
			out[n++] = i;
	return n;
}

double cooling_ride_through(const struct cooling_model *m, int rung, double kw)
{
	return m->rungs[rung].buffer_kj / kw;
}

int cooling_thinnest(const struct cooling_model *m)
{
	double best = 0.0;
	int i, at = 0;

	for (i = 0; i < COOLING_RUNGS; i++) {
		double s = cooling_ride_through(m, i, m->rungs[i].max_kw);

		if (i == 0 || s < best) {
			best = s;
			at = i;
		}
	}
	return at;
}

int cooling_it_mw(double feed_mw, double pue, double *out, const char **why)
{
	if (!(feed_mw > 0.0)) {
		*why = "feed_mw must be > 0";
		return -1;
	}
	if (!(pue >= 1.0)) {
		*why = "pue must be >= 1.0";
		return -1;
	}
	*out = feed_mw / pue;
	return 0;
}

int cooling_freed_mw(double feed_mw, double pue_from, double pue_to,
		     double *out, const char **why)
{
	double to, from;

	/* The destination term first, so its error wins (5.4). */
	if (cooling_it_mw(feed_mw, pue_to, &to, why) < 0) {
		if (feed_mw > 0.0)
			*why = "pue_to must be >= 1.0";
		return -1;
	}
	if (cooling_it_mw(feed_mw, pue_from, &from, why) < 0) {
		*why = "pue_from must be >= 1.0";
		return -1;
	}
	*out = to - from;
	return 0;
}

int64_t cooling_h100(double mw)
{
	double nodes;

	if (!(mw > 0.0))
		return 0;
	nodes = trunc((mw * 1000.0) / COOLING_H100_NODE_KW);
	if (!(nodes < 1e17))
		return INT64_MAX / COOLING_H100_GPUS_PER_NODE * COOLING_H100_GPUS_PER_NODE;
	return (int64_t)nodes * COOLING_H100_GPUS_PER_NODE;
}

double cooling_retrofit_cost(const struct cooling_model *m, double feed_mw,
			     double pue_to, int rung)
{
	double it = feed_mw / pue_to;

	return (m->rungs[rung].retrofit_usd_per_kw * it) * 1000.0;
}

double cooling_sum(const double *x, size_t n)
{
	double s, c = 0.0;
	size_t i;

	if (n == 0)
		return 0.0;
	s = x[0];
	for (i = 1; i < n; i++) {
		double t = s + x[i];
		/* Both corrections, then a select: the comparison follows the
		 * data, so a branch on it mispredicts half the time. */
		double big_s = (s - t) + x[i], big_x = (x[i] - t) + s;

		c += fabs(s) >= fabs(x[i]) ? big_s : big_x;
		s = t;
	}
	if (c != 0.0 && isfinite(c))
		s += c;
	return s;
}
