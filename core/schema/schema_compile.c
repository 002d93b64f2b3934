/*
 * schema_compile.c: one schema mapping (spec/core.md 7.2) into a struct
 * sch_node. Keywords are rows of one table, in the order of the spec's
 * table; every wrong keyword is an engine.pack error at its key with the
 * schema pointer. Patterns compile here, once. Each source node compiles
 * once (a memo by node), which also shares YAML aliases. The compiler
 * recurses only over the nesting of one schema file, which the loader
 * bounds (512 levels); $ref targets are left to schema_link.c's work list,
 * so a chain of references never deepens the C stack. Nothing here
 * validates a document or prints.
 */
#include "core/schema/schema_int.h"
#include "core/util/grow.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sch_nomem(struct sch_comp *c)
{
	diag_set(c->err, DIAG_E_NOMEM, 0, 0, "out of memory compiling a schema");
	return -1;
}

/* An engine.pack error at 'at', with the current schema pointer; errors in
 * a file reached through $ref name that file. */
int sch_cerr(struct sch_comp *c, const struct node *at, const char *fmt, ...)
{
	char msg[DIAG_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (c->file > 0)
		diag_set(c->err, DIAG_E_PACK, at->line, at->col, "%s (in '%s')",
			 msg, c->files[c->file].display);
	else
		diag_set(c->err, DIAG_E_PACK, at->line, at->col, "%s", msg);
	diag_set_path(c->err, sbuf_cstr(&c->spath));
	return -1;
}

/* "a string", "null": what a schema value is, for compile messages. */
const char *sch_found_word(const struct node *n)
{
	static const char *const w[NODE_NTYPES] = {
		[NODE_NULL] = "null",         [NODE_BOOL] = "a boolean",
		[NODE_INT] = "an integer",    [NODE_FLOAT] = "a float",
		[NODE_STR] = "a string",      [NODE_DATE] = "a date",
		[NODE_DATETIME] = "a datetime", [NODE_LIST] = "a list",
		[NODE_MAP] = "a mapping",     [NODE_BIGINT] = "an integer",
	};

	return n->type < NODE_NTYPES ? w[n->type] : "?";
}

char *sch_cstrdup(struct sch_comp *c, const char *s, size_t len)
{
	char *p = arena_strndup(&c->s->arena, s, len);

	if (!p)
		sch_nomem(c);
	return p;
}

static int push_tok(struct sch_comp *c, const char *s, size_t len)
{
	size_t at = c->spath.len;

	doc_pointer_add(&c->spath, s, len);
	return (int)at;
}

static void push_index(struct sch_comp *c, size_t i)
{
	sbuf_addf(&c->spath, "/%zu", i);
}

/* ---- value copies ------------------------------------------------------ */

/* Copy an enum/const value into the schema's arena: the schema keeps no
 * pointer into its source document. Depth is the loader's (512). */
static struct node *copy_node(struct sch_comp *c, const struct node *n)
{
	struct node *d = arena_alloc(&c->s->arena, sizeof *d);
	size_t i;

	if (!d)
		return NULL;
	*d = *n;
	switch (n->type) {
	case NODE_STR:
	case NODE_BIGINT:
		d->v.str.s = arena_strndup(&c->s->arena, n->v.str.s,
					   n->v.str.len);
		return d->v.str.s ? d : NULL;
	case NODE_LIST:
		d->v.list.items = arena_calloc(&c->s->arena, n->v.list.n + 1,
					       sizeof *d->v.list.items);
		if (!d->v.list.items)
			return NULL;
		for (i = 0; i < n->v.list.n; i++)
			if (!(d->v.list.items[i] =
				      copy_node(c, n->v.list.items[i])))
				return NULL;
		return d;
	case NODE_MAP:
		d->v.map.pairs = arena_calloc(&c->s->arena, n->v.map.n + 1,
					      sizeof *d->v.map.pairs);
		if (!d->v.map.pairs)
			return NULL;
		for (i = 0; i < n->v.map.n; i++) {
			d->v.map.pairs[i].key = copy_node(c, n->v.map.pairs[i].key);
			d->v.map.pairs[i].value =
				copy_node(c, n->v.map.pairs[i].value);
			if (!d->v.map.pairs[i].key || !d->v.map.pairs[i].value)
				return NULL;
		}
		return d;
	default:
		return d;
	}
}

/* ---- the keyword table ------------------------------------------------- */

/* Compile the subschema 'val' of keyword 'what' (the pointer is pushed). */
static struct sch_node *compile_sub(struct sch_comp *c, const struct node *at,
				    const struct node *val, const char *what)
{
	if (val->type != NODE_MAP) {
		sch_cerr(c, at, "%s must be a schema (a mapping), found %s", what,
		     sch_found_word(val));
		return NULL;
	}
	return sch_compile_node(c, val);
}

/* Name of the closest of 'names' within two edits, or NULL. */
const char *sch_closest(const char *s, size_t len, const char *const *names,
			size_t n)
{
	const char *best = NULL;
	int bd = 3;
	size_t i;

	for (i = 0; i < n; i++) {
		int d = sch_distance2(s, len, names[i], strlen(names[i]));

		if (d < bd) {
			bd = d;
			best = names[i];
		}
	}
	return best;
}

static const char *const type_words[SCH_NTYPES] = {
	"boolean", "integer", "number", "string", "array",
	"object",  "date",    "datetime", "null",
};

static int one_type(struct sch_comp *c, struct sch_node *sn,
		    const struct node *key, const struct node *t)
{
	size_t i;
	const char *near;

	if (t->type != NODE_STR)
		return sch_cerr(c, key,
			    "'type' must be a string or a list of strings, found %s",
			    sch_found_word(t));
	for (i = 0; i < SCH_NTYPES; i++) {
		if (strlen(type_words[i]) == t->v.str.len &&
		    memcmp(type_words[i], t->v.str.s, t->v.str.len) == 0) {
			sn->types |= 1u << i;
			return 0;
		}
	}
	near = sch_closest(t->v.str.s, t->v.str.len, type_words, SCH_NTYPES);
	return sch_cerr(c, key, "unknown type '%.*s' in 'type'%s%s%s",
		    (int)(t->v.str.len > 60 ? 60 : t->v.str.len), t->v.str.s,
		    near ? " (did you mean '" : "", near ? near : "",
		    near ? "'?)" : "");
}

static int kw_type(struct sch_comp *c, struct sch_node *sn, const struct node *key,
		   const struct node *val, size_t arg)
{
	size_t i;

	(void)arg;
	if (val->type == NODE_STR) {
		if (one_type(c, sn, key, val) < 0)
			return -1;
		sn->type_single = sch_cstrdup(c, val->v.str.s, val->v.str.len);
		return sn->type_single ? 0 : -1;
	}
	if (val->type != NODE_LIST)
		return sch_cerr(c, key,
			    "'type' must be a string or a list of strings, found %s",
			    sch_found_word(val));
	if (val->v.list.n == 0)
		return sch_cerr(c, key, "'type' must not be an empty list");
	for (i = 0; i < val->v.list.n; i++) {
		size_t at = c->spath.len;
		int rc;

		push_index(c, i);
		rc = one_type(c, sn, key, val->v.list.items[i]);
		sbuf_truncate(&c->spath, at);
		if (rc < 0)
			return -1;
	}
	return 0;
}

static int kw_enum(struct sch_comp *c, struct sch_node *sn, const struct node *key,
		   const struct node *val, size_t arg)
{
	(void)arg;
	if (val->type != NODE_LIST || val->v.list.n == 0)
		return sch_cerr(c, key, "'enum' must be a non-empty list, found %s",
			    val->type == NODE_LIST ? "an empty list"
						   : sch_found_word(val));
	if (!(sn->enum_v = copy_node(c, val)))
		return sch_nomem(c);
	return 0;
}

static int kw_const(struct sch_comp *c, struct sch_node *sn, const struct node *key,
		    const struct node *val, size_t arg)
{
	(void)key;
	(void)arg;
	if (!(sn->const_v = copy_node(c, val)))
		return sch_nomem(c);
	return 0;
}

static const char *const bound_names[SB_N] = {
	[SB_MIN] = "minimum", [SB_MAX] = "maximum",
	[SB_XMIN] = "exclusiveMinimum", [SB_XMAX] = "exclusiveMaximum",
};

static int kw_bound(struct sch_comp *c, struct sch_node *sn, const struct node *key,
		    const struct node *val, size_t arg)
{
	struct sch_bound *b = &sn->bound[arg];

	if (val->type == NODE_INT) {
		b->is_int = 1;
		b->i = val->v.i;
	} else if (val->type == NODE_FLOAT && isfinite(val->v.f)) {
		b->f = val->v.f;
	} else {
		return sch_cerr(c, key, "'%s' must be a finite number, found %s",
			    bound_names[arg],
			    val->type == NODE_FLOAT ? "a non-finite float"
				    : val->type == NODE_BIGINT
					    ? "an integer outside 64 bits"
					    : sch_found_word(val));
	}
	b->set = 1;
	return 0;
}

static int kw_count(struct sch_comp *c, struct sch_node *sn, const struct node *key,
		    const struct node *val, size_t arg)
{
	int64_t *slot = (int64_t *)(void *)((char *)sn + arg);

	if (val->type != NODE_INT || val->v.i < 0)
		return sch_cerr(c, key,
			    "'%s' must be a non-negative integer, found %s",
			    key->v.str.s,
			    val->type == NODE_INT ? "a negative integer"
						  : sch_found_word(val));
	*slot = val->v.i;
	return 0;
}

static int kw_flag(struct sch_comp *c, struct sch_node *sn, const struct node *key,
		   const struct node *val, size_t arg)
{
	if (val->type != NODE_BOOL)
		return sch_cerr(c, key, "'%s' must be a boolean, found %s",
			    key->v.str.s, sch_found_word(val));
	*((unsigned char *)sn + arg) = (unsigned char)(val->v.b != 0);
	return 0;
}

static int kw_pattern(struct sch_comp *c, struct sch_node *sn,
		      const struct node *key, const struct node *val,
		      size_t arg)
{
	struct schema *s = c->s;
	static const char prefix[] = "pattern does not compile ";
	struct diag rerr;

	(void)arg;
	if (val->type != NODE_STR)
		return sch_cerr(c, key, "'pattern' must be a string, found %s",
			    sch_found_word(val));
	if (grow_array(&s->res, &s->ares, s->nres + 1, sizeof *s->res) < 0)
		return sch_nomem(c);
	diag_init(&rerr);
	sn->re = re_compile(val->v.str.s, val->v.str.len, 0,
			    s->has_re_alloc ? &s->re_alloc : NULL, &rerr);
	if (!sn->re) {
		if (rerr.code == DIAG_E_NOMEM)
			return sch_nomem(c);
		if (strncmp(rerr.msg, prefix, sizeof prefix - 1) == 0)
			return sch_cerr(c, key, "'pattern' does not compile %s",
				    rerr.msg + sizeof prefix - 1);
		return sch_cerr(c, key, "'pattern' does not compile: %s", rerr.msg);
	}
	s->res[s->nres++] = sn->re;
	sn->pattern.s = sch_cstrdup(c, val->v.str.s, val->v.str.len);
	sn->pattern.len = val->v.str.len;
	return sn->pattern.s ? 0 : -1;
}

static int prop_cmp(const void *a, const void *b)
{
	const struct sch_prop *x = a, *y = b;
	size_t n = x->name.len < y->name.len ? x->name.len : y->name.len;
	int r = memcmp(x->name.s, y->name.s, n);

	if (r)
		return r;
	return x->name.len < y->name.len ? -1 : x->name.len > y->name.len;
}

const struct sch_node *sch_prop_find(const struct sch_node *sn,
				     const char *name, size_t len)
{
	struct sch_prop want, *hit;

	if (!sn->nprops)
		return NULL;
	want.schema = NULL;
	want.name.s = name;
	want.name.len = len;
	hit = bsearch(&want, sn->by_name, sn->nprops, sizeof want, prop_cmp);
	return hit ? hit->schema : NULL;
}

static int kw_properties(struct sch_comp *c, struct sch_node *sn,
			 const struct node *key, const struct node *val,
			 size_t arg)
{
	struct arena *a = &c->s->arena;
	size_t i, n;

	(void)arg;
	if (val->type != NODE_MAP)
		return sch_cerr(c, key, "'properties' must be a mapping, found %s",
			    sch_found_word(val));
	n = val->v.map.n;
	sn->props = arena_calloc(a, n + 1, sizeof *sn->props);
	sn->by_name = arena_calloc(a, n + 1, sizeof *sn->by_name);
	if (!sn->props || !sn->by_name)
		return sch_nomem(c);
	for (i = 0; i < n; i++) {
		const struct doc_pair *p = &val->v.map.pairs[i];
		struct sch_prop *pr = &sn->props[i];
		size_t at = c->spath.len;

		if (p->key->type != NODE_STR)
			return sch_cerr(c, p->key,
				    "'properties' names must be strings, found %s",
				    sch_found_word(p->key));
		push_tok(c, p->key->v.str.s, p->key->v.str.len);
		pr->name.s = sch_cstrdup(c, p->key->v.str.s, p->key->v.str.len);
		pr->name.len = p->key->v.str.len;
		if (!pr->name.s ||
		    !(pr->schema = compile_sub(c, p->key, p->value,
					       "a 'properties' entry")))
			return -1;
		sbuf_truncate(&c->spath, at);
	}
	memcpy(sn->by_name, sn->props, n * sizeof *sn->props);
	qsort(sn->by_name, n, sizeof *sn->by_name, prop_cmp);
	sn->nprops = n;
	return 0;
}

static int kw_required(struct sch_comp *c, struct sch_node *sn,
		       const struct node *key, const struct node *val,
		       size_t arg)
{
	size_t i, j, n;

	(void)arg;
	if (val->type != NODE_LIST)
		return sch_cerr(c, key,
			    "'required' must be a list of strings, found %s",
			    sch_found_word(val));
	n = val->v.list.n;
	sn->required = arena_calloc(&c->s->arena, n + 1, sizeof *sn->required);
	if (!sn->required)
		return sch_nomem(c);
	for (i = 0; i < n; i++) {
		const struct node *it = val->v.list.items[i];

		if (it->type != NODE_STR) {
			push_index(c, i);
			return sch_cerr(c, key,
				    "'required' must be a list of strings, found %s in it",
				    sch_found_word(it));
		}
		for (j = 0; j < i; j++) {
			if (sn->required[j].len == it->v.str.len &&
			    memcmp(sn->required[j].s, it->v.str.s,
				   it->v.str.len) == 0) {
				push_index(c, i);
				return sch_cerr(c, key, "'required' lists '%s' twice",
					    sn->required[j].s);
			}
		}
		sn->required[i].s = sch_cstrdup(c, it->v.str.s, it->v.str.len);
		sn->required[i].len = it->v.str.len;
		if (!sn->required[i].s)
			return -1;
	}
	sn->nrequired = n;
	return 0;
}

static int kw_additional(struct sch_comp *c, struct sch_node *sn,
			 const struct node *key, const struct node *val,
			 size_t arg)
{
	(void)arg;
	if (val->type == NODE_BOOL) {
		sn->additional = val->v.b ? ADD_TRUE : ADD_FALSE;
		return 0;
	}
	if (val->type != NODE_MAP)
		return sch_cerr(c, key,
			    "'additionalProperties' must be a boolean or a schema (a mapping), found %s",
			    sch_found_word(val));
	sn->additional = ADD_SCHEMA;
	sn->additional_schema = sch_compile_node(c, val);
	return sn->additional_schema ? 0 : -1;
}

/* propertyNames, items: one subschema into the field at 'arg'. */
static int kw_schema(struct sch_comp *c, struct sch_node *sn, const struct node *key,
		     const struct node *val, size_t arg)
{
	struct sch_node **slot = (struct sch_node **)(void *)((char *)sn + arg);
	char what[64];

	snprintf(what, sizeof what, "'%s'", key->v.str.s);
	*slot = compile_sub(c, key, val, what);
	return *slot ? 0 : -1;
}

static int kw_applicator(struct sch_comp *c, struct sch_node *sn,
			 const struct node *key, const struct node *val,
			 size_t arg)
{
	struct sch_node ***list = arg == 0 ? &sn->all
				: arg == 1 ? &sn->any : &sn->one;
	size_t *count = arg == 0 ? &sn->nall : arg == 1 ? &sn->nany : &sn->none;
	size_t i, n;
	char what[64];

	if (val->type != NODE_LIST || val->v.list.n == 0)
		return sch_cerr(c, key,
			    "'%s' must be a non-empty list of schemas, found %s",
			    key->v.str.s,
			    val->type == NODE_LIST ? "an empty list"
						   : sch_found_word(val));
	n = val->v.list.n;
	*list = arena_calloc(&c->s->arena, n, sizeof **list);
	if (!*list)
		return sch_nomem(c);
	snprintf(what, sizeof what, "an item of '%s'", key->v.str.s);
	for (i = 0; i < n; i++) {
		size_t at = c->spath.len;

		push_index(c, i);
		if (!((*list)[i] = compile_sub(c, key, val->v.list.items[i],
					       what)))
			return -1;
		sbuf_truncate(&c->spath, at);
	}
	*count = n;
	return 0;
}

static int kw_ref(struct sch_comp *c, struct sch_node *sn, const struct node *key,
		  const struct node *val, size_t arg)
{
	(void)arg;
	if (val->type != NODE_STR)
		return sch_cerr(c, key, "'$ref' must be a string, found %s",
			    sch_found_word(val));
	return sch_ref_queue(c, sn, key, val);
}

static int known_id(struct sch_comp *c, const char *id, int *check)
{
	*check = 0;
	if (strncmp(id, "input.", 6) == 0 && id[6])
		return 1;
	if (c->env && c->env->id_known)
		return c->env->id_known(c->env->ud, id, check) != 0;
	return 0;
}

/* A `finding` or `findings` map: class -> id, into ids[]. */
int sch_parse_ids(struct sch_comp *c, const struct node *key,
		  const struct node *val, const struct sch_id **ids)
{
	size_t i, k;

	if (val->type != NODE_MAP)
		return sch_cerr(c, key,
			    "'%s' must be a mapping of class to finding id, found %s",
			    key->v.str.s, sch_found_word(val));
	for (i = 0; i < val->v.map.n; i++) {
		const struct doc_pair *p = &val->v.map.pairs[i];
		struct sch_id *id;
		const char *near;
		int check;

		size_t at = c->spath.len;

		if (p->key->type != NODE_STR)
			return sch_cerr(c, p->key,
				    "'%s' keys must be class names, found %s",
				    key->v.str.s, sch_found_word(p->key));
		push_tok(c, p->key->v.str.s, p->key->v.str.len);
		for (k = 0; k < SC_NCLASSES; k++)
			if (strlen(sch_class_names[k]) == p->key->v.str.len &&
			    memcmp(sch_class_names[k], p->key->v.str.s,
				   p->key->v.str.len) == 0)
				break;
		if (k == SC_NCLASSES) {
			near = sch_closest(p->key->v.str.s, p->key->v.str.len,
				       sch_class_names, SC_NCLASSES);
			return sch_cerr(c, p->key,
				    "unknown class '%.60s' in '%s'%s%s%s",
				    p->key->v.str.s, key->v.str.s,
				    near ? " (did you mean '" : "",
				    near ? near : "", near ? "'?)" : "");
		}
		if (p->value->type != NODE_STR)
			return sch_cerr(c, p->key,
				    "'%s' entry '%s' must be a finding id (a string), found %s",
				    key->v.str.s, sch_class_names[k],
				    sch_found_word(p->value));
		if (!known_id(c, p->value->v.str.s, &check))
			return sch_cerr(c, p->value,
				    "finding id '%.100s' in '%s' is neither an input.* id nor declared by the pack",
				    p->value->v.str.s, key->v.str.s);
		id = arena_calloc(&c->s->arena, 1, sizeof *id);
		if (!id || !(id->id = sch_cstrdup(c, p->value->v.str.s,
					      p->value->v.str.len)))
			return sch_nomem(c);
		id->check_stage = check != 0;
		ids[k] = id;
		sbuf_truncate(&c->spath, at);
	}
	return 0;
}

static int kw_finding(struct sch_comp *c, struct sch_node *sn,
		      const struct node *key, const struct node *val,
		      size_t arg)
{
	(void)arg;
	return sch_parse_ids(c, key, val, sn->ids);
}

static int kw_title(struct sch_comp *c, struct sch_node *sn, const struct node *key,
		    const struct node *val, size_t arg)
{
	(void)arg;
	if (val->type != NODE_STR)
		return sch_cerr(c, key, "'title' must be a string, found %s",
			    sch_found_word(val));
	sn->title = sch_cstrdup(c, val->v.str.s, val->v.str.len);
	return sn->title ? 0 : -1;
}

static int kw_annotation(struct sch_comp *c, struct sch_node *sn,
			 const struct node *key, const struct node *val,
			 size_t arg)
{
	(void)c;
	(void)sn;
	(void)key;
	(void)val;
	(void)arg;
	return 0;
}

static int kw_defs_misplaced(struct sch_comp *c, struct sch_node *sn,
			     const struct node *key, const struct node *val,
			     size_t arg)
{
	(void)sn;
	(void)val;
	(void)arg;
	return sch_cerr(c, key, "'%s' is allowed only at the top of a schema file",
		    key->v.str.s);
}

#define OFF(f) offsetof(struct sch_node, f)

/* Every keyword of spec/core.md 7.2, in the order of its table. */
static const struct sch_keyword keywords[] = {
	{ "type", kw_type, 0 },
	{ "enum", kw_enum, 0 },
	{ "const", kw_const, 0 },
	{ "minimum", kw_bound, SB_MIN },
	{ "maximum", kw_bound, SB_MAX },
	{ "exclusiveMinimum", kw_bound, SB_XMIN },
	{ "exclusiveMaximum", kw_bound, SB_XMAX },
	{ "infinite", kw_flag, OFF(infinite) },
	{ "minLength", kw_count, OFF(min_len) },
	{ "maxLength", kw_count, OFF(max_len) },
	{ "pattern", kw_pattern, 0 },
	{ "properties", kw_properties, 0 },
	{ "required", kw_required, 0 },
	{ "additionalProperties", kw_additional, 0 },
	{ "propertyNames", kw_schema, OFF(names) },
	{ "minProperties", kw_count, OFF(min_props) },
	{ "maxProperties", kw_count, OFF(max_props) },
	{ "items", kw_schema, OFF(items) },
	{ "minItems", kw_count, OFF(min_items) },
	{ "maxItems", kw_count, OFF(max_items) },
	{ "uniqueItems", kw_flag, OFF(unique) },
	{ "allOf", kw_applicator, 0 },
	{ "anyOf", kw_applicator, 1 },
	{ "oneOf", kw_applicator, 2 },
	{ "$ref", kw_ref, 0 },
	{ "finding", kw_finding, 0 },
	{ "emptyIsMissing", kw_flag, OFF(empty_missing) },
	{ "title", kw_title, 0 },
	{ "description", kw_annotation, 0 },
	{ "default", kw_annotation, 0 },
	{ "examples", kw_annotation, 0 },
	{ "deprecated", kw_annotation, 0 },
	{ "$comment", kw_annotation, 0 },
	{ "$schema", kw_annotation, 0 },
	{ "$defs", kw_defs_misplaced, 0 },
	{ "findings", kw_defs_misplaced, 0 },
	{ NULL, NULL, 0 }
};

static const struct sch_keyword *find_kw(const struct sch_keyword *t, const char *s,
				     size_t len)
{
	for (; t->name; t++)
		if (strlen(t->name) == len && memcmp(t->name, s, len) == 0)
			return t;
	return NULL;
}

static int unknown_keyword(struct sch_comp *c, const struct node *key, int root)
{
	const char *names[64];
	const char *near;
	size_t n = 0, i;

	for (i = 0; keywords[i].name && n < 64; i++)
		if (keywords[i].fn != kw_defs_misplaced || root)
			names[n++] = keywords[i].name;
	for (i = 0; root && sch_root_keys[i].name && n < 64; i++)
		names[n++] = sch_root_keys[i].name;
	near = sch_closest(key->v.str.s, key->v.str.len, names, n);
	return sch_cerr(c, key, "unknown keyword '%.60s'%s%s%s", key->v.str.s,
		    near ? " (did you mean '" : "", near ? near : "",
		    near ? "'?)" : "");
}

struct sch_node *sch_compile_node(struct sch_comp *c, const struct node *src)
{
	struct sch_node *sn = sch_memo_get(c, src);
	int root = src == c->files[c->file].root;
	size_t i;

	if (sn)
		return sn;
	sn = arena_calloc(&c->s->arena, 1, sizeof *sn);
	if (!sn || grow_array(&c->nodes, &c->anodes, c->nnodes + 1, sizeof *c->nodes) < 0 ||
	    sch_memo_put(c, src, sn) < 0) {
		sch_nomem(c);
		return NULL;
	}
	c->nodes[c->nnodes++] = sn;
	sn->min_len = sn->max_len = SCH_UNSET;
	sn->min_props = sn->max_props = SCH_UNSET;
	sn->min_items = sn->max_items = SCH_UNSET;
	sn->src = src;
	sn->file = c->file;
	sn->spath = sch_cstrdup(c, sbuf_cstr(&c->spath), c->spath.len);
	if (!sn->spath)
		return NULL;
	for (i = 0; i < src->v.map.n; i++) {
		const struct doc_pair *p = &src->v.map.pairs[i];
		const struct sch_keyword *kw = NULL;
		size_t at = c->spath.len;
		int rc;

		if (p->key->type != NODE_STR) {
			sch_cerr(c, p->key, "schema keys must be strings, found %s",
			     sch_found_word(p->key));
			return NULL;
		}
		push_tok(c, p->key->v.str.s, p->key->v.str.len);
		if (root)
			kw = find_kw(sch_root_keys, p->key->v.str.s,
				     p->key->v.str.len);
		if (!kw)
			kw = find_kw(keywords, p->key->v.str.s,
				     p->key->v.str.len);
		if (kw)
			rc = kw->fn(c, sn, p->key, p->value, kw->arg);
		else if (p->key->v.str.len >= 2 &&
			 memcmp(p->key->v.str.s, "x-", 2) == 0)
			rc = 0;
		else
			rc = unknown_keyword(c, p->key, root);
		if (rc < 0)
			return NULL;
		sbuf_truncate(&c->spath, at);
	}
	return sn;
}
