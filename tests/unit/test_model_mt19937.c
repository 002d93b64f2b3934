/*
 * test_model_mt19937.c: the shared MT19937 against CPython's streams
 * (tests/unit/vectors/mt19937-streams.tsv, copied from spec/vectors): a
 * fresh generator per (seed, stream), every value compared exactly. Exact
 * double equality is on purpose: these figures must match Python bit for
 * bit.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/models/mt19937.h"

#define VECTORS "tests/unit/vectors/mt19937-streams.tsv"

/* Draw the i-th value of a stream from a generator positioned after i-1. */
static double draw(struct mt19937 *m, const char *stream)
{
	if (strcmp(stream, "getrandbits32") == 0)
		return (double)mt19937_getrandbits(m, 32);
	if (strcmp(stream, "random") == 0)
		return mt19937_random(m);
	if (strncmp(stream, "uniform_", 8) == 0) {
		double a = strtod(stream + 8, NULL);
		double b = strtod(strchr(stream + 8, '_') + 1, NULL);

		return mt19937_uniform(m, a, b);
	}
	if (strncmp(stream, "choice_range", 12) == 0)
		return (double)mt19937_randbelow(m, strtoull(stream + 12, NULL, 10));
	cr_assert_fail("unknown stream %s", stream);
	return 0;
}

Test(mt19937, cpython_streams)
{
	char line[512], seed[128] = "", stream[128] = "";
	struct mt19937 m;
	FILE *f = fopen(VECTORS, "r");
	size_t checked = 0;

	cr_assert_not_null(f, "run from the repository root");
	while (fgets(line, sizeof line, f)) {
		char s[128], st[128], val[128];
		long i;

		if (line[0] == '#' || strncmp(line, "seed\t", 5) == 0)
			continue;
		cr_assert_eq(sscanf(line, "%127[^\t]\t%127[^\t]\t%ld\t%127s", s, st, &i, val), 4);
		if (strcmp(s, seed) != 0 || strcmp(st, stream) != 0) {
			/* A fresh generator for each (seed, stream) pair. */
			snprintf(seed, sizeof seed, "%s", s);
			snprintf(stream, sizeof stream, "%s", st);
			cr_assert_eq(mt19937_seed_decimal(&m, seed), 0);
			cr_assert_eq(i, 0);
		}
		{
			double want = strtod(val, NULL), got = draw(&m, stream);

			cr_assert(got == want, "seed %s %s[%ld]: got %.17g want %s", seed,
				  stream, i, got, val);
		}
		checked++;
	}
	fclose(f);
	cr_assert_gt(checked, 5000);
}

Test(mt19937, spec_vectors)
{
	struct mt19937 m;

	/* cooling.md 5.7 */
	mt19937_seed_int64(&m, 0);
	cr_assert_eq(mt19937_next32(&m), 3626764237u);
	mt19937_seed_int64(&m, -3);
	cr_assert_eq(mt19937_next32(&m), 1022050301u);
	mt19937_seed_int64(&m, 4294967296LL);
	cr_assert_eq(mt19937_next32(&m), 485306839u);
	mt19937_seed_int64(&m, 7);
	cr_assert(mt19937_random(&m) == 0.32383276483316237);
	mt19937_seed_int64(&m, 7);
	cr_assert_eq(mt19937_randbelow(&m, 3), 1);
	cr_assert_eq(mt19937_randbelow(&m, 5), 1);
	cr_assert(mt19937_uniform(&m, 0.5, 2.0) == 1.0922352446347603);
}

Test(mt19937, seeds_agree_and_can_go_red)
{
	struct mt19937 a, b;
	uint32_t x;

	mt19937_seed_int64(&a, -11);
	cr_assert_eq(mt19937_seed_decimal(&b, "11"), 0);
	cr_assert_eq(mt19937_next32(&a), mt19937_next32(&b));
	/* A skipped draw must show: the streams no longer agree. */
	x = mt19937_next32(&a);
	(void)mt19937_next32(&b);
	cr_assert_neq(x, mt19937_next32(&b));
	cr_assert_eq(mt19937_seed_decimal(&b, "12x"), -1);
}

/* random() from two words, as Python computes it. */
static double from_words(uint32_t a, uint32_t b)
{
	return ((double)(a >> 5) * 67108864.0 + (double)(b >> 6)) * (1.0 / 9007199254740992.0);
}

/* random() has a precomputed fast path for draws that start at an even
 * word and a slow one for odd starts and block ends. A twin generator that
 * only hands out words must give the same value at every alignment, across
 * several 624-word blocks, with single words mixed in. */
Test(mt19937, random_matches_the_words_at_every_alignment)
{
	struct mt19937 m, w;
	int i, odd = 0, even = 0;

	mt19937_seed_int64(&m, 12345);
	mt19937_seed_int64(&w, 12345);
	for (i = 0; i < 3000; i++) {
		if (i % 7 == 3) {
			cr_assert_eq(mt19937_next32(&m), mt19937_next32(&w), "word %d", i);
			continue;
		}
		(m.idx & 1) ? odd++ : even++;
		{
			uint32_t a = mt19937_next32(&w), b = mt19937_next32(&w);

			cr_assert(mt19937_random(&m) == from_words(a, b), "draw %d", i);
		}
	}
	cr_assert_gt(odd, 100);
	cr_assert_gt(even, 100);
}
