/*
 * network.h: the capacity model of the network pack (spec/network.md 5):
 * collective costs per fabric tier, the group layout, the healthy step,
 * reliability (analytical and Monte Carlo), the four-fate ledger, rescale,
 * the scaling curve, substitution-equivalent accelerators (SEA), Shapley
 * attribution, the decision map, and the scale-across cells (atlas, stitch,
 * exposed bytes). Pure functions of numbers: no Lua, no I/O, no globals.
 * Every expression is evaluated in the order the spec writes it, so the
 * figures match the reference model to the last bit (spec 10).
 *
 * A scenario is a flat array of doubles, one per field of spec 3.1 (the
 * X-macro NW_FIELDS below): ints, enums (as their index) and booleans are
 * stored exactly, so overrides and multipliers are generic. The Lua
 * converter (core/lua/l_model_network.c) fills it from the pack's tables
 * and checks every field with nw_check() before a model runs.
 */
#ifndef INFRAGATE_MODELS_NETWORK_H
#define INFRAGATE_MODELS_NETWORK_H

#include <stddef.h>
#include <stdint.h>

enum nw_type { NW_INT, NW_NUM, NW_ENUM, NW_BOOL };

#define NW_REQ 0x1u      /* no default: the document must give it */
#define NW_LO_OPEN 0x2u  /* lo is exclusive */
#define NW_NULLABLE 0x4u /* null allowed (NAN in the array) */

/* X(id, section, name, type, default, lo, hi, flags, choices).
 * Section "" is the top level. Enums keep their choices in nw_choice_*. */
