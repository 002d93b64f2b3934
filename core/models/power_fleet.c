/*
 * power_fleet.c: the simulated models of the power pack (spec/power.md
 * 5.4-5.7): the synthetic hourly price process on NumPy's generator, the
 * pairwise array sum NumPy uses for np.sum, the offline (full-foresight)
 * curtailment of a fleet under each curtail order, and the online causal
 * controller that sees one price at a time.
 */
#include "core/models/power.h"

#include <math.h>
#include <stdlib.h>

#include "core/models/pcg64.h"

/* sin((((k - 6) / 24) x 2) x pi) as the reference platform's vectorised
 * sine returned it (5.4): constants, so no libm can move a price. */
const double pw_diurnal_sin[24] = {
	-0x1.0000000000000p+0,  -0x1.ee8dd4748bf16p-1, -0x1.bb67ae8584ca9p-1,
	-0x1.6a09e667f3bcdp-1,  -0x1.ffffffffffffep-2, -0x1.0907dc1930691p-2,
	0x0.0p+0,               0x1.0907dc1930691p-2,  0x1.ffffffffffffep-2,
	0x1.6a09e667f3bcdp-1,   0x1.bb67ae8584ca9p-1,  0x1.ee8dd4748bf16p-1,
	0x1.0000000000000p+0,   0x1.ee8dd4748bf16p-1,  0x1.bb67ae8584cabp-1,
	0x1.6a09e667f3bcep-1,   0x1.ffffffffffffep-2,  0x1.0907dc1930695p-2,
	0x1.1a62633145c07p-53,  -0x1.0907dc193068ap-2, -0x1.0000000000001p-1,
	-0x1.6a09e667f3bccp-1,  -0x1.bb67ae8584ca7p-1, -0x1.ee8dd4748bf16p-1,
};

/* ---- prices (5.4) -------------------------------------------------------------- */

void pw_prices(const struct pw_fleet_config *c, double *p, struct pw_spike *spikes,
	       size_t *nspikes)
{
	size_t H = (size_t)c->horizon_h, h, k, ns = 0;
	struct pcg64 g;

	pcg64_seed_u64(&g, c->seed);
	/* Noise first: all H normals in index order, then the spike draws. */
	for (h = 0; h < H; h++)
		p[h] = 0.0 + PW_NOISE_SD * pcg64_normal(&g);
	for (h = 0; h < H; h++)
		p[h] = fmax(PW_PRICE_FLOOR,
			    (c->base_mwh + c->diurnal_amp_mwh * pw_diurnal_sin[h % 24]) + p[h]);
	h = 0;
	while (h < H) {
		double u = pcg64_double(&g), mag;
		size_t end;

		if (!(u < c->spike_rate_per_h)) {
			h++;
			continue;
		}
		mag = pcg64_uniform(&g, c->spike_min_mwh, c->spike_max_mwh);
		end = h + (size_t)c->spike_len_h < H ? h + (size_t)c->spike_len_h : H;
		/* k < end <= H: every p[k] was written by the loops above (the
		 * analyser cannot follow that through the caller's array). */
		for (k = h; k < end; k++)
			p[k] = fmax(p[k], mag); /* NOLINT(clang-analyzer-core.CallAndMessage) */
		if (spikes)
			spikes[ns] = (struct pw_spike){ (long)h, mag };
		ns++;
		h += (size_t)c->spike_len_h;
	}
	if (nspikes)
		*nspikes = ns;
}

/* ---- NumPy's pairwise sum (5.6) ------------------------------------------------------ */

static double pairwise(const double *a, size_t n)
{
	double r[8], res;
	size_t i, j;

	if (n < 8) {
		res = 0.0;
		for (i = 0; i < n; i++)
			res = res + a[i];
		return res;
	}
	if (n <= 128) {
		for (j = 0; j < 8; j++)
			r[j] = a[j];
		for (i = 8; i < n - (n % 8); i += 8)
			for (j = 0; j < 8; j++)
				r[j] = r[j] + a[i + j];
		res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
		for (; i < n; i++)
			res = res + a[i];
		return res;
	}
	i = n / 2;
	i -= i % 8;
	return pairwise(a, i) + pairwise(a + i, n - i);
}

