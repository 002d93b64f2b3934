/*
 * replay.c: feed every file of the folders given as arguments to the fuzz
 * target, so that the corpus (and the hostile fixtures) run in every
 * `make check` without clang or libFuzzer. A crash ends the process (and
 * the sanitizers say where); reaching the end means none happened.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/util/diag.h"
#include "core/util/readfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Replay the regular files of 'dir' in name order; returns the count. */
static long replay_dir(const char *dir)
{
	DIR *dp = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, alloc = 0, i;
	long count = 0;

	if (!dp) {
		fprintf(stderr, "replay: cannot open '%s'\n", dir);
		return -1;
	}
	while ((e = readdir(dp)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if (n == alloc) {
			char **v;

			alloc = alloc ? alloc * 2 : 64;
			v = realloc(names, alloc * sizeof *v);
			if (!v)
				break;
			names = v;
		}
		names[n] = strdup(e->d_name);
		if (names[n])
			n++;
	}
	closedir(dp);
	if (n)
		qsort(names, n, sizeof *names, by_name);
	for (i = 0; i < n; i++) {
		char path[4096];
		struct stat st;
		struct diag err;
		char *buf;
		size_t len;

		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		free(names[i]);
		if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		diag_init(&err);
		if (readfile(path, path, (size_t)64 << 20, &buf, &len, &err) <
		    0) {
			fprintf(stderr, "replay: cannot read '%s': %s\n", path,
				err.msg);
			continue;
		}
		LLVMFuzzerTestOneInput((const uint8_t *)buf, len);
		free(buf);
		count++;
	}
	free(names);
	return count;
}

int main(int argc, char **argv)
{
	long total = 0;
	int i, status = 0;

	for (i = 1; i < argc; i++) {
		long n = replay_dir(argv[i]);

		if (n < 0)
			status = 1;
		else
			total += n;
	}
	printf("replay: %ld files, 0 crashes\n", total);
	return status;
}
