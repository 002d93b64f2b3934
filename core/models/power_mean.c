/*
 * power_mean.c: the exact mean of doubles (spec/power.md 5.9, spec/
 * reliability.md 5.9), as Python's statistics.mean computes it: the exact
 * sum in a fixed-point accumulator wide enough for any finite double, one
 * long division by the count, one rounding to nearest-even. Summing in
 * order and dividing differs in the last bit for some seed sets.
 */
#include "core/models/power.h"

#include <math.h>

#define LIMBS 36    /* 2304 bits: any double, plus room for 2^90 addends */
#define LSB_EXP -1126 /* the accumulator's least significant bit is 2^-1126 */

/* acc += sign x m x 2^shift, in two's complement over LIMBS limbs. */
static void add_shifted(uint64_t *acc, uint64_t m, int shift, int negative)
{
	uint64_t part[LIMBS] = { 0 };
	int limb = shift / 64, bit = shift % 64, i;
	unsigned __int128 carry;

	part[limb] = m << bit;
	if (bit && limb + 1 < LIMBS)
		part[limb + 1] = m >> (64 - bit);
	if (negative) {
		/* Two's complement of part: invert and add one. */
		carry = 1;
		for (i = 0; i < LIMBS; i++) {
			carry += (unsigned __int128)(uint64_t)~part[i];
			part[i] = (uint64_t)carry;
			carry >>= 64;
		}
	}
	carry = 0;
	for (i = 0; i < LIMBS; i++) {
		carry += (unsigned __int128)acc[i] + part[i];
		acc[i] = (uint64_t)carry;
		carry >>= 64;
	}
}

/* Bit i of the accumulator. */
static int bit_at(const uint64_t *a, int i)
{
	return (int)((a[i / 64] >> (i % 64)) & 1u);
}

double pw_mean_exact(const double *x, size_t n)
{
	uint64_t acc[LIMBS] = { 0 };
	unsigned __int128 rem = 0;
	int negative, i, top, lo, sticky = 0;
	uint64_t mant = 0;
	size_t k;

	if (n == 0)
		return NAN;
	for (k = 0; k < n; k++) {
		int e;
		double f = frexp(fabs(x[k]), &e); /* |x| = f x 2^e, f in [0.5, 1) */
		uint64_t m;
		int shift;

		if (f == 0)
			continue;
		/* m x 2^(e - 53) with m a 53-bit integer; subnormals keep fewer bits
		 * but stay exact since e - 53 >= -1126. */
		m = (uint64_t)ldexp(f, 53);
		shift = (e - 53) - LSB_EXP;
		add_shifted(acc, m, shift, x[k] < 0);
	}
	negative = (int)(acc[LIMBS - 1] >> 63);
	if (negative) {
		unsigned __int128 carry = 1;

		for (i = 0; i < LIMBS; i++) {
			carry += (unsigned __int128)(uint64_t)~acc[i];
			acc[i] = (uint64_t)carry;
			carry >>= 64;
		}
	}
	/* Long division by n, from the top limb down. */
	for (i = LIMBS - 1; i >= 0; i--) {
		unsigned __int128 cur = (rem << 64) | acc[i];

		acc[i] = (uint64_t)(cur / n);
		rem = cur % n;
	}
	for (top = LIMBS * 64 - 1; top >= 0 && !bit_at(acc, top); top--)
		;
	if (top < 0)
		return 0.0;
	/* Keep 54 bits (53 and the rounding bit); the rest and the remainder
	 * are sticky. Results are far from the subnormal range here. */
	lo = top - 53 > 0 ? top - 53 : 0;
	for (i = top; i >= lo; i--)
		mant = (mant << 1) | (uint64_t)bit_at(acc, i);
	if (rem)
		sticky = 1;
	for (i = lo - 1; i >= 0 && !sticky; i--)
		sticky = bit_at(acc, i);
	if (top - lo == 53) {
		int round_bit = (int)(mant & 1u);

		mant >>= 1;
		lo++;
		if (round_bit && (sticky || (mant & 1u)))
			mant++;
	}
	return (negative ? -1.0 : 1.0) * ldexp((double)mant, lo + LSB_EXP);
}
