/*
 * power_seeds.c: one fleet configuration over seeds 0..n-1 (spec/power.md
 * 5.5, 5.7, 9): the registry's year runs and the sweep run dozens of
 * independent seeds, so they go to threads (par.h). Each seed has its own
 * copy of the configuration, its own prices and its own result, so its
 * figures are exactly those of a run on its own.
 */
#include "core/models/power.h"

#include <stdlib.h>
#include <string.h>

#include "core/models/par.h"

struct seeds {
	const struct pw_fleet_config *c;
	const struct pw_causal_opts *causal; /* NULL: the offline fleet */
	unsigned variant;
	struct pw_fleet_result *fleet;
	struct pw_causal *online;
	struct diag *errs;                   /* one per seed */
	int *failed;
};

static void one_seed(void *ctx, size_t s)
{
	struct seeds *j = ctx;
	struct pw_fleet_config c = *j->c;
	double *p;

	c.seed = (uint64_t)s;
	diag_init(&j->errs[s]);
	if (!j->causal) {
		memset(&j->fleet[s], 0, sizeof j->fleet[s]);
		j->failed[s] = pw_fleet(&c, &j->fleet[s], &j->errs[s]) < 0;
		return;
	}
	p = malloc((size_t)c.horizon_h * sizeof *p);
	if (!p) {
		diag_set(&j->errs[s], DIAG_E_NOMEM, 0, 0, "out of memory for %ld hours",
			 c.horizon_h);
		j->failed[s] = 1;
		return;
	}
	pw_prices(&c, p, NULL, NULL);
	j->failed[s] = pw_causal(p, (size_t)c.horizon_h, j->causal, j->variant, NULL,
				 &j->online[s], &j->errs[s]) < 0;
	free(p);
}

static int run_seeds(struct seeds *j, size_t n, struct diag *err)
{
	size_t s;
	int rc = 0;

	j->errs = malloc((n ? n : 1) * sizeof *j->errs);
	j->failed = calloc(n ? n : 1, sizeof *j->failed);
	if (!j->errs || !j->failed) {
		free(j->errs);
		free(j->failed);
		diag_set(err, DIAG_E_NOMEM, 0, 0, "out of memory for %zu seeds", n);
		return -1;
	}
	par_for(n, one_seed, j);
	for (s = 0; s < n && rc == 0; s++)
		if (j->failed[s]) {
			*err = j->errs[s];
			rc = -1;
		}
	free(j->errs);
	free(j->failed);
	return rc;
}

int pw_fleet_seeds(const struct pw_fleet_config *c, size_t n,
		   struct pw_fleet_result *out, struct diag *err)
{
	struct seeds j = { c, NULL, 0, out, NULL, NULL, NULL };

	return run_seeds(&j, n, err);
}

int pw_causal_seeds(const struct pw_fleet_config *c, const struct pw_causal_opts *o,
		    unsigned variant, size_t n, struct pw_causal *out, struct diag *err)
{
	struct seeds j = { c, o, variant, NULL, out, NULL, NULL };

	return run_seeds(&j, n, err);
}