double pw_pairwise_sum(const double *a, size_t n)
{
	double s = 0.0;
	size_t off;

	for (off = 0; off < n; off += PW_SUM_CHUNK)
		s = s + pairwise(a + off, n - off < PW_SUM_CHUNK ? n - off : PW_SUM_CHUNK);
	return s;
}

/* ---- offline curtailment (5.5) ---------------------------------------------------------- */

struct ranked {
	double price;
	long hour;
};

/* Price descending, ties by ascending hour. */
static int by_price_desc(const void *x, const void *y)
{
	const struct ranked *a = x, *b = y;

	if (a->price != b->price)
		return a->price > b->price ? -1 : 1;
	return (a->hour > b->hour) - (a->hour < b->hour);
}

/* Price ascending, ties by ascending hour. */
static int by_price_asc(const void *x, const void *y)
{
	const struct ranked *a = x, *b = y;

	if (a->price != b->price)
		return a->price < b->price ? -1 : 1;
	return (a->hour > b->hour) - (a->hour < b->hour);
}

typedef int (*ranked_cmp)(const void *, const void *);

static void swap_ranked(struct ranked *a, struct ranked *b)
{
	struct ranked t = *a;

	*a = *b;
	*b = t;
}

/* Rearrange a[0..n) so that a[0..m) holds the first m entries in cmp
 * order, sorted: a quickselect (the order is total: prices, then hours),
 * then a sort of the prefix. The fleet needs only the dearest and the
 * cheapest few hours, so this replaces two full sorts. Falls back to a
 * full sort when the selection degenerates. */
static void select_first(struct ranked *a, size_t n, size_t m, ranked_cmp cmp)
{
	size_t lo = 0, hi = n, rounds = 0;

	if (m >= n) {
		qsort(a, n, sizeof *a, cmp);
		return;
	}
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2, i, store;

		if (++rounds > 64) {
			qsort(a, n, sizeof *a, cmp);
			return;
		}
		/* Median of three as the pivot, moved to hi - 1. */
		if (cmp(&a[mid], &a[lo]) < 0)
			swap_ranked(&a[mid], &a[lo]);
		if (cmp(&a[hi - 1], &a[lo]) < 0)
			swap_ranked(&a[hi - 1], &a[lo]);
		if (cmp(&a[mid], &a[hi - 1]) < 0)
			swap_ranked(&a[mid], &a[hi - 1]);
		for (i = store = lo; i < hi - 1; i++)
			if (cmp(&a[i], &a[hi - 1]) < 0)
				swap_ranked(&a[i], &a[store++]);
		swap_ranked(&a[store], &a[hi - 1]);
		if (store == m)
			break;
		if (store < m)
			lo = store + 1;
		else
			hi = store;
	}
	qsort(a, m, sizeof *a, cmp);
}

struct fleet_scratch {
	struct ranked *order;  /* H, descending */
	struct ranked *asc;    /* H, ascending */
	long *eligible;        /* H hours */
	double *work;          /* H products */
	unsigned char *in_c;   /* H flags: curtailed */
	unsigned char *in_top; /* H flags: among the K dearest */
};

static void scratch_free(struct fleet_scratch *s)
{
	free(s->order);
	free(s->asc);
	free(s->eligible);
	free(s->work);
	free(s->in_c);
	free(s->in_top);
}

static int scratch_alloc(struct fleet_scratch *s, size_t H)
{
	/* Every element of order and asc is written before it is read, and
	 * eligible is read only where it was written: zeroing them showed as
	 * an eighth of a registry run. The two flag arrays must start at 0;
	 * work stays zeroed because gcc -O1 cannot see that it is written
	 * before pw_pairwise_sum reads it (-Wmaybe-uninitialized). */
	s->order = malloc(H * sizeof *s->order);
	s->asc = malloc(H * sizeof *s->asc);
	s->eligible = malloc(H * sizeof *s->eligible);
	s->work = calloc(H, sizeof *s->work);
	s->in_c = calloc(H, 1);
	s->in_top = calloc(H, 1);
	return s->order && s->asc && s->eligible && s->work && s->in_c && s->in_top ? 0 : -1;
}

