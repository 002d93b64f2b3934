/*
 * test_policy_inputs.c: what a lint run's policy does to its inputs and
 * findings (core/engine/policy.h): operand expansion in temporary trees
 * (byte order, dot and node_modules skipping, dedupe, display names,
 * links, missing operands, engine.expand's options), suppression comments
 * (grammar rows, application, every engine.suppression case, quoted
 * scalars through the loader), waivers (matching, the boundary day,
 * stale ones, file errors) and baselines (atomic sorted writes, reading
 * back, matching by count, stale entries).
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdarg.h>

#include "tests/unit/policy_test.h"

/* ---- expansion ---------------------------------------------------------- */

TestSuite(expand, .init = tree_setup, .fini = tree_teardown);

/* Expand with 'o' (root and cwd set to the tree) and return the display
 * names joined by ' ' (unreadable ones marked with '!'). */
static const char *run_expand(struct expand_opts *o, const char *const *ops,
			      size_t n, int want_rc)
{
	static char buf[4096];
	struct expand_list l;
	struct diag err;
	size_t i, len = 0;

	diag_init(&err);
	if (!o->cwd) {
		o->cwd = cwd_now();
		o->root = o->cwd;
	}
	expand_list_init(&l);
	cr_assert_eq(policy_expand(&l, ops, n, o, &err), want_rc, "%s",
		     err.msg);
	buf[0] = '\0';
	for (i = 0; i < l.n; i++)
		len += (size_t)snprintf(
		    buf + len, sizeof buf - len, "%s%s%s", i ? " " : "",
		    l.items[i].error ? "!" : "", l.items[i].display);
	expand_list_release(&l);
	return buf;
}

Test(expand, byte_order_and_skipping)
{
	struct expand_opts o;
	const char *const ops[] = {"t"};

	/* created out of order; byte order puts 'B' before 'a' */
	mk("t/z.yaml", NULL);
	mk("t/good/b.yml", NULL);
	mk("t/bad/a.yaml", NULL);
	mk("t/B.yaml", NULL);
	mk("t/a.yaml", NULL);
	mk("t/notes.txt", NULL);
	mk("t/.hidden/a.yaml", NULL);
	mk("t/.dot.yaml", NULL);
	mk("t/node_modules/a.yaml", NULL);
	mk("t/x.yml", NULL);
	expand_opts_default(&o);
	cr_assert_str_eq(run_expand(&o, ops, 1, 0),
			 "t/B.yaml t/a.yaml t/bad/a.yaml t/good/b.yml "
			 "t/x.yml t/z.yaml");
}

Test(expand, include_names_dot_entries)
{
	struct expand_opts o;
	const char *const ops[] = {"."};
	const char *const inc[] = {".gitlab-ci.yml", ".github/workflows/*.yml",
				   "*.yaml"};

	mk(".gitlab-ci.yml", NULL);
	mk(".github/workflows/ci.yml", NULL);
	mk(".github/other/x.yaml", NULL);
	mk(".hidden/a.yaml", NULL);
	mk("p.yaml", NULL);
	mk("q.yml", NULL);
	expand_opts_default(&o);
	o.include = inc;
	o.ninclude = 3;
	cr_assert_str_eq(run_expand(&o, ops, 1, 0),
			 "./.github/workflows/ci.yml ./.gitlab-ci.yml "
			 "./p.yaml");
}

Test(expand, dedupe_and_display)
{
	struct expand_opts o;
	const char *const ops[] = {"d/",    "d/s/b.yaml", "./d/a.yaml",
				   "c.txt", "c.txt",	  "nope.yaml"};

	mk("d/a.yaml", NULL);
	mk("d/s/b.yaml", NULL);
	mk("c.txt", NULL);
	expand_opts_default(&o);
	/* the same file twice is checked once, at its first occurrence; a
	 * file operand is checked whatever its name */
	cr_assert_str_eq(run_expand(&o, ops, 6, 0),
			 "d/a.yaml d/s/b.yaml c.txt !nope.yaml");
	o.dedupe = 0;
	cr_assert_str_eq(run_expand(&o, ops, 6, 0),
			 "d/a.yaml d/s/b.yaml d/s/b.yaml ./d/a.yaml c.txt "
			 "c.txt !nope.yaml");
}

Test(expand, symlinks)
{
	struct expand_opts o;
	const char *const ops[] = {"t"};

	mk("real/in.yaml", NULL);
	mk("t/f.yaml", NULL);
	cr_assert_eq(symlink("../real", "t/dirlink"), 0);
	cr_assert_eq(symlink("../real/in.yaml", "t/link.yaml"), 0);
	cr_assert_eq(symlink("missing.yaml", "t/broken.yaml"), 0);
	cr_assert_eq(symlink(".", "t/loop"), 0);
	expand_opts_default(&o);
	cr_assert_str_eq(run_expand(&o, ops, 1, 0), "t/f.yaml t/link.yaml");
}

