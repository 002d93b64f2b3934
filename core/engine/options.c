/*
 * options.c: the option tables of the native verbs (spec/core.md 2.2-2.4,
 * 10-14) as rows, and `infragate lint` itself. The tables live in the
 * engine rather than in cli because pack tests parse an expectation's
 * `args:` with the lint table too; cli uses the same rows. Every native
 * verb also takes the global options after the verb.
 */
#include "core/engine/eng_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine/options.h"

#define GLOBAL_OPTIONS                                                          \
	{ .name = "--rules", .type = AP_PATH, .repeat_append = 1,              \
	  .metavar = "DIR", .help = "add a site pack folder" },               \
	{ .name = "--config", .type = AP_PATH, .metavar = "FILE",              \
	  .help = "use this configuration file" },                            \
	{ .name = "--no-config", .type = AP_FLAG,                              \
	  .help = "use no configuration file" },                               \
	{ .name = "--color", .type = AP_CHOICE, .choices = color_choices,      \
	  .metavar = "WHEN", .help = "colour in text output: auto, always or never" }, \
	{ .name = "--verbose", .short_name = "-v", .type = AP_FLAG,            \
	  .help = "progress on stderr: configuration, packs, routing" }

static const char *const color_choices[] = { "auto", "always", "never", NULL };
static const char *const lint_formats[] = { "text", "json", "sarif", "github",
					    "junit", NULL };
static const char *const fail_on_choices[] = { "error", "warning", "info",
					       "none", NULL };
static const char *const unrouted_choices[] = { "skip", "error", NULL };
static const char *const text_json[] = { "text", "json", NULL };
static const char *const test_formats[] = { "text", "json", "junit", NULL };

static const struct ap_option lint_options[] = {
	{ .name = "--pack", .type = AP_STRING, .repeat_append = 1, .metavar = "NAME",
	  .help = "check only this pack's kinds and rules" },
	{ .name = "--strict", .type = AP_FLAG, .help = "run strict rules (the default)" },
	{ .name = "--no-strict", .type = AP_FLAG, .help = "do not run strict rules" },
	{ .name = "--format", .type = AP_CHOICE, .choices = lint_formats,
	  .dflt = "text", .metavar = "FORMAT",
	  .help = "text, json, sarif, github or junit" },
	{ .name = "--fail-on", .type = AP_CHOICE, .choices = fail_on_choices,
	  .metavar = "SEVERITY", .help = "lowest severity that fails a file" },
	{ .name = "--jobs", .short_name = "-j", .type = AP_INT, .has_min = 1,
	  .min = 0, .max = 1024, .has_max = 1, .metavar = "N",
	  .help = "worker threads (0: automatic)" },
	{ .name = "--stdin-filepath", .type = AP_STRING, .metavar = "PATH",
	  .help = "the name standard input is reported and routed under" },
	{ .name = "--unrouted", .type = AP_CHOICE, .choices = unrouted_choices,
	  .metavar = "WHAT", .help = "skip or error for documents no pack claims" },
	{ .name = "--waivers", .type = AP_PATH, .metavar = "FILE",
	  .help = "waiver file" },
	{ .name = "--no-waivers", .type = AP_FLAG, .help = "ignore waivers" },
	{ .name = "--baseline", .type = AP_PATH, .metavar = "FILE",
	  .help = "suppress the findings listed in this baseline" },
	{ .name = "--no-baseline", .type = AP_FLAG, .help = "ignore the baseline" },
	{ .name = "--write-baseline", .type = AP_STRING, .metavar = "FILE",
	  .help = "write every current finding to FILE" },
	{ .name = "--today", .type = AP_STRING, .metavar = "YYYY-MM-DD",
	  .help = "the date waivers expire against" },
	{ .name = "--report-stale", .type = AP_FLAG,
	  .help = "report waivers and baseline entries that matched nothing" },
	{ .name = "--show-suppressed", .type = AP_FLAG,
	  .help = "list suppressed findings in text output" },
	{ .name = "--limit", .type = AP_STRING, .repeat_append = 1,
	  .metavar = "NAME=VALUE", .help = "override an input limit or budget" },
	{ .name = "--quiet", .short_name = "-q", .type = AP_FLAG,
	  .help = "no summary line in text output" },
	GLOBAL_OPTIONS,
};

