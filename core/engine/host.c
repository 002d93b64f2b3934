/*
 * host.c: the services the engine offers pack code through the sandbox
 * (struct sandbox_host): kinds and their schemas, file loading, checks,
 * the lint runner, operand expansion, validation runs and the reporters.
 * Each callback turns the sandbox's request into the engine's own calls
 * and back; none keeps state of its own.
 */
#include "core/engine/eng_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *h_kind_pack(void *ud, const char *kind)
{
	struct worker *w = ud;

	return engine_kind_owner(w->e, kind);
}

static const struct schema *h_kind_schema(void *ud, struct sandbox *sb,
					  const char *kind, struct diag *err)
{
	struct worker *w = ud;
	const struct kind *k = engine_kind(w->e, kind);

	(void)sb;
	if (!k) {
		diag_set(err, DIAG_E_ERROR, 0, 0, "unknown kind '%s'", kind);
		return NULL;
	}
	return worker_schema(w, engine_kind_index(w->e, k), err);
}

static int h_site_pack(void *ud, size_t i, struct pack_desc *out)
{
	const struct engine *e = ((struct worker *)ud)->e;
	size_t k;

	for (k = 0; k < e->npacks; k++) {
		const struct packref *p = &e->packs[k];

		if (!p->site || i-- > 0)
			continue;
		out->name = p->name;
		out->dir = p->dir;
		out->chunk_dir = p->chunk_dir;
		out->site = 1;
		out->rank = p->rank;
		return 1;
	}
	return 0;
}

static int h_load(void *ud, const struct sb_load_req *req, int collect,
		  struct sb_loaded *out, struct diag *err)
{
	return worker_load_file(ud, req, collect, out, err);
}

static int h_check(void *ud, struct sandbox *sb, const struct doc *doc,
		   const char *kind, int strict, struct findings *out,
		   struct diag *err)
{
	struct worker *w = ud;
	const struct kind *k = engine_kind(w->e, kind);
	struct eval_out eo;

	(void)sb;
	if (!k) {
		diag_set(err, DIAG_E_ERROR, 0, 0, "unknown kind '%s'", kind);
		return -1;
	}
	memset(&eo, 0, sizeof eo);
	eo.fs = out;
	return worker_evaluate(w, doc, engine_kind_index(w->e, k), "-", strict,
			       &eo, err);
}

/* Copy the first error of an engine_out into a diag. */
static void out_to_diag(const struct engine_out *o, struct diag *err)
{
	const struct finding *f = o->errors.n ? &o->errors.items[0] : NULL;

	diag_set(err, o->usage ? DIAG_E_USAGE : DIAG_E_ERROR, f ? f->line : 0,
		 f ? f->col : 0, "%s", f ? f->message : "the run failed");
	if (f)
		diag_copy_text(err->id, sizeof err->id, f->rule);
	if (o->argument)
		diag_set_path(err, o->argument);
	else if (f && f->path)
		diag_set_path(err, f->path);
}

static int h_lint(void *ud, const struct sb_lint_req *req, struct sbuf *out,
		  struct sbuf *errout, int *exit_code, struct diag *err)
{
	struct worker *w = ud;
	struct lint_report r;
	struct engine_out o;
	struct lint_opts lo;
	int format, rc;

	format = report_format_parse(req->format ? req->format : "text");
	if (format < 0) {
		diag_set(err, DIAG_E_USAGE, 0, 0, "unknown format '%s'", req->format);
		diag_set_path(err, "--format");
		return -1;
	}
	lint_opts_init(&lo);
	lo.operands = req->operands;
	lo.noperands = req->noperands;
	lo.packs = &req->pack;
	lo.npacks = req->pack ? 1 : 0;
	lo.strict = req->strict;
	lo.format = format;
	lo.jobs = req->jobs;
	lo.verb = req->verb ? req->verb : "lint";
	lo.expand = req->expand;
	lo.stdin_filepath = req->stdin_filepath;
	lo.program_reports = 1;
	lo.settings_json = req->settings_json;
	engine_out_init(&o);
	lint_report_init(&r);
	rc = lint_run(w->e, &lo, &r, format, &o);
	if (rc == 0)
		*exit_code = r.exit_code;
	if (rc < 0)
		out_to_diag(&o, err);
	else
		sbuf_add(out, sbuf_cstr(&o.out), o.out.len);
	sbuf_add(errout, sbuf_cstr(&o.notes), o.notes.len);
	lint_report_release(&r);
	engine_out_release(&o);
	return rc;
}

