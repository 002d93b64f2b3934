/*
 * within.c: see within.h. realpath() does the link walking, so a chain of
 * links, a link to a folder and a link back inside all resolve the way the
 * kernel would open them.
 *
 * Every module and data file a pack reads passes here, and realpath() costs
 * a readlink() for each component of the whole path, the folder's own
 * included. So the folder's resolution is kept per thread, and a relative
 * part with no link, '.' or '..' in it is checked with one lstat() per
 * component of its own: it then resolves to the folder's real path plus
 * itself, inside by construction. Anything else takes realpath().
 */
#include "core/util/within.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The last folder this thread resolved, and what it resolved to. */
static _Thread_local char last_dir[PATH_MAX];
static _Thread_local char last_real[PATH_MAX];

static int resolve_root(const char *dir, char *root)
{
	if (last_dir[0] && strcmp(dir, last_dir) == 0) {
		memcpy(root, last_real, strlen(last_real) + 1);
		return 1;
	}
	if (!realpath(dir, root))
		return 0;
	if (strlen(dir) < sizeof last_dir) {
		memcpy(last_dir, dir, strlen(dir) + 1);
		memcpy(last_real, root, strlen(root) + 1);
	}
	return 1;
}

/* 1 when every component of rel below root is a plain name (no '.', '..'
 * or empty one) and none is a link, the last a regular file or folder that
 * exists; then out is root/rel. 0: let realpath() decide. */
static int plain_below(const char *root, const char *rel, char *out)
{
	size_t rl = strlen(root), i, start;
	struct stat st;

	if (!rel[0] || rel[0] == '/' || rl < 2 ||
	    snprintf(out, PATH_MAX, "%s/%s", root, rel) >= PATH_MAX)
		return 0;
	for (start = 0, i = 0;; i++) {
		if (rel[i] != '/' && rel[i] != '\0')
			continue;
		if (i == start || (i - start == 1 && rel[start] == '.') ||
		    (i - start == 2 && rel[start] == '.' && rel[start + 1] == '.'))
			return 0;
		out[rl + 1 + i] = '\0';
		if (lstat(out, &st) != 0 || S_ISLNK(st.st_mode))
			return 0;
		if (rel[i] == '\0')
			return 1;
		out[rl + 1 + i] = '/';
		start = i + 1;
	}
}

enum within path_within(const char *dir, const char *rel, char *out)
{
	char joined[PATH_MAX], root[PATH_MAX];
	size_t rl;

	if (!resolve_root(dir, root))
		return WITHIN_NO_ROOT;
	if (plain_below(root, rel, out))
		return WITHIN;
	if (snprintf(joined, sizeof joined, "%s/%s", dir, rel) >= (int)sizeof joined ||
	    !realpath(joined, out))
		return WITHIN_MISSING;
	rl = strlen(root);
	if (strncmp(out, root, rl) != 0 || (out[rl] != '/' && out[rl] != '\0'))
		return WITHIN_OUTSIDE;
	return WITHIN;
}
