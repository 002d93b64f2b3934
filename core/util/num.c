/*
 * num.c: Python-compatible number text. Conversions are exact: shortest
 * round-trip for output, the C library's correctly rounded strtod and
 * printf for everything else. Grammars are checked by hand before any text
 * reaches strtod, which would otherwise accept hex floats and "nan(...)".
 */
#include "core/util/num.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t num_int(int64_t v, char out[NUM_REPR_MAX])
{
	return (size_t)snprintf(out, NUM_REPR_MAX, "%lld", (long long)v);
}

/* Shortest %.{p}e that round-trips; returns p (digits after the point). */
static int num_shortest(double x, char *buf, size_t size)
{
	int p;

	for (p = 0; p < 17; p++) {
		snprintf(buf, size, "%.*e", p, x);
		if (strtod(buf, NULL) == x)
			return p;
	}
	snprintf(buf, size, "%.16e", x);
	return 16;
}

size_t num_repr(double x, char out[NUM_REPR_MAX])
{
	char e[40], digits[24];
	int exp10, nd = 0, neg, i;
	const char *p;
	size_t n = 0;

	if (isnan(x))
		return (size_t)snprintf(out, NUM_REPR_MAX, "nan");
	if (isinf(x))
		return (size_t)snprintf(out, NUM_REPR_MAX, x < 0 ? "-inf" : "inf");
	if (x == 0)
		return (size_t)snprintf(out, NUM_REPR_MAX, signbit(x) ? "-0.0" : "0.0");
	num_shortest(x, e, sizeof e);
	/* e is "[-]d.ddde[+-]xx": collect the digits and the exponent. */
	p = e;
	neg = *p == '-';
	if (neg)
		p++;
	for (; *p && *p != 'e'; p++)
		if (*p >= '0' && *p <= '9')
			digits[nd++] = *p;
	exp10 = (int)strtol(p + 1, NULL, 10);
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	digits[nd] = '\0';
	if (neg)
		out[n++] = '-';
	if (exp10 < -4 || exp10 >= 16) {
		/* Scientific: d[.ddd]e[+-]XX with at least two exponent digits. */
		out[n++] = digits[0];
		if (nd > 1) {
			out[n++] = '.';
			for (i = 1; i < nd; i++)
				out[n++] = digits[i];
		}
		n += (size_t)snprintf(out + n, NUM_REPR_MAX - n, "e%c%02d",
				      exp10 < 0 ? '-' : '+', abs(exp10));
		return n;
	}
	if (exp10 < 0) {
		out[n++] = '0';
		out[n++] = '.';
		for (i = -1; i > exp10; i--)
			out[n++] = '0';
		for (i = 0; i < nd; i++)
			out[n++] = digits[i];
	} else {
		for (i = 0; i <= exp10; i++)
			out[n++] = i < nd ? digits[i] : '0';
		out[n++] = '.';
		if (nd > exp10 + 1)
			for (i = exp10 + 1; i < nd; i++)
				out[n++] = digits[i];
		else
			out[n++] = '0';
	}
	out[n] = '\0';
	return n;
}

static int num_isspace(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	       c == '\v';
}

static int num_isdigit(char c)
{
	return c >= '0' && c <= '9';
}

/* Copy digits from s[*i] on into out, dropping single '_' between digits.
 * Returns the number of digits copied, or -1 on a misplaced '_'. */
static int num_digits(const char *s, size_t len, size_t *i, int underscores,
		      char *out, size_t *o, size_t osize)
{
	int nd = 0;

	while (*i < len) {
		char c = s[*i];

		if (num_isdigit(c)) {
			if (*o + 1 >= osize)
				return -2;
			out[(*o)++] = c;
			nd++;
			(*i)++;
		} else if (c == '_' && underscores && nd > 0 && *i + 1 < len &&
			   num_isdigit(s[*i + 1])) {
			(*i)++;
		} else {
			break;
		}
	}
	return nd;
}

static int num_word(const char *s, size_t len, const char *word)
{
	size_t i, n = strlen(word);

	if (len != n)
		return 0;
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (c != word[i])
			return 0;
	}
	return 1;
}

static int num_pyfloat_text(const char *s, size_t len, int underscores,
			    char *buf, size_t bsize, double *out)
{
	size_t i = 0, o = 0, end = len;
	int neg = 0, ni, nf = 0, ne;

	while (i < end && num_isspace(s[i]))
		i++;
	while (end > i && num_isspace(s[end - 1]))
		end--;
	if (i < end && (s[i] == '+' || s[i] == '-')) {
		neg = s[i] == '-';
		i++;
	}
	if (num_word(s + i, end - i, "inf") || num_word(s + i, end - i, "infinity")) {
		*out = neg ? -INFINITY : INFINITY;
		return 0;
	}
	if (num_word(s + i, end - i, "nan")) {
		*out = neg ? -NAN : NAN;
		return 0;
	}
	if (neg)
		buf[o++] = '-';
	ni = num_digits(s, end, &i, underscores, buf, &o, bsize);
	if (ni < 0)
		return -1;
	if (i < end && s[i] == '.') {
		buf[o++] = '.';
		i++;
		if (i < end && s[i] == '_')
			return -1;
		nf = num_digits(s, end, &i, underscores, buf, &o, bsize);
		if (nf < 0)
			return -1;
	}
	if (ni == 0 && nf == 0)
		return -1;
	if (i < end && (s[i] == 'e' || s[i] == 'E')) {
		buf[o++] = 'e';
		i++;
		if (i < end && (s[i] == '+' || s[i] == '-'))
			buf[o++] = s[i++];
		ne = num_digits(s, end, &i, underscores, buf, &o, bsize);
		if (ne <= 0)
			return -1;
	}
	if (i != end)
		return -1;
	buf[o] = '\0';
	*out = strtod(buf, NULL);
	return 0;
}

