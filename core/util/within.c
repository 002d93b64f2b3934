/*
 * within.c: see within.h. realpath() does the link walking, so a chain of
 * links, a link to a folder and a link back inside all resolve the way the
 * kernel would open them.
 */
#include "core/util/within.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum within path_within(const char *dir, const char *rel, char *out)
{
	char joined[PATH_MAX], root[PATH_MAX];
	size_t rl;

	if (!realpath(dir, root))
		return WITHIN_NO_ROOT;
	if (snprintf(joined, sizeof joined, "%s/%s", dir, rel) >= (int)sizeof joined ||
	    !realpath(joined, out))
		return WITHIN_MISSING;
	rl = strlen(root);
	if (strncmp(out, root, rl) != 0 || (out[rl] != '/' && out[rl] != '\0'))
		return WITHIN_OUTSIDE;
	return WITHIN;
}
