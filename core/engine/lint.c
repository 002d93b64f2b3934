/*
 * lint.c: the lint runner (spec/core.md 10): configuration, operands,
 * workers over files, run-level rules, severity overrides, suppression,
 * waivers and baselines, then the report. Files are handed to workers in
 * input order and their results kept by index, so the report is the same
 * bytes for every -j. Each worker owns its sandbox; the main thread does
 * everything that crosses files.
 */
#include "core/engine/eng_internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/engine/route.h"
#include "core/util/num.h"
#include "core/util/readfile.h"

#define LINT_MAX_JOBS 16

struct doc_ran {
	const char **ids;
	size_t n, alloc;
};

struct file_work {
	const struct expand_item *item;
	struct findings fs;
	struct sbuf reports;
	int routed;           /* at least one document was routed */
	struct yaml_file yf;  /* kept for run-level positions and comments */
	struct supp_set supp;
	int has_supp;
	struct doc_ran *ran;  /* per document */
	size_t nran;
	char **rules_ran;     /* evaluation order, unique */
	const char **rules_src; /* the sandbox's pointer of each, for note_ran */
	size_t nrules_ran, rules_alloc;
	struct sbuf notes;    /* -v routing decisions */
};

struct lint_run {
	struct engine *e;
	const struct lint_opts *lo;
	struct config cfg;
	int have_cfg;
	const char *const *selected;
	size_t nselected;
	int unrouted_error;
	int strict_default;
	struct expand_list files;
	struct file_work *work;
	size_t nwork;
	size_t next;
	pthread_mutex_t mu;
	struct worker *workers;
	size_t nworkers;
	struct sb_collected *items;
	size_t nitems;
	int build_reports; /* engine.report objects wanted (JSON, tests) */
};

void lint_opts_init(struct lint_opts *lo)
{
	memset(lo, 0, sizeof *lo);
	lo->strict = -1;
	lo->strict_default = 1;
	lo->fail_on = -1;
	lo->jobs = -1;
	lo->unrouted = -1;
	lo->format = FORMAT_TEXT;
	lo->verb = "lint";
}

/* ---- limits ------------------------------------------------------------------ */

static int set_limit(struct sandbox_limits *l, const char *name, long long v)
{
	if (strcmp(name, "file_bytes") == 0)
		l->file_bytes = (size_t)v;
	else if (strcmp(name, "documents") == 0)
		l->yaml.documents = (size_t)v;
	else if (strcmp(name, "depth") == 0)
		l->yaml.depth = (size_t)v;
	else if (strcmp(name, "nodes") == 0)
		l->yaml.nodes = (size_t)v;
	else if (strcmp(name, "expanded_nodes") == 0)
		l->yaml.expanded_nodes = (size_t)v;
	else if (strcmp(name, "scalar_bytes") == 0)
		l->yaml.scalar_bytes = (size_t)v;
	else if (strcmp(name, "findings") == 0)
		l->findings = (size_t)v;
	else if (strcmp(name, "instructions") == 0)
		l->instructions = (unsigned long long)v;
	else if (strcmp(name, "instructions_per_node") == 0)
		l->instructions_per_node = (unsigned long long)v;
	else if (strcmp(name, "command_instructions") == 0)
		l->command_instructions = (unsigned long long)v;
	else if (strcmp(name, "lua_memory_mb") == 0)
		l->memory_bytes = (size_t)v << 20;
	else if (strcmp(name, "regex_match_limit") == 0)
		l->re.match_limit = (uint32_t)v;
	else if (strcmp(name, "regex_depth_limit") == 0)
		l->re.depth_limit = (uint32_t)v;
	else if (strcmp(name, "regex_heap_kb") == 0)
		l->re.heap_kb = (uint32_t)v;
	else
		return -1;
	return 0;
}

