/*
 * test_yaml.c: the YAML loader against spec/yaml.md. The 104 rows of its
 * scalar table are one parameterized test compared exactly (floats bit
 * for bit); then the notes of 2.2-2.3, merge keys (4), duplicate and typed
 * keys (5), streams (6.1), anchors and limits (6.2, 6.3, core.md 4.5),
 * encodings (8), tabs (9), positions, the comment scanner, the PCRE2
 * patterns of 2.2 against the hand-written classifier (2.4), allocation
 * failure through the arena seam, and every file of fixtures/yaml/.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/re/re.h"
#include "core/util/readfile.h"
#include "core/util/utf8.h"
#include "core/yaml/yaml.h"

/* ---- helpers ------------------------------------------------------------ */

static int load_lim(struct yaml_file *f, const char *text, size_t len,
		    enum yaml_mode mode, const struct yaml_limits *lim,
		    struct diag *err)
{
	yaml_file_init(f);
	diag_init(err);
	return yaml_load(f, text, len, mode, lim, 0, err);
}

static int load(struct yaml_file *f, const char *text, enum yaml_mode mode,
		struct diag *err)
{
	struct yaml_limits lim;

	yaml_limits_default(&lim);
	return load_lim(f, text, strlen(text), mode, &lim, err);
}

/* Load one document that must load; returns its root. */
static struct node *root_of(struct yaml_file *f, const char *text)
{
	struct diag err;
	int rc = load(f, text, YAML_SINGLE, &err);

	cr_assert_eq(rc, 0, "'%s' failed: %s", text, err.msg);
	cr_assert_eq(f->ndocs, 1);
	return f->docs[0]->root;
}

/* The code a text fails with (DIAG_OK when it loads). */
static enum diag_code code_of(const char *text, enum yaml_mode mode,
			      struct diag *err)
{
	struct yaml_file f;
	int rc = load(&f, text, mode, err);

	yaml_file_release(&f);
	return rc == 0 ? DIAG_OK : err->code;
}

static const char *str_of(const struct node *n)
{
	cr_assert_eq(n->type, NODE_STR, "not a string: type %d", n->type);
	return n->v.str.s;
}

static struct node *get(const struct node *m, const char *k)
{
	struct node *v = doc_get(m, k);

	cr_assert_not_null(v, "no key '%s'", k);
	return v;
}

static int same_bits(double a, double b)
{
	return memcmp(&a, &b, sizeof a) == 0;
}

/* ---- the scalar table (spec/yaml.md 7) ----------------------------------- */

enum want { W_STR, W_NULL, W_BOOL, W_INT, W_FLOAT, W_NAN, W_DATE, W_DT, W_ERR };

/* Text inline, not pointers: Criterion runs each case in a new process
 * image, where a pointer into the runner's data means nothing. */
struct srow {
	int row;
	char text[48];      /* after "v: " */
	enum want want;
	long long i;        /* bool, int */
	double f;           /* float */
	char s[48];         /* string value, or timestamp in Python str() */
};

#define S(r, t, v) { r, t, W_STR, 0, 0, v }
#define N(r, t) { r, t, W_NULL, 0, 0, "" }
#define B(r, t, v) { r, t, W_BOOL, v, 0, "" }
#define I(r, t, v) { r, t, W_INT, v, 0, "" }
#define F(r, t, v) { r, t, W_FLOAT, 0, v, "" }
#define D(r, t, v) { r, t, W_DATE, 0, 0, v }
#define DT(r, t, v) { r, t, W_DT, 0, 0, v }
#define E(r, t) { r, t, W_ERR, 0, 0, "" }

static struct srow scalar_rows[] = {
	B(1, "yes", 1), B(2, "Yes", 1), B(3, "YES", 1), S(4, "yEs", "yEs"),
	B(5, "no", 0), B(6, "on", 1), B(7, "OFF", 0), B(8, "True", 1),
	S(9, "tRue", "tRue"), S(10, "y", "y"), S(11, "N", "N"),
	S(12, "\"yes\"", "yes"), N(13, ""), N(14, "~"), N(15, "null"),
	N(16, "NULL"), S(17, "nUll", "nUll"), S(18, "None", "None"),
	I(19, "0", 0), I(20, "-0", 0), I(21, "+12", 12), I(22, "012", 10),
	I(23, "-012", -10), S(24, "08", "08"), I(25, "0_7", 7),
	S(26, "0o17", "0o17"), I(27, "0b101", 5), I(28, "-0b11", -3),
	S(29, "0b2", "0b2"), E(30, "0b_"), I(31, "0x1F", 31),
	S(32, "0X1F", "0X1F"), I(33, "0xff_ff", 65535), E(34, "0x_"),
	I(35, "1_000", 1000), I(36, "1__", 1), S(37, "_1", "_1"),
	S(38, "1,000", "1,000"), I(39, "1:00", 60), I(40, "12:30:00", 45000),
	I(41, "60:00", 3600), S(42, "1:60", "1:60"), S(43, "0:30", "0:30"),
	S(44, "01:30", "01:30"), I(45, "-1:30", -90),
	I(46, "20260101", 20260101),
	I(47, "9223372036854775807", INT64_MAX),
	E(48, "9223372036854775808"), F(49, "1.0", 1.0), F(50, "1.", 1.0),
	F(51, ".5", 0.5), S(52, "-.5", "-.5"), S(53, "+.5", "+.5"),
	S(54, ".", "."), S(55, "1e3", "1e3"), S(56, "1.5e3", "1.5e3"),
	F(57, "1.5e+3", 1500.0), F(58, "1.5E-2", 0.015),
	F(59, "1.e-3", 0.001), S(60, "123e+4", "123e+4"),
	F(61, "3.14_15", 3.1415), S(62, "1.0e+1_0", "1.0e+1_0"),
	F(63, "1.0e+400", INFINITY), F(64, "-0.0", -0.0),
	F(65, ".inf", INFINITY), F(66, "-.Inf", -INFINITY),
	F(67, "+.INF", INFINITY), S(68, ".iNf", ".iNf"), S(69, "inf", "inf"),
	{ 70, ".nan", W_NAN, 0, 0, "" }, S(71, "-.nan", "-.nan"),
	S(72, "nan", "nan"), F(73, "1:30.5", 90.5),
	F(74, "190:20:30.15", 685230.15), F(75, "01:30.0", 90.0),
	D(76, "2026-01-01", "2026-01-01"), S(77, "2026-1-1", "2026-1-1"),
	DT(78, "2026-01-01 10:00:00", "2026-01-01 10:00:00"),
	DT(79, "2026-01-01T10:00:00Z", "2026-01-01 10:00:00+00:00"),
	DT(80, "2026-01-01t10:00:00.5+05:30",
	   "2026-01-01 10:00:00.500000+05:30"),
	DT(81, "2026-01-01 10:00:00.1234567 -5",
	   "2026-01-01 10:00:00.123456-05:00"),
	DT(82, "2026-1-1 1:00:00", "2026-01-01 01:00:00"),
	S(83, "2026-01-01 10:00", "2026-01-01 10:00"),
	S(84, "2026-01-01 10:00:00+0530", "2026-01-01 10:00:00+0530"),
	E(85, "2026-02-30"), E(86, "2026-01-01 25:00:00"),
	S(87, "\"123\"", "123"), S(88, "'1.5'", "1.5"), I(89, "! 123", 123),
	I(90, "! \"123\"", 123), S(91, "!!str 123", "123"),
	S(92, "!!str yes", "yes"), I(93, "!!int \"0o17\"", 15),
	E(94, "!!int 1.5"), F(95, "!!float 1", 1.0),
	F(96, "!!float \"1e3\"", 1000.0), E(97, "!!bool \"Y\""),
	B(98, "!!bool \"tRuE\"", 1), N(99, "!!null \"x\""),
	D(100, "!!timestamp \"2026-01-01\"", "2026-01-01"),
	E(101, "!foo bar"), E(102, "<<"), E(103, "="),
	E(104, "!!binary aGVsbG8="),
};

