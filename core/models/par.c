/*
 * par.c: independent jobs on a few threads (par.h).
 *
 * The caller's thread works too, and it waits only for the jobs that have
 * been taken, never for a helper that has not been scheduled yet: on a
 * busy machine (a CI runner, a pre-commit hook beside a build) a helper
 * may get its first time slice only after the caller has done every job,
 * and joining it there would cost that slice every call. A late helper
 * finds no job left and ends on its own; the shared record is released by
 * whoever leaves it last, so nothing of the caller's is touched after
 * return.
 *
 * Helpers are joined later instead: a finished one at the next call, and
 * every one still out when the process exits (atexit), so that no thread
 * outlives main and a leak checker sees every thread's memory returned.
 * Released records go to a spare list rather than back to malloc.
 */
#include "core/models/par.h"

#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>

#define PAR_MAX_THREADS 8

struct par {
	struct par *next_spare;
	void (*job)(void *ctx, size_t i);
	void *ctx;
	size_t n, next;
	size_t running;       /* jobs taken and not finished */
	size_t refs;          /* the caller and every helper that started */
	pthread_mutex_t mu;
	pthread_cond_t done;  /* running fell to 0 */
};

/* A helper thread not joined yet; 'finished' once it touches nothing. */
struct helper {
	pthread_t t;
	int finished;
};

/* The spare records and the helpers not joined yet. */
static struct par *spares;
static struct helper *helpers;
static size_t nhelpers, helpers_cap;
static pthread_mutex_t global_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t at_exit_once = PTHREAD_ONCE_INIT;

/* Take and run jobs until none is left. Called with p->mu held; returns
 * with it held. */
static void drain(struct par *p)
{
	while (p->next < p->n) {
		size_t i = p->next++;

		p->running++;
		pthread_mutex_unlock(&p->mu);
		p->job(p->ctx, i);
		pthread_mutex_lock(&p->mu);
		if (--p->running == 0 && p->next >= p->n)
			pthread_cond_broadcast(&p->done);
	}
}

static struct par *take_record(void)
{
	struct par *p;

	pthread_mutex_lock(&global_mu);
	p = spares;
	if (p)
		spares = p->next_spare;
	pthread_mutex_unlock(&global_mu);
	if (!p) {
		p = calloc(1, sizeof *p);
		if (!p)
			return NULL;
		pthread_mutex_init(&p->mu, NULL);
		pthread_cond_init(&p->done, NULL);
	}
	return p;
}

/* Drop one reference; the last one returns the record to the spares.
 * Called with p->mu held; releases it. */
static void leave(struct par *p)
{
	int last = --p->refs == 0;

	pthread_mutex_unlock(&p->mu);
	if (last) {
		pthread_mutex_lock(&global_mu);
		p->next_spare = spares;
		spares = p;
		pthread_mutex_unlock(&global_mu);
	}
}

static void *helper(void *arg)
{
	struct par *p = arg;
	pthread_t self = pthread_self();
	size_t i;

	pthread_mutex_lock(&p->mu);
	drain(p);
	leave(p);
	pthread_mutex_lock(&global_mu);
	for (i = 0; i < nhelpers; i++)
		if (pthread_equal(helpers[i].t, self))
			helpers[i].finished = 1;
	pthread_mutex_unlock(&global_mu);
	return NULL;
}

/* Join the helpers that have finished ('all': every one, waiting for those
 * still out). Only the thread that joins takes a helper off the list. */
static void reap(int all)
{
	for (;;) {
		pthread_t t;
		size_t i;
		int found = 0;

		pthread_mutex_lock(&global_mu);
		for (i = 0; i < nhelpers; i++)
			if (all || helpers[i].finished) {
				t = helpers[i].t;
				helpers[i] = helpers[--nhelpers];
				found = 1;
				break;
			}
		pthread_mutex_unlock(&global_mu);
		if (!found)
			return;
		pthread_join(t, NULL);
	}
}

static void reap_all(void)
{
	reap(1);
	pthread_mutex_lock(&global_mu);
	free(helpers);
	helpers = NULL;
	nhelpers = helpers_cap = 0;
	pthread_mutex_unlock(&global_mu);
}

static void register_at_exit(void)
{
	atexit(reap_all);
}

/* Start one helper on 'p' and list it; 0 when it could not start. */
static int start_helper(struct par *p)
{
	pthread_t t;
	int ok = 0;

	pthread_mutex_lock(&global_mu);
	if (nhelpers == helpers_cap) {
		size_t cap = helpers_cap ? helpers_cap * 2 : 8;
		struct helper *v = realloc(helpers, cap * sizeof *v);

		if (v) {
			helpers = v;
			helpers_cap = cap;
		}
	}
	/* Listed before it runs, under the lock it takes to mark itself. */
	if (nhelpers < helpers_cap && pthread_create(&t, NULL, helper, p) == 0) {
		helpers[nhelpers].t = t;
		helpers[nhelpers].finished = 0;
		nhelpers++;
		ok = 1;
	}
	pthread_mutex_unlock(&global_mu);
	return ok;
}

static void run_serially(size_t n, void (*job)(void *ctx, size_t i), void *ctx)
{
	size_t i;

	for (i = 0; i < n; i++)
		job(ctx, i);
}

void par_for(size_t n, void (*job)(void *ctx, size_t i), void *ctx)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t want = n, i;
	struct par *p;

	if (cpus > 0 && want > (size_t)cpus)
		want = (size_t)cpus;
	if (want > PAR_MAX_THREADS)
		want = PAR_MAX_THREADS;
	if (want < 2 || !(p = take_record())) {
		run_serially(n, job, ctx);
		return;
	}
	pthread_once(&at_exit_once, register_at_exit);
	reap(0);
	p->job = job;
	p->ctx = ctx;
	p->n = n;
	p->next = 0;
	p->running = 0;
	p->refs = 1;
	pthread_mutex_lock(&p->mu);
	for (i = 1; i < want; i++) {
		p->refs++;
		if (!start_helper(p))
			p->refs--;
	}
	drain(p);
	while (p->running > 0)
		pthread_cond_wait(&p->done, &p->mu);
	leave(p);
}
