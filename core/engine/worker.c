/*
 * worker.c: one worker of a run: a sandbox (created on first use, loading
 * packs lazily), the kinds' compiled schemas, and the evaluation of one
 * document (spec/core.md 5.4): schema, input-stage rules, check rules,
 * report objects, run-level values, then the owning pack's finding order.
 * A worker belongs to one thread; nothing here is shared.
 */
#include "core/engine/eng_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util/readfile.h"

void worker_init(struct worker *w, struct engine *e)
{
	memset(w, 0, sizeof *w);
	w->e = e;
	diag_init(&w->fatal);
	worker_host(w);
}

struct sibling {
	struct yaml_file yf;
	char *display;
};

void worker_release(struct worker *w)
{
	size_t i;

	for (i = 0; i < w->nwk; i++) {
		schema_free(w->wk[i].schema);
		schema_free(w->wk[i].detect);
	}
	free(w->wk);
	w->wk = NULL;
	w->nwk = 0;
	sandbox_free(w->sb);
	w->sb = NULL;
}

static void set_fatal(struct worker *w, const struct diag *d)
{
	if (!w->has_fatal) {
		w->fatal = *d;
		w->has_fatal = 1;
	}
}

void worker_fatal_out(const struct worker *w, struct engine_out *o, const char *id)
{
	const struct diag *d = &w->fatal;

	engine_out_error(o, d->id[0] ? d->id : id ? id : diag_id(d),
			 d->file[0] ? d->file : NULL, d->line, d->col,
			 d->path[0] ? d->path : NULL, "%s", d->msg);
}

struct sandbox *worker_sandbox(struct worker *w)
{
	struct sandbox_config cfg;
	struct diag err;

	if (w->sb)
		return w->sb;
	cfg.limits = w->e->limits;
	cfg.data_root = w->e->data_root;
	cfg.version = ENGINE_VERSION;
	cfg.host = &w->host;
	diag_init(&err);
	w->sb = sandbox_new(&cfg, &err);
	if (!w->sb)
		set_fatal(w, &err);
	return w->sb;
}

static int selected(const struct worker *w, const char *pack)
{
	size_t i;

	if (!w->selected)
		return 1;
	for (i = 0; i < w->nselected; i++)
		if (strcmp(w->selected[i], pack) == 0)
			return 1;
	return 0;
}

int worker_load_pack(struct worker *w, const char *pack, unsigned what)
{
	const struct packref *p = engine_pack(w->e, pack);
	struct sandbox *sb = worker_sandbox(w);
	struct pack_desc pd;
	struct diag err;
	const char *mutation = NULL;

	if (!sb)
		return -1;
	if (!p) {
		diag_init(&err);
		diag_set(&err, DIAG_E_PACK, 0, 0, "pack '%s' is not in this build", pack);
		set_fatal(w, &err);
		return -1;
	}
	if (sandbox_has_pack(sb, pack) && !(what & ~SB_LOAD_PACK))
		return 0;
	pd.name = p->name;
	pd.dir = p->dir;
	pd.chunk_dir = p->chunk_dir;
	pd.site = p->site;
	pd.rank = p->rank;
	if (w->mutation && w->mutation_pack && strcmp(w->mutation_pack, pack) == 0)
		mutation = w->mutation;
	diag_init(&err);
	if (sandbox_load_pack(sb, &pd, what, mutation, &err) < 0) {
		set_fatal(w, &err);
		return -1;
	}
	sandbox_set_active(sb, pack, selected(w, pack));
	return 0;
}

int worker_prepare(struct worker *w)
{
	size_t i;

	if (!worker_sandbox(w))
		return -1;
	for (i = 0; i < w->e->npacks; i++)
		if (w->e->packs[i].site &&
		    worker_load_pack(w, w->e->packs[i].name, SB_LOAD_PACK) < 0)
			return -1;
	return 0;
}

