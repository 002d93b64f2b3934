/*
 * scheduling_stdev.c: the grid's sample standard deviation (spec
 * scheduling.md 4.5) as Python 3.11's statistics.stdev computes it: the
 * exact sample variance (n x sum x^2 - (sum x)^2) / (n (n - 1)) of the
 * doubles, and its correctly rounded square root (ties to even). A double
 * estimate is corrected by exact comparisons against the midpoints around
 * it, in integers: every double is M x 2^k, so scaled by a common 2^-K all
 * the terms are integers of at most ~4,400 bits (the widest spread of
 * finite doubles, squared).
 */
#include "core/models/scheduling.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define LIMBS 72 /* 4,608 bits */

typedef unsigned __int128 u128;

struct big {
	uint64_t l[LIMBS];
};

static void big_add_u128_at(struct big *b, u128 v, unsigned shift)
{
	size_t k = shift / 64;
	unsigned s = shift % 64;
	uint64_t w[3] = { (uint64_t)(v << s), 0, 0 };
	u128 hi = s ? v >> (64 - s) : 0;
	uint64_t carry = 0;
	size_t i;

	w[1] = s ? (uint64_t)hi : (uint64_t)(v >> 64);
	w[2] = s ? (uint64_t)(hi >> 64) : 0;
	for (i = 0; k + i < LIMBS && (i < 3 || carry); i++) {
		u128 t = (u128)b->l[k + i] + (i < 3 ? w[i] : 0) + carry;

		b->l[k + i] = (uint64_t)t;
		carry = (uint64_t)(t >> 64);
	}
}

/* a -= b, a >= b. */
static void big_sub(struct big *a, const struct big *b)
{
	uint64_t borrow = 0;
	size_t i;

	for (i = 0; i < LIMBS; i++) {
		uint64_t bi = b->l[i] + borrow;
		uint64_t nb = (bi < borrow) || (a->l[i] < bi);

		a->l[i] -= bi;
		borrow = nb;
	}
}

static int big_cmp(const struct big *a, const struct big *b)
{
	size_t i = LIMBS;

	while (i-- > 0)
		if (a->l[i] != b->l[i])
			return a->l[i] < b->l[i] ? -1 : 1;
	return 0;
}

static void big_mul_u64(struct big *a, uint64_t k)
{
	uint64_t carry = 0;
	size_t i;

	for (i = 0; i < LIMBS; i++) {
		u128 t = (u128)a->l[i] * k + carry;

		a->l[i] = (uint64_t)t;
		carry = (uint64_t)(t >> 64);
	}
}

static size_t big_used(const struct big *a)
{
	size_t n = LIMBS;

	while (n > 0 && a->l[n - 1] == 0)
		n--;
	return n;
}

/* out = a x b (the caller's widths keep the product inside LIMBS). */
static void big_mul(const struct big *a, const struct big *b, struct big *out)
{
	size_t na = big_used(a), nb = big_used(b), i, j;

	memset(out, 0, sizeof *out);
	for (i = 0; i < na; i++) {
		uint64_t carry = 0;

		for (j = 0; j < nb && i + j < LIMBS; j++) {
			u128 t = (u128)a->l[i] * b->l[j] + out->l[i + j] + carry;

			out->l[i + j] = (uint64_t)t;
			carry = (uint64_t)(t >> 64);
		}
		if (i + j < LIMBS)
			out->l[i + j] = carry;
	}
}

/* |x| = m x 2^k with m < 2^53; m = 0 for a zero. */
static void split(double x, uint64_t *m, int *k)
{
	int e;
	double f = frexp(fabs(x), &e);

	*m = (uint64_t)ldexp(f, 53);
	*k = e - 53;
}

/* The least exponent k of the values v[0..n) and a, b written m x 2^k
 * (zeros have none); 0 when all are zero. */
static int least_exponent(const double *v, size_t n, double a, double b)
{
	uint64_t m;
	int k, kmin = 0, first = 1;
	size_t i;

	for (i = 0; i < n + 2; i++) {
		double x = i < n ? v[i] : (i == n ? a : b);

		if (x == 0.0)
			continue;
		split(x, &m, &k);
		if (first || k < kmin)
			kmin = k;
		first = 0;
	}
	return kmin;
}

/* out = n x sum X^2 - (sum X)^2 with X = x / 2^kmin: the exact variance
 * times n (n - 1) 2^(-2 kmin). */
