/*
 * power.c: the closed-form models of the power pack (spec/power.md 5.2,
 * 5.3, 5.8): the migration cost of one job, move versus stay, break-even
 * and scarcity, the stitch tax of a cut, the expected price of a hall and
 * the stay / stitch / move ledger. Each formula is written in the spec's
 * order of operations so that the figures match the reference bit for bit.
 */
#include "core/models/power.h"

#include <math.h>

#include "core/util/num.h"

const char *const pw_switches[PW_NSWITCHES] = {
	"gloss_12_bytes", "fp32_gradients", "rtt_in_seconds", "causal_no_budget",
	"causal_never_catches_up",
};

const char *const pw_reason_names[] = {
	[PW_R_NONE] = NULL,
	[PW_R_NO_HOME_CAPACITY] = "no-home-capacity",
	[PW_R_AWAY_SHORT] = "away-short",
	[PW_R_NO_CAPACITY_TO_REACH] = "no-capacity-to-reach",
	[PW_R_CUT_STALLS] = "cut-stalls",
	[PW_R_DESTINATION_TOO_SMALL] = "destination-too-small",
	[PW_R_DEADLINE] = "deadline",
};

const char *const pw_option_names[PW_NOPTIONS] = {
	[PW_STAY] = "stay", [PW_STITCH] = "stitch", [PW_MOVE] = "move", [PW_BUY] = "buy",
};

double pw_round(double x, int ndigits)
{
	/* + 0.0 turns a rounded -0.0 into 0.0 (2.4: never -0.0). */
	return num_round(x, ndigits) + 0.0;
}

/* ---- one job (5.2, 5.3) ------------------------------------------------------ */

void pw_migration(const struct pw_job *j, unsigned variant, struct pw_migration *m)
{
	double bytes = (variant & PW_V_GLOSS_12_BYTES) ? PW_GLOSS_BYTES_PER_PARAM
						       : PW_BYTES_PER_PARAM;

	/* The multiply-divide round trip through bytes is normative (5.2). */
	m->state_gb = ((j->params_b * 1e9) * bytes) / 1e9;
	m->power_mw = (j->gpus * j->kw_per_gpu) / 1000.0;
	m->transfer_h = ((m->state_gb * 8) / j->wan_gbps) / 3600.0;
	m->downtime_h = j->reload_h + m->transfer_h;
	m->idle_dollars = (j->gpus * m->downtime_h) * j->dollars_per_gpu_h;
	m->egress_dollars = m->state_gb * j->egress_per_gb;
	m->cost_dollars = m->idle_dollars + m->egress_dollars;
}

void pw_decide(const struct pw_job *j, double length_h, unsigned variant,
	       struct pw_decide *d)
{
	pw_migration(j, variant, &d->mig);
	d->spread_mwh = j->price_here_mwh - j->price_there_mwh;
	d->remaining_h = fmax(0.0, length_h - d->mig.downtime_h);
	d->saving_dollars = (d->mig.power_mw * d->spread_mwh) * d->remaining_h;
	d->net_dollars = d->saving_dollars - d->mig.cost_dollars;
	d->move = d->net_dollars > 0;
	d->energy_share = (d->mig.power_mw * j->price_here_mwh) /
			  (j->gpus * j->dollars_per_gpu_h);
}

double pw_breakeven_spread(const struct pw_job *j, double length_h, unsigned variant)
{
	struct pw_migration m;

	pw_migration(j, variant, &m);
	return m.cost_dollars /
	       (m.power_mw * fmax(PW_REMAINING_CLAMP, length_h - m.downtime_h));
}

int pw_breakeven_length(const struct pw_job *j, double spread_mwh, unsigned variant,
			double *out)
{
	struct pw_migration m;

	if (!(spread_mwh > 0))
		return -1;
	pw_migration(j, variant, &m);
	*out = m.cost_dollars / (m.power_mw * spread_mwh) + m.downtime_h;
	/* A spread so small (5e-324) that the length overflows never pays
	 * back either: no length a double can hold breaks even. */
	return isfinite(*out) ? 0 : -1;
}

void pw_scarcity(const struct pw_job *j, double spike_mwh, double hours,
		 unsigned variant, struct pw_scarcity *s)
{
	struct pw_migration m;

	pw_migration(j, variant, &m);
	s->stay_dollars = (m.power_mw * spike_mwh) * hours;
	s->move_dollars = m.cost_dollars + (m.power_mw * j->price_there_mwh) * hours;
	s->net_benefit = s->stay_dollars - s->move_dollars;
}

/* ---- the cut and the halls (5.8.1, 5.8.3) ---------------------------------------- */

void pw_cut_of(const struct pw_span_job *j, enum pw_cut_kind kind,
	       double activation_gb, unsigned variant, struct pw_cut *cut)
{
	double grad = (variant & PW_V_FP32_GRADIENTS) ? PW_FP32_GRAD_BYTES
						      : PW_GRAD_BYTES_PER_PARAM;

	cut->kind = kind;
	cut->crossings = PW_CROSSINGS;
	/* All-reduce: the full gradient once each way. */
	cut->gb_per_step = kind == PW_CUT_PIPELINE ? activation_gb : (grad * j->params_b) * 2;
}

double pw_stitch_tax(const struct pw_span_job *j, const struct pw_circuit *c,
		     const struct pw_cut *cut, unsigned variant)
{
	double latency_s = (variant & PW_V_RTT_IN_SECONDS) ? cut->crossings * c->rtt_ms
							   : (cut->crossings * c->rtt_ms) / 1000.0;
	double extra_s = latency_s + (cut->gb_per_step * 8) / c->gbps;

	return extra_s / (j->step_time_s + extra_s);
}

