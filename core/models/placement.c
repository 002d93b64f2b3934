/*
 * placement.c: the placement pack's physics (spec/placement.md 7.2, 7.3, 8)
 * and their model descriptors. Each function evaluates its expression in
 * exactly the order and parenthesisation the spec writes, with
 * -ffp-contract=off, so every figure is bit-identical to the published
 * tool's Python arithmetic. Argument domains are the descriptors' business
 * (core/lua/l_models.c checks them before eval runs); nothing here reads
 * Lua, files or globals.
 */
#include "core/models/placement.h"

#include <math.h>
#include <stddef.h>

#include "core/models/model.h"
#include "core/models/mt19937.h"

/* Domain bounds of the latency domains, one-way km (spec/placement.md 7.1
 * DOMAINS); the last is open. */
#define PLACEMENT_INTRA_RACK_KM 0.002
#define PLACEMENT_INTRA_POD_KM 0.1
#define PLACEMENT_METRO_KM 40.0
#define PLACEMENT_METRO_KM_10 10.0
#define PLACEMENT_METRO_KM_60 60.0

/* 2^62: where power_gpus saturates. */
#define PLACEMENT_POWER_GPUS_MAX 4611686018427387904.0

double placement_one_way_us(double km, double us_per_km)
{
	return km * us_per_km;
}

double placement_rtt_ms(double km, double us_per_km, unsigned variant)
{
	if (variant & PLACEMENT_V_RTT_ONE_WAY)
		return placement_one_way_us(km, us_per_km) / 1000.0;
	return (2.0 * placement_one_way_us(km, us_per_km)) / 1000.0;
}

double placement_bdp_mb(double rate_gbps, double km, double us_per_km,
			unsigned variant)
{
	double delay_s = placement_one_way_us(km, us_per_km) * 1e-6;

	if (variant & PLACEMENT_V_BDP_RTT)
		delay_s = (2.0 * placement_one_way_us(km, us_per_km)) * 1e-6;
	return (((rate_gbps * 1e9) * delay_s) / 8.0) / 1e6;
}

double placement_pfc_headroom_mb(double rate_gbps, double km, double mult,
				 unsigned variant)
{
	return mult * placement_bdp_mb(rate_gbps, km, PLACEMENT_FIBER_US_PER_KM,
				       variant);
}

double placement_pfc_max_lossless_km(double rate_gbps, double headroom_mb,
				     double mult)
{
	double one_way_s = ((headroom_mb * 1e6) * 8.0) / ((mult * rate_gbps) * 1e9);

	return (one_way_s * 1e6) / PLACEMENT_FIBER_US_PER_KM;
}

double placement_ib_credit_max_km(double rate_gbps, double vl_buffer_kb,
				  unsigned variant)
{
	double rtt_s = ((vl_buffer_kb * 1024) * 8.0) / (rate_gbps * 1e9);

	if (variant & PLACEMENT_V_IB_ONE_WAY)
		return (rtt_s * 1e6) / PLACEMENT_FIBER_US_PER_KM;
	return (rtt_s * 1e6) / (2.0 * PLACEMENT_FIBER_US_PER_KM);
}

double placement_ring_allreduce_ms(double n_ranks, double payload_gb,
				   double bw_gbps, double one_way_latency_us)
{
	double bw_s, lat_s;

	if (n_ranks < 2)
		return 0.0;
	bw_s = ((2.0 * (n_ranks - 1)) / n_ranks) * ((payload_gb * 8.0) / bw_gbps);
	lat_s = ((2.0 * (n_ranks - 1)) * one_way_latency_us) * 1e-6;
	return (bw_s + lat_s) * 1000.0;
}

double placement_sync_step_efficiency(double n_ranks, double payload_gb,
				      double inter_site_gbps, double compute_ms,
				      double distance_km, double overlap_fraction,
				      double us_per_km)
{
	double ow = placement_one_way_us(distance_km, us_per_km);
	double bw = placement_ring_allreduce_ms(n_ranks, payload_gb,
						inter_site_gbps, 0.0);
	double lat = placement_ring_allreduce_ms(n_ranks, payload_gb,
						 inter_site_gbps, ow) - bw;
	double cover = compute_ms * overlap_fraction;
	/* Python's min() returns the first argument when the two are equal. */
	double hidden = cover < bw ? cover : bw;
	double exposed = (bw - hidden) + lat;

	return compute_ms / (compute_ms + exposed);
}

