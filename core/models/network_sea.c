/*
 * network_sea.c: interventions (spec/network.md 5.7.3), substitution-
 * equivalent accelerators over the baseline's scaling curve (5.7.4), Shapley
 * attribution of a bundle (5.7.6) and the scale-across cells: atlas and
 * span cells, the stitch and the bytes each cut pushes across it (5.9).
 */
#include "core/models/network.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define F(s, id) ((s)->f[NW_##id])

int nw_apply(const struct nw_scn *base, const struct nw_iv *iv, struct nw_scn *out,
	     enum nw_field *bad, char *why, size_t size)
{
	size_t i;

	*out = *base;
	for (i = 0; i < iv->n; i++)
		if (!iv->multiply[i])
			out->f[iv->key[i]] = iv->value[i];
	for (i = 0; i < iv->n; i++)
		if (iv->multiply[i]) {
			double v = base->f[iv->key[i]] * iv->value[i];

			out->f[iv->key[i]] = nw_fields[iv->key[i]].type == NW_INT ? rint(v) : v;
		}
	for (i = 0; i < iv->n; i++)
		if (nw_check_field(iv->key[i], out->f[iv->key[i]], why, size) < 0) {
			*bad = iv->key[i];
			return -1;
		}
	if (nw_check(out, bad, why, size) < 0)
		return -1;
	if (fabs(nw_overhead(out) - nw_overhead(base)) > 1e-12) {
		struct nw_scn r;

		if (nw_rescale(out, base->f[NW_N_POOL], &r) == 0)
			*out = r;
	}
	return 0;
}

double nw_sea_on_curve(const struct nw_point *p, size_t n, double target)
{
	size_t i;

	if (n == 0)
		return INFINITY;
	if (target <= p[0].productive)
		return 0.0;
	for (i = 1; i < n; i++)
		if (p[i].productive >= target) {
			if (p[i].productive == p[i - 1].productive)
				return p[i].n_pool - p[0].n_pool;
			return p[i - 1].n_pool +
			       (target - p[i - 1].productive) / (p[i].productive - p[i - 1].productive) *
				       (p[i].n_pool - p[i - 1].n_pool) -
			       p[0].n_pool;
		}
	return INFINITY;
}

static double blocked_and_discarded(const struct nw_ledger *l)
{
	return l->comm + l->sync + l->bubble + l->checkpoint + l->restart + l->discarded;
}

int nw_sea_of(const struct nw_scn *base, const struct nw_iv *iv, const struct nw_point *pts,
	      size_t npts, unsigned variant, struct nw_sea *o, enum nw_field *bad, char *why,
	      size_t size)
{
	struct nw_scn treated;
	struct nw_ledger l0, l1;
	size_t i;

	if (nw_apply(base, iv, &treated, bad, why, size) < 0)
		return -1;
	(void)nw_ledger_of(base, NULL, variant, &l0);
	(void)nw_ledger_of(&treated, NULL, variant, &l1);
	o->baseline = l0.productive_acc;
	o->treated = l1.productive_acc;
	o->baseline_ucf = l0.ucf;
	o->treated_ucf = l1.ucf;
	o->sea = nw_sea_on_curve(pts, npts, l1.productive_acc);
	o->best = npts ? pts[0].productive : NAN;
	for (i = 1; i < npts; i++)
		if (pts[i].productive > o->best)
			o->best = pts[i].productive;
	o->naive = (blocked_and_discarded(&l0) - blocked_and_discarded(&l1)) / nw_window_s(base);
	return 0;
}

int nw_merge(const struct nw_iv *const *ivs, size_t n, struct nw_iv *out)
{
	size_t i, j, k;

	out->n = 0;
	for (i = 0; i < n; i++)
		for (j = 0; j < ivs[i]->n; j++) {
			for (k = 0; k < out->n; k++)
				if (out->key[k] == ivs[i]->key[j] &&
				    out->multiply[k] == ivs[i]->multiply[j])
					break;
			if (k == out->n) {
				if (out->n == NW_MAX_IV_KEYS)
					return -1;
				out->key[k] = ivs[i]->key[j];
				out->multiply[k] = ivs[i]->multiply[j];
				out->value[k] = ivs[i]->multiply[j] ? 1.0 : 0.0;
				out->n++;
			}
			if (ivs[i]->multiply[j])
				out->value[k] *= ivs[i]->value[j];
			else
				out->value[k] = ivs[i]->value[j];
		}
	return 0;
}

static double factorial(size_t n)
{
	double f = 1;

	while (n > 1)
		f *= (double)n--;
	return f;
}

