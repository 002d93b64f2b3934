/*
 * test_argparse.c: the shared command-line parser against the option
 * syntax of spec/core.md 2.4 and 5.9 and of each compat program's spec.
 * Programs are small copies of the real tables (the options that matter
 * for a rule); cases are rows: an argv, then the verb, one option's value
 * and the operands expected, or the argument an error must name.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util/argparse.h"

#define NONE SIZE_MAX

/* ---- programs ------------------------------------------------------------ */

static const char *const fmt_tj[] = { "text", "json", NULL };
static const char *const fmt_all[] = { "text", "json", "sarif", "github",
				       "junit", NULL };
static const char *const rungs[] = { "air", "rdhx", "dlc", NULL };
static const char *const policies[] = { "P0", "P1", "P2", "P3", "P4", NULL };
static const char *const requires_[] = { "any", "real", "emulated",
					 "signal-only", NULL };

/* pue-ladder: prefixes (reference before added), negative numbers, help
 * anywhere. */
static const struct ap_option cool_gate[] = {
	{ .name = "--density", .type = AP_FLOAT, .required = 1, .has_min = 1,
	  .min_exclusive = 1, .min = 0, .finite = 1, .metavar = "KW",
	  .help = "rack density, kW" },
	{ .name = "--rung", .type = AP_CHOICE, .choices = rungs, .finite = 1 },
	{ .name = "--dry-run", .type = AP_FLAG },
	{ .name = "--format", .type = AP_CHOICE, .choices = fmt_tj,
	  .dflt = "text", .group = AP_GROUP_ADDED },
	{ .name = "--strict", .type = AP_FLAG, .group = AP_GROUP_ADDED },
	{ .name = "--plan", .type = AP_PATH, .group = AP_GROUP_ADDED },
};
static const struct ap_option cool_capacity[] = {
	{ .name = "--feed-mw", .type = AP_FLOAT, .finite = 1 },
	{ .name = "--format", .type = AP_CHOICE, .choices = fmt_tj,
	  .dflt = "text", .group = AP_GROUP_ADDED },
};
static const struct ap_option cool_fleet[] = {
	{ .name = "--seed", .type = AP_BIGINT, .dflt = "7" },
	{ .name = "--sites", .type = AP_INT, .has_min = 1, .min = 1,
	  .has_max = 1, .max = 100 },
	{ .name = "--format", .type = AP_CHOICE, .choices = fmt_tj,
	  .dflt = "text", .group = AP_GROUP_ADDED },
};
static const struct ap_option cool_ladder[] = {
	{ .name = "--years", .type = AP_INT, .dflt = "2000", .has_min = 1,
	  .min = 1, .has_max = 1, .max = 10000000 },
	{ .name = "--pue", .type = AP_FLOAT, .finite = 1, .has_min = 1,
	  .min = 1.0 },
	{ .name = "--tag", .type = AP_STRING, .repeat_append = 1 },
	{ .name = "--format", .type = AP_CHOICE, .choices = fmt_tj,
	  .dflt = "text", .group = AP_GROUP_ADDED },
};
static const struct ap_verb cool_verbs[] = {
	{ "ladder", "the cooling ladder", NULL, cool_ladder, 4, { NULL, 0, 0 },
	  NULL, 0 },
	{ "gate", "block a rack density no rung can carry", NULL, cool_gate, 6,
	  { NULL, 0, 0 }, NULL, 0 },
	{ "capacity", "hall capacity", NULL, cool_capacity, 2, { NULL, 0, 0 },
	  NULL, 0 },
	{ "fleet", "fleet simulation", NULL, cool_fleet, 3, { NULL, 0, 0 },
	  NULL, 0 },
};
static const struct ap_program cool = {
	"pue-ladder", "cooling ladder, capacity and admission gates", NULL,
	{ AP_UNIQUE_PREFIX, 1, 1, 1, NULL }, cool_verbs, 4
};

/* airan-resiliency: prefixes, negative numbers, --format before the verb,
 * help only where it is parsed. */
static const struct ap_option res_ladder[] = {
	{ .name = "--years", .type = AP_INT, .dflt = "2000", .has_min = 1,
	  .min = 1, .has_max = 1, .max = 10000000 },
	{ .name = "--seed", .type = AP_BIGINT, .dflt = "7" },
	{ .name = "--format", .type = AP_CHOICE, .choices = fmt_tj,
	  .dflt = "text", .before_verb = 1 },
};
static const struct ap_option res_policy[] = {
	{ .name = "--policy", .short_name = "-p", .type = AP_CHOICE,
	  .choices = policies, .required = 1 },
	{ .name = "--years", .type = AP_INT, .dflt = "2000", .has_min = 1,
	  .min = 1 },
	{ .name = "--seed", .type = AP_BIGINT, .dflt = "7" },
	{ .name = "--format", .type = AP_CHOICE, .choices = fmt_tj,
	  .dflt = "text", .before_verb = 1 },
};
static const struct ap_option res_transports[] = {
	{ .name = "--site", .type = AP_PATH },
	{ .name = "--format", .type = AP_CHOICE, .choices = fmt_tj,
	  .dflt = "text", .before_verb = 1 },
};
static const struct ap_option res_simulate[] = {
	{ .name = "--site", .type = AP_PATH, .required = 1 },
	{ .name = "--years", .type = AP_INT, .has_min = 1, .min = 1 },
	{ .name = "--seed", .type = AP_BIGINT },
	{ .name = "--format", .type = AP_CHOICE, .choices = fmt_tj,
	  .dflt = "text", .before_verb = 1 },
};
static const struct ap_option res_lint[] = {
	{ .name = "--strict", .type = AP_FLAG },
	{ .name = "--jobs", .short_name = "-j", .type = AP_INT, .has_min = 1,
	  .min = 1, .dflt = "1" },
	{ .name = "--format", .type = AP_CHOICE, .choices = fmt_all,
	  .dflt = "text", .before_verb = 1 },
};
static const struct ap_verb res_verbs[] = {
	{ "ladder", "reliability ladder", NULL, res_ladder, 3, { NULL, 0, 0 },
	  NULL, 0 },
	{ "policy", "one policy", NULL, res_policy, 4, { NULL, 0, 0 }, NULL,
	    0 },
	{ "transports", "transport catalog", NULL, res_transports, 2,
	  { NULL, 0, 0 }, NULL, 0 },
	{ "simulate", "simulate a site", NULL, res_simulate, 4, { NULL, 0, 0 },
	  NULL, 0 },
	{ "lint", "check site documents", NULL, res_lint, 3,
	  { "FILE", 1, SIZE_MAX }, NULL, 0 },
};
static const struct ap_program res = {
	"airan-resiliency", "AI-RAN resiliency ladder", NULL,
	{ AP_UNIQUE_PREFIX, 1, 0, 1, NULL }, res_verbs, 5
};

/* chaos-fidelity: a default verb, names in full, no negative numbers. */
static const struct ap_option chaos_lint[] = {
	{ .name = "--strict", .type = AP_FLAG },
	{ .name = "--format", .type = AP_CHOICE, .choices = fmt_all,
	  .dflt = "text" },
	{ .name = "--jobs", .short_name = "-j", .type = AP_INT, .has_min = 1,
	  .min = 1, .dflt = "1", .metavar = "N" },
	{ .name = "--mutate", .type = AP_STRING, .hidden = 1 },
};
static const struct ap_option chaos_coverage[] = {
	{ .name = "--strict", .type = AP_FLAG },
	{ .name = "--require", .type = AP_CHOICE, .choices = requires_,
	  .dflt = "any" },
	{ .name = "--format", .type = AP_CHOICE, .choices = fmt_tj,
	  .dflt = "text" },
};
static const struct ap_option chaos_clocks[] = {
	{ .name = "--ib-timeout", .type = AP_INT, .has_min = 1, .min = 1,
	  .has_max = 1, .max = 31 },
	{ .name = "--hold", .type = AP_FLOAT, .finite = 1, .has_min = 1,
	  .min = 0 },
	{ .name = "--format", .type = AP_CHOICE, .choices = fmt_tj,
	  .dflt = "text" },
};
static const struct ap_verb chaos_verbs[] = {
	{ "lint", "check experiments", NULL, chaos_lint, 4,
	  { "PATH", 0, SIZE_MAX }, NULL, 0 },
	{ "coverage", "catalog coverage", NULL, chaos_coverage, 3,
	  { "PATH", 0, SIZE_MAX }, NULL, 0 },
	{ "two-clocks", "the two-clocks model", NULL, chaos_clocks, 3,
	  { NULL, 0, 0 }, NULL, 0 },
};
static const struct ap_program chaos = {
	"chaos-fidelity", "check chaos experiments for fidelity",
	"Without PATH the bundled catalog is checked.",
	{ AP_NO_ABBREV, 0, 0, 0, "lint" }, chaos_verbs, 3
};

