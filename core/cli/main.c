/*
 * main.c: the command line (spec/core.md 2). The only place that prints or
 * exits. It finds which program runs (argv[0], or the first word after the
 * global options), parses native verbs with their option tables, asks the
 * engine to do the work, and writes the result, or the errors as text on
 * stderr or as the JSON error document on stdout. Exit codes: 0, 1, 2.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/engine/engine.h"
#include "core/util/argparse.h"
#include "core/util/names.h"

struct native_verb {
	const char *name;
	const struct ap_program *prog;
	int (*run)(struct engine *e, const struct ap_result *res,
		   struct engine_out *o);
};

static const struct native_verb native_verbs[] = {
	{ "lint", &engine_lint_program, engine_lint },
	{ "validate", &engine_validate_program, engine_validate },
	{ "test", &engine_test_program, engine_test },
	{ "rules", &engine_rules_program, engine_rules },
	{ "models", &engine_models_program, engine_models },
};

#define NNATIVE (sizeof native_verbs / sizeof native_verbs[0])

/* Global options seen before the verb (and, for native verbs, after). */
struct globals {
	const char **rules;
	size_t nrules, alloc;
	const char *config;
	int no_config;
	const char *color;
	int verbose;
};

/* ---- writing ------------------------------------------------------------- */

/* Write all of 'buf' to fd; a closed pipe ends the program quietly through
 * the default SIGPIPE. Returns 0 or -1. */
static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static void put_err(const char *s)
{
	(void)write_all(2, s, strlen(s));
}

/* One stderr diagnostic per error (spec/core.md 2.6 item 4). */
static void text_errors(const struct engine_out *o, struct sbuf *b)
{
	size_t i;

	for (i = 0; i < o->errors.n; i++) {
		const struct finding *f = &o->errors.items[i];

		if (strcmp(f->rule, "cli.usage") == 0)
			sbuf_addf(b, "%s: error[cli.usage]: %s\n",
				  o->program ? o->program : "infragate", f->message);
		else if (f->file && f->line)
			sbuf_addf(b, "%s:%u:%u: error[%s]: %s\n", f->file, f->line,
				  f->col, f->rule, f->message);
		else if (f->file)
			sbuf_addf(b, "%s: error[%s]: %s\n", f->file, f->rule, f->message);
		else
			sbuf_addf(b, "%s: error[%s]: %s\n",
				  o->program ? o->program : "infragate", f->rule,
				  f->message);
	}
	if (o->usage && o->synopsis)
		sbuf_addf(b, "%s\n", o->synopsis);
}

/* Write the verb's result and return the exit code. */
static int finish(struct engine_out *o, int rc)
{
	struct sbuf b = SBUF_INIT;
	int code = o->exit_code;

	if (o->notes.len)
		(void)write_all(2, sbuf_cstr(&o->notes), o->notes.len);
	if (rc < 0 || (o->errors.n && code == 2)) {
		if (!o->errors.n)
			engine_out_error(o, "engine.error", NULL, 0, 0, NULL,
					 "the run failed");
		if (o->json) {
			engine_error_document(o, INFRAGATE_VERSION, &b);
			if (write_all(1, sbuf_cstr(&b), b.len) < 0)
				goto write_failed;
		} else {
			text_errors(o, &b);
			(void)write_all(2, sbuf_cstr(&b), b.len);
		}
		sbuf_release(&b);
		return 2;
	}
	if (o->out.failed) {
		put_err("infragate: error[engine.output]: the result does not fit in memory\n");
		return 2;
	}
	if (write_all(1, sbuf_cstr(&o->out), o->out.len) < 0)
		goto write_failed;
	sbuf_release(&b);
	return code;
write_failed:
	sbuf_release(&b);
	put_err("infragate: error[engine.output]: cannot write the result to standard output\n");
	return 2;
}

/* ---- global options ------------------------------------------------------- */

static int add_rules(struct globals *g, const char *dir)
{
	if (g->nrules == g->alloc) {
		size_t na = g->alloc ? g->alloc * 2 : 4;
		const char **v = realloc(g->rules, na * sizeof *v);

		if (!v)
			return -1;
		g->rules = v;
		g->alloc = na;
	}
	g->rules[g->nrules++] = dir;
	return 0;
}

/* Take the value of option 'name' at argv[*i] ("--name VALUE" or
 * "--name=VALUE"); NULL when this is not that option. */
static const char *option_value(const char *name, int argc, char **argv,
				int *i, int *missing)
{
	size_t n = strlen(name);
	const char *a = argv[*i];

	*missing = 0;
	if (!a || strncmp(a, name, n) != 0)
		return NULL;
	if (a[n] == '=')
		return a + n + 1;
	if (a[n] != '\0')
		return NULL;
	if (*i + 1 >= argc) {
		*missing = 1;
		return NULL;
	}
	return argv[++*i];
}

