/*
 * timeit.c: the benchmarks' stopwatch. Runs a command RUNS times as a
 * child process (fork, exec, wait; its output to /dev/null) and prints the
 * median wall time in microseconds.
 *
 * Timing from the shell with `date +%s%N` around the command charges two
 * extra process starts of `date` to every run, about as much as a bare C
 * process costs; that constant shrinks every ratio towards 1. Timing here,
 * around fork and wait only, charges each command its own start-up and
 * nothing else, the same for the baseline and for infragate.
 *
 * With a second command after ":::", the two run alternately, RUNS times
 * each, and both medians are printed ("A B"). This machine's speed drifts
 * by tens of percent over a minute; timing the baseline once and the
 * command later folds that drift into the ratio, while alternating runs
 * give both commands the same machine.
 *
 *   timeit RUNS COMMAND [ARG...] [::: BASELINE [ARG...]]
 */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* One run; its wall time in nanoseconds, or -1 when the child cannot start. */
static long long run_once(char **argv)
{
	long long start = now_ns();
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0) {
			dup2(null, 1);
			dup2(null, 2);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	return now_ns() - start;
}

static int by_value(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/* Sorts t (n entries) and returns its median in microseconds. */
static long long median_us(long long *t, long n)
{
	qsort(t, (size_t)n, sizeof *t, by_value);
	return t[(n - 1) / 2] / 1000;
}

int main(int argc, char **argv)
{
	char **cmd[2] = { NULL, NULL };
	long long *t[2] = { NULL, NULL };
	long runs, i;
	int n = 1, k, j;

	if (argc < 3 || (runs = strtol(argv[1], NULL, 10)) < 1 || runs > 100000) {
		fprintf(stderr, "usage: timeit RUNS COMMAND [ARG...] [::: BASELINE [ARG...]]\n");
		return 2;
	}
	cmd[0] = argv + 2;
	for (j = 2; j < argc; j++) {
		if (strcmp(argv[j], ":::") == 0) {
			argv[j] = NULL; /* ends the first command's argv */
			cmd[1] = argv + j + 1;
			n = 2;
			break;
		}
	}
	if (!cmd[0][0] || (n == 2 && !cmd[1][0])) {
		fprintf(stderr, "timeit: empty command\n");
		return 2;
	}
	for (k = 0; k < n; k++) {
		t[k] = malloc((size_t)runs * sizeof *t[k]);
		if (!t[k]) {
			free(t[0]);
			return 1;
		}
	}
	for (i = 0; i < runs; i++) {
		for (k = 0; k < n; k++) {
			t[k][i] = run_once(cmd[k]);
			if (t[k][i] < 0) {
				perror("timeit");
				free(t[0]);
				free(t[1]);
				return 1;
			}
		}
	}
	if (n == 2)
		printf("%lld %lld\n", median_us(t[0], runs), median_us(t[1], runs));
	else
		printf("%lld\n", median_us(t[0], runs));
	free(t[0]);
	free(t[1]);
	return 0;
}
