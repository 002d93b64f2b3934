/*
 * schema_validate.c: one pre-order walk of a document against a compiled
 * schema (spec/core.md 7.2-7.4). For one node: type (a failure stops
 * everything else on that node and below it), enum, const, the bounds,
 * length, pattern; then, for a mapping, required (list order), the entry
 * counts, and its entries in document order (unknown key, key name, then
 * the value's own walk); for a list, the item counts and its items in
 * order (a duplicate, then the item's walk); then allOf, anyOf, oneOf and
 * $ref. Choices are decided by probing branches in a mode that builds no
 * message and stops at the first violation, so nothing leaks into the
 * findings; names are checked in a mode that keeps only the first message.
 *
 * The walk recurses over the document, which the loader limits to 512
 * levels, and over applicator edges, which the compiler proved acyclic.
 * The happy path allocates nothing per node: the path, message and figure
 * buffers and the uniqueItems tables are reused across the whole walk.
 * A compiled schema's regexes carry match data, so one schema must not be
 * used by two threads at once; each worker compiles its own.
 */
#include "core/schema/schema_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util/utf8.h"

#define LIST_MAX 10 /* values shown in "must be one of" */

#define PROBING(c) ((c)->mode == M_PROBE)

/* ---- scalars ----------------------------------------------------------- */

static int walk(struct sch_vctx *c, const struct sch_node *sn,
		const struct node *v);

static int type_fail(struct sch_vctx *c, const struct sch_node *sn,
		     const struct node *v)
{
	struct sch_fig lim = sch_fig_none, val = sch_fig_node(v);
	int finite = v->type == NODE_FLOAT && !isfinite(v->v.f) &&
		     !sn->infinite;

	if (PROBING(c))
		return V_STOP;
	sbuf_reset(&c->msg);
	sch_add_subject(c, &c->msg);
	sbuf_adds(&c->msg, " must be ");
	sch_add_types(&c->msg, sn->types, finite);
	sbuf_adds(&c->msg, ", found ");
	sch_add_found(&c->msg, v);
	if (sn->type_single) {
		lim.kind = SF_STR;
		lim.s = sn->type_single;
	}
	return sch_emit(c, sn, SC_TYPE, "type", v, &lim, &val);
}

static int check_enum(struct sch_vctx *c, const struct sch_node *sn,
		      const struct node *v)
{
	const struct node *e = sn->enum_v;
	struct sch_fig val = sch_fig_node(v);
	size_t i;

	for (i = 0; i < e->v.list.n; i++)
		if (doc_equal(v, e->v.list.items[i]))
			return V_OK;
	if (PROBING(c))
		return V_STOP;
	sbuf_reset(&c->msg);
	sch_add_subject(c, &c->msg);
	sbuf_adds(&c->msg, " must be one of ");
	for (i = 0; i < e->v.list.n && i < LIST_MAX; i++) {
		if (i)
			sbuf_adds(&c->msg, ", ");
		sch_add_value(&c->msg, e->v.list.items[i]);
	}
	if (e->v.list.n > LIST_MAX)
		sbuf_adds(&c->msg, ", ...");
	sbuf_adds(&c->msg, ", found ");
	sch_add_value(&c->msg, v);
	return sch_emit(c, sn, SC_ENUM, "enum", v, &sch_fig_none, &val);
}

static int check_const(struct sch_vctx *c, const struct sch_node *sn,
		       const struct node *v)
{
	struct sch_fig lim = sch_fig_node(sn->const_v), val = sch_fig_node(v);

	if (doc_equal(v, sn->const_v))
		return V_OK;
	if (PROBING(c))
		return V_STOP;
	sbuf_reset(&c->msg);
	sch_add_subject(c, &c->msg);
	sbuf_adds(&c->msg, " must be ");
	sch_add_value(&c->msg, sn->const_v);
	sbuf_adds(&c->msg, ", found ");
	sch_add_value(&c->msg, v);
	return sch_emit(c, sn, SC_CONST, "const", v, &lim, &val);
}

static const struct {
	const char *keyword, *words;
} bound_rows[SB_N] = {
	[SB_MIN] = { "minimum", " must be at least " },
	[SB_MAX] = { "maximum", " must be at most " },
	[SB_XMIN] = { "exclusiveMinimum", " must be greater than " },
	[SB_XMAX] = { "exclusiveMaximum", " must be less than " },
};

