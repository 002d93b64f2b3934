/*
 * pcg64.h: the NumPy-compatible generator shared by the reliability, power,
 * network and scheduling models (ARCHITECTURE.md "Numbers"; spec/
 * reliability.md 6): SeedSequence seeding, the PCG64 (XSL-RR 128/64) bit
 * generator with NumPy's buffered 32-bit output, and the ziggurat
 * exponential and normal samplers with NumPy's own tables. Each draw
 * reproduces numpy.random.default_rng(seed) bit for bit;
 * tests/unit/test_model_pcg64.c checks them against spec/vectors.
 *
 * A generator is a plain struct owned by its caller: no allocation, no
 * global state. The scheduling pack's samplers (Poisson, binomial,
 * weighted choice, log-normal) build on these draws.
 */
#ifndef INFRAGATE_MODELS_PCG64_H
#define INFRAGATE_MODELS_PCG64_H

#include <stddef.h>
#include <stdint.h>

struct pcg64 {
	unsigned __int128 state;
	unsigned __int128 inc;
	int has32;       /* next32's buffered half */
	uint32_t buf32;
};

/* SeedSequence(entropy words, least significant first).generate_state(8
 * words of 32 bits) into out[8]. */
void pcg64_seedseq(const uint32_t *entropy, size_t n, uint32_t out[8]);

/* default_rng(seed) for a non-negative integer seed. */
void pcg64_seed_u64(struct pcg64 *g, uint64_t seed);

/* The same for a non-negative decimal integer of any size (up to 4300
 * digits). Returns 0, or -1 when the text is not one. */
int pcg64_seed_decimal(struct pcg64 *g, const char *dec);

/* The raw 64-bit output: step, then XSL-RR of the new state. */
uint64_t pcg64_next64(struct pcg64 *g);

/* NumPy's next32: the low half of a fresh next64, its high half buffered
 * for the next call. */
uint32_t pcg64_next32(struct pcg64 *g);

/* (next64 >> 11) * 2^-53. */
double pcg64_double(struct pcg64 *g);

/* a + (b - a) * next_double(). */
double pcg64_uniform(struct pcg64 *g, double a, double b);

/* The standard exponential and normal, by NumPy's ziggurat. */
double pcg64_exponential(struct pcg64 *g);
double pcg64_normal(struct pcg64 *g);

/* A bounded integer in [0, m] by NumPy's masked rejection (next32 when
 * m fits 32 bits, else next64). */
uint64_t pcg64_bounded(struct pcg64 *g, uint64_t m);

/* Generator.shuffle of n elements of 'size' bytes each: for i = n-1 down
 * to 1, swap i with a bounded integer in [0, i]. */
void pcg64_shuffle(struct pcg64 *g, void *base, size_t n, size_t size);

/* The ziggurat tables (pcg64_tables.c). */
extern const uint64_t pcg64_ki[256];
extern const double pcg64_wi[256];
extern const double pcg64_fi[256];
extern const uint64_t pcg64_ke[256];
extern const double pcg64_we[256];
extern const double pcg64_fe[256];

#endif
