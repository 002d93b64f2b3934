/*
 * resiliency_batch.c: independent simulations on threads (spec/resiliency.md
 * 5.13, 9). The five rungs of a ladder, or the 40 rung x seed runs and two
 * grid-hour runs of the validation registry, share nothing: each job has
 * its own generator and scratch lists, so a job's figures are exactly those
 * of running it alone, whatever the number of threads or their timing.
 * Jobs are handed out heaviest first (an estimate of their draws), so the
 * longest one does not start last.
 *
 * No state survives the call (par.c keeps only spare records); the caller
 * owns the jobs and their results.
 */
#include "core/models/resiliency.h"

#include <stdlib.h>

#include "core/models/par.h"

struct batch {
	struct rs_job *jobs;
	size_t *order;           /* job indices, heaviest first */
};

static void run_job(struct rs_job *j)
{
	diag_init(&j->err);
	if (j->kind == RS_JOB_GRID_HOURS)
		j->failed = rs_grid_hours(j->storm, j->power, j->years, j->seed,
					  &j->grid_hours, &j->err) < 0;
	else
		j->failed = rs_simulate(j->policy, j->storm, j->years, j->seed,
					j->variant, &j->result, &j->err) < 0;
}

/* par_for hands out indices in order; the order array makes that the
 * heaviest job first. */
static void run_ordered(void *ctx, size_t i)
{
	struct batch *b = ctx;

	run_job(&b->jobs[b->order[i]]);
}

/* Expected random() calls per simulated year, roughly: every Poisson
 * count costs its events plus one. */
static double weight(const struct rs_job *j)
{
	double w = j->storm->rate_per_year + 2.0;
	size_t k, m;

	if (j->kind == RS_JOB_GRID_HOURS)
		return (w + j->power->routine_outages_per_year) * (double)j->years;
	w += j->policy->power.routine_outages_per_year +
	     j->policy->timing.gnss_events_per_year;
	for (k = 0; k < j->policy->ninst; k++)
		for (m = 0; m < j->policy->inst[k]->nmodes; m++)
			w += 2.0 * j->policy->inst[k]->modes[m].rate_per_year + 1.0;
	return w * (double)j->years;
}

static int by_weight(const void *a, const void *b, const struct rs_job *jobs)
{
	double wa = weight(&jobs[*(const size_t *)a]);
	double wb = weight(&jobs[*(const size_t *)b]);

	if (wa != wb)
		return wa > wb ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* Insertion sort: qsort has no context argument in C11, and batches are
 * small (RS_MAX_JOBS). */
static void sort_order(size_t *order, size_t n, const struct rs_job *jobs)
{
	size_t i, k;

	for (i = 1; i < n; i++) {
		size_t x = order[i];

		for (k = i; k > 0 && by_weight(&x, &order[k - 1], jobs) < 0; k--)
			order[k] = order[k - 1];
		order[k] = x;
	}
}

int rs_batch(struct rs_job *jobs, size_t n, struct diag *err)
{
	struct batch b;
	size_t i;

	if (n > RS_MAX_JOBS) {
		diag_set(err, DIAG_E_ERROR, 0, 0, "a batch holds at most %d jobs",
			 RS_MAX_JOBS);
		return -1;
	}
	b.jobs = jobs;
	b.order = malloc((n + 1) * sizeof *b.order);
	if (!b.order) {
		diag_set(err, DIAG_E_NOMEM, 0, 0, "the batch ran out of memory");
		return -1;
	}
	for (i = 0; i < n; i++)
		b.order[i] = i;
	sort_order(b.order, n, jobs);
	par_for(n, run_ordered, &b);
	free(b.order);
	for (i = 0; i < n; i++)
		if (jobs[i].failed) {
			*err = jobs[i].err;
			return -1;
		}
	return 0;
}