static int bound_holds(int k, int cmp)
{
	if (cmp == 2)
		return 0;
	switch (k) {
	case SB_MIN:
		return cmp >= 0;
	case SB_MAX:
		return cmp <= 0;
	case SB_XMIN:
		return cmp > 0;
	default:
		return cmp < 0;
	}
}

static int check_range(struct sch_vctx *c, const struct sch_node *sn,
		       const struct node *v)
{
	struct sch_fig val = sch_fig_node(v);
	int k, r;

	for (k = 0; k < SB_N; k++) {
		const struct sch_bound *b = &sn->bound[k];
		struct sch_fig lim = { SF_BOUND, NULL, 0, b, NULL };

		if (!b->set || bound_holds(k, sch_num_cmp(v, b)))
			continue;
		if (PROBING(c))
			return V_STOP;
		sbuf_reset(&c->msg);
		sch_add_subject(c, &c->msg);
		sbuf_adds(&c->msg, bound_rows[k].words);
		sch_add_bound(&c->msg, b);
		sbuf_adds(&c->msg, ", found ");
		sch_add_value(&c->msg, v);
		if ((r = sch_emit(c, sn, SC_RANGE, bound_rows[k].keyword, v, &lim,
			      &val)))
			return r;
	}
	return V_OK;
}

static int length_fail(struct sch_vctx *c, const struct sch_node *sn,
		       const struct node *v, int at_most, int64_t limit,
		       size_t n)
{
	struct sch_fig lim = sch_fig_int(limit), val = sch_fig_node(v);

	if (PROBING(c))
		return V_STOP;
	sbuf_reset(&c->msg);
	sch_add_subject(c, &c->msg);
	sbuf_addf(&c->msg, " must be at %s %lld character%s long, found %zu",
		  at_most ? "most" : "least", (long long)limit,
		  limit == 1 ? "" : "s", n);
	return sch_emit(c, sn, SC_LENGTH, at_most ? "maxLength" : "minLength", v,
		    &lim, &val);
}

static int check_string(struct sch_vctx *c, const struct sch_node *sn,
			const struct node *v)
{
	struct diag rerr;
	size_t ov[2];
	int r;

	if (sn->min_len != SCH_UNSET || sn->max_len != SCH_UNSET) {
		size_t n = utf8_count(v->v.str.s, v->v.str.len);

		if (sn->min_len != SCH_UNSET && n < (uint64_t)sn->min_len &&
		    (r = length_fail(c, sn, v, 0, sn->min_len, n)))
			return r;
		if (sn->max_len != SCH_UNSET && n > (uint64_t)sn->max_len &&
		    (r = length_fail(c, sn, v, 1, sn->max_len, n)))
			return r;
	}
	if (sn->re) {
		struct sch_fig lim = { SF_STR, NULL, 0, NULL, sn->pattern.s };
		struct sch_fig val = sch_fig_node(v);

		diag_init(&rerr);
		r = re_match(sn->re, v->v.str.s, v->v.str.len, 0, c->lim, ov,
			     1, &rerr);
		if (r == -1) {
			*c->err = rerr;
			return sch_budget(c, sn, v);
		}
		/* r == -2: a subject that is not UTF-8 (a JSON lone
		 * surrogate) cannot match. */
		if (r > 0)
			return V_OK;
		if (PROBING(c))
			return V_STOP;
		sbuf_reset(&c->msg);
		sch_add_subject(c, &c->msg);
		sbuf_adds(&c->msg, " must match ");
		sch_add_quoted(&c->msg, sn->pattern.s, sn->pattern.len);
		sbuf_adds(&c->msg, ", found ");
		sch_add_value(&c->msg, v);
		return sch_emit(c, sn, SC_PATTERN, "pattern", v, &lim, &val);
	}
	return V_OK;
}

/* minItems/maxItems, minProperties/maxProperties. */
static int size_fail(struct sch_vctx *c, const struct sch_node *sn,
		     const struct node *v, const char *keyword, int at_most,
		     int64_t limit, size_t n, const char *unit)
{
	struct sch_fig lim = sch_fig_int(limit), val = sch_fig_int((int64_t)n);

	if (PROBING(c))
		return V_STOP;
	sbuf_reset(&c->msg);
	sch_add_subject(c, &c->msg);
	sbuf_addf(&c->msg, " must have at %s %lld %s%s, found %zu",
		  at_most ? "most" : "least", (long long)limit, unit,
		  limit == 1 ? "" : "s", n);
	return sch_emit(c, sn, SC_SIZE, keyword, v, &lim, &val);
}

