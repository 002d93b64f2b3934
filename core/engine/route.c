/*
 * route.c: which kind a document is (spec/core.md 4.4): a configuration
 * route, then `kind`/`apiVersion`, then declarative detection, then the one
 * selected pack's default kind; what is left is skipped, or input.kind when
 * unrouted documents are errors or the kind is a near miss of a known one.
 * Routing runs no Lua.
 */
#include "core/engine/eng_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/util/names.h"

#include "core/engine/route.h"

static int eq_nocase(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a >= 'A' && *a <= 'Z' ? (char)(*a - 'A' + 'a') : *a;
		char y = *b >= 'A' && *b <= 'Z' ? (char)(*b - 'A' + 'a') : *b;

		if (x != y)
			return 0;
	}
	return *a == *b;
}

/* The text documents of a kind carry in `kind`. */
static const char *kind_text(const struct kind *k)
{
	return k->kind_value ? k->kind_value : k->name;
}

static void add_input(struct findings *fs, const struct doc *doc,
		      const struct node *at, const char *id, const char *path,
		      const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static void add_input(struct findings *fs, const struct doc *doc,
		      const struct node *at, const char *id, const char *path,
		      const char *fmt, ...)
{
	char msg[DIAG_MSG_MAX];
	struct finding f;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	memset(&f, 0, sizeof f);
	f.rule = id;
	f.severity = SEV_ERROR;
	f.message = msg;
	if (!at)
		at = doc->root;
	f.line = at ? at->line : 0;
	f.col = at ? at->col : 0;
	f.end_line = at ? at->end_line : 0;
	f.end_col = at ? at->end_col : 0;
	f.path = path;
	f.document = doc->index;
	f.flags = FINDING_UNUSABLE;
	findings_add(fs, &f);
}

static int in_selection(const struct route_ctx *rc, const char *pack)
{
	size_t i;

	if (!rc->selected)
		return 1;
	for (i = 0; i < rc->nselected; i++)
		if (strcmp(rc->selected[i], pack) == 0)
			return 1;
	return 0;
}

/* Detection over the kinds of 'pack' (NULL: all). -1 none, -2 ambiguous
 * (finding added), -3 fatal, else the kind. */
static long detect(struct worker *w, const struct route_ctx *rc,
		   const struct doc *doc, const char *pack, struct findings *fs,
		   struct diag *err)
{
	const struct engine *e = w->e;
	long found = -1;
	size_t i;
	char names[512] = "";

	for (i = 0; i < e->nkinds; i++) {
		const struct kind *k = &e->kinds[i];
		const struct schema *s;
		int ok;

		if (!k->detect || (pack && strcmp(k->pack, pack) != 0))
			continue;
		if (!pack && !in_selection(rc, k->pack))
			continue;
		s = worker_detect(w, i, err);
		if (!s)
			return -3;
		ok = schema_accepts(s, doc->root, &e->limits.re);
		if (ok <= 0)
			continue;
		if (found >= 0) {
			size_t n = strlen(names);

			if (n == 0)
				snprintf(names, sizeof names, "'%s'",
					 e->kinds[found].name);
			n = strlen(names);
			snprintf(names + n, sizeof names - n, ", '%s'", k->name);
			found = -2;
			continue;
		}
		if (found == -2) {
			size_t n = strlen(names);

			snprintf(names + n, sizeof names - n, ", '%s'", k->name);
			continue;
		}
		found = (long)i;
	}
	if (found == -2)
		add_input(fs, doc, NULL, "input.kind", "",
			  "the document matches several kinds (%s); add a 'kind' key",
			  names);
	return found;
}

static long default_kind(const struct engine *e, const char *pack)
{
	size_t i;

	for (i = 0; i < e->nkinds; i++)
		if (e->kinds[i].is_default && strcmp(e->kinds[i].pack, pack) == 0)
			return (long)i;
	return -1;
}

/* The kind whose name or kind_value is 'text', honouring api_version. */
static long kind_by_text(const struct engine *e, const char *text,
			 const char *api, int *ambiguous, int *api_mismatch)
{
	long found = -1;
	size_t i, n = 0;

	*ambiguous = 0;
	*api_mismatch = 0;
	for (i = 0; i < e->nkinds; i++) {
		const struct kind *k = &e->kinds[i];

		if (strcmp(kind_text(k), text) != 0)
			continue;
		n++;
		if (api && k->api_version && strcmp(api, k->api_version) == 0)
			return (long)i;
		if (found < 0)
			found = (long)i;
	}
	if (n > 1 && !api)
		*ambiguous = 1;
	if (found >= 0 && api) {
		const struct kind *k = &e->kinds[found];

		if (k->api_version && strcmp(api, k->api_version) != 0)
			*api_mismatch = 1;
	}
	return found;
}

/* A near miss: equal ignoring case, or within two edits of a kind of six
 * characters or more. Returns the kind or -1. */
static long near_miss(const struct engine *e, const char *text)
{
	size_t i;

	for (i = 0; i < e->nkinds; i++) {
		const char *name = kind_text(&e->kinds[i]);

		if (eq_nocase(name, text) ||
		    (strlen(name) >= 6 && name_distance(name, text) <= 2))
			return (long)i;
	}
	return -1;
}

long route_document(struct worker *w, const struct route_ctx *rc,
		    const struct doc *doc, struct findings *fs, struct sbuf *why,
		    struct diag *err)
{
	struct engine *e = w->e;
	const struct node *root = doc->root, *kn = NULL, *an = NULL;
	const char *ktext = NULL, *api = NULL;
	const struct config_route *route = NULL;
	long k = -1;
	size_t i;
	int amb, mism;

	if (engine_kinds_load(e, NULL) < 0) {
		diag_set(err, DIAG_E_PACK, 0, 0, "the kinds' schemas do not load");
		return ROUTE_FATAL;
	}
	if (root && root->type == NODE_MAP) {
		kn = doc_get(root, "kind");
		an = doc_get(root, "apiVersion");
		if (kn && kn->type == NODE_STR)
			ktext = kn->v.str.s;
		if (an && an->type == NODE_STR)
			api = an->v.str.s;
	}
	/* 1. A configuration route. */
	if (rc->cfg && rc->relpath)
		for (i = 0; i < rc->cfg->nroutes && !route; i++)
			if (glob_match_any(rc->cfg->routes[i].files.items,
					   rc->cfg->routes[i].files.n, rc->relpath))
				route = &rc->cfg->routes[i];
	if (route) {
		sbuf_addf(why, "route %zu", (size_t)(route - rc->cfg->routes) + 1);
		if (route->kind) {
			const struct kind *kd = engine_kind(e, route->kind);

			if (!kd)
				return ROUTE_SKIP;
			k = (long)engine_kind_index(e, kd);
			if (ktext && strcmp(ktext, kind_text(kd)) != 0) {
				add_input(fs, doc, kn, "input.type", "/kind",
					  "this file is routed to kind '%s', but the document says kind '%s'",
					  kd->name, ktext);
				return ROUTE_FAILED;
			}
		} else if (ktext) {
			k = kind_by_text(e, ktext, api, &amb, &mism);
			if (k < 0 || strcmp(e->kinds[k].pack, route->pack) != 0) {
				add_input(fs, doc, kn, "input.type", "/kind",
					  "this file is routed to pack '%s', which has no kind '%s'",
					  route->pack, ktext);
				return ROUTE_FAILED;
			}
		} else {
			k = detect(w, rc, doc, route->pack, fs, err);
			if (k == -3)
				return ROUTE_FATAL;
			if (k == -2)
				return ROUTE_FAILED;
			if (k < 0)
				k = default_kind(e, route->pack);
			if (k < 0) {
				add_input(fs, doc, NULL, "input.kind", "",
					  "this file is routed to pack '%s', but no kind of it matches the document",
					  route->pack);
				return ROUTE_FAILED;
			}
		}
		goto found;
	}
	/* 2. kind and apiVersion. */
	if (ktext) {
		k = kind_by_text(e, ktext, api, &amb, &mism);
		if (k >= 0 && amb) {
			add_input(fs, doc, kn, "input.kind", "/kind",
				  "kind '%s' is declared by several packs; add the apiVersion of one",
				  ktext);
			return ROUTE_FAILED;
		}
		if (k >= 0 && mism) {
			add_input(fs, doc, an, "input.type", "/apiVersion",
				  "kind '%s' expects apiVersion '%s'", ktext,
				  e->kinds[k].api_version);
			return ROUTE_FAILED;
		}
		if (k >= 0) {
			sbuf_adds(why, "kind");
			goto found;
		}
	}
	/* 3. Detection, only for documents without a kind. */
	if (!kn) {
		k = detect(w, rc, doc, NULL, fs, err);
		if (k == -3)
			return ROUTE_FATAL;
		if (k == -2)
			return ROUTE_FAILED;
		if (k >= 0) {
			sbuf_adds(why, "detected");
			goto found;
		}
	}
	/* 4. One selected pack with a default kind. */
	if (rc->selected && rc->nselected == 1 && !ktext) {
		k = default_kind(e, rc->selected[0]);
		if (k >= 0) {
			sbuf_adds(why, "default kind");
			goto found;
		}
	}
	/* 5. Unrouted. */
	if (ktext) {
		long miss = near_miss(e, ktext);

		if (miss >= 0) {
			add_input(fs, doc, kn, "input.kind", "/kind",
				  "unknown kind '%s' (did you mean '%s'?)", ktext,
				  kind_text(&e->kinds[miss]));
			return ROUTE_FAILED;
		}
	}
	if (rc->unrouted_error) {
		if (ktext)
			add_input(fs, doc, kn, "input.kind", "/kind",
				  "no pack has a kind '%s'", ktext);
		else
			add_input(fs, doc, NULL, "input.kind", "",
				  "no pack claims this document (it has no 'kind')");
		return ROUTE_FAILED;
	}
	sbuf_adds(why, ktext ? "skipped (unknown kind)" : "skipped (no kind)");
	return ROUTE_SKIP;
found:
	if (!in_selection(rc, e->kinds[k].pack)) {
		sbuf_adds(why, ", pack not selected: skipped");
		return ROUTE_SKIP;
	}
	return k;
}
