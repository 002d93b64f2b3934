/*
 * test_doc_json.c: the JSON reader (RFC 8259, and Python's json.loads with
 * the options on: spec/promotion.md 5.8) and a few parts of the document
 * model it builds on: JSON Pointers, key equality, value equality and the
 * JSON writer.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/doc/doc.h"

static const struct doc_json_opts strict_opts = { 0, 0, 0, 0, 0 };
static const struct doc_json_opts python_opts = { 1, 1, 1, 0, 0 };

static int parse(struct doc *d, const char *text, size_t len,
		 const struct doc_json_opts *o, struct diag *err)
{
	doc_init(d, 0);
	diag_init(err);
	return doc_json_parse(d, text, len, o, err);
}

/* Parse 'text' (NUL-terminated) and return the error code, DIAG_OK when it
 * parses; the document is released. */
static enum diag_code code_of(const char *text, const struct doc_json_opts *o,
			      struct diag *err)
{
	struct doc d;
	int rc = parse(&d, text, strlen(text), o, err);

	doc_release(&d);
	return rc == 0 ? DIAG_OK : err->code;
}

static struct node *root_of(struct doc *d, const char *text,
			    const struct doc_json_opts *o)
{
	struct diag err;

	cr_assert_eq(parse(d, text, strlen(text), o, &err), 0, "'%s': %s",
		     text, err.msg);
	cr_assert_not_null(d->root);
	return d->root;
}

static int same_bits(double a, double b)
{
	return memcmp(&a, &b, sizeof a) == 0;
}

/* ---- the reader ---------------------------------------------------------- */

Test(doc_json, values_and_positions)
{
	struct doc d;
	struct node *r = root_of(&d, "{\"a\": [1, -2.5, true, null],\n"
				     " \"\xC3\xA9\": \"x\\ty\", \"z\": {}}",
				 &strict_opts);
	struct node *a = doc_get(r, "a"), *s = doc_get(r, "\xC3\xA9");

	cr_assert_eq(r->type, NODE_MAP);
	cr_assert_eq(r->v.map.n, 3);
	cr_assert_eq(r->line, 1);
	cr_assert_eq(r->col, 1);
	cr_assert_eq(r->end_line, 2);
	cr_assert_eq(r->end_col, 23);
	cr_assert_eq(a->type, NODE_LIST);
	cr_assert_eq(a->line, 1);
	cr_assert_eq(a->col, 7);
	cr_assert_eq(a->end_col, 28);
	cr_assert_eq(a->v.list.items[0]->v.i, 1);
	cr_assert(same_bits(a->v.list.items[1]->v.f, -2.5));
	cr_assert_eq(a->v.list.items[1]->col, 11);
	cr_assert_eq(a->v.list.items[1]->end_col, 15);
	cr_assert_eq(a->v.list.items[2]->type, NODE_BOOL);
	cr_assert_eq(a->v.list.items[3]->type, NODE_NULL);
	cr_assert_str_eq(s->v.str.s, "x\ty");
	cr_assert_eq(s->line, 2);
	cr_assert_eq(s->col, 7); /* code points: the key is one character */
	cr_assert_eq(doc_get(r, "z")->v.map.n, 0);
	cr_assert_eq(d.nodes, 11);
	doc_release(&d);
	r = root_of(&d, "  \"top\"  ", &strict_opts); /* any top-level value */
	cr_assert_str_eq(r->v.str.s, "top");
	doc_release(&d);
}

