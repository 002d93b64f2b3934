/*
 * test_model_network.c: the network model against the reference figures of
 * spec/network.md 4 (the JSON examples of the study baseline) and the
 * registry values of section 7, plus the edge cases of 3.1 and 5. The
 * figures of the spec are compared to 1e-12 relative (spec 10: conformance
 * compares to 1e-12); the model evaluates in the spec's order and matches
 * them to the last bit on glibc, but the tests do not depend on that.
 */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <math.h>
#include <string.h>

#include "core/models/network.h"

#define REL 1e-12
#define near(actual, want) cr_assert(ieee_ulp_eq_or_rel((actual), (want)), \
				     "%s = %.17g, want %.17g", #actual, (double)(actual), (double)(want))

static int ieee_ulp_eq_or_rel(double a, double b)
{
	if (a == b)
		return 1;
	return fabs(a - b) <= REL * fmax(fabs(a), fabs(b));
}

/* llama3-405b-16k (spec 3.1.7); ref adds the reference preset's changes. */
static void preset(struct nw_scn *s, int ref, double dp)
{
	nw_defaults(s);
	s->f[NW_N_LAYERS] = 126;
	s->f[NW_HIDDEN] = 16384;
	s->f[NW_N_PARAMS] = 4.05e11;
	s->f[NW_SEQ_LEN] = 8192;
	s->f[NW_VOCAB] = 128256;
	s->f[NW_N_HEADS] = 128;
	s->f[NW_N_KV_HEADS] = 8;
	s->f[NW_FFN] = 3.25;
	s->f[NW_PEAK] = 9.895e14;
	s->f[NW_MEMORY_GB] = 80;
	s->f[NW_SCALEUP_BW] = 3600;
	s->f[NW_NIC_BW] = 400;
	s->f[NW_SCALEUP_DOMAIN] = 8;
	s->f[NW_POD_SIZE] = 3072;
	s->f[NW_OVERSUB] = 7.0;
	s->f[NW_PP] = 16;
	s->f[NW_DP] = dp;
	s->f[NW_INTERLEAVE] = 8;
	s->f[NW_WRITE] = 20;
	s->f[NW_SPARE] = 0.03;
	s->f[NW_WINDOW_DAYS] = 54;
	if (ref) {
		s->f[NW_CV] = 0.02;
		s->f[NW_KERNEL_EFF] = 0.5706;
		s->f[NW_WINDOW_DAYS] = 30.0;
	}
	nw_resolve(s);
}

Test(network, reference_pools)
{
	struct nw_scn s, s8;

	preset(&s, 1, 128);
	preset(&s8, 0, 64);
	/* spec 3.1.7: derived pools 16,876 (16K) and 8,438 (8K). */
	cr_assert(eq(dbl, s.f[NW_N_POOL], 16876));
	cr_assert(eq(dbl, s8.f[NW_N_POOL], 8438));
	cr_assert(eq(i64, nw_world(&s), 16384));
}

Test(network, healthy_step)
{
	struct nw_scn s;
	struct nw_step st;

	preset(&s, 1, 128);
	nw_step_of(&s, 0, &st);
	/* spec 4.1 */
	near(st.t_compute, 5.050305164811161);
	near(st.exp_tp, 0.5697833228047059);
	cr_assert(eq(dbl, st.exp_cp, 0.0));
	near(st.exp_pp, 0.060692432414117654);
	near(st.exp_dp, 0.10739386323529415);
	near(st.bubble, 0.5918326365013079);
	near(st.sync_wait, 0.5621379760120807);
	near(st.t_step, 6.942145395778667);
	near(st.blocked, 1.8918402309675066);
	near(st.efficiency, 0.727484787034584);
	near(st.raw_tp, 0.6330925808941177);
	near(st.raw_pp, 0.20230810804705882);
	near(st.raw_dp, 0.7159590882352942);
	cr_assert(eq(dbl, st.tokens, 16777216));
	near(st.flops_per_token, 2531468602368.0);
	near(st.mfu, 0.3773661995290305);
	near(st.tflops_per_gpu, 373.4038544339757);
	near(st.param_disagreement, 0.11273382494814815);
	near(st.mem_state, 6.624755859375);
	near(st.mem_activation, 1.056964608);
	near(st.mem_total, 7.681720467375);
}

