/*
 * test_model_placement.c: the placement models against the reference values
 * of spec/placement.md 3.1, 7.2, 7.3, 8 and 10.1. Exact double equality
 * (eq(dbl, ...)) is on purpose wherever the spec says bit-exact: those
 * figures must match the published tool's Python arithmetic bit for bit.
 * The haversine distances carry the spec's 1e-9 relative tolerance (libm).
 */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <string.h>

#include "core/models/model.h"
#include "core/models/placement.h"

/* ---- physics: bit-exact reference values ------------------------------------ */

Test(placement, one_way_and_rtt)
{
	/* Exact on purpose: the fronthaul boundary of spec 7.4. */
	cr_assert(eq(dbl, placement_one_way_us(20.408163265306122, 4.9), 100.0));
	cr_assert(eq(dbl, placement_one_way_us(20.408163265306126, 4.9),
		     100.00000000000003));
	cr_assert(eq(dbl, placement_one_way_us(250, 3.5), 875.0));
	cr_assert(eq(dbl, placement_rtt_ms(1234.5, 4.9, 0), 12.0981));
	cr_assert(eq(dbl, placement_rtt_ms(2.0, 4.9, 0), 0.019600000000000003));
	cr_assert(eq(dbl, placement_rtt_ms(4148.0, 4.9, 0), 40.650400000000005));
	/* The rtt-one-way mutation drops the factor 2. */
	cr_assert(eq(dbl, placement_rtt_ms(4148.0, 4.9, PLACEMENT_V_RTT_ONE_WAY),
		     20.325200000000002));
}

Test(placement, buffers)
{
	/* Exact on purpose: spec 8 reference values. */
	cr_assert(eq(dbl, placement_bdp_mb(200, 75, 4.9, 0), 9.1875));
	cr_assert(eq(dbl, placement_bdp_mb(400, 600, 4.9, 0), 147.0));
	cr_assert(eq(dbl, placement_pfc_headroom_mb(800, 10, 2.0, 0), 9.8));
	cr_assert(eq(dbl, placement_pfc_headroom_mb(400, 40, 2.5, 0), 24.5));
	cr_assert(eq(dbl, placement_pfc_headroom_mb(100, 80, 2.0, 0), 9.8));
	cr_assert(eq(dbl, placement_pfc_headroom_mb(400, 600, 2.0, 0), 294.0));
	cr_assert(eq(dbl, placement_pfc_headroom_mb(100, 80, 2.0, PLACEMENT_V_BDP_RTT),
		     19.6));
	cr_assert(eq(dbl, placement_pfc_headroom_mb(400, 600, 2.0, PLACEMENT_V_BDP_RTT),
		     588.0));
	cr_assert(eq(dbl, placement_pfc_max_lossless_km(200, 48, 2.0),
		     195.91836734693877));
	cr_assert(eq(dbl, placement_pfc_max_lossless_km(1600, 256, 2.0),
		     130.6122448979592));
	cr_assert(eq(dbl, placement_pfc_max_lossless_km(400, 64, 2.0),
		     130.6122448979592));
	cr_assert(eq(dbl, placement_ib_credit_max_km(200, 128, 0), 0.5349877551020408));
	cr_assert(eq(dbl, placement_ib_credit_max_km(50, 512, 0), 8.559804081632652));
	cr_assert(eq(dbl, placement_ib_credit_max_km(100, 128, 0), 1.0699755102040815));
	cr_assert(eq(dbl, placement_ib_credit_max_km(400, 128, 0), 0.2674938775510204));
	cr_assert(eq(dbl, placement_ib_credit_max_km(100, 128, PLACEMENT_V_IB_ONE_WAY),
		     2.139951020408163));
}