static int check_size(struct sch_vctx *c, const struct sch_node *sn,
		      const struct node *v, size_t n, int64_t lo, int64_t hi,
		      const char *kwlo, const char *kwhi, const char *unit)
{
	int r;

	if (lo != SCH_UNSET && n < (uint64_t)lo &&
	    (r = size_fail(c, sn, v, kwlo, 0, lo, n, unit)))
		return r;
	if (hi != SCH_UNSET && n > (uint64_t)hi &&
	    (r = size_fail(c, sn, v, kwhi, 1, hi, n, unit)))
		return r;
	return V_OK;
}

/* ---- mappings ---------------------------------------------------------- */

static int check_required(struct sch_vctx *c, const struct sch_node *sn,
			  const struct node *v)
{
	size_t i, at;
	int r;

	for (i = 0; i < sn->nrequired; i++) {
		const struct sch_str *name = &sn->required[i];
		const struct doc_pair *p = doc_get_pair(v, name->s, name->len);
		struct sch_fig val = p ? sch_fig_node(p->value) : sch_fig_none;

		if (p && !(sn->empty_missing && sch_is_empty(p->value)))
			continue;
		if (PROBING(c))
			return V_STOP;
		sbuf_reset(&c->msg);
		sbuf_adds(&c->msg, p ? "required key " : "missing required key ");
		sch_add_quoted(&c->msg, name->s, name->len);
		if (p)
			sbuf_adds(&c->msg, " is empty");
		sch_add_in(c, &c->msg);
		at = c->path.len;
		doc_pointer_add(&c->path, name->s, name->len);
		/* Absent: at the mapping's start; present but empty: at the
		 * empty value (chaos.md 4.3). */
		r = sch_emit(c, sn, SC_REQUIRED, "required", p ? p->value : v,
			 &sch_fig_none, &val);
		sbuf_truncate(&c->path, at);
		if (r)
			return r;
	}
	return V_OK;
}

static int unknown_key(struct sch_vctx *c, const struct sch_node *sn,
		       const struct node *key)
{
	struct sch_fig lim = sch_fig_bool(0), val = sch_fig_node(key);
	const char *best = NULL;
	size_t i, blen = 0;
	int bd = 3;

	if (PROBING(c))
		return V_STOP;
	if (key->type == NODE_STR) {
		for (i = 0; i < sn->nprops; i++) {
			const struct sch_str *p = &sn->props[i].name;
			int d = sch_distance2(key->v.str.s, key->v.str.len,
					      p->s, p->len);

			if (d < bd) {
				bd = d;
				best = p->s;
				blen = p->len;
			}
		}
	}
	sbuf_reset(&c->msg);
	sbuf_adds(&c->msg, "unknown key ");
	sch_add_value(&c->msg, key);
	sch_add_in(c, &c->msg);
	if (best) {
		sbuf_adds(&c->msg, " (did you mean ");
		sch_add_quoted(&c->msg, best, blen);
		sbuf_adds(&c->msg, "?)");
	}
	return sch_emit(c, sn, SC_ADDITIONAL, "additionalProperties", key, &lim,
		    &val);
}

static int check_names(struct sch_vctx *c, const struct sch_node *sn,
		       const struct node *key)
{
	struct sch_fig val = sch_fig_node(key);
	struct sch_subj saved;
	int mode = c->mode, r;

	sch_subj_save(c, &saved);
	c->subj_key = key;
	if (mode == M_EMIT)
		c->mode = M_CAPTURE;
	r = walk(c, sn->names, key);
	c->mode = mode;
	sch_subj_restore(c, &saved);
	if (r != V_STOP || PROBING(c))
		return r;
	sbuf_reset(&c->msg);
	sbuf_add(&c->msg, c->cap.buf, c->cap.len);
	return sch_emit(c, sn, SC_NAMES, "propertyNames", key, &sch_fig_none, &val);
}

