/*
 * test_model_resiliency.c: the resiliency Monte Carlo (spec/resiliency.md
 * 5) without Lua: the interval algebra's edge cases, the generator as the
 * simulation keys it (the vectors of 5.14), Python's round() on ties, the
 * year vectors and draw counts of 5.14, the default ladder's figures and
 * totals, the costs, the power-chain switch of the registry's mutation
 * table, and thread independence of batches. Every comparison of a figure
 * is exact equality on purpose: these doubles must match the published
 * Python tool bit for bit.
 */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/models/mt19937.h"
#include "core/models/resiliency.h"
#include "core/util/num.h"

/* ---- helpers ---------------------------------------------------------------- */

static void ivs_set(struct rs_ivs *l, const double *v, size_t n)
{
	size_t i;

	l->n = 0;
	for (i = 0; i < n; i++)
		rs_ivs_push(l, v[2 * i], v[2 * i + 1]);
}

static void ivs_expect(const struct rs_ivs *l, const double *v, size_t n)
{
	size_t i;

	cr_assert_eq(l->n, n, "%zu intervals, want %zu", l->n, n);
	for (i = 0; i < n; i++) {
		cr_assert(eq(dbl, l->v[i].s, v[2 * i]), "interval %zu start", i);
		cr_assert(eq(dbl, l->v[i].e, v[2 * i + 1]), "interval %zu end", i);
	}
}

static void rung_policy(int r, struct rs_policy *p)
{
	struct diag err;

	diag_init(&err);
	cr_assert_eq(rs_policy_from_rung(&rs_rungs[r], rs_builtin_catalog, RS_NBUILTINS, p,
					 &err), 0, "%s", err.msg);
}

static void seed_of(struct rs_seed *s, const char *text)
{
	struct diag err;

	diag_init(&err);
	cr_assert_eq(rs_seed_parse(s, text, &err), 0, "%s", err.msg);
}

/* ---- interval algebra (5.8) ------------------------------------------------------ */

struct merge_case {
	double in[8];
	size_t nin;
	double out[8];
	size_t nout;
};

ParameterizedTestParameters(resiliency, merge)
{
	static struct merge_case rows[] = {
		/* An event that starts after the year vanishes. */
		{ { 9000, 9010 }, 1, { 0 }, 0 },
		/* Clipped on both sides before anything is dropped. */
		{ { -10, 9000 }, 1, { 0, 8760 }, 1 },
		/* Touching intervals coalesce. */
		{ { 5, 10, 1, 5 }, 2, { 1, 10 }, 1 },
		/* Overlap keeps the larger end; a nested one adds nothing. */
		{ { 1, 4, 2, 3, 6, 7 }, 3, { 1, 4, 6, 7 }, 2 },
		/* Empty after clipping: start == end is dropped. */
		{ { 8760, 8800, 3, 3 }, 2, { 0 }, 0 },
		/* Equal starts sort by end. */
		{ { 2, 9, 2, 4, 12, 13 }, 3, { 2, 9, 12, 13 }, 2 },
	};

	return cr_make_param_array(struct merge_case, rows, sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct merge_case *c, resiliency, merge)
{
	struct rs_ivs l;

	rs_ivs_init(&l);
	ivs_set(&l, c->in, c->nin);
	rs_merge(&l);
	ivs_expect(&l, c->out, c->nout);
	rs_ivs_release(&l);
}

Test(resiliency, merge_many_sorts_like_a_comparison_sort)
{
	struct rs_ivs l;
	size_t i;

	/* Enough intervals for the bucketed sort, starts in a fixed pseudo-random
	 * order: the result must be sorted and disjoint. */
	rs_ivs_init(&l);
	for (i = 0; i < 500; i++) {
		double s = (double)((i * 7919) % 8761);

		rs_ivs_push(&l, s, s + 0.25);
	}
	rs_merge(&l);
	cr_assert_eq(l.n, 500);
	for (i = 1; i < l.n; i++)
		cr_assert(l.v[i].s > l.v[i - 1].e);
	rs_ivs_release(&l);
}

static int iv_cmp(const void *a, const void *b)
{
	const struct rs_iv *x = a, *y = b;

	if (x->s != y->s)
		return x->s < y->s ? -1 : 1;
	return (x->e > y->e) - (x->e < y->e);
}

/* rs_merge against qsort and the same sweep, for the sizes of each sort path
 * (insertion, one counting pass up to 256, radix, buckets), with starts
 * crowded into one radix key
 * (8760 h / 65536 is 0.134 h) and starts shared exactly, so that the final
 * pass must order what the keys leave tied. */
Test(resiliency, merge_equals_a_reference_sort_at_every_size)
{
	static const size_t sizes[] = { 20, 25, 30, 256, 257, 300, 4096, 4097, 9000 };
	static struct rs_iv want[9000];
	uint64_t x = 88172645463325252ull;
	size_t k, i, n, o;

	for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
		struct rs_ivs l;

		rs_ivs_init(&l);
		n = sizes[k];
		for (i = 0; i < n; i++) {
			double u, s, len;

			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			u = (double)(x >> 11) / 9007199254740992.0;
			if (i % 5 == 0)
				s = 4000.0 + u * 0.1;     /* one key, many starts */
			else if (i % 7 == 0)
				s = 1234.5;               /* equal starts */
			else
				s = u * 8760.0;
			len = (double)(x % 1000 + 1) / 10000.0; /* never empty */
			want[i].s = s;
			want[i].e = s + len;
			rs_ivs_push(&l, s, s + len);
		}
		qsort(want, n, sizeof *want, iv_cmp);
		for (i = 1, o = 0; i < n; i++) {
			if (want[i].s <= want[o].e) {
				if (want[i].e > want[o].e)
					want[o].e = want[i].e;
			} else {
				want[++o] = want[i];
			}
		}
		rs_merge(&l);
		cr_assert(eq(sz, l.n, o + 1), "n = %zu", n);
		for (i = 0; i < l.n; i++) {
			cr_assert(eq(dbl, l.v[i].s, want[i].s), "n = %zu, item %zu", n, i);
			cr_assert(eq(dbl, l.v[i].e, want[i].e), "n = %zu, item %zu", n, i);
		}
		rs_ivs_release(&l);
	}
}

