/*
 * cooling_admit.c: the admission algorithm of spec/cooling.md 5.5, whose
 * order is the contract: the ceiling check (ours) ends early with DENY,
 * then ride-through and hall headroom per start hall by id, and only when
 * both are clean the feeder phase by feeder id, whose ceiling and step
 * reasons discard the stagger reasons (the reference's behaviour, which
 * cooling.strict.masked-feeder reports). Each feeder's outcome is computed
 * whether or not the phase ran, for that strict rule and the plan JSON.
 * The caller resolves ids to indices and provides every buffer.
 */
#include "core/models/cooling.h"

#include <math.h>
#include <string.h>

int cooling_id_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);

	if (c)
		return c;
	return alen < blen ? -1 : alen > blen;
}

size_t cooling_admission_max_reasons(const struct cooling_plan *p)
{
	return p->nhalls + 2 * p->nstart + p->nfeeders;
}

/* facility_mw(n) = ((n x kw) / 1000) x pue. */
static double facility_mw(const struct cooling_hall *h, double pue, double racks)
{
	return ((racks * h->kw) / 1000.0) * pue;
}

static int exceeds(double a, double b)
{
	return a > b + COOLING_EPS_MW;
}

static struct cooling_reason *add_reason(struct cooling_admission *a,
					 enum cooling_reason_rule rule, int hall,
					 int feeder)
{
	struct cooling_reason *r = &a->reasons[a->nreasons++];

	memset(r, 0, sizeof *r);
	r->rule = rule;
	r->hall = hall;
	r->feeder = feeder;
	return r;
}

/* A stable merge sort of 'n' ints with a comparison that sees the plan
 * and the admission; 'tmp' holds n ints. Plans can hold many halls, so no
 * step here may be quadratic. */
typedef int (*before_fn)(const struct cooling_plan *, const struct cooling_admission *,
			 int, int);

static void merge_sort(int *v, int *tmp, size_t n, before_fn before,
		       const struct cooling_plan *p, const struct cooling_admission *a)
{
	size_t width, i, l, r, e, m, k;

	for (width = 1; width < n; width *= 2) {
		for (i = 0; i < n; i += 2 * width) {
			l = i;
			m = i + width < n ? i + width : n;
			e = i + 2 * width < n ? i + 2 * width : n;
			r = m;
			for (k = i; k < e; k++)
				if (l < m && (r >= e || !before(p, a, v[r], v[l])))
					tmp[k] = v[l++];
				else
					tmp[k] = v[r++];
		}
		memcpy(v, tmp, n * sizeof *v);
	}
}

static int start_before(const struct cooling_plan *p, const struct cooling_admission *a,
			int x, int y)
{
	const struct cooling_hall *hx = &p->halls[p->start[x].hall];
	const struct cooling_hall *hy = &p->halls[p->start[y].hall];

	(void)a;
	return cooling_id_cmp(hx->id, hx->idlen, hy->id, hy->idlen) < 0;
}

static int feeder_before(const struct cooling_plan *p, const struct cooling_admission *a,
			 int x, int y)
{
	(void)a;
	return cooling_id_cmp(p->feeders[x].id, p->feeders[x].idlen, p->feeders[y].id,
			      p->feeders[y].idlen) < 0;
}

/* Stagger order: descending step, ties by ascending hall id. */
static int stagger_before(const struct cooling_plan *p, const struct cooling_admission *a,
			  int x, int y)
{
	double sx = a->halls[x].step_mw, sy = a->halls[y].step_mw;
	const struct cooling_hall *hx = &p->halls[x], *hy = &p->halls[y];

	if (sx != sy)
		return sx > sy;
	return cooling_id_cmp(hx->id, hx->idlen, hy->id, hy->idlen) < 0;
}

/* Counting sort into feeder groups, keeping the input order in a group. */
static void group_by_feeder(const struct cooling_plan *p, size_t n, int use_start,
			    int *group, int *off)
{
	size_t i, f;

	for (f = 0; f <= p->nfeeders; f++)
		off[f] = 0;
	for (i = 0; i < n; i++) {
		int h = use_start ? p->start[i].hall : (int)i;

		off[p->halls[h].feeder + 1]++;
	}
	for (f = 0; f < p->nfeeders; f++)
		off[f + 1] += off[f];
	for (i = 0; i < n; i++) {
		int h = use_start ? p->start[i].hall : (int)i;

		group[off[p->halls[h].feeder]++] = (int)i;
	}
	for (f = p->nfeeders; f > 0; f--)
		off[f] = off[f - 1];
	off[0] = 0;
}