Test(doc_json, integers)
{
	static const struct {
		const char *text;
		enum node_type type;
		long long i;
		const char *big;
	} rows[] = {
		{ "0", NODE_INT, 0, NULL },
		{ "-0", NODE_INT, 0, NULL },
		{ "9223372036854775807", NODE_INT, INT64_MAX, NULL },
		{ "-9223372036854775808", NODE_INT, INT64_MIN, NULL },
		{ "9223372036854775808", NODE_BIGINT, 0, "9223372036854775808" },
		{ "-9223372036854775809", NODE_BIGINT, 0, "-9223372036854775809" },
		{ "123456789012345678901234567890", NODE_BIGINT, 0,
		  "123456789012345678901234567890" },
	};
	struct diag err;
	size_t i;
	char *digits;

	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct doc d;
		struct node *n = root_of(&d, rows[i].text, &strict_opts);

		cr_assert_eq(n->type, rows[i].type, "%s", rows[i].text);
		if (n->type == NODE_INT)
			cr_assert_eq(n->v.i, (int64_t)rows[i].i, "%s", rows[i].text);
		else
			cr_assert_str_eq(n->v.str.s, rows[i].big);
		doc_release(&d);
	}
	/* Python refuses to convert more than 4300 digits. */
	digits = malloc(4302);
	cr_assert_not_null(digits);
	memset(digits, '7', 4300);
	digits[4300] = '\0';
	cr_assert_eq(code_of(digits, &python_opts, &err), DIAG_OK);
	digits[4300] = '7';
	digits[4301] = '\0';
	cr_assert_eq(code_of(digits, &python_opts, &err), DIAG_E_YAML);
	free(digits);
}

Test(doc_json, floats_correctly_rounded)
{
	static const struct {
		const char *text;
		double want;
	} rows[] = {
		{ "0.1", 0.1 },
		{ "1e400", INFINITY },
		{ "-1e400", -INFINITY },
		{ "1e-400", 0.0 },
		{ "-0.0", -0.0 },
		{ "4.9e-324", 5e-324 },
		{ "2.2250738585072011e-308", 2.2250738585072011e-308 },
		{ "1E+2", 100.0 },
		{ "123456789012345678.0", 123456789012345678.0 },
		{ "0.30000000000000004", 0.30000000000000004 },
		{ "1.5e-05", 1.5e-05 },
	};
	size_t i;

	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct doc d;
		struct node *n = root_of(&d, rows[i].text, &strict_opts);

		cr_assert_eq(n->type, NODE_FLOAT, "%s", rows[i].text);
		/* Bit for bit on purpose: the value Python's float() gives. */
		cr_assert(same_bits(n->v.f, rows[i].want), "%s: %.17g",
			  rows[i].text, n->v.f);
		doc_release(&d);
	}
}

Test(doc_json, grammar_errors)
{
	static const char *const bad[] = {
		"", " ", "[1,]", "{\"a\":1,}", "01", "1.", ".5", "+1", "[1 2]",
		"{a:1}", "'x'", "tru", "nul", "1 2", "\"\\x\"", "[", "{\"a\" 1}",
		"\"abc", "-", "- 1", "1e", "1e+", "[1]]", "{\"a\"}", "{,}",
		"\x0c" "1", "\"\\u12\"", "\"\\u12g4\"", "[\"a\" \"b\"]", "nan",
		"infinity", "-NaN", "True", "[01]", "{\"a\":}",
	};
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct diag err;

		cr_assert_eq(code_of(bad[i], &python_opts, &err), DIAG_E_YAML,
			     "'%s' parsed", bad[i]);
		cr_assert_str_eq(diag_id(&err), "input.yaml");
		cr_assert_neq(err.line, 0);
	}
}

Test(doc_json, error_positions_and_paths)
{
	struct diag err;

	cr_assert_eq(code_of("{\"a\": [1, 2,\n  x]}", &strict_opts, &err),
		     DIAG_E_YAML);
	cr_assert_eq(err.line, 2);
	cr_assert_eq(err.col, 3);
	cr_assert_str_eq(err.path, "/a/2");
	cr_assert_eq(code_of("[\"ok\", \"a\x01\"]", &strict_opts, &err),
		     DIAG_E_YAML);
	cr_assert_eq(err.col, 10);
	cr_assert(strstr(err.msg, "control character"));
}