/* promotion-gate: no verb word, a select flag, per-option prefixes. */
static const char *const digest_select[] = { "--print-digest" };
static const struct ap_option promo_gate[] = {
	{ .name = "--trust", .type = AP_PATH, .abbrev = AP_ABBREV_YES,
	  .metavar = "POLICY.json" },
	{ .name = "--evidence-root", .type = AP_PATH, .abbrev = AP_ABBREV_YES,
	  .metavar = "DIR" },
	{ .name = "--declaration-only", .type = AP_FLAG },
	{ .name = "--strict", .type = AP_FLAG },
	{ .name = "--format", .type = AP_CHOICE, .choices = fmt_all,
	  .dflt = "text", .metavar = "FMT" },
};
static const struct ap_option promo_digest[] = {
	{ .name = "--print-digest", .type = AP_FLAG },
	{ .name = "--format", .type = AP_CHOICE, .choices = fmt_tj,
	  .dflt = "text" },
};
static const struct ap_verb promo_verbs[] = {
	{ "gate", "check promotion records", NULL, promo_gate, 5,
	  { "RECORD", 0, SIZE_MAX }, NULL, 0 },
	{ "digest", "print record digests", NULL, promo_digest, 2,
	  { "RECORD", 0, SIZE_MAX }, digest_select, 1 },
};
static const struct ap_program promo = {
	"promotion-gate", "autonomy-promotion records against the L0-L4 gate",
	NULL, { AP_NO_ABBREV, 0, 1, 0, "gate" }, promo_verbs, 2
};

/* infragate lint: a native verb, a program without verb words. */
static const struct ap_option lint_opts[] = {
	{ .name = "--strict", .type = AP_FLAG, .help = "run strict rules" },
	{ .name = "--format", .type = AP_CHOICE, .choices = fmt_all,
	  .dflt = "text", .help = "report format" },
	{ .name = "--jobs", .short_name = "-j", .type = AP_INT, .has_min = 1,
	  .min = 1, .metavar = "N", .help = "parallel files" },
	{ .name = "--pack", .type = AP_STRING, .repeat_append = 1,
	  .metavar = "NAME", .help = "only this pack" },
	{ .name = "--mutate", .type = AP_STRING, .hidden = 1 },
};
static const struct ap_verb lint_verb[] = {
	{ "lint", "check documents against the packs' rules", NULL, lint_opts,
	  5, { "PATH", 0, SIZE_MAX }, NULL, 0 },
};
static const struct ap_program lint = {
	"infragate lint", NULL, NULL, { AP_NO_ABBREV, 0, 0, 0, "lint" },
	lint_verb, 1
};

/* Every type, every bound, parsed defaults. */
static const char *const tj[] = { "text", "json", NULL };
static const struct ap_option t_opts[] = {
	{ .name = "--f", .type = AP_FLOAT, .finite = 1 },
	{ .name = "--nf", .type = AP_FLOAT, .finite = 0 },
	{ .name = "--i", .type = AP_INT },
	{ .name = "--b", .type = AP_BIGINT },
	{ .name = "--p", .type = AP_PATH },
	{ .name = "--s", .type = AP_STRING },
	{ .name = "--c", .type = AP_CHOICE, .choices = tj },
	{ .name = "--ge0", .type = AP_FLOAT, .finite = 1, .has_min = 1 },
	{ .name = "--gt0", .type = AP_FLOAT, .finite = 1, .has_min = 1,
	  .min_exclusive = 1 },
	{ .name = "--le5", .type = AP_FLOAT, .finite = 1, .has_max = 1,
	  .max = 5 },
	{ .name = "--lt5", .type = AP_FLOAT, .finite = 1, .has_max = 1,
	  .max_exclusive = 1, .max = 5 },
	{ .name = "--half", .type = AP_FLOAT, .finite = 1, .has_min = 1,
	  .min = 0.5 },
	{ .name = "--ir", .type = AP_INT, .has_min = 1, .min = 1, .has_max = 1,
	  .max = 31 },
	{ .name = "--ilt", .type = AP_INT, .has_max = 1, .max_exclusive = 1,
	  .max = 8 },
	{ .name = "--nfb", .type = AP_FLOAT, .finite = 0, .has_max = 1,
	  .max = 1 },
	{ .name = "--d-int", .type = AP_INT, .dflt = "1_000" },
	{ .name = "--d-big", .type = AP_BIGINT, .dflt = "-011" },
	{ .name = "--d-flag", .type = AP_FLAG, .dflt = "true" },
	{ .name = "--d-float", .type = AP_FLOAT, .finite = 1, .dflt = " 2 " },
};
static const struct ap_verb t_verb[] = {
	{ "t", "types", NULL, t_opts, sizeof t_opts / sizeof t_opts[0],
	  { NULL, 0, 0 }, NULL, 0 },
};
static const struct ap_program types = {
	"t", NULL, NULL, { AP_NO_ABBREV, 0, 0, 0, "t" }, t_verb, 1
};

/* Shorthands: --seed N and --name S join --set in argv order. */
static const struct ap_option sh_opts[] = {
	{ .name = "--set", .type = AP_STRING, .repeat_append = 1 },
	{ .name = "--seed", .type = AP_INT, .has_min = 1, .min = 0,
	  .expand_prefix = "seed=", .expand_to = 0 },
	{ .name = "--name", .type = AP_STRING, .expand_prefix = "name=",
	  .expand_to = 0 },
	{ .name = "--hours", .type = AP_FLOAT, .finite = 1, .expand_prefix = "hours=",
	  .expand_to = 0 },
};
static const struct ap_verb sh_verb[] = {
	{ "s", "shorthands", NULL, sh_opts, 4, { NULL, 0, 0 }, NULL, 0 },
};
static const struct ap_program shorthand = {
	"s", NULL, NULL, { AP_NO_ABBREV, 0, 0, 0, "s" }, sh_verb, 1
};

static const struct ap_program *const progs[] = { &cool, &res, &chaos, &promo,
						  &lint, &types, &shorthand };
enum { COOL, RES, CHAOS, PROMO, LINT, TYPES, SHORTHAND };

/* ---- helpers ------------------------------------------------------------- */

static int argv_count(const char *const *a)
{
	int n = 0;

	while (a[n])
		n++;
	return n;
}

static int parse(int prog, const char *const *args, struct ap_result *r,
		 struct diag *err)
{
	char *argv[32];
	int i, n = argv_count(args);

	cr_assert(n < 32);
	for (i = 0; i < n; i++)
		argv[i] = (char *)(uintptr_t)args[i];
	argv[n] = NULL;
	diag_init(err);
	return ap_parse(progs[prog], n, argv, r, err);
}

static const struct ap_slot *slot_of(const struct ap_result *r,
				     const char *name)
{
	size_t i;

	cr_assert(r->verb != NULL);
	for (i = 0; i < r->verb->noptions; i++)
		if (strcmp(r->verb->options[i].name, name) == 0)
			return &r->slots[i];
	cr_assert_fail("no option %s", name);
	return NULL;
}

static void join_operands(const struct ap_result *r, char *out, size_t size)
{
	size_t i, n = 0;

	out[0] = '\0';
	for (i = 0; i < r->noperands; i++) {
		cr_assert(n + strlen(r->operands[i]) + 2 < size);
		if (i)
			out[n++] = ',';
		memcpy(out + n, r->operands[i], strlen(r->operands[i]) + 1);
		n += strlen(r->operands[i]);
	}
}

/*
 * Criterion runs each parameterized test in a new process, where pointers
 * into the parent's data are invalid: the rows stay in file-scope tables
 * and the parameters are their indices.
 */
struct row {
	size_t i;
};

static struct criterion_test_params row_indices(struct row *rows, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		rows[i].i = i;
	return cr_make_param_array(struct row, rows, n);
}

/* ---- syntax: one row per rule -------------------------------------------- */

struct syn_case {
	int prog;
	const char *argv[12];
	const char *verb;     /* the verb that runs; "" none (help or error) */
	int help;
	const char *opt;      /* an option to look at, or NULL */
	const char *text;     /* its last value, or NULL for no value */
	const char *operands; /* comma-joined, or NULL: not checked */
	const char *err_arg;  /* NULL: success; else err->path */
	const char *err_msg;  /* NULL: not checked; else the exact message */
};

#define OK(p, v, o, t, ops, ...) \
	{ p, { __VA_ARGS__, NULL }, v, 0, o, t, ops, NULL, NULL }
#define HELP(p, v, ...) \
	{ p, { __VA_ARGS__, NULL }, v, 1, NULL, NULL, NULL, NULL, NULL }
#define ERR(p, v, arg, msg, ...) \
	{ p, { __VA_ARGS__, NULL }, v, 0, NULL, NULL, NULL, arg, msg }
#define NOARGS NULL

