/*
 * test_model_reliability.c: the reliability model against the figures of
 * spec/reliability.md: the latent fault timeline of 5.2 against
 * tests/unit/vectors/reliability-events-default-seed0.tsv (copied from
 * spec/vectors) and the seed-7 fixture of 6.7, the policies of 5.4-5.6
 * against the conformance figures, the exact seed means of 7.2 and 8.1, the
 * checkpoint optimum of 4.5, legal-shape loss, rounding and exact means.
 * Exact double equality is on purpose: these figures must match the
 * reference simulator bit for bit.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/models/reliability.h"

#define EVENTS_VECTORS "tests/unit/vectors/reliability-events-default-seed0.tsv"

/* The defaults of 3.1. */
static struct rel_config defaults(void)
{
	struct rel_config c = {
		.nodes = 2048, .horizon_h = 720.0, .seed = 0, .dollars_per_gpu_h = 2.5,
		.single_rate_per_node_h = 1.58e-4, .burst_rate_per_h = 0.0, .burst_blast = 1,
		.detect_h = 0.033, .reload_h = 0.25, .repair_h = 4.0, .requal_h = 1.0,
		.operator_h = 1.0, .reshard_h = 0.5, .ckpt_interval_h = 0.5,
		.ckpt_write_h = 0.02, .ckpt_overlap_interval_h = 0.1,
		.ckpt_overlap_write_h = 0.003, .spare_nodes = 0, .legal_shape_nodes = 8,
	};
	return c;
}

static struct rel_result run(const struct rel_config *c, enum rel_policy p)
{
	struct rel_timeline tl;
	struct rel_result r;
	struct diag err;

	diag_init(&err);
	cr_assert_eq(rel_timeline_build(c, &tl, &err), 0, "%s", err.msg);
	cr_assert_eq(rel_simulate(c, p, &tl, 0, &r, &err), 0, "%s", err.msg);
	rel_timeline_free(&tl);
	return r;
}

/* ---- 5.2 timeline ----------------------------------------------------- */

Test(reliability, default_timeline_matches_vector_file)
{
	struct rel_config c = defaults();
	struct rel_timeline tl;
	struct diag err;
	char line[256];
	size_t rows = 0;
	FILE *f = fopen(EVENTS_VECTORS, "r");

	cr_assert_not_null(f, "run from the repository root");
	diag_init(&err);
	cr_assert_eq(rel_timeline_build(&c, &tl, &err), 0);
	cr_assert_eq(tl.count, 209);
	/* 6.7: the first event is the first exponential draw over the rate. */
	cr_assert(tl.ev[0].t == 0.6799319039689096 * (1 / 0.323584));
	while (fgets(line, sizeof line, f)) {
		size_t i;
		double t;
		long n;

		if (sscanf(line, "%zu\t%lf\t%ld", &i, &t, &n) != 3)
			continue;
		cr_assert_lt(i, tl.count);
		cr_assert(tl.ev[i].t == t, "event %zu: %.17g want %.17g", i, tl.ev[i].t, t);
		cr_assert_eq(tl.ev[i].n, n);
		rows++;
	}
	fclose(f);
	cr_assert_eq(rows, 209);
	rel_timeline_free(&tl);
}

Test(reliability, seed7_llama3_exposure)
{
	struct rel_config c = defaults();
	struct rel_timeline tl;
	struct diag err;

	c.seed = 7;
	c.horizon_h = 1296;
	diag_init(&err);
	cr_assert_eq(rel_timeline_build(&c, &tl, &err), 0);
	cr_assert_eq(tl.count, 405);
	cr_assert(tl.ev[0].t == 2.1865396799344885);
	cr_assert(tl.ev[1].t == 5.3548154546789295);
	cr_assert(tl.ev[404].t == 1292.2334281493559);
	rel_timeline_free(&tl);
}

