/*
 * yaml_load.c: libyaml events to documents (spec/yaml.md 1, 4-6). An
 * explicit stack of open collections (never recursion on input depth),
 * anchors with the size of their subtree so that alias expansion is
 * counted before anything is copied, merge keys flattened as PyYAML does,
 * duplicate keys found with a hash of Python key equality. Every event is
 * freed on every path; every limit has its own message and figures.
 */
#include "core/yaml/yaml_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

struct anchor {
	const char *name;
	struct node *node;
	size_t size;   /* nodes of its subtree with aliases expanded */
	int open;      /* its collection has not ended: an alias is recursive */
};

struct frame {
	struct node *node;
	struct node **items; /* list items, or keys and values alternating */
	size_t n, alloc;
	size_t size;         /* expanded size so far, itself included */
	long anchor;         /* index of its anchor, or -1 */
};

struct loader {
	yaml_parser_t parser;
	struct yaml_file *f;
	const struct yaml_limits *lim;
	struct diag *err;
	enum yaml_mode mode;
	struct doc *doc;
	struct frame *stack;
	size_t depth;
	struct anchor *anchors;
	size_t nanchors, anchors_alloc;
	size_t nodes, expanded;
	size_t docs_seen;
	struct yaml_span *spans;
	size_t nspans, spans_alloc;
	int want_spans;
};

void yaml_limits_default(struct yaml_limits *lim)
{
	lim->documents = 10000;
	lim->depth = 512;
	lim->nodes = 1000000;
	lim->expanded_nodes = 1000000;
	lim->scalar_bytes = 1048576;
	lim->doc_bytes = (size_t)256 << 20;
}

void yaml_file_init(struct yaml_file *f)
{
	memset(f, 0, sizeof *f);
}

void yaml_file_release(struct yaml_file *f)
{
	size_t i;

	for (i = 0; i < f->ndocs; i++) {
		doc_release(f->docs[i]);
		free(f->docs[i]);
	}
	free(f->docs);
	free(f->comments);
	free(f->text);
	memset(f, 0, sizeof *f);
}

const char *yaml_library_version(void)
{
	return yaml_get_version_string();
}

/* ---- errors and paths ------------------------------------------------------- */

static void mark_pos(const yaml_mark_t *m, uint32_t *line, uint32_t *col)
{
	*line = (uint32_t)m->line + 1;
	*col = (uint32_t)m->column + 1;
}

/* The JSON Pointer of the node being added at the top of the stack. */
static void stack_path(const struct loader *ld, struct sbuf *b)
{
	size_t i;

	for (i = 0; i < ld->depth; i++) {
		const struct frame *fr = &ld->stack[i];

		if (fr->node->type == NODE_LIST) {
			char num[32];

			snprintf(num, sizeof num, "%zu", fr->n);
			doc_pointer_add(b, num, strlen(num));
		} else if (fr->n % 2 == 1) {
			doc_pointer_token(b, fr->items[fr->n - 1]);
		}
	}
}

static void set_path(struct loader *ld, const struct node *key)
{
	struct sbuf b = SBUF_INIT;

	stack_path(ld, &b);
	if (key)
		doc_pointer_token(&b, key);
	diag_set_path(ld->err, b.failed ? "" : sbuf_cstr(&b));
	sbuf_release(&b);
}

static int fail_at(struct loader *ld, enum diag_code code, uint32_t line,
		   uint32_t col, const char *msg)
{
	diag_set(ld->err, code, line, col, "%s", msg);
	set_path(ld, NULL);
	return -1;
}

static int fail_nomem(struct loader *ld, uint32_t line, uint32_t col)
{
	diag_set(ld->err, DIAG_E_NOMEM, line, col,
		 "the document needs more than %zu bytes of memory", ld->lim->doc_bytes);
	return -1;
}