Test(network, analytical_ledger)
{
	struct nw_scn s;
	struct nw_ledger l;

	preset(&s, 1, 128);
	cr_assert(eq(int, nw_ledger_of(&s, NULL, 0, &l), 0));
	/* spec 4.2 */
	near(l.productive, 27443486797.363834);
	near(l.comm, 4009602285.6826);
	near(l.sync, 3054672068.229605);
	near(l.bubble, 3216033609.0660744);
	near(l.checkpoint, 1345002683.1557155);
	near(l.restart, 1438051842.1676545);
	near(l.discarded, 1951631354.3345203);
	near(l.down, 8847360.0);
	near(l.spare, 1275264000.0);
	near(l.total, 43742592000.0);
	near(l.ucf, 0.627385930796324);
	near(l.productive_acc, 10587.764968118763);
	near(l.tokens_per_s, 2146775.4865381503);
	near(l.ettr, 0.8884866860921691);
	near(l.rel.mttf / 3600.0, 2.34375);
	near(l.rel.interval, 560.9475019311126);
	near(l.rel.n_failures, 292.57239627434376);
	near(l.rel.pressure, 0.08244700679568473);
}

Test(network, failure_free_ledger)
{
	struct nw_scn s;
	struct nw_ledger l;

	preset(&s, 1, 128);
	s.f[NW_RATE] = 0;
	cr_assert(eq(int, nw_ledger_of(&s, NULL, 0, &l), 0));
	cr_assert(isinf(l.rel.mttf));
	cr_assert(isinf(l.rel.interval));
	cr_assert(eq(dbl, l.rel.n_failures, 0.0));
	cr_assert(eq(dbl, l.rel.pressure, 0.0));
	cr_assert(eq(dbl, l.checkpoint, 0.0));
}

Test(network, monte_carlo_ledger_sums)
{
	struct nw_scn s;
	struct nw_rel mc;
	struct nw_ledger l;

	preset(&s, 1, 128);
	cr_assert(eq(int, nw_reliability_mc(&s, 0, 50, 0, &mc), 0));
	cr_assert(eq(int, nw_ledger_of(&s, &mc, 0, &l), 0));
	/* The Monte Carlo lands near the analytical 292.6 failures (5.6). */
	cr_assert(fabs(mc.n_failures - 292.57) < 15);
	/* The same seed gives the same stream. */
	{
		struct nw_rel again;

		cr_assert(eq(int, nw_reliability_mc(&s, 0, 50, 0, &again), 0));
		cr_assert(eq(dbl, again.discarded, mc.discarded));
	}
}

Test(network, expand_and_rescale)
{
	struct nw_scn s, e;

	preset(&s, 1, 128);
	cr_assert(eq(int, nw_rescale(&s, 16876 + 1024, &e), 0));
	/* spec 4.4: dp moves in whole replicas (17,799 of the 17,900 target). */
	cr_assert(eq(dbl, e.f[NW_N_POOL], 17799));
	cr_assert(eq(i64, nw_world(&e), 17280));
	near(nw_productive(&e, 0), 11048.054031951422);
	/* More replicas than the 2,048-sequence batch can feed. */
	cr_assert(eq(int, nw_rescale(&s, 400000, &e), -1));
	cr_assert(eq(int, nw_rescale(&s, 10, &e), -1));
}

Test(network, curve_points)
{
	struct nw_scn s;
	struct nw_point pts[NW_MAX_CURVE];
	size_t n;

	preset(&s, 1, 128);
	/* spec 4.3: 46 points at max_factor 8, the peak the last one. */
	n = nw_curve(&s, 8.0, 0, pts);
	cr_assert(eq(sz, n, 46));
	cr_assert(eq(dbl, pts[45].n_pool, 135005));
	near(pts[45].productive, 31199.644560395845);
	/* spec 9: a 56-point curve at the SEA's factor 64. */
	cr_assert(eq(sz, nw_curve(&s, 64.0, 0, pts), 56));
}

static double sea_of(const struct nw_scn *s, enum nw_field key, double value, int multiply,
		     double *naive)
{
	struct nw_point pts[NW_MAX_CURVE];
	struct nw_iv iv = { 1, { key }, { value }, { (unsigned char)multiply } };
	struct nw_sea r;
	enum nw_field bad;
	char why[160];
	size_t n = nw_curve(s, 64.0, 0, pts);

	cr_assert(eq(int, nw_sea_of(s, &iv, pts, n, 0, &r, &bad, why, sizeof why), 0));
	if (naive)
		*naive = r.naive;
	return r.sea;
}

