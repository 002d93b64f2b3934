/*
 * resiliency.h: the last-mile resiliency Monte Carlo of the resiliency pack
 * (spec/resiliency.md 5): the built-in transports, power and timing chains,
 * the five-rung policy ladder and its costs, the interval algebra, one
 * simulated year in the published tool's exact draw order, the per-class
 * figures, the grid-hours helper of the validation registry, and a batch
 * runner that spreads independent simulations over threads without changing
 * a single bit of their figures.
 *
 * Everything here is numbers in, numbers out: no Lua, no I/O, no globals.
 * Every constant of the spec lives in resiliency.c, in one place.
 *
 * Ownership: the caller owns every struct it passes in; the model never
 * keeps a pointer past the call. Scratch memory is allocated per
 * simulation and freed before the call returns.
 */
#ifndef INFRAGATE_MODELS_RESILIENCY_H
#define INFRAGATE_MODELS_RESILIENCY_H

#include <stddef.h>
#include <stdint.h>

#include "core/util/diag.h"

/* ---- limits and fixed facts (spec/resiliency.md 3, 5) ------------------- */

#define RS_HOURS 8760.0          /* one simulated year, in hours */
#define RS_NCLASSES 3            /* R0, R1, R2, evaluated in that order */
#define RS_MAX_MODES 32          /* failure modes per transport */
#define RS_MAX_LISTED 16         /* transports a policy lists */
#define RS_MAX_INSTANCES 17      /* the listed ones plus fiber-b */
#define RS_MAX_YEARS 10000000L   /* horizon ceiling: bounded run time */
#define RS_MAX_RATE 700.0        /* per-year Poisson ceiling: e^-rate stays normal */
#define RS_MAX_SEED_DIGITS 4300  /* the reference's own integer-text limit */
#define RS_NBUILTINS 4           /* fiber, microwave, 5g-fwa, leo */
#define RS_NRUNGS 5              /* P0..P4 */
#define RS_MAX_JOBS 4096         /* simulations of one batch */

enum rs_class { RS_R0, RS_R1, RS_R2 };

/* Bit of a class in a transport's 'carries' set. */
#define RS_CARRIES(c) (1u << (c))
#define RS_CARRIES_ALL (RS_CARRIES(RS_R0) | RS_CARRIES(RS_R1) | RS_CARRIES(RS_R2))

/* Formula switches of validation mutations (the `variant` of spec/core.md
 * 11.2); bit i is rs_switches[i]. */
#define RS_VARIANT_NO_POWER_CHAIN 0x1u /* step 3 of 5.10 removed */

/* ---- inputs --------------------------------------------------------------- */

struct rs_mode {
	const char *name;
	double rate_per_year;    /* Poisson arrivals per year */
	double mttr_h;           /* mean of the exponential restore time */
	double capacity_factor;  /* 0: hard outage; else the share kept */
	double storm_rate_mult;  /* >= 1: extra arrivals inside storms */
	double storm_mttr_mult;  /* >= 1: longer restores inside storms */
	int physical_cut;        /* a cut another fiber may share (SRLG) */
};

struct rs_transport {
	const char *name;
	const char *kind;        /* fiber microwave cellular leo other */
	double capacity_gbps;
	double rtt_ms;
	double monthly_usd;
	unsigned carries;        /* RS_CARRIES bits */
	int grid_dependent;      /* rides a neighbour macro's power */
	const struct rs_mode *modes;
	size_t nmodes;
};

struct rs_power {
	double battery_h;
	int has_generator;
	double generator_fuel_h;
	double generator_start_fail_p;
	double routine_outages_per_year;
	double routine_outage_h;
};

struct rs_timing {
	const char *holdover;    /* "ocxo" or "rubidium" */
	double holdover_h;
	double gnss_events_per_year;
	double gnss_event_h;
};

struct rs_storm {
	double rate_per_year;
	double mean_duration_h;
	double grid_outage_p;
	double neighbor_battery_h;
};

/* A resolved policy: its instances in simulation order (spec 3.8). */
struct rs_policy {
	const char *name;
	const char *label;
	const struct rs_transport *inst[RS_MAX_INSTANCES];
	size_t ninst;
	int fiber;               /* index of the instance named fiber, or -1 */
	int fiber_b;             /* index of the dual-fiber second instance, or -1 */
	int dual_fiber;
	double shared_cut_fraction;
	int local_autonomy;
	struct rs_power power;
	struct rs_timing timing;
};

/* A seed: its canonical decimal text, which the shared generator keys as
 * CPython does (|seed| in base 2^32, spec 5.9). */
struct rs_seed {
	char text[RS_MAX_SEED_DIGITS + 2];
};

/* ---- the constants of the spec (resiliency.c) ----------------------------- */

