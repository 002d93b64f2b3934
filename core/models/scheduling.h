/*
 * scheduling.h: the scheduling pack's models (spec/scheduling.md 5): the
 * three-layer stranded-capacity calculator, the workload model (capped
 * log-normal means, expected work, arrival rate, job generation), the
 * demand curve, the five-minute scheduler simulation with its three
 * policies and ledger, the single-device inference model, and exact
 * means. Pure C: numbers in, numbers out; the caller validates documents
 * (spec section 3) and this module refuses only what it cannot run
 * (the limits of 5.13) with a message in 'err'.
 *
 * Ownership: sched_simulate fills a caller-owned result; every buffer it
 * allocates is freed before it returns. sched_infer writes into arrays the
 * caller sizes from the request count.
 */
#ifndef INFRAGATE_MODELS_SCHEDULING_H
#define INFRAGATE_MODELS_SCHEDULING_H

#include <stddef.h>
#include <stdint.h>

#include "core/util/diag.h"

/* ---- constants of 5.1 ---- */
#define SCHED_STEPS_PER_HOUR 12
#define SCHED_STEPS_PER_DAY 288
#define SCHED_DT_H (5 / 60.0)
#define SCHED_NSIZES 10
#define SCHED_NODE_GPUS 8
#define SCHED_MAX_JOBS 10000000
#define SCHED_MAX_LAMBDA 10000.0

extern const int sched_sizes[SCHED_NSIZES];
extern const double sched_size_p[SCHED_NSIZES];
extern const double sched_median_h[SCHED_NSIZES];

/* A validation mutation's change to the model (spec 7.4): absent fields
 * are the shipped model. */
struct sched_variant {
	int has_size_p;                 /* size_p replaces the size table's */
	double size_p[SCHED_NSIZES];
	int capped_median;              /* expected work from min(median, cap) */
	int checkpoint_interval;        /* 0: the shipped 12 steps */
	double elastic_size;            /* 0: the shipped 16 GPUs; inf: none */
};

/* ---- the calculator (5.2) ---- */
struct sched_stranded_in {
	double gpus, window_hours, hard_outage_hours, degraded_hours;
	double degradation_weight, allocation_efficiency, productive_ratio;
	double usd_per_gpu_hour;
};

struct sched_stranded_out {
	double nominal_gpu_hours, availability, usable_gpu_hours;
	double loss_scheduler, loss_allocation, loss_productivity;
	double stranded_gpu_hours, stranded_usd;
};

void sched_stranded(const struct sched_stranded_in *in, struct sched_stranded_out *out);

/* ---- the workload model (5.3) ---- */
double sched_capped_lognormal_mean(double median_h, double sigma, double cap_h);
const double *sched_probabilities(const struct sched_variant *v);
double sched_expected_work(const struct sched_variant *v);
/* GPU-hour share of sizes >= 256 under the capped generator (4.3). */
double sched_large_gpu_time_share(const struct sched_variant *v);

struct sched_config {
	int64_t gpus, horizon_days, seed;
	double offered_load, inf_base, inf_diurnal_amp;
	int inf_surges, failures, power_envelope;
	double failures_per_1000_node_days, power_frac;
	int64_t power_start_hour, power_hours;
};

void sched_config_default(struct sched_config *c);
double sched_arrival_rate(const struct sched_config *c, const struct sched_variant *v);
int64_t sched_reservation(const struct sched_config *c);
double sched_demand(const struct sched_config *c, int64_t t, double surge_add);

/* Refuse a config the samplers or memory cannot run (5.13): 0 or -1. */
int sched_check_limits(const struct sched_config *c, const struct sched_variant *v,
		       struct diag *err);

struct sched_job_spec {
	int64_t submit;
	int size, min_size, elastic, besteffort;
	double work;
};

/* Generate the workload stream (5.3.4) into a malloc'd array (*jobs, the
 * caller frees it). Returns the count, or -1 (err set) past
 * SCHED_MAX_JOBS or out of memory. */
long sched_generate(const struct sched_config *c, const struct sched_variant *v,
		    struct sched_job_spec **jobs, struct diag *err);

/* ---- the simulation (5.5-5.7) ---- */
enum sched_policy { SCHED_RIGID, SCHED_TIERED, SCHED_INTENT };

struct sched_opts {
	enum sched_policy policy;
	int tracking, elasticity;
	/* Optional replacement workload (registry point 8); NULL: generate. */
	const struct sched_job_spec *jobs;
	long njobs;
};

struct sched_ledger {
	double nominal, envelope, inf_alloc, inf_productive, inf_demand;
	double train_alloc, train_productive, work_lost, wait_steps_sum;
	int64_t slo_ok_steps, total_steps, waited_jobs;
};

#define SCHED_NMETRICS 17
extern const char *const sched_metric_names[SCHED_NMETRICS];
/* Metrics 10..14 (jobs_submitted .. resizes) are integers. */
#define SCHED_METRIC_IS_INT(i) ((i) >= 10 && (i) <= 14)

struct sched_result {
	double metrics[SCHED_NMETRICS];
	struct sched_ledger ledger;
	int64_t jobs_never_started;
	/* Per size of the table: started jobs and their summed waits, plus
	 * each started job's wait in hours for exact band means (malloc'd,
	 * in job order, with its size; the caller frees 'waits'). */
	double *waits;
	int *wait_sizes;
	long nwaits;
};

int sched_simulate(const struct sched_config *c, const struct sched_opts *o,
		   const struct sched_variant *v, struct sched_result *r,
		   struct diag *err);
void sched_result_release(struct sched_result *r);

/* ---- means (5.12) ---- */
/* The exact mean of x[0..n), rounded once (Python statistics.mean). */
double sched_exact_mean(const double *x, size_t n);
/* The sample standard deviation as Python 3.11 statistics.stdev: the
 * correctly rounded square root of the exact sample variance (0.0 for
 * n < 2; scheduling_stdev.c). */
double sched_stdev(const double *x, size_t n);

/* ---- the inference model (5.10) ---- */
struct sched_hw {
	double compute_flops_s, memory_bytes, memory_bandwidth_bytes_s, efficiency;
};

struct sched_infer_opts {
	double parameters, bytes_per_parameter, kv_bytes_per_token;
	double ttft_slo_s, itl_slo_s;
	int64_t max_batch;
	int prefill_first;
};

struct sched_request {
	double arrival_s;
	int64_t input_tokens, output_tokens, cached_prefix_tokens;
};

enum sched_req_state { SCHED_REQ_DONE, SCHED_REQ_REJECT_ARRIVAL, SCHED_REQ_REJECT_QUEUE };

struct sched_req_out {
	int state;
	double ttft_s, max_itl_s;
	int slo_met;
};

struct sched_infer_out {
	int64_t peak_concurrency;
	double makespan_s, slo_attainment, slo_goodput_output_tokens_s;
};

/* Run the event loop over n requests; out[i] per input index. Returns 0,
 * or -1 with err set (out of memory). */
int sched_infer(const struct sched_hw *hw, const struct sched_infer_opts *o,
		const struct sched_request *req, size_t n, struct sched_req_out *out,
		struct sched_infer_out *res, struct diag *err);

#endif