/*
 * The text strtod sees is a subset of the input's bytes ('_' and spaces
 * dropped), so len + 1 bytes always hold it: a small buffer on the stack,
 * a heap one for longer text (Python takes a mantissa of any length).
 */
int num_parse_pyfloat(const char *s, size_t len, int underscores, double *out)
{
	char small[512], *buf = small;
	size_t bsize = sizeof small;
	int r;

	if (len >= bsize) {
		bsize = len + 1;
		buf = malloc(bsize);
		if (!buf)
			return -1;
	}
	r = num_pyfloat_text(s, len, underscores, buf, bsize, out);
	if (buf != small)
		free(buf);
	return r;
}

/* Python refuses int() text of more than this many digits; leading zeros
 * count, sign, '_' and whitespace do not. */
#define NUM_INT_MAX_DIGITS 4300

/* Shared by the int and bigint parsers: the digits without sign, '_' and
 * leading zeros, into 'digits' (NUM_INT_MAX_DIGITS + 2 bytes); *neg set.
 * Returns the digit count, -1 on bad text, -2 when the text has more than
 * NUM_INT_MAX_DIGITS digits. */
static int num_int_digits(const char *s, size_t len, char *digits, size_t size,
			  int *neg)
{
	size_t i = 0, end = len, o = 0;
	int nd;

	while (i < end && num_isspace(s[i]))
		i++;
	while (end > i && num_isspace(s[end - 1]))
		end--;
	*neg = 0;
	if (i < end && (s[i] == '+' || s[i] == '-')) {
		*neg = s[i] == '-';
		i++;
	}
	nd = num_digits(s, end, &i, 1, digits, &o, size);
	if (nd == -2 || nd > NUM_INT_MAX_DIGITS)
		return -2;
	if (nd <= 0 || i != end)
		return -1;
	digits[o] = '\0';
	/* Drop leading zeros, keep one digit. */
	i = 0;
	while (i + 1 < o && digits[i] == '0')
		i++;
	memmove(digits, digits + i, o - i + 1);
	return (int)(o - i);
}

int num_parse_pyint(const char *s, size_t len, int64_t *out)
{
	char d[NUM_INT_MAX_DIGITS + 2];
	int neg, nd = num_int_digits(s, len, d, sizeof d, &neg);
	unsigned long long v = 0, lim;
	int i;

	if (nd == -2)
		return -2;
	if (nd < 0)
		return -1;
	lim = neg ? 9223372036854775808ULL : 9223372036854775807ULL;
	for (i = 0; i < nd; i++) {
		unsigned dig = (unsigned)(d[i] - '0');

		if (v > (lim - dig) / 10)
			return -2;
		v = v * 10 + dig;
	}
	if (neg)
		*out = v == 9223372036854775808ULL ? INT64_MIN : -(int64_t)v;
	else
		*out = (int64_t)v;
	return 0;
}

int num_parse_bigint(const char *s, size_t len, char *out, size_t size)
{
	char d[NUM_INT_MAX_DIGITS + 2];
	int neg, nd = num_int_digits(s, len, d, sizeof d, &neg);
	size_t need;

	if (nd == -2)
		return -2;
	if (nd < 0)
		return -1;
	if (nd == 1 && d[0] == '0')
		neg = 0;
	need = (size_t)nd + (size_t)neg + 1;
	if (need > size)
		return -2;
	snprintf(out, size, "%s%s", neg ? "-" : "", d);
	return 0;
}

double num_round(double x, int ndigits)
{
	char buf[400];
	int exp10, sig;

	if (!isfinite(x) || x == 0)
		return x;
	if (ndigits >= 0) {
		if (ndigits > 340)
			return x;
		snprintf(buf, sizeof buf, "%.*f", ndigits, x);
		return strtod(buf, NULL);
	}
	if (ndigits < -330)
		return copysign(0.0, x);
	/* Negative ndigits: round to a power of ten through %e, which rounds
	 * the exact value half to even, as Python's dtoa does. */
	exp10 = (int)floor(log10(fabs(x)));
	/* Correct a log10 that lands one off near powers of ten. */
	if (fabs(x) >= pow(10, exp10 + 1))
		exp10++;
	else if (fabs(x) < pow(10, exp10))
		exp10--;
	sig = exp10 + 1 + ndigits; /* significant digits kept */
	if (sig <= 0) {
		/* |x| < 10^-ndigits: 0, or one unit when over half of it. */
		double unit = pow(10, -ndigits);
		double r = fabs(x) > unit / 2 && sig == 0 ? unit : 0.0;

		return copysign(r, x);
	}
	snprintf(buf, sizeof buf, "%.*e", sig - 1, x);
	return strtod(buf, NULL);
}

size_t num_fixed(double x, int decimals, char *out, size_t size)
{
	int n = snprintf(out, size, "%.*f", decimals, x);

	return n < 0 ? 0 : (size_t)n;
}

int num_cmp_int_double(int64_t i, double d)
{
	double di;

	if (isnan(d))
		return 2;
	if (d >= 9223372036854775808.0)
		return -1;
	if (d < -9223372036854775808.0)
		return 1;
	/* d is now within int64's range: compare its integer part exactly. */
	di = trunc(d);
	if ((int64_t)di != i)
		return i < (int64_t)di ? -1 : 1;
	if (d > di)
		return -1;
	if (d < di)
		return 1;
	return 0;
}
