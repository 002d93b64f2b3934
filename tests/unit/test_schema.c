/*
 * test_schema.c: core/schema/ through real YAML text (core/yaml), so every
 * position is the loader's. Cases are rows: a schema, a document, and the
 * findings expected as "id line:col path keyword" lines in order; compile
 * errors are rows of a schema, its position, pointer and message.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/schema/schema.h"
#include "core/yaml/yaml.h"

/* ---- harness ----------------------------------------------------------- */

/* Criterion runs each parameterised test in a fresh worker process where
 * pointers into the runner's data mean nothing: parameters are row
 * indexes in shared memory, rows are file-scope tables. */
#define ROWS(t) (sizeof(t) / sizeof((t)[0]))

static void free_index_params(struct criterion_test_params *crp)
{
	cr_free(crp->params);
}

static struct criterion_test_params index_params(size_t n)
{
	size_t *ix = cr_malloc(n * sizeof *ix);
	size_t i;

	for (i = 0; i < n; i++)
		ix[i] = i;
	return cr_make_param_array(size_t, ix, n, free_index_params);
}

#define MAX_SIBLINGS 4

struct env_ud {
	const char *const *siblings; /* name, text, name, text, ..., NULL */
	struct yaml_file files[MAX_SIBLINGS];
	size_t nfiles;
};

static int id_known(void *ud, const char *id, int *check)
{
	static const struct {
		const char *id;
		int check;
	} ids[] = {
		{ "demo.size", 0 },           { "chaos.missing-field", 1 },
		{ "chaos.unknown-field", 1 }, { "chaos.id-format", 1 },
		{ "chaos.enum", 0 },          { "resiliency.range", 0 },
		{ NULL, 0 },
	};
	size_t i;

	(void)ud;
	for (i = 0; ids[i].id; i++) {
		if (strcmp(ids[i].id, id) == 0) {
			*check = ids[i].check;
			return 1;
		}
	}
	return 0;
}

static int load_sibling(void *ud, const char *file, const struct node **root,
			const char **display, struct diag *err)
{
	struct env_ud *e = ud;
	struct yaml_limits lim;
	size_t i;

	for (i = 0; e->siblings && e->siblings[i]; i += 2) {
		struct yaml_file *f;

		if (strcmp(e->siblings[i], file) != 0)
			continue;
		cr_assert(e->nfiles < MAX_SIBLINGS);
		f = &e->files[e->nfiles++];
		yaml_file_init(f);
		yaml_limits_default(&lim);
		if (yaml_load(f, e->siblings[i + 1], strlen(e->siblings[i + 1]),
			      YAML_SINGLE, &lim, 0, err) < 0)
			return -1;
		*root = f->docs[0]->root;
		*display = e->siblings[i];
		return 0;
	}
	diag_set(err, DIAG_E_UNREADABLE, 0, 0, "no such file");
	return -1;
}

static void env_release(struct env_ud *e)
{
	size_t i;

	for (i = 0; i < e->nfiles; i++)
		yaml_file_release(&e->files[i]);
	e->nfiles = 0;
}

static void yload(struct yaml_file *f, const char *text)
{
	struct yaml_limits lim;
	struct diag err;

	diag_init(&err);
	yaml_file_init(f);
	yaml_limits_default(&lim);
	cr_assert(yaml_load(f, text, strlen(text), YAML_SINGLE, &lim, 0,
			    &err) == 0,
		  "yaml: %s at %u:%u in:\n%s", err.msg, err.line, err.col,
		  text);
	cr_assert(f->ndocs == 1);
}

/* Compile 'schema'; NULL with 'err' on failure. The env stays alive. */
static struct schema *compile(const char *schema, struct yaml_file *sf,
			      struct env_ud *eu, struct diag *err)
{
	struct schema_env env = { id_known, load_sibling, eu, NULL };

	yload(sf, schema);
	diag_init(err);
	return schema_compile(sf->docs[0]->root, "schemas/t.yaml", &env, err);
}

/* The "keyword" of a finding's figures. */
static void keyword_of(const char *fig, char *out, size_t size)
{
	const char *p = fig ? strstr(fig, "\"keyword\": \"") : NULL;
	size_t n = 0;

	out[0] = '\0';
	if (!p)
		return;
	p += strlen("\"keyword\": \"");
	while (p[n] && p[n] != '"' && n + 1 < size) {
		out[n] = p[n];
		n++;
	}
	out[n] = '\0';
}

/* Findings as "id line:col path keyword\n" lines. */
static char *render(const struct findings *fs)
{
	size_t i, len = 0, cap = 256;
	char *s = malloc(cap);

	s[0] = '\0';
	for (i = 0; i < fs->n; i++) {
		const struct finding *f = &fs->items[i];
		char kw[64], line[1200];
		int n;

		keyword_of(f->figures, kw, sizeof kw);
		n = snprintf(line, sizeof line, "%s %u:%u %s %s\n", f->rule,
			     f->line, f->col, f->path, kw);
		while (len + (size_t)n + 1 > cap)
			s = realloc(s, cap *= 2);
		memcpy(s + len, line, (size_t)n + 1);
		len += (size_t)n;
	}
	return s;
}

struct run {
	struct yaml_file sf, df;
	struct doc jd; /* the document when read as JSON */
	int json;
	struct env_ud eu;
	struct schema *s;
	struct findings fs;
	struct diag err;
	long rc;
};

static void run_start(struct run *r, const char *schema, const char *doc,
		      const char *const *siblings)
{
	struct re_limits lim;

	memset(r, 0, sizeof *r);
	r->eu.siblings = siblings;
	r->s = compile(schema, &r->sf, &r->eu, &r->err);
	cr_assert(r->s, "compile: %s at %u:%u %s", r->err.msg, r->err.line,
		  r->err.col, r->err.path);
	yload(&r->df, doc);
	findings_init(&r->fs, 0);
	re_limits_default(&lim);
	diag_init(&r->err);
	r->rc = schema_validate(r->s, r->df.docs[0]->root, 0, &lim, &r->fs,
				&r->err);
}

/* The same with a JSON document: integers outside int64 are NODE_BIGINT
 * there (the YAML loader refuses them, spec/core.md 7.4 via chaos 4.1). */
static void run_start_json(struct run *r, const char *schema, const char *json)
{
	struct doc_json_opts opts;
	struct re_limits lim;

	memset(r, 0, sizeof *r);
	r->s = compile(schema, &r->sf, &r->eu, &r->err);
	cr_assert(r->s, "compile: %s", r->err.msg);
	memset(&opts, 0, sizeof opts);
	doc_init(&r->jd, 0);
	r->json = 1;
	cr_assert(doc_json_parse(&r->jd, json, strlen(json), &opts, &r->err) == 0,
		  "json: %s", r->err.msg);
	yaml_file_init(&r->df);
	findings_init(&r->fs, 0);
	re_limits_default(&lim);
	diag_init(&r->err);
	r->rc = schema_validate(r->s, r->jd.root, 0, &lim, &r->fs, &r->err);
}

static void run_end(struct run *r)
{
	findings_release(&r->fs);
	schema_free(r->s);
	yaml_file_release(&r->df);
	yaml_file_release(&r->sf);
	if (r->json)
		doc_release(&r->jd);
	env_release(&r->eu);
}

struct vcase {
	const char *schema, *doc, *want;
};

static void check_case(const struct vcase *c, const char *const *siblings)
{
	struct run r;
	char *got;

	run_start(&r, c->schema, c->doc, siblings);
	cr_assert(r.rc >= 0, "validate failed: %s", r.err.msg);
	got = render(&r.fs);
	cr_assert_str_eq(got, c->want, "schema:\n%s\ndoc:\n%s\ngot:\n%s",
			 c->schema, c->doc, got);
	cr_assert_eq((size_t)r.rc, r.fs.n);
	free(got);
	run_end(&r);
}

/* The first finding's message and figures. */
static void first_finding(const char *schema, const char *doc,
			  const char *msg, const char *fig)
{
	struct run r;

	run_start(&r, schema, doc, NULL);
	cr_assert(r.fs.n >= 1, "no finding for:\n%s", doc);
	if (msg)
		cr_assert_str_eq(r.fs.items[0].message, msg);
	if (fig)
		cr_assert_str_eq(r.fs.items[0].figures, fig);
	run_end(&r);
}

/* ---- the demo schema of spec/core.md 7.1 and its acceptance ------------ */

