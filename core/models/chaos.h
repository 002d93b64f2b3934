/*
 * chaos.h: the "two clocks" of the chaos pack (spec/chaos.md 5.2, 5.3).
 * When a fabric link goes down, RDMA traffic stalls and two clocks run:
 * the NIC's transport retries (InfiniBand local ACK timeout 4.096 us x
 * 2^T, retried R times) and the framework's c10d watchdog. Whichever
 * fires first ends an outage that lasts long enough; a shorter outage is
 * survived. Pure functions of numbers: no Lua, no I/O, no globals.
 *
 * Every figure must match the Python reference bit for bit, so the ACK
 * timeout is ldexp(u, T) (exact: a power of two times u) and the give-up
 * is one rounded multiplication of that double by R.
 *
 * The policy values (T = 20, R = 7, W = 600 s, the 10 % band) live in the
 * pack's registry data (rules/chaos/registry/policy.yaml) and are passed in
 * by the rules; the defaults below exist for `infragate models` users.
 */
#ifndef INFRAGATE_MODELS_CHAOS_H
#define INFRAGATE_MODELS_CHAOS_H

/* The InfiniBand local ACK timeout unit, seconds (4.096 us). */
#define CHAOS_IB_TIMEOUT_UNIT_S 0.000004096
/* The relative band around the give-up treated as a coin flip. */
#define CHAOS_TWO_CLOCK_MARGIN 0.10
/* Domains of the NCCL parameters: NCCL_IB_TIMEOUT 1..31, RETRY_CNT 0..7. */
#define CHAOS_TIMEOUT_MIN 1
#define CHAOS_TIMEOUT_MAX 31
#define CHAOS_RETRY_MAX 7

/* Formula switches a validation mutation may turn on (spec/chaos.md
 * 10.4, `variant`): the give-up counts R + 1 tries instead of R. */
#define CHAOS_V_R_PLUS_ONE 0x1u

/* a(T) = u x 2^T, seconds. */
double chaos_ack_timeout_s(int timeout, double unit_s);

/* G(T, R) = a(T) x R (x (R + 1) under CHAOS_V_R_PLUS_ONE), seconds. */
double chaos_give_up_s(int timeout, int retry_cnt, double unit_s,
		       unsigned variant);

/* One evaluation of the two clocks (spec/chaos.md 5.2, 9.3). */
struct chaos_two_clocks {
	int timeout, retry_cnt;  /* T, R as given */
	double ack_timeout_s;    /* a(T) */
	double give_up_s;        /* G(T, R) */
	double c10d_timeout_s;   /* W */
	int first_is_watchdog;   /* G > W */
	double first_clock_s;    /* min(G, W): G when G <= W */
	int has_hold;            /* an outage length was given */
	double hold_s;
	int crash;               /* hold >= first_clock_s (with has_hold) */
	int has_margin;          /* has_hold and G > 0 */
	double margin;           /* (hold - G) / G */
	int within_margin;       /* |hold - G| < band x G */
};

/* Evaluate the two clocks. Arguments are assumed inside their domains
 * (the Lua binding checks them); 'hold_s' is read only when 'has_hold'. */
void chaos_two_clocks(int timeout, int retry_cnt, double c10d_timeout_s,
		      int has_hold, double hold_s, double unit_s, double band,
		      unsigned variant, struct chaos_two_clocks *out);

#endif
