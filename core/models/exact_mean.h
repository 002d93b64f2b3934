/*
 * exact_mean.h: the exact arithmetic mean of doubles, as Python's
 * statistics.mean (and a math.fsum-exact sum) computes it: the sum is kept
 * exactly in a fixed-point accumulator wide enough for any finite double,
 * divided by the count and rounded once to the nearest double, ties to
 * even. Why exactness matters: the packs' figures must match the Python
 * references to the last bit, and summing in order then dividing differs
 * in the last bit for some inputs (cooling's 24-seed survey mean gives
 * 1.6448846354166664 naively against the reference's ...666). Pure C,
 * numbers in, numbers out; used by cooling, power and reliability
 * (spec/cooling.md 5.8, spec/power.md 5.9, spec/reliability.md 5.9).
 */
#ifndef INFRAGATE_MODELS_EXACT_MEAN_H
#define INFRAGATE_MODELS_EXACT_MEAN_H

#include <stddef.h>
#include <stdint.h>

#define EXACT_SUM_LIMBS 35

/* An exact running sum, owned by the caller (no allocation); zero it with
 * exact_sum_init. Holds any sum of up to 2^80 finite doubles exactly. */
struct exact_sum {
	uint64_t limb[EXACT_SUM_LIMBS]; /* two's complement, lsb = 2^-1126 */
	int bad;                        /* a NaN or an infinity was added */
};

void exact_sum_init(struct exact_sum *s);
void exact_sum_add(struct exact_sum *s, double x);

/* The sum divided by n >= 1, correctly rounded (subnormal results
 * included); NaN after a non-finite value or for n = 0. An exact zero is
 * +0.0, as statistics.mean gives. */
double exact_sum_mean(const struct exact_sum *s, uint64_t n);

/* The exact mean of x[0..n-1]; NaN for n = 0 or a non-finite value. */
double exact_mean(const double *x, size_t n);

#endif
