/*
 * mt19937.c: MT19937 exactly as CPython's _random module runs it: the
 * seeding of init_by_array from the integer's 32-bit words, the twist of
 * all 624 words when the index reaches the end, CPython's tempering, and
 * the derived draws of random.py in their draw order. Pure integer
 * arithmetic modulo 2^32 plus the two double expressions Python uses.
 */
#include "core/models/mt19937.h"
#include "core/models/seed_words.h"

#include <math.h>
#include <string.h>

static void init_genrand(struct mt19937 *m, uint32_t s)
{
	int i;

	m->mt[0] = s;
	for (i = 1; i < MT19937_N; i++)
		m->mt[i] = 1812433253u * (m->mt[i - 1] ^ (m->mt[i - 1] >> 30)) +
			   (uint32_t)i;
	m->idx = MT19937_N;
}

void mt19937_seed_key(struct mt19937 *m, const uint32_t *key, size_t n)
{
	static const uint32_t zero = 0;
	size_t i = 1, j = 0, k;

	if (n == 0) {
		key = &zero;
		n = 1;
	}
	init_genrand(m, 19650218u);
	for (k = n > MT19937_N ? n : MT19937_N; k; k--) {
		/* With no key, key is &zero and n is 1, so j stays 0. */
		/* cppcheck-suppress objectIndex */
		uint32_t kj = key[j];

		m->mt[i] = (m->mt[i] ^ ((m->mt[i - 1] ^ (m->mt[i - 1] >> 30)) *
					1664525u)) + kj + (uint32_t)j;
		i++;
		j++;
		if (i >= MT19937_N) {
			m->mt[0] = m->mt[MT19937_N - 1];
			i = 1;
		}
		if (j >= n)
			j = 0;
	}
	for (k = MT19937_N - 1; k; k--) {
		m->mt[i] = (m->mt[i] ^ ((m->mt[i - 1] ^ (m->mt[i - 1] >> 30)) *
					1566083941u)) - (uint32_t)i;
		i++;
		if (i >= MT19937_N) {
			m->mt[0] = m->mt[MT19937_N - 1];
			i = 1;
		}
	}
	m->mt[0] = 0x80000000u;
	m->idx = MT19937_N;
}

void mt19937_seed_int64(struct mt19937 *m, int64_t seed)
{
	uint64_t a = seed < 0 ? (uint64_t)0 - (uint64_t)seed : (uint64_t)seed;
	uint32_t key[2];

	key[0] = (uint32_t)a;
	key[1] = (uint32_t)(a >> 32);
	mt19937_seed_key(m, key, key[1] ? 2 : 1);
}

int mt19937_seed_decimal(struct mt19937 *m, const char *dec)
{
	uint32_t key[SEED_WORDS_MAX];
	size_t n;

	if (seed_words_from_decimal(dec, 1, key, &n) < 0)
		return -1;
	mt19937_seed_key(m, key, n);
	return 0;
}

/* One step of the twist: the new mt[k] from the old mt[k], the next word
 * and the word 397 places on. */
static inline uint32_t twist_one(uint32_t cur, uint32_t next, uint32_t far)
{
	uint32_t y = (cur & 0x80000000u) | (next & 0x7fffffffu);

	/* -(y & 1) is all ones for odd y: the matrix A without a branch. */
	return far ^ (y >> 1) ^ ((0u - (y & 1u)) & 0x9908b0dfu);
}

/* k = 0..623 in increasing order, as the reference twists, in runs so
 * that no index needs a modulo: k + 397 wraps from k = 227 on (to words
 * already renewed, as in the reference), k + 1 only at the last word. The
 * long runs have 224 and 396 words, multiples of 4, so that even the
 * cheapest auto-vectorizer (gcc -O2) takes them; words 224..226 go one by
 * one. GCC on x86-64 also builds the loops for AVX2 and picks that copy at
 * load time where the CPU has it: integer operations only, so both copies
 * give the same words. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
__attribute__((target_clones("avx2", "default")))
#endif
static void twist(struct mt19937 *m)
{
	uint32_t *mt = m->mt;
	int k;

	for (k = 0; k < 224; k++)
		mt[k] = twist_one(mt[k], mt[k + 1], mt[k + 397]);
	for (; k < MT19937_N - 397; k++)
		mt[k] = twist_one(mt[k], mt[k + 1], mt[k + 397]);
	for (; k < MT19937_N - 1; k++)
		mt[k] = twist_one(mt[k], mt[k + 1], mt[k + 397 - MT19937_N]);
	mt[MT19937_N - 1] = twist_one(mt[MT19937_N - 1], mt[0], mt[396]);
	/* Temper the whole block at once: a loop the compiler vectorizes,
	 * where tempering word by word costs a dozen instructions a draw. */
	for (k = 0; k < MT19937_N; k++) {
		uint32_t y = mt[k];

		y ^= y >> 11;
		y ^= (y << 7) & 0x9d2c5680u;
		y ^= (y << 15) & 0xefc60000u;
		y ^= y >> 18;
		m->out[k] = y;
	}
	/* random() of each aligned pair, the same expression as the slow
	 * path; the shifted words are below 2^27, so the signed conversion
	 * (which vectorizes) is exact. */
	for (k = 0; k < MT19937_N / 2; k++)
		m->pair[k] = ((double)(int32_t)(m->out[2 * k] >> 5) * 67108864.0 +
			      (double)(int32_t)(m->out[2 * k + 1] >> 6)) *
			     (1.0 / 9007199254740992.0);
	m->idx = 0;
}

/* The next tempered output, inlined into random() (two words per draw). */
static inline uint32_t next32(struct mt19937 *m)
{
	if (m->idx >= MT19937_N)
		twist(m);
	return m->out[m->idx++];
}

uint32_t mt19937_next32(struct mt19937 *m)
{
	return next32(m);
}

uint64_t mt19937_getrandbits(struct mt19937 *m, unsigned k)
{
	uint64_t r;

	if (k == 0)
		return 0;
	if (k <= 32)
		return mt19937_next32(m) >> (32 - k);
	if (k > 64)
		k = 64;
	/* CPython fills words least significant first; the last one keeps
	 * its top (k - 32) bits. */
	r = mt19937_next32(m);
	r |= (uint64_t)(mt19937_next32(m) >> (64 - k)) << 32;
	return r;
}

uint64_t mt19937_randbelow(struct mt19937 *m, uint64_t n)
{
	unsigned k = 0;
	uint64_t r, t = n;

	if (n <= 1)
		return 0;
	while (t) {
		k++;
		t >>= 1;
	}
	do
		r = mt19937_getrandbits(m, k);
	while (r >= n);
	return r;
}

double mt19937_random_refill(struct mt19937 *m)
{
	uint32_t a = next32(m) >> 5, b = next32(m) >> 6;

	return ((double)a * 67108864.0 + (double)b) * (1.0 / 9007199254740992.0);
}

double mt19937_uniform(struct mt19937 *m, double a, double b)
{
	return a + (b - a) * mt19937_random(m);
}

double mt19937_expovariate(struct mt19937 *m, double lambd)
{
	return -log(1.0 - mt19937_random(m)) / lambd;
}
