/*
 * test_model_scheduling.c: the scheduling models against the reference
 * figures of spec/scheduling.md: the calculator (4.1, 5.2.3), the capped
 * log-normal means and expected work (5.3), the workload stream (5.8.7),
 * whole simulations (the conformance runs of 4.4 and the per-seed details
 * of registry points 4, 6, 7 and 9), the inference model (4.9, 5.10.3),
 * exact means (a tie of the 4.6 table), the limits of 5.13 and the
 * prepared samplers and demand table the stream and the run use. Exact
 * double equality is on purpose: the spec pins these bit for bit.
 */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/models/pcg64_dist.h"
#include "core/models/scheduling.h"

static struct sched_stranded_in scenario(double gpus)
{
	struct sched_stranded_in s = { gpus, 720.0, 0.0, 0.0, 0.15, 1.0, 1.0, 2.0 };

	return s;
}

Test(scheduling, stranded_typical_composite)
{
	struct sched_stranded_in s = scenario(4096);
	struct sched_stranded_out o;

	s.hard_outage_hours = 4.0;
	s.allocation_efficiency = 0.8;
	s.productive_ratio = 0.9;
	sched_stranded(&s, &o);
	cr_assert(eq(dbl, o.nominal_gpu_hours, 2949120.0));
	cr_assert(eq(dbl, o.availability, 0.9944444444444445));
	cr_assert(eq(dbl, o.usable_gpu_hours, 2111569.9200000004));
	cr_assert(eq(dbl, o.loss_scheduler, 16383.999999999942));
	cr_assert(eq(dbl, o.loss_allocation, 586547.1999999998));
	cr_assert(eq(dbl, o.loss_productivity, 234618.87999999998));
	cr_assert(eq(dbl, o.stranded_gpu_hours, 837550.0799999997));
	cr_assert(eq(dbl, o.stranded_usd, 1675100.1599999995));
	/* Registry point 15: usable share of nominal. */
	cr_assert(eq(dbl, o.usable_gpu_hours / o.nominal_gpu_hours, 0.7160000000000001));
}

Test(scheduling, stranded_presets)
{
	struct sched_stranded_in s = scenario(1000);
	struct sched_stranded_out o, before;

	s.hard_outage_hours = 3.7;
	sched_stranded(&s, &o);
	cr_assert(eq(dbl, o.loss_scheduler, 3700.0000000000186));
	cr_assert(eq(dbl, o.availability, 0.9948611111111111));
	cr_assert(eq(dbl, o.stranded_usd, 7400.000000000037));
	s = scenario(16000);
	s.productive_ratio = 0.9;
	sched_stranded(&s, &o);
	cr_assert(eq(dbl, o.loss_productivity, 1151999.9999999998));
	s = scenario(155410);
	s.allocation_efficiency = 0.68;
	sched_stranded(&s, &before);
	cr_assert(eq(dbl, before.loss_allocation, 35806463.99999999));
	s.allocation_efficiency = 0.93;
	sched_stranded(&s, &o);
	cr_assert(eq(dbl, before.loss_allocation - o.loss_allocation, 27973800.0));
}

Test(scheduling, stranded_boundary_a_zero)
{
	struct sched_stranded_in s = scenario(10);
	struct sched_stranded_out o;

	/* lost = H is allowed: A = 0 and every hour is a scheduler loss. */
	s.window_hours = 10.0;
	s.hard_outage_hours = 10.0;
	sched_stranded(&s, &o);
	cr_assert(eq(dbl, o.availability, 0.0));
	cr_assert(eq(dbl, o.usable_gpu_hours, 0.0));
	cr_assert(eq(dbl, o.loss_scheduler, 100.0));
}

