/*
 * test_model_cooling.c: the cooling models against the reference figures of
 * spec/cooling.md 5.2-5.8 and the vectors of its appendix 10. Exact double
 * equality (eq(dbl, ...)) is on purpose: the spec gives these figures as the
 * reference implementation's doubles, and the published tool's verdicts and
 * printed digits depend on the last bit (the fleet draws, the 1e-9 admission
 * tolerance).
 */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/models/cooling.h"
#include "core/models/exact_mean.h"
#include "core/models/model.h"
#include "core/models/mt19937.h"

static struct cooling_model shipped(void)
{
	struct cooling_model m;

	cooling_model_init(&m, 0);
	return m;
}

/* ---- 10.1: the PUE table --------------------------------------------------------- */

struct pue_row {
	int rung;
	double v[COOLING_CLIMATES][COOLING_MODES];
};

ParameterizedTestParameters(cooling, pue_table)
{
	static struct pue_row rows[] = {
		{ 0, { { 1.9, 1.9, 1.9 }, { 1.9, 1.9, 1.9 }, { 1.9, 1.9, 1.9 }, { 1.9, 1.9, 1.9 } } },
		{ 1, { { 1.06, 1.06, 1.1125 }, { 1.0775000000000001, 1.102, 1.1545 },
		       { 1.1825, 1.207, 1.2595 }, { 1.2525, 1.2770000000000001, 1.3295 } } },
		{ 2, { { 1.09, 1.09, 1.123 }, { 1.101, 1.1164, 1.1494 },
		       { 1.167, 1.1824000000000001, 1.2154 },
		       { 1.211, 1.2264000000000002, 1.2594 } } },
		{ 3, { { 1.03, 1.03, 1.0525 }, { 1.0375, 1.048, 1.0705 },
		       { 1.0825, 1.093, 1.1155 }, { 1.1125, 1.123, 1.1455 } } },
		{ 4, { { 1.02, 1.02, 1.035 }, { 1.025, 1.032, 1.047 }, { 1.055, 1.062, 1.077 },
		       { 1.075, 1.082, 1.097 } } },
	};
	return cr_make_param_array(struct pue_row, rows, sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct pue_row *r, cooling, pue_table)
{
	struct cooling_model m = shipped();
	int c, k;

	for (c = 0; c < COOLING_CLIMATES; c++)
		for (k = 0; k < COOLING_MODES; k++)
			cr_assert(eq(dbl, cooling_pue(&m, r->rung, c, k), r->v[c][k]),
				  "rung %d climate %d mode %d", r->rung, c, k);
}

Test(cooling, free_cooling_grid)
{
	static const double want[COOLING_CLIMATES][COOLING_MODES] = {
		{ 1.0, 1.0, 0.85 }, { 0.95, 0.88, 0.73 },
		{ 0.65, 0.5800000000000001, 0.43000000000000005 },
		{ 0.44999999999999996, 0.38, 0.22999999999999998 },
	};
	struct cooling_model m = shipped();
	int c, k;

	for (c = 0; c < COOLING_CLIMATES; c++)
		for (k = 0; k < COOLING_MODES; k++)
			cr_assert(eq(dbl, cooling_free_cooling(&m, c, k), want[c][k]));
	/* Rear-door is worse than contained air in the cold, better in hot-humid. */
	cr_assert(cooling_pue(&m, 2, 0, 0) > cooling_pue(&m, 1, 0, 0));
	cr_assert(cooling_pue(&m, 2, 3, 0) < cooling_pue(&m, 1, 3, 0));
	cr_assert(eq(dbl, m.modes[2].wue, 0.05));
}

Test(cooling, names)
{
	struct cooling_model m = shipped();

	cr_assert(eq(int, cooling_rung_index(&m, "direct-to-chip"), 3));
	cr_assert(eq(int, cooling_rung_index(&m, "direct"), -1));
	cr_assert(eq(int, cooling_rung_index(&m, "Immersion"), -1));
	cr_assert(eq(int, cooling_climate_index(&m, "hot-humid"), 3));
	cr_assert(eq(int, cooling_mode_index(&m, "dry"), 2));
}

/* ---- 5.3: density and ride-through ------------------------------------------------ */

struct feasible_row {
	double kw;
	size_t n;
	int first;
};

ParameterizedTestParameters(cooling, feasible)
{
	static struct feasible_row rows[] = {
		{ 10.0, 5, 0 }, { 40.8, 3, 2 }, { 120.0, 2, 3 }, { 132.0, 2, 3 },
		{ 132.01, 1, 4 }, { 200.0, 1, 4 }, { 200.0000001, 0, -1 }, { 1e300, 0, -1 },
		{ 1e-300, 5, 0 },
	};
	return cr_make_param_array(struct feasible_row, rows, sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct feasible_row *r, cooling, feasible)
{
	struct cooling_model m = shipped();
	int out[COOLING_RUNGS];
	size_t n = cooling_feasible(&m, r->kw, out);

	cr_assert(eq(sz, n, r->n), "kw %g", r->kw);
	if (n)
		cr_assert(eq(int, out[0], r->first));
}

Test(cooling, ride_through)
{
	static const double at_max[COOLING_RUNGS] = { 250, 125, 24, 11.363636363636363, 200 };
	struct cooling_model m = shipped();
	int r;

	for (r = 0; r < COOLING_RUNGS; r++)
		cr_assert(eq(dbl, cooling_ride_through(&m, r, m.rungs[r].max_kw), at_max[r]));
	cr_assert(eq(dbl, cooling_ride_through(&m, 4, 132) / cooling_ride_through(&m, 3, 132),
		     26.666666666666664));
	cr_assert(epsilon_eq(dbl, cooling_ride_through(&m, 4, 132), 303.030303030303, 1e-9));
	cr_assert(eq(int, cooling_thinnest(&m), 3));
}

/* ---- 5.4 and 10.2: capacity ------------------------------------------------------- */

struct capacity_row {
	double feed, from, to, freed;
	int64_t h100;
};

ParameterizedTestParameters(cooling, capacity)
{
	/* freed NaN: only the printed figure is given; checked by the h100 count. */
	static struct capacity_row rows[] = {
		{ 10, 1.56, 1.2, 1.9230769230769242, 1504 },
		{ 10, 1.5, 1.2, NAN, 1304 },
		{ 1000, 2, 1.1, NAN, 320848 },
		{ 50, 1.9, 1.0, NAN, 18568 },
		{ 10, 1.2, 1.5, NAN, 0 },
		{ 1, 1.5, 1.5000001, NAN, 0 },
	};
	return cr_make_param_array(struct capacity_row, rows, sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct capacity_row *r, cooling, capacity)
{
	const char *why = NULL;
	double freed = 0;

	cr_assert(eq(int, cooling_freed_mw(r->feed, r->from, r->to, &freed, &why), 0));
	if (!isnan(r->freed))
		cr_assert(eq(dbl, freed, r->freed));
	cr_assert(eq(i64, cooling_h100(freed), r->h100));
}

Test(cooling, capacity_printed_and_errors)
{
	const char *why = NULL;
	double freed = 0;
	char buf[32];

	cooling_freed_mw(1000, 2, 1.1, &freed, &why);
	snprintf(buf, sizeof buf, "%+.2f", freed);
	cr_assert_str_eq(buf, "+409.09");
	cooling_freed_mw(1, 1.5, 1.5000001, &freed, &why);
	snprintf(buf, sizeof buf, "%+.2f", freed);
	cr_assert_str_eq(buf, "-0.00");
	/* The destination's error wins over the origin's (5.4). */
	cr_assert(eq(int, cooling_freed_mw(10, 0.5, 0.9, &freed, &why), -1));
	cr_assert_str_eq(why, "pue_to must be >= 1.0");
	cr_assert(eq(int, cooling_freed_mw(10, 0.5, 1.2, &freed, &why), -1));
	cr_assert_str_eq(why, "pue_from must be >= 1.0");
	cr_assert(eq(int, cooling_freed_mw(0, 1.5, 1.2, &freed, &why), -1));
	cr_assert_str_eq(why, "feed_mw must be > 0");
	cr_assert(eq(int, cooling_freed_mw(10, 1.0, 1.0, &freed, &why), 0));
	cr_assert(eq(i64, cooling_h100(-3.0), 0));
	cr_assert(eq(i64, cooling_h100(0.0102), 8));
}

struct retrofit_row {
	double from;
	int rung, climate, mode;
	double freed, cost, per_mw;
};

ParameterizedTestParameters(cooling, retrofit)
{
	static struct retrofit_row rows[] = {
		{ 1.56, 3, 1, 0, 3.2282978066110593, 8674698.795180723, 2687081.339712919 },
		{ 1.3295, 3, 3, 0, 1.4671393740148977, 8089887.640449436, 5514055.299539177 },
		{ 1.05, 2, 1, 0, -0.44115738938627125, NAN, NAN },
	};
	return cr_make_param_array(struct retrofit_row, rows, sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct retrofit_row *r, cooling, retrofit)
{
	struct cooling_model m = shipped();
	double to = cooling_pue(&m, r->rung, r->climate, r->mode), freed = 0, cost;
	const char *why = NULL;

	cr_assert(eq(int, cooling_freed_mw(10, r->from, to, &freed, &why), 0));
	cr_assert(eq(dbl, freed, r->freed));
	cost = cooling_retrofit_cost(&m, 10, to, r->rung);
	if (!isnan(r->cost)) {
		cr_assert(eq(dbl, cost, r->cost));
		cr_assert(eq(dbl, cost / freed, r->per_mw));
	} else {
		cr_assert(freed <= 0.0); /* frees no capacity */
	}
}

/* ---- 5.8: sums and means ------------------------------------------------------------ */

Test(cooling, neumaier_sum)
{
	static const double a[] = { 1e100, 1.0, -1e100 };
	static const double b[] = { 0.1, 0.2, 0.3 };

	cr_assert(eq(dbl, cooling_sum(a, 3), 1.0));      /* naive: 0.0 */
	cr_assert(eq(dbl, cooling_sum(b, 3), 0.6));      /* naive: 0.6000000000000001 */
	cr_assert(eq(dbl, cooling_sum(b, 0), 0.0));
}

/* ---- 5.7: the derived draws of the fleet ------------------------------------------- */

Test(cooling, draws)
{
	struct mt19937 g;

	mt19937_seed_int64(&g, 7);
	cr_assert(eq(u64, mt19937_randbelow(&g, 3), 1));
	cr_assert(eq(u64, mt19937_randbelow(&g, 5), 1));
	cr_assert(eq(dbl, mt19937_uniform(&g, 0.5, 2.0), 1.0922352446347603));
	mt19937_seed_int64(&g, 0);
	cr_assert(eq(u64, mt19937_randbelow(&g, 3), 1));
	cr_assert(eq(u64, mt19937_randbelow(&g, 5), 3));
	cr_assert(eq(dbl, mt19937_uniform(&g, 0.5, 2.0), 0.5607265672711663));
	mt19937_seed_int64(&g, -3);
	cr_assert(eq(u32, mt19937_next32(&g), 1022050301u));
	cr_assert(eq(int, mt19937_seed_decimal(&g, "4294967296"), 0));
	cr_assert(eq(u32, mt19937_next32(&g), 485306839u));
}

/* ---- 5.6 and 10.4: the fleet --------------------------------------------------------- */

static void run(const struct cooling_model *m, const char *seed, struct cooling_year *y)
{
	struct mt19937 g;

	cr_assert(eq(int, mt19937_seed_decimal(&g, seed), 0));
	cr_assert(eq(int, cooling_simulate(m, &g, 2014, 2024, 400, 1000000, y), 0));
}

/* The threaded sweep gives, seed by seed and bit for bit, what one call per
 * seed gives (the validation's 24 seeds rest on it). */
Test(cooling, fleet_seeds_equal_one_call_per_seed)
{
	enum { SEEDS = 9, YEARS = 11 };
	struct cooling_model m = shipped();
	struct cooling_year all[SEEDS * YEARS], one[YEARS];
	int s, i;

	cr_assert(eq(int, cooling_simulate_seeds(&m, SEEDS, 2014, 2024, 400, 1000000, all), 0));
	for (s = 0; s < SEEDS; s++) {
		char seed[8];

		snprintf(seed, sizeof seed, "%d", s);
		run(&m, seed, one);
		for (i = 0; i < YEARS; i++) {
			const struct cooling_year *a = &all[s * YEARS + i], *b = &one[i];

			cr_assert(eq(int, a->year, b->year));
			cr_assert(eq(dbl, a->survey_avg, b->survey_avg), "seed %d year %d", s, i);
			cr_assert(eq(dbl, a->energy_weighted, b->energy_weighted));
			cr_assert(eq(dbl, a->it_mw, b->it_mw));
			cr_assert(eq(sz, a->sites, b->sites));
		}
	}
	/* Seeds differ: the sweep did not run one seed nine times. */
	cr_assert(ne(dbl, all[0 * YEARS + 10].survey_avg, all[1 * YEARS + 10].survey_avg));
	/* A cap the fleet outgrows fails the whole sweep. */
	cr_assert(eq(int, cooling_simulate_seeds(&m, 3, 2014, 2024, 400, 401, all), -1));
}

Test(cooling, fleet_seed_7)
{
	static const double survey[11] = {
		1.6715812499999998, 1.6667821782178218, 1.6594498777506113, 1.6534359903381644,
		1.6455, 1.636702576112412, 1.628721198156682, 1.6200656108597284,
		1.6100731707317073, 1.5969274891774892, 1.5835717299578058,
	};
	static const double weighted[11] = {
		1.6647279462681974, 1.6004366182123404, 1.528508445253934, 1.4780010447494079,
		1.4260939963620278, 1.3821389750486381, 1.3480790665082405, 1.3196375687813608,
		1.2912308082148987, 1.2580895822611842, 1.2316354042928506,
	};
	static const size_t sites[11] = { 400, 404, 409, 414, 420, 427, 434, 442, 451, 462, 474 };
	static const double it[11] = {
		485.4364998773807, 548.5432448614401, 621.3101761930595, 705.1824383323736,
		801.8220250783779, 913.1403054163598, 1041.3354282735145, 1188.9353380183481,
		1358.847242314831, 1554.4145001839115, 1779.4820433029172,
	};
	struct cooling_model m = shipped();
	struct cooling_year y[11];
	int i;

	run(&m, "7", y);
	for (i = 0; i < 11; i++) {
		cr_assert(eq(int, y[i].year, 2014 + i));
		cr_assert(eq(dbl, y[i].survey_avg, survey[i]), "year %d", 2014 + i);
		cr_assert(eq(dbl, y[i].energy_weighted, weighted[i]), "year %d", 2014 + i);
		cr_assert(eq(sz, y[i].sites, sites[i]));
		cr_assert(eq(sz, y[i].surveyed, sites[i])); /* nobody below the floor */
		cr_assert(eq(dbl, y[i].it_mw, it[i]));
	}
}

Test(cooling, fleet_printed_and_negative_seed)
{
	struct cooling_model m = shipped();
	struct cooling_year a[11], b[11];
	char s[4][16];

	run(&m, "0", a);
	snprintf(s[0], 16, "%.3f", a[0].survey_avg);
	snprintf(s[1], 16, "%.3f", a[10].survey_avg);
	snprintf(s[2], 16, "%.3f", a[0].energy_weighted);
	snprintf(s[3], 16, "%.3f", a[10].energy_weighted);
	cr_assert_str_eq(s[0], "1.637");
	cr_assert_str_eq(s[1], "1.551");
	cr_assert_str_eq(s[2], "1.646");
	cr_assert_str_eq(s[3], "1.231");
	run(&m, "3", a);
	run(&m, "-3", b);
	snprintf(s[0], 16, "%.3f", a[10].energy_weighted);
	cr_assert_str_eq(s[0], "1.238");
	cr_assert(eq(dbl, a[10].survey_avg, b[10].survey_avg));
	cr_assert(eq(dbl, a[0].energy_weighted, b[0].energy_weighted));
}

Test(cooling, registry_means)
{
	struct cooling_model m = shipped();
	struct cooling_year y[11];
	double s14[24], s24[24], gap[24], lo = 9, hi = 0;
	char seed[8];
	int i, over = 0;

	for (i = 0; i < 24; i++) {
		snprintf(seed, sizeof seed, "%d", i);
		run(&m, seed, y);
		s14[i] = y[0].survey_avg;
		s24[i] = y[10].survey_avg;
		gap[i] = y[10].survey_avg - y[10].energy_weighted;
		over += gap[i] > 0.25;
		lo = fmin(lo, gap[i]);
		hi = fmax(hi, gap[i]);
	}
	cr_assert(eq(dbl, exact_mean(s14, 24), 1.6448846354166666));
	cr_assert(eq(dbl, cooling_sum(s14, 24) / 24, 1.6448846354166664));
	cr_assert(eq(dbl, exact_mean(s24, 24), 1.5593652882251317));
	cr_assert(eq(dbl, exact_mean(gap, 24), 0.32977717784909577));
	cr_assert(eq(int, over, 24));
	cr_assert(eq(dbl, lo, 0.30842032197179936));
	cr_assert(eq(dbl, hi, 0.3561533856183645));
}

/* Mutation 2b: a frozen fleet misses the 2024 survey band on every seed. */
Test(cooling, frozen_fleet_fails_every_seed)
{
	struct cooling_model m;
	struct cooling_year y[11];
	char seed[8];
	int i;

	cooling_model_init(&m, 1u << COOLING_SW_FROZEN_FLEET);
	for (i = 0; i < 24; i++) {
		snprintf(seed, sizeof seed, "%d", i);
		run(&m, seed, y);
		cr_assert(eq(dbl, y[10].survey_avg, y[0].survey_avg));
		cr_assert(fabs(y[0].survey_avg - 1.56) > 0.035, "seed %d", i);
	}
}

Test(cooling, blind_spot_new_build_contained_air)
{
	struct cooling_model m;
	struct cooling_year y[11];
	double s24[24], gap[24];
	char seed[8];
	int i;

	cooling_model_init(&m, 1u << COOLING_SW_NEW_BUILD_CONTAINED_AIR);
	for (i = 0; i < 24; i++) {
		snprintf(seed, sizeof seed, "%d", i);
		run(&m, seed, y);
		s24[i] = y[10].survey_avg;
		gap[i] = y[10].survey_avg - y[10].energy_weighted;
	}
	/* Declined entry 8: 2024 survey mean 1.5627, divergence 0.3163. */
	cr_assert(epsilon_eq(dbl, exact_mean(s24, 24), 1.5627, 5e-5));
	cr_assert(epsilon_eq(dbl, exact_mean(gap, 24), 0.3163, 5e-5));
}

/* ---- 5.5 and 10.3: admission ----------------------------------------------------------- */

struct fixture {
	struct cooling_hall h[4];
	struct cooling_feeder f[2];
	struct cooling_start s[4];
	struct cooling_plan p;
	struct cooling_reason reasons[16];
	int by_id[4], stagger[4], scratch[8];
	struct cooling_hall_out ho[4];
	struct cooling_feeder_out fo[2];
	double sums[8];
	int hg[4], ho_[4], sg[4], so[4];
	struct cooling_admission a;
};

static void hall(struct fixture *x, int i, const char *id, int rung, int climate, int mode,
		 double kw, double running, double feed)
{
	struct cooling_hall h = { id, strlen(id), 0, rung, climate, mode, kw, running, feed };

	x->h[i] = h;
}

static void admit(struct fixture *x, unsigned variant, size_t nh, double limit, double step,
		  double need)
{
	struct cooling_model m;
	const char *why = NULL;
	size_t i;

	cooling_model_init(&m, variant);
	x->f[0].id = "F1";
	x->f[0].idlen = 2;
	x->f[0].limit_mw = limit;
	x->f[0].max_step_mw = step;
	x->p.halls = x->h;
	x->p.nhalls = nh;
	x->p.feeders = x->f;
	x->p.nfeeders = 1;
	x->p.start = x->s;
	x->p.need_s = need;
	for (i = 0; i < x->p.nstart; i++)
		x->s[i].hall = x->s[i].hall;
	x->a.reasons = x->reasons;
	x->a.by_id = x->by_id;
	x->a.stagger = x->stagger;
	x->a.halls = x->ho;
	x->a.feeders = x->fo;
	x->a.scratch = x->scratch;
	x->a.sums = x->sums;
	x->a.hall_group = x->hg;
	x->a.hall_off = x->ho_;
	x->a.start_group = x->sg;
	x->a.start_off = x->so;
	cr_assert(eq(int, cooling_admit(&m, &x->p, &x->a, &why), 0));
}

static void start(struct fixture *x, size_t i, int hall_index, double racks)
{
	x->s[i].hall = hall_index;
	x->s[i].racks = racks;
	x->p.nstart = i + 1;
}

Test(cooling, admit_shared_feeder_pair)
{
	struct fixture x;

	memset(&x, 0, sizeof x);
	hall(&x, 0, "hall-a", 3, 1, 0, 100, 0, 8);
	hall(&x, 1, "hall-b", 3, 1, 0, 100, 0, 8);
	start(&x, 0, 0, 10);
	admit(&x, 0, 2, 40, 1.5, 0);
	cr_assert(eq(int, x.a.verdict, COOLING_ADMIT)); /* alone */
	cr_assert(eq(dbl, x.ho[0].step_mw, 1.0375));
	start(&x, 1, 1, 10);
	admit(&x, 0, 2, 40, 1.5, 0);
	cr_assert(eq(int, x.a.verdict, COOLING_STAGGER));
	cr_assert(eq(dbl, x.a.total_step_mw, 2.075));
	cr_assert(eq(sz, x.a.nstagger, 2));
	cr_assert(eq(int, x.a.stagger[0], 0));
	cr_assert(eq(int, x.a.stagger[1], 1));
	/* step-as-ceiling: the would-be stagger is a DENY. */
	admit(&x, 1u << COOLING_SW_STEP_AS_CEILING, 2, 40, 1.5, 0);
	cr_assert(eq(int, x.a.verdict, COOLING_DENY));
	cr_assert(eq(int, x.reasons[0].rule, COOLING_R_FEEDER_STEP));
}

Test(cooling, admit_stagger_order_four_halls)
{
	struct fixture x;

	memset(&x, 0, sizeof x);
	hall(&x, 0, "a", 4, 1, 0, 50, 0, 8);
	hall(&x, 1, "b9", 4, 1, 0, 100, 0, 8);
	hall(&x, 2, "b2", 4, 1, 0, 100, 0, 8);
	hall(&x, 3, "c", 4, 1, 0, 150, 0, 8);
	start(&x, 0, 0, 5);
	start(&x, 1, 1, 10);
	start(&x, 2, 2, 10);
	start(&x, 3, 3, 10);
	admit(&x, 0, 4, 40, 2.0, 0);
	cr_assert(eq(int, x.a.verdict, COOLING_STAGGER));
	cr_assert(eq(dbl, x.ho[0].step_mw, 0.25625));
	cr_assert(eq(dbl, x.ho[1].step_mw, 1.025));
	cr_assert(epsilon_eq(dbl, x.ho[3].step_mw, 1.5375, 5e-7));
	cr_assert(epsilon_eq(dbl, x.a.total_step_mw, 3.84, 5e-3)); /* printed as 3.84 */
	cr_assert(eq(int, x.a.stagger[0], 3));
	cr_assert(eq(int, x.a.stagger[1], 2)); /* b2 before b9: tie by id */
	cr_assert(eq(int, x.a.stagger[2], 1));
	cr_assert(eq(int, x.a.stagger[3], 0));
	/* by id: a, b2, b9, c */
	cr_assert(eq(int, x.by_id[1], 2));
}

Test(cooling, admit_reason_order_west_east)
{
	struct fixture x;

	memset(&x, 0, sizeof x);
	hall(&x, 0, "west", 3, 2, 2, 120, 20, 3.0);
	hall(&x, 1, "east", 2, 2, 2, 45, 0, 0.5);
	start(&x, 0, 0, 10);
	start(&x, 1, 1, 12);
	admit(&x, 0, 2, 40, 0.001, 20);
	cr_assert(eq(int, x.a.verdict, COOLING_DENY));
	cr_assert(eq(sz, x.a.nreasons, 3));
	cr_assert(eq(int, x.reasons[0].rule, COOLING_R_RIDE_THROUGH));
	cr_assert(eq(int, x.reasons[0].hall, 0));
	cr_assert(eq(dbl, x.reasons[0].a, 12.5));
	cr_assert(eq(int, x.reasons[1].rule, COOLING_R_HALL_HEADROOM));
	cr_assert(eq(int, x.reasons[1].hall, 1)); /* east sorts first */
	cr_assert(epsilon_eq(dbl, x.reasons[1].a, 0.656316, 5e-7));
	cr_assert(eq(int, x.reasons[2].hall, 0));
	cr_assert(epsilon_eq(dbl, x.reasons[2].a, 1.338600, 5e-7));
	cr_assert(epsilon_eq(dbl, x.reasons[2].b, 0.32, 5e-3)); /* printed as 0.32 */
	cr_assert(eq(int, x.fo[0].checked, 0)); /* the feeder is never consulted */
	cr_assert(eq(int, x.fo[0].outcome, COOLING_O_ALONE_STEP));
}

Test(cooling, admit_tolerance_and_ceiling)
{
	struct fixture x;

	memset(&x, 0, sizeof x);
	hall(&x, 0, "h", 0, 0, 0, 7, 1, 0.1064);
	start(&x, 0, 0, 7);
	admit(&x, 0, 1, 40, 1.5, 0);
	cr_assert(x.ho[0].step_mw > x.ho[0].headroom_mw); /* by about 1.4e-17 MW */
	cr_assert(eq(int, x.a.verdict, COOLING_ADMIT));
	/* A density over the rung's ceiling: DENY, steps still computed. */
	hall(&x, 0, "h", 0, 0, 0, 12, 0, 8);
	admit(&x, 0, 1, 40, 1.5, 0);
	cr_assert(eq(int, x.a.verdict, COOLING_DENY));
	cr_assert(eq(int, x.reasons[0].rule, COOLING_R_RUNG_CEILING));
	cr_assert(isnan(x.ho[0].ride_through_s));
	cr_assert(eq(dbl, x.a.total_step_mw, ((7 * 12.0) / 1000.0) * 1.9));
	/* A single hall can never stagger. */
	hall(&x, 0, "h", 3, 1, 0, 100, 0, 8);
	start(&x, 0, 0, 10);
	admit(&x, 0, 1, 40, 1.0, 0);
	cr_assert(eq(int, x.a.verdict, COOLING_DENY));
	cr_assert(eq(int, x.reasons[0].rule, COOLING_R_FEEDER_STEP));
	/* Ride-through equality admits. */
	admit(&x, 0, 1, 40, 1.5, 15.0);
	cr_assert(eq(int, x.a.verdict, COOLING_ADMIT));
	admit(&x, 0, 1, 40, 1.5, 15.000000001);
	cr_assert(eq(int, x.a.verdict, COOLING_DENY));
}

Test(cooling, admit_rejects_bad_indices)
{
	struct fixture x;
	struct cooling_model m = shipped();
	const char *why = NULL;

	memset(&x, 0, sizeof x);
	hall(&x, 0, "h", 3, 1, 0, 100, 0, 8);
	start(&x, 0, 5, 1);
	x.p.halls = x.h;
	x.p.nhalls = 1;
	x.p.feeders = x.f;
	x.p.nfeeders = 1;
	x.p.start = x.s;
	cr_assert(eq(int, cooling_admit(&m, &x.p, &x.a, &why), -1));
	cr_assert(why != NULL);
}

Test(cooling, mutations_change_constants)
{
	struct cooling_model m;

	cooling_model_init(&m, 1u << COOLING_SW_CEILINGS_250KW);
	cr_assert(eq(int, cooling_thinnest(&m), 2));
	cooling_model_init(&m, 1u << COOLING_SW_DTC_BUFFER_40000KJ);
	cr_assert(eq(int, cooling_thinnest(&m), 2));
	cooling_model_init(&m, 1u << COOLING_SW_PUE_FLAT);
	cr_assert(eq(dbl, cooling_pue(&m, 4, 1, 0), 1.30));
	cooling_model_init(&m, 1u << COOLING_SW_LEGACY_AIR_ECONOMIZER);
	cr_assert(cooling_pue(&m, 0, 1, 0) < 1.75);
	cooling_model_init(&m, 1u << COOLING_SW_CONTAINED_AIR_FLOOR_UP);
	cr_assert(epsilon_eq(dbl, cooling_pue(&m, 1, 1, 0), 1.2775, 1e-12));
}

/* Many halls in scrambled id order: the merge sorts must give ascending ids
 * (steps, total) and, with equal steps, the stagger order by id. */
Test(cooling, admit_sorts_many_halls)
{
	enum { N = 97 };
	static struct cooling_hall h[N];
	static struct cooling_start s[N];
	static char ids[N][8];
	static struct cooling_reason reasons[3 * N + 1];
	static int by_id[N], stagger[N], scratch[N + 2], hg[N], ho[2], sg[N], so[2];
	static struct cooling_hall_out hout[N];
	static struct cooling_feeder_out fout[1];
	static double sums[2 * N];
	struct cooling_feeder f = { "F", 1, 1e6, 1.0, 0.0, 0 };
	struct cooling_plan p = { h, N, &f, 1, s, N, 0.0 };
	struct cooling_admission a = { 0 };
	struct cooling_model m = shipped();
	const char *why = NULL;
	int i;

	for (i = 0; i < N; i++) {
		int k = (i * 37) % N; /* a permutation of 0..N-1 */

		snprintf(ids[i], sizeof ids[i], "h%03d", k);
		h[i] = (struct cooling_hall){ ids[i], strlen(ids[i]), 0, 3, 1, 0, 100, 0, 8 };
		s[i] = (struct cooling_start){ i, 1 };
	}
	a.reasons = reasons;
	a.by_id = by_id;
	a.stagger = stagger;
	a.halls = hout;
	a.feeders = fout;
	a.scratch = scratch;
	a.sums = sums;
	a.hall_group = hg;
	a.hall_off = ho;
	a.start_group = sg;
	a.start_off = so;
	cr_assert(eq(int, cooling_admit(&m, &p, &a, &why), 0));
	cr_assert(eq(int, a.verdict, COOLING_STAGGER));
	cr_assert(eq(sz, a.nstagger, N));
	for (i = 1; i < N; i++) {
		const struct cooling_hall *x = &h[s[by_id[i - 1]].hall], *y = &h[s[by_id[i]].hall];

		cr_assert(strcmp(x->id, y->id) < 0);
		cr_assert(strcmp(h[stagger[i - 1]].id, h[stagger[i]].id) < 0);
	}
	cr_assert(eq(sz, fout[0].start_halls, N));
	cr_assert(eq(int, cooling_id_cmp("a", 1, "ab", 2) < 0, 1));
	cr_assert(eq(int, cooling_id_cmp("\xc3\xa9", 2, "z", 1) > 0, 1)); /* bytes: é after z */
}

/* The numeric descriptors that `infragate models` lists and the generic
 * binding calls: domains and results. */
Test(cooling, descriptors)
{
	const struct model *it = model_find("cooling.it_mw");
	const struct model *h100 = model_find("cooling.h100");
	const struct model *freed = model_find("cooling.freed_mw");
	double in[3] = { 10, 1.56, 1.2 }, out[1];
	struct diag err;

	cr_assert(it && h100 && freed);
	cr_assert(model_find("cooling.admit") && model_find("cooling.admit")->table_input);
	diag_init(&err);
	cr_assert(eq(int, model_check_arg(&it->args[0], 0.0, &err), -1)); /* feed > 0 */
	cr_assert(eq(int, model_check_arg(&it->args[1], 0.99, &err), -1)); /* PUE >= 1 */
	cr_assert(eq(int, model_check_arg(&it->args[1], 1.0, &err), 0));
	cr_assert(eq(int, freed->eval(in, out, 0, &err), 0));
	cr_assert(eq(dbl, out[0], 1.9230769230769242));
	in[0] = out[0];
	cr_assert(eq(int, h100->eval(in, out, 0, &err), 0));
	cr_assert(eq(dbl, out[0], 1504.0));
	cr_assert(eq(sz, it->nswitches, (size_t)COOLING_SW_COUNT));
	cr_assert_str_eq(cooling_switch_names[COOLING_SW_NEW_BUILD_CONTAINED_AIR],
			 "new-build-contained-air");
}