static const struct ap_verb lint_verb = {
	.name = "lint",
	.summary = "check files and folders against every pack's rules",
	.options = lint_options,
	.noptions = sizeof lint_options / sizeof lint_options[0],
	.operands = { "PATH", 0, SIZE_MAX },
};

const struct ap_program engine_lint_program = {
	.name = "infragate",
	.summary = "lint infrastructure YAML",
	.syntax = { .abbrev = AP_NO_ABBREV, .help_anywhere = 0,
		    .verb_required = 0, .default_verb = "lint" },
	.verbs = &lint_verb,
	.nverbs = 1,
};

static const struct ap_option validate_options[] = {
	{ .name = "--mutate", .type = AP_STRING, .metavar = "NAME",
	  .help = "apply a mutation; its red points must fail" },
	{ .name = "--registry", .type = AP_PATH, .metavar = "FILE",
	  .help = "run this registry file instead of the pack's" },
	{ .name = "--format", .type = AP_CHOICE, .choices = text_json, .dflt = "text",
	  .metavar = "FORMAT", .help = "text or json" },
	GLOBAL_OPTIONS,
};

static const struct ap_verb validate_verb = {
	.name = "validate",
	.summary = "reproduce the figures of the packs' validation registries",
	.options = validate_options,
	.noptions = sizeof validate_options / sizeof validate_options[0],
	.operands = { "PACK", 0, SIZE_MAX },
};

const struct ap_program engine_validate_program = {
	.name = "infragate",
	.syntax = { .abbrev = AP_NO_ABBREV, .default_verb = "validate" },
	.verbs = &validate_verb,
	.nverbs = 1,
};

static const struct ap_option test_options[] = {
	{ .name = "--filter", .type = AP_STRING, .metavar = "GLOB",
	  .help = "run only the tests whose name matches" },
	{ .name = "--format", .type = AP_CHOICE, .choices = test_formats,
	  .dflt = "text", .metavar = "FORMAT", .help = "text, json or junit" },
	GLOBAL_OPTIONS,
};

static const struct ap_verb test_verb = {
	.name = "test",
	.summary = "run packs' fixtures, README coverage and mutation tests",
	.options = test_options,
	.noptions = sizeof test_options / sizeof test_options[0],
	.operands = { "DIR", 0, SIZE_MAX },
};

const struct ap_program engine_test_program = {
	.name = "infragate",
	.syntax = { .abbrev = AP_NO_ABBREV, .default_verb = "test" },
	.verbs = &test_verb,
	.nverbs = 1,
};

static const struct ap_option rules_options[] = {
	{ .name = "--explain", .type = AP_STRING, .metavar = "ID",
	  .help = "explain one rule or core id" },
	{ .name = "--format", .type = AP_CHOICE, .choices = text_json, .dflt = "text",
	  .metavar = "FORMAT", .help = "text or json" },
	GLOBAL_OPTIONS,
};

static const struct ap_verb rules_verb = {
	.name = "rules",
	.summary = "list rules, or explain one",
	.options = rules_options,
	.noptions = sizeof rules_options / sizeof rules_options[0],
	.operands = { "PACK", 0, SIZE_MAX },
};

const struct ap_program engine_rules_program = {
	.name = "infragate",
	.syntax = { .abbrev = AP_NO_ABBREV, .default_verb = "rules" },
	.verbs = &rules_verb,
	.nverbs = 1,
};

static const struct ap_option models_options[] = {
	{ .name = "--format", .type = AP_CHOICE, .choices = text_json, .dflt = "text",
	  .metavar = "FORMAT", .help = "text or json" },
	GLOBAL_OPTIONS,
};

static const struct ap_verb models_verb = {
	.name = "models",
	.summary = "list the numeric models with their arguments and units",
	.options = models_options,
	.noptions = sizeof models_options / sizeof models_options[0],
	.operands = { "NAME", 0, SIZE_MAX },
};