Test(scheduling, capped_means_and_expected_work)
{
	struct sched_variant v;
	struct sched_config c;

	cr_assert(eq(dbl, sched_capped_lognormal_mean(2, 0.8, 168), 2.754255126248082));
	cr_assert(eq(dbl, sched_capped_lognormal_mean(6, 0.8, 168), 8.262219635318186));
	cr_assert(eq(dbl, sched_capped_lognormal_mean(16, 0.8, 168), 21.95328911871026));
	cr_assert(eq(dbl, sched_capped_lognormal_mean(36, 0.8, 168), 47.6723052130868));
	cr_assert(eq(dbl, sched_capped_lognormal_mean(200, 0.0, 168), 168.0));
	cr_assert(eq(dbl, sched_expected_work(NULL), 268.3171287148307));
	cr_assert(eq(dbl, sched_large_gpu_time_share(NULL), 0.5912907331300897));
	sched_config_default(&c);
	cr_assert(eq(dbl, sched_arrival_rate(&c, NULL), 0.19591245224800719));
	cr_assert(eq(i64, sched_reservation(&c), 378));
	/* The mutations of 7.4: medians as means, flat sizes. */
	memset(&v, 0, sizeof v);
	v.capped_median = 1;
	cr_assert(eq(dbl, sched_expected_work(&v), 199.648));
	cr_assert(eq(dbl, sched_large_gpu_time_share(&v), 0.7946657705018477));
	memset(&v, 0, sizeof v);
	v.has_size_p = 1;
	for (int i = 0; i < SCHED_NSIZES; i++)
		v.size_p[i] = 0.1;
	cr_assert(eq(dbl, sched_expected_work(&v), 4130.9325999904595));
	cr_assert(eq(dbl, sched_large_gpu_time_share(&v), 0.8862969684795928));
}

Test(scheduling, demand_curve)
{
	struct sched_config c;

	sched_config_default(&c);
	/* Trough at 00:00, peak at 12:00 (step 144), surges add on top. */
	cr_assert(eq(dbl, sched_demand(&c, 0, 0.0), 200.0));
	cr_assert(eq(dbl, sched_demand(&c, 144, 0.0), 360.0));
	cr_assert(eq(dbl, sched_demand(&c, 144 + 288, 120.0), 480.0));
	c.inf_base = 0.0;
	cr_assert(eq(dbl, sched_demand(&c, 0, 0.0), 0.0));
}

Test(scheduling, workload_stream)
{
	struct sched_config c;
	struct sched_job_spec *j;
	struct diag err;
	long n;

	sched_config_default(&c);
	diag_init(&err);
	n = sched_generate(&c, NULL, &j, &err);
	cr_assert(eq(long, n, 1714));
	cr_assert(eq(i64, j[0].submit, 2));
	cr_assert(eq(int, j[0].size, 1));
	cr_assert(eq(dbl, j[0].work, 12.033670479523671));
	cr_assert(eq(dbl, j[1].work, 10.05223866705037));
	cr_assert(eq(int, j[2].size, 8));
	cr_assert(eq(dbl, j[2].work, 54.15908412669091));
	cr_assert(eq(dbl, j[5].work, 1.756529740607238));
	cr_assert(eq(i64, j[n - 1].submit, 8632));
	cr_assert(eq(int, j[n - 1].size, 16));
	cr_assert(eq(dbl, j[n - 1].work, 137.2538782463472));
	cr_assert(j[n - 1].elastic);
	cr_assert(eq(int, j[n - 1].min_size, 8));
	free(j);
}

static void run(struct sched_config *c, enum sched_policy p, struct sched_result *r)
{
	struct sched_opts o = { p, 1, 1, NULL, 0 };
	struct diag err;

	diag_init(&err);
	cr_assert(eq(int, sched_simulate(c, &o, NULL, r, &err), 0), "%s", err.msg);
}

Test(scheduling, simulate_rigid_steady_3d)
{
	struct sched_config c;
	struct sched_result r;

	sched_config_default(&c);
	c.horizon_days = 3;
	c.seed = 7;
	run(&c, SCHED_RIGID, &r);
	cr_assert(eq(dbl, r.metrics[2], 46644.2));
	cr_assert(eq(dbl, r.metrics[7], 0.6327));
	cr_assert(eq(dbl, r.metrics[9], 0.9211));
	cr_assert(eq(dbl, r.metrics[10], 173));
	cr_assert(eq(dbl, r.metrics[16], 0.17));
	cr_assert(eq(dbl, r.ledger.nominal, 73728.00000000028));
	cr_assert(eq(dbl, r.ledger.train_alloc, 28751.750000000804));
	cr_assert(eq(dbl, r.ledger.train_productive, 26484.166666667184));
	cr_assert(eq(i64, r.jobs_never_started, 2));
	sched_result_release(&r);
}

