/*
 * scheduling_sim.c: the five-minute scheduler simulation of
 * spec/scheduling.md 5.4-5.7: failures and surges from the event stream,
 * victims from their own stream, the three policies (rigid FIFO with
 * backfill and kills, tiered graceful preemption, the intent controller
 * with elastic shrink and restore), the sequential ledger and the 17
 * rounded metrics. The order of every list walk is the reference's, since
 * each one decides which job a draw or a budget lands on.
 */
#include "core/models/scheduling.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/models/pcg64_dist.h"
#include "core/util/num.h"

#define CHECKPOINT_STEPS 12
#define REPAIR_STEPS 48
#define CONTROLLER_PERIOD 3
#define RESIZE_COOLDOWN 12
#define TRACKING_HEADROOM 1.10
#define SURGE_GPUS 120.0
#define SURGE_EXTRA_STEPS 24
#define NEVER (-1)
#define QBUCKETS 24

const char *const sched_metric_names[SCHED_NMETRICS] = {
	"nominal_gpu_h", "envelope_gpu_h", "productive_gpu_h", "stranded_gpu_h",
	"stranded_idle_gpu_h", "stranded_reservation_gpu_h",
	"stranded_train_overhead_gpu_h", "capacity_realization", "slo_attainment",
	"train_ettr", "jobs_submitted", "jobs_completed", "preemptions",
	"emergency_kills", "resizes", "work_lost_gpu_h", "mean_wait_h",
};

struct job {
	const struct sched_job_spec *spec;
	int elastic, alloc, ssc, pending;
	double progress, psc;
	int64_t first_start, last_resize;
};

struct sim {
	const struct sched_config *cfg;
	const struct sched_opts *opt;
	int ckpt;
	struct job *jobs;
	long njobs, next_arrival;
	long *queue, nqueue, qhead, qcap; /* a ring: queue order from qhead */
	long *running, nrunning;
	void *scratch; /* longs (orders) or doubles (weights), sized for either */
	long *merge_tmp;
	/* Queued jobs per bucket of their smallest start size (floor log2),
	 * so admission stops scanning once no queued job can fit. */
	long qcount[QBUCKETS];
	int64_t *repairs;         /* a ring of repair end steps, oldest first */
	size_t rep_head, rep_count, rep_cap;
	int64_t t;
	/* sin of 5.4.1 at each step of a day: the demand curve repeats daily,
	 * so 288 calls serve the whole horizon (the same values). */
	double day_sin[SCHED_STEPS_PER_DAY];
	double inf_alloc;
	int64_t train_alloc;
	struct sched_ledger L;
	int64_t submitted, completed, preemptions, kills, resizes;
};

/* ---- lists ---- */

/* The fewest GPUs a queued job can start on: its size, or for the intent
 * policy an elastic job's minimum. */
static int start_min(const struct sim *s, long id)
{
	const struct job *j = &s->jobs[id];

	if (s->opt->policy == SCHED_INTENT && j->elastic && j->spec->min_size < j->spec->size)
		return j->spec->min_size;
	return j->spec->size;
}

static int bucket_of(int gpus)
{
	int b = 0;

	while (b + 1 < QBUCKETS && (gpus >> (b + 1)) > 0)
		b++;
	return b;
}

static void queued(struct sim *s, long id, int delta)
{
	s->qcount[bucket_of(start_min(s, id))] += delta;
}

/* Whether some job counted in 'counts' might start within 'budget'. */
static int may_fit(const long *counts, int64_t budget)
{
	int b;

	for (b = 0; b < QBUCKETS && ((int64_t)1 << b) <= budget; b++)
		if (counts[b] > 0)
			return 1;
	return 0;
}

static void running_remove(struct sim *s, long pos)
{
	memmove(&s->running[pos], &s->running[pos + 1],
		(size_t)(s->nrunning - pos - 1) * sizeof *s->running);
	s->nrunning--;
}

