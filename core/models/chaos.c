/*
 * chaos.c: the two-clocks model of the chaos pack (spec/chaos.md 5.2,
 * 5.3) and its three descriptors: chaos.ack_timeout_s and
 * chaos.transport_give_up_s go through the generic binding of
 * core/lua/l_models.c; chaos.two_clocks returns a table with strings and
 * nulls in it, so it has its own converter (core/lua/l_model_chaos_two_clocks.c)
 * and is listed as a table model. The arithmetic is exactly the
 * reference's: ldexp for the ACK timeout, one multiplication for the
 * give-up, one subtraction and one division for the margin.
 */
#include "core/models/chaos.h"

#include <math.h>
#include <stddef.h>

#include "core/models/model.h"

double chaos_ack_timeout_s(int timeout, double unit_s)
{
	return ldexp(unit_s, timeout);
}

double chaos_give_up_s(int timeout, int retry_cnt, double unit_s,
		       unsigned variant)
{
	int tries = (variant & CHAOS_V_R_PLUS_ONE) ? retry_cnt + 1 : retry_cnt;

	return chaos_ack_timeout_s(timeout, unit_s) * (double)tries;
}

void chaos_two_clocks(int timeout, int retry_cnt, double c10d_timeout_s,
		      int has_hold, double hold_s, double unit_s, double band,
		      unsigned variant, struct chaos_two_clocks *out)
{
	double g = chaos_give_up_s(timeout, retry_cnt, unit_s, variant);

	out->timeout = timeout;
	out->retry_cnt = retry_cnt;
	out->ack_timeout_s = chaos_ack_timeout_s(timeout, unit_s);
	out->give_up_s = g;
	out->c10d_timeout_s = c10d_timeout_s;
	/* The transport is first when it gives up no later than the watchdog. */
	out->first_is_watchdog = !(g <= c10d_timeout_s);
	out->first_clock_s = out->first_is_watchdog ? c10d_timeout_s : g;
	out->has_hold = has_hold;
	out->hold_s = has_hold ? hold_s : 0.0;
	out->crash = has_hold && hold_s >= out->first_clock_s;
	out->has_margin = has_hold && g > 0.0;
	out->margin = out->has_margin ? (hold_s - g) / g : 0.0;
	out->within_margin = out->has_margin && fabs(hold_s - g) < band * g;
}

/* ---- descriptors ----------------------------------------------------------- */

#define ARG_TIMEOUT                                                        \
	{ "timeout", "exponent", CHAOS_TIMEOUT_MIN, CHAOS_TIMEOUT_MAX, NAN, \
	  MODEL_ARG_INTEGER }
#define ARG_RETRY                                                          \
	{ "retry_cnt", "tries", 0, CHAOS_RETRY_MAX, NAN, MODEL_ARG_INTEGER }
#define ARG_UNIT                                                           \
	{ "unit_s", "s", 0, NAN, CHAOS_IB_TIMEOUT_UNIT_S, MODEL_ARG_LO_OPEN }

static const char *const sw_give_up[] = { "r_plus_one" };

static int eval_ack(const double *in, double *out, unsigned variant,
		    struct diag *err)
{
	(void)variant;
	(void)err;
	out[0] = chaos_ack_timeout_s((int)in[0], in[1]);
	return 0;
}

static int eval_give_up(const double *in, double *out, unsigned variant,
			struct diag *err)
{
	(void)err;
	out[0] = chaos_give_up_s((int)in[0], (int)in[1], in[2],
				 (variant & 1u) ? CHAOS_V_R_PLUS_ONE : 0u);
	return 0;
}

static const struct model_arg args_ack[] = { ARG_TIMEOUT, ARG_UNIT };

const struct model model_chaos_ack_timeout_s = {
	"chaos.ack_timeout_s",
	"InfiniBand local ACK timeout u x 2^timeout (NCCL_IB_TIMEOUT), s",
	args_ack, 2, "s", NULL, 1, NULL, 0, eval_ack, NULL
};

static const struct model_arg args_give_up[] = { ARG_TIMEOUT, ARG_RETRY, ARG_UNIT };

const struct model model_chaos_transport_give_up_s = {
	"chaos.transport_give_up_s",
	"RDMA transport give-up: ACK timeout x retry_cnt (NCCL_IB_RETRY_CNT), s",
	args_give_up, 3, "s", NULL, 1, sw_give_up, 1, eval_give_up, NULL
};

/* The arguments of chaos.two_clocks, in positional order. hold_s has no
 * default: nil means no outage was given (the converter's business). */
static const struct model_arg args_two_clocks[] = {
	ARG_TIMEOUT,
	ARG_RETRY,
	{ "c10d_timeout_s", "s", 0, NAN, NAN, MODEL_ARG_LO_OPEN },
	{ "hold_s", "s", 0, NAN, NAN, 0 },
	ARG_UNIT,
	{ "margin", "ratio", 0, NAN, CHAOS_TWO_CLOCK_MARGIN, 0 },
};

static const char *const outs_two_clocks[] = {
	"nccl_ib_timeout", "nccl_ib_retry_cnt", "ack_timeout_s", "give_up_s",
	"c10d_timeout_s", "first_clock", "first_clock_s", "hold_s", "outcome",
	"ended_by", "error_at_s", "margin", "within_margin",
};

const struct model model_chaos_two_clocks = {
	"chaos.two_clocks",
	"the two clocks of a fabric outage: transport give-up against the c10d watchdog",
	args_two_clocks, 6, "s",
	outs_two_clocks, sizeof outs_two_clocks / sizeof outs_two_clocks[0],
	sw_give_up, 1, NULL,
	"positional numbers (timeout, retry_cnt, c10d_timeout_s[, hold_s[, unit_s[, margin]]]) "
	"or one table of them by name; hold_s nil: no outage"
};