static int count_node(struct loader *ld, size_t expanded, uint32_t line,
		      uint32_t col)
{
	ld->nodes++;
	ld->expanded += expanded;
	if (ld->nodes > ld->lim->nodes) {
		diag_limit(ld->err, line, col, "nodes", (long long)ld->lim->nodes,
			   (long long)ld->nodes,
			   "the document has more than %zu nodes (the nodes limit)",
			   ld->lim->nodes);
		return -1;
	}
	if (ld->expanded > ld->lim->expanded_nodes) {
		diag_limit(ld->err, line, col, "expanded_nodes",
			   (long long)ld->lim->expanded_nodes, -1,
			   "with its aliases expanded the document passes %zu nodes (the expanded_nodes limit)",
			   ld->lim->expanded_nodes);
		return -1;
	}
	return 0;
}

/* ---- building ------------------------------------------------------------------ */

static void set_marks(struct node *n, const yaml_event_t *ev)
{
	mark_pos(&ev->start_mark, &n->line, &n->col);
	mark_pos(&ev->end_mark, &n->end_line, &n->end_col);
}

static int push_item(struct loader *ld, struct frame *fr, struct node *n)
{
	if (fr->n == fr->alloc) {
		size_t na = fr->alloc ? fr->alloc * 2 : 8;
		struct node **v = arena_grow(&ld->doc->arena, fr->items, fr->n, na,
					     sizeof *v);

		if (!v)
			return fail_nomem(ld, n->line, n->col);
		fr->items = v;
		fr->alloc = na;
	}
	fr->items[fr->n++] = n;
	return 0;
}

/* Add a finished node (of expanded size 'size') to the open collection or
 * as the document's root. */
static int add_node(struct loader *ld, struct node *n, size_t size)
{
	struct frame *fr;
	int as_key;

	if (ld->depth == 0) {
		ld->doc->root = n;
		return 0;
	}
	fr = &ld->stack[ld->depth - 1];
	as_key = fr->node->type == NODE_MAP && fr->n % 2 == 0;
	if (as_key && (n->type == NODE_LIST || n->type == NODE_MAP))
		return fail_at(ld, DIAG_E_TYPE, n->line, n->col,
			       "a list or a mapping cannot be a mapping key");
	if (!as_key && (n->merged & (YNODE_MERGE_KEY | YNODE_VALUE_KEY)))
		return fail_at(ld, DIAG_E_TYPE, n->line, n->col,
			       n->merged & YNODE_MERGE_KEY
				       ? "'<<' (a merge key) cannot be a value"
				       : "'=' (the value key) cannot be a value");
	if (as_key && (n->merged & YNODE_VALUE_KEY))
		n->merged = 0; /* a plain '=' key is the string '=' */
	fr->size += size;
	return push_item(ld, fr, n);
}

static int add_anchor(struct loader *ld, const yaml_char_t *name,
		      struct node *n, int open, long *index)
{
	size_t i;

	for (i = 0; i < ld->nanchors; i++)
		if (strcmp(ld->anchors[i].name, (const char *)name) == 0) {
			diag_set(ld->err, DIAG_E_YAML, n->line, n->col,
				 "anchor '&%s' is defined twice in this document",
				 (const char *)name);
			set_path(ld, NULL);
			return -1;
		}
	if (ld->nanchors == ld->anchors_alloc) {
		size_t na = ld->anchors_alloc ? ld->anchors_alloc * 2 : 16;
		struct anchor *v = realloc(ld->anchors, na * sizeof *v);

		if (!v)
			return fail_nomem(ld, n->line, n->col);
		ld->anchors = v;
		ld->anchors_alloc = na;
	}
	ld->anchors[ld->nanchors].name = arena_strdup(&ld->doc->arena, (const char *)name);
	if (!ld->anchors[ld->nanchors].name)
		return fail_nomem(ld, n->line, n->col);
	ld->anchors[ld->nanchors].node = n;
	ld->anchors[ld->nanchors].size = 1;
	ld->anchors[ld->nanchors].open = open;
	*index = (long)ld->nanchors++;
	return 0;
}