static int ensure_wk(struct worker *w)
{
	size_t n = w->e->nkinds;
	struct wkind *v;

	if (w->nwk >= n)
		return 0;
	v = realloc(w->wk, n * sizeof *v);
	if (!v)
		return -1;
	memset(v + w->nwk, 0, (n - w->nwk) * sizeof *v);
	w->wk = v;
	w->nwk = n;
	return 0;
}

struct id_ctx {
	struct worker *w;
	const char *pack;
};

static int id_known(void *ud, const char *id, int *check_stage)
{
	struct id_ctx *c = ud;
	const struct rule_info *r;

	*check_stage = 0;
	if (strncmp(id, "input.", 6) == 0)
		return core_id_info(id) != NULL;
	r = c->w->sb ? sandbox_rule(c->w->sb, id) : NULL;
	if (!r || !r->pack || strcmp(r->pack, c->pack) != 0)
		return 0;
	*check_stage = !r->input_stage;
	return 1;
}

/* $ref into a sibling schema file of the same folder. Siblings loaded for
 * one compile are freed right after it (the compiled schema keeps nothing
 * of them). */
struct sibling_ctx {
	struct id_ctx ids;
	const struct kind *kind;
	struct sibling *files;
	size_t n;
};

static int load_sibling(void *ud, const char *file, const struct node **root,
			const char **display, struct diag *err)
{
	struct sibling_ctx *c = ud;
	char dir[4096], path[4200], shown[4200];
	struct yaml_limits lim;
	struct sibling *v, *s;
	const char *slash;
	char *buf = NULL;
	size_t len;

	if (strchr(file, '/') || strcmp(file, "..") == 0 || file[0] == '.') {
		diag_set(err, DIAG_E_PACK, 0, 0,
			 "$ref file '%s' must be a file of the same folder", file);
		return -1;
	}
	snprintf(dir, sizeof dir, "%s", c->kind->file);
	slash = strrchr(dir, '/');
	if (slash)
		dir[slash - dir] = '\0';
	snprintf(path, sizeof path, "%s/%s", dir, file);
	snprintf(shown, sizeof shown, "%s", c->kind->display);
	slash = strrchr(shown, '/');
	snprintf(shown + (slash ? (size_t)(slash - shown) + 1 : 0),
		 sizeof shown - (slash ? (size_t)(slash - shown) + 1 : 0), "%s", file);
	v = realloc(c->files, (c->n + 1) * sizeof *v);
	if (!v)
		return -1;
	c->files = v;
	s = &c->files[c->n];
	yaml_file_init(&s->yf);
	s->display = strdup(shown);
	c->n++;
	yaml_limits_default(&lim);
	if (readfile(path, shown, 8388608, &buf, &len, err) < 0 ||
	    yaml_load(&s->yf, buf, len, YAML_SINGLE, &lim, 0, err) < 0) {
		free(buf);
		err->code = DIAG_E_PACK;
		return -1;
	}
	free(buf);
	*root = s->yf.ndocs ? s->yf.docs[0]->root : NULL;
	*display = s->display;
	if (!*root) {
		diag_set(err, DIAG_E_PACK, 0, 0, "$ref file '%s' is empty", file);
		return -1;
	}
	return 0;
}

static struct schema *compile_kind(struct worker *w, size_t k, int detect,
				   struct diag *err)
{
	const struct kind *kd = &w->e->kinds[k];
	struct sibling_ctx c;
	struct schema_env env;
	struct schema *s;
	size_t i;

	memset(&c, 0, sizeof c);
	c.ids.w = w;
	c.ids.pack = kd->pack;
	c.kind = kd;
	env.id_known = detect ? NULL : id_known;
	env.load_sibling = load_sibling;
	env.ud = &c;
	env.re_alloc = NULL;
	if (detect) {
		s = schema_compile(kd->detect, kd->display, &env, err);
	} else {
		/* The engine kept only the routing header: read the whole
		 * schema, as a sibling of itself. */
		const struct node *root = NULL;
		const char *display = NULL;
		const char *base = strrchr(kd->file, '/');

		s = NULL;
		if (load_sibling(&c, base ? base + 1 : kd->file, &root, &display,
				 err) == 0)
			s = schema_compile(root, kd->display, &env, err);
	}
	for (i = 0; i < c.n; i++) {
		yaml_file_release(&c.files[i].yf);
		free(c.files[i].display);
	}
	free(c.files);
	return s;
}

