/*
 * scheduling_infer.c: the single-device inference service model of
 * spec/scheduling.md 5.10: requests reserve KV memory from admission to
 * their last token, prefill runs in batches (decode-first admits one new
 * request while others decode), and each decode step costs the larger of
 * its compute and its memory traffic. Serialized and deterministic.
 */
#include "core/models/scheduling.h"

#include <stdlib.h>
#include <string.h>

struct live {
	size_t id;       /* input index */
	int64_t emitted;
	double first, last, max_gap;
};

static double memory_of(const struct sched_infer_opts *o, const struct sched_request *r)
{
	return (double)(r->input_tokens + r->output_tokens) * o->kv_bytes_per_token;
}

/* A stable order of the requests by arrival (insertion sort keeps the
 * input order of equal arrivals). */
static void order_by_arrival(const struct sched_request *req, size_t n, size_t *ord)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		size_t id = i;

		for (k = i; k > 0 && req[ord[k - 1]].arrival_s > req[id].arrival_s; k--)
			ord[k] = ord[k - 1];
		ord[k] = id;
	}
}

struct loop {
	const struct sched_hw *hw;
	const struct sched_infer_opts *o;
	const struct sched_request *req;
	struct sched_req_out *out;
	size_t *ord, *pending, npend, phead;
	struct live *active;
	size_t nact;
	double now, remaining, weight, flops, bw;
	int64_t peak;
};

static void prefill(struct loop *L)
{
	size_t had = L->nact, batch = 0;
	double tokens = 0.0;

	while (L->phead < L->npend && (int64_t)(L->nact + batch) < L->o->max_batch) {
		const struct sched_request *r = &L->req[L->pending[L->phead]];
		struct live *a = &L->active[L->nact + batch];

		if (memory_of(L->o, r) > L->remaining)
			break;
		L->remaining -= memory_of(L->o, r);
		tokens += (double)(r->input_tokens - r->cached_prefix_tokens);
		memset(a, 0, sizeof *a);
		a->id = L->pending[L->phead++];
		batch++;
		if (!L->o->prefill_first && had > 0)
			break;
	}
	L->now += ((2 * L->o->parameters) * tokens) / L->flops;
	L->nact += batch;
	if ((int64_t)L->nact > L->peak)
		L->peak = (int64_t)L->nact;
}

static void decode(struct loop *L)
{
	double context = 0.0, compute, memory_time;
	size_t i, kept = 0;

	for (i = 0; i < L->nact; i++)
		context += (double)(L->req[L->active[i].id].input_tokens + L->active[i].emitted);
	compute = ((2 * L->o->parameters) * (double)L->nact) / L->flops;
	memory_time = (L->weight + context * L->o->kv_bytes_per_token) / L->bw;
	L->now += compute > memory_time ? compute : memory_time;
	for (i = 0; i < L->nact; i++) {
		struct live *a = &L->active[i];
		const struct sched_request *r = &L->req[a->id];

		if (a->emitted == 0) {
			a->first = L->now;
		} else if (L->now - a->last > a->max_gap) {
			a->max_gap = L->now - a->last;
		}
		a->last = L->now;
		a->emitted++;
		if (a->emitted >= r->output_tokens) {
			struct sched_req_out *res = &L->out[a->id];

			L->remaining += memory_of(L->o, r);
			res->state = SCHED_REQ_DONE;
			res->ttft_s = a->first - r->arrival_s;
			res->max_itl_s = a->max_gap;
			res->slo_met = res->ttft_s <= L->o->ttft_slo_s && res->max_itl_s <= L->o->itl_slo_s;
		} else {
			L->active[kept++] = *a;
		}
	}
	L->nact = kept;
}

static void event_loop(struct loop *L, size_t n)
{
	size_t cursor = 0;

	while (cursor < n || L->phead < L->npend || L->nact > 0) {
		if (L->phead == L->npend && L->nact == 0 && cursor < n &&
		    L->req[L->ord[cursor]].arrival_s > L->now)
			L->now = L->req[L->ord[cursor]].arrival_s;
		while (cursor < n && L->req[L->ord[cursor]].arrival_s <= L->now) {
			size_t id = L->ord[cursor++];

			if (memory_of(L->o, &L->req[id]) > L->remaining && L->nact == 0)
				L->out[id].state = SCHED_REQ_REJECT_ARRIVAL;
			else
				L->pending[L->npend++] = id;
		}
		if (L->phead < L->npend && (int64_t)L->nact < L->o->max_batch &&
		    memory_of(L->o, &L->req[L->pending[L->phead]]) <= L->remaining)
			prefill(L);
		if (L->nact > 0)
			decode(L);
		else if (L->phead < L->npend &&
			 memory_of(L->o, &L->req[L->pending[L->phead]]) > L->remaining)
			L->out[L->pending[L->phead++]].state = SCHED_REQ_REJECT_QUEUE;
	}
}

int sched_infer(const struct sched_hw *hw, const struct sched_infer_opts *o,
		const struct sched_request *req, size_t n, struct sched_req_out *out,
		struct sched_infer_out *res, struct diag *err)
{
	struct loop L;
	double first_arrival = 0.0, met_tokens = 0.0;
	size_t i, done = 0, met = 0;

	memset(&L, 0, sizeof L);
	memset(res, 0, sizeof *res);
	L.hw = hw;
	L.o = o;
	L.req = req;
	L.out = out;
	L.weight = o->parameters * o->bytes_per_parameter;
	L.remaining = hw->memory_bytes - L.weight;
	L.flops = hw->compute_flops_s * hw->efficiency;
	L.bw = hw->memory_bandwidth_bytes_s * hw->efficiency;
	L.ord = malloc((n ? n : 1) * sizeof *L.ord);
	L.pending = malloc((n ? n : 1) * sizeof *L.pending);
	L.active = malloc((n ? n : 1) * sizeof *L.active);
	if (!L.ord || !L.pending || !L.active) {
		free(L.ord);
		free(L.pending);
		free(L.active);
		diag_set(err, DIAG_E_NOMEM, 0, 0, "out of memory for %zu requests", n);
		return -1;
	}
	memset(out, 0, n * sizeof *out);
	order_by_arrival(req, n, L.ord);
	event_loop(&L, n);
	for (i = 0; i < n; i++) {
		if (i == 0 || req[i].arrival_s < first_arrival)
			first_arrival = req[i].arrival_s;
		if (out[i].state != SCHED_REQ_DONE)
			continue;
		done++;
		if (out[i].slo_met) {
			met++;
			met_tokens += (double)req[i].output_tokens;
		}
	}
	res->peak_concurrency = L.peak;
	res->makespan_s = L.now - first_arrival;
	res->slo_attainment = (double)met / (double)(done > 1 ? done : 1);
	res->slo_goodput_output_tokens_s = res->makespan_s > 0 ? met_tokens / res->makespan_s : 0.0;
	free(L.ord);
	free(L.pending);
	free(L.active);
	return 0;
}
