/*
 * network.c: the scenario fields of spec/network.md 3.1 and their checks,
 * scenario resolution (5.1), the collective primitives (5.2), the group
 * layout and its tiers (5.3) and the healthy step (5.4). Every expression
 * keeps the spec's evaluation order: a reordered sum changes the last bit.
 */
#include "core/models/network.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *const nw_choice_dim[] = { "none", "tp", "cp", "pp", "dp", NULL };
const char *const nw_choice_placement[] = { "hierarchical", "blind", NULL };
const char *const nw_choice_recompute[] = { "none", "selective", "full", NULL };
const char *const nw_choice_scaling[] = { "strong", "weak", NULL };

const struct nw_field_info nw_fields[NW_NF] = {
#define NW_X(id, sec, name, type, dflt, lo, hi, flags, ch) { sec, name, type, dflt, lo, hi, flags, ch },
	NW_FIELDS(NW_X)
#undef NW_X
};

const char *const nw_switches[NW_NSWITCHES] = {
	"delete_latency_exposure", "zero_the_stitch_latency", "contiguous_pipeline_always",
	"delete_nic_cap",          "delete_contention",       "collapse_blind_placement",
	"delete_span_tier",        "ignore_interleave",       "failure_rate_per_accelerator",
	"checkpoint_every_minute",
};

void nw_defaults(struct nw_scn *s)
{
	size_t i;

	for (i = 0; i < NW_NF; i++)
		s->f[i] = nw_fields[i].dflt;
}

int nw_check_field(enum nw_field id, double v, char *why, size_t size)
{
	const struct nw_field_info *f = &nw_fields[id];

	if (isnan(v) && (f->flags & NW_NULLABLE))
		return 0;
	if (!isfinite(v)) {
		snprintf(why, size, "must be a finite number");
		return -1;
	}
	if ((f->type != NW_NUM) && v != floor(v)) {
		snprintf(why, size, "must be a whole number");
		return -1;
	}
	if ((f->flags & NW_LO_OPEN) ? !(v > f->lo) : !(v >= f->lo)) {
		snprintf(why, size, "must be %s %.17g (got %.17g)",
			 (f->flags & NW_LO_OPEN) ? ">" : ">=", f->lo, v);
		return -1;
	}
	if (!(v <= f->hi)) {
		snprintf(why, size, "must be <= %.17g (got %.17g)", f->hi, v);
		return -1;
	}
	return 0;
}

#define F(s, id) ((s)->f[NW_##id])
#define LL(s, id) ((long long)(s)->f[NW_##id])

/* Extreme but in-range values (a peak of 1e-300 FLOP/s) can overflow the
 * step; such a scenario has no finite figures, so it is refused too. */
static int check_finite_step(const struct nw_scn *s, enum nw_field *bad, char *why, size_t size)
{
	struct nw_scn r = *s;
	struct nw_step st;

	nw_resolve(&r);
	nw_step_of(&r, 0, &st);
	if (isfinite(st.t_step) && st.t_step > 0 && isfinite(st.mfu) && isfinite(st.mem_total) &&
	    isfinite(st.param_disagreement))
		return 0;
	*bad = NW_PEAK;
	snprintf(why, size, "gives a healthy step that is not a finite positive time (%g s): "
		 "the scenario's values are too extreme", st.t_step);
	return -1;
}