int nw_shapley_of(const struct nw_scn *base, const struct nw_iv *ivs, size_t k, unsigned variant,
		  struct nw_shapley *o, enum nw_field *bad, char *why, size_t size)
{
	double value[1 << NW_MAX_BUNDLE] = { 0 }; /* every subset below 1 << k is set below */
	struct nw_point pts[NW_MAX_CURVE];
	size_t npts = nw_curve(base, 64.0, variant, pts), mask, i, j;

	memset(o, 0, sizeof *o);
	value[0] = 0.0;
	for (mask = 1; mask < ((size_t)1 << k); mask++) {
		const struct nw_iv *members[NW_MAX_BUNDLE];
		struct nw_iv merged;
		struct nw_sea sea;
		size_t m = 0;

		for (i = 0; i < k; i++)
			if (mask & ((size_t)1 << i))
				members[m++] = &ivs[i];
		if (nw_merge(members, m, &merged) < 0) {
			*bad = ivs[0].key[0];
			snprintf(why, size, "the bundle changes more than %d fields", NW_MAX_IV_KEYS);
			return -1;
		}
		if (nw_sea_of(base, &merged, pts, npts, variant, &sea, bad, why, size) < 0)
			return -1;
		if (isinf(sea.sea)) {
			value[mask] = 1e9;
			o->capped = 1;
		} else {
			value[mask] = sea.sea;
		}
	}
	for (i = 0; i < k; i++) {
		size_t others[NW_MAX_BUNDLE], no = 0, sz;
		double phi = 0.0;

		for (j = 0; j < k; j++)
			if (j != i)
				others[no++] = j;
		for (sz = 0; sz < k; sz++) {
			size_t idx[NW_MAX_BUNDLE];
			double w = factorial(sz) * factorial(k - sz - 1) / factorial(k);

			for (j = 0; j < sz; j++)
				idx[j] = j;
			for (;;) {
				size_t s = 0;

				for (j = 0; j < sz; j++)
					s |= (size_t)1 << others[idx[j]];
				phi += w * (value[s | ((size_t)1 << i)] - value[s]);
				/* next combination in lexicographic order */
				j = sz;
				while (j > 0 && idx[j - 1] == no - sz + j - 1)
					j--;
				if (j == 0)
					break;
				idx[j - 1]++;
				for (; j < sz; j++)
					idx[j] = idx[j - 1] + 1;
			}
		}
		o->phi[i] = phi;
		o->sum_individual += value[(size_t)1 << i];
	}
	o->bundle = value[((size_t)1 << k) - 1];
	return 0;
}

/* ---- 5.9 scale-across ----------------------------------------------------------- */

const struct nw_regime nw_regimes[5] = {
	{ "scale-up", 0.5 }, { "rail", 3.0 }, { "campus-stitch", 40.0 },
	{ "metro", 500.0 },  { "region", 40000.0 },
};

void nw_local(const struct nw_scn *s, struct nw_scn *out)
{
	*out = *s;
	out->f[NW_HALLS] = 1;
	out->f[NW_SPAN_DIM] = NW_CUT_NONE;
	out->f[NW_SPAN_BW] = 0;
}

static double cut_degree(const struct nw_scn *s, enum nw_cut cut)
{
	switch (cut) {
	case NW_CUT_TP: return F(s, TP);
	case NW_CUT_CP: return F(s, CP);
	case NW_CUT_PP: return F(s, PP);
	case NW_CUT_DP: return F(s, DP);
	default: return 1;
	}
}

/* The spanned scenario of 5.9; 0, or -1 when the cut is not applicable. */
static int spanned(const struct nw_scn *local, enum nw_cut cut, double alpha_us, double gbps,
		   long halls, int blind, unsigned variant, struct nw_scn *out)
{
	if (variant & NW_V_ZERO_STITCH_LATENCY)
		alpha_us = 0.0;
	*out = *local;
	if (cut == NW_CUT_CHECKPOINT) {
		struct nw_scn t = *local;
		double share;

		t.f[NW_SPAN_BW] = gbps;
		share = nw_span_share(&t, 1.0, variant);
		out->f[NW_WRITE] = F(local, WRITE) + (F(local, N_PARAMS) * 14.0 / share + alpha_us * 1e-6);
		return 0;
	}
	if (cut_degree(local, cut) < (double)halls)
		return -1;
	out->f[NW_HALLS] = (double)halls;
	out->f[NW_SPAN_DIM] = cut;
	out->f[NW_SPAN_BW] = gbps;
	out->f[NW_A_SPAN] = alpha_us;
	out->f[NW_PLACEMENT] = blind ? 1 : 0;
	return 0;
}

