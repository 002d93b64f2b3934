/*
 * test_model_pcg64.c: the shared NumPy-compatible generator against the
 * figures of spec/reliability.md 6 and the streams of spec/vectors
 * (copied to tests/unit/vectors): SeedSequence words, the seeded PCG64
 * state and increment, and every draw of both vector files. Exact double
 * equality is on purpose throughout: these figures must match NumPy bit
 * for bit, so a one-ulp drift is a failure, not noise.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/models/pcg64.h"

#define SHORT_VECTORS "tests/unit/vectors/rng-streams-seed0.tsv"
#define LONG_VECTORS "tests/unit/vectors/rng-long-streams.tsv"

/* ------------------------------------------------------------------ */
/* 6.1 SeedSequence                                                    */

struct seedseq_case {
	uint64_t seed;
	uint32_t out[8];
};

ParameterizedTestParameters(pcg64, seedseq_words)
{
	/* spec/reliability.md 6.1, test vectors. */
	static struct seedseq_case rows[] = {
		{ 0, { 0xb0f478be, 0xdb2cd7e7, 0x2c71ba49, 0xabf4641a, 0x9d7b8d41,
		       0x20c6ed6d, 0x223c39d4, 0x2c4099de } },
		{ 9999, { 0xff2051a9, 0x9491b60e, 0x7c55f177, 0x69059776, 0x2a05432c,
			  0xa7b6f5a9, 0xe35f48cd, 0xe31966ca } },
	};
	return cr_make_param_array(struct seedseq_case, rows, sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct seedseq_case *c, pcg64, seedseq_words)
{
	uint32_t entropy = (uint32_t)c->seed, out[8];
	int i;

	pcg64_seedseq(&entropy, 1, out);
	for (i = 0; i < 8; i++)
		cr_assert_eq(out[i], c->out[i], "seed %llu word %d: %08x want %08x",
			     (unsigned long long)c->seed, i, out[i], c->out[i]);
}

/* ------------------------------------------------------------------ */
/* 6.2 PCG64 state after seeding                                       */

/* Decimal text of a 128-bit value (the spec prints state and increment
 * in decimal). */
static void u128_text(unsigned __int128 v, char *out, size_t size)
{
	char tmp[48];
	size_t n = 0, i;

	do {
		tmp[n++] = (char)('0' + (int)(v % 10));
		v /= 10;
	} while (v && n < sizeof tmp);
	for (i = 0; i < n && i + 1 < size; i++)
		out[i] = tmp[n - 1 - i];
	out[i] = '\0';
}

/* Text held in the rows themselves: Criterion runs each parameter in a
 * fresh process, where a pointer to a literal is not valid. */
struct state_case {
	char seed[24];
	char state[48];
	char inc[48];
};

ParameterizedTestParameters(pcg64, seeded_state)
{
	/* spec/reliability.md 6.2, test vectors. */
	static struct state_case rows[] = {
		{ "0", "35399562948360463058890781895381311971",
		  "87136372517582989555478159403783844777" },
		{ "9999", "207982890655201968644820002473904255349",
		  "105579744913564299019475654705439216027" },
	};
	return cr_make_param_array(struct state_case, rows, sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct state_case *c, pcg64, seeded_state)
{
	struct pcg64 g;
	char text[64];

	cr_assert_eq(pcg64_seed_decimal(&g, c->seed), 0);
	u128_text(g.state, text, sizeof text);
	cr_assert_str_eq(text, c->state, "seed %s state", c->seed);
	u128_text(g.inc, text, sizeof text);
	cr_assert_str_eq(text, c->inc, "seed %s inc", c->seed);
	cr_assert_eq(g.has32, 0);
}

/* ------------------------------------------------------------------ */
/* 6.2 - 6.6 spec figures, each from a fresh generator                 */

Test(pcg64, next64_seed0)
{
	static const uint64_t want[8] = {
		11749869230777074271ULL, 4976686463289251617ULL, 755828109848996024ULL,
		304881062738325533ULL,   15002187965291974971ULL, 16837368535893154894ULL,
		11190454901533422207ULL, 13456836363123071557ULL,
	};
	struct pcg64 g;
	int i;

	pcg64_seed_u64(&g, 0);
	for (i = 0; i < 8; i++)
		cr_assert_eq(pcg64_next64(&g), want[i], "draw %d", i);
}

Test(pcg64, next32_buffers_the_high_half)
{
	static const uint32_t want[4] = { 3653403231u, 2735729615u, 2195314465u,
					  1158725112u };
	struct pcg64 g, h;
	uint64_t w;
	int i;

	pcg64_seed_u64(&g, 0);
	for (i = 0; i < 4; i++)
		cr_assert_eq(pcg64_next32(&g), want[i], "draw %d", i);
	/* The pair (low, high) is the first raw word. */
	pcg64_seed_u64(&h, 0);
	w = pcg64_next64(&h);
	cr_assert_eq((uint32_t)w, want[0]);
	cr_assert_eq((uint32_t)(w >> 32), want[1]);
	/* next64 neither reads nor clears the buffer: the buffered half
	 * survives a next64 in between. */
	pcg64_seed_u64(&g, 0);
	(void)pcg64_next32(&g);
	(void)pcg64_next64(&g);
	cr_assert_eq(pcg64_next32(&g), want[1]);
}

Test(pcg64, double_and_uniform_seed0)
{
	static const double dbl[4] = { 0.6369616873214543, 0.2697867137638703,
				       0.04097352393619469, 0.016527635528529094 };
	static const double uni[4] = { 3366.3275929465444, 1714.0402119374164,
				       684.3808577128761, 574.3743598783809 };
	struct pcg64 g;
	int i;

	pcg64_seed_u64(&g, 0);
	for (i = 0; i < 4; i++)
		cr_assert(pcg64_double(&g) == dbl[i], "double %d", i);
	pcg64_seed_u64(&g, 0);
	for (i = 0; i < 4; i++)
		cr_assert(pcg64_uniform(&g, 500, 5000) == uni[i], "uniform %d", i);
}

Test(pcg64, exponential_and_normal_seed0)
{
	static const double ex[8] = { 0.6799319039689096,   1.0195971014658647,
				      0.019806662589055352, 0.0022693266812281823,
				      0.5503428726390482,   1.6299404346583852,
				      0.6735829526672319,   0.7553013578253913 };
	static const double nor[8] = { 0.1257302210933933, -0.1321048632913019,
				       0.6404226504432821, 0.10490011715303971,
				       -0.535669373161111, 0.36159505490948474,
				       1.3040000451301372, 0.9470809631292422 };
	struct pcg64 g;
	int i;

	pcg64_seed_u64(&g, 0);
	for (i = 0; i < 8; i++)
		cr_assert(pcg64_exponential(&g) == ex[i], "exponential %d", i);
	pcg64_seed_u64(&g, 0);
	for (i = 0; i < 8; i++)
		cr_assert(pcg64_normal(&g) == nor[i], "normal %d", i);
}

struct bounded_case {
	uint64_t m, want;
};

Test(pcg64, bounded_seed9999)
{
	/* spec 6.6: one fresh generator, m = 19, 18, 17, 16, 15 in turn. */
	static const struct bounded_case rows[] = {
		{ 19, 15 }, { 18, 5 }, { 17, 0 }, { 16, 13 }, { 15, 12 },
	};
	struct pcg64 g;
	size_t i;

	pcg64_seed_u64(&g, 9999);
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++)
		cr_assert_eq(pcg64_bounded(&g, rows[i].m), rows[i].want, "m = %llu",
			     (unsigned long long)rows[i].m);
}

Test(pcg64, bounded_edges)
{
	struct pcg64 g, h;
	uint64_t v;
	int i;

	/* m = 0 draws nothing. */
	pcg64_seed_u64(&g, 1);
	pcg64_seed_u64(&h, 1);
	cr_assert_eq(pcg64_bounded(&g, 0), 0);
	cr_assert_eq(pcg64_next64(&g), pcg64_next64(&h));
	/* m = 2^32 - 1 is the widest 32-bit bound: one next32, no rejection. */
	pcg64_seed_u64(&g, 1);
	pcg64_seed_u64(&h, 1);
	cr_assert_eq(pcg64_bounded(&g, 0xFFFFFFFFULL), (uint64_t)pcg64_next32(&h));
	/* Above 32 bits the draw is a masked next64. */
	pcg64_seed_u64(&g, 1);
	pcg64_seed_u64(&h, 1);
	do
		v = pcg64_next64(&h) & 0x1FFFFFFFFULL;
	while (v > 0x100000000ULL);
	cr_assert_eq(pcg64_bounded(&g, 0x100000000ULL), v);
	/* Every value stays in range. */
	pcg64_seed_u64(&g, 5);
	for (i = 0; i < 1000; i++)
		cr_assert_leq(pcg64_bounded(&g, 6), 6);
}

/* ------------------------------------------------------------------ */
/* The vector files                                                    */

/* The shuffle row: comma-separated values of range(20) after a seed-9999
 * shuffle. */
static void check_shuffle(const char *stream, const char *val)
{
	unsigned long seed, n;
	long list[64];
	const char *p = val;
	size_t i;
	struct pcg64 g;

	cr_assert_eq(sscanf(stream, "shuffle_range%lu_seed%lu", &n, &seed), 2);
	cr_assert_leq(n, 64);
	for (i = 0; i < n; i++)
		list[i] = (long)i;
	pcg64_seed_u64(&g, seed);
	pcg64_shuffle(&g, list, n, sizeof list[0]);
	for (i = 0; i < n; i++) {
		char *end;
		long want = strtol(p, &end, 10);

		cr_assert_neq(end, p, "short shuffle row");
		cr_assert_eq(list[i], want, "shuffle[%zu] = %ld want %ld", i, list[i], want);
		p = *end == ',' ? end + 1 : end;
	}
}

/* Ziggurat branches reached, counted from the first raw word of a draw
 * (a copy of the generator peeks at it): fast path, tail, wedge. */
struct branches {
	size_t fast, tail, wedge;
};

static void classify(const struct pcg64 *g, const char *stream, struct branches *b)
{
	struct pcg64 peek = *g;
	uint64_t r = pcg64_next64(&peek);
	unsigned i;

	if (strcmp(stream, "standard_exponential") == 0) {
		r >>= 3;
		i = (unsigned)(r & 0xFF);
		r >>= 8;
		if (r < pcg64_ke[i])
			b->fast++;
		else if (i == 0)
			b->tail++;
		else
			b->wedge++;
	} else {
		uint64_t a;

		i = (unsigned)(r & 0xFF);
		a = (r >> 9) & 0x000fffffffffffffULL;
		if (a < pcg64_ki[i])
			b->fast++;
		else if (i == 0)
			b->tail++;
		else
			b->wedge++;
	}
}

/* Draw the next value of a numeric stream; raw words are compared as
 * integers by the caller. */
static double draw(struct pcg64 *g, const char *stream)
{
	if (strcmp(stream, "standard_exponential") == 0)
		return pcg64_exponential(g);
	if (strcmp(stream, "standard_normal") == 0)
		return pcg64_normal(g);
	if (strcmp(stream, "random_double") == 0)
		return pcg64_double(g);
	if (strncmp(stream, "uniform_", 8) == 0) {
		char *end;
		double a = strtod(stream + 8, &end);
		double b = strtod(end + 1, NULL);

		return pcg64_uniform(g, a, b);
	}
	cr_assert_fail("unknown stream %s", stream);
	return 0;
}

/* Check one row against a generator positioned after the previous row of
 * the same (seed, stream). */
static void check_row(struct pcg64 *g, const char *stream, const char *val,
		      struct branches *exp_b, struct branches *nor_b, long i)
{
	if (strcmp(stream, "random_raw_uint64") == 0) {
		uint64_t want = strtoull(val, NULL, 10);

		cr_assert_eq(pcg64_next64(g), want, "%s[%ld]", stream, i);
		return;
	}
	if (strcmp(stream, "standard_exponential") == 0)
		classify(g, stream, exp_b);
	else if (strcmp(stream, "standard_normal") == 0)
		classify(g, stream, nor_b);
	{
		double want = strtod(val, NULL), got = draw(g, stream);

		cr_assert(got == want, "%s[%ld]: got %.17g want %s", stream, i, got, val);
	}
}

struct file_tally {
	size_t rows, pairs;
	struct branches exp_b, nor_b;
};

/* Run a vector file: a fresh generator for each (seed, stream) pair, each
 * pair's indices consecutive from 0. 'has_seed' tells whether the first
 * column is a seed (the long file) or the file is all seed 0. */
static void run_file(const char *path, int has_seed, struct file_tally *t)
{
	char line[512], seed[64] = "", stream[128] = "";
	struct pcg64 g;
	long next = 0;
	FILE *f = fopen(path, "r");

	cr_assert_not_null(f, "%s: run from the repository root", path);
	memset(t, 0, sizeof *t);
	while (fgets(line, sizeof line, f)) {
		char s[64] = "0", st[128], val[256];
		long i;
		int got;

		if (line[0] == '#' || strncmp(line, "seed\t", 5) == 0 ||
		    strncmp(line, "stream\t", 7) == 0)
			continue;
		if (has_seed)
			got = sscanf(line, "%63[^\t]\t%127[^\t]\t%ld\t%255s", s, st, &i, val) - 1;
		else
			got = sscanf(line, "%127[^\t]\t%ld\t%255s", st, &i, val);
		cr_assert_eq(got, 3, "%s: malformed line %s", path, line);
		if (strncmp(st, "shuffle_", 8) == 0) {
			check_shuffle(st, val);
			t->rows++;
			continue;
		}
		if (strcmp(s, seed) != 0 || strcmp(st, stream) != 0) {
			snprintf(seed, sizeof seed, "%s", s);
			snprintf(stream, sizeof stream, "%s", st);
			cr_assert_eq(pcg64_seed_decimal(&g, seed), 0, "seed %s", seed);
			next = 0;
			t->pairs++;
		}
		cr_assert_eq(i, next, "%s: seed %s %s: index %ld out of order", path, seed,
			     stream, i);
		check_row(&g, stream, val, &t->exp_b, &t->nor_b, i);
		next++;
		t->rows++;
	}
	fclose(f);
}

Test(pcg64, short_vector_file)
{
	struct file_tally t;

	run_file(SHORT_VECTORS, 0, &t);
	/* Five streams of 8 draws and the shuffle row. */
	cr_assert_eq(t.rows, 41, "rows %zu", t.rows);
}

Test(pcg64, long_vector_file)
{
	struct file_tally t;

	run_file(LONG_VECTORS, 1, &t);
	/* 4 seeds x 4 streams of 64 raw words, 256 doubles, 4096 exponential
	 * and 4096 normal draws: a truncated copy of the file fails here. */
	cr_assert_eq(t.pairs, 16, "pairs %zu", t.pairs);
	cr_assert_eq(t.rows, 4 * (64 + 256 + 4096 + 4096), "rows %zu", t.rows);
	/* The file must exercise the slow paths, or it proves nothing about
	 * them (spec 6.4: about 1.1% of exponential draws leave the fast
	 * path). */
	cr_assert_gt(t.exp_b.tail, 0, "no exponential tail draw");
	cr_assert_gt(t.exp_b.wedge, 0, "no exponential wedge draw");
	cr_assert_gt(t.nor_b.tail, 0, "no normal tail draw");
	cr_assert_gt(t.nor_b.wedge, 0, "no normal wedge draw");
}

/* ------------------------------------------------------------------ */
/* Seeding paths agree; bad seeds are refused                          */

struct seed_text_case {
	char dec[24];
	uint64_t u;
};

ParameterizedTestParameters(pcg64, decimal_and_u64_agree)
{
	static struct seed_text_case rows[] = {
		{ "0", 0 },
		{ "7", 7 },
		{ "4294967295", 4294967295ULL },
		{ "4294967296", 4294967296ULL },
		{ "9223372036854775807", 9223372036854775807ULL },
		{ "12345678901234567890", 12345678901234567890ULL },
		{ "18446744073709551615", 18446744073709551615ULL },
	};
	return cr_make_param_array(struct seed_text_case, rows, sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct seed_text_case *c, pcg64, decimal_and_u64_agree)
{
	struct pcg64 a, b;

	cr_assert_eq(pcg64_seed_decimal(&a, c->dec), 0);
	pcg64_seed_u64(&b, c->u);
	cr_assert(a.state == b.state && a.inc == b.inc, "seed %s", c->dec);
	cr_assert_eq(pcg64_next64(&a), pcg64_next64(&b));
}

Test(pcg64, refuses_malformed_decimal_seeds)
{
	struct pcg64 g;

	cr_assert_eq(pcg64_seed_decimal(&g, ""), -1);
	cr_assert_eq(pcg64_seed_decimal(&g, "12x"), -1);
	cr_assert_eq(pcg64_seed_decimal(&g, "-1"), -1);
	cr_assert_eq(pcg64_seed_decimal(&g, " 1"), -1);
}

Test(pcg64, a_skipped_draw_shows)
{
	struct pcg64 a, b;

	pcg64_seed_u64(&a, 3);
	pcg64_seed_u64(&b, 3);
	(void)pcg64_exponential(&b);
	cr_assert(pcg64_exponential(&a) != pcg64_exponential(&b));
}

Test(pcg64, shuffle_moves_wide_elements_like_narrow_ones)
{
	/* A 100-byte element is permuted exactly as its index would be. */
	struct wide {
		long id;
		char pad[92];
	} rows[20];
	long ids[20];
	struct pcg64 g;
	size_t i;

	for (i = 0; i < 20; i++) {
		memset(&rows[i], (int)i, sizeof rows[i]);
		rows[i].id = (long)i;
		ids[i] = (long)i;
	}
	pcg64_seed_u64(&g, 9999);
	pcg64_shuffle(&g, rows, 20, sizeof rows[0]);
	pcg64_seed_u64(&g, 9999);
	pcg64_shuffle(&g, ids, 20, sizeof ids[0]);
	for (i = 0; i < 20; i++) {
		cr_assert_eq(rows[i].id, ids[i]);
		cr_assert_eq(rows[i].pad[91], (char)ids[i]);
	}
	cr_assert_eq(ids[0], 6); /* spec 6.6 */
}