enum placement_domain placement_latency_domain(double km, unsigned variant)
{
	double metro = PLACEMENT_METRO_KM;

	if (variant & PLACEMENT_V_METRO_10KM)
		metro = PLACEMENT_METRO_KM_10;
	if (variant & PLACEMENT_V_METRO_60KM)
		metro = PLACEMENT_METRO_KM_60;
	if (PLACEMENT_INTRA_RACK_KM >= km)
		return PLACEMENT_INTRA_RACK;
	if (PLACEMENT_INTRA_POD_KM >= km)
		return PLACEMENT_INTRA_POD;
	if (metro >= km)
		return PLACEMENT_METRO;
	return PLACEMENT_REGIONAL;
}

int placement_collectives_allowed(double km, unsigned variant)
{
	return placement_latency_domain(km, variant) != PLACEMENT_REGIONAL;
}

double placement_power_gpus(double ai_power_kw, double gpu_watts,
			    double overhead)
{
	double a = ai_power_kw * 1000.0;
	double b = gpu_watts * overhead;
	double mod, div, q;

	if (!isfinite(a) || !(b > 0.0))
		return PLACEMENT_POWER_GPUS_MAX;
	/* CPython float_floor_div: with a >= 0 and b > 0 the sign
	 * corrections never apply. */
	mod = fmod(a, b);
	div = (a - mod) / b;
	if (!isfinite(div) || div >= PLACEMENT_POWER_GPUS_MAX)
		return PLACEMENT_POWER_GPUS_MAX;
	if (div == 0.0)
		return 0.0;
	q = floor(div);
	if (div - q > 0.5)
		q += 1.0;
	return q;
}

double placement_haversine_km(double lat1, double lon1, double lat2,
			      double lon2, double radius_km)
{
	double rad = M_PI / 180;
	double p1 = lat1 * rad, p2 = lat2 * rad;
	double dp = p2 - p1;
	double dl = (lon2 - lon1) * rad;
	double s1 = sin(dp / 2), s2 = sin(dl / 2);
	double h = s1 * s1 + (cos(p1) * cos(p2)) * (s2 * s2);

	return (2 * radius_km) * asin(sqrt(h));
}

/* ---- descriptors ----------------------------------------------------------- */

/* Map a model's own switch bits (index into its switch list) onto the
 * PLACEMENT_V_* bits named by 'bits'. */
static unsigned switch_bits(unsigned variant, const unsigned *bits, size_t n)
{
	unsigned v = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (variant & (1u << i))
			v |= bits[i];
	return v;
}

static const char *const sw_rtt[] = { "rtt_one_way" };
static const unsigned bits_rtt[] = { PLACEMENT_V_RTT_ONE_WAY };
static const char *const sw_bdp[] = { "bdp_rtt" };
static const unsigned bits_bdp[] = { PLACEMENT_V_BDP_RTT };
static const char *const sw_ib[] = { "ib_one_way" };
static const unsigned bits_ib[] = { PLACEMENT_V_IB_ONE_WAY };
static const char *const sw_metro[] = { "metro_10km", "metro_60km" };
static const unsigned bits_metro[] = { PLACEMENT_V_METRO_10KM,
				       PLACEMENT_V_METRO_60KM };

#define NSW(a) (sizeof(a) / sizeof((a)[0]))

