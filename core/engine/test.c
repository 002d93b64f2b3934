/*
 * test.c: `infragate test` (spec/core.md 12): a pack's own tests. Every
 * rule and declared id has a README section; good fixtures pass clean;
 * bad fixtures meet their expectation files; every id is expected by some
 * fixture; the registry is green and each mutation fails exactly its red
 * set. Fixtures are linted through the same runner as `infragate lint`,
 * with the pack selected and no configuration.
 */
#include "core/engine/eng_internal.h"

#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/engine/options.h"
#include "core/util/readfile.h"

struct test {
	char *name;
	const char *type;
	int ok;
	struct sbuf problems; /* one problem per line */
};

struct pack_tests {
	const char *pack;
	struct test *tests;
	size_t n, alloc;
};

static struct test *new_test(struct pack_tests *pt, const char *type,
			     const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static struct test *new_test(struct pack_tests *pt, const char *type,
			     const char *fmt, ...)
{
	struct test *t;
	char name[1024];
	va_list ap;

	if (pt->n == pt->alloc) {
		size_t na = pt->alloc ? pt->alloc * 2 : 16;
		struct test *v = realloc(pt->tests, na * sizeof *v);

		if (!v)
			return NULL;
		pt->tests = v;
		pt->alloc = na;
	}
	t = &pt->tests[pt->n++];
	va_start(ap, fmt);
	vsnprintf(name, sizeof name, fmt, ap);
	va_end(ap);
	t->name = strdup(name);
	t->type = type;
	t->ok = 1;
	sbuf_init(&t->problems);
	return t;
}

static void problem(struct test *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void problem(struct test *t, const char *fmt, ...)
{
	va_list ap;

	t->ok = 0;
	va_start(ap, fmt);
	sbuf_vaddf(&t->problems, fmt, ap);
	va_end(ap);
	sbuf_addc(&t->problems, '\n');
}

static int is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Fixture files of a folder: *.yaml and *.yml, not *.expect.yaml. */
static char **fixtures(const char *dir, size_t *n)
{
	struct dirent *d;
	char **v = NULL;
	size_t alloc = 0;
	DIR *dp = opendir(dir);

	*n = 0;
	if (!dp)
		return NULL;
	while ((d = readdir(dp))) {
		size_t len = strlen(d->d_name);
		int yaml = (len > 5 && strcmp(d->d_name + len - 5, ".yaml") == 0) ||
			   (len > 4 && strcmp(d->d_name + len - 4, ".yml") == 0);

		if (d->d_name[0] == '.' || !yaml ||
		    (len > 12 && strcmp(d->d_name + len - 12, ".expect.yaml") == 0))
			continue;
		if (*n == alloc) {
			char **nv = realloc(v, (alloc ? alloc * 2 : 16) * sizeof *nv);

			if (!nv)
				break;
			v = nv;
			alloc = alloc ? alloc * 2 : 16;
		}
		v[(*n)++] = strdup(d->d_name);
	}
	closedir(dp);
	if (v)
		qsort(v, *n, sizeof *v, str_cmp);
	return v;
}

/* ---- expectations -------------------------------------------------------- */

struct expect {
	struct yaml_file yf;
	const struct node *root;
};

static int expect_load(struct engine *e, const char *path, struct expect *x,
		       struct test *t)
{
	struct yaml_file sy;
	struct schema_env env;
	struct schema *s = NULL;
	struct findings fs;
	struct diag err;
	char schema[4096];
	char *buf = NULL;
	size_t len, i;
	int rc = -1;

	yaml_file_init(&x->yf);
	yaml_file_init(&sy);
	diag_init(&err);
	findings_init(&fs, 50);
	if (readfile(path, path, 1 << 20, &buf, &len, &err) < 0 ||
	    yaml_load(&x->yf, buf, len, YAML_SINGLE, &e->limits.yaml, 0, &err) < 0) {
		problem(t, "%s:%u:%u: expectation does not load: %s", path, err.line,
			err.col, err.msg);
		goto done;
	}
	free(buf);
	buf = NULL;
	x->root = x->yf.docs[0]->root;
	engine_data_path(e, "schemas/infragate-expect.yaml", schema, sizeof schema);
	if (readfile(schema, schema, 1 << 20, &buf, &len, &err) < 0 ||
	    yaml_load(&sy, buf, len, YAML_SINGLE, &e->limits.yaml, 0, &err) < 0) {
		problem(t, "the expectation schema does not load: %s", err.msg);
		goto done;
	}
	memset(&env, 0, sizeof env);
	s = schema_compile(sy.docs[0]->root, "schemas/infragate-expect.yaml", &env,
			   &err);
	if (!s) {
		problem(t, "the expectation schema does not compile: %s", err.msg);
		goto done;
	}
	if (!x->root || schema_validate(s, x->root, 0, &e->limits.re, &fs, &err) != 0) {
		for (i = 0; i < fs.n; i++)
			problem(t, "%s:%u:%u: %s", path, fs.items[i].line,
				fs.items[i].col, fs.items[i].message);
		if (!x->root)
			problem(t, "%s: the expectation is empty", path);
		goto done;
	}
	rc = 0;
done:
	free(buf);
	schema_free(s);
	findings_release(&fs);
	yaml_file_release(&sy);
	return rc;
}

/* An expected number: exact, or {approx, rel, abs}. */
static int number_matches(const struct node *want, double got)
{
	const struct node *a;
	double x, rel = -1, ab = -1;

	if (want->type == NODE_INT)
		return (double)want->v.i == got;
	if (want->type == NODE_FLOAT)
		return want->v.f == got;
	if (want->type != NODE_MAP || !(a = doc_get(want, "approx")))
		return 0;
	x = a->type == NODE_INT ? (double)a->v.i : a->v.f;
	if (doc_get(want, "rel")) {
		const struct node *r = doc_get(want, "rel");

		rel = r->type == NODE_INT ? (double)r->v.i : r->v.f;
	}
	if (doc_get(want, "abs")) {
		const struct node *r = doc_get(want, "abs");

		ab = r->type == NODE_INT ? (double)r->v.i : r->v.f;
	}
	if (rel < 0 && ab < 0)
		rel = 1e-9;
	return (rel >= 0 && fabs(got - x) <= rel * fabs(x)) ||
	       (ab >= 0 && fabs(got - x) <= ab);
}

static double node_number(const struct node *n, int *ok)
{
	*ok = 1;
	if (n->type == NODE_INT)
		return (double)n->v.i;
	if (n->type == NODE_FLOAT)
		return n->v.f;
	*ok = 0;
	return 0;
}

/* Whether the actual value matches the expected one (figures). */
static int value_matches(const struct node *want, const struct node *got)
{
	size_t i;
	int isnum;
	double g;

	if (want->type == NODE_MAP && doc_get(want, "approx")) {
		g = node_number(got, &isnum);
		return isnum && number_matches(want, g);
	}
	if (want->type == NODE_MAP) {
		if (got->type != NODE_MAP)
			return 0;
		for (i = 0; i < want->v.map.n; i++) {
			const struct doc_pair *p = &want->v.map.pairs[i];
			const struct node *gv = p->key->type == NODE_STR
							? doc_get(got, p->key->v.str.s)
							: NULL;

			if (!gv || !value_matches(p->value, gv))
				return 0;
		}
		return 1;
	}
	return doc_equal(want, got);
}

/* Compare one expected finding with an actual one: only listed fields. */
static int finding_matches(const struct node *want, const struct finding *f,
			   struct sbuf *why)
{
	const struct node *v;
	size_t i;

	for (i = 0; i < want->v.map.n; i++) {
		const char *k = want->v.map.pairs[i].key->v.str.s;

		v = want->v.map.pairs[i].value;
		if (strcmp(k, "rule") == 0 && strcmp(v->v.str.s, f->rule) != 0) {
			sbuf_addf(why, "rule %s, expected %s", f->rule, v->v.str.s);
			return 0;
		}
		if (strcmp(k, "severity") == 0 &&
		    strcmp(v->v.str.s, severity_name(f->severity)) != 0) {
			sbuf_addf(why, "severity %s, expected %s",
				  severity_name(f->severity), v->v.str.s);
			return 0;
		}
		if (strcmp(k, "message") == 0 && strcmp(v->v.str.s, f->message) != 0) {
			sbuf_addf(why, "message '%s'", f->message);
			return 0;
		}
		if (strcmp(k, "path") == 0 && (!f->path || strcmp(v->v.str.s, f->path) != 0)) {
			sbuf_addf(why, "path %s, expected %s", f->path ? f->path : "null",
				  v->v.str.s);
			return 0;
		}
#define INTFIELD(name, field)                                                   \
	if (strcmp(k, name) == 0 && v->v.i != (int64_t)(field)) {               \
		sbuf_addf(why, name " %lld, expected %lld", (long long)(field), \
			  (long long)v->v.i);                                  \
		return 0;                                                       \
	}
		INTFIELD("line", f->line)
		INTFIELD("column", f->col)
		INTFIELD("end_line", f->end_line)
		INTFIELD("end_column", f->end_col)
		INTFIELD("document", f->document)
#undef INTFIELD
		if (strcmp(k, "figures") == 0) {
			struct doc_json_opts jo;
			struct diag err;
			struct doc d;
			int ok;

			memset(&jo, 0, sizeof jo);
			diag_init(&err);
			doc_init(&d, 0);
			ok = f->figures &&
			     doc_json_parse(&d, f->figures, strlen(f->figures), &jo, &err) == 0 &&
			     value_matches(v, d.root);
			doc_release(&d);
			if (!ok) {
				sbuf_addf(why, "figures %s", f->figures ? f->figures : "none");
				return 0;
			}
		}
	}
	return 1;
}

static void describe(struct sbuf *b, const struct finding *f)
{
	sbuf_addf(b, "%s at %u:%u %s: %s", f->rule, f->line, f->col,
		  f->path ? f->path : "", f->message);
}

/* Check one list of actual findings (active or suppressed) against an
 * expected list: exactly, in order ('exact') or as a subset. */
static void compare_list(struct test *t, const char *what,
			 const struct node *want, const struct findings *fs,
			 int suppressed, int exact)
{
	const struct finding **act;
	size_t n = 0, i, j;

	act = calloc(fs->n + 1, sizeof *act);
	if (!act)
		return;
	for (i = 0; i < fs->n; i++)
		if ((fs->items[i].supp_by != NULL) == suppressed)
			act[n++] = &fs->items[i];
	if (exact) {
		for (i = 0; i < want->v.list.n || i < n; i++) {
			struct sbuf why = SBUF_INIT;

			if (i >= want->v.list.n) {
				describe(&why, act[i]);
				problem(t, "unexpected %s finding %zu: %s", what, i,
					sbuf_cstr(&why));
			} else if (i >= n) {
				problem(t, "missing %s finding %zu: %s", what, i,
					doc_get(want->v.list.items[i], "rule")->v.str.s);
			} else if (!finding_matches(want->v.list.items[i], act[i], &why)) {
				struct sbuf d = SBUF_INIT;

				describe(&d, act[i]);
				problem(t, "%s finding %zu differs: %s (actual: %s)", what, i,
					sbuf_cstr(&why), sbuf_cstr(&d));
				sbuf_release(&d);
			}
			sbuf_release(&why);
		}
	} else {
		for (i = 0; i < want->v.list.n; i++) {
			int found = 0;

			for (j = 0; j < n && !found; j++) {
				struct sbuf why = SBUF_INIT;

				found = finding_matches(want->v.list.items[i], act[j], &why);
				sbuf_release(&why);
			}
			if (!found)
				problem(t, "no %s finding matches expected %s", what,
					doc_get(want->v.list.items[i], "rule")->v.str.s);
		}
	}
	free(act);
}

static const char *verdict_word(enum verdict v)
{
	return v == VERDICT_PASS ? "pass" : v == VERDICT_FAIL ? "fail" : "error";
}

/* Lint one fixture and compare it with its expectation (or a clean pass). */
static void run_fixture(struct engine *e, const struct packref *p,
			const char *dir, const char *file, int good,
			struct pack_tests *pt, struct sbuf *expected_ids)
{
	char path[PATH_MAX], xpath[PATH_MAX];
	char wv[PATH_MAX], bv[PATH_MAX];
	struct test *t = new_test(pt, "fixture", "%s", "");
	struct expect x;
	struct lint_report r;
	struct engine_out o;
	struct lint_opts lo;
	struct ap_result res;
	const char *pack = p->name;
	int have_x, rc;
	size_t i;

	if (!t)
		return;
	free(t->name);
	snprintf(path, sizeof path, "%s/%s", good ? "good" : "bad", file);
	t->name = strdup(path);
	snprintf(path, sizeof path, "%s/%s", dir, file);
	snprintf(xpath, sizeof xpath, "%s/%.*s.expect.yaml", dir,
		 (int)(strrchr(file, '.') - file), file);
	have_x = is_file(xpath);
	memset(&x, 0, sizeof x);
	yaml_file_init(&x.yf);
	memset(&res, 0, sizeof res);
	if (!have_x && !good) {
		problem(t, "bad fixture %s has no expectation file %s", file, xpath);
		return;
	}
	if (have_x && expect_load(e, xpath, &x, t) < 0) {
		yaml_file_release(&x.yf);
		return;
	}
	lint_opts_init(&lo);
	if (have_x && doc_get(x.root, "args")) {
		const struct node *args = doc_get(x.root, "args");
		char **argv = calloc(args->v.list.n + 1, sizeof *argv);
		struct diag err;

		for (i = 0; argv && i < args->v.list.n; i++)
			argv[i] = (char *)(uintptr_t)args->v.list.items[i]->v.str.s;
		diag_init(&err);
		if (!argv || ap_parse(&engine_lint_program, (int)args->v.list.n, argv,
				      &res, &err) < 0) {
			problem(t, "%s: bad args: %s", xpath, err.msg);
			free(argv);
			goto done;
		}
		free(argv);
		lint_opts_from(&lo, &res);
		/* Paths in args are relative to the expectation's folder. */
		if (lo.waivers && lo.waivers[0] != '/') {
			snprintf(wv, sizeof wv, "%s/%s", dir, lo.waivers);
			lo.waivers = wv;
		}
		if (lo.baseline && lo.baseline[0] != '/') {
			snprintf(bv, sizeof bv, "%s/%s", dir, lo.baseline);
			lo.baseline = bv;
		}
	}
	{
		/* Operands in args (files linted in the same run before the
		 * fixture, for run-level rules) are relative to the folder. */
		size_t nextra = lo.operands ? lo.noperands : 0, k;
		const char **ops = calloc(nextra + 1, sizeof *ops);
		char (*extra)[PATH_MAX] = calloc(nextra + 1, sizeof *extra);

		if (!ops || !extra) {
			free(ops);
			free(extra);
			problem(t, "out of memory");
			goto done;
		}
		for (k = 0; k < nextra; k++) {
			snprintf(extra[k], PATH_MAX, "%s/%s", dir, lo.operands[k]);
			ops[k] = extra[k];
		}
		ops[nextra] = path;
		lo.operands = ops;
		lo.noperands = nextra + 1;
		lo.packs = &pack;
		lo.npacks = 1;
		lo.no_config = 1;
		engine_out_init(&o);
		lint_report_init(&r);
		rc = lint_run(e, &lo, &r, -1, &o);
		if (rc < 0) {
			problem(t, "the lint run failed: %s",
				o.errors.n ? o.errors.items[0].message : "?");
		} else if (r.nfiles != 1 + nextra) {
			if (!have_x || strcmp(doc_get(x.root, "verdict")->v.str.s, "pass") != 0 ||
			    r.nfiles != 0)
				problem(t, "the fixture was not checked (no document was routed to pack '%s')",
					pack);
		} else {
			const struct lint_file *lf = &r.files[nextra];
			const char *want = have_x ? doc_get(x.root, "verdict")->v.str.s : "pass";

			if (strcmp(want, verdict_word(lf->verdict)) != 0)
				problem(t, "verdict %s, expected %s", verdict_word(lf->verdict),
					want);
			if (!have_x) {
				for (i = 0; i < lf->fs.n; i++) {
					struct sbuf d = SBUF_INIT;

					if (lf->fs.items[i].supp_by)
						continue;
					describe(&d, &lf->fs.items[i]);
					problem(t, "unexpected finding: %s", sbuf_cstr(&d));
					sbuf_release(&d);
				}
			} else {
				const struct node *fl = doc_get(x.root, "findings");
				const struct node *cl = doc_get(x.root, "contains");
				const struct node *sl = doc_get(x.root, "suppressed");

				if (fl)
					compare_list(t, "active", fl, &lf->fs, 0, 1);
				if (cl)
					compare_list(t, "active", cl, &lf->fs, 0, 0);
				if (sl)
					compare_list(t, "suppressed", sl, &lf->fs, 1, 1);
			}
		}
		lint_report_release(&r);
		engine_out_release(&o);
		lo.operands = NULL;
		lo.packs = NULL;
		lo.npacks = 0;
		free(ops);
		free(extra);
	}
	if (have_x) {
		static const char *const lists[] = { "findings", "contains", "suppressed" };
		size_t l;

		for (l = 0; l < 3; l++) {
			const struct node *fl = doc_get(x.root, lists[l]);

			for (i = 0; fl && i < fl->v.list.n; i++)
				sbuf_addf(expected_ids, "\n%s\n",
					  doc_get(fl->v.list.items[i], "rule")->v.str.s);
		}
	}
done:
	if (res.verb)
		lint_opts_free(&lo);
	ap_result_release(&res);
	yaml_file_release(&x.yf);
}

/* ---- the registry ------------------------------------------------------------ */

static void failing_points(const char *entry, struct sbuf *out)
{
	struct doc_json_opts jo;
	const struct node *pts;
	struct diag err;
	struct doc d;
	size_t i;

	memset(&jo, 0, sizeof jo);
	diag_init(&err);
	doc_init(&d, 0);
	if (doc_json_parse(&d, entry, strlen(entry), &jo, &err) == 0 &&
	    (pts = doc_get(d.root, "points")) && pts->type == NODE_LIST)
		for (i = 0; i < pts->v.list.n; i++) {
			const struct node *p = pts->v.list.items[i];
			const struct node *ok = doc_get(p, "ok"), *v = doc_get(p, "verdict");
			const struct node *id = doc_get(p, "id");
			int good = ok ? ok->type == NODE_BOOL && ok->v.b
				      : v && v->type == NODE_STR &&
						(strcmp(v->v.str.s, "PASS") == 0 ||
						 strcmp(v->v.str.s, "pass") == 0);

			if (!good && id && id->type == NODE_STR)
				sbuf_addf(out, "\n%s\n", id->v.str.s);
		}
	doc_release(&d);
}

static void run_registry(struct engine *e, const struct packref *p,
			 struct pack_tests *pt)
{
	struct test *t = new_test(pt, "registry", "%s", "registry");
	struct yaml_file yf;
	struct engine_out o;
	struct sbuf entry = SBUF_INIT;
	struct diag err;
	const struct node *muts;
	char *buf = NULL;
	size_t len, i, j;
	int ok = 0;

	if (!t)
		return;
	engine_out_init(&o);
	if (validate_pack(e, NULL, p->name, NULL, NULL, NULL, &entry, &ok, &o) < 0) {
		for (i = 0; i < o.errors.n; i++)
			problem(t, "%s:%u:%u: %s",
				o.errors.items[i].file ? o.errors.items[i].file : p->name,
				o.errors.items[i].line, o.errors.items[i].col,
				o.errors.items[i].message);
		engine_out_release(&o);
		sbuf_release(&entry);
		return;
	}
	if (!ok) {
		struct sbuf f = SBUF_INIT;

		failing_points(sbuf_cstr(&entry), &f);
		problem(t, "the green control fails these points:%s", sbuf_cstr(&f));
		sbuf_release(&f);
	}
	engine_out_release(&o);
	sbuf_release(&entry);
	yaml_file_init(&yf);
	diag_init(&err);
	if (readfile(p->registry, p->registry, 8 << 20, &buf, &len, &err) < 0 ||
	    yaml_load(&yf, buf, len, YAML_SINGLE, &e->limits.yaml, 0, &err) < 0) {
		free(buf);
		yaml_file_release(&yf);
		return;
	}
	free(buf);
	muts = yf.ndocs ? doc_get(yf.docs[0]->root, "mutations") : NULL;
	for (i = 0; muts && muts->type == NODE_LIST && i < muts->v.list.n; i++) {
		const struct node *m = muts->v.list.items[i];
		const struct node *name = doc_get(m, "name"), *red = doc_get(m, "red");
		struct sbuf want = SBUF_INIT, got = SBUF_INIT;
		struct test *mt;

		if (!name || name->type != NODE_STR)
			continue;
		mt = new_test(pt, "mutation", "mutation %s", name->v.str.s);
		if (!mt)
			break;
		engine_out_init(&o);
		sbuf_init(&entry);
		if (validate_pack(e, NULL, p->name, NULL, name->v.str.s, NULL, &entry, &ok,
				  &o) < 0) {
			problem(mt, "the mutation run failed: %s",
				o.errors.n ? o.errors.items[0].message : "?");
		} else {
			failing_points(sbuf_cstr(&entry), &got);
			for (j = 0; red && red->type == NODE_LIST && j < red->v.list.n; j++) {
				char needle[512];

				snprintf(needle, sizeof needle, "\n%s\n",
					 red->v.list.items[j]->v.str.s);
				if (!strstr(sbuf_cstr(&got), needle))
					problem(mt, "point '%s' should fail under the mutation but passes",
						red->v.list.items[j]->v.str.s);
				sbuf_adds(&want, needle);
			}
			/* 'got' holds "\nid\n" per failing point. */
			{
				const char *s = sbuf_cstr(&got);

				while (*s == '\n' && s[1]) {
					const char *end = strchr(s + 1, '\n');
					char needle[512];

					if (!end)
						break;
					snprintf(needle, sizeof needle, "\n%.*s\n",
						 (int)(end - s - 1), s + 1);
					if (!strstr(sbuf_cstr(&want), needle))
						problem(mt, "point '%.*s' fails under the mutation but is not in its red list",
							(int)(end - s - 1), s + 1);
					s = end + 1;
				}
			}
		}
		sbuf_release(&want);
		sbuf_release(&got);
		sbuf_release(&entry);
		engine_out_release(&o);
	}
	yaml_file_release(&yf);
}

/* ---- one pack ------------------------------------------------------------------ */

static void run_pack(struct engine *e, const struct packref *p,
		     struct pack_tests *pt, struct engine_out *o)
{
	const struct rule_info *const *all;
	struct sbuf expected_ids = SBUF_INIT;
	char readme[PATH_MAX], dir[PATH_MAX];
	struct worker w;
	struct test *t;
	size_t n, i, k;
	const char *sub[2] = { "good", "bad" };
	struct stat st;

	pt->pack = p->name;
	worker_init(&w, e);
	if (worker_load_pack(&w, p->name, SB_LOAD_PACK | SB_LOAD_COMMANDS) < 0) {
		t = new_test(pt, "readme", "%s", "load");
		if (t)
			problem(t, "%s", w.fatal.msg);
		worker_release(&w);
		return;
	}
	n = sandbox_rules(w.sb, &all);
	snprintf(readme, sizeof readme, "%s/README.md", p->dir);
	t = new_test(pt, "readme", "%s", "readme");
	for (i = 0; t && i < n; i++) {
		char *sec;

		if (!all[i]->pack || strcmp(all[i]->pack, p->name) != 0)
			continue;
		sec = readme_section(readme, all[i]->id);
		if (!sec)
			problem(t, "README.md has no '### %s' section", all[i]->id);
		free(sec);
	}
	for (k = 0; k < 2; k++) {
		char **files;
		size_t nf;

		snprintf(dir, sizeof dir, "%s/%s", p->fixtures_dir, sub[k]);
		files = fixtures(dir, &nf);
		for (i = 0; i < nf; i++) {
			run_fixture(e, p, dir, files[i], k == 0, pt, &expected_ids);
			free(files[i]);
		}
		free(files);
	}
	t = new_test(pt, "coverage", "%s", "coverage");
	for (i = 0; t && i < n; i++) {
		char needle[512];

		/* A program-only id (engine.declare{program = true}) comes from
		 * the pack's program, never from lint: its CLI cases cover it. */
		if (!all[i]->pack || strcmp(all[i]->pack, p->name) != 0 ||
		    all[i]->program_only)
			continue;
		snprintf(needle, sizeof needle, "\n%s\n", all[i]->id);
		if (!strstr(sbuf_cstr(&expected_ids), needle))
			problem(t, "no fixture expects '%s'", all[i]->id);
	}
	sbuf_release(&expected_ids);
	worker_release(&w);
	if (stat(p->registry, &st) == 0)
		run_registry(e, p, pt);
	(void)o;
}

static const char *pack_of_dir(struct engine *e, const char *dir,
			       struct engine_out *o)
{
	char real[PATH_MAX];
	size_t i;

	if (!realpath(dir, real)) {
		engine_out_usage(o, "DIR", "'%s' is not a pack folder", dir);
		return NULL;
	}
	for (i = 0; i < e->npacks; i++) {
		char pr[PATH_MAX];

		if (realpath(e->packs[i].dir, pr) && strcmp(pr, real) == 0)
			return e->packs[i].name;
	}
	if (engine_add_site_packs(e, &dir, 1, o) < 0)
		return NULL;
	for (i = 0; i < e->npacks; i++) {
		char pr[PATH_MAX];

		if (realpath(e->packs[i].dir, pr) && strcmp(pr, real) == 0)
			return e->packs[i].name;
	}
	engine_out_usage(o, "DIR", "'%s' holds no pack.lua", dir);
	return NULL;
}

static void junit_escape(struct sbuf *b, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': sbuf_adds(b, "&amp;"); break;
		case '<': sbuf_adds(b, "&lt;"); break;
		case '>': sbuf_adds(b, "&gt;"); break;
		case '"': sbuf_adds(b, "&quot;"); break;
		case '\'': sbuf_adds(b, "&apos;"); break;
		default:
			if ((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t')
				sbuf_adds(b, "\xEF\xBF\xBD");
			else
				sbuf_addc(b, *s);
		}
	}
}

static void render(struct engine_out *o, struct pack_tests *pts, size_t np,
		   const char *fmt, size_t passed, size_t failed)
{
	size_t i, j;

	if (strcmp(fmt, "json") == 0) {
		sbuf_adds(&o->out, "{\"tool\": \"infragate\", \"version\": \"" ENGINE_VERSION
				   "\", \"verb\": \"test\", \"packs\": [");
		for (i = 0; i < np; i++) {
			int pok = 1;

			for (j = 0; j < pts[i].n; j++)
				pok &= pts[i].tests[j].ok;
			sbuf_adds(&o->out, i ? ", {\"pack\": " : "{\"pack\": ");
			json_write_str(&o->out, pts[i].pack, strlen(pts[i].pack));
			sbuf_addf(&o->out, ", \"ok\": %s, \"tests\": [", pok ? "true" : "false");
			for (j = 0; j < pts[i].n; j++) {
				const struct test *t = &pts[i].tests[j];
				const char *s = sbuf_cstr((struct sbuf *)(uintptr_t)&t->problems);
				int first = 1;

				sbuf_adds(&o->out, j ? ", {\"name\": " : "{\"name\": ");
				json_write_str(&o->out, t->name, strlen(t->name));
				sbuf_addf(&o->out, ", \"type\": \"%s\", \"ok\": %s, \"problems\": [",
					  t->type, t->ok ? "true" : "false");
				while (*s) {
					const char *e = strchr(s, '\n');
					size_t len = e ? (size_t)(e - s) : strlen(s);

					if (!first)
						sbuf_adds(&o->out, ", ");
					first = 0;
					json_write_str(&o->out, s, len);
					s += len + (e ? 1 : 0);
				}
				sbuf_adds(&o->out, "]}");
			}
			sbuf_adds(&o->out, "]}");
		}
		sbuf_addf(&o->out, "], \"summary\": {\"tests\": %zu, \"passed\": %zu, \"failed\": %zu}}\n",
			  passed + failed, passed, failed);
		return;
	}
	if (strcmp(fmt, "junit") == 0) {
		sbuf_addf(&o->out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
				   "<testsuites name=\"infragate test\" tests=\"%zu\" failures=\"%zu\" errors=\"0\">\n",
			  passed + failed, failed);
		for (i = 0; i < np; i++) {
			size_t f = 0;

			for (j = 0; j < pts[i].n; j++)
				f += !pts[i].tests[j].ok;
			sbuf_adds(&o->out, "  <testsuite name=\"");
			junit_escape(&o->out, pts[i].pack);
			sbuf_addf(&o->out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"0\">\n",
				  pts[i].n, f);
			for (j = 0; j < pts[i].n; j++) {
				const struct test *t = &pts[i].tests[j];

				sbuf_adds(&o->out, "    <testcase classname=\"");
				junit_escape(&o->out, t->type);
				sbuf_adds(&o->out, "\" name=\"");
				junit_escape(&o->out, t->name);
				if (t->ok) {
					sbuf_adds(&o->out, "\"/>\n");
					continue;
				}
				sbuf_adds(&o->out, "\">\n      <failure message=\"test failed\">");
				junit_escape(&o->out, sbuf_cstr((struct sbuf *)(uintptr_t)&t->problems));
				sbuf_adds(&o->out, "</failure>\n    </testcase>\n");
			}
			sbuf_adds(&o->out, "  </testsuite>\n");
		}
		sbuf_adds(&o->out, "</testsuites>\n");
		return;
	}
	for (i = 0; i < np; i++)
		for (j = 0; j < pts[i].n; j++) {
			const struct test *t = &pts[i].tests[j];
			const char *s = sbuf_cstr((struct sbuf *)(uintptr_t)&t->problems);

			sbuf_addf(&o->out, "%s %s %s %s\n", t->ok ? "ok" : "FAIL",
				  pts[i].pack, t->type, t->name);
			while (*s) {
				const char *e = strchr(s, '\n');
				size_t len = e ? (size_t)(e - s) : strlen(s);

				sbuf_addf(&o->out, "    %.*s\n", (int)len, s);
				s += len + (e ? 1 : 0);
			}
		}
	sbuf_addf(&o->out, "%zu passed, %zu failed\n", passed, failed);
}

int engine_test(struct engine *e, const struct ap_result *res,
		struct engine_out *o)
{
	const char *fmt = opt_text(res, "--format");
	const char *filter = opt_text(res, "--filter");
	const char **packs; /* names: the pack array may move */
	struct pack_tests *pts;
	size_t np = 0, i, j, passed = 0, failed = 0;
	struct stat st;
	int rc = 0;

	o->verb = "test";
	o->program = "infragate test";
	o->json = fmt && strcmp(fmt, "json") == 0;
	packs = calloc(e->npacks + res->noperands + 1, sizeof *packs);
	if (!packs)
		return -1;
	if (res->noperands) {
		for (i = 0; i < res->noperands; i++) {
			packs[np] = pack_of_dir(e, res->operands[i], o);
			if (!packs[np]) {
				free(packs);
				return -1;
			}
			np++;
		}
	} else {
		for (i = 0; i < e->npacks; i++)
			if (!e->packs[i].site && stat(e->packs[i].fixtures_dir, &st) == 0)
				packs[np++] = e->packs[i].name;
	}
	pts = calloc(np + 1, sizeof *pts);
	if (!pts) {
		free(packs);
		return -1;
	}
	for (i = 0; i < np; i++) {
		/* engine_add_site_packs may move the pack array: look up again. */
		const struct packref *p = engine_pack(e, packs[i]);

		run_pack(e, p, &pts[i], o);
	}
	for (i = 0; i < np; i++) {
		size_t keep = 0;

		for (j = 0; j < pts[i].n; j++) {
			struct test *t = &pts[i].tests[j];

			if (filter && !glob_match(filter, t->name)) {
				free(t->name);
				sbuf_release(&t->problems);
				continue;
			}
			pts[i].tests[keep++] = *t;
			if (t->ok)
				passed++;
			else
				failed++;
		}
		pts[i].n = keep;
	}
	if (passed + failed == 0) {
		engine_out_usage(o, "DIR", "no pack test found");
		rc = -1;
	} else {
		render(o, pts, np, fmt ? fmt : "text", passed, failed);
		o->exit_code = failed ? 1 : 0;
	}
	for (i = 0; i < np; i++) {
		for (j = 0; j < pts[i].n; j++) {
			free(pts[i].tests[j].name);
			sbuf_release(&pts[i].tests[j].problems);
		}
		free(pts[i].tests);
	}
	free(pts);
	free(packs);
	return rc;
}
