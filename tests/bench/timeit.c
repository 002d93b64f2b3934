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
 *   timeit RUNS COMMAND [ARG...]
 */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
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

int main(int argc, char **argv)
{
	long long *t;
	long runs, i;

	if (argc < 3 || (runs = strtol(argv[1], NULL, 10)) < 1 || runs > 100000) {
		fprintf(stderr, "usage: timeit RUNS COMMAND [ARG...]\n");
		return 2;
	}
	t = malloc((size_t)runs * sizeof *t);
	if (!t)
		return 1;
	for (i = 0; i < runs; i++) {
		t[i] = run_once(argv + 2);
		if (t[i] < 0) {
			perror("timeit");
			free(t);
			return 1;
		}
	}
	qsort(t, (size_t)runs, sizeof *t, by_value);
	printf("%lld\n", t[(runs - 1) / 2] / 1000);
	free(t);
	return 0;
}
