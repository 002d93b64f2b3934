/*
 * par.c: independent jobs on a few threads (par.h).
 */
#include "core/models/par.h"

#include <pthread.h>
#include <unistd.h>

#define PAR_MAX_THREADS 8

struct par {
	void (*job)(void *ctx, size_t i);
	void *ctx;
	size_t n, next;
	pthread_mutex_t mu;
};

static void *worker(void *arg)
{
	struct par *p = arg;

	for (;;) {
		size_t i;

		pthread_mutex_lock(&p->mu);
		i = p->next < p->n ? p->next++ : p->n;
		pthread_mutex_unlock(&p->mu);
		if (i >= p->n)
			return NULL;
		p->job(p->ctx, i);
	}
}

void par_for(size_t n, void (*job)(void *ctx, size_t i), void *ctx)
{
	struct par p = { job, ctx, n, 0, PTHREAD_MUTEX_INITIALIZER };
	pthread_t t[PAR_MAX_THREADS];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t want = n, started = 0, i;

	if (cpus < 1)
		cpus = 1;
	if (want > (size_t)cpus)
		want = (size_t)cpus;
	if (want > PAR_MAX_THREADS)
		want = PAR_MAX_THREADS;
	/* The calling thread is one of the workers. */
	for (i = 1; i < want; i++)
		if (pthread_create(&t[started], NULL, worker, &p) == 0)
			started++;
	worker(&p);
	for (i = 0; i < started; i++)
		pthread_join(t[i], NULL);
	pthread_mutex_destroy(&p.mu);
}