static int apply_limits(struct lint_run *run, struct engine_out *o)
{
	struct engine *e = run->e;
	size_t i;

	if (run->have_cfg)
		for (i = 0; i < run->cfg.nlimits; i++)
			set_limit(&e->limits, run->cfg.limits[i].name,
				  run->cfg.limits[i].value);
	for (i = 0; i < run->lo->nlimits; i++) {
		const char *s = run->lo->limits[i], *eq = strchr(s, '=');
		char name[64];
		int64_t v;

		if (!eq || (size_t)(eq - s) >= sizeof name ||
		    num_parse_pyint(eq + 1, strlen(eq + 1), &v) < 0 || v <= 0) {
			engine_out_usage(o, "--limit",
					 "'%s' is not NAME=VALUE with a positive integer VALUE", s);
			return -1;
		}
		memcpy(name, s, (size_t)(eq - s));
		name[eq - s] = '\0';
		if (set_limit(&e->limits, name, v) < 0) {
			engine_out_usage(o, "--limit", "'%s' is not a limit; see the limits of the manual",
					 name);
			return -1;
		}
	}
	return 0;
}

/* ---- configuration ------------------------------------------------------------- */

static void errors_to_out(const struct policy_errors *pe, struct engine_out *o)
{
	size_t i;

	for (i = 0; i < pe->n; i++)
		engine_out_error(o, pe->items[i].id, pe->items[i].file,
				 pe->items[i].line, pe->items[i].col, pe->items[i].path,
				 "%s", pe->items[i].message);
}

static int rule_declared(void *ud, const char *id)
{
	struct lint_run *run = ud;
	struct worker *w = &run->workers[0];
	size_t i;

	if (core_id_info(id))
		return 1;
	/* Site packs and the id's own pack must be loaded to know. */
	for (i = 0; i < run->e->npacks; i++) {
		const char *p = run->e->packs[i].name;
		size_t n = strlen(p);

		if (strncmp(id, p, n) == 0 && id[n] == '.') {
			if (worker_load_pack(w, p, SB_LOAD_PACK) < 0)
				return 1;
			return sandbox_rule(w->sb, id) != NULL;
		}
	}
	return 0;
}

static int pack_exists(void *ud, const char *name)
{
	struct lint_run *run = ud;

	return engine_pack(run->e, name) != NULL;
}

static int kind_exists(void *ud, const char *pack, const char *kind)
{
	struct lint_run *run = ud;
	const struct kind *k = engine_kind(run->e, kind);

	return k && (!pack || strcmp(k->pack, pack) == 0);
}

static int load_config(struct lint_run *run, struct engine_out *o)
{
	struct engine *e = run->e;
	struct config_source src;
	struct policy_errors pe;
	struct policy_load ld;
	char schemas[4096];
	int rc;

	config_init(&run->cfg, e->cwd);
	run->have_cfg = 1;
	if (run->lo->no_config)
		return 0;
	memset(&src, 0, sizeof src);
	src.no_config = e->g.no_config;
	src.config = e->g.config;
	src.env = e->g.env_config;
	policy_errors_init(&pe);
	rc = config_discover(&run->cfg, &src, &pe);
	if (rc > 0) {
		engine_data_path(e, "schemas", schemas, sizeof schemas);
		ld.schemas_dir = schemas;
		ld.file_bytes = e->limits.file_bytes;
		rc = config_load(&run->cfg, &ld, &pe);
	}
	if (e->g.verbose)
		sbuf_addf(&o->notes, "configuration: %s\n",
			  rc > 0 || (rc == 0 && run->cfg.file) ? run->cfg.file : "none");
	if (rc < 0) {
		errors_to_out(&pe, o);
		policy_errors_release(&pe);
		return -1;
	}
	policy_errors_release(&pe);
	return 0;
}

/* ---- one file, in a worker -------------------------------------------------------- */

struct ran_ctx {
	struct file_work *fw;
	int document;
};

/* Whether 'id' is among v[0..n). Rule ids reach note_ran as the sandbox's
 * own string of each rule (r->info.id), one pointer per rule for the whole
 * run and ids unique, so the address decides: with some 60 rules per
 * document a text compare against every earlier one cost more than many
 * rules do. */
static int ran_before(const char *const *v, size_t n, const char *id)
{
	while (n-- > 0)
		if (v[n] == id)
			return 1;
	return 0;
}