static const struct syn_case syn_rows[] = {
	/* --name VALUE, --name=VALUE, last wins */
	OK(COOL, "gate", "--density", "5", NULL, "gate", "--density", "5"),
	OK(COOL, "gate", "--density", "5", NULL, "gate", "--density=5"),
	OK(COOL, "gate", "--density", "2", NULL, "gate", "--density", "1",
	    "--density=2"),
	OK(COOL, "gate", "--format", "text", NULL, "gate", "--density", "1"),
	/* unique prefixes; an exact name wins; reference before added */
	OK(COOL, "gate", "--density", "120", NULL, "gate", "--dens", "120"),
	OK(COOL, "gate", "--density", "120", NULL, "gate", "--dens=120"),
	ERR(COOL, "gate", "--d",
	    "option '--d' is ambiguous: it could be --density or --dry-run",
	    "gate", "--d", "5"),
	ERR(COOL, "gate", "--d", NULL, "gate", "--density", "5", "--d=5"),
	ERR(COOL, "gate", "--d", NULL, "gate", "--density", "--d"),
	OK(COOL, "gate", "--format", "json", NULL, "gate", "--density", "5",
	    "--f", "json"),
	OK(COOL, "capacity", "--feed-mw", "10", NULL, "capacity", "--f", "10"),
	OK(COOL, "capacity", "--format", "json", NULL, "capacity", "--fo",
	    "json"),
	OK(COOL, "gate", "--strict", "true", NULL, "gate", "--density", "5",
	    "--st"),
	ERR(COOL, "gate", "--rung", NULL, "gate", "--density", "5", "--r",
	    "ai"),
	OK(COOL, "gate", "--rung", "air", NULL, "gate", "--density", "5",
	    "--ru", "air"),
	/* choice values are never abbreviated, and case-sensitive */
	ERR(COOL, "gate", "--rung",
	    "'ai' is not one of air, rdhx, dlc (option '--rung')",
	    "gate", "--density", "5", "--rung", "ai"),
	ERR(COOL, "gate", "--rung", NULL, "gate", "--density", "5",
	    "--rung=Air"),
	/* verbs are exact */
	ERR(COOL, "", "command",
	    "unknown command 'ga'; expected one of: ladder, gate, capacity, "
	    "fleet",
	    "ga", "--density", "5"),
	ERR(COOL, "", "command",
	    "unknown command 'frobnicate'; expected one of: ladder, gate, "
	    "capacity, fleet",
	    "frobnicate"),
	ERR(COOL, "", "command",
	    "no command given; expected one of: ladder, gate, capacity, fleet",
	    NOARGS),
	/* negative numbers: -5, -0.5, -.5 are values; -1e3, -inf not */
	ERR(COOL, "gate", "--density",
	    "option '--density' must be greater than 0, got -5",
	    "gate", "--density", "-5", "--format", "json"),
	OK(COOL, "capacity", "--feed-mw", "-5", NULL, "capacity", "--feed-mw",
	    "-5"),
	OK(COOL, "capacity", "--feed-mw", "-0.5", NULL, "capacity", "--feed-mw",
	    "-0.5"),
	OK(COOL, "capacity", "--feed-mw", "-.5", NULL, "capacity", "--feed-mw",
	    "-.5"),
	ERR(COOL, "capacity", "--feed-mw", "option '--feed-mw' needs a value",
	    "capacity", "--feed-mw", "-1e3"),
	ERR(COOL, "capacity", "--feed-mw", "option '--feed-mw' needs a value",
	    "capacity", "--feed-mw", "-inf"),
	ERR(COOL, "capacity", "--feed-mw",
	    "option '--feed-mw' must be a finite number, got -inf",
	    "capacity", "--feed-mw=-inf"),
	ERR(COOL, "capacity", "--feed-mw",
	    "'-1 e' is not a number (option '--feed-mw')",
	    "capacity", "--feed-mw", "-1 e"),
	ERR(COOL, "capacity", "--feed-mw", "option '--feed-mw' needs a value",
	    "capacity", "--feed-mw", "-5."),
	OK(COOL, "fleet", "--seed", "-11", NULL, "fleet", "--seed", "-011"),
	ERR(COOL, "fleet", "--seed", "option '--seed' needs a value",
	    "fleet", "--seed", "-1_0"),
	ERR(COOL, "fleet", "-5",
	    "unexpected operand '-5': 'fleet' takes no operands",
	    "fleet", "-5"),
	/* flags take no value */
	ERR(COOL, "gate", "--dry-run", "option '--dry-run' takes no value",
	    "gate", "--density", "5", "--dry-run=yes"),
	ERR(COOL, "gate", "--dry-run", NULL, "gate", "--density", "5",
	    "--dry=1"),
	OK(COOL, "gate", "--dry-run", "true", NULL, "gate", "--dry-run",
	    "--density", "5", "--dry-run"),
	OK(COOL, "gate", "--dry-run", NULL, NULL, "gate", "--density", "5"),
	/* missing values, required options, strays, unknown options */
	ERR(COOL, "gate", "--density", "option '--density' needs a value",
	    "gate", "--density"),
	ERR(COOL, "gate", "--density", NULL, "gate", "--density", "--dry-run"),
	ERR(COOL, "gate", "--density", NULL, "gate", "--density", "--", "5"),
	ERR(COOL, "gate", "--density", "missing required option '--density'",
	    "gate"),
	ERR(COOL, "gate", "--density", NULL, "gate", "--format", "json"),
	ERR(COOL, "gate", "stray",
	    "unexpected operand 'stray': 'gate' takes no operands",
	    "gate", "--density", "5", "stray"),
	ERR(COOL, "gate", "-", NULL, "gate", "--density", "5", "-"),
	ERR(COOL, "gate", "--bogus", "unknown option '--bogus'", "gate",
	    "--density", "5", "--bogus"),
	ERR(COOL, "gate", "-x", "unknown option '-x'", "gate", "--density", "5",
	    "-x"),
	ERR(COOL, "gate", "--fromat",
	    "unknown option '--fromat' (did you mean '--format'?)",
	    "gate", "--density", "5", "--fromat", "json"),
	ERR(COOL, "gate", "--density",
	    "'--x' is not a number (option '--density')",
	    "gate", "--density=--x"),
	/* argparse's order: a bad value before missing and unknown */
	ERR(COOL, "gate", "--rung", NULL, "gate", "--bogus", "--rung", "x"),
	ERR(COOL, "gate", "--density", NULL, "gate", "--bogus"),
	/* paths: "-" is standard input, empty is refused */
	OK(COOL, "gate", "--plan", "-", NULL, "gate", "--plan", "-",
	    "--density", "5"),
	ERR(COOL, "gate", "--plan",
	    "option '--plan' needs a path, got an empty value",
	    "gate", "--plan=", "--density", "5"),
	/* help anywhere, even after "--" or as a value */
	HELP(COOL, "gate", "gate", "-h"),
	HELP(COOL, "gate", "gate", "--density", "abc", "-h"),
	HELP(COOL, "gate", "gate", "--density", "-h"),
	HELP(COOL, "gate", "gate", "--density", "5", "--", "--help"),
	HELP(COOL, "", "-h"),
	HELP(COOL, "", "--help", "frobnicate"),
	HELP(COOL, "gate", "gate", "--density", "5", "--he"),
	HELP(COOL, "gate", "gate", "--h"),
	/* ranges */
	ERR(COOL, "fleet", "--sites",
	    "option '--sites' must be at least 1, got 0",
	    "fleet", "--sites", "0"),
	ERR(COOL, "fleet", "--sites",
	    "option '--sites' must be at most 100, got 101",
	    "fleet", "--sites", "101"),
	ERR(COOL, "ladder", "--pue",
	    "option '--pue' must be at least 1, got 0.99",
	    "ladder", "--pue", "0.99"),

	/* resiliency: prefixes among the verb's own options */
	OK(RES, "ladder", "--years", "5", NULL, "ladder", "--ye", "5"),
	OK(RES, "ladder", "--seed", "3", NULL, "ladder", "--s", "3"),
	ERR(RES, "simulate", "--s",
	    "option '--s' is ambiguous: it could be --site or --seed",
	    "simulate", "--s", "3"),
	OK(RES, "ladder", "--years", "2000", NULL, "ladder"),
	OK(RES, "ladder", "--years", "2", NULL, "ladder", "--years", "1",
	    "--years", "2"),
	ERR(RES, "ladder", "--years",
	    "option '--years' must be at least 1, got -3",
	    "ladder", "--years", "-3"),
	OK(RES, "ladder", "--seed", "-11", NULL, "ladder", "--seed", "-11"),
	ERR(RES, "ladder", "--years",
	    "'2.5' is not an integer (option '--years')",
	    "ladder", "--years", "2.5", "--format", "json"),
	/* options before the verb */
	OK(RES, "ladder", "--format", "json", NULL, "--format", "json",
	    "ladder"),
	OK(RES, "ladder", "--format", "json", NULL, "--form", "json", "ladder"),
	OK(RES, "ladder", "--format", "json", NULL, "--format=json", "ladder"),
	OK(RES, "ladder", "--format", "text", NULL, "--format", "json",
	    "ladder", "--format", "text"),
	ERR(RES, "ladder", "--format",
	    "'yml' is not one of text, json (option '--format')",
	    "--format", "yml", "ladder"),
	ERR(RES, "lint", "--format", NULL, "--format", "xml", "lint", "a"),
	OK(RES, "lint", "--format", "sarif", NULL, "--format", "sarif", "lint",
	    "a"),
	ERR(RES, "", "--format", "option '--format' needs a value", "--format"),
	ERR(RES, "", "command", NULL, "--format", "json"),
	ERR(RES, "", "command",
	    "unknown command '5'; expected one of: ladder, policy, "
	    "transports, simulate, lint",
	    "--years", "5", "ladder"),
	ERR(RES, "ladder", "--years=5",
	    "unknown option '--years=5' before the command (options of "
	    "'ladder' follow it)",
    "--years=5", "ladder"),
	ERR(RES, "transports", "--years", "unknown option '--years'",
	    "transports", "--years", "5", "--format", "json"),
	/* short options: -p P1, -pP1, -p=P1 */
	OK(RES, "policy", "--policy", "P1", NULL, "policy", "-p", "P1"),
	OK(RES, "policy", "--policy", "P1", NULL, "policy", "-pP1"),
	OK(RES, "policy", "--policy", "P1", NULL, "policy", "-p=P1"),
	OK(RES, "policy", "--policy", "P2", NULL, "policy", "--pol", "P2"),
	ERR(RES, "policy", "--policy",
	    "'P9' is not one of P0, P1, P2, P3, P4 (option '--policy')",
	    "policy", "-p", "P9"),
	ERR(RES, "policy", "--policy", "missing required option '--policy'",
	    "policy", "--format", "json"),
	ERR(RES, "simulate", "--site", NULL, "simulate", "--format", "json"),
	ERR(RES, "simulate", "--site", "option '--site' needs a value",
	    "simulate", "--site", "--format", "json"),
	/* help only where parsed: an earlier bad value wins */
	HELP(RES, "ladder", "ladder", "-h"),
	HELP(RES, "", "-h"),
	HELP(RES, "", "--help", "ladder"),
	HELP(RES, "", "--format", "json", "-h", "ladder"),
	HELP(RES, "ladder", "ladder", "--bogus", "-h"),
	HELP(RES, "ladder", "ladder", "--he"),
	ERR(RES, "ladder", "--years", NULL, "ladder", "--years", "abc", "-h"),
	ERR(RES, "ladder", "--years", "option '--years' needs a value",
	    "ladder", "--years", "-h"),
	ERR(RES, "ladder", "-h",
	    "unexpected operand '-h': 'ladder' takes no operands",
	    "ladder", "--", "-h"),
	/* operands and options interleaved; -j4; "--" */
	OK(RES, "lint", "--jobs", "4", "a,b,c", "lint", "a", "--strict", "b",
	    "-j4", "c"),
	OK(RES, "lint", "--jobs", "3", "a", "lint", "-j", "3", "a"),
	OK(RES, "lint", "--strict", NULL, "--strict,-j", "lint", "--",
	    "--strict", "-j"),
	OK(RES, "lint", "--jobs", "1", "-", "lint", "-"),
	OK(RES, "lint", "--jobs", "1", "-5", "lint", "-5"),
	ERR(RES, "lint", "FILE", "missing operand FILE", "lint", "--strict"),
	ERR(RES, "lint", "--jobs", "option '--jobs' must be at least 1, got 0",
	    "lint", "-j0", "a"),

	/* chaos: a default verb, the verb word only first */
	OK(CHAOS, "lint", "--strict", NULL, "", NOARGS),
	OK(CHAOS, "lint", "--format", "text", "a.yaml,b", "a.yaml", "b"),
	OK(CHAOS, "lint", "--strict", "true", "x", "lint", "x", "--strict"),
	OK(CHAOS, "lint", "--strict", "true", "lint", "--strict", "lint"),
	OK(CHAOS, "lint", "--strict", NULL, "./coverage", "./coverage"),
	OK(CHAOS, "coverage", "--require", "real", "", "coverage", "--require",
	    "real"),
	ERR(CHAOS, "two-clocks", "--ib-timeout",
	    "option '--ib-timeout' must be at most 31, got 40",
	    "two-clocks", "--ib-timeout", "40"),
	ERR(CHAOS, "two-clocks", "x",
	    "unexpected operand 'x': 'two-clocks' takes no operands",
	    "two-clocks", "x"),
	ERR(CHAOS, "two-clocks", "--hold", NULL, "two-clocks", "--hold", "-1"),
	OK(CHAOS, "two-clocks", "--hold", "0", NULL, "two-clocks", "--hold=0"),
	/* names in full: no prefixes at all */
	ERR(CHAOS, "lint", "--str", "unknown option '--str'", "--str"),
	ERR(CHAOS, "lint", "--form",
	    "unknown option '--form' (did you mean '--format'?)",
	    "--form", "json"),
	ERR(CHAOS, "lint", "--he", NULL, "--he"),
	OK(CHAOS, "lint", "--jobs", "4", "a", "-j", "4", "a"),
	OK(CHAOS, "lint", "--jobs", "4", "a", "a", "-j4"),
	ERR(CHAOS, "lint", "--jobs", "option '--jobs' needs a value", "-j",
	    "-1"),
	ERR(CHAOS, "lint", "-5", "unknown option '-5'", "-5"),
	OK(CHAOS, "lint", "--strict", NULL, "-5,-h", "--", "-5", "-h"),
	OK(CHAOS, "lint", "--format", "text", NULL, "--format", "json",
	    "--format", "text"),
	OK(CHAOS, "lint", "--mutate", "x", NULL, "--mutate", "x"),
	HELP(CHAOS, "", "a", "-h"),
	HELP(CHAOS, "", "-h", "--bogus"),
	HELP(CHAOS, "lint", "lint", "-h"),
	HELP(CHAOS, "two-clocks", "two-clocks", "--help"),

	/* promotion: no verb word, a select flag, help anywhere */
	OK(PROMO, "gate", "--trust", "t.json", "r.yaml", "--t", "t.json", "--e",
	    "d", "r.yaml"),
	OK(PROMO, "gate", "--evidence-root", "d", NULL, "--evidence", "d"),
	OK(PROMO, "gate", "--trust", "t.json", NULL, "--tr=t.json"),
	ERR(PROMO, "gate", "--st", "unknown option '--st'", "--st"),
	ERR(PROMO, "gate", "--decl", NULL, "--decl"),
	OK(PROMO, "digest", "--print-digest", "true", "r.yaml",
	    "--print-digest", "r.yaml"),
	OK(PROMO, "digest", "--format", "json", "r.yaml", "r.yaml", "--format",
	    "json", "--print-digest"),
	OK(PROMO, "gate", "--strict", NULL, "--print-digest", "--",
	    "--print-digest"),
	ERR(PROMO, "digest", "--format",
	    "'sarif' is not one of text, json (option '--format')",
	    "--print-digest", "--format", "sarif"),
	ERR(PROMO, "digest", "--strict", "unknown option '--strict'",
	    "--print-digest", "--strict"),
	OK(PROMO, "gate", "--strict", NULL, "-,-", "-", "-"),
	OK(PROMO, "gate", "--strict", NULL, "r.yaml", "gate", "r.yaml"),
	HELP(PROMO, "", "--trust", "-h"),
	HELP(PROMO, "", "--", "--help"),
	HELP(PROMO, "", "--he"),
	HELP(PROMO, "", "--print-digest", "-h"),
	ERR(PROMO, "gate", "--trust",
	    "option '--trust' needs a path, got an empty value", "--trust="),
	ERR(PROMO, "gate", "--trust", "option '--trust' needs a value",
	    "--trust", "--strict"),
	ERR(PROMO, "gate", "--strict", "option '--strict' takes no value",
	    "--strict=1"),

	/* a native verb */
	OK(LINT, "lint", "--format", "json", "a,b", "--strict", "a",
	    "--format=json", "b"),
	OK(LINT, "lint", "--format", "text", "lint", "lint"),
	ERR(LINT, "lint", "--format",
	    "'yml' is not one of text, json, sarif, github, junit (option "
	    "'--format')",
	    "--format", "yml"),
	ERR(LINT, "lint", "--fromat",
	    "unknown option '--fromat' (did you mean '--format'?)",
	    "--fromat", "json"),
	ERR(LINT, "lint", "--strcit",
	    "unknown option '--strcit' (did you mean '--strict'?)",
	    "--strcit"),
	ERR(LINT, "lint", "--fromat=json",
	    "unknown option '--fromat=json' (did you mean '--format'?)",
	    "--fromat=json"),
	ERR(LINT, "lint", "--zzz", "unknown option '--zzz'", "--zzz"),
	ERR(LINT, "lint", "--mutat", "unknown option '--mutat'", "--mutat"),
	OK(LINT, "lint", "--jobs", "4", NULL, "-j", "4"),
	OK(LINT, "lint", "--jobs", "4", NULL, "-j4"),
	OK(LINT, "lint", "--jobs", "4", NULL, "-j=4"),
	OK(LINT, "lint", "--jobs", "4", NULL, "--jobs=4"),
	OK(LINT, "lint", "--jobs", " 4 ", NULL, "--jobs", " 4 "),
	ERR(LINT, "lint", "--jobs", "option '--jobs' must be at least 1, got 0",
	    "-j", "0"),
	ERR(LINT, "lint", "--jobs", "option '--jobs' needs a value", "--jobs"),
	ERR(LINT, "lint", "--jobs", "option '--jobs' needs a value", "-j",
	    "-1"),
	ERR(LINT, "lint", "--strict", "option '--strict' takes no value",
	    "--strict=yes"),
	OK(LINT, "lint", "--mutate", "m", NULL, "--mutate", "m"),
	OK(LINT, "lint", "--strict", NULL, "-", "-"),
	OK(LINT, "lint", "--strict", NULL, "-h,--help", "--", "-h", "--help"),
	HELP(LINT, "lint", "a", "-h"),
	HELP(LINT, "lint", "--bogus", "--help"),
	ERR(LINT, "lint", "--format", NULL, "--format", "yml", "-h"),
};

