/*
 * readfile.c: bounded whole-file reads. Errors name the file as the user
 * wrote it and say what the system said, in our words.
 */
#include "core/util/readfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *readfile_reason(int e)
{
	switch (e) {
	case ENOENT:
		return "no such file";
	case EACCES:
		return "permission denied";
	case EISDIR:
		return "it is a folder";
	case ENOTDIR:
		return "a part of the path is not a folder";
	case ELOOP:
		return "too many symbolic links";
	default:
		return strerror(e);
	}
}

static int readfile_too_big(struct diag *err, const char *display,
			    size_t max_bytes, long long seen)
{
	diag_limit(err, 0, 0, "file_bytes", (long long)max_bytes, seen,
		   "'%s' is larger than the file_bytes limit of %zu bytes",
		   display, max_bytes);
	return -1;
}

int readfile_fd(int fd, const char *display, size_t max_bytes, char **buf,
		size_t *len, struct diag *err)
{
	size_t alloc = 0, n = 0;
	char *p = NULL;
	struct stat st;
	int regular = 0;

	if (fstat(fd, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			diag_set(err, DIAG_E_UNREADABLE, 0, 0,
				 "cannot read '%s': it is a folder", display);
			return -1;
		}
		if (S_ISREG(st.st_mode) && (unsigned long long)st.st_size > max_bytes)
			return readfile_too_big(err, display, max_bytes,
						(long long)st.st_size);
		/* Room for one byte past the size: a read that comes back
		 * short of what it asked for has met the end of a regular
		 * file, so a file that did not grow is read in one call. */
		if (S_ISREG(st.st_mode)) {
			alloc = (size_t)st.st_size + 2;
			regular = 1;
		}
	}
	if (alloc < 4096)
		alloc = 4096;
	if (alloc > max_bytes + 2)
		alloc = max_bytes + 2;
	p = malloc(alloc);
	if (!p)
		goto nomem;
	for (;;) {
		ssize_t got;
		size_t asked;

		if (n + 1 >= alloc) {
			size_t want = alloc * 2;
			char *q;

			if (want > max_bytes + 2)
				want = max_bytes + 2;
			if (want <= alloc)
				want = alloc + 1;
			q = realloc(p, want);
			if (!q)
				goto nomem;
			p = q;
			alloc = want;
		}
		asked = alloc - 1 - n;
		got = read(fd, p + n, asked);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			diag_set(err, DIAG_E_UNREADABLE, 0, 0, "cannot read '%s': %s",
				 display, readfile_reason(errno));
			free(p);
			return -1;
		}
		if (got == 0)
			break;
		n += (size_t)got;
		if (n > max_bytes) {
			free(p);
			return readfile_too_big(err, display, max_bytes, -1);
		}
		if (regular && (size_t)got < asked)
			break;
	}
	p[n] = '\0';
	*buf = p;
	*len = n;
	return 0;
nomem:
	free(p);
	diag_set(err, DIAG_E_NOMEM, 0, 0, "out of memory reading '%s'", display);
	return -1;
}

int readfile(const char *path, const char *display, size_t max_bytes,
	     char **buf, size_t *len, struct diag *err)
{
	int fd, rc;

	if (strcmp(path, "-") == 0)
		return readfile_fd(0, display, max_bytes, buf, len, err);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		diag_set(err, DIAG_E_UNREADABLE, 0, 0, "cannot read '%s': %s",
			 display, readfile_reason(errno));
		return -1;
	}
	rc = readfile_fd(fd, display, max_bytes, buf, len, err);
	close(fd);
	return rc;
}