static void note_ran(void *ud, const char *id)
{
	struct ran_ctx *c = ud;
	struct file_work *fw = c->fw;
	struct doc_ran *d;

	if (ran_before(fw->rules_src, fw->nrules_ran, id))
		goto per_doc;
	if (fw->nrules_ran == fw->rules_alloc) {
		size_t na = fw->rules_alloc ? fw->rules_alloc * 2 : 32;
		char **v = realloc(fw->rules_ran, na * sizeof *v);
		const char **src;

		if (!v)
			return;
		fw->rules_ran = v;
		src = realloc(fw->rules_src, na * sizeof *src);
		if (!src)
			return;
		fw->rules_src = src;
		fw->rules_alloc = na;
	}
	fw->rules_ran[fw->nrules_ran] = strdup(id);
	if (!fw->rules_ran[fw->nrules_ran])
		return;
	fw->rules_src[fw->nrules_ran++] = id;
per_doc:
	if (c->document < 0 || (size_t)c->document >= fw->nran)
		return;
	d = &fw->ran[c->document];
	if (ran_before(d->ids, d->n, id))
		return;
	if (d->n == d->alloc) {
		size_t na = d->alloc ? d->alloc * 2 : 8;
		const char **v = realloc(d->ids, na * sizeof *v);

		if (!v)
			return;
		d->ids = v;
		d->alloc = na;
	}
	/* The id lives in the worker's sandbox, alive until the run ends. */
	d->ids[d->n++] = id;
}

static void input_finding(struct file_work *fw, const struct diag *d,
			  int document)
{
	findings_add_diag(&fw->fs, d, document);
}

static int supp_known(void *ud, const char *pattern)
{
	struct worker *w = ud;
	const struct rule_info *const *all;
	size_t i, n;

	if (core_id_info(pattern))
		return 1;
	n = w->sb ? sandbox_rules(w->sb, &all) : 0;
	for (i = 0; i < n; i++)
		if (policy_id_match(pattern, all[i]->id))
			return 1;
	/* A pattern of a pack this worker did not load cannot be judged. */
	for (i = 0; i < w->e->npacks; i++) {
		const char *p = w->e->packs[i].name;
		size_t len = strlen(p);

		if (strncmp(pattern, p, len) == 0 && pattern[len] == '.' &&
		    !(w->sb && sandbox_has_pack(w->sb, p)))
			return 1;
	}
	return 0;
}

static int process_file(struct lint_run *run, struct worker *w,
			struct file_work *fw)
{
	const struct expand_item *it = fw->item;
	struct engine *e = run->e;
	struct route_ctx rc;
	struct supp_rules sr;
	struct diag d;
	char *buf = NULL;
	size_t len, i;
	int rc2;

