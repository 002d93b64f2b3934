/*
 * reliability_sim.c: the latent fault timeline and the five recovery
 * policies of spec/reliability.md 5.2-5.6, in the spec's operation order
 * (every parenthesis matters for bit-exactness with the reference).
 *
 * Repair and spare-return clocks are kept as (time, count) pairs in a
 * min-heap: a burst of b nodes is one entry, so memory is bounded by the
 * number of events whatever the blast radius.
 */
#include "core/models/reliability.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/models/exact_mean.h"
#include "core/models/par.h"
#include "core/models/pcg64.h"

const char *const rel_policy_names[REL_NPOLICIES] = {
	[REL_MANUAL] = "manual",
	[REL_AUTO_RESTART] = "auto-restart",
	[REL_AUTO_SPARES] = "auto-spares",
	[REL_AUTO_SPARES_CKPT] = "auto-spares-ckpt",
	[REL_ELASTIC] = "elastic",
};

const char *const rel_field_names[REL_NFIELDS] = {
	"ettr", "availability", "mttf_h", "mttr_h", "interruptions",
	"reserved_spare_gpu_h", "productive_gpu_h", "waste_gpu_h", "waste_dollars",
};

double rel_result_field(const struct rel_result *r, size_t field)
{
	const double v[REL_NFIELDS] = {
		r->ettr, r->availability, r->mttf_h, r->mttr_h, (double)r->interruptions,
		r->reserved_spare_gpu_h, r->productive_gpu_h, r->waste_gpu_h,
		r->waste_dollars,
	};

	return field < REL_NFIELDS ? v[field] : NAN;
}

/* ---- timeline (5.2) -------------------------------------------------- */

double rel_single_rate(const struct rel_config *c)
{
	double total = c->single_rate_per_node_h * (double)c->nodes;
	double burst_node = c->burst_rate_per_h * (double)c->burst_blast;

	return total - burst_node > 0 ? total - burst_node : 0.0;
}

static int push_event(struct rel_timeline *tl, double t, int64_t n, struct diag *err)
{
	if (tl->count == tl->cap) {
		size_t cap = tl->cap ? tl->cap * 2 : 256;
		struct rel_event *ev;

		if (tl->count >= REL_MAX_EVENTS) {
			diag_set(err, DIAG_E_LIMIT, 0, 0,
				 "the fault timeline exceeds %u events", REL_MAX_EVENTS);
			return -1;
		}
		ev = realloc(tl->ev, cap * sizeof *ev);
		if (!ev) {
			diag_set(err, DIAG_E_NOMEM, 0, 0, "out of memory for the fault timeline");
			return -1;
		}
		tl->ev = ev;
		tl->cap = cap;
	}
	tl->ev[tl->count].t = t;
	tl->ev[tl->count].n = n;
	tl->count++;
	return 0;
}

/* One Poisson stream: exponential gaps of mean 1/rate until the horizon;
 * the draw that crosses it is consumed and dropped. */
static int stream(struct pcg64 *g, double rate, double horizon, int64_t n,
		  struct rel_timeline *tl, struct diag *err)
{
	double scale = 1.0 / rate, t = 0.0;

	for (;;) {
		t = t + scale * pcg64_exponential(g);
		if (t >= horizon)
			return 0;
		if (push_event(tl, t, n, err) < 0)
			return -1;
	}
}

static int event_cmp(const void *a, const void *b)
{
	const struct rel_event *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return (x->n > y->n) - (x->n < y->n);
}

/* Merge the two runs ev[0..k) and ev[k..n), each in event order, into
 * one (5.2 step 4). Each stream's walk only moves forward in time, so the
 * two runs are already sorted and a merge gives exactly the order a sort
 * by (time, count) gives: equal events are indistinguishable. */
static int merge_streams(struct rel_event *ev, size_t k, size_t n, struct diag *err)
{
	struct rel_event *first = malloc(k * sizeof *first);
	size_t i = 0, j = k, o = 0;

	if (!first) {
		diag_set(err, DIAG_E_NOMEM, 0, 0, "out of memory for %zu events", n);
		return -1;
	}
	memcpy(first, ev, k * sizeof *first);
	while (i < k && j < n)
		ev[o++] = event_cmp(&ev[j], &first[i]) < 0 ? ev[j++] : first[i++];
	while (i < k)
		ev[o++] = first[i++];
	free(first);
	return 0;
}