Test(network, sea_of_builtins)
{
	struct nw_scn s;
	double naive;

	preset(&s, 1, 128);
	/* spec 4.5 and conformance sea-default-set-16k */
	near(sea_of(&s, NW_NIC_BW, 2.0, 1, &naive), 281.4142695408591);
	near(naive, 141.229726141207);
	near(sea_of(&s, NW_RATE, 0.5, 1, &naive), 970.5171307613455);
	near(naive, 481.9623059990833);
	near(sea_of(&s, NW_CV, 0.5, 1, NULL), 895.5851210201909);
	/* add_spares is worth 0 though the naive metric credits it 183.6. */
	cr_assert(eq(dbl, sea_of(&s, NW_SPARE, 0.05, 0, &naive), 0.0));
	near(naive, 183.58250588661213);
	/* scaleup_2x with the plan held fixed changes nothing. */
	cr_assert(eq(dbl, sea_of(&s, NW_SCALEUP_DOMAIN, 2.0, 1, &naive), 0.0));
}

Test(network, sea_on_curve_edges)
{
	struct nw_point p[3] = { { 100, 10 }, { 200, 20 }, { 300, 20 } };

	cr_assert(isinf(nw_sea_on_curve(p, 0, 5)));
	cr_assert(eq(dbl, nw_sea_on_curve(p, 3, 10), 0.0));   /* target <= v0 */
	cr_assert(eq(dbl, nw_sea_on_curve(p, 3, 15), 50.0));  /* interpolated */
	cr_assert(eq(dbl, nw_sea_on_curve(p, 3, 20), 100.0)); /* v >= target reaches it */
	cr_assert(isinf(nw_sea_on_curve(p, 3, 20.5)));        /* past the best */
}

Test(network, shapley_of_recovery_bundle)
{
	struct nw_scn s;
	struct nw_iv b[3] = { { 1, { NW_DETECT }, { 20 }, { 0 } },
			      { 1, { NW_RESTART }, { 60 }, { 0 } },
			      { 1, { NW_WRITE }, { 5 }, { 0 } } };
	struct nw_shapley sh;
	enum nw_field bad;
	char why[160];

	preset(&s, 1, 128);
	cr_assert(eq(int, nw_shapley_of(&s, b, 3, 0, &sh, &bad, why, sizeof why), 0));
	/* spec 4.6 */
	near(sh.phi[0], 256.32534235096256);
	near(sh.phi[1], 613.7363575065076);
	near(sh.phi[2], 778.2790897827174);
	near(sh.bundle, 1648.3407896401877);
	near(sh.sum_individual, 1584.804786549019);
	cr_assert(eq(int, sh.capped, 0));
}

Test(network, atlas_cells)
{
	struct nw_scn s;
	struct nw_span c;

	preset(&s, 0, 128);
	/* spec 4.8 and conformance atlas-400g-hierarchical */
	nw_span_of(&s, NW_CUT_TP, 0.5, 400, 2, 0, 0, &c);
	near(c.retention, 0.0035389001497673914);
	near(c.step_ratio, 282.57366912873454);
	nw_span_of(&s, NW_CUT_CP, 0.5, 400, 2, 0, 0, &c);
	cr_assert(eq(int, c.applicable, 0));
	nw_span_of(&s, NW_CUT_DP, 40000, 400, 2, 0, 0, &c);
	near(c.retention, 0.9431702247772089);
	near(c.step_ratio, 1.0602539962881197);
	nw_span_of(&s, NW_CUT_CHECKPOINT, 0.5, 400, 2, 0, 0, &c);
	near(c.retention, 0.880373853622192);
	cr_assert(eq(dbl, c.step_ratio, 1.0));
}

Test(network, span_placements)
{
	struct nw_scn s;
	struct nw_span h, b;

	preset(&s, 1, 128);
	/* spec 4.9: a blind pipeline cut at 120 km keeps 0.171, hierarchical 0.755. */
	nw_span_of(&s, NW_CUT_PP, 600, 800, 2, 1, 0, &b);
	nw_span_of(&s, NW_CUT_PP, 600, 800, 2, 0, 0, &h);
	near(b.retention, 0.17066350197168786);
	near(b.step_ratio, 5.85948365319431);
	near(h.retention, 0.7553066465344538);
	near(h.step_ratio, 1.3239655768796206);
	/* The contiguous-pipeline mutation makes blind behave as hierarchical. */
	nw_span_of(&s, NW_CUT_PP, 600, 800, 2, 1, NW_V_CONTIGUOUS_PIPELINE, &b);
	near(b.retention, h.retention);
}