static void start(struct sim *s, long j, int a)
{
	struct job *jb = &s->jobs[j];

	jb->alloc = a;
	jb->pending = 1;
	if (jb->first_start == NEVER) {
		jb->first_start = s->t;
		s->L.wait_steps_sum += (double)(s->t - jb->spec->submit);
		s->L.waited_jobs += 1;
	}
	s->running[s->nrunning++] = j;
	s->train_alloc += a;
}

/* Stop the job at running position pos: graceful keeps its progress, a
 * kill discards the work since its last checkpoint (5.5.4). */
static void stop(struct sim *s, long pos, int graceful)
{
	long j = s->running[pos];
	struct job *jb = &s->jobs[j];

	if (graceful) {
		s->preemptions++;
	} else {
		double lost = jb->psc;

		jb->progress = jb->progress - lost > 0.0 ? jb->progress - lost : 0.0;
		s->L.work_lost += lost;
		s->L.train_productive -= lost;
		s->kills++;
	}
	s->train_alloc -= jb->alloc;
	jb->psc = 0.0;
	jb->ssc = 0;
	jb->alloc = 0;
	jb->pending = 0;
	running_remove(s, pos);
	s->qhead = (s->qhead + s->qcap - 1) % s->qcap;
	s->queue[s->qhead] = j;
	s->nqueue++;
	queued(s, j, 1);
}

static void resize(struct sim *s, long j, int a)
{
	struct job *jb = &s->jobs[j];

	if (a == jb->alloc)
		return;
	s->train_alloc += a - jb->alloc;
	jb->alloc = a;
	s->resizes++;
	jb->last_resize = s->t;
	if (jb->pending < 1)
		jb->pending = 1;
}

/* ---- failures, surges, cap (5.4) ---- */

static int64_t gpus_up(struct sim *s)
{
	while (s->rep_count > 0 && s->repairs[s->rep_head] <= s->t) {
		s->rep_head = (s->rep_head + 1) % s->rep_cap;
		s->rep_count--;
	}
	return s->cfg->gpus - SCHED_NODE_GPUS * (int64_t)s->rep_count;
}

static void failures(struct sim *s, struct pcg64 *event, struct pcg64 *victim)
{
	double p = (s->cfg->failures_per_1000_node_days / 1000.0) / 288;
	int64_t up_nodes = gpus_up(s) / SCHED_NODE_GPUS, f, k;
	if (up_nodes <= 0)
		return;
	f = pcg64_binomial(event, up_nodes, p);
	for (k = 0; k < f; k++) {
		double *weights;
		double sum = 0.0;
		long i;

		/* At most up_nodes fail, so the ring never holds more than every node. */
		s->repairs[(s->rep_head + s->rep_count) % s->rep_cap] = s->t + REPAIR_STEPS;
		s->rep_count++;
		if (s->nrunning == 0)
			continue;
		weights = s->scratch;
		for (i = 0; i < s->nrunning; i++)
			sum += (double)s->jobs[s->running[i]].alloc;
		if (!(sum > 0))
			continue;
		for (i = 0; i < s->nrunning; i++)
			weights[i] = (double)s->jobs[s->running[i]].alloc / sum;
		stop(s, (long)pcg64_choice(victim, weights, (size_t)s->nrunning), 0);
	}
}

static double power_frac(const struct sim *s)
{
	double hour = (double)(s->t % SCHED_STEPS_PER_DAY) / 12;
	const struct sched_config *c = s->cfg;

	if (c->power_envelope && (double)c->power_start_hour <= hour &&
	    hour < (double)(c->power_start_hour + c->power_hours))
		return c->power_frac;
	return 1.0;
}

/* ---- policies (5.6) ---- */

static int64_t first_start_key(const struct job *j)
{
	return j->first_start == NEVER ? 0 : j->first_start;
}

/* The running position of the job of 'tier' (-1: any) started last; ties:
 * the earliest in running order. -1 when none. */