Test(doc_json, duplicate_keys)
{
	struct diag err;
	struct doc d;
	struct node *r;
	char text[8192];
	size_t o = 0;
	int k;

	cr_assert_eq(code_of("{\"a\": 1,\n \"b\": {\"c\": 1, \"c\": 2}}", &strict_opts,
			     &err),
		     DIAG_E_DUPKEY);
	cr_assert_str_eq(diag_id(&err), "input.duplicate-key");
	cr_assert_eq(err.line, 2);
	cr_assert_eq(err.col, 16);
	cr_assert_str_eq(err.path, "/b/c");
	cr_assert_str_eq(err.msg, "key 'c' repeats the key on line 2");
	/* Python: the last value, at the first key's place. */
	r = root_of(&d, "{\"a\": 1, \"b\": 2, \"a\": 3}", &python_opts);
	cr_assert_eq(r->v.map.n, 2);
	cr_assert_str_eq(r->v.map.pairs[0].key->v.str.s, "a");
	cr_assert_eq(r->v.map.pairs[0].value->v.i, 3);
	cr_assert_eq(r->v.map.pairs[0].key->col, 2);
	doc_release(&d);
	/* A large object goes through the hash table. */
	o += (size_t)snprintf(text + o, sizeof text - o, "{");
	for (k = 0; k < 300; k++)
		o += (size_t)snprintf(text + o, sizeof text - o, "\"k%d\": %d, ",
				      k, k);
	snprintf(text + o, sizeof text - o, "\"k123\": -1}");
	cr_assert_eq(code_of(text, &strict_opts, &err), DIAG_E_DUPKEY);
	cr_assert_str_eq(err.path, "/k123");
	r = root_of(&d, text, &python_opts);
	cr_assert_eq(r->v.map.n, 300);
	cr_assert_eq(doc_get(r, "k123")->v.i, -1);
	cr_assert_str_eq(r->v.map.pairs[123].key->v.str.s, "k123");
	doc_release(&d);
}

Test(doc_json, nonfinite_literals)
{
	struct diag err;
	struct doc d;
	struct node *r;

	cr_assert_eq(code_of("NaN", &strict_opts, &err), DIAG_E_YAML);
	cr_assert_eq(code_of("[Infinity]", &strict_opts, &err), DIAG_E_YAML);
	cr_assert_eq(code_of("-Infinity", &strict_opts, &err), DIAG_E_YAML);
	r = root_of(&d, "[NaN, Infinity, -Infinity]", &python_opts);
	cr_assert(isnan(r->v.list.items[0]->v.f));
	cr_assert(same_bits(r->v.list.items[1]->v.f, INFINITY));
	cr_assert(same_bits(r->v.list.items[2]->v.f, -INFINITY));
	doc_release(&d);
}

Test(doc_json, surrogates)
{
	struct diag err;
	struct doc d;
	struct node *r;

	r = root_of(&d, "\"\\ud83d\\ude00 \\u00e9\\/\"", &strict_opts);
	cr_assert_str_eq(r->v.str.s, "\xF0\x9F\x98\x80 \xC3\xA9/");
	doc_release(&d);
	cr_assert_eq(code_of("\"\\ud800\"", &strict_opts, &err), DIAG_E_YAML);
	cr_assert_eq(code_of("\"\\udc00\\ud800\"", &strict_opts, &err),
		     DIAG_E_YAML);
	r = root_of(&d, "\"a\\ud800b\\udc00\"", &python_opts);
	cr_assert_eq(r->v.str.len, 8);
	cr_assert(memcmp(r->v.str.s, "a\xED\xA0\x80" "b\xED\xB0\x80", 8) == 0);
	doc_release(&d);
	r = root_of(&d, "\"\\u0000x\"", &strict_opts); /* NUL kept, length says */
	cr_assert_eq(r->v.str.len, 2);
	doc_release(&d);
}

Test(doc_json, encoding)
{
	struct diag err;
	struct doc d;

	cr_assert_eq(code_of("\xEF\xBB\xBF{}", &python_opts, &err), DIAG_E_ENCODING);
	cr_assert_eq(code_of("{\"a\":\n \"caf\xE9\"}", &python_opts, &err),
		     DIAG_E_ENCODING);
	cr_assert_eq(err.line, 2);
	cr_assert_eq(err.col, 6);
	cr_assert_eq(parse(&d, "[1]\0", 4, &strict_opts, &err), -1);
	cr_assert_eq(err.code, DIAG_E_YAML); /* a NUL after the value */
	doc_release(&d);
}

