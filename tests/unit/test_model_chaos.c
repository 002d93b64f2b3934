/*
 * test_model_chaos.c: the two-clocks model of the chaos pack against the
 * figures of spec/chaos.md: appendix A (ACK timeout and give-up for
 * T = 1..31 at R = 7), its "other checks", the figures of 5.2 and 9.3,
 * and the failing values the mutations of 10.4 must produce. Every
 * comparison is exact (eq(dbl, ...)) on purpose: the spec gives the repr
 * of the double, and the model must reproduce it bit for bit.
 */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <math.h>
#include <string.h>

#include "core/models/chaos.h"
#include "core/models/model.h"

#define U CHAOS_IB_TIMEOUT_UNIT_S

/* ---- appendix A: a(T) and G(T, 7) -------------------------------------------- */

struct vector {
	int t;
	double ack, give_up;
};

static const struct vector appendix_a[] = {
	{ 1, 8.192e-06, 5.7344000000000005e-05 },
	{ 14, 0.067108864, 0.46976204800000004 },
	{ 16, 0.268435456, 1.8790481920000002 },
	{ 18, 1.073741824, 7.516192768000001 },
	{ 19, 2.147483648, 15.032385536000001 },
	{ 20, 4.294967296, 30.064771072000003 },
	{ 21, 8.589934592, 60.129542144000006 },
	{ 22, 17.179869184, 120.25908428800001 },
	{ 24, 68.719476736, 481.03633715200004 },
	{ 25, 137.438953472, 962.0726743040001 },
	{ 31, 8796.093022208, 61572.651155456006 },
};

Test(chaos, appendix_a_vectors)
{
	size_t i;

	for (i = 0; i < sizeof appendix_a / sizeof appendix_a[0]; i++) {
		const struct vector *v = &appendix_a[i];

		cr_expect(eq(dbl, chaos_ack_timeout_s(v->t, U), v->ack), "a(%d)", v->t);
		cr_expect(eq(dbl, chaos_give_up_s(v->t, 7, U, 0), v->give_up),
			  "G(%d, 7)", v->t);
	}
}

Test(chaos, retry_count_edges)
{
	/* Appendix A, other checks: R = 0 gives no transport time at all. */
	cr_assert(eq(dbl, chaos_give_up_s(20, 0, U, 0), 0.0));
	cr_assert(eq(dbl, chaos_give_up_s(20, 1, U, 0), 4.294967296));
}

/* ---- 5.2 and 9.3: one evaluation --------------------------------------------- */

Test(chaos, two_clocks_release_18_hold_7_6)
{
	struct chaos_two_clocks r;

	/* The example document of spec 9.3. */
	chaos_two_clocks(18, 7, 600.0, 1, 7.6, U, CHAOS_TWO_CLOCK_MARGIN, 0, &r);
	cr_assert(eq(dbl, r.ack_timeout_s, 1.073741824));
	cr_assert(eq(dbl, r.give_up_s, 7.516192768000001));
	cr_assert(eq(int, r.first_is_watchdog, 0));
	cr_assert(eq(dbl, r.first_clock_s, 7.516192768000001));
	cr_assert(eq(int, r.crash, 1));
	cr_assert(eq(int, r.has_margin, 1));
	cr_assert(eq(dbl, r.margin, 0.011150223868233677));
	cr_assert(eq(int, r.within_margin, 1));
}

Test(chaos, two_clocks_defaults_without_hold)
{
	struct chaos_two_clocks r;

	/* The conformance case two-clocks-default: 30.06 s before 600 s. */
	chaos_two_clocks(20, 7, 600.0, 0, 0.0, U, CHAOS_TWO_CLOCK_MARGIN, 0, &r);
	cr_assert(eq(dbl, r.give_up_s, 30.064771072000003));
	cr_assert(eq(int, r.first_is_watchdog, 0));
	cr_assert(eq(int, r.has_hold, 0));
	cr_assert(eq(int, r.crash, 0));
	cr_assert(eq(int, r.has_margin, 0));
}

Test(chaos, watchdog_first_at_large_timeout)
{
	struct chaos_two_clocks r;

	/* Appendix A: at (25, 7) with W = 600 the watchdog fires first, at
	 * 600.0 s, and a 700 s hold is ended by it. */
	chaos_two_clocks(25, 7, 600.0, 1, 700.0, U, CHAOS_TWO_CLOCK_MARGIN, 0, &r);
	cr_assert(eq(dbl, r.give_up_s, 962.0726743040001));
	cr_assert(eq(int, r.first_is_watchdog, 1));
	cr_assert(eq(dbl, r.first_clock_s, 600.0));
	cr_assert(eq(int, r.crash, 1));
}

