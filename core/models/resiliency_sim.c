/*
 * resiliency_sim.c: the interval algebra of spec/resiliency.md 5.8 and one
 * simulated year in the exact draw order of 5.10, then the per-class
 * accumulation of 5.11. The figures must match the published Python tool
 * bit for bit, so every expression is evaluated in the spec's order (two
 * roundings per multiply-add, plain left-to-right sums), every random()
 * call of the reference is made here too and in the same place, and the
 * Knuth Poisson loop is kept as it is (a faster sampler would change the
 * stream). The generator is the shared CPython-compatible MT19937.
 *
 * A simulation owns its scratch lists; they grow as needed and are reset,
 * not freed, between years. Nothing here keeps state between calls.
 */
#include "core/models/resiliency.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/models/mt19937.h"
#include "core/util/num.h"

/* The generator of one simulation. */
struct rs_rng {
	struct mt19937 mt;
};

/* The base whose power gives the Poisson threshold: CPython's math.e as
 * the reference wrote it, raised with libm pow (not exp). */
#define RS_E 2.718281828459045

/* ---- interval lists -------------------------------------------------------- */

void rs_ivs_init(struct rs_ivs *l)
{
	memset(l, 0, sizeof *l);
}

void rs_ivs_release(struct rs_ivs *l)
{
	free(l->v);
	rs_ivs_init(l);
}

static int ivs_reserve(struct rs_ivs *l, size_t n)
{
	struct rs_iv *v;
	size_t na;

	if (n <= l->alloc)
		return 0;
	na = l->alloc ? l->alloc : 16;
	while (na < n)
		na *= 2;
	/* Twice the room: the second half is the sort's scratch. */
	v = realloc(l->v, 2 * na * sizeof *v);
	if (!v) {
		l->failed = 1;
		return -1;
	}
	l->v = v;
	l->alloc = na;
	return 0;
}

/* The push of the hot loops, inlined. */
static inline void push(struct rs_ivs *l, double s, double e)
{
	if (l->n == l->alloc && ivs_reserve(l, l->n + 1) < 0)
		return;
	l->v[l->n].s = s;
	l->v[l->n].e = e;
	l->n++;
}

void rs_ivs_push(struct rs_ivs *l, double s, double e)
{
	push(l, s, e);
}

void rs_ivs_append(struct rs_ivs *l, const struct rs_ivs *src)
{
	if (!src->n || ivs_reserve(l, l->n + src->n) < 0)
		return;
	memcpy(l->v + l->n, src->v, src->n * sizeof *src->v);
	l->n += src->n;
}

static void ivs_copy(struct rs_ivs *dst, const struct rs_ivs *src)
{
	dst->n = 0;
	rs_ivs_append(dst, src);
}

static void ivs_swap(struct rs_ivs *a, struct rs_ivs *b)
{
	struct rs_ivs t = *a;

	*a = *b;
	*b = t;
}

/* ---- the algebra (5.8) ------------------------------------------------------- */

static int iv_less(const struct rs_iv *a, const struct rs_iv *b)
{
	return a->s < b->s || (a->s == b->s && a->e < b->e);
}