/* The built-in catalog, in catalog order (spec 5.2). */
extern const struct rs_transport rs_builtin_catalog[RS_NBUILTINS];

/* A ladder rung as the spec tables it (5.7); everything not listed is the
 * default of 5.3/5.4. */
struct rs_rung {
	const char *name;
	const char *label;
	const char *const *transports; /* NULL-terminated, instance order */
	int dual_fiber;
	double battery_h;
	int has_generator;
	const char *holdover;
	int local_autonomy;
};

extern const struct rs_rung rs_rungs[RS_NRUNGS];

/* Defaults of 5.3, 5.4, 5.5 and the SRLG planning assumption. */
extern const struct rs_power rs_default_power;
extern const struct rs_timing rs_default_timing; /* ocxo */
extern const struct rs_storm rs_default_storm;
extern const double rs_default_shared_cut_fraction;
extern const long rs_default_years;
extern const int rs_default_seed;

/* Holdover names and hours (5.4), NULL-terminated names. */
extern const char *const rs_holdover_names[];
extern const double rs_holdover_hours[];

/* The cost constants of 5.7 (USD per month). */
struct rs_costs {
	double battery_per_h;
	double generator;
	double rubidium;
	double ocxo;
	double local_autonomy;
};
extern const struct rs_costs rs_costs;

/* The resilience classes of 5.6. */
struct rs_class_info {
	const char *name;                /* "R0" */
	int needs_timing;
	int partition_survivable;
	double degraded_retention;
	int degraded_counts_as_down;
	int capacity_weighted;
};
extern const struct rs_class_info rs_classes[RS_NCLASSES];

/* Names of the formula switches, in bit order. */
extern const char *const rs_switches[];
extern const size_t rs_nswitches;

/* Holdover hours of a holdover name; -1 when unknown. */
double rs_holdover_h(const char *holdover);

/* The catalog entry named 'name' among 'n' entries, or NULL. */
const struct rs_transport *rs_catalog_find(const struct rs_transport *catalog,
					   size_t n, const char *name);

/* Resolve ladder rung 'r' against a catalog into 'out' (spec 3.8: one
 * instance per listed name, then fiber-b for dual fiber). Returns 0, or -1
 * with 'err' set when a name is not in the catalog. */
int rs_policy_from_rung(const struct rs_rung *r,
			const struct rs_transport *catalog, size_t n,
			struct rs_policy *out, struct diag *err);

/* ---- seeds ------------------------------------------------------------------ */

/* Take a seed from its decimal text ("-11", "18446744073709551617"; an
 * optional '-', then 1 to RS_MAX_SEED_DIGITS digits). Returns 0, or -1 with
 * 'err' set when the text is not such an integer. */
int rs_seed_parse(struct rs_seed *s, const char *text, struct diag *err);

/* Take a seed from a machine integer. */
void rs_seed_int(struct rs_seed *s, int64_t v);

/* ---- costs and figures ---------------------------------------------------- */

/* The policy's monthly cost, unrounded, summed in the order of 5.7. */
double rs_monthly_usd(const struct rs_policy *p);

/* Raw accumulators of one class over the horizon. */
struct rs_totals {
	double down_h;           /* D */
	long long episodes;      /* E */
	double degraded_h;       /* G */
	double capacity_loss_h;  /* C */
};

/* The figures of 5.12 for one class, with their unrounded companions. */
struct rs_figures {
	double availability;
	double nines;             /* 2 dp; the 9.0 sentinel when never down */
	double nines_unrounded;
	double downtime_h_yr;     /* 2 dp */
	double ettr_h;            /* 2 dp */
	double episodes_per_year; /* 2 dp */
	double retention;         /* 5 dp */
	double down_yr;           /* D / N */
	double episodes_unrounded;/* E / N */
	double ettr_unrounded;    /* D / E, 0 when E = 0 */
	double retention_unrounded;
	struct rs_totals totals;
};

/* Turn a class's totals over 'years' into its figures (5.12). Never
 * returns a negative zero. */
void rs_figures(const struct rs_totals *t, long years, enum rs_class c,
		struct rs_figures *out);

/* ---- interval algebra (5.8) -------------------------------------------------- */

struct rs_iv {
	double s, e;
};

/* A growable list of intervals. 'failed' is set when a push could not
 * grow the list; the caller checks it once per year. */
struct rs_ivs {
	struct rs_iv *v;
	size_t n, alloc;
	int failed;
};

void rs_ivs_init(struct rs_ivs *l);
void rs_ivs_release(struct rs_ivs *l);
void rs_ivs_push(struct rs_ivs *l, double s, double e);
/* Append every interval of 'src'. */
void rs_ivs_append(struct rs_ivs *l, const struct rs_ivs *src);