double pw_hall_spike_fraction(const struct pw_hall *h)
{
	if (h->spike_hours_per_week <= 0)
		return 0.0;
	return fmin(1.0, h->spike_hours_per_week / PW_HOURS_PER_WEEK);
}

double pw_hall_price(const struct pw_hall *h)
{
	double f = pw_hall_spike_fraction(h);

	if (f == 0)
		return h->price_mwh;
	return (1 - f) * h->price_mwh + f * h->spike_price_mwh;
}

/* ---- the ledger (5.8.2, 5.8.4) ----------------------------------------------------- */

static double energy(double mw, const struct pw_hall *h, double hours)
{
	return (mw * pw_hall_price(h)) * hours;
}

static void priced(struct pw_option_row *o, double dollars, double duration_h,
		   double useful, double deadline_h)
{
	o->priced = 1;
	o->dollars = dollars;
	o->duration_h = duration_h;
	o->r_dollars = pw_round(dollars, 0);
	o->r_duration_h = pw_round(duration_h, 1);
	o->r_per_useful = pw_round(dollars / useful, 4);
	o->feasible = 1;
	/* The reference compares the rounded duration with the deadline. */
	if (!isnan(deadline_h) && o->r_duration_h > deadline_h) {
		o->feasible = 0;
		o->reason = PW_R_DEADLINE;
	}
}

static void refused(struct pw_option_row *o, enum pw_reason why)
{
	o->feasible = 0;
	o->reason = why;
	o->home_gpus = 0;
	o->away_gpus = 0;
}

void pw_ledger(const struct pw_span_job *j, const struct pw_hall *home,
	       const struct pw_hall *away, const struct pw_circuit *c,
	       enum pw_cut_kind cutk, double activation_gb, unsigned variant,
	       struct pw_ledger *l)
{
	long G = j->gpus_needed;
	double H = j->hours_at_full, usd = j->dollars_per_gpu_h, kw = j->kw_per_gpu;
	double R = (double)G * H;
	double state = j->params_b * PW_SPAN_BYTES_PER_PARAM;
	double d = j->reload_h + ((state * 8) / j->wan_gbps) / 3600.0;
	double mig = ((double)G * d) * usd + state * j->egress_per_gb;
	double power_full = ((double)G * kw) / 1000.0;
	struct pw_cut cut;
	struct pw_option_row *o;
	long g, away_part;
	int i;

	pw_cut_of(j, cutk, activation_gb, variant, &cut);
	l->tax = pw_stitch_tax(j, c, &cut, variant);
	l->useful_gpu_h = R;
	l->downtime_h = d;
	l->migration_cost = mig;
	l->deficit = G > home->free_gpus ? G - home->free_gpus : 0;
	for (i = 0; i < PW_NOPTIONS; i++)
		l->opt[i] = (struct pw_option_row){ 0 };

	/* stay: the shrunk job at home, perfect scaling assumed. */
	o = &l->opt[PW_STAY];
	g = G < home->free_gpus ? G : home->free_gpus;
	if (g > 0) {
		double dur = R / (double)g;
		double restart = l->deficit > 0 ? ((double)g * j->reload_h) * usd : 0.0;

		o->home_gpus = g;
		priced(o, (R * usd + energy(((double)g * kw) / 1000, home, dur)) + restart, dur,
		       R, j->deadline_h);
	} else {
		refused(o, PW_R_NO_HOME_CAPACITY);
	}

	/* stitch: both halls over the circuit. */
	o = &l->opt[PW_STITCH];
	away_part = l->deficit > 0 ? l->deficit : G / 2;
	if (l->deficit > 0 && home->free_gpus <= 0) {
		refused(o, PW_R_NO_HOME_CAPACITY);
	} else if (l->deficit > 0 && away->free_gpus < l->deficit) {
		refused(o, PW_R_AWAY_SHORT);
	} else if (l->deficit == 0 && away->free_gpus < G / 2) {
		refused(o, PW_R_NO_CAPACITY_TO_REACH);
	} else if (!(l->tax < 1.0)) {
		refused(o, PW_R_CUT_STALLS);
	} else {
		long home_part = G - away_part;
		double dur = R / ((double)G * (1 - l->tax));
		double home_mw = ((double)home_part * kw) / 1000;
		double away_mw = ((double)away_part * kw) / 1000;

		o->home_gpus = home_part;
		o->away_gpus = away_part;
		priced(o, (((((double)G * dur) * usd + c->hold_dollars_per_h * dur) +
			     energy(home_mw, home, dur)) + energy(away_mw, away, dur)) + mig,
		       dur, R, j->deadline_h);
	}

	/* move: the whole job to the away hall. */
	o = &l->opt[PW_MOVE];
	if (away->free_gpus >= G) {
		o->away_gpus = G;
		priced(o, (mig + R * usd) + energy(power_full, away, H), d + H, R,
		       j->deadline_h);
	} else {
		refused(o, PW_R_DESTINATION_TOO_SMALL);
	}

	/* buy: the reference floor, never refused, never a decision. */
	o = &l->opt[PW_BUY];
	o->home_gpus = G;
	priced(o, R * usd + energy(power_full, home, H), H, R, NAN);

	l->decision = -1;
	l->deadline_rounding = 0;
	for (i = PW_STAY; i <= PW_MOVE; i++) {
		o = &l->opt[i];
		if (!o->feasible)
			continue;
		if (!isnan(j->deadline_h) && o->duration_h > j->deadline_h)
			l->deadline_rounding = 1;
		if (l->decision < 0 || o->r_dollars < l->opt[l->decision].r_dollars)
			l->decision = i;
	}
}