ParameterizedTestParameters(yaml, scalar_table)
{
	return cr_make_param_array(struct srow, scalar_rows,
				   sizeof scalar_rows / sizeof scalar_rows[0]);
}

/* One row, exactly: type and value; floats compared bit for bit on
 * purpose (the value must be the one PyYAML builds). */
ParameterizedTest(struct srow *r, yaml, scalar_table)
{
	char text[128], ts[64];
	struct yaml_file f;
	struct diag err;
	const struct node *v;
	int rc;

	snprintf(text, sizeof text, "v: %s\n", r->text);
	rc = load(&f, text, YAML_SINGLE, &err);
	if (r->want == W_ERR) {
		cr_assert_eq(rc, -1, "row %d '%s' loaded", r->row, r->text);
		cr_assert_eq(err.code, DIAG_E_TYPE, "row %d: %s", r->row,
			     err.msg);
		cr_assert_str_eq(diag_id(&err), "input.type");
		cr_assert_eq(err.line, 1);
		cr_assert_eq(err.col, 4, "row %d col %u", r->row, err.col);
		cr_assert_str_eq(err.path, "/v");
		yaml_file_release(&f);
		return;
	}
	cr_assert_eq(rc, 0, "row %d '%s': %s", r->row, r->text, err.msg);
	v = get(f.docs[0]->root, "v");
	switch (r->want) {
	case W_STR:
		cr_assert_eq(v->type, NODE_STR, "row %d type %d", r->row,
			     v->type);
		cr_assert_str_eq(v->v.str.s, r->s, "row %d", r->row);
		cr_assert_eq(v->v.str.len, strlen(r->s));
		break;
	case W_NULL:
		cr_assert_eq(v->type, NODE_NULL, "row %d type %d", r->row,
			     v->type);
		break;
	case W_BOOL:
		cr_assert_eq(v->type, NODE_BOOL, "row %d", r->row);
		cr_assert_eq(v->v.b, (int)r->i, "row %d", r->row);
		break;
	case W_INT:
		cr_assert_eq(v->type, NODE_INT, "row %d type %d", r->row,
			     v->type);
		cr_assert_eq(v->v.i, (int64_t)r->i, "row %d: %lld", r->row,
			     (long long)v->v.i);
		break;
	case W_FLOAT:
		cr_assert_eq(v->type, NODE_FLOAT, "row %d type %d", r->row,
			     v->type);
		cr_assert(same_bits(v->v.f, r->f), "row %d: %.17g != %.17g",
			  r->row, v->v.f, r->f);
		break;
	case W_NAN:
		cr_assert_eq(v->type, NODE_FLOAT, "row %d", r->row);
		cr_assert(isnan(v->v.f), "row %d", r->row);
		break;
	case W_DATE:
	case W_DT:
		cr_assert_eq(v->type, r->want == W_DATE ? NODE_DATE : NODE_DATETIME,
			     "row %d type %d", r->row, v->type);
		doc_time_text(&v->v.t, v->type == NODE_DATETIME, 0, ts,
			      sizeof ts);
		cr_assert_str_eq(ts, r->s, "row %d", r->row);
		break;
	default:
		cr_assert_fail("bad row");
	}
	yaml_file_release(&f);
}

/* ---- notes of 2.2, 2.3, 3 and 7 ------------------------------------------ */

Test(yaml, bang_tag_and_trailing_newline)
{
	struct yaml_file f;
	struct diag err;
	struct node *r = root_of(&f, "a: ! \"12\\n\"\nb: ! \"null\\n\"\n"
				     "c: ! \"2026-01-01\\n\"\nd: ! \"12\\n\\n\"\n"
				     "e: ! \"\\n\"\n");

	cr_assert_eq(get(r, "a")->type, NODE_INT);
	cr_assert_eq(get(r, "a")->v.i, 12);
	cr_assert_eq(get(r, "b")->type, NODE_NULL);
	cr_assert_eq(get(r, "c")->type, NODE_DATE);
	cr_assert_str_eq(str_of(get(r, "d")), "12\n\n");
	cr_assert_str_eq(str_of(get(r, "e")), "\n");
	yaml_file_release(&f);
	cr_assert_eq(code_of("v: ! \"true\\n\"\n", YAML_SINGLE, &err),
		     DIAG_E_TYPE);
	cr_assert_eq(code_of("v: ! \".inf\\n\"\n", YAML_SINGLE, &err),
		     DIAG_E_TYPE); /* float(".inf\n") refuses */
}

Test(yaml, explicit_int_float_bool)
{
	static const struct {
		const char *text;
		enum node_type type;
		long long i;
		double f;
	} ok[] = {
		{ "!!int \"017\"", NODE_INT, 15, 0 },
		{ "!!int \" 12\"", NODE_INT, 12, 0 },
		{ "!!int \" 012\"", NODE_INT, 12, 0 }, /* int(' 012') is base 10 */
		{ "!!int \"1:00\"", NODE_INT, 60, 0 },
		{ "!!int \"1:-30\"", NODE_INT, 30, 0 },
		{ "!!int \"0b0b101\"", NODE_INT, 5, 0 },
		{ "!!int \"0x0X1F\"", NODE_INT, 31, 0 },
		{ "!!int \"- 5\"", NODE_INT, -5, 0 },
		{ "!!int \"-9223372036854775808\"", NODE_INT, INT64_MIN, 0 },
		{ "!!float \" 2 \"", NODE_FLOAT, 0, 2.0 },
		{ "!!float \"inf\"", NODE_FLOAT, 0, INFINITY },
		{ "!!float \"1:30\"", NODE_FLOAT, 0, 90.0 },
		{ "!!float \"1.0e-400\"", NODE_FLOAT, 0, 0.0 },
		{ "!!float 4.9e-324", NODE_FLOAT, 0, 5e-324 },
		{ "!!float \"1E3\"", NODE_FLOAT, 0, 1000.0 },
		{ "!!str", NODE_STR, 0, 0 },
		{ "!!str ~", NODE_STR, 0, 0 },
	};
	static const char *const bad[] = {
		"!!int \"\"", "!!int \"-\"", "!!int \"1e3\"", "!!int \"0X1F\"",
		"!!int \"0_8\"", "!!int \"1::2\"", "!!float \"\"",
		"!!float \"0x10\"", "!!float \"1,5\"", "!!bool \"1\"",
		"!!timestamp \"x\"", "!!timestamp \"2026-01-01 10:00:00+24\"",
		"2026-01-01 23:59:60", "2100-02-29", "0000-01-01",
		"!!str [1]", "!!map [1]", "!!seq abc", "!!set {a, b}",
		"!!omap [a: 1]", "!!pairs [a: 1]", "!!python/tuple [1]",
		"!!merge x", "!!value x", "-9223372036854775809",
	};
	struct diag err;
	size_t i;

	for (i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		char text[96];
		struct yaml_file f;
		struct node *v;

		snprintf(text, sizeof text, "v: %s\n", ok[i].text);
		v = get(root_of(&f, text), "v");
		cr_assert_eq(v->type, ok[i].type, "%s", ok[i].text);
		if (v->type == NODE_INT)
			cr_assert_eq(v->v.i, (int64_t)ok[i].i, "%s", ok[i].text);
		if (v->type == NODE_FLOAT)
			cr_assert(same_bits(v->v.f, ok[i].f), "%s: %.17g",
				  ok[i].text, v->v.f);
		yaml_file_release(&f);
	}
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char text[96];

		snprintf(text, sizeof text, "v: %s\n", bad[i]);
		cr_assert_eq(code_of(text, YAML_SINGLE, &err), DIAG_E_TYPE,
			     "%s: %s", bad[i], err.msg);
		cr_assert_str_eq(err.path, "/v");
	}
	cr_assert(strstr(code_of("v: 9223372036854775808\n", YAML_SINGLE,
				 &err) == DIAG_E_TYPE ? err.msg : "",
			 "64-bit"));
	cr_assert(strstr(code_of("v: !!binary aGVsbG8=\n", YAML_SINGLE,
				 &err) == DIAG_E_TYPE ? err.msg : "",
			 "unsupported tag"));
	cr_assert(strstr(code_of("v: !foo x\n", YAML_SINGLE, &err) == DIAG_E_TYPE
				 ? err.msg : "",
			 "unknown tag"));
}

