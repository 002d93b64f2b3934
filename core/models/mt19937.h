/*
 * mt19937.h: the CPython-compatible Mersenne Twister shared by the cooling,
 * placement and resiliency models (ARCHITECTURE.md "Numbers"; spec/
 * resiliency.md 5.9, cooling.md 5.7). Seeding from any integer, the 32-bit
 * output, getrandbits, randbelow/choice and random() reproduce Python's
 * random.Random(seed) bit for bit; tests/unit/test_model_mt19937.c checks
 * them against spec/vectors/mt19937-streams.tsv.
 *
 * A generator is a plain struct owned by its caller: no allocation, no
 * global state, one per simulation.
 */
#ifndef INFRAGATE_MODELS_MT19937_H
#define INFRAGATE_MODELS_MT19937_H

#include <stddef.h>
#include <stdint.h>

#define MT19937_N 624

struct mt19937 {
	uint32_t mt[MT19937_N];
	uint32_t out[MT19937_N]; /* the tempered outputs of the current state */
	double pair[MT19937_N / 2]; /* random() of out[2j], out[2j + 1] */
	int idx;                 /* next output; MT19937_N: twist first */
};

/* init_by_array(key[0..n)) after init_genrand(19650218). */
void mt19937_seed_key(struct mt19937 *m, const uint32_t *key, size_t n);

/* random.Random(seed) for an int64 seed: the key is |seed| in 32-bit
 * words, least significant first ([0] for 0). */
void mt19937_seed_int64(struct mt19937 *m, int64_t seed);

/* The same for a decimal text of any size ("-11", up to 4300 digits).
 * Returns 0, or -1 when the text is not an integer. */
int mt19937_seed_decimal(struct mt19937 *m, const char *dec);

/* The next tempered 32-bit output. */
uint32_t mt19937_next32(struct mt19937 *m);

/* getrandbits(k) for 1 <= k <= 64: as CPython, whole 32-bit words least
 * significant first, the last word shifted right by 32 - (k mod 32). */
uint64_t mt19937_getrandbits(struct mt19937 *m, unsigned k);

/* _randbelow(n) for n >= 1: getrandbits(bit length of n) until < n. */
uint64_t mt19937_randbelow(struct mt19937 *m, uint64_t n);

/* random(): (a * 67108864.0 + b) / 2^53 with a = next >> 5, b = next >> 6.
 * Inline, because the Monte Carlo models draw millions of these: the twist
 * computes the value of every aligned pair of words of its block, so the
 * usual case is one load; the call out of line (mt19937_random_refill)
 * takes a pair that starts at an odd word, or twists when the block runs
 * out. */
double mt19937_random_refill(struct mt19937 *m);

static inline double mt19937_random(struct mt19937 *m)
{
	double d;

	if ((m->idx & 1) || m->idx >= MT19937_N)
		return mt19937_random_refill(m);
	d = m->pair[m->idx >> 1];
	m->idx += 2;
	return d;
}

/* uniform(a, b) = a + (b - a) * random(). */
double mt19937_uniform(struct mt19937 *m, double a, double b);

/* expovariate(lambd) = -log(1.0 - random()) / lambd. */
double mt19937_expovariate(struct mt19937 *m, double lambd);

#endif
