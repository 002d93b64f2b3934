/*
 * pcg64.c: NumPy's default_rng, exactly: SeedSequence's hash mixing of the
 * entropy words into a pool of four and the generated state, PCG64's
 * 128-bit LCG with the XSL-RR output, and the samplers of NumPy 1.24's
 * distributions.c in their draw order. The constants and the order of
 * every floating-point operation are NumPy's; -ffp-contract=off keeps the
 * compiler from fusing them.
 */
#include "core/models/pcg64.h"
#include "core/models/seed_words.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SS_INIT_A 0x43b0d7e5u
#define SS_MULT_A 0x931e8875u
#define SS_INIT_B 0x8b51f9ddu
#define SS_MULT_B 0x58f38dedu
#define SS_MIX_L 0xca01f9ddu
#define SS_MIX_R 0x4973f715u

static uint32_t hashmix(uint32_t v, uint32_t *h)
{
	v ^= *h;
	*h *= SS_MULT_A;
	v *= *h;
	v ^= v >> 16;
	return v;
}

static uint32_t mix(uint32_t x, uint32_t y)
{
	uint32_t r = SS_MIX_L * x - SS_MIX_R * y;

	return r ^ (r >> 16);
}

void pcg64_seedseq(const uint32_t *entropy, size_t n, uint32_t out[8])
{
	uint32_t pool[4], h = SS_INIT_A, g = SS_INIT_B;
	size_t i, src, dst;

	for (i = 0; i < 4; i++)
		pool[i] = hashmix(i < n ? entropy[i] : 0, &h);
	for (src = 0; src < 4; src++)
		for (dst = 0; dst < 4; dst++)
			if (dst != src)
				pool[dst] = mix(pool[dst], hashmix(pool[src], &h));
	for (src = 4; src < n; src++)
		for (dst = 0; dst < 4; dst++)
			pool[dst] = mix(pool[dst], hashmix(entropy[src], &h));
	for (i = 0; i < 8; i++) {
		uint32_t v = pool[i % 4];

		v ^= g;
		g *= SS_MULT_B;
		v *= g;
		v ^= v >> 16;
		out[i] = v;
	}
}

#define PCG_MULT ((((unsigned __int128)0x2360ED051FC65DA4ULL) << 64) | \
		  0x4385DF649FCCF645ULL)

static void step(struct pcg64 *g)
{
	g->state = g->state * PCG_MULT + g->inc;
}

static void seed_words(struct pcg64 *g, const uint32_t *words, size_t n)
{
	uint32_t o[8];
	uint64_t u[4];
	int k;

	pcg64_seedseq(words, n, o);
	for (k = 0; k < 4; k++)
		u[k] = (uint64_t)o[2 * k] | ((uint64_t)o[2 * k + 1] << 32);
	g->inc = ((((unsigned __int128)u[2] << 64) | u[3]) << 1) | 1;
	g->state = 0;
	step(g);
	g->state += ((unsigned __int128)u[0] << 64) | u[1];
	step(g);
	g->has32 = 0;
	g->buf32 = 0;
}

void pcg64_seed_u64(struct pcg64 *g, uint64_t seed)
{
	uint32_t w[2];

	w[0] = (uint32_t)seed;
	w[1] = (uint32_t)(seed >> 32);
	seed_words(g, w, w[1] ? 2 : 1);
}

int pcg64_seed_decimal(struct pcg64 *g, const char *dec)
{
	uint32_t key[SEED_WORDS_MAX];
	size_t n;

	if (seed_words_from_decimal(dec, 0, key, &n) < 0)
		return -1;
	seed_words(g, key, n);
	return 0;
}

uint64_t pcg64_next64(struct pcg64 *g)
{
	uint64_t x;
	unsigned rot;

	step(g);
	x = (uint64_t)(g->state >> 64) ^ (uint64_t)g->state;
	rot = (unsigned)(g->state >> 122);
	return (x >> rot) | (x << ((64 - rot) & 63));
}