static void reverse_longs(long *a, size_t n)
{
	size_t i;

	for (i = 0; i < n / 2; i++) {
		long t = a[i];

		a[i] = a[n - 1 - i];
		a[n - 1 - i] = t;
	}
}

int pw_fleet_on(const struct pw_fleet_config *c, const double *p,
		struct pw_fleet_result *r, struct diag *err)
{
	size_t H = (size_t)c->horizon_h, h, ne = 0, nc, K, ranked_n;
	double F = c->fleet_mw, flex = F * c->flexible_fraction, firm = F - flex;
	double flex_cost = 0.0, curtailed_mwh, filled = 0.0, deferral = 0.0;
	double gross = 0.0, gross_top = 0.0, maxp = -HUGE_VAL;
	struct fleet_scratch s = { 0 };

	if (scratch_alloc(&s, H) < 0) {
		scratch_free(&s);
		diag_set(err, DIAG_E_NOMEM, 0, 0, "out of memory for %zu hours", H);
		return -1;
	}
	for (h = 0; h < H; h++)
		s.work[h] = F * p[h];
	r->u_blind = pw_pairwise_sum(s.work, H);
	r->budget_hours = (long)(c->curtail_budget_frac * (double)H);
	for (h = 0; h < H; h++) {
		s.order[h] = (struct ranked){ p[h], (long)h };
		if (p[h] > maxp)
			maxp = p[h];
		if (p[h] > c->curtail_threshold_mwh)
			ne++;
	}
	/* Only the eligible hours and the top K need their ranks. */
	K = H / 100 > 1 ? H / 100 : 1;
	select_first(s.order, H, ne > K ? ne : K, by_price_desc);
	for (h = 0; h < ne; h++)
		s.eligible[h] = s.order[h].hour;
	if (c->order == PW_LEAST_EXPENSIVE_FIRST) {
		reverse_longs(s.eligible, ne);
	} else if (c->order == PW_RANDOM) {
		struct pcg64 g;

		pcg64_seed_u64(&g, c->seed + PW_RANDOM_ORDER_SEED_OFFSET);
		pcg64_shuffle(&g, s.eligible, ne, sizeof *s.eligible);
	}
	nc = (size_t)r->budget_hours < ne ? (size_t)r->budget_hours : ne;
	for (h = 0; h < nc; h++) {
		s.in_c[s.eligible[h]] = 1;
		if (r->curtailed_hours)
			r->curtailed_hours[h] = s.eligible[h];
	}
	for (h = 0; h < H; h++)
		s.work[h] = firm * p[h];
	r->u_firm_cost = pw_pairwise_sum(s.work, H);
	for (h = 0; h < H; h++)
		if (!s.in_c[h])
			flex_cost = flex_cost + flex * p[h];
	/* Deferred energy goes to the cheapest hours, up to flex MW each. */
	curtailed_mwh = flex * (double)nc;
	for (h = 0; h < H; h++)
		s.asc[h] = (struct ranked){ p[h], (long)h };
	/* The cheapest few hours absorb the deferred energy; rank more of
	 * them (all, at worst) until the loop stops inside the ranked part. */
	for (ranked_n = nc * 2 + 16;; ranked_n = H) {
		int stopped = 0;

		select_first(s.asc, H, ranked_n < H ? ranked_n : H, by_price_asc);
		filled = 0.0;
		deferral = 0.0;
		for (h = 0; h < H && h < ranked_n; h++) {
			double take;

			if (s.in_c[s.asc[h].hour])
				continue;
			take = fmin(flex, curtailed_mwh - filled);
			if (take <= 0) {
				stopped = 1;
				break;
			}
			deferral = deferral + take * s.asc[h].price;
			filled = filled + take;
		}
		if (stopped || ranked_n >= H)
			break;
	}
	r->u_aware = (r->u_firm_cost + flex_cost) + deferral;
	r->u_saving = r->u_blind - r->u_aware;
	for (h = 0; h < K && h < H; h++)
		s.in_top[s.order[h].hour] = 1;
	for (h = 0; h < nc; h++) {
		double x = flex * p[s.eligible[h]];

		gross = gross + x;
		if (s.in_top[s.eligible[h]])
			gross_top = gross_top + x;
	}
	r->top1pct_hours = (long)K;
	r->flex_mw = flex;
	r->firm_mw = firm;
	r->u_flex_cost = flex_cost;
	r->u_deferral = deferral;
	r->u_saving_frac = r->u_saving / r->u_blind;
	r->u_gross = gross;
	r->u_gross_top = gross_top;
	r->u_max_price = maxp;
	r->hours_curtailed = (long)nc;
	r->eligible_hours = (long)ne;
	r->curtailed_frac_of_uptime = pw_round((double)nc / (double)H, 5);
	r->curtailed_mwh = pw_round(curtailed_mwh, 3);
	r->deferred_mwh = pw_round(filled, 3);
	r->blind_cost = pw_round(r->u_blind, 0);
	r->aware_cost = pw_round(r->u_aware, 0);
	r->saving = pw_round(r->u_saving, 0);
	r->saving_pct = pw_round(r->u_saving_frac, 4);
	r->gross_avoided = pw_round(gross, 0);
	r->top1pct_frac = gross > 0 ? pw_round(gross_top / gross, 3) : 0.0;
	r->max_price = pw_round(maxp, 0);
	scratch_free(&s);
	return 0;
}