Test(doc_json, limits)
{
	char *text = malloc(2 * 513 + 1);
	struct doc_json_opts o = strict_opts;
	struct diag err;
	struct doc d;
	int i;

	cr_assert_not_null(text);
	for (i = 0; i < 512; i++) {
		text[i] = '[';
		text[1023 - i] = ']';
	}
	text[1024] = '\0';
	cr_assert_eq(code_of(text, &strict_opts, &err), DIAG_OK, "%s", err.msg);
	for (i = 0; i < 513; i++) {
		text[i] = '[';
		text[1025 - i] = ']';
	}
	text[1026] = '\0';
	cr_assert_eq(code_of(text, &strict_opts, &err), DIAG_E_LIMIT);
	cr_assert_str_eq(err.limit, "depth");
	cr_assert_eq(err.limit_value, 512);
	cr_assert_eq(err.col, 513);
	free(text);
	o.max_depth = 2;
	cr_assert_eq(code_of("[[1]]", &o, &err), DIAG_OK);
	cr_assert_eq(code_of("[[[1]]]", &o, &err), DIAG_E_LIMIT);
	o.max_depth = 0;
	o.max_nodes = 3;
	cr_assert_eq(code_of("[1, 2]", &o, &err), DIAG_OK);
	cr_assert_eq(code_of("[1, 2, 3]", &o, &err), DIAG_E_LIMIT);
	cr_assert_str_eq(err.limit, "nodes");
	/* The arena cap: a clean DIAG_E_NOMEM, named as the memory limit. */
	doc_init(&d, 4096);
	diag_init(&err);
	text = malloc(20001);
	cr_assert_not_null(text);
	text[0] = '[';
	for (i = 1; i < 19999; i += 2) {
		text[i] = '1';
		text[i + 1] = ',';
	}
	text[19999] = '1';
	text[20000] = '\0';
	memcpy(text + 19998, "1]", 3);
	cr_assert_eq(doc_json_parse(&d, text, strlen(text), &strict_opts, &err), -1);
	cr_assert_eq(err.code, DIAG_E_NOMEM);
	cr_assert_str_eq(err.limit, "memory");
	cr_assert_null(d.root);
	doc_release(&d);
	free(text);
}

/* ---- the document model: pointers, equality, writer ------------------------ */

Test(doc, resolve_and_pointer_tokens)
{
	struct doc d;
	struct node *r = root_of(&d, "{\"a/b\": {\"m~n\": [10, 20, {\"\": 1}]},"
				     " \"01\": 5}", &strict_opts);
	struct node *deepest = NULL;
	struct sbuf b = SBUF_INIT;

	cr_assert_eq(doc_resolve(r, "", NULL), r);
	cr_assert_eq(doc_resolve(r, "/a~1b/m~0n/1", NULL)->v.i, 20);
	cr_assert_eq(doc_resolve(r, "/a~1b/m~0n/2/", NULL)->v.i, 1);
	cr_assert_eq(doc_resolve(r, "/01", NULL)->v.i, 5);
	cr_assert_null(doc_resolve(r, "/a~1b/m~0n/01", NULL)); /* no leading 0 */
	cr_assert_null(doc_resolve(r, "/a~1b/m~0n/3", &deepest));
	cr_assert_eq(deepest->type, NODE_LIST);
	cr_assert_null(doc_resolve(r, "/a~2b", NULL));
	cr_assert_null(doc_resolve(r, "a", NULL));
	doc_pointer_token(&b, r->v.map.pairs[0].key);
	cr_assert_str_eq(sbuf_cstr(&b), "/a~1b");
	sbuf_reset(&b);
	doc_pointer_add(&b, "~/x", 3);
	cr_assert_str_eq(sbuf_cstr(&b), "/~0~1x");
	sbuf_release(&b);
	doc_release(&d);
}

