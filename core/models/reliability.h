/*
 * reliability.h: the reliability pack's model (spec/reliability.md 5):
 * the latent fault timeline drawn with the NumPy-compatible generator,
 * the four fixed-width recovery policies and elastic shrink on one shared
 * timeline, the 11-key metrics, exact seed means, the Young / Daly
 * checkpoint optimum and legal-shape loss. Pure C: numbers in, numbers
 * out. Inputs are assumed validated by the caller (the Lua converter in
 * core/lua/l_model_reliability.c checks every field first); the model
 * still refuses what it cannot finish (a timeline over REL_MAX_EVENTS).
 */
#ifndef INFRAGATE_MODELS_RELIABILITY_H
#define INFRAGATE_MODELS_RELIABILITY_H

#include <stddef.h>
#include <stdint.h>

#include "core/util/diag.h"

#define REL_GPUS_PER_NODE 8

/* The hard cap on events kept by one timeline: far above the 2,000,000
 * expected events the pack allows (5.10), so only a broken caller hits it. */
#define REL_MAX_EVENTS 4000000u

/* Formula switches of validation mutations (spec/core.md 11.2). */
#define REL_V_FULL_INTERVAL_LOSS 0x1u /* lost work = the whole interval */

enum rel_policy {
	REL_MANUAL,
	REL_AUTO_RESTART,
	REL_AUTO_SPARES,
	REL_AUTO_SPARES_CKPT,
	REL_ELASTIC,
	REL_NPOLICIES
};

extern const char *const rel_policy_names[REL_NPOLICIES];

/* The reliability-config document (3.1), resolved. */
struct rel_config {
	int64_t nodes;
	double horizon_h;
	uint64_t seed;
	double dollars_per_gpu_h;
	double single_rate_per_node_h;
	double burst_rate_per_h;
	int64_t burst_blast;
	double detect_h, reload_h, repair_h, requal_h, operator_h, reshard_h;
	double ckpt_interval_h, ckpt_write_h;
	double ckpt_overlap_interval_h, ckpt_overlap_write_h;
	int64_t spare_nodes;
	int64_t legal_shape_nodes;
};

struct rel_event {
	double t;
	int64_t n; /* nodes lost */
};

/* A timeline owns its events (malloc); rel_timeline_free releases them. */
struct rel_timeline {
	struct rel_event *ev;
	size_t count, cap;
};

/* The 11-key result (4), fields already rounded as the spec prints them. */
struct rel_result {
	enum rel_policy policy;
	uint64_t seed;
	double ettr, availability, mttf_h, mttr_h;
	int64_t interruptions;
	double reserved_spare_gpu_h, productive_gpu_h, waste_gpu_h, waste_dollars;
};

/* The numeric fields of a result, in 4's order (for sweeps and means). */
#define REL_NFIELDS 9
extern const char *const rel_field_names[REL_NFIELDS];
double rel_result_field(const struct rel_result *r, size_t field);

/* Exact seed means of every numeric field, plus the latent event count. */
struct rel_means {
	double field[REL_NFIELDS];
	double events;
};

/* 5.2: the single-node rate after the burst budget is taken off. */
double rel_single_rate(const struct rel_config *c);

/* 5.2: draw the timeline of c->seed (fresh generator). 0, or -1 with err
 * set (out of memory, or more than REL_MAX_EVENTS events). */
int rel_timeline_build(const struct rel_config *c, struct rel_timeline *tl,
		       struct diag *err);
void rel_timeline_free(struct rel_timeline *tl);

/* 5.3-5.6: one policy on a timeline. 0, or -1 with err set (out of
 * memory, or the uptime + downtime invariant broken: an internal error). */
int rel_simulate(const struct rel_config *c, enum rel_policy p,
		 const struct rel_timeline *tl, unsigned variant,
		 struct rel_result *out, struct diag *err);

/* 5.9: the policies set in 'mask' (bit p) over seeds 0..nseeds-1, each
 * seed on its own fresh timeline shared by those policies; out[p] gets
 * the exact means. c->seed is ignored. */
int rel_seed_means(const struct rel_config *c, unsigned mask, uint64_t nseeds,
		   unsigned variant, struct rel_means out[REL_NPOLICIES],
		   struct diag *err);

/* 5.5: ceil(d / g) * g nodes, 0 when d <= 0 (g >= 1). */
int64_t rel_legal_loss(int64_t d, int64_t g);

/* 5.7: the checkpoint figures of write stall w > 0, MTBF m > 0, restart
 * r >= 0 and interval c > 0. */
struct rel_checkpoint {
	double young_h, daly_h, young_daly_mr_h, ratio_to_young;
	double overhead, optimal_overhead, overhead_excess;
};
void rel_checkpoint(double w, double m, double r, double c,
		    struct rel_checkpoint *out);

/* Python's round(x, n) on the exact binary value, -0.0 folded to 0.0. */
double rel_round(double x, int n);

#endif