Test(network, stitch_metro)
{
	struct nw_scn s;
	struct nw_stitch st;

	preset(&s, 1, 128);
	/* spec 4.10 */
	nw_stitch_of(&s, NW_CUT_DP, 500, 800, 0, &st);
	cr_assert(st.applicable);
	cr_assert(eq(dbl, st.connected, 8438));
	near(st.delivered, 6496.556130342057);
	near(st.efficiency, 0.7699165833541192);
	near(st.p_local, 5875.463366656117);
	near(st.p_span, 10399.080047534284);
	nw_stitch_of(&s, NW_CUT_CP, 500, 800, 0, &st);
	cr_assert(eq(int, st.applicable, 0));
}

Test(network, bytes_per_cut)
{
	struct nw_scn s;
	struct nw_bytes b;

	preset(&s, 1, 128);
	/* spec 4.11 */
	nw_bytes_of(&s, NW_CUT_TP, 2, 400, 0, &b);
	near(b.raw, 277076930199552.0);
	near(b.exposed, 249369237179596.8);
	near(b.lower_bound_s, 6519.45718116593);
	nw_bytes_of(&s, NW_CUT_CP, 2, 400, 0, &b);
	cr_assert(eq(int, b.modelled, 0));
	nw_bytes_of(&s, NW_CUT_CHECKPOINT, 2, 400, 0, &b);
	cr_assert(eq(dbl, b.raw, 14 * 4.05e11));
	cr_assert(eq(dbl, b.exposed, b.raw));
}

Test(network, nic_cap_and_contention)
{
	struct nw_scn s;

	preset(&s, 0, 128);
	s.f[NW_HALLS] = 2;
	s.f[NW_SPAN_DIM] = NW_CUT_DP;
	s.f[NW_SPAN_BW] = 1e12;
	/* Registry point 18: no rank outruns its NIC (42.5 GB/s). */
	cr_assert(eq(dbl, nw_span_share(&s, 1.0, 0), 400 * 1e9 * 0.85 / 8));
	cr_assert(nw_span_share(&s, 1.0, NW_V_DELETE_NIC_CAP) > 1e12);
	s.f[NW_SPAN_BW] = 800;
	cr_assert(eq(dbl, nw_span_share(&s, 128.0, 0), 800 * 1e9 * 0.85 / 8 / 128));
	/* Without contention the whole circuit is one rank's, capped at its NIC. */
	cr_assert(eq(dbl, nw_span_share(&s, 128.0, NW_V_DELETE_CONTENTION), 400 * 1e9 * 0.85 / 8));
	s.f[NW_SPAN_BW] = 0;
	cr_assert(eq(dbl, nw_span_share(&s, 1.0, 0), 0.0));
}

Test(network, layout_tiers)
{
	struct nw_scn s;
	struct nw_layout l;

	preset(&s, 0, 128);
	l = nw_layout_of(&s, NW_CUT_TP, 0);
	cr_assert(eq(i64, l.per_su, 8));
	l = nw_layout_of(&s, NW_CUT_DP, 0);
	/* dp stride 128 > scale-up 8: one per scale-up domain, 24 per pod. */
	cr_assert(eq(i64, l.per_su, 1));
	cr_assert(eq(i64, l.halls, 1));
	/* Registry point 20: no stitch, no stitch latency. */
	cr_assert(eq(dbl, nw_span_latency(&s, &l, 0, 0), 0.0));
	s.f[NW_HALLS] = 2;
	s.f[NW_SPAN_DIM] = NW_CUT_DP;
	s.f[NW_SPAN_BW] = 400;
	s.f[NW_PLACEMENT] = 1;
	l = nw_layout_of(&s, NW_CUT_DP, 0);
	cr_assert(eq(i64, l.ring, 128)); /* blind: the whole group crosses */
	cr_assert(eq(dbl, l.contention, 128.0));
	l = nw_layout_of(&s, NW_CUT_DP, NW_V_COLLAPSE_BLIND);
	cr_assert(eq(i64, l.ring, 2));
}