static int add_span(struct loader *ld, const yaml_event_t *ev)
{
	struct yaml_span *s;

	if (!ld->want_spans)
		return 0;
	if (ld->nspans == ld->spans_alloc) {
		size_t na = ld->spans_alloc ? ld->spans_alloc * 2 : 32;
		struct yaml_span *v = realloc(ld->spans, na * sizeof *v);

		if (!v)
			return -1;
		ld->spans = v;
		ld->spans_alloc = na;
	}
	s = &ld->spans[ld->nspans++];
	mark_pos(&ev->start_mark, &s->line, &s->col);
	mark_pos(&ev->end_mark, &s->end_line, &s->end_col);
	return 0;
}

static int on_scalar(struct loader *ld, const yaml_event_t *ev)
{
	const char *tag = (const char *)ev->data.scalar.tag;
	const char *text = (const char *)ev->data.scalar.value;
	size_t len = ev->data.scalar.length;
	int plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
	struct node *n = doc_new(ld->doc, NODE_NULL);
	char msg[DIAG_MSG_MAX];
	enum ytag t;
	int explicit_tag = 0;
	long aidx;

	if (!n)
		return fail_nomem(ld, (uint32_t)ev->start_mark.line + 1,
				  (uint32_t)ev->start_mark.column + 1);
	set_marks(n, ev);
	n->style = plain ? STYLE_PLAIN
		 : (ev->data.scalar.style == YAML_LITERAL_SCALAR_STYLE ||
		    ev->data.scalar.style == YAML_FOLDED_SCALAR_STYLE)
			   ? STYLE_BLOCK : STYLE_QUOTED;
	if (!plain && add_span(ld, ev) < 0)
		return fail_nomem(ld, n->line, n->col);
	if (count_node(ld, 1, n->line, n->col) < 0)
		return -1;
	if (len > ld->lim->scalar_bytes) {
		diag_limit(ld->err, n->line, n->col, "scalar_bytes",
			   (long long)ld->lim->scalar_bytes, (long long)len,
			   "a scalar of %zu bytes passes the scalar_bytes limit of %zu",
			   len, ld->lim->scalar_bytes);
		set_path(ld, NULL);
		return -1;
	}
	if (!tag)
		t = plain ? yaml_resolve(text, len, 0) : YT_STR;
	else if (strcmp(tag, "!") == 0)
		t = yaml_resolve(text, len, 1);
	else {
		t = yaml_tag_of(tag);
		explicit_tag = 1;
		if (t == YT_SEQ || t == YT_MAP)
			return fail_at(ld, DIAG_E_TYPE, n->line, n->col,
				       "a collection tag on a scalar");
		if (t == YT_UNKNOWN) {
			snprintf(msg, sizeof msg, "unknown tag '%.200s'", tag);
			return fail_at(ld, DIAG_E_TYPE, n->line, n->col, msg);
		}
	}
	if (t == YT_MERGE || t == YT_VALUE) {
		/* Fine as a key (checked in add_node), never as a value. */
		if (yaml_construct(ld->doc, n, YT_STR, text, len, 0, msg, sizeof msg) < 0)
			return fail_nomem(ld, n->line, n->col);
		n->merged = t == YT_MERGE ? YNODE_MERGE_KEY : YNODE_VALUE_KEY;
	} else if (yaml_construct(ld->doc, n, t, text, len, explicit_tag, msg,
				  sizeof msg) < 0) {
		if (ld->doc->arena.failed)
			return fail_nomem(ld, n->line, n->col);
		return fail_at(ld, DIAG_E_TYPE, n->line, n->col, msg);
	}
	if (ev->data.scalar.anchor &&
	    add_anchor(ld, ev->data.scalar.anchor, n, 0, &aidx) < 0)
		return -1;
	return add_node(ld, n, 1);
}

