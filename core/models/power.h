/*
 * power.h: the compute-and-power placement models of the power pack
 * (spec/power.md 5): the migration cost of one job, move versus stay,
 * break-even and scarcity (5.2-5.3), the synthetic hourly price process
 * with its 24 sine constants (5.4), the offline curtailment of a fleet
 * (5.5) over NumPy's pairwise array sum (5.6), the online causal
 * controller (5.7), the stay / stitch / move ledger of a scale-across
 * proposal (5.8) and the exact mean of doubles (5.9).
 *
 * Numbers in, numbers out: no Lua, no I/O, no globals. Every formula is
 * evaluated in the order the spec writes it, so figures match the
 * reference bit for bit (the build uses -ffp-contract=off).
 *
 * Ownership: the caller owns every struct and array it passes in; the
 * models keep no pointer past the call. The fleet model allocates its
 * scratch per call and frees it before returning.
 */
#ifndef INFRAGATE_MODELS_POWER_H
#define INFRAGATE_MODELS_POWER_H

#include <stddef.h>
#include <stdint.h>

#include "core/util/diag.h"

/* ---- constants and limits (spec/power.md 5.1, 5.10) ------------------- */

#define PW_BYTES_PER_PARAM 16.0        /* ZeRO: 2 + 2 + 4 + 4 + 4 [5] */
#define PW_GLOSS_BYTES_PER_PARAM 12.0  /* mutation gloss-12-bytes */
#define PW_SPAN_BYTES_PER_PARAM 16.0
#define PW_GRAD_BYTES_PER_PARAM 2.0    /* bf16 gradients */
#define PW_FP32_GRAD_BYTES 4.0         /* mutation fp32-gradients */
#define PW_CROSSINGS 2.0               /* pipeline and all-reduce alike */
#define PW_HOURS_PER_WEEK 168.0
#define PW_REMAINING_CLAMP 1e-9
#define PW_PRICE_FLOOR 5.0
#define PW_NOISE_SD 4.0
#define PW_RANDOM_ORDER_SEED_OFFSET 9999u
#define PW_SUM_CHUNK 8192
#define PW_MAX_HOURS 87600             /* one fleet simulation */
#define PW_MAX_PRICES 1000000          /* one causal replay */

/* The 24 values of the daily sine (5.4), normative constants. */
extern const double pw_diurnal_sin[24];

/* Formula switches of validation mutations (spec/power.md 7.4), bit i of
 * a model's `variant`, named by pw_switches[i]. */
enum {
	PW_V_GLOSS_12_BYTES = 1u << 0,
	PW_V_FP32_GRADIENTS = 1u << 1,
	PW_V_RTT_IN_SECONDS = 1u << 2,
	PW_V_CAUSAL_NO_BUDGET = 1u << 3,
	PW_V_CAUSAL_NEVER_CATCHES_UP = 1u << 4,
};
#define PW_NSWITCHES 5
extern const char *const pw_switches[PW_NSWITCHES];

/* ---- one job: migration, decide, break-even, scarcity (5.2, 5.3) ------- */

struct pw_job {
	double params_b, gpus, kw_per_gpu, dollars_per_gpu_h, wan_gbps;
	double reload_h, egress_per_gb, price_here_mwh, price_there_mwh;
};

struct pw_migration {
	double state_gb, power_mw, transfer_h, downtime_h;
	double idle_dollars, egress_dollars, cost_dollars;
};

void pw_migration(const struct pw_job *j, unsigned variant, struct pw_migration *m);

struct pw_decide {
	struct pw_migration mig;
	double spread_mwh, remaining_h, saving_dollars, net_dollars, energy_share;
	int move; /* net > 0 */
};

void pw_decide(const struct pw_job *j, double length_h, unsigned variant,
	       struct pw_decide *d);

/* C / (MW x max(1e-9, L - d)). */
double pw_breakeven_spread(const struct pw_job *j, double length_h, unsigned variant);

/* C / (MW x S) + d; returns 0 and sets *out for S > 0, else -1 (as for
 * a spread so small that the length is not finite: it never breaks even). */
int pw_breakeven_length(const struct pw_job *j, double spread_mwh, unsigned variant,
			double *out);

struct pw_scarcity {
	double stay_dollars, move_dollars, net_benefit;
};

void pw_scarcity(const struct pw_job *j, double spike_mwh, double hours,
		 unsigned variant, struct pw_scarcity *s);

/* ---- prices and the offline fleet (5.4-5.6) ---------------------------- */

enum pw_order { PW_MOST_EXPENSIVE_FIRST, PW_LEAST_EXPENSIVE_FIRST, PW_RANDOM };

struct pw_fleet_config {
	long horizon_h;
	double fleet_mw, flexible_fraction;
	uint64_t seed;
	double base_mwh, diurnal_amp_mwh, spike_rate_per_h;
	long spike_len_h;
	double spike_min_mwh, spike_max_mwh, curtail_threshold_mwh, curtail_budget_frac;
	enum pw_order order;
};

struct pw_spike {
	long start_h;
	double magnitude_mwh;
};

/* Fill prices[0..H-1] by 5.4; spikes (room for H entries, or NULL) gets
 * the onsets in time order and *nspikes their count (when not NULL). */
void pw_prices(const struct pw_fleet_config *c, double *prices,
	       struct pw_spike *spikes, size_t *nspikes);

/* NumPy's sum of a contiguous double array (5.6). */
double pw_pairwise_sum(const double *a, size_t n);

