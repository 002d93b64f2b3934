/*
 * validate.c: validation registries (spec/core.md 11): load and check a
 * registry (its schema, then the well-formedness rules of 11.3), compute
 * each point's figure in a fresh sandbox (with a mutation applied when one
 * is asked), and write the registry entry of 11.4; pack-defined registries
 * (11.5) hand the parsed registry to the pack's own function. The native
 * verb `infragate validate` renders the entries as the generic document or
 * as text.
 */
#include "core/engine/eng_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/engine/options.h"
#include "core/util/num.h"
#include "core/util/readfile.h"

struct registry {
	struct yaml_file yf;
	const struct node *root;
	const char *display;
};

static const char *str_of(const struct node *map, const char *k)
{
	const struct node *n = doc_get(map, k);

	return n && n->type == NODE_STR ? n->v.str.s : NULL;
}

static double num_of(const struct node *n)
{
	if (!n)
		return NAN;
	if (n->type == NODE_INT)
		return (double)n->v.i;
	if (n->type == NODE_FLOAT)
		return n->v.f;
	return NAN;
}

static void reg_error(struct engine_out *o, const char *file,
		      const struct node *at, const char *path, const char *fmt,
		      ...) __attribute__((format(printf, 5, 6)));

static void reg_error(struct engine_out *o, const char *file,
		      const struct node *at, const char *path, const char *fmt,
		      ...)
{
	char msg[DIAG_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	engine_out_error(o, "engine.registry", file, at ? at->line : 0,
			 at ? at->col : 0, path, "%s", msg);
}

/* Read a registry file and validate it against 'schema_file'. */
static int registry_load(struct engine *e, struct registry *reg,
			 const char *path, const char *display,
			 const char *schema_file, const char *schema_display,
			 struct engine_out *o)
{
	struct yaml_file sy;
	struct findings fs;
	struct schema *s;
	struct schema_env env;
	struct diag err;
	char *buf = NULL;
	size_t len, i;
	int rc = -1;

	yaml_file_init(&reg->yf);
	reg->display = display;
	diag_init(&err);
	if (readfile(path, display, e->limits.file_bytes, &buf, &len, &err) < 0) {
		engine_out_error(o, diag_id(&err), display, 0, 0, NULL, "%s", err.msg);
		return -1;
	}
	if (yaml_load(&reg->yf, buf, len, YAML_SINGLE, &e->limits.yaml, 0, &err) < 0) {
		free(buf);
		reg_error(o, display, NULL, NULL, "the registry does not load: %s",
			  err.msg);
		o->errors.items[o->errors.n - 1].line = err.line;
		o->errors.items[o->errors.n - 1].col = err.col;
		return -1;
	}
	free(buf);
	reg->root = reg->yf.ndocs ? reg->yf.docs[0]->root : NULL;
	/* The schema of the format. */
	yaml_file_init(&sy);
	if (readfile(schema_file, schema_display, e->limits.file_bytes, &buf, &len,
		     &err) < 0 ||
	    yaml_load(&sy, buf, len, YAML_SINGLE, &e->limits.yaml, 0, &err) < 0) {
		free(buf);
		engine_out_error(o, "engine.pack", schema_display, err.line, err.col,
				 NULL, "%s", err.msg);
		yaml_file_release(&sy);
		return -1;
	}
	free(buf);
	memset(&env, 0, sizeof env);
	s = schema_compile(sy.docs[0]->root, schema_display, &env, &err);
	if (!s) {
		engine_out_error(o, "engine.pack", schema_display, err.line, err.col,
				 NULL, "%s", err.msg);
		yaml_file_release(&sy);
		return -1;
	}
	findings_init(&fs, 100);
	if (!reg->root) {
		reg_error(o, display, NULL, NULL, "the registry is empty");
	} else if (schema_validate(s, reg->root, 0, &e->limits.re, &fs, &err) != 0) {
		for (i = 0; i < fs.n; i++)
			engine_out_error(o, "engine.registry", display, fs.items[i].line,
					 fs.items[i].col, fs.items[i].path, "%s",
					 fs.items[i].message);
		if (!fs.n)
			reg_error(o, display, reg->root, "", "%s", err.msg);
	} else {
		rc = 0;
	}
	findings_release(&fs);
	schema_free(s);
	yaml_file_release(&sy);
	return rc;
}

/* ---- well-formedness (spec/core.md 11.3) ---------------------------------- */

static int list_has(const struct node *list, const char *s)
{
	size_t i;

	if (!list || list->type != NODE_LIST)
		return 0;
	for (i = 0; i < list->v.list.n; i++)
		if (list->v.list.items[i]->type == NODE_STR &&
		    strcmp(list->v.list.items[i]->v.str.s, s) == 0)
			return 1;
	return 0;
}

static int ref_declared(const struct node *refs, const struct node *id)
{
	size_t i;

	for (i = 0; refs && i < refs->v.list.n; i++) {
		const struct node *r = doc_get(refs->v.list.items[i], "id");

		if (r && doc_equal(r, id))
			return 1;
	}
	return 0;
}

static int ref_in(const struct node *list, const struct node *id)
{
	size_t i;

	for (i = 0; list && list->type == NODE_LIST && i < list->v.list.n; i++)
		if (doc_equal(list->v.list.items[i], id))
			return 1;
	return 0;
}

static long check_int(const struct node *checks, const char *k, long dflt)
{
	const struct node *n = doc_get(checks, k);

	return n && n->type == NODE_INT ? (long)n->v.i : dflt;
}

static int well_formed(const struct registry *reg, const char *pack,
		       struct engine_out *o)
{
	const struct node *root = reg->root, *checks = doc_get(root, "checks");
	const struct node *points = doc_get(root, "points");
	const struct node *refs = doc_get(root, "references");
	const struct node *declined = doc_get(root, "declined");
	const struct node *kinds_req = doc_get(checks, "kinds_required");
	const struct node *refs_for = doc_get(checks, "refs_for");
	const struct node *forbidden = doc_get(checks, "forbidden_refs");
	const struct node *pn = doc_get(root, "pack");
	static const char *const kinds[] = { "calibrated", "emergent", "sanity" };
	double ratio = 0.20;
	long min_declined = check_int(checks, "min_declined", 1);
	long min_why = check_int(checks, "min_why_chars", 0);
	long min_note = check_int(checks, "min_note_chars", 0);
	size_t before = o->errors.n, i, j, k;
	const char *disp = reg->display;
	char ptr[64];

	if (doc_get(checks, "max_tolerance_ratio"))
		ratio = num_of(doc_get(checks, "max_tolerance_ratio"));
	if (strcmp(pn->v.str.s, pack) != 0)
		reg_error(o, disp, pn, "/pack", "the registry names pack '%s', not '%s'",
			  pn->v.str.s, pack);
	for (k = 0; k < 3; k++) {
		int want = kinds_req ? list_has(kinds_req, kinds[k]) : 1, seen = 0;

		for (i = 0; i < points->v.list.n; i++)
			if (strcmp(str_of(points->v.list.items[i], "kind"), kinds[k]) == 0)
				seen = 1;
		if (want && !seen)
			reg_error(o, disp, points, "/points",
				  "the registry has no %s point; every registry needs one",
				  kinds[k]);
	}
	for (i = 0; i < points->v.list.n; i++) {
		const struct node *p = points->v.list.items[i];
		const char *id = str_of(p, "id"), *kind = str_of(p, "kind");
		const struct node *pr = doc_get(p, "refs");
		double exp = num_of(doc_get(p, "expected"));
		double tol = num_of(doc_get(p, "tolerance"));
		size_t nrefs = pr ? pr->v.list.n : 0;
		int must_cite = refs_for ? list_has(refs_for, kind)
					 : strcmp(kind, "calibrated") == 0;

		snprintf(ptr, sizeof ptr, "/points/%zu", i);
		for (j = 0; j < i; j++)
			if (strcmp(str_of(points->v.list.items[j], "id"), id) == 0)
				reg_error(o, disp, doc_get(p, "id"), ptr,
					  "point id '%s' is used twice", id);
		if (must_cite && nrefs == 0)
			reg_error(o, disp, p, ptr,
				  "%s point '%s' cites no reference", kind, id);
		if (strcmp(kind, "sanity") == 0 && nrefs)
			reg_error(o, disp, pr, ptr,
				  "sanity point '%s' must cite no reference: it checks the model's own machinery",
				  id);
		for (j = 0; j < nrefs; j++) {
			const struct node *r = pr->v.list.items[j];

			if (refs && !ref_declared(refs, r))
				reg_error(o, disp, r, ptr,
					  "point '%s' cites a reference the registry does not declare",
					  id);
			if (ref_in(forbidden, r))
				reg_error(o, disp, r, ptr,
					  "point '%s' cites a reference no point may cite", id);
		}
		if (exp != 0 && isfinite(exp) && tol > ratio * fabs(exp))
			reg_error(o, disp, doc_get(p, "tolerance"), ptr,
				  "point '%s': tolerance %g is more than %g of the expected %g",
				  id, tol, ratio, exp);
		if (min_note > 0) {
			const char *note = str_of(p, "note");

			if (!note || (long)strlen(note) < min_note)
				reg_error(o, disp, p, ptr,
					  "point '%s' needs a note of at least %ld characters",
					  id, min_note);
		}
	}
	if (!declined || (long)declined->v.list.n < min_declined)
		reg_error(o, disp, declined ? declined : root, "/declined",
			  "the registry must decline at least %ld anchor(s), with reasons",
			  min_declined);
	for (i = 0; declined && i < declined->v.list.n; i++) {
		const struct node *d = declined->v.list.items[i];
		const char *what = str_of(d, "what"), *why = str_of(d, "why");

		snprintf(ptr, sizeof ptr, "/declined/%zu", i);
		if (!what[0] || !why[0] || (long)strlen(why) < min_why)
			reg_error(o, disp, d, ptr,
				  "a declined anchor needs a 'what' and a 'why' of at least %ld characters",
				  min_why > 1 ? min_why : 1);
	}
	return o->errors.n > before ? -1 : 0;
}

/* ---- settings --------------------------------------------------------------- */

/* Write 'base' with the members of 'over' replacing or following its own. */
static void merge_settings(struct sbuf *out, const struct node *base,
			   const struct node *over)
{
	size_t i, n = 0;

	sbuf_addc(out, '{');
	for (i = 0; base && base->type == NODE_MAP && i < base->v.map.n; i++) {
		const struct doc_pair *p = &base->v.map.pairs[i];
		const struct node *v = p->value;

		if (p->key->type != NODE_STR)
			continue;
		if (over && doc_get(over, p->key->v.str.s))
			v = doc_get(over, p->key->v.str.s);
		if (n++)
			sbuf_adds(out, ", ");
		json_write_str(out, p->key->v.str.s, p->key->v.str.len);
		sbuf_adds(out, ": ");
		doc_json_write(out, v);
	}
	for (i = 0; over && over->type == NODE_MAP && i < over->v.map.n; i++) {
		const struct doc_pair *p = &over->v.map.pairs[i];

		if (p->key->type != NODE_STR ||
		    (base && doc_get(base, p->key->v.str.s)))
			continue;
		if (n++)
			sbuf_adds(out, ", ");
		json_write_str(out, p->key->v.str.s, p->key->v.str.len);
		sbuf_adds(out, ": ");
		doc_json_write(out, p->value);
	}
	sbuf_addc(out, '}');
}

/* The settings a run sees: registry < mutation < caller. */
static int settings_for(const struct node *root, const struct node *mut,
			const char *override_json, struct sbuf *out)
{
	struct sbuf first = SBUF_INIT;
	struct doc_json_opts jo;
	struct doc d1, d2;
	struct diag err;
	int rc = 0;

	merge_settings(&first, doc_get(root, "settings"),
		       mut ? doc_get(mut, "settings") : NULL);
	if (!override_json) {
		sbuf_add(out, sbuf_cstr(&first), first.len);
		sbuf_release(&first);
		return 0;
	}
	memset(&jo, 0, sizeof jo);
	diag_init(&err);
	doc_init(&d1, 0);
	doc_init(&d2, 0);
	if (doc_json_parse(&d1, sbuf_cstr(&first), first.len, &jo, &err) < 0 ||
	    doc_json_parse(&d2, override_json, strlen(override_json), &jo, &err) < 0)
		rc = -1;
	else
		merge_settings(out, d1.root, d2.root);
	doc_release(&d1);
	doc_release(&d2);
	sbuf_release(&first);
	return rc;
}

/* ---- one registry ------------------------------------------------------------ */

static const struct node *find_mutation(const struct node *root,
					const char *name)
{
	const struct node *m = doc_get(root, "mutations");
	size_t i;

	for (i = 0; m && m->type == NODE_LIST && i < m->v.list.n; i++) {
		const char *n = str_of(m->v.list.items[i], "name");

		if (n && strcmp(n, name) == 0)
			return m->v.list.items[i];
	}
	return NULL;
}

static void write_opt_str(struct sbuf *b, const char *s)
{
	if (s)
		json_write_str(b, s, strlen(s));
	else
		sbuf_adds(b, "null");
}

static void write_number(struct sbuf *b, double v, int is_int)
{
	char buf[NUM_REPR_MAX];

	if (!isfinite(v)) {
		sbuf_adds(b, "null");
		return;
	}
	if (is_int && fabs(v) < 9e15)
		sbuf_addf(b, "%lld", (long long)v);
	else {
		num_repr(v, buf);
		sbuf_adds(b, buf);
	}
}

static int figures_match(struct engine_out *o, const struct registry *reg,
			 struct sandbox *sb, const char *pack)
{
	const struct node *points = doc_get(reg->root, "points");
	const struct node *muts = doc_get(reg->root, "mutations");
	const char *const *ids;
	size_t n, i, before = o->errors.n;

	for (i = 0; i < points->v.list.n; i++) {
		const char *id = str_of(points->v.list.items[i], "id");

		if (!sandbox_has_figure(sb, pack, id))
			reg_error(o, reg->display, points->v.list.items[i], NULL,
				  "point '%s' has no engine.figure in validation.lua", id);
	}
	n = sandbox_figure_ids(sb, pack, &ids);
	for (i = 0; i < n; i++) {
		size_t j, found = 0;

		for (j = 0; j < points->v.list.n; j++)
			if (strcmp(str_of(points->v.list.items[j], "id"), ids[i]) == 0)
				found = 1;
		if (!found)
			reg_error(o, reg->display, reg->root, "/points",
				  "engine.figure '%s' has no point in the registry", ids[i]);
	}
	for (i = 0; muts && i < muts->v.list.n; i++) {
		const char *m = str_of(muts->v.list.items[i], "name");

		if (!sandbox_has_mutation(sb, pack, m))
			reg_error(o, reg->display, muts->v.list.items[i], NULL,
				  "mutation '%s' has no engine.mutation in validation.lua", m);
	}
	n = sandbox_mutation_names(sb, pack, &ids);
	for (i = 0; i < n; i++)
		if (!find_mutation(reg->root, ids[i]))
			reg_error(o, reg->display, reg->root, "/mutations",
				  "engine.mutation '%s' is not listed in the registry", ids[i]);
	return o->errors.n > before ? -1 : 0;
}

/* The worker a registry runs in. A pack program's validate verb (host
 * not NULL) has its pack loaded already: without a mutation the registry
 * runs in that sandbox, which adds only validation.lua, instead of
 * compiling the pack a second time. A mutation changes pack globals, so
 * it, and `infragate validate`, get a fresh worker ('fresh', which the
 * caller releases when it is the one returned). */
static struct worker *run_worker(struct engine *e, struct worker *host, const char *mutation,
				 const char *pack, struct worker *fresh)
{
	if (host && !mutation)
		return host;
	worker_init(fresh, e);
	if (mutation) {
		fresh->mutation = mutation;
		fresh->mutation_pack = pack;
	}
	return fresh;
}

/* Compute the points and write the generic entry (spec/core.md 11.4). */
static int generic_entry(struct engine *e, struct worker *host, const struct registry *reg,
			 const char *pack, const char *mutation,
			 const char *settings_json, struct sbuf *entry, int *ok,
			 struct engine_out *o)
{
	const struct node *points = doc_get(reg->root, "points");
	const struct node *declined = doc_get(reg->root, "declined");
	const struct node *mut = NULL;
	size_t n = points->v.list.n, i;
	size_t counts[3] = { 0, 0, 0 }, passed = 0;
	struct sbuf settings = SBUF_INIT;
	const char **ids = calloc(n + 1, sizeof *ids);
	double *actual = calloc(n + 1, sizeof *actual);
	int *is_int = calloc(n + 1, sizeof *is_int);
	char **detail = calloc(n + 1, sizeof *detail);
	int *good = calloc(n + 1, sizeof *good);
	struct worker fresh, *w = run_worker(e, host, mutation, pack, &fresh);
	struct diag err;
	int rc = -1;

	if (!ids || !actual || !is_int || !detail || !good)
		goto done;
	if (mutation) {
		mut = find_mutation(reg->root, mutation);
		if (!mut) {
			engine_out_usage(o, "--mutate", "registry of pack '%s' has no mutation '%s'",
					 pack, mutation);
			goto done;
		}
	}
	if (worker_load_pack(w, pack, SB_LOAD_PACK | SB_LOAD_COMMANDS |
					       SB_LOAD_VALIDATION) < 0) {
		worker_fatal_out(w, o, w->fatal.code == DIAG_E_USAGE ? "cli.usage" : NULL);
		goto done;
	}
	if (figures_match(o, reg, w->sb, pack) < 0)
		goto done;
	if (settings_for(reg->root, mut, settings_json, &settings) < 0) {
		engine_out_error(o, "engine.error", NULL, 0, 0, NULL,
				 "the validation settings cannot be merged");
		goto done;
	}
	for (i = 0; i < n; i++)
		ids[i] = str_of(points->v.list.items[i], "id");
	diag_init(&err);
	if (sandbox_figures(w->sb, pack, ids, n, sbuf_cstr(&settings), mutation,
			    actual, is_int, detail, &err) < 0) {
		engine_out_error(o, "engine.error", NULL, 0, 0, NULL, "%s", err.msg);
		goto done;
	}
	for (i = 0; i < n; i++) {
		const struct node *p = points->v.list.items[i];
		double exp = num_of(doc_get(p, "expected"));
		double tol = num_of(doc_get(p, "tolerance"));

		/* A point is ok when |actual - expected| <= tolerance; a
		 * missing or non-finite actual fails. */
		good[i] = isfinite(actual[i]) && fabs(actual[i] - exp) <= tol;
		passed += (size_t)good[i];
	}
	*ok = passed == n;
	sbuf_adds(entry, "{\"pack\": ");
	json_write_str(entry, pack, strlen(pack));
	sbuf_addf(entry, ", \"ok\": %s, \"settings\": ", *ok ? "true" : "false");
	sbuf_add(entry, sbuf_cstr(&settings), settings.len);
	sbuf_adds(entry, ", \"points\": [");
	for (i = 0; i < n; i++) {
		const struct node *p = points->v.list.items[i];
		const char *kind = str_of(p, "kind");
		const struct node *refs = doc_get(p, "refs");

		counts[kind[0] == 'c' ? 0 : kind[0] == 'e' ? 1 : 2]++;
		if (i)
			sbuf_adds(entry, ", ");
		sbuf_adds(entry, "{\"id\": ");
		write_opt_str(entry, ids[i]);
		sbuf_adds(entry, ", \"kind\": ");
		write_opt_str(entry, kind);
		sbuf_adds(entry, ", \"figure\": ");
		write_opt_str(entry, str_of(p, "figure"));
		sbuf_adds(entry, ", \"expected\": ");
		doc_json_write(entry, doc_get(p, "expected"));
		sbuf_adds(entry, ", \"tolerance\": ");
		doc_json_write(entry, doc_get(p, "tolerance"));
		sbuf_adds(entry, ", \"actual\": ");
		write_number(entry, actual[i], is_int[i]);
		sbuf_addf(entry, ", \"ok\": %s, \"refs\": ", good[i] ? "true" : "false");
		if (refs)
			doc_json_write(entry, refs);
		else
			sbuf_adds(entry, "[]");
		sbuf_adds(entry, ", \"source\": ");
		write_opt_str(entry, str_of(p, "source"));
		sbuf_adds(entry, ", \"note\": ");
		write_opt_str(entry, str_of(p, "note"));
		sbuf_adds(entry, ", \"detail\": ");
		sbuf_adds(entry, detail[i] ? detail[i] : "{}");
		sbuf_addc(entry, '}');
	}
	sbuf_adds(entry, "], \"declined\": [");
	for (i = 0; declined && i < declined->v.list.n; i++) {
		const struct node *d = declined->v.list.items[i];

		if (i)
			sbuf_adds(entry, ", ");
		sbuf_adds(entry, "{\"what\": ");
		write_opt_str(entry, str_of(d, "what"));
		sbuf_adds(entry, ", \"why\": ");
		write_opt_str(entry, str_of(d, "why"));
		sbuf_addc(entry, '}');
	}
	sbuf_addf(entry, "], \"summary\": {\"points\": %zu, \"passed\": %zu, \"failed\": %zu, "
			 "\"calibrated\": %zu, \"emergent\": %zu, \"sanity\": %zu}}",
		  n, passed, n - passed, counts[0], counts[1], counts[2]);
	rc = entry->failed ? -1 : 0;
done:
	for (i = 0; detail && i < n; i++)
		free(detail[i]);
	free(detail);
	free(good);
	free(is_int);
	free(actual);
	free(ids);
	sbuf_release(&settings);
	if (w == &fresh)
		worker_release(&fresh);
	return rc;
}

static int pack_entry(struct engine *e, struct worker *host, const struct registry *reg,
		      const char *pack, const char *mutation,
		      const char *settings_json, struct sbuf *entry, int *ok,
		      struct engine_out *o)
{
	struct worker fresh, *w = run_worker(e, host, mutation, pack, &fresh);
	struct diag err;
	int rc = -1;

	if (worker_load_pack(w, pack, SB_LOAD_PACK | SB_LOAD_COMMANDS |
					      SB_LOAD_VALIDATION) < 0) {
		worker_fatal_out(w, o, NULL);
		goto done;
	}
	diag_init(&err);
	if (sandbox_registry_function(w->sb, pack, reg->root, settings_json, mutation,
				      entry, ok, &err) < 0) {
		/* A malformed registry names the node by pointer; its position
		 * is that node's, or its deepest existing ancestor's. */
		struct node *deepest = NULL, *at = NULL;

		if (err.path[0])
			at = doc_resolve((struct node *)(uintptr_t)reg->root, err.path,
					 &deepest);
		if (!at)
			at = deepest;
		engine_out_error(o, diag_id(&err), reg->display, at ? at->line : 0,
				 at ? at->col : 0, err.path[0] ? err.path : NULL, "%s",
				 err.msg);
		goto done;
	}
	rc = 0;
done:
	if (w == &fresh)
		worker_release(&fresh);
	return rc;
}

/* A pack may report its registry's load errors under its own id
 * (engine.pack's registry_error, core.md 11.5: promotion's
 * promotion.registry-malformed): rename the engine.registry errors from
 * 'first' on. Only on the error path, so the pack is loaded here again. */
static void name_registry_errors(struct engine *e, const char *pack,
				 struct engine_out *o, size_t first)
{
	const struct sb_pack_info *info;
	struct worker w;
	size_t i;

	worker_init(&w, e);
	if (worker_load_pack(&w, pack, SB_LOAD_PACK) == 0 &&
	    (info = sandbox_pack_info(w.sb, pack)) && info->registry_error) {
		for (i = first; i < o->errors.n; i++) {
			struct finding *f = &o->errors.items[i];

			if (f->rule && strcmp(f->rule, "engine.registry") == 0)
				f->rule = findings_strdup(&o->errors, info->registry_error);
		}
	}
	worker_release(&w);
}

int validate_pack(struct engine *e, struct worker *host, const char *pack, const char *file,
		  const char *mutation, const char *settings_json,
		  struct sbuf *entry, int *ok, struct engine_out *o)
{
	const struct packref *p = engine_pack(e, pack);
	struct registry reg;
	char schema[4096], shown[4096];
	const char *path, *display;
	struct stat st;
	size_t first_error;
	int rc = -1;

	*ok = 0;
	if (!p) {
		engine_out_usage(o, "PACK", "there is no pack '%s'", pack);
		return -1;
	}
	first_error = o->errors.n;
	path = file ? file : p->registry;
	if (!file && stat(path, &st) != 0) {
		engine_out_usage(o, "PACK", "pack '%s' has no validation registry", pack);
		return -1;
	}
	if (file)
		display = file;
	else if (p->site)
		snprintf(shown, sizeof shown, "%s/validation.yaml", p->chunk_dir),
			display = shown;
	else
		snprintf(shown, sizeof shown, "validation/%s.yaml", pack), display = shown;
	if (p->registry_schema) {
		snprintf(schema, sizeof schema, "%s", p->registry_schema);
	} else {
		engine_data_path(e, "schemas/infragate-registry.yaml", schema,
				 sizeof schema);
	}
	memset(&reg, 0, sizeof reg);
	if (registry_load(e, &reg, path, display, schema,
			  p->registry_schema ? p->registry_schema
					     : "schemas/infragate-registry.yaml",
			  o) < 0)
		goto done;
	if (p->registry_schema)
		rc = pack_entry(e, host, &reg, pack, mutation, settings_json, entry, ok, o);
	else if (well_formed(&reg, pack, o) == 0)
		rc = generic_entry(e, host, &reg, pack, mutation, settings_json, entry, ok, o);
done:
	yaml_file_release(&reg.yf);
	if (rc < 0)
		name_registry_errors(e, pack, o, first_error);
	return rc;
}

/* ---- `infragate validate` ------------------------------------------------------ */

static void text_entry(struct sbuf *out, const char *json, const char *mutation)
{
	struct doc_json_opts jo;
	const struct node *pts, *dec;
	struct diag err;
	struct doc d;
	size_t i;

	memset(&jo, 0, sizeof jo);
	diag_init(&err);
	doc_init(&d, 0);
	if (doc_json_parse(&d, json, strlen(json), &jo, &err) < 0) {
		doc_release(&d);
		return;
	}
	sbuf_addf(out, "validation registry of pack '%s'%s%s%s\n",
		  str_of(d.root, "pack") ? str_of(d.root, "pack") : "?",
		  mutation ? " under mutation '" : "", mutation ? mutation : "",
		  mutation ? "'" : "");
	pts = doc_get(d.root, "points");
	for (i = 0; pts && pts->type == NODE_LIST && i < pts->v.list.n; i++) {
		const struct node *p = pts->v.list.items[i];
		const struct node *okn = doc_get(p, "ok"), *v = doc_get(p, "verdict");
		const struct node *refs = doc_get(p, "refs");
		double a = num_of(doc_get(p, doc_get(p, "actual") ? "actual" : "value"));
		struct sbuf rb = SBUF_INIT;
		int good = okn ? okn->type == NODE_BOOL && okn->v.b
			       : v && v->type == NODE_STR &&
					 (strcmp(v->v.str.s, "PASS") == 0 ||
					  strcmp(v->v.str.s, "pass") == 0);

		if (refs)
			doc_json_write(&rb, refs);
		sbuf_addf(out, "  %-40s %-10s %-10s expected %-10.4g actual %-10.4g tol %-8.4g %s\n",
			  str_of(p, "id") ? str_of(p, "id") : "?",
			  str_of(p, "kind") ? str_of(p, "kind") : "",
			  rb.len ? sbuf_cstr(&rb) : "[]",
			  num_of(doc_get(p, "expected")), a,
			  num_of(doc_get(p, "tolerance")), good ? "PASS" : "FAIL");
		sbuf_release(&rb);
	}
	dec = doc_get(d.root, "declined");
	if (dec && dec->type == NODE_LIST && dec->v.list.n) {
		sbuf_adds(out, "  declined anchors:\n");
		for (i = 0; i < dec->v.list.n; i++)
			sbuf_addf(out, "    - %s: %s\n",
				  str_of(dec->v.list.items[i], "what")
					  ? str_of(dec->v.list.items[i], "what") : "",
				  str_of(dec->v.list.items[i], "why")
					  ? str_of(dec->v.list.items[i], "why") : "");
	}
	doc_release(&d);
}

int engine_validate(struct engine *e, const struct ap_result *res,
		    struct engine_out *o)
{
	const char *mutation = opt_text(res, "--mutate");
	const char *registry = opt_text(res, "--registry");
	const char *fmt = opt_text(res, "--format");
	int json = fmt && strcmp(fmt, "json") == 0, all_ok = 1, any = 0;
	struct sbuf regs = SBUF_INIT, text = SBUF_INIT;
	const char **packs = NULL;
	size_t n, i;
	int rc = 0;

	o->verb = "validate";
	o->program = "infragate validate";
	o->json = json;
	if ((mutation || registry) && res->noperands != 1) {
		engine_out_usage(o, mutation ? "--mutate" : "--registry",
				 "%s needs exactly one PACK", mutation ? "--mutate" : "--registry");
		return -1;
	}
	n = res->noperands;
	packs = calloc(e->npacks + n + 1, sizeof *packs);
	if (!packs)
		return -1;
	if (n) {
		for (i = 0; i < n; i++)
			packs[i] = res->operands[i];
	} else {
		struct stat st;

		for (i = 0; i < e->npacks; i++)
			if (stat(e->packs[i].registry, &st) == 0)
				packs[n++] = e->packs[i].name;
	}
	for (i = 0; i < n; i++) {
		struct sbuf entry = SBUF_INIT;
		int ok = 0;

		if (validate_pack(e, NULL, packs[i], registry, mutation, NULL, &entry, &ok, o) < 0) {
			sbuf_release(&entry);
			rc = -1;
			goto done;
		}
		if (any++)
			sbuf_adds(&regs, ", ");
		sbuf_add(&regs, sbuf_cstr(&entry), entry.len);
		text_entry(&text, sbuf_cstr(&entry), mutation);
		all_ok &= ok;
		sbuf_release(&entry);
	}
	if (json) {
		sbuf_adds(&o->out, "{\"tool\": \"infragate\", \"version\": ");
		json_write_str(&o->out, ENGINE_VERSION, strlen(ENGINE_VERSION));
		sbuf_adds(&o->out, ", \"verb\": \"validate\", \"mutation\": ");
		write_opt_str(&o->out, mutation);
		sbuf_addf(&o->out, ", \"ok\": %s, \"registries\": [", all_ok ? "true" : "false");
		sbuf_add(&o->out, sbuf_cstr(&regs), regs.len);
		sbuf_adds(&o->out, "]}\n");
	} else {
		sbuf_add(&o->out, sbuf_cstr(&text), text.len);
		sbuf_addf(&o->out, "%s\n",
			  n == 0 ? "no validation registry to run"
			  : all_ok ? "every point reproduced"
				   : "some points did not reproduce");
	}
	o->exit_code = all_ok ? 0 : 1;
done:
	free(packs);
	sbuf_release(&regs);
	sbuf_release(&text);
	return rc;
}