#define DEMO                                                                   \
	"pack: demo\n"                                                         \
	"default: true\n"                                                      \
	"title: demo item\n"                                                   \
	"findings: {required: input.type}\n"                                   \
	"type: object\n"                                                       \
	"required: [kind, name, size]\n"                                       \
	"additionalProperties: false\n"                                        \
	"properties:\n"                                                        \
	"  kind: {const: demo-item}\n"                                         \
	"  name: {type: string, pattern: '^[a-z][a-z0-9-]*$', maxLength: 64}\n" \
	"  size: {type: integer, minimum: 0}\n"                                \
	"  limit: {type: number, exclusiveMinimum: 0}\n"                       \
	"  owner: {type: string, minLength: 1}\n"                              \
	"  tags: {type: array, items: {type: string}, uniqueItems: true, "     \
	"maxItems: 8}\n"

static const struct vcase demo_rows[] = {
	{ DEMO, "kind: demo-item\nname: web-1\nsize: 10\ntags: [a, b]\n", "" },
	{ DEMO, "kind: demo-item\nname: web-1\nsize: \"12\"\n",
	  "input.type 3:7 /size type\n" },
	{ DEMO, "kind: demo-item\nname: web-1\nsize: 1\ncolour: red\n",
	  "input.type 4:1 /colour additionalProperties\n" },
	{ DEMO, "kind: demo-item\nsize: 1\n",
	  "input.type 1:1 /name required\n" },
	{ DEMO, "kind: demo-item\nname: a\nsize: 1\ntags: [a, a]\n",
	  "input.type 4:11 /tags/1 uniqueItems\n" },
	{ DEMO, "kind: demo-item\nname: a\nsize: 1.0e+2\n",
	  "input.type 3:7 /size type\n" },
	{ DEMO, "kind: demo-item\nname: a\nsize: 0x10\n", "" },
	{ DEMO, "kind: other\nname: Web\nsize: -1\nlimit: 0\nowner: ''\n",
	  "input.type 1:7 /kind const\n"
	  "input.type 2:7 /name pattern\n"
	  "input.type 3:7 /size minimum\n"
	  "input.type 4:8 /limit exclusiveMinimum\n"
	  "input.type 5:8 /owner minLength\n" },
	{ DEMO, "- a\n", "input.type 1:1  type\n" },
	{ DEMO, "", "input.type 1:1  type\n" },
	{ DEMO, "kind: demo-item\nname: a\nsize: 1\n"
		"tags: [a, b, c, d, e, f, g, h, i]\n",
	  "input.type 4:7 /tags maxItems\n" },
};

ParameterizedTestParameters(schema, demo)
{
	return index_params(ROWS(demo_rows));
}

ParameterizedTest(size_t *i, schema, demo)
{
	const struct vcase *c = &demo_rows[*i];

	check_case(c, NULL);
}

/* ---- every keyword, type and position rule ------------------------------ */

static const struct vcase keywords_rows[] = {
	/* type: each name; a list; YAML 1.1 typing of the document */
	{ "type: integer\n", "5\n", "" },
	{ "type: integer\n", "true\n", "input.type 1:1  type\n" },
	{ "type: integer\n", "10.0\n", "input.type 1:1  type\n" },
	{ "type: number\n", "1.5\n", "" },
	{ "type: number\n", "7\n", "" },
	{ "type: number\n", "yes\n", "input.type 1:1  type\n" },
	{ "type: number\n", ".inf\n", "input.type 1:1  type\n" },
	{ "type: number\n", ".nan\n", "input.type 1:1  type\n" },
	{ "{type: number, infinite: true}\n", "-.inf\n", "" },
	{ "{type: number, infinite: true}\n", ".nan\n",
	  "input.type 1:1  type\n" },
	{ "type: string\n", "2026-01-01\n", "input.type 1:1  type\n" },
	{ "type: string\n", "'2026-01-01'\n", "" },
	{ "type: date\n", "2026-01-01\n", "" },
	{ "type: datetime\n", "2026-01-01 10:00:00\n", "" },
	{ "type: date\n", "2026-01-01 10:00:00\n", "input.type 1:1  type\n" },
	{ "type: \"null\"\n", "~\n", "" },
	{ "type: boolean\n", "off\n", "" },
	{ "type: array\n", "{}\n", "input.type 1:1  type\n" },
	{ "type: object\n", "[]\n", "input.type 1:1  type\n" },
	{ "type: [string, \"null\"]\n", "null\n", "" },
	{ "type: [string, \"null\"]\n", "3\n", "input.type 1:1  type\n" },
	/* enum and const: equality of 7.2 */
	{ "enum: [a, b, c]\n", "b\n", "" },
	{ "enum: [a, b, c]\n", "x\n", "input.type 1:1  enum\n" },
	{ "enum: [1, 2]\n", "2.0\n", "" },
	{ "enum: [1, 2]\n", "true\n", "input.type 1:1  enum\n" },
	{ "enum: [on, off]\n", "\"on\"\n", "input.type 1:1  enum\n" },
	{ "enum: [on, off]\n", "no\n", "" },
	{ "enum: [{a: 1, b: [x]}]\n", "{b: [x], a: 1.0}\n", "" },
	{ "const: 3\n", "3.0\n", "" },
	{ "const: 2026-01-01\n", "'2026-01-01'\n", "input.type 1:1  const\n" },
	/* bounds, exact across int and float */
	{ "minimum: 0\n", "0\n", "" },
	{ "minimum: 0\n", "-1\n", "input.type 1:1  minimum\n" },
	{ "minimum: 0.1\n", "0\n", "input.type 1:1  minimum\n" },
	{ "maximum: 100\n", "100.0\n", "" },
	{ "maximum: 100\n", "100.5\n", "input.type 1:1  maximum\n" },
	{ "exclusiveMinimum: 0\n", "0\n", "input.type 1:1  exclusiveMinimum\n" },
	{ "exclusiveMinimum: 0\n", "0.5\n", "" },
	{ "exclusiveMaximum: 10\n", "10\n", "input.type 1:1  exclusiveMaximum\n" },
	{ "maximum: 9007199254740992.0\n", "9007199254740993\n",
	  "input.type 1:1  maximum\n" },
	{ "maximum: 9007199254740992\n", "9007199254740992.0\n", "" },
	{ "{minimum: 0, maximum: 5}\n", "abc\n", "" },
	{ "{minimum: 0, maximum: 5}\n", "true\n", "" },
	{ "minimum: 0\n", ".nan\n", "input.type 1:1  minimum\n" },
	{ "{minimum: 0, exclusiveMinimum: 0}\n", "-1\n",
	  "input.type 1:1  minimum\ninput.type 1:1  exclusiveMinimum\n" },
	/* lengths in code points; patterns anywhere, UTF mode */
	{ "maxLength: 3\n", "ééé\n", "" },
	{ "maxLength: 3\n", "éééé\n", "input.type 1:1  maxLength\n" },
	{ "minLength: 1\n", "''\n", "input.type 1:1  minLength\n" },
	{ "minLength: 2\n", "5\n", "" },
	{ "pattern: b\n", "abc\n", "" },
	{ "pattern: '^b'\n", "abc\n", "input.type 1:1  pattern\n" },
	{ "pattern: '^.$'\n", "é\n", "" },
	/* mappings */
	{ "required: [a, b]\n", "b: 1\n", "input.type 1:1 /a required\n" },
	{ "required: [a]\n", "x:\n  y: 1\n", "input.type 1:1 /a required\n" },
	{ "properties: {x: {required: [a]}}\n", "x:\n  y: 1\n",
	  "input.type 2:3 /x/a required\n" },
	{ "properties: {x: {required: [a]}}\n", "x: {y: 1}\n",
	  "input.type 1:4 /x/a required\n" },
	{ "required: [a]\n", "[1]\n", "" },
	{ "required: ['a/b']\n", "x: 1\n", "input.type 1:1 /a~1b required\n" },
	{ "additionalProperties: false\n", "a: 1\n'~x': 2\n",
	  "input.type 1:1 /a additionalProperties\n"
	  "input.type 2:1 /~0x additionalProperties\n" },
	{ "additionalProperties: false\n", "1: a\n",
	  "input.type 1:1 /1 additionalProperties\n" },
	{ "{properties: {a: {}}, additionalProperties: {type: integer}}\n",
	  "a: x\nb: y\nc: 3\n", "input.type 2:4 /b type\n" },
	{ "propertyNames: {pattern: '^[a-z]+$'}\n", "ok: 1\nNope: 2\n",
	  "input.type 2:1 /Nope propertyNames\n" },
	/* YAML 1.1: the key No is the boolean false, not a string */
	{ "propertyNames: {pattern: '^[a-z]+$'}\n", "No: 2\n", "" },
	{ "propertyNames: {type: string}\n", "No: 2\n",
	  "input.type 1:1 /false propertyNames\n" },
	{ "propertyNames: {type: string}\n", "1: a\n",
	  "input.type 1:1 /1 propertyNames\n" },
	{ "minProperties: 2\n", "a: 1\n", "input.type 1:1  minProperties\n" },
	{ "maxProperties: 1\n", "a: 1\nb: 2\n", "input.type 1:1  maxProperties\n" },
	/* lists */
	{ "items: {type: string}\n", "[a, 1, b, 2]\n",
	  "input.type 1:5 /1 type\ninput.type 1:11 /3 type\n" },
	{ "minItems: 1\n", "[]\n", "input.type 1:1  minItems\n" },
	{ "maxItems: 1\n", "- 1\n- 2\n", "input.type 1:1  maxItems\n" },
	{ "uniqueItems: true\n", "[1, 1.0]\n", "input.type 1:5 /1 uniqueItems\n" },
	{ "uniqueItems: true\n", "[1, true, '1', 1.5]\n", "" },
	{ "uniqueItems: true\n", "[0, -0.0, false]\n",
	  "input.type 1:5 /1 uniqueItems\n" },
	{ "uniqueItems: true\n", "[{a: 1, b: 2}, {b: 2, a: 1}]\n",
	  "input.type 1:16 /1 uniqueItems\n" },
	{ "uniqueItems: true\n", "[[1, 2], [2, 1], [1, 2.0]]\n",
	  "input.type 1:18 /2 uniqueItems\n" },
	{ "uniqueItems: true\n", "[a, b, a, a]\n",
	  "input.type 1:8 /2 uniqueItems\ninput.type 1:11 /3 uniqueItems\n" },
	{ "uniqueItems: true\n", "[2026-01-01, 2026-01-01, '2026-01-01']\n",
	  "input.type 1:14 /1 uniqueItems\n" },
	{ "uniqueItems: false\n", "[1, 1]\n", "" },
	{ "items: {uniqueItems: true}\n", "[[1, 1], [2, 2]]\n",
	  "input.type 1:6 /0/1 uniqueItems\ninput.type 1:14 /1/1 uniqueItems\n" },
	/* allOf, $ref, annotations */
	{ "allOf: [{type: integer}, {minimum: 3}]\n", "2\n",
	  "input.type 1:1  minimum\n" },
	{ "allOf: [{type: integer}, {minimum: 3}]\n", "a\n",
	  "input.type 1:1  type\n" },
	{ "$defs: {pos: {type: integer, minimum: 1}}\n$ref: '#/$defs/pos'\n",
	  "0\n", "input.type 1:1  minimum\n" },
	{ "title: t\ndescription: d\ndefault: true\nexamples: [1]\n"
	  "deprecated: false\n$comment: c\n$schema: s\nx-note: n\n"
	  "type: integer\n",
	  "a\n", "input.type 1:1  type\n" },
};

