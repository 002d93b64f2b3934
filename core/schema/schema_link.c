/*
 * schema_link.c: a whole schema file. The keys only a file's top carries
 * (spec/core.md 5.2: pack, api_version, default, detect, kind_value; 7.1:
 * findings, $defs), $ref resolution into this file or a sibling loaded
 * through the caller, the work list that compiles each referenced node once
 * and links it, and the cycle rule of 7.5: a cycle is legal only through
 * properties, items, additionalProperties or propertyNames (edges that
 * descend into the document, so validation still ends); one made of $ref,
 * allOf, anyOf and oneOf alone is an engine.pack error. The search is an
 * explicit stack, not recursion, because a chain of $defs can be long.
 */
#include "core/schema/schema_int.h"
#include "core/util/grow.h"

#include <stdlib.h>
#include <string.h>

/* ---- the top of a file ------------------------------------------------- */

static int kw_route_str(struct sch_comp *c, struct sch_node *sn,
			const struct node *key, const struct node *val,
			size_t arg)
{
	(void)sn;
	(void)arg;
	if (val->type != NODE_STR)
		return sch_cerr(c, key, "'%s' must be a string, found %s",
				key->v.str.s, sch_found_word(val));
	return 0;
}

static int kw_route_default(struct sch_comp *c, struct sch_node *sn,
			    const struct node *key, const struct node *val,
			    size_t arg)
{
	(void)sn;
	(void)arg;
	if (val->type != NODE_BOOL)
		return sch_cerr(c, key,
				"'default' at the top of a schema file must be a boolean, found %s",
				sch_found_word(val));
	return 0;
}

/* detect is compiled so its errors show at load; the engine compiles it
 * again as a schema of its own for routing. */
static int kw_detect(struct sch_comp *c, struct sch_node *sn,
		     const struct node *key, const struct node *val, size_t arg)
{
	(void)sn;
	(void)arg;
	if (val->type != NODE_MAP)
		return sch_cerr(c, key,
				"'detect' must be a schema (a mapping), found %s",
				sch_found_word(val));
	return sch_compile_node(c, val) ? 0 : -1;
}

static int kw_findings(struct sch_comp *c, struct sch_node *sn,
		       const struct node *key, const struct node *val,
		       size_t arg)
{
	const struct sch_id *unused[SC_NCLASSES];

	(void)sn;
	(void)arg;
	/* A sibling's own map is checked but not used: the file compiled
	 * decides the ids of everything it reaches. */
	return sch_parse_ids(c, key, val, c->file == 0 ? c->s->ids : unused);
}

static int kw_defs(struct sch_comp *c, struct sch_node *sn,
		   const struct node *key, const struct node *val, size_t arg)
{
	size_t i;

	(void)sn;
	(void)arg;
	if (val->type != NODE_MAP)
		return sch_cerr(c, key, "'$defs' must be a mapping, found %s",
				sch_found_word(val));
	for (i = 0; i < val->v.map.n; i++) {
		const struct doc_pair *p = &val->v.map.pairs[i];
		size_t at = c->spath.len;

		if (p->key->type != NODE_STR)
			return sch_cerr(c, p->key,
					"'$defs' names must be strings, found %s",
					sch_found_word(p->key));
		doc_pointer_add(&c->spath, p->key->v.str.s, p->key->v.str.len);
		if (p->value->type != NODE_MAP)
			return sch_cerr(c, p->key,
					"'$defs' entry '%.60s' must be a schema (a mapping), found %s",
					p->key->v.str.s,
					sch_found_word(p->value));
		if (!sch_compile_node(c, p->value))
			return -1;
		sbuf_truncate(&c->spath, at);
	}
	return 0;
}

const struct sch_keyword sch_root_keys[] = {
	{ "pack", kw_route_str, 0 },
	{ "api_version", kw_route_str, 0 },
	{ "default", kw_route_default, 0 },
	{ "detect", kw_detect, 0 },
	{ "kind_value", kw_route_str, 0 },
	{ "findings", kw_findings, 0 },
	{ "$defs", kw_defs, 0 },
	{ NULL, NULL, 0 }
};

/* ---- the memo: each source node compiles once ---------------------------- */

static size_t ptr_hash(const struct node *p, size_t mask)
{
	uint64_t x = (uint64_t)(uintptr_t)p;

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return (size_t)x & mask;
}

struct sch_node *sch_memo_get(struct sch_comp *c, const struct node *src)
{
	size_t mask = c->amemo - 1, i;

	if (!c->amemo)
		return NULL;
	for (i = ptr_hash(src, mask); c->memo[i].src; i = (i + 1) & mask)
		if (c->memo[i].src == src)
			return c->memo[i].sn;
	return NULL;
}

int sch_memo_put(struct sch_comp *c, const struct node *src,
		    struct sch_node *sn)
{
	size_t i, mask;

