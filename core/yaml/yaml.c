/*
 * yaml.c: libyaml events to documents (spec/yaml.md 1, 4-6). libyaml's
 * event API only, never its document loader, so that positions, limits and
 * aliases stay ours. Open collections live on an explicit stack (never
 * recursion on input depth) whose children wait in one shared array until
 * their collection ends; anchors keep the expanded size of their subtree,
 * so an alias is counted before anything could be copied and a billion
 * laughs stops while it is read. Errors come in PyYAML's order: what its
 * parser and composer raise (syntax, anchors) and our limits stop the load
 * at once; what its constructor raises (input.type) and our duplicate-key
 * check are kept until the document has been read. Every event is freed on
 * every path. Nothing here prints or keeps global state.
 */
#include "core/yaml/yaml_int.h"
#include "core/util/grow.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#define YAML_DEFAULT_DOC_BYTES ((size_t)128 << 20)

void yaml_limits_default(struct yaml_limits *lim)
{
	lim->documents = 10000;
	lim->depth = 512;
	lim->nodes = 1000000;
	lim->expanded_nodes = 1000000;
	lim->scalar_bytes = 1048576;
	lim->doc_bytes = YAML_DEFAULT_DOC_BYTES;
	lim->fail_at = 0;
}

void yaml_file_init(struct yaml_file *f)
{
	memset(f, 0, sizeof *f);
}

static void free_doc(struct doc *d)
{
	if (d) {
		doc_release(d);
		free(d);
	}
}

static void release_docs(struct yaml_file *f)
{
	size_t i;

	for (i = 0; i < f->ndocs; i++)
		free_doc(f->docs[i]);
	free(f->docs);
	f->docs = NULL;
	f->ndocs = 0;
}

void yaml_file_release(struct yaml_file *f)
{
	release_docs(f);
	free(f->comments);
	free(f->text);
	memset(f, 0, sizeof *f);
}

const char *yaml_library_version(void)
{
	return yaml_get_version_string();
}

/* ---- positions, paths and errors ------------------------------------- */

static uint32_t mline(const yaml_mark_t *m)
{
	return (uint32_t)m->line + 1;
}

static uint32_t mcol(const yaml_mark_t *m)
{
	return (uint32_t)m->column + 1;
}

/* The JSON Pointer of the slot being filled in frame 'upto' - 1 (all open
 * frames below it), then 'key' when given. A frame waiting for a key ends
 * the path: what lies inside a complex key has no pointer. */
static void build_path(const struct loader *ld, size_t upto,
		       const struct node *key, struct sbuf *b)
{
	size_t i;

	for (i = 0; i < upto; i++) {
		const struct frame *fr = &ld->frames[i];
		size_t end =
		    i + 1 < ld->depth ? ld->frames[i + 1].base : ld->nitems;
		size_t c = end - fr->base;

		if (fr->node->type == NODE_LIST) {
			char num[32];
			int n = snprintf(num, sizeof num, "%zu", c);

			doc_pointer_add(b, num, (size_t)n);
		} else if (c % 2 == 1) {
			doc_pointer_token(b, ld->items[end - 1]);
		} else {
			return;
		}
	}
	if (key)
		doc_pointer_token(b, key);
}

static void set_path(struct loader *ld, struct diag *d, size_t upto,
		     const struct node *key)
{
	struct sbuf b = SBUF_INIT;

	build_path(ld, upto, key, &b);
	diag_set_path(d, b.failed ? "" : sbuf_cstr(&b));
	sbuf_release(&b);
}

/* An error that stops the load, at the slot being filled. */
int yaml_fail(struct loader *ld, enum diag_code code, uint32_t line,
	      uint32_t col, const char *msg)
{
	diag_set(ld->err, code, line, col, "%s", msg);
	set_path(ld, ld->err, ld->depth, NULL);
	return -1;
}

static int fail_limit(struct loader *ld, uint32_t line, uint32_t col,
		      const char *name, size_t value, long long observed,
		      const char *msg)
{
	diag_limit(ld->err, line, col, name, (long long)value, observed, "%s",
		   msg);
	set_path(ld, ld->err, ld->depth, NULL);
	return -1;
}