ParameterizedTestParameters(schema, keywords)
{
	return index_params(ROWS(keywords_rows));
}

ParameterizedTest(size_t *i, schema, keywords)
{
	const struct vcase *c = &keywords_rows[*i];

	check_case(c, NULL);
}

/* Integers outside int64 (NODE_BIGINT, from JSON) against bounds,
 * exactly: the rounded double decides unless it ties. */
static const struct vcase bigint_rows[] = {
	{ "type: integer\n", "123456789012345678901234567890", "" },
	{ "type: number\n", "-123456789012345678901234567890", "" },
	{ "maximum: 100\n", "99999999999999999999", "input.type 1:1  maximum\n" },
	{ "minimum: 0\n", "-99999999999999999999", "input.type 1:1  minimum\n" },
	{ "maximum: 1.0e+30\n", "99999999999999999999", "" },
	{ "minimum: 1.0e+19\n", "10000000000000000000", "" },
	{ "exclusiveMinimum: 1.0e+19\n", "10000000000000000000",
	  "input.type 1:1  exclusiveMinimum\n" },
	{ "minimum: 1.0e+19\n", "9999999999999999999",
	  "input.type 1:1  minimum\n" },
	{ "maximum: 1.0e+19\n", "10000000000000000001",
	  "input.type 1:1  maximum\n" },
	{ "enum: [1]\n", "[99999999999999999999]", "input.type 1:1  enum\n" },
	{ "uniqueItems: true\n",
	  "[99999999999999999999, 1.0e20, 99999999999999999999]",
	  "input.type 1:32 /2 uniqueItems\n" },
	{ "properties: {n: {type: integer, maximum: 5}}\n",
	  "{\"n\": 18446744073709551616}", "input.type 1:7 /n maximum\n" },
};

ParameterizedTestParameters(schema, bigints)
{
	return index_params(ROWS(bigint_rows));
}

ParameterizedTest(size_t *i, schema, bigints)
{
	const struct vcase *c = &bigint_rows[*i];
	struct run r;
	char *got;

	run_start_json(&r, c->schema, c->doc);
	cr_assert(r.rc >= 0, "validate failed: %s", r.err.msg);
	got = render(&r.fs);
	cr_assert_str_eq(got, c->want, "doc %s got:\n%s", c->doc, got);
	free(got);
	run_end(&r);
}

Test(schema, bigint_message)
{
	struct run r;

	run_start_json(&r, "maximum: 100\n", "99999999999999999999");
	cr_assert_eq(r.fs.n, 1);
	cr_assert_str_eq(r.fs.items[0].message,
			 "the document must be at most 100, found 99999999999999999999");
	cr_assert_str_eq(r.fs.items[0].figures,
			 "{\"keyword\": \"maximum\", \"limit\": 100, "
			 "\"value\": 99999999999999999999}");
	run_end(&r);
}

/* The YAML loader itself refuses integers outside int64. */
Test(schema, yaml_refuses_bigints)
{
	struct yaml_file f;
	struct yaml_limits lim;
	struct diag err;

	yaml_file_init(&f);
	yaml_limits_default(&lim);
	diag_init(&err);
	cr_assert_eq(yaml_load(&f, "99999999999999999999\n", 21, YAML_SINGLE,
			       &lim, 0, &err), -1);
	cr_assert_eq(err.code, DIAG_E_TYPE);
	yaml_file_release(&f);
}

/* ---- order, type failure, emptyIsMissing, finding maps ------------------- */

#define NESTED                                                                 \
	"type: object\n"                                                       \
	"additionalProperties: false\n"                                        \
	"required: [a, b, c]\n"                                                \
	"minProperties: 5\n"                                                   \
	"properties:\n"                                                        \
	"  a: {type: integer, enum: [1, 2], minimum: 5}\n"                     \
	"  b:\n"                                                               \
	"    type: object\n"                                                   \
	"    required: [x]\n"                                                  \
	"    properties: {x: {type: string}, y: {type: integer}}\n"            \
	"  d: {type: array, items: {type: string}}\n"

#define EMPTY                                                                  \
	"type: object\n"                                                       \
	"emptyIsMissing: true\n"                                               \
	"additionalProperties: false\n"                                        \
	"required: [a, b, c, d, e]\n"                                          \
	"maxProperties: 1\n"                                                   \
	"properties:\n"                                                        \
	"  a: {type: string}\n"                                                \
	"  b: {type: string}\n"                                                \
	"  c: {type: string}\n"                                                \
	"  d: {type: string}\n"                                                \
	"  e: {type: integer}\n"

#define CHAOSLIKE                                                              \
	"findings: {required: chaos.missing-field, additional: chaos.unknown-field,\n" \
	"           enum: chaos.enum, range: resiliency.range}\n"                \
	"type: object\n"                                                       \
	"additionalProperties: false\n"                                        \
	"required: [id, n]\n"                                                  \
	"properties:\n"                                                        \
	"  id: {type: string, maxLength: 4, pattern: '^[a-z]+$',\n"            \
	"       finding: {length: chaos.id-format, pattern: chaos.id-format}}\n" \
	"  n: {type: integer, minimum: 1, enum: [1, 2, 3]}\n"                  \
	"  s: {type: string, maxLength: 1}\n"

