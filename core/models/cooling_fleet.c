/*
 * cooling_fleet.c: the synthetic fleet of spec/cooling.md 5.6. Legacy sites
 * draw rung, climate and size in that order from CPython's generator, then
 * each year is measured before it grows: legacy capacity retires 2 % a
 * year and new builds of the year's rung add 15 % of the total in sites of
 * at most 20 MW. The survey averages surveyed sites; the energy-weighted
 * PUE weights by IT MW, which is why the two diverge. The growth after the
 * last measurement draws numbers nobody observes, so it is skipped.
 */
#include "core/models/cooling.h"

#include <math.h>
#include <stdlib.h>

#include "core/models/mt19937.h"
#include "core/models/par.h"

struct site {
	double it_mw;
	double pue;          /* fixed for the site's life: rung, climate, evaporative */
	int legacy;
};

struct fleet {
	struct site *s;
	size_t n, cap, max;
	double *scratch;     /* n values for the sums */
};

static int fleet_push(struct fleet *f, double it_mw, double pue, int legacy)
{
	if (f->n == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 1024;
		struct site *s;
		double *d;

		if (cap > f->max)
			cap = f->max;
		if (f->n >= cap)
			return -1;
		s = realloc(f->s, cap * sizeof *s);
		if (!s)
			return -1;
		f->s = s;
		d = realloc(f->scratch, cap * sizeof *d);
		if (!d)
			return -1;
		f->scratch = d;
		f->cap = cap;
	}
	f->s[f->n].it_mw = it_mw;
	f->s[f->n].pue = pue;
	f->s[f->n].legacy = legacy;
	f->n++;
	return 0;
}

static double site_pue(const struct cooling_model *m, int rung, int climate)
{
	return cooling_pue(m, rung, climate, 0 /* evaporative */);
}

static int new_build_rung(const struct cooling_model *m, int year)
{
	if (m->fleet.new_build_fixed >= 0)
		return m->fleet.new_build_fixed;
	if (year < 2018)
		return 1; /* contained-air */
	if (year < 2022)
		return 2; /* rear-door-hx */
	return 3;         /* direct-to-chip */
}

static double total_it(struct fleet *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		f->scratch[i] = f->s[i].it_mw;
	return cooling_sum(f->scratch, f->n);
}

static void measure(const struct cooling_model *m, struct fleet *f, int year,
		    struct cooling_year *y)
{
	size_t i, k = 0;
	double total, weighted;

	for (i = 0; i < f->n; i++)
		if (f->s[i].it_mw >= m->fleet.survey_floor_mw)
			f->scratch[k++] = f->s[i].pue;
	y->year = year;
	y->sites = f->n;
	y->surveyed = k;
	y->survey_avg = k ? cooling_sum(f->scratch, k) / (double)k : 0.0;
	total = total_it(f);
	for (i = 0; i < f->n; i++)
		f->scratch[i] = f->s[i].pue * f->s[i].it_mw;
	weighted = cooling_sum(f->scratch, f->n);
	y->it_mw = total;
	y->energy_weighted = total > 0.0 ? weighted / total : 0.0;
	if (m->fleet.collapsed)
		y->energy_weighted = y->survey_avg;
}

/* 'total' is the fleet's IT MW as measure() just summed it: the fleet has
 * not changed since, so the sum is not taken twice. */
static int grow(const struct cooling_model *m, struct fleet *f, struct mt19937 *rng,
		int year, double total)
{
	const struct cooling_fleet_params *p = &m->fleet;
	double add, keep = 1.0 - p->retirement;
	int rung = new_build_rung(m, year);
	size_t i;

	for (i = 0; i < f->n; i++)
		if (f->s[i].legacy)
			f->s[i].it_mw = f->s[i].it_mw * keep;
	add = total * p->growth;
	while (add > 0.0) {
		double mw = add < p->new_site_mw ? add : p->new_site_mw;
		int climate = p->mix[mt19937_randbelow(rng, p->nmix)];

		if (fleet_push(f, mw, site_pue(m, rung, climate), 0) < 0)
			return -1;
		add = add - mw;
	}
	return 0;
}

int cooling_simulate(const struct cooling_model *m, struct mt19937 *rng,
		     int start, int end, size_t n, size_t max_sites,
		     struct cooling_year *out)
{
	const struct cooling_fleet_params *p = &m->fleet;
	struct fleet f = { NULL, 0, 0, max_sites, NULL };
	int year, rc = -1;
	size_t i;

	for (i = 0; i < n; i++) {
		int rung = p->stock[mt19937_randbelow(rng, p->nstock)];
		int climate = p->mix[mt19937_randbelow(rng, p->nmix)];
		double it = p->legacy_mw * mt19937_uniform(rng, p->legacy_lo, p->legacy_hi);

		if (fleet_push(&f, it, site_pue(m, rung, climate), 1) < 0)
			goto done;
	}
	for (year = start; year <= end; year++) {
		struct cooling_year *y = &out[year - start];

		if (p->frozen && year > start) {
			*y = out[0];
			y->year = year;
			continue;
		}
		measure(m, &f, year, y);
		if (year < end && !p->frozen && grow(m, &f, rng, year, y->it_mw) < 0)
			goto done;
	}
	rc = 0;
done:
	free(f.s);
	free(f.scratch);
	return rc;
}

/* ---- many seeds ---------------------------------------------------------------- */

struct seeds_job {
	const struct cooling_model *m;
	int start, end;
	size_t n, max_sites;
	struct cooling_year *out;
	int *rc;               /* per seed */
};

static void one_seed(void *ctx, size_t seed)
{
	struct seeds_job *j = ctx;
	size_t years = (size_t)(j->end - j->start + 1);
	struct mt19937 rng;

	mt19937_seed_int64(&rng, (int64_t)seed);
	j->rc[seed] = cooling_simulate(j->m, &rng, j->start, j->end, j->n, j->max_sites,
				       j->out + seed * years);
}

int cooling_simulate_seeds(const struct cooling_model *m, size_t nseeds, int start,
			   int end, size_t n, size_t max_sites, struct cooling_year *out)
{
	struct seeds_job j = { m, start, end, n, max_sites, out, NULL };
	size_t i;
	int rc = 0;

	j.rc = calloc(nseeds ? nseeds : 1, sizeof *j.rc);
	if (!j.rc)
		return -1;
	par_for(nseeds, one_seed, &j);
	for (i = 0; i < nseeds; i++)
		if (j.rc[i] < 0)
			rc = -1;
	free(j.rc);
	return rc;
}