static long newest(const struct sim *s, int tier)
{
	long i, best = -1;

	for (i = 0; i < s->nrunning; i++) {
		const struct job *j = &s->jobs[s->running[i]];

		if (tier >= 0 && j->spec->besteffort != tier)
			continue;
		if (best < 0 || first_start_key(j) > first_start_key(&s->jobs[s->running[best]]))
			best = i;
	}
	return best;
}

static void preempt_until_fits(struct sim *s, int64_t budget)
{
	static const int tiers[2] = { 1, 0 }; /* best-effort, then batch */
	int k;

	for (k = 0; k < 2; k++) {
		while (s->train_alloc > budget) {
			long pos = newest(s, tiers[k]);

			if (pos < 0)
				break;
			stop(s, pos, 1);
		}
		if (s->train_alloc <= budget)
			return;
	}
}

static void kill_until_fits(struct sim *s, int64_t budget)
{
	while (s->train_alloc > budget && s->nrunning > 0)
		stop(s, newest(s, -1), 0);
}

static int64_t sort_key(const struct sim *s, long id, int by_alloc)
{
	return by_alloc ? s->jobs[id].alloc : first_start_key(&s->jobs[id]);
}

/* A stable merge sort of job ids by a key ('desc': the largest first),
 * through s->merge_tmp; ties keep running order. */
static void sort_by(struct sim *s, long *ids, long n, int by_alloc, int desc)
{
	long *tmp = s->merge_tmp, width, i;

	/* Already in order (the common case of the restore walk, as jobs mostly
	 * start in first-start order): a stable sort would change nothing. */
	for (i = 1; i < n; i++) {
		int64_t ka = sort_key(s, ids[i - 1], by_alloc), kb = sort_key(s, ids[i], by_alloc);

		if (desc ? kb > ka : kb < ka)
			break;
	}
	if (i >= n)
		return;
	for (width = 1; width < n; width *= 2) {
		for (i = 0; i < n; i += 2 * width) {
			long lo = i, mid = i + width < n ? i + width : n;
			long hi = i + 2 * width < n ? i + 2 * width : n, a = lo, b = mid, k = lo;

			while (a < mid && b < hi) {
				int64_t ka = sort_key(s, ids[a], by_alloc);
				int64_t kb = sort_key(s, ids[b], by_alloc);

				if (desc ? kb > ka : kb < ka)
					tmp[k++] = ids[b++];
				else
					tmp[k++] = ids[a++];
			}
			while (a < mid)
				tmp[k++] = ids[a++];
			while (b < hi)
				tmp[k++] = ids[b++];
		}
		memcpy(ids, tmp, (size_t)n * sizeof *ids);
	}
}

static void shrink_elastic(struct sim *s, int64_t budget)
{
	int64_t over = s->train_alloc - budget;
	long i, n = s->nrunning;
	long *order = s->scratch;

	if (over <= 0)
		return;
	memcpy(order, s->running, (size_t)n * sizeof *order);
	sort_by(s, order, n, 1, 1);
	for (i = 0; i < n; i++) {
		struct job *j = &s->jobs[order[i]];
		int64_t nw;

		if (over <= 0)
			break;
		if (!j->elastic || j->alloc <= j->spec->min_size)
			continue;
		nw = j->alloc - over;
		if (nw < j->spec->min_size)
			nw = j->spec->min_size;
		over -= j->alloc - nw;
		resize(s, order[i], (int)nw);
	}
}

static void enforce_cap(struct sim *s, int64_t cap)
{
	int64_t budget;

	if (s->inf_alloc > (double)cap)
		s->inf_alloc = (double)cap;
	budget = cap - (int64_t)s->inf_alloc;
	switch (s->opt->policy) {
	case SCHED_INTENT:
		shrink_elastic(s, budget);
		preempt_until_fits(s, budget);
		break;
	case SCHED_TIERED:
		preempt_until_fits(s, budget);
		break;
	case SCHED_RIGID:
		kill_until_fits(s, budget);
		break;
	}
}

#define QAT(s, i) ((s)->queue[((s)->qhead + (i)) % (s)->qcap])