/* The arena of the document refused memory: the "memory" limit. */
int yaml_fail_nomem(struct loader *ld, uint32_t line, uint32_t col)
{
	char msg[160];

	snprintf(msg, sizeof msg,
		 "the document needs more memory than its limit of %zu bytes",
		 ld->lim->doc_bytes);
	fail_limit(ld, line, col, "memory", ld->lim->doc_bytes, -1, msg);
	ld->err->code = DIAG_E_NOMEM;
	return -1;
}

int yaml_fail_malloc(struct loader *ld)
{
	diag_set(ld->err, DIAG_E_NOMEM, 0, 0, "out of memory loading YAML");
	return -1;
}

/* A constructor-level problem: kept (the first of each kind) and reported
 * when the document ends, unless the parser fails first. */
void yaml_defer(struct loader *ld, enum diag_code code, uint32_t line,
		uint32_t col, size_t upto, const struct node *key,
		const char *msg)
{
	int *have = code == DIAG_E_TYPE ? &ld->have_type : &ld->have_dup;
	struct diag **slot =
	    code == DIAG_E_TYPE ? &ld->pending_type : &ld->pending_dup;
	struct diag *d;

	if (*have)
		return;
	*have = 1;
	if (!*slot)
		*slot = malloc(sizeof **slot);
	d = *slot;
	if (!d) {
		ld->pending_nomem = 1;
		return;
	}
	diag_init(d);
	diag_set(d, code, line, col, "%s", msg);
	set_path(ld, d, upto, key);
}

/* Report what was deferred: PyYAML's own errors (input.type) first. */
static int flush_pending(struct loader *ld)
{
	if (ld->pending_nomem)
		return yaml_fail_malloc(ld);
	if (ld->have_type)
		*ld->err = *ld->pending_type;
	else if (ld->have_dup)
		*ld->err = *ld->pending_dup;
	else
		return 0;
	return -1;
}

static int count_node(struct loader *ld, size_t expanded, uint32_t line,
		      uint32_t col)
{
	char msg[200];

	ld->nodes++;
	ld->expanded += expanded;
	if (ld->nodes > ld->lim->nodes) {
		snprintf(msg, sizeof msg,
			 "the document has more than %zu nodes (the nodes "
			 "limit)",
			 ld->lim->nodes);
		return fail_limit(ld, line, col, "nodes", ld->lim->nodes, -1,
				  msg);
	}
	if (ld->expanded > ld->lim->expanded_nodes) {
		snprintf(msg, sizeof msg,
			 "with its aliases expanded the document has more than "
			 "%zu nodes (the expanded_nodes limit)",
			 ld->lim->expanded_nodes);
		return fail_limit(ld, line, col, "expanded_nodes",
				  ld->lim->expanded_nodes, -1, msg);
	}
	return 0;
}

/* ---- anchors ---------------------------------------------------------- */