Test(yaml, timestamps_validate)
{
	struct yaml_file f;
	struct node *r = root_of(&f, "a: 2028-02-29\n"
				     "b: 2026-01-01 10:00:00 +23:59\n"
				     "c: 2026-01-01 10:00:00+05:99\n"
				     "d: 2026-01-01 10:00:00.\n"
				     "e: !!timestamp \"2026-1-1\"\n");
	char ts[64];

	cr_assert_eq(get(r, "a")->type, NODE_DATE);
	cr_assert_eq(get(r, "b")->v.t.offset, 23 * 60 + 59);
	cr_assert_eq(get(r, "c")->v.t.offset, 6 * 60 + 39);
	cr_assert_eq(get(r, "d")->v.t.usec, 0);
	doc_time_text(&get(r, "e")->v.t, 0, 0, ts, sizeof ts);
	cr_assert_str_eq(ts, "2026-01-01");
	yaml_file_release(&f);
}

Test(yaml, block_and_folded_scalars_are_strings)
{
	struct yaml_file f;
	struct node *r = root_of(&f, "a: |\n  123\nb: >\n  yes\nc: 1\n  2\n"
				     "d: yes\n  no\ne: a#b\nf: 12 # note\n");

	cr_assert_str_eq(str_of(get(r, "a")), "123\n");
	cr_assert_str_eq(str_of(get(r, "b")), "yes\n");
	cr_assert_str_eq(str_of(get(r, "c")), "1 2");
	cr_assert_str_eq(str_of(get(r, "d")), "yes no");
	cr_assert_str_eq(str_of(get(r, "e")), "a#b");
	cr_assert_eq(get(r, "f")->v.i, 12);
	cr_assert_eq(get(r, "a")->style, STYLE_BLOCK);
	yaml_file_release(&f);
}

Test(yaml, yaml12_directive_changes_nothing)
{
	struct yaml_file f;
	struct diag err;
	struct node *r = root_of(&f, "%YAML 1.2\n---\na: yes\n");

	cr_assert_eq(get(r, "a")->type, NODE_BOOL);
	yaml_file_release(&f);
	cr_assert_eq(code_of("%YAML 2.0\n---\na: 1\n", YAML_SINGLE, &err),
		     DIAG_E_YAML);
	r = root_of(&f, "%TAG !e! tag:yaml.org,2002:\n---\na: !e!int \"12\"\n"
			"b: !<tag:yaml.org,2002:int> \"7\"\n");
	cr_assert_eq(get(r, "a")->v.i, 12);
	cr_assert_eq(get(r, "b")->v.i, 7);
	yaml_file_release(&f);
}

/* ---- merge keys (spec/yaml.md 4) ----------------------------------------- */

static void assert_keys(const struct node *m, const char *const *keys,
			size_t n)
{
	size_t i;

	cr_assert_eq(m->type, NODE_MAP);
	cr_assert_eq(m->v.map.n, n, "%zu keys, want %zu", m->v.map.n, n);
	for (i = 0; i < n; i++)
		cr_assert_str_eq(str_of(m->v.map.pairs[i].key), keys[i]);
}

Test(yaml, merge_order_and_precedence)
{
	static const char *const want[] = { "a", "k", "z", "own" };
	struct yaml_file f;
	struct node *r = root_of(&f, "p: &p {a: 1, k: p}\n"
				     "q: &q {a: 2, k: q, z: 9}\n"
				     "x: {<<: [*p, *q], own: 0}\n"
				     "b: &b {b: 1, c: 2}\n"
				     "y: {<<: *b, b: 3}\n"
				     "w: {b: 3, <<: *b}\n"
				     "n1: &n1 {x: 1}\n"
				     "n2: &n2 {<<: *n1, y: 2}\n"
				     "n3: {<<: *n2, z: 3}\n"
				     "s: {\"<<\": 1}\n"
				     "e: {=: 5}\n");
	struct node *x = get(r, "x");

	assert_keys(x, want, 4);
	cr_assert_eq(get(x, "a")->v.i, 1); /* earlier sources win */
	cr_assert_str_eq(str_of(get(x, "k")), "p");
	cr_assert_eq(get(x, "z")->v.i, 9);
	cr_assert(x->merged);
	cr_assert_eq(get(get(r, "y"), "b")->v.i, 3); /* explicit keys win */
	cr_assert_eq(get(get(r, "w"), "b")->v.i, 3);
	cr_assert_eq(get(get(r, "y"), "c")->v.i, 2);
	cr_assert_eq(get(get(r, "n3"), "x")->v.i, 1); /* flattened first */
	cr_assert_eq(get(get(r, "n3"), "y")->v.i, 2);
	cr_assert_eq(get(get(r, "s"), "<<")->v.i, 1); /* quoted: a string */
	cr_assert_eq(get(get(r, "e"), "=")->v.i, 5);
	/* A merged entry keeps the marks of its text in the anchor. */
	cr_assert_eq(get(x, "z")->line, 2);
	yaml_file_release(&f);
}

Test(yaml, merge_refusals)
{
	static const struct {
		const char *text;
		enum diag_code code;
		unsigned line, col;
		const char *path;
	} rows[] = {
		{ "a: {<<: 1}\n", DIAG_E_TYPE, 1, 9, "/a/<<" },
		{ "a: {<<: ~}\n", DIAG_E_TYPE, 1, 9, "/a/<<" },
		{ "a: {<<: [1]}\n", DIAG_E_TYPE, 1, 10, "/a/<<" },
		{ "x: &a [1, 2]\ny: {<<: *a}\n", DIAG_E_TYPE, 1, 8, "/y/<<" },
		{ "p: &p {a: 1}\nq: &q {a: 2}\nx: {<<: *p, <<: *q}\n",
		  DIAG_E_DUPKEY, 3, 13, "/x/<<" },
		{ "v: <<\n", DIAG_E_TYPE, 1, 4, "/v" },
		{ "v: =\n", DIAG_E_TYPE, 1, 4, "/v" },
		{ "- <<\n", DIAG_E_TYPE, 1, 3, "/0" },
	};
	size_t i;

	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct diag err;

		cr_assert_eq(code_of(rows[i].text, YAML_SINGLE, &err),
			     rows[i].code, "%s: %s", rows[i].text, err.msg);
		cr_assert_eq(err.line, rows[i].line, "%s", rows[i].text);
		cr_assert_eq(err.col, rows[i].col, "%s: col %u", rows[i].text,
			     err.col);
		cr_assert_str_eq(err.path, rows[i].path, "%s", rows[i].text);
	}
}

/* ---- duplicate and typed keys (spec/yaml.md 5) ---------------------------- */

