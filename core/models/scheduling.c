/*
 * scheduling.c: the calculator (spec/scheduling.md 5.2), the workload
 * model (5.3), demand (5.4.1), the limits of 5.13 and exact means (5.12).
 * Every expression keeps the spec's order and parenthesisation; with
 * -ffp-contract=off the figures equal the reference's bit for bit.
 */
#include "core/models/scheduling.h"

#include <math.h>
#include <stdlib.h>

#include "core/models/exact_mean.h"
#include "core/models/pcg64_dist.h"

const int sched_sizes[SCHED_NSIZES] = { 1, 2, 4, 8, 16, 32, 64, 128, 256, 512 };
const double sched_size_p[SCHED_NSIZES] = { 0.42, 0.13,  0.13,  0.18,  0.05,
					    0.04, 0.025, 0.015, 0.007, 0.003 };
const double sched_median_h[SCHED_NSIZES] = { 2, 2, 2, 6, 6, 6, 16, 16, 36, 36 };

#define DURATION_SIGMA 0.8
#define DURATION_CAP_H 168.0
#define BESTEFFORT_SHARE 0.20
#define ELASTIC_SIZE 16
#define STATIC_RESERVATION_FACTOR 1.05

void sched_stranded(const struct sched_stranded_in *in, struct sched_stranded_out *out)
{
	double lost = in->hard_outage_hours + in->degraded_hours * in->degradation_weight;
	double a = 1.0 - lost / in->window_hours;
	double nominal = in->gpus * in->window_hours;

	out->nominal_gpu_hours = nominal;
	out->availability = a;
	out->usable_gpu_hours = ((nominal * a) * in->allocation_efficiency) * in->productive_ratio;
	out->loss_scheduler = nominal * (1.0 - a);
	out->loss_allocation = (nominal * a) * (1.0 - in->allocation_efficiency);
	out->loss_productivity =
		((nominal * a) * in->allocation_efficiency) * (1.0 - in->productive_ratio);
	out->stranded_gpu_hours =
		(out->loss_scheduler + out->loss_allocation) + out->loss_productivity;
	out->stranded_usd = out->stranded_gpu_hours * in->usd_per_gpu_hour;
}

static double std_normal_cdf(double z)
{
	return 0.5 * erfc(-z / 1.4142135623730951);
}

double sched_capped_lognormal_mean(double median_h, double sigma, double cap_h)
{
	double mu;

	if (sigma == 0)
		return median_h < cap_h ? median_h : cap_h;
	mu = log(median_h);
	return exp(mu + (sigma * sigma) / 2) *
		       std_normal_cdf(((log(cap_h) - mu) - sigma * sigma) / sigma) +
	       cap_h * std_normal_cdf((mu - log(cap_h)) / sigma);
}

const double *sched_probabilities(const struct sched_variant *v)
{
	return v && v->has_size_p ? v->size_p : sched_size_p;
}

double sched_expected_work(const struct sched_variant *v)
{
	const double *p = sched_probabilities(v);
	double w = 0.0;
	int i;

	for (i = 0; i < SCHED_NSIZES; i++) {
		double m = v && v->capped_median
				   ? fmin(sched_median_h[i], DURATION_CAP_H)
				   : sched_capped_lognormal_mean(sched_median_h[i],
								 DURATION_SIGMA, DURATION_CAP_H);

		w += (p[i] * sched_sizes[i]) * m;
	}
	return w;
}

double sched_large_gpu_time_share(const struct sched_variant *v)
{
	const double *p = sched_probabilities(v);
	double large = 0.0;
	int i;

	/* The numerator always uses the capped means; only the expected work
	 * of the denominator follows the capped_median mutation (7.4). */
	for (i = 0; i < SCHED_NSIZES; i++)
		if (sched_sizes[i] >= 256)
			large += (p[i] * sched_sizes[i]) *
				 sched_capped_lognormal_mean(sched_median_h[i], DURATION_SIGMA,
							     DURATION_CAP_H);
	return large / sched_expected_work(v);
}

void sched_config_default(struct sched_config *c)
{
	c->gpus = 1024;
	c->horizon_days = 30;
	c->seed = 42;
	c->offered_load = 0.95;
	c->inf_base = 280.0;
	c->inf_diurnal_amp = 80.0;
	c->inf_surges = 0;
	c->failures = 0;
	c->failures_per_1000_node_days = 6.5;
	c->power_envelope = 0;
	c->power_frac = 0.75;
	c->power_start_hour = 16;
	c->power_hours = 4;
}

double sched_arrival_rate(const struct sched_config *c, const struct sched_variant *v)
{
	return ((c->offered_load * ((double)c->gpus - (c->inf_base + c->inf_diurnal_amp))) *
		SCHED_DT_H) /
	       sched_expected_work(v);
}

int64_t sched_reservation(const struct sched_config *c)
{
	return (int64_t)ceil((c->inf_base + c->inf_diurnal_amp) * STATIC_RESERVATION_FACTOR);
}

double sched_demand(const struct sched_config *c, int64_t t, double surge_add)
{
	double hour = (double)(t % SCHED_STEPS_PER_DAY) / 12;
	double d = (c->inf_base +
		    c->inf_diurnal_amp * sin((((hour - 6.0) / 24.0) * 2.0) * 3.141592653589793)) +
		   surge_add;

	return d > 0.0 ? d : 0.0;
}

int sched_check_limits(const struct sched_config *c, const struct sched_variant *v,
		       struct diag *err)
{
	double lambda = sched_arrival_rate(c, v);
	double p = (c->failures_per_1000_node_days / 1000.0) / 288;
	int64_t nodes = c->gpus / SCHED_NODE_GPUS;