static const struct vcase order_rows[] = {
	/* node keywords in table order, then entries in document
	 * order; required in list order; type failure hides the rest */
	{ NESTED, "z: 1\nd: [1, x, 2]\nb: {y: a, w: 1}\na: 7\n",
	  "input.type 1:1 /c required\n"
	  "input.type 1:1  minProperties\n"
	  "input.type 1:1 /z additionalProperties\n"
	  "input.type 2:5 /d/0 type\n"
	  "input.type 2:11 /d/2 type\n"
	  "input.type 3:4 /b/x required\n"
	  "input.type 3:8 /b/y type\n"
	  "input.type 4:4 /a enum\n" },
	{ NESTED, "a: 0\nb: {x: s}\nc: 1\nd: []\n",
	  "input.type 1:1  minProperties\n"
	  "input.type 1:4 /a enum\n"
	  "input.type 1:4 /a minimum\n"
	  "input.type 3:1 /c additionalProperties\n" },
	{ NESTED, "a: x\nb: [1]\nc: 1\nd: {}\ne: 1\n",
	  "input.type 1:4 /a type\n"
	  "input.type 2:4 /b type\n"
	  "input.type 3:1 /c additionalProperties\n"
	  "input.type 4:4 /d type\n"
	  "input.type 5:1 /e additionalProperties\n" },
	/* emptyIsMissing: empty members are missing, at their own
	 * node, and nothing else looks at them */
	{ EMPTY, "a: ''\nb: ~\nc: []\nd: {}\ne: 0\nz: ''\n", 
	  "input.type 1:4 /a required\n"
	  "input.type 2:4 /b required\n"
	  "input.type 3:4 /c required\n"
	  "input.type 4:4 /d required\n" },
	{ EMPTY, "e: 1\nz: 2\n",
	  "input.type 1:1 /a required\n"
	  "input.type 1:1 /b required\n"
	  "input.type 1:1 /c required\n"
	  "input.type 1:1 /d required\n"
	  "input.type 1:1  maxProperties\n"
	  "input.type 2:1 /z additionalProperties\n" },
	/* top-level findings map and a per-node finding */
	{ CHAOSLIKE, "id: ABCDEF\nx: 1\nn: 7\ns: ab\n",
	  "chaos.id-format 1:5 /id maxLength\n"
	  "chaos.id-format 1:5 /id pattern\n"
	  "chaos.unknown-field 2:1 /x additionalProperties\n"
	  "chaos.enum 3:4 /n enum\n"
	  "input.type 4:4 /s maxLength\n" },
	{ CHAOSLIKE, "n: 0\n",
	  "chaos.missing-field 1:1 /id required\n"
	  "chaos.enum 1:4 /n enum\n"
	  "resiliency.range 1:4 /n minimum\n" },
};

ParameterizedTestParameters(schema, order)
{
	return index_params(ROWS(order_rows));
}

ParameterizedTest(size_t *i, schema, order)
{
	const struct vcase *c = &order_rows[*i];

	check_case(c, NULL);
}

Test(schema, check_stage_flags)
{
	struct run r;
	size_t i;

	run_start(&r, CHAOSLIKE, "id: ABCDEF\nx: 1\nn: 7\n", NULL);
	cr_assert_eq(r.fs.n, 4);
	for (i = 0; i < r.fs.n; i++) {
		const struct finding *f = &r.fs.items[i];
		unsigned want = FINDING_SCHEMA |
				(strcmp(f->rule, "chaos.enum") == 0
					 ? FINDING_UNUSABLE : 0u);

		cr_assert_eq(f->flags, want, "%s flags %u", f->rule, f->flags);
		cr_assert_eq(f->severity, SEV_ERROR);
		cr_assert_eq(f->document, 0);
	}
	run_end(&r);
}

Test(schema, positions_and_document_index)
{
	struct run r;
	struct re_limits lim;
	const struct finding *f;

	run_start(&r, "properties: {name: {type: integer}}\n",
		  "name: 'ab\n  cd'\n", NULL);
	cr_assert_eq(r.fs.n, 1);
	f = &r.fs.items[0];
	cr_assert_eq(f->line, 1);
	cr_assert_eq(f->col, 7);
	cr_assert_eq(f->end_line, 2);
	cr_assert_eq(f->end_col, 6);
	cr_assert_eq(f->flags, FINDING_SCHEMA | FINDING_UNUSABLE);
	cr_assert_str_eq(f->rule, "input.type");
	re_limits_default(&lim);
	cr_assert_eq(schema_validate(r.s, r.df.docs[0]->root, 3, &lim, &r.fs,
				     &r.err), 1);
	cr_assert_eq(r.fs.items[1].document, 3);
	run_end(&r);
}

/* ---- choices ---------------------------------------------------------- */

#define CHOICE                                                                 \
	"type: object\n"                                                       \
	"properties:\n"                                                        \
	"  spec:\n"                                                            \
	"    anyOf:\n"                                                         \
	"      - title: title A\n"                                             \
	"        type: object\n"                                               \
	"        required: [kind, a]\n"                                        \
	"        properties: {kind: {const: a}, a: {type: integer}}\n"         \
	"      - title: title B\n"                                             \
	"        type: object\n"                                               \
	"        required: [kind, b]\n"                                        \
	"        properties: {kind: {const: b}, b: {type: string}}\n"

#define ONEOF "oneOf: [{type: integer}, {minimum: 0}, {type: string}]\n"

static const struct vcase choices_rows[] = {
	{ CHOICE, "spec: {kind: a, a: 1}\n", "" },
	{ CHOICE, "spec: {kind: b, b: x}\n", "" },
	/* one compatible branch (the discriminator): inline */
	{ CHOICE, "spec: {kind: a, a: x}\n", "input.type 1:20 /spec/a type\n" },
	{ CHOICE, "spec: {kind: b}\n", "input.type 1:7 /spec/b required\n" },
	/* none compatible: one choice finding at the value */
	{ CHOICE, "spec: {kind: c}\n", "input.type 1:7 /spec anyOf\n" },
	{ CHOICE, "spec: {a: 1}\n", "input.type 1:7 /spec anyOf\n" },
	{ CHOICE, "spec: 5\n", "input.type 1:7 /spec anyOf\n" },
	/* oneOf */
	{ ONEOF, "-5\n", "" },
	{ ONEOF, "1.5\n", "" },
	{ ONEOF, "5\n", "input.type 1:1  oneOf\n" },
	{ ONEOF, "x\n", "input.type 1:1  oneOf\n" },
	{ ONEOF, "-1.5\n", "input.type 1:1  minimum\n" },
	{ "oneOf: [{type: integer}, {type: string}]\n", "[]\n",
	  "input.type 1:1  oneOf\n" },
	/* a branch reached through $ref is described and matched
	 * through it */
	{ "$defs: {i: {title: int, type: integer}}\n"
	  "anyOf: [{$ref: '#/$defs/i'}, {type: string, minLength: 3}]\n",
	  "ab\n", "input.type 1:1  minLength\n" },
	/* a per-node finding for the choice class */
	{ "finding: {choice: chaos.enum}\nanyOf: [{type: integer}, {type: string}]\n",
	  "[]\n", "chaos.enum 1:1  anyOf\n" },
	/* choices nested in choices, and inside items */
	{ "items: {anyOf: [{type: integer}, {anyOf: [{type: string}, {type: boolean}]}]}\n",
	  "[1, a, true, 1.5]\n", "input.type 1:14 /3 anyOf\n" },
	/* detect-style: required alternatives */
	{ "type: object\nrequired: [level]\n"
	  "anyOf: [{required: [reviewer]}, {required: [proposed_by]}]\n",
	  "level: 1\nx: 2\n", "input.type 1:1  anyOf\n" },
};

ParameterizedTestParameters(schema, choices)
{
	return index_params(ROWS(choices_rows));
}

ParameterizedTest(size_t *i, schema, choices)
{
	const struct vcase *c = &choices_rows[*i];

	check_case(c, NULL);
}

/* ---- $ref: local, sibling, legal recursion -------------------------------- */

#define TREE                                                                   \
	"$defs:\n"                                                             \
	"  node:\n"                                                            \
	"    type: object\n"                                                   \
	"    additionalProperties: false\n"                                    \
	"    properties:\n"                                                    \
	"      name: {type: string}\n"                                         \
	"      children: {type: array, items: {$ref: '#/$defs/node'}}\n"       \
	"$ref: '#/$defs/node'\n"

