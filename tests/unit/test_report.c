/*
 * test_report.c: the lint report (core/engine/report.h): verdicts, counts
 * and exit codes as rows, the summary line's forms, and each of the five
 * reporters on reports built by hand, compared as whole outputs. SARIF is
 * validated against the 2.1.0 schema by tests/sarif-check.py and JUnit
 * parsed by Python's minidom; both skip when Python lacks the module.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/engine/report.h"
#include "core/util/crypto.h"

extern char **environ;

/* ---- building reports ---------------------------------------------------- */

static struct finding *add(struct lint_file *lf, const char *rule,
			   enum severity sev, const char *msg, uint32_t line,
			   uint32_t col, uint32_t end_line, uint32_t end_col,
			   const char *path, int document, const char *figures)
{
	struct finding f;
	struct finding *x;

	memset(&f, 0, sizeof f);
	f.rule = rule;
	f.severity = sev;
	f.message = msg;
	f.line = line;
	f.col = col;
	f.end_line = end_line;
	f.end_col = end_col;
	f.path = path;
	f.document = document;
	f.figures = figures;
	x = findings_add(&lf->fs, &f);
	cr_assert_not_null(x);
	return x;
}

static void suppress(struct lint_file *lf, struct finding *x, const char *by,
		     const char *reason, const char *owner,
		     const char *expires, const char *source)
{
	x->supp_by = findings_strdup(&lf->fs, by);
	x->supp_reason = findings_strdup(&lf->fs, reason);
	x->supp_owner = findings_strdup(&lf->fs, owner);
	x->supp_expires = findings_strdup(&lf->fs, expires);
	x->supp_source = findings_strdup(&lf->fs, source);
}

/* The ids of the rules that ran, NULL-terminated, copied as the engine
 * hands them over (the report frees them). */
static void set_ran(struct lint_file *lf, ...)
{
	va_list ap;
	const char *id;

	va_start(ap, lf);
	while ((id = va_arg(ap, const char *))) {
		lf->rules_ran = realloc(lf->rules_ran,
					(lf->nrules_ran + 1) * sizeof(char *));
		cr_assert_not_null(lf->rules_ran);
		lf->rules_ran[lf->nrules_ran++] = strdup(id);
	}
	va_end(ap);
}

static const char *const size_tags[] = { "capacity" };
static const char *const note_tags[] = { "strict", "docs", "demo" };

static const struct rule_info known_rules[] = {
	{ .id = "demo.size-limit", .pack = "demo",
	  .summary = "size must not exceed the limit",
	  .description = "a longer description", .fix = "lower the size",
	  .help_uri = "https://example.org/demo#size-limit",
	  .tags = size_tags, .ntags = 1, .severity = SEV_ERROR },
	{ .id = "demo.strict.note", .pack = "demo",
	  .summary = "an owner should be stated", .tags = note_tags,
	  .ntags = 3, .severity = SEV_WARNING, .strict = 1 },
	{ .id = "input.unreadable", .summary = "the file cannot be read",
	  .severity = SEV_ERROR, .input_stage = 1 },
};

static const struct rule_info *find_rule(void *ud, const char *id)
{
	size_t i;

	(void)ud;
	for (i = 0; i < sizeof known_rules / sizeof known_rules[0]; i++)
		if (strcmp(known_rules[i].id, id) == 0)
			return &known_rules[i];
	return NULL;
}

#define WAIVER_JSON                                                        \
	"{\"owner\": \"alice@example.org\", "                                \
	"\"reason\": \"legacy \\\"plans\\\"\", "                           \
	"\"expires\": \"2026-06-30\", \"source\": \"waivers.yaml:2\"}"

/*
 * The rich report: a failing file with figures, a warning, a suppressed
 * finding and an expired waiver; an unreadable file; "a,b.yaml" with a
 * message holding '%', ',', ':', a newline, "é" and a control character,
 * and a truncation warning from no rule that ran.
 */
static void rich(struct lint_report *r)
{
	struct lint_file *a, *g, *c;
	struct finding *x;

	lint_report_init(r);
	r->version = "0.1.0";
	r->rules.find = find_rule;
	a = lint_report_add_file(r, "plans/a.yaml");
	cr_assert_not_null(a);
	add(a, "demo.size-limit", SEV_ERROR, "size 12 is over the limit of 10",
	    3, 7, 3, 9, "/size", 0, "{\"size\": 12, \"limit\": 10.5}");
	add(a, "demo.strict.note", SEV_WARNING, "no owner stated", 1, 1, 1, 5,
	    "", 0, NULL);
	x = add(a, "demo.size-limit", SEV_ERROR, "size 11 is over the limit",
		8, 7, 8, 9, "/other", 0, NULL);
	suppress(a, x, "inline", "legacy (OPS-1)", NULL, NULL,
		 "plans/a.yaml:8");
	x = add(a, "demo.other", SEV_WARNING, "expired one", 4, 2, 0, 0,
		"/x", 0, NULL);
	x->waiver = findings_strdup(&a->fs, WAIVER_JSON);
	set_ran(a, "demo.size-limit", "demo.strict.note", "demo.other",
		"demo.clean", (const char *)NULL);

	g = lint_report_add_file(r, "gone.yaml");
	cr_assert_not_null(g);
	x = add(g, "input.unreadable", SEV_ERROR,
		"cannot read 'gone.yaml': no such file", 0, 0, 0, 0, NULL, -1,
		NULL);
	x->flags = FINDING_UNUSABLE;

	c = lint_report_add_file(r, "a,b.yaml");
	cr_assert_not_null(c);
	add(c, "demo.msg", SEV_INFO, "50%, a: b\nsecond \xc3\xa9\x01x", 2, 3, 2,
	    10, "/k", 0, NULL);
	add(c, "engine.truncated", SEV_WARNING, "more than 1 findings", 0, 0,
	    0, 0, "", 0, "{\"limit\": \"findings\", \"value\": 1}");
	set_ran(c, "demo.msg", (const char *)NULL);
	lint_report_finish(r, 0);
}

