/*
 * test_util.c: the layer-0 helpers: Python-compatible number text, the
 * capped arena and its failure seam, sbuf, UTF-8, the diag id table,
 * bounded file reads, paths kept below a folder, SHA-256/HMAC through libcrypto, and the name tables.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util/arena.h"
#include "core/util/crypto.h"
#include "core/util/diag.h"
#include "core/util/names.h"
#include "core/util/num.h"
#include "core/util/readfile.h"
#include "core/util/sbuf.h"
#include "core/util/utf8.h"
#include "core/util/within.h"

/* Parameter rows hold arrays, not pointers: Criterion runs each test in a
 * new process, where the parent's pointers do not hold. */
struct repr_case {
	double x;
	char want[32];
};

ParameterizedTestParameters(num, repr)
{
	/* Python 3.11 repr() of each double (spec/promotion.md 8.2 examples
	 * included). */
	static struct repr_case rows[] = {
		{ 10.0, "10.0" },          { 1e-05, "1e-05" },
		{ 0.0001, "0.0001" },      { 1e-10, "1e-10" },
		{ 1e-07, "1e-07" },        { 1e15, "1000000000000000.0" },
		{ 1e16, "1e+16" },         { 1.5e300, "1.5e+300" },
		{ 123456789012345678.0, "1.2345678901234568e+17" },
		{ 685230.15, "685230.15" }, { 0.1, "0.1" },
		{ 0.30000000000000004, "0.30000000000000004" },
		{ -0.0, "-0.0" },          { 0.0, "0.0" },
		{ 5e-324, "5e-324" },      { 1.7976931348623157e308, "1.7976931348623157e+308" },
		{ -2.5, "-2.5" },          { 100.5, "100.5" },
		{ 9007199254740993.0, "9007199254740992.0" },
		{ 0.001, "0.001" },        { 123.456, "123.456" },
	};

	return cr_make_param_array(struct repr_case, rows, sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct repr_case *c, num, repr)
{
	char buf[NUM_REPR_MAX];

	num_repr(c->x, buf);
	cr_assert_str_eq(buf, c->want);
}

Test(num, repr_nonfinite)
{
	char buf[NUM_REPR_MAX];

	num_repr(INFINITY, buf);
	cr_assert_str_eq(buf, "inf");
	num_repr(-INFINITY, buf);
	cr_assert_str_eq(buf, "-inf");
	num_repr(NAN, buf);
	cr_assert_str_eq(buf, "nan");
}

struct round_case {
	double x;
	int nd;
	double want;
};

ParameterizedTestParameters(num, round)
{
	/* Python round(): ties to even on the exact binary value. */
	static struct round_case rows[] = {
		{ 2.5, 0, 2.0 },   { 3.5, 0, 4.0 },    { 2.675, 2, 2.67 },
		{ 0.125, 2, 0.12 }, { 0.375, 2, 0.38 }, { 1234.5, -1, 1230.0 },
		{ 150, -2, 200.0 }, { 50, -2, 0.0 },    { 51, -2, 100.0 },
		{ -2.5, 0, -2.0 }, { 1.0000001, 5, 1.0 },
	};

	return cr_make_param_array(struct round_case, rows, sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct round_case *c, num, round)
{
	/* Exact on purpose: round's result is a correctly rounded double. */
	cr_assert(num_round(c->x, c->nd) == c->want, "round(%.17g, %d) = %.17g", c->x,
		  c->nd, num_round(c->x, c->nd));
}

Test(num, int_double_compare)
{
	cr_assert_eq(num_cmp_int_double(9007199254740993LL, 9007199254740992.0), 1);
	cr_assert_eq(num_cmp_int_double(5, 5.0), 0);
	cr_assert_eq(num_cmp_int_double(5, 5.5), -1);
	cr_assert_eq(num_cmp_int_double(-1, NAN), 2);
	cr_assert_eq(num_cmp_int_double(INT64_MAX, 9223372036854775808.0), -1);
}

Test(num, fixed)
{
	char buf[64];

	num_fixed(2.675, 2, buf, sizeof buf);
	cr_assert_str_eq(buf, "2.67");
	num_fixed(0.5, 0, buf, sizeof buf);
	cr_assert_str_eq(buf, "0");
	num_fixed(1.5, 0, buf, sizeof buf);
	cr_assert_str_eq(buf, "2");
}

Test(arena, cap_refuses_without_oom)
{
	struct arena a;
	void *p;
	int n = 0;

	arena_init(&a, 64 * 1024);
	while ((p = arena_alloc(&a, 1000)) && n < 1000)
		n++;
	cr_assert_null(p);
	cr_assert(a.failed);
	cr_assert_lt(n, 70);
	cr_assert_leq(a.used, 64 * 1024);
	arena_release(&a);
	cr_assert_eq(a.used, 0);
}

Test(arena, overflow_checks)
{
	struct arena a;

	arena_init(&a, 0);
	cr_assert_null(arena_calloc(&a, SIZE_MAX / 2, 4));
	cr_assert_null(arena_alloc(&a, SIZE_MAX));
	cr_assert_str_eq(arena_strdup(&a, "abc"), "abc");
	arena_release(&a);
}

Test(arena, failure_seam)
{
	struct arena a;
	long n;

	/* Fail the N-th chunk for N = 1 .. 4 (twenty allocations of 3000
	 * bytes take four doubling chunks): each run sees exactly one
	 * refusal and ends cleanly. */
	for (n = 1; n <= 4; n++) {
		int i, got = 0;

		arena_init(&a, 0);
		a.fail_at = n;
		for (i = 0; i < 20; i++)
			if (arena_alloc(&a, 3000))
				got++;
		cr_assert_eq(got, 19, "fail_at %ld: %d allocations", n, got);
		arena_release(&a);
	}
}

Test(sbuf, grows_caps_and_detaches)
{
	struct sbuf b = SBUF_INIT;
	char *s;
	size_t len;
	int i;

	for (i = 0; i < 1000; i++)
		sbuf_addf(&b, "%d,", i);
	cr_assert(!b.failed);
	cr_assert(strncmp(sbuf_cstr(&b), "0,1,2,", 6) == 0);
	s = sbuf_detach(&b, &len);
	cr_assert_eq(strlen(s), len);
	free(s);
	b.cap = 10;
	sbuf_adds(&b, "0123456789abc");
	cr_assert(b.failed);
	cr_assert_null(sbuf_detach(&b, NULL));
	sbuf_release(&b);
}

Test(sbuf, addu_matches_printf)
{
	static const unsigned long long v[] = { 0, 7, 10, 99, 100, 4294967296ULL,
						18446744073709551615ULL };
	struct sbuf b = SBUF_INIT;
	char want[32];
	size_t i;

	for (i = 0; i < sizeof v / sizeof v[0]; i++) {
		sbuf_reset(&b);
		sbuf_addc(&b, '/');
		sbuf_addu(&b, v[i]);
		snprintf(want, sizeof want, "/%llu", v[i]);
		cr_assert_str_eq(sbuf_cstr(&b), want);
	}
	b.cap = 3;
	sbuf_reset(&b);
	sbuf_addu(&b, 1234);
	cr_assert(b.failed, "a cap shorter than the digits fails the buffer");
	sbuf_release(&b);
}

struct utf8_case {
	char s[8];
	size_t len;
	int valid;
	size_t bad;
};

ParameterizedTestParameters(utf8, valid)
{
	static struct utf8_case rows[] = {
		{ "abc", 3, 1, 0 },
		{ "\xc3\xa9", 2, 1, 0 },
		{ "a\xe9", 2, 0, 1 },            /* Latin-1 e-acute */
		{ "\xc0\xaf", 2, 0, 0 },          /* overlong */
		{ "\xed\xa0\x80", 3, 0, 0 },      /* surrogate */
		{ "\xf4\x90\x80\x80", 4, 0, 0 },  /* above U+10FFFF */
		{ "\xf0\x9f\x98\x80", 4, 1, 0 },  /* emoji */
		{ "ab\xe2\x82", 4, 0, 2 },        /* truncated */
	};

	return cr_make_param_array(struct utf8_case, rows, sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct utf8_case *c, utf8, valid)
{
	size_t bad = 99;

	cr_assert_eq(utf8_valid(c->s, c->len, &bad), c->valid);
	if (!c->valid)
		cr_assert_eq(bad, c->bad);
}

Test(utf8, count_and_cut)
{
	cr_assert_eq(utf8_count("\xc3\xa9\xc3\xa9: b", 7), 5);
	cr_assert_eq(utf8_cut("\xc3\xa9\xc3\xa9", 4, 3), 2);
}

Test(diag, every_code_has_an_id)
{
	int c;

	for (c = DIAG_E_NOMEM; c < DIAG_NCODES; c++)
		cr_assert_not_null(diag_code_id((enum diag_code)c), "code %d", c);
	cr_assert_null(diag_code_id(DIAG_OK));
}

Test(diag, message_cut_on_a_character)
{
	struct diag d;
	char big[3000];
	size_t i;

	for (i = 0; i + 2 < sizeof big; i += 2) {
		big[i] = '\xc3';
		big[i + 1] = '\xa9';
	}
	big[i] = '\0';
	diag_init(&d);
	diag_set(&d, DIAG_E_YAML, 1, 2, "%s", big);
	cr_assert(utf8_valid(d.msg, strlen(d.msg), NULL));
	cr_assert(strstr(d.msg, "...") != NULL);
}

Test(readfile, limits_and_errors)
{
	char path[] = "/tmp/ig-readfile-XXXXXX";
	int fd = mkstemp(path);
	struct diag err;
	char *buf;
	size_t len;

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, "0123456789", 10), 10);
	close(fd);
	diag_init(&err);
	cr_assert_eq(readfile(path, "f", 100, &buf, &len, &err), 0);
	cr_assert_eq(len, 10);
	cr_assert_eq(buf[10], '\0');
	free(buf);
	cr_assert_eq(readfile(path, "f", 5, &buf, &len, &err), -1);
	cr_assert_eq(err.code, DIAG_E_LIMIT);
	cr_assert_str_eq(err.limit, "file_bytes");
	unlink(path);
	diag_init(&err);
	cr_assert_eq(readfile(path, "f", 5, &buf, &len, &err), -1);
	cr_assert_eq(err.code, DIAG_E_UNREADABLE);
	diag_init(&err);
	cr_assert_eq(readfile("/tmp", "/tmp", 5, &buf, &len, &err), -1);
	cr_assert_eq(err.code, DIAG_E_UNREADABLE);
}

/* Files of every size around the first buffer (4 KiB) and around a read
 * that fills it exactly come back whole: one read of a regular file may
 * stop at its end, and must not stop before. */
Test(readfile, sizes_around_the_buffer)
{
	static const size_t sizes[] = { 0, 1, 4094, 4095, 4096, 4097, 8191, 8192, 70000 };
	char path[] = "/tmp/ig-readfile-XXXXXX";
	struct diag err;
	char *buf, *want;
	size_t len, i, k;
	int fd;

	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		strcpy(path, "/tmp/ig-readfile-XXXXXX");
		fd = mkstemp(path);
		cr_assert_geq(fd, 0);
		want = malloc(sizes[i] + 1);
		for (k = 0; k < sizes[i]; k++)
			want[k] = (char)('a' + k % 26);
		cr_assert_eq(write(fd, want, sizes[i]), (ssize_t)sizes[i]);
		close(fd);
		diag_init(&err);
		cr_assert_eq(readfile(path, "f", 1 << 20, &buf, &len, &err), 0);
		cr_assert_eq(len, sizes[i], "size %zu read as %zu", sizes[i], len);
		cr_assert_eq(memcmp(buf, want, len), 0);
		cr_assert_eq(buf[len], '\0');
		free(buf);
		/* Exactly at the limit is allowed; one byte past it is not. */
		if (sizes[i]) {
			cr_assert_eq(readfile(path, "f", sizes[i], &buf, &len, &err), 0);
			free(buf);
			cr_assert_eq(readfile(path, "f", sizes[i] - 1, &buf, &len, &err), -1);
			cr_assert_eq(err.code, DIAG_E_LIMIT);
		}
		free(want);
		unlink(path);
	}
}