uint32_t pcg64_next32(struct pcg64 *g)
{
	uint64_t v;

	if (g->has32) {
		g->has32 = 0;
		return g->buf32;
	}
	v = pcg64_next64(g);
	g->has32 = 1;
	g->buf32 = (uint32_t)(v >> 32);
	return (uint32_t)v;
}

double pcg64_double(struct pcg64 *g)
{
	return (double)(pcg64_next64(g) >> 11) * (1.0 / 9007199254740992.0);
}

double pcg64_uniform(struct pcg64 *g, double a, double b)
{
	double range = b - a;

	return a + range * pcg64_double(g);
}

/* Tail and wedge constants (spec/reliability.md 6.4, 6.5). */
#define ZIG_EXP_R 0x1.ec9d9297ebb83p+2
#define ZIG_NOR_R 0x1.d3bb48209ad33p+1
#define ZIG_NOR_INV_R 0x1.183aa6c20e8c1p-2

double pcg64_exponential(struct pcg64 *g)
{
	for (;;) {
		uint64_t r = pcg64_next64(g) >> 3;
		unsigned i = (unsigned)(r & 0xFF);
		double x;

		r >>= 8;
		x = (double)r * pcg64_we[i];
		if (r < pcg64_ke[i])
			return x;
		if (i == 0)
			return ZIG_EXP_R - log1p(-pcg64_double(g));
		if ((pcg64_fe[i - 1] - pcg64_fe[i]) * pcg64_double(g) + pcg64_fe[i] <
		    exp(-x))
			return x;
	}
}

double pcg64_normal(struct pcg64 *g)
{
	for (;;) {
		uint64_t r = pcg64_next64(g), a;
		unsigned i = (unsigned)(r & 0xFF);
		int sign;
		double x;

		r >>= 8;
		sign = (int)(r & 1);
		a = (r >> 1) & 0x000fffffffffffffULL;
		x = (double)a * pcg64_wi[i];
		if (sign)
			x = -x;
		if (a < pcg64_ki[i])
			return x;
		if (i == 0) {
			for (;;) {
				double xx = -ZIG_NOR_INV_R * log1p(-pcg64_double(g));
				double yy = -log1p(-pcg64_double(g));

				if (yy + yy > xx * xx)
					return ((a >> 8) & 1) ? -(ZIG_NOR_R + xx)
							     : ZIG_NOR_R + xx;
			}
		}
		if ((pcg64_fi[i - 1] - pcg64_fi[i]) * pcg64_double(g) + pcg64_fi[i] <
		    exp(-0.5 * x * x))
			return x;
	}
}

uint64_t pcg64_bounded(struct pcg64 *g, uint64_t m)
{
	uint64_t mask = m, v;

	if (m == 0)
		return 0;
	mask |= mask >> 1;
	mask |= mask >> 2;
	mask |= mask >> 4;
	mask |= mask >> 8;
	mask |= mask >> 16;
	mask |= mask >> 32;
	if (m <= 0xFFFFFFFFULL) {
		do
			v = pcg64_next32(g) & mask;
		while (v > m);
		return v;
	}
	do
		v = pcg64_next64(g) & mask;
	while (v > m);
	return v;
}

/* Swap two elements through a small buffer, a chunk at a time, so that an
 * element of any size is shuffled (not silently left in place). */
static void swap_elements(unsigned char *x, unsigned char *y, size_t size)
{
	unsigned char tmp[64];

	while (size) {
		size_t k = size < sizeof tmp ? size : sizeof tmp;

		memcpy(tmp, x, k);
		memcpy(x, y, k);
		memcpy(y, tmp, k);
		x += k;
		y += k;
		size -= k;
	}
}

void pcg64_shuffle(struct pcg64 *g, void *base, size_t n, size_t size)
{
	unsigned char *b = base;
	size_t i;

	if (n < 2 || size == 0)
		return;
	for (i = n - 1; i >= 1; i--) {
		size_t j = (size_t)pcg64_bounded(g, i);

		if (j != i)
			swap_elements(b + i * size, b + j * size, size);
	}
}