Test(yaml, duplicate_keys_python_equality)
{
	static const struct {
		const char *text;
		int dup;
	} rows[] = {
		{ "a: 1\na: 2\n", 1 },          { "\"1\": 1\n1: 2\n", 0 },
		{ "1: a\n1.0: b\n", 1 },        { "true: a\n1: b\n", 1 },
		{ "yes: a\ntrue: b\n", 1 },     { "no: a\n0: b\n", 1 },
		{ "010: a\n8: b\n", 1 },        { "~: a\nnull: b\n", 1 },
		{ ".nan: a\n.nan: b\n", 1 },    { "2026-01-01: a\n2026-01-01: b\n", 1 },
		{ "2026-01-01: a\n2026-01-01 00:00:00: b\n", 0 },
		{ "? 2026-01-01 10:00:00+01:00\n: a\n? 2026-01-01 09:00:00Z\n: b\n", 1 },
		{ "-0.0: a\n0: b\n", 1 },       { "a: 1\nb: 2\n", 0 },
	};
	size_t i;

	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct diag err;
		enum diag_code c = code_of(rows[i].text, YAML_SINGLE, &err);

		cr_assert_eq(c, rows[i].dup ? DIAG_E_DUPKEY : DIAG_OK, "%s: %s",
			     rows[i].text, err.msg);
		if (rows[i].dup) {
			cr_assert_str_eq(diag_id(&err), "input.duplicate-key");
			cr_assert(strstr(err.msg, "line 1"), "%s", err.msg);
		}
	}
}

Test(yaml, duplicate_key_message_position_path)
{
	struct diag err;

	cr_assert_eq(code_of("a: 1\nb:\n  c: 1\n  d: 2\n  c: 3\n", YAML_SINGLE,
			     &err),
		     DIAG_E_DUPKEY);
	cr_assert_eq(err.line, 5);
	cr_assert_eq(err.col, 3);
	cr_assert_str_eq(err.path, "/b/c");
	cr_assert_str_eq(err.msg, "key 'c' repeats the key on line 3");
	/* Large mappings go through the hash table. */
	{
		char text[4096];
		size_t o = 0;
		int k;

		for (k = 0; k < 200; k++)
			o += (size_t)snprintf(text + o, sizeof text - o,
					      "k%d: %d\n", k, k);
		snprintf(text + o, sizeof text - o, "k77: again\n");
		cr_assert_eq(code_of(text, YAML_SINGLE, &err), DIAG_E_DUPKEY);
		cr_assert_eq(err.line, 201);
		cr_assert_str_eq(err.path, "/k77");
		cr_assert_str_eq(err.msg, "key 'k77' repeats the key on line 78");
	}
}

Test(yaml, typed_keys_and_pointers)
{
	struct yaml_file f;
	struct node *r = root_of(&f, "2: a\non: b\n~: c\n2026-01-01: d\n"
				     "1.5: e\nk: &k kk\n*k : f\n");
	struct sbuf b = SBUF_INIT;
	size_t i;
	static const char *const tokens[] = { "/2", "/true", "/null",
					      "/2026-01-01", "/1.5", "/k",
					      "/kk" };

	cr_assert_eq(r->v.map.n, 7);
	cr_assert_eq(r->v.map.pairs[0].key->type, NODE_INT);
	cr_assert_eq(r->v.map.pairs[1].key->type, NODE_BOOL);
	cr_assert_eq(r->v.map.pairs[2].key->type, NODE_NULL);
	cr_assert_eq(r->v.map.pairs[3].key->type, NODE_DATE);
	cr_assert_eq(r->v.map.pairs[4].key->type, NODE_FLOAT);
	for (i = 0; i < 7; i++) {
		sbuf_reset(&b);
		doc_pointer_token(&b, r->v.map.pairs[i].key);
		cr_assert_str_eq(sbuf_cstr(&b), tokens[i]);
	}
	cr_assert_null(doc_get(r, "2")); /* lookup by name: strings only */
	cr_assert_str_eq(str_of(doc_resolve(r, "/true", NULL)), "b");
	cr_assert_str_eq(str_of(doc_resolve(r, "/kk", NULL)), "f");
	sbuf_release(&b);
	yaml_file_release(&f);
}

Test(yaml, unhashable_keys)
{
	struct diag err;

	cr_assert_eq(code_of("? [a, b]\n: 1\n", YAML_SINGLE, &err), DIAG_E_TYPE);
	cr_assert_eq(err.line, 1);
	cr_assert_eq(err.col, 3);
	cr_assert_eq(code_of("[a]: 1\n", YAML_SINGLE, &err), DIAG_E_TYPE);
	cr_assert_eq(code_of("{a: 1}: 2\n", YAML_SINGLE, &err), DIAG_E_TYPE);
	cr_assert(strstr(err.msg, "unhashable"));
}

/* ---- documents and streams (spec/yaml.md 6.1) ---------------------------- */