void nw_span_of(const struct nw_scn *s, enum nw_cut cut, double alpha_us, double gbps, long halls,
		int blind, unsigned variant, struct nw_span *o)
{
	struct nw_scn local, sp;
	struct nw_ledger l0, l1;

	nw_local(s, &local);
	memset(o, 0, sizeof *o);
	if (spanned(&local, cut, alpha_us, gbps, halls, blind, variant, &sp) < 0)
		return;
	o->applicable = 1;
	(void)nw_ledger_of(&local, NULL, variant, &l0);
	(void)nw_ledger_of(&sp, NULL, variant, &l1);
	o->retention = l0.ucf == 0 ? 0.0 : l1.ucf / l0.ucf;
	if (!isfinite(o->retention))
		o->retention = 0.0; /* a circuit so thin the step never ends keeps nothing */
	o->step_ratio = l1.step.t_step / l0.step.t_step;
	o->pressure = l1.rel.pressure;
}

void nw_stitch_of(const struct nw_scn *s, enum nw_cut cut, double alpha_us, double gbps,
		  unsigned variant, struct nw_stitch *o)
{
	struct nw_scn half, small, sp;
	double per;

	memset(o, 0, sizeof *o);
	nw_local(s, &half);
	if (nw_rescale(&half, floor(F(&half, N_POOL) / 2), &small) < 0)
		return;
	if (spanned(&half, cut, alpha_us, gbps, 2, F(s, PLACEMENT) == 1, variant, &sp) < 0)
		return;
	o->applicable = 1;
	o->connected = F(&half, N_POOL) - F(&small, N_POOL);
	o->p_local = nw_productive(&small, variant);
	o->p_span = nw_productive(&sp, variant);
	per = o->p_local / F(&small, N_POOL);
	o->delivered = (o->p_span - o->p_local) / per;
	o->efficiency = o->delivered / o->connected;
}

void nw_bytes_of(const struct nw_scn *s, enum nw_cut cut, long halls, double gbps,
		 unsigned variant, struct nw_bytes *o)
{
	double world = (double)nw_world(s), h = (double)halls, overlap = 0.0;
	double micro = (F(s, GLOBAL_BATCH) / F(s, DP)) / F(s, MICRO_BATCH);
	double act = F(s, MICRO_BATCH) * (F(s, SEQ_LEN) / F(s, CP)) * F(s, HIDDEN) * F(s, ACT_BYTES);

	memset(o, 0, sizeof *o);
	o->modelled = cut != NW_CUT_CP;
	if (!o->modelled)
		return;
	if (cut == NW_CUT_CHECKPOINT) {
		o->raw = 14 * F(s, N_PARAMS);
	} else if (cut_degree(s, cut) < h) {
		o->raw = 0.0;
	} else if (cut == NW_CUT_PP) {
		o->raw = (world / F(s, PP)) * (2.0 * micro * (h - 1) / (F(s, PP) - 1)) * act;
		overlap = F(s, O_PP);
	} else if (cut == NW_CUT_DP) {
		struct nw_scn t;
		struct nw_layout l;
		double below;

		nw_local(s, &t);
		t.f[NW_HALLS] = h;
		t.f[NW_SPAN_DIM] = NW_CUT_DP;
		t.f[NW_SPAN_BW] = 1;
		l = nw_layout_of(&t, NW_CUT_DP, variant);
		below = l.per_su > 1 ? (double)l.per_su : (double)(l.su_per_pod > 1 ? l.su_per_pod : 1);
		o->raw = (world / F(s, DP)) * (2 * (h - 1) / h) *
			 (F(s, N_PARAMS) / (F(s, TP) * F(s, PP)) * F(s, GRAD_BYTES) / below);
		overlap = F(s, O_DP);
	} else {
		o->raw = (world / F(s, TP)) * (4.0 * (F(s, N_LAYERS) / F(s, PP)) * micro) *
			 (2.0 * (h - 1) / h) * act;
		overlap = F(s, O_TP);
	}
	o->exposed = cut == NW_CUT_CHECKPOINT ? o->raw : o->raw * (1 - overlap);
	o->lower_bound_s = o->raw / (gbps * 1e9 * F(s, NET_EFF) / 8.0);
}

double nw_meta_ettr(double nodes, double r, double u0, double dt, double w)
{
	return (1 - nodes * r * (u0 + dt / 2)) / (1 + w / dt);
}