int nw_check(const struct nw_scn *s, enum nw_field *bad, char *why, size_t size)
{
	size_t i;
	long long world;

	for (i = 0; i < NW_NF; i++)
		if (nw_check_field((enum nw_field)i, s->f[i], why, size) < 0) {
			*bad = (enum nw_field)i;
			return -1;
		}
	if (F(s, N_HEADS) > 0 && F(s, N_KV_HEADS) > F(s, N_HEADS)) {
		*bad = NW_N_KV_HEADS;
		snprintf(why, size, "must be <= n_heads %.0f (got %.0f)", F(s, N_HEADS),
			 F(s, N_KV_HEADS));
		return -1;
	}
	world = LL(s, TP) * LL(s, PP) * LL(s, CP);
	if (world > 100000000LL || world * LL(s, DP) > 100000000LL) {
		*bad = NW_DP;
		snprintf(why, size, "makes the world size tp x pp x cp x dp exceed 100000000");
		return -1;
	}
	world *= LL(s, DP);
	if (F(s, GLOBAL_BATCH) / F(s, DP) / F(s, MICRO_BATCH) < 1.0) {
		*bad = NW_GLOBAL_BATCH;
		snprintf(why, size,
			 "%.0f sequences cannot feed dp %.0f replicas of micro-batch %.0f "
			 "(global_batch_seqs / dp / micro_batch must be >= 1)",
			 F(s, GLOBAL_BATCH), F(s, DP), F(s, MICRO_BATCH));
		return -1;
	}
	if (F(s, N_POOL) > 0 && F(s, N_POOL) < (double)world) {
		*bad = NW_N_POOL;
		snprintf(why, size, "must be 0 or at least the world size %lld (got %.0f)", world,
			 F(s, N_POOL));
		return -1;
	}
	if (F(s, HALLS) > 1 && F(s, SPAN_DIM) == NW_CUT_NONE) {
		*bad = NW_SPAN_DIM;
		snprintf(why, size, "must name a cut (tp, cp, pp, dp) when halls is %.0f",
			 F(s, HALLS));
		return -1;
	}
	if (F(s, HALLS) > 1 && F(s, SPAN_DIM) != NW_CUT_NONE && !(F(s, SPAN_BW) > 0)) {
		*bad = NW_SPAN_BW;
		snprintf(why, size, "must be > 0 when the job spans %.0f halls", F(s, HALLS));
		return -1;
	}
	return check_finite_step(s, bad, why, size);
}

long long nw_world(const struct nw_scn *s)
{
	return LL(s, TP) * LL(s, PP) * LL(s, CP) * LL(s, DP);
}

double nw_overhead(const struct nw_scn *s)
{
	return 1.0 + F(s, SPARE) + F(s, STRANDED);
}

double nw_window_s(const struct nw_scn *s)
{
	return F(s, WINDOW_DAYS) * 86400.0;
}

void nw_resolve(struct nw_scn *s)
{
	if (F(s, N_POOL) == 0)
		F(s, N_POOL) = ceil((double)nw_world(s) * nw_overhead(s));
}

/* ---- 5.2 collective primitives ------------------------------------------ */

static double bw(const struct nw_scn *s, double gbps)
{
	return gbps * 1e9 * F(s, NET_EFF) / 8.0;
}

double nw_ring(enum nw_ring kind, double bytes, double k, double b, double a)
{
	if (k <= 1)
		return 0.0;
	if (kind == NW_ALLREDUCE)
		return 2.0 * (k - 1) / k * bytes / b + 2.0 * (k - 1) * a;
	return (k - 1) / k * bytes / b + (k - 1) * a;
}

/* ---- 5.3 layout and tiers ------------------------------------------------ */

static long long floordiv(long long a, long long b)
{
	return a / b; /* operands are non-negative */
}

static long long ceil_div(long long a, long long b)
{
	return (a + b - 1) / b;
}

static long long max_ll(long long a, long long b)
{
	return a > b ? a : b;
}

static long long min_ll(long long a, long long b)
{
	return a < b ? a : b;
}

static long long degree(const struct nw_scn *s, enum nw_cut dim)
{
	switch (dim) {
	case NW_CUT_TP: return LL(s, TP);
	case NW_CUT_CP: return LL(s, CP);
	case NW_CUT_PP: return LL(s, PP);
	case NW_CUT_DP: return LL(s, DP);
	default: return 1;
	}
}

static long long stride_of(const struct nw_scn *s, enum nw_cut dim)
{
	switch (dim) {
	case NW_CUT_CP: return LL(s, TP);
	case NW_CUT_PP: return LL(s, TP) * LL(s, CP);
	case NW_CUT_DP: return LL(s, TP) * LL(s, CP) * LL(s, PP);
	default: return 1;
	}
}

struct nw_layout nw_layout_of(const struct nw_scn *s, enum nw_cut dim, unsigned variant)
{
	struct nw_layout l = { 1, 1, 1, 1, 1, 1.0 };
	long long size = degree(s, dim), stride = stride_of(s, dim), world = nw_world(s);
	long long h = 1, local, g, q, n_su, total, su_stride;
	int spans;

