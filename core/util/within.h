/*
 * within.h: resolve a path below a folder through every symlink and say
 * whether it stays there. Packs read their own data and modules by relative
 * names; a link inside a site pack must not lead the sandbox to a file the
 * pack's author could not have shipped.
 */
#ifndef INFRAGATE_UTIL_WITHIN_H
#define INFRAGATE_UTIL_WITHIN_H

enum within {
	WITHIN,          /* resolved, inside the folder */
	WITHIN_MISSING,  /* the path does not exist (or cannot be resolved) */
	WITHIN_OUTSIDE,  /* it resolves outside the folder */
	WITHIN_NO_ROOT   /* the folder itself cannot be resolved */
};

/* Resolve 'dir'/'rel' into 'out' (PATH_MAX bytes). 'rel' is joined as
 * given: the caller refuses absolute paths and '..' first when it must. */
enum within path_within(const char *dir, const char *rel, char *out);

#endif