	diag_init(&d);
	if (it->error) {
		diag_set(&d, DIAG_E_UNREADABLE, 0, 0, "%s", it->error);
		input_finding(fw, &d, -1);
		return 0;
	}
	if (readfile(it->path, it->display, e->limits.file_bytes, &buf, &len, &d) < 0) {
		input_finding(fw, &d, -1);
		return 0;
	}
	rc2 = yaml_load(&fw->yf, buf, len, YAML_STREAM, &e->limits.yaml, 1, &d);
	free(buf);
	if (rc2 < 0) {
		input_finding(fw, &d, d.line ? 0 : -1);
		return 0;
	}
	fw->ran = calloc(fw->yf.ndocs + 1, sizeof *fw->ran);
	fw->nran = fw->ran ? fw->yf.ndocs : 0;
	memset(&rc, 0, sizeof rc);
	rc.cfg = run->have_cfg ? &run->cfg : NULL;
	rc.relpath = it->relpath;
	rc.selected = run->selected;
	rc.nselected = run->nselected;
	rc.unrouted_error = run->unrouted_error;
	for (i = 0; i < fw->yf.ndocs; i++) {
		const struct doc *doc = fw->yf.docs[i];
		struct sbuf why = SBUF_INIT;
		struct ran_ctx ctx = { fw, doc->index };
		struct sb_ran ran = { note_ran, &ctx };
		struct eval_out eo;
		long k;
		int strict;

		k = route_document(w, &rc, doc, &fw->fs, &why, &d);
		if (e->g.verbose && k >= 0)
			sbuf_addf(&fw->notes, "%s#%d: %s (%s)\n", it->display,
				  doc->index, e->kinds[k].name, sbuf_cstr(&why));
		else if (e->g.verbose)
			sbuf_addf(&fw->notes, "%s#%d: %s\n", it->display, doc->index,
				  k == ROUTE_FAILED ? "not routed (input finding)"
						    : sbuf_cstr(&why));
		sbuf_release(&why);
		if (k == ROUTE_FATAL)
			return -1;
		if (k == ROUTE_FAILED) {
			fw->routed = 1;
			continue;
		}
		if (k < 0)
			continue;
		fw->routed = 1;
		strict = run->have_cfg
				 ? config_strict(&run->cfg, it->relpath, run->lo->strict,
						 run->strict_default)
				 : (run->lo->strict >= 0 ? run->lo->strict
							 : run->strict_default);
		memset(&eo, 0, sizeof eo);
		eo.fs = &fw->fs;
		eo.reports = run->build_reports && !fw->reports.len ? &fw->reports : NULL;
		eo.program_reports = run->lo->program_reports;
		eo.ran = &ran;
		{
			struct sb_collected *items = NULL;
			size_t nitems = 0, j;

			eo.items = &items;
			eo.nitems = &nitems;
			if (worker_evaluate(w, doc, (size_t)k, it->display, strict, &eo,
					    &d) < 0) {
				sandbox_collected_free(items, nitems);
				return -1;
			}
			if (nitems) {
				pthread_mutex_lock(&run->mu);
				for (j = 0; j < nitems; j++) {
					struct sb_collected *v = realloc(
						run->items,
						(run->nitems + 1) * sizeof *v);

					if (!v)
						break;
					run->items = v;
					v[run->nitems] = items[j];
					/* The file name must be the display, kept. */
					run->nitems++;
				}
				pthread_mutex_unlock(&run->mu);
				free(items);
			}
		}
	}
	supp_set_init(&fw->supp);
	fw->has_supp = 1;
	sr.known = supp_known;
	sr.ud = w;
	if (supp_parse(&fw->supp, it->display, &fw->yf, &sr, &fw->fs) < 0)
		return -1;
	/* Run-level findings are placed after the last file: keep the
	 * documents only when a loaded pack has such a rule. */
	if (!worker_has_run_rules(w))
		yaml_file_release(&fw->yf);
	return 0;
}

static struct file_work *next_file(struct lint_run *run)
{
	struct file_work *fw = NULL;

	pthread_mutex_lock(&run->mu);
	if (run->next < run->nwork)
		fw = &run->work[run->next++];
	pthread_mutex_unlock(&run->mu);
	return fw;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct lint_run *run = w->run;
	struct file_work *fw;

	if (worker_prepare(w) < 0)
		return NULL;
	while (!w->has_fatal && (fw = next_file(run)))
		if (process_file(run, w, fw) < 0 && !w->has_fatal) {
			diag_set(&w->fatal, DIAG_E_NOMEM, 0, 0,
				 "out of memory checking '%s'", fw->item->display);
			w->has_fatal = 1;
		}
	return NULL;
}

/* ---- after the workers ----------------------------------------------------------- */

struct emit_ctx {
	struct lint_run *run;
};

static void emit_run_finding(void *ud, const char *file, int document,
			     const struct finding *f)
{
	struct emit_ctx *c = ud;
	struct lint_run *run = c->run;
	size_t i;

	for (i = 0; i < run->nwork; i++) {
		struct file_work *fw = &run->work[i];
		struct finding g = *f;
		struct node *deep = NULL, *n;

		if (strcmp(fw->item->display, file) != 0)
			continue;
		if (document >= 0 && (size_t)document < fw->yf.ndocs) {
			n = doc_resolve(fw->yf.docs[document]->root,
					f->path ? f->path : "", &deep);
			if (!n)
				n = deep;
			if (n) {
				g.line = n->line;
				g.col = n->col;
				g.end_line = n->end_line;
				g.end_col = n->end_col;
			}
		}
		g.document = document;
		findings_add(&fw->fs, &g);
		return;
	}
}