#define NW_FIELDS(X)                                                                      \
	X(N_LAYERS, "model", "n_layers", NW_INT, 0, 1, 1e5, NW_REQ, NULL)                   \
	X(HIDDEN, "model", "hidden", NW_INT, 0, 1, 1e7, NW_REQ, NULL)                       \
	X(N_PARAMS, "model", "n_params", NW_NUM, 0, 0, 1e15, NW_REQ | NW_LO_OPEN, NULL)     \
	X(SEQ_LEN, "model", "seq_len", NW_INT, 0, 1, 1e8, NW_REQ, NULL)                     \
	X(VOCAB, "model", "vocab", NW_INT, 0, 1, 1e8, NW_REQ, NULL)                         \
	X(N_HEADS, "model", "n_heads", NW_INT, 0, 0, 1e6, 0, NULL)                          \
	X(N_KV_HEADS, "model", "n_kv_heads", NW_INT, 0, 0, 1e6, 0, NULL)                    \
	X(FFN, "model", "ffn_multiplier", NW_NUM, 4.0, 0, 1000, NW_LO_OPEN, NULL)           \
	X(PEAK, "accelerator", "peak_flops_bf16", NW_NUM, 0, 0, 1e20, NW_REQ | NW_LO_OPEN, NULL) \
	X(MEMORY_GB, "accelerator", "memory_gb", NW_NUM, 0, 0, 1e6, NW_REQ | NW_LO_OPEN, NULL) \
	X(SCALEUP_BW, "accelerator", "scaleup_bw_gbps", NW_NUM, 0, 0, 1e9, NW_REQ | NW_LO_OPEN, NULL) \
	X(NIC_BW, "accelerator", "nic_bw_gbps", NW_NUM, 0, 0, 1e9, NW_REQ | NW_LO_OPEN, NULL) \
	X(PER_NODE, "accelerator", "accelerators_per_node", NW_INT, 8, 1, 1024, 0, NULL)    \
	X(SCALEUP_DOMAIN, "topology", "scaleup_domain", NW_INT, 0, 1, 1e6, NW_REQ, NULL)    \
	X(POD_SIZE, "topology", "pod_size", NW_INT, 0, 1, 1e8, NW_REQ, NULL)                \
	X(OVERSUB, "topology", "oversubscription", NW_NUM, 1.0, 1, 1000, 0, NULL)           \
	X(A_SCALEUP, "topology", "alpha_scaleup_us", NW_NUM, 2.0, 0, 1e7, 0, NULL)          \
	X(A_POD, "topology", "alpha_pod_us", NW_NUM, 6.0, 0, 1e7, 0, NULL)                  \
	X(A_XPOD, "topology", "alpha_xpod_us", NW_NUM, 15.0, 0, 1e7, 0, NULL)               \
	X(NET_EFF, "topology", "net_efficiency", NW_NUM, 0.85, 0, 1, NW_LO_OPEN, NULL)      \
	X(HALLS, "topology", "halls", NW_INT, 1, 1, 64, 0, NULL)                            \
	X(A_SPAN, "topology", "alpha_span_us", NW_NUM, 0.0, 0, 1e7, 0, NULL)                \
	X(SPAN_BW, "topology", "span_bw_gbps", NW_NUM, 0.0, 0, 1e12, 0, NULL)               \
	X(SPAN_DIM, "topology", "span_dimension", NW_ENUM, 0, 0, 4, 0, nw_choice_dim)       \
	X(PLACEMENT, "topology", "span_placement", NW_ENUM, 0, 0, 1, 0, nw_choice_placement) \
	X(TP, "parallelism", "tp", NW_INT, 8, 1, 1e6, 0, NULL)                              \
	X(PP, "parallelism", "pp", NW_INT, 1, 1, 1e6, 0, NULL)                              \
	X(CP, "parallelism", "cp", NW_INT, 1, 1, 1e6, 0, NULL)                              \
	X(DP, "parallelism", "dp", NW_INT, 1, 1, 1e6, 0, NULL)                              \
	X(MICRO_BATCH, "parallelism", "micro_batch", NW_INT, 1, 1, 1e6, 0, NULL)            \
	X(GLOBAL_BATCH, "parallelism", "global_batch_seqs", NW_INT, 2048, 1, 1e9, 0, NULL)  \
	X(ZERO, "parallelism", "zero_stage", NW_INT, 1, 0, 3, 0, NULL)                      \
	X(INTERLEAVE, "parallelism", "interleave_factor", NW_INT, 1, 1, 1024, 0, NULL)      \
	X(SEQ_PAR, "parallelism", "sequence_parallel", NW_BOOL, 1, 0, 1, 0, NULL)           \
	X(RECOMPUTE, "parallelism", "recompute", NW_ENUM, 1, 0, 2, 0, nw_choice_recompute)  \
	X(O_DP, "parallelism", "overlap_dp", NW_NUM, 0.85, 0, 1, 0, NULL)                   \
	X(O_TP, "parallelism", "overlap_tp", NW_NUM, 0.10, 0, 1, 0, NULL)                   \
	X(O_PP, "parallelism", "overlap_pp", NW_NUM, 0.70, 0, 1, 0, NULL)                   \
	X(O_CP, "parallelism", "overlap_cp", NW_NUM, 0.30, 0, 1, 0, NULL)                   \
	X(GRAD_BYTES, "parallelism", "grad_bytes", NW_INT, 4, 1, 16, 0, NULL)               \
	X(ACT_BYTES, "parallelism", "act_bytes", NW_INT, 2, 1, 16, 0, NULL)                 \
	X(RATE, "reliability", "failure_rate_per_node_day", NW_NUM, 5.0e-3, 0, 100, 0, NULL) \
	X(DETECT, "reliability", "detect_time_s", NW_NUM, 120.0, 0, 1e7, 0, NULL)           \
	X(RESTART, "reliability", "restart_time_s", NW_NUM, 300.0, 0, 1e7, 0, NULL)         \
	X(INTERVAL, "reliability", "checkpoint_interval_s", NW_NUM, NAN, 0, 1e9, NW_LO_OPEN | NW_NULLABLE, NULL) \
	X(WRITE, "reliability", "checkpoint_write_s", NW_NUM, 60.0, 0, 1e7, 0, NULL)        \
	X(BLOCKING, "reliability", "checkpoint_blocking_fraction", NW_NUM, 1.0, 0, 1, 0, NULL) \
	X(REPAIR, "reliability", "repair_time_s", NW_NUM, 3600.0, 0, 1e8, 0, NULL)          \
	X(SPARE, "reliability", "spare_fraction", NW_NUM, 0.0, 0, 10, 0, NULL)              \
	X(STRANDED, "reliability", "stranded_fraction", NW_NUM, 0.0, 0, 10, 0, NULL)        \
	X(CV, "reliability", "straggler_cv", NW_NUM, 0.0, 0, 10, 0, NULL)                   \
	X(FS_PROB, "reliability", "failslow_prob_per_node", NW_NUM, 0.0, 0, 1, 0, NULL)     \
	X(FS_SLOW, "reliability", "failslow_slowdown", NW_NUM, 1.0, 1, 1000, 0, NULL)       \
	X(KERNEL_EFF, "kernel", "kernel_efficiency", NW_NUM, 0.72, 0, 1, NW_LO_OPEN, NULL)  \
	X(N_POOL, "", "n_pool", NW_INT, 0, 0, 1e8, 0, NULL)                                 \
	X(WINDOW_DAYS, "", "window_days", NW_NUM, 30.0, 0, 36500, NW_LO_OPEN, NULL)         \
	X(WEAK, "", "scaling_mode", NW_ENUM, 0, 0, 1, 0, nw_choice_scaling)                 \
	X(MAX_GBS, "", "max_global_batch_seqs", NW_INT, 8192, 1, 1e9, 0, NULL)