	if (size <= 1)
		return l;
	spans = F(s, HALLS) > 1 && F(s, SPAN_DIM) != NW_CUT_NONE && (int)F(s, SPAN_DIM) == (int)dim &&
		!(variant & NW_V_DELETE_SPAN_TIER);
	if (spans)
		h = min_ll(LL(s, HALLS), size);
	local = ceil_div(size, h);
	g = max_ll(1, LL(s, SCALEUP_DOMAIN));
	q = max_ll(g, LL(s, POD_SIZE));
	l.per_su = stride <= g ? min_ll(local, max_ll(1, floordiv(g, stride))) : 1;
	n_su = ceil_div(local, l.per_su);
	total = max_ll(1, floordiv(q, g));
	su_stride = stride * l.per_su >= g ? max_ll(1, floordiv(stride * l.per_su, g)) : 1;
	l.su_per_pod = min_ll(n_su, max_ll(1, floordiv(total, su_stride)));
	l.pods = ceil_div(n_su, l.su_per_pod);
	l.contention = 1.0;
	if (world > 0 && h > 1) {
		l.contention = (double)world / (double)size;
		if (l.contention < 1.0)
			l.contention = 1.0;
	}
	l.halls = h;
	l.ring = h;
	if (h > 1 && F(s, PLACEMENT) == 1) {
		l.per_su = l.su_per_pod = l.pods = 1;
		l.ring = (variant & NW_V_COLLAPSE_BLIND) ? h : size;
	}
	return l;
}

double nw_span_share(const struct nw_scn *s, double contention, unsigned variant)
{
	double aggregate, share, nic;

	if (F(s, SPAN_BW) <= 0)
		return 0.0;
	aggregate = F(s, SPAN_BW) * 1e9 * F(s, NET_EFF) / 8.0;
	share = aggregate / ((variant & NW_V_DELETE_CONTENTION) ? 1.0 : fmax(1.0, contention));
	nic = F(s, NIC_BW) * 1e9 * F(s, NET_EFF) / 8.0;
	if (!(variant & NW_V_DELETE_NIC_CAP) && nic < share)
		share = nic;
	return share;
}

double nw_span_latency(const struct nw_scn *s, const struct nw_layout *l, int allgather,
		       unsigned variant)
{
	if (l->halls <= 1 || l->ring <= 1 || (variant & NW_V_DELETE_LATENCY_EXPOSURE))
		return 0.0;
	if (allgather)
		return (double)(l->ring - 1) * F(s, A_SPAN) * 1e-6;
	return 2.0 * (double)(l->ring - 1) * F(s, A_SPAN) * 1e-6;
}

struct tier {
	double k, b, a;
};

static size_t tiers_of(const struct nw_scn *s, const struct nw_layout *l, unsigned variant,
		       struct tier t[4])
{
	size_t n = 0;

	if (l->per_su > 1)
		t[n++] = (struct tier){ (double)l->per_su, bw(s, F(s, SCALEUP_BW)),
					F(s, A_SCALEUP) * 1e-6 };
	if (l->su_per_pod > 1)
		t[n++] = (struct tier){ (double)l->su_per_pod, bw(s, F(s, NIC_BW)), F(s, A_POD) * 1e-6 };
	if (l->pods > 1)
		t[n++] = (struct tier){ (double)l->pods,
					F(s, NIC_BW) / fmax(1.0, F(s, OVERSUB)) * 1e9 * F(s, NET_EFF) / 8.0,
					F(s, A_XPOD) * 1e-6 };
	if (l->halls > 1)
		t[n++] = (struct tier){ (double)l->ring, nw_span_share(s, l->contention, variant),
					F(s, A_SPAN) * 1e-6 };
	return n;
}

static double hier_allreduce(const struct nw_scn *s, const struct nw_layout *l, double bytes,
			     unsigned variant)
{
	struct tier t[4];
	size_t n = tiers_of(s, l, variant, t), i;
	double sum;

	if (n == 0)
		return 0.0;
	if (n == 1)
		return nw_ring(NW_ALLREDUCE, bytes, t[0].k, t[0].b, t[0].a);
	sum = nw_ring(NW_REDUCESCATTER, bytes, t[0].k, t[0].b, t[0].a);
	for (i = 1; i < n; i++)
		sum += nw_ring(NW_ALLREDUCE, bytes / t[0].k, t[i].k, t[i].b, t[i].a);
	sum += nw_ring(NW_ALLGATHER, bytes, t[0].k, t[0].b, t[0].a);
	return sum;
}

