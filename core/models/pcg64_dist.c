/*
 * pcg64_dist.c: NumPy 1.24's distributions.c samplers on top of pcg64.c,
 * with the same branches, constants and evaluation order (each
 * parenthesised as NumPy's C evaluates it), so every draw equals NumPy's.
 */
#include "core/models/pcg64_dist.h"

#include <math.h>

/* Stirling-series coefficients a0..a9 of random_loggam. */
static const double loggam_a[10] = {
	8.333333333333333e-02, -2.777777777777778e-03, 7.936507936507937e-04,
	-5.952380952380952e-04, 8.417508417508418e-04, -1.917526917526918e-03,
	6.410256410256410e-03, -2.955065359477124e-02, 1.796443723688307e-01,
	-1.39243221690590e+00,
};

double pcg64_loggam(double x)
{
	double x0, x2, gl, gl0;
	int64_t k, n = 0;

	if (x == 1.0 || x == 2.0)
		return 0.0;
	if (x < 7.0)
		n = (int64_t)(7 - x);
	x0 = x + (double)n;
	x2 = (1.0 / x0) * (1.0 / x0);
	gl0 = loggam_a[9];
	for (k = 8; k >= 0; k--) {
		gl0 *= x2;
		gl0 += loggam_a[k];
	}
	gl = gl0 / x0 + 0.5 * 1.8378770664093453 + (x0 - 0.5) * log(x0) - x0;
	if (x < 7.0)
		for (k = 1; k <= n; k++) {
			gl -= log(x0 - 1.0);
			x0 -= 1.0;
		}
	return gl;
}

static int64_t poisson_mult(struct pcg64 *g, double enlam)
{
	double prod = 1.0;
	int64_t x = 0;

	for (;;) {
		prod *= pcg64_double(g);
		if (prod > enlam)
			x += 1;
		else
			return x;
	}
}

/* Hormann's transformed rejection with squeeze (PTRS), lam >= 10. */
static int64_t poisson_ptrs(struct pcg64 *g, double lam)
{
	double slam = sqrt(lam), loglam = log(lam);
	double b = 0.931 + 2.53 * slam;
	double a = -0.059 + 0.02483 * b;
	double invalpha = 1.1239 + 1.1328 / (b - 3.4);
	double vr = 0.9277 - 3.6224 / (b - 2);

	for (;;) {
		double u = pcg64_double(g) - 0.5;
		double v = pcg64_double(g);
		double us = 0.5 - fabs(u);
		int64_t k = (int64_t)floor((2 * a / us + b) * u + lam + 0.43);

		if (us >= 0.07 && v <= vr)
			return k;
		if (k < 0 || (us < 0.013 && v > us))
			continue;
		if ((log(v) + log(invalpha) - log(a / (us * us) + b)) <=
		    (-lam + (double)k * loglam - pcg64_loggam((double)(k + 1))))
			return k;
	}
}

int64_t pcg64_poisson(struct pcg64 *g, double lam)
{
	if (lam >= 10)
		return poisson_ptrs(g, lam);
	if (lam == 0)
		return 0;
	return poisson_mult(g, exp(-lam));
}

int64_t pcg64_poisson_enlam(struct pcg64 *g, double lam, double enlam)
{
	if (lam >= 10)
		return poisson_ptrs(g, lam);
	if (lam == 0)
		return 0;
	return poisson_mult(g, enlam);
}

int pcg64_binomial_is_btpe(int64_t n, double p)
{
	if (n == 0 || p == 0.0)
		return 0;
	if (p <= 0.5)
		return p * (double)n > 30.0;
	return (1.0 - p) * (double)n > 30.0;
}

static int64_t binomial_inversion(struct pcg64 *g, int64_t n, double p)
{
	double q = 1.0 - p;
	double qn = exp((double)n * log(q));
	double np = (double)n * p;
	double lim = np + 10.0 * sqrt(np * q + 1);
	int64_t bound = (int64_t)((double)n < lim ? (double)n : lim);
	int64_t x = 0;
	double px = qn, u = pcg64_double(g);

	while (u > px) {
		x++;
		if (x > bound) {
			x = 0;
			px = qn;
			u = pcg64_double(g);
		} else {
			u -= px;
			px = ((double)(n - x + 1) * p * px) / ((double)x * q);
		}
	}
	return x;
}

int64_t pcg64_binomial(struct pcg64 *g, int64_t n, double p)
{
	if (n == 0 || p == 0.0)
		return 0;
	if (pcg64_binomial_is_btpe(n, p))
		return -1;
	if (p <= 0.5)
		return binomial_inversion(g, n, p);
	return n - binomial_inversion(g, n, 1.0 - p);
}

size_t pcg64_choice(struct pcg64 *g, const double *p, size_t n)
{
	double total = 0.0, u, acc = 0.0;
	size_t i, idx = 0;

	/* The cumulative sums are formed twice (once for their last entry,
	 * once to compare), the same additions in the same order, so each
	 * entry is the one NumPy's cumsum holds before it divides. */
	for (i = 0; i < n; i++)
		total += p[i];
	u = pcg64_double(g);
	/* The sums never decrease (p >= 0), so counting stops at the first
	 * entry above u. */
	for (i = 0; i < n; i++) {
		acc += p[i];
		if (!(acc / total <= u))
			break;
		idx++;
	}
	return idx < n ? idx : n - 1;
}

void pcg64_choice_cdf(const double *p, size_t n, double *cdf)
{
	double total = 0.0, acc = 0.0;
	size_t i;

	for (i = 0; i < n; i++)
		total += p[i];
	for (i = 0; i < n; i++) {
		acc += p[i];
		cdf[i] = acc / total;
	}
}

size_t pcg64_choice_from_cdf(struct pcg64 *g, const double *cdf, size_t n)
{
	double u = pcg64_double(g);
	size_t idx = 0;

	while (idx < n && cdf[idx] <= u)
		idx++;
	return idx < n ? idx : n - 1;
}

double pcg64_lognormal(struct pcg64 *g, double mu, double sigma)
{
	return exp(mu + sigma * pcg64_normal(g));
}