Test(doc, key_and_value_equality)
{
	struct doc d;
	struct node *r = root_of(&d, "[1, 1.0, true, 0, false, -0.0, \"1\", null,"
				     " NaN, NaN, [1], [1.0], {\"a\": 1},"
				     " {\"a\": 1.0}, 2, 9007199254740993]",
				 &python_opts);
	struct node **it = r->v.list.items;
	struct node big;

	cr_assert(doc_key_equal(it[0], it[1]));  /* 1 == 1.0 */
	cr_assert(doc_key_equal(it[0], it[2]));  /* 1 == True */
	cr_assert(doc_key_equal(it[3], it[4]));  /* 0 == False */
	cr_assert(doc_key_equal(it[3], it[5]));  /* 0 == -0.0 */
	cr_assert_not(doc_key_equal(it[0], it[6])); /* 1 != "1" */
	cr_assert(doc_key_equal(it[7], it[7]));
	cr_assert(doc_key_equal(it[8], it[9]));  /* every NaN key alike */
	cr_assert_not(doc_key_equal(it[10], it[11])); /* lists are no keys */
	cr_assert_not(doc_equal(it[0], it[2]));  /* bool only with bool */
	cr_assert(doc_equal(it[0], it[1]));
	cr_assert(doc_equal(it[10], it[11]));
	cr_assert(doc_equal(it[12], it[13]));
	cr_assert_not(doc_equal(it[12], it[10]));
	cr_assert_not(doc_equal(it[0], it[14]));
	/* int64 against a double, exactly: 2^53 + 1 is no double. */
	big = *it[1];
	big.v.f = 9007199254740992.0;
	cr_assert_not(doc_key_equal(it[15], &big));
	doc_release(&d);
}

Test(doc, json_writer)
{
	struct doc d;
	struct node *r = root_of(&d, "{\"s\": \"a\\\"b\\n\\u0001\xC3\xA9\", \"f\": [0.1,"
				     " 1e16, 1e-05, -0.0, 10.0], \"i\": -7,"
				     " \"big\": 123456789012345678901234567890,"
				     " \"n\": null, \"b\": false, \"e\": {}, \"l\": []}",
				 &strict_opts);
	struct sbuf b = SBUF_INIT;
	struct node *nan_doc;
	struct doc d2;

	cr_assert_eq(doc_json_write(&b, r), 0);
	cr_assert_str_eq(sbuf_cstr(&b),
			 "{\"s\": \"a\\\"b\\n\\u0001\xC3\xA9\", \"f\": [0.1, 1e+16,"
			 " 1e-05, -0.0, 10.0], \"i\": -7,"
			 " \"big\": 123456789012345678901234567890,"
			 " \"n\": null, \"b\": false, \"e\": {}, \"l\": []}");
	sbuf_release(&b);
	nan_doc = root_of(&d2, "[1, NaN]", &python_opts);
	sbuf_init(&b);
	cr_assert_eq(doc_json_write(&b, nan_doc), -1);
	sbuf_release(&b);
	doc_release(&d2);
	doc_release(&d);
}

Test(doc, time_text_forms)
{
	struct doc_time t = { 2026, 1, 1, 10, 0, 0, 1, 500000, -330 };
	char out[64];

	doc_time_text(&t, 1, 0, out, sizeof out);
	cr_assert_str_eq(out, "2026-01-01 10:00:00.500000-05:30");
	doc_time_text(&t, 1, 1, out, sizeof out);
	cr_assert_str_eq(out, "2026-01-01T10:00:00.500000-05:30");
	t.usec = 0;
	t.offset = 0;
	doc_time_text(&t, 1, 0, out, sizeof out);
	cr_assert_str_eq(out, "2026-01-01 10:00:00+00:00");
	doc_time_text(&t, 0, 0, out, sizeof out);
	cr_assert_str_eq(out, "2026-01-01");
}