static int on_start(struct loader *ld, const yaml_event_t *ev, int is_map)
{
	const yaml_char_t *tagp = is_map ? ev->data.mapping_start.tag
					 : ev->data.sequence_start.tag;
	const yaml_char_t *anchor = is_map ? ev->data.mapping_start.anchor
					   : ev->data.sequence_start.anchor;
	struct node *n = doc_new(ld->doc, is_map ? NODE_MAP : NODE_LIST);
	struct frame *fr;
	uint32_t line = (uint32_t)ev->start_mark.line + 1;
	uint32_t col = (uint32_t)ev->start_mark.column + 1;
	long aidx = -1;

	if (!n)
		return fail_nomem(ld, line, col);
	set_marks(n, ev);
	if ((is_map ? ev->data.mapping_start.style == YAML_FLOW_MAPPING_STYLE
		    : ev->data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE))
		n->style = STYLE_FLOW;
	if (tagp && strcmp((const char *)tagp, "!") != 0) {
		enum ytag t = yaml_tag_of((const char *)tagp);

		if (t == YT_SET || t == YT_OMAP || t == YT_PAIRS)
			return fail_at(ld, DIAG_E_TYPE, line, col,
				       "unsupported tag: set, omap and pairs values are not read");
		if (t != (is_map ? YT_MAP : YT_SEQ))
			return fail_at(ld, DIAG_E_TYPE, line, col,
				       t == YT_UNKNOWN ? "unknown tag on a collection"
						       : "a scalar tag on a collection");
	}
	if (ld->depth >= ld->lim->depth) {
		diag_limit(ld->err, line, col, "depth", (long long)ld->lim->depth,
			   (long long)ld->depth + 1,
			   "nesting deeper than the depth limit of %zu levels",
			   ld->lim->depth);
		set_path(ld, NULL);
		return -1;
	}
	if (count_node(ld, 1, line, col) < 0)
		return -1;
	if (anchor && add_anchor(ld, anchor, n, 1, &aidx) < 0)
		return -1;
	fr = &ld->stack[ld->depth++];
	memset(fr, 0, sizeof *fr);
	fr->node = n;
	fr->size = 1;
	fr->anchor = aidx;
	return 0;
}

/* ---- mappings: merge keys and duplicates (spec/yaml.md 4, 5) --------------- */

static uint64_t mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