enum nw_field {
#define NW_X(id, sec, name, type, dflt, lo, hi, flags, ch) NW_##id,
	NW_FIELDS(NW_X)
#undef NW_X
	NW_NF
};

struct nw_field_info {
	const char *section, *name;
	enum nw_type type;
	double dflt, lo, hi;
	unsigned flags;
	const char *const *choices; /* NULL-terminated, enums only */
};

extern const char *const nw_choice_dim[];       /* none tp cp pp dp */
extern const char *const nw_choice_placement[]; /* hierarchical blind */
extern const char *const nw_choice_recompute[]; /* none selective full */
extern const char *const nw_choice_scaling[];   /* strong weak */
extern const struct nw_field_info nw_fields[NW_NF];

/* Cuts and span dimensions: none is 0 for the topology, checkpoint is ours. */
enum nw_cut { NW_CUT_NONE, NW_CUT_TP, NW_CUT_CP, NW_CUT_PP, NW_CUT_DP, NW_CUT_CHECKPOINT };

/* The formula switches of the validation mutations (spec 7), bit order =
 * nw_switches[]. No document or option can set them. */
#define NW_V_DELETE_LATENCY_EXPOSURE 0x1u
#define NW_V_ZERO_STITCH_LATENCY 0x2u
#define NW_V_CONTIGUOUS_PIPELINE 0x4u
#define NW_V_DELETE_NIC_CAP 0x8u
#define NW_V_DELETE_CONTENTION 0x10u
#define NW_V_COLLAPSE_BLIND 0x20u
#define NW_V_DELETE_SPAN_TIER 0x40u
#define NW_V_IGNORE_INTERLEAVE 0x80u
#define NW_V_RATE_PER_ACCEL 0x100u
#define NW_V_CKPT_EVERY_MINUTE 0x200u
#define NW_NSWITCHES 10
extern const char *const nw_switches[NW_NSWITCHES];

/* A bound on curve points (dp values): 17 + the 1.07 ladder to 2^40 + 1. */
#define NW_MAX_CURVE 512
#define NW_MAX_IV 64      /* interventions in one set */
#define NW_MAX_IV_KEYS 64 /* keys of one intervention */
#define NW_MAX_BUNDLE 12

struct nw_scn {
	double f[NW_NF];
};

/* Fill every field with its default (required ones 0). */
void nw_defaults(struct nw_scn *s);

/* Check one field's value against spec 3.1: 0, or -1 with 'why' written. */
int nw_check_field(enum nw_field id, double v, char *why, size_t size);

/* Check every field and the cross-field rules: 0, or -1 with *bad the
 * offending field and 'why' written. */
int nw_check(const struct nw_scn *s, enum nw_field *bad, char *why, size_t size);

/* 5.1: derive n_pool when 0. */
void nw_resolve(struct nw_scn *s);
long long nw_world(const struct nw_scn *s);
double nw_overhead(const struct nw_scn *s);
double nw_window_s(const struct nw_scn *s);

/* 5.2 */
enum nw_ring { NW_ALLREDUCE, NW_REDUCESCATTER, NW_ALLGATHER };
double nw_ring(enum nw_ring kind, double bytes, double k, double bw_Bps, double alpha_s);

/* 5.3 */
struct nw_layout {
	long long per_su, su_per_pod, pods, halls, ring;
	double contention;
};
struct nw_layout nw_layout_of(const struct nw_scn *s, enum nw_cut dim, unsigned variant);
double nw_span_share(const struct nw_scn *s, double contention, unsigned variant);
double nw_span_latency(const struct nw_scn *s, const struct nw_layout *l, int allgather,
		       unsigned variant);

/* 5.4 */
struct nw_step {
	double t_compute, exp_tp, exp_cp, exp_pp, exp_dp, bubble, sync_wait, t_step, blocked,
		efficiency;
	double raw_tp, raw_cp, raw_pp, raw_dp;
	double tokens, flops_per_token, mfu, tflops_per_gpu, param_disagreement;
	double mem_state, mem_activation, mem_total; /* GB */
};
void nw_step_of(const struct nw_scn *s, unsigned variant, struct nw_step *out);