/* Argument rows. lo/hi NAN = open side. */
#define ARG_KM { "km", "km", 0, NAN, NAN, 0 }
#define ARG_US_PER_KM { "us_per_km", "us/km", 0, NAN, PLACEMENT_FIBER_US_PER_KM, MODEL_ARG_LO_OPEN }
#define ARG_RATE { "rate_gbps", "Gbps", 0, NAN, NAN, MODEL_ARG_LO_OPEN }
#define ARG_MULT { "mult", "x BDP", 0, NAN, PLACEMENT_PFC_MULT, MODEL_ARG_LO_OPEN }
#define ARG_N_RANKS { "n_ranks", "ranks", 1, NAN, NAN, MODEL_ARG_INTEGER }
#define ARG_PAYLOAD { "payload_gb", "GB", 0, NAN, NAN, 0 }
#define ARG_LAT { "lat1", "degrees", -90, 90, NAN, 0 }
#define ARG_LON { "lon1", "degrees", -180, 180, NAN, 0 }

static int eval_one_way_us(const double *in, double *out, unsigned variant,
			   struct diag *err)
{
	(void)variant;
	(void)err;
	out[0] = placement_one_way_us(in[0], in[1]);
	return 0;
}

static int eval_rtt_ms(const double *in, double *out, unsigned variant,
		       struct diag *err)
{
	(void)err;
	out[0] = placement_rtt_ms(in[0], in[1],
				  switch_bits(variant, bits_rtt, NSW(bits_rtt)));
	return 0;
}

static int eval_bdp_mb(const double *in, double *out, unsigned variant,
		       struct diag *err)
{
	(void)err;
	out[0] = placement_bdp_mb(in[0], in[1], in[2],
				  switch_bits(variant, bits_bdp, NSW(bits_bdp)));
	return 0;
}

static int eval_pfc_headroom_mb(const double *in, double *out,
				unsigned variant, struct diag *err)
{
	(void)err;
	out[0] = placement_pfc_headroom_mb(in[0], in[1], in[2],
					   switch_bits(variant, bits_bdp,
						       NSW(bits_bdp)));
	return 0;
}

static int eval_pfc_max_lossless_km(const double *in, double *out,
				    unsigned variant, struct diag *err)
{
	(void)variant;
	(void)err;
	out[0] = placement_pfc_max_lossless_km(in[0], in[1], in[2]);
	return 0;
}

static int eval_ib_credit_max_km(const double *in, double *out,
				 unsigned variant, struct diag *err)
{
	(void)err;
	out[0] = placement_ib_credit_max_km(in[0], in[1],
					    switch_bits(variant, bits_ib,
							NSW(bits_ib)));
	return 0;
}

static int eval_ring_allreduce_ms(const double *in, double *out,
				  unsigned variant, struct diag *err)
{
	(void)variant;
	(void)err;
	out[0] = placement_ring_allreduce_ms(in[0], in[1], in[2], in[3]);
	return 0;
}

static int eval_sync_step_efficiency(const double *in, double *out,
				     unsigned variant, struct diag *err)
{
	(void)variant;
	(void)err;
	out[0] = placement_sync_step_efficiency(in[0], in[1], in[2], in[3],
						in[4], in[5], in[6]);
	return 0;
}

static int eval_latency_domain(const double *in, double *out,
			       unsigned variant, struct diag *err)
{
	(void)err;
	out[0] = (double)placement_latency_domain(
		in[0], switch_bits(variant, bits_metro, NSW(bits_metro)));
	return 0;
}

static int eval_collectives_allowed(const double *in, double *out,
				    unsigned variant, struct diag *err)
{
	(void)err;
	out[0] = placement_collectives_allowed(
			 in[0], switch_bits(variant, bits_metro, NSW(bits_metro)))
			 ? 1.0
			 : 0.0;
	return 0;
}

static int eval_power_gpus(const double *in, double *out, unsigned variant,
			   struct diag *err)
{
	(void)variant;
	(void)err;
	out[0] = placement_power_gpus(in[0], in[1], in[2]);
	return 0;
}

static int eval_haversine_km(const double *in, double *out, unsigned variant,
			     struct diag *err)
{
	(void)variant;
	(void)err;
	out[0] = placement_haversine_km(in[0], in[1], in[2], in[3], in[4]);
	return 0;
}

static const struct model_arg args_one_way[] = { ARG_KM, ARG_US_PER_KM };

