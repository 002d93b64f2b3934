/*
 * config_read.c: turning a validated configuration document into a struct
 * config (spec/core.md 3.2), one reader per top-level key in a table. The
 * schema has already checked types, so the readers check what it cannot:
 * version 1, limit names, glob syntax, the form of rule ids and the ids
 * that cannot be overridden; they still refuse a wrong type rather than
 * trust it, in case the schema and this file drift apart. Every string is
 * copied into the configuration's arena.
 */
#include "core/engine/policy.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct rd {
	struct config *c;
	struct policy_errors *errs;
};

static void bad(struct rd *r, const struct node *n, struct sbuf *ptr,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void bad(struct rd *r, const struct node *n, struct sbuf *ptr,
		const char *fmt, ...)
{
	char msg[DIAG_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	policy_errors_add(r->errs, "input.type", r->c->file, n->line, n->col,
			  sbuf_cstr(ptr), "%s", msg);
}

static const char *dup_str(struct rd *r, const struct node *n)
{
	const char *s = arena_strndup(&r->c->arena, n->v.str.s, n->v.str.len);

	if (!s)
		r->errs->failed = 1;
	return s;
}

static struct config_pos pos_of(const struct node *n)
{
	struct config_pos p = {n->line, n->col};

	return p;
}

/* Check the type of 'n'; report and return 0 when it is not 'type'. */
static int want(struct rd *r, const struct node *n, struct sbuf *ptr,
		enum node_type type)
{
	if (n->type == type)
		return 1;
	bad(r, n, ptr, "expected %s, found %s", doc_schema_type_name(type),
	    doc_schema_type_name((enum node_type)n->type));
	return 0;
}

static void read_list(struct rd *r, const struct node *v, struct sbuf *ptr,
		      struct config_list *l, int globs)
{
	size_t i, mark = ptr->len;
	const char *why;

	if (!want(r, v, ptr, NODE_LIST))
		return;
	l->items = arena_calloc(&r->c->arena, v->v.list.n + 1, sizeof(char *));
	l->pos = arena_calloc(&r->c->arena, v->v.list.n + 1, sizeof *l->pos);
	if (!l->items || !l->pos) {
		r->errs->failed = 1;
		return;
	}
	l->given = 1;
	l->n = 0;
	for (i = 0; i < v->v.list.n; i++) {
		const struct node *it = v->v.list.items[i];

		sbuf_addf(ptr, "/%zu", i);
		if (want(r, it, ptr, NODE_STR)) {
			why = globs ? glob_problem(it->v.str.s) : NULL;
			if (why)
				bad(r, it, ptr, "glob '%s' %s", it->v.str.s,
				    why);
			l->pos[l->n] = pos_of(it);
			l->items[l->n++] = dup_str(r, it);
		}
		sbuf_truncate(ptr, mark);
	}
}

#define LIST_READER(name, field, globs)                                        \
	static void name(struct rd *r, const struct node *v, struct sbuf *ptr) \
	{                                                                      \
		read_list(r, v, ptr, &r->c->field, globs);                     \
	}

LIST_READER(read_paths, paths, 0)
LIST_READER(read_include, include, 1)
LIST_READER(read_exclude, exclude, 1)
LIST_READER(read_packs, packs, 0)
LIST_READER(read_site_packs, site_packs, 0)

/* The index of string 'n' in 'words' (NULL-terminated), or -1. */
static int word_of(const struct node *n, const char *const *words)
{
	int i;

	for (i = 0; n->type == NODE_STR && words[i]; i++)
		if (strcmp(n->v.str.s, words[i]) == 0)
			return i;
	return -1;
}

static int read_word(struct rd *r, const struct node *v, struct sbuf *ptr,
		     const char *const *words, const char *expected)
{
	int i = word_of(v, words);

	if (i < 0)
		bad(r, v, ptr, "expected one of %s", expected);
	return i;
}

static int read_bool(struct rd *r, const struct node *v, struct sbuf *ptr)
{
	return want(r, v, ptr, NODE_BOOL) ? !!v->v.b : -1;
}

/* Severity words in the order of enum severity; "off" is SEV_NONE. */
static const char *const sev_words[] = {"error", "warning", "info", "off",
					NULL};

/* A key of `rules`: an id, or a glob of id characters and '*'. */
static const char *rule_key_problem(const char *k, size_t len)
{
	size_t i;

	if (policy_id_core(k))
		return "cannot be overridden: input.*, engine.* and cli.* ids "
		       "are fixed";
	if (!memchr(k, '*', len))
		return policy_id_valid(k, len, 0)
			   ? NULL
			   : "is not a rule id (pack.name, lower kebab "
			     "case)";
	for (i = 0; i < len; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789.-*", k[i]))
			return "is not a rule id glob ('*' and id "
			       "characters)";
	return NULL;
}

static void read_rules_map(struct rd *r, const struct node *v, struct sbuf *ptr,
			   struct config_rules *out)
{
	size_t i, mark = ptr->len;
	const char *why;
	int s;

	if (!want(r, v, ptr, NODE_MAP))
		return;
	out->items =
	    arena_calloc(&r->c->arena, v->v.map.n + 1, sizeof *out->items);
	if (!out->items) {
		r->errs->failed = 1;
		return;
	}
	for (i = 0; i < v->v.map.n; i++) {
		const struct node *k = v->v.map.pairs[i].key;
		const struct node *val = v->v.map.pairs[i].value;
		struct config_rule *e = &out->items[out->n];

		doc_pointer_token(ptr, k);
		if (!want(r, k, ptr, NODE_STR)) {
			sbuf_truncate(ptr, mark);
			continue;
		}
		why = rule_key_problem(k->v.str.s, k->v.str.len);
		if (why)
			bad(r, k, ptr, "'%s' %s", k->v.str.s, why);
		s = read_word(r, val, ptr, sev_words,
			      "error, warning, info or \"off\" (quoted)");
		sbuf_truncate(ptr, mark);
		if (why || s < 0)
			continue;
		e->pattern = dup_str(r, k);
		e->glob = strchr(k->v.str.s, '*') != NULL;
		e->sev = s == 3 ? SEV_NONE : (enum severity)s;
		e->pos = pos_of(k);
		out->n++;
	}
}

static void read_rules(struct rd *r, const struct node *v, struct sbuf *ptr)
{
	read_rules_map(r, v, ptr, &r->c->rules);
}

/* The members of a route and of an override, in table order. */
static const char *const route_members[] = {"files", "pack", "kind", NULL};
static const char *const override_members[] = {"files", "rules", "strict",
					       NULL};

/* The index of key 'k' in 'names', or -1 (reported as unknown). */
static int member_of(struct rd *r, const struct node *k, struct sbuf *ptr,
		     const char *const *names)
{
	int i = word_of(k, names);

	if (i < 0)
		bad(r, k, ptr, "unknown key");
	return i;
}

static void read_string_member(struct rd *r, const struct node *v,
			       struct sbuf *ptr, const char **out,
			       struct config_pos *pos)
{
	if (!want(r, v, ptr, NODE_STR))
		return;
	*out = dup_str(r, v);
	*pos = pos_of(v);
}

static void read_route(struct rd *r, const struct node *v, struct sbuf *ptr,
		       struct config_route *rt)
{
	size_t i, mark = ptr->len;

	if (!want(r, v, ptr, NODE_MAP))
		return;
	for (i = 0; i < v->v.map.n; i++) {
		const struct node *val = v->v.map.pairs[i].value;

		doc_pointer_token(ptr, v->v.map.pairs[i].key);
		switch (
		    member_of(r, v->v.map.pairs[i].key, ptr, route_members)) {
		case 0:
			read_list(r, val, ptr, &rt->files, 1);
			break;
		case 1:
			read_string_member(r, val, ptr, &rt->pack,
					   &rt->pack_pos);
			break;
		case 2:
			read_string_member(r, val, ptr, &rt->kind,
					   &rt->kind_pos);
			break;
		default:
			break;
		}
		sbuf_truncate(ptr, mark);
	}
	if (!rt->files.given || !rt->pack)
		bad(r, v, ptr, "'files' and 'pack' are required");
}

static void read_override(struct rd *r, const struct node *v, struct sbuf *ptr,
			  struct config_override *ov)
{
	size_t i, mark = ptr->len;

	if (!want(r, v, ptr, NODE_MAP))
		return;
	for (i = 0; i < v->v.map.n; i++) {
		const struct node *val = v->v.map.pairs[i].value;

		doc_pointer_token(ptr, v->v.map.pairs[i].key);
		switch (member_of(r, v->v.map.pairs[i].key, ptr,
				  override_members)) {
		case 0:
			read_list(r, val, ptr, &ov->files, 1);
			break;
		case 1:
			read_rules_map(r, val, ptr, &ov->rules);
			break;
		case 2:
			ov->strict = read_bool(r, val, ptr);
			break;
		default:
			break;
		}
		sbuf_truncate(ptr, mark);
	}
	if (!ov->files.given)
		bad(r, v, ptr, "'files' is required");
}

static void read_routes(struct rd *r, const struct node *v, struct sbuf *ptr)
{
	size_t i, mark = ptr->len;
	struct config *c = r->c;

	if (!want(r, v, ptr, NODE_LIST))
		return;
	c->routes = arena_calloc(&c->arena, v->v.list.n + 1, sizeof *c->routes);
	if (!c->routes) {
		r->errs->failed = 1;
		return;
	}
	for (i = 0; i < v->v.list.n; i++) {
		struct config_route *rt = &c->routes[c->nroutes++];

		sbuf_addf(ptr, "/%zu", i);
		rt->pos = pos_of(v->v.list.items[i]);
		read_route(r, v->v.list.items[i], ptr, rt);
		sbuf_truncate(ptr, mark);
	}
}

static void read_overrides(struct rd *r, const struct node *v, struct sbuf *ptr)
{
	size_t i, mark = ptr->len;
	struct config *c = r->c;

	if (!want(r, v, ptr, NODE_LIST))
		return;
	c->overrides =
	    arena_calloc(&c->arena, v->v.list.n + 1, sizeof *c->overrides);
	if (!c->overrides) {
		r->errs->failed = 1;
		return;
	}
	for (i = 0; i < v->v.list.n; i++) {
		struct config_override *ov = &c->overrides[c->noverrides++];

		sbuf_addf(ptr, "/%zu", i);
		ov->strict = -1;
		ov->pos = pos_of(v->v.list.items[i]);
		read_override(r, v->v.list.items[i], ptr, ov);
		sbuf_truncate(ptr, mark);
	}
}

static void read_version(struct rd *r, const struct node *v, struct sbuf *ptr)
{
	if (!want(r, v, ptr, NODE_INT))
		return;
	if (v->v.i != 1)
		bad(r, v, ptr,
		    "configuration version %lld is not supported; expected 1",
		    (long long)v->v.i);
}

static void read_strict(struct rd *r, const struct node *v, struct sbuf *ptr)
{
	r->c->strict = read_bool(r, v, ptr);
}

static void read_fail_on(struct rd *r, const struct node *v, struct sbuf *ptr)
{
	static const char *const words[] = {"error", "warning", "info", "none",
					    NULL};

	r->c->fail_on =
	    read_word(r, v, ptr, words, "error, warning, info or none");
}

static void read_unrouted(struct rd *r, const struct node *v, struct sbuf *ptr)
{
	static const char *const words[] = {"skip", "error", NULL};

	r->c->unrouted_error = read_word(r, v, ptr, words, "skip or error");
}

static void read_jobs(struct rd *r, const struct node *v, struct sbuf *ptr)
{
	if (!want(r, v, ptr, NODE_INT))
		return;
	if (v->v.i < 0)
		bad(r, v, ptr, "jobs must be >= 0, found %lld",
		    (long long)v->v.i);
	else
		r->c->jobs = v->v.i;
}

static void read_waivers(struct rd *r, const struct node *v, struct sbuf *ptr)
{
	if (v->type == NODE_STR) {
		r->c->waivers_path = dup_str(r, v);
		return;
	}
	if (want(r, v, ptr, NODE_LIST))
		waivers_from_node(&r->c->waivers, v, r->c->file, sbuf_cstr(ptr),
				  r->errs);
}

static void read_baseline(struct rd *r, const struct node *v, struct sbuf *ptr)
{
	if (want(r, v, ptr, NODE_STR))
		r->c->baseline = dup_str(r, v);
}

static void read_limits(struct rd *r, const struct node *v, struct sbuf *ptr)
{
	size_t i, mark = ptr->len;
	struct config *c = r->c;

	if (!want(r, v, ptr, NODE_MAP))
		return;
	c->limits = arena_calloc(&c->arena, v->v.map.n + 1, sizeof *c->limits);
	if (!c->limits) {
		r->errs->failed = 1;
		return;
	}
	for (i = 0; i < v->v.map.n; i++) {
		const struct node *k = v->v.map.pairs[i].key;
		const struct node *val = v->v.map.pairs[i].value;

		doc_pointer_token(ptr, k);
		if (!want(r, k, ptr, NODE_STR)) {
			/* reported */
		} else if (!policy_limit_known(k->v.str.s, NULL)) {
			bad(r, k, ptr, "unknown limit '%s'", k->v.str.s);
		} else if (val->type == NODE_BIGINT ||
			   (val->type == NODE_INT && val->v.i < 1)) {
			bad(r, val, ptr,
			    "limit '%s' must be a positive integer below 2^63",
			    k->v.str.s);
		} else if (want(r, val, ptr, NODE_INT)) {
			c->limits[c->nlimits].name = dup_str(r, k);
			c->limits[c->nlimits].value = val->v.i;
			c->limits[c->nlimits++].pos = pos_of(k);
		}
		sbuf_truncate(ptr, mark);
	}
}

/* One reader per key of spec/core.md 3.2. */
static const struct {
	const char *key;
	void (*read)(struct rd *r, const struct node *v, struct sbuf *ptr);
} readers[] = {
    {"version", read_version},	   {"paths", read_paths},
    {"include", read_include},	   {"exclude", read_exclude},
    {"packs", read_packs},	   {"site_packs", read_site_packs},
    {"routes", read_routes},	   {"strict", read_strict},
    {"fail_on", read_fail_on},	   {"rules", read_rules},
    {"overrides", read_overrides}, {"waivers", read_waivers},
    {"baseline", read_baseline},   {"unrouted", read_unrouted},
    {"jobs", read_jobs},	   {"limits", read_limits},
};

static void read_root(struct rd *r, const struct node *root)
{
	struct sbuf ptr = SBUF_INIT;
	size_t i, j;

	if (!root || root->type == NODE_NULL)
		return;
	if (!want(r, root, &ptr, NODE_MAP))
		return;
	for (i = 0; i < root->v.map.n; i++) {
		const struct node *k = root->v.map.pairs[i].key;

		sbuf_reset(&ptr);
		doc_pointer_token(&ptr, k);
		for (j = 0; j < sizeof readers / sizeof readers[0]; j++)
			if (k->type == NODE_STR &&
			    strcmp(k->v.str.s, readers[j].key) == 0)
				break;
		if (j == sizeof readers / sizeof readers[0])
			bad(r, k, &ptr, "unknown key");
		else
			readers[j].read(r, root->v.map.pairs[i].value, &ptr);
	}
	if (ptr.failed)
		r->errs->failed = 1;
	sbuf_release(&ptr);
}

/* A bare `off` is the boolean false in YAML 1.1 (STYLE.md trap 16): say
 * so in the schema's message for each such value of a `rules` map. */
static void hint_bare_off(const struct node *rules, struct policy_errors *e,
			  size_t from)
{
	struct sbuf sb = SBUF_INIT;
	size_t i, j;

	if (!rules || rules->type != NODE_MAP)
		return;
	for (i = 0; i < rules->v.map.n; i++) {
		const struct node *v = rules->v.map.pairs[i].value;

		if (v->type != NODE_BOOL || v->v.b)
			continue;
		for (j = from; j < e->n; j++) {
			if (e->items[j].line != v->line ||
			    e->items[j].col != v->col)
				continue;
			sbuf_reset(&sb);
			sbuf_addf(&sb,
				  "%s; write \"off\" in quotes: YAML reads a "
				  "bare off as false",
				  e->items[j].message);
			if (!sb.failed)
				e->items[j].message =
				    arena_strdup(&e->arena, sbuf_cstr(&sb));
			if (!e->items[j].message)
				e->items[j].message = "";
		}
	}
	sbuf_release(&sb);
}

static void hint_all(const struct node *root, struct policy_errors *e,
		     size_t from)
{
	const struct node *ov = doc_get(root, "overrides");
	size_t i;

	hint_bare_off(doc_get(root, "rules"), e, from);
	for (i = 0; ov && ov->type == NODE_LIST && i < ov->v.list.n; i++)
		hint_bare_off(doc_get(ov->v.list.items[i], "rules"), e, from);
}

int config_load(struct config *c, const struct policy_load *ld,
		struct policy_errors *errs)
{
	struct yaml_file yf;
	struct sbuf path = SBUF_INIT;
	struct rd r = {c, errs};
	size_t before = errs->n;
	int rc = -1;

	yaml_file_init(&yf);
	if (*c->file == '/')
		sbuf_adds(&path, c->file);
	else
		sbuf_addf(&path, "%s/%s", c->cwd, c->file);
	if (policy_read_yaml(sbuf_cstr(&path), c->file, ld->file_bytes, &yf,
			     errs) != 0)
		goto done;
	if (policy_validate(ld, "infragate-config.yaml", yf.docs[0]->root,
			    c->file, errs) != 0) {
		hint_all(yf.docs[0]->root, errs, before);
		goto done;
	}
	read_root(&r, yf.docs[0]->root);
	rc = errs->n > before || errs->failed || c->arena.failed ? -1 : 0;
done:
	yaml_file_release(&yf);
	sbuf_release(&path);
	return rc;
}

/* ---- names that only the loaded packs can check ------------------------ */

static int selected_pack(const char *id, const char *const *sel, size_t n)
{
	const char *dot = strchr(id, '.');
	size_t len = dot ? (size_t)(dot - id) : strlen(id), i;

	if (!sel)
		return 1;
	for (i = 0; i < n; i++)
		if (strlen(sel[i]) == len && strncmp(sel[i], id, len) == 0)
			return 1;
	return 0;
}

static void check_rules(const struct config *c, const struct config_rules *rs,
			const char *ptr, const struct config_names *k,
			const char *const *sel, size_t nsel,
			struct policy_errors *errs)
{
	struct sbuf p = SBUF_INIT;
	size_t i;

	for (i = 0; i < rs->n; i++) {
		const struct config_rule *e = &rs->items[i];

		if (e->glob || !selected_pack(e->pattern, sel, nsel) ||
		    k->rule(k->ud, e->pattern))
			continue;
		sbuf_reset(&p);
		sbuf_adds(&p, ptr);
		doc_pointer_add(&p, e->pattern, strlen(e->pattern));
		policy_errors_add(errs, "input.type", c->file, e->pos.line,
				  e->pos.col, sbuf_cstr(&p),
				  "no available pack declares rule '%s'",
				  e->pattern);
	}
	sbuf_release(&p);
}

int config_check_names(const struct config *c, const struct config_names *k,
		       const char *const *selected, size_t nselected,
		       struct policy_errors *errs)
{
	char ptr[64];
	size_t i, before = errs->n;

	for (i = 0; k->pack && i < c->packs.n; i++) {
		if (k->pack(k->ud, c->packs.items[i]))
			continue;
		snprintf(ptr, sizeof ptr, "/packs/%zu", i);
		policy_errors_add(errs, "input.type", c->file,
				  c->packs.pos[i].line, c->packs.pos[i].col,
				  ptr, "unknown pack '%s'", c->packs.items[i]);
	}
	for (i = 0; i < c->nroutes; i++) {
		const struct config_route *rt = &c->routes[i];

		if (k->pack && !k->pack(k->ud, rt->pack)) {
			snprintf(ptr, sizeof ptr, "/routes/%zu/pack", i);
			policy_errors_add(errs, "input.type", c->file,
					  rt->pack_pos.line, rt->pack_pos.col,
					  ptr, "unknown pack '%s'", rt->pack);
		} else if (k->kind && rt->kind &&
			   !k->kind(k->ud, rt->pack, rt->kind)) {
			snprintf(ptr, sizeof ptr, "/routes/%zu/kind", i);
			policy_errors_add(errs, "input.type", c->file,
					  rt->kind_pos.line, rt->kind_pos.col,
					  ptr, "pack '%s' has no kind '%s'",
					  rt->pack, rt->kind);
		}
	}
	if (k->rule) {
		check_rules(c, &c->rules, "/rules", k, selected, nselected,
			    errs);
		for (i = 0; i < c->noverrides; i++) {
			snprintf(ptr, sizeof ptr, "/overrides/%zu/rules", i);
			check_rules(c, &c->overrides[i].rules, ptr, k, selected,
				    nselected, errs);
		}
	}
	return errs->n > before || errs->failed ? -1 : 0;
}