static void admit(struct sim *s, int64_t cap)
{
	int64_t budget = cap - (int64_t)s->inf_alloc - s->train_alloc;
	long i, kept = 0, left[QBUCKETS];

	if (budget <= 0)
		return;
	memcpy(left, s->qcount, sizeof left);
	for (i = 0; i < s->nqueue; i++) {
		long id = QAT(s, i);
		struct job *j = &s->jobs[id];

		if (budget <= 0 || !may_fit(left, budget))
			break;
		left[bucket_of(start_min(s, id))]--;
		if (j->spec->size <= budget) {
			queued(s, id, -1);
			start(s, id, j->spec->size);
			budget -= j->spec->size;
		} else if (s->opt->policy == SCHED_INTENT && j->elastic &&
			   j->spec->min_size <= budget) {
			queued(s, id, -1);
			start(s, id, (int)budget);
			budget = 0;
		} else {
			QAT(s, kept) = id;
			kept++;
		}
	}
	/* The kept jobs of the scanned part move up against the unscanned
	 * rest (a cost of the scanned part only), in order. */
	if (kept < i) {
		long k;

		for (k = kept; k > 0; k--)
			QAT(s, i - kept + k - 1) = QAT(s, k - 1);
		s->qhead = (s->qhead + (i - kept)) % s->qcap;
		s->nqueue -= i - kept;
	}
}

static void restore(struct sim *s, int64_t cap)
{
	int64_t budget = cap - (int64_t)s->inf_alloc - s->train_alloc;
	long i, n = s->nrunning;
	long *order = s->scratch;

	memcpy(order, s->running, (size_t)n * sizeof *order);
	sort_by(s, order, n, 0, 0);
	for (i = 0; i < n; i++) {
		struct job *j = &s->jobs[order[i]];

		if (budget <= 0)
			break;
		if (j->elastic && j->alloc < j->spec->size &&
		    j->spec->size - j->alloc <= budget && s->t - j->last_resize >= RESIZE_COOLDOWN) {
			budget -= j->spec->size - j->alloc;
			resize(s, order[i], j->spec->size);
		}
	}
}

/* ---- accounting and progress (5.5.3, 5.5.5) ---- */

static void account(struct sim *s, int64_t cap, double demand)
{
	long i, kept = 0;

	s->L.total_steps += 1;
	s->L.nominal += (double)s->cfg->gpus * SCHED_DT_H;
	s->L.envelope += (double)cap * SCHED_DT_H;
	s->L.inf_alloc += s->inf_alloc * SCHED_DT_H;
	s->L.inf_demand += demand * SCHED_DT_H;
	s->L.inf_productive += (s->inf_alloc < demand ? s->inf_alloc : demand) * SCHED_DT_H;
	if (s->inf_alloc >= demand)
		s->L.slo_ok_steps += 1;
	for (i = 0; i < s->nrunning; i++) {
		long id = s->running[i];
		struct job *j = &s->jobs[id];

		s->L.train_alloc += (double)j->alloc * SCHED_DT_H;
		if (j->pending > 0) {
			j->pending--;
		} else if (j->ssc >= s->ckpt) {
			j->ssc = 0;
			j->psc = 0.0;
		} else {
			double added = (double)j->alloc * SCHED_DT_H;

			j->progress += added;
			j->psc += added;
			j->ssc += 1;
			s->L.train_productive += added;
		}
		if (j->progress >= j->spec->work) {
			s->completed++;
			s->train_alloc -= j->alloc;
			j->alloc = 0;
		} else {
			s->running[kept++] = id;
		}
	}
	s->nrunning = kept;
}

/* ---- one run ---- */

