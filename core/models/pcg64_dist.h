/*
 * pcg64_dist.h: the NumPy 1.24 Generator samplers the scheduling model
 * draws beyond pcg64.h's (spec/scheduling.md 5.8): Poisson (multiplication
 * below lam 10, PTRS above), binomial by inversion (the BTPE regime is the
 * caller's to refuse), a weighted choice by cumulative sums and a
 * right-hand searchsorted, and the log-normal as exp of a ziggurat normal.
 * Each reproduces numpy.random.default_rng draws bit for bit, in NumPy's
 * own branch structure and order of operations;
 * tests/unit/test_model_pcg64_dist.c checks them against 5.8.7.
 */
#ifndef INFRAGATE_MODELS_PCG64_DIST_H
#define INFRAGATE_MODELS_PCG64_DIST_H

#include <stddef.h>
#include <stdint.h>

#include "core/models/pcg64.h"

/* log Gamma(x) by NumPy's random_loggam (x >= 1). */
double pcg64_loggam(double x);

/* Generator.poisson(lam), lam >= 0 and finite. */
int64_t pcg64_poisson(struct pcg64 *g, double lam);

/* pcg64_poisson with exp(-lam) computed once by the caller (a stream of
 * draws at one rate): the same draws. */
int64_t pcg64_poisson_enlam(struct pcg64 *g, double lam, double enlam);

/* True when binomial(n, p) would leave inversion for BTPE, which this
 * module does not implement: n x min(p, 1 - p) > 30. */
int pcg64_binomial_is_btpe(int64_t n, double p);

/* Generator.binomial(n, p) for n >= 0, 0 <= p <= 1, outside the BTPE
 * regime (the caller checks pcg64_binomial_is_btpe first; inside it the
 * result is -1 and nothing is drawn). */
int64_t pcg64_binomial(struct pcg64 *g, int64_t n, double p);

/* Generator.choice(len(p), p=p): the index of the first cumulative
 * (normalised) sum above one uniform draw. n >= 1, the sum of p > 0. */
size_t pcg64_choice(struct pcg64 *g, const double *p, size_t n);

/* The normalised cumulative sums pcg64_choice compares against, formed
 * once for repeated draws over one vector (cdf has n entries)... */
void pcg64_choice_cdf(const double *p, size_t n, double *cdf);

/* ...and a draw over them: the same index pcg64_choice returns. */
size_t pcg64_choice_from_cdf(struct pcg64 *g, const double *cdf, size_t n);

/* Generator.lognormal(mu, sigma) = exp(mu + sigma x normal). */
double pcg64_lognormal(struct pcg64 *g, double mu, double sigma);

#endif