static int run_level(struct lint_run *run, struct engine_out *o)
{
	struct worker *w = &run->workers[0];
	struct emit_ctx ec = { run };
	struct diag err;
	size_t i;

	if (!run->nitems)
		return 0;
	/* The values' rules belong to packs this worker may not have loaded. */
	for (i = 0; i < run->nitems; i++) {
		const char *id = run->items[i].rule;
		size_t p;

		for (p = 0; p < run->e->npacks; p++) {
			size_t n = strlen(run->e->packs[p].name);

			if (strncmp(id, run->e->packs[p].name, n) == 0 && id[n] == '.')
				worker_load_pack(w, run->e->packs[p].name, SB_LOAD_PACK);
		}
	}
	diag_init(&err);
	if (sandbox_run_checks(w->sb, run->items, run->nitems,
			       run->lo->strict != 0, emit_run_finding, &ec, &err) < 0) {
		engine_out_error(o, diag_id(&err), NULL, 0, 0, NULL, "%s", err.msg);
		return -1;
	}
	return 0;
}

static int jobs_for(const struct lint_run *run)
{
	long j = run->lo->jobs, cpus, byfiles;

	if (j < 0 && run->have_cfg && run->cfg.jobs >= 0)
		j = (long)run->cfg.jobs;
	if (j > 0)
		return j > LINT_MAX_JOBS ? LINT_MAX_JOBS : (int)j;
	cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (cpus < 1)
		cpus = 1;
	byfiles = (long)(run->nwork / 16);
	if (byfiles < 1)
		byfiles = 1;
	j = cpus < byfiles ? cpus : byfiles;
	return j > LINT_MAX_JOBS ? LINT_MAX_JOBS : (int)j;
}

static void free_work(struct lint_run *run)
{
	size_t i, j;

	for (i = 0; i < run->nwork; i++) {
		struct file_work *fw = &run->work[i];

		findings_release(&fw->fs);
		sbuf_release(&fw->reports);
		sbuf_release(&fw->notes);
		yaml_file_release(&fw->yf);
		if (fw->has_supp)
			supp_set_release(&fw->supp);
		for (j = 0; j < fw->nran; j++)
			free(fw->ran[j].ids);
		free(fw->ran);
		for (j = 0; j < fw->nrules_ran; j++)
			free(fw->rules_ran[j]);
		free(fw->rules_ran);
		free(fw->rules_src);
	}
	free(run->work);
	run->work = NULL;
}

/* Stale waivers or baseline entries, under their own file's entry. */
static int add_stale(struct lint_report *r, const char *file,
		     const struct waivers *w, const struct baseline *b)
{
	struct findings tmp;
	struct lint_file *lf;
	size_t i, n;

	findings_init(&tmp, 0);
	n = w ? waivers_stale(w, &tmp) : b ? baseline_stale(b, &tmp) : 0;
	if (n) {
		lf = lint_report_add_file(r, file);
		if (!lf) {
			findings_release(&tmp);
			return -1;
		}
		for (i = 0; i < tmp.n; i++)
			findings_add(&lf->fs, &tmp.items[i]);
	}
	findings_release(&tmp);
	return 0;
}

static int post_process(struct lint_run *run, struct lint_report *r,
			struct engine_out *o)
{
	const struct lint_opts *lo = run->lo;
	struct engine *e = run->e;
	struct waivers waivers, *wv = &waivers;
	struct baseline base, wbase;
	struct policy_errors pe;
	struct policy_load ld;
	char schemas[4096];
	int32_t today = 0;
	int use_base = 0, write_base = 0, rc = -1;
	size_t i, skipped = 0;
	struct diag err;