Test(reliability, bursts_take_the_budget_and_clamp)
{
	struct rel_config c = defaults();

	/* 5.2: bursts consume the node-failure budget. */
	c.burst_rate_per_h = 0.01;
	c.burst_blast = 16;
	cr_assert(rel_single_rate(&c) == 1.58e-4 * 2048 - 0.01 * 16);
	/* 7.3's example: 0.03 x 16 = 0.48 over 0.3236: clamped to 0. */
	c.burst_rate_per_h = 0.03;
	cr_assert(rel_single_rate(&c) == 0.0);
}

Test(reliability, no_faults_gives_the_write_fraction)
{
	struct rel_config c = defaults();
	struct rel_result r;

	/* 5.6: with no faults ETTR is write_frac and mttf_h is H. */
	c.single_rate_per_node_h = 0;
	r = run(&c, REL_ELASTIC);
	cr_assert(r.ettr == 0.97);
	cr_assert(r.mttf_h == 720.0);
	cr_assert_eq(r.interruptions, 0);
	r = run(&c, REL_MANUAL);
	cr_assert(r.ettr == 0.96);
	cr_assert(r.availability == 1.0);
}

/* ---- 5.4 - 5.6 policies (conformance figures) ------------------------- */

struct policy_case {
	int policy;
	double ettr, availability, mttf_h, mttr_h;
	long interruptions;
	double reserved, productive, waste, dollars;
};