Test(scheduling, simulate_tiered_power_4d)
{
	struct sched_config c;
	struct sched_result r;

	sched_config_default(&c);
	c.horizon_days = 4;
	c.seed = 5;
	c.power_envelope = 1;
	run(&c, SCHED_TIERED, &r);
	cr_assert(eq(dbl, r.metrics[1], 94208.0));
	cr_assert(eq(dbl, r.metrics[12], 8));
	cr_assert(eq(dbl, r.metrics[13], 0));
	cr_assert(eq(dbl, r.metrics[15], 0.0));
	cr_assert(eq(dbl, r.ledger.envelope, 94207.99999999924));
	cr_assert(eq(dbl, r.ledger.wait_steps_sum, 2165.0));
	sched_result_release(&r);
}

/* Registry details (7.2): seeds 0-3, 14 days. */
Test(scheduling, registry_seed_details)
{
	static const double rigid[4] = { 0.6712, 0.7556, 0.7737, 0.7408 };
	static const double intent[4] = { 0.7351, 0.8428, 0.8175, 0.7752 };
	static const double lost[4] = { 1056.0, 1779.3, 646.8, 1441.2 };
	static const double ettr[4] = { 0.9075, 0.9129, 0.9135, 0.9104 };
	struct sched_config c;
	struct sched_result r;
	int s;

	for (s = 0; s < 4; s++) {
		sched_config_default(&c);
		c.horizon_days = 14;
		c.seed = s;
		run(&c, SCHED_RIGID, &r);
		cr_assert(eq(dbl, r.metrics[7], rigid[s]));
		cr_assert(eq(dbl, r.metrics[5], 32928.0));
		sched_result_release(&r);
		run(&c, SCHED_INTENT, &r);
		cr_assert(eq(dbl, r.metrics[7], intent[s]));
		cr_assert(eq(dbl, r.metrics[5], 9569.0));
		sched_result_release(&r);
		c.power_envelope = 1;
		run(&c, SCHED_RIGID, &r);
		cr_assert(eq(dbl, r.metrics[15], lost[s]));
		sched_result_release(&r);
		run(&c, SCHED_TIERED, &r);
		cr_assert(eq(dbl, r.metrics[15], 0.0));
		cr_assert(eq(dbl, r.metrics[13], 0));
		sched_result_release(&r);
		c.power_envelope = 0;
		c.failures = 1;
		run(&c, SCHED_RIGID, &r);
		cr_assert(eq(dbl, r.metrics[9], ettr[s]));
		cr_assert(eq(dbl, r.metrics[12], 0));
		cr_assert(eq(dbl, r.metrics[14], 0));
		sched_result_release(&r);
	}
}

Test(scheduling, simulate_conserves_and_is_deterministic)
{
	struct sched_config c;
	struct sched_result a, b;
	const struct sched_ledger *L = &a.ledger;

	sched_config_default(&c);
	c.horizon_days = 5;
	c.failures = 1;
	c.inf_surges = 1;
	c.power_envelope = 1;
	run(&c, SCHED_INTENT, &a);
	run(&c, SCHED_INTENT, &b);
	cr_assert(eq(int, memcmp(a.metrics, b.metrics, sizeof a.metrics), 0));
	/* The five buckets of 5.9.1 add up to nominal. */
	cr_assert(ieee_ulp_eq(dbl, (L->nominal - L->envelope) +
				((L->envelope - L->inf_alloc) - L->train_alloc) +
				(L->inf_alloc - L->inf_productive) +
				(L->train_alloc - L->train_productive) +
				(L->inf_productive + L->train_productive), L->nominal, 64));
	sched_result_release(&a);
	sched_result_release(&b);
}

Test(scheduling, limits)
{
	struct sched_config c;
	struct sched_result r;
	struct sched_opts o = { SCHED_RIGID, 1, 1, NULL, 0 };
	struct diag err;

	sched_config_default(&c);
	c.gpus = 1048576;
	c.offered_load = 100;
	diag_init(&err);
	cr_assert(eq(int, sched_simulate(&c, &o, NULL, &r, &err), -1));
	cr_assert(strcmp(diag_id(&err), "input.limit") == 0);
	sched_config_default(&c);
	c.failures = 1;
	c.failures_per_1000_node_days = 200000;
	diag_init(&err);
	cr_assert(eq(int, sched_simulate(&c, &o, NULL, &r, &err), -1));
	cr_assert(strcmp(diag_id(&err), "input.limit") == 0);
}