/* path_within: a plain path, a link that stays inside, a link and a '..'
 * that lead outside, a missing file, and the same folder asked twice (the
 * second answer comes from the per-thread memory of the first). */
Test(within, plain_links_and_escapes)
{
	char root[] = "/tmp/ig-within-XXXXXX", p[PATH_MAX], out[PATH_MAX], real[PATH_MAX];
	FILE *f;

	cr_assert_not_null(mkdtemp(root));
	snprintf(p, sizeof p, "%s/pack", root);
	cr_assert_eq(mkdir(p, 0755), 0);
	snprintf(p, sizeof p, "%s/pack/lib", root);
	cr_assert_eq(mkdir(p, 0755), 0);
	snprintf(p, sizeof p, "%s/pack/lib/a.lua", root);
	f = fopen(p, "w");
	cr_assert_not_null(f);
	fclose(f);
	snprintf(p, sizeof p, "%s/secret.lua", root);
	f = fopen(p, "w");
	cr_assert_not_null(f);
	fclose(f);
	snprintf(p, sizeof p, "%s/pack/lib/inside.lua", root);
	cr_assert_eq(symlink("a.lua", p), 0);
	snprintf(p, sizeof p, "%s/pack/lib/outside.lua", root);
	cr_assert_eq(symlink("../../secret.lua", p), 0);
	snprintf(p, sizeof p, "%s/pack", root);
	cr_assert_not_null(realpath(p, real));

	for (int twice = 0; twice < 2; twice++) {
		cr_assert_eq(path_within(p, "lib/a.lua", out), WITHIN);
		cr_assert(strncmp(out, real, strlen(real)) == 0);
		cr_assert_str_eq(out + strlen(real), "/lib/a.lua");
		cr_assert_eq(path_within(p, "lib/inside.lua", out), WITHIN);
		cr_assert_str_eq(out + strlen(real), "/lib/a.lua");
		cr_assert_eq(path_within(p, "lib/outside.lua", out), WITHIN_OUTSIDE);
		cr_assert_eq(path_within(p, "lib/../../secret.lua", out), WITHIN_OUTSIDE);
		cr_assert_eq(path_within(p, "lib/./a.lua", out), WITHIN);
		cr_assert_eq(path_within(p, "lib/none.lua", out), WITHIN_MISSING);
	}
	snprintf(out, sizeof out, "%s/gone", root);
	cr_assert_eq(path_within(out, "a.lua", p), WITHIN_NO_ROOT);
	snprintf(p, sizeof p, "rm -rf '%s'", root);
	cr_assert_eq(system(p), 0);
}

