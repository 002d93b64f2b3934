/*
 * network_ledger.c: reliability (spec/network.md 5.5 analytical, 5.6 Monte
 * Carlo on the shared NumPy-compatible PCG64), the four-fate ledger
 * (5.7.0), rescale (5.7.1) and the scaling curve (5.7.2). The Monte Carlo
 * loop draws one exponential per failure gap, in the reference's order.
 */
#include "core/models/network.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/models/pcg64.h"

#define F(s, id) ((s)->f[NW_##id])

double nw_daly(double w, double mttf)
{
	if (isinf(mttf))
		return INFINITY;
	if (w <= 0)
		return fmax(60.0, mttf);
	return fmax(60.0, sqrt(2.0 * w * mttf) - w);
}

double nw_lost_work(double lam, double period)
{
	double x;

	if (lam <= 0 || period <= 0)
		return 0.0;
	if (isinf(period))
		return 1 / lam; /* the limit: a failure loses everything since the start */
	if (lam * period < 1e-6)
		return period / 2;
	x = lam * period;
	return (1 / lam - (period + 1 / lam) * exp(-x)) / (1 - exp(-x));
}

double nw_spare_availability(double k, double lam, double repair)
{
	double mean, term, sum;
	long i;

	if (k <= 0)
		return 0.0;
	if (lam * repair <= 0)
		return 1.0;
	mean = lam * repair;
	term = exp(-mean);
	sum = 0.0;
	for (i = 0; i < (long)k; i++) {
		if (i >= 1)
			term *= mean / (double)i;
		sum += term;
		if (term == 0 || sum >= 1.0)
			break; /* later terms are zero too, or the cap is reached */
	}
	return fmin(1.0, sum);
}

/* The quantities 5.5 and 5.6 share. */
struct rel_common {
	double lam, mttf, w, interval, period, restart_eff, down, running, window;
};

static void common(const struct nw_scn *s, unsigned variant, struct rel_common *c)
{
	double world = (double)nw_world(s), per_node = F(s, PER_NODE);
	double nodes_job = fmax(1.0, (variant & NW_V_RATE_PER_ACCEL) ? world : world / per_node);
	double k, p_spare;

	c->window = nw_window_s(s);
	c->lam = nodes_job * (F(s, RATE) / 86400.0);
	c->mttf = c->lam > 0 ? 1 / c->lam : INFINITY;
	c->w = F(s, WRITE) * F(s, BLOCKING);
	if (variant & NW_V_CKPT_EVERY_MINUTE)
		c->interval = 60.0;
	else if (!isnan(F(s, INTERVAL)))
		c->interval = F(s, INTERVAL);
	else
		c->interval = nw_daly(c->w, c->mttf);
	c->period = c->interval + c->w;
	k = floor(F(s, SPARE) * F(s, N_POOL) / per_node);
	p_spare = nw_spare_availability(k, c->lam, F(s, REPAIR));
	c->restart_eff = F(s, RESTART) + (1 - p_spare) * F(s, REPAIR);
	c->down = fmin(0.5, c->lam * F(s, REPAIR) * per_node / fmax(1, world));
	c->running = c->window * (1 - c->down);
}

static double pressure(const struct nw_rel *r, double run)
{
	if (isinf(r->mttf))
		return 0.0;
	return (r->discarded + r->restart) / fmax(1e-9, r->discarded + r->restart + run);
}

void nw_reliability(const struct nw_scn *s, unsigned variant, struct nw_rel *o)
{
	struct rel_common c;
	double lost, surviving;

	common(s, variant, &c);
	memset(o, 0, sizeof *o);
	o->mttf = c.mttf;
	o->interval = c.interval;
	o->running = c.running;
	lost = nw_lost_work(c.lam, c.period) + F(s, DETECT);
	o->n_failures = isinf(c.mttf) ? 0.0 : c.running / (c.mttf + F(s, DETECT) + c.restart_eff);
	o->discarded = o->n_failures * lost;
	o->restart = o->n_failures * c.restart_eff;
	surviving = fmax(0, c.running - o->discarded - o->restart);
	o->checkpoint = isinf(c.period) || c.period == 0 ? 0.0 : surviving * (c.w / c.period);
	o->run = surviving - o->checkpoint;
	o->unavailable = c.window * c.down;
	o->pressure = pressure(o, o->run);
}