Test(scheduling, exact_mean_ties_to_even)
{
	/* Cell 01 at load 0.95, power 0.75 of the 4.6 table: the exact mean
	 * lies halfway between two doubles; summing and dividing misses it. */
	static const double x[12] = { 0.7234, 0.8164, 0.8108, 0.779, 0.8038, 0.7892,
				      0.6707, 0.799,  0.6692, 0.7903, 0.5993, 0.7055 };
	static const double y[4] = { 0.9075, 0.9129, 0.9135, 0.9104 };

	cr_assert(eq(dbl, sched_exact_mean(x, 12), 0.7463833333333334));
	cr_assert(eq(dbl, sched_exact_mean(y, 4), 0.911075));
	cr_assert(eq(dbl, sched_stdev(y, 1), 0.0));
}

Test(scheduling, inference_single_request)
{
	struct sched_hw hw = { 1e14, 8e10, 2e12, 0.5 };
	struct sched_infer_opts o = { 7e9, 2, 131072, 1.0, 0.05, 16, 0 };
	struct sched_request rq = { 0.0, 512, 64, 0 };
	struct sched_req_out out;
	struct sched_infer_out res;
	struct diag err;

	diag_init(&err);
	cr_assert(eq(int, sched_infer(&hw, &o, &rq, 1, &out, &res, &err), 0));
	cr_assert(eq(dbl, res.makespan_s, 1.043919208448));
	cr_assert(eq(dbl, out.ttft_s, 0.157427108864));
	cr_assert(eq(dbl, out.max_itl_s, 0.014075366399999956));
	cr_assert(eq(dbl, res.slo_goodput_output_tokens_s, 61.30742636218863));
	cr_assert(eq(i64, res.peak_concurrency, 1));
}

Test(scheduling, inference_sweep_first_run)
{
	struct sched_hw hw = { 2e14, 8e10, 1e12, 0.5 };
	struct sched_infer_opts o = { 7e9, 2, 131072, 1.0, 0.05, 16, 0 };
	struct sched_request rq = { 0.0, 128, 128, 0 };
	struct sched_req_out out;
	struct sched_infer_out res;
	struct diag err;

	diag_init(&err);
	cr_assert(eq(int, sched_infer(&hw, &o, &rq, 1, &out, &res, &err), 0));
	cr_assert(eq(dbl, res.makespan_s, 3.608345673727999));
	cr_assert(eq(dbl, out.ttft_s, 0.045953554432));
	cr_assert(eq(dbl, out.max_itl_s, 0.028066846719999816));
	cr_assert(eq(dbl, res.slo_goodput_output_tokens_s, 35.473319790826885));
}

Test(scheduling, inference_rejects_oversized)
{
	struct sched_hw hw = { 1e14, 8e10, 2e12, 0.5 };
	struct sched_infer_opts o = { 7e9, 2, 131072, 1.0, 0.05, 16, 0 };
	/* 1e6 tokens x 131072 B is far over the 66 GB left after the weights. */
	struct sched_request rq[2] = { { 0.0, 1000000, 1, 0 }, { 0.0, 16, 2, 0 } };
	struct sched_req_out out[2];
	struct sched_infer_out res;
	struct diag err;

	diag_init(&err);
	cr_assert(eq(int, sched_infer(&hw, &o, rq, 2, out, &res, &err), 0));
	cr_assert(eq(int, out[0].state, SCHED_REQ_REJECT_ARRIVAL));
	cr_assert(eq(int, out[1].state, SCHED_REQ_DONE));
	cr_assert(eq(dbl, res.slo_attainment, 1.0));
}

/* The prepared forms the workload stream draws through give the draws of
 * the plain samplers: the vectors of 5.8.7 from a fresh generator seeded 0. */
