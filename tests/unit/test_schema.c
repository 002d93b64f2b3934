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

static void run_end(struct run *r)
{
	findings_release(&r->fs);
	schema_free(r->s);
	yaml_file_release(&r->df);
	yaml_file_release(&r->sf);
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

ParameterizedTestParameters(schema, demo)
{
	static struct vcase rows[] = {
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

	return cr_make_param_array(struct vcase, rows,
				   sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct vcase *c, schema, demo)
{
	check_case(c, NULL);
}

/* ---- every keyword, type and position rule ------------------------------ */

ParameterizedTestParameters(schema, keywords)
{
	static struct vcase rows[] = {
		/* type: each name; a list; YAML 1.1 typing of the document */
		{ "type: integer\n", "5\n", "" },
		{ "type: integer\n", "true\n", "input.type 1:1  type\n" },
		{ "type: integer\n", "10.0\n", "input.type 1:1  type\n" },
		{ "type: integer\n", "123456789012345678901234567890\n", "" },
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
		{ "maximum: 100\n", "99999999999999999999\n", "input.type 1:1  maximum\n" },
		{ "minimum: 0\n", "-99999999999999999999\n", "input.type 1:1  minimum\n" },
		{ "maximum: 1.0e+30\n", "99999999999999999999\n", "" },
		{ "minimum: 1.0e+19\n", "10000000000000000000\n", "" },
		{ "minimum: 1.0e+19\n", "9999999999999999999\n",
		  "input.type 1:1  minimum\n" },
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
		{ "propertyNames: {pattern: '^[a-z]+$'}\n", "ok: 1\nNo: 2\n",
		  "input.type 2:1 /No propertyNames\n" },
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

	return cr_make_param_array(struct vcase, rows,
				   sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct vcase *c, schema, keywords)
{
	check_case(c, NULL);
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

ParameterizedTestParameters(schema, order)
{
	static struct vcase rows[] = {
		/* node keywords in table order, then entries in document
		 * order; required in list order; type failure hides the rest */
		{ NESTED, "z: 1\nd: [1, x, 2]\nb: {y: a, w: 1}\na: 7\n",
		  "input.type 1:1 /b required\n"
		  "input.type 1:1 /c required\n"
		  "input.type 1:1  minProperties\n"
		  "input.type 1:1 /z additionalProperties\n"
		  "input.type 2:5 /d/0 type\n"
		  "input.type 2:11 /d/2 type\n"
		  "input.type 3:4 /b/x required\n"
		  "input.type 3:8 /b/y type\n"
		  "input.type 3:11 /b/w additionalProperties\n"
		  "input.type 4:4 /a enum\n"
		  "input.type 4:4 /a minimum\n" },
		{ NESTED, "a: x\nb: [1]\nc: 1\nd: {}\ne: 1\n",
		  "input.type 5:1 /e additionalProperties\n"
		  "input.type 1:4 /a type\n"
		  "input.type 2:4 /b type\n"
		  "input.type 4:4 /d type\n" },
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

	return cr_make_param_array(struct vcase, rows,
				   sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct vcase *c, schema, order)
{
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