Test(chaos, comparisons_are_inclusive)
{
	struct chaos_two_clocks r;
	double g = 30.064771072000003;

	/* 5.2: a hold exactly equal to G crashes; the catalog's 5 s survives
	 * and its 60 s crashes (spec 7, specs 9 and 22). */
	chaos_two_clocks(20, 7, 600.0, 1, g, U, CHAOS_TWO_CLOCK_MARGIN, 0, &r);
	cr_assert(eq(int, r.crash, 1));
	cr_assert(eq(dbl, r.margin, 0.0));
	chaos_two_clocks(20, 7, 600.0, 1, 5.0, U, CHAOS_TWO_CLOCK_MARGIN, 0, &r);
	cr_assert(eq(int, r.crash, 0));
	cr_assert(eq(int, r.within_margin, 0));
	chaos_two_clocks(20, 7, 600.0, 1, 60.0, U, CHAOS_TWO_CLOCK_MARGIN, 0, &r);
	cr_assert(eq(int, r.crash, 1));
	/* G equal to W: the transport is first (G <= W). */
	chaos_two_clocks(20, 7, g, 0, 0.0, U, CHAOS_TWO_CLOCK_MARGIN, 0, &r);
	cr_assert(eq(int, r.first_is_watchdog, 0));
}

Test(chaos, zero_retries_have_no_margin)
{
	struct chaos_two_clocks r;

	/* 5.2: R = 0 gives G = 0, any outage outlasts the transport, and the
	 * margin is undefined (null in JSON). */
	chaos_two_clocks(1, 0, 600.0, 1, 0.0, U, CHAOS_TWO_CLOCK_MARGIN, 0, &r);
	cr_assert(eq(dbl, r.give_up_s, 0.0));
	cr_assert(eq(int, r.crash, 1));
	cr_assert(eq(int, r.has_margin, 0));
	cr_assert(eq(int, r.within_margin, 0));
}

/* ---- 10.4: the failing values of the formula mutations ------------------------- */

Test(chaos, mutation_r_plus_one)
{
	cr_assert(eq(dbl, chaos_give_up_s(20, 7, U, CHAOS_V_R_PLUS_ONE), 34.359738368));
	cr_assert(eq(dbl, chaos_give_up_s(18, 7, U, CHAOS_V_R_PLUS_ONE), 8.589934592));
}

Test(chaos, mutation_timeout_unit_ms)
{
	/* The mutation scales the policy unit by 1000 (4.096 us -> ms); the
	 * product 0.004096000000000001 is what gives the spec's figures. */
	double ms = U * 1000.0;

	cr_assert(eq(dbl, chaos_give_up_s(20, 7, ms, 0), 30064.771072000003));
	cr_assert(eq(dbl, chaos_give_up_s(18, 7, ms, 0), 7516.192768000001));
}

/* ---- descriptors (spec 5.3) ------------------------------------------------------ */

Test(chaos, descriptors_and_domains)
{
	const struct model *ack = model_find("chaos.ack_timeout_s");
	const struct model *g = model_find("chaos.transport_give_up_s");
	const struct model *tc = model_find("chaos.two_clocks");
	struct diag err;

	cr_assert_not_null(ack);
	cr_assert_not_null(g);
	cr_assert_not_null(tc);
	cr_assert(eq(sz, tc->nargs, 6));
	cr_assert(eq(int, strcmp(tc->outs[0], "nccl_ib_timeout"), 0));
	cr_assert(eq(int, strcmp(tc->outs[tc->nout - 1], "within_margin"), 0));
	diag_init(&err);
	/* timeout integer 1..31, retry_cnt 0..7, unit_s > 0 */
	cr_assert(eq(int, model_check_arg(&ack->args[0], 0, &err), -1));
	cr_assert(eq(int, model_check_arg(&ack->args[0], 32, &err), -1));
	cr_assert(eq(int, model_check_arg(&ack->args[0], 20.5, &err), -1));
	cr_assert(eq(int, model_check_arg(&ack->args[0], 31, &err), 0));
	cr_assert(eq(int, model_check_arg(&g->args[1], 8, &err), -1));
	cr_assert(eq(int, model_check_arg(&g->args[1], 0, &err), 0));
	cr_assert(eq(int, model_check_arg(&ack->args[1], 0.0, &err), -1));
	cr_assert(eq(int, model_check_arg(&ack->args[1], NAN, &err), -1));
	cr_assert(eq(int, model_check_arg(&ack->args[1], INFINITY, &err), -1));
	/* c10d_timeout_s > 0, hold_s >= 0, margin >= 0 */
	cr_assert(eq(int, model_check_arg(&tc->args[2], 0.0, &err), -1));
	cr_assert(eq(int, model_check_arg(&tc->args[3], -1.0, &err), -1));
	cr_assert(eq(int, model_check_arg(&tc->args[3], 0.0, &err), 0));
	cr_assert(eq(int, model_check_arg(&tc->args[5], -0.1, &err), -1));
}