/* Clip to the year, drop empty intervals, sort by (start, end) and
 * coalesce overlapping or touching ones, in place. */
void rs_merge(struct rs_ivs *l);
/* out = intersect(a, b) of two merged lists (out is reset first). */
void rs_intersect(const struct rs_ivs *a, const struct rs_ivs *b,
		  struct rs_ivs *out);
/* out = subtract(a, b), b merged (out is reset first). */
void rs_subtract(const struct rs_ivs *a, const struct rs_ivs *b,
		 struct rs_ivs *out);
/* Sum of lengths, left to right from 0.0. */
double rs_total(const struct rs_ivs *l);

/* ---- simulation -------------------------------------------------------------- */

/* The lists one instance builds in one year (5.10 step 5). */
struct rs_soft {
	double capacity_factor;
	struct rs_ivs ivs;       /* merged events of one degrading mode */
};

struct rs_inst_year {
	struct rs_ivs hard;
	struct rs_ivs cuts;
	struct rs_soft soft[RS_MAX_MODES];
	size_t nsoft;
};

struct rs_rng; /* the generator's state, owned by the simulation */

/* One simulation in progress: the year's lists are readable after
 * rs_sim_year() (the unit tests check the spec's year vectors). */
struct rs_sim {
	const struct rs_policy *policy;
	const struct rs_storm *storm;
	unsigned variant;
	struct rs_rng *rng;
	unsigned long long draws;  /* random() calls so far */
	double cache_L[RS_MAX_INSTANCES][RS_MAX_MODES]; /* pow(e, -rate) */
	double storm_L, routine_L, gnss_L;
	struct rs_ivs storms, grid, dark, timing_down;
	struct rs_inst_year inst[RS_MAX_INSTANCES];
	struct rs_ivs events, tmp, tmp2, set, all_down, down, degraded, exclude;
	double *cum;               /* cumulative storm lengths (pick storm) */
	size_t ncum;
	struct rs_totals totals[RS_NCLASSES];
	long years_done;
};

/* Start a simulation with a fresh generator keyed by 'seed'. Returns 0,
 * or -1 with 'err' set (out of memory). */
int rs_sim_init(struct rs_sim *sim, const struct rs_policy *policy,
		const struct rs_storm *storm, const struct rs_seed *seed,
		unsigned variant, struct diag *err);

/* Simulate the next year and add it to the totals. Returns 0 or -1 with
 * 'err' set (out of memory). */
int rs_sim_year(struct rs_sim *sim, struct diag *err);

/* Free what the simulation owns. */
void rs_sim_release(struct rs_sim *sim);

/* The result of one policy over a horizon. */
struct rs_result {
	struct rs_figures cls[RS_NCLASSES];
	double monthly_usd;           /* rounded to whole dollars */
	double monthly_usd_unrounded;
	unsigned long long draws;
};

/* Simulate 'years' years (1..RS_MAX_YEARS) of a policy. Returns 0 or -1
 * with 'err' set. */
int rs_simulate(const struct rs_policy *policy, const struct rs_storm *storm,
		long years, const struct rs_seed *seed, unsigned variant,
		struct rs_result *out, struct diag *err);

/* The registry's grid-hours function (spec 7.1): mean grid-outage hours
 * per year over 'years' years of steps 1 and 2 only, with a generator of
 * its own keyed by 'seed'. Returns 0 or -1 with 'err' set. */
int rs_grid_hours(const struct rs_storm *storm, const struct rs_power *power,
		  long years, const struct rs_seed *seed, double *out,
		  struct diag *err);

/* ---- batches ------------------------------------------------------------------ */

enum rs_job_kind { RS_JOB_SIMULATE, RS_JOB_GRID_HOURS };

struct rs_job {
	enum rs_job_kind kind;
	const struct rs_policy *policy;  /* simulate */
	const struct rs_storm *storm;
	const struct rs_power *power;    /* grid hours */
	long years;
	const struct rs_seed *seed;
	unsigned variant;
	struct rs_result result;         /* simulate */
	double grid_hours;               /* grid hours */
	int failed;
	struct diag err;
};

/* Run independent jobs on threads (par.h), heaviest first. Each job's
 * figures are those of running it alone. Returns 0, or -1 with 'err'
 * copied from the first job that failed. */
int rs_batch(struct rs_job *jobs, size_t n, struct diag *err);

/* ---- model descriptors (models.def) --------------------------------------- */

struct model;
extern const struct model model_resiliency_catalog;
extern const struct model model_resiliency_defaults;
extern const struct model model_resiliency_simulate;
extern const struct model model_resiliency_batch;
extern const struct model model_resiliency_grid_hours;

#endif