static const char *const siblings[] = {
	"common.yaml",
	"pack: demo\n"
	"findings: {range: demo.size}\n"
	"type: object\n"
	"$defs:\n"
	"  pos: {$ref: '#/$defs/int', minimum: 1}\n"
	"  int: {type: integer}\n",
	"bad.yaml",
	"$defs: {x: {typo: 1}}\n",
	NULL
};

static const struct vcase refs_rows[] = {
	{ TREE, "name: a\nchildren:\n  - name: b\n    children:\n"
		"      - name: 3\n      - nme: c\n",
	  "input.type 5:15 /children/0/children/0/name type\n"
	  "input.type 6:9 /children/0/children/1/nme additionalProperties\n" },
	{ "type: object\nproperties: {sub: {$ref: '#'}}\n",
	  "sub: {sub: {sub: 1}}\n", "input.type 1:18 /sub/sub/sub type\n" },
	{ "$defs: {l: {type: array, items: {$ref: '#/$defs/l'}}}\n"
	  "$ref: '#/$defs/l'\n",
	  "[[[]], [1]]\n", "input.type 1:9 /1/0 type\n" },
	{ "type: object\nadditionalProperties: {$ref: '#'}\n"
	  "propertyNames: {$ref: '#/$defs/name'}\n"
	  "$defs: {name: {type: string, maxLength: 2}}\n",
	  "ab: {cd: {efg: {}}}\n", "input.type 1:11 /ab/cd/efg propertyNames\n" },
	/* a sibling file; refs inside it resolve in it; the ids are
	 * the compiled file's (the sibling's findings map is not used) */
	{ "properties: {a: {$ref: 'common.yaml#/$defs/pos'}}\n",
	  "a: 0\n", "input.type 1:4 /a minimum\n" },
	{ "properties: {a: {$ref: 'common.yaml#/$defs/pos'}}\n",
	  "a: x\n", "input.type 1:4 /a type\n" },
	{ "findings: {range: demo.size}\n"
	  "properties: {a: {$ref: 'common.yaml#/$defs/pos'},\n"
	  "             b: {$ref: 'common.yaml'}}\n",
	  "a: 0\nb: 1\n", "demo.size 1:4 /a minimum\ninput.type 2:4 /b type\n" },
	/* aliases share nodes; the path is the walker's own */
	{ "additionalProperties: {uniqueItems: true}\n",
	  "a: &x [1, 1]\nb: *x\n",
	  "input.type 1:11 /a/1 uniqueItems\ninput.type 1:11 /b/1 uniqueItems\n" },
};

ParameterizedTestParameters(schema, refs)
{
	return index_params(ROWS(refs_rows));
}

ParameterizedTest(size_t *i, schema, refs)
{
	const struct vcase *c = &refs_rows[*i];

	check_case(c, siblings);
}

/* ---- messages and figures ------------------------------------------------- */

struct mcase {
	const char *schema, *doc, *msg, *fig;
};

static const struct mcase messages_rows[] = {
	{ "properties: {size: {type: integer}}\n", "size: '12'\n",
	  "'size' must be an integer, found a string ('12')",
	  "{\"keyword\": \"type\", \"limit\": \"integer\", \"value\": \"12\"}" },
	{ "properties: {size: {maximum: 100}}\n", "size: 500\n",
	  "'size' must be at most 100, found 500",
	  "{\"keyword\": \"maximum\", \"limit\": 100, \"value\": 500}" },
	{ "properties: {r: {minimum: 0.1}}\n", "r: 1.0e-5\n",
	  "'r' must be at least 0.1, found 1e-05",
	  "{\"keyword\": \"minimum\", \"limit\": 0.1, \"value\": 1e-05}" },
	{ "properties: {r: {exclusiveMinimum: 0}}\n", "r: -0.0\n",
	  "'r' must be greater than 0, found -0.0",
	  "{\"keyword\": \"exclusiveMinimum\", \"limit\": 0, \"value\": -0.0}" },
	{ "required: [name]\n", "a: 1\n", "missing required key 'name'",
	  "{\"keyword\": \"required\"}" },
	{ "properties: {fault: {required: [class]}}\n", "fault: {x: 1}\n",
	  "missing required key 'class' in 'fault'", NULL },
	{ "{emptyIsMissing: true, required: [region]}\n", "region: ''\n",
	  "required key 'region' is empty",
	  "{\"keyword\": \"required\", \"value\": \"\"}" },
	{ "{additionalProperties: false, properties: {color: {}, size: {}}}\n",
	  "colour: red\n", "unknown key 'colour' (did you mean 'color'?)",
	  "{\"keyword\": \"additionalProperties\", \"limit\": false, \"value\": \"colour\"}" },
	{ "{additionalProperties: false, properties: {color: {}, size: {}}}\n",
	  "shape: red\n", "unknown key 'shape'", NULL },
	{ "{additionalProperties: false, properties: {abc: {}, abd: {}}}\n",
	  "abx: 1\n", "unknown key 'abx' (did you mean 'abc'?)", NULL },
	{ "items: {additionalProperties: false}\n", "- {true: 1}\n",
	  "unknown key true in '/0'",
	  "{\"keyword\": \"additionalProperties\", \"limit\": false, \"value\": true}" },
	{ "enum: [a, b, c]\n", "x\n",
	  "the document must be one of 'a', 'b', 'c', found 'x'",
	  "{\"keyword\": \"enum\", \"value\": \"x\"}" },
	{ "enum: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]\n", "13\n",
	  "the document must be one of 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, ..., found 13",
	  NULL },
	{ "enum: [on, off]\n", "'on'\n",
	  "the document must be one of true, false, found 'on'", NULL },
	{ "enum: [[1, 2], {a: x}, ~, 1.5]\n", "x\n",
	  "the document must be one of [1, 2], {\"a\": \"x\"}, null, 1.5, found 'x'",
	  NULL },
	{ "properties: {kind: {const: demo-item}}\n", "kind: other\n",
	  "'kind' must be 'demo-item', found 'other'",
	  "{\"keyword\": \"const\", \"limit\": \"demo-item\", \"value\": \"other\"}" },
	{ "properties: {tags: {uniqueItems: true}}\n", "tags: [a, a]\n",
	  "duplicate item in 'tags': equal to item 0",
	  "{\"keyword\": \"uniqueItems\", \"limit\": true, \"value\": \"a\"}" },
	{ "properties: {name: {maxLength: 3}}\n", "name: abcd\n",
	  "'name' must be at most 3 characters long, found 4",
	  "{\"keyword\": \"maxLength\", \"limit\": 3, \"value\": \"abcd\"}" },
	{ "properties: {name: {minLength: 1}}\n", "name: ''\n",
	  "'name' must be at least 1 character long, found 0", NULL },
	{ "properties: {name: {pattern: '^[a-z]+$'}}\n", "name: Ab\n",
	  "'name' must match '^[a-z]+$', found 'Ab'",
	  "{\"keyword\": \"pattern\", \"limit\": \"^[a-z]+$\", \"value\": \"Ab\"}" },
	{ "propertyNames: {pattern: '^[a-z]+$'}\n", "Nope: 1\n",
	  "key 'Nope' must match '^[a-z]+$', found 'Nope'",
	  "{\"keyword\": \"propertyNames\", \"value\": \"Nope\"}" },
	{ "propertyNames: {type: string}\n", "2: 1\n",
	  "key 2 must be a string, found an integer (2)", NULL },
	{ "properties: {tags: {maxItems: 1}}\n", "tags: [a, b]\n",
	  "'tags' must have at most 1 item, found 2",
	  "{\"keyword\": \"maxItems\", \"limit\": 1, \"value\": 2}" },
	{ "minProperties: 2\n", "a: 1\n",
	  "the document must have at least 2 keys, found 1",
	  "{\"keyword\": \"minProperties\", \"limit\": 2, \"value\": 1}" },
	{ "items: {type: string}\n", "[1]\n",
	  "'/0' must be a string, found an integer (1)", NULL },
	{ "type: [string, \"null\"]\n", "5\n",
	  "the document must be a string or null, found an integer (5)",
	  "{\"keyword\": \"type\", \"value\": 5}" },
	{ "type: [integer, string, \"null\"]\n", "[]\n",
	  "the document must be an integer, a string or null, found an array",
	  "{\"keyword\": \"type\"}" },
	{ "type: number\n", ".inf\n",
	  "the document must be a finite number, found inf",
	  "{\"keyword\": \"type\", \"limit\": \"number\"}" },
	{ "type: string\n", "yes\n",
	  "the document must be a string, found a boolean (true)", NULL },
	{ "type: string\n", "2026-01-01\n",
	  "the document must be a string, found a date (2026-01-01)",
	  "{\"keyword\": \"type\", \"limit\": \"string\", \"value\": \"2026-01-01\"}" },
	{ "properties: {s: {maxLength: 1}}\n", "s: \"a\\\"b\"\n", NULL,
	  "{\"keyword\": \"maxLength\", \"limit\": 1, \"value\": \"a\\\"b\"}" },
	{ "properties: {'a/b': {type: integer}}\n", "a/b: x\n",
	  "'a/b' must be an integer, found a string ('x')", NULL },
	{ CHOICE, "spec: {kind: c}\n",
	  "'spec' matches none of the alternatives: 'title A', 'title B'",
	  "{\"keyword\": \"anyOf\"}" },
	{ ONEOF, "5\n",
	  "the document matches 2 of the alternatives, exactly one must",
	  "{\"keyword\": \"oneOf\", \"value\": 5}" },
	{ "anyOf: [{type: integer}, {type: [string, \"null\"]}]\n", "1.5\n",
	  "the document matches none of the alternatives: an integer, (a string or null)",
	  "{\"keyword\": \"anyOf\", \"value\": 1.5}" },
	{ "anyOf: [{minimum: 5}, {maximum: 1}]\n", "3\n",
	  "the document matches none of the alternatives: alternative 1, alternative 2",
	  NULL },
	{ "properties: {x: {type: integer}}\n",
	  "x: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n",
	  "'x' must be an integer, found a string "
	  "('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...')",
	  NULL },
};