	if (2 * (c->nmemo + 1) > c->amemo) {
		size_t na = c->amemo ? c->amemo * 2 : 64, j;
		struct sch_memo *m = calloc(na, sizeof *m);

		if (!m)
			return -1;
		for (j = 0; j < c->amemo; j++) {
			if (!c->memo[j].src)
				continue;
			for (i = ptr_hash(c->memo[j].src, na - 1); m[i].src;
			     i = (i + 1) & (na - 1))
				;
			m[i] = c->memo[j];
		}
		free(c->memo);
		c->memo = m;
		c->amemo = na;
	}
	mask = c->amemo - 1;
	for (i = ptr_hash(src, mask); c->memo[i].src; i = (i + 1) & mask)
		;
	c->memo[i].src = src;
	c->memo[i].sn = sn;
	c->nmemo++;
	return 0;
}

/* ---- $ref ---------------------------------------------------------------- */

static int ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);

	return len > n && memcmp(s + len - n, suffix, n) == 0;
}

/* The file index of sibling 'name', loading it on first use. */
static int sibling(struct sch_comp *c, const struct node *key,
		   const char *text, const char *name, size_t len)
{
	const struct schema_env *env = c->env;
	struct sch_file *f;
	struct diag lerr;
	const struct node *root = NULL;
	const char *display = NULL;
	char *nm;
	size_t i;

	for (i = 1; i < c->nfiles; i++)
		if (strlen(c->files[i].name) == len &&
		    memcmp(c->files[i].name, name, len) == 0)
			return (int)i;
	if (!env || !env->load_sibling)
		return sch_cerr(c, key,
				"'$ref' '%s' names another file, which this schema cannot load",
				text);
	if (!(nm = sch_cstrdup(c, name, len)))
		return -1;
	diag_init(&lerr);
	if (env->load_sibling(env->ud, nm, &root, &display, &lerr) != 0 ||
	    !root)
		return sch_cerr(c, key, "'$ref' '%s': cannot load '%s'%s%s",
				text, nm, lerr.msg[0] ? ": " : "", lerr.msg);
	if (grow_array(&c->files, &c->afiles, c->nfiles + 1, sizeof *c->files) < 0)
		return sch_nomem(c);
	f = &c->files[c->nfiles];
	f->name = nm;
	f->root = root;
	f->display = sch_cstrdup(c, display ? display : nm,
				 strlen(display ? display : nm));
	if (!f->display)
		return -1;
	return (int)c->nfiles++;
}

int sch_ref_queue(struct sch_comp *c, struct sch_node *sn,
		  const struct node *key, const struct node *val)
{
	const char *text = val->v.str.s, *hash;
	size_t len = val->v.str.len;
	const char *ptr;
	struct sch_pending *p;
	const struct node *target;
	int file = c->file;

	if (memchr(text, '\0', len) || len > 900)
		return sch_cerr(c, key, "'$ref' is not a usable reference");
	hash = memchr(text, '#', len);
	if (hash != text) {
		size_t flen = hash ? (size_t)(hash - text) : len;

		if (!(ends_with(text, flen, ".yaml") ||
		      ends_with(text, flen, ".yml")) ||
		    memchr(text, '/', flen) || text[0] == '.')
			return sch_cerr(c, key,
					"'$ref' must be '#/<pointer>' or '<file>.yaml#/<pointer>' naming a file of the same folder, found '%s'",
					text);
		if ((file = sibling(c, key, text, text, flen)) < 0)
			return -1;
	}
	ptr = hash ? hash + 1 : "";
	if (*ptr && *ptr != '/')
		return sch_cerr(c, key,
				"'$ref' pointer must be empty or start with '/', found '%s'",
				text);
	/* doc_resolve does not write; its parameter is not const. */
	target = doc_resolve((struct node *)(uintptr_t)c->files[file].root,
			     ptr, NULL);
	if (!target)
		return sch_cerr(c, key, "'$ref' target '%s' does not exist",
				text);
	if (target->type != NODE_MAP)
		return sch_cerr(c, key,
				"'$ref' target '%s' is not a schema (a mapping), found %s",
				text, sch_found_word(target));
	sn->ref_text = sch_cstrdup(c, text, len);
	sn->ref_spath = sch_cstrdup(c, sbuf_cstr(&c->spath), c->spath.len);
	sn->ref_line = key->line;
	sn->ref_col = key->col;
	if (grow_array(&c->work, &c->awork, c->nwork + 1, sizeof *c->work) < 0)
		return sch_nomem(c);
	p = &c->work[c->nwork++];
	p->from = sn;
	p->target = target;
	p->file = file;
	p->spath = sch_cstrdup(c, ptr, strlen(ptr));
	return sn->ref_text && sn->ref_spath && p->spath ? 0 : -1;
}

/* Compile every queued target, in the order queued; targets may queue
 * more. */