Test(yaml, stream_and_single_modes)
{
	static const struct {
		const char *text;
		int single;    /* 0 ok (null root?), else the code */
		int single_null;
		size_t stream; /* documents in stream mode, 0 = error */
		int stream_null;
	} rows[] = {
		{ "", 0, 1, 1, 1 },
		{ "# only a comment\n", 0, 1, 1, 1 },
		{ "---\n", 0, 1, 1, 1 },
		{ "---\n...\n", 0, 1, 1, 1 },
		{ "...\n", DIAG_E_YAML, 0, 0, 0 },
		{ "a: 1\n---\nb: 2\n", DIAG_E_YAML, 0, 2, 0 },
		{ "---\n---\n", DIAG_E_YAML, 0, 1, 1 },
		{ "a: 1\n---\n", DIAG_E_YAML, 0, 1, 0 },
		{ "a: 1\n...\n---\nb: 2\n", DIAG_E_YAML, 0, 2, 0 },
		{ "hello\n", 0, 0, 1, 0 },
		{ "- a\n- b\n", 0, 0, 1, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct yaml_file f;
		struct diag err;
		int rc = load(&f, rows[i].text, YAML_SINGLE, &err);

		if (rows[i].single) {
			cr_assert_eq(rc, -1, "single '%s'", rows[i].text);
			cr_assert_eq(err.code, (enum diag_code)rows[i].single);
			cr_assert_eq(f.ndocs, 0);
		} else {
			cr_assert_eq(rc, 0, "single '%s': %s", rows[i].text,
				     err.msg);
			cr_assert_eq(f.ndocs, 1);
			cr_assert_eq(f.docs[0]->root->type == NODE_NULL,
				     rows[i].single_null);
		}
		yaml_file_release(&f);
		rc = load(&f, rows[i].text, YAML_STREAM, &err);
		if (!rows[i].stream) {
			cr_assert_eq(rc, -1, "stream '%s'", rows[i].text);
			cr_assert_eq(err.code, DIAG_E_YAML);
		} else {
			cr_assert_eq(rc, 0, "stream '%s': %s", rows[i].text,
				     err.msg);
			cr_assert_eq(f.ndocs, rows[i].stream, "stream '%s'",
				     rows[i].text);
			cr_assert_eq(f.docs[0]->root->type == NODE_NULL,
				     rows[i].stream_null);
		}
		yaml_file_release(&f);
	}
}

Test(yaml, second_document_position_and_indexes)
{
	struct yaml_file f;
	struct diag err;

	cr_assert_eq(code_of("a: 1\n---\nb: 2\n", YAML_SINGLE, &err), DIAG_E_YAML);
	cr_assert_eq(err.line, 2);
	cr_assert_eq(err.col, 1);
	cr_assert(strstr(err.msg, "single document"));
	/* PyYAML looks for the second document before it constructs the
	 * first: that error wins over a type error in document one. */
	cr_assert_eq(code_of("a: !!int x\n---\nb: 2\n", YAML_SINGLE, &err),
		     DIAG_E_YAML);
	cr_assert_eq(code_of("a: !!int x\n", YAML_SINGLE, &err), DIAG_E_TYPE);
	cr_assert_eq(load(&f, "---\na: 1\n---\n---\nb: 2\n", YAML_STREAM, &err), 0);
	cr_assert_eq(f.ndocs, 2);
	cr_assert_eq(f.docs[0]->index, 0);
	cr_assert_eq(f.docs[1]->index, 2);
	cr_assert_eq(f.docs[1]->start_line, 4);
	yaml_file_release(&f);
	/* A parse error anywhere makes the whole stream fail. */
	cr_assert_eq(code_of("a: 1\n---\nb: [\n", YAML_STREAM, &err), DIAG_E_YAML);
	/* A syntax error in a document wins over its type errors. */
	cr_assert_eq(code_of("a: !!int x\nb: [\n", YAML_STREAM, &err),
		     DIAG_E_YAML);
}

/* ---- anchors and aliases (spec/yaml.md 6.2) ------------------------------ */

Test(yaml, anchors)
{
	struct yaml_file f;
	struct diag err;
	struct node *r = root_of(&f, "a: &x {k: 1}\nb: *x\n");

	cr_assert_eq(get(r, "a"), get(r, "b")); /* shared */
	cr_assert_eq(get(r, "b")->line, 1);
	yaml_file_release(&f);
	cr_assert_eq(code_of("a: *nope\n", YAML_SINGLE, &err), DIAG_E_YAML);
	cr_assert_eq(err.col, 4);
	cr_assert_str_eq(err.path, "/a");
	cr_assert_eq(code_of("a: &x 1\nb: &x 2\n", YAML_SINGLE, &err),
		     DIAG_E_YAML);
	cr_assert_eq(err.line, 2);
	cr_assert(strstr(err.msg, "defined twice"));
	/* Anchors do not cross documents. */
	cr_assert_eq(code_of("a: &x 1\n---\nb: *x\n", YAML_STREAM, &err),
		     DIAG_E_YAML);
	cr_assert_eq(code_of("a: &x [1, *x]\n", YAML_SINGLE, &err), DIAG_E_LIMIT);
	cr_assert(strstr(err.msg, "recursive alias"));
	cr_assert_str_eq(err.limit, "expanded_nodes");
	cr_assert_str_eq(err.path, "/a/1");
	cr_assert_eq(code_of("a: &x {b: *x}\n", YAML_SINGLE, &err), DIAG_E_LIMIT);
}

Test(yaml, billion_laughs_stops_while_read)
{
	char text[2048];
	size_t o;
	int i, j;
	struct diag err;

	o = (size_t)snprintf(text, sizeof text,
			     "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
	for (i = 1; i <= 9; i++) {
		o += (size_t)snprintf(text + o, sizeof text - o, "a%d: &a%d [", i, i);
		for (j = 0; j < 9; j++)
			o += (size_t)snprintf(text + o, sizeof text - o,
					      "%s*a%d", j ? ", " : "", i - 1);
		o += (size_t)snprintf(text + o, sizeof text - o, "]\n");
	}
	cr_assert_eq(code_of(text, YAML_SINGLE, &err), DIAG_E_LIMIT);
	cr_assert_str_eq(err.limit, "expanded_nodes");
	cr_assert_eq(err.limit_value, 1000000);
	cr_assert_eq(err.line, 7); /* a6 (9^6 * 10 nodes) passes a million */
}

/* ---- limits (spec/core.md 4.5) ------------------------------------------- */

static char *nested(const char *open, const char *close, int n)
{
	size_t lo = strlen(open), lc = strlen(close);
	char *s = malloc((size_t)n * (lo + lc) + 2);
	size_t o = 0;
	int i;

	cr_assert_not_null(s);
	for (i = 0; i < n; i++, o += lo)
		memcpy(s + o, open, lo);
	for (i = 0; i < n; i++, o += lc)
		memcpy(s + o, close, lc);
	s[o++] = '\n';
	s[o] = '\0';
	return s;
}

Test(yaml, depth_limit)
{
	char *ok = nested("[", "]", 512), *over = nested("[", "]", 513);
	char *maps = nested("{a: ", "}", 513);
	struct diag err;

	cr_assert_eq(code_of(ok, YAML_SINGLE, &err), DIAG_OK, "%s", err.msg);
	cr_assert_eq(code_of(over, YAML_SINGLE, &err), DIAG_E_LIMIT);
	cr_assert_str_eq(diag_id(&err), "input.limit");
	cr_assert_str_eq(err.limit, "depth");
	cr_assert_eq(err.limit_value, 512);
	cr_assert_eq(err.line, 1);
	cr_assert_eq(err.col, 513);
	cr_assert_str_eq(err.msg,
			 "nesting deeper than the depth limit of 512 levels");
	cr_assert_eq(code_of(maps, YAML_SINGLE, &err), DIAG_E_LIMIT);
	free(ok);
	free(over);
	free(maps);
	/* 100,000 nested '[': no recursion, stops at once. */
	over = nested("[", "", 100000);
	cr_assert_eq(code_of(over, YAML_STREAM, &err), DIAG_E_LIMIT);
	free(over);
}

Test(yaml, every_limit_has_its_finding)
{
	static const struct {
		const char *text;
		const char *limit;
		long long value;
	} rows[] = {
		{ "[1, 2, 3, 4, 5]\n", "nodes", 5 },
		{ "a: &a [x, x]\nb: [*a, *a]\n", "expanded_nodes", 8 },
		{ "a: 123456789\n", "scalar_bytes", 8 },
		{ "a\n---\nb\n---\nc\n", "documents", 2 },
		{ "[[[[1]]]]\n", "depth", 3 },
	};
	size_t i;

	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct yaml_limits lim;
		struct yaml_file f;
		struct diag err;
		int rc;

		yaml_limits_default(&lim);
		if (strcmp(rows[i].limit, "nodes") == 0)
			lim.nodes = 5;
		else if (strcmp(rows[i].limit, "expanded_nodes") == 0)
			lim.expanded_nodes = 8;
		else if (strcmp(rows[i].limit, "scalar_bytes") == 0)
			lim.scalar_bytes = 8;
		else if (strcmp(rows[i].limit, "documents") == 0)
			lim.documents = 2;
		else
			lim.depth = 3;
		rc = load_lim(&f, rows[i].text, strlen(rows[i].text),
			      YAML_STREAM, &lim, &err);
		cr_assert_eq(rc, -1, "%s", rows[i].limit);
		cr_assert_eq(err.code, DIAG_E_LIMIT, "%s", rows[i].limit);
		cr_assert_str_eq(err.limit, rows[i].limit);
		cr_assert_eq(err.limit_value, rows[i].value);
		cr_assert_neq(err.line, 0);
		cr_assert(strstr(err.msg, rows[i].limit) ||
				  strcmp(rows[i].limit, "depth") == 0,
			  "%s", err.msg);
		yaml_file_release(&f);
	}
}

Test(yaml, limits_at_the_boundary_pass)
{
	struct yaml_limits lim;
	struct yaml_file f;
	struct diag err;

	yaml_limits_default(&lim);
	lim.nodes = 6;
	lim.scalar_bytes = 9;
	cr_assert_eq(load_lim(&f, "[1, 2, 3, 4, 123456789]\n", 24, YAML_SINGLE,
			      &lim, &err), 0, "%s", err.msg);
	yaml_file_release(&f);
}

Test(yaml, memory_limit)
{
	struct yaml_limits lim;
	struct yaml_file f;
	struct diag err;
	char *text = nested("[1, ", "]", 400);

	yaml_limits_default(&lim);
	lim.doc_bytes = 8192;
	cr_assert_eq(load_lim(&f, text, strlen(text), YAML_SINGLE, &lim, &err),
		     -1);
	cr_assert_eq(err.code, DIAG_E_NOMEM);
	cr_assert_str_eq(diag_id(&err), "input.limit");
	cr_assert_str_eq(err.limit, "memory");
	cr_assert_eq(err.limit_value, 8192);
	cr_assert_eq(f.ndocs, 0);
	yaml_file_release(&f);
	free(text);
}

/* Fail the N-th arena chunk for N = 1, 2, ... until a load succeeds: each
 * run must end in a clean error (the sanitizer build checks for leaks). */
Test(yaml, allocation_failure_every_chunk)
{
	static const char text[] =
		"a: &a {x: 1, y: [1, 2, 3], z: \"text\"}\n"
		"b: {<<: *a, w: 2026-01-01}\n"
		"c: [yes, no, 1.5, 0x1F, ~, *a]\n"
		"---\n"
		"d: |\n  block\n"
		"e: [[[[deep]]]]\n";
	char big[8192];
	size_t o = 0;
	long n;
	int k;

	memcpy(big, text, sizeof text - 1);
	o = sizeof text - 1;
	for (k = 0; k < 300; k++)
		o += (size_t)snprintf(big + o, sizeof big - o, "k%d: v%d\n", k, k);
	for (n = 1; n < 10000; n++) {
		struct yaml_limits lim;
		struct yaml_file f;
		struct diag err;
		int rc;

		yaml_limits_default(&lim);
		lim.fail_at = n;
		rc = load_lim(&f, big, o, YAML_STREAM, &lim, &err);
		if (rc == 0) {
			cr_assert_eq(f.ndocs, 2);
			yaml_file_release(&f);
			break;
		}
		cr_assert_eq(err.code, DIAG_E_NOMEM, "chunk %ld: %s", n, err.msg);
		cr_assert_str_eq(err.limit, "memory");
		cr_assert_eq(f.ndocs, 0);
		yaml_file_release(&f);
	}
	cr_assert_gt(n, 1);
	cr_assert_lt(n, 10000);
}

/* ---- encodings (spec/yaml.md 8) -------------------------------------------- */

Test(yaml, encodings)
{
	static const unsigned char le[] = { 0xFF, 0xFE, 'a', 0, ':', 0, ' ', 0,
					    0xE9, 0, '\n', 0 };
	static const unsigned char be[] = { 0xFE, 0xFF, 0, 'a', 0, ':', 0, ' ',
					    0xD8, 0x3D, 0xDE, 0x00, 0, '\n' };
	static const unsigned char bom8[] = { 0xEF, 0xBB, 0xBF, 'a', ':', ' ',
					      '1', '\n' };
	static const struct {
		const char *bytes;
		size_t len;
		enum diag_code code;
		unsigned line, col;
	} bad[] = {
		{ "\xFF\xFE\0\0a\0\0\0", 8, DIAG_E_ENCODING, 1, 1 },
		{ "\0\0\xFE\xFF\0\0\0a", 8, DIAG_E_ENCODING, 1, 1 },
		{ "a\0:\0 \0""1\0", 8, DIAG_E_ENCODING, 1, 2 },
		{ "k: ok\nname: caf\xE9\n", 16, DIAG_E_ENCODING, 2, 10 },
		{ "a: b\0c\n", 7, DIAG_E_ENCODING, 1, 5 },
		{ "a: \x07\n", 5, DIAG_E_ENCODING, 1, 4 },
		{ "a: \x7F\n", 5, DIAG_E_ENCODING, 1, 4 },
		{ "a: \xC2\x80\n", 6, DIAG_E_ENCODING, 1, 4 },
		{ "a: \xEF\xBF\xBE\n", 7, DIAG_E_ENCODING, 1, 4 },
		{ "a: \xEF\xBF\xBF\n", 7, DIAG_E_ENCODING, 1, 4 },
		{ "a: \xED\xA0\x80\n", 7, DIAG_E_ENCODING, 1, 4 },
		{ "\xc3\xa9\xc3\xa9\r\n\xc3\xa9: \x01", 11, DIAG_E_ENCODING, 2, 4 },
		{ "\xFF\xFE" "a\0\0\xD8", 6, DIAG_E_ENCODING, 1, 2 },
		{ "\xFF\xFE" "a\0b", 5, DIAG_E_ENCODING, 1, 2 },
		{ "a: \"\\ud800\"\n", 12, DIAG_E_YAML, 1, 7 },
	};
	struct yaml_limits lim;
	struct yaml_file f;
	struct diag err;
	struct node *r;
	size_t i;

	yaml_limits_default(&lim);
	cr_assert_eq(load_lim(&f, (const char *)le, sizeof le, YAML_SINGLE,
			      &lim, &err), 0, "%s", err.msg);
	cr_assert_str_eq(str_of(get(f.docs[0]->root, "a")), "\xC3\xA9");
	cr_assert(f.had_bom);
	yaml_file_release(&f);
	cr_assert_eq(load_lim(&f, (const char *)be, sizeof be, YAML_SINGLE,
			      &lim, &err), 0, "%s", err.msg);
	cr_assert_str_eq(str_of(get(f.docs[0]->root, "a")), "\xF0\x9F\x98\x80");
	yaml_file_release(&f);
	cr_assert_eq(load_lim(&f, (const char *)bom8, sizeof bom8, YAML_SINGLE,
			      &lim, &err), 0);
	cr_assert_eq(get(f.docs[0]->root, "a")->v.i, 1);
	cr_assert_eq(get(f.docs[0]->root, "a")->col, 4); /* the BOM is no column */
	yaml_file_release(&f);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		int rc = load_lim(&f, bad[i].bytes, bad[i].len, YAML_STREAM,
				  &lim, &err);

		cr_assert_eq(rc, -1, "case %zu", i);
		cr_assert_eq(err.code, bad[i].code, "case %zu: %s", i, err.msg);
		cr_assert_eq(err.line, bad[i].line, "case %zu line %u", i,
			     err.line);
		cr_assert_eq(err.col, bad[i].col, "case %zu col %u", i, err.col);
		yaml_file_release(&f);
	}
	r = root_of(&f, "a: 1\r\nb: yes\r\n");
	cr_assert_eq(get(r, "b")->type, NODE_BOOL);
	cr_assert_eq(get(r, "b")->line, 2);
	cr_assert_eq(get(r, "b")->col, 4);
	yaml_file_release(&f);
	r = root_of(&f, "a: \xF0\x9F\x98\x80 \xE2\x82\xAC\n");
	cr_assert_str_eq(str_of(get(r, "a")), "\xF0\x9F\x98\x80 \xE2\x82\xAC");
	yaml_file_release(&f);
}