static int check_member(struct sch_vctx *c, const struct sch_node *sn,
			const struct doc_pair *p)
{
	const struct sch_node *ps = NULL;
	struct sch_subj saved;
	int r = V_OK;

	if (p->key->type == NODE_STR)
		ps = sch_prop_find(sn, p->key->v.str.s, p->key->v.str.len);
	if (!ps && sn->additional == ADD_FALSE &&
	    (r = unknown_key(c, sn, p->key)))
		return r;
	if (!ps && sn->additional == ADD_SCHEMA)
		ps = sn->additional_schema;
	if (sn->names && (r = check_names(c, sn, p->key)))
		return r;
	if (!ps)
		return V_OK;
	sch_subj_save(c, &saved);
	sch_subj_child(c, p->key);
	r = walk(c, ps, p->value);
	sch_subj_restore(c, &saved);
	return r;
}

static int check_map(struct sch_vctx *c, const struct sch_node *sn,
		     const struct node *v)
{
	size_t i, n = v->v.map.n;
	int r;

	if (sn->nrequired && (r = check_required(c, sn, v)))
		return r;
	if (sn->min_props != SCH_UNSET || sn->max_props != SCH_UNSET) {
		if (sn->empty_missing)
			for (i = 0; i < v->v.map.n; i++)
				n -= sch_is_empty(v->v.map.pairs[i].value) ? 1 : 0;
		if ((r = check_size(c, sn, v, n, sn->min_props, sn->max_props,
				    "minProperties", "maxProperties", "key")))
			return r;
	}
	if (!sn->nprops && sn->additional == ADD_TRUE && !sn->names)
		return V_OK;
	for (i = 0; i < v->v.map.n; i++) {
		const struct doc_pair *p = &v->v.map.pairs[i];
		size_t at = c->path.len;

		if (sn->empty_missing && sch_is_empty(p->value))
			continue;
		doc_pointer_token(&c->path, p->key);
		r = check_member(c, sn, p);
		sbuf_truncate(&c->path, at);
		if (r)
			return r;
	}
	return V_OK;
}

/* ---- lists --------------------------------------------------------------- */

/* Look item i up in the table at scratch[base] (cap slots of {hash, i+1}),
 * inserting it when new. Returns the index of an equal earlier item, or
 * -1. Equal items hash alike, and linear probing meets the earliest first. */
static long unique_find(struct sch_vctx *c, size_t base, size_t cap,
			const struct node *list, size_t i)
{
	const struct node *item = list->v.list.items[i];
	uint64_t h = sch_hash(item);
	uint32_t h32 = (uint32_t)(h >> 32);
	size_t slot = (size_t)h & (cap - 1);

	for (;;) {
		uint32_t *e = c->scratch + base + 2 * slot;

		if (!e[1]) {
			e[0] = h32;
			e[1] = (uint32_t)i + 1;
			return -1;
		}
		if (e[0] == h32 && doc_equal(list->v.list.items[e[1] - 1], item))
			return (long)e[1] - 1;
		slot = (slot + 1) & (cap - 1);
	}
}

static int unique_table(struct sch_vctx *c, size_t n, size_t *base, size_t *cap)
{
	size_t k = 8, need;

	while (k < 2 * n)
		k *= 2;
	need = 2 * k;
	if (c->nscratch + need > c->ascratch) {
		size_t na = c->ascratch ? c->ascratch : 256;
		uint32_t *p;

		while (na < c->nscratch + need)
			na *= 2;
		p = realloc(c->scratch, na * sizeof *p);
		if (!p)
			return -1;
		c->scratch = p;
		c->ascratch = na;
	}
	*base = c->nscratch;
	*cap = k;
	memset(c->scratch + *base, 0, need * sizeof *c->scratch);
	c->nscratch += need;
	return 0;
}

static int duplicate(struct sch_vctx *c, const struct sch_node *sn,
		     const struct node *item, long first)
{
	struct sch_fig lim = sch_fig_bool(1), val = sch_fig_node(item);

	if (PROBING(c))
		return V_STOP;
	sbuf_reset(&c->msg);
	sbuf_adds(&c->msg, "duplicate item in ");
	sch_add_subject(c, &c->msg);
	sbuf_addf(&c->msg, ": equal to item %ld", first);
	return sch_emit(c, sn, SC_UNIQUE, "uniqueItems", item, &lim, &val);
}