ParameterizedTestParameters(argparse, syntax)
{
	static struct row rows[sizeof syn_rows / sizeof syn_rows[0]];

	return row_indices(rows, sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct row *row, argparse, syntax)
{
	const struct syn_case *c = &syn_rows[row->i];
	struct ap_result r;
	struct diag err;
	char ops[512];
	int rc = parse(c->prog, c->argv, &r, &err);

	if (c->err_arg) {
		cr_assert_eq(rc, -1, "expected an error naming %s", c->err_arg);
		cr_assert_eq(err.code, DIAG_E_USAGE);
		cr_assert_str_eq(err.path, c->err_arg, "message: %s", err.msg);
		cr_assert_str_eq(err.id, "");
		if (c->err_msg)
			cr_assert_str_eq(err.msg, c->err_msg);
		cr_assert(strlen(err.msg) > 0);
		cr_assert(err.msg[strlen(err.msg) - 1] != '.');
		cr_assert(!(err.msg[0] >= 'A' && err.msg[0] <= 'Z'));
		if (c->verb[0])
			cr_assert(r.verb && strcmp(r.verb->name, c->verb) == 0,
				  "verb on error");
		else
			cr_assert_null(r.verb);
		cr_assert_null(r.slots);
		ap_result_release(&r);
		return;
	}
	cr_assert_eq(rc, 0, "unexpected error: %s [%s]", err.msg, err.path);
	cr_assert_eq(r.help, c->help);
	if (c->verb[0])
		cr_assert(r.verb && strcmp(r.verb->name, c->verb) == 0,
			  "verb %s, got %s", c->verb,
			  r.verb ? r.verb->name : "none");
	else
		cr_assert_null(r.verb);
	if (c->opt) {
		const struct ap_slot *s = slot_of(&r, c->opt);

		if (c->text) {
			cr_assert(s->has_value && s->nvalues >= 1);
			cr_assert_str_eq(s->values[s->nvalues - 1].text,
					 c->text);
		} else {
			cr_assert_eq(s->has_value, 0);
		}
	}
	if (c->operands) {
		join_operands(&r, ops, sizeof ops);
		cr_assert_str_eq(ops, c->operands);
	}
	ap_result_release(&r);
	cr_assert_null(r.slots);
}

/* ---- value types --------------------------------------------------------- */

struct val_case {
	const char *opt;
	const char *value;  /* given as --opt=VALUE */
	int ok;
	double f;           /* AP_FLOAT */
	int64_t i;          /* AP_INT */
	const char *canon;  /* AP_BIGINT */
	const char *msg;    /* the error message, when !ok (NULL: unchecked) */
};

static const struct val_case val_rows[] = {
	/* float: Python float() over ASCII, then finite */
	{ "--f", "1_000", 1, 1000, 0, NULL, NULL },
	{ "--f", " 2 ", 1, 2, 0, NULL, NULL },
	{ "--f", "\t2\n", 1, 2, 0, NULL, NULL },
	{ "--f", "1e3", 1, 1000, 0, NULL, NULL },
	{ "--f", "2.5E-1", 1, 0.25, 0, NULL, NULL },
	{ "--f", "+1.5e+2", 1, 150, 0, NULL, NULL },
	{ "--f", "-0.5", 1, -0.5, 0, NULL, NULL },
	{ "--f", ".5", 1, 0.5, 0, NULL, NULL },
	{ "--f", "5.", 1, 5, 0, NULL, NULL },
	{ "--f", "1_000.5", 1, 1000.5, 0, NULL, NULL },
	{ "--f", "1e1_0", 1, 1e10, 0, NULL, NULL },
	{ "--f", "1e-400", 1, 0, 0, NULL, NULL },
	{ "--f", "inf", 0, 0, 0, NULL,
	    "option '--f' must be a finite number, got inf" },
	{ "--f", "-Infinity", 0, 0, 0, NULL, NULL },
	{ "--f", "nan", 0, 0, 0, NULL,
	    "option '--f' must be a finite number, got nan" },
	{ "--f", "NaN", 0, 0, 0, NULL, NULL },
	{ "--f", "1e400", 0, 0, 0, NULL,
	    "option '--f' must be a finite number, got 1e400" },
	{ "--f", "1__0", 0, 0, 0, NULL,
	    "'1__0' is not a number (option '--f')" },
	{ "--f", "_1", 0, 0, 0, NULL, NULL },
	{ "--f", "1_", 0, 0, 0, NULL, NULL },
	{ "--f", "1_.5", 0, 0, 0, NULL, NULL },
	{ "--f", "1._5", 0, 0, 0, NULL, NULL },
	{ "--f", "1e_5", 0, 0, 0, NULL, NULL },
	{ "--f", "0x10", 0, 0, 0, NULL, NULL },
	{ "--f", "", 0, 0, 0, NULL, "'' is not a number (option '--f')" },
	{ "--f", " ", 0, 0, 0, NULL, NULL },
	{ "--f", ".", 0, 0, 0, NULL, NULL },
	{ "--f", "1e", 0, 0, 0, NULL, NULL },
	{ "--f", "1,5", 0, 0, 0, NULL, NULL },
	{ "--f", "nan(1)", 0, 0, 0, NULL, NULL },
	{ "--f", "in f", 0, 0, 0, NULL, NULL },
	{ "--f", "\x1c" "1", 0, 0, 0, NULL, NULL },
	{ "--nf", "inf", 1, INFINITY, 0, NULL, NULL },
	{ "--nf", "-infinity", 1, -INFINITY, 0, NULL, NULL },
	{ "--nf", "1e400", 1, INFINITY, 0, NULL, NULL },
	{ "--nfb", "nan", 0, 0, 0, NULL,
	    "option '--nfb' must be at most 1, got nan" },
	/* int: Python int() base 10, 64 bits */
	{ "--i", "1_000", 1, 0, 1000, NULL, NULL },
	{ "--i", "007", 1, 0, 7, NULL, NULL },
	{ "--i", " -5 ", 1, 0, -5, NULL, NULL },
	{ "--i", "+3", 1, 0, 3, NULL, NULL },
	{ "--i", "-0", 1, 0, 0, NULL, NULL },
	{ "--i", "9223372036854775807", 1, 0, INT64_MAX, NULL, NULL },
	{ "--i", "-9223372036854775808", 1, 0, INT64_MIN, NULL, NULL },
	{ "--i", "9223372036854775808", 0, 0, 0, NULL,
	  "option '--i' must fit in 64 bits, got 9223372036854775808" },
	{ "--i", "-9223372036854775809", 0, 0, 0, NULL, NULL },
	{ "--i", "00000000000000000000000000000000000000007", 1, 0, 7, NULL,
	    NULL },
	{ "--i", "2.5", 0, 0, 0, NULL,
	    "'2.5' is not an integer (option '--i')" },
	{ "--i", "1e3", 0, 0, 0, NULL, NULL },
	{ "--i", "0x10", 0, 0, 0, NULL, NULL },
	{ "--i", "", 0, 0, 0, NULL, NULL },
	{ "--i", "1__0", 0, 0, 0, NULL, NULL },
	{ "--i", "_1", 0, 0, 0, NULL, NULL },
	{ "--i", "1_", 0, 0, 0, NULL, NULL },
	{ "--i", "- 1", 0, 0, 0, NULL, NULL },
	{ "--i", "٣", 0, 0, 0, NULL, NULL },
	/* bigint: canonical decimal */
	{ "--b", "-011", 1, 0, -11, "-11", NULL },
	{ "--b", "+0", 1, 0, 0, "0", NULL },
	{ "--b", "-0", 1, 0, 0, "0", NULL },
	{ "--b", "000", 1, 0, 0, "0", NULL },
	{ "--b", " 1_0 ", 1, 0, 10, "10", NULL },
	{ "--b", "18446744073709551617", 1, 0, 0, "18446744073709551617",
	    NULL },
	{ "--b", "-18446744073709551617", 1, 0, 0, "-18446744073709551617",
	    NULL },
	{ "--b", "1.0", 0, 0, 0, NULL,
	    "'1.0' is not an integer (option '--b')" },
	{ "--b", "abc", 0, 0, 0, NULL, NULL },
	/* choice, string, path */
	{ "--c", "json", 1, 0, 0, NULL, NULL },
	{ "--c", "jso", 0, 0, 0, NULL,
	    "'jso' is not one of text, json (option '--c')" },
	{ "--c", "JSON", 0, 0, 0, NULL, NULL },
	{ "--c", "", 0, 0, 0, NULL, NULL },
	{ "--s", "", 1, 0, 0, NULL, NULL },
	{ "--s", "-x", 1, 0, 0, NULL, NULL },
	{ "--s", "a=b", 1, 0, 0, NULL, NULL },
	{ "--p", "-", 1, 0, 0, NULL, NULL },
	{ "--p", "dir/f.yaml", 1, 0, 0, NULL, NULL },
	{ "--p", "", 0, 0, 0, NULL, NULL },
	/* bounds, inclusive and exclusive */
	{ "--ge0", "0", 1, 0, 0, NULL, NULL },
	{ "--ge0", "-0.0", 1, -0.0, 0, NULL, NULL },
	{ "--ge0", "-1e-300", 0, 0, 0, NULL,
	    "option '--ge0' must be at least 0, got -1e-300" },
	{ "--gt0", "0", 0, 0, 0, NULL,
	    "option '--gt0' must be greater than 0, got 0" },
	{ "--gt0", "5e-324", 1, 5e-324, 0, NULL, NULL },
	{ "--le5", "5", 1, 5, 0, NULL, NULL },
	{ "--le5", "5.000001", 0, 0, 0, NULL,
	    "option '--le5' must be at most 5, got 5.000001" },
	{ "--lt5", "5", 0, 0, 0, NULL,
	    "option '--lt5' must be less than 5, got 5" },
	{ "--lt5", "4.999", 1, 4.999, 0, NULL, NULL },
	{ "--half", "0.5", 1, 0.5, 0, NULL, NULL },
	{ "--half", " 0.25 ", 0, 0, 0, NULL,
	    "option '--half' must be at least 0.5, got 0.25" },
	{ "--ir", "1", 1, 0, 1, NULL, NULL },
	{ "--ir", "31", 1, 0, 31, NULL, NULL },
	{ "--ir", "0", 0, 0, 0, NULL,
	    "option '--ir' must be at least 1, got 0" },
	{ "--ir", "32", 0, 0, 0, NULL,
	    "option '--ir' must be at most 31, got 32" },
	{ "--ir", "-9223372036854775808", 0, 0, 0, NULL, NULL },
	{ "--ilt", "7", 1, 0, 7, NULL, NULL },
	{ "--ilt", "8", 0, 0, 0, NULL,
	    "option '--ilt' must be less than 8, got 8" },
};

ParameterizedTestParameters(argparse, values)
{
	static struct row rows[sizeof val_rows / sizeof val_rows[0]];

	return row_indices(rows, sizeof rows / sizeof rows[0]);
}

static const struct ap_option *option_named(const struct ap_verb *v,
					    const char *name)
{
	size_t i;

	for (i = 0; i < v->noptions; i++)
		if (strcmp(v->options[i].name, name) == 0)
			return &v->options[i];
	return NULL;
}

ParameterizedTest(struct row *row, argparse, values)
{
	const struct val_case *c = &val_rows[row->i];
	char arg[128];
	const char *argv[2] = { arg, NULL };
	const struct ap_option *o = option_named(t_verb, c->opt);
	struct ap_result r;
	struct diag err;
	const struct ap_value *v;
	int rc;

	cr_assert_not_null(o);
	cr_assert(snprintf(arg, sizeof arg, "%s=%s", c->opt, c->value) <
		  (int)sizeof arg);
	rc = parse(TYPES, argv, &r, &err);
	if (!c->ok) {
		cr_assert_eq(rc, -1, "'%s' accepted", c->value);
		cr_assert_eq(err.code, DIAG_E_USAGE);
		cr_assert_str_eq(err.path, c->opt);
		if (c->msg)
			cr_assert_str_eq(err.msg, c->msg);
		ap_result_release(&r);
		return;
	}
	cr_assert_eq(rc, 0, "'%s' refused: %s", c->value, err.msg);
	v = &slot_of(&r, c->opt)->values[0];
	switch (o->type) {
	case AP_FLOAT:
		/* bit for bit on purpose: float() is correctly rounded */
		cr_assert(v->f == c->f || (isnan(v->f) && isnan(c->f)),
			  "%s gave %.17g", c->value, v->f);
		cr_assert_eq(signbit(v->f) != 0, signbit(c->f) != 0);
		cr_assert_str_eq(v->text, c->value);
		break;
	case AP_INT:
		cr_assert_eq(v->i, c->i);
		cr_assert_str_eq(v->text, c->value);
		break;
	case AP_BIGINT:
		cr_assert_str_eq(v->text, c->canon);
		cr_assert_eq(v->i, c->i);
		break;
	default:
		cr_assert_str_eq(v->text, c->value);
	}
	ap_result_release(&r);
}

/* Build "--opt=" followed by 'n' copies of 'digit' after 'head'. */
static char *long_arg(const char *opt, const char *head, size_t n, char digit)
{
	size_t lo = strlen(opt), lh = strlen(head);
	char *s = malloc(lo + 1 + lh + n + 1);

	cr_assert_not_null(s);
	memcpy(s, opt, lo);
	s[lo] = '=';
	memcpy(s + lo + 1, head, lh);
	memset(s + lo + 1 + lh, digit, n);
	s[lo + 1 + lh + n] = '\0';
	return s;
}

static int parse_one(const char *arg, struct ap_result *r, struct diag *err)
{
	const char *argv[2] = { arg, NULL };

	return parse(TYPES, argv, r, err);
}

Test(argparse, bigint_digit_limit)
{
	struct ap_result r;
	struct diag err;
	char *ok = long_arg("--b", "-", 4300, '9');
	char *over = long_arg("--b", "", 4301, '9');
	char *zeros = long_arg("--b", "0", 4300, '1');
	char *under = long_arg("--b", "1_", 4299, '1');

	cr_assert_eq(parse_one(ok, &r, &err), 0, "%s", err.msg);
	cr_assert_eq(strlen(slot_of(&r, "--b")->values[0].text), 4301);
	cr_assert_str_eq(slot_of(&r, "--b")->values[0].text, ok + 4);
	ap_result_release(&r);
	cr_assert_eq(parse_one(over, &r, &err), -1);
	cr_assert_str_eq(err.path, "--b");
	cr_assert_str_eq(err.msg, "option '--b' has more than 4300 digits");
	ap_result_release(&r);
	/* Python counts leading zeros towards the limit */
	cr_assert_eq(parse_one(zeros, &r, &err), -1);
	ap_result_release(&r);
	/* but not underscores */
	cr_assert_eq(parse_one(under, &r, &err), 0, "%s", err.msg);
	cr_assert_eq(strlen(slot_of(&r, "--b")->values[0].text), 4300);
	ap_result_release(&r);
	free(ok);
	free(over);
	free(zeros);
	free(under);
}

Test(argparse, long_numbers)
{
	struct ap_result r;
	struct diag err;
	/* "0.000...0001e601" with 600 zeros is 1.0 in Python */
	char *f = long_arg("--f", "0.", 600, '0');
	char *g = malloc(strlen(f) + 8);
	char *i = long_arg("--i", "", 4290, '0');
	char *ii = malloc(strlen(i) + 2);

	cr_assert(g && ii);
	memcpy(g, f, strlen(f));
	memcpy(g + strlen(f), "1e601", 6);
	cr_assert_eq(parse_one(g, &r, &err), 0, "%s", err.msg);
	cr_assert(slot_of(&r, "--f")->values[0].f == 1.0);
	ap_result_release(&r);
	/* leading zeros within the limit do not count against int64 */
	memcpy(ii, i, strlen(i));
	memcpy(ii + strlen(i), "7", 2);
	cr_assert_eq(parse_one(ii, &r, &err), 0, "%s", err.msg);
	cr_assert_eq(slot_of(&r, "--i")->values[0].i, 7);
	ap_result_release(&r);
	free(f);
	free(g);
	free(i);
	free(ii);
}

/* 511 digits and a point filled the old fixed buffer to one past its end */
Test(argparse, float_buffer_edge)
{
	struct ap_result r;
	struct diag err;
	char *s = long_arg("--nf", "", 511, '1');
	char *t = malloc(strlen(s) + 8);
	size_t n;

	cr_assert_not_null(t);
	for (n = 505; n < 512; n++) {
		free(s);
		s = long_arg("--nf", "", n, '1');
		memcpy(t, s, strlen(s));
		memcpy(t + strlen(s), ".", 2);
		cr_assert_eq(parse_one(t, &r, &err), 0, "%s", err.msg);
		cr_assert(isinf(slot_of(&r, "--nf")->values[0].f));
		ap_result_release(&r);
	}
	free(s);
	free(t);
}

Test(argparse, long_value_in_message)
{
	struct ap_result r;
	struct diag err;
	char *s = long_arg("--f", "", 2000, 'x');

	cr_assert_eq(parse_one(s, &r, &err), -1);
	cr_assert(strlen(err.msg) < 120, "%s", err.msg);
	cr_assert(strstr(err.msg, "...' is not a number (option '--f')"));
	ap_result_release(&r);
	free(s);
}

/* ---- defaults, flags, repeats -------------------------------------------- */

Test(argparse, defaults_are_parsed)
{
	static const char *const none[] = { NULL };
	struct ap_result r;
	struct diag err;
	const struct ap_slot *s;

	cr_assert_eq(parse(TYPES, none, &r, &err), 0, "%s", err.msg);
	s = slot_of(&r, "--d-int");
	cr_assert(s->has_value && !s->given && s->nvalues == 1);
	cr_assert_eq(s->values[0].i, 1000);
	cr_assert_str_eq(s->values[0].text, "1_000");
	s = slot_of(&r, "--d-big");
	cr_assert_str_eq(s->values[0].text, "-11");
	cr_assert_eq(s->values[0].i, -11);
	s = slot_of(&r, "--d-flag");
	cr_assert(s->has_value && !s->given && s->values[0].b == 1);
	s = slot_of(&r, "--d-float");
	cr_assert(s->values[0].f == 2.0);
	s = slot_of(&r, "--f");
	cr_assert(!s->has_value && !s->given && s->nvalues == 0);
	ap_result_release(&r);
}

Test(argparse, given_value_replaces_default)
{
	static const char *const args[] = { "--d-big=5", "--d-big", "0_7",
					    NULL };
	struct ap_result r;
	struct diag err;
	const struct ap_slot *s;

	cr_assert_eq(parse(TYPES, args, &r, &err), 0, "%s", err.msg);
	s = slot_of(&r, "--d-big");
	cr_assert(s->given && s->nvalues == 1);
	cr_assert_str_eq(s->values[0].text, "7");
	ap_result_release(&r);
}

Test(argparse, bad_default_is_reported)
{
	static const struct ap_option o[] = {
		{ .name = "--n", .type = AP_INT, .dflt = "abc" },
	};
	static const struct ap_verb v[] = {
		{ "x", "x", NULL, o, 1, { NULL, 0, 0 }, NULL, 0 },
	};
	static const struct ap_program p = {
		"x", NULL, NULL, { AP_NO_ABBREV, 0, 0, 0, "x" }, v, 1
	};
	char *argv[2] = { NULL, NULL };
	char given[] = "--n=3";
	struct ap_result r;
	struct diag err;

	diag_init(&err);
	cr_assert_eq(ap_parse(&p, 0, argv, &r, &err), -1);
	cr_assert_str_eq(err.path, "--n");
	cr_assert_str_eq(err.msg, "'abc' is not an integer (option '--n')");
	ap_result_release(&r);
	/* given, the default is never looked at (as argparse) */
	argv[0] = given;
	cr_assert_eq(ap_parse(&p, 1, argv, &r, &err), 0);
	ap_result_release(&r);
}

Test(argparse, flags)
{
	static const char *const args[] = { "--strict", "a", "--strict", NULL };
	struct ap_result r;
	struct diag err;
	const struct ap_slot *s;

	cr_assert_eq(parse(LINT, args, &r, &err), 0, "%s", err.msg);
	s = slot_of(&r, "--strict");
	cr_assert(s->given && s->has_value && s->nvalues == 1);
	cr_assert(s->values[0].b);
	s = slot_of(&r, "--format");
	cr_assert(!s->given && s->has_value);
	cr_assert_str_eq(s->values[0].text, "text");
	s = slot_of(&r, "--jobs");
	cr_assert(!s->given && !s->has_value);
	ap_result_release(&r);
}

Test(argparse, repeat_append_accumulates)
{
	static const char *const args[] = { "--pack", "a", "x", "--pack=b",
					    "--pack", "", "--jobs", "2",
					    "--jobs", "3", NULL };
	struct ap_result r;
	struct diag err;
	const struct ap_slot *s;

	cr_assert_eq(parse(LINT, args, &r, &err), 0, "%s", err.msg);
	s = slot_of(&r, "--pack");
	cr_assert_eq(s->nvalues, 3);
	cr_assert_str_eq(s->values[0].text, "a");
	cr_assert_str_eq(s->values[1].text, "b");
	cr_assert_str_eq(s->values[2].text, "");
	s = slot_of(&r, "--jobs");
	cr_assert_eq(s->nvalues, 1);
	cr_assert_eq(s->values[0].i, 3);
	cr_assert_eq(r.noperands, 1);
	ap_result_release(&r);
}

Test(argparse, many_values_and_release)
{
	const char *args[31];
	struct ap_result r;
	struct diag err;
	int i;

	for (i = 0; i < 30; i += 2) {
		args[i] = "--tag";
		args[i + 1] = i % 4 ? "x" : "y";
	}
	args[30] = NULL;
	/* "ladder" first: the verb word */
	{
		const char *withverb[32];

		withverb[0] = "ladder";
		memcpy(withverb + 1, args, sizeof args);
		cr_assert_eq(parse(COOL, withverb, &r, &err), 0, "%s", err.msg);
	}
	cr_assert_eq(slot_of(&r, "--tag")->nvalues, 15);
	ap_result_release(&r);
	cr_assert_null(r.slots);
	cr_assert_null(r.operands);
	cr_assert_null(r.storage);
	cr_assert_null(r.verb);
	ap_result_release(&r); /* twice is harmless */
}

Test(argparse, bigint_storage_is_stable)
{
	static const char *const args[] = { "fleet", "--seed", "0001", "--seed",
					    "-0002", "--seed", "  3  ", NULL };
	struct ap_result r;
	struct diag err;
	const struct ap_slot *s;

	cr_assert_eq(parse(COOL, args, &r, &err), 0, "%s", err.msg);
	s = slot_of(&r, "--seed");
	cr_assert_str_eq(s->values[0].text, "3");
	cr_assert(s->values[0].text >= r.storage &&
		  s->values[0].text < r.storage + r.storage_alloc);
	cr_assert(r.storage_len <= r.storage_alloc);
	ap_result_release(&r);
}

Test(argparse, verb_index_and_operands_point_into_argv)
{
	char a0[] = "lint", a1[] = "x.yaml", a2[] = "--format=json";
	char *argv[] = { a0, a1, a2, NULL };
	struct ap_result r;
	struct diag err;

	diag_init(&err);
	cr_assert_eq(ap_parse(&res, 3, argv, &r, &err), 0, "%s", err.msg);
	cr_assert_eq(r.verb_index, 4);
	cr_assert_eq(r.verb, &res_verbs[4]);
	cr_assert_eq(r.operands[0], a1);
	cr_assert_eq(slot_of(&r, "--format")->values[0].text, a2 + 9);
	ap_result_release(&r);
}

/* A program whose verbs are all optional: no verb is not an error. */
Test(argparse, verb_not_required)
{
	static const struct ap_verb v[] = {
		{ "run", "run", NULL, NULL, 0, { NULL, 0, 0 }, NULL, 0 },
	};
	static const struct ap_program p = {
		"p", NULL, NULL, { AP_NO_ABBREV, 0, 0, 0, NULL }, v, 1
	};
	char run[] = "run";
	char *argv[] = { run, NULL };
	struct ap_result r;
	struct diag err;

	diag_init(&err);
	cr_assert_eq(ap_parse(&p, 0, argv, &r, &err), 0);
	cr_assert_null(r.verb);
	ap_result_release(&r);
	cr_assert_eq(ap_parse(&p, 1, argv, &r, &err), 0);
	cr_assert_eq(r.verb, &v[0]);
	ap_result_release(&r);
}

/* ---- --format scan ------------------------------------------------------- */

struct scan_case {
	const char *argv[8];
	int prefixes;
	const char *want;
};

static const struct scan_case scan_rows[] = {
	{ { "--format", "json", NULL }, 0, "json" },
	{ { "--format=json", NULL }, 0, "json" },
	{ { "gate", "--density", "5", "--format", "json", NULL }, 0, "json" },
	{ { "--format", "json", "--format", "text", NULL }, 0, "text" },
	{ { "--format=text", "--format", "json", NULL }, 0, "json" },
	{ { "--format", "json", "--", "--format", "text", NULL }, 0, "json" },
	{ { "--", "--format", "json", NULL }, 1, NULL },
	{ { "--form", "json", NULL }, 1, "json" },
	{ { "--form", "json", NULL }, 0, NULL },
	{ { "--for=json", NULL }, 1, "json" },
	{ { "--fo", "json", NULL }, 1, NULL },
	{ { "--fo=json", NULL }, 1, NULL },
	{ { "--formats", "json", NULL }, 1, NULL },
	{ { "--format", NULL }, 0, NULL },
	{ { "--format", "--strict", NULL }, 0, NULL },
	{ { "--format", "json", "--format", NULL }, 0, "json" },
	{ { "--format=", NULL }, 0, "" },
	{ { NULL }, 0, NULL },
};

ParameterizedTestParameters(argparse, scan_format)
{
	static struct row rows[sizeof scan_rows / sizeof scan_rows[0]];

	return row_indices(rows, sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct row *row, argparse, scan_format)
{
	const struct scan_case *c = &scan_rows[row->i];
	char *argv[8];
	int i, n = argv_count(c->argv);
	const char *got;

	for (i = 0; i < n; i++)
		argv[i] = (char *)(uintptr_t)c->argv[i];
	got = ap_scan_format(n, argv, c->prefixes);
	if (!c->want)
		cr_assert_null(got, "got %s", got);
	else
		cr_assert(got && strcmp(got, c->want) == 0, "got %s",
			  got ? got : "NULL");
}

/* ---- help ---------------------------------------------------------------- */

static char *help_of(const struct ap_program *p, const struct ap_verb *v)
{
	struct sbuf sb = SBUF_INIT;
	char *s;

	ap_help(p, v, &sb);
	cr_assert(!sb.failed);
	s = sbuf_detach(&sb, NULL);
	cr_assert_not_null(s);
	return s;
}

static void assert_lines_fit(const char *s)
{
	const char *p = s, *nl;

	while ((nl = strchr(p, '\n')) != NULL) {
		cr_assert(nl - p <= 80, "line too long: %.*s", (int)(nl - p),
			  p);
		cr_assert(nl == p || nl[-1] != ' ', "trailing space: %.*s",
			  (int)(nl - p), p);
		p = nl + 1;
	}
	cr_assert_eq(*p, '\0', "help ends with a newline");
}

Test(argparse, help_native_verb)
{
	char *h = help_of(&lint, NULL);

	cr_assert_str_eq(h,
		"usage: infragate lint [-h] [--strict] [--format "
		    "text|json|sarif|github|junit]\n"
		"                      [--jobs N] [--pack NAME]... [PATH...]\n"
		"\n"
		"check documents against the packs' rules\n"
		"\n"
		"options:\n"
		"  -h, --help    show this help and exit\n"
		"  --strict      run strict rules\n"
		"  --format text|json|sarif|github|junit\n"
		"                report format (default: text)\n"
		"  -j, --jobs N  parallel files\n"
		"  --pack NAME   only this pack (repeatable)\n");
	free(h);
}

static int starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

Test(argparse, help_program_and_verb)
{
	char *h = help_of(&cool, NULL), *g;

	assert_lines_fit(h);
	cr_assert(starts(h, "usage: pue-ladder [-h] COMMAND"), "%s", h);
	cr_assert(strstr(h, "\ncommands:\n  ladder"), "%s", h);
	cr_assert(strstr(h, "  gate      block a rack density no rung can "
			    "carry\n"),
		  "%s", h);
	cr_assert(strstr(h, "cooling ladder, capacity and admission gates"));
	g = help_of(&cool, &cool_verbs[1]);
	assert_lines_fit(g);
	cr_assert(starts(g, "usage: pue-ladder gate [-h] --density KW "
			    "[--rung air|rdhx|dlc]"),
		  "%s", g);
	cr_assert(strstr(g, "rack density, kW (required)"), "%s", g);
	cr_assert(strstr(g, "(default: text)"));
	free(h);
	free(g);
}

Test(argparse, help_hides_hidden_options)
{
	char *h = help_of(&lint, NULL), *c = help_of(&chaos, &chaos_verbs[0]);
	struct sbuf sb = SBUF_INIT;

	cr_assert_null(strstr(h, "--mutate"));
	cr_assert_null(strstr(c, "--mutate"));
	ap_synopsis(&chaos, &chaos_verbs[0], &sb);
	cr_assert_null(strstr(sbuf_cstr(&sb), "--mutate"));
	sbuf_release(&sb);
	free(h);
	free(c);
}

Test(argparse, help_default_verb_program)
{
	char *h = help_of(&chaos, NULL), *p = help_of(&promo, NULL);

	assert_lines_fit(h);
	assert_lines_fit(p);
	/* every form begins with the program name */
	cr_assert(starts(h, "usage: chaos-fidelity [-h] [--strict]"), "%s", h);
	cr_assert(strstr(h, "\n       chaos-fidelity lint [-h]"), "%s", h);
	cr_assert(strstr(h, "\n       chaos-fidelity coverage [-h]"), "%s", h);
	cr_assert(strstr(h, "\n       chaos-fidelity two-clocks [-h]"));
	cr_assert(strstr(h, "Without PATH the bundled catalog is checked."));
	cr_assert(strstr(h, "\ncommands:\n"));
	/* the default verb's options */
	cr_assert(strstr(h, "\noptions:\n  -h, --help"), "%s", h);
	cr_assert(strstr(h, "  -j, --jobs N"), "%s", h);
	/* promotion: no verb words, the digest form by its flag */
	cr_assert(starts(p, "usage: promotion-gate [-h] [--trust POLICY.json]"),
		  "%s", p);
	cr_assert(strstr(p, "\n       promotion-gate --print-digest [-h] "
			    "[--format text|json]"),
		  "%s", p);
	cr_assert_null(strstr(p, "promotion-gate gate"));
	cr_assert_null(strstr(p, "commands:"));
	free(h);
	free(p);
}

Test(argparse, help_before_verb_options)
{
	char *h = help_of(&res, NULL);
	const char *f;

	assert_lines_fit(h);
	cr_assert(strstr(h, "\noptions:\n  -h, --help"), "%s", h);
	f = strstr(h, "  --format text|json");
	cr_assert_not_null(f, "%s", h);
	/* listed once although every verb has it */
	cr_assert_null(strstr(f + 4, "--format"), "%s", h);
	free(h);
}

Test(argparse, help_is_deterministic)
{
	size_t i;

	for (i = 0; i < sizeof progs / sizeof progs[0]; i++) {
		char *a = help_of(progs[i], NULL), *b = help_of(progs[i], NULL);
		size_t v;

		cr_assert_str_eq(a, b);
		assert_lines_fit(a);
		free(a);
		free(b);
		for (v = 0; v < progs[i]->nverbs; v++) {
			a = help_of(progs[i], &progs[i]->verbs[v]);
			assert_lines_fit(a);
			free(a);
		}
	}
}

static const struct ap_verb bare_verb[] = {
	{ "lint", "check documents", NULL, lint_opts, 1,
	  { "PATH", 0, SIZE_MAX }, NULL, 0 },
};
static const struct ap_program bare = {
	"infragate", NULL, NULL, { AP_NO_ABBREV, 0, 0, 0, "lint" }, bare_verb, 1
};

Test(argparse, synopsis)
{
	struct sbuf sb = SBUF_INIT;

	ap_synopsis(&res, &res_verbs[1], &sb);
	cr_assert_str_eq(sbuf_cstr(&sb),
			 "usage: airan-resiliency policy [-h] "
			 "--policy P0|P1|P2|P3|P4 [--years YEARS] "
			 "[--seed SEED] [--format text|json]");
	sbuf_reset(&sb);
	ap_synopsis(&res, &res_verbs[4], &sb);
	cr_assert_str_eq(sbuf_cstr(&sb),
			 "usage: airan-resiliency lint [-h] [--strict] "
			 "[--jobs JOBS] "
			 "[--format text|json|sarif|github|junit] FILE...");
	sbuf_reset(&sb);
	ap_synopsis(&promo, &promo_verbs[1], &sb);
	cr_assert_str_eq(sbuf_cstr(&sb),
			 "usage: promotion-gate --print-digest [-h] "
			 "[--format text|json] [RECORD...]");
	sbuf_reset(&sb);
	ap_synopsis(&cool, NULL, &sb);
	cr_assert_str_eq(sbuf_cstr(&sb),
			 "usage: pue-ladder [-h] COMMAND [ARGS...]");
	sbuf_reset(&sb);
	ap_synopsis(&lint, NULL, &sb);
	cr_assert(starts(sbuf_cstr(&sb),
			 "usage: infragate lint [-h] [--strict]"));
	cr_assert_null(strchr(sbuf_cstr(&sb), '\n'));
	/* a program without verb words may be named without its verb */
	sbuf_reset(&sb);
	ap_synopsis(&bare, NULL, &sb);
	cr_assert_str_eq(sbuf_cstr(&sb),
			 "usage: infragate lint [-h] [--strict] [PATH...]");
	sbuf_reset(&sb);
	ap_help(&bare, NULL, &sb);
	cr_assert(starts(sbuf_cstr(&sb), "usage: infragate lint [-h]"));
	cr_assert(!sb.failed);
	sbuf_release(&sb);
}

Test(argparse, shorthand_takes_its_argv_place)
{
	static const char *const args[] = { "--set", "a=1", "--seed", "0_10", "--set",
					    "seed=5", "--name=x y", "--seed", "+3", NULL };
	static const char *const want[] = { "a=1", "seed=10", "seed=5", "name=x y",
					    "seed=3" };
	struct ap_result r;
	struct diag err;
	const struct ap_slot *s;
	size_t i;

	cr_assert_eq(parse(SHORTHAND, args, &r, &err), 0, "%s", err.msg);
	s = slot_of(&r, "--set");
	cr_assert_eq(s->nvalues, 5);
	for (i = 0; i < 5; i++)
		cr_assert_str_eq(s->values[i].text, want[i], "value %zu", i);
	/* Each copy names the shorthand it came from; direct values none. */
	cr_assert_null(s->values[0].via);
	cr_assert_str_eq(s->values[1].via, "--seed");
	cr_assert_null(s->values[2].via);
	cr_assert_str_eq(s->values[3].via, "--name");
	/* The shorthand keeps its own value too (the last one given). */
	s = slot_of(&r, "--seed");
	cr_assert(s->given && s->values[0].i == 3);
	ap_result_release(&r);
}

Test(argparse, shorthand_value_checked_first)
{
	static const char *const args[] = { "--seed", "-1", NULL };
	struct ap_result r;
	struct diag err;

	cr_assert_eq(parse(SHORTHAND, args, &r, &err), -1);
	cr_assert_str_eq(err.path, "--seed");
	ap_result_release(&r);
}

/* A float reaches the target as text YAML 1.1 types as that float. */
Test(argparse, shorthand_float_as_yaml_float)
{
	static const char *const args[] = { "--hours", "1e3", "--hours", "1e-5",
					    "--hours", " 2.50 ", "--hours", "1_5", NULL };
	static const char *const want[] = { "hours=1000.0", "hours=1.0e-05", "hours=2.5",
					    "hours=15.0" };
	struct ap_result r;
	struct diag err;
	const struct ap_slot *s;
	size_t i;

	cr_assert_eq(parse(SHORTHAND, args, &r, &err), 0, "%s", err.msg);
	s = slot_of(&r, "--set");
	cr_assert_eq(s->nvalues, 4);
	for (i = 0; i < 4; i++)
		cr_assert_str_eq(s->values[i].text, want[i], "value %zu", i);
	ap_result_release(&r);
}
