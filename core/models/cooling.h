/*
 * cooling.h: the cooling ladder of spec/cooling.md 5 as pure C: the five
 * rungs and their PUE model (5.2), density and ride-through (5.3), the
 * capacity arithmetic behind a fixed feed (5.4), the admission algorithm
 * (5.5, cooling_admit.c), the synthetic fleet (5.6, cooling_fleet.c) and
 * the exact mean of the validation registry (5.8).
 *
 * Every function reads its constants from a struct cooling_model, built by
 * cooling_model_init() from the tables of 5.1 and then changed by the
 * validation mutations of 7.4 (one switch bit each), so that one rung table
 * and one parameter set feed the ladder, the fleet and the admission alike.
 * Nothing here allocates except the fleet simulation, which owns and frees
 * its site list; no function keeps state between calls.
 */
#ifndef INFRAGATE_MODELS_COOLING_H
#define INFRAGATE_MODELS_COOLING_H

#include <stddef.h>
#include <stdint.h>

#define COOLING_RUNGS 5
#define COOLING_CLIMATES 4
#define COOLING_MODES 3
#define COOLING_STOCK_MAX 8
#define COOLING_MIX_MAX 8

/* Absolute tolerance of every "exceeds" test of the admission, MW. */
#define COOLING_EPS_MW 1e-9
/* DGX H100: 10.2 kW per 8-GPU node [11]; new-build anchor [14]. */
#define COOLING_H100_NODE_KW 10.2
#define COOLING_H100_GPUS_PER_NODE 8
#define COOLING_NEW_BUILD_USD_PER_MW 10000000.0

struct cooling_rung {
	const char *name;
	double max_kw;            /* density ceiling, kW per rack */
	double pue_floor;
	double mech_penalty;      /* PUE added when no free cooling at all */
	int economizer;           /* can use free cooling */
	double heat_capture;      /* fraction of heat to liquid */
	double buffer_kj;         /* thermal buffer per rack, kJ */
	double retrofit_usd_per_kw;
};

struct cooling_climate {
	const char *name;
	double free_cooling;      /* fraction of the year */
};

struct cooling_mode {
	const char *name;
	double shift;             /* added to the climate's fraction */
	double wue;               /* litres per IT kWh */
};

struct cooling_fleet_params {
	int stock[COOLING_STOCK_MAX];  /* initial rungs, drawn by choice */
	size_t nstock;
	int mix[COOLING_MIX_MAX];      /* climate indices, drawn by choice */
	size_t nmix;
	double growth;                 /* of total IT MW per year */
	double retirement;             /* of legacy capacity per year */
	double new_site_mw;
	double legacy_mw, legacy_lo, legacy_hi;
	double survey_floor_mw;
	int new_build_fixed;           /* -1, or the rung every new build gets */
	int frozen;                    /* every year reports the first one */
	int collapsed;                 /* energy_weighted := survey_avg */
};

struct cooling_model {
	struct cooling_rung rungs[COOLING_RUNGS];
	struct cooling_climate climates[COOLING_CLIMATES];
	struct cooling_mode modes[COOLING_MODES];
	struct cooling_fleet_params fleet;
	double pue_flat;               /* NaN, or the PUE of everything */
	int step_as_ceiling;           /* a stagger becomes a feeder-step DENY */
};

/* The mutation switches of spec/cooling.md 7.4, named as the mutations. */
enum cooling_switch {
	COOLING_SW_CONTAINED_AIR_FLOOR_UP,
	COOLING_SW_FROZEN_FLEET,
	COOLING_SW_COLLAPSED_FLEETS,
	COOLING_SW_CEILINGS_250KW,
	COOLING_SW_PUE_FLAT,
	COOLING_SW_INITIAL_STOCK_333,
	COOLING_SW_STEP_AS_CEILING,
	COOLING_SW_DTC_BUFFER_40000KJ,
	COOLING_SW_LEGACY_AIR_ECONOMIZER,
	COOLING_SW_NO_GROWTH,
	COOLING_SW_NEW_BUILD_CONTAINED_AIR,
	COOLING_SW_COUNT
};

extern const char *const cooling_switch_names[COOLING_SW_COUNT];

/* The model of spec/cooling.md 5.1, then each switch bit of 'variant'
 * applied (0: the shipped model). */
void cooling_model_init(struct cooling_model *m, unsigned variant);

/* Index of a rung / climate / mode name (exact, byte-wise), or -1. */
int cooling_rung_index(const struct cooling_model *m, const char *name);
int cooling_climate_index(const struct cooling_model *m, const char *name);
int cooling_mode_index(const struct cooling_model *m, const char *name);

/* 5.2: min(1, max(0, climate + shift)), and the PUE of a rung there. */
double cooling_free_cooling(const struct cooling_model *m, int climate, int mode);
double cooling_pue(const struct cooling_model *m, int rung, int climate, int mode);

/* 5.3: the rungs whose ceiling is >= kw (kw > 0), in ladder order, into
 * out[COOLING_RUNGS]; returns their count. */
size_t cooling_feasible(const struct cooling_model *m, double kw, int *out);
double cooling_ride_through(const struct cooling_model *m, int rung, double kw);
/* The rung with the least ride-through at its own ceiling (first minimum). */
int cooling_thinnest(const struct cooling_model *m);

/* 5.4. it_mw and freed_mw return 0, or -1 with *why set to the broken
 * bound ("feed_mw must be > 0", "pue_to must be >= 1.0", ...). */
int cooling_it_mw(double feed_mw, double pue, double *out, const char **why);
int cooling_freed_mw(double feed_mw, double pue_from, double pue_to,
		     double *out, const char **why);