static void step(struct sim *s, struct pcg64 *event, struct pcg64 *victim,
		 int64_t *surge_until, int64_t reservation)
{
	const struct sched_config *c = s->cfg;
	double surge_add = 0.0, demand, capf;
	int64_t cap, up;

	if (c->failures)
		failures(s, event, victim);
	if (c->inf_surges) {
		if (s->t > *surge_until && pcg64_double(event) < 1.0 / 576)
			*surge_until = s->t + SURGE_EXTRA_STEPS;
		surge_add = s->t <= *surge_until ? SURGE_GPUS : 0.0;
	}
	demand = (c->inf_base + c->inf_diurnal_amp * s->day_sin[s->t % SCHED_STEPS_PER_DAY]) +
		 surge_add;
	if (!(demand > 0.0))
		demand = 0.0;
	up = gpus_up(s);
	capf = trunc((double)c->gpus * power_frac(s));
	cap = (double)up < capf ? up : (int64_t)capf;
	if (s->opt->policy == SCHED_INTENT) {
		if (s->t % CONTROLLER_PERIOD == 0) {
			double want = s->opt->tracking ? ceil(demand * TRACKING_HEADROOM)
						       : (double)reservation;

			s->inf_alloc = (double)cap < want ? (double)cap : want;
		}
	} else {
		s->inf_alloc = (double)(reservation < cap ? reservation : cap);
	}
	enforce_cap(s, cap);
	while (s->next_arrival < s->njobs && s->jobs[s->next_arrival].spec->submit <= s->t) {
		queued(s, s->next_arrival, 1);
		QAT(s, s->nqueue) = s->next_arrival++;
		s->nqueue++;
		s->submitted++;
	}
	admit(s, cap);
	if (s->opt->policy == SCHED_INTENT && s->t % CONTROLLER_PERIOD == 0)
		restore(s, cap);
	account(s, cap, demand);
}

static double r1(double x, int n)
{
	double v = num_round(x, n);

	return v == 0.0 ? 0.0 : v; /* never -0.0 */
}

static void fill_metrics(struct sim *s, struct sched_result *r)
{
	const struct sched_ledger *L = &s->L;
	double idle = (L->envelope - L->inf_alloc) - L->train_alloc;
	double waste = L->inf_alloc - L->inf_productive;
	double unprod = L->train_alloc - L->train_productive;
	double productive = L->inf_productive + L->train_productive;
	double *m = r->metrics;

	m[0] = r1(L->nominal, 1);
	m[1] = r1(L->envelope, 1);
	m[2] = r1(productive, 1);
	m[3] = r1(L->envelope - productive, 1);
	m[4] = r1(idle, 1);
	m[5] = r1(waste, 1);
	m[6] = r1(unprod, 1);
	m[7] = r1(productive / L->envelope, 4);
	m[8] = r1((double)L->slo_ok_steps / (double)(L->total_steps > 1 ? L->total_steps : 1), 4);
	m[9] = r1(L->train_productive / (L->train_alloc > 1e-9 ? L->train_alloc : 1e-9), 4);
	m[10] = (double)s->submitted;
	m[11] = (double)s->completed;
	m[12] = (double)s->preemptions;
	m[13] = (double)s->kills;
	m[14] = (double)s->resizes;
	m[15] = r1(L->work_lost, 1);
	m[16] = r1((L->wait_steps_sum * SCHED_DT_H) /
			   (double)(L->waited_jobs > 1 ? L->waited_jobs : 1), 2);
	r->ledger = *L;
	r->jobs_never_started = s->submitted - L->waited_jobs;
}

static int fill_waits(struct sim *s, struct sched_result *r)
{
	long i, n = 0;

	r->waits = malloc((size_t)(s->njobs ? s->njobs : 1) * sizeof *r->waits);
	r->wait_sizes = malloc((size_t)(s->njobs ? s->njobs : 1) * sizeof *r->wait_sizes);
	if (!r->waits || !r->wait_sizes)
		return -1;
	for (i = 0; i < s->njobs; i++) {
		const struct job *j = &s->jobs[i];

		if (j->first_start == NEVER)
			continue;
		r->waits[n] = (double)(j->first_start - j->spec->submit) * SCHED_DT_H;
		r->wait_sizes[n] = j->spec->size;
		n++;
	}
	r->nwaits = n;
	return 0;
}

void sched_result_release(struct sched_result *r)
{
	free(r->waits);
	free(r->wait_sizes);
	r->waits = NULL;
	r->wait_sizes = NULL;
	r->nwaits = 0;
}