const struct model model_placement_one_way_us = {
	"placement.one_way_us", "one-way fiber propagation delay, us",
	args_one_way, 2, "us", NULL, 1, NULL, 0, eval_one_way_us, NULL
};

const struct model model_placement_rtt_ms = {
	"placement.rtt_ms", "round-trip fiber propagation delay, ms",
	args_one_way, 2, "ms", NULL, 1, sw_rtt, NSW(sw_rtt), eval_rtt_ms, NULL
};

static const struct model_arg args_bdp[] = { ARG_RATE, ARG_KM, ARG_US_PER_KM };

const struct model model_placement_bdp_mb = {
	"placement.bdp_mb", "one-way bandwidth-delay product, MB",
	args_bdp, 3, "MB", NULL, 1, sw_bdp, NSW(sw_bdp), eval_bdp_mb, NULL
};

static const struct model_arg args_pfc[] = { ARG_RATE, ARG_KM, ARG_MULT };

const struct model model_placement_pfc_headroom_mb = {
	"placement.pfc_headroom_mb",
	"PFC headroom per port for a lossless link (mult x one-way BDP), MB",
	args_pfc, 3, "MB per port", NULL, 1, sw_bdp, NSW(sw_bdp),
	eval_pfc_headroom_mb, NULL
};

static const struct model_arg args_lossless[] = {
	ARG_RATE,
	{ "headroom_mb", "MB", 0, NAN, NAN, MODEL_ARG_LO_OPEN },
	ARG_MULT,
};

const struct model model_placement_pfc_max_lossless_km = {
	"placement.pfc_max_lossless_km",
	"longest lossless reach a port buffer covers, km",
	args_lossless, 3, "km", NULL, 1, NULL, 0, eval_pfc_max_lossless_km, NULL
};

static const struct model_arg args_ib[] = {
	ARG_RATE,
	{ "vl_buffer_kb", "KB per VL", 0, NAN, PLACEMENT_IB_VL_BUFFER_KB,
	  MODEL_ARG_LO_OPEN },
};

const struct model model_placement_ib_credit_max_km = {
	"placement.ib_credit_max_km",
	"reach of InfiniBand credit flow control, km",
	args_ib, 2, "km", NULL, 1, sw_ib, NSW(sw_ib), eval_ib_credit_max_km, NULL
};

static const struct model_arg args_ring[] = {
	ARG_N_RANKS, ARG_PAYLOAD,
	{ "bw_gbps", "Gbps", 0, NAN, NAN, MODEL_ARG_LO_OPEN },
	{ "one_way_latency_us", "us", 0, NAN, NAN, 0 },
};

const struct model model_placement_ring_allreduce_ms = {
	"placement.ring_allreduce_ms", "ring all-reduce time (alpha-beta), ms",
	args_ring, 4, "ms", NULL, 1, NULL, 0, eval_ring_allreduce_ms, NULL
};

static const struct model_arg args_sync[] = {
	ARG_N_RANKS, ARG_PAYLOAD,
	{ "inter_site_gbps", "Gbps", 0, NAN, NAN, MODEL_ARG_LO_OPEN },
	{ "compute_ms", "ms", 0, NAN, NAN, MODEL_ARG_LO_OPEN },
	{ "distance_km", "km", 0, NAN, NAN, 0 },
	{ "overlap_fraction", "fraction", 0, 1, 1.0, 0 },
	ARG_US_PER_KM,
};

const struct model model_placement_sync_step_efficiency = {
	"placement.sync_step_efficiency",
	"share of a synchronous step spent computing across a distance, fraction",
	args_sync, 7, "fraction", NULL, 1, NULL, 0, eval_sync_step_efficiency,
	NULL
};

static const struct model_arg args_km_only[] = { ARG_KM };

const struct model model_placement_latency_domain = {
	"placement.latency_domain",
	"latency domain index 0-3 (intra-rack, intra-pod, metro, regional+)",
	args_km_only, 1, "domain", NULL, 1, sw_metro, NSW(sw_metro),
	eval_latency_domain, NULL
};

