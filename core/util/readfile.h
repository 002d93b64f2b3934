/*
 * readfile.h: read a whole file (or standard input) into memory under a byte
 * limit, checked before reading where stat() knows the size and again while
 * reading, so a 9 GiB file or an endless pipe costs at most the limit.
 */
#ifndef INFRAGATE_UTIL_READFILE_H
#define INFRAGATE_UTIL_READFILE_H

#include <stddef.h>

#include "core/util/diag.h"

/* Read 'path' ("-" is standard input) into a malloc'd buffer with a NUL after
 * the last byte. Returns 0 with *buf and *len set (the caller frees *buf), or
 * -1 with 'err' set: DIAG_E_UNREADABLE (missing, permissions, a folder) or
 * DIAG_E_LIMIT (limit "file_bytes"). 'display' names the file in messages. */
int readfile(const char *path, const char *display, size_t max_bytes,
	     char **buf, size_t *len, struct diag *err);

/* The same for an open descriptor (not closed here). */
int readfile_fd(int fd, const char *display, size_t max_bytes, char **buf,
		size_t *len, struct diag *err);

#endif