/* Whole 8-GPU nodes of max(mw, 0), times 8. */
int64_t cooling_h100(double mw);
double cooling_retrofit_cost(const struct cooling_model *m, double feed_mw,
			     double pue_to, int rung);

/* CPython 3.12+ sum() of floats (Neumaier). statistics.mean is exact_mean
 * (core/models/exact_mean.h). */
double cooling_sum(const double *x, size_t n);

/* ---- admission (5.5), cooling_admit.c ---------------------------------------- */

struct cooling_hall {
	const char *id;
	size_t idlen;
	int feeder;          /* index into the plan's feeders */
	int rung, climate, mode;
	double kw, racks_running, feed_mw;
};

struct cooling_feeder {
	const char *id;
	size_t idlen;
	double limit_mw, max_step_mw;
	double tenant_mw;    /* running_mw of other tenants */
	int has_tenant;
};

struct cooling_start {
	int hall;            /* index into the plan's halls */
	double racks;
};

struct cooling_plan {
	const struct cooling_hall *halls;
	size_t nhalls;
	const struct cooling_feeder *feeders;
	size_t nfeeders;
	const struct cooling_start *start;   /* in document order */
	size_t nstart;
	double need_s;
};

enum cooling_reason_rule {
	COOLING_R_RUNG_CEILING,
	COOLING_R_RIDE_THROUGH,
	COOLING_R_HALL_HEADROOM,
	COOLING_R_FEEDER_CEILING,
	COOLING_R_FEEDER_STEP,
	COOLING_R_STAGGER
};

/* One reason; the meaning of a, b, c per rule (spec 6.3 figures):
 * rung-ceiling kw, max_kw; ride-through held, need, kw; hall-headroom step,
 * headroom; feeder-ceiling carried, step, limit; feeder-step the hall's
 * step, the group's step, max_step; stagger step, max_step (count: halls). */
struct cooling_reason {
	enum cooling_reason_rule rule;
	int hall;            /* -1 when none */
	int feeder;          /* -1 when none */
	double a, b, c;
	size_t count;
};

enum cooling_verdict { COOLING_ADMIT, COOLING_STAGGER, COOLING_DENY };

enum cooling_outcome {
	COOLING_O_NONE,      /* no start hall on the feeder */
	COOLING_O_FITS,
	COOLING_O_CEILING,
	COOLING_O_ALONE_STEP,
	COOLING_O_STAGGER
};

struct cooling_hall_out {
	double pue, ride_through_s; /* ride_through_s NaN when over the ceiling */
	double running_mw, headroom_mw;
	double start_racks;
	double step_mw;      /* NaN when not in the start */
};

struct cooling_feeder_out {
	double carried_mw, start_step_mw;
	enum cooling_outcome outcome;
	int checked;         /* the feeder phase ran and this feeder has start halls */
	int biggest;         /* the hall of the largest step (alone-step), or -1 */
	double biggest_mw;
	size_t start_halls;
};

/* Buffers the caller provides, sized from the plan. */
struct cooling_admission {
	enum cooling_verdict verdict;
	double total_step_mw;
	struct cooling_reason *reasons;  /* nhalls + 2 * nstart + nfeeders */
	size_t nreasons;
	int *by_id;          /* nstart: start positions sorted by hall id */
	int *stagger;        /* nstart: hall indices of the stagger order */
	size_t nstagger;
	struct cooling_hall_out *halls;  /* nhalls */
	struct cooling_feeder_out *feeders; /* nfeeders */
	int *scratch;        /* nstart + 2 * nfeeders: feeder order, merge space */
	double *sums;        /* nhalls + nstart */
	/* Halls grouped by feeder in document order, and start positions
	 * grouped by feeder in start order: group f is [off[f], off[f + 1]). */
	int *hall_group;     /* nhalls */
	int *hall_off;       /* nfeeders + 1 */
	int *start_group;    /* nstart */
	int *start_off;      /* nfeeders + 1 */
};

/* Size of the reasons buffer a plan needs. */
size_t cooling_admission_max_reasons(const struct cooling_plan *p);

/* Run 5.5 steps 2-9 (references are the caller's: every index must be
 * valid). Returns 0, or -1 with *why set when an index is out of range. */
int cooling_admit(const struct cooling_model *m, const struct cooling_plan *p,
		  struct cooling_admission *a, const char **why);

/* Byte-wise id order (code point order for UTF-8). */
int cooling_id_cmp(const char *a, size_t alen, const char *b, size_t blen);

/* ---- fleet (5.6), cooling_fleet.c --------------------------------------------- */

struct cooling_year {
	int year;
	double survey_avg, energy_weighted, it_mw;
	size_t sites, surveyed;
};

struct mt19937;

/* Simulate years start..end (out[end - start + 1]) with n legacy sites
 * from the seeded generator 'rng'. Returns 0, or -1 when memory runs out
 * or the site list would pass 'max_sites'. */
int cooling_simulate(const struct cooling_model *m, struct mt19937 *rng,
		     int start, int end, size_t n, size_t max_sites,
		     struct cooling_year *out);

/* The same for seeds 0..nseeds-1, each from its own generator (seeded as
 * random.Random(seed)), on a few threads: out[seed * (end - start + 1) +
 * year - start]. The figures are those of nseeds calls in order. Returns 0,
 * or -1 as cooling_simulate does for any seed. */
int cooling_simulate_seeds(const struct cooling_model *m, size_t nseeds, int start,
			   int end, size_t n, size_t max_sites, struct cooling_year *out);

#endif
