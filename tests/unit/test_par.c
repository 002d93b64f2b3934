/*
 * test_par.c: the job runner of core/models/par.c: every job runs exactly
 * once, on any number of jobs, also when two callers share it at once.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdlib.h>

#include "core/models/par.h"

struct counts {
	size_t n;
	int *runs;
};

static void count_job(void *ctx, size_t i)
{
	struct counts *c = ctx;

	cr_assert(i < c->n);
	__atomic_add_fetch(&c->runs[i], 1, __ATOMIC_RELAXED);
}

static void run_and_check(size_t n)
{
	struct counts c = { n, calloc(n ? n : 1, sizeof(int)) };
	size_t i;

	cr_assert_not_null(c.runs);
	par_for(n, count_job, &c);
	for (i = 0; i < n; i++)
		cr_assert_eq(c.runs[i], 1, "job %zu of %zu ran %d times", i, n, c.runs[i]);
	free(c.runs);
}

Test(par, every_job_once)
{
	static const size_t sizes[] = { 0, 1, 2, 3, 7, 64, 1000 };
	size_t k;

	for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
		run_and_check(sizes[k]);
}

static void *caller(void *arg)
{
	size_t round;

	(void)arg;
	for (round = 0; round < 50; round++)
		run_and_check(37);
	return NULL;
}

Test(par, two_callers_at_once)
{
	pthread_t a, b;

	cr_assert_eq(pthread_create(&a, NULL, caller, NULL), 0);
	cr_assert_eq(pthread_create(&b, NULL, caller, NULL), 0);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
}