static char *render(const struct lint_report *r, enum report_format fmt)
{
	struct sbuf sb = SBUF_INIT;
	char *s;

	cr_assert_eq(report_write(r, fmt, &sb), 0);
	sbuf_cstr(&sb);
	s = sbuf_detach(&sb, NULL);
	return s ? s : strdup("");
}

static void expect(const struct lint_report *r, enum report_format fmt,
		   const char *want)
{
	char *got = render(r, fmt);

	cr_assert_str_eq(got, want, "%s output:\n%s\nwanted:\n%s",
			 report_format_name(fmt), got, want);
	free(got);
}

/* ---- running Python on an output ----------------------------------------- */

static void write_temp(const char *text, char path[64])
{
	int fd;
	size_t len = strlen(text);

	snprintf(path, 64, "/tmp/test_report-XXXXXX");
	fd = mkstemp(path);
	cr_assert(fd >= 0);
	cr_assert_eq(write(fd, text, len), (ssize_t)len);
	close(fd);
}

static char py_bin[] = "/usr/bin/python3";
static char py_c[] = "-c";

/* Run argv; returns its exit status, or -1 when it did not exit. */
static int run(char *const argv[])
{
	pid_t pid;
	int st;

	if (posix_spawn(&pid, argv[0], NULL, NULL, argv, environ) != 0)
		return -1;
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static int have_python_module(const char *mod)
{
	char code[128];
	char *argv[] = { py_bin, py_c, code, NULL };

	if (access("/usr/bin/python3", X_OK) != 0)
		return 0;
	snprintf(code, sizeof code, "import %s", mod);
	return run(argv) == 0;
}

/* ---- formats ------------------------------------------------------------- */

Test(report, format_names)
{
	static const char *const names[] = { "text", "json", "sarif",
					     "github", "junit" };
	int i;

	for (i = 0; i < FORMAT_NFORMATS; i++) {
		cr_assert_str_eq(report_format_name((enum report_format)i),
				 names[i]);
		cr_assert_eq(report_format_parse(names[i]), i);
	}
	cr_assert_eq(report_format_parse("yml"), -1);
	cr_assert_eq(report_format_parse("JSON"), -1);
	cr_assert_eq(report_format_parse(""), -1);
	cr_assert_null(report_format_name(FORMAT_NFORMATS));
}

/* ---- verdicts and exit codes --------------------------------------------- */

/* Rows hold arrays, not pointers: Criterion runs each test in a fresh
 * process, where the parent's string addresses mean nothing. */
struct verdict_case {
	char rule[32];
	enum severity sev;
	enum severity fail_on;
	unsigned flags;
	int suppressed;
	enum verdict want;
	int want_exit;
};

ParameterizedTestParameters(report, verdict)
{
	static struct verdict_case rows[] = {
		{ "demo.x", SEV_ERROR, SEV_ERROR, 0, 0, VERDICT_FAIL, 1 },
		{ "demo.x", SEV_WARNING, SEV_ERROR, 0, 0, VERDICT_PASS, 0 },
		{ "demo.x", SEV_INFO, SEV_ERROR, 0, 0, VERDICT_PASS, 0 },
		{ "demo.x", SEV_ERROR, SEV_WARNING, 0, 0, VERDICT_FAIL, 1 },
		{ "demo.x", SEV_WARNING, SEV_WARNING, 0, 0, VERDICT_FAIL, 1 },
		{ "demo.x", SEV_INFO, SEV_WARNING, 0, 0, VERDICT_PASS, 0 },
		{ "demo.x", SEV_INFO, SEV_INFO, 0, 0, VERDICT_FAIL, 1 },
		{ "demo.x", SEV_ERROR, SEV_NONE, 0, 0, VERDICT_PASS, 0 },
		{ "demo.x", SEV_ERROR, SEV_ERROR, 0, 1, VERDICT_PASS, 0 },
		{ "demo.x", SEV_WARNING, SEV_WARNING, 0, 1, VERDICT_PASS, 0 },
		/* unusable whatever fail_on says */
		{ "input.yaml", SEV_ERROR, SEV_NONE, 0, 0, VERDICT_ERROR, 2 },
		{ "engine.budget", SEV_ERROR, SEV_ERROR, 0, 0, VERDICT_ERROR,
		  2 },
		{ "demo.schema", SEV_WARNING, SEV_NONE, FINDING_UNUSABLE, 0,
		  VERDICT_ERROR, 2 },
		/* engine warnings are no input problem */
		{ "engine.truncated", SEV_WARNING, SEV_ERROR, 0, 0,
		  VERDICT_PASS, 0 },
		{ "engine.suppression", SEV_WARNING, SEV_WARNING, 0, 0,
		  VERDICT_FAIL, 1 },
		{ "inputs.x", SEV_ERROR, SEV_NONE, 0, 0, VERDICT_PASS, 0 },
	};

	return cr_make_param_array(struct verdict_case, rows,
				   sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct verdict_case *c, report, verdict)
{
	struct lint_report r;
	struct lint_file *lf;
	struct finding *x;

	lint_report_init(&r);
	r.fail_on = c->fail_on;
	lf = lint_report_add_file(&r, "f.yaml");
	cr_assert_not_null(lf);
	x = add(lf, c->rule, c->sev, "m", 1, 1, 1, 2, "", 0, NULL);
	x->flags = c->flags;
	if (c->suppressed)
		suppress(lf, x, "baseline", NULL, NULL, NULL, NULL);
	lint_report_finish(&r, 0);
	cr_assert_eq(lf->verdict, c->want, "%s %d fail_on %d", c->rule,
		     c->sev, c->fail_on);
	cr_assert_eq(r.exit_code, c->want_exit);
	cr_assert_eq(r.sum.failed, c->want != VERDICT_PASS);
	cr_assert_eq(r.sum.unusable, c->want == VERDICT_ERROR);
	cr_assert_eq(r.sum.passed, c->want == VERDICT_PASS);
	cr_assert_eq(r.sum.suppressed, (size_t)c->suppressed);
	lint_report_release(&r);
}

Test(report, defaults)
{
	struct lint_report r;

	lint_report_init(&r);
	cr_assert_eq(r.fail_on, SEV_ERROR);
	cr_assert_str_eq(r.verb, "lint");
	cr_assert_not_null(r.version);
	cr_assert_eq(r.nfiles, 0);
	lint_report_finish(&r, 0);
	cr_assert_eq(r.exit_code, 0);
	lint_report_release(&r);
}

Test(report, exit_code_two_is_kept)
{
	struct lint_report r;

	lint_report_init(&r);
	r.exit_code = 2;
	cr_assert_not_null(lint_report_add_file(&r, "ok.yaml"));
	lint_report_finish(&r, 0);
	cr_assert_eq(r.exit_code, 2);
	lint_report_release(&r);
}

Test(report, exit_code_error_wins_over_fail)
{
	struct lint_report r;
	struct lint_file *lf;

	lint_report_init(&r);
	lf = lint_report_add_file(&r, "a.yaml");
	add(lf, "demo.x", SEV_ERROR, "m", 1, 1, 0, 0, "", 0, NULL);
	lf = lint_report_add_file(&r, "b.yaml");
	add(lf, "input.yaml", SEV_ERROR, "m", 1, 1, 0, 0, NULL, -1, NULL);
	lf = lint_report_add_file(&r, "c.yaml");
	add(lf, "demo.x", SEV_ERROR, "m", 1, 1, 0, 0, "", 0, NULL);
	lint_report_finish(&r, 0);
	cr_assert_eq(r.exit_code, 2);
	/* a preset 1 is recomputed, only 2 is sticky */
	lint_report_release(&r);
	lint_report_init(&r);
	r.exit_code = 1;
	lint_report_finish(&r, 0);
	cr_assert_eq(r.exit_code, 0);
	lint_report_release(&r);
}

Test(report, counts)
{
	struct lint_report r;

	rich(&r);
	cr_assert_eq(r.sum.files, 3);
	cr_assert_eq(r.sum.passed, 1);
	cr_assert_eq(r.sum.failed, 2);
	cr_assert_eq(r.sum.unusable, 1);
	cr_assert_eq(r.sum.errors, 2);
	cr_assert_eq(r.sum.warnings, 3);
	cr_assert_eq(r.sum.infos, 1);
	cr_assert_eq(r.sum.suppressed, 1);
	cr_assert_eq(r.sum.skipped, 0);
	cr_assert_eq(r.files[0].verdict, VERDICT_FAIL);
	cr_assert_eq(r.files[1].verdict, VERDICT_ERROR);
	cr_assert_eq(r.files[2].verdict, VERDICT_PASS);
	cr_assert_eq(r.exit_code, 2);
	lint_report_release(&r);
}

/* ---- the summary line ---------------------------------------------------- */

struct summary_case {
	struct lint_summary sum;
	char want[128];
};

ParameterizedTestParameters(report, summary)
{
	static struct summary_case rows[] = {
		{ { 0, 0, 0, 0, 0, 0, 0, 0, 0 },
		  "0 files: 0 passed, 0 failed; 0 errors, 0 warnings\n" },
		{ { 1, 1, 0, 0, 0, 0, 0, 0, 0 },
		  "1 file: 1 passed, 0 failed; 0 errors, 0 warnings\n" },
		{ { 1, 0, 1, 1, 1, 0, 0, 0, 0 },
		  "1 file: 0 passed, 1 failed; 1 error, 1 warning\n" },
		{ { 3, 1, 2, 2, 1, 0, 1, 0, 0 },
		  "3 files: 1 passed, 2 failed (1 unusable); 2 errors, "
		  "1 warning\n" },
		{ { 2, 2, 0, 0, 0, 1, 0, 3, 0 },
		  "2 files: 2 passed, 0 failed (3 skipped); 0 errors, "
		  "0 warnings, 1 info\n" },
		{ { 3, 1, 2, 2, 2, 2, 1, 2, 4 },
		  "3 files: 1 passed, 2 failed (1 unusable, 2 skipped); "
		  "2 errors, 2 warnings, 2 infos, 4 suppressed\n" },
		{ { 1, 1, 0, 0, 0, 0, 0, 0, 1 },
		  "1 file: 1 passed, 0 failed; 0 errors, 0 warnings, "
		  "1 suppressed\n" },
	};

	return cr_make_param_array(struct summary_case, rows,
				   sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct summary_case *c, report, summary)
{
	struct lint_report r;
	struct sbuf sb = SBUF_INIT;

	lint_report_init(&r);
	r.sum = c->sum;
	report_text_summary(&r, &sb);
	cr_assert_str_eq(sbuf_cstr(&sb), c->want);
	sbuf_release(&sb);
	lint_report_release(&r);
}

Test(report, skipped_counts)
{
	struct lint_report r;

	lint_report_init(&r);
	cr_assert_not_null(lint_report_add_file(&r, "a.yaml"));
	lint_report_finish(&r, 4);
	cr_assert_eq(r.sum.skipped, 4);
	cr_assert_eq(r.sum.files, 1);
	cr_assert_eq(r.sum.passed, 1);
	expect(&r, FORMAT_TEXT,
	       "1 file: 1 passed, 0 failed (4 skipped); 0 errors, "
	       "0 warnings\n");
	lint_report_release(&r);
}

/* ---- text ---------------------------------------------------------------- */

#define RICH_SUMMARY                                                     \
	"3 files: 1 passed, 2 failed (1 unusable); 2 errors, 3 warnings, " \
	"1 info, 1 suppressed\n"

Test(report, text)
{
	struct lint_report r;

	rich(&r);
	expect(&r, FORMAT_TEXT,
	       "plans/a.yaml:3:7: error[demo.size-limit]: size 12 is over the "
	       "limit of 10\n"
	       "plans/a.yaml:1:1: warning[demo.strict.note]: no owner stated\n"
	       "plans/a.yaml:4:2: warning[demo.other]: expired one (waiver by "
	       "alice@example.org expired 2026-06-30)\n"
	       "gone.yaml: error[input.unreadable]: cannot read 'gone.yaml': "
	       "no such file\n"
	       "a,b.yaml:2:3: info[demo.msg]: 50%, a: b second \xc3\xa9 x\n"
	       "a,b.yaml: warning[engine.truncated]: more than 1 findings\n"
	       RICH_SUMMARY);
	r.quiet = 1;
	r.show_suppressed = 1;
	expect(&r, FORMAT_TEXT,
	       "plans/a.yaml:3:7: error[demo.size-limit]: size 12 is over the "
	       "limit of 10\n"
	       "plans/a.yaml:1:1: warning[demo.strict.note]: no owner stated\n"
	       "plans/a.yaml:8:7: error[demo.size-limit]: size 11 is over the "
	       "limit (suppressed by inline: legacy (OPS-1))\n"
	       "plans/a.yaml:4:2: warning[demo.other]: expired one (waiver by "
	       "alice@example.org expired 2026-06-30)\n"
	       "gone.yaml: error[input.unreadable]: cannot read 'gone.yaml': "
	       "no such file\n"
	       "a,b.yaml:2:3: info[demo.msg]: 50%, a: b second \xc3\xa9 x\n"
	       "a,b.yaml: warning[engine.truncated]: more than 1 findings\n");
	lint_report_release(&r);
}

Test(report, text_file_by_file)
{
	struct lint_report r;
	struct sbuf sb = SBUF_INIT;

	rich(&r);
	report_text_file(&r, &r.files[1], &sb);
	cr_assert_str_eq(sbuf_cstr(&sb),
			 "gone.yaml: error[input.unreadable]: cannot read "
			 "'gone.yaml': no such file\n");
	sbuf_release(&sb);
	lint_report_release(&r);
}

Test(report, text_suppressed_without_reason)
{
	struct lint_report r;
	struct lint_file *lf;
	struct finding *x;

	lint_report_init(&r);
	r.show_suppressed = 1;
	r.quiet = 1;
	lf = lint_report_add_file(&r, "b.yaml");
	x = add(lf, "demo.x", SEV_ERROR, "tab\there\x7f\xc2\x85.", 2, 0, 0, 0,
		"/a", 0, NULL);
	suppress(lf, x, "baseline", NULL, NULL, NULL, NULL);
	lint_report_finish(&r, 0);
	/* a line without a column, control characters (C0, DEL, C1) as
	 * spaces */
	expect(&r, FORMAT_TEXT,
	       "b.yaml:2: error[demo.x]: tab here  . (suppressed by "
	       "baseline)\n");
	lint_report_release(&r);
}

Test(report, text_color)
{
	struct lint_report r;
	struct lint_file *lf;

	lint_report_init(&r);
	r.color = 1;
	r.quiet = 1;
	lf = lint_report_add_file(&r, "c.yaml");
	add(lf, "demo.e", SEV_ERROR, "e", 1, 2, 0, 0, "", 0, NULL);
	add(lf, "demo.w", SEV_WARNING, "w", 1, 2, 0, 0, "", 0, NULL);
	add(lf, "demo.i", SEV_INFO, "i", 1, 2, 0, 0, "", 0, NULL);
	lint_report_finish(&r, 0);
	expect(&r, FORMAT_TEXT,
	       "c.yaml:1:2: \033[31merror\033[0m[\033[1mdemo.e\033[0m]: e\n"
	       "c.yaml:1:2: \033[33mwarning\033[0m[\033[1mdemo.w\033[0m]: w\n"
	       "c.yaml:1:2: \033[36minfo\033[0m[\033[1mdemo.i\033[0m]: i\n");
	lint_report_release(&r);
}

/* ---- github -------------------------------------------------------------- */

Test(report, github)
{
	struct lint_report r;

	rich(&r);
	expect(&r, FORMAT_GITHUB,
	       "::error file=plans/a.yaml,line=3,col=7,endLine=3,endColumn=9,"
	       "title=demo.size-limit::size 12 is over the limit of 10\n"
	       "::warning file=plans/a.yaml,line=1,col=1,endLine=1,endColumn=5,"
	       "title=demo.strict.note::no owner stated\n"
	       "::warning file=plans/a.yaml,line=4,col=2,title=demo.other::"
	       "expired one\n"
	       "::error file=gone.yaml,title=input.unreadable::cannot read "
	       "'gone.yaml': no such file\n"
	       "::notice file=a%2Cb.yaml,line=2,col=3,endLine=2,endColumn=10,"
	       "title=demo.msg::50%25, a: b%0Asecond \xc3\xa9 x\n"
	       "::warning file=a%2Cb.yaml,title=engine.truncated::more than 1 "
	       "findings\n" RICH_SUMMARY);
	lint_report_release(&r);
}

Test(report, github_property_escapes)
{
	struct lint_report r;
	struct lint_file *lf;

	lint_report_init(&r);
	r.quiet = 1;
	lf = lint_report_add_file(&r, "d:1,%\r\n.yaml");
	add(lf, "demo.x", SEV_ERROR, "a\rb%", 1, 1, 0, 0, "", 0, NULL);
	lint_report_finish(&r, 0);
	expect(&r, FORMAT_GITHUB,
	       "::error file=d%3A1%2C%25%0D%0A.yaml,line=1,col=1,"
	       "title=demo.x::a%0Db%25\n");
	lint_report_release(&r);
}

/* ---- json ---------------------------------------------------------------- */

Test(report, json_small)
{
	struct lint_report r;
	struct lint_file *lf;
	struct finding *x;

	lint_report_init(&r);
	r.version = "0.1.0";
	lf = lint_report_add_file(&r, "plans/a.yaml");
	add(lf, "demo.b", SEV_WARNING, "w", 7, 8, 7, 53, "/start", 0, NULL);
	add(lf, "demo.a", SEV_ERROR, "size \"12\" \xc3\xa9\x01", 6, 35, 6, 38,
	    "/size", 0, "{\"size\": 12, \"limit\": 1e-05}");
	add(lf, "demo.a", SEV_ERROR, "again", 9, 1, 9, 2, "/size", 1, NULL);
	x = add(lf, "demo.c", SEV_ERROR, "hidden", 2, 1, 2, 4, "/h", 0, NULL);
	suppress(lf, x, "waiver", "OPS-1", "bob", "2026-06-30",
		 "waivers.yaml:3");
	lf->report_members = strdup("\"demo\": {\"ok\": true}");
	lf = lint_report_add_file(&r, "gone.yaml");
	x = add(lf, "input.unreadable", SEV_ERROR, "cannot read", 0, 0, 0, 0,
		NULL, -1, NULL);
	x->flags = FINDING_UNUSABLE;
	lf = lint_report_add_file(&r, "ok.yaml");
	lint_report_finish(&r, 2);
	expect(&r, FORMAT_JSON,
	       "{\"tool\": \"infragate\", \"version\": \"0.1.0\", "
	       "\"verb\": \"lint\",\n"
	       " \"files\": [\n"
	       "  {\"file\": \"plans/a.yaml\", \"verdict\": \"fail\",\n"
	       "   \"rules\": [\"demo.a\", \"demo.b\"],\n"
	       "   \"findings\": [\n"
	       "    {\"rule\": \"demo.b\", \"severity\": \"warning\", "
	       "\"message\": \"w\", \"line\": 7, \"column\": 8, "
	       "\"path\": \"/start\", \"document\": 0, \"end_line\": 7, "
	       "\"end_column\": 53},\n"
	       "    {\"rule\": \"demo.a\", \"severity\": \"error\", "
	       "\"message\": \"size \\\"12\\\" \xc3\xa9\\u0001\", \"line\": 6, "
	       "\"column\": 35, \"path\": \"/size\", \"document\": 0, "
	       "\"end_line\": 6, \"end_column\": 38, "
	       "\"figures\": {\"size\": 12, \"limit\": 1e-05}},\n"
	       "    {\"rule\": \"demo.a\", \"severity\": \"error\", "
	       "\"message\": \"again\", \"line\": 9, \"column\": 1, "
	       "\"path\": \"/size\", \"document\": 1, \"end_line\": 9, "
	       "\"end_column\": 2}],\n"
	       "   \"suppressed\": [\n"
	       "    {\"rule\": \"demo.c\", \"severity\": \"error\", "
	       "\"message\": \"hidden\", \"line\": 2, \"column\": 1, "
	       "\"path\": \"/h\", \"document\": 0, \"end_line\": 2, "
	       "\"end_column\": 4, \"suppression\": {\"by\": \"waiver\", "
	       "\"reason\": \"OPS-1\", \"owner\": \"bob\", "
	       "\"expires\": \"2026-06-30\", "
	       "\"source\": \"waivers.yaml:3\"}}],\n"
	       "   \"demo\": {\"ok\": true}},\n"
	       "  {\"file\": \"gone.yaml\", \"verdict\": \"error\",\n"
	       "   \"rules\": [\"input.unreadable\"],\n"
	       "   \"findings\": [\n"
	       "    {\"rule\": \"input.unreadable\", \"severity\": \"error\", "
	       "\"message\": \"cannot read\", \"line\": null, "
	       "\"column\": null, \"path\": null, \"document\": null, "
	       "\"end_line\": null, \"end_column\": null}],\n"
	       "   \"suppressed\": []},\n"
	       "  {\"file\": \"ok.yaml\", \"verdict\": \"pass\",\n"
	       "   \"rules\": [],\n"
	       "   \"findings\": [],\n"
	       "   \"suppressed\": []}],\n"
	       " \"summary\": {\"files\": 3, \"failed\": 2, \"errors\": 3, "
	       "\"warnings\": 1, \"infos\": 0, \"unusable\": 1, "
	       "\"skipped\": 2, \"suppressed\": 1}}\n");
	lint_report_release(&r);
}

Test(report, json_empty)
{
	struct lint_report r;

	lint_report_init(&r);
	r.version = "0.1.0";
	r.verb = "gate";
	lint_report_finish(&r, 0);
	expect(&r, FORMAT_JSON,
	       "{\"tool\": \"infragate\", \"version\": \"0.1.0\", "
	       "\"verb\": \"gate\",\n"
	       " \"files\": [],\n"
	       " \"summary\": {\"files\": 0, \"failed\": 0, \"errors\": 0, "
	       "\"warnings\": 0, \"infos\": 0, \"unusable\": 0, "
	       "\"skipped\": 0, \"suppressed\": 0}}\n");
	lint_report_release(&r);
}

Test(report, json_waiver_and_bad_utf8)
{
	struct lint_report r;
	char *got;

	rich(&r);
	/* a display name that is not UTF-8 still gives UTF-8 JSON */
	free(r.files[1].display);
	r.files[1].display = strdup("g\xff.yaml");
	got = render(&r, FORMAT_JSON);
	cr_assert_not_null(strstr(
		got, "\"end_column\": null, \"waiver\": " WAIVER_JSON "}"));
	cr_assert_not_null(strstr(got, "\"file\": \"g\xef\xbf\xbd.yaml\""));
	cr_assert_not_null(strstr(got, "b\\nsecond \xc3\xa9\\u0001x"));
	free(got);
	lint_report_release(&r);
}

Test(report, json_parses)
{
	struct lint_report r;
	char path[64], *got;
	static char code[] = "import json,sys; "
			     "json.load(open(sys.argv[1], encoding='utf-8'))";
	char *argv[] = { py_bin, py_c, code, path, NULL };

	if (!have_python_module("json"))
		cr_skip_test("no /usr/bin/python3");
	rich(&r);
	got = render(&r, FORMAT_JSON);
	write_temp(got, path);
	cr_assert_eq(run(argv), 0, "not JSON:\n%s", got);
	unlink(path);
	free(got);
	lint_report_release(&r);
}

/* ---- sarif --------------------------------------------------------------- */

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (; (hay = strstr(hay, needle)); hay++)
		n++;
	return n;
}

Test(report, sarif_content)
{
	struct lint_report r;
	char *got;
	unsigned char md[CRYPTO_SHA256_LEN];
	char hex[2 * CRYPTO_SHA256_LEN + 1], want[128];
	static const char fp[] = "demo.size-limit\0plans/a.yaml\0" "0\0/size";

	rich(&r);
	got = render(&r, FORMAT_SARIF);
	/* the rules: exactly the result ids, sorted */
	cr_assert_eq(count(got, "{\"id\": "), 6, "%s", got);
	cr_assert_not_null(strstr(
		got,
		"   \"rules\": [\n"
		"    {\"id\": \"demo.msg\", \"shortDescription\": {\"text\": "
		"\"demo.msg\"}, \"defaultConfiguration\": {\"level\": "
		"\"note\"}},\n"
		"    {\"id\": \"demo.other\", \"shortDescription\": {\"text\": "
		"\"demo.other\"}, \"defaultConfiguration\": {\"level\": "
		"\"warning\"}},\n"
		"    {\"id\": \"demo.size-limit\", \"shortDescription\": "
		"{\"text\": \"size must not exceed the limit\"}, "
		"\"fullDescription\": {\"text\": \"a longer description\"}, "
		"\"help\": {\"text\": \"lower the size\"}, \"helpUri\": "
		"\"https://example.org/demo#size-limit\", "
		"\"defaultConfiguration\": {\"level\": \"error\"}, "
		"\"properties\": {\"tags\": [\"capacity\", \"demo\"]}},\n"
		"    {\"id\": \"demo.strict.note\", \"shortDescription\": "
		"{\"text\": \"an owner should be stated\"}, "
		"\"defaultConfiguration\": {\"level\": \"warning\"}, "
		"\"properties\": {\"tags\": [\"strict\", \"docs\", "
		"\"demo\"]}},\n"
		"    {\"id\": \"engine.truncated\", \"shortDescription\": "
		"{\"text\": \"engine.truncated\"}, \"defaultConfiguration\": "
		"{\"level\": \"warning\"}},\n"
		"    {\"id\": \"input.unreadable\", \"shortDescription\": "
		"{\"text\": \"the file cannot be read\"}, "
		"\"defaultConfiguration\": {\"level\": \"error\"}}]}},\n"
		"  \"columnKind\": \"unicodeCodePoints\",\n"),
		"%s", got);
	/* every finding is a result, suppressed ones too */
	cr_assert_eq(count(got, "\"ruleId\": "), 7);
	cr_assert_not_null(strstr(got, "\"uri\": \"a%2Cb.yaml\""));
	cr_assert_not_null(strstr(
		got, "\"uri\": \"gone.yaml\"}, \"region\": {\"startLine\": 1, "
		     "\"startColumn\": 1, \"endLine\": 1, "
		     "\"endColumn\": 1}}}]"));
	cr_assert_not_null(strstr(
		got, "\"region\": {\"startLine\": 4, \"startColumn\": 2, "
		     "\"endLine\": 4, \"endColumn\": 2}"));
	cr_assert_not_null(strstr(
		got, "\"logicalLocations\": [{\"fullyQualifiedName\": "
		     "\"/size\"}]"));
	cr_assert_not_null(strstr(
		got, "\"suppressions\": [{\"kind\": \"inSource\", \"status\": "
		     "\"accepted\", \"justification\": \"legacy (OPS-1)\"}]"));
	cr_assert_not_null(strstr(
		got, "\"properties\": {\"figures\": {\"size\": 12, "
		     "\"limit\": 10.5}, \"document\": 0}"));
	cr_assert_not_null(strstr(
		got, "\"properties\": {\"document\": 0, \"waiver\": "
		     WAIVER_JSON "}"));
	cr_assert_not_null(strstr(
		got, "\"invocations\": [{\"executionSuccessful\": false, "
		     "\"exitCode\": 2}]}]}\n"));
	cr_assert_null(strstr(got, "Time"));
	cr_assert_eq(crypto_sha256(fp, sizeof fp - 1, md), 0);
	crypto_hex(md, sizeof md, hex);
	snprintf(want, sizeof want, "{\"infragate/v1\": \"%s\"}", hex);
	cr_assert_eq(count(got, want), 1, "fingerprint %s", want);
	free(got);
	lint_report_release(&r);
}

Test(report, sarif_uri)
{
	struct lint_report r;
	struct lint_file *lf;
	char *got;

	lint_report_init(&r);
	lf = lint_report_add_file(&r, "/abs/dir with space/\xc3\xa9#?.yaml");
	add(lf, "demo.x", SEV_ERROR, "m", 1, 1, 1, 2, "", 0, NULL);
	lf = lint_report_add_file(&r, "rel/x~y_z-1.yaml");
	add(lf, "demo.x", SEV_ERROR, "m", 1, 1, 1, 2, "", 0, NULL);
	suppress(lf, &lf->fs.items[0], "baseline", NULL, NULL, NULL, NULL);
	lint_report_finish(&r, 0);
	got = render(&r, FORMAT_SARIF);
	cr_assert_not_null(strstr(got, "\"uri\": \"file:///abs/dir%20with%20"
				       "space/%C3%A9%23%3F.yaml\""),
			   "%s", got);
	cr_assert_not_null(strstr(got, "\"uri\": \"rel/x~y_z-1.yaml\""));
	cr_assert_not_null(strstr(got, "\"suppressions\": [{\"kind\": "
				       "\"external\", \"status\": "
				       "\"accepted\"}]"));
	cr_assert_not_null(strstr(got, "\"executionSuccessful\": true, "
				       "\"exitCode\": 1"));
	free(got);
	lint_report_release(&r);
}

static void sarif_check(const struct lint_report *r)
{
	char path[64], *got;
	static char script[] = "tests/sarif-check.py";
	char *argv[] = { py_bin, script, path, NULL };

	got = render(r, FORMAT_SARIF);
	write_temp(got, path);
	cr_assert_eq(run(argv), 0, "SARIF check failed:\n%s", got);
	unlink(path);
	free(got);
}

Test(report, sarif_schema)
{
	struct lint_report r;

	if (!have_python_module("jsonschema"))
		cr_skip_test("python3-jsonschema is not installed");
	cr_assert_eq(access("tests/sarif-check.py", R_OK), 0,
		     "run from the repository root");
	rich(&r);
	sarif_check(&r);
	lint_report_release(&r);
	lint_report_init(&r);
	lint_report_finish(&r, 0);
	sarif_check(&r);
	lint_report_release(&r);
}

/* ---- junit --------------------------------------------------------------- */

Test(report, junit)
{
	struct lint_report r;

	rich(&r);
	expect(&r, FORMAT_JUNIT,
	       "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	       "<testsuites name=\"infragate\" tests=\"7\" failures=\"1\" "
	       "errors=\"1\">\n"
	       "  <testsuite name=\"plans/a.yaml\" tests=\"4\" failures=\"1\" "
	       "errors=\"0\" skipped=\"0\">\n"
	       "    <testcase classname=\"plans/a.yaml\" "
	       "name=\"demo.size-limit\">\n"
	       "      <failure type=\"demo.size-limit\" message=\"size 12 is "
	       "over the limit of 10\">3:7 /size size 12 is over the limit of "
	       "10</failure>\n"
	       "    </testcase>\n"
	       "    <testcase classname=\"plans/a.yaml\" "
	       "name=\"demo.strict.note\">\n"
	       "      <system-out>1:1 no owner stated</system-out>\n"
	       "    </testcase>\n"
	       "    <testcase classname=\"plans/a.yaml\" name=\"demo.other\">\n"
	       "      <system-out>4:2 /x expired one</system-out>\n"
	       "    </testcase>\n"
	       "    <testcase classname=\"plans/a.yaml\" "
	       "name=\"demo.clean\"/>\n"
	       "  </testsuite>\n"
	       "  <testsuite name=\"gone.yaml\" tests=\"1\" failures=\"0\" "
	       "errors=\"1\" skipped=\"0\">\n"
	       "    <testcase classname=\"gone.yaml\" name=\"input\">\n"
	       "      <error type=\"input.unreadable\" message=\"cannot read "
	       "&apos;gone.yaml&apos;: no such file\">input.unreadable: cannot "
	       "read &apos;gone.yaml&apos;: no such file</error>\n"
	       "    </testcase>\n"
	       "  </testsuite>\n"
	       "  <testsuite name=\"a,b.yaml\" tests=\"2\" failures=\"0\" "
	       "errors=\"0\" skipped=\"0\">\n"
	       "    <testcase classname=\"a,b.yaml\" name=\"demo.msg\">\n"
	       "      <system-out>2:3 /k 50%, a: b\n"
	       "second \xc3\xa9\xef\xbf\xbdx</system-out>\n"
	       "    </testcase>\n"
	       "    <testcase classname=\"a,b.yaml\" "
	       "name=\"engine.truncated\">\n"
	       "      <system-out>more than 1 findings</system-out>\n"
	       "    </testcase>\n"
	       "  </testsuite>\n"
	       "</testsuites>\n");
	lint_report_release(&r);
}

Test(report, junit_failures_and_escapes)
{
	struct lint_report r;
	struct lint_file *lf;

	lint_report_init(&r);
	r.fail_on = SEV_WARNING;
	lf = lint_report_add_file(&r, "<a&b>.yaml");
	add(lf, "demo.x", SEV_INFO, "i", 5, 1, 0, 0, "/i", 0, NULL);
	add(lf, "demo.x", SEV_WARNING, "w \"1\"\n<2>", 2, 4, 0, 0, "/w", 0,
	    NULL);
	add(lf, "demo.x", SEV_ERROR, "e\x0b\xef\xbf\xbe\xed\xa0\x80", 3, 0, 0,
	    0, NULL, -1, NULL);
	set_ran(lf, "demo.x", (const char *)NULL);
	lint_report_finish(&r, 0);
	expect(&r, FORMAT_JUNIT,
	       "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	       "<testsuites name=\"infragate\" tests=\"1\" failures=\"1\" "
	       "errors=\"0\">\n"
	       "  <testsuite name=\"&lt;a&amp;b&gt;.yaml\" tests=\"1\" "
	       "failures=\"1\" errors=\"0\" skipped=\"0\">\n"
	       "    <testcase classname=\"&lt;a&amp;b&gt;.yaml\" "
	       "name=\"demo.x\">\n"
	       "      <failure type=\"demo.x\" message=\"w &quot;1&quot;&#10;"
	       "&lt;2&gt;\">2:4 /w w &quot;1&quot;\n&lt;2&gt;\n"
	       "3 e\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
	       "</failure>\n"
	       "      <system-out>5:1 /i i</system-out>\n"
	       "    </testcase>\n"
	       "  </testsuite>\n"
	       "</testsuites>\n");
	lint_report_release(&r);
}

Test(report, junit_well_formed)
{
	struct lint_report r;
	char path[64], *got;
	static char code[] = "import xml.dom.minidom,sys; "
			     "xml.dom.minidom.parse(sys.argv[1])";
	char *argv[] = { py_bin, py_c, code, path, NULL };

	if (!have_python_module("xml.dom.minidom"))
		cr_skip_test("no /usr/bin/python3 with xml.dom.minidom");
	rich(&r);
	/* every byte that XML forbids or that is not UTF-8 */
	add(&r.files[2], "demo.msg", SEV_INFO,
	    "\x01\x02\x0b\x0c\x1f\xff\xfe\xef\xbf\xbf&<>\"']]>", 1, 1, 0, 0,
	    "/&", 0, NULL);
	got = render(&r, FORMAT_JUNIT);
	write_temp(got, path);
	cr_assert_eq(run(argv), 0, "not well-formed:\n%s", got);
	unlink(path);
	free(got);
	lint_report_release(&r);
}