const struct schema *worker_schema(struct worker *w, size_t k,
				   struct diag *err)
{
	if (ensure_wk(w) < 0) {
		diag_set(err, DIAG_E_NOMEM, 0, 0, "out of memory");
		return NULL;
	}
	if (w->wk[k].schema_done)
		return w->wk[k].schema;
	if (worker_load_pack(w, w->e->kinds[k].pack, SB_LOAD_PACK) < 0) {
		*err = w->fatal;
		return NULL;
	}
	w->wk[k].schema = compile_kind(w, k, 0, err);
	w->wk[k].schema_done = 1;
	if (!w->wk[k].schema)
		set_fatal(w, err);
	return w->wk[k].schema;
}

const struct schema *worker_detect(struct worker *w, size_t k,
				   struct diag *err)
{
	if (ensure_wk(w) < 0) {
		diag_set(err, DIAG_E_NOMEM, 0, 0, "out of memory");
		return NULL;
	}
	if (!w->e->kinds[k].detect)
		return NULL;
	if (w->wk[k].detect_done)
		return w->wk[k].detect;
	w->wk[k].detect = compile_kind(w, k, 1, err);
	w->wk[k].detect_done = 1;
	if (!w->wk[k].detect)
		set_fatal(w, err);
	return w->wk[k].detect;
}

/* ---- evaluation ------------------------------------------------------------ */

