/*
 * par.c: independent jobs on a few threads (par.h).
 *
 * The caller's thread works too, and it waits only for the jobs that have
 * been taken, never for a helper that has not been scheduled yet: on a
 * busy machine (a CI runner, a pre-commit hook beside a build) a helper
 * may get its first time slice only after the caller has done every job,
 * and joining it would cost that slice every call. A late helper finds no
 * job left and ends on its own; the shared record is released by whoever
 * leaves it last, so nothing of the caller's is touched after return.
 * Released records go to a spare list rather than back to malloc: a
 * helper still unscheduled when the process exits then holds no memory a
 * leak checker would call lost.
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

static struct par *spares;
static pthread_mutex_t spares_mu = PTHREAD_MUTEX_INITIALIZER;

static struct par *take_record(void)
{
	struct par *p;

	pthread_mutex_lock(&spares_mu);
	p = spares;
	if (p)
		spares = p->next_spare;
	pthread_mutex_unlock(&spares_mu);
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
		pthread_mutex_lock(&spares_mu);
		p->next_spare = spares;
		spares = p;
		pthread_mutex_unlock(&spares_mu);
	}
}

static void *helper(void *arg)
{
	struct par *p = arg;

	pthread_mutex_lock(&p->mu);
	drain(p);
	leave(p);
	return NULL;
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
	pthread_attr_t attr;
	struct par *p;

	if (cpus > 0 && want > (size_t)cpus)
		want = (size_t)cpus;
	if (want > PAR_MAX_THREADS)
		want = PAR_MAX_THREADS;
	if (want < 2 || !(p = take_record())) {
		run_serially(n, job, ctx);
		return;
	}
	p->job = job;
	p->ctx = ctx;
	p->n = n;
	p->next = 0;
	p->running = 0;
	p->refs = 1;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_mutex_lock(&p->mu);
	for (i = 1; i < want; i++) {
		pthread_t t;

		p->refs++;
		if (pthread_create(&t, &attr, helper, p) != 0)
			p->refs--;
	}
	pthread_attr_destroy(&attr);
	drain(p);
	while (p->running > 0)
		pthread_cond_wait(&p->done, &p->mu);
	leave(p);
}