Test(network, primitives)
{
	/* 5.2: all three are 0 when k <= 1. */
	cr_assert(eq(dbl, nw_ring(NW_ALLREDUCE, 1e9, 1, 1e9, 1e-6), 0.0));
	cr_assert(eq(dbl, nw_ring(NW_ALLREDUCE, 1e9, 2, 1e9, 1e-6), 2.0 * 1 / 2 * 1e9 / 1e9 + 2e-6));
	cr_assert(eq(dbl, nw_ring(NW_ALLGATHER, 8, 4, 1, 0), 6.0));
	/* 5.5: Daly's optimum is at least 60 s; no checkpoint write: the MTTF. */
	cr_assert(eq(dbl, nw_daly(0, 30), 60.0));
	cr_assert(eq(dbl, nw_daly(0, 1000), 1000.0));
	cr_assert(eq(dbl, nw_daly(20, 8437.5), sqrt(2.0 * 20 * 8437.5) - 20));
	cr_assert(isinf(nw_daly(20, INFINITY)));
	/* Lost work: half a period when failures are rare within it. */
	cr_assert(eq(dbl, nw_lost_work(1e-9, 100), 50.0));
	cr_assert(eq(dbl, nw_lost_work(0, 100), 0.0));
	/* Spares: none, or certain cover when nothing is under repair. */
	cr_assert(eq(dbl, nw_spare_availability(0, 1e-3, 3600), 0.0));
	cr_assert(eq(dbl, nw_spare_availability(3, 0, 3600), 1.0));
	near(nw_spare_availability(1, 1e-3, 1000), exp(-1.0));
}

Test(network, input_checks)
{
	struct nw_scn s;
	enum nw_field bad;
	char why[160];

	preset(&s, 1, 128);
	cr_assert(eq(int, nw_check(&s, &bad, why, sizeof why), 0));
	s.f[NW_DP] = 0; /* divergence 1 */
	cr_assert(eq(int, nw_check(&s, &bad, why, sizeof why), -1));
	cr_assert(eq(int, bad, NW_DP));
	preset(&s, 1, 128);
	s.f[NW_N_KV_HEADS] = 200;
	cr_assert(eq(int, nw_check(&s, &bad, why, sizeof why), -1));
	cr_assert(eq(int, bad, NW_N_KV_HEADS));
	preset(&s, 1, 128);
	s.f[NW_GLOBAL_BATCH] = 64; /* 64 / 128 replicas < 1 */
	cr_assert(eq(int, nw_check(&s, &bad, why, sizeof why), -1));
	cr_assert(eq(int, bad, NW_GLOBAL_BATCH));
	preset(&s, 1, 128);
	s.f[NW_HALLS] = 2;
	cr_assert(eq(int, nw_check(&s, &bad, why, sizeof why), -1));
	cr_assert(eq(int, bad, NW_SPAN_DIM));
	s.f[NW_SPAN_DIM] = NW_CUT_DP;
	cr_assert(eq(int, nw_check(&s, &bad, why, sizeof why), -1));
	cr_assert(eq(int, bad, NW_SPAN_BW));
	cr_assert(eq(int, nw_check_field(NW_RATE, NAN, why, sizeof why), -1));
	cr_assert(eq(int, nw_check_field(NW_RATE, INFINITY, why, sizeof why), -1));
	cr_assert(eq(int, nw_check_field(NW_TP, 8.5, why, sizeof why), -1));
	cr_assert(eq(int, nw_check_field(NW_NET_EFF, 0.0, why, sizeof why), -1));
	cr_assert(eq(int, nw_check_field(NW_INTERVAL, NAN, why, sizeof why), 0)); /* null */
	preset(&s, 1, 128);
	s.f[NW_TP] = 1e6;
	s.f[NW_PP] = 1e6;
	cr_assert(eq(int, nw_check(&s, &bad, why, sizeof why), -1)); /* world above 1e8 */
}

Test(network, interventions_checked)
{
	struct nw_scn s, out;
	struct nw_iv iv = { 1, { NW_NET_EFF }, { 2.0 }, { 1 } };
	enum nw_field bad;
	char why[160];

	preset(&s, 1, 128);
	/* 0.85 x 2 breaks net_efficiency <= 1 (3.2: values must satisfy 3.1). */
	cr_assert(eq(int, nw_apply(&s, &iv, &out, &bad, why, sizeof why), -1));
	cr_assert(eq(int, bad, NW_NET_EFF));
	/* An int multiplier rounds half to even: 8 x 1.3125 = 10.5 -> 10. */
	iv.key[0] = NW_SCALEUP_DOMAIN;
	iv.value[0] = 1.3125;
	cr_assert(eq(int, nw_apply(&s, &iv, &out, &bad, why, sizeof why), 0));
	cr_assert(eq(dbl, out.f[NW_SCALEUP_DOMAIN], 10));
}