Test(scheduling, prepared_samplers_match_vectors)
{
	static const int sizes[10] = { 4, 1, 1, 1, 8, 32, 4, 8, 2, 32 };
	static const int64_t pois[8] = { 1, 0, 0, 2, 1, 2, 1, 1 };
	static const int64_t ptrs[6] = { 19, 7, 19, 22, 22, 20 };
	static const double size_p[10] = { 0.42, 0.13, 0.13, 0.18, 0.05,
					    0.04, 0.025, 0.015, 0.007, 0.003 };
	static const int table[10] = { 1, 2, 4, 8, 16, 32, 64, 128, 256, 512 };
	double cdf[10];
	struct pcg64 g;
	int i;

	pcg64_choice_cdf(size_p, 10, cdf);
	pcg64_seed_u64(&g, 0);
	for (i = 0; i < 10; i++)
		cr_assert(eq(int, table[pcg64_choice_from_cdf(&g, cdf, 10)], sizes[i]));
	pcg64_seed_u64(&g, 0);
	for (i = 0; i < 8; i++)
		cr_assert(eq(i64, pcg64_poisson_enlam(&g, 0.5, exp(-0.5)), pois[i]));
	pcg64_seed_u64(&g, 0);
	for (i = 0; i < 6; i++)
		cr_assert(eq(i64, pcg64_poisson_enlam(&g, 17.3, exp(-17.3)), ptrs[i]));
	pcg64_seed_u64(&g, 0);
	cr_assert(eq(i64, pcg64_poisson_enlam(&g, 0.0, 1.0), 0));
}

/* A stream expected well above 10,000,000 jobs is refused before any draw
 * (5.13): the limit, its path, and nothing allocated. */
Test(scheduling, job_limit_before_generation)
{
	struct sched_config c;
	struct sched_job_spec *j = NULL;
	struct diag err;

	sched_config_default(&c);
	c.gpus = 1048576;
	c.horizon_days = 366;
	diag_init(&err);
	cr_assert(eq(int, sched_check_limits(&c, NULL, &err), -1));
	cr_assert(strcmp(diag_id(&err), "input.limit") == 0);
	cr_assert(strcmp(err.path, "/offered_load") == 0);
	/* The default cluster over 366 days stays far inside every limit. */
	sched_config_default(&c);
	c.horizon_days = 366;
	diag_init(&err);
	cr_assert(eq(int, sched_check_limits(&c, NULL, &err), 0));
	cr_assert(sched_generate(&c, NULL, &j, &err) > 0);
	free(j);
}

/* The demand curve the simulation tabulates per day is sched_demand's, bit
 * for bit: a 3-day steady run's inference demand ledger (4.4 conformance
 * run sim-01: 20160.000000000007) is the sequential sum of sched_demand. */
Test(scheduling, tabulated_demand_equals_formula)
{
	struct sched_config c;
	struct sched_result r;
	double sum = 0.0;
	int64_t t;

	sched_config_default(&c);
	c.horizon_days = 3;
	c.seed = 7;
	for (t = 0; t < 3 * SCHED_STEPS_PER_DAY; t++)
		sum += sched_demand(&c, t, 0.0) * SCHED_DT_H;
	cr_assert(eq(dbl, sum, 20160.000000000007));
	run(&c, SCHED_RIGID, &r);
	cr_assert(eq(dbl, r.ledger.inf_demand, sum));
	sched_result_release(&r);
}

/* sd of the grid (4.5) is Python 3.11's statistics.stdev: the correctly
 * rounded root of the exact sample variance. The figures are that
 * function's on these vectors (the grid's S1 intent preemptions and S2
 * rigid realizations, seeds 42-44); a naive two-pass root gives
 * 15.567059238447492 and 0.02645127596166201. */
Test(scheduling, stdev_correctly_rounded)
{
	static const double pre[3] = { 31.0, 0.0, 13.0 };
	static const double real[3] = { 0.7414, 0.7154, 0.7683 };
	static const double same[4] = { 0.5, 0.5, 0.5, 0.5 };
	static const double wide[3] = { 1.7976931348623157e308, -1.7976931348623157e308, 0.0 };

	cr_assert(eq(dbl, sched_stdev(pre, 3), 15.56705923844749));
	cr_assert(eq(dbl, sched_stdev(real, 3), 0.026451275961662014));
	cr_assert(eq(dbl, sched_stdev(same, 4), 0.0));
	cr_assert(eq(dbl, sched_stdev(pre, 1), 0.0));
	cr_assert(eq(dbl, sched_stdev(wide, 3), 1.7976931348623157e308));
}