Test(crypto, vectors)
{
	unsigned char d[CRYPTO_SHA256_LEN];
	char hex[2 * CRYPTO_SHA256_LEN + 1];

	cr_assert_eq(crypto_sha256("abc", 3, d), 0);
	crypto_hex(d, sizeof d, hex);
	cr_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	/* RFC 4231 test case 2. */
	cr_assert_eq(crypto_hmac_sha256("Jefe", 4, "what do ya want for nothing?", 28, d), 0);
	crypto_hex(d, sizeof d, hex);
	cr_assert_str_eq(hex, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
	cr_assert(crypto_equal("abc", "abc", 3));
	cr_assert(!crypto_equal("abc", "abd", 3));
}

/* HMAC is built on the low-level SHA-256 here (crypto.c): RFC 4231's keys
 * shorter than, equal to and longer than a block, and the empty key and
 * message (a known value). */
Test(crypto, hmac_rfc4231)
{
	unsigned char key[131], d[CRYPTO_SHA256_LEN];
	char hex[2 * CRYPTO_SHA256_LEN + 1];
	static const char big[] = "Test Using Larger Than Block-Size Key - Hash Key First";

	memset(key, 0x0b, 20);
	cr_assert_eq(crypto_hmac_sha256(key, 20, "Hi There", 8, d), 0);
	crypto_hex(d, sizeof d, hex);
	cr_assert_str_eq(hex, "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
	memset(key, 0xaa, sizeof key);
	cr_assert_eq(crypto_hmac_sha256(key, 131, big, sizeof big - 1, d), 0);
	crypto_hex(d, sizeof d, hex);
	cr_assert_str_eq(hex, "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
	cr_assert_eq(crypto_hmac_sha256(NULL, 0, "", 0, d), 0);
	crypto_hex(d, sizeof d, hex);
	cr_assert_str_eq(hex, "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad");
	cr_assert_eq(crypto_sha256("", 0, d), 0);
	crypto_hex(d, sizeof d, hex);
	cr_assert_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

Test(names, tables)
{
	cr_assert_str_eq(linked_program_pack("pue-ladder"), "cooling");
	cr_assert_str_eq(linked_program_of_pack("chaos"), "chaos-fidelity");
	cr_assert_null(linked_program_pack("cooling"));
	cr_assert_eq(linked_programs_count, 5);
	cr_assert(name_is_reserved("lint"));
	cr_assert(name_is_pack("site-pack2"));
	cr_assert(!name_is_pack("Bad"));
	cr_assert(!name_is_pack("a--b"));
	cr_assert(!name_is_pack("a-"));
}
