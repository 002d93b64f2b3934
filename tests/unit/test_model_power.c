/*
 * test_model_power.c: the power models against the figures of
 * spec/power.md 4.1-4.9, 5.2-5.8 and 7.2, and the price vector
 * tests/unit/vectors/power-prices-default-seed0.tsv (copied from
 * spec/vectors). Exact double equality (eq(dbl, ...)) is on purpose: the
 * spec pins these figures bit for bit (section 10).
 */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/models/power.h"

#define PRICE_VECTOR "tests/unit/vectors/power-prices-default-seed0.tsv"

static const struct pw_job JOB = { 405.0, 16384, 1.4, 2.5, 100.0, 0.5, 0.02, 60.0, 30.0 };

static struct pw_fleet_config fleet_defaults(long horizon)
{
	struct pw_fleet_config c = { horizon, 100.0, 0.3, 0, 50.0, 20.0, 0.004, 4,
				     500.0, 5000.0, 200.0, 0.005, PW_MOST_EXPENSIVE_FIRST };
	return c;
}

/* ---- one job (5.2, 5.3, 4.1-4.3) ------------------------------------------ */

Test(power, migration_defaults)
{
	struct pw_migration m;

	pw_migration(&JOB, 0, &m);
	cr_assert(eq(dbl, m.state_gb, 6480.0));
	cr_assert(eq(dbl, m.power_mw, 22.9376));
	cr_assert(eq(dbl, m.transfer_h, 0.144));
	cr_assert(eq(dbl, m.downtime_h, 0.644));
	cr_assert(eq(dbl, m.idle_dollars, 26378.24));
	cr_assert(eq(dbl, m.egress_dollars, 129.6));
	cr_assert(eq(dbl, m.cost_dollars, 26507.84));
	/* The gloss-12-bytes mutation (7.4): point 1 reads 4860. */
	pw_migration(&JOB, PW_V_GLOSS_12_BYTES, &m);
	cr_assert(eq(dbl, m.state_gb, 4860.0));
}

struct decide_case { double length, net, saving; int move; };