/* One replicate of 5.6; returns 0, or -1 when its buckets do not sum to
 * the running time. */
static int replicate(const struct rel_common *c, double detect, struct pcg64 *g, double b[4],
		     double *failures)
{
	double t = 0, last = 0, d = 0, r = 0, ck = 0, run = 0;
	double frac = isinf(c->period) || c->period == 0 ? 0.0 : c->w / c->period;

	while (t < c->running) {
		double gap = c->lam > 0 ? c->mttf * pcg64_exponential(g) : INFINITY;
		double end = fmin(t + gap, c->running), span = end - t, c_span = span * frac;
		double n, lost, lost_c, ds, rs;

		ck += c_span;
		run += span - c_span;
		n = c->period > 0 && !isinf(c->period) ? floor((end - last) / c->period) : 0;
		if (n > 0)
			last += n * c->period;
		t = end;
		if (t >= c->running)
			break;
		*failures += 1;
		lost = fmin(t - last, run + ck);
		lost_c = fmin(lost * frac, ck);
		ck -= lost_c;
		run -= lost - lost_c;
		d += lost;
		ds = fmin(detect, c->running - t);
		d += ds;
		t += ds;
		if (t >= c->running)
			break;
		rs = fmin(c->restart_eff, c->running - t);
		r += rs;
		t += rs;
		last = t;
	}
	if (!(fabs(d + r + ck + run - c->running) <= 1e-6 * fmax(1, c->running)))
		return -1;
	b[0] += d;
	b[1] += r;
	b[2] += ck;
	b[3] += run;
	return 0;
}

int nw_reliability_mc(const struct nw_scn *s, uint64_t seed, long replicates, unsigned variant,
		      struct nw_rel *o)
{
	struct rel_common c;
	struct pcg64 g;
	double b[4] = { 0, 0, 0, 0 }, failures = 0;
	long i;

	common(s, variant, &c);
	/* Bound the work before drawing: about running x lam gaps per replicate. */
	if ((double)replicates * (c.running * c.lam + 1.0) > NW_MAX_MC_DRAWS)
		return -2;
	pcg64_seed_u64(&g, seed);
	for (i = 0; i < replicates; i++)
		if (replicate(&c, F(s, DETECT), &g, b, &failures) < 0)
			return -1;
	memset(o, 0, sizeof *o);
	o->mttf = c.mttf;
	o->interval = c.interval;
	o->running = c.running;
	o->discarded = b[0] / (double)replicates;
	o->restart = b[1] / (double)replicates;
	o->checkpoint = b[2] / (double)replicates;
	o->n_failures = failures / (double)replicates;
	o->run = b[3] / (double)replicates;
	o->unavailable = c.window * c.down;
	o->pressure = pressure(o, o->run);
	return 0;
}

int nw_ledger_of(const struct nw_scn *s, const struct nw_rel *rel, unsigned variant,
		 struct nw_ledger *o)
{
	double world = (double)nw_world(s), window = nw_window_s(s), run, sum, denom;
	const struct nw_step *st = &o->step;