/* ---- tabs (spec/yaml.md 9) -------------------------------------------------- */

Test(yaml, tabs_as_libyaml)
{
	struct yaml_file f;
	struct diag err;
	struct node *r = root_of(&f, "a:\t1\nb: 1\t# c\nc: [1,\t2]\nd: x\ty\n"
				     "e: 2026-01-01\t10:00:00\n");

	cr_assert_eq(get(r, "a")->v.i, 1);
	cr_assert_eq(get(r, "b")->v.i, 1);
	cr_assert_eq(get(r, "c")->v.list.n, 2);
	cr_assert_str_eq(str_of(get(r, "d")), "x\ty");
	cr_assert_eq(get(r, "e")->type, NODE_DATETIME);
	yaml_file_release(&f);
	cr_assert_eq(code_of("a:\n\tb: 1\n", YAML_SINGLE, &err), DIAG_E_YAML);
	cr_assert_eq(err.line, 2);
	cr_assert_eq(err.col, 1);
	{
		char text[1200];

		memset(text, 'k', 1100);
		memcpy(text + 1100, ": 1\n", 5);
		cr_assert_eq(code_of(text, YAML_SINGLE, &err), DIAG_E_YAML);
	}
}

/* ---- positions ------------------------------------------------------------------ */

Test(yaml, positions_count_code_points)
{
	struct yaml_file f;
	struct node *r = root_of(&f, "\xC3\xA9\xC3\xA9: b\nlist:\n  - [1, {x: y}]\n"
				     "q: \"two\n  lines\"\n");
	const struct doc_pair *p = &r->v.map.pairs[0];
	struct node *l = get(r, "list"), *q = get(r, "q"), *inner;

	cr_assert_eq(p->key->line, 1);
	cr_assert_eq(p->key->col, 1);
	cr_assert_eq(p->key->end_col, 3);
	cr_assert_eq(p->value->col, 5); /* not 7: characters, not bytes */
	cr_assert_eq(p->value->end_col, 6);
	cr_assert_eq(l->line, 3);
	cr_assert_eq(l->col, 3);
	inner = l->v.list.items[0];
	cr_assert_eq(inner->style, STYLE_FLOW);
	cr_assert_eq(inner->col, 5);
	cr_assert_eq(inner->end_line, 3);
	cr_assert_eq(inner->end_col, 16);
	cr_assert_eq(q->line, 4);
	cr_assert_eq(q->col, 4);
	cr_assert_eq(q->end_line, 5);
	cr_assert_eq(q->end_col, 9);
	cr_assert_eq(r->line, 1);
	cr_assert_eq(f.docs[0]->start_line, 1);
	cr_assert_eq(f.docs[0]->nodes, 12);
	yaml_file_release(&f);
}