ParameterizedTestParameters(power, decide)
{
	static struct decide_case rows[] = {
		{ 24, -10436.0, 16072.0, 0 },   /* 5.3 worked figures */
		{ 96, 39109.0, 65617.0, 1 },    /* conformance decide-96h-moves */
		{ 168, 88655.0, 115162.0, 1 },  /* 4.1 */
		{ 0.5, -26508.0, 0.0, 0 },      /* inside the migration window */
	};
	return cr_make_param_array(struct decide_case, rows, sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct decide_case *c, power, decide)
{
	struct pw_decide d;

	pw_decide(&JOB, c->length, 0, &d);
	cr_assert(eq(dbl, pw_round(d.net_dollars, 0), c->net));
	cr_assert(eq(dbl, pw_round(d.saving_dollars, 0), c->saving));
	cr_assert(eq(int, d.move, c->move));
}

Test(power, decide_unrounded_168)
{
	struct pw_decide d;

	pw_decide(&JOB, 168, 0, &d);
	cr_assert(eq(dbl, d.net_dollars, 88654.50956800001));
	cr_assert(eq(dbl, d.saving_dollars, 115162.349568));
	cr_assert(eq(dbl, d.remaining_h, 167.356));
	cr_assert(eq(dbl, d.energy_share, 0.033600000000000005));
	cr_assert(eq(dbl, pw_round(d.energy_share, 4), 0.0336));
}

Test(power, breakeven)
{
	static const double lengths[] = { 24, 72, 168, 720 };
	static const double spreads[] = { 49.4797958386343, 16.195556247647612,
					  6.905340182647428, 1.6065065302953514 };
	double bl, slow;
	struct pw_job j = JOB;
	size_t i;

	for (i = 0; i < 4; i++)
		cr_assert(eq(dbl, pw_breakeven_spread(&JOB, lengths[i], 0), spreads[i]));
	cr_assert(eq(int, pw_breakeven_length(&JOB, 30.0, 0, &bl), 0));
	cr_assert(eq(dbl, bl, 39.16567038690476));
	/* Registry point 15: the closed form inverts exactly. */
	cr_assert(eq(dbl, pw_breakeven_spread(&JOB, bl, 0), 30.0));
	cr_assert(eq(int, pw_breakeven_length(&JOB, 0.0, 0, &bl), -1));
	cr_assert(eq(int, pw_breakeven_length(&JOB, -5.0, 0, &bl), -1));
	/* Mutations of 7.4: gloss-12-bytes and slow-wan move point 14. */
	pw_breakeven_length(&JOB, 30.0, PW_V_GLOSS_12_BYTES, &bl);
	cr_assert(eq(dbl, bl, 36.939728980654756));
	j.wan_gbps = 12.5;
	pw_breakeven_length(&j, 30.0, 0, &slow);
	cr_assert(eq(dbl, slow, 100.17367038690476));
	/* Inside the window the clamp gives a huge finite figure, not a break-even. */
	cr_assert(isfinite(pw_breakeven_spread(&JOB, 0.1, 0)));
	cr_assert(gt(dbl, pw_breakeven_spread(&JOB, 0.1, 0), 1e12));
}

Test(power, scarcity)
{
	struct pw_scarcity s;

	pw_scarcity(&JOB, 5000, 12, 0, &s);
	cr_assert(eq(dbl, s.stay_dollars, 1376256.0));
	cr_assert(eq(dbl, s.move_dollars, 34765.376000000004));
	cr_assert(eq(dbl, s.net_benefit, 1341490.624));
	pw_scarcity(&JOB, 4200, 9, 0, &s);
	cr_assert(eq(dbl, pw_round(s.stay_dollars, 0), 867041.0));
	cr_assert(eq(dbl, pw_round(s.move_dollars, 0), 32701.0));
	cr_assert(eq(dbl, s.net_benefit, 834340.2880000001));
}

/* ---- prices (5.4) ------------------------------------------------------------ */

Test(power, sine_table)
{
	cr_assert(eq(dbl, pw_diurnal_sin[0], -1.0));
	cr_assert(eq(dbl, pw_diurnal_sin[1], -0.9659258262890684));
	cr_assert(eq(dbl, pw_diurnal_sin[14], 0.8660254037844387));
	cr_assert(eq(dbl, pw_diurnal_sin[18], 1.2246467991473532e-16));
	cr_assert(eq(dbl, pw_diurnal_sin[20], -0.5000000000000001));
	cr_assert(eq(dbl, pw_diurnal_sin[23], -0.9659258262890684));
}

Test(power, price_vector_bit_for_bit)
{
	struct pw_fleet_config c = fleet_defaults(720);
	double p[720];
	char line[256];
	int rows = 0;
	FILE *f = fopen(PRICE_VECTOR, "r");

	cr_assert_not_null(f, "cannot open %s", PRICE_VECTOR);
	pw_prices(&c, p, NULL, NULL);
	while (fgets(line, sizeof line, f)) {
		char text[64];
		int h;

		if (line[0] == '#' || sscanf(line, "%d\t%63s", &h, text) != 2)
			continue;
		cr_assert(lt(int, h, 720));
		/* Exact on purpose: the vector pins every bit. */
		cr_assert(eq(dbl, p[h], strtod(text, NULL)), "hour %d", h);
		rows++;
	}
	fclose(f);
	cr_assert(eq(int, rows, 720));
}

Test(power, price_spikes)
{
	static const long starts[] = { 111, 118, 186, 452, 540, 579 };
	static const double mags[] = { 3496.8083314469486, 3344.540951473868,
				       2671.419299007528, 4504.980110639221,
				       4027.4642358472775, 2825.885829601598 };
	struct pw_fleet_config c = fleet_defaults(720);
	static double p[8760];
	static struct pw_spike sp[8760];
	size_t n, i;

	pw_prices(&c, p, sp, &n);
	cr_assert(eq(sz, n, 6));
	for (i = 0; i < n; i++) {
		cr_assert(eq(long, sp[i].start_h, starts[i]));
		cr_assert(eq(dbl, sp[i].magnitude_mwh, mags[i]));
	}
	cr_assert(eq(dbl, p[0], 30.502920884373573));
	cr_assert(eq(dbl, p[7], 58.964704754567386));
	cr_assert(eq(dbl, p[455], 4504.980110639221));
	c.horizon_h = 8760;
	pw_prices(&c, p, sp, &n);
	cr_assert(eq(sz, n, 38));
	cr_assert(eq(long, sp[0].start_h, 311));
	cr_assert(eq(dbl, sp[0].magnitude_mwh, 3608.3123858734252));
	cr_assert(eq(long, sp[1].start_h, 481));
	cr_assert(eq(dbl, sp[1].magnitude_mwh, 2717.8375736884927));
}

/* ---- summation (5.6) and the exact mean (5.9) ----------------------------------- */

Test(power, pairwise_sum_shapes)
{
	static double a[20000];
	double seq = 0.0;
	size_t i;

	/* Below 8 elements the sum is sequential. */
	cr_assert(eq(dbl, pw_pairwise_sum((const double[]){ 0.1, 0.2, 0.3 }, 3),
		     (0.1 + 0.2) + 0.3));
	/* Eight accumulators for 8..128: r[0] = 2e16, r[1..7] = 2, combined as
	 * ((2e16 + 2) + 4) + 8 = 2e16 + 12 (2e16 + 2 ties to 2e16); the
	 * sequential sum rounds differently. */
	for (i = 0; i < 16; i++)
		a[i] = i % 8 == 0 ? 1e16 : 1.0;
	for (i = 0; i < 16; i++)
		seq += a[i];
	cr_assert(eq(dbl, pw_pairwise_sum(a, 16), 2e16 + 12.0));
	cr_assert(ne(dbl, seq, 2e16 + 12.0));
	for (i = 0; i < 20000; i++)
		a[i] = 1.0;
	cr_assert(eq(dbl, pw_pairwise_sum(a, 20000), 20000.0));
	cr_assert(eq(dbl, pw_pairwise_sum(a, 0), 0.0));
}

/* ---- the offline fleet (5.5, 4.5) ----------------------------------------------- */

Test(power, fleet_month_seed0)
{
	struct pw_fleet_config c = fleet_defaults(720);
	struct pw_fleet_result r = { 0 };
	long hours[720];
	struct diag err;

	r.curtailed_hours = hours;
	diag_init(&err);
	cr_assert(eq(int, pw_fleet(&c, &r, &err), 0));
	cr_assert(eq(long, r.hours_curtailed, 3));
	cr_assert(eq(long, r.eligible_hours, 24));
	cr_assert(eq(dbl, r.curtailed_frac_of_uptime, 0.00417));
	cr_assert(eq(dbl, r.blind_cost, 11830195.0));
	cr_assert(eq(dbl, r.aware_cost, 11426584.0));
	cr_assert(eq(dbl, r.saving, 403611.0));
	cr_assert(eq(dbl, r.saving_pct, 0.0341));
	cr_assert(eq(dbl, r.gross_avoided, 405448.0));
	cr_assert(eq(dbl, r.top1pct_frac, 1.0));
	cr_assert(eq(dbl, r.max_price, 4505.0));
	cr_assert(eq(long, r.top1pct_hours, 7));
	cr_assert(eq(dbl, r.u_blind, 11830195.03643223));
	cr_assert(eq(dbl, r.u_firm_cost, 8281136.525502561));
	cr_assert(eq(dbl, r.u_flex_cost, 3143610.300972142));
	cr_assert(eq(dbl, r.u_deferral, 1836.770216269445));
	cr_assert(eq(dbl, r.u_aware, 11426583.596690971));
	cr_assert(eq(dbl, r.u_saving, 403611.43974125944));
	cr_assert(eq(long, hours[0], 452));
	cr_assert(eq(long, hours[1], 453));
	cr_assert(eq(long, hours[2], 454));
}

Test(power, fleet_year_and_budget_truncation)
{
	struct pw_fleet_config c = fleet_defaults(8760);
	struct pw_fleet_result r = { 0 };
	struct diag err;

	diag_init(&err);
	pw_fleet(&c, &r, &err);
	cr_assert(eq(long, r.budget_hours, 43));
	cr_assert(eq(dbl, r.saving, 5741334.0));
	cr_assert(eq(dbl, r.saving_pct, 0.0686));
	c.horizon_h = 100; /* 0.005 x 100 truncates to 0 hours */
	memset(&r, 0, sizeof r);
	pw_fleet(&c, &r, &err);
	cr_assert(eq(long, r.budget_hours, 0));
	cr_assert(eq(long, r.hours_curtailed, 0));
	cr_assert(eq(dbl, r.top1pct_frac, 0.0));
}

Test(power, fleet_orders_month_seed0)
{
	struct pw_fleet_config c = fleet_defaults(720);
	struct pw_fleet_result ranked = { 0 }, rnd = { 0 }, inv = { 0 };
	struct diag err;

	diag_init(&err);
	pw_fleet(&c, &ranked, &err);
	c.order = PW_RANDOM;
	pw_fleet(&c, &rnd, &err);
	c.order = PW_LEAST_EXPENSIVE_FIRST;
	pw_fleet(&c, &inv, &err);
	/* Every order spends the same budget; only the ranking picks the top. */
	cr_assert(eq(long, rnd.hours_curtailed, 3));
	cr_assert(eq(long, inv.hours_curtailed, 3));
	cr_assert(ge(dbl, ranked.u_saving, rnd.u_saving));
	cr_assert(gt(dbl, ranked.u_saving, inv.u_saving));
	cr_assert(eq(dbl, ranked.u_blind, inv.u_blind));
}

/* ---- the causal controller (5.7, 4.7) ------------------------------------------- */

Test(power, causal_four_hours)
{
	static const double p[] = { 10, 500, 500, 10 };
	struct pw_causal_opts o = { 100, 0.3, 200, 0.5, 50 };
	struct pw_action a[4];
	struct pw_causal r;
	struct diag err;

	diag_init(&err);
	cr_assert(eq(int, pw_causal(p, 4, &o, 0, a, &r, &err), 0));
	cr_assert(eq(dbl, r.cost, 87300.0));
	cr_assert(eq(dbl, r.blind, 102000.0));
	cr_assert(eq(dbl, r.saving, 14700.0));
	cr_assert(eq(dbl, r.served, 400.0));
	cr_assert(eq(dbl, r.unserved, 0.0));
	cr_assert(eq(dbl, r.flex, 30.0));
	cr_assert(eq(long, r.curtailed_hours, 1));
	cr_assert(eq(dbl, a[1].draw_mw, 70.0));
	cr_assert(eq(int, a[2].curtailed, 0));
	cr_assert(eq(dbl, a[3].draw_mw, 130.0));
	/* causal-never-catches-up leaves the debt unserved: no saving. */
	cr_assert(eq(int, pw_causal(p, 4, &o, PW_V_CAUSAL_NEVER_CATCHES_UP, a, &r, &err), 0));
	cr_assert(eq(int, r.has_saving, 0));
	cr_assert(eq(dbl, r.unserved, 30.0));
}

Test(power, causal_generated_year)
{
	struct pw_fleet_config c = fleet_defaults(8760);
	struct pw_causal_opts o = { 100, 0.3, 200, 0.005, 50 };
	static double p[8760];
	struct pw_causal r;
	struct diag err;

	pw_prices(&c, p, NULL, NULL);
	diag_init(&err);
	pw_causal(p, 8760, &o, 0, NULL, &r, &err);
	cr_assert(eq(dbl, r.cost, 80117191.35069203));
	cr_assert(eq(dbl, r.blind, 83642991.8135524));
	cr_assert(eq(dbl, r.saving, 3525800.4628603607));
	cr_assert(eq(long, r.curtailed_hours, 43));
}

/* The seed runners on threads give each seed exactly its own run's figures:
 * seed 0 of the year is the figure pinned above, and every seed equals a
 * run on its own. */
Test(power, seeds_on_threads_equal_runs_alone)
{
	struct pw_fleet_config c = fleet_defaults(8760);
	struct pw_causal_opts o = { 100, 0.3, 200, 0.005, 50 };
	struct pw_fleet_result fr[6], alone;
	struct pw_causal cr[6], calone;
	static double p[8760];
	struct diag err;
	size_t s;

	diag_init(&err);
	cr_assert_eq(pw_fleet_seeds(&c, 6, fr, &err), 0, "%s", err.msg);
	cr_assert_eq(pw_causal_seeds(&c, &o, 0, 6, cr, &err), 0, "%s", err.msg);
	cr_assert(eq(dbl, cr[0].cost, 80117191.35069203));
	for (s = 0; s < 6; s++) {
		c.seed = s;
		memset(&alone, 0, sizeof alone);
		cr_assert_eq(pw_fleet(&c, &alone, &err), 0);
		cr_assert(fr[s].saving == alone.saving && fr[s].u_saving == alone.u_saving &&
				  fr[s].hours_curtailed == alone.hours_curtailed,
			  "fleet seed %zu", s);
		pw_prices(&c, p, NULL, NULL);
		pw_causal(p, 8760, &o, 0, NULL, &calone, &err);
		cr_assert(cr[s].cost == calone.cost && cr[s].served == calone.served &&
				  cr[s].curtailed_hours == calone.curtailed_hours,
			  "causal seed %zu", s);
	}
}

/* ---- the span ledger (5.8, 4.8, 4.9) --------------------------------------------- */

static const struct pw_span_job SPAN = { 405.0, 16384, 168.0, 5.0, 1.4, 2.5, NAN,
					 100.0, 0.5, 0.02 };
static const struct pw_circuit CIRCUIT = { 2.0, 400.0, 15.0 };

Test(power, stitch_taxes)
{
	struct pw_cut cut;
	struct pw_circuit c = CIRCUIT;

	pw_cut_of(&SPAN, PW_CUT_PIPELINE, 4.0, 0, &cut);
	cr_assert(eq(dbl, pw_stitch_tax(&SPAN, &c, &cut, 0), 0.01652242328874902));
	cr_assert(eq(dbl, pw_stitch_tax(&SPAN, &c, &cut, PW_V_RTT_IN_SECONDS),
		     0.44933920704845814));
	pw_cut_of(&SPAN, PW_CUT_PIPELINE, 40.0, 0, &cut);
	cr_assert(eq(dbl, pw_stitch_tax(&SPAN, &c, &cut, 0), 0.13852515506547208));
	pw_cut_of(&SPAN, PW_CUT_ALLREDUCE, 4.0, 0, &cut);
	cr_assert(eq(dbl, cut.gb_per_step, 1620.0));
	cr_assert(eq(dbl, pw_stitch_tax(&SPAN, &c, &cut, 0), 0.8663244572772966));
	c.gbps = 4000.0;
	cr_assert(eq(dbl, pw_stitch_tax(&SPAN, &c, &cut, 0), 0.3934983017952451));
	pw_cut_of(&SPAN, PW_CUT_ALLREDUCE, 4.0, PW_V_FP32_GRADIENTS, &cut);
	c.gbps = 400.0;
	cr_assert(eq(dbl, pw_stitch_tax(&SPAN, &c, &cut, 0), 0.9283708669990258));
}

Test(power, hall_price)
{
	struct pw_hall h = { 0, 60, 5000, 24 };

	cr_assert(eq(dbl, pw_hall_spike_fraction(&h), 0.14285714285714285));
	cr_assert(eq(dbl, pw_hall_price(&h), 765.7142857142857));
	h.spike_hours_per_week = 0;
	cr_assert(eq(dbl, pw_hall_price(&h), 60.0));
	h.spike_hours_per_week = 168;
	cr_assert(eq(dbl, pw_hall_price(&h), 5000.0));
}

Test(power, ledger_defaults)
{
	struct pw_hall home = { 8192, 60, 0, 0 }, away = { 10000, 60, 0, 0 };
	struct pw_span_job j = SPAN;
	struct pw_ledger l;

	pw_ledger(&j, &home, &away, &CIRCUIT, PW_CUT_PIPELINE, 4.0, 0, &l);
	cr_assert(eq(int, l.decision, PW_STAY));
	cr_assert(eq(dbl, l.opt[PW_STAY].dollars, 7122731.008));
	cr_assert(eq(dbl, l.opt[PW_STAY].duration_h, 336.0));
	cr_assert(eq(dbl, l.opt[PW_STAY].r_per_useful, 2.5877));
	cr_assert(eq(dbl, l.opt[PW_STITCH].dollars, 7261051.032934399));
	cr_assert(eq(dbl, l.opt[PW_STITCH].duration_h, 170.8224));
	cr_assert(eq(dbl, l.opt[PW_STITCH].r_per_useful, 2.638));
	cr_assert(eq(int, l.opt[PW_MOVE].reason, PW_R_DESTINATION_TOO_SMALL));
	cr_assert(eq(dbl, l.opt[PW_BUY].dollars, 7112491.008));
	cr_assert(eq(dbl, l.opt[PW_BUY].r_per_useful, 2.584));
	cr_assert(eq(dbl, l.useful_gpu_h, 2752512.0));
	cr_assert(eq(long, l.deficit, 8192));
	/* With a 200 h deadline the pipeline stitch wins. */
	j.deadline_h = 200;
	pw_ledger(&j, &home, &away, &CIRCUIT, PW_CUT_PIPELINE, 4.0, 0, &l);
	cr_assert(eq(int, l.decision, PW_STITCH));
	cr_assert(eq(int, l.opt[PW_STAY].reason, PW_R_DEADLINE));
	cr_assert(eq(dbl, l.opt[PW_STITCH].r_dollars, 7261051.0));
	/* The all-reduce cut: 53,252,482 for 1256.8 h. */
	j.deadline_h = NAN;
	pw_ledger(&j, &home, &away, &CIRCUIT, PW_CUT_ALLREDUCE, 4.0, 0, &l);
	cr_assert(eq(dbl, l.opt[PW_STITCH].r_dollars, 53252482.0));
	cr_assert(eq(dbl, l.opt[PW_STITCH].r_duration_h, 1256.8));
	cr_assert(eq(dbl, l.opt[PW_STITCH].r_per_useful, 19.3469));
}

Test(power, ledger_spiky_home_and_escalate)
{
	struct pw_hall home = { 20000, 60, 5000, 12 }, away = { 20000, 60, 0, 0 };
	struct pw_span_job j = SPAN;
	struct pw_ledger l;

	j.deadline_h = 200;
	pw_ledger(&j, &home, &away, &CIRCUIT, PW_CUT_PIPELINE, 4.0, 0, &l);
	cr_assert(eq(int, l.decision, PW_MOVE));
	cr_assert(eq(dbl, l.opt[PW_MOVE].r_dollars, 7138999.0));
	cr_assert(eq(dbl, l.opt[PW_STITCH].r_dollars, 7952343.0));
	cr_assert(eq(dbl, l.opt[PW_STAY].r_dollars, 8472232.0));
	/* Two halls holding one GPU fewer than G, deadline too short to shrink. */
	home.free_gpus = 8192;
	away.free_gpus = 8191;
	pw_ledger(&j, &home, &away, &CIRCUIT, PW_CUT_PIPELINE, 4.0, 0, &l);
	cr_assert(eq(int, l.decision, -1));
	cr_assert(eq(int, l.opt[PW_STITCH].reason, PW_R_AWAY_SHORT));
	/* The conformance case: 9,000 + 8,000 free, 210 h deadline. */
	home.free_gpus = 9000;
	away.free_gpus = 8000;
	j.deadline_h = 210;
	pw_ledger(&j, &home, &away, &CIRCUIT, PW_CUT_PIPELINE, 4.0, 0, &l);
	cr_assert(eq(int, l.decision, PW_STITCH));
	cr_assert(eq(long, l.deficit, 7384));
	cr_assert(eq(long, l.opt[PW_STITCH].home_gpus, 9000));
	cr_assert(eq(long, l.opt[PW_STITCH].away_gpus, 7384));
}