	waivers_init(&waivers);
	baseline_init(&base);
	baseline_init(&wbase);
	policy_errors_init(&pe);
	engine_data_path(e, "schemas", schemas, sizeof schemas);
	ld.schemas_dir = schemas;
	ld.file_bytes = e->limits.file_bytes;
	diag_init(&err);
	if (policy_today(lo->today, e->g.env_today, &today, &err) < 0) {
		engine_out_usage(o, err.path[0] ? err.path : "--today", "%s", err.msg);
		goto done;
	}
	if (!lo->no_waivers) {
		const char *wf = lo->waivers;

		if (!wf && run->have_cfg && run->cfg.waivers_path)
			wf = config_path(&run->cfg, run->cfg.waivers_path);
		if (wf && waivers_load(&waivers, wf, wf, &ld, &pe) < 0)
			goto errors;
		/* An inline list in the configuration stands in for a file. */
		if (!wf && run->have_cfg && run->cfg.waivers.loaded)
			wv = &run->cfg.waivers;
	}
	if (!lo->no_baseline && !lo->write_baseline) {
		const char *bf = lo->baseline;

		if (!bf && run->have_cfg && run->cfg.baseline)
			bf = config_path(&run->cfg, run->cfg.baseline);
		if (bf) {
			if (baseline_load(&base, bf, bf, e->cwd, &ld, &pe) < 0)
				goto errors;
			use_base = 1;
		}
	}
	if (lo->write_baseline) {
		if (baseline_set_path(&wbase, lo->write_baseline, lo->write_baseline,
				      e->cwd, &err) < 0) {
			engine_out_error(o, diag_id(&err), lo->write_baseline, 0, 0, NULL,
					 "%s", err.msg);
			goto done;
		}
		write_base = 1;
	}
	for (i = 0; i < run->nwork; i++) {
		struct file_work *fw = &run->work[i];
		const char *rel = fw->item->relpath;
		struct lint_file *lf;
		struct sbuf fp = SBUF_INIT;
		struct policy_ran *pr = NULL;
		size_t j;

		if (!fw->routed && fw->fs.n == 0) {
			skipped++;
			continue;
		}
		policy_apply_severity(run->have_cfg ? &run->cfg : NULL, lo->cli_rules,
				      rel, &fw->fs);
		if (fw->has_supp) {
			supp_apply(&fw->supp, &fw->fs);
			pr = calloc(fw->nran + 1, sizeof *pr);
			if (pr) {
				for (j = 0; j < fw->nran; j++) {
					pr[j].ids = fw->ran[j].ids;
					pr[j].n = fw->ran[j].n;
				}
				supp_report_unused(&fw->supp, pr, fw->nran, &fw->fs);
				free(pr);
			}
		}
		if (wv->loaded)
			waivers_apply(wv, &fw->fs, rel, today);
		if (!fw->item->is_stdin) {
			if (use_base && baseline_file_of(&base, fw->item->path, &fp) == 0)
				baseline_apply(&base, &fw->fs, sbuf_cstr(&fp));
			sbuf_reset(&fp);
			if (write_base && baseline_file_of(&wbase, fw->item->path, &fp) == 0)
				baseline_add(&wbase, sbuf_cstr(&fp), &fw->fs);
		}
		sbuf_release(&fp);
		lf = lint_report_add_file(r, fw->item->display);
		if (!lf)
			goto done;
		for (j = 0; j < fw->fs.n; j++)
			findings_add(&lf->fs, &fw->fs.items[j]);
		if (fw->reports.len)
			lf->report_members = strdup(sbuf_cstr(&fw->reports));
		lf->rules_ran = fw->rules_ran;
		lf->nrules_ran = fw->nrules_ran;
		fw->rules_ran = NULL;
		fw->nrules_ran = 0;
		fw->rules_alloc = 0;
	}
	if (lo->report_stale && wv->loaded &&
	    add_stale(r, wv->file ? wv->file : "waivers", wv, NULL) < 0)
		goto done;
	if (lo->report_stale && use_base &&
	    add_stale(r, base.file, NULL, &base) < 0)
		goto done;
	lint_report_finish(r, skipped);
	if (write_base) {
		int wrc = baseline_write(&wbase, ENGINE_VERSION, &err);

		if (wrc < 0) {
			engine_out_error(o, "engine.output", lo->write_baseline, 0, 0, NULL,
					 "%s", err.msg);
			goto done;
		}
		/* Written: the run exits as if every finding were baselined. */
		if (wrc == 0 && r->exit_code == 1)
			r->exit_code = 0;
	}
	rc = 0;
	goto done;
errors:
	errors_to_out(&pe, o);
done:
	policy_errors_release(&pe);
	waivers_release(&waivers);
	baseline_release(&base);
	baseline_release(&wbase);
	return rc;
}

/* ---- the run --------------------------------------------------------------------- */