ParameterizedTestParameters(reliability, all_policies_k8_seed3)
{
	/* tests/cli/cases/reliability/simulate-all-policies-k8-seed3.yaml */
	static struct policy_case rows[] = {
		{ REL_MANUAL, 0.167, 0.1917, 2.82, 11.88, 49, 0.0, 1970032.0, 9826448.0,
		  24566120.0 },
		{ REL_AUTO_RESTART, 0.2311, 0.2633, 3.01, 8.42, 63, 0.0, 2726071.3, 9070408.7,
		  22676022.0 },
		{ REL_AUTO_SPARES, 0.8146, 0.9213, 3.46, 0.29, 192, 46080.0, 9647421.9,
		  2195138.1, 5487845.0 },
		{ REL_AUTO_SPARES_CKPT, 0.8769, 0.9213, 3.46, 0.29, 192, 46080.0, 10385253.4,
		  1457306.6, 3643266.0 },
		{ REL_ELASTIC, 0.8165, 0.8576, 3.01, 0.5, 205, 0.0, 9631296.2, 2165183.8,
		  5412960.0 },
	};
	return cr_make_param_array(struct policy_case, rows, sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct policy_case *w, reliability, all_policies_k8_seed3)
{
	struct rel_config c = defaults();
	struct rel_result r;

	c.seed = 3;
	c.spare_nodes = 8;
	r = run(&c, (enum rel_policy)w->policy);
	cr_assert(r.ettr == w->ettr, "%s ettr %.17g", rel_policy_names[w->policy], r.ettr);
	cr_assert(r.availability == w->availability);
	cr_assert(r.mttf_h == w->mttf_h);
	cr_assert(r.mttr_h == w->mttr_h);
	cr_assert_eq(r.interruptions, w->interruptions);
	cr_assert(r.reserved_spare_gpu_h == w->reserved);
	cr_assert(r.productive_gpu_h == w->productive);
	cr_assert(r.waste_gpu_h == w->waste);
	cr_assert(r.waste_dollars == w->dollars);
}

Test(reliability, spares_ckpt_k16_seed0)
{
	struct rel_config c = defaults();
	struct rel_result r;

	/* tests/cli/cases/reliability/simulate-auto-spares-ckpt-k16.yaml */
	c.spare_nodes = 16;
	r = run(&c, REL_AUTO_SPARES_CKPT);
	cr_assert(r.ettr == 0.8736);
	cr_assert(r.availability == 0.9215);
	cr_assert_eq(r.interruptions, 193);
	cr_assert(r.reserved_spare_gpu_h == 92160.0);
	cr_assert(r.productive_gpu_h == 10386200.5);
	cr_assert(r.waste_gpu_h == 1502439.5);
	cr_assert(r.waste_dollars == 3756099.0);
}

/* ---- 5.9 exact seed means (7.2, 8.1) ---------------------------------- */

struct means_case {
	long spares;
	double spares_ettr, spares_ckpt_ettr;
};

ParameterizedTestParameters(reliability, seed_means_of_7_2)
{
	static struct means_case rows[] = {
		{ 0, 0.2163125, 0.2352125 },
		{ 1, 0.398325, 0.43351249999999997 },
		{ 8, 0.8028124999999999, 0.869525 },
		{ 16, 0.7997, 0.8661375 },
	};
	return cr_make_param_array(struct means_case, rows, sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct means_case *w, reliability, seed_means_of_7_2)
{
	struct rel_config c = defaults();
	struct rel_means m[REL_NPOLICIES];
	struct diag err;

	c.spare_nodes = w->spares;
	diag_init(&err);
	cr_assert_eq(rel_seed_means(&c, 0x1f, 8, 0, m, &err), 0);
	cr_assert(m[REL_MANUAL].field[0] == 0.1585);
	cr_assert(m[REL_AUTO_RESTART].field[0] == 0.2163125);
	cr_assert(m[REL_ELASTIC].field[0] == 0.8007625);
	cr_assert(m[REL_AUTO_SPARES].field[0] == w->spares_ettr, "k %ld: %.17g", w->spares,
		  m[REL_AUTO_SPARES].field[0]);
	cr_assert(m[REL_AUTO_SPARES_CKPT].field[0] == w->spares_ckpt_ettr);
}

Test(reliability, llama3_exposure_means)
{
	struct rel_config c = defaults();
	struct rel_means m[REL_NPOLICIES];
	struct diag err;

	/* 8.1 points 2, 3 and 6: H = 1296, k = 16. */
	c.horizon_h = 1296;
	c.spare_nodes = 16;
	diag_init(&err);
	cr_assert_eq(rel_seed_means(&c, 0x1f, 8, 0, m, &err), 0);
	cr_assert(m[REL_AUTO_SPARES_CKPT].events == 413.5);
	cr_assert(m[REL_AUTO_SPARES_CKPT].field[0] == 0.864975);
	cr_assert(m[REL_AUTO_SPARES_CKPT].field[4] == 378.0);
	cr_assert(m[REL_AUTO_RESTART].field[4] == 107.5);
}

Test(reliability, elastic_mttf_steepens)
{
	static const int64_t widths[5] = { 512, 1024, 2048, 4096, 8192 };
	static const double want[5] = { 12.5625, 6.05875, 2.69875, 1.06875, 0.2625 };
	struct rel_config c = defaults();
	struct rel_means m[REL_NPOLICIES];
	struct diag err;
	int i;

	diag_init(&err);
	for (i = 0; i < 5; i++) {
		c.nodes = widths[i];
		cr_assert_eq(rel_seed_means(&c, 1u << REL_ELASTIC, 8, 0, m, &err), 0);
		cr_assert(m[REL_ELASTIC].field[2] == want[i], "%lld nodes",
			  (long long)widths[i]);
	}
}

/* The two streams are merged, not sorted: the timeline must still be in
 * (time, count) order, hold both streams' events, and keep a burst ahead
 * of nothing it should follow. */
Test(reliability, timeline_merges_streams_in_order)
{
	struct rel_config c = defaults();
	struct rel_timeline tl;
	struct diag err;
	size_t i, singles = 0, bursts = 0;

	c.burst_rate_per_h = 0.01; /* 0.08 nodes/h of the 0.32 budget */
	c.burst_blast = 8;
	diag_init(&err);
	cr_assert_eq(rel_timeline_build(&c, &tl, &err), 0, "%s", err.msg);
	for (i = 0; i < tl.count; i++) {
		if (tl.ev[i].n == 1)
			singles++;
		else
			bursts++;
		if (i > 0)
			cr_assert(tl.ev[i - 1].t < tl.ev[i].t ||
					  (tl.ev[i - 1].t == tl.ev[i].t && tl.ev[i - 1].n <= tl.ev[i].n),
				  "event %zu out of order", i);
	}
	cr_assert_gt(singles, 0);
	cr_assert_gt(bursts, 0);
	rel_timeline_free(&tl);
}

Test(reliability, full_interval_loss_switch_lowers_productive)
{
	struct rel_config c = defaults();
	struct rel_timeline tl;
	struct rel_result a, b;
	struct diag err;

	diag_init(&err);
	cr_assert_eq(rel_timeline_build(&c, &tl, &err), 0);
	cr_assert_eq(rel_simulate(&c, REL_AUTO_SPARES, &tl, 0, &a, &err), 0);
	cr_assert_eq(rel_simulate(&c, REL_AUTO_SPARES, &tl, REL_V_FULL_INTERVAL_LOSS, &b, &err), 0);
	cr_assert_lt(b.productive_gpu_h, a.productive_gpu_h);
	cr_assert_eq(a.interruptions, b.interruptions);
	rel_timeline_free(&tl);
}

/* ---- 5.7 checkpoint, 5.5 legal loss, 5.6 rounding, 5.9 exact mean ----- */

Test(reliability, checkpoint_defaults)
{
	struct rel_checkpoint k;

	/* 4.5: defaults, blocking pair. */
	rel_checkpoint(0.02, 1 / 0.323584, 0.25, 0.5, &k);
	cr_assert(1 / 0.323584 == 3.0903876582278484);
	cr_assert(k.young_h == 0.3515899690393825);
	cr_assert(k.daly_h == 0.33838304558220655);
	cr_assert(k.young_daly_mr_h == 0.3455345487489711);
	cr_assert(k.ratio_to_young == 1.4221111067704941);
	cr_assert(k.overhead == 0.120896);
	cr_assert(k.optimal_overhead == 0.11376888854163954);
	cr_assert(k.overhead_excess == 0.06264552242462962);
	/* 7.2: the overlapped pair's optimum. */
	rel_checkpoint(0.003, 1 / 0.323584, 0.25, 0.1, &k);
	cr_assert(k.young_h == 0.13617020947831096);
	/* Daly's series stops at M when w >= 2M. */
	rel_checkpoint(10, 2, 0, 1, &k);
	cr_assert(k.daly_h == 2);
}

struct loss_case {
	int64_t d, g, want;
};

ParameterizedTestParameters(reliability, legal_loss)
{
	static struct loss_case rows[] = {
		{ 9, 8, 16 }, { 8, 8, 8 }, { 1, 8, 8 }, { 0, 8, 0 }, { -3, 8, 0 },
		{ 5, 1, 5 }, { 17, 16, 32 },
	};
	return cr_make_param_array(struct loss_case, rows, sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct loss_case *c, reliability, legal_loss)
{
	cr_assert_eq(rel_legal_loss(c->d, c->g), c->want);
}

struct round_case {
	double x;
	int n;
	double want;
};

ParameterizedTestParameters(reliability, python_round)
{
	/* Python's round(): half-even on the exact binary value. */
	static struct round_case rows[] = {
		{ 0.125, 2, 0.12 },   { 0.375, 2, 0.38 }, { 2.675, 2, 2.67 },
		{ 2.5, 0, 2.0 },      { 3.5, 0, 4.0 },    { -0.00001, 2, 0.0 },
		{ 0.86497, 4, 0.865 }, { 1e300, 1, 1e300 },
	};
	return cr_make_param_array(struct round_case, rows, sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct round_case *c, reliability, python_round)
{
	double r = rel_round(c->x, c->n);

	cr_assert(r == c->want, "round(%.17g, %d) = %.17g", c->x, c->n, r);
	cr_assert(!signbit(r) || c->want < 0, "no negative zero");
}