Test(placement, collectives_cost)
{
	/* Exact on purpose: spec 7.2 and 8. */
	cr_assert(eq(dbl, placement_ring_allreduce_ms(16, 1, 400, 0), 37.5));
	cr_assert(eq(dbl, placement_ring_allreduce_ms(16, 1, 400, 1000), 67.5));
	cr_assert(eq(dbl, placement_ring_allreduce_ms(1, 4, 400, 100), 0.0));
	cr_assert(eq(dbl, placement_ring_allreduce_ms(8, 2.5, 200, 49), 175.686));
	cr_assert(eq(dbl, placement_sync_step_efficiency(2, 0.5, 100, 20, 0, 1.0, 4.9),
		     0.5));
	cr_assert(eq(dbl, placement_sync_step_efficiency(2, 0.5, 100, 20, 100, 1.0, 4.9),
		     0.48804294777940455));
	cr_assert(eq(dbl, placement_sync_step_efficiency(2, 0.5, 100, 20, 2000, 1.0, 4.9),
		     0.33557046979865773));
	/* The shape pins of spec 7.2. */
	cr_assert_gt(placement_sync_step_efficiency(16, 1, 400, 200, 10, 1.0, 4.9), 0.97);
	cr_assert_lt(placement_sync_step_efficiency(16, 1, 400, 200, 1000, 1.0, 4.9), 0.90);
	{
		double base = placement_sync_step_efficiency(16, 1.5, 400, 50, 1000, 1.0, 4.9);
		double wider = placement_sync_step_efficiency(16, 1.5, 800, 50, 1000, 1.0, 4.9);
		double nearer = placement_sync_step_efficiency(16, 1.5, 400, 50, 500, 1.0, 4.9);

		cr_assert_lt(wider - base, (nearer - base) / 5);
	}
}

/* ---- latency domains: the inclusive boundaries of spec 7.2 ---------------- */

struct domain_case {
	double km;
	int domain;
	unsigned variant;
};

