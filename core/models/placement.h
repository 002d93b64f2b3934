/*
 * placement.h: the numeric models of the placement pack (spec/placement.md
 * 7.2, 7.3, 8): WAN physics (fiber propagation, bandwidth-delay product,
 * PFC headroom, InfiniBand credit reach, ring all-reduce, synchronous step
 * efficiency, latency domains), CPython's float floor division for the
 * power gate's GPU count, the great-circle distance of the validation
 * registry, and the synthetic workload draws of its 200-workload fleet
 * (spec/placement.md 10.1). Pure functions of numbers: no Lua, no I/O, no
 * globals. Every expression is evaluated in the order the spec writes it,
 * so the figures are bit-identical to the published tool's.
 *
 * The gate cascade, placement and fleet arithmetic live in
 * rules/placement/ (Lua) and call these through models.placement.*.
 */
#ifndef INFRAGATE_MODELS_PLACEMENT_H
#define INFRAGATE_MODELS_PLACEMENT_H

#include <stdint.h>

/* The constants of spec/placement.md 7.1 that the C side needs. The pack's
 * Lua constants table passes the gate-facing ones explicitly, so a
 * validation mutation can change them; these are the models' defaults and
 * the fixed 4.9 of the buffer models. */
#define PLACEMENT_FIBER_US_PER_KM 4.9
#define PLACEMENT_PFC_MULT 2.0
#define PLACEMENT_IB_VL_BUFFER_KB 128.0
#define PLACEMENT_POWER_OVERHEAD 1.35
#define PLACEMENT_EARTH_R_KM 6371.0088

/* Latency domains, edge first (spec/placement.md 7.1 DOMAINS). */
enum placement_domain {
	PLACEMENT_INTRA_RACK,
	PLACEMENT_INTRA_POD,
	PLACEMENT_METRO,
	PLACEMENT_REGIONAL,
	PLACEMENT_NDOMAINS
};

/* Formula switches a validation mutation may turn on (spec/placement.md
 * 10.4). The named model descriptors map their `variant` names onto these. */
#define PLACEMENT_V_RTT_ONE_WAY 0x1u /* rtt_ms drops the factor 2 */
#define PLACEMENT_V_BDP_RTT 0x2u     /* bdp_mb uses the round trip */
#define PLACEMENT_V_IB_ONE_WAY 0x4u  /* IB credit loop divides by 4.9 */
#define PLACEMENT_V_METRO_10KM 0x8u  /* metro domain bound 40 -> 10 km */
#define PLACEMENT_V_METRO_60KM 0x10u /* metro domain bound 40 -> 60 km */

/* km x us_per_km: one-way propagation in microseconds. */
double placement_one_way_us(double km, double us_per_km);

/* (2 x one-way us) / 1000: round trip in milliseconds (one way with
 * PLACEMENT_V_RTT_ONE_WAY). */
double placement_rtt_ms(double km, double us_per_km, unsigned variant);

/* One-way bandwidth-delay product in MB (the round trip with
 * PLACEMENT_V_BDP_RTT). */
double placement_bdp_mb(double rate_gbps, double km, double us_per_km,
			unsigned variant);

/* mult x bdp_mb(rate, km) at 4.9 us/km: PFC headroom per port, MB. */
double placement_pfc_headroom_mb(double rate_gbps, double km, double mult,
				 unsigned variant);

/* The longest lossless reach, km, that 'headroom_mb' of buffer covers at
 * 'rate_gbps' (always at 4.9 us/km). */
double placement_pfc_max_lossless_km(double rate_gbps, double headroom_mb,
				     double mult);

/* The reach, km, of InfiniBand credit flow control with 'vl_buffer_kb' per
 * virtual lane (the round trip must fit the credits). */
double placement_ib_credit_max_km(double rate_gbps, double vl_buffer_kb,
				  unsigned variant);

/* Ring all-reduce time, ms (alpha-beta model); 0 for fewer than 2 ranks. */
double placement_ring_allreduce_ms(double n_ranks, double payload_gb,
				   double bw_gbps, double one_way_latency_us);

/* compute / (compute + exposed communication) of one synchronous step
 * across 'distance_km': only the bandwidth term can hide behind compute. */
double placement_sync_step_efficiency(double n_ranks, double payload_gb,
				      double inter_site_gbps, double compute_ms,
				      double distance_km, double overlap_fraction,
				      double us_per_km);

/* The first domain whose bound (0.002, 0.1, 40, inf km; the metro bound
 * moved by the METRO switches) is >= km. */
enum placement_domain placement_latency_domain(double km, unsigned variant);

/* Whether RDMA collectives are engineerable at 'km' (intra-rack, intra-pod
 * or metro). */
int placement_collectives_allowed(double km, unsigned variant);

/* CPython's (ai_power_kw x 1000) // (gpu_watts x overhead) for a >= 0,
 * b > 0, as an integer-valued double; saturates at 2^62 when the quotient
 * overflows (no count that large is ever compared with anything but a GPU
 * count of at most 10^9). */
double placement_power_gpus(double ai_power_kw, double gpu_watts,
			    double overhead);

/* Great-circle distance, km, by the haversine formula. */
double placement_haversine_km(double lat1, double lon1, double lat2,
			      double lon2, double radius_km);

/* The nine draws of synthetic workload 'index' (0-based) of the validation
 * fleet drawn from random.Random(seed), as choice indices in the draw
 * order of spec/placement.md 10.1 (collective, latency_sla_ms,
 * access_rtt_ms, gpus, gpu_watts, data_gravity, ingest_gbps, sovereign as
 * 0/1, resilience_class). Replays the stream from the seed each call. */
#define PLACEMENT_SYNTH_DRAWS 9
#define PLACEMENT_SYNTH_MAX_INDEX 100000
void placement_synthetic_workload(int64_t seed, long index,
				  int out[PLACEMENT_SYNTH_DRAWS]);

#endif