Test(expand, exclude_and_outside_root)
{
	struct expand_opts o;
	const char *const ex[] = {"bad/**", "*.skip.yaml"};
	const char *const ops[] = {"bad/over-limit.yaml", "good", "bad"};
	const char *const up[] = {"../out"};

	mk("root/bad/over-limit.yaml", NULL);
	mk("root/good/a.yaml", NULL);
	mk("root/good/b.skip.yaml", NULL);
	mk("out/c.skip.yaml", NULL);
	cd("root");
	expand_opts_default(&o);
	o.exclude = ex;
	o.nexclude = 2;
	cr_assert_str_eq(run_expand(&o, ops, 3, 0), "good/a.yaml");
	/* outside the project root no exclude glob matches; include
	 * globs fall back to the path inside the folder operand */
	cr_assert_str_eq(run_expand(&o, up, 1, 0), "../out/c.skip.yaml");
}

Test(expand, stdin_rules)
{
	struct expand_opts o;
	const char *const one[] = {"-", "a.yaml"};
	const char *const two[] = {"-", "a.yaml", "-"};
	const char *const ex[] = {"plans/**"};
	struct expand_list l;
	struct diag err;

	mk("a.yaml", NULL);
	expand_opts_default(&o);
	o.cwd = cwd_now();
	o.root = o.cwd;
	o.exclude = ex;
	o.nexclude = 1;
	o.stdin_filepath = "plans/x.yaml";
	diag_init(&err);
	expand_list_init(&l);
	cr_assert_eq(policy_expand(&l, one, 2, &o, &err), 0);
	cr_assert_eq(l.n, 2);
	cr_assert(l.items[0].is_stdin);
	cr_assert_str_eq(l.items[0].display, "plans/x.yaml");
	cr_assert_str_eq(l.items[0].path, "-");
	cr_assert_str_eq(l.items[0].relpath, "plans/x.yaml");
	cr_assert_str_eq(l.items[1].relpath, "a.yaml");
	expand_list_release(&l);
	expand_list_init(&l);
	cr_assert_eq(policy_expand(&l, two, 3, &o, &err), -1);
	cr_assert_eq(err.code, DIAG_E_USAGE);
	cr_assert_str_eq(err.path, "-");
	expand_list_release(&l);
	expand_list_init(&l);
	cr_assert_eq(policy_expand(&l, NULL, 0, &o, &err), -1);
	cr_assert_str_eq(err.path, "PATH");
	expand_list_release(&l);
}

Test(expand, missing_operand_is_an_item)
{
	struct expand_opts o;
	const char *const ops[] = {"nope.yaml", "empty"};
	struct expand_list l;
	struct diag err;

	mk("empty/", NULL);
	expand_opts_default(&o);
	diag_init(&err);
	expand_list_init(&l);
	cr_assert_eq(policy_expand(&l, ops, 2, &o, &err), 0);
	cr_assert_eq(l.n, 1);
	cr_assert_str_eq(l.items[0].display, "nope.yaml");
	cr_assert_str_eq(l.items[0].error,
			 "cannot read 'nope.yaml': no such file");
	expand_list_release(&l);
	/* an empty folder is not an error, unless on_empty says so */
	o.on_empty_error = 1;
	expand_list_init(&l);
	cr_assert_eq(policy_expand(&l, ops + 1, 1, &o, &err), -1);
	cr_assert_str_eq(err.path, "PATH");
	expand_list_release(&l);
}

Test(expand, compat_options)
{
	struct expand_opts o;
	const char *const sfx[] = {".yaml"};
	const char *const ops[] = {"recs/", "recs/a.yaml"};

	mk("recs/a.yaml", NULL);
	mk("recs/.b.yaml", NULL);
	mk("recs/c.yml", NULL);
	mk("recs/sub/d.yaml", NULL);
	mk("recs/x.yaml/", NULL);
	/* promotion: one level, .yaml only, dot-files in, duplicates kept */
	expand_opts_default(&o);
	o.recursive = 0;
	o.suffixes = sfx;
	o.nsuffixes = 1;
	o.hidden = 1;
	o.dedupe = 0;
	cr_assert_str_eq(run_expand(&o, ops, 2, 0),
			 "recs/.b.yaml recs/a.yaml recs/a.yaml");
	/* chaos: one level, .yaml, no dot-files */
	o.hidden = 0;
	o.dedupe = 1;
	cr_assert_str_eq(run_expand(&o, ops, 1, 0), "recs/a.yaml");
}

Test(expand, pack_dir_bare_names)
{
	struct expand_opts o;
	char dir[PATH_MAX];

	mk("pack/catalog/b.yaml", NULL);
	mk("pack/catalog/a.yaml", NULL);
	mk("pack/catalog/notes.md", NULL);
	snprintf(dir, sizeof dir, "%s/pack/catalog", tmp_root);
	expand_opts_default(&o);
	o.pack_dir = dir;
	o.recursive = 0;
	cr_assert_str_eq(run_expand(&o, NULL, 0, 0), "a.yaml b.yaml");
}

/* ---- suppression -------------------------------------------------------- */

/* A loaded file built by hand: documents starting at lines 1 and 10. */
static struct doc sup_docs[2];
static struct doc *sup_docp[2] = {&sup_docs[0], &sup_docs[1]};

static void sup_file(struct yaml_file *yf, struct yaml_comment *cm, size_t n)
{
	size_t i;

	memset(yf, 0, sizeof *yf);
	sup_docs[0].start_line = 1;
	sup_docs[1].start_line = 10;
	yf->docs = sup_docp;
	yf->ndocs = 2;
	for (i = 0; i < n; i++)
		cm[i].len = strlen(cm[i].text);
	yf->comments = cm;
	yf->ncomments = n;
}

