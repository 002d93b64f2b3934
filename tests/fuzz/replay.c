/*
 * replay.c: feed every file of the folders given on the command line to
 * the fuzz target, so the corpus (and the hostile fixtures) run in every
 * `make check` without libFuzzer. A crash is the test failing.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/util/readfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_dir(const char *dir, size_t *files)
{
	struct dirent *d;
	DIR *dp = opendir(dir);

	if (!dp) {
		fprintf(stderr, "replay: cannot open '%s'\n", dir);
		return -1;
	}
	while ((d = readdir(dp))) {
		char path[4096];
		struct diag err;
		struct stat st;
		char *buf;
		size_t len;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, d->d_name);
		if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		diag_init(&err);
		if (readfile(path, path, (size_t)64 << 20, &buf, &len, &err) < 0)
			continue;
		LLVMFuzzerTestOneInput((const uint8_t *)buf, len);
		free(buf);
		(*files)++;
	}
	closedir(dp);
	return 0;
}

int main(int argc, char **argv)
{
	size_t files = 0;
	int i, rc = 0;

	for (i = 1; i < argc; i++)
		if (replay_dir(argv[i], &files) < 0)
			rc = 1;
	printf("replay: %zu passed, 0 failed\n", files);
	return rc;
}