	if (!(lambda < SCHED_MAX_LAMBDA)) {
		diag_limit(err, 0, 0, "arrivals_per_step", (long long)SCHED_MAX_LAMBDA, -1,
			   "the arrival rate %.17g jobs per step is at or above the limit %g "
			   "(offered_load %.17g on %lld GPUs)",
			   lambda, SCHED_MAX_LAMBDA, c->offered_load, (long long)c->gpus);
		diag_set_path(err, "/offered_load");
		return -1;
	}
	/* The job count is known only once the stream is drawn, but a stream
	 * whose expected count is 1% over the limit (31 standard deviations of
	 * the Poisson total) exceeds it for every seed: refuse it before any
	 * draw. Streams nearer the limit stop while counting (sched_generate). */
	if (lambda * (double)(c->horizon_days * SCHED_STEPS_PER_DAY) >
	    1.01 * SCHED_MAX_JOBS) {
		diag_limit(err, 0, 0, "jobs", SCHED_MAX_JOBS, -1,
			   "%.17g arrivals per step over %lld days generate about %.0f jobs, "
			   "over the limit of %d",
			   lambda, (long long)c->horizon_days,
			   lambda * (double)(c->horizon_days * SCHED_STEPS_PER_DAY),
			   SCHED_MAX_JOBS);
		diag_set_path(err, "/offered_load");
		return -1;
	}
	if (c->failures && pcg64_binomial_is_btpe(nodes, p)) {
		diag_limit(err, 0, 0, "failure_binomial", 30, -1,
			   "%lld nodes at %.17g failures per node-step leave the inversion "
			   "sampler (n x p above 30)",
			   (long long)nodes, p);
		diag_set_path(err, "/failures_per_1000_node_days");
		return -1;
	}
	return 0;
}

/* What every draw of one stream shares, formed once: the size table's
 * cumulative sums, the log of each median and exp(-lambda). Each value is
 * the one the per-draw formula computes, so the draws do not change. */
struct stream_tables {
	double cdf[SCHED_NSIZES], mu[SCHED_NSIZES];
	double lambda, enlam;
	double elastic_size;    /* infinite under the no-elasticity mutation */
};

static void stream_tables(const struct sched_config *c, const struct sched_variant *v,
			  struct stream_tables *st)
{
	int i;

	pcg64_choice_cdf(sched_probabilities(v), SCHED_NSIZES, st->cdf);
	for (i = 0; i < SCHED_NSIZES; i++)
		st->mu[i] = log(sched_median_h[i]);
	st->lambda = sched_arrival_rate(c, v);
	st->enlam = exp(-st->lambda);
	st->elastic_size = v && v->elastic_size > 0 ? v->elastic_size : ELASTIC_SIZE;
}

/* One job of the stream, drawn in the order of 5.3.4. */
static void draw_job(struct pcg64 *g, const struct stream_tables *st, int64_t t,
		     struct sched_job_spec *j)
{
	size_t i = pcg64_choice_from_cdf(g, st->cdf, SCHED_NSIZES);
	double d = pcg64_lognormal(g, st->mu[i], DURATION_SIGMA);
	int size = sched_sizes[i];

	if (d > DURATION_CAP_H)
		d = DURATION_CAP_H;
	j->besteffort = pcg64_double(g) < BESTEFFORT_SHARE;
	j->size = size;
	j->work = size * d;
	j->submit = t;
	j->elastic = (double)size >= st->elastic_size;
	j->min_size = size;
	if (j->elastic)
		j->min_size = size / 4 > 8 ? size / 4 : 8;
}

long sched_generate(const struct sched_config *c, const struct sched_variant *v,
		    struct sched_job_spec **jobs, struct diag *err)
{
	int64_t steps = c->horizon_days * SCHED_STEPS_PER_DAY, t;
	struct stream_tables st;
	struct sched_job_spec *list;
	struct pcg64 g;
	long n = 0, cap;

	stream_tables(c, v, &st);
	/* One pass into a growing array: the expected count plus a margin
	 * (sched_check_limits has refused streams well above the limit). */
	cap = (long)fmin(st.lambda * (double)steps * 1.05 + 64.0, (double)SCHED_MAX_JOBS);
	list = malloc((size_t)cap * sizeof *list);
	if (!list)
		goto nomem;
	pcg64_seed_u64(&g, (uint64_t)c->seed + 10000);
	for (t = 0; t < steps; t++) {
		int64_t k = pcg64_poisson_enlam(&g, st.lambda, st.enlam), i;

		for (i = 0; i < k; i++) {
			if (n == cap) {
				struct sched_job_spec *more;

				if (cap >= SCHED_MAX_JOBS) {
					free(list);
					diag_limit(err, 0, 0, "jobs", SCHED_MAX_JOBS, -1,
						   "the workload stream generates more than %d jobs",
						   SCHED_MAX_JOBS);
					diag_set_path(err, "/offered_load");
					return -1;
				}
				cap = cap > SCHED_MAX_JOBS / 2 ? SCHED_MAX_JOBS : cap * 2;
				more = realloc(list, (size_t)cap * sizeof *list);
				if (!more) {
					free(list);
					goto nomem;
				}
				list = more;
			}
			draw_job(&g, &st, t, &list[n]);
			n++;
		}
	}
	*jobs = list;
	return n;
nomem:
	*jobs = NULL;
	diag_set(err, DIAG_E_NOMEM, 0, 0, "out of memory for the workload stream");
	return -1;
}

/* ---- means ---- */

/* The shared exactly rounded mean (core/models/exact_mean.c); an empty
 * list means 0.0 here, where exact_mean has NaN. */
double sched_exact_mean(const double *x, size_t n)
{
	return n == 0 ? 0.0 : exact_mean(x, n);
}