static int expand_operands(struct lint_run *run, struct engine_out *o)
{
	const struct lint_opts *lo = run->lo;
	struct expand_opts eo;
	const char *const *ops = lo->operands;
	size_t n = lo->noperands, i;
	const char **paths = NULL;
	struct diag err;
	int rc;

	expand_opts_default(&eo);
	if (run->have_cfg)
		expand_opts_config(&eo, &run->cfg);
	eo.cwd = run->e->cwd;
	eo.stdin_filepath = lo->stdin_filepath;
	if (lo->expand) {
		eo.recursive = lo->expand->recursive;
		eo.hidden = lo->expand->hidden;
		eo.dedupe = lo->expand->dedupe;
		eo.on_empty_error = lo->expand->on_empty_error;
		eo.suffixes = lo->expand->suffixes;
		eo.nsuffixes = lo->expand->nsuffixes;
		eo.pack_dir = lo->expand->pack_dir;
	}
	if (n == 0 && run->have_cfg && run->cfg.paths.n && !eo.pack_dir) {
		paths = calloc(run->cfg.paths.n, sizeof *paths);
		if (!paths)
			return -1;
		for (i = 0; i < run->cfg.paths.n; i++)
			paths[i] = config_path(&run->cfg, run->cfg.paths.items[i]);
		ops = paths;
		n = run->cfg.paths.n;
	}
	if (n == 0 && !eo.pack_dir) {
		free(paths);
		engine_out_usage(o, "PATH", "no files to check: give a PATH or set 'paths' in the configuration");
		return -1;
	}
	diag_init(&err);
	rc = policy_expand(&run->files, ops, n, &eo, &err);
	free(paths);
	if (rc < 0) {
		if (err.code == DIAG_E_USAGE)
			engine_out_usage(o, err.path[0] ? err.path : "PATH", "%s", err.msg);
		else
			engine_out_error(o, diag_id(&err), NULL, 0, 0, NULL, "%s", err.msg);
		return -1;
	}
	return 0;
}

int lint_run(struct engine *e, const struct lint_opts *lo,
	     struct lint_report *r, int render, struct engine_out *o)
{
	struct sandbox_limits saved = e->limits;
	struct lint_run run;
	struct config_names names;
	struct policy_errors pe;
	pthread_t threads[LINT_MAX_JOBS];
	int jobs, rc = -1;
	size_t i, started = 0;

