/*
 * test_policy.c: the configuration side of a lint run's policy
 * (core/engine/policy.h): config discovery in temporary trees with .git
 * markers, severity-override and strict-mode precedence as rows, dates,
 * rule-id patterns, and loading and validating .infragate.yaml through
 * the YAML loader and the schema checker, with every error positioned.
 * test_policy_inputs.c covers expansion, suppression, waivers and
 * baselines.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "tests/unit/policy_test.h"

/* ---- discovery ---------------------------------------------------------- */

TestSuite(discover, .init = tree_setup, .fini = tree_teardown);

static int discover(struct config *c, const struct config_source *src,
		    struct policy_errors *e)
{
	config_init(c, cwd_now());
	policy_errors_init(e);
	return config_discover(c, src, e);
}

Test(discover, walks_up_to_git)
{
	struct config_source src = {0};
	struct policy_errors e;
	struct config c;

	mk(".git/", NULL);
	mk(".infragate.yaml", "version: 1\n");
	mk("a/b/x.yaml", NULL);
	cd("a/b");
	cr_assert_eq(discover(&c, &src, &e), 1);
	cr_assert_str_eq(c.file, "../../.infragate.yaml");
	cr_assert_str_eq(c.dir, "../..");
	cr_assert_str_eq(c.root, tmp_root);
	cr_assert_str_eq(config_path(&c, "w.yaml"), "../../w.yaml");
	config_release(&c);
	policy_errors_release(&e);
}

Test(discover, stops_after_git_folder)
{
	struct config_source src = {0};
	struct policy_errors e;
	struct config c;

	mk(".infragate.yaml", "version: 1\n");
	mk("repo/.git", "gitdir: elsewhere\n"); /* a .git file counts too */
	mk("repo/sub/", NULL);
	cd("repo/sub");
	cr_assert_eq(discover(&c, &src, &e), 0);
	cr_assert_null(c.file);
	cr_assert_str_eq(c.root, cwd_now());
	config_release(&c);
	policy_errors_release(&e);
}

Test(discover, yml_and_both)
{
	struct config_source src = {0};
	struct policy_errors e;
	struct config c;

	mk(".git/", NULL);
	mk(".infragate.yml", "version: 1\n");
	cr_assert_eq(discover(&c, &src, &e), 1);
	cr_assert_str_eq(c.file, ".infragate.yml");
	cr_assert_str_eq(c.dir, "");
	cr_assert_str_eq(config_path(&c, "b.json"), "b.json");
	config_release(&c);
	policy_errors_release(&e);
	mk(".infragate.yaml", "version: 1\n");
	cr_assert_eq(discover(&c, &src, &e), -1);
	cr_assert_eq(e.n, 1);
	cr_assert_str_eq(e.items[0].file, ".infragate.yaml");
	cr_assert_eq(e.items[0].line, 0);
	config_release(&c);
	policy_errors_release(&e);
}

Test(discover, flag_env_and_no_config)
{
	struct config_source src = {0};
	struct policy_errors e;
	struct config c;

	mk(".git/", NULL);
	mk(".infragate.yaml", NULL);
	mk("conf/ci.yaml", NULL);
	src.no_config = 1;
	src.config = "conf/ci.yaml";
	cr_assert_eq(discover(&c, &src, &e), 0);
	config_release(&c);
	policy_errors_release(&e);
	src.no_config = 0;
	cr_assert_eq(discover(&c, &src, &e), 1);
	cr_assert_str_eq(c.file, "conf/ci.yaml");
	cr_assert_str_eq(c.dir, "conf");
	cr_assert(strstr(c.root, "/conf") != NULL);
	config_release(&c);
	policy_errors_release(&e);
	src.config = NULL;
	src.env = "";
	cr_assert_eq(discover(&c, &src, &e), 1);
	cr_assert_str_eq(c.file, ".infragate.yaml");
	config_release(&c);
	policy_errors_release(&e);
	src.env = "conf/ci.yaml";
	cr_assert_eq(discover(&c, &src, &e), 1);
	cr_assert_str_eq(c.file, "conf/ci.yaml");
	config_release(&c);
	policy_errors_release(&e);
}

/* ---- severity overrides ------------------------------------------------- */