static void variance_numerator(const double *x, size_t n, int kmin, struct big *out)
{
	struct big pos, neg, sx2;
	uint64_t m;
	int k;
	size_t i;

	memset(&pos, 0, sizeof pos);
	memset(&neg, 0, sizeof neg);
	memset(out, 0, sizeof *out);
	for (i = 0; i < n; i++) {
		if (x[i] == 0.0)
			continue;
		split(x[i], &m, &k);
		big_add_u128_at(x[i] < 0 ? &neg : &pos, m, (unsigned)(k - kmin));
		big_add_u128_at(out, (u128)m * m, 2u * (unsigned)(k - kmin));
	}
	/* (sum X)^2 from |P - N|. */
	if (big_cmp(&pos, &neg) < 0) {
		struct big t = neg;

		big_sub(&t, &pos);
		pos = t;
	} else {
		big_sub(&pos, &neg);
	}
	big_mul(&pos, &pos, &sx2);
	big_mul_u64(out, (uint64_t)n);
	big_sub(out, &sx2);
}

/* The sign of V - ((a + b) / 2)^2 for the exact sample variance V of
 * x[0..n) and doubles 0 <= a <= b. */
static int variance_vs_midpoint(const double *x, size_t n, double a, double b)
{
	struct big left, right, ab;
	uint64_t m;
	int k, kmin = least_exponent(x, n, a, b);

	variance_numerator(x, n, kmin, &left);
	big_mul_u64(&left, 4);
	memset(&ab, 0, sizeof ab);
	if (a != 0.0) {
		split(a, &m, &k);
		big_add_u128_at(&ab, m, (unsigned)(k - kmin));
	}
	split(b, &m, &k);
	big_add_u128_at(&ab, m, (unsigned)(k - kmin));
	big_mul(&ab, &ab, &right);
	big_mul_u64(&right, (uint64_t)n * (uint64_t)(n - 1));
	return big_cmp(&left, &right);
}

static int even(double v)
{
	uint64_t m;
	int k;

	split(v, &m, &k);
	return (m & 1) == 0;
}

/* A double within an ulp or two of sqrt(V): the exact numerator's top 64
 * bits, divided and square-rooted in double, scaled back by powers of two
 * (no overflow or underflow on the way for any finite input). */
static double estimate(const double *x, size_t n)
{
	struct big num;
	int kmin = least_exponent(x, n, 0.0, 0.0), e;
	size_t used, i;
	unsigned top;
	u128 w;
	double u;

	variance_numerator(x, n, kmin, &num);
	used = big_used(&num);
	if (used == 0)
		return 0.0;
	/* num = w x 2^e, w its leading (up to) 128 bits. */
	i = used - 1;
	w = ((u128)num.l[i] << 64) | (i > 0 ? num.l[i - 1] : 0);
	e = (int)(64 * (i > 0 ? i - 1 : 0));
	if (i == 0)
		w >>= 64;
	top = 0;
	while (w >> 64 != 0) {
		w >>= 1;
		top++;
	}
	e += (int)top;
	u = (double)(uint64_t)w;
	if (e % 2 != 0) {
		u *= 2.0;
		e -= 1;
	}
	return ldexp(sqrt(u / ((double)n * (double)(n - 1))), e / 2 + kmin);
}

double sched_stdev(const double *x, size_t n)
{
	double c;
	size_t i;
	int step;

	if (n < 2)
		return 0.0;
	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return NAN;
	c = estimate(x, n);
	if (isinf(c))
		c = DBL_MAX;    /* a deviation near the largest double (never a metric) */
	/* Walk to the double whose rounding interval holds sqrt(V): a few
	 * steps at most from an estimate this close. */
	for (step = 0; step < 64; step++) {
		double hi = nextafter(c, HUGE_VAL), lo;
		int up = c == DBL_MAX ? -1 : variance_vs_midpoint(x, n, c, hi);

		if (up > 0) {
			c = hi;
			continue;
		}
		if (up == 0)
			return even(c) ? c : hi;
		if (c == 0.0)
			return c;
		lo = nextafter(c, 0.0);
		up = variance_vs_midpoint(x, n, lo, c);
		if (up < 0) {
			c = lo;
			continue;
		}
		if (up == 0)
			return even(c) ? c : lo;
		return c;
	}
	return c;
}