	memset(&run, 0, sizeof run);
	run.e = e;
	run.lo = lo;
	/* Report objects appear only in JSON (spec/core.md 8.4); building them
	 * for any other output costs a Lua call and a JSON encoding per file for
	 * nothing. Pack tests (no rendering) still build them, so a builder that
	 * fails is caught by `infragate test`. */
	run.build_reports = lo->format == FORMAT_JSON || render < 0;
	expand_list_init(&run.files);
	pthread_mutex_init(&run.mu, NULL);
	policy_errors_init(&pe);
	if (load_config(&run, o) < 0)
		goto done;
	if (run.cfg.site_packs.n) {
		const char **dirs = calloc(run.cfg.site_packs.n, sizeof *dirs);

		if (!dirs)
			goto done;
		for (i = 0; i < run.cfg.site_packs.n; i++)
			dirs[i] = config_path(&run.cfg, run.cfg.site_packs.items[i]);
		rc = engine_add_site_packs(e, dirs, run.cfg.site_packs.n, o);
		free(dirs);
		if (rc < 0)
			goto done;
		rc = -1;
	}
	if (apply_limits(&run, o) < 0)
		goto done;
	if (lo->npacks) {
		for (i = 0; i < lo->npacks; i++)
			if (!engine_pack(e, lo->packs[i])) {
				engine_out_usage(o, "--pack", "there is no pack '%s'",
						 lo->packs[i]);
				goto done;
			}
		run.selected = lo->packs;
		run.nselected = lo->npacks;
	} else if (run.cfg.packs.n) {
		run.selected = run.cfg.packs.items;
		run.nselected = run.cfg.packs.n;
	}
	run.unrouted_error = lo->unrouted >= 0 ? lo->unrouted
			   : run.cfg.unrouted_error > 0;
	run.strict_default = run.cfg.strict >= 0 ? run.cfg.strict : lo->strict_default;
	/* One worker exists from here on: it answers the configuration's
	 * questions about rule ids and runs the run-level rules. */
	run.workers = calloc(LINT_MAX_JOBS, sizeof *run.workers);
	if (!run.workers)
		goto done;
	for (i = 0; i < LINT_MAX_JOBS; i++) {
		worker_init(&run.workers[i], e);
		run.workers[i].run = &run;
		run.workers[i].selected = run.selected;
		run.workers[i].nselected = run.nselected;
		run.workers[i].settings_json = lo->settings_json;
	}
	run.nworkers = 1;
	if (worker_prepare(&run.workers[0]) < 0)
		goto fatal;
	names.rule = rule_declared;
	names.pack = pack_exists;
	names.kind = kind_exists;
	names.ud = &run;
	if (config_check_names(&run.cfg, &names, run.selected, run.nselected, &pe) < 0) {
		errors_to_out(&pe, o);
		goto done;
	}
	if (run.workers[0].has_fatal)
		goto fatal;
	if (expand_operands(&run, o) < 0)
		goto done;
	run.nwork = run.files.n;
	run.work = calloc(run.nwork + 1, sizeof *run.work);
	if (!run.work)
		goto done;
	for (i = 0; i < run.nwork; i++) {
		run.work[i].item = &run.files.items[i];
		findings_init(&run.work[i].fs, e->limits.findings);
		yaml_file_init(&run.work[i].yf);
	}
	jobs = jobs_for(&run);
	if (jobs <= 1) {
		worker_main(&run.workers[0]);
	} else {
		run.nworkers = (size_t)jobs;
		for (i = 0; i < (size_t)jobs; i++) {
			if (pthread_create(&threads[i], NULL, worker_main,
					   &run.workers[i]) != 0)
				break;
			started++;
		}
		if (!started)
			worker_main(&run.workers[0]);
		for (i = 0; i < started; i++)
			pthread_join(threads[i], NULL);
	}
	for (i = 0; i < run.nworkers; i++)
		if (run.workers[i].has_fatal) {
			run.workers[0].fatal = run.workers[i].fatal;
			run.workers[0].has_fatal = 1;
			goto fatal;
		}
	if (e->g.verbose)
		for (i = 0; i < run.nwork; i++)
			sbuf_add(&o->notes, sbuf_cstr(&run.work[i].notes),
				 run.work[i].notes.len);
	if (run_level(&run, o) < 0)
		goto done;
	r->verb = lo->verb;
	r->version = ENGINE_VERSION;
	r->quiet = lo->quiet;
	r->show_suppressed = lo->show_suppressed;
	r->color = e->g.color;
	r->fail_on = lo->fail_on >= 0 ? (enum severity)lo->fail_on
		   : run.cfg.fail_on >= 0 ? (enum severity)run.cfg.fail_on : SEV_ERROR;
	r->rules.find = worker_rule_info;
	r->rules.ud = &run.workers[0];
	if (post_process(&run, r, o) < 0)
		goto done;
	/* Rule records live in the workers' sandboxes: render while they
	 * exist. */
	rc = 0;
	if (render >= 0 && lint_render(r, render, o) < 0)
		rc = -1;
	goto done;
fatal:
	worker_fatal_out(&run.workers[0], o, NULL);
done:
	policy_errors_release(&pe);
	free_work(&run);
	if (run.workers) {
		for (i = 0; i < LINT_MAX_JOBS; i++)
			worker_release(&run.workers[i]);
		free(run.workers);
	}
	sandbox_collected_free(run.items, run.nitems);
	expand_list_release(&run.files);
	if (run.have_cfg)
		config_release(&run.cfg);
	pthread_mutex_destroy(&run.mu);
	e->limits = saved;
	return rc;
}

int lint_render(const struct lint_report *r, int format, struct engine_out *o)
{
	if (report_write(r, (enum report_format)format, &o->out) < 0) {
		engine_out_error(o, "engine.output", NULL, 0, 0, NULL,
				 "the report does not fit in memory");
		return -1;
	}
	return 0;
}

int worker_has_run_rules(const struct worker *w)
{
	const struct rule_info *const *all;
	size_t i, n = w->sb ? sandbox_rules(w->sb, &all) : 0;

	for (i = 0; i < n; i++)
		if (all[i]->run_level)
			return 1;
	return 0;
}