static size_t name_hash(const char *s)
{
	size_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static long anchor_find(const struct loader *ld, const char *name)
{
	size_t i;

	if (!ld->ahash_size)
		return -1;
	i = name_hash(name) & (ld->ahash_size - 1);
	while (ld->ahash[i]) {
		size_t a = ld->ahash[i] - 1;

		if (strcmp(ld->anchors[a].name, name) == 0)
			return (long)a;
		i = (i + 1) & (ld->ahash_size - 1);
	}
	return -1;
}

static void anchor_slot(struct loader *ld, size_t a)
{
	size_t i = name_hash(ld->anchors[a].name) & (ld->ahash_size - 1);

	while (ld->ahash[i])
		i = (i + 1) & (ld->ahash_size - 1);
	ld->ahash[i] = a + 1;
}

static int add_anchor(struct loader *ld, const yaml_char_t *name,
		      struct node *n, int open, long *index)
{
	struct anchor *a;
	size_t i;

	if (anchor_find(ld, (const char *)name) >= 0) {
		char msg[300], shown[96];

		yaml_shown((const char *)name, strlen((const char *)name), 60,
			   shown, sizeof shown);
		snprintf(msg, sizeof msg,
			 "anchor '&%s' is defined twice in one document",
			 shown);
		return yaml_fail(ld, DIAG_E_YAML, n->line, n->col, msg);
	}
	if (grow_array(&ld->anchors, &ld->anchors_alloc,
		      ld->nanchors + 1, sizeof *ld->anchors) < 0)
		return yaml_fail_malloc(ld);
	if (ld->ahash_size < 2 * (ld->nanchors + 1)) {
		size_t ns = ld->ahash_size ? ld->ahash_size * 2 : 64;
		size_t *v = calloc(ns, sizeof *v);

		if (!v)
			return yaml_fail_malloc(ld);
		free(ld->ahash);
		ld->ahash = v;
		ld->ahash_size = ns;
		for (i = 0; i < ld->nanchors; i++)
			anchor_slot(ld, i);
	}
	a = &ld->anchors[ld->nanchors];
	a->name = arena_strdup(&ld->doc->arena, (const char *)name);
	if (!a->name)
		return yaml_fail_nomem(ld, n->line, n->col);
	a->node = n;
	a->size = 1;
	a->open = open;
	anchor_slot(ld, ld->nanchors);
	*index = (long)ld->nanchors++;
	return 0;
}

static void anchors_reset(struct loader *ld)
{
	if (ld->nanchors)
		memset(ld->ahash, 0, ld->ahash_size * sizeof *ld->ahash);
	ld->nanchors = 0;
}

/* ---- building --------------------------------------------------------- */

static void set_marks(struct node *n, const yaml_event_t *ev)
{
	n->line = mline(&ev->start_mark);
	n->col = mcol(&ev->start_mark);
	n->end_line = mline(&ev->end_mark);
	n->end_col = mcol(&ev->end_mark);
}

/* Add a finished node (of expanded size 'size') to the open collection,
 * or make it the document's root. */
static int add_node(struct loader *ld, struct node *n, size_t size)
{
	struct frame *fr;
	int as_key;

	if (ld->depth == 0) {
		if (n->merged & (YNODE_MERGE_KEY | YNODE_VALUE_KEY))
			yaml_defer(
			    ld, DIAG_E_TYPE, n->line, n->col, 0, NULL,
			    "a merge key '<<' or value key '=' cannot be a "
			    "document");
		ld->doc->root = n;
		return 0;
	}
	fr = &ld->frames[ld->depth - 1];
	as_key = fr->node->type == NODE_MAP && (ld->nitems - fr->base) % 2 == 0;
	if (as_key && (n->type == NODE_LIST || n->type == NODE_MAP)) {
		yaml_defer(ld, DIAG_E_TYPE, n->line, n->col, ld->depth, NULL,
			   n->type == NODE_LIST
			       ? "a sequence cannot be a mapping key (it is "
				 "unhashable)"
			       : "a mapping cannot be a mapping key (it is "
				 "unhashable)");
	} else if (as_key && (n->merged & YNODE_VALUE_KEY)) {
		n->merged = 0; /* PyYAML retags a '=' key as a string */
	} else if (!as_key &&
		   (n->merged & (YNODE_MERGE_KEY | YNODE_VALUE_KEY))) {
		yaml_defer(
		    ld, DIAG_E_TYPE, n->line, n->col, ld->depth, NULL,
		    n->merged & YNODE_MERGE_KEY
			? "'<<' (the merge key) can only be a mapping key"
			: "'=' (the value key) can only be a mapping key");
	}
	if (grow_array(&ld->items, &ld->items_alloc, ld->nitems + 1,
		      sizeof *ld->items) < 0)
		return yaml_fail_malloc(ld);
	ld->items[ld->nitems++] = n;
	fr->size += size;
	return 0;
}

static int add_span(struct loader *ld, const yaml_event_t *ev, int block)
{
	struct yaml_span *s;

	if (grow_array(&ld->spans, &ld->spans_alloc, ld->nspans + 1,
		      sizeof *ld->spans) < 0)
		return yaml_fail_malloc(ld);
	s = &ld->spans[ld->nspans++];
	s->line = mline(&ev->start_mark);
	s->col = mcol(&ev->start_mark);
	s->end_line = mline(&ev->end_mark);
	s->end_col = mcol(&ev->end_mark);
	s->start = ev->start_mark.index;
	s->end = ev->end_mark.index;
	s->block = block;
	return 0;
}

static void unknown_tag_msg(char *msg, size_t size, const char *tag,
			    const char *what)
{
	char shown[96];

	if (NEVER(!tag))
		tag = "?";
	yaml_shown(tag, strlen(tag), 60, shown, sizeof shown);
	snprintf(msg, size, "unknown tag '%s' on a %s", shown, what);
}

static int on_scalar(struct loader *ld, const yaml_event_t *ev)
{
	const char *tag = (const char *)ev->data.scalar.tag;
	const char *text = (const char *)ev->data.scalar.value;
	size_t len = ev->data.scalar.length;
	yaml_scalar_style_t st = ev->data.scalar.style;
	int block =
	    st == YAML_LITERAL_SCALAR_STYLE || st == YAML_FOLDED_SCALAR_STYLE;
	struct node *n = doc_new(ld->doc, NODE_NULL);
	char msg[DIAG_MSG_MAX / 2];
	enum ytag t;
	long aidx;
	int rc;

	if (!n)
		return yaml_fail_nomem(ld, mline(&ev->start_mark),
				       mcol(&ev->start_mark));
	set_marks(n, ev);
	n->style = st == YAML_PLAIN_SCALAR_STYLE ? STYLE_PLAIN
		   : block			 ? STYLE_BLOCK
						 : STYLE_QUOTED;
	if (ld->want_spans && st != YAML_PLAIN_SCALAR_STYLE &&
	    add_span(ld, ev, block) < 0)
		return -1;
	if (count_node(ld, 1, n->line, n->col) < 0)
		return -1;
	if (len > ld->lim->scalar_bytes) {
		snprintf(msg, sizeof msg,
			 "a scalar of %zu bytes is longer than the "
			 "scalar_bytes limit of %zu",
			 len, ld->lim->scalar_bytes);
		return fail_limit(ld, n->line, n->col, "scalar_bytes",
				  ld->lim->scalar_bytes, (long long)len, msg);
	}
	if (!tag)
		t = st == YAML_PLAIN_SCALAR_STYLE ? yaml_resolve(text, len)
						  : YT_STR;
	else if (strcmp(tag, "!") == 0)
		t = yaml_resolve(text, len); /* '!' resolves even quoted text */
	else
		t = yaml_tag_of(tag);
	if (t == YT_UNKNOWN) {
		unknown_tag_msg(msg, sizeof msg, tag, "scalar");
		yaml_defer(ld, DIAG_E_TYPE, n->line, n->col, ld->depth, NULL,
			   msg);
	} else if (t == YT_MERGE || t == YT_VALUE) {
		/* A key (add_node checks); its text makes a '=' key. */
		rc = yaml_construct(ld->doc, &ld->sc, n, YT_STR, text, len, msg,
				    sizeof msg);
		if (rc < 0)
			return yaml_fail_nomem(ld, n->line, n->col);
		n->merged = t == YT_MERGE ? YNODE_MERGE_KEY : YNODE_VALUE_KEY;
	} else {
		rc = yaml_construct(ld->doc, &ld->sc, n, t, text, len, msg,
				    sizeof msg);
		if (rc == -2)
			return ld->doc->arena.failed
				   ? yaml_fail_nomem(ld, n->line, n->col)
				   : yaml_fail_malloc(ld);
		if (rc < 0) {
			n->type = NODE_NULL;
			yaml_defer(ld, DIAG_E_TYPE, n->line, n->col, ld->depth,
				   NULL, msg);
		}
	}
	if (ev->data.scalar.anchor &&
	    add_anchor(ld, ev->data.scalar.anchor, n, 0, &aidx) < 0)
		return -1;
	return add_node(ld, n, 1);
}

static int on_start(struct loader *ld, const yaml_event_t *ev, int is_map)
{
	const char *tag = (const char *)(is_map ? ev->data.mapping_start.tag
						: ev->data.sequence_start.tag);
	const yaml_char_t *anchor = is_map ? ev->data.mapping_start.anchor
					   : ev->data.sequence_start.anchor;
	uint32_t line = mline(&ev->start_mark), col = mcol(&ev->start_mark);
	struct node *n;
	struct frame *fr;
	long aidx = -1;
	char msg[200];

	if (ld->depth >= ld->lim->depth) {
		snprintf(msg, sizeof msg,
			 "nesting deeper than the depth limit of %zu levels",
			 ld->lim->depth);
		return fail_limit(ld, line, col, "depth", ld->lim->depth, -1,
				  msg);
	}
	n = doc_new(ld->doc, is_map ? NODE_MAP : NODE_LIST);
	if (!n)
		return yaml_fail_nomem(ld, line, col);
	set_marks(n, ev);
	if (is_map ? ev->data.mapping_start.style == YAML_FLOW_MAPPING_STYLE
		   : ev->data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE)
		n->style = STYLE_FLOW;
	if (count_node(ld, 1, line, col) < 0)
		return -1;
	if (tag && strcmp(tag, "!") != 0) {
		enum ytag t = yaml_tag_of(tag);

		if (t == YT_UNKNOWN)
			unknown_tag_msg(msg, sizeof msg, tag,
					is_map ? "mapping" : "sequence");
		else if (t == YT_SET || t == YT_OMAP || t == YT_PAIRS)
			snprintf(msg, sizeof msg,
				 "unsupported tag '!!%s': binary, set, omap "
				 "and pairs values are not read",
				 yaml_tag_name(t));
		else if (t != (is_map ? YT_MAP : YT_SEQ))
			snprintf(msg, sizeof msg,
				 "the tag '!!%s' cannot be given to a %s",
				 yaml_tag_name(t),
				 is_map ? "mapping" : "sequence");
		if (t != (is_map ? YT_MAP : YT_SEQ))
			yaml_defer(ld, DIAG_E_TYPE, line, col, ld->depth, NULL,
				   msg);
	}
	if (anchor && add_anchor(ld, anchor, n, 1, &aidx) < 0)
		return -1;
	if (grow_array(&ld->frames, &ld->frames_alloc, ld->depth + 1,
		      sizeof *ld->frames) < 0)
		return yaml_fail_malloc(ld);
	fr = &ld->frames[ld->depth++];
	fr->node = n;
	fr->base = ld->nitems;
	fr->size = 1;
	fr->anchor = aidx;
	return 0;
}

static int on_end(struct loader *ld, const yaml_event_t *ev)
{
	struct frame *fr;
	struct node *n;
	size_t c;

	if (NEVER(ld->depth == 0))
		return yaml_fail(ld, DIAG_E_YAML, mline(&ev->start_mark),
				 mcol(&ev->start_mark),
				 "a collection ends that never started");
	fr = &ld->frames[ld->depth - 1];
	n = fr->node;
	n->end_line = mline(&ev->end_mark);
	n->end_col = mcol(&ev->end_mark);
	c = ld->nitems - fr->base;
	if (n->type == NODE_LIST) {
		n->v.list.items = arena_alloc(
		    &ld->doc->arena, (c ? c : 1) * sizeof *n->v.list.items);
		if (!n->v.list.items)
			return yaml_fail_nomem(ld, n->line, n->col);
		if (c)
			memcpy(n->v.list.items, ld->items + fr->base,
			       c * sizeof *n->v.list.items);
		n->v.list.n = c;
	} else if (yaml_finish_map(ld, fr) < 0) {
		return -1;
	}
	if (fr->anchor >= 0) {
		ld->anchors[fr->anchor].size = fr->size;
		ld->anchors[fr->anchor].open = 0;
	}
	ld->nitems = fr->base;
	ld->depth--;
	return add_node(ld, n, fr->size);
}

static int on_alias(struct loader *ld, const yaml_event_t *ev)
{
	const char *name = (const char *)ev->data.alias.anchor;
	uint32_t line = mline(&ev->start_mark), col = mcol(&ev->start_mark);
	char msg[300], shown[96];
	long i = anchor_find(ld, name);
	struct anchor *a;

	yaml_shown(name, strlen(name), 60, shown, sizeof shown);
	if (i < 0) {
		snprintf(msg, sizeof msg,
			 "alias '*%s' names no anchor defined before it in "
			 "this document",
			 shown);
		return yaml_fail(ld, DIAG_E_YAML, line, col, msg);
	}
	a = &ld->anchors[i];
	if (a->open) {
		snprintf(msg, sizeof msg,
			 "recursive alias '*%s': it stands inside the "
			 "collection it names, whose expansion never ends",
			 shown);
		return fail_limit(ld, line, col, "expanded_nodes",
				  ld->lim->expanded_nodes, -1, msg);
	}
	if (count_node(ld, a->size, line, col) < 0)
		return -1;
	/* Nodes are shared: every alias sees the anchored node. */
	return add_node(ld, a->node, a->size);
}

/* ---- documents -------------------------------------------------------- */

static int new_doc(struct loader *ld, uint32_t line)
{
	struct doc *d;

	if (grow_array(&ld->f->docs, &ld->docs_alloc, ld->f->ndocs + 1,
		      sizeof *ld->f->docs) < 0)
		return yaml_fail_malloc(ld);
	d = malloc(sizeof *d);
	if (!d)
		return yaml_fail_malloc(ld);
	doc_init(d, ld->lim->doc_bytes);
	d->arena.fail_at = ld->fail_left;
	d->index = (int)(ld->docs_seen ? ld->docs_seen - 1 : 0);
	d->start_line = line;
	ld->f->docs[ld->f->ndocs++] = d;
	ld->doc = d;
	ld->nodes = 0;
	ld->expanded = 0;
	ld->depth = 0;
	ld->nitems = 0;
	ld->have_type = 0;
	ld->have_dup = 0;
	anchors_reset(ld);
	return 0;
}

static int on_document_start(struct loader *ld, const yaml_event_t *ev)
{
	uint32_t line = mline(&ev->start_mark), col = mcol(&ev->start_mark);
	char msg[160];

	ld->docs_seen++;
	if (ld->mode == YAML_SINGLE && ld->docs_seen > 1)
		return yaml_fail(ld, DIAG_E_YAML, line, col,
				 "expected a single document, but a second one "
				 "starts here");
	if (ld->docs_seen > ld->lim->documents) {
		snprintf(msg, sizeof msg,
			 "the file has more than %zu documents (the documents "
			 "limit)",
			 ld->lim->documents);
		return fail_limit(ld, line, col, "documents",
				  ld->lim->documents, -1, msg);
	}
	return new_doc(ld, line);
}

static int is_null_doc(const struct doc *d)
{
	return !d->root || d->root->type == NODE_NULL;
}

/* Drop the null-root documents once the stream has two or more
 * (spec/yaml.md 6.1). Earlier ones were dropped when they ended, so only
 * the first and the newest can be null here. */
static void drop_null_docs(struct loader *ld)
{
	struct yaml_file *f = ld->f;

	if (ld->mode != YAML_STREAM || ld->docs_seen < 2)
		return;
	if (f->ndocs && is_null_doc(f->docs[f->ndocs - 1]))
		free_doc(f->docs[--f->ndocs]);
	if (f->ndocs && is_null_doc(f->docs[0])) {
		free_doc(f->docs[0]);
		memmove(f->docs, f->docs + 1, --f->ndocs * sizeof *f->docs);
	}
}

static int on_document_end(struct loader *ld, const yaml_event_t *ev)
{
	struct doc *d = ld->doc;

	if (NEVER(!d))
		return 0;
	if (ld->fail_left > 0)
		ld->fail_left = d->arena.fail_at;
	d->nodes = ld->nodes;
	if (!d->root) {
		struct node *n = doc_new(d, NODE_NULL);

		if (!n)
			return yaml_fail_nomem(ld, d->start_line, 1);
		n->line = n->end_line = mline(&ev->start_mark);
		n->col = n->end_col = mcol(&ev->start_mark);
		d->root = n;
	}
	ld->doc = NULL;
	if (ld->mode == YAML_SINGLE)
		return 0; /* PyYAML looks for a second document before it
			   * constructs the first: finish_stream reports */
	if (flush_pending(ld) < 0)
		return -1;
	drop_null_docs(ld);
	return 0;
}

static int finish_stream(struct loader *ld)
{
	if (ld->mode == YAML_SINGLE && flush_pending(ld) < 0)
		return -1;
	if (ld->f->ndocs == 0) {
		struct node *n;

		ld->docs_seen = 0;
		if (new_doc(ld, 1) < 0)
			return -1;
		n = doc_new(ld->doc, NODE_NULL);
		if (!n)
			return yaml_fail_nomem(ld, 1, 1);
		n->line = n->col = n->end_line = n->end_col = 1;
		ld->doc->root = n;
		ld->doc = NULL;
	}
	return 0;
}

static int parse_error(struct loader *ld)
{
	const yaml_parser_t *p = &ld->parser;
	const char *problem =
	    p->problem ? p->problem : "the text does not parse";
	uint32_t line = mline(&p->problem_mark), col = mcol(&p->problem_mark);
	char msg[DIAG_MSG_MAX / 2];

	if (p->error == YAML_MEMORY_ERROR)
		return yaml_fail_malloc(ld);
	if (p->error == YAML_READER_ERROR) {
		int cr = 0;

		line = col = 1;
		yaml_text_advance(ld->f->text,
				  p->problem_offset < ld->f->len
				      ? p->problem_offset
				      : ld->f->len,
				  &line, &col, &cr);
		snprintf(msg, sizeof msg, "the text cannot be read: %s",
			 problem);
		return yaml_fail(ld, DIAG_E_ENCODING, line, col, msg);
	}
	if (p->context)
		snprintf(msg, sizeof msg,
			 "invalid YAML: %s (%s at line %u, column %u)", problem,
			 p->context, mline(&p->context_mark),
			 mcol(&p->context_mark));
	else
		snprintf(msg, sizeof msg, "invalid YAML: %s", problem);
	return yaml_fail(ld, DIAG_E_YAML, line, col, msg);
}

static int on_event(struct loader *ld, const yaml_event_t *ev, int *done)
{
	switch (ev->type) {
	case YAML_STREAM_END_EVENT:
		*done = 1;
		return 0;
	case YAML_DOCUMENT_START_EVENT:
		return on_document_start(ld, ev);
	case YAML_DOCUMENT_END_EVENT:
		return on_document_end(ld, ev);
	case YAML_SCALAR_EVENT:
		return on_scalar(ld, ev);
	case YAML_SEQUENCE_START_EVENT:
		return on_start(ld, ev, 0);
	case YAML_MAPPING_START_EVENT:
		return on_start(ld, ev, 1);
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		return on_end(ld, ev);
	case YAML_ALIAS_EVENT:
		return on_alias(ld, ev);
	default:
		return 0;
	}
}

static void loader_release(struct loader *ld)
{
	yaml_parser_delete(&ld->parser);
	free(ld->frames);
	free(ld->items);
	free(ld->anchors);
	free(ld->ahash);
	free(ld->kslots);
	free(ld->kfirst);
	free(ld->spans);
	free(ld->pending_type);
	free(ld->pending_dup);
	yaml_scratch_release(&ld->sc);
}

int yaml_load(struct yaml_file *f, const char *buf, size_t len,
	      enum yaml_mode mode, const struct yaml_limits *lim, int comments,
	      struct diag *err)
{
	struct loader ld;
	yaml_event_t ev;
	int rc = 0, done = 0;

	memset(&ld, 0, sizeof ld);
	diag_init(err);
	release_docs(f);
	free(f->comments);
	f->comments = NULL;
	f->ncomments = 0;
	free(f->text);
	f->text = NULL;
	if (yaml_decode(buf, len, &f->text, &f->len, &f->had_bom, err) < 0)
		return -1;
	ld.f = f;
	ld.lim = lim;
	ld.err = err;
	ld.mode = mode;
	ld.want_spans = comments;
	ld.fail_left = lim->fail_at;
	if (!yaml_parser_initialize(&ld.parser)) {
		diag_set(err, DIAG_E_NOMEM, 0, 0,
			 "out of memory starting the YAML parser");
		return -1;
	}
	yaml_parser_set_input_string(&ld.parser, (const unsigned char *)f->text,
				     f->len);
	yaml_parser_set_encoding(&ld.parser, YAML_UTF8_ENCODING);
	while (!done && rc == 0) {
		if (!yaml_parser_parse(&ld.parser, &ev)) {
			rc = parse_error(&ld);
			break;
		}
		rc = on_event(&ld, &ev, &done);
		yaml_event_delete(&ev);
	}
	if (rc == 0)
		rc = finish_stream(&ld);
	if (rc == 0 && comments &&
	    yaml_scan_comments(f, ld.spans, ld.nspans) < 0)
		rc = yaml_fail_malloc(&ld);
	loader_release(&ld);
	if (rc < 0) {
		release_docs(f);
		free(f->comments);
		f->comments = NULL;
		f->ncomments = 0;
	}
	return rc;
}