ParameterizedTestParameters(schema, messages)
{
	return index_params(ROWS(messages_rows));
}

ParameterizedTest(size_t *i, schema, messages)
{
	const struct mcase *c = &messages_rows[*i];

	first_finding(c->schema, c->doc, c->msg, c->fig);
}

/* The engine's own kinds use the same machinery (spec/core.md 3.2, 9.2). */
#define WAIVERS                                                                \
	"pack: infragate\n"                                                    \
	"type: object\n"                                                       \
	"additionalProperties: false\n"                                        \
	"required: [waivers]\n"                                                \
	"properties:\n"                                                        \
	"  waivers:\n"                                                         \
	"    type: array\n"                                                    \
	"    items:\n"                                                         \
	"      type: object\n"                                                 \
	"      additionalProperties: false\n"                                  \
	"      required: [rule, files, owner, reason, expires]\n"              \
	"      properties:\n"                                                  \
	"        rule: {type: string, pattern: '^[a-z0-9*][a-z0-9.*_-]*$'}\n"   \
	"        files:\n"                                                     \
	"          oneOf: [{type: string},\n"                                  \
	"                  {type: array, items: {type: string}, minItems: 1}]\n" \
	"        path: {type: string}\n"                                       \
	"        document: {type: integer, minimum: 0}\n"                      \
	"        owner: {type: string, minLength: 1}\n"                        \
	"        reason: {type: string, minLength: 1}\n"                       \
	"        expires: {type: date}\n"                                      \
	"        ticket: {type: string}\n"                                     \
	"        created: {type: date}\n"

#define CONFIG                                                                 \
	"pack: infragate\n"                                                    \
	"type: object\n"                                                       \
	"additionalProperties: false\n"                                        \
	"properties:\n"                                                        \
	"  version: {const: 1}\n"                                              \
	"  fail_on: {enum: [error, warning, info, none]}\n"                    \
	"  jobs: {type: integer, minimum: 0}\n"                                \
	"  rules:\n"                                                           \
	"    type: object\n"                                                   \
	"    additionalProperties: {enum: [error, warning, info, \"off\"]}\n"  \
	"  limits:\n"                                                          \
	"    type: object\n"                                                   \
	"    additionalProperties: {type: integer, minimum: 1}\n"

static const struct vcase engine_kinds_rows[] = {
	{ WAIVERS,
	  "waivers:\n"
	  "  - rule: cooling.strict.*\n"
	  "    files: [\"plans/**\"]\n"
	  "    owner: alice\n"
	  "    reason: legacy\n"
	  "    expires: 2026-06-30\n",
	  "" },
	{ WAIVERS,
	  "waivers:\n"
	  "  - rule: Cooling\n"
	  "    files: 5\n"
	  "    owner: ''\n"
	  "    reason: legacy\n"
	  "    expires: '2026-06-30'\n"
	  "    note: x\n",
	  "input.type 2:11 /waivers/0/rule pattern\n"
	  "input.type 3:12 /waivers/0/files oneOf\n"
	  "input.type 4:12 /waivers/0/owner minLength\n"
	  "input.type 6:14 /waivers/0/expires type\n"
	  "input.type 7:5 /waivers/0/note additionalProperties\n" },
	{ CONFIG,
	  "version: 2\nfail_on: off\njobs: -1\n"
	  "rules: {\"a.b\": error, \"c.d\": off}\nlimits: {depth: 0}\n"
	  "strict: true\n",
	  "input.type 1:10 /version const\n"
	  "input.type 2:10 /fail_on enum\n"
	  "input.type 3:7 /jobs minimum\n"
	  "input.type 4:30 /rules/c.d enum\n"
	  "input.type 5:17 /limits/depth minimum\n"
	  "input.type 6:1 /strict additionalProperties\n" },
};

ParameterizedTestParameters(schema, engine_kinds)
{
	return index_params(ROWS(engine_kinds_rows));
}

ParameterizedTest(size_t *i, schema, engine_kinds)
{
	const struct vcase *c = &engine_kinds_rows[*i];

	check_case(c, NULL);
}

/* ---- compile errors -------------------------------------------------------- */

struct ccase {
	const char *schema;
	unsigned line, col;
	const char *path, *msg;
};