/* A configuration built by hand: rules, then two overrides. */
static struct config_rule top_rules[] = {
    {"demo.name-length", SEV_ERROR, 0, {3, 3}},
    {"*.strict.*", SEV_INFO, 1, {4, 3}},
    {"demo.strict.*", SEV_WARNING, 1, {5, 3}},
    {"demo.*", SEV_INFO, 1, {6, 3}},
    {"demo.a*", SEV_ERROR, 1, {7, 3}},
    {"demo.strict.gone", SEV_NONE, 0, {8, 3}},
};
static const char *legacy_files[] = {"plans/legacy/**"};
static const char *legacy2_files[] = {"plans/legacy/old/"};
static struct config_rule legacy_rules[] = {
    {"demo.strict.*", SEV_NONE, 1, {10, 5}},
    {"demo.size-limit", SEV_WARNING, 0, {11, 5}},
};
static struct config_rule legacy2_rules[] = {
    {"demo.strict.*", SEV_ERROR, 1, {13, 5}},
};

static void hand_config(struct config *c)
{
	static struct config_override ov[2];

	config_init(c, "/r");
	c->rules.items = top_rules;
	c->rules.n = sizeof top_rules / sizeof top_rules[0];
	memset(ov, 0, sizeof ov);
	ov[0].files.items = legacy_files;
	ov[0].files.n = 1;
	ov[0].rules.items = legacy_rules;
	ov[0].rules.n = 2;
	ov[0].strict = 0;
	ov[1].files.items = legacy2_files;
	ov[1].files.n = 1;
	ov[1].rules.items = legacy2_rules;
	ov[1].rules.n = 1;
	ov[1].strict = -1;
	c->overrides = ov;
	c->noverrides = 2;
}

struct sev_case {
	char id[32], rel[32];
	int dflt, want; /* enum severity; SEV_NONE: off */
};