const struct ap_program engine_models_program = {
	.name = "infragate",
	.syntax = { .abbrev = AP_NO_ABBREV, .default_verb = "models" },
	.verbs = &models_verb,
	.nverbs = 1,
};

/* ---- reading a parse result ------------------------------------------------- */

const struct ap_slot *opt_slot(const struct ap_result *res, const char *name)
{
	size_t i;

	for (i = 0; i < res->verb->noptions; i++)
		if (strcmp(res->verb->options[i].name, name) == 0)
			return &res->slots[i];
	return NULL;
}

const char *opt_text(const struct ap_result *res, const char *name)
{
	const struct ap_slot *s = opt_slot(res, name);

	if (!s || !s->has_value || !s->nvalues)
		return NULL;
	return s->values[s->nvalues - 1].text;
}

int opt_flag(const struct ap_result *res, const char *name)
{
	const struct ap_slot *s = opt_slot(res, name);

	return s && s->given && s->nvalues && s->values[s->nvalues - 1].b;
}

const char **opt_all(const struct ap_result *res, const char *name, size_t *n)
{
	const struct ap_slot *s = opt_slot(res, name);
	const char **v;
	size_t i;

	*n = 0;
	if (!s || !s->given || !s->nvalues)
		return NULL;
	v = calloc(s->nvalues + 1, sizeof *v);
	if (!v)
		return NULL;
	for (i = 0; i < s->nvalues; i++)
		v[i] = s->values[i].text;
	*n = s->nvalues;
	return v;
}

/* Fill lint options from a parse of engine_lint_program. */
int lint_opts_from(struct lint_opts *lo, const struct ap_result *res)
{
	const struct ap_slot *j = opt_slot(res, "--jobs");
	const char *s;

	lo->operands = (const char *const *)res->operands;
	lo->noperands = res->noperands;
	lo->packs = opt_all(res, "--pack", &lo->npacks);
	if (opt_flag(res, "--no-strict"))
		lo->strict = 0;
	if (opt_flag(res, "--strict"))
		lo->strict = 1;
	s = opt_text(res, "--format");
	lo->format = report_format_parse(s ? s : "text");
	s = opt_text(res, "--fail-on");
	if (s)
		lo->fail_on = strcmp(s, "none") == 0 ? (int)SEV_NONE
						     : (int)severity_parse(s);
	if (j && j->given && j->nvalues)
		lo->jobs = (long)j->values[j->nvalues - 1].i;
	lo->stdin_filepath = opt_text(res, "--stdin-filepath");
	s = opt_text(res, "--unrouted");
	if (s)
		lo->unrouted = strcmp(s, "error") == 0;
	lo->waivers = opt_text(res, "--waivers");
	lo->no_waivers = opt_flag(res, "--no-waivers");
	lo->baseline = opt_text(res, "--baseline");
	lo->no_baseline = opt_flag(res, "--no-baseline");
	lo->write_baseline = opt_text(res, "--write-baseline");
	lo->today = opt_text(res, "--today");
	lo->report_stale = opt_flag(res, "--report-stale");
	lo->show_suppressed = opt_flag(res, "--show-suppressed");
	lo->quiet = opt_flag(res, "--quiet");
	lo->limits = opt_all(res, "--limit", &lo->nlimits);
	return 0;
}

void lint_opts_free(struct lint_opts *lo)
{
	opt_free_list(lo->packs);
	opt_free_list(lo->limits);
	lo->packs = NULL;
	lo->limits = NULL;
}

int engine_lint(struct engine *e, const struct ap_result *res,
		struct engine_out *o)
{
	struct lint_report r;
	struct lint_opts lo;
	int rc;

	lint_opts_init(&lo);
	lint_opts_from(&lo, res);
	o->verb = "lint";
	o->program = "infragate lint";
	lint_report_init(&r);
	rc = lint_run(e, &lo, &r, lo.format, o);
	if (rc == 0)
		o->exit_code = r.exit_code;
	lint_report_release(&r);
	lint_opts_free(&lo);
	return rc;
}