static void insertion_sort(struct rs_iv *v, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++) {
		struct rs_iv x = v[i];

		for (j = i; j > 0 && iv_less(&x, &v[j - 1]); j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* Quicksort with an explicit stack (the larger side is pushed, so the
 * stack stays below 64 entries) and insertion sort for short runs. Equal
 * intervals are identical, so stability does not matter. */
static void quick_sort(struct rs_iv *v, size_t n)
{
	size_t lo_stack[64], hi_stack[64], top = 0, lo = 0, hi = n;

	for (;;) {
		while (hi - lo > 16) {
			size_t mid = lo + (hi - lo) / 2, i = lo, j = hi - 1;
			struct rs_iv pivot, t;

			/* Median of three as the pivot. */
			if (iv_less(&v[mid], &v[lo])) {
				t = v[mid]; v[mid] = v[lo]; v[lo] = t;
			}
			if (iv_less(&v[j], &v[lo])) {
				t = v[j]; v[j] = v[lo]; v[lo] = t;
			}
			if (iv_less(&v[j], &v[mid])) {
				t = v[j]; v[j] = v[mid]; v[mid] = t;
			}
			pivot = v[mid];
			for (;;) {
				while (iv_less(&v[i], &pivot))
					i++;
				while (iv_less(&pivot, &v[j]))
					j--;
				if (i >= j)
					break;
				t = v[i]; v[i] = v[j]; v[j] = t;
				i++;
				j--;
			}
			/* [lo, j] and [j + 1, hi): push the larger, loop on the
			 * smaller. */
			if (j + 1 - lo < hi - (j + 1)) {
				lo_stack[top] = j + 1;
				hi_stack[top++] = hi;
				hi = j + 1;
			} else {
				lo_stack[top] = lo;
				hi_stack[top++] = j + 1;
				lo = j + 1;
			}
		}
		insertion_sort(v + lo, hi - lo);
		if (!top)
			return;
		top--;
		lo = lo_stack[top];
		hi = hi_stack[top];
	}
}

#define RS_BUCKETS 512

/* Sort clipped intervals (0 <= start < 8760) by (start, end). Starts are
 * uniform draws in random order, so a comparison sort loses most of its
 * time to mispredicted branches; instead the starts are scattered into
 * buckets by value (monotone in the start, so buckets come out in order)
 * and each bucket, usually of one or two intervals, is sorted by the full
 * comparison. 'scratch' holds n intervals. */
static void bucket_sort(struct rs_iv *v, size_t n, struct rs_iv *scratch)
{
	uint32_t first[RS_BUCKETS + 1];
	size_t nb = RS_BUCKETS, i;
	double scale;

	while (nb > 16 && nb >= n)
		nb /= 2;
	scale = (double)nb / RS_HOURS;
	memset(first, 0, sizeof first);
	for (i = 0; i < n; i++) {
		size_t b = (size_t)(v[i].s * scale);

		first[(b < nb ? b : nb - 1) + 1]++;
	}
	for (i = 1; i <= nb; i++)
		first[i] += first[i - 1];
	for (i = 0; i < n; i++) {
		size_t b = (size_t)(v[i].s * scale);

		scratch[first[b < nb ? b : nb - 1]++] = v[i];
	}
	/* first[b] now ends bucket b; bucket b starts where b - 1 ended. A
	 * crowded bucket (starts clustered in a storm) is sorted on its own;
	 * then one insertion pass over the whole array only moves intervals
	 * within their bucket. */
	for (i = 0; i < nb; i++) {
		size_t lo = i ? first[i - 1] : 0, len = first[i] - lo;

		if (len > 32)
			quick_sort(scratch + lo, len);
	}
	insertion_sort(scratch, n);
	memcpy(v, scratch, n * sizeof *v);
}

#define RS_RADIX_MAX 4096
#define RS_ONE_PASS_MAX 256

/* Lists of up to 256 intervals (most of those that need a real sort): one
 * counting pass on the top 8 bits of the start's key puts them in order up
 * to neighbours in the same 1/256 of the year, and the insertion pass with
 * the full comparison finishes. Two passes and two 257-entry tables cost
 * more than they save at this size. */
static void one_pass_sort(struct rs_iv *v, size_t n, struct rs_iv *scratch)
{
	static const double scale = 256.0 / RS_HOURS;
	uint32_t first[257];
	uint8_t key[RS_ONE_PASS_MAX];
	size_t i;

	memset(first, 0, sizeof first);
	for (i = 0; i < n; i++) {
		double k = v[i].s * scale;
		uint32_t q = k < 255.0 ? (uint32_t)k : 255u; /* starts are >= 0 */

		key[i] = (uint8_t)q;
		first[q + 1]++;
	}
	for (i = 1; i <= 256; i++)
		first[i] += first[i - 1];
	for (i = 0; i < n; i++)
		scratch[first[key[i]]++] = v[i];
	memcpy(v, scratch, n * sizeof *v);
	insertion_sort(v, n);
}

/* The usual list (a few hundred intervals: 200 LEO flaps a year) goes
 * through a two-pass LSD radix sort on a 16-bit key of the start, which
 * keeps the order of equal keys; the final insertion pass with the full
 * comparison then only meets neighbours that share a key, so it has
 * nearly nothing to move and its branches are predictable. The order is
 * the comparison's exactly, whatever the keys. */
static void sort_ivs(struct rs_iv *v, size_t n, struct rs_iv *scratch)
{
	static const double scale = 65536.0 / RS_HOURS;
	uint32_t lo[257], hi[257];
	uint16_t key[RS_RADIX_MAX], key2[RS_RADIX_MAX];
	size_t i;

	if (n <= 24) {
		insertion_sort(v, n);
		return;
	}
	if (n > RS_RADIX_MAX) {
		bucket_sort(v, n, scratch);
		return;
	}
	if (n <= RS_ONE_PASS_MAX) {
		one_pass_sort(v, n, scratch);
		return;
	}
	memset(lo, 0, sizeof lo);
	memset(hi, 0, sizeof hi);
	for (i = 0; i < n; i++) {
		double k = v[i].s * scale;
		uint32_t q = k < 65535.0 ? (uint32_t)k : 65535u; /* starts are >= 0 */

		key[i] = (uint16_t)q;
		lo[(q & 255u) + 1]++;
		hi[(q >> 8) + 1]++;
	}
	for (i = 1; i <= 256; i++) {
		lo[i] += lo[i - 1];
		hi[i] += hi[i - 1];
	}
	for (i = 0; i < n; i++) {
		uint32_t d = lo[key[i] & 255u]++;

		scratch[d] = v[i];
		key2[d] = key[i];
	}
	for (i = 0; i < n; i++)
		v[hi[key2[i] >> 8]++] = scratch[i];
	insertion_sort(v, n);
}

void rs_merge(struct rs_ivs *l)
{
	size_t i, o = 0;

	/* Clip before dropping: an event that starts after the year ends
	 * vanishes, one that started before it begins at 0. */
	for (i = 0; i < l->n; i++) {
		double s = l->v[i].s > 0.0 ? l->v[i].s : 0.0;
		double e = l->v[i].e < RS_HOURS ? l->v[i].e : RS_HOURS;

		if (e <= s)
			continue;
		l->v[o].s = s;
		l->v[o].e = e;
		o++;
	}
	l->n = o;
	if (o < 2)
		return;
	sort_ivs(l->v, o, l->v + l->alloc);
	o = 0;
	for (i = 1; i < l->n; i++) {
		if (l->v[i].s <= l->v[o].e) { /* touching counts */
			if (l->v[i].e > l->v[o].e)
				l->v[o].e = l->v[i].e;
		} else {
			l->v[++o] = l->v[i];
		}
	}
	l->n = o + 1;
}

void rs_intersect(const struct rs_ivs *a, const struct rs_ivs *b,
		  struct rs_ivs *out)
{
	size_t i = 0, j = 0;

	out->n = 0;
	while (i < a->n && j < b->n) {
		double lo = a->v[i].s > b->v[j].s ? a->v[i].s : b->v[j].s;
		double hi = a->v[i].e < b->v[j].e ? a->v[i].e : b->v[j].e;

		if (lo < hi)
			push(out, lo, hi);
		if (a->v[i].e < b->v[j].e)
			i++;
		else
			j++; /* ties advance j */
	}
}

void rs_subtract(const struct rs_ivs *a, const struct rs_ivs *b,
		 struct rs_ivs *out)
{
	size_t i, j0 = 0;
	double prev_lo = -HUGE_VAL;

	out->n = 0;
	for (i = 0; i < a->n; i++) {
		double lo = a->v[i].s, hi = a->v[i].e, cur = lo;
		size_t j;

		/* B is merged: intervals ending at or before 'lo' are skipped by
		 * this and every later interval of a sorted A. */
		if (lo < prev_lo)
			j0 = 0;
		prev_lo = lo;
		while (j0 < b->n && b->v[j0].e <= lo)
			j0++;
		for (j = j0; j < b->n; j++) {
			double blo = b->v[j].s, bhi = b->v[j].e;

			if (blo >= hi)
				break; /* so are all later ones */
			if (bhi <= cur)
				continue;
			if (blo > cur)
				push(out, cur, blo);
			if (bhi > cur)
				cur = bhi;
			if (cur >= hi)
				break;
		}
		if (cur < hi)
			push(out, cur, hi);
	}
}

/* dst = merge(a + b) for two merged lists, in one linear pass: merged
 * lists are clipped and sorted already, so picking the smaller (start,
 * end) of the two heads and sweeping as rs_merge does gives the very same
 * intervals. 'dst' is neither 'a' nor 'b'. */
static void ivs_union(struct rs_ivs *dst, const struct rs_ivs *a,
		      const struct rs_ivs *b)
{
	size_t i = 0, j = 0, o = 0;

	dst->n = 0;
	if (ivs_reserve(dst, a->n + b->n) < 0)
		return;
	while (i < a->n || j < b->n) {
		const struct rs_iv *x;

		if (j >= b->n || (i < a->n && !iv_less(&b->v[j], &a->v[i])))
			x = &a->v[i++];
		else
			x = &b->v[j++];
		if (o && x->s <= dst->v[o - 1].e) { /* touching counts */
			if (x->e > dst->v[o - 1].e)
				dst->v[o - 1].e = x->e;
		} else {
			dst->v[o++] = *x;
		}
	}
	dst->n = o;
}

/* total(subtract(a, b)) without building the list: the same intervals in
 * the same order, their lengths added left to right from 0.0. */
static double subtract_total(const struct rs_ivs *a, const struct rs_ivs *b)
{
	size_t i, j0 = 0;
	double prev_lo = -HUGE_VAL, t = 0.0;

	for (i = 0; i < a->n; i++) {
		double lo = a->v[i].s, hi = a->v[i].e, cur = lo;
		size_t j;

		if (lo < prev_lo)
			j0 = 0;
		prev_lo = lo;
		while (j0 < b->n && b->v[j0].e <= lo)
			j0++;
		for (j = j0; j < b->n; j++) {
			double blo = b->v[j].s, bhi = b->v[j].e;

			if (blo >= hi)
				break;
			if (bhi <= cur)
				continue;
			if (blo > cur)
				t += blo - cur;
			if (bhi > cur)
				cur = bhi;
			if (cur >= hi)
				break;
		}
		if (cur < hi)
			t += hi - cur;
	}
	return t;
}

double rs_total(const struct rs_ivs *l)
{
	double t = 0.0;
	size_t i;

	for (i = 0; i < l->n; i++)
		t += l->v[i].e - l->v[i].s;
	return t;
}

/* ---- variates (5.9) ------------------------------------------------------------- */

static double draw(struct rs_sim *sim)
{
	sim->draws++;
	return mt19937_random(&sim->rng->mt);
}

static double uniform(struct rs_sim *sim, double a, double b)
{
	return a + (b - a) * draw(sim);
}

/* random.expovariate(1.0 / mean): divide by the reciprocal. */
static double expo(struct rs_sim *sim, double mean)
{
	double lam = 1.0 / mean;

	return -log(1.0 - draw(sim)) / lam;
}

static double poisson_threshold(double lam)
{
	return lam > 0.0 ? pow(RS_E, -lam) : 0.0;
}

/* Knuth's counting loop; L = poisson_threshold(lam). No draw at lam <= 0. */
static long poisson(struct rs_sim *sim, double lam, double L)
{
	double p = 1.0;
	long k = 0;

	if (lam <= 0.0)
		return 0;
	for (;;) {
		p = p * draw(sim);
		if (p <= L)
			return k;
		k++;
	}
}

/* starts(lam): the count, then that many uniform starts (as intervals
 * whose end is filled in later), appended to 'l'. */
static void starts(struct rs_sim *sim, double lam, double L, struct rs_ivs *l)
{
	long n = poisson(sim, lam, L), i;

	for (i = 0; i < n; i++)
		push(l, uniform(sim, 0.0, RS_HOURS), 0.0);
}

static int in_storm(const struct rs_ivs *storms, double t)
{
	size_t i;

	for (i = 0; i < storms->n; i++)
		if (storms->v[i].s <= t && t < storms->v[i].e)
			return 1;
	return 0;
}

/* random.choices over the merged storms weighted by their lengths. */
static size_t pick_storm(struct rs_sim *sim, const struct rs_ivs *storms)
{
	size_t n = storms->n, lo = 0, hi = n - 1;
	double *cum = sim->cum, total, x;
	size_t i;

	cum[0] = storms->v[0].e - storms->v[0].s;
	for (i = 1; i < n; i++)
		cum[i] = cum[i - 1] + (storms->v[i].e - storms->v[i].s);
	total = cum[n - 1] + 0.0;
	x = draw(sim) * total;
	/* bisect_right over cum[0 .. n-2] */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (x < cum[mid])
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* ---- one year (5.10) --------------------------------------------------------------- */

/* Step 1: storms; returns S, their total length. */
static double year_storms(struct rs_sim *sim)
{
	const struct rs_storm *st = sim->storm;
	size_t i;

	sim->storms.n = 0;
	starts(sim, st->rate_per_year, sim->storm_L, &sim->storms);
	for (i = 0; i < sim->storms.n; i++)
		sim->storms.v[i].e = sim->storms.v[i].s + expo(sim, st->mean_duration_h);
	rs_merge(&sim->storms);
	return rs_total(&sim->storms);
}

/* Step 2: routine outages, then the grid losses storms cause. */
static void year_grid(struct rs_sim *sim)
{
	const struct rs_power *pw = &sim->policy->power;
	const struct rs_ivs *storms = &sim->storms;
	size_t i, n;

	sim->grid.n = 0;
	starts(sim, pw->routine_outages_per_year, sim->routine_L, &sim->grid);
	n = sim->grid.n;
	for (i = 0; i < n; i++)
		sim->grid.v[i].e = sim->grid.v[i].s + expo(sim, pw->routine_outage_h);
	for (i = 0; i < storms->n; i++) {
		double a = storms->v[i].s, b = storms->v[i].e;

		if (draw(sim) < sim->storm->grid_outage_p) {
			double f = uniform(sim, 0.5, 1.2);

			push(&sim->grid, a, a + (b - a) * f);
		}
	}
	rs_merge(&sim->grid);
}

/* Step 3: the site goes dark once battery (and generator) run out. */
static void year_dark(struct rs_sim *sim)
{
	const struct rs_power *pw = &sim->policy->power;
	size_t i;

	sim->dark.n = 0;
	if (sim->variant & RS_VARIANT_NO_POWER_CHAIN)
		return;
	for (i = 0; i < sim->grid.n; i++) {
		double a = sim->grid.v[i].s, b = sim->grid.v[i].e;
		double covered = pw->battery_h;

		/* One start draw for every grid outage, short or long. */
		if (pw->has_generator && draw(sim) >= pw->generator_start_fail_p)
			covered += pw->generator_fuel_h;
		if (b - a > covered)
			push(&sim->dark, a + covered, b);
	}
	rs_merge(&sim->dark);
}

/* Step 4: GNSS events longer than the holdover lose timing. */
static void year_timing(struct rs_sim *sim)
{
	const struct rs_timing *tm = &sim->policy->timing;
	size_t i, n;

	sim->events.n = 0;
	sim->timing_down.n = 0;
	starts(sim, tm->gnss_events_per_year, sim->gnss_L, &sim->events);
	n = sim->events.n;
	for (i = 0; i < n; i++) {
		double s = sim->events.v[i].s, d = expo(sim, tm->gnss_event_h);

		if (d > tm->holdover_h)
			push(&sim->timing_down, s + tm->holdover_h, s + d);
	}
	rs_merge(&sim->timing_down);
}

/* Step 5: one instance's failure modes. */
static void year_instance(struct rs_sim *sim, size_t k, double S)
{
	const struct rs_transport *tr = sim->policy->inst[k];
	const struct rs_storm *st = sim->storm;
	struct rs_inst_year *iy = &sim->inst[k];
	struct rs_ivs *ev = &sim->events;
	size_t m, i;

	iy->hard.n = 0;
	iy->cuts.n = 0;
	iy->nsoft = 0;
	for (m = 0; m < tr->nmodes; m++) {
		const struct rs_mode *md = &tr->modes[m];

		ev->n = 0;
		starts(sim, md->rate_per_year, sim->cache_L[k][m], ev);
		if (md->storm_rate_mult > 1.0 && S > 0.0) {
			double lam = ((md->rate_per_year * (md->storm_rate_mult - 1.0)) * S) /
				     RS_HOURS;
			long extra = poisson(sim, lam, poisson_threshold(lam)), x;

			for (x = 0; x < extra; x++) {
				const struct rs_iv *pick =
					&sim->storms.v[pick_storm(sim, &sim->storms)];

				push(ev, uniform(sim, pick->s, pick->e), 0.0);
			}
		}
		for (i = 0; i < ev->n; i++) {
			double t = ev->v[i].s, mttr = md->mttr_h;

			if (md->storm_mttr_mult > 1.0 && in_storm(&sim->storms, t))
				mttr = md->mttr_h * md->storm_mttr_mult;
			ev->v[i].e = t + expo(sim, mttr);
		}
		if (md->capacity_factor == 0.0) {
			rs_ivs_append(&iy->hard, ev);
			if (md->physical_cut)
				rs_ivs_append(&iy->cuts, ev);
		} else if (ev->n) {
			struct rs_soft *sf = &iy->soft[iy->nsoft++];

			sf->capacity_factor = md->capacity_factor;
			ivs_copy(&sf->ivs, ev);
			rs_merge(&sf->ivs);
		}
	}
	if (tr->grid_dependent) {
		double nb = st->neighbor_battery_h;

		for (i = 0; i < sim->grid.n; i++)
			if (sim->grid.v[i].e - sim->grid.v[i].s > nb)
				push(&iy->hard, sim->grid.v[i].s + nb,
					    sim->grid.v[i].e);
	}
	rs_merge(&iy->hard);
	rs_merge(&iy->cuts);
}

/* Step 6: the second fiber may share the first one's cuts (one way). */
static void year_srlg(struct rs_sim *sim)
{
	const struct rs_policy *p = sim->policy;
	const struct rs_ivs *cuts;
	struct rs_ivs *shared = &sim->tmp;
	size_t i;

	if (!p->dual_fiber || p->fiber < 0 || p->fiber_b < 0)
		return;
	cuts = &sim->inst[p->fiber].cuts;
	if (!cuts->n)
		return;
	shared->n = 0;
	/* One draw per cut, whatever the fraction (0 and 1 included). */
	for (i = 0; i < cuts->n; i++)
		if (draw(sim) < p->shared_cut_fraction)
			push(shared, cuts->v[i].s, cuts->v[i].e);
	if (shared->n) {
		struct rs_inst_year *b = &sim->inst[p->fiber_b];

		ivs_union(&sim->tmp2, &b->hard, shared);
		ivs_swap(&b->hard, &sim->tmp2);
		ivs_union(&sim->tmp2, &b->cuts, shared);
		ivs_swap(&b->cuts, &sim->tmp2);
	}
}

/* What instance k cannot carry class c on: its hard list, plus its soft
 * intervals for a class that counts a degraded link as down. */
static const struct rs_ivs *cannot_carry(struct rs_sim *sim, size_t k,
					 enum rs_class c)
{
	struct rs_inst_year *iy = &sim->inst[k];
	size_t j;

	if (!rs_classes[c].degraded_counts_as_down || !iy->nsoft)
		return &iy->hard;
	/* merge(hard + every soft interval), each part merged already. */
	ivs_copy(&sim->set, &iy->hard);
	for (j = 0; j < iy->nsoft; j++) {
		ivs_union(&sim->tmp2, &sim->set, &iy->soft[j].ivs);
		ivs_swap(&sim->set, &sim->tmp2);
	}
	return &sim->set;
}

/* Step 7: one class (5.11). */
static void year_class(struct rs_sim *sim, enum rs_class c)
{
	const struct rs_policy *p = sim->policy;
	const struct rs_class_info *ci = &rs_classes[c];
	struct rs_totals *t = &sim->totals[c];
	size_t k, neligible = 0, j;
	double cap = 0.0;

	sim->all_down.n = 0;
	for (k = 0; k < p->ninst; k++) {
		const struct rs_ivs *set;

		if (!(p->inst[k]->carries & RS_CARRIES(c)))
			continue;
		set = cannot_carry(sim, k, c);
		if (neligible++ == 0) {
			ivs_copy(&sim->all_down, set);
		} else {
			rs_intersect(&sim->all_down, set, &sim->tmp);
			ivs_swap(&sim->all_down, &sim->tmp);
		}
	}
	if (!neligible)
		push(&sim->all_down, 0.0, RS_HOURS);
	/* down = merge(dark + timing + all_down), or without all_down under
	 * local autonomy; every part is a merged list, so unions suffice. */
	if (ci->needs_timing)
		ivs_union(&sim->down, &sim->dark, &sim->timing_down);
	else
		ivs_copy(&sim->down, &sim->dark);
	sim->degraded.n = 0;
	if (ci->partition_survivable && p->local_autonomy) {
		rs_subtract(&sim->all_down, &sim->down, &sim->degraded);
	} else {
		ivs_union(&sim->tmp, &sim->down, &sim->all_down);
		ivs_swap(&sim->down, &sim->tmp);
	}
	t->down_h += rs_total(&sim->down);
	t->episodes += (long long)sim->down.n;
	t->degraded_h += rs_total(&sim->degraded);
	if (!ci->capacity_weighted || !neligible)
		return;
	for (k = 0; k < p->ninst; k++)
		if (p->inst[k]->carries & RS_CARRIES(c))
			cap += p->inst[k]->capacity_gbps;
	ivs_union(&sim->exclude, &sim->down, &sim->degraded);
	for (k = 0; k < p->ninst; k++) {
		struct rs_inst_year *iy = &sim->inst[k];
		double share;

		if (!(p->inst[k]->carries & RS_CARRIES(c)))
			continue;
		share = p->inst[k]->capacity_gbps / cap;
		t->capacity_loss_h += share * subtract_total(&iy->hard, &sim->exclude);
		for (j = 0; j < iy->nsoft; j++) {
			rs_subtract(&iy->soft[j].ivs, &iy->hard, &sim->tmp);
			t->capacity_loss_h += (share * (1.0 - iy->soft[j].capacity_factor)) *
					      subtract_total(&sim->tmp, &sim->exclude);
		}
	}
}

static int lists_failed(const struct rs_sim *sim)
{
	int f = sim->storms.failed | sim->grid.failed | sim->dark.failed |
		sim->timing_down.failed | sim->events.failed | sim->tmp.failed |
		sim->tmp2.failed | sim->set.failed | sim->all_down.failed |
		sim->down.failed | sim->degraded.failed | sim->exclude.failed;
	size_t k, j;

	for (k = 0; k < sim->policy->ninst; k++) {
		f |= sim->inst[k].hard.failed | sim->inst[k].cuts.failed;
		for (j = 0; j < RS_MAX_MODES; j++)
			f |= sim->inst[k].soft[j].ivs.failed;
	}
	return f;
}

static int grow_cum(struct rs_sim *sim, size_t n)
{
	double *v;

	if (n <= sim->ncum)
		return 0;
	v = realloc(sim->cum, n * 2 * sizeof *v);
	if (!v)
		return -1;
	sim->cum = v;
	sim->ncum = n * 2;
	return 0;
}

int rs_sim_year(struct rs_sim *sim, struct diag *err)
{
	const struct rs_policy *p = sim->policy;
	double S;
	size_t k;
	int c;

	S = year_storms(sim);
	if (grow_cum(sim, sim->storms.n + 1) < 0)
		goto nomem;
	year_grid(sim);
	year_dark(sim);
	year_timing(sim);
	for (k = 0; k < p->ninst; k++)
		year_instance(sim, k, S);
	year_srlg(sim);
	for (c = 0; c < RS_NCLASSES; c++)
		year_class(sim, (enum rs_class)c);
	if (lists_failed(sim))
		goto nomem;
	sim->years_done++;
	return 0;
nomem:
	diag_set(err, DIAG_E_NOMEM, 0, 0, "the simulation ran out of memory");
	return -1;
}

/* ---- simulations ------------------------------------------------------------------ */

int rs_sim_init(struct rs_sim *sim, const struct rs_policy *policy,
		const struct rs_storm *storm, const struct rs_seed *seed,
		unsigned variant, struct diag *err)
{
	size_t k, m;

	memset(sim, 0, sizeof *sim);
	sim->policy = policy;
	sim->storm = storm;
	sim->variant = variant;
	sim->rng = malloc(sizeof *sim->rng);
	if (!sim->rng) {
		diag_set(err, DIAG_E_NOMEM, 0, 0, "the simulation ran out of memory");
		return -1;
	}
	if (mt19937_seed_decimal(&sim->rng->mt, seed->text) < 0) {
		diag_set(err, DIAG_E_ERROR, 0, 0, "seed '%.40s' is not an integer",
			 seed->text);
		free(sim->rng);
		sim->rng = NULL;
		return -1;
	}
	sim->storm_L = poisson_threshold(storm->rate_per_year);
	sim->routine_L = poisson_threshold(policy->power.routine_outages_per_year);
	sim->gnss_L = poisson_threshold(policy->timing.gnss_events_per_year);
	for (k = 0; k < policy->ninst; k++)
		for (m = 0; m < policy->inst[k]->nmodes && m < RS_MAX_MODES; m++)
			sim->cache_L[k][m] =
				poisson_threshold(policy->inst[k]->modes[m].rate_per_year);
	return 0;
}

void rs_sim_release(struct rs_sim *sim)
{
	size_t k, j;

	rs_ivs_release(&sim->storms);
	rs_ivs_release(&sim->grid);
	rs_ivs_release(&sim->dark);
	rs_ivs_release(&sim->timing_down);
	rs_ivs_release(&sim->events);
	rs_ivs_release(&sim->tmp);
	rs_ivs_release(&sim->tmp2);
	rs_ivs_release(&sim->set);
	rs_ivs_release(&sim->all_down);
	rs_ivs_release(&sim->down);
	rs_ivs_release(&sim->degraded);
	rs_ivs_release(&sim->exclude);
	for (k = 0; k < RS_MAX_INSTANCES; k++) {
		rs_ivs_release(&sim->inst[k].hard);
		rs_ivs_release(&sim->inst[k].cuts);
		for (j = 0; j < RS_MAX_MODES; j++)
			rs_ivs_release(&sim->inst[k].soft[j].ivs);
	}
	free(sim->cum);
	free(sim->rng);
	sim->cum = NULL;
	sim->rng = NULL;
}

static int check_inputs(const struct rs_policy *p, long years, struct diag *err)
{
	size_t k;

	if (years < 1 || years > RS_MAX_YEARS) {
		diag_set(err, DIAG_E_ERROR, 0, 0,
			 "a horizon of %ld years is outside 1..%ld", years, RS_MAX_YEARS);
		return -1;
	}
	if (p->ninst > RS_MAX_INSTANCES) {
		diag_set(err, DIAG_E_ERROR, 0, 0, "a policy has at most %d instances",
			 RS_MAX_INSTANCES);
		return -1;
	}
	for (k = 0; k < p->ninst; k++)
		if (p->inst[k]->nmodes > RS_MAX_MODES) {
			diag_set(err, DIAG_E_ERROR, 0, 0,
				 "transport '%s' has more than %d failure modes",
				 p->inst[k]->name ? p->inst[k]->name : "?", RS_MAX_MODES);
			return -1;
		}
	return 0;
}

int rs_simulate(const struct rs_policy *policy, const struct rs_storm *storm,
		long years, const struct rs_seed *seed, unsigned variant,
		struct rs_result *out, struct diag *err)
{
	struct rs_sim *sim;
	long y;
	int c, rc = -1;

	if (check_inputs(policy, years, err) < 0)
		return -1;
	sim = malloc(sizeof *sim);
	if (!sim) {
		diag_set(err, DIAG_E_NOMEM, 0, 0, "the simulation ran out of memory");
		return -1;
	}
	if (rs_sim_init(sim, policy, storm, seed, variant, err) < 0)
		goto done;
	for (y = 0; y < years; y++)
		if (rs_sim_year(sim, err) < 0)
			goto done;
	memset(out, 0, sizeof *out);
	for (c = 0; c < RS_NCLASSES; c++)
		rs_figures(&sim->totals[c], years, (enum rs_class)c, &out->cls[c]);
	out->monthly_usd_unrounded = rs_monthly_usd(policy);
	out->monthly_usd = num_round(out->monthly_usd_unrounded, 0);
	out->draws = sim->draws;
	rc = 0;
done:
	rs_sim_release(sim);
	free(sim);
	return rc;
}

int rs_grid_hours(const struct rs_storm *storm, const struct rs_power *power,
		  long years, const struct rs_seed *seed, double *out,
		  struct diag *err)
{
	struct rs_policy p;
	struct rs_sim *sim;
	double sum = 0.0;
	long y;
	int rc = -1;

	memset(&p, 0, sizeof p);
	p.fiber = p.fiber_b = -1;
	p.power = *power;
	p.timing = rs_default_timing;
	if (check_inputs(&p, years, err) < 0)
		return -1;
	sim = malloc(sizeof *sim);
	if (!sim) {
		diag_set(err, DIAG_E_NOMEM, 0, 0, "the simulation ran out of memory");
		return -1;
	}
	if (rs_sim_init(sim, &p, storm, seed, 0, err) < 0)
		goto done;
	/* Steps 1 and 2 only: nothing else is drawn. */
	for (y = 0; y < years; y++) {
		(void)year_storms(sim);
		year_grid(sim);
		if (sim->storms.failed || sim->grid.failed) {
			diag_set(err, DIAG_E_NOMEM, 0, 0, "the simulation ran out of memory");
			goto done;
		}
		sum += rs_total(&sim->grid);
	}
	*out = sum / (double)years;
	rc = 0;
done:
	rs_sim_release(sim);
	free(sim);
	return rc;
}