const struct model model_placement_collectives_allowed = {
	"placement.collectives_allowed",
	"1 when RDMA collectives are engineerable at that distance, else 0",
	args_km_only, 1, "boolean", NULL, 1, sw_metro, NSW(sw_metro),
	eval_collectives_allowed, NULL
};

static const struct model_arg args_power[] = {
	{ "ai_power_kw", "kW", 0, NAN, NAN, 0 },
	{ "gpu_watts", "W", 0, NAN, NAN, MODEL_ARG_LO_OPEN },
	{ "overhead", "x TDP", 0, NAN, PLACEMENT_POWER_OVERHEAD, MODEL_ARG_LO_OPEN },
};

const struct model model_placement_power_gpus = {
	"placement.power_gpus",
	"GPUs a site's AI power feeds (Python float floor division), integer",
	args_power, 3, "GPUs", NULL, 1, NULL, 0, eval_power_gpus, NULL
};

static const struct model_arg args_haversine[] = {
	ARG_LAT, ARG_LON,
	{ "lat2", "degrees", -90, 90, NAN, 0 },
	{ "lon2", "degrees", -180, 180, NAN, 0 },
	{ "radius_km", "km", 0, NAN, PLACEMENT_EARTH_R_KM, MODEL_ARG_LO_OPEN },
};

const struct model model_placement_haversine_km = {
	"placement.haversine_km", "great-circle distance, km",
	args_haversine, 5, "km", NULL, 1, NULL, 0, eval_haversine_km, NULL
};

/* ---- the registry's synthetic fleet (spec/placement.md 10.1) ------------- */

/* The sizes of the eight choice draws, in draw order; the eighth draw
 * (sovereign) is random() < 0.25 instead of a choice. */
static const uint64_t synth_sizes[PLACEMENT_SYNTH_DRAWS] = { 3, 6, 4, 7, 5,
							     3, 4, 0, 3 };
#define PLACEMENT_SYNTH_SOVEREIGN 7
#define PLACEMENT_SYNTH_SOVEREIGN_P 0.25

static void synth_draw(struct mt19937 *m, int out[PLACEMENT_SYNTH_DRAWS])
{
	size_t k;

	for (k = 0; k < PLACEMENT_SYNTH_DRAWS; k++) {
		if (k == PLACEMENT_SYNTH_SOVEREIGN)
			out[k] = mt19937_random(m) < PLACEMENT_SYNTH_SOVEREIGN_P;
		else
			out[k] = (int)mt19937_randbelow(m, synth_sizes[k]);
	}
}

void placement_synthetic_workload(int64_t seed, long index,
				  int out[PLACEMENT_SYNTH_DRAWS])
{
	struct mt19937 m;
	long i;

	mt19937_seed_int64(&m, seed);
	for (i = 0; i <= index; i++)
		synth_draw(&m, out);
}

static const char *const synth_outs[PLACEMENT_SYNTH_DRAWS] = {
	"collective", "latency_sla_ms", "access_rtt_ms", "gpus", "gpu_watts",
	"data_gravity", "ingest_gbps", "sovereign", "resilience_class",
};

static int eval_synthetic_workload(const double *in, double *out,
				   unsigned variant, struct diag *err)
{
	int draws[PLACEMENT_SYNTH_DRAWS] = { 0 };
	size_t k;

	(void)variant;
	(void)err;
	placement_synthetic_workload((int64_t)in[0], (long)in[1], draws);
	for (k = 0; k < PLACEMENT_SYNTH_DRAWS; k++)
		out[k] = draws[k];
	return 0;
}

static const struct model_arg args_synth[] = {
	{ "seed", "seed", 0, 9007199254740992.0, NAN, MODEL_ARG_INTEGER },
	{ "index", "workload", 0, PLACEMENT_SYNTH_MAX_INDEX, NAN,
	  MODEL_ARG_INTEGER },
};

const struct model model_placement_synthetic_workload = {
	"placement.synthetic_workload",
	"choice indices of one synthetic validation workload (CPython MT19937), indices",
	args_synth, 2, "choice index", synth_outs, PLACEMENT_SYNTH_DRAWS, NULL, 0,
	eval_synthetic_workload, NULL
};