static int h_expand(void *ud, const struct sb_expand_req *req,
		    struct sb_expanded **out, size_t *n, struct diag *err)
{
	struct worker *w = ud;
	struct expand_opts eo;
	struct expand_list l;
	size_t i;

	expand_opts_default(&eo);
	eo.recursive = req->recursive;
	eo.hidden = req->hidden;
	eo.dedupe = req->dedupe;
	eo.on_empty_error = req->on_empty_error;
	eo.suffixes = req->suffixes;
	eo.nsuffixes = req->nsuffixes;
	eo.pack_dir = req->pack_dir;
	eo.cwd = w->e->cwd;
	expand_list_init(&l);
	if (policy_expand(&l, req->operands, req->noperands, &eo, err) < 0) {
		expand_list_release(&l);
		return -1;
	}
	*out = calloc(l.n + 1, sizeof **out);
	if (!*out) {
		expand_list_release(&l);
		diag_set(err, DIAG_E_NOMEM, 0, 0, "out of memory");
		return -1;
	}
	for (i = 0; i < l.n; i++) {
		(*out)[i].display = strdup(l.items[i].display);
		(*out)[i].path = l.items[i].path ? strdup(l.items[i].path) : NULL;
		(*out)[i].error = l.items[i].error ? strdup(l.items[i].error) : NULL;
	}
	*n = l.n;
	expand_list_release(&l);
	return 0;
}

static int h_validate(void *ud, const char *pack, const char *mutation,
		      const char *settings_json, struct sbuf *out, int *ok,
		      struct diag *err)
{
	struct worker *w = ud;
	struct engine_out o;
	int rc;

	engine_out_init(&o);
	rc = validate_pack(w->e, w, pack, NULL, mutation, settings_json, out, ok, &o);
	if (rc < 0)
		out_to_diag(&o, err);
	engine_out_release(&o);
	return rc;
}

static const struct rule_info *lookup_rule(void *ud, const char *id)
{
	struct worker *w = ud;
	const struct rule_info *r = core_id_info(id);

	if (!r && w->sb)
		r = sandbox_rule(w->sb, id);
	return r;
}

static int h_report(void *ud, const struct findings *fs, const char *file,
		    const char *format, const char *verb, struct sbuf *out,
		    struct diag *err)
{
	struct worker *w = ud;
	struct lint_report r;
	struct lint_file *lf;
	int f = report_format_parse(format), rc;
	size_t i;

	if (f < 0) {
		diag_set(err, DIAG_E_USAGE, 0, 0, "unknown format '%s'", format);
		return -1;
	}
	lint_report_init(&r);
	r.verb = verb;
	r.version = ENGINE_VERSION;
	r.rules.find = lookup_rule;
	r.rules.ud = w;
	/* A finding that names a file (one record of several, say) is
	 * reported under it, files in order of first mention; the others,
	 * and an empty report, under 'file'. */
	for (i = 0; i < fs->n; i++) {
		const char *fname = fs->items[i].file ? fs->items[i].file : file;
		size_t k;

		for (k = 0; k < r.nfiles; k++)
			if (strcmp(r.files[k].display, fname) == 0)
				break;
		if (k == r.nfiles && !lint_report_add_file(&r, fname))
			goto nomem;
		lf = &r.files[k];
		findings_add(&lf->fs, &fs->items[i]);
	}
	if (!r.nfiles && !lint_report_add_file(&r, file))
		goto nomem;
	lint_report_finish(&r, 0);
	rc = report_write(&r, (enum report_format)f, out);
	lint_report_release(&r);
	if (rc < 0)
		diag_set(err, DIAG_E_NOMEM, 0, 0, "out of memory");
	return rc;
nomem:
	lint_report_release(&r);
	diag_set(err, DIAG_E_NOMEM, 0, 0, "out of memory");
	return -1;
}

void worker_host(struct worker *w)
{
	w->host.ud = w;
	w->host.kind_pack = h_kind_pack;
	w->host.kind_schema = h_kind_schema;
	w->host.load = h_load;
	w->host.check = h_check;
	w->host.lint = h_lint;
	w->host.expand = h_expand;
	w->host.validate = h_validate;
	w->host.report = h_report;
	w->host.site_pack = h_site_pack;
}

/* The rule lookup a lint report uses. */
const struct rule_info *worker_rule_info(void *ud, const char *id)
{
	return lookup_rule(ud, id);
}