enum { G_IGNORED, G_OK, G_MALFORMED, G_NOREASON };

struct grammar_case {
	char text[72];
	int kind;
	size_t npat;
	int file_wide;
	char reason[24];
};

ParameterizedTestParameters(suppress, grammar)
{
	static struct grammar_case rows[] = {
	    {" infragate: ignore demo.size-limit -- test reason", G_OK, 1, 0,
	     "test reason"},
	    {"infragate: ignore demo.a, demo.b -- r", G_OK, 2, 0, "r"},
	    {"   infragate: ignore demo.a,demo.b -- r", G_OK, 2, 0, "r"},
	    {" infragate: ignore-file cooling.strict.* -- Q3 (OPS-902)", G_OK,
	     1, 1, "Q3 (OPS-902)"},
	    {" infragate: ignore demo.x --  spaced out  ", G_OK, 1, 0,
	     "spaced out"},
	    {" infragate: ignore demo.x -- r -- more", G_OK, 1, 0, "r -- more"},
	    {" infragate: ignore demo.x\t--\tr", G_OK, 1, 0, "r"},
	    {" infragate: ignore demo.size-limit", G_NOREASON, 1, 0, ""},
	    {" infragate: ignore demo.size-limit --", G_NOREASON, 1, 0, ""},
	    {" infragate: ignore demo.size-limit --   ", G_NOREASON, 1, 0, ""},
	    {" infragate:ignore demo.x -- r", G_MALFORMED, 0, 0, ""},
	    {" infragate: skip demo.x -- r", G_MALFORMED, 0, 0, ""},
	    {" infragate: ignore -- r", G_MALFORMED, 0, 0, ""},
	    {" infragate: ignore Demo.X -- r", G_MALFORMED, 0, 0, ""},
	    {" infragate: ignore demo.x--r", G_MALFORMED, 0, 0, ""},
	    {" infragate: ignore demo.x, -- r", G_MALFORMED, 0, 0, ""},
	    {" infragate: ignore * -- r", G_MALFORMED, 0, 0, ""},
	    {" infragate: ignore demo -- r", G_MALFORMED, 0, 0, ""},
	    {" infragate: ignore demo.x -x r", G_MALFORMED, 0, 0, ""},
	    {" infragate: ignore demo.x r", G_MALFORMED, 0, 0, ""},
	    {" infragate: ignore-files demo.x -- r", G_MALFORMED, 0, 0, ""},
	    {" infragate:", G_MALFORMED, 0, 0, ""},
	    {" just a comment", G_IGNORED, 0, 0, ""},
	    {" infragate ignore demo.x -- r", G_IGNORED, 0, 0, ""},
	    {"x infragate: ignore demo.x -- r", G_IGNORED, 0, 0, ""},
	};

	return cr_make_param_array(struct grammar_case, rows,
				   sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct grammar_case *t, suppress, grammar)
{
	struct yaml_comment cm = {3, 9, 3, 1, t->text, 0};
	struct yaml_file yf;
	struct supp_set s;
	struct findings fs;
	int n;

	sup_file(&yf, &cm, 1);
	supp_set_init(&s);
	findings_init(&fs, 0);
	n = supp_parse(&s, "f.yaml", &yf, NULL, &fs);
	cr_assert_eq(n, t->kind == G_OK, "'%s': %d directives", t->text, n);
	cr_assert_eq(fs.n, t->kind >= G_MALFORMED, "'%s': %zu warnings",
		     t->text, fs.n);
	if (fs.n) {
		cr_assert_str_eq(fs.items[0].rule, "engine.suppression");
		cr_assert_eq(fs.items[0].severity, SEV_WARNING);
		cr_assert_eq(fs.items[0].line, 3);
		cr_assert_eq(fs.items[0].col, 9);
	}
	if (t->kind == G_OK) {
		cr_assert_eq(s.items[0].npatterns, t->npat);
		cr_assert_eq(s.items[0].file_wide, t->file_wide);
		cr_assert_str_eq(s.items[0].reason, t->reason);
	}
	findings_release(&fs);
	supp_set_release(&s);
}

static int known_demo(void *ud, const char *pattern)
{
	(void)ud;
	return strncmp(pattern, "demo.", 5) == 0;
}

Test(suppress, apply_and_report)
{
	struct yaml_comment cm[] = {
	    {3, 20, 3, 1, " infragate: ignore demo.size-limit -- r1", 0},
	    {4, 1, 7, 0, " infragate: ignore input.type, demo.x -- no", 0},
	    {5, 1, 7, 0, " infragate: ignore demo.strict.* -- r2", 0},
	    {6, 1, 7, 0, " infragate: ignore nope.rule -- x", 0},
	    {12, 1, 13, 0, " infragate: ignore-file demo.name-length -- r3", 0},
	    {20, 1, 21, 0, " infragate: ignore demo.size-limit -- idle", 0},
	    {22, 1, 23, 0, " infragate: ignore demo.other -- never ran", 0},
	    {24, 1, 0, 0, " infragate: ignore demo.size-limit -- at end", 0},
	};
	const char *ran0[] = {"demo.size-limit", "demo.strict.x",
			      "demo.name-length"};
	const char *ran1[] = {"demo.size-limit", "demo.name-length"};
	struct policy_ran ran[2] = {{ran0, 3}, {ran1, 2}};
	struct supp_rules rules = {known_demo, NULL};
	struct yaml_file yf;
	struct supp_set s;
	struct findings fs;
	size_t i;

	sup_file(&yf, cm, sizeof cm / sizeof cm[0]);
	supp_set_init(&s);
	findings_init(&fs, 0);
	add(&fs, "demo.size-limit", SEV_ERROR, 3, 0, "/size");	   /* 0 */
	add(&fs, "demo.size-limit", SEV_ERROR, 4, 0, "/size");	   /* 1 */
	add(&fs, "demo.strict.x", SEV_WARNING, 7, 0, "/a");	   /* 2 */
	add(&fs, "demo.name-length", SEV_WARNING, 2, 0, "/name");  /* 3 */
	add(&fs, "demo.name-length", SEV_WARNING, 11, 1, "/name"); /* 4 */
	add(&fs, "input.type", SEV_ERROR, 3, 0, "/size");	   /* 5 */
	add(&fs, "demo.strict.y", SEV_WARNING, 0, -1, NULL);	   /* 6 */
	cr_assert_eq(supp_parse(&s, "f.yaml", &yf, &rules, &fs), 8);
	/* input.type cannot be suppressed; nope.rule matches no rule */
	cr_assert_eq(fs.n, 9);
	cr_assert_str_eq(fs.items[7].rule, "engine.suppression");
	cr_assert(strstr(fs.items[7].message, "'input.type'"));
	cr_assert_eq(fs.items[7].line, 4);
	cr_assert(strstr(fs.items[8].message, "'nope.rule'"));
	cr_assert_eq(supp_apply(&s, &fs), 4);
	cr_assert_str_eq(fs.items[0].supp_by, "inline");
	cr_assert_str_eq(fs.items[0].supp_reason, "r1");
	cr_assert_str_eq(fs.items[0].supp_source, "f.yaml:3");
	cr_assert_null(fs.items[1].supp_by);
	cr_assert_str_eq(fs.items[2].supp_source, "f.yaml:5");
	cr_assert_str_eq(fs.items[3].supp_source, "f.yaml:12");
	cr_assert_str_eq(fs.items[4].supp_reason, "r3");
	cr_assert_null(fs.items[5].supp_by);
	cr_assert_null(fs.items[6].supp_by);
	for (i = 7; i < fs.n; i++)
		cr_assert_null(fs.items[i].supp_by);
	/* lines 20 and 24 (document 1, the last annotating no line) name
	 * demo.size-limit, which ran there and matched nothing; demo.other
	 * never ran; line 4's only live pattern never ran */
	cr_assert_eq(supp_report_unused(&s, ran, 2, &fs), 2);
	cr_assert_eq(fs.n, 11);
	cr_assert_eq(fs.items[9].line, 20);
	cr_assert_eq(fs.items[9].document, 1);
	cr_assert(strstr(fs.items[9].message, "unused suppression"));
	cr_assert_eq(fs.items[10].line, 24);
	findings_release(&fs);
	supp_set_release(&s);
}

/* ---- waivers ------------------------------------------------------------ */

static struct node *n_str(struct doc *d, const char *s, uint32_t line)
{
	struct node *n = doc_new_str(d, s, strlen(s));

	n->style = STYLE_PLAIN;
	n->line = line;
	n->col = 5;
	return n;
}

static struct node *n_date(struct doc *d, int y, int m, int day)
{
	struct node *n = doc_new(d, NODE_DATE);

	n->v.t.year = (int16_t)y;
	n->v.t.month = (int8_t)m;
	n->v.t.day = (int8_t)day;
	return n;
}

static struct node *n_int(struct doc *d, int64_t v)
{
	struct node *n = doc_new(d, NODE_INT);

	n->v.i = v;
	return n;
}

/* A mapping of 'n' key/value pairs at 'line'. */
static struct node *n_map(struct doc *d, uint32_t line, size_t n, ...)
{
	struct node *m = doc_new(d, NODE_MAP);
	va_list ap;
	size_t i;

	m->line = line;
	m->col = 5;
	m->v.map.pairs = arena_calloc(&d->arena, n, sizeof(struct doc_pair));
	va_start(ap, n);
	for (i = 0; i < n; i++) {
		m->v.map.pairs[i].key =
		    n_str(d, va_arg(ap, const char *), line);
		m->v.map.pairs[i].value = va_arg(ap, struct node *);
	}
	va_end(ap);
	m->v.map.n = n;
	return m;
}

static struct node *n_list(struct doc *d, size_t n, struct node **items)
{
	struct node *l = doc_new(d, NODE_LIST);

	l->line = 1;
	l->col = 1;
	l->v.list.items = items;
	l->v.list.n = n;
	return l;
}

static void load_hand_waivers(struct waivers *w, struct doc *d)
{
	static struct node *items[3], *globs[1];
	struct policy_errors e;

	doc_init(d, 0);
	globs[0] = n_str(d, "*.yaml", 9);
	items[0] =
	    n_map(d, 2, 6, "rule", n_str(d, "demo.size-limit", 2), "files",
		  n_str(d, "plans/legacy/**", 3), "path", n_str(d, "/start", 4),
		  "owner", n_str(d, "alice@example.org", 5), "reason",
		  n_str(d, "migration \"OPS-1\"", 6), "expires",
		  n_date(d, 2026, 6, 30));
	items[1] = n_map(d, 8, 6, "rule", n_str(d, "demo.strict.*", 8), "files",
			 n_list(d, 1, globs), "document", n_int(d, 1), "owner",
			 n_str(d, "bob", 10), "reason", n_str(d, "old", 11),
			 "expires", n_date(d, 2026, 1, 1));
	items[2] =
	    n_map(d, 13, 5, "rule", n_str(d, "demo.never", 13), "files",
		  n_str(d, "x", 14), "owner", n_str(d, "carol", 15), "reason",
		  n_str(d, "r", 16), "expires", n_date(d, 2030, 1, 1));
	waivers_init(w);
	policy_errors_init(&e);
	cr_assert_eq(
	    waivers_from_node(w, n_list(d, 3, items), "w.yaml", "/waivers", &e),
	    0, "%s", e.n ? e.items[0].message : "");
	policy_errors_release(&e);
}

struct expiry_case {
	int32_t today;
	int suppressed;
};

ParameterizedTestParameters(waivers, boundary_day)
{
	static struct expiry_case rows[] = {
	    {20250101, 1}, {20260629, 1}, {20260630, 1},
	    {20260701, 0}, {20270101, 0},
	};

	return cr_make_param_array(struct expiry_case, rows,
				   sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct expiry_case *t, waivers, boundary_day)
{
	struct waivers w;
	struct findings fs;
	struct doc d;
	const struct finding *f;

	load_hand_waivers(&w, &d);
	findings_init(&fs, 0);
	add(&fs, "demo.size-limit", SEV_ERROR, 3, 0, "/start");
	cr_assert_eq(waivers_apply(&w, &fs, "plans/legacy/a.yaml", t->today),
		     (size_t)t->suppressed);
	f = &fs.items[0];
	if (t->suppressed) {
		cr_assert_str_eq(f->supp_by, "waiver");
		cr_assert_str_eq(f->supp_owner, "alice@example.org");
		cr_assert_str_eq(f->supp_expires, "2026-06-30");
		cr_assert_str_eq(f->supp_source, "w.yaml:2");
		cr_assert_null(f->waiver);
	} else {
		cr_assert_null(f->supp_by);
		cr_assert_str_eq(f->waiver,
				 "{\"owner\": \"alice@example.org\", "
				 "\"reason\": \"migration \\\"OPS-1\\\"\", "
				 "\"expires\": \"2026-06-30\", "
				 "\"source\": \"w.yaml:2\"}");
	}
	findings_release(&fs);
	waivers_release(&w);
	doc_release(&d);
}

Test(waivers, matching_and_stale)
{
	struct waivers w;
	struct findings fs, stale;
	struct doc d;

	load_hand_waivers(&w, &d);
	findings_init(&fs, 0);
	findings_init(&stale, 0);
	add(&fs, "demo.size-limit", SEV_ERROR, 3, 0, "/start/x"); /* path */
	add(&fs, "demo.strict.q", SEV_WARNING, 3, 0, "/a");	  /* doc 0 */
	add(&fs, "demo.strict.q", SEV_WARNING, 12, 1, "/a");	  /* expired */
	add(&fs, "input.type", SEV_ERROR, 3, 1, "/a");
	cr_assert_eq(waivers_apply(&w, &fs, "plans/legacy/a.yaml", 20260301),
		     0);
	cr_assert_null(fs.items[0].waiver);
	cr_assert_null(fs.items[1].waiver);
	cr_assert_not_null(fs.items[2].waiver);
	cr_assert(strstr(fs.items[2].waiver, "\"expires\": \"2026-01-01\""));
	cr_assert_null(fs.items[3].waiver);
	/* no relpath (outside the root): nothing matches */
	cr_assert_eq(waivers_apply(&w, &fs, NULL, 20200101), 0);
	cr_assert_eq(waivers_stale(&w, &stale), 2);
	cr_assert_str_eq(stale.items[0].rule, "engine.waiver");
	cr_assert_str_eq(stale.items[0].path, "/waivers/0");
	cr_assert_eq(stale.items[0].line, 2);
	cr_assert_str_eq(stale.items[1].path, "/waivers/2");
	findings_release(&fs);
	findings_release(&stale);
	waivers_release(&w);
	doc_release(&d);
}

Test(waivers, reading_errors)
{
	struct node *items[1];
	struct policy_errors e;
	struct waivers w;
	struct doc d;

	doc_init(&d, 0);
	items[0] =
	    n_map(&d, 2, 6, "rule", n_str(&d, "input.type", 2), "files",
		  n_str(&d, "/abs", 3), "path", n_str(&d, "start", 4), "owner",
		  n_str(&d, "  ", 5), "expires", n_str(&d, "2026-06-30", 6),
		  "colour", n_str(&d, "red", 7));
	waivers_init(&w);
	policy_errors_init(&e);
	cr_assert_eq(waivers_from_node(&w, n_list(&d, 1, items), "w.yaml",
				       "/waivers", &e),
		     -1);
	/* rule, files, path, owner, expires (a string), colour, reason */
	cr_assert_eq(e.n, 7);
	cr_assert_str_eq(e.items[0].path, "/waivers/0/rule");
	cr_assert_str_eq(e.items[0].file, "w.yaml");
	cr_assert_eq(e.items[0].line, 2);
	cr_assert_str_eq(e.items[4].path, "/waivers/0/expires");
	cr_assert_str_eq(e.items[6].path, "/waivers/0/reason");
	policy_errors_release(&e);
	waivers_release(&w);
	doc_release(&d);
}

struct ptr_case {
	char pat[24], ptr[24];
	int want;
};

ParameterizedTestParameters(waivers, pointer_patterns)
{
	static struct ptr_case rows[] = {
	    {"/start", "/start", 1},
	    {"/start", "/start/x", 0},
	    {"/start", "/star", 0},
	    {"/halls/*/kw", "/halls/a/kw", 1},
	    {"/halls/*/kw", "/halls/a/b/kw", 0},
	    {"/halls/**/kw", "/halls/kw", 1},
	    {"/halls/**/kw", "/halls/a/b/kw", 1},
	    {"/halls/**", "/halls", 1},
	    {"/halls/**", "/halls/a/b", 1},
	    {"/**", "", 1},
	    {"/**", "/a/b", 1},
	    {"", "", 1},
	    {"", "/a", 0},
	    {"/*", "", 0},
	    {"/*", "/a", 1},
	    {"/a~1b", "/a~1b", 1},
	    {"/**/x/**/y", "/a/x/b/c/y", 1},
	    {"/**/x/**/y", "/a/x/b/c/z", 0},
	};

	return cr_make_param_array(struct ptr_case, rows,
				   sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct ptr_case *t, waivers, pointer_patterns)
{
	cr_assert_eq(policy_pointer_match(t->pat, t->ptr), t->want,
		     "'%s' ~ '%s'", t->pat, t->ptr);
}

/* ---- baselines ---------------------------------------------------------- */

TestSuite(baseline, .init = tree_setup, .fini = tree_teardown);

static char *slurp(const char *path)
{
	static char buf[8192];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* The number of entries in folder 'rel' of the tree. */
static int count_entries(const char *rel)
{
	char p[PATH_MAX];
	DIR *d;
	struct dirent *de;
	int n = 0;

	snprintf(p, sizeof p, "%s/%s", tmp_root, rel);
	d = opendir(p);
	cr_assert_not_null(d);
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}

static void plan_findings(struct findings *fs)
{
	findings_init(fs, 0);
	add(fs, "demo.size-limit", SEV_ERROR, 3, 0, "/size");
	add(fs, "demo.size-limit", SEV_ERROR, 9, 0, "/size");
	add(fs, "demo.name-length", SEV_WARNING, 2, 0, "/name");
	add(fs, "demo.size-limit", SEV_ERROR, 3, 1, "/size");
	add(fs, "engine.suppression", SEV_WARNING, 5, 0, "");
	add(fs, "demo.a-b", SEV_ERROR, 4, 0, "");
	fs->items[5].supp_by = "inline";
}

Test(baseline, write_sorted_atomic)
{
	static const char want[] =
	    "{\"tool\": \"infragate\", \"version\": \"0.1.0\", \"verb\": "
	    "\"baseline\", \"format\": 1,\n"
	    " \"entries\": [\n"
	    "  {\"rule\": \"demo.a\", \"file\": \"a.yaml\", \"document\": 0,\n"
	    "   \"path\": \"\", \"count\": 1},\n"
	    "  {\"rule\": \"demo.name-length\", \"file\": \"plans/b.yaml\", "
	    "\"document\": 0,\n"
	    "   \"path\": \"/name\", \"count\": 1},\n"
	    "  {\"rule\": \"demo.size-limit\", \"file\": \"plans/b.yaml\", "
	    "\"document\": 0,\n"
	    "   \"path\": \"/size\", \"count\": 2},\n"
	    "  {\"rule\": \"demo.size-limit\", \"file\": \"plans/b.yaml\", "
	    "\"document\": 1,\n"
	    "   \"path\": \"/size\", \"count\": 1}]}\n";
	struct baseline b;
	struct findings fs, other;
	struct sbuf fp = SBUF_INIT;
	struct diag err;

	mk("plans/b.yaml", NULL);
	diag_init(&err);
	baseline_init(&b);
	cr_assert_eq(
	    baseline_set_path(&b, "base.json", "base.json", cwd_now(), &err),
	    0);
	plan_findings(&fs);
	cr_assert_eq(baseline_file_of(&b, "./plans/../plans/b.yaml", &fp), 0);
	cr_assert_str_eq(sbuf_cstr(&fp), "plans/b.yaml");
	cr_assert_eq(baseline_add(&b, sbuf_cstr(&fp), &fs), 0);
	findings_init(&other, 0);
	add(&other, "demo.a", SEV_ERROR, 1, 0, "");
	cr_assert_eq(baseline_add(&b, "a.yaml", &other), 0);
	cr_assert_eq(baseline_add(&b, NULL, &other), 0); /* stdin: nothing */
	cr_assert_eq(baseline_write(&b, "0.1.0", &err), 0, "%s", err.msg);
	cr_assert_str_eq(slurp("base.json"), want);
	/* only the baseline and plans/: no temporary file is left */
	cr_assert_eq(count_entries("."), 2);
	findings_release(&fs);
	findings_release(&other);
	sbuf_release(&fp);
	baseline_release(&b);
}

Test(baseline, empty_and_unusable)
{
	struct baseline b;
	struct findings fs;
	struct diag err;

	diag_init(&err);
	baseline_init(&b);
	cr_assert_eq(baseline_set_path(&b, "b.json", "b.json", cwd_now(), &err),
		     0);
	cr_assert_eq(baseline_write(&b, "0.1.0", &err), 0);
	cr_assert_str_eq(slurp("b.json"),
			 "{\"tool\": \"infragate\", \"version\": \"0.1.0\", "
			 "\"verb\": \"baseline\", \"format\": 1,\n"
			 " \"entries\": []}\n");
	unlink("b.json");
	findings_init(&fs, 0);
	add(&fs, "input.yaml", SEV_ERROR, 1, -1, NULL);
	fs.items[0].flags = FINDING_UNUSABLE;
	cr_assert_eq(baseline_add(&b, "x.yaml", &fs), 0);
	cr_assert_eq(baseline_write(&b, "0.1.0", &err), 1);
	cr_assert_eq(count_entries("."), 0);
	findings_release(&fs);
	baseline_release(&b);
}

Test(baseline, write_failure_leaves_nothing)
{
	struct baseline b;
	struct diag err;

	mk("gone/", NULL);
	diag_init(&err);
	baseline_init(&b);
	cr_assert_eq(baseline_set_path(&b, "gone/b.json", "gone/b.json",
				       cwd_now(), &err),
		     0);
	cr_assert_eq(rmdir("gone"), 0);
	cr_assert_eq(baseline_write(&b, "0.1.0", &err), -1);
	cr_assert_eq(err.code, DIAG_E_OUTPUT);
	cr_assert_eq(count_entries("."), 0);
	cr_assert_eq(baseline_set_path(&b, "nope/b.json", "nope/b.json",
				       cwd_now(), &err),
		     -1);
	baseline_release(&b);
}

Test(baseline, match_by_count_and_stale)
{
	struct baseline b;
	struct findings fs, again, stale;
	struct sbuf fp = SBUF_INIT;
	struct diag err;

	mk("sub/", NULL);
	diag_init(&err);
	baseline_init(&b);
	cr_assert_eq(
	    baseline_set_path(&b, "sub/b.json", "sub/b.json", cwd_now(), &err),
	    0);
	/* the fingerprint file is relative to the baseline's folder */
	cr_assert_eq(baseline_file_of(&b, "plans/b.yaml", &fp), 0);
	cr_assert_str_eq(sbuf_cstr(&fp), "../plans/b.yaml");
	plan_findings(&fs);
	cr_assert_eq(baseline_add(&b, sbuf_cstr(&fp), &fs), 0);
	/* the next run: the same findings moved down a line, and one more
	 * of a known fingerprint */
	findings_init(&again, 0);
	add(&again, "demo.size-limit", SEV_ERROR, 5, 0, "/size");
	add(&again, "demo.size-limit", SEV_ERROR, 11, 0, "/size");
	add(&again, "demo.size-limit", SEV_ERROR, 12, 0, "/size");
	add(&again, "demo.size-limit", SEV_ERROR, 5, 1, "/size");
	add(&again, "input.type", SEV_ERROR, 5, 1, "/size");
	cr_assert_eq(baseline_apply(&b, &again, NULL), 0);
	cr_assert_eq(baseline_apply(&b, &again, sbuf_cstr(&fp)), 3);
	cr_assert_str_eq(again.items[0].supp_by, "baseline");
	cr_assert_str_eq(again.items[0].supp_source, "sub/b.json");
	cr_assert_str_eq(again.items[1].supp_by, "baseline");
	cr_assert_null(again.items[2].supp_by);
	cr_assert_str_eq(again.items[3].supp_by, "baseline");
	cr_assert_null(again.items[4].supp_by);
	/* demo.name-length matched nothing */
	findings_init(&stale, 0);
	cr_assert_eq(baseline_stale(&b, &stale), 1);
	cr_assert_str_eq(stale.items[0].rule, "engine.baseline");
	cr_assert(strstr(stale.items[0].message, "demo.name-length"));
	findings_release(&fs);
	findings_release(&again);
	findings_release(&stale);
	sbuf_release(&fp);
	baseline_release(&b);
}

/* ---- with the YAML loader ---------------------------------------------- */

Test(suppress, through_the_loader)
{
	static const char text[] =
	    "kind: demo-item\n"
	    "name: a\n"
	    "size: 500  # infragate: ignore demo.size-limit -- test reason\n"
	    "note: \"# infragate: ignore demo.x -- y\"\n"
	    "block: |\n"
	    "  # infragate: ignore demo.y -- z\n"
	    "# infragate: ignore demo.name-length -- next line\n"
	    "\n"
	    "owner: b\n";
	struct yaml_limits lim;
	struct yaml_file yf;
	struct supp_set s;
	struct findings fs;
	struct diag err;

	yaml_limits_default(&lim);
	yaml_file_init(&yf);
	diag_init(&err);
	cr_assert_eq(
	    yaml_load(&yf, text, sizeof text - 1, YAML_STREAM, &lim, 1, &err),
	    0, "%s", err.msg);
	supp_set_init(&s);
	findings_init(&fs, 0);
	cr_assert_eq(supp_parse(&s, "x.yaml", &yf, NULL, &fs), 2);
	cr_assert_eq(fs.n, 0);
	cr_assert_eq(s.items[0].line, 3);
	cr_assert_eq(s.items[0].applies_line, 3);
	cr_assert_eq(s.items[1].line, 7);
	cr_assert_eq(s.items[1].applies_line, 9);
	add(&fs, "demo.size-limit", SEV_ERROR, 3, 0, "/size");
	add(&fs, "demo.x", SEV_ERROR, 4, 0, "/note");
	cr_assert_eq(supp_apply(&s, &fs), 1);
	cr_assert_str_eq(fs.items[0].supp_by, "inline");
	cr_assert_null(fs.items[1].supp_by);
	findings_release(&fs);
	supp_set_release(&s);
	yaml_file_release(&yf);
}

Test(waivers, file_load_and_errors, .init = tree_setup, .fini = tree_teardown)
{
	static const char good[] = "waivers:\n"
				   "  - rule: demo.size-limit\n"
				   "    files: plans/**\n"
				   "    owner: alice\n"
				   "    reason: r\n"
				   "    expires: 2026-06-30\n"
				   "    created: 2026-01-01\n"
				   "    ticket: OPS-1\n";
	static const char no_owner[] = "waivers:\n"
				       "  - rule: demo.size-limit\n"
				       "    files: plans/**\n"
				       "    reason: r\n"
				       "    expires: 2026-06-30\n";
	struct policy_load ld = loader();
	struct policy_errors e;
	struct waivers w;

	mk("w.yaml", good);
	mk("bad.yaml", no_owner);
	waivers_init(&w);
	policy_errors_init(&e);
	cr_assert_eq(waivers_load(&w, "w.yaml", "w.yaml", &ld, &e), 0, "%s",
		     e.n ? e.items[0].message : "");
	cr_assert_eq(w.n, 1);
	cr_assert_eq(w.items[0].created, 20260101);
	cr_assert_str_eq(w.items[0].ticket, "OPS-1");
	cr_assert_str_eq(w.items[0].source, "w.yaml:2");
	waivers_release(&w);
	waivers_init(&w);
	cr_assert_eq(waivers_load(&w, "bad.yaml", "bad.yaml", &ld, &e), -1);
	cr_assert_str_eq(e.items[0].file, "bad.yaml");
	cr_assert_eq(e.items[0].line, 2);
	cr_assert(strstr(e.items[0].message, "owner"));
	waivers_release(&w);
	policy_errors_release(&e);
}

Test(baseline, read_back_and_errors)
{
	struct policy_load ld = loader();
	struct baseline b, r;
	struct findings fs;
	struct policy_errors e;
	struct diag err;

	diag_init(&err);
	baseline_init(&b);
	cr_assert_eq(baseline_set_path(&b, "b.json", "b.json", cwd_now(), &err),
		     0);
	plan_findings(&fs);
	cr_assert_eq(baseline_add(&b, "plans/b.yaml", &fs), 0);
	cr_assert_eq(baseline_write(&b, "0.1.0", &err), 0);
	baseline_init(&r);
	policy_errors_init(&e);
	cr_assert_eq(baseline_load(&r, "b.json", "b.json", cwd_now(), &ld, &e),
		     0, "%s", e.n ? e.items[0].message : "");
	cr_assert_eq(r.n, b.n);
	cr_assert_str_eq(r.items[1].rule, "demo.size-limit");
	cr_assert_eq(r.items[1].count, 2);
	cr_assert_eq(r.items[1].pos.line, 5);
	cr_assert_eq(baseline_apply(&r, &fs, "plans/b.yaml"), 4);
	baseline_release(&r);
	mk("bad.json",
	   "{\"tool\": \"infragate\", \"verb\": \"baseline\",\n"
	   " \"format\": 1, \"entries\": [\n"
	   "  {\"rule\": \"demo.x\", \"file\": \"a\", "
	   "\"document\": 0, \"path\": \"\", \"count\": \"1\"}]}\n");
	baseline_init(&r);
	cr_assert_eq(
	    baseline_load(&r, "bad.json", "bad.json", cwd_now(), &ld, &e), -1);
	cr_assert_str_eq(e.items[0].path, "/entries/0/count");
	cr_assert_eq(e.items[0].line, 3);
	baseline_release(&r);
	mk("syntax.json", "{\"entries\": [,]}\n");
	baseline_init(&r);
	cr_assert_eq(
	    baseline_load(&r, "syntax.json", "syntax.json", cwd_now(), &ld, &e),
	    -1);
	cr_assert_eq(e.items[1].line, 1);
	baseline_release(&r);
	findings_release(&fs);
	policy_errors_release(&e);
	baseline_release(&b);
}