/* 5.5, 5.6 */
struct nw_rel {
	double discarded, restart, checkpoint, run, running, unavailable, n_failures;
	double interval, mttf; /* INFINITY when failure free */
	double pressure;
};
double nw_daly(double write_s, double mttf_s);
double nw_lost_work(double lam, double period);
double nw_spare_availability(double k, double lam, double repair_s);
void nw_reliability(const struct nw_scn *s, unsigned variant, struct nw_rel *out);
/* Returns 0, -1 when a replicate's buckets do not sum to the running time,
 * or -2 when the run would draw more than NW_MAX_MC_DRAWS gaps. */
#define NW_MAX_MC_DRAWS 2e8
int nw_reliability_mc(const struct nw_scn *s, uint64_t seed, long replicates,
		      unsigned variant, struct nw_rel *out);

/* 5.7.0 */
struct nw_ledger {
	struct nw_step step;
	struct nw_rel rel;
	double productive, comm, sync, bubble, checkpoint, restart, discarded, down, spare, total;
	double ucf, productive_acc, tokens_per_s, ettr;
};
/* rel given (a Monte Carlo result) or NULL (analytical). Returns 0, or -1
 * when the buckets do not sum to the total. */
int nw_ledger_of(const struct nw_scn *s, const struct nw_rel *rel, unsigned variant,
		 struct nw_ledger *out);
double nw_productive(const struct nw_scn *s, unsigned variant);

/* 5.7.1: 0, or -1 when impossible. */
int nw_rescale(const struct nw_scn *s, double target, struct nw_scn *out);

/* 5.7.2: the points in increasing pool order; returns their number. */
struct nw_point {
	double n_pool, productive;
};
size_t nw_curve(const struct nw_scn *s, double max_factor, unsigned variant,
		struct nw_point *pts);

/* 5.7.3 interventions */
struct nw_iv {
	size_t n;
	enum nw_field key[NW_MAX_IV_KEYS];
	double value[NW_MAX_IV_KEYS];
	unsigned char multiply[NW_MAX_IV_KEYS];
};
/* Apply: 0, or -1 with *bad the field whose value breaks 3.1. */
int nw_apply(const struct nw_scn *base, const struct nw_iv *iv, struct nw_scn *out,
	     enum nw_field *bad, char *why, size_t size);

/* 5.7.4: SEA of a treated target over a curve; INFINITY when unattainable. */
double nw_sea_on_curve(const struct nw_point *pts, size_t n, double target);
struct nw_sea {
	double sea, baseline, treated, best, naive, baseline_ucf, treated_ucf;
};
int nw_sea_of(const struct nw_scn *base, const struct nw_iv *iv, const struct nw_point *pts,
	      size_t npts, unsigned variant, struct nw_sea *out, enum nw_field *bad, char *why,
	      size_t size);

/* 5.7.6 Shapley over k <= NW_MAX_BUNDLE interventions. */
struct nw_shapley {
	double phi[NW_MAX_BUNDLE];
	double bundle, sum_individual;
	int capped;
};
int nw_merge(const struct nw_iv *const *ivs, size_t n, struct nw_iv *out);
int nw_shapley_of(const struct nw_scn *base, const struct nw_iv *ivs, size_t k,
		  unsigned variant, struct nw_shapley *out, enum nw_field *bad, char *why,
		  size_t size);

/* 5.9 scale-across */
struct nw_regime {
	const char *name;
	double alpha_us;
};
extern const struct nw_regime nw_regimes[5];
void nw_local(const struct nw_scn *s, struct nw_scn *out);
struct nw_span {
	int applicable;
	double retention, step_ratio, pressure; /* pressure: of the spanned ledger */
};
void nw_span_of(const struct nw_scn *s, enum nw_cut cut, double alpha_us, double gbps,
		long halls, int blind, unsigned variant, struct nw_span *out);
struct nw_stitch {
	int applicable;
	double connected, delivered, efficiency, p_local, p_span;
};
void nw_stitch_of(const struct nw_scn *s, enum nw_cut cut, double alpha_us, double gbps,
		  unsigned variant, struct nw_stitch *out);
struct nw_bytes {
	int modelled;
	double raw, exposed, lower_bound_s;
};
void nw_bytes_of(const struct nw_scn *s, enum nw_cut cut, long halls, double gbps,
		 unsigned variant, struct nw_bytes *out);

/* Meta's closed-form ETTR (an external check, spec 11). */
double nw_meta_ettr(double nodes, double rate_per_s, double restart_s, double interval_s,
		    double write_s);

#endif
