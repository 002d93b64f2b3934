/*
 * reliability_mean.h: the exact arithmetic mean of doubles (spec/
 * reliability.md 5.9), as Python's statistics.mean computes it: the sum
 * is kept exactly in a 2,240-bit fixed-point accumulator, divided by the
 * count and rounded once to the nearest double (ties to even). Summing in
 * order and dividing differs in the last bit for some inputs. Independent
 * of any generator; any model may use it.
 */
#ifndef INFRAGATE_MODELS_RELIABILITY_MEAN_H
#define INFRAGATE_MODELS_RELIABILITY_MEAN_H

#include <stddef.h>
#include <stdint.h>

#define EXACT_SUM_LIMBS 35

/* An exact running sum; zero it with rel_exact_sum_init. */
struct rel_exact_sum {
	uint64_t limb[EXACT_SUM_LIMBS]; /* two's complement, lsb = 2^-1126 */
	int bad;                        /* a NaN or an infinity was added */
};

void rel_exact_sum_init(struct rel_exact_sum *s);
void rel_exact_sum_add(struct rel_exact_sum *s, double x);

/* The sum divided by n >= 1, correctly rounded; NaN after a non-finite
 * value or for n = 0. */
double rel_exact_sum_mean(const struct rel_exact_sum *s, uint64_t n);

/* The exact mean of x[0..n-1]; NaN for n = 0. */
double rel_exact_mean(const double *x, size_t n);

#endif