struct pw_fleet_result {
	/* the 13 figures of 5.5 step 10, rounded */
	long hours_curtailed, eligible_hours;
	double curtailed_frac_of_uptime, curtailed_mwh, deferred_mwh;
	double blind_cost, aware_cost, saving, saving_pct, gross_avoided;
	double top1pct_frac, max_price;
	/* unrounded detail */
	long budget_hours, top1pct_hours;
	double flex_mw, firm_mw, u_blind, u_firm_cost, u_flex_cost, u_deferral;
	double u_aware, u_saving, u_saving_frac, u_gross, u_gross_top, u_max_price;
	long *curtailed_hours; /* caller's array of H entries, or NULL */
};

/* The offline curtailment of 5.5 on the given prices (p of H = horizon_h
 * entries). Returns 0, or -1 with 'err' set when memory runs out. */
int pw_fleet_on(const struct pw_fleet_config *c, const double *p,
		struct pw_fleet_result *r, struct diag *err);

/* Prices by 5.4, then 5.5. */
int pw_fleet(const struct pw_fleet_config *c, struct pw_fleet_result *r,
	     struct diag *err);

/* pw_fleet of 'c' for seeds 0..n-1 into out[0..n-1] (curtailed_hours
 * NULL), the seeds on threads (par.h): the registry's and the sweep's
 * seed runs. The first failing seed's problem is in 'err'. */
int pw_fleet_seeds(const struct pw_fleet_config *c, size_t n,
		   struct pw_fleet_result *out, struct diag *err);

/* ---- the causal controller (5.7) ---------------------------------------- */

struct pw_causal_opts {
	double fleet_mw, flexible_fraction, threshold_mwh, budget_fraction;
	double cheap_threshold_mwh;
};

struct pw_action {
	double draw_mw, backlog_mwh;
	int curtailed;
};

struct pw_causal {
	long budget_hours, curtailed_hours;
	double cost, blind, served, unserved, flex;
	int has_saving;
	double saving;
};

/* Runs over p[0..n-1]; actions (n entries, or NULL) get each hour. Returns
 * 0, or -1 with 'err' set when the energy invariant breaks. */
int pw_causal(const double *p, size_t n, const struct pw_causal_opts *o,
	      unsigned variant, struct pw_action *actions, struct pw_causal *r,
	      struct diag *err);

/* The causal controller over the prices of 'c' (5.4) for seeds 0..n-1,
 * into out[0..n-1], the seeds on threads (par.h). */
int pw_causal_seeds(const struct pw_fleet_config *c, const struct pw_causal_opts *o,
		    unsigned variant, size_t n, struct pw_causal *out, struct diag *err);

/* ---- the stay / stitch / move ledger (5.8) ------------------------------- */

struct pw_hall {
	long free_gpus;
	double price_mwh, spike_price_mwh, spike_hours_per_week;
};

struct pw_span_job {
	double params_b;
	long gpus_needed;
	double hours_at_full, step_time_s, kw_per_gpu, dollars_per_gpu_h;
	double deadline_h; /* NAN: none */
	double wan_gbps, reload_h, egress_per_gb;
};

struct pw_circuit {
	double rtt_ms, gbps, hold_dollars_per_h;
};

enum pw_cut_kind { PW_CUT_PIPELINE, PW_CUT_ALLREDUCE };

struct pw_cut {
	enum pw_cut_kind kind;
	double gb_per_step, crossings;
};

/* The cut's exchange per step (5.8.3) and its tax. */
void pw_cut_of(const struct pw_span_job *j, enum pw_cut_kind kind,
	       double activation_gb, unsigned variant, struct pw_cut *cut);
double pw_stitch_tax(const struct pw_span_job *j, const struct pw_circuit *c,
		     const struct pw_cut *cut, unsigned variant);

double pw_hall_spike_fraction(const struct pw_hall *h);
double pw_hall_price(const struct pw_hall *h);

enum pw_option { PW_STAY, PW_STITCH, PW_MOVE, PW_BUY, PW_NOPTIONS };

enum pw_reason {
	PW_R_NONE, PW_R_NO_HOME_CAPACITY, PW_R_AWAY_SHORT, PW_R_NO_CAPACITY_TO_REACH,
	PW_R_CUT_STALLS, PW_R_DESTINATION_TOO_SMALL, PW_R_DEADLINE,
};
extern const char *const pw_reason_names[];
extern const char *const pw_option_names[PW_NOPTIONS];

struct pw_option_row {
	int feasible, priced; /* priced: the unrounded figures exist */
	enum pw_reason reason;
	long home_gpus, away_gpus;
	double dollars, duration_h;       /* unrounded */
	double r_dollars, r_duration_h, r_per_useful; /* rounded */
};

struct pw_ledger {
	double tax, useful_gpu_h, downtime_h, migration_cost;
	long deficit;
	struct pw_option_row opt[PW_NOPTIONS];
	int decision; /* PW_STAY..PW_MOVE, or -1: escalate */
	int deadline_rounding; /* strict: an option meets the deadline only by rounding */
};

void pw_ledger(const struct pw_span_job *j, const struct pw_hall *home,
	       const struct pw_hall *away, const struct pw_circuit *c,
	       enum pw_cut_kind cut, double activation_gb, unsigned variant,
	       struct pw_ledger *l);

/* The exact mean of 5.9 is exact_mean (core/models/exact_mean.h). */

/* Python round(x, n) without -0.0. */
double pw_round(double x, int ndigits);

#endif