Test(resiliency, intersect_ties_advance_the_second_list)
{
	static const double a[] = { 0, 10, 20, 30 }, b[] = { 5, 10, 10, 25 };
	static const double want[] = { 5, 10, 20, 25 };
	struct rs_ivs la, lb, out;

	rs_ivs_init(&la);
	rs_ivs_init(&lb);
	rs_ivs_init(&out);
	ivs_set(&la, a, 2);
	ivs_set(&lb, b, 2);
	rs_intersect(&la, &lb, &out);
	/* (0,10) and (5,10) end together: j advances; (10,25) touches (0,10)
	 * at a point only, which is not emitted. */
	ivs_expect(&out, want, 2);
	rs_ivs_release(&la);
	rs_ivs_release(&lb);
	rs_ivs_release(&out);
}

Test(resiliency, subtract_touching_at_cur)
{
	static const double a[] = { 0, 10 }, b[] = { 0, 2, 2, 4, 6, 10 };
	static const double want[] = { 4, 6 };
	static const double a2[] = { 0, 10, 20, 30 }, b2[] = { 5, 25 };
	static const double want2[] = { 0, 5, 25, 30 };
	struct rs_ivs la, lb, out;

	rs_ivs_init(&la);
	rs_ivs_init(&lb);
	rs_ivs_init(&out);
	ivs_set(&la, a, 1);
	/* B as subtract receives it: merged lists never touch, but a B
	 * interval starting exactly at cur emits nothing before it. */
	ivs_set(&lb, b, 3);
	rs_subtract(&la, &lb, &out);
	ivs_expect(&out, want, 1);
	ivs_set(&la, a2, 2);
	ivs_set(&lb, b2, 1);
	rs_subtract(&la, &lb, &out);
	ivs_expect(&out, want2, 2);
	rs_ivs_release(&la);
	rs_ivs_release(&lb);
	rs_ivs_release(&out);
}

Test(resiliency, total_adds_left_to_right)
{
	static const double v[] = { 0.1, 0.3, 1, 1.2 };
	struct rs_ivs l;

	rs_ivs_init(&l);
	ivs_set(&l, v, 2);
	/* 0.0 + (0.3 - 0.1) + (1.2 - 1.0), in that order. */
	cr_assert(eq(dbl, rs_total(&l), (0.0 + (0.3 - 0.1)) + (1.2 - 1.0)));
	rs_ivs_release(&l);
}

/* ---- the generator as simulations key it (5.9, 5.14) --------------------------- */