static int check_indices(const struct cooling_plan *p, const char **why)
{
	size_t i;

	for (i = 0; i < p->nhalls; i++) {
		const struct cooling_hall *h = &p->halls[i];

		if (h->feeder < 0 || (size_t)h->feeder >= p->nfeeders) {
			*why = "a hall names a feeder that is not in the plan";
			return -1;
		}
		if (h->rung < 0 || h->rung >= COOLING_RUNGS || h->climate < 0 ||
		    h->climate >= COOLING_CLIMATES || h->mode < 0 || h->mode >= COOLING_MODES) {
			*why = "a hall's rung, climate or water mode is out of range";
			return -1;
		}
	}
	for (i = 0; i < p->nstart; i++)
		if (p->start[i].hall < 0 || (size_t)p->start[i].hall >= p->nhalls) {
			*why = "the start names a hall that is not in the plan";
			return -1;
		}
	return 0;
}

static void hall_figures(const struct cooling_model *m, const struct cooling_plan *p,
			 struct cooling_admission *a)
{
	size_t i;

	for (i = 0; i < p->nhalls; i++) {
		const struct cooling_hall *h = &p->halls[i];
		struct cooling_hall_out *o = &a->halls[i];

		o->pue = cooling_pue(m, h->rung, h->climate, h->mode);
		o->ride_through_s = h->kw > m->rungs[h->rung].max_kw
					    ? NAN : cooling_ride_through(m, h->rung, h->kw);
		o->running_mw = facility_mw(h, o->pue, h->racks_running);
		o->headroom_mw = h->feed_mw - o->running_mw;
		o->start_racks = 0.0;
		o->step_mw = NAN;
	}
	for (i = 0; i < p->nstart; i++) {
		int hi = p->start[i].hall;

		a->halls[hi].start_racks = p->start[i].racks;
		a->halls[hi].step_mw = facility_mw(&p->halls[hi], a->halls[hi].pue,
						   p->start[i].racks);
	}
}

/* carried, step and outcome of every feeder (5.5 step 6, the tests only). */
static void feeder_figures(const struct cooling_model *m, const struct cooling_plan *p,
			   struct cooling_admission *a)
{
	size_t f, i, k;

	for (f = 0; f < p->nfeeders; f++) {
		struct cooling_feeder_out *o = &a->feeders[f];
		const struct cooling_feeder *fd = &p->feeders[f];
		double *v = a->sums;

		memset(o, 0, sizeof *o);
		o->biggest = -1;
		for (i = (size_t)a->hall_off[f], k = 0; i < (size_t)a->hall_off[f + 1]; i++)
			v[k++] = a->halls[a->hall_group[i]].running_mw;
		o->carried_mw = cooling_sum(v, k);
		if (fd->has_tenant)
			o->carried_mw = o->carried_mw + fd->tenant_mw;
		for (i = (size_t)a->start_off[f], k = 0; i < (size_t)a->start_off[f + 1]; i++) {
			int hi = p->start[a->start_group[i]].hall;

			v[k++] = a->halls[hi].step_mw;
			if (o->biggest < 0 || a->halls[hi].step_mw > o->biggest_mw) {
				o->biggest = hi;
				o->biggest_mw = a->halls[hi].step_mw;
			}
		}
		o->start_halls = k;
		o->start_step_mw = cooling_sum(v, k);
		if (k == 0)
			o->outcome = COOLING_O_NONE;
		else if (exceeds(o->carried_mw + o->start_step_mw, fd->limit_mw))
			o->outcome = COOLING_O_CEILING;
		else if (!exceeds(o->start_step_mw, fd->max_step_mw))
			o->outcome = COOLING_O_FITS;
		else if (exceeds(o->biggest_mw, fd->max_step_mw) || m->step_as_ceiling)
			o->outcome = COOLING_O_ALONE_STEP;
		else
			o->outcome = COOLING_O_STAGGER;
	}
}

static int ceiling_phase(const struct cooling_model *m, const struct cooling_plan *p,
			 struct cooling_admission *a)
{
	size_t i;
	int any = 0;

	for (i = 0; i < p->nhalls; i++) {
		const struct cooling_hall *h = &p->halls[i];

		if (h->kw > m->rungs[h->rung].max_kw) {
			struct cooling_reason *r = add_reason(a, COOLING_R_RUNG_CEILING,
							      (int)i, h->feeder);

			r->a = h->kw;
			r->b = m->rungs[h->rung].max_kw;
			any = 1;
		}
	}
	return any;
}