int rel_timeline_build(const struct rel_config *c, struct rel_timeline *tl,
		       struct diag *err)
{
	struct pcg64 g;
	double single = rel_single_rate(c);
	size_t k;

	memset(tl, 0, sizeof *tl);
	pcg64_seed_u64(&g, c->seed);
	if (single > 0 && stream(&g, single, c->horizon_h, 1, tl, err) < 0)
		goto fail;
	k = tl->count;
	if (c->burst_rate_per_h > 0 &&
	    stream(&g, c->burst_rate_per_h, c->horizon_h, c->burst_blast, tl, err) < 0)
		goto fail;
	if (k > 0 && k < tl->count && merge_streams(tl->ev, k, tl->count, err) < 0)
		goto fail;
	return 0;
fail:
	rel_timeline_free(tl);
	return -1;
}

void rel_timeline_free(struct rel_timeline *tl)
{
	free(tl->ev);
	memset(tl, 0, sizeof *tl);
}

/* ---- clocks: a min-heap of (time, count) ----------------------------- */

struct clocks {
	struct rel_event *h; /* t = when, n = how many */
	size_t len, cap;
	int64_t total;       /* sum of counts */
};

static int clocks_push(struct clocks *c, double t, int64_t n, struct diag *err)
{
	size_t i;

	if (c->len == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 64;
		struct rel_event *h = realloc(c->h, cap * sizeof *h);

		if (!h) {
			diag_set(err, DIAG_E_NOMEM, 0, 0, "out of memory for repair clocks");
			return -1;
		}
		c->h = h;
		c->cap = cap;
	}
	i = c->len++;
	while (i > 0 && c->h[(i - 1) / 2].t > t) {
		c->h[i] = c->h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	c->h[i].t = t;
	c->h[i].n = n;
	c->total += n;
	return 0;
}

static void clocks_pop(struct clocks *c)
{
	struct rel_event last;
	size_t i = 0;

	c->total -= c->h[0].n;
	last = c->h[--c->len];
	for (;;) {
		size_t k = 2 * i + 1;

		if (k >= c->len)
			break;
		if (k + 1 < c->len && c->h[k + 1].t < c->h[k].t)
			k++;
		if (!(c->h[k].t < last.t))
			break;
		c->h[i] = c->h[k];
		i = k;
	}
	if (c->len)
		c->h[i] = last;
}

/* Drop every clock <= t; returns how many nodes that released. */
static int64_t clocks_release(struct clocks *c, double t)
{
	int64_t n = 0;

	while (c->len && c->h[0].t <= t) {
		n += c->h[0].n;
		clocks_pop(c);
	}
	return n;
}

/* ---- policies (5.3-5.5) ---------------------------------------------- */

struct run {
	double write_frac, lost, detect;
	int64_t reserved;
	double uptime, downtime, productive;
	int64_t interruptions;
};

static void run_init(const struct rel_config *c, enum rel_policy p, unsigned variant,
		     struct run *r)
{
	int overlapped = p == REL_AUTO_SPARES_CKPT || p == REL_ELASTIC;
	double ci = overlapped ? c->ckpt_overlap_interval_h : c->ckpt_interval_h;
	double w = overlapped ? c->ckpt_overlap_write_h : c->ckpt_write_h;

	memset(r, 0, sizeof *r);
	r->write_frac = 1 - (w / ci);
	r->lost = (variant & REL_V_FULL_INTERVAL_LOSS) ? ci : ci / 2;
	r->detect = p == REL_MANUAL ? c->operator_h : c->detect_h;
	r->reserved = (p == REL_AUTO_SPARES || p == REL_AUTO_SPARES_CKPT) ? c->spare_nodes : 0;
}

static int fixed_width(const struct rel_config *c, const struct rel_timeline *tl,
		       struct run *r, struct diag *err)
{
	double H = c->horizon_h, nodes = (double)c->nodes;
	double busy_until = 0, last_up = 0;
	int64_t avail = r->reserved;
	struct clocks spares = { 0 };
	size_t i;
	int rc = -1;

	for (i = 0; i < tl->count; i++) {
		double te = tl->ev[i].t, outage;
		int64_t n = tl->ev[i].n;

		avail += clocks_release(&spares, te);
		if (avail >= n) {
			avail -= n;
			if (clocks_push(&spares, (te + c->repair_h) + c->requal_h, n, err) < 0)
				goto out;
			outage = r->detect + c->reload_h;
		} else {
			outage = (r->detect + c->repair_h) + c->reload_h;
		}
		if (te >= busy_until) {
			double up = te - last_up;

			r->uptime += up;
			r->productive += (up * nodes) * r->write_frac;
			r->productive = fmax(0, r->productive - r->lost * nodes);
			r->interruptions += 1;
			busy_until = te + outage;
			r->downtime += fmin(busy_until, H) - te;
			last_up = busy_until;
		} else {
			double end = te + outage;

			if (end > busy_until) {
				r->downtime += fmin(end, H) - fmin(busy_until, H);
				busy_until = end;
				last_up = end;
			}
		}
	}
	if (last_up < H) {
		double up = H - last_up;

		r->uptime += up;
		r->productive += (up * nodes) * r->write_frac;
	}
	rc = 0;
out:
	free(spares.h);
	return rc;
}

static double usable_width(const struct rel_config *c, int64_t down)
{
	return (double)(c->nodes - rel_legal_loss(down, c->legal_shape_nodes));
}

/* Credit(t0, t1) of 5.5 over the remaining repair clocks: nodes whose
 * clock is <= tt are up again. Consumes the clocks it passes. */
static void credit_walk(const struct rel_config *c, struct clocks *down, double t0,
			double t1, struct run *r)
{
	double tt = t0;

	clocks_release(down, tt);
	while (tt < t1) {
		double next = down->len && down->h[0].t < t1 ? down->h[0].t : t1;

		r->productive += ((next - tt) * usable_width(c, down->total)) * r->write_frac;
		tt = next;
		clocks_release(down, tt);
	}
}

static int elastic(const struct rel_config *c, const struct rel_timeline *tl,
		   struct run *r, struct diag *err)
{
	double H = c->horizon_h, t = 0;
	struct clocks down = { 0 };
	size_t i;
	int rc = -1;

	for (i = 0; i < tl->count; i++) {
		double te = tl->ev[i].t, base;

		if (t >= H)
			break;
		clocks_release(&down, te);
		base = t > te ? t : te;
		/* Every clock left is > te >= t, so the credit over [t, base) is
		 * one step at the current width. */
		if (t < base)
			r->productive += ((base - t) * usable_width(c, down.total)) * r->write_frac;
		r->uptime += base - t;
		r->productive = fmax(0, r->productive - r->lost * usable_width(c, down.total));
		r->interruptions += 1;
		if (clocks_push(&down, (te + c->repair_h) + c->requal_h, tl->ev[i].n, err) < 0)
			goto out;
		r->downtime += fmin(base + c->reshard_h, H) - base;
		t = base + c->reshard_h;
	}
	if (t < H) {
		credit_walk(c, &down, t, H, r);
		r->uptime += H - t;
	}
	rc = 0;
out:
	free(down.h);
	return rc;
}

/* 5.6 metrics. */
static int metrics(const struct rel_config *c, enum rel_policy p, const struct run *r,
		   struct rel_result *out, struct diag *err)
{
	double H = c->horizon_h;
	double productive = fmax(0, r->productive);
	double envelope = (double)((c->nodes + r->reserved) * REL_GPUS_PER_NODE) * H;
	double productive_gpu = productive * REL_GPUS_PER_NODE;
	double waste = envelope - productive_gpu;
	double ev = (double)(r->interruptions > 1 ? r->interruptions : 1);

	if (!(fabs(r->uptime + r->downtime - H) < 1e-6)) {
		diag_set(err, DIAG_E_ERROR, 0, 0,
			 "internal error: uptime %.17g + downtime %.17g differs from the horizon %.17g",
			 r->uptime, r->downtime, H);
		return -1;
	}
	out->policy = p;
	out->seed = c->seed;
	out->ettr = rel_round(productive_gpu / envelope, 4);
	out->availability = rel_round(r->uptime / H, 4);
	out->mttf_h = rel_round(r->uptime / ev, 2);
	out->mttr_h = rel_round(r->downtime / ev, 2);
	out->interruptions = r->interruptions;
	out->reserved_spare_gpu_h =
		rel_round((double)(r->reserved * REL_GPUS_PER_NODE) * H, 1);
	out->productive_gpu_h = rel_round(productive_gpu, 1);
	out->waste_gpu_h = rel_round(waste, 1);
	out->waste_dollars = rel_round(waste * c->dollars_per_gpu_h, 0);
	return 0;
}

int rel_simulate(const struct rel_config *c, enum rel_policy p,
		 const struct rel_timeline *tl, unsigned variant,
		 struct rel_result *out, struct diag *err)
{
	struct run r;
	int rc;

	run_init(c, p, variant, &r);
	rc = p == REL_ELASTIC ? elastic(c, tl, &r, err) : fixed_width(c, tl, &r, err);
	if (rc < 0)
		return -1;
	return metrics(c, p, &r, out, err);
}

/* Seeds run in blocks on threads (par.h): each seed builds its own
 * timeline and writes only its own row, and the exact sums do not depend
 * on the order they are fed, so the means are those of a serial run. A
 * block bounds the rows kept at once. */
#define REL_SEED_BLOCK 1024

struct seed_rows {
	const struct rel_config *c;
	unsigned mask, variant;
	uint64_t first;                     /* the block's first seed */
	double (*row)[REL_NPOLICIES][REL_NFIELDS];
	double *events;
	struct diag *errs;
	int *failed;
};

static void seed_row(void *ctx, size_t i)
{
	struct seed_rows *b = ctx;
	struct rel_config run = *b->c;
	struct rel_timeline tl;
	size_t p, f;

	run.seed = b->first + i;
	diag_init(&b->errs[i]);
	b->failed[i] = 0;
	if (rel_timeline_build(&run, &tl, &b->errs[i]) < 0) {
		b->failed[i] = 1;
		return;
	}
	b->events[i] = (double)tl.count;
	for (p = 0; p < REL_NPOLICIES; p++) {
		struct rel_result res;

		if (!(b->mask & (1u << p)))
			continue;
		if (rel_simulate(&run, (enum rel_policy)p, &tl, b->variant, &res,
				 &b->errs[i]) < 0) {
			b->failed[i] = 1;
			break;
		}
		for (f = 0; f < REL_NFIELDS; f++)
			b->row[i][p][f] = rel_result_field(&res, f);
	}
	rel_timeline_free(&tl);
}

int rel_seed_means(const struct rel_config *c, unsigned mask, uint64_t nseeds,
		   unsigned variant, struct rel_means out[REL_NPOLICIES],
		   struct diag *err)
{
	struct exact_sum sums[REL_NPOLICIES][REL_NFIELDS], events;
	struct seed_rows b = { c, mask, variant, 0, NULL, NULL, NULL, NULL };
	size_t p, f, i, n;
	double ev_mean;
	int rc = 0;

	for (p = 0; p < REL_NPOLICIES; p++)
		for (f = 0; f < REL_NFIELDS; f++)
			exact_sum_init(&sums[p][f]);
	exact_sum_init(&events);
	b.row = malloc(REL_SEED_BLOCK * sizeof *b.row);
	b.events = malloc(REL_SEED_BLOCK * sizeof *b.events);
	b.errs = malloc(REL_SEED_BLOCK * sizeof *b.errs);
	b.failed = malloc(REL_SEED_BLOCK * sizeof *b.failed);
	if (!b.row || !b.events || !b.errs || !b.failed) {
		diag_set(err, DIAG_E_NOMEM, 0, 0, "out of memory for the seed runs");
		rc = -1;
	}
	for (b.first = 0; rc == 0 && b.first < nseeds; b.first += n) {
		n = nseeds - b.first < REL_SEED_BLOCK ? (size_t)(nseeds - b.first)
						      : REL_SEED_BLOCK;
		par_for(n, seed_row, &b);
		for (i = 0; i < n && rc == 0; i++) {
			if (b.failed[i]) {
				*err = b.errs[i];
				rc = -1;
				break;
			}
			exact_sum_add(&events, b.events[i]);
			for (p = 0; p < REL_NPOLICIES; p++)
				if (mask & (1u << p))
					for (f = 0; f < REL_NFIELDS; f++)
						exact_sum_add(&sums[p][f], b.row[i][p][f]);
		}
	}
	free(b.row);
	free(b.events);
	free(b.errs);
	free(b.failed);
	if (rc < 0)
		return -1;
	/* An exact mean costs a long division of the accumulator: only the
	 * policies asked for, and the event count once. */
	ev_mean = exact_sum_mean(&events, nseeds);
	for (p = 0; p < REL_NPOLICIES; p++) {
		if (!(mask & (1u << p)))
			continue;
		for (f = 0; f < REL_NFIELDS; f++)
			out[p].field[f] = exact_sum_mean(&sums[p][f], nseeds);
		out[p].events = ev_mean;
	}
	return 0;
}