static const struct ccase compile_errors_rows[] = {
	{ "type: null\n", 1, 1, "/type",
	  "'type' must be a string or a list of strings, found null" },
	{ "properties:\n  a: {type: null}\n", 2, 7, "/properties/a/type",
	  "'type' must be a string or a list of strings, found null" },
	{ "type: [string, int]\n", 1, 1, "/type/1",
	  "unknown type 'int' in 'type'" },
	{ "type: strng\n", 1, 1, "/type",
	  "unknown type 'strng' in 'type' (did you mean 'string'?)" },
	{ "type: []\n", 1, 1, "/type", "'type' must not be an empty list" },
	{ "patern: x\n", 1, 1, "/patern",
	  "unknown keyword 'patern' (did you mean 'pattern'?)" },
	{ "properties:\n  a:\n    maxLenght: 3\n", 3, 5,
	  "/properties/a/maxLenght",
	  "unknown keyword 'maxLenght' (did you mean 'maxLength'?)" },
	{ "properties: {a: {pack: x}}\n", 1, 18, "/properties/a/pack",
	  "unknown keyword 'pack'" },
	{ "enum: []\n", 1, 1, "/enum",
	  "'enum' must be a non-empty list, found an empty list" },
	{ "enum: a\n", 1, 1, "/enum",
	  "'enum' must be a non-empty list, found a string" },
	{ "minimum: '0'\n", 1, 1, "/minimum",
	  "'minimum' must be a finite number, found a string" },
	{ "exclusiveMaximum: true\n", 1, 1, "/exclusiveMaximum",
	  "'exclusiveMaximum' must be a finite number, found a boolean" },
	{ "maximum: .inf\n", 1, 1, "/maximum",
	  "'maximum' must be a finite number, found a non-finite float" },
	{ "minLength: -1\n", 1, 1, "/minLength",
	  "'minLength' must be a non-negative integer, found a negative integer" },
	{ "maxItems: 1.5\n", 1, 1, "/maxItems",
	  "'maxItems' must be a non-negative integer, found a float" },
	{ "pattern: '(a'\n", 1, 1, "/pattern",
	  "'pattern' does not compile at offset 2: missing closing parenthesis" },
	{ "pattern: 5\n", 1, 1, "/pattern",
	  "'pattern' must be a string, found an integer" },
	{ "properties: [a]\n", 1, 1, "/properties",
	  "'properties' must be a mapping, found a list" },
	{ "properties: {a: 5}\n", 1, 14, "/properties/a",
	  "a 'properties' entry must be a schema (a mapping), found an integer" },
	{ "properties: {1: {}}\n", 1, 14, "/properties",
	  "'properties' names must be strings, found an integer" },
	{ "required: a\n", 1, 1, "/required",
	  "'required' must be a list of strings, found a string" },
	{ "required: [a, 1]\n", 1, 1, "/required/1",
	  "'required' must be a list of strings, found an integer in it" },
	{ "required: [a, a]\n", 1, 1, "/required/1",
	  "'required' lists 'a' twice" },
	{ "additionalProperties: 1\n", 1, 1, "/additionalProperties",
	  "'additionalProperties' must be a boolean or a schema (a mapping), found an integer" },
	{ "propertyNames: true\n", 1, 1, "/propertyNames",
	  "'propertyNames' must be a schema (a mapping), found a boolean" },
	{ "items: [{type: string}]\n", 1, 1, "/items",
	  "'items' must be a schema (a mapping), found a list" },
	{ "uniqueItems: yes please\n", 1, 1, "/uniqueItems",
	  "'uniqueItems' must be a boolean, found a string" },
	{ "emptyIsMissing: 1\n", 1, 1, "/emptyIsMissing",
	  "'emptyIsMissing' must be a boolean, found an integer" },
	{ "infinite: 'yes'\n", 1, 1, "/infinite",
	  "'infinite' must be a boolean, found a string" },
	{ "allOf: []\n", 1, 1, "/allOf",
	  "'allOf' must be a non-empty list of schemas, found an empty list" },
	{ "anyOf: [1]\n", 1, 1, "/anyOf/0",
	  "an item of 'anyOf' must be a schema (a mapping), found an integer" },
	{ "oneOf: {a: 1}\n", 1, 1, "/oneOf",
	  "'oneOf' must be a non-empty list of schemas, found a mapping" },
	{ "title: 5\n", 1, 1, "/title", "'title' must be a string, found an integer" },
	{ "$ref: 5\n", 1, 1, "/$ref", "'$ref' must be a string, found an integer" },
	{ "$ref: '#/$defs/nope'\n", 1, 1, "/$ref",
	  "'$ref' target '#/$defs/nope' does not exist" },
	{ "$defs: {a: []}\n$ref: '#/$defs/a'\n", 1, 9, "/$defs/a",
	  "'$defs' entry 'a' must be a schema (a mapping), found a list" },
	{ "$ref: 'http://x/y.yaml'\n", 1, 1, "/$ref",
	  "'$ref' must be '#/<pointer>' or '<file>.yaml#/<pointer>' naming a file "
	  "of the same folder, found 'http://x/y.yaml'" },
	{ "$ref: '#defs'\n", 1, 1, "/$ref",
	  "'$ref' pointer must be empty or start with '/', found '#defs'" },
	{ "$ref: 'other.yaml#/a'\n", 1, 1, "/$ref",
	  "'$ref' 'other.yaml#/a': cannot load 'other.yaml': no such file" },
	{ "$ref: 'bad.yaml#/$defs/x'\n", 1, 13, "/$defs/x/typo",
	  "unknown keyword 'typo' (did you mean 'type'?) (in 'bad.yaml')" },
	{ "properties: {a: {$defs: {}}}\n", 1, 18, "/properties/a/$defs",
	  "'$defs' is allowed only at the top of a schema file" },
	{ "properties: {a: {findings: {}}}\n", 1, 18, "/properties/a/findings",
	  "'findings' is allowed only at the top of a schema file" },
	{ "finding: {lenght: input.type}\n", 1, 11, "/finding/lenght",
	  "unknown class 'lenght' in 'finding' (did you mean 'length'?)" },
	{ "finding: {length: demo.nope}\n", 1, 19, "/finding/length",
	  "finding id 'demo.nope' in 'finding' is neither an input.* id nor declared by the pack" },
	{ "findings: {type: 5}\n", 1, 12, "/findings/type",
	  "'findings' entry 'type' must be a finding id (a string), found an integer" },
	{ "findings: [a]\n", 1, 1, "/findings",
	  "'findings' must be a mapping of class to finding id, found a list" },
	{ "pack: 5\n", 1, 1, "/pack", "'pack' must be a string, found an integer" },
	{ "kind_value: [a]\n", 1, 1, "/kind_value",
	  "'kind_value' must be a string, found a list" },
	{ "api_version: 1\n", 1, 1, "/api_version",
	  "'api_version' must be a string, found an integer" },
	{ "default: maybe\n", 1, 1, "/default",
	  "'default' at the top of a schema file must be a boolean, found a string" },
	{ "detect: 5\n", 1, 1, "/detect",
	  "'detect' must be a schema (a mapping), found an integer" },
	{ "detect: {typo: 1}\n", 1, 10, "/detect/typo",
	  "unknown keyword 'typo' (did you mean 'type'?)" },
	{ "- a\n", 1, 1, "", "a schema must be a mapping, found a list" },
	{ "1: x\n", 1, 1, "", "schema keys must be strings, found an integer" },
	/* cycles that never descend into the document */
	{ "$defs: {a: {$ref: '#/$defs/b'}, b: {$ref: '#/$defs/a'}}\n"
	  "$ref: '#/$defs/a'\n",
	  1, 37, "/$defs/b/$ref",
	  "'$ref' '#/$defs/a' makes a cycle that does not pass through "
	  "properties, items, additionalProperties or propertyNames" },
	{ "$defs: {a: {allOf: [{$ref: '#/$defs/a'}]}}\n", 1, 22,
	  "/$defs/a/allOf/0/$ref",
	  "'$ref' '#/$defs/a' makes a cycle that does not pass through "
	  "properties, items, additionalProperties or propertyNames" },
	{ "type: object\n$ref: '#'\n", 2, 1, "/$ref",
	  "'$ref' '#' makes a cycle that does not pass through "
	  "properties, items, additionalProperties or propertyNames" },
	{ "anyOf: [{oneOf: [{$ref: '#'}]}]\n", 1, 19, "/anyOf/0/oneOf/0/$ref",
	  "'$ref' '#' makes a cycle that does not pass through "
	  "properties, items, additionalProperties or propertyNames" },
};

ParameterizedTestParameters(schema, compile_errors)
{
	return index_params(ROWS(compile_errors_rows));
}

ParameterizedTest(size_t *i, schema, compile_errors)
{
	const struct ccase *c = &compile_errors_rows[*i];

	struct yaml_file sf;
	struct env_ud eu;
	struct schema *s;
	struct diag err;

	memset(&eu, 0, sizeof eu);
	eu.siblings = siblings;
	s = compile(c->schema, &sf, &eu, &err);
	cr_assert_null(s, "compiled:\n%s", c->schema);
	cr_assert_eq(err.code, DIAG_E_PACK, "code %d: %s", err.code, err.msg);
	cr_assert_str_eq(err.msg, c->msg);
	cr_assert_str_eq(err.path, c->path);
	cr_assert_eq(err.line, c->line, "line %u: %s", err.line, err.msg);
	cr_assert_eq(err.col, c->col, "col %u: %s", err.col, err.msg);
	yaml_file_release(&sf);
	env_release(&eu);
}

Test(schema, compile_without_env)
{
	struct yaml_file sf;
	struct schema *s;
	struct diag err;

	yload(&sf, "finding: {type: input.other}\nproperties: {a: {}}\n");
	s = schema_compile(sf.docs[0]->root, "t.yaml", NULL, &err);
	cr_assert_not_null(s);
	schema_free(s);
	yaml_file_release(&sf);
	yload(&sf, "finding: {type: demo.size}\n");
	s = schema_compile(sf.docs[0]->root, "t.yaml", NULL, &err);
	cr_assert_null(s);
	cr_assert_eq(err.code, DIAG_E_PACK);
	yaml_file_release(&sf);
	yload(&sf, "$ref: 'common.yaml'\n");
	s = schema_compile(sf.docs[0]->root, "t.yaml", NULL, &err);
	cr_assert_null(s);
	cr_assert_str_eq(err.msg, "'$ref' 'common.yaml' names another file, "
				  "which this schema cannot load");
	yaml_file_release(&sf);
	schema_free(NULL);
}

/* The compiled schema keeps nothing of its source document. */
Test(schema, outlives_its_source)
{
	struct yaml_file sf, df;
	struct findings fs;
	struct re_limits lim;
	struct schema *s;
	struct diag err;

	yload(&sf, "properties: {k: {enum: [a, b], const: a, pattern: '^a'}}\n");
	s = schema_compile(sf.docs[0]->root, "t.yaml", NULL, &err);
	cr_assert_not_null(s);
	yaml_file_release(&sf);
	yload(&df, "k: b\n");
	findings_init(&fs, 0);
	re_limits_default(&lim);
	cr_assert_eq(schema_validate(s, df.docs[0]->root, 0, &lim, &fs, &err), 2);
	cr_assert_str_eq(fs.items[0].message, "'k' must be 'a', found 'b'");
	findings_release(&fs);
	yaml_file_release(&df);
	schema_free(s);
}