static int hall_phase(const struct cooling_plan *p, struct cooling_admission *a)
{
	size_t i;
	int any = 0;

	for (i = 0; i < p->nstart; i++) {
		int hi = p->start[a->by_id[i]].hall;
		double held = a->halls[hi].ride_through_s;

		if (held < p->need_s) {
			struct cooling_reason *r = add_reason(a, COOLING_R_RIDE_THROUGH, hi, -1);

			r->a = held;
			r->b = p->need_s;
			r->c = p->halls[hi].kw;
			any = 1;
		}
	}
	for (i = 0; i < p->nstart; i++) {
		int hi = p->start[a->by_id[i]].hall;

		if (exceeds(a->halls[hi].step_mw, a->halls[hi].headroom_mw)) {
			struct cooling_reason *r = add_reason(a, COOLING_R_HALL_HEADROOM, hi, -1);

			r->a = a->halls[hi].step_mw;
			r->b = a->halls[hi].headroom_mw;
			any = 1;
		}
	}
	return any;
}

static void feeder_phase(const struct cooling_plan *p, struct cooling_admission *a)
{
	int *order = a->scratch;
	size_t k, i, first_stagger = a->nreasons;
	int blocked = 0;

	for (k = 0; k < p->nfeeders; k++)
		order[k] = (int)k;
	merge_sort(order, a->scratch + p->nfeeders, p->nfeeders, feeder_before, p, a);
	for (k = 0; k < p->nfeeders; k++) {
		int f = order[k];
		struct cooling_feeder_out *o = &a->feeders[f];
		struct cooling_reason *r;

		if (o->outcome == COOLING_O_NONE)
			continue;
		o->checked = 1;
		switch (o->outcome) {
		case COOLING_O_CEILING:
			r = add_reason(a, COOLING_R_FEEDER_CEILING, -1, f);
			r->a = o->carried_mw;
			r->b = o->start_step_mw;
			r->c = p->feeders[f].limit_mw;
			blocked = 1;
			break;
		case COOLING_O_ALONE_STEP:
			r = add_reason(a, COOLING_R_FEEDER_STEP, o->biggest, f);
			r->a = o->biggest_mw;
			r->b = o->start_step_mw;
			r->c = p->feeders[f].max_step_mw;
			blocked = 1;
			break;
		case COOLING_O_STAGGER:
			r = add_reason(a, COOLING_R_STAGGER, -1, f);
			r->a = o->start_step_mw;
			r->b = p->feeders[f].max_step_mw;
			r->count = o->start_halls;
			for (i = (size_t)a->start_off[f]; i < (size_t)a->start_off[f + 1]; i++)
				a->stagger[a->nstagger++] = p->start[a->start_group[i]].hall;
			break;
		case COOLING_O_FITS:
		case COOLING_O_NONE:
			break;
		}
	}
	if (blocked) {
		/* Keep only the ceiling and step reasons (5.5 step 7). */
		size_t w = first_stagger;

		for (i = first_stagger; i < a->nreasons; i++)
			if (a->reasons[i].rule != COOLING_R_STAGGER)
				a->reasons[w++] = a->reasons[i];
		a->nreasons = w;
		a->nstagger = 0;
		a->verdict = COOLING_DENY;
	} else if (a->nstagger) {
		merge_sort(a->stagger, a->scratch + p->nfeeders, a->nstagger, stagger_before, p, a);
		a->verdict = COOLING_STAGGER;
	} else {
		a->verdict = COOLING_ADMIT;
	}
}

int cooling_admit(const struct cooling_model *m, const struct cooling_plan *p,
		  struct cooling_admission *a, const char **why)
{
	size_t i;

	if (check_indices(p, why) < 0)
		return -1;
	a->nreasons = 0;
	a->nstagger = 0;
	a->verdict = COOLING_ADMIT;
	group_by_feeder(p, p->nhalls, 0, a->hall_group, a->hall_off);
	group_by_feeder(p, p->nstart, 1, a->start_group, a->start_off);
	hall_figures(m, p, a);
	feeder_figures(m, p, a);
	for (i = 0; i < p->nstart; i++)
		a->by_id[i] = (int)i;
	merge_sort(a->by_id, a->scratch, p->nstart, start_before, p, a);
	for (i = 0; i < p->nstart; i++)
		a->sums[i] = a->halls[p->start[a->by_id[i]].hall].step_mw;
	a->total_step_mw = cooling_sum(a->sums, p->nstart);
	if (ceiling_phase(m, p, a) || hall_phase(p, a)) {
		a->verdict = COOLING_DENY;
		return 0;
	}
	feeder_phase(p, a);
	return 0;
}