ParameterizedTestParameters(overrides, severity)
{
	static struct sev_case rows[] = {
	    /* exact id beats every glob */
	    {"demo.name-length", "a.yaml", SEV_WARNING, SEV_ERROR},
	    /* longest glob wins: demo.strict.* (13) over *.strict.* */
	    {"demo.strict.x", "a.yaml", SEV_ERROR, SEV_WARNING},
	    {"cool.strict.x", "a.yaml", SEV_ERROR, SEV_INFO},
	    /* equal length (demo.* and demo.a* are 6 and 7): longer */
	    {"demo.abc", "a.yaml", SEV_WARNING, SEV_ERROR},
	    {"demo.size-limit", "a.yaml", SEV_ERROR, SEV_INFO},
	    {"other.rule", "a.yaml", SEV_WARNING, SEV_WARNING},
	    {"demo.strict.gone", "a.yaml", SEV_WARNING, SEV_NONE},
	    /* an override beats the top level, even its exact ids */
	    {"demo.strict.x", "plans/legacy/a.yaml", SEV_ERROR, SEV_NONE},
	    {"demo.size-limit", "plans/legacy/a.yaml", SEV_ERROR, SEV_WARNING},
	    {"demo.name-length", "plans/legacy/a.yaml", SEV_WARNING, SEV_ERROR},
	    /* a later override beats an earlier one */
	    {"demo.strict.x", "plans/legacy/old/a.yaml", SEV_INFO, SEV_ERROR},
	    {"demo.size-limit", "plans/legacy/old/a.yaml", SEV_ERROR,
	     SEV_WARNING},
	    /* core ids are never overridden */
	    {"input.type", "a.yaml", SEV_ERROR, SEV_ERROR},
	    {"engine.suppression", "a.yaml", SEV_WARNING, SEV_WARNING},
	    /* no path (outside the root): top level only */
	    {"demo.strict.x", "", SEV_ERROR, SEV_WARNING},
	};

	return cr_make_param_array(struct sev_case, rows,
				   sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct sev_case *t, overrides, severity)
{
	struct config c;
	enum severity s;

	hand_config(&c);
	s = config_severity(&c, NULL, t->rel[0] ? t->rel : NULL, t->id,
			    (enum severity)t->dflt);
	cr_assert_eq(s, (enum severity)t->want, "id '%s' in '%s': %d", t->id,
		     t->rel, s);
	config_release(&c);
}

Test(overrides, equal_length_later_wins)
{
	static struct config_rule rules[] = {
	    {"a.*-x", SEV_ERROR, 1, {1, 1}},
	    {"a.b-*", SEV_INFO, 1, {2, 1}},
	};
	static struct config_rule cli_rules[] = {
	    {"a.b-x", SEV_WARNING, 0, {0, 0}},
	};
	struct config_rules cli = {cli_rules, 1};
	struct config c;

	config_init(&c, "/r");
	c.rules.items = rules;
	c.rules.n = 2;
	cr_assert_eq(config_severity(&c, NULL, "f", "a.b-x", SEV_ERROR),
		     SEV_INFO);
	rules[1].pattern = "a.b*x";
	cr_assert_eq(config_severity(&c, NULL, "f", "a.b-x", SEV_WARNING),
		     SEV_INFO);
	/* the command line beats everything */
	cr_assert_eq(config_severity(&c, &cli, "f", "a.b-x", SEV_ERROR),
		     SEV_WARNING);
	config_release(&c);
}

Test(overrides, strict)
{
	struct config c;

	hand_config(&c);
	cr_assert_eq(config_strict(&c, "a.yaml", -1, 1), 1);
	cr_assert_eq(config_strict(&c, "plans/legacy/a.yaml", -1, 1), 0);
	cr_assert_eq(config_strict(&c, "plans/legacy/a.yaml", 1, 1), 1);
	c.strict = 0;
	cr_assert_eq(config_strict(&c, "a.yaml", -1, 1), 0);
	cr_assert_eq(config_strict(&c, NULL, 1, 0), 1);
	config_release(&c);
}

Test(overrides, no_configuration)
{
	static struct config_rule cli_rules[] = {
	    {"demo.*", SEV_NONE, 1, {0, 0}},
	};
	struct config_rules cli = {cli_rules, 1};

	cr_assert_eq(config_strict(NULL, "a.yaml", -1, 1), 1);
	cr_assert_eq(config_strict(NULL, "a.yaml", 0, 1), 0);
	cr_assert_eq(config_severity(NULL, NULL, "a", "demo.x", SEV_INFO),
		     SEV_INFO);
	cr_assert_eq(config_severity(NULL, &cli, "a", "demo.x", SEV_INFO),
		     SEV_NONE);
}

Test(overrides, apply_drops_off)
{
	struct findings fs;
	struct config c;

	hand_config(&c);
	findings_init(&fs, 0);
	add(&fs, "demo.strict.x", SEV_WARNING, 1, 0, "/a");
	add(&fs, "demo.name-length", SEV_WARNING, 2, 0, "/b");
	add(&fs, "input.type", SEV_ERROR, 3, 0, "/c");
	add(&fs, "demo.strict.y", SEV_WARNING, 4, 0, "/d");
	cr_assert_eq(
	    policy_apply_severity(&c, NULL, "plans/legacy/a.yaml", &fs), 2);
	cr_assert_eq(fs.n, 2);
	cr_assert_str_eq(fs.items[0].rule, "demo.name-length");
	cr_assert_eq(fs.items[0].severity, SEV_ERROR);
	cr_assert_str_eq(fs.items[1].rule, "input.type");
	findings_release(&fs);
	config_release(&c);
}

/* ---- ids and dates ------------------------------------------------------ */

struct id_case {
	char pat[32], id[32];
	int match, valid_id, valid_prefix;
};

ParameterizedTestParameters(ids, rows)
{
	static struct id_case rows[] = {
	    {"demo.size-limit", "demo.size-limit", 1, 1, 1},
	    {"demo.*", "demo.size-limit", 1, 0, 1},
	    {"demo.*", "demo", 0, 0, 1},
	    {"demo.*", "demox.a", 0, 0, 1},
	    {"cooling.strict.*", "cooling.strict.x", 1, 0, 1},
	    {"cooling.strict.*", "cooling.rung", 0, 0, 1},
	    {"demo", "demo", 1, 0, 0},
	    {"Demo.x", "Demo.x", 1, 0, 0},
	    {"demo.a--b", "x", 0, 0, 0},
	    {"demo.a-", "x", 0, 0, 0},
	    {"demo..a", "x", 0, 0, 0},
	    {"demo.", "x", 0, 0, 0},
	    {"*", "demo.x", 0, 0, 0},
	    {"demo.x*", "demo.xy", 0, 0, 0},
	    {"a1.b-2.c3", "a1.b-2.c3", 1, 1, 1},
	};

	return cr_make_param_array(struct id_case, rows,
				   sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct id_case *t, ids, rows)
{
	cr_assert_eq(policy_id_match(t->pat, t->id), t->match, "%s ~ %s",
		     t->pat, t->id);
	cr_assert_eq(policy_id_valid(t->pat, strlen(t->pat), 0), t->valid_id,
		     "id %s", t->pat);
	cr_assert_eq(policy_id_valid(t->pat, strlen(t->pat), 1),
		     t->valid_prefix, "prefix %s", t->pat);
}

Test(ids, core_and_rule_globs)
{
	cr_assert(policy_id_core("input.type"));
	cr_assert(policy_id_core("engine.suppression"));
	cr_assert(policy_id_core("cli.usage"));
	cr_assert_not(policy_id_core("inputs.x"));
	cr_assert(policy_rule_glob_match("*.strict.*", "demo.strict.x"));
	cr_assert(policy_rule_glob_match("*", "a.b"));
	cr_assert_not(policy_rule_glob_match("*.strict.*", "demo.strict"));
	cr_assert(policy_rule_glob_match("d*o.*", "demo.x"));
}

struct date_case {
	char text[16];
	int ok;
	int32_t ymd;
};

ParameterizedTestParameters(dates, parse)
{
	static struct date_case rows[] = {
	    {"2026-06-30", 1, 20260630}, {"2024-02-29", 1, 20240229},
	    {"2000-02-29", 1, 20000229}, {"1900-02-29", 0, 0},
	    {"2026-02-29", 0, 0},	 {"2026-04-31", 0, 0},
	    {"2026-13-01", 0, 0},	 {"2026-00-10", 0, 0},
	    {"2026-1-01", 0, 0},	 {"2026-01-01x", 0, 0},
	    {"0000-01-01", 0, 0},	 {"9999-12-31", 1, 99991231},
	    {"2026/06/30", 0, 0},	 {" 2026-06-3", 0, 0},
	};

	return cr_make_param_array(struct date_case, rows,
				   sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct date_case *t, dates, parse)
{
	int32_t ymd = 0;
	char back[POLICY_DATE_LEN];

	cr_assert_eq(policy_date_parse(t->text, strlen(t->text), &ymd) == 0,
		     t->ok, "'%s'", t->text);
	if (t->ok) {
		cr_assert_eq(ymd, t->ymd);
		policy_date_text(ymd, back);
		cr_assert_str_eq(back, t->text);
	}
}

Test(dates, today)
{
	struct diag err;
	int32_t d = 0;

	diag_init(&err);
	cr_assert_eq(policy_today("2026-06-30", "2020-01-01", &d, &err), 0);
	cr_assert_eq(d, 20260630);
	cr_assert_eq(policy_today(NULL, "2020-01-01", &d, &err), 0);
	cr_assert_eq(d, 20200101);
	cr_assert_eq(policy_today("2026-02-30", NULL, &d, &err), -1);
	cr_assert_eq(err.code, DIAG_E_USAGE);
	cr_assert_str_eq(err.path, "--today");
	cr_assert_eq(policy_today(NULL, "tomorrow", &d, &err), -1);
	cr_assert_str_eq(err.path, "INFRAGATE_TODAY");
	cr_assert_eq(policy_today(NULL, "", &d, &err), 0);
	cr_assert_gt(d, 20240000);
}

/* ---- with the YAML loader and the schema checker ------------------------ */

TestSuite(config, .init = tree_setup, .fini = tree_teardown);

/* Write .infragate.yaml, discover and load it. Returns config_load()'s
 * result; 'c' and 'e' are left for the caller to check and release. */
static int load_text(struct config *c, struct policy_errors *e,
		     const char *text)
{
	struct config_source src = {0};
	struct policy_load ld = loader();

	mk(".git/", NULL);
	mk(".infragate.yaml", text);
	config_init(c, cwd_now());
	policy_errors_init(e);
	cr_assert_eq(config_discover(c, &src, e), 1);
	return config_load(c, &ld, e);
}

Test(config, spec_example_loads)
{
	static const char text[] =
	    "version: 1\n"
	    "paths: [plans, promotions]\n"
	    "exclude: [\"**/testdata/**\", \"vendor/**\"]\n"
	    "site_packs: [policy/acme]\n"
	    "routes:\n"
	    "  - {files: [\"plans/cooling/**\"], pack: cooling, kind: "
	    "cooling-plan}\n"
	    "rules:\n"
	    "  \"cooling.strict.ride-through-unstated\": error\n"
	    "  \"placement.strict.tier-abbrev\": \"off\"\n"
	    "overrides:\n"
	    "  - files: [\"plans/legacy/**\"]\n"
	    "    rules: {\"cooling.strict.*\": \"off\"}\n"
	    "    strict: false\n"
	    "waivers: .infragate-waivers.yaml\n"
	    "baseline: .infragate-baseline.json\n"
	    "limits: {file_bytes: 2097152}\n"
	    "fail_on: warning\n"
	    "unrouted: error\n"
	    "jobs: 4\n";
	struct policy_errors e;
	struct config c;

	cr_assert_eq(load_text(&c, &e, text), 0, "%s",
		     e.n ? e.items[0].message : "");
	cr_assert_eq(c.paths.n, 2);
	cr_assert_str_eq(c.paths.items[1], "promotions");
	cr_assert_eq(c.include.n, 2); /* the default */
	cr_assert_str_eq(c.exclude.items[0], "**/testdata/**");
	cr_assert_eq(c.nroutes, 1);
	cr_assert_str_eq(c.routes[0].pack, "cooling");
	cr_assert_str_eq(c.routes[0].kind, "cooling-plan");
	cr_assert_str_eq(c.routes[0].files.items[0], "plans/cooling/**");
	cr_assert_eq(c.rules.n, 2);
	cr_assert_eq(c.rules.items[0].sev, SEV_ERROR);
	cr_assert_eq(c.rules.items[0].pos.line, 8);
	cr_assert_eq(c.rules.items[1].sev, SEV_NONE);
	cr_assert_eq(c.noverrides, 1);
	cr_assert_eq(c.overrides[0].strict, 0);
	cr_assert(c.overrides[0].rules.items[0].glob);
	cr_assert_str_eq(c.waivers_path, ".infragate-waivers.yaml");
	cr_assert_str_eq(c.baseline, ".infragate-baseline.json");
	cr_assert_eq(config_limit(&c, "file_bytes"), 2097152);
	cr_assert_eq(config_limit(&c, "depth"), 512);
	cr_assert_eq(config_limit(&c, "nope"), -1);
	cr_assert_eq(c.fail_on, SEV_WARNING);
	cr_assert_eq(c.unrouted_error, 1);
	cr_assert_eq(c.jobs, 4);
	cr_assert_eq(config_severity(&c, NULL, "plans/legacy/a.yaml",
				     "cooling.strict.x", SEV_WARNING),
		     SEV_NONE);
	cr_assert_eq(config_strict(&c, "plans/legacy/a.yaml", -1, 1), 0);
	config_release(&c);
	policy_errors_release(&e);
}

struct bad_config_case {
	char text[96];
	char id[20];
	uint32_t line;
	char path[40];
};

ParameterizedTestParameters(config, errors_positioned)
{
	static struct bad_config_case rows[] = {
	    {"version: 1\nstrict: maybe\n", "input.type", 2, "/strict"},
	    {"rules:\n  demo.name-length: off\n", "input.type", 2,
	     "/rules/demo.name-length"},
	    {"version: 2\n", "input.type", 1, "/version"},
	    {"version: 1\ncolour: red\n", "input.type", 2, "/colour"},
	    {"limits: {fil_bytes: 3}\n", "input.type", 1, "/limits/fil_bytes"},
	    {"\n\nlimits:\n  depth: 0\n", "input.type", 4, "/limits/depth"},
	    {"rules: {input.type: warning}\n", "input.type", 1,
	     "/rules/input.type"},
	    {"rules: {Demo.X: warning}\n", "input.type", 1, "/rules/Demo.X"},
	    {"exclude: [\"/abs/**\"]\n", "input.type", 1, "/exclude/0"},
	    {"routes:\n  - {pack: demo}\n", "input.type", 2, "/routes/0/files"},
	    {"jobs: -1\n", "input.type", 1, "/jobs"},
	    {"fail_on: always\n", "input.type", 1, "/fail_on"},
	    {"waivers:\n  - rule: demo.x\n    files: a\n    owner: o\n"
	     "    reason: r\n    expires: \"2026-06-30\"\n",
	     "input.type", 6, "/waivers/0/expires"},
	    {"a: [\n", "input.yaml", 0, ""},
	    {"a: 1\na: 2\n", "input.duplicate-key", 2, ""},
	};

	return cr_make_param_array(struct bad_config_case, rows,
				   sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct bad_config_case *t, config, errors_positioned)
{
	struct policy_errors e;
	struct config c;
	size_t i;
	int found = 0;

	cr_assert_eq(load_text(&c, &e, t->text), -1, "'%s' loads", t->text);
	cr_assert_gt(e.n, 0);
	for (i = 0; i < e.n; i++) {
		cr_assert_str_eq(e.items[i].file, ".infragate.yaml");
		if (strcmp(e.items[i].id, t->id) == 0 &&
		    (!t->line || e.items[i].line == t->line) &&
		    (!t->path[0] ||
		     (e.items[i].path && !strcmp(e.items[i].path, t->path))))
			found = 1;
	}
	cr_assert(found, "'%s': first error %s at %u '%s': %s", t->text,
		  e.items[0].id, e.items[0].line,
		  e.items[0].path ? e.items[0].path : "", e.items[0].message);
	config_release(&c);
	policy_errors_release(&e);
}

Test(config, bare_off_hint)
{
	struct policy_errors e;
	struct config c;

	cr_assert_eq(load_text(&c, &e, "rules:\n  demo.name-length: off\n"),
		     -1);
	cr_assert_eq(e.n, 1);
	cr_assert_eq(e.items[0].line, 2);
	cr_assert(strstr(e.items[0].message, "write \"off\" in quotes"), "%s",
		  e.items[0].message);
	config_release(&c);
	policy_errors_release(&e);
	cr_assert_eq(load_text(&c, &e, "rules:\n  demo.name-length: \"off\"\n"),
		     0);
	cr_assert_eq(c.rules.items[0].sev, SEV_NONE);
	config_release(&c);
	policy_errors_release(&e);
}

Test(config, empty_file_and_inline_waivers)
{
	static const char text[] = "waivers:\n"
				   "  - rule: demo.size-limit\n"
				   "    files: [\"*.yaml\"]\n"
				   "    owner: alice\n"
				   "    reason: legacy\n"
				   "    expires: 2026-06-30\n";
	struct policy_errors e;
	struct config c;

	cr_assert_eq(load_text(&c, &e, ""), 0);
	cr_assert_eq(c.strict, -1);
	config_release(&c);
	policy_errors_release(&e);
	cr_assert_eq(load_text(&c, &e, text), 0, "%s",
		     e.n ? e.items[0].message : "");
	cr_assert(c.waivers.loaded);
	cr_assert_eq(c.waivers.n, 1);
	cr_assert_eq(c.waivers.items[0].expires, 20260630);
	cr_assert_str_eq(c.waivers.items[0].source, ".infragate.yaml:2");
	config_release(&c);
	policy_errors_release(&e);
}

Test(config, missing_given_file)
{
	struct config_source src = {0};
	struct policy_load ld = loader();
	struct policy_errors e;
	struct config c;

	src.config = "nope.yaml";
	config_init(&c, cwd_now());
	policy_errors_init(&e);
	cr_assert_eq(config_discover(&c, &src, &e), 1);
	cr_assert_eq(config_load(&c, &ld, &e), -1);
	cr_assert_str_eq(e.items[0].id, "input.unreadable");
	cr_assert_str_eq(e.items[0].file, "nope.yaml");
	config_release(&c);
	policy_errors_release(&e);
}

static int rule_known(void *ud, const char *id)
{
	(void)ud;
	return strcmp(id, "demo.name-length") == 0;
}

static int pack_known(void *ud, const char *name)
{
	(void)ud;
	return strcmp(name, "demo") == 0;
}

Test(config, names_against_packs)
{
	static const char text[] = "packs: [demo, nope]\n"
				   "rules:\n"
				   "  demo.name-length: error\n"
				   "  demo.typo: error\n"
				   "  cooling.x: \"off\"\n"
				   "  \"*.strict.*\": info\n"
				   "routes:\n"
				   "  - {files: [a/**], pack: ghost}\n";
	struct config_names k = {rule_known, pack_known, NULL, NULL};
	const char *const sel[] = {"demo"};
	struct policy_errors e;
	struct config c;

	cr_assert_eq(load_text(&c, &e, text), 0);
	/* nope (pack), ghost (route), demo.typo; cooling.x is not selected */
	cr_assert_eq(config_check_names(&c, &k, sel, 1, &e), -1);
	cr_assert_eq(e.n, 3);
	cr_assert_str_eq(e.items[0].path, "/packs/1");
	cr_assert_eq(e.items[0].line, 1);
	cr_assert_str_eq(e.items[1].path, "/routes/0/pack");
	cr_assert_str_eq(e.items[2].path, "/rules/demo.typo");
	cr_assert_eq(e.items[2].line, 4);
	config_release(&c);
	policy_errors_release(&e);
}