/* ---- scale, limits, budgets, accepts -------------------------------------- */

static char *many_items(size_t n, const char *item)
{
	size_t len = strlen(item) + 4, i;
	char *s = malloc(n * len + 1), *p = s;

	for (i = 0; i < n; i++)
		p += snprintf(p, len + 1, "- %s\n", item);
	*p = '\0';
	return s;
}

Test(schema, five_thousand_violations, .timeout = 20)
{
	struct yaml_file sf, df;
	struct findings fs;
	struct re_limits lim;
	struct schema *s;
	struct diag err;
	char *doc = many_items(5000, "x");
	clock_t t0;
	size_t i;
	long n;

	yload(&sf, "items: {type: integer}\n");
	s = schema_compile(sf.docs[0]->root, "t.yaml", NULL, &err);
	cr_assert_not_null(s);
	yload(&df, doc);
	findings_init(&fs, 0);
	re_limits_default(&lim);
	t0 = clock();
	n = schema_validate(s, df.docs[0]->root, 0, &lim, &fs, &err);
	/* Informative only (no timed assertions): make bench measures. */
	cr_log_info("5000 violations in %.3f s",
		    (double)(clock() - t0) / CLOCKS_PER_SEC);
	cr_assert_eq(n, 5000);
	cr_assert_eq(fs.n, 5000);
	for (i = 0; i < fs.n; i++) {
		char want[32];

		snprintf(want, sizeof want, "/%zu", i);
		cr_assert_str_eq(fs.items[i].path, want);
		cr_assert_eq(fs.items[i].line, i + 1);
	}
	findings_release(&fs);
	/* Under a findings limit: 100, one engine.truncated, then stop. */
	findings_init(&fs, 100);
	n = schema_validate(s, df.docs[0]->root, 0, &lim, &fs, &err);
	cr_assert_eq(n, 101);
	cr_assert_eq(fs.n, 101);
	cr_assert_str_eq(fs.items[100].rule, "engine.truncated");
	findings_release(&fs);
	yaml_file_release(&df);
	yaml_file_release(&sf);
	schema_free(s);
	free(doc);
}

Test(schema, unique_items_linear, .timeout = 20)
{
	struct run r;
	char *doc = malloc(20000 * 12 + 1), *p = doc;
	size_t i;

	for (i = 0; i < 20000; i++)
		p += snprintf(p, 13, "- %zu\n", i % 19999);
	run_start(&r, "uniqueItems: true\n", doc, NULL);
	cr_assert_eq(r.rc, 1);
	cr_assert_str_eq(r.fs.items[0].path, "/19999");
	cr_assert_str_eq(r.fs.items[0].message,
			 "duplicate item in the document: equal to item 0");
	run_end(&r);
	free(doc);
}

Test(schema, regex_budget, .timeout = 20)
{
	static const char evil[] = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab\n";
	struct run r;
	struct re_limits lim;

	run_start(&r, "properties: {s: {pattern: '^(a+)+$'}}\n",
		  "ok: 1\ns: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab\n", NULL);
	cr_assert_eq(r.rc, -1);
	cr_assert_eq(r.err.code, DIAG_E_BUDGET, "%s", r.err.msg);
	cr_assert_eq(r.err.line, 2);
	cr_assert_eq(r.err.col, 4);
	cr_assert_str_eq(r.err.path, "/s");
	cr_assert_str_eq(r.err.limit, "regex_match_limit");
	cr_assert(strncmp(r.err.msg, "matching 's' against pattern '^(a+)+$': ",
			  40) == 0, "%s", r.err.msg);
	re_limits_default(&lim);
	cr_assert_eq(schema_accepts(r.s, r.df.docs[0]->root, &lim), -1);
	run_end(&r);
	/* inside a choice probe too */
	run_start(&r, "anyOf: [{type: integer}, {pattern: '^(a+)+$'}]\n", evil,
		  NULL);
	cr_assert_eq(r.rc, -1);
	cr_assert_eq(r.err.code, DIAG_E_BUDGET);
	run_end(&r);
}

struct acase {
	const char *schema, *doc;
	int want;
};

static const struct acase accepts_rows[] = {
	{ "type: object\nrequired: [level]\n"
	  "anyOf: [{required: [reviewer]}, {required: [proposed_by]},\n"
	  "        {required: [fault_domain]}]\n",
	  "level: L2\nproposed_by: x\n", 1 },
	{ "type: object\nrequired: [level]\n"
	  "anyOf: [{required: [reviewer]}, {required: [proposed_by]}]\n",
	  "level: L2\n", 0 },
	{ "type: object\nrequired: [level]\n", "- level\n", 0 },
	{ DEMO, "kind: demo-item\nname: a\nsize: 1\n", 1 },
	{ DEMO, "kind: demo-item\nname: a\nsize: 1\ntags: [a, a]\n", 0 },
	{ ONEOF, "5\n", 0 },
	{ ONEOF, "-5\n", 1 },
};

ParameterizedTestParameters(schema, accepts)
{
	return index_params(ROWS(accepts_rows));
}

ParameterizedTest(size_t *i, schema, accepts)
{
	const struct acase *c = &accepts_rows[*i];

	struct run r;

	run_start(&r, c->schema, c->doc, NULL);
	cr_assert_eq(schema_accepts(r.s, r.df.docs[0]->root, NULL), c->want);
	cr_assert_eq(r.rc == 0, c->want == 1);
	run_end(&r);
}

/* The walk recurses over the document; the loader bounds its depth. */
Test(schema, deep_document)
{
	char doc[2 * 500 + 8], *p = doc;
	char want[2048];
	struct run r;
	size_t i;

	for (i = 0; i < 500; i++)
		*p++ = '[';
	*p++ = '1';
	for (i = 0; i < 500; i++)
		*p++ = ']';
	*p++ = '\n';
	*p = '\0';
	run_start(&r, "$defs: {l: {type: array, items: {$ref: '#/$defs/l'}}}\n"
		      "$ref: '#/$defs/l'\n",
		  doc, NULL);
	cr_assert_eq(r.rc, 1);
	p = want;
	for (i = 0; i < 500; i++)
		p += snprintf(p, 3, "/0");
	cr_assert_str_eq(r.fs.items[0].path, want);
	cr_assert_eq(r.fs.items[0].col, 501);
	run_end(&r);
}

/* A block mapping in a block sequence starts at its first key. */
Test(schema, required_in_list_item)
{
	static const struct vcase c = {
		"items: {required: [signal, op]}\n",
		"- signal: a\n  op: '>'\n- op: '<'\n",
		"input.type 3:3 /1/signal required\n"
	};

	check_case(&c, NULL);
}

struct counting {
	long live;
};

static void *count_alloc(size_t size, void *ud)
{
	((struct counting *)ud)->live++;
	return malloc(size);
}

static void count_release(void *p, void *ud)
{
	if (p)
		((struct counting *)ud)->live--;
	free(p);
}

/* Regexes allocate through env->re_alloc; the schema keeps its own copy
 * of the allocator record, so the env may go out of scope. */
Test(schema, regex_allocator_seam)
{
	struct counting cnt = { 0 };
	struct yaml_file sf, df;
	struct findings fs;
	struct schema *s;
	struct diag err;

	yload(&sf, "properties: {a: {pattern: '^x+$'}, b: {pattern: y}}\n");
	{
		struct re_alloc al = { count_alloc, count_release, &cnt };
		struct schema_env env = { NULL, NULL, NULL, &al };

		s = schema_compile(sf.docs[0]->root, "t.yaml", &env, &err);
	}
	cr_assert_not_null(s);
	cr_assert_gt(cnt.live, 0);
	yload(&df, "a: xx\nb: z\n");
	findings_init(&fs, 0);
	cr_assert_eq(schema_validate(s, df.docs[0]->root, 0, NULL, &fs, &err), 1);
	cr_assert_str_eq(fs.items[0].path, "/b");
	findings_release(&fs);
	schema_free(s);
	cr_assert_eq(cnt.live, 0);
	yaml_file_release(&df);
	yaml_file_release(&sf);
}