static double hier_allgather(const struct nw_scn *s, const struct nw_layout *l, double bytes,
			     unsigned variant)
{
	struct tier t[4];
	double size[4], sum = 0.0;
	size_t n = tiers_of(s, l, variant, t), i;

	for (i = 0; i < n; i++)
		size[i] = i == 0 ? bytes : size[i - 1] / t[i - 1].k;
	for (i = n; i-- > 0;)
		sum += nw_ring(NW_ALLGATHER, size[i], t[i].k, t[i].b, t[i].a);
	return sum;
}

/* ---- 5.4 the healthy step ---------------------------------------------------- */

static double expose(double t, double a, double o)
{
	double m = fmin(a, t);

	return (t - m) * (1 - o) + m;
}

static double alpha_span_s(const struct nw_scn *s)
{
	return F(s, A_SPAN) * 1e-6;
}

static double pp_term(const struct nw_scn *s, double act, double micro, unsigned variant,
		      double *a_pp)
{
	struct nw_layout L = nw_layout_of(s, NW_CUT_PP, variant);
	double one;

	if (L.pods > 1)
		one = act / bw(s, F(s, NIC_BW) / fmax(1, F(s, OVERSUB))) + F(s, A_XPOD) * 1e-6;
	else
		one = act / bw(s, F(s, NIC_BW)) + F(s, A_POD) * 1e-6;
	*a_pp = 0.0;
	if (L.halls > 1) {
		double share = nw_span_share(s, L.contention, variant);
		double spanned = act / share + alpha_span_s(s);
		double frac = (F(s, PLACEMENT) == 1 && !(variant & NW_V_CONTIGUOUS_PIPELINE))
				      ? 1.0
				      : (double)(L.halls - 1) / (F(s, PP) - 1);

		one = (1 - frac) * one + frac * spanned;
		*a_pp = (variant & NW_V_DELETE_LATENCY_EXPOSURE)
				? 0.0
				: 2.0 * micro * frac * F(s, A_SPAN) * 1e-6;
	}
	return 2.0 * micro * one;
}

static double recompute_factor(const struct nw_scn *s)
{
	switch ((int)F(s, RECOMPUTE)) {
	case 0: return 1.0;
	case 2: return 4.0 / 3.0;
	default: return 1.10;
	}
}