int pw_fleet(const struct pw_fleet_config *c, struct pw_fleet_result *r,
	     struct diag *err)
{
	double *p = malloc((size_t)c->horizon_h * sizeof *p); /* pw_prices fills it */
	int rc;

	if (!p) {
		diag_set(err, DIAG_E_NOMEM, 0, 0, "out of memory for %ld hours", c->horizon_h);
		return -1;
	}
	pw_prices(c, p, NULL, NULL);
	rc = pw_fleet_on(c, p, r, err);
	free(p);
	return rc;
}

/* ---- the causal controller (5.7) ---------------------------------------------------------- */

int pw_causal(const double *p, size_t n, const struct pw_causal_opts *o,
	      unsigned variant, struct pw_action *actions, struct pw_causal *r,
	      struct diag *err)
{
	double F = o->fleet_mw, flex = F * o->flexible_fraction;
	double backlog = 0.0, cost = 0.0, served = 0.0, total = 0.0, tol;
	long budget = (long)((double)n * o->budget_fraction), used = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		double price = p[i], draw, need_d = ceil(backlog / flex);
		long remaining = (long)(n - i - 1);
		/* Keep enough hours to clear the debt even if every later hour
		 * is dear: the horizon is known, future prices are not. */
		int can_defer = (double)remaining > need_d;
		int within_budget = (variant & PW_V_CAUSAL_NO_BUDGET) || used < budget;
		int curtail = price > o->threshold_mwh && within_budget && can_defer;

		if (curtail) {
			draw = F - flex;
			backlog = backlog + flex;
			used = used + 1;
		} else {
			double extra = 0.0;

			if (!(variant & PW_V_CAUSAL_NEVER_CATCHES_UP) &&
			    (price <= o->cheap_threshold_mwh || (double)remaining < need_d))
				extra = fmin(backlog, flex);
			draw = F + extra;
			backlog = backlog - extra;
		}
		served = served + draw;
		cost = cost + draw * price;
		if (actions)
			actions[i] = (struct pw_action){ draw, backlog, curtail };
	}
	for (i = 0; i < n; i++)
		total = total + p[i];
	/* The spec's 1e-6 MWh, widened by the rounding a long replay of a big
	 * fleet accumulates in 'served'. */
	tol = fmax(1e-6, 1e-12 * F * (double)n);
	if (!(fabs(served + backlog - F * (double)n) <= tol)) {
		diag_set(err, DIAG_E_ERROR, 0, 0,
			 "internal: served %.17g + backlog %.17g != %.17g MWh", served, backlog,
			 F * (double)n);
		return -1;
	}
	r->budget_hours = budget;
	r->curtailed_hours = used;
	r->cost = cost;
	r->blind = F * total;
	r->served = served;
	r->unserved = backlog;
	r->flex = flex;
	r->has_saving = backlog < 1e-6;
	r->saving = r->has_saving ? r->blind - cost : 0.0;
	return 0;
}
