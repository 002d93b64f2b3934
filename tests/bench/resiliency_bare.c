/*
 * resiliency_bare.c: the bare C baseline of tests/bench/resiliency.sh: the
 * default policy ladder (or N years of it) through the resiliency model's
 * C API alone, without the engine, Lua or any output formatting, so that
 * airan-resiliency's overhead over the model shows in the same run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/models/resiliency.h"

int main(int argc, char **argv)
{
	long years = argc > 1 ? strtol(argv[1], NULL, 10) : 2000;
	struct rs_policy pol[RS_NRUNGS];
	struct rs_job jobs[RS_NRUNGS];
	struct rs_seed seed;
	struct diag err;
	int r;

	diag_init(&err);
	rs_seed_int(&seed, 7);
	memset(jobs, 0, sizeof jobs);
	for (r = 0; r < RS_NRUNGS; r++) {
		if (rs_policy_from_rung(&rs_rungs[r], rs_builtin_catalog, RS_NBUILTINS,
					&pol[r], &err) < 0)
			return 2;
		jobs[r].kind = RS_JOB_SIMULATE;
		jobs[r].policy = &pol[r];
		jobs[r].storm = &rs_default_storm;
		jobs[r].years = years;
		jobs[r].seed = &seed;
	}
	if (rs_batch(jobs, RS_NRUNGS, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return 2;
	}
	printf("%.17g\n", jobs[RS_NRUNGS - 1].result.cls[RS_R2].availability);
	return 0;
}