static int cmp_position(const void *a, const void *b)
{
	const struct finding *x = a, *y = b;
	int c;

	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	c = strcmp(x->rule, y->rule);
	if (c)
		return c;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int cmp_rule(const void *a, const void *b)
{
	const struct finding *x = a, *y = b;

	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Sort the findings of one document as its pack asked (spec/core.md 5.4). */
static void order_findings(struct worker *w, const char *pack,
			   struct findings *fs, size_t start)
{
	const struct sb_pack_info *pi = sandbox_pack_info(w->sb, pack);
	size_t i, n = fs->n - start;

	if (!pi || pi->order == ORDER_EVALUATION || n < 2)
		return;
	for (i = start; i < fs->n; i++)
		fs->items[i].order = pi->order == ORDER_RULE
					     ? sandbox_order_key(w->sb, pack,
								 fs->items[i].rule)
					     : 0;
	qsort(fs->items + start, n, sizeof *fs->items,
	      pi->order == ORDER_RULE ? cmp_rule : cmp_position);
}

static int any_unusable(const struct findings *fs, size_t start)
{
	size_t i;

	for (i = start; i < fs->n; i++)
		if (fs->items[i].flags & FINDING_UNUSABLE)
			return 1;
	return 0;
}

static void budget_finding(struct findings *fs, const struct doc *doc,
			   const struct diag *d)
{
	struct finding f;

	memset(&f, 0, sizeof f);
	f.rule = "engine.budget";
	f.severity = SEV_ERROR;
	f.message = d->msg;
	f.line = doc->root ? doc->root->line : 0;
	f.col = doc->root ? doc->root->col : 0;
	f.path = "";
	f.document = doc->index;
	f.flags = FINDING_UNUSABLE;
	findings_add(fs, &f);
}

int worker_evaluate(struct worker *w, const struct doc *doc, size_t k,
		    const char *file, int strict, const struct eval_out *eo,
		    struct diag *err)
{
	const struct kind *kd = &w->e->kinds[k];
	const struct schema *s = worker_schema(w, k, err);
	struct findings *fs = eo->fs;
	struct sb_check_req req;
	size_t start = fs->n;
	struct diag d;
	long n;

	if (!s)
		return -1;
	diag_init(&d);
	n = schema_validate(s, doc->root, doc->index, &w->e->limits.re, fs, &d);
	if (n < 0)
		budget_finding(fs, doc, &d);
	if (n != 0)
		goto done;
	memset(&req, 0, sizeof req);
	req.doc = doc;
	req.kind = kd->name;
	req.owner = kd->pack;
	req.file = file;
	req.strict = strict;
	req.settings_json = w->settings_json;
	req.stage = SB_STAGE_INPUT;
	if (sandbox_check(w->sb, &req, eo->ran, fs, err) < 0)
		return -1;
	if (fs->n > start)
		goto done;
	req.stage = SB_STAGE_CHECK;
	if (sandbox_check(w->sb, &req, eo->ran, fs, err) < 0)
		return -1;
	if (eo->reports && !any_unusable(fs, start) &&
	    sandbox_reports(w->sb, &req, eo->program_reports, eo->reports, fs,
			    err) < 0)
		return -1;
	if (eo->items && !any_unusable(fs, start) &&
	    sandbox_collect(w->sb, &req, eo->items, eo->nitems, fs, err) < 0)
		return -1;
done:
	order_findings(w, kd->pack, fs, start);
	return 0;
}

/* ---- files for pack code ----------------------------------------------------- */

static int load_fail(struct sb_loaded *out, int collect, const struct diag *d,
		     int document, struct diag *err)
{
	if (!collect) {
		*err = *d;
		return -1;
	}
	findings_add_diag(&out->input, d, document);
	out->failed = 1;
	return 0;
}

int worker_load_file(struct worker *w, const struct sb_load_req *req,
		     int collect, struct sb_loaded *out, struct diag *err)
{
	const struct sandbox_limits *lim = &w->e->limits;
	struct diag d;
	char *buf = NULL;
	size_t len, i;
	int rc = 0;

	diag_init(&d);
	if (readfile(req->path, req->display, lim->file_bytes, &buf, &len, &d) < 0)
		return load_fail(out, collect, &d, -1, err);
	if (req->json) {
		struct doc_json_opts jo;

		memset(&jo, 0, sizeof jo);
		jo.max_depth = lim->yaml.depth;
		jo.max_nodes = lim->yaml.nodes;
		out->json_doc = calloc(1, sizeof *out->json_doc);
		if (!out->json_doc) {
			free(buf);
			diag_set(err, DIAG_E_NOMEM, 0, 0, "out of memory");
			return -1;
		}
		doc_init(out->json_doc, lim->yaml.doc_bytes);
		rc = doc_json_parse(out->json_doc, buf, len, &jo, &d);
	} else {
		rc = yaml_load(&out->file, buf, len,
			       req->stream ? YAML_STREAM : YAML_SINGLE, &lim->yaml,
			       0, &d);
	}
	free(buf);
	if (rc < 0)
		return load_fail(out, collect, &d, d.line ? 0 : -1, err);
	if (req->kind) {
		const struct kind *kd = engine_kind(w->e, req->kind);
		const struct schema *s;

		if (!kd) {
			diag_set(err, DIAG_E_ERROR, 0, 0, "unknown kind '%s'", req->kind);
			return -1;
		}
		s = worker_schema(w, engine_kind_index(w->e, kd), err);
		if (!s)
			return -1;
		for (i = 0; i < (out->json_doc ? 1 : out->file.ndocs); i++) {
			const struct doc *doc = out->json_doc ? out->json_doc
							      : out->file.docs[i];
			size_t before = out->input.n;
			long n = schema_validate(s, doc->root, doc->index, &lim->re,
						 &out->input, &d);

			if (n < 0) {
				diag_set(err, DIAG_E_BUDGET, 0, 0, "%s", d.msg);
				return -1;
			}
			if (n > 0) {
				const struct finding *f = &out->input.items[before];

				out->failed = 1;
				if (!collect) {
					diag_set(err, DIAG_E_TYPE, f->line, f->col, "%s",
						 f->message);
					diag_copy_text(err->id, sizeof err->id, f->rule);
					if (f->path)
						diag_set_path(err, f->path);
					return -1;
				}
			}
		}
	}
	return 0;
}