	nw_step_of(s, variant, &o->step);
	if (rel)
		o->rel = *rel;
	else
		nw_reliability(s, variant, &o->rel);
	run = o->rel.run;
	o->productive = world * run * (st->t_compute / st->t_step);
	o->comm = world * run * ((st->exp_tp + st->exp_cp + st->exp_pp + st->exp_dp) / st->t_step);
	o->sync = world * run * (st->sync_wait / st->t_step);
	o->bubble = world * run * (st->bubble / st->t_step);
	o->checkpoint = world * o->rel.checkpoint;
	o->restart = world * o->rel.restart;
	o->discarded = world * o->rel.discarded;
	o->down = world * o->rel.unavailable;
	o->spare = (F(s, N_POOL) - world) * window;
	o->total = F(s, N_POOL) * window;
	sum = o->productive + o->comm + o->sync + o->bubble + o->checkpoint + o->restart +
	      o->discarded + o->down + o->spare;
	if (!(fabs(sum - o->total) <= (rel ? 1e-6 : 1e-9) * o->total))
		return -1;
	o->ucf = o->productive / o->total;
	o->productive_acc = o->productive / window;
	o->tokens_per_s = o->productive_acc / world * (st->tokens / st->t_compute);
	denom = world * window - o->down;
	o->ettr = denom <= 0 ? 0.0 : (o->productive + o->comm + o->sync + o->bubble) / denom;
	return 0;
}

double nw_productive(const struct nw_scn *s, unsigned variant)
{
	struct nw_ledger l;

	(void)nw_ledger_of(s, NULL, variant, &l);
	return l.productive_acc;
}

int nw_rescale(const struct nw_scn *s, double target, struct nw_scn *o)
{
	long long unit = (long long)F(s, TP) * (long long)F(s, PP) * (long long)F(s, CP);
	double overhead = nw_overhead(s), n_job = floor(target / overhead), dpn, batch;

	dpn = floor(n_job / (double)unit);
	if (dpn < 1)
		return -1;
	batch = F(s, GLOBAL_BATCH);
	if (F(s, WEAK) == 1) {
		batch = trunc(F(s, GLOBAL_BATCH) * dpn / fmax(1, F(s, DP)));
		batch = fmin(batch, F(s, MAX_GBS));
	}
	if (batch / dpn / F(s, MICRO_BATCH) < 1)
		return -1;
	/* A pool the scenario fields of 3.1 cannot hold is impossible too. */
	if (dpn > nw_fields[NW_DP].hi || dpn * (double)unit > 1e8 ||
	    ceil(dpn * (double)unit * overhead) > nw_fields[NW_N_POOL].hi)
		return -1;
	*o = *s;
	o->f[NW_DP] = dpn;
	o->f[NW_GLOBAL_BATCH] = batch;
	o->f[NW_N_POOL] = ceil(dpn * (double)unit * overhead);
	return 0;
}

static int has(const double *set, size_t n, double v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (set[i] == v)
			return 1;
	return 0;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

size_t nw_curve(const struct nw_scn *s, double max_factor, unsigned variant,
		struct nw_point *pts)
{
	double set[NW_MAX_CURVE], base = F(s, DP), max_dp, x, unit, overhead = nw_overhead(s);
	size_t n = 0, i, np = 0, step;

	max_dp = fmax(base + 1, trunc(base * max_factor));
	/* base, base + 1, ... up to base + 16 and max_dp. A validated scenario
	 * always yields base itself; the guard keeps a NaN from reading
	 * before the array. */
	for (step = 0; step <= 16 && base + (double)step <= max_dp; step++)
		set[n++] = base + (double)step;
	if (n == 0)
		set[n++] = base;
	x = set[n - 1];
	while (x < max_dp && n < NW_MAX_CURVE - 1) {
		double v;

		x = x * 1.07;
		v = fmin(rint(x), max_dp);
		if (!has(set, n, v))
			set[n++] = v;
	}
	if (!has(set, n, max_dp))
		set[n++] = max_dp;
	qsort(set, n, sizeof set[0], by_value);
	unit = F(s, TP) * F(s, PP) * F(s, CP);
	for (i = 0; i < n; i++) {
		struct nw_scn v;

		if (nw_rescale(s, ceil(set[i] * unit * overhead), &v) < 0)
			continue;
		pts[np].n_pool = v.f[NW_N_POOL];
		pts[np].productive = nw_productive(&v, variant);
		np++;
	}
	return np;
}