/* Parse global options from argv[*i] on; stops at the first other word.
 * Returns 0, 1 for --version, 2 for --help, -1 on a usage error. */
static int parse_globals(struct globals *g, int argc, char **argv, int *i,
			 struct engine_out *o)
{
	for (; *i < argc; (*i)++) {
		const char *a = argv[*i], *v;
		int missing;

		if (strcmp(a, "--version") == 0)
			return 1;
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
			return 2;
		if (strcmp(a, "--no-config") == 0) {
			g->no_config = 1;
			continue;
		}
		if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
			g->verbose = 1;
			continue;
		}
		if ((v = option_value("--rules", argc, argv, i, &missing))) {
			if (add_rules(g, v) < 0)
				return -1;
			continue;
		}
		if (missing) {
			engine_out_usage(o, "--rules", "option '--rules' needs a folder");
			return -1;
		}
		if ((v = option_value("--config", argc, argv, i, &missing))) {
			g->config = v;
			continue;
		}
		if (missing) {
			engine_out_usage(o, "--config", "option '--config' needs a file");
			return -1;
		}
		if ((v = option_value("--color", argc, argv, i, &missing)) || missing) {
			if (!v || (strcmp(v, "auto") && strcmp(v, "always") && strcmp(v, "never"))) {
				engine_out_usage(o, "--color",
						 "option '--color' takes auto, always or never");
				return -1;
			}
			g->color = v;
			continue;
		}
		if (a[0] == '-' && a[1]) {
			engine_out_usage(o, a, "unknown global option '%s'", a);
			return -1;
		}
		return 0;
	}
	return 0;
}

/* Globals given after a native verb (its table has them too). */
static void globals_from(struct globals *g, const struct ap_result *res)
{
	size_t i, j;

	for (i = 0; i < res->verb->noptions; i++) {
		const struct ap_option *op = &res->verb->options[i];
		const struct ap_slot *s = &res->slots[i];

		if (!s->given || !s->nvalues)
			continue;
		if (strcmp(op->name, "--rules") == 0)
			for (j = 0; j < s->nvalues; j++)
				add_rules(g, s->values[j].text);
		else if (strcmp(op->name, "--config") == 0)
			g->config = s->values[s->nvalues - 1].text;
		else if (strcmp(op->name, "--no-config") == 0)
			g->no_config = 1;
		else if (strcmp(op->name, "--color") == 0)
			g->color = s->values[s->nvalues - 1].text;
		else if (strcmp(op->name, "--verbose") == 0)
			g->verbose = 1;
	}
}

static int want_color(const char *mode)
{
	const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");

	if (mode && strcmp(mode, "always") == 0)
		return 1;
	if (mode && strcmp(mode, "never") == 0)
		return 0;
	return isatty(1) && !(nc && *nc) && !(term && strcmp(term, "dumb") == 0);
}

static void fill_engine_globals(struct engine_globals *eg, const struct globals *g,
				char *exe, char *cwd)
{
	ssize_t n;

	memset(eg, 0, sizeof *eg);
	eg->rules_dirs = g->rules;
	eg->nrules_dirs = g->nrules;
	eg->config = g->config;
	eg->no_config = g->no_config;
	eg->verbose = g->verbose;
	eg->color = want_color(g->color);
	eg->env_home = getenv("INFRAGATE_HOME");
	eg->env_config = getenv("INFRAGATE_CONFIG");
	eg->env_today = getenv("INFRAGATE_TODAY");
	/* The executable's own path, never argv[0]: a link on PATH must find
	 * the same data root. */
	n = readlink("/proc/self/exe", exe, PATH_MAX - 1);
	exe[n > 0 ? n : 0] = '\0';
	eg->exe = exe;
	if (!getcwd(cwd, PATH_MAX))
		snprintf(cwd, PATH_MAX, "/");
	eg->cwd = cwd;
}

