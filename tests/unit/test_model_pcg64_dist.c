/*
 * test_model_pcg64_dist.c: the scheduling samplers of core/models/
 * pcg64_dist.c against the NumPy 1.24 vectors of spec/scheduling.md 5.8.7
 * (each from a fresh default_rng(0)), plus the edges of 5.8.2-5.8.4: no
 * draw for lam 0, n 0 or p 0, and the BTPE regime refused.
 */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <math.h>

#include "core/models/pcg64_dist.h"

static const double size_p[10] = { 0.42, 0.13, 0.13,  0.18,  0.05,
				   0.04, 0.025, 0.015, 0.007, 0.003 };
static const int size_gpus[10] = { 1, 2, 4, 8, 16, 32, 64, 128, 256, 512 };

Test(pcg64_dist, poisson_multiplication)
{
	static const int64_t want[8] = { 1, 0, 0, 2, 1, 2, 1, 1 };
	struct pcg64 g;
	int i;

	pcg64_seed_u64(&g, 0);
	for (i = 0; i < 8; i++)
		cr_assert(eq(i64, pcg64_poisson(&g, 0.5), want[i]));
}

Test(pcg64_dist, poisson_ptrs)
{
	static const int64_t want[6] = { 19, 7, 19, 22, 22, 20 };
	struct pcg64 g;
	int i;

	pcg64_seed_u64(&g, 0);
	for (i = 0; i < 6; i++)
		cr_assert(eq(i64, pcg64_poisson(&g, 17.3), want[i]));
}

Test(pcg64_dist, poisson_zero_draws_nothing)
{
	struct pcg64 g, h;

	pcg64_seed_u64(&g, 0);
	pcg64_seed_u64(&h, 0);
	cr_assert(eq(i64, pcg64_poisson(&g, 0.0), 0));
	cr_assert(eq(u64, pcg64_next64(&g), pcg64_next64(&h)));
}

Test(pcg64_dist, binomial_inversion)
{
	static const int64_t want[8] = { 7, 5, 3, 2, 8, 9, 6, 7 };
	struct pcg64 g;
	int i;

	pcg64_seed_u64(&g, 0);
	for (i = 0; i < 8; i++)
		cr_assert(eq(i64, pcg64_binomial(&g, 20, 0.3), want[i]));
}

Test(pcg64_dist, binomial_upper_branch)
{
	static const int64_t want[6] = { 44, 46, 48, 49, 43, 42 };
	struct pcg64 g;
	int i;

	pcg64_seed_u64(&g, 0);
	for (i = 0; i < 6; i++)
		cr_assert(eq(i64, pcg64_binomial(&g, 50, 0.9), want[i]));
}

Test(pcg64_dist, binomial_edges)
{
	struct pcg64 g, h;

	pcg64_seed_u64(&g, 0);
	pcg64_seed_u64(&h, 0);
	cr_assert(eq(i64, pcg64_binomial(&g, 0, 0.5), 0));
	cr_assert(eq(i64, pcg64_binomial(&g, 100, 0.0), 0));
	cr_assert(eq(u64, pcg64_next64(&g), pcg64_next64(&h)));
	cr_assert(pcg64_binomial_is_btpe(100, 0.31));
	cr_assert(not(pcg64_binomial_is_btpe(100, 0.3)));
	cr_assert(pcg64_binomial_is_btpe(100, 0.69));
	cr_assert(eq(i64, pcg64_binomial(&g, 1000, 0.5), -1));
}

Test(pcg64_dist, choice_size_table)
{
	static const int want[10] = { 4, 1, 1, 1, 8, 32, 4, 8, 2, 32 };
	struct pcg64 g;
	int i;

	pcg64_seed_u64(&g, 0);
	for (i = 0; i < 10; i++)
		cr_assert(eq(int, size_gpus[pcg64_choice(&g, size_p, 10)], want[i]));
}

Test(pcg64_dist, lognormal)
{
	static const double want[4] = { 17.69306755171332, 14.395344153189646,
					26.70703042635985, 17.400671822475456 };
	struct pcg64 g;
	int i;

	pcg64_seed_u64(&g, 0);
	for (i = 0; i < 4; i++)
		cr_assert(eq(dbl, pcg64_lognormal(&g, log(16.0), 0.8), want[i]));
}

Test(pcg64_dist, loggam)
{
	cr_assert(eq(dbl, pcg64_loggam(1.0), 0.0));
	cr_assert(eq(dbl, pcg64_loggam(2.0), 0.0));
	/* log(3!) = log 6 and log(9!) = log 362880, to the series' accuracy. */
	cr_assert(ieee_ulp_eq(dbl, pcg64_loggam(4.0), log(6.0), 8));
	cr_assert(ieee_ulp_eq(dbl, pcg64_loggam(10.0), log(362880.0), 8));
}
