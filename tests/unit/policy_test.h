/*
 * policy_test.h: what the two policy test files share: a temporary tree
 * per test (Criterion runs each test in its own process, so the working
 * directory can be changed freely), a finding builder and the loader
 * options that point at the repository's schemas. Functions are static
 * inline so that a file that uses only some of them compiles cleanly.
 */
#ifndef INFRAGATE_TESTS_POLICY_TEST_H
#define INFRAGATE_TESTS_POLICY_TEST_H

#include <criterion/criterion.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/engine/policy.h"

static char tmp_root[256];
static char repo_dir[256]; /* where the tests started: schemas/ is here */

static inline void rm_rf(const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *de;
	char sub[PATH_MAX];

	if (lstat(path, &st) != 0)
		return;
	if (S_ISDIR(st.st_mode) && (d = opendir(path))) {
		while ((de = readdir(d))) {
			if (!strcmp(de->d_name, ".") ||
			    !strcmp(de->d_name, ".."))
				continue;
			if (snprintf(sub, sizeof sub, "%s/%s", path,
				     de->d_name) < (int)sizeof sub)
				rm_rf(sub);
		}
		closedir(d);
		rmdir(path);
	} else {
		unlink(path);
	}
}

static inline void tree_setup(void)
{
	char tmpl[] = "/tmp/ig-policy-XXXXXX", real[PATH_MAX];

	cr_assert_not_null(getcwd(repo_dir, sizeof repo_dir));
	cr_assert_not_null(mkdtemp(tmpl));
	cr_assert_not_null(realpath(tmpl, real));
	cr_assert_lt(strlen(real), sizeof tmp_root);
	memcpy(tmp_root, real, strlen(real) + 1);
	cr_assert_eq(chdir(tmp_root), 0);
}

static inline void tree_teardown(void)
{
	if (chdir("/") == 0)
		rm_rf(tmp_root);
}

/* Create 'rel' below the tree root; a name ending in '/' is a folder. */
static inline void mk(const char *rel, const char *text)
{
	char p[PATH_MAX], q[PATH_MAX], *s;
	FILE *f;

	snprintf(p, sizeof p, "%s/%s", tmp_root, rel);
	for (s = p + strlen(tmp_root) + 1; (s = strchr(s, '/')); s++) {
		snprintf(q, sizeof q, "%.*s", (int)(s - p), p);
		mkdir(q, 0755);
	}
	if (p[strlen(p) - 1] == '/')
		return;
	f = fopen(p, "w");
	cr_assert_not_null(f, "cannot create %s", p);
	fputs(text ? text : "a: 1\n", f);
	fclose(f);
}

static inline void cd(const char *rel)
{
	char p[PATH_MAX];

	snprintf(p, sizeof p, "%s/%s", tmp_root, rel);
	cr_assert_eq(chdir(p), 0, "cannot enter %s", p);
}

static inline const char *cwd_now(void)
{
	static char buf[PATH_MAX];

	cr_assert_not_null(getcwd(buf, sizeof buf));
	return buf;
}

static inline void add(struct findings *fs, const char *rule, enum severity sev,
		       uint32_t line, int doc, const char *path)
{
	struct finding f;

	memset(&f, 0, sizeof f);
	f.rule = rule;
	f.severity = sev;
	f.message = "m";
	f.line = line;
	f.col = 1;
	f.document = doc;
	f.path = path;
	cr_assert_not_null(findings_add(fs, &f));
}

static inline struct policy_load loader(void)
{
	static char dir[PATH_MAX];
	struct policy_load ld;

	snprintf(dir, sizeof dir, "%s/schemas", repo_dir);
	ld.schemas_dir = dir;
	ld.file_bytes = 0;
	return ld;
}

#endif