Test(yaml, error_paths_point_at_the_node)
{
	static const struct {
		const char *text;
		const char *path;
	} rows[] = {
		{ "a:\n  b: [1, 2, !!int x]\n", "/a/b/2" },
		{ "a: [{k: v}, {k: 2026-02-30}]\n", "/a/1/k" },
		{ "a~b/c: !!bool x\n", "/a~0b~1c" },
		{ "1: {true: !!int x}\n", "/1/true" },
		{ "!!int x\n", "" },
	};
	size_t i;

	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct diag err;

		cr_assert_eq(code_of(rows[i].text, YAML_SINGLE, &err),
			     DIAG_E_TYPE, "%s", rows[i].text);
		cr_assert_str_eq(err.path, rows[i].path, "%s", rows[i].text);
	}
}

/* ---- comments (spec/core.md 9.1) ------------------------------------------------ */

Test(yaml, comment_scanner)
{
	static const char text[] =
		"# head\n"                     /* 1 */
		"\n"                           /* 2 */
		"a: \"# not\" # yes\n"         /* 3 */
		"b: |  # header\n"             /* 4 */
		"  # content\n"                /* 5 */
		"  line\n"                     /* 6 */
		"# alone\n"                    /* 7 */
		"\n"                           /* 8 */
		"c: !!str # after tag\n"       /* 9 */
		"  \"q # no\"\n"               /* 10 */
		"d: a#b\n"                     /* 11 */
		"e: 'x' #tight\n"              /* 12 */
		"# last\n";                    /* 13 */
	static const struct {
		uint32_t line, col, applies;
		int trailing;
		const char *text;
	} want[] = {
		{ 1, 1, 3, 0, " head" },       { 3, 12, 3, 1, " yes" },
		{ 4, 7, 4, 1, " header" },     { 7, 1, 9, 0, " alone" },
		{ 9, 10, 9, 1, " after tag" }, { 12, 8, 12, 1, "tight" },
		{ 13, 1, 0, 0, " last" },
	};
	struct yaml_limits lim;
	struct yaml_file f;
	struct diag err;
	size_t i;

	yaml_limits_default(&lim);
	yaml_file_init(&f);
	cr_assert_eq(yaml_load(&f, text, sizeof text - 1, YAML_STREAM, &lim, 1,
			       &err), 0, "%s", err.msg);
	cr_assert_eq(f.ncomments, sizeof want / sizeof want[0], "%zu comments",
		     f.ncomments);
	for (i = 0; i < f.ncomments; i++) {
		const struct yaml_comment *c = &f.comments[i];

		cr_assert_eq(c->line, want[i].line, "comment %zu", i);
		cr_assert_eq(c->col, want[i].col, "comment %zu col %u", i, c->col);
		cr_assert_eq(c->applies_line, want[i].applies, "comment %zu: %u",
			     i, c->applies_line);
		cr_assert_eq(c->trailing, want[i].trailing, "comment %zu", i);
		cr_assert_eq(c->len, strlen(want[i].text));
		cr_assert(memcmp(c->text, want[i].text, c->len) == 0);
	}
	yaml_file_release(&f);
	/* Not asked: none collected. */
	yaml_file_init(&f);
	cr_assert_eq(yaml_load(&f, text, sizeof text - 1, YAML_STREAM, &lim, 0,
			       &err), 0);
	cr_assert_eq(f.ncomments, 0);
	yaml_file_release(&f);
}

Test(yaml, comment_scanner_crlf_and_unicode)
{
	static const char text[] = "\xC3\xA9: x # one\r\n# two\r\n\r\n"
				   "k: |\r\n  # inside\r\nz: 1\r\n";
	struct yaml_limits lim;
	struct yaml_file f;
	struct diag err;

	yaml_limits_default(&lim);
	yaml_file_init(&f);
	cr_assert_eq(yaml_load(&f, text, sizeof text - 1, YAML_STREAM, &lim, 1,
			       &err), 0, "%s", err.msg);
	cr_assert_eq(f.ncomments, 2);
	cr_assert_eq(f.comments[0].col, 6);
	cr_assert_eq(f.comments[0].len, 4); /* no '\r' */
	cr_assert_eq(f.comments[1].line, 2);
	cr_assert_eq(f.comments[1].applies_line, 4);
	yaml_file_release(&f);
}

/* ---- the PCRE2 patterns of spec/yaml.md 2.2 ------------------------------------- */

struct pattern {
	const char *tag;
	const char *first; /* the first characters it is tried for */
	const char *re;
};

/* In PyYAML's registration order; each tried for its first characters. */
static const struct pattern patterns[] = {
	{ "bool", "yYnNtTfFoO",
	  "^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE"
	  "|on|On|ON|off|Off|OFF)$" },
	{ "float", "-+0123456789.",
	  "^(?:[-+]?[0-9][0-9_]*\\.[0-9_]*(?:[eE][-+][0-9]+)?"
	  "|\\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?"
	  "|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\\.[0-9_]*"
	  "|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN))$" },
	{ "int", "-+0123456789",
	  "^(?:[-+]?0b[01_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)"
	  "|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$" },
	{ "merge", "<", "^(?:<<)$" },
	{ "null", "~nN", "^(?:~|null|Null|NULL|)$" },
	{ "timestamp", "0123456789",
	  "^(?:[0-9]{4}-[0-9]{2}-[0-9]{2}"
	  "|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \\t]+)[0-9]{1,2}:[0-9]{2}"
	  ":[0-9]{2}(?:\\.[0-9]*)?(?:[ \\t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)$" },
	{ "value", "=", "^(?:=)$" },
};

#define NPATTERNS (sizeof patterns / sizeof patterns[0])

struct oracle {
	struct re *re[NPATTERNS];
	struct re_limits lim;
};

/* Compiled without JIT: the same matches, and valgrind (check-valgrind)
 * cannot follow PCRE2's JIT code without reporting noise. */
static void oracle_init(struct oracle *o)
{
	size_t i;

	re_limits_default(&o->lim);
	for (i = 0; i < NPATTERNS; i++) {
		char pat[512];
		struct diag err;

		snprintf(pat, sizeof pat, "(*NO_JIT)%s", patterns[i].re);
		o->re[i] = re_compile(pat, strlen(pat), 0, NULL, &err);
		cr_assert_not_null(o->re[i], "%s: %s", patterns[i].tag, err.msg);
	}
}

static void oracle_release(struct oracle *o)
{
	size_t i;

	for (i = 0; i < NPATTERNS; i++)
		re_free(o->re[i]);
}

/* The tag the patterns give: first-character dispatch, registration order,
 * the empty text tried against null only. */
static const char *oracle_tag(struct oracle *o, const char *s, size_t len)
{
	size_t i, ov[2];

	for (i = 0; i < NPATTERNS; i++) {
		struct diag err;
		int m;

		if (len == 0 ? strcmp(patterns[i].tag, "null") != 0
			     : !strchr(patterns[i].first, s[0]))
			continue;
		m = re_match(o->re[i], s, len, 0, &o->lim, ov, 1, &err);
		cr_assert_geq(m, 0, "match error on '%.*s'", (int)len, s);
		if (m > 0)
			return patterns[i].tag;
	}
	return "str";
}