struct stream_case {
	char seed[32];
	uint32_t words[3];
	double random[3];
};

ParameterizedTestParameters(resiliency, streams)
{
	static struct stream_case rows[] = {
		{ "7", { 1390851128u, 4071050724u, 647892279u },
		  { 0.32383276483316237, 0.15084917392450192, 0.6509344730398537 } },
		{ "0", { 3626764237u, 1654615998u, 3255389356u },
		  { 0.8444218515250481, 0.7579544029403025, 0.420571580830845 } },
		{ "11", { 1942955373u, 3718334796u, 2404204071u },
		  { 0.4523795535098186, 0.559772386080496, 0.9242105840237294 } },
		{ "-11", { 1942955373u, 3718334796u, 2404204071u },
		  { 0.4523795535098186, 0.559772386080496, 0.9242105840237294 } },
		{ "18446744073709551617", { 437050517u, 3681013637u, 3113036029u },
		  { 0.10175875467846374, 0.7248101788369984, 0.2507269822084962 } },
	};

	return cr_make_param_array(struct stream_case, rows, sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct stream_case *c, resiliency, streams)
{
	struct rs_seed s;
	struct mt19937 m;
	int i;

	seed_of(&s, c->seed);
	cr_assert_eq(mt19937_seed_decimal(&m, s.text), 0);
	for (i = 0; i < 3; i++)
		cr_assert_eq(mt19937_next32(&m), c->words[i], "word %d", i);
	cr_assert_eq(mt19937_seed_decimal(&m, s.text), 0);
	for (i = 0; i < 3; i++)
		cr_assert(eq(dbl, mt19937_random(&m), c->random[i]), "random %d", i);
}

Test(resiliency, seeds_of_every_size)
{
	char big[RS_MAX_SEED_DIGITS + 3];
	struct rs_seed s;
	struct diag err;

	diag_init(&err);
	memset(big, '9', sizeof big);
	big[RS_MAX_SEED_DIGITS] = '\0';
	cr_assert_eq(rs_seed_parse(&s, big, &err), 0);
	big[RS_MAX_SEED_DIGITS] = '9';
	big[RS_MAX_SEED_DIGITS + 1] = '\0';
	cr_assert_eq(rs_seed_parse(&s, big, &err), -1);
	cr_assert_eq(rs_seed_parse(&s, "1e3", &err), -1);
	cr_assert_eq(rs_seed_parse(&s, "", &err), -1);
	cr_assert_eq(rs_seed_parse(&s, "-", &err), -1);
	rs_seed_int(&s, INT64_MIN);
	cr_assert_str_eq(s.text, "-9223372036854775808");
}

/* ---- Python's round() (5.12) ------------------------------------------------------ */

struct round_case {
	double x;
	int n;
	double want;
};

ParameterizedTestParameters(resiliency, python_round)
{
	static struct round_case rows[] = {
		{ 0.125, 2, 0.12 },   /* an exact tie goes to even */
		{ 0.375, 2, 0.38 },
		{ 2.675, 2, 2.67 },   /* the double lies below the tie */
		{ 19.15, 1, 19.1 },   /* the double nearest 19.15 lies below it */
		{ 2.5, 0, 2.0 },
		{ 3.5, 0, 4.0 },
		{ 1659.5, 0, 1660.0 },
		{ 0.999985, 5, 0.99999 }, /* the double lies above the tie */
	};

	return cr_make_param_array(struct round_case, rows, sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct round_case *c, resiliency, python_round)
{
	cr_assert(eq(dbl, num_round(c->x, c->n), c->want));
}

/* ---- year vectors and draws (5.14) ------------------------------------------------- */

Test(resiliency, year_two_of_p0)
{
	static const double storms[] = { 408.064282211545, 416.27084603631727,
					 8551.99472499398, 8598.920309373709 };
	static const double grid[] = { 408.064282211545, 413.9396671687234 };
	static const double dark[] = { 412.064282211545, 413.9396671687234 };
	static const unsigned long long draws[] = { 17, 43, 95 };
	struct rs_policy p;
	struct rs_seed s;
	struct rs_sim sim;
	struct diag err;
	int y;

	rung_policy(0, &p);
	seed_of(&s, "7");
	diag_init(&err);
	cr_assert_eq(rs_sim_init(&sim, &p, &rs_default_storm, &s, 0, &err), 0);
	for (y = 0; y < 3; y++) {
		cr_assert_eq(rs_sim_year(&sim, &err), 0);
		cr_assert_eq(sim.draws, draws[y], "draws after year %d", y + 1);
		if (y == 1) {
			ivs_expect(&sim.storms, storms, 2);
			ivs_expect(&sim.grid, grid, 1);
			ivs_expect(&sim.dark, dark, 1);
			cr_assert_eq(sim.timing_down.n, 0);
		}
	}
	rs_sim_release(&sim);
}

Test(resiliency, year_one_of_p1_has_no_srlg_draw)
{
	static const double cuts[] = { 3474.9209579408343, 3504.844059892393 };
	static const unsigned long long draws[] = { 31, 92, 139 };
	struct rs_policy p;
	struct rs_seed s;
	struct rs_sim sim;
	struct diag err;
	int y;

	rung_policy(1, &p);
	seed_of(&s, "7");
	diag_init(&err);
	cr_assert_eq(rs_sim_init(&sim, &p, &rs_default_storm, &s, 0, &err), 0);
	for (y = 0; y < 3; y++) {
		cr_assert_eq(rs_sim_year(&sim, &err), 0);
		cr_assert_eq(sim.draws, draws[y], "draws after year %d", y + 1);
		if (y == 0) {
			cr_assert_eq(sim.inst[p.fiber].cuts.n, 0);
			ivs_expect(&sim.inst[p.fiber_b].cuts, cuts, 1);
		}
	}
	rs_sim_release(&sim);
}

Test(resiliency, p4_draws_per_year)
{
	static const unsigned long long draws[] = { 772, 1576, 2274 };
	struct rs_policy p;
	struct rs_seed s;
	struct rs_sim sim;
	struct diag err;
	int y;

	rung_policy(4, &p);
	seed_of(&s, "7");
	diag_init(&err);
	cr_assert_eq(rs_sim_init(&sim, &p, &rs_default_storm, &s, 0, &err), 0);
	for (y = 0; y < 3; y++) {
		cr_assert_eq(rs_sim_year(&sim, &err), 0);
		cr_assert_eq(sim.draws, draws[y], "draws after year %d", y + 1);
	}
	rs_sim_release(&sim);
}

/* ---- the default ladder (5.14) ------------------------------------------------------ */

struct rung_case {
	int rung;
	unsigned long long draws;
	double usd;
	double avail[3], nines[3], downtime[3], ettr[3], episodes[3], retention[3];
};

ParameterizedTestParameters(resiliency, default_ladder)
{
	static struct rung_case rows[] = {
		{ 0, 65887, 1660.0,
		  { 0.9978133692315458, 0.9980143219799246, 0.9980143219799246 },
		  { 2.66, 2.7, 2.7 }, { 19.15, 17.39, 17.39 }, { 2.81, 2.64, 2.64 },
		  { 6.82, 6.59, 6.59 }, { 0.99781, 0.99801, 0.99801 } },
		{ 1, 106027, 3160.0,
		  { 0.9987684561887732, 0.9989654012486959, 0.9989654012486959 },
		  { 2.91, 2.99, 2.99 }, { 10.79, 9.06, 9.06 }, { 14.49, 17.05, 17.05 },
		  { 0.74, 0.53, 0.53 }, { 0.99877, 0.99897, 0.99808 } },
		{ 2, 314590, 2460.0,
		  { 0.9988076057154224, 0.9990137919193248, 0.9990137919193248 },
		  { 2.92, 3.01, 3.01 }, { 10.45, 8.64, 8.64 }, { 13.44, 17.33, 17.33 },
		  { 0.78, 0.5, 0.5 }, { 0.99881, 0.99901, 0.99795 } },
		{ 3, 1360940, 2060.0,
		  { 0.9978580968398006, 0.9989730773644534, 0.9989730773644534 },
		  { 2.67, 2.99, 2.99 }, { 18.76, 9.0, 9.0 }, { 2.76, 17.97, 17.97 },
		  { 6.8, 0.5, 0.5 }, { 0.99786, 0.99897, 0.99805 } },
		{ 4, 1614507, 3780.0,
		  { 0.9999168668774184, 0.9999264999484124, 0.9999264999484124 },
		  { 4.08, 4.13, 4.13 }, { 0.73, 0.64, 0.64 }, { 8.67, 26.28, 26.28 },
		  { 0.08, 0.02, 0.02 }, { 0.99992, 0.99993, 0.99884 } },
	};

	return cr_make_param_array(struct rung_case, rows, sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct rung_case *c, resiliency, default_ladder)
{
	struct rs_policy p;
	struct rs_result r;
	struct rs_seed s;
	struct diag err;
	int k;

	rung_policy(c->rung, &p);
	seed_of(&s, "7");
	diag_init(&err);
	cr_assert_eq(rs_simulate(&p, &rs_default_storm, 2000, &s, 0, &r, &err), 0);
	cr_assert_eq(r.draws, c->draws);
	cr_assert(eq(dbl, r.monthly_usd, c->usd));
	for (k = 0; k < RS_NCLASSES; k++) {
		const struct rs_figures *f = &r.cls[k];

		cr_assert(eq(dbl, f->availability, c->avail[k]), "R%d availability", k);
		cr_assert(eq(dbl, f->nines, c->nines[k]), "R%d nines", k);
		cr_assert(eq(dbl, f->downtime_h_yr, c->downtime[k]), "R%d downtime", k);
		cr_assert(eq(dbl, f->ettr_h, c->ettr[k]), "R%d ettr", k);
		cr_assert(eq(dbl, f->episodes_per_year, c->episodes[k]), "R%d episodes", k);
		cr_assert(eq(dbl, f->retention, c->retention[k]), "R%d retention", k);
	}
}

Test(resiliency, default_ladder_totals)
{
	struct rs_policy p0, p4;
	struct rs_result r0, r4;
	struct rs_seed s;
	struct diag err;

	rung_policy(0, &p0);
	rung_policy(4, &p4);
	seed_of(&s, "7");
	diag_init(&err);
	cr_assert_eq(rs_simulate(&p0, &rs_default_storm, 2000, &s, 0, &r0, &err), 0);
	cr_assert_eq(rs_simulate(&p4, &rs_default_storm, 2000, &s, 0, &r4, &err), 0);
	cr_assert(eq(dbl, r0.cls[RS_R0].totals.down_h, 38309.77106331674));
	cr_assert_eq(r0.cls[RS_R0].totals.episodes, 13636);
	cr_assert(eq(dbl, r0.cls[RS_R1].totals.down_h, 34789.07891172252));
	cr_assert_eq(r0.cls[RS_R1].totals.episodes, 13183);
	cr_assert(eq(dbl, r4.cls[RS_R0].totals.down_h, 1456.4923076298585));
	cr_assert_eq(r4.cls[RS_R0].totals.episodes, 168);
	cr_assert(eq(dbl, r4.cls[RS_R2].totals.down_h, 1287.7209038139467));
	cr_assert_eq(r4.cls[RS_R2].totals.episodes, 49);
	cr_assert(eq(dbl, r4.cls[RS_R2].totals.degraded_h, 0.0));
	cr_assert(eq(dbl, r4.cls[RS_R2].totals.capacity_loss_h, 19087.13920415591));
	/* gain.r2_nines: the two rounded figures subtracted, not re-rounded. */
	cr_assert(eq(dbl, r4.cls[RS_R2].nines - r0.cls[RS_R2].nines, 1.4299999999999997));
}

/* ---- costs, zeros, switches, batches ------------------------------------------------ */

Test(resiliency, costs_in_order)
{
	static const double want[RS_NRUNGS] = { 1660.0, 3160.0, 2460.0, 2060.0, 3780.0 };
	struct rs_policy p;
	int r;

	for (r = 0; r < RS_NRUNGS; r++) {
		rung_policy(r, &p);
		cr_assert(eq(dbl, rs_monthly_usd(&p), want[r]), "rung %d", r);
	}
}

Test(resiliency, never_up_prints_positive_zero)
{
	struct rs_totals t = { 8760.0 * 100, 100, 0.0, 0.0 };
	struct rs_figures f;

	rs_figures(&t, 100, RS_R0, &f);
	cr_assert(eq(dbl, f.availability, 0.0));
	cr_assert(eq(dbl, f.nines, 0.0));
	cr_assert_eq(signbit(f.nines), 0, "-log10(1) is -0.0; the model hands out +0.0");
	cr_assert_eq(signbit(f.nines_unrounded), 0);
	cr_assert(eq(dbl, f.ettr_h, 8760.0));
	cr_assert(eq(dbl, f.retention, 0.0));
}

Test(resiliency, never_down_is_the_sentinel)
{
	struct rs_totals t = { 0.0, 0, 0.0, 0.0 };
	struct rs_figures f;

	rs_figures(&t, 50, RS_R1, &f);
	cr_assert(eq(dbl, f.nines, 9.0));
	cr_assert(eq(dbl, f.ettr_h, 0.0));
	cr_assert(eq(dbl, f.availability, 1.0));
}

Test(resiliency, power_chain_switch_removes_dark_and_its_draws)
{
	struct rs_policy p;
	struct rs_result on, off;
	struct rs_seed s;
	struct diag err;

	rung_policy(4, &p);
	seed_of(&s, "11");
	diag_init(&err);
	cr_assert_eq(rs_simulate(&p, &rs_default_storm, 200, &s, 0, &on, &err), 0);
	cr_assert_eq(rs_simulate(&p, &rs_default_storm, 200, &s, RS_VARIANT_NO_POWER_CHAIN,
				 &off, &err), 0);
	/* No generator start draws: the stream is shorter. */
	cr_assert_lt(off.draws, on.draws);
	cr_assert_lt(off.cls[RS_R2].totals.down_h, on.cls[RS_R2].totals.down_h);
}

Test(resiliency, horizon_limits)
{
	struct rs_policy p;
	struct rs_result r;
	struct rs_seed s;
	struct diag err;

	rung_policy(0, &p);
	seed_of(&s, "7");
	diag_init(&err);
	cr_assert_eq(rs_simulate(&p, &rs_default_storm, 0, &s, 0, &r, &err), -1);
	cr_assert_eq(rs_simulate(&p, &rs_default_storm, RS_MAX_YEARS + 1, &s, 0, &r, &err), -1);
}

Test(resiliency, batch_equals_one_by_one)
{
	struct rs_policy p[RS_NRUNGS];
	struct rs_job jobs[RS_NRUNGS + 1];
	struct rs_power power = rs_default_power;
	struct rs_result alone;
	struct rs_seed s;
	struct diag err;
	double gh;
	int r, k;

	seed_of(&s, "23");
	diag_init(&err);
	memset(jobs, 0, sizeof jobs);
	for (r = 0; r < RS_NRUNGS; r++) {
		rung_policy(r, &p[r]);
		jobs[r].kind = RS_JOB_SIMULATE;
		jobs[r].policy = &p[r];
		jobs[r].storm = &rs_default_storm;
		jobs[r].years = 300;
		jobs[r].seed = &s;
	}
	jobs[RS_NRUNGS].kind = RS_JOB_GRID_HOURS;
	jobs[RS_NRUNGS].storm = &rs_default_storm;
	jobs[RS_NRUNGS].power = &power;
	jobs[RS_NRUNGS].years = 400;
	jobs[RS_NRUNGS].seed = &s;
	cr_assert_eq(rs_batch(jobs, RS_NRUNGS + 1, &err), 0, "%s", err.msg);
	for (r = 0; r < RS_NRUNGS; r++) {
		cr_assert_eq(rs_simulate(&p[r], &rs_default_storm, 300, &s, 0, &alone, &err), 0);
		cr_assert_eq(jobs[r].result.draws, alone.draws);
		for (k = 0; k < RS_NCLASSES; k++)
			cr_assert_eq(memcmp(&jobs[r].result.cls[k], &alone.cls[k],
					    sizeof alone.cls[k]), 0, "rung %d class %d", r, k);
	}
	cr_assert_eq(rs_grid_hours(&rs_default_storm, &power, 400, &s, &gh, &err), 0);
	cr_assert(eq(dbl, jobs[RS_NRUNGS].grid_hours, gh));
}

Test(resiliency, registry_grid_hours)
{
	struct rs_storm quiet = rs_default_storm;
	struct rs_power power = rs_default_power;
	struct rs_seed s;
	struct diag err;
	double routine, full;

	quiet.rate_per_year = 0.0;
	rs_seed_int(&s, 101);
	diag_init(&err);
	cr_assert_eq(rs_grid_hours(&quiet, &power, 4000, &s, &routine, &err), 0);
	cr_assert_eq(rs_grid_hours(&rs_default_storm, &power, 4000, &s, &full, &err), 0);
	/* Points 1 and 9 of the registry (spec 7.2). */
	cr_assert(eq(dbl, routine, 1.9512700080920562));
	cr_assert(eq(dbl, full, 13.885516127116636));
}