void nw_step_of(const struct nw_scn *s, unsigned variant, struct nw_step *o)
{
	double world = (double)nw_world(s);
	double micro = fmax(1.0, (F(s, GLOBAL_BATCH) / F(s, DP)) / F(s, MICRO_BATCH));
	double layers, seq_local, act, a_tp = 0, a_cp = 0, a_pp = 0, a_dp = 0, base, sync, slow;
	double shard, derived, interleave, state, activation;
	long long nodes;

	memset(o, 0, sizeof *o);
	o->tokens = F(s, GLOBAL_BATCH) * F(s, SEQ_LEN);
	o->flops_per_token = 6.0 * F(s, N_PARAMS) +
			     12.0 * F(s, N_LAYERS) * F(s, SEQ_LEN) * F(s, HIDDEN) * 0.5;
	o->t_compute = o->flops_per_token * o->tokens * recompute_factor(s) /
		       (world * F(s, PEAK) * F(s, KERNEL_EFF));
	layers = F(s, N_LAYERS) / F(s, PP);
	seq_local = F(s, SEQ_LEN) / F(s, CP);
	act = F(s, MICRO_BATCH) * seq_local * F(s, HIDDEN) * F(s, ACT_BYTES);
	if (F(s, TP) > 1) {
		struct nw_layout l = nw_layout_of(s, NW_CUT_TP, variant);
		double reps = 4.0 * layers * micro;

		o->raw_tp = reps * hier_allreduce(s, &l, act, variant);
		a_tp = reps * nw_span_latency(s, &l, 0, variant);
	}
	if (F(s, CP) > 1) {
		struct nw_layout l = nw_layout_of(s, NW_CUT_CP, variant);
		double kv_ratio = F(s, N_KV_HEADS) > 0 && F(s, N_HEADS) > 0
					  ? F(s, N_KV_HEADS) / F(s, N_HEADS)
					  : 1.0;
		double kv = 2.0 * F(s, MICRO_BATCH) * seq_local * F(s, HIDDEN) * kv_ratio * F(s, ACT_BYTES);
		double reps = 3.0 * layers * micro;

		o->raw_cp = reps * hier_allgather(s, &l, kv, variant);
		a_cp = reps * nw_span_latency(s, &l, 1, variant);
	}
	if (F(s, PP) > 1)
		o->raw_pp = pp_term(s, act, micro, variant, &a_pp);
	if (F(s, DP) > 1) {
		struct nw_layout l = nw_layout_of(s, NW_CUT_DP, variant);
		double params_local = F(s, N_PARAMS) / (F(s, TP) * F(s, PP));

		o->raw_dp = hier_allreduce(s, &l, params_local * F(s, GRAD_BYTES), variant);
		a_dp = nw_span_latency(s, &l, 0, variant);
		if (F(s, ZERO) >= 3) {
			o->raw_dp += hier_allgather(s, &l, params_local * F(s, ACT_BYTES), variant);
			a_dp += nw_span_latency(s, &l, 1, variant);
		}
	}
	o->exp_tp = expose(o->raw_tp, a_tp, F(s, O_TP));
	o->exp_cp = expose(o->raw_cp, a_cp, F(s, O_CP));
	o->exp_pp = expose(o->raw_pp, a_pp, F(s, O_PP));
	o->exp_dp = expose(o->raw_dp, a_dp, F(s, O_DP));
	interleave = (variant & NW_V_IGNORE_INTERLEAVE) ? 1.0 : fmax(1, F(s, INTERLEAVE));
	o->bubble = F(s, PP) > 1 ? o->t_compute * (F(s, PP) - 1) / (micro * interleave) : 0.0;
	base = o->t_compute + o->exp_tp + o->exp_cp + o->exp_pp + o->exp_dp + o->bubble;
	nodes = max_ll(1, floordiv(nw_world(s), max_ll(1, LL(s, PER_NODE))));
	sync = F(s, CV) > 0 && world > 1 ? 1.0 + F(s, CV) * sqrt(2.0 * log(world)) : 1.0;
	slow = F(s, FS_PROB) > 0 && F(s, FS_SLOW) > 1
		       ? 1.0 + (F(s, FS_SLOW) - 1.0) * (1.0 - pow(1.0 - F(s, FS_PROB), (double)nodes))
		       : 1.0;
	o->sync_wait = base * (sync * slow - 1.0);
	o->t_step = base + o->sync_wait;
	o->blocked = o->exp_tp + o->exp_cp + o->exp_pp + o->exp_dp + o->bubble + o->sync_wait;
	o->efficiency = o->t_compute / o->t_step;
	o->mfu = o->flops_per_token * o->tokens / (world * F(s, PEAK) * o->t_step);
	o->tflops_per_gpu = o->flops_per_token * o->tokens / (o->t_step * world) / 1e12;
	shard = F(s, N_PARAMS) / (F(s, TP) * F(s, PP));
	state = F(s, ZERO) >= 1 ? shard * 2 + shard * 12 / fmax(1, F(s, DP)) : shard * 14;
	activation = F(s, MICRO_BATCH) * seq_local * F(s, HIDDEN) * layers * F(s, ACT_BYTES) * 4.0 /
		     F(s, TP);
	o->mem_state = state / 1e9;
	o->mem_activation = activation / 1e9;
	o->mem_total = (state + activation) / 1e9;
	derived = F(s, N_LAYERS) * (4.0 + 2.0 * F(s, FFN)) * (F(s, HIDDEN) * F(s, HIDDEN)) +
		  2.0 * F(s, VOCAB) * F(s, HIDDEN);
	o->param_disagreement = fabs(derived - F(s, N_PARAMS)) / F(s, N_PARAMS);
}
