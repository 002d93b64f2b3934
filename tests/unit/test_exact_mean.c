/*
 * test_exact_mean.c: the shared exact mean (core/models/exact_mean.h)
 * against Python's statistics.mean, the figures cooling, power and
 * reliability print. Exact double equality is on purpose: the point of the
 * module is the last bit. Each expected value is what CPython 3.12 gives
 * for statistics.mean of the same list.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/models/exact_mean.h"

/* Bitwise equality: tells 0.0 from -0.0 and needs no tolerance. */
static int same(double a, double b)
{
	return memcmp(&a, &b, sizeof a) == 0;
}

Test(exact_mean, beats_the_naive_sum)
{
	static const double tenths[] = { 0.1, 0.2, 0.3 };
	static const double month[] = { 0.0341, 0.0341 };

	/* statistics.mean([0.1, 0.2, 0.3]) is 0.2; the naive sum gives
	 * 0.20000000000000004. */
	cr_assert((0.1 + 0.2 + 0.3) / 3 != 0.2);
	cr_assert(same(exact_mean(tenths, 3), 0.2));
	cr_assert(same(exact_mean(month, 2), 0.0341));
	cr_assert(same(exact_mean((const double[]){ 1.0, 2.0 }, 2), 1.5));
}

Test(exact_mean, empty_and_one_element)
{
	static const double one[] = { 0.1 };

	cr_assert(isnan(exact_mean(one, 0)));
	cr_assert(same(exact_mean(one, 1), 0.1));
	cr_assert(same(exact_mean((const double[]){ -7.25 }, 1), -7.25));
	cr_assert(same(exact_mean((const double[]){ -0.0 }, 1), 0.0)); /* Python: 0.0 */
}

Test(exact_mean, huge_and_tiny_magnitudes)
{
	static const double max2[] = { 1.7976931348623157e308, 1.7976931348623157e308 };
	static const double huge[] = { 1e308, 1e308 };
	static const double least[] = { 5e-324, 0.0 };
	static const double least3[] = { 5e-324, 5e-324, 5e-324 };

	cr_assert(same(exact_mean(max2, 2), 1.7976931348623157e308)); /* no overflow */
	cr_assert(same(exact_mean(huge, 2), 1e308));
	/* Half the least subnormal, 2^-1075: a tie, to even (zero). */
	cr_assert(same(exact_mean(least, 2), 0.0));
	cr_assert(same(exact_mean(least3, 3), 5e-324));
	/* A subnormal mean keeps its last bit: (3 + 4) x 2^-1074 / 2 = 3.5 units,
	 * a tie rounded to even (4 units). */
	cr_assert(same(exact_mean((const double[]){ 3 * 5e-324, 4 * 5e-324 }, 2), 4 * 5e-324));
}

Test(exact_mean, cancellation)
{
	static const double mixed[] = { 1e16, 1.0, -1e16, 1.0 };
	static const double cancel[] = { 1e300, 1.0, -1e300, 2.0 };
	static const double zero[] = { 1e308, -1e308, 5e-324, -5e-324 };

	cr_assert((1e16 + 1.0 - 1e16 + 1.0) / 4 != 0.5); /* the naive sum loses a 1 */
	cr_assert(same(exact_mean(mixed, 4), 0.5));
	cr_assert(same(exact_mean(cancel, 4), 0.75));
	cr_assert(same(exact_mean(zero, 4), 0.0)); /* an exact zero is +0.0 */
	cr_assert(same(exact_mean((const double[]){ -1.5, -2.5, -3.5 }, 3), -2.5));
	cr_assert(same(exact_mean((const double[]){ -1.5, 0.5 }, 2), -0.5));
}

/* The running-sum form (reliability's seed means) on a long list whose naive
 * sum drifts; cooling's 24-seed registry mean is pinned in
 * test_model_cooling.c. */
Test(exact_mean, running_sum_matches_the_array_form)
{
	struct exact_sum s;
	double x[1000], naive = 0.0;
	int i;

	exact_sum_init(&s);
	for (i = 0; i < 1000; i++) {
		x[i] = 0.1;
		naive += 0.1;
		exact_sum_add(&s, 0.1);
	}
	cr_assert(naive / 1000 != 0.1);
	cr_assert(same(exact_sum_mean(&s, 1000), 0.1));
	cr_assert(same(exact_mean(x, 1000), 0.1));
	cr_assert(isnan(exact_sum_mean(&s, 0)));
}

Test(exact_mean, refuses_non_finite)
{
	struct exact_sum s;

	exact_sum_init(&s);
	exact_sum_add(&s, 1.0);
	exact_sum_add(&s, NAN);
	cr_assert(isnan(exact_sum_mean(&s, 2)));
	cr_assert(isnan(exact_mean((const double[]){ 1.0, INFINITY }, 2)));
	cr_assert(isnan(exact_mean((const double[]){ -INFINITY, 1.0 }, 2)));
}