static long long civil_days(int y, int m, int d)
{
	y -= m <= 2;
	return (long long)365 * y + y / 4 - y / 100 + y / 400 +
	       (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d;
}

/* A hash consistent with doc_key_equal (Python's dict). */
static uint64_t key_hash(const struct node *k)
{
	uint64_t h = 1469598103934665603ULL;
	size_t i;

	switch (k->type) {
	case NODE_NULL:
		return 0x9e3779b97f4a7c15ULL;
	case NODE_BOOL:
		return mix((uint64_t)(k->v.b ? 1 : 0));
	case NODE_INT:
		return mix((uint64_t)k->v.i);
	case NODE_FLOAT:
		if (isnan(k->v.f))
			return 0x5bd1e995ULL;
		if (k->v.f == floor(k->v.f) && fabs(k->v.f) < 9.2e18)
			return mix((uint64_t)(int64_t)k->v.f);
		{
			uint64_t bits;

			memcpy(&bits, &k->v.f, sizeof bits);
			return mix(bits);
		}
	case NODE_DATE:
		return mix((uint64_t)civil_days(k->v.t.year, k->v.t.month, k->v.t.day) ^ 0xda7e);
	case NODE_DATETIME: {
		long long s = civil_days(k->v.t.year, k->v.t.month, k->v.t.day) * 86400LL +
			      k->v.t.hour * 3600 + k->v.t.minute * 60 + k->v.t.second -
			      (k->v.t.has_offset ? k->v.t.offset * 60LL : 0);

		return mix((uint64_t)s * 1000003ULL + (uint64_t)k->v.t.usec +
			   (uint64_t)k->v.t.has_offset);
	}
	default:
		for (i = 0; i < k->v.str.len; i++)
			h = (h ^ (unsigned char)k->v.str.s[i]) * 1099511628211ULL;
		return mix(h);
	}
}

/* An insertion-ordered set of keys: pairs[] and an open-addressing index
 * into it. */
struct keyset {
	struct doc_pair *pairs;
	size_t n;
	size_t *slots;  /* index + 1; 0 = empty */
	size_t nslots;
};

static long keyset_find(const struct keyset *ks, const struct node *k, uint64_t h)
{
	size_t i = (size_t)h & (ks->nslots - 1);

	while (ks->slots[i]) {
		const struct doc_pair *p = &ks->pairs[ks->slots[i] - 1];

		if (doc_key_equal(p->key, k))
			return (long)(ks->slots[i] - 1);
		i = (i + 1) & (ks->nslots - 1);
	}
	return -1;
}

static void keyset_insert(struct keyset *ks, uint64_t h, size_t index)
{
	size_t i = (size_t)h & (ks->nslots - 1);

	while (ks->slots[i])
		i = (i + 1) & (ks->nslots - 1);
	ks->slots[i] = index + 1;
}

static int keyset_init(struct loader *ld, struct keyset *ks, size_t cap)
{
	size_t ns = 8;

	while (ns < cap * 2)
		ns *= 2;
	ks->pairs = arena_calloc(&ld->doc->arena, cap ? cap : 1, sizeof *ks->pairs);
	ks->slots = calloc(ns, sizeof *ks->slots);
	ks->nslots = ns;
	ks->n = 0;
	return ks->pairs && ks->slots ? 0 : -1;
}

/* Insert with dict semantics: a key already present keeps its position and
 * takes the new value. */
static void keyset_put(struct keyset *ks, struct node *k, struct node *v)
{
	uint64_t h = key_hash(k);
	long at = keyset_find(ks, k, h);

	if (at >= 0) {
		ks->pairs[at].value = v;
		return;
	}
	ks->pairs[ks->n].key = k;
	ks->pairs[ks->n].value = v;
	keyset_insert(ks, h, ks->n);
	ks->n++;
}

/* Check a merge value; adds its sources' pair counts to *total. */
static int merge_sources(struct loader *ld, struct node *v, struct node **src,
			 size_t *nsrc, size_t *total)
{
	size_t i;

	if (v->type == NODE_MAP) {
		src[(*nsrc)++] = v;
		*total += v->v.map.n;
		return 0;
	}
	if (v->type != NODE_LIST)
		return fail_at(ld, DIAG_E_TYPE, v->line, v->col,
			       "a merge key '<<' takes a mapping or a list of mappings");
	for (i = 0; i < v->v.list.n; i++) {
		struct node *m = v->v.list.items[i];

		if (m->type != NODE_MAP)
			return fail_at(ld, DIAG_E_TYPE, m->line, m->col,
				       "a merge list may hold only mappings");
		src[(*nsrc)++] = m;
		*total += m->v.map.n;
	}
	return 0;
}

static int finish_map(struct loader *ld, struct frame *fr)
{
	struct node *map = fr->node, *mergeval = NULL, **src = NULL;
	size_t npairs = fr->n / 2, nsrc = 0, total = 0, i, j;
	struct keyset explicit_keys, out;
	int rc = -1;

	memset(&explicit_keys, 0, sizeof explicit_keys);
	memset(&out, 0, sizeof out);
	for (i = 0; i < npairs; i++) {
		struct node *k = fr->items[2 * i];

		if (!(k->merged & YNODE_MERGE_KEY))
			continue;
		if (mergeval) {
			diag_set(ld->err, DIAG_E_DUPKEY, k->line, k->col,
				 "a second merge key '<<' in one mapping (the first is on line %u)",
				 (unsigned)mergeval->line);
			set_path(ld, k);
			return -1;
		}
		mergeval = fr->items[2 * i + 1];
	}
	if (mergeval) {
		size_t cap = mergeval->type == NODE_LIST ? mergeval->v.list.n : 1;

		src = calloc(cap + 1, sizeof *src);
		if (!src)
			return fail_nomem(ld, map->line, map->col);
		if (merge_sources(ld, mergeval, src, &nsrc, &total) < 0)
			goto done;
		map->merged |= YNODE_MERGED;
	}
	/* Duplicates among the explicit keys: at the later key. */
	if (keyset_init(ld, &explicit_keys, npairs) < 0 ||
	    keyset_init(ld, &out, npairs + total) < 0) {
		fail_nomem(ld, map->line, map->col);
		goto done;
	}
	for (i = 0; i < npairs; i++) {
		struct node *k = fr->items[2 * i];
		uint64_t h;
		long at;

		if (k->merged & YNODE_MERGE_KEY)
			continue;
		h = key_hash(k);
		at = keyset_find(&explicit_keys, k, h);
		if (at >= 0) {
			const struct node *first = explicit_keys.pairs[at].key;
			char shown[64];
			struct sbuf b = SBUF_INIT;

			if (k->type == NODE_STR)
				snprintf(shown, sizeof shown, "'%.40s'", k->v.str.s);
			else
				snprintf(shown, sizeof shown, "%s", "a key");
			diag_set(ld->err, DIAG_E_DUPKEY, k->line, k->col,
				 "key %s repeats the key on line %u", shown,
				 (unsigned)first->line);
			stack_path(ld, &b);
			doc_pointer_token(&b, k);
			diag_set_path(ld->err, sbuf_cstr(&b));
			sbuf_release(&b);
			goto done;
		}
		explicit_keys.pairs[explicit_keys.n].key = k;
		keyset_insert(&explicit_keys, h, explicit_keys.n);
		explicit_keys.n++;
	}
	/* PyYAML's order: the merge sources last to first, then the explicit
	 * pairs; a repeated key keeps its first place and takes the later
	 * value, so explicit keys win and earlier sources win. */
	for (i = nsrc; i-- > 0;)
		for (j = 0; j < src[i]->v.map.n; j++)
			keyset_put(&out, src[i]->v.map.pairs[j].key,
				   src[i]->v.map.pairs[j].value);
	for (i = 0; i < npairs; i++)
		if (!(fr->items[2 * i]->merged & YNODE_MERGE_KEY))
			keyset_put(&out, fr->items[2 * i], fr->items[2 * i + 1]);
	map->v.map.pairs = out.pairs;
	map->v.map.n = out.n;
	rc = 0;
done:
	free(explicit_keys.slots);
	free(out.slots);
	free(src);
	return rc;
}

static int on_end(struct loader *ld, const yaml_event_t *ev)
{
	struct frame *fr;
	struct node *n;
	size_t size;

	if (ld->depth == 0)
		return fail_at(ld, DIAG_E_YAML, (uint32_t)ev->start_mark.line + 1,
			       (uint32_t)ev->start_mark.column + 1,
			       "a collection ends that never started");
	fr = &ld->stack[ld->depth - 1];
	n = fr->node;
	mark_pos(&ev->end_mark, &n->end_line, &n->end_col);
	if (n->type == NODE_LIST) {
		n->v.list.items = fr->items;
		n->v.list.n = fr->n;
	} else if (finish_map(ld, fr) < 0) {
		return -1;
	}
	size = fr->size;
	if (fr->anchor >= 0) {
		ld->anchors[fr->anchor].size = size;
		ld->anchors[fr->anchor].open = 0;
	}
	ld->depth--;
	return add_node(ld, n, size);
}

static int on_alias(struct loader *ld, const yaml_event_t *ev)
{
	const char *name = (const char *)ev->data.alias.anchor;
	uint32_t line = (uint32_t)ev->start_mark.line + 1;
	uint32_t col = (uint32_t)ev->start_mark.column + 1;
	char msg[320];
	size_t i;

	for (i = ld->nanchors; i-- > 0;) {
		struct anchor *a = &ld->anchors[i];

		if (strcmp(a->name, name) != 0)
			continue;
		if (a->open) {
			diag_limit(ld->err, line, col, "expanded_nodes",
				   (long long)ld->lim->expanded_nodes, -1,
				   "alias '*%.200s' refers to a collection that contains it (a recursive alias)",
				   name);
			set_path(ld, NULL);
			return -1;
		}
		if (count_node(ld, a->size, line, col) < 0) {
			set_path(ld, NULL);
			return -1;
		}
		/* Nodes are shared: the alias sees the anchored node. */
		return add_node(ld, a->node, a->size);
	}
	snprintf(msg, sizeof msg, "alias '*%.200s' names no anchor defined before it", name);
	return fail_at(ld, DIAG_E_YAML, line, col, msg);
}

/* ---- documents ----------------------------------------------------------------------- */

static int on_document_start(struct loader *ld, const yaml_event_t *ev)
{
	struct doc **v;
	uint32_t line = (uint32_t)ev->start_mark.line + 1;
	uint32_t col = (uint32_t)ev->start_mark.column + 1;

	ld->docs_seen++;
	if (ld->mode == YAML_SINGLE && ld->docs_seen > 1)
		return fail_at(ld, DIAG_E_YAML, line, col,
			       "expected a single document, but a second one starts here");
	if (ld->docs_seen > ld->lim->documents) {
		diag_limit(ld->err, line, col, "documents", (long long)ld->lim->documents,
			   (long long)ld->docs_seen,
			   "the file has more than %zu documents (the documents limit)",
			   ld->lim->documents);
		return -1;
	}
	ld->doc = calloc(1, sizeof *ld->doc);
	v = realloc(ld->f->docs, (ld->f->ndocs + 1) * sizeof *v);
	if (!ld->doc || !v) {
		free(ld->doc);
		ld->doc = NULL;
		if (v)
			ld->f->docs = v;
		diag_set(ld->err, DIAG_E_NOMEM, line, col, "out of memory");
		return -1;
	}
	ld->f->docs = v;
	doc_init(ld->doc, ld->lim->doc_bytes);
	ld->doc->index = (int)ld->f->ndocs;
	ld->doc->start_line = line;
	ld->f->docs[ld->f->ndocs++] = ld->doc;
	ld->nanchors = 0;
	ld->nodes = 0;
	ld->expanded = 0;
	ld->depth = 0;
	return 0;
}

static int on_document_end(struct loader *ld)
{
	if (ld->doc) {
		ld->doc->nodes = ld->nodes;
		if (!ld->doc->root) {
			struct node *n = doc_new(ld->doc, NODE_NULL);

			if (!n)
				return fail_nomem(ld, 1, 1);
			n->line = ld->doc->start_line;
			n->col = 1;
			ld->doc->root = n;
		}
	}
	ld->doc = NULL;
	return 0;
}

static int is_null_doc(const struct doc *d)
{
	return !d->root || d->root->type == NODE_NULL;
}

/* spec/yaml.md 6.1: in a stream of two or more documents null ones mean
 * nothing; a stream with none yields one null document. */
static int finish_stream(struct loader *ld)
{
	struct yaml_file *f = ld->f;
	size_t i, o = 0;

	if (f->ndocs >= 2) {
		for (i = 0; i < f->ndocs; i++) {
			if (is_null_doc(f->docs[i])) {
				doc_release(f->docs[i]);
				free(f->docs[i]);
			} else {
				f->docs[o++] = f->docs[i];
			}
		}
		f->ndocs = o;
	}
	if (f->ndocs == 0) {
		yaml_event_t ev;

		memset(&ev, 0, sizeof ev);
		if (on_document_start(ld, &ev) < 0 || on_document_end(ld) < 0)
			return -1;
	}
	return 0;
}

static void release_docs(struct yaml_file *f)
{
	size_t i;

	for (i = 0; i < f->ndocs; i++) {
		doc_release(f->docs[i]);
		free(f->docs[i]);
	}
	free(f->docs);
	f->docs = NULL;
	f->ndocs = 0;
}

static int parse_error(struct loader *ld)
{
	const yaml_parser_t *p = &ld->parser;
	uint32_t line = (uint32_t)p->problem_mark.line + 1;
	uint32_t col = (uint32_t)p->problem_mark.column + 1;

	if (p->error == YAML_MEMORY_ERROR) {
		diag_set(ld->err, DIAG_E_NOMEM, 0, 0, "out of memory parsing YAML");
		return -1;
	}
	if (p->error == YAML_READER_ERROR) {
		diag_set(ld->err, DIAG_E_ENCODING, line, col,
			 "the text cannot be read as YAML (%s)",
			 p->problem ? p->problem : "reader error");
		return -1;
	}
	diag_set(ld->err, DIAG_E_YAML, line, col, "YAML syntax error: %s%s%s",
		 p->problem ? p->problem : "the text does not parse",
		 p->context ? " " : "", p->context ? p->context : "");
	return -1;
}

int yaml_load(struct yaml_file *f, const char *buf, size_t len,
	      enum yaml_mode mode, const struct yaml_limits *lim, int comments,
	      struct diag *err)
{
	struct loader ld;
	yaml_event_t ev;
	int rc = 0, done = 0;

	memset(&ld, 0, sizeof ld);
	if (yaml_decode(buf, len, &f->text, &f->len, &f->had_bom, err) < 0)
		return -1;
	ld.f = f;
	ld.lim = lim;
	ld.err = err;
	ld.mode = mode;
	ld.want_spans = comments;
	ld.stack = calloc(lim->depth + 1, sizeof *ld.stack);
	if (!ld.stack || !yaml_parser_initialize(&ld.parser)) {
		free(ld.stack);
		diag_set(err, DIAG_E_NOMEM, 0, 0, "out of memory starting the YAML parser");
		return -1;
	}
	yaml_parser_set_input_string(&ld.parser, (const unsigned char *)f->text, f->len);
	yaml_parser_set_encoding(&ld.parser, YAML_UTF8_ENCODING);
	while (!done && rc == 0) {
		if (!yaml_parser_parse(&ld.parser, &ev)) {
			rc = parse_error(&ld);
			break;
		}
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = 1;
			break;
		case YAML_DOCUMENT_START_EVENT:
			rc = on_document_start(&ld, &ev);
			break;
		case YAML_DOCUMENT_END_EVENT:
			rc = on_document_end(&ld);
			break;
		case YAML_SCALAR_EVENT:
			rc = on_scalar(&ld, &ev);
			break;
		case YAML_SEQUENCE_START_EVENT:
			rc = on_start(&ld, &ev, 0);
			break;
		case YAML_MAPPING_START_EVENT:
			rc = on_start(&ld, &ev, 1);
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			rc = on_end(&ld, &ev);
			break;
		case YAML_ALIAS_EVENT:
			rc = on_alias(&ld, &ev);
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
	}
	if (rc == 0)
		rc = finish_stream(&ld);
	if (rc == 0 && comments &&
	    yaml_scan_comments(f, ld.spans, ld.nspans) < 0) {
		diag_set(err, DIAG_E_NOMEM, 0, 0, "out of memory reading comments");
		rc = -1;
	}
	if (rc < 0 && err->code == DIAG_E_NOMEM && ld.doc && ld.doc->arena.failed)
		fail_nomem(&ld, err->line, err->col);
	yaml_parser_delete(&ld.parser);
	free(ld.stack);
	free(ld.anchors);
	free(ld.spans);
	if (rc < 0)
		release_docs(f);
	return rc;
}

const char *yaml_resolve_plain(const char *s, size_t len)
{
	static const char *const names[] = {
		[YT_NULL] = "null",   [YT_BOOL] = "bool",   [YT_INT] = "int",
		[YT_FLOAT] = "float", [YT_TIMESTAMP] = "timestamp",
		[YT_MERGE] = "merge", [YT_VALUE] = "value", [YT_STR] = "str",
	};

	return names[yaml_resolve(s, len, 0)];
}