static int run(struct sim *s, const struct sched_variant *v, struct sched_result *r,
	       struct diag *err)
{
	const struct sched_config *c = s->cfg;
	int64_t steps = c->horizon_days * SCHED_STEPS_PER_DAY;
	int64_t surge_until = -1, reservation = sched_reservation(c);
	struct pcg64 event, victim;
	long i;

	(void)v;
	pcg64_seed_u64(&event, (uint64_t)c->seed + 20000);
	pcg64_seed_u64(&victim, (uint64_t)c->seed);
	s->inf_alloc = (double)reservation;
	for (i = 0; i < SCHED_STEPS_PER_DAY; i++) {
		double hour = (double)i / 12;

		s->day_sin[i] = sin((((hour - 6.0) / 24.0) * 2.0) * 3.141592653589793);
	}
	for (i = 0; i < s->njobs; i++) {
		struct job *j = &s->jobs[i];

		j->elastic = j->spec->elastic && s->opt->elasticity;
		j->first_start = NEVER;
		j->last_resize = -1000000000;
	}
	for (s->t = 0; s->t < steps; s->t++)
		step(s, &event, &victim, &surge_until, reservation);
	if (!(s->L.envelope > 0)) {
		diag_limit(err, 0, 0, "envelope", 0, 0,
			   "failures keep every node down for the whole horizon: the power "
			   "envelope sums to 0 GPU-hours and realization has no value");
		return -1;
	}
	fill_metrics(s, r);
	if (fill_waits(s, r) < 0) {
		diag_set(err, DIAG_E_NOMEM, 0, 0, "out of memory for the wait list");
		return -1;
	}
	return 0;
}

int sched_simulate(const struct sched_config *c, const struct sched_opts *o,
		   const struct sched_variant *v, struct sched_result *r,
		   struct diag *err)
{
	struct sched_job_spec *gen = NULL;
	const struct sched_job_spec *specs = o->jobs;
	long n = o->njobs, i, slots;
	struct sim s;
	int rc = -1;

	memset(r, 0, sizeof *r);
	memset(&s, 0, sizeof s);
	if (sched_check_limits(c, v, err) < 0)
		return -1;
	if (!specs) {
		n = sched_generate(c, v, &gen, err);
		if (n < 0)
			return -1;
		specs = gen;
	}
	s.cfg = c;
	s.opt = o;
	s.ckpt = v && v->checkpoint_interval > 0 ? v->checkpoint_interval : CHECKPOINT_STEPS;
	s.njobs = n;
	slots = n + 1;
	s.jobs = calloc((size_t)slots, sizeof *s.jobs);
	s.queue = malloc((size_t)slots * sizeof *s.queue);
	s.qcap = slots;
	/* Running jobs hold >= 1 GPU each, so at most gpus of them. */
	s.running = malloc((size_t)(c->gpus + 1) * sizeof *s.running);
	s.scratch = malloc((size_t)(c->gpus + 1) * (sizeof(double) > sizeof(long)
							   ? sizeof(double) : sizeof(long)));
	s.rep_cap = (size_t)(c->gpus / SCHED_NODE_GPUS) + 1;
	s.repairs = malloc(s.rep_cap * sizeof *s.repairs);
	s.merge_tmp = malloc((size_t)(c->gpus + 1) * sizeof *s.merge_tmp);
	if (!s.jobs || !s.queue || !s.running || !s.scratch || !s.repairs || !s.merge_tmp) {
		diag_set(err, DIAG_E_NOMEM, 0, 0, "out of memory for %ld jobs", n);
		goto out;
	}
	for (i = 0; i < n; i++)
		s.jobs[i].spec = &specs[i];
	rc = run(&s, v, r, err);
out:
	if (rc < 0)
		sched_result_release(r);
	free(s.jobs);
	free(s.queue);
	free(s.running);
	free(s.scratch);
	free(s.repairs);
	free(s.merge_tmp);
	free(gen);
	return rc;
}