static int check_list(struct sch_vctx *c, const struct sch_node *sn,
		      const struct node *v)
{
	size_t i, n = v->v.list.n, base = 0, cap = 0, at = c->path.len;
	struct sch_subj saved;
	int r = V_OK;

	if ((r = check_size(c, sn, v, n, sn->min_items, sn->max_items,
			    "minItems", "maxItems", "item")))
		return r;
	if (!sn->items && !(sn->unique && n > 1))
		return V_OK;
	if (sn->unique && n > 1 && unique_table(c, n, &base, &cap) < 0)
		return sch_out_of_memory(c);
	sch_subj_save(c, &saved);
	for (i = 0; i < n && r == V_OK; i++) {
		const struct node *item = v->v.list.items[i];
		long first;

		sbuf_addc(&c->path, '/');
		sbuf_addu(&c->path, i);
		if (cap && (first = unique_find(c, base, cap, v, i)) >= 0)
			r = duplicate(c, sn, item, first);
		if (r == V_OK && sn->items) {
			sch_subj_child(c, NULL);
			r = walk(c, sn->items, item);
			sch_subj_restore(c, &saved);
		}
		sbuf_truncate(&c->path, at);
	}
	if (cap)
		c->nscratch = base;
	return r;
}

/* ---- choices ------------------------------------------------------------- */

/* Walk without findings; V_OK when the branch holds. */
static int probe(struct sch_vctx *c, const struct sch_node *sn,
		 const struct node *v)
{
	struct sch_subj saved;
	size_t plen = c->path.len, scratch = c->nscratch;
	int mode = c->mode, r;

	sch_subj_save(c, &saved);
	c->mode = M_PROBE;
	r = walk(c, sn, v);
	c->mode = mode;
	sch_subj_restore(c, &saved);
	sbuf_truncate(&c->path, plen);
	c->nscratch = scratch;
	return r;
}

/* 7.3: the branch's type admits the value and every const it sets under
 * properties matches the value's member (following allOf and $ref). */
static int compatible(const struct sch_node *b, const struct node *v)
{
	size_t i;

	for (;;) {
		if (b->types && !(sch_node_types(v, b->infinite) & b->types))
			return 0;
		for (i = 0; v->type == NODE_MAP && i < b->nprops; i++) {
			const struct sch_node *p = b->props[i].schema;
			const struct node *m;

			if (!p->const_v)
				continue;
			m = doc_getn(v, b->props[i].name.s, b->props[i].name.len);
			if (!m || !doc_equal(m, p->const_v))
				return 0;
		}
		for (i = 0; i < b->nall; i++)
			if (!compatible(b->all[i], v))
				return 0;
		if (!b->ref)
			return 1;
		b = b->ref;
	}
}

static void describe(struct sbuf *sb, const struct sch_node *b, size_t idx)
{
	for (;;) {
		if (b->title) {
			sch_add_quoted(sb, b->title, strlen(b->title));
			return;
		}
		if (b->types) {
			int many = (b->types & (b->types - 1)) != 0;

			/* "(a string or null)": one alternative, not two */
			if (many)
				sbuf_addc(sb, '(');
			sch_add_types(sb, b->types, 0);
			if (many)
				sbuf_addc(sb, ')');
			return;
		}
		if (!b->ref)
			break;
		b = b->ref;
	}
	sbuf_addf(sb, "alternative %zu", idx + 1);
}

