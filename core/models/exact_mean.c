/*
 * exact_mean.c: exact means (see exact_mean.h for why). Every finite double
 * is an integer multiple of 2^-1074; a fixed-point accumulator whose least
 * significant bit is worth 2^-1126 and which is 2,240 bits wide holds the
 * largest double (2^1024) in 2,150 bits with room for 2^80 addends and a
 * sign, so the only rounding is the final one, after the division by the
 * count.
 */
#include "core/models/exact_mean.h"

#include <math.h>
#include <string.h>

#define LSB_EXP 1126 /* the accumulator's unit is 2^-LSB_EXP */
#define TOP (EXACT_SUM_LIMBS - 1)

typedef unsigned __int128 u128;

void exact_sum_init(struct exact_sum *s)
{
	memset(s, 0, sizeof *s);
}

/* limb[k..] += v (or -= v), carrying (borrowing) up to the top limb. */
static void add_at(uint64_t *limb, size_t k, u128 v, int negative)
{
	uint64_t parts[2] = { (uint64_t)v, (uint64_t)(v >> 64) };
	uint64_t carry = 0;
	size_t i;

	for (i = k; i < EXACT_SUM_LIMBS; i++) {
		uint64_t p = i - k < 2 ? parts[i - k] : 0, old = limb[i];

		if (i - k >= 2 && carry == 0)
			break;
		if (!negative) {
			u128 sum = (u128)old + p + carry;

			limb[i] = (uint64_t)sum;
			carry = (uint64_t)(sum >> 64);
		} else {
			u128 sub = (u128)p + carry;

			limb[i] = old - (uint64_t)sub;
			carry = (u128)old < sub;
		}
	}
}

void exact_sum_add(struct exact_sum *s, double x)
{
	uint64_t bits, m;
	int e, shift;

	if (!isfinite(x)) {
		s->bad = 1;
		return;
	}
	if (x == 0)
		return;
	memcpy(&bits, &x, sizeof bits);
	m = bits & 0x000fffffffffffffULL;
	e = (int)((bits >> 52) & 0x7ff);
	if (e == 0) {
		e = -1074; /* subnormal: no hidden bit */
	} else {
		m |= 1ULL << 52;
		e -= 1075;
	}
	shift = e + LSB_EXP; /* >= 52 */
	add_at(s->limb, (size_t)shift / 64, (u128)m << (shift % 64), (bits >> 63) != 0);
}

static int bit_at(const uint64_t *q, long i)
{
	if (i < 0 || i >= 64L * EXACT_SUM_LIMBS)
		return 0;
	return (int)((q[i / 64] >> (i % 64)) & 1u);
}

/* Any bit of q below position i (exclusive) set. */
static int any_below(const uint64_t *q, long i)
{
	long k;

	if (i <= 0)
		return 0;
	for (k = 0; k < i / 64; k++)
		if (q[k])
			return 1;
	return i % 64 && (q[i / 64] & ((1ULL << (i % 64)) - 1)) != 0;
}

double exact_sum_mean(const struct exact_sum *s, uint64_t n)
{
	uint64_t a[EXACT_SUM_LIMBS], q[EXACT_SUM_LIMBS], mant = 0;
	int negative = (s->limb[TOP] >> 63) != 0;
	long top = -1, lsb, i;
	u128 rem = 0;
	double r;

	if (s->bad || n == 0)
		return NAN;
	memcpy(a, s->limb, sizeof a);
	if (negative) {
		/* Magnitude by two's complement negation. */
		uint64_t carry = 1;

		for (i = 0; i < EXACT_SUM_LIMBS; i++) {
			u128 v = (u128)(uint64_t)~a[i] + carry;

			a[i] = (uint64_t)v;
			carry = (uint64_t)(v >> 64);
		}
	}
	for (i = TOP; i >= 0; i--) {
		u128 cur = (rem << 64) | a[i];

		q[i] = (uint64_t)(cur / n);
		rem = cur % n;
	}
	for (i = 64L * EXACT_SUM_LIMBS - 1; i >= 0; i--)
		if (bit_at(q, i)) {
			top = i;
			break;
		}
	if (top < 0)
		return 0.0; /* below 2^-1126: rounds to zero */
	/* 53 significant bits, or fewer where the result is subnormal (its
	 * unit 2^-1074 is bit 52 of the accumulator). */
	lsb = top - 52 < 52 ? 52 : top - 52;
	for (i = top; i >= lsb; i--)
		mant = (mant << 1) | (uint64_t)bit_at(q, i);
	if (bit_at(q, lsb - 1) && (any_below(q, lsb - 1) || rem != 0 || (mant & 1)))
		mant++;
	r = ldexp((double)mant, (int)(lsb - LSB_EXP));
	return negative ? -r : r;
}

double exact_mean(const double *x, size_t n)
{
	struct exact_sum s;
	size_t i;

	exact_sum_init(&s);
	for (i = 0; i < n; i++)
		exact_sum_add(&s, x[i]);
	return exact_sum_mean(&s, (uint64_t)n);
}