static int drain(struct sch_comp *c)
{
	size_t i;

	for (i = 0; i < c->nwork; i++) {
		struct sch_pending p = c->work[i]; /* work[] may move */

		c->file = p.file;
		sbuf_reset(&c->spath);
		sbuf_adds(&c->spath, p.spath);
		if (!(p.from->ref = sch_compile_node(c, p.target)))
			return -1;
	}
	return 0;
}

/* ---- the cycle rule ------------------------------------------------------ */

static size_t nedges(const struct sch_node *n)
{
	return n->nall + n->nany + n->none + (n->ref ? 1 : 0);
}

static struct sch_node *edge(const struct sch_node *n, size_t e)
{
	if (e < n->nall)
		return n->all[e];
	e -= n->nall;
	if (e < n->nany)
		return n->any[e];
	e -= n->nany;
	if (e < n->none)
		return n->one[e];
	return n->ref;
}

struct frame {
	struct sch_node *n;
	size_t e;
};

static int cycle_error(struct sch_comp *c, const struct sch_node *from,
		       int by_ref)
{
	struct node at;

	memset(&at, 0, sizeof at);
	c->file = from->file;
	sbuf_reset(&c->spath);
	if (by_ref) {
		at.line = from->ref_line;
		at.col = from->ref_col;
		sbuf_adds(&c->spath, from->ref_spath);
		return sch_cerr(c, &at,
				"'$ref' '%s' makes a cycle that does not pass through properties, items, additionalProperties or propertyNames",
				from->ref_text);
	}
	at.line = from->src->line;
	at.col = from->src->col;
	sbuf_adds(&c->spath, from->spath);
	return sch_cerr(c, &at,
			"schema refers back to itself without passing through properties, items, additionalProperties or propertyNames");
}

static int check_cycles(struct sch_comp *c)
{
	struct frame *st = malloc((c->nnodes + 1) * sizeof *st);
	size_t i, top;
	int rc = 0;

	if (!st)
		return sch_nomem(c);
	for (i = 0; i < c->nnodes && rc == 0; i++) {
		if (c->nodes[i]->mark)
			continue;
		top = 0;
		st[top].n = c->nodes[i];
		st[top++].e = 0;
		c->nodes[i]->mark = 1;
		while (top && rc == 0) {
			struct frame *f = &st[top - 1];
			struct sch_node *next;

			if (f->e == nedges(f->n)) {
				f->n->mark = 2;
				top--;
				continue;
			}
			next = edge(f->n, f->e++);
			if (next->mark == 1)
				rc = cycle_error(c, f->n,
						 f->e == nedges(f->n) &&
							 f->n->ref == next);
			else if (next->mark == 0) {
				next->mark = 1;
				st[top].n = next;
				st[top++].e = 0;
			}
		}
	}
	free(st);
	return rc;
}

/* ---- entry points ---------------------------------------------------------- */

void schema_free(struct schema *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nres; i++)
		re_free(s->res[i]);
	free(s->res);
	arena_release(&s->arena);
	free(s);
}

struct schema *schema_compile(const struct node *root, const char *display,
			      const struct schema_env *env, struct diag *err)
{
	struct sch_comp c;
	struct schema *s;
	size_t i;
	int rc = -1;

	if (!root || root->type != NODE_MAP) {
		diag_set(err, DIAG_E_PACK, root ? root->line : 0,
			 root ? root->col : 0,
			 "a schema must be a mapping, found %s",
			 root ? sch_found_word(root) : "nothing");
		diag_set_path(err, "");
		return NULL;
	}
	s = calloc(1, sizeof *s);
	if (!s) {
		diag_set(err, DIAG_E_NOMEM, 0, 0,
			 "out of memory compiling a schema");
		return NULL;
	}
	arena_init(&s->arena, 0);
	if (env && env->re_alloc) {
		s->re_alloc = *env->re_alloc;
		s->has_re_alloc = 1;
	}
	memset(&c, 0, sizeof c);
	c.s = s;
	c.env = env;
	c.err = err;
	sbuf_init(&c.spath);
	if (grow_array(&c.files, &c.afiles, 1, sizeof *c.files) < 0) {
		sch_nomem(&c);
		goto out;
	}
	c.files[0].name = NULL;
	c.files[0].root = root;
	c.files[0].display = display ? display : "schema";
	c.nfiles = 1;
	if (!(s->root = sch_compile_node(&c, root)) || drain(&c) < 0 ||
	    check_cycles(&c) < 0)
		goto out;
	if (c.spath.failed) {
		sch_nomem(&c);
		goto out;
	}
	/* Keep no pointer into the source documents. */
	for (i = 0; i < c.nnodes; i++)
		c.nodes[i]->src = NULL;
	rc = 0;
out:
	sbuf_release(&c.spath);
	free(c.files);
	free(c.memo);
	free(c.nodes);
	free(c.work);
	if (rc < 0) {
		schema_free(s);
		return NULL;
	}
	return s;
}