static int choice(struct sch_vctx *c, const struct sch_node *sn,
		  struct sch_node *const *br, size_t n, int one,
		  const struct node *v)
{
	const char *keyword = one ? "oneOf" : "anyOf";
	struct sch_fig val = sch_fig_node(v);
	size_t i, held = 0, ncompat = 0, pick = 0;
	int r;

	for (i = 0; i < n; i++) {
		if ((r = probe(c, br[i], v)) == V_ERR)
			return r;
		held += r == V_OK;
		if (!one && held)
			return V_OK;
	}
	if (one && held == 1)
		return V_OK;
	if (PROBING(c))
		return V_STOP;
	if (held >= 2) {
		sbuf_reset(&c->msg);
		sch_add_subject(c, &c->msg);
		sbuf_addf(&c->msg,
			  " matches %zu of the alternatives, exactly one must",
			  held);
		return sch_emit(c, sn, SC_CHOICE, keyword, v, &sch_fig_none, &val);
	}
	for (i = 0; i < n; i++) {
		if (compatible(br[i], v)) {
			ncompat++;
			pick = i;
		}
	}
	if (ncompat == 1)
		return walk(c, br[pick], v); /* as if written inline */
	sbuf_reset(&c->msg);
	sch_add_subject(c, &c->msg);
	sbuf_adds(&c->msg, " matches none of the alternatives: ");
	for (i = 0; i < n && i < LIST_MAX; i++) {
		if (i)
			sbuf_adds(&c->msg, ", ");
		describe(&c->msg, br[i], i);
	}
	if (n > LIST_MAX)
		sbuf_adds(&c->msg, ", ...");
	return sch_emit(c, sn, SC_CHOICE, keyword, v, &sch_fig_none, &val);
}

/* ---- the walk ------------------------------------------------------------ */

static int walk(struct sch_vctx *c, const struct sch_node *sn,
		const struct node *v)
{
	size_t i;
	int r;

	if (sn->types && !(sch_node_types(v, sn->infinite) & sn->types))
		return type_fail(c, sn, v);
	if (sn->enum_v && (r = check_enum(c, sn, v)))
		return r;
	if (sn->const_v && (r = check_const(c, sn, v)))
		return r;
	if ((v->type == NODE_INT || v->type == NODE_FLOAT ||
	     v->type == NODE_BIGINT) &&
	    (r = check_range(c, sn, v)))
		return r;
	if (v->type == NODE_STR && (r = check_string(c, sn, v)))
		return r;
	if (v->type == NODE_MAP && (r = check_map(c, sn, v)))
		return r;
	if (v->type == NODE_LIST && (r = check_list(c, sn, v)))
		return r;
	for (i = 0; i < sn->nall; i++)
		if ((r = walk(c, sn->all[i], v)))
			return r;
	if (sn->nany && (r = choice(c, sn, sn->any, sn->nany, 0, v)))
		return r;
	if (sn->none && (r = choice(c, sn, sn->one, sn->none, 1, v)))
		return r;
	return sn->ref ? walk(c, sn->ref, v) : V_OK;
}

static void vctx_init(struct sch_vctx *c, const struct schema *s,
		      const struct re_limits *lim, struct diag *err)
{
	memset(c, 0, sizeof *c);
	c->s = s;
	c->lim = lim;
	c->err = err;
	sbuf_init(&c->path);
	sbuf_init(&c->msg);
	sbuf_init(&c->fig);
	sbuf_init(&c->cap);
}

static void vctx_release(struct sch_vctx *c)
{
	sbuf_release(&c->path);
	sbuf_release(&c->msg);
	sbuf_release(&c->fig);
	sbuf_release(&c->cap);
	free(c->scratch);
}

long schema_validate(const struct schema *s, const struct node *root,
		     int document, const struct re_limits *lim,
		     struct findings *out, struct diag *err)
{
	struct re_limits dflt;
	struct diag spare;
	struct sch_vctx c;
	long added;
	int r;

	if (!s || !root)
		return 0;
	if (!lim) {
		re_limits_default(&dflt);
		lim = &dflt;
	}
	if (!out) {
		if (err)
			diag_set(err, DIAG_E_ERROR, 0, 0,
				 "schema_validate needs a findings list");
		return -1;
	}
	if (!err) {
		diag_init(&spare);
		err = &spare;
	}
	vctx_init(&c, s, lim, err);
	c.out = out;
	c.document = document;
	c.mode = M_EMIT;
	r = walk(&c, s->root, root);
	added = c.added;
	vctx_release(&c);
	return r == V_ERR ? -1 : added;
}

int schema_accepts(const struct schema *s, const struct node *root,
		   const struct re_limits *lim)
{
	struct re_limits dflt;
	struct diag err;
	struct sch_vctx c;
	int r;

	if (!s || !root)
		return 0;
	if (!lim) {
		re_limits_default(&dflt);
		lim = &dflt;
	}
	diag_init(&err);
	vctx_init(&c, s, lim, &err);
	c.mode = M_PROBE;
	r = walk(&c, s->root, root);
	vctx_release(&c);
	return r == V_ERR ? -1 : r == V_OK;
}