static void main_help(struct engine *e, struct sbuf *b)
{
	size_t i;

	sbuf_adds(b, "usage: infragate [GLOBAL OPTIONS] VERB [ARGS...]\n"
		     "       infragate [GLOBAL OPTIONS] PROGRAM [ARGS...]\n\n"
		     "Lint infrastructure YAML against rule packs, and run the packs' programs.\n\n"
		     "verbs:\n");
	for (i = 0; i < NNATIVE; i++) {
		const struct ap_verb *v = &native_verbs[i].prog->verbs[0];

		sbuf_addf(b, "  %-18s %s\n", v->name, v->summary);
	}
	sbuf_adds(b, "\nprograms:\n");
	if (e)
		engine_list_programs(e, b);
	sbuf_adds(b, "\nglobal options:\n"
		     "  --rules DIR        add a site pack folder (repeatable)\n"
		     "  --config FILE      use this configuration file\n"
		     "  --no-config        use no configuration file\n"
		     "  --color WHEN       auto, always or never\n"
		     "  -v, --verbose      progress on stderr\n"
		     "  --version          print the version and exit\n"
		     "  -h, --help         print this help and exit\n\n"
		     "See infragate(1) and `infragate VERB --help`.\n");
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

static int run(int argc, char **argv)
{
	static char exe[PATH_MAX], cwd[PATH_MAX];
	struct engine_globals eg;
	struct engine_out o;
	struct globals g;
	struct engine *e = NULL;
	struct ap_result res;
	struct diag err;
	const char *name = base_name(argv[0]), *fmt, *word;
	int i = 1, rc = 0, code;
	size_t k;

	memset(&g, 0, sizeof g);
	memset(&res, 0, sizeof res);
	engine_out_init(&o);
	/* Find JSON mode before anything can fail (spec/core.md 2.6 item 5). */
	fmt = ap_scan_format(argc - 1, argv + 1, 0);
	o.json = fmt && strcmp(fmt, "json") == 0;
	if (linked_program_pack(name)) {
		/* A linked name: every argument belongs to the program. */
		fill_engine_globals(&eg, &g, exe, cwd);
		e = engine_open(&eg, &o);
		if (e)
			rc = engine_program(e, name, argc - 1, argv + 1, &o);
		else
			rc = -1;
		goto out;
	}
	o.program = "infragate";
	rc = parse_globals(&g, argc, argv, &i, &o);
	if (rc == 1) {
		engine_version_text(&o.out);
		o.exit_code = 0;
		rc = 0;
		goto out;
	}
	if (rc < 0)
		goto out;
	if (rc == 2 || i >= argc) {
		fill_engine_globals(&eg, &g, exe, cwd);
		e = engine_open(&eg, &o);
		if (rc != 2) {
			engine_out_usage(&o, "command",
					 "no verb or program given; see 'infragate --help'");
			rc = -1;
			goto out;
		}
		engine_out_release(&o);
		engine_out_init(&o);
		main_help(e, &o.out);
		o.exit_code = 0;
		rc = 0;
		goto out;
	}
	word = argv[i];
	for (k = 0; k < NNATIVE; k++) {
		if (strcmp(word, native_verbs[k].name) != 0)
			continue;
		o.verb = native_verbs[k].name;
		o.program = native_verbs[k].prog == &engine_lint_program ? "infragate lint"
			  : native_verbs[k].prog == &engine_validate_program ? "infragate validate"
			  : native_verbs[k].prog == &engine_test_program ? "infragate test"
			  : native_verbs[k].prog == &engine_rules_program ? "infragate rules"
									 : "infragate models";
		diag_init(&err);
		if (ap_parse(native_verbs[k].prog, argc - i - 1, argv + i + 1, &res,
			     &err) < 0) {
			struct sbuf syn = SBUF_INIT;

			ap_synopsis(native_verbs[k].prog, res.verb, &syn);
			o.synopsis = sbuf_detach(&syn, NULL);
			engine_out_usage(&o, err.path[0] ? err.path : word, "%s", err.msg);
			rc = -1;
			goto out;
		}
		if (res.help) {
			ap_help(native_verbs[k].prog, res.verb, &o.out);
			o.exit_code = 0;
			rc = 0;
			goto out;
		}
		globals_from(&g, &res);
		fill_engine_globals(&eg, &g, exe, cwd);
		e = engine_open(&eg, &o);
		/* The native verbs route, list or check every kind. */
		rc = e && engine_kinds_load(e, &o) == 0 ? native_verbs[k].run(e, &res, &o) : -1;
		goto out;
	}
	fill_engine_globals(&eg, &g, exe, cwd);
	e = engine_open(&eg, &o);
	if (!e) {
		rc = -1;
		goto out;
	}
	if (linked_program_of_pack(word)) {
		engine_out_usage(&o, "command",
				 "the %s pack's program is '%s'; run it as 'infragate %s' or '%s'",
				 word, linked_program_of_pack(word), linked_program_of_pack(word),
				 linked_program_of_pack(word));
		rc = -1;
		goto out;
	}
	if (linked_program_pack(word) || engine_has_program(e, word)) {
		rc = engine_program(e, word, argc - i - 1, argv + i + 1, &o);
		goto out;
	}
	engine_out_usage(&o, "command",
			 "unknown verb or program '%s'; verbs: lint, validate, test, rules, models; programs: see 'infragate --help'",
			 word);
	rc = -1;
out:
	code = finish(&o, rc);
	ap_result_release(&res);
	engine_out_release(&o);
	engine_close(e);
	free(g.rules);
	return code;
}

int main(int argc, char **argv)
{
	/* A closed pipe ends us quietly (spec/core.md 2.6 item 7). */
	signal(SIGPIPE, SIG_DFL);
	if (argc < 1)
		return 2;
	return run(argc, argv);
}