ParameterizedTestParameters(placement, latency_domain)
{
	static struct domain_case rows[] = {
		{ 0.0, PLACEMENT_INTRA_RACK, 0 },    { 0.002, PLACEMENT_INTRA_RACK, 0 },
		{ 0.0021, PLACEMENT_INTRA_POD, 0 },  { 0.1, PLACEMENT_INTRA_POD, 0 },
		{ 0.1001, PLACEMENT_METRO, 0 },      { 40, PLACEMENT_METRO, 0 },
		{ 40.0001, PLACEMENT_REGIONAL, 0 },  { 600, PLACEMENT_REGIONAL, 0 },
		{ 14.25, PLACEMENT_REGIONAL, PLACEMENT_V_METRO_10KM },
		{ 10, PLACEMENT_METRO, PLACEMENT_V_METRO_10KM },
		{ 60, PLACEMENT_METRO, PLACEMENT_V_METRO_60KM },
		{ 62.16, PLACEMENT_REGIONAL, PLACEMENT_V_METRO_60KM },
	};
	return cr_make_param_array(struct domain_case, rows, sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct domain_case *c, placement, latency_domain)
{
	cr_assert_eq((int)placement_latency_domain(c->km, c->variant), c->domain);
	cr_assert_eq(placement_collectives_allowed(c->km, c->variant),
		     c->domain != PLACEMENT_REGIONAL);
}

/* ---- power_gpus: CPython's float floor division -------------------------- */

struct power_case {
	double kw, watts, want;
};

ParameterizedTestParameters(placement, power_gpus)
{
	static struct power_case rows[] = {
		{ 1.5, 72, 15 },        { 1.5, 75, 14 },        { 1.5, 350, 3 },
		{ 1.5, 700, 1 },        { 1.5, 1400, 0 },       { 50, 72, 514 },
		{ 50, 75, 493 },        { 50, 350, 105 },       { 50, 700, 52 },
		{ 50, 1400, 26 },       { 2000, 72, 20576 },    { 2000, 75, 19753 },
		{ 2000, 350, 4232 },    { 2000, 700, 2116 },    { 2000, 1400, 1058 },
		{ 100000, 72, 1028806 }, { 100000, 75, 987654 }, { 100000, 350, 211640 },
		{ 100000, 700, 105820 }, { 100000, 1400, 52910 },
		/* floor(24300 / 97.2) would say 250: Python says 249. */
		{ 24.3, 72, 249 },      { 0, 72, 0 },           { 50, 1200, 30 },
		{ 10, 700, 10 },        { 5, 700, 5 },
	};
	return cr_make_param_array(struct power_case, rows, sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct power_case *c, placement, power_gpus)
{
	/* Exact on purpose: a count off by one flips a gate. */
	cr_assert(eq(dbl, placement_power_gpus(c->kw, c->watts, 1.35), c->want));
}

Test(placement, power_gpus_saturates)
{
	cr_assert(eq(dbl, placement_power_gpus(1e15, 5e-324, 1.35),
		     4611686018427387904.0));
	cr_assert(isfinite(placement_power_gpus(1e308, 1e-300, 1.35)));
}

/* ---- haversine: the registry's city pairs (spec 10.1) --------------------- */

struct pair_case {
	double lat1, lon1, lat2, lon2, km;
};

ParameterizedTestParameters(placement, haversine)
{
	static struct pair_case rows[] = {
		{ 40.7128, -74.0060, 40.7895, -74.0565, 9.530682766303487 },
		{ 40.7128, -74.0060, 40.7357, -74.1724, 14.251867627915795 },
		{ 37.7749, -122.4194, 37.3541, -121.9552, 62.1562090035446 },
		{ 40.7128, -74.0060, 39.0438, -77.4874, 350.23508353923137 },
		{ 51.5074, -0.1278, 48.8566, 2.3522, 343.55653488088313 },
		{ 50.1109, 8.6821, 52.3676, 4.9041, 363.4221603239797 },
		{ 35.6762, 139.6503, 34.6937, 135.5023, 392.441772014508 },
		{ 32.7767, -96.7970, 29.7604, -95.3698, 361.77646429285386 },
		{ 40.7128, -74.0060, 37.7749, -122.4194, 4129.091868394031 },
	};
	return cr_make_param_array(struct pair_case, rows, sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct pair_case *c, placement, haversine)
{
	double got = placement_haversine_km(c->lat1, c->lon1, c->lat2, c->lon2,
					    PLACEMENT_EARTH_R_KM);
	double back = placement_haversine_km(c->lat2, c->lon2, c->lat1, c->lon1,
					     PLACEMENT_EARTH_R_KM);

	cr_assert_leq(fabs(got - c->km), 1e-9 * c->km);
	cr_assert_leq(fabs(back - got), 1e-9 * c->km);
	cr_assert(eq(dbl, placement_haversine_km(c->lat1, c->lon1, c->lat1, c->lon1,
						 PLACEMENT_EARTH_R_KM), 0.0));
}

/* ---- the synthetic fleet: random.Random(0), spec 10.1 check data ------------ */

struct synth_case {
	long index;
	int draws[PLACEMENT_SYNTH_DRAWS];
};

ParameterizedTestParameters(placement, synthetic)
{
	/* Indices into the choice lists of spec 10.1, draw order. */
	static struct synth_case rows[] = {
		/* pod, 100.0, 0.0, 4, 1400.0, mixed, 25.0, false, R1 */
		{ 0, { 1, 3, 0, 2, 4, 1, 3, 0, 1 } },
		/* pod, 20.0, 2.0, 64, 75.0, mixed, 0.1, false, R2 */
		{ 1, { 1, 2, 1, 4, 1, 1, 1, 0, 2 } },
		/* pod, 150.0, 2.0, 4, 72.0, central, 0.0, false, R2 */
		{ 2, { 1, 4, 1, 2, 0, 2, 0, 0, 2 } },
		/* large, inf, 5.0, 512, 700.0, local, 0.1, false, R0 */
		{ 199, { 2, 5, 2, 5, 3, 0, 1, 0, 0 } },
	};
	return cr_make_param_array(struct synth_case, rows, sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct synth_case *c, placement, synthetic)
{
	int got[PLACEMENT_SYNTH_DRAWS];

	placement_synthetic_workload(0, c->index, got);
	cr_assert_arr_eq(got, c->draws, sizeof got);
}

Test(placement, synthetic_counts)
{
	int d[PLACEMENT_SYNTH_DRAWS], coll[3] = { 0 }, cls[3] = { 0 }, sov = 0;
	static const long gpus[] = { 1, 2, 4, 8, 64, 512, 16384 };
	long i, gsum = 0;

	for (i = 0; i < 200; i++) {
		placement_synthetic_workload(0, i, d);
		coll[d[0]]++;
		cls[d[8]]++;
		sov += d[7];
		gsum += gpus[d[3]];
	}
	cr_assert_eq(coll[0], 68);
	cr_assert_eq(coll[1], 63);
	cr_assert_eq(coll[2], 69);
	cr_assert_eq(cls[0], 64);
	cr_assert_eq(cls[1], 66);
	cr_assert_eq(cls[2], 70);
	cr_assert_eq(sov, 51);
	cr_assert_eq(gsum, 411068);
}

/* ---- descriptors ------------------------------------------------------------ */

Test(placement, descriptors)
{
	const struct model *m = model_find("placement.one_way_us");

	cr_assert_not_null(m);
	cr_assert_eq(m->nargs, 2);
	cr_assert_str_eq(m->args[1].name, "us_per_km");
	cr_assert(eq(dbl, m->args[1].dflt, 4.9));
	cr_assert_not_null(model_find("placement.synthetic_workload"));
	cr_assert_eq(model_find("placement.synthetic_workload")->nout, 9);
	m = model_find("placement.sync_step_efficiency");
	cr_assert_not_null(m);
	cr_assert_eq(m->nargs, 7);
}
