/*
 * test_glob.c: the globs of spec/core.md 3.4 as rows (glob, path, expected),
 * hostile globs that must stay fast, the entry-naming rule of the folder
 * walk, and relative paths.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <string.h>

#include "core/engine/policy.h"

/* Rows hold their strings inline: Criterion runs each parameterized test
 * in a new process, where pointers into the parent's data are invalid. */
struct glob_case {
	char glob[32], path[32];
	int want;
};

ParameterizedTestParameters(glob, match)
{
	static struct glob_case rows[] = {
	    /* '*' within a segment, never across '/' */
	    {"*.yaml", "a.yaml", 1},
	    {"*.yaml", "a.yml", 0},
	    {"plans/*.yaml", "plans/a.yaml", 1},
	    {"plans/*.yaml", "plans/x/a.yaml", 0},
	    {"plans/*", "plans/a", 1},
	    {"plans/*", "plans", 0},
	    {"p*s/a", "plans/a", 1},
	    {"p*s/a", "p/s/a", 0},
	    {"*", "anything", 1},
	    {"a*", "a", 1},
	    {"*a", "bab", 0},
	    {"*a", "ba", 1},
	    /* '?' one character, not '/', a code point */
	    {"?.yaml", "a.yaml", 1},
	    {"?.yaml", "ab.yaml", 0},
	    {"a?b/c", "a/b/c", 0},
	    {"?.yaml", "\xc3\xa9.yaml", 1},
	    {"\xc3\xa9?", "\xc3\xa9x", 1},
	    {"\xc3\xa9", "\xc3\xa8", 0},
	    /* classes */
	    {"[abc].yaml", "b.yaml", 1},
	    {"[abc].yaml", "d.yaml", 0},
	    {"[a-c].yaml", "c.yaml", 1},
	    {"[a-c].yaml", "C.yaml", 0},
	    {"[!a-c].yaml", "d.yaml", 1},
	    {"[!a-c].yaml", "a.yaml", 0},
	    {"[]x].yaml", "].yaml", 1},
	    {"[!]].yaml", "].yaml", 0},
	    {"x[-]y", "x-y", 1},
	    {"[a-].yaml", "-.yaml", 1},
	    {"[\xc3\xa0-\xc3\xbf]", "\xc3\xa9", 1},
	    {"[ab", "[ab", 1},
	    {"[ab", "a", 0},
	    {"d/[a-z]/x", "d/q/x", 1},
	    /* "**" zero or more whole folders */
	    {"**/x.yaml", "x.yaml", 1},
	    {"**/x.yaml", "a/b/x.yaml", 1},
	    {"a/**/x.yaml", "a/x.yaml", 1},
	    {"a/**/x.yaml", "a/b/c/x.yaml", 1},
	    {"a/**/x.yaml", "b/a/x.yaml", 0},
	    {"**/testdata/**", "testdata/a.yaml", 1},
	    {"**/testdata/**", "x/testdata/y/a.yaml", 1},
	    {"**/testdata/**", "x/testdata", 0},
	    {"**/testdata/**", "x/mytestdata/a", 0},
	    {"a/**b/c", "a/xb/c", 1},
	    {"a/**b/c", "a/x/b/c", 0},
	    /* a final "**": everything below, not the folder itself */
	    {"vendor/**", "vendor/a.yaml", 1},
	    {"vendor/**", "vendor/x/y/a.yaml", 1},
	    {"vendor/**", "vendor", 0},
	    {"vendor/**", "x/vendor/a.yaml", 0},
	    {"bad/**", "bad/over-limit.yaml", 1},
	    /* no '/': the file name at any depth */
	    {"x.yaml", "x.yaml", 1},
	    {"x.yaml", "a/b/x.yaml", 1},
	    {"x.yaml", "a/x.yaml/b", 0},
	    {".gitlab-ci.yml", "ci/.gitlab-ci.yml", 1},
	    {"*.yml", "a/b.yml", 1},
	    /* with a '/': anchored at the root */
	    {"a/x.yaml", "b/a/x.yaml", 0},
	    {"a/x.yaml", "a/x.yaml", 1},
	    /* ending in '/': the folder and everything below (anchored) */
	    {"vendor/", "vendor", 1},
	    {"vendor/", "vendor/a.yaml", 1},
	    {"vendor/", "vendor/a/b.yaml", 1},
	    {"vendor/", "vendors/a.yaml", 0},
	    {"vendor/", "x/vendor/a.yaml", 0},
	    {"plans/legacy/", "plans/legacy/x.yaml", 1},
	    {"**/", "a/b", 1},
	    /* case-sensitive, exact */
	    {"*.YAML", "a.yaml", 0},
	    {"Plans/**", "plans/a", 0},
	    /* empty and odd input */
	    {"", "a", 0},
	    {"*", "", 0},
	    {"/a", "a", 0},
	    {"a//b", "a/b", 0},
	    {"**", "a/b/c", 1},
	    {"**/**/**", "a", 1},
	    {"a/*/c/", "a/b/c/d", 1},
	};

	return cr_make_param_array(struct glob_case, rows,
				   sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct glob_case *c, glob, match)
{
	cr_assert_eq(glob_match(c->glob, c->path), c->want,
		     "glob '%s' path '%s': expected %d", c->glob, c->path,
		     c->want);
}

/* A path and a glob of 'n' repetitions, built in static buffers. */
static char *repeat(char *buf, size_t size, const char *unit, size_t n,
		    const char *tail)
{
	size_t i, ul = strlen(unit), len = 0;

	for (i = 0; i < n && len + ul < size; i++, len += ul)
		memcpy(buf + len, unit, ul);
	memcpy(buf + len, tail, strlen(tail) + 1);
	return buf;
}

/* These would take hours with a backtracking matcher; they must finish at
 * once (the suite has no timer; a regression shows as a hung test). */
Test(glob, hostile_stars)
{
	static char path[8192], g[256];

	repeat(path, sizeof path, "a", 5000, "");
	cr_assert_eq(glob_match("*a*a*a*a*a*a*a*a*a*a*a*b", path), 0);
	cr_assert_eq(glob_match("*a*a*a*a*a*a*a*a*a*a*a*a", path), 1);
	repeat(g, sizeof g, "*a", 60, "*b");
	cr_assert_eq(glob_match(g, path), 0);
	repeat(g, sizeof g, "?*", 60, "b");
	cr_assert_eq(glob_match(g, path), 0);
}

Test(glob, hostile_globstars)
{
	static char path[8192], g[512];

	repeat(path, sizeof path, "a/", 2000, "a");
	repeat(g, sizeof g, "**/a/", 40, "b");
	cr_assert_eq(glob_match(g, path), 0);
	repeat(g, sizeof g, "**/*a*/", 40, "a");
	cr_assert_eq(glob_match(g, path), 1);
	repeat(g, sizeof g, "**/", 60, "*b*");
	cr_assert_eq(glob_match(g, path), 0);
}

Test(glob, match_any)
{
	const char *const gl[] = {"*.yml", "plans/**"};

	cr_assert(glob_match_any(gl, 2, "plans/a.json"));
	cr_assert(glob_match_any(gl, 2, "x/a.yml"));
	cr_assert_not(glob_match_any(gl, 2, "x/a.yaml"));
	cr_assert_not(glob_match_any(gl, 2, NULL));
}

struct names_case {
	char glob[32], name[24];
	int is_dir, want;
};

ParameterizedTestParameters(glob, names_entry)
{
	static struct names_case rows[] = {
	    {".gitlab-ci.yml", ".gitlab-ci.yml", 0, 1},
	    {".gitlab-ci.yml", ".gitlab-ci.yml", 1, 0},
	    {"*.yml", ".hidden.yml", 0, 0},
	    {".*.yml", ".hidden.yml", 0, 1},
	    {".github/workflows/*.yml", ".github", 1, 1},
	    {".github/workflows/*.yml", ".github", 0, 0},
	    {"**/node_modules/**", "node_modules", 1, 1},
	    {"**/*.yaml", "node_modules", 1, 0},
	    {"x/", "x", 1, 1},
	};

	return cr_make_param_array(struct names_case, rows,
				   sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct names_case *c, glob, names_entry)
{
	cr_assert_eq(glob_names_entry(c->glob, c->name, c->is_dir), c->want,
		     "glob '%s' name '%s'", c->glob, c->name);
}

Test(glob, problems)
{
	cr_assert_not_null(glob_problem(""));
	cr_assert_not_null(glob_problem("/abs/**"));
	cr_assert_not_null(glob_problem("a/[bc"));
	cr_assert_null(glob_problem("a/[bc]/**"));
	cr_assert_null(glob_problem("*.yaml"));
}

struct rel_case {
	char base[16], cwd[16], path[24];
	int up, rc;
	char want[24]; /* "" with rc 0: not checked */
};

ParameterizedTestParameters(glob, relpath)
{
	static struct rel_case rows[] = {
	    {"/r", "/r", "a.yaml", 0, 1, "a.yaml"},
	    {"/r", "/r", "./a.yaml", 0, 1, "a.yaml"},
	    {"/r", "/r/sub", "../a.yaml", 0, 1, "a.yaml"},
	    {"/r", "/r/sub", "x/./y//z.yaml", 0, 1, "sub/x/y/z.yaml"},
	    {"/r", "/r", ".", 0, 1, ""},
	    {"/r", "/r", "plans/", 0, 1, "plans"},
	    {"/r", "/r", "../x.yaml", 0, 0, ""},
	    {"/r", "/r", "/elsewhere/x.yaml", 0, 0, ""},
	    {"/r", "/r", "/r/x.yaml", 0, 1, "x.yaml"},
	    {"/r", "/rx", "a.yaml", 0, 0, ""},
	    {"/", "/r", "a.yaml", 0, 1, "r/a.yaml"},
	    {"/r/b", "/r", "p/a.yaml", 1, 1, "../p/a.yaml"},
	    {"/r/b/c", "/r", "a.yaml", 1, 1, "../../a.yaml"},
	    {"/r/b", "/r", ".", 1, 1, ".."},
	    {"/r/", "/r", "a", 0, 1, "a"},
	    {"/r", "/", "../../r/a", 0, 1, "a"},
	};

	return cr_make_param_array(struct rel_case, rows,
				   sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct rel_case *c, glob, relpath)
{
	struct sbuf sb = SBUF_INIT;
	int rc = policy_relpath(&sb, c->base, c->cwd, c->path, c->up);

	cr_assert_eq(rc, c->rc, "base '%s' path '%s'", c->base, c->path);
	if (c->rc == 1)
		cr_assert_str_eq(sbuf_cstr(&sb), c->want);
	sbuf_release(&sb);
}