static void agree(struct oracle *o, const char *s, size_t len)
{
	const char *want = oracle_tag(o, s, len);
	const char *got = yaml_resolve_plain(s, len);

	cr_assert_str_eq(got, want, "'%.*s': classifier %s, patterns %s",
			 (int)len, s, got, want);
}

Test(yaml, classifier_agrees_with_patterns)
{
	static const char alphabet[] = "0123456789_:.-+eExXbBoaftnyZzT \t~<=\n";
	static const char *const words[] = {
		"nan", "NaN", ".nan", "inf", ".Inf", "null", "Null", "yes", "No",
		"on", "OFF", "<<", "=", "2026-01-01", "10:00:00", "0x", "0b",
		"~", ".", "1:", ":5",
	};
	struct oracle o;
	size_t i, k;
	unsigned seed = 12345;

	oracle_init(&o);
	for (i = 0; i < sizeof scalar_rows / sizeof scalar_rows[0]; i++) {
		const char *t = scalar_rows[i].text;

		agree(&o, t, strlen(t));
	}
	agree(&o, "", 0);
	/* Every upper/lower-case spelling of each boolean word, and each
	 * one cut short or run on: only lower, Capital and ALL CAPS match. */
	{
		static const char *const bools[] = { "yes", "no", "true", "false", "on", "off",
						     "null" };

		for (i = 0; i < sizeof bools / sizeof bools[0]; i++) {
			size_t n = strlen(bools[i]), mask;

			for (mask = 0; mask < ((size_t)1 << n); mask++) {
				char w[8];

				for (k = 0; k < n; k++)
					w[k] = (char)((mask >> k & 1) ? bools[i][k] - 32 : bools[i][k]);
				agree(&o, w, n);
				agree(&o, w, n - 1);
				w[n] = 's';
				agree(&o, w, n + 1);
			}
		}
	}
	for (i = 0; i < 60000; i++) {
		char buf[32];
		size_t n = 0, parts;

		seed = seed * 1103515245u + 12345u;
		parts = (seed >> 16) % 8;
		for (k = 0; k < parts && n < 20; k++) {
			seed = seed * 1103515245u + 12345u;
			if ((seed >> 16) % 6 == 0) {
				const char *w = words[(seed >> 8) %
						      (sizeof words / sizeof words[0])];
				size_t wl = strlen(w);

				memcpy(buf + n, w, wl);
				n += wl;
			} else {
				buf[n++] = alphabet[(seed >> 8) % (sizeof alphabet - 1)];
			}
		}
		agree(&o, buf, n);
	}
	/* Every token of the fuzz corpus. */
	{
		DIR *dp = opendir("tests/fuzz/corpus");
		struct dirent *e;

		while (dp && (e = readdir(dp)) != NULL) {
			char path[512], *buf, *p, *end;
			size_t len;
			struct diag err;

			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof path, "tests/fuzz/corpus/%s", e->d_name);
			if (readfile(path, path, 1 << 20, &buf, &len, &err) < 0)
				continue;
			for (p = buf, end = buf + len; p < end;) {
				char *q = p;
				size_t bad;

				while (q < end && *q != ' ' && *q != '\n' &&
				       *q != ',' && *q != '[' && *q != ']' &&
				       *q != '{' && *q != '}')
					q++;
				if (utf8_valid(p, (size_t)(q - p), &bad))
					agree(&o, p, (size_t)(q - p));
				p = q + 1;
			}
			free(buf);
		}
		if (dp)
			closedir(dp);
	}
	oracle_release(&o);
}

/* ---- the hostile fixtures (fixtures/yaml/) ---------------------------------------- */

static const struct {
	const char *name;
	enum diag_code code;
	const char *limit;
} fixture_rows[] = {
	{ "billion-laughs.yaml", DIAG_E_LIMIT, "expanded_nodes" },
	{ "binary.bin", DIAG_E_ENCODING, "" },
	{ "bom-utf8.yaml", DIAG_OK, "" },
	{ "comments-only.yaml", DIAG_OK, "" },
	{ "control-char.yaml", DIAG_E_ENCODING, "" },
	{ "crlf.yaml", DIAG_OK, "" },
	{ "deep-block.yaml", DIAG_E_LIMIT, "depth" },
	{ "deep-flow.yaml", DIAG_E_LIMIT, "depth" },
	{ "deep-map.yaml", DIAG_E_LIMIT, "depth" },
	{ "duplicate-key.yaml", DIAG_E_DUPKEY, "" },
	{ "empty.yaml", DIAG_OK, "" },
	{ "invalid-utf8.yaml", DIAG_E_ENCODING, "" },
	{ "nul-byte.yaml", DIAG_E_ENCODING, "" },
	{ "recursive-alias.yaml", DIAG_E_LIMIT, "expanded_nodes" },
	{ "tab-indent.yaml", DIAG_E_YAML, "" },
	{ "unclosed-flow.yaml", DIAG_E_YAML, "" },
	{ "undefined-alias.yaml", DIAG_E_YAML, "" },
	{ "utf16be-bom.yaml", DIAG_OK, "" },
	{ "utf16le-bom.yaml", DIAG_OK, "" },
	{ "utf32.yaml", DIAG_E_ENCODING, "" },
};

Test(yaml, fixtures_give_their_findings)
{
	size_t i, seen = 0;
	DIR *dp;
	struct dirent *e;

	for (i = 0; i < sizeof fixture_rows / sizeof fixture_rows[0]; i++) {
		char path[256], *buf;
		size_t len;
		struct yaml_limits lim;
		struct yaml_file f;
		struct diag err;
		int rc;

		snprintf(path, sizeof path, "fixtures/yaml/%s", fixture_rows[i].name);
		diag_init(&err);
		cr_assert_eq(readfile(path, path, 1 << 24, &buf, &len, &err), 0,
			     "%s: %s", path, err.msg);
		yaml_limits_default(&lim);
		rc = load_lim(&f, buf, len, YAML_STREAM, &lim, &err);
		cr_assert_eq(rc == 0 ? DIAG_OK : err.code, fixture_rows[i].code,
			     "%s: %s", fixture_rows[i].name, err.msg);
		cr_assert_str_eq(err.limit, fixture_rows[i].limit, "%s",
				 fixture_rows[i].name);
		if (rc != 0)
			cr_assert_neq(err.line, 0, "%s", fixture_rows[i].name);
		if (strcmp(fixture_rows[i].name, "duplicate-key.yaml") == 0) {
			cr_assert_eq(err.line, 4);
			cr_assert_eq(err.col, 1);
			cr_assert_str_eq(err.path, "/name");
			cr_assert(strstr(err.msg, "line 2"));
		}
		if (strcmp(fixture_rows[i].name, "invalid-utf8.yaml") == 0) {
			cr_assert_eq(err.line, 2);
			cr_assert_eq(err.col, 10);
		}
		yaml_file_release(&f);
		free(buf);
	}
	/* Every file of the folder has its row. */
	dp = opendir("fixtures/yaml");
	cr_assert_not_null(dp);
	while ((e = readdir(dp)) != NULL) {
		int found = 0;

		if (e->d_name[0] == '.')
			continue;
		for (i = 0; i < sizeof fixture_rows / sizeof fixture_rows[0]; i++)
			found |= strcmp(fixture_rows[i].name, e->d_name) == 0;
		cr_assert(found, "fixtures/yaml/%s has no row", e->d_name);
		seen++;
	}
	closedir(dp);
	cr_assert_eq(seen, sizeof fixture_rows / sizeof fixture_rows[0]);
}

Test(yaml, library_version)
{
	cr_assert_str_eq(yaml_library_version(), "0.2.5");
	cr_assert_str_eq(yaml_resolve_plain("1_000", 5), "int");
	cr_assert_str_eq(yaml_resolve_plain("<<", 2), "merge");
	cr_assert_str_eq(yaml_resolve_plain("=", 1), "value");
}
