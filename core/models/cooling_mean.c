/*
 * cooling_mean.c: statistics.mean of doubles (spec/cooling.md 5.8): the
 * mathematically exact sum divided by the count, rounded once to the
 * nearest double, ties to even. Each value is an integer mantissa times
 * 2^e with e >= -1074, so all of them fit a fixed-point integer of 2^-1074
 * units; 80 words of 32 bits hold any finite double times 2^20 values.
 * The registry's 24-seed means differ from a compensated sum / 24 in the
 * last bit (1.6448846354166666 against ...664), which is why this exists.
 */
#include "core/models/cooling.h"

#include <math.h>
#include <string.h>

#define WORDS 80
#define MAX_VALUES (1u << 20)

struct big {
	uint32_t w[WORDS]; /* least significant first */
};

/* acc += mant * 2^shift. */
static void big_add(struct big *acc, uint64_t mant, int shift)
{
	int word = shift / 32, bit = shift % 32, i;
	uint64_t carry = 0;
	uint32_t part[3];

	part[0] = (uint32_t)(mant << bit);
	part[1] = (uint32_t)((bit ? mant >> (32 - bit) : mant >> 32));
	part[2] = (uint32_t)(bit ? mant >> (64 - bit) : 0);
	for (i = word; i < WORDS; i++) {
		uint64_t s = (uint64_t)acc->w[i] + carry + (i - word < 3 ? part[i - word] : 0);

		acc->w[i] = (uint32_t)s;
		carry = s >> 32;
		if (i - word >= 2 && !carry)
			break;
	}
}

static int big_cmp(const struct big *a, const struct big *b)
{
	int i;

	for (i = WORDS - 1; i >= 0; i--)
		if (a->w[i] != b->w[i])
			return a->w[i] < b->w[i] ? -1 : 1;
	return 0;
}

/* a -= b, for a >= b. */
static void big_sub(struct big *a, const struct big *b)
{
	int64_t borrow = 0;
	int i;

	for (i = 0; i < WORDS; i++) {
		int64_t d = (int64_t)a->w[i] - b->w[i] - borrow;

		borrow = d < 0;
		a->w[i] = (uint32_t)(d + (borrow ? ((int64_t)1 << 32) : 0));
	}
}

/* a /= n; returns the remainder. */
static uint64_t big_div(struct big *a, uint64_t n)
{
	uint64_t rem = 0;
	int i;

	for (i = WORDS - 1; i >= 0; i--) {
		uint64_t cur = (rem << 32) | a->w[i];

		a->w[i] = (uint32_t)(cur / n);
		rem = cur % n;
	}
	return rem;
}

static int big_bits(const struct big *a)
{
	int i, b;

	for (i = WORDS - 1; i >= 0; i--)
		if (a->w[i])
			for (b = 31; b >= 0; b--)
				if (a->w[i] >> b & 1u)
					return i * 32 + b + 1;
	return 0;
}

static int big_bit(const struct big *a, int k)
{
	return (int)(a->w[k / 32] >> (k % 32) & 1u);
}

static int big_any_below(const struct big *a, int k)
{
	int i;

	for (i = 0; i < k / 32; i++)
		if (a->w[i])
			return 1;
	return k % 32 && (a->w[k / 32] & ((1u << (k % 32)) - 1u));
}

/* floor(a / 2^s) as a 64-bit value, for a result of at most 54 bits. */
static uint64_t big_shifted(const struct big *a, int s)
{
	uint64_t v = 0;
	int k;

	for (k = 63; k >= 0; k--)
		if (s + k < WORDS * 32)
			v = v << 1 | (uint64_t)big_bit(a, s + k);
		else
			v <<= 1;
	return v;
}

double cooling_mean_exact(const double *x, size_t n)
{
	struct big pos, neg, *q;
	uint64_t rem, top;
	int neg_result = 0, bits, s;
	size_t i;

	if (n == 0 || n > MAX_VALUES)
		return NAN;
	memset(&pos, 0, sizeof pos);
	memset(&neg, 0, sizeof neg);
	for (i = 0; i < n; i++) {
		int e;
		double f;

		if (!isfinite(x[i]))
			return NAN;
		if (x[i] == 0.0)
			continue;
		/* |x| = f * 2^e with 0.5 <= f < 1: mantissa f * 2^53 at 2^(e-53). */
		f = frexp(fabs(x[i]), &e);
		e -= 53;
		{
			uint64_t mant = (uint64_t)ldexp(f, 53);

			/* Below 2^-1074 only zero bits remain: shift them out. */
			while (e < -1074) {
				mant >>= 1;
				e++;
			}
			big_add(x[i] < 0 ? &neg : &pos, mant, e + 1074);
		}
	}
	if (big_cmp(&pos, &neg) >= 0) {
		big_sub(&pos, &neg);
		q = &pos;
	} else {
		big_sub(&neg, &pos);
		q = &neg;
		neg_result = 1;
	}
	rem = big_div(q, n);
	bits = big_bits(q);
	if (bits <= 53) {
		top = big_shifted(q, 0);
		s = 0;
		/* Round the integer quotient with the remainder. */
		if (2 * rem > n || (2 * rem == n && (top & 1u)))
			top++;
	} else {
		int round_bit, sticky;

		s = bits - 53;
		top = big_shifted(q, s);
		round_bit = big_bit(q, s - 1);
		sticky = rem != 0 || big_any_below(q, s - 1);
		if (round_bit && (sticky || (top & 1u)))
			top++;
	}
	{
		double r = ldexp((double)top, s - 1074);

		return neg_result ? -r : r;
	}
}
