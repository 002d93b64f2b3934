/*
 * l_model_scheduling.c: the Lua converters of the scheduling models
 * (MODEL_TABLE lines of core/models/models.def; spec/scheduling.md 11).
 * A converter reads plain Lua tables with raw access, checks every field
 * against the domain of spec section 3 (so the C model never sees a NaN, a
 * cluster that is not a multiple of 8 or a window that wraps midnight),
 * copies variable-length input into Lua-owned userdata (an argument error
 * cannot leak it), runs the model and returns plain tables. The arithmetic
 * stays in core/models/scheduling*.c.
 */
#include "core/lua/sb_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/lua/l_fields.h"
#include "core/lua/l_models.h"
#include "core/models/par.h"
#include "core/models/scheduling.h"
#include "core/util/crypto.h"
#include "core/util/num.h"

#define SEED_MAX (INT64_MAX - 20000)

static int bad(lua_State *L, const char *fn, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Raise "bad argument to 'scheduling.FN': ..." with the caller's position. */
static int bad(lua_State *L, const char *fn, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	return luaL_error(L, "bad argument to 'scheduling.%s': %s", fn, what);
}

/* A number field; absent: *v stays. Raises for a non-number, NaN or inf. */
static int opt_num(lua_State *L, const char *fn, int t, const char *k, double *v)
{
	int ty = lf_rawfield(L, t, k);

	if (ty == LUA_TNIL) {
		lua_pop(L, 1);
		return 0;
	}
	if (ty != LUA_TNUMBER)
		bad(L, fn, "%s must be a number", k);
	*v = lua_tonumber(L, -1);
	lua_pop(L, 1);
	if (!isfinite(*v))
		bad(L, fn, "%s must be finite", k);
	return 1;
}

static int opt_int(lua_State *L, const char *fn, int t, const char *k, int64_t *v)
{
	int ty = lf_rawfield(L, t, k);

	if (ty == LUA_TNIL) {
		lua_pop(L, 1);
		return 0;
	}
	if (ty != LUA_TNUMBER || !lua_isinteger(L, -1))
		bad(L, fn, "%s must be an integer", k);
	*v = (int64_t)lua_tointeger(L, -1);
	lua_pop(L, 1);
	return 1;
}

static int opt_bool(lua_State *L, const char *fn, int t, const char *k, int *v)
{
	int ty = lf_rawfield(L, t, k);

	if (ty == LUA_TNIL) {
		lua_pop(L, 1);
		return 0;
	}
	if (ty != LUA_TBOOLEAN)
		bad(L, fn, "%s must be a boolean", k);
	*v = lua_toboolean(L, -1);
	lua_pop(L, 1);
	return 1;
}

static void range(lua_State *L, const char *fn, const char *k, double v, double lo,
		  int lo_open, double hi, int hi_open)
{
	if (lo_open ? !(v > lo) : !(v >= lo))
		bad(L, fn, "%s is out of range (got %.17g)", k, v);
	if (hi_open ? !(v < hi) : !(v <= hi))
		bad(L, fn, "%s is out of range (got %.17g)", k, v);
}

static const char *const config_keys[] = {
	"kind", "gpus", "horizon_days", "seed", "offered_load", "inf_base", "inf_diurnal_amp",
	"inf_surges", "failures", "failures_per_1000_node_days", "power_envelope",
	"power_frac", "power_start_hour", "power_hours", NULL,
};

static void only_keys(lua_State *L, const char *fn, int t, const char *const *keys)
{
	lua_pushnil(L);
	while (lua_next(L, t)) {
		int ok = 0;
		size_t i;

		if (lua_type(L, -2) == LUA_TSTRING)
			for (i = 0; keys[i]; i++)
				if (strcmp(keys[i], lua_tostring(L, -2)) == 0)
					ok = 1;
		if (!ok)
			luaL_error(L, "bad argument to 'scheduling.%s': unknown field '%s'", fn,
				   lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?");
		lua_pop(L, 1);
	}
}

/* A scheduler-config table (spec 3.2), defaults for absent fields. */
static void read_config(lua_State *L, const char *fn, int t, struct sched_config *c)
{
	luaL_checktype(L, t, LUA_TTABLE);
	only_keys(L, fn, t, config_keys);
	sched_config_default(c);
	opt_int(L, fn, t, "gpus", &c->gpus);
	opt_int(L, fn, t, "horizon_days", &c->horizon_days);
	opt_int(L, fn, t, "seed", &c->seed);
	opt_num(L, fn, t, "offered_load", &c->offered_load);
	opt_num(L, fn, t, "inf_base", &c->inf_base);
	opt_num(L, fn, t, "inf_diurnal_amp", &c->inf_diurnal_amp);
	opt_bool(L, fn, t, "inf_surges", &c->inf_surges);
	opt_bool(L, fn, t, "failures", &c->failures);
	opt_num(L, fn, t, "failures_per_1000_node_days", &c->failures_per_1000_node_days);
	opt_bool(L, fn, t, "power_envelope", &c->power_envelope);
	opt_num(L, fn, t, "power_frac", &c->power_frac);
	opt_int(L, fn, t, "power_start_hour", &c->power_start_hour);
	opt_int(L, fn, t, "power_hours", &c->power_hours);
	range(L, fn, "gpus", (double)c->gpus, 8, 0, 1048576, 0);
	if (c->gpus % 8)
		bad(L, fn, "%s must be a multiple of 8 (got %.17g)", "gpus", (double)c->gpus);
	range(L, fn, "horizon_days", (double)c->horizon_days, 1, 0, 366, 0);
	if (c->seed < 0 || c->seed > SEED_MAX)
		bad(L, fn, "%s is out of range (got %.17g)", "seed", (double)c->seed);
	range(L, fn, "offered_load", c->offered_load, 0, 0, 100, 0);
	range(L, fn, "inf_base", c->inf_base, 0, 0, HUGE_VAL, 0);
	range(L, fn, "inf_diurnal_amp", c->inf_diurnal_amp, 0, 0, HUGE_VAL, 0);
	range(L, fn, "failures_per_1000_node_days", c->failures_per_1000_node_days, 0, 0,
	      288000, 1);
	range(L, fn, "power_frac", c->power_frac, 0, 1, 1, 0);
	range(L, fn, "power_start_hour", (double)c->power_start_hour, 0, 0, 23, 0);
	range(L, fn, "power_hours", (double)c->power_hours, 0, 0, 24, 0);
	if (!(c->inf_base + c->inf_diurnal_amp < (double)c->gpus))
		bad(L, fn, "%s + inf_diurnal_amp must stay below gpus (got %.17g)", "inf_base",
		    c->inf_base + c->inf_diurnal_amp);
	if (c->power_start_hour + c->power_hours > 24)
		bad(L, fn, "%s + power_hours must be at most 24 (got %.17g)", "power_start_hour",
		    (double)(c->power_start_hour + c->power_hours));
	if (c->power_envelope && trunc((double)c->gpus * c->power_frac) < 1)
		bad(L, fn, "%s leaves no GPU powered (got %.17g)", "power_frac", c->power_frac);
}

/* The optional variant table of a validation mutation (spec 7.4). */
static void read_variant(lua_State *L, const char *fn, int t, struct sched_variant *v)
{
	static const char *const keys[] = { "size_probabilities", "capped_mean",
					    "checkpoint_interval_steps", "elastic_size", NULL };
	int64_t ck = 0;
	double es = 0;

	memset(v, 0, sizeof *v);
	if (lua_isnoneornil(L, t))
		return;
	luaL_checktype(L, t, LUA_TTABLE);
	only_keys(L, fn, t, keys);
	if (lf_rawfield(L, t, "size_probabilities") == LUA_TTABLE) {
		int i, lt = lua_gettop(L);
		double sum = 0;

		for (i = 0; i < SCHED_NSIZES; i++) {
			if (lua_rawgeti(L, lt, i + 1) != LUA_TNUMBER)
				bad(L, fn, "%s needs 10 numbers", "variant.size_probabilities");
			v->size_p[i] = lua_tonumber(L, -1);
			if (!(v->size_p[i] >= 0) || !isfinite(v->size_p[i]))
				bad(L, fn, "%s must be finite and >= 0", "variant.size_probabilities");
			sum += v->size_p[i];
			lua_pop(L, 1);
		}
		if (!(sum > 0))
			bad(L, fn, "%s must not all be 0", "variant.size_probabilities");
		v->has_size_p = 1;
	}
	lua_pop(L, 1);
	if (lf_rawfield(L, t, "capped_mean") == LUA_TSTRING)
		v->capped_median = strcmp(lua_tostring(L, -1), "median") == 0;
	lua_pop(L, 1);
	if (opt_int(L, fn, t, "checkpoint_interval_steps", &ck)) {
		range(L, fn, "variant.checkpoint_interval_steps", (double)ck, 1, 0, 1e6, 0);
		v->checkpoint_interval = (int)ck;
	}
	if (lf_rawfield(L, t, "elastic_size") == LUA_TNUMBER)
		es = lua_tonumber(L, -1);
	lua_pop(L, 1);
	if (es != 0)
		range(L, fn, "variant.elastic_size", es, 1, 0, HUGE_VAL, 0);
	v->elastic_size = es;
}

/* Raise the problem in 'err' with its finding id first, so commands can
 * map it ("input.limit: ..."). */
static int model_fail(lua_State *L, const char *fn, const struct diag *err)
{
	return luaL_error(L, "scheduling.%s: %s: %s%s%s", fn, diag_id(err), err->msg,
			  err->path[0] ? " at " : "", err->path);
}

/* ---- stranded, expected_work, workload, limits, demand ---- */

int l_model_scheduling_stranded(lua_State *L)
{
	static const char *const keys[] = { "kind", "name", "description", "gpus",
					    "window_hours", "hard_outage_hours", "degraded_hours",
					    "degradation_weight", "allocation_efficiency",
					    "productive_ratio", "usd_per_gpu_hour", NULL };
	struct sched_stranded_in in = { 0, 720.0, 0.0, 0.0, 0.15, 1.0, 1.0, 2.0 };
	struct sched_stranded_out o;
	const char *fn = "stranded";

	luaL_checktype(L, 1, LUA_TTABLE);
	only_keys(L, fn, 1, keys);
	if (!opt_num(L, fn, 1, "gpus", &in.gpus))
		bad(L, fn, "%s is required", "gpus");
	opt_num(L, fn, 1, "window_hours", &in.window_hours);
	opt_num(L, fn, 1, "hard_outage_hours", &in.hard_outage_hours);
	opt_num(L, fn, 1, "degraded_hours", &in.degraded_hours);
	opt_num(L, fn, 1, "degradation_weight", &in.degradation_weight);
	opt_num(L, fn, 1, "allocation_efficiency", &in.allocation_efficiency);
	opt_num(L, fn, 1, "productive_ratio", &in.productive_ratio);
	opt_num(L, fn, 1, "usd_per_gpu_hour", &in.usd_per_gpu_hour);
	range(L, fn, "gpus", in.gpus, 1, 0, 1e8, 0);
	range(L, fn, "window_hours", in.window_hours, 0, 1, 876000, 0);
	range(L, fn, "hard_outage_hours", in.hard_outage_hours, 0, 0, 876000, 0);
	range(L, fn, "degraded_hours", in.degraded_hours, 0, 0, 876000, 0);
	range(L, fn, "degradation_weight", in.degradation_weight, 0, 0, 1, 0);
	range(L, fn, "allocation_efficiency", in.allocation_efficiency, 0, 0, 1, 0);
	range(L, fn, "productive_ratio", in.productive_ratio, 0, 0, 1, 0);
	range(L, fn, "usd_per_gpu_hour", in.usd_per_gpu_hour, 0, 0, 100000, 0);
	if (!(in.hard_outage_hours + in.degraded_hours * in.degradation_weight <=
	      in.window_hours))
		bad(L, fn, "%s plus weighted degraded hours exceed the window (got %.17g)",
		    "hard_outage_hours", in.hard_outage_hours + in.degraded_hours * in.degradation_weight);
	sched_stranded(&in, &o);
	lua_createtable(L, 0, 8);
	lf_setnum(L, "nominal_gpu_hours", o.nominal_gpu_hours);
	lf_setnum(L, "availability", o.availability);
	lf_setnum(L, "usable_gpu_hours", o.usable_gpu_hours);
	lf_setnum(L, "loss_scheduler", o.loss_scheduler);
	lf_setnum(L, "loss_allocation", o.loss_allocation);
	lf_setnum(L, "loss_productivity", o.loss_productivity);
	lf_setnum(L, "stranded_gpu_hours", o.stranded_gpu_hours);
	lf_setnum(L, "stranded_usd", o.stranded_usd);
	return 1;
}

int l_model_scheduling_expected_work(lua_State *L)
{
	struct sched_variant v;

	read_variant(L, "expected_work", 1, &v);
	lua_createtable(L, 0, 2);
	lf_setnum(L, "expected_work", sched_expected_work(&v));
	lf_setnum(L, "large_gpu_time_share", sched_large_gpu_time_share(&v));
	return 1;
}

int l_model_scheduling_check_limits(lua_State *L)
{
	struct sched_config c;
	struct sched_variant v;
	struct diag err;

	read_config(L, "check_limits", 1, &c);
	read_variant(L, "check_limits", 2, &v);
	diag_init(&err);
	if (sched_check_limits(&c, &v, &err) == 0) {
		lua_pushnil(L);
		return 1;
	}
	lua_createtable(L, 0, 2);
	lua_pushstring(L, err.msg);
	lua_setfield(L, -2, "message");
	lua_pushstring(L, err.path);
	lua_setfield(L, -2, "path");
	return 1;
}

int l_model_scheduling_workload(lua_State *L)
{
	struct sched_config c;
	struct sched_variant v;
	struct sched_job_spec *jobs;
	struct diag err;
	long n, i, be = 0;

	read_config(L, "workload", 1, &c);
	read_variant(L, "workload", 2, &v);
	diag_init(&err);
	if (sched_check_limits(&c, &v, &err) < 0)
		return model_fail(L, "workload", &err);
	n = sched_generate(&c, &v, &jobs, &err);
	if (n < 0)
		return model_fail(L, "workload", &err);
	for (i = 0; i < n; i++)
		be += jobs[i].besteffort;
	free(jobs);
	lua_createtable(L, 0, 4);
	lf_setnum(L, "arrivals_per_step", sched_arrival_rate(&c, &v));
	lf_setint(L, "jobs_generated", n);
	lua_createtable(L, 0, 2);
	lf_setint(L, "batch", n - be);
	lf_setint(L, "besteffort", be);
	lua_setfield(L, -2, "jobs_by_tier");
	lf_setint(L, "inf_reservation_gpus", sched_reservation(&c));
	return 1;
}

int l_model_scheduling_demand(lua_State *L)
{
	struct sched_config c;
	lua_Integer t;
	double surge;

	read_config(L, "demand", 1, &c);
	t = luaL_checkinteger(L, 2);
	surge = luaL_optnumber(L, 3, 0.0);
	if (t < 0 || !isfinite(surge) || surge < 0)
		return luaL_error(L, "bad argument to 'scheduling.demand': step >= 0, surge >= 0");
	lua_pushnumber(L, sched_demand(&c, (int64_t)t, surge));
	return 1;
}

/* ---- simulate ---- */

static enum sched_policy read_policy(lua_State *L, const char *fn, int idx)
{
	const char *p = luaL_checkstring(L, idx);

	if (strcmp(p, "rigid-fifo") == 0)
		return SCHED_RIGID;
	if (strcmp(p, "tiered-preemption") == 0)
		return SCHED_TIERED;
	if (strcmp(p, "intent-closed-loop") == 0)
		return SCHED_INTENT;
	return (enum sched_policy)bad(L, fn, "unknown policy '%s'", p);
}

/* A replacement workload: a list of {submit, size, work, min_size,
 * elastic, besteffort}, copied into userdata left on the stack. */
static struct sched_job_spec *read_jobs(lua_State *L, const char *fn, int t, long *n)
{
	struct sched_job_spec *jobs;
	lua_Integer i, len = (lua_Integer)lua_rawlen(L, t);

	if (len > 100000)
		bad(L, fn, "%s: at most 100000 jobs", "opts.jobs");
	jobs = lua_newuserdatauv(L, (size_t)(len ? len : 1) * sizeof *jobs, 0);
	for (i = 1; i <= len; i++) {
		struct sched_job_spec *j = &jobs[i - 1];
		int64_t sub = 0, size = 0, min = 0;
		int el = 0, be = 0;
		int jt;

		if (lua_rawgeti(L, t, i) != LUA_TTABLE)
			bad(L, fn, "%s must hold tables", "opts.jobs");
		jt = lua_gettop(L);
		opt_int(L, fn, jt, "submit", &sub);
		opt_int(L, fn, jt, "size", &size);
		opt_int(L, fn, jt, "min_size", &min);
		j->work = 0;
		opt_num(L, fn, jt, "work", &j->work);
		opt_bool(L, fn, jt, "elastic", &el);
		opt_bool(L, fn, jt, "besteffort", &be);
		range(L, fn, "job.size", (double)size, 1, 0, 1048576, 0);
		range(L, fn, "job.min_size", (double)min, 1, 0, (double)size, 0);
		range(L, fn, "job.submit", (double)sub, 0, 0, 1e9, 0);
		range(L, fn, "job.work", j->work, 0, 1, 1e15, 0);
		if (i > 1 && sub < jobs[i - 2].submit)
			bad(L, fn, "%s must be in submit order", "opts.jobs");
		j->submit = sub;
		j->size = (int)size;
		j->min_size = (int)min;
		j->elastic = el;
		j->besteffort = be;
		lua_pop(L, 1);
	}
	*n = (long)len;
	return jobs;
}

static void read_opts(lua_State *L, const char *fn, int t, struct sched_opts *o, int *waits)
{
	o->tracking = 1;
	o->elasticity = 1;
	o->jobs = NULL;
	o->njobs = 0;
	*waits = 0;
	if (lua_isnoneornil(L, t))
		return;
	luaL_checktype(L, t, LUA_TTABLE);
	opt_bool(L, fn, t, "tracking", &o->tracking);
	opt_bool(L, fn, t, "elasticity", &o->elasticity);
	opt_bool(L, fn, t, "waits", waits);
	if (lf_rawfield(L, t, "jobs") == LUA_TTABLE) {
		int jt = lua_gettop(L);

		o->jobs = read_jobs(L, fn, jt, &o->njobs);
		lua_remove(L, jt); /* the userdata stays on the stack */
	} else {
		lua_pop(L, 1);
	}
}

static void push_result(lua_State *L, const struct sched_result *r, int waits)
{
	const struct sched_ledger *g = &r->ledger;
	int i;
	long k;

	lua_createtable(L, 0, 5);
	lua_createtable(L, 0, SCHED_NMETRICS);
	for (i = 0; i < SCHED_NMETRICS; i++) {
		if (SCHED_METRIC_IS_INT(i))
			lf_setint(L, sched_metric_names[i], (int64_t)r->metrics[i]);
		else
			lf_setnum(L, sched_metric_names[i], r->metrics[i]);
	}
	lua_setfield(L, -2, "metrics");
	lua_createtable(L, 0, 12);
	lf_setnum(L, "nominal_gpu_h", g->nominal);
	lf_setnum(L, "envelope_gpu_h", g->envelope);
	lf_setnum(L, "inf_alloc_gpu_h", g->inf_alloc);
	lf_setnum(L, "inf_productive_gpu_h", g->inf_productive);
	lf_setnum(L, "inf_demand_gpu_h", g->inf_demand);
	lf_setnum(L, "train_alloc_gpu_h", g->train_alloc);
	lf_setnum(L, "train_productive_gpu_h", g->train_productive);
	lf_setnum(L, "work_lost_gpu_h", g->work_lost);
	lf_setnum(L, "wait_steps_sum", g->wait_steps_sum);
	lf_setint(L, "slo_ok_steps", g->slo_ok_steps);
	lf_setint(L, "total_steps", g->total_steps);
	lf_setint(L, "waited_jobs", g->waited_jobs);
	lua_setfield(L, -2, "ledger");
	lf_setint(L, "jobs_never_started", r->jobs_never_started);
	if (waits) {
		lua_createtable(L, (int)r->nwaits, 0);
		for (k = 0; k < r->nwaits; k++) {
			lua_pushnumber(L, r->waits[k]);
			lua_rawseti(L, -2, k + 1);
		}
		lua_setfield(L, -2, "waits_h");
		lua_createtable(L, (int)r->nwaits, 0);
		for (k = 0; k < r->nwaits; k++) {
			lua_pushinteger(L, r->wait_sizes[k]);
			lua_rawseti(L, -2, k + 1);
		}
		lua_setfield(L, -2, "wait_sizes");
	}
}

int l_model_scheduling_simulate(lua_State *L)
{
	struct sched_config c;
	struct sched_opts o;
	struct sched_variant v;
	struct sched_result r;
	struct diag err;
	int waits;

	lua_settop(L, 4);
	read_config(L, "simulate", 1, &c);
	o.policy = read_policy(L, "simulate", 2);
	read_variant(L, "simulate", 4, &v);
	read_opts(L, "simulate", 3, &o, &waits);
	diag_init(&err);
	if (sched_simulate(&c, &o, &v, &r, &err) < 0)
		return model_fail(L, "simulate", &err);
	/* Copy the wait lists into Lua before anything can raise. */
	push_result(L, &r, waits);
	sched_result_release(&r);
	return 1;
}

/* ---- simulate_batch: independent runs on threads ---- */

#define MAX_BATCH 4096

struct sim_run {
	struct sched_config c;
	struct sched_opts o;
	struct sched_result r;
	struct diag err;
	int waits, failed;
};

struct sim_batch {
	struct sim_run *runs;
	const struct sched_variant *v;
};

static void sim_job(void *ctx, size_t i)
{
	struct sim_batch *b = ctx;
	struct sim_run *run = &b->runs[i];

	diag_init(&run->err);
	run->failed = sched_simulate(&run->c, &run->o, b->v, &run->r, &run->err) < 0;
}

/* simulate_batch({{config =, policy =, opts =}...}[, variant]) -> the
 * results of simulate for each run, in order; the runs share nothing and
 * go to threads (core/models/par.c), so each result is that run's alone.
 * The first run that fails (in list order) raises, as simulate would. */
int l_model_scheduling_simulate_batch(lua_State *L)
{
	struct sched_variant v;
	struct sim_batch b;
	struct sim_run *runs;
	lua_Integer n, i;

	lua_settop(L, 2);
	luaL_checktype(L, 1, LUA_TTABLE);
	read_variant(L, "simulate_batch", 2, &v);
	n = (lua_Integer)lua_rawlen(L, 1);
	if (n < 1 || n > MAX_BATCH)
		bad(L, "simulate_batch", "a batch holds 1..%d runs, got %lld", MAX_BATCH,
		    (long long)n);
	runs = lua_newuserdatauv(L, (size_t)n * sizeof *runs, 0);
	memset(runs, 0, (size_t)n * sizeof *runs);
	for (i = 1; i <= n; i++) {
		struct sim_run *run = &runs[i - 1];
		int t;

		luaL_checkstack(L, 8, "simulate_batch");
		if (lua_rawgeti(L, 1, i) != LUA_TTABLE)
			bad(L, "simulate_batch", "run %lld is not a table", (long long)i);
		t = lua_gettop(L);
		lf_rawfield(L, t, "config");
		read_config(L, "simulate_batch", lua_gettop(L), &run->c);
		lf_rawfield(L, t, "policy");
		run->o.policy = read_policy(L, "simulate_batch", lua_gettop(L));
		lf_rawfield(L, t, "opts");
		/* A jobs list leaves its userdata on the stack, alive until the
		 * call returns; everything else of the run table is popped. */
		read_opts(L, "simulate_batch", lua_gettop(L), &run->o, &run->waits);
	}
	b.runs = runs;
	b.v = &v;
	par_for((size_t)n, sim_job, &b);
	for (i = 0; i < n; i++)
		if (runs[i].failed) {
			char msg[sizeof runs[i].err.msg + 600];

			snprintf(msg, sizeof msg, "scheduling.simulate_batch: %s: %s%s%s",
				 diag_id(&runs[i].err), runs[i].err.msg,
				 runs[i].err.path[0] ? " at " : "", runs[i].err.path);
			for (i = 0; i < n; i++)
				if (!runs[i].failed)
					sched_result_release(&runs[i].r);
			return luaL_error(L, "%s", msg);
		}
	lua_createtable(L, (int)n, 0);
	for (i = 0; i < n; i++) {
		push_result(L, &runs[i].r, runs[i].waits);
		sched_result_release(&runs[i].r);
		lua_rawseti(L, -2, i + 1);
	}
	return 1;
}

static int metric_index(lua_State *L, const char *name)
{
	int i;

	for (i = 0; i < SCHED_NMETRICS; i++)
		if (strcmp(sched_metric_names[i], name) == 0)
			return i;
	bad(L, "simulate_mean", "unknown metric '%s'", name);
	return -1;
}

int l_model_scheduling_simulate_mean(lua_State *L)
{
	struct sched_config c;
	struct sched_opts o;
	struct sched_variant v;
	struct sched_result r;
	struct diag err;
	double vals[64];
	lua_Integer seeds, s;
	int waits, mi;

	lua_settop(L, 6);
	read_config(L, "simulate_mean", 1, &c);
	o.policy = read_policy(L, "simulate_mean", 2);
	seeds = luaL_checkinteger(L, 4);
	mi = metric_index(L, luaL_checkstring(L, 5));
	if (seeds < 1 || seeds > 64)
		return luaL_error(L, "bad argument to 'scheduling.simulate_mean': seeds 1..64");
	read_variant(L, "simulate_mean", 6, &v);
	read_opts(L, "simulate_mean", 3, &o, &waits);
	for (s = 0; s < seeds; s++) {
		c.seed = s;
		diag_init(&err);
		if (sched_simulate(&c, &o, &v, &r, &err) < 0)
			return model_fail(L, "simulate_mean", &err);
		vals[s] = r.metrics[mi];
		sched_result_release(&r);
	}
	lua_pushnumber(L, sched_exact_mean(vals, (size_t)seeds));
	return 1;
}

/* ---- means ---- */

static double *read_list(lua_State *L, const char *fn, size_t *n)
{
	lua_Integer i, len;
	double *x;

	luaL_checktype(L, 1, LUA_TTABLE);
	len = (lua_Integer)lua_rawlen(L, 1);
	if (len > 10000000)
		bad(L, fn, "%s: too many values", "list");
	x = lua_newuserdatauv(L, (size_t)(len ? len : 1) * sizeof *x, 0);
	for (i = 1; i <= len; i++) {
		if (lua_rawgeti(L, 1, i) != LUA_TNUMBER)
			bad(L, fn, "%s must hold numbers", "list");
		x[i - 1] = lua_tonumber(L, -1);
		lua_pop(L, 1);
		if (!isfinite(x[i - 1]))
			bad(L, fn, "%s must hold finite numbers", "list");
	}
	*n = (size_t)len;
	return x;
}

int l_model_scheduling_mean(lua_State *L)
{
	size_t n;
	double *x = read_list(L, "mean", &n);

	lua_pushnumber(L, sched_exact_mean(x, n));
	return 1;
}

int l_model_scheduling_stdev(lua_State *L)
{
	size_t n;
	double *x = read_list(L, "stdev", &n);

	lua_pushnumber(L, sched_stdev(x, n));
	return 1;
}

/* ---- inference ---- */

static double pos_num(lua_State *L, const char *fn, int t, const char *k, double dflt,
		      int required)
{
	double v = dflt;

	if (!opt_num(L, fn, t, k, &v) && required)
		bad(L, fn, "%s is required", k);
	range(L, fn, k, v, 0, 1, HUGE_VAL, 0);
	return v;
}

int l_model_scheduling_inference(lua_State *L)
{
	const char *fn = "inference";
	struct sched_hw hw;
	struct sched_infer_opts o;
	struct sched_request *req;
	struct sched_req_out *out;
	struct sched_infer_out res;
	struct diag err;
	lua_Integer i, n;
	double total_out = 0;

	luaL_checktype(L, 1, LUA_TTABLE);
	luaL_checktype(L, 2, LUA_TTABLE);
	if (lua_isnoneornil(L, 3)) {
		lua_settop(L, 2);
		lua_newtable(L);
	}
	luaL_checktype(L, 3, LUA_TTABLE);
	hw.compute_flops_s = pos_num(L, fn, 1, "compute_flops_s", 0, 1);
	hw.memory_bytes = pos_num(L, fn, 1, "memory_bytes", 0, 1);
	hw.memory_bandwidth_bytes_s = pos_num(L, fn, 1, "memory_bandwidth_bytes_s", 0, 1);
	hw.efficiency = pos_num(L, fn, 1, "efficiency", 0.5, 0);
	range(L, fn, "efficiency", hw.efficiency, 0, 1, 1, 0);
	o.parameters = pos_num(L, fn, 3, "parameters", 7e9, 0);
	o.bytes_per_parameter = pos_num(L, fn, 3, "bytes_per_parameter", 2, 0);
	o.kv_bytes_per_token = pos_num(L, fn, 3, "kv_bytes_per_token", 131072, 0);
	o.ttft_slo_s = pos_num(L, fn, 3, "ttft_slo_s", 1.0, 0);
	o.itl_slo_s = pos_num(L, fn, 3, "itl_slo_s", 0.05, 0);
	o.max_batch = 16;
	opt_int(L, fn, 3, "max_batch", &o.max_batch);
	range(L, fn, "max_batch", (double)o.max_batch, 1, 0, 1e9, 0);
	o.prefill_first = 0;
	if (lf_rawfield(L, 3, "policy") == LUA_TSTRING)
		o.prefill_first = strcmp(lua_tostring(L, -1), "prefill-first") == 0;
	lua_pop(L, 1);
	if (!(o.parameters * o.bytes_per_parameter < hw.memory_bytes))
		bad(L, fn, "%s x bytes_per_parameter must stay below memory_bytes (got %.17g)",
		    "parameters", o.parameters * o.bytes_per_parameter);
	n = (lua_Integer)lua_rawlen(L, 2);
	if (n > 100000)
		bad(L, fn, "%s: at most 100000 requests", "requests");
	req = lua_newuserdatauv(L, (size_t)(n ? n : 1) * sizeof *req, 0);
	out = lua_newuserdatauv(L, (size_t)(n ? n : 1) * sizeof *out, 0);
	for (i = 1; i <= n; i++) {
		struct sched_request *r = &req[i - 1];
		int rt;

		if (lua_rawgeti(L, 2, i) != LUA_TTABLE)
			bad(L, fn, "%s must hold tables", "requests");
		rt = lua_gettop(L);
		r->arrival_s = 0;
		r->input_tokens = r->output_tokens = 0;
		r->cached_prefix_tokens = 0;
		opt_num(L, fn, rt, "arrival_s", &r->arrival_s);
		opt_int(L, fn, rt, "input_tokens", &r->input_tokens);
		opt_int(L, fn, rt, "output_tokens", &r->output_tokens);
		opt_int(L, fn, rt, "cached_prefix_tokens", &r->cached_prefix_tokens);
		range(L, fn, "arrival_s", r->arrival_s, 0, 0, HUGE_VAL, 0);
		range(L, fn, "input_tokens", (double)r->input_tokens, 1, 0, 1e12, 0);
		range(L, fn, "output_tokens", (double)r->output_tokens, 1, 0, 1e7, 0);
		range(L, fn, "cached_prefix_tokens", (double)r->cached_prefix_tokens, 0, 0,
		      (double)r->input_tokens, 0);
		total_out += (double)r->output_tokens;
		lua_pop(L, 1);
	}
	if (total_out > 1e7)
		bad(L, fn, "%s: at most 10000000 output tokens in total (got %.17g)", "requests",
		    total_out);
	diag_init(&err);
	if (sched_infer(&hw, &o, req, (size_t)n, out, &res, &err) < 0)
		return model_fail(L, fn, &err);
	lua_createtable(L, 0, 5);
	lf_setint(L, "peak_concurrency", res.peak_concurrency);
	lf_setnum(L, "makespan_s", res.makespan_s);
	lf_setnum(L, "slo_attainment", res.slo_attainment);
	lf_setnum(L, "slo_goodput_output_tokens_s", res.slo_goodput_output_tokens_s);
	lua_createtable(L, (int)n, 0);
	for (i = 0; i < n; i++) {
		static const char *const states[] = { "done", "exceeds-kv-capacity", "kv-capacity" };

		lua_createtable(L, 0, 4);
		lua_pushstring(L, states[out[i].state]);
		lua_setfield(L, -2, "state");
		lf_setnum(L, "ttft_s", out[i].ttft_s);
		lf_setnum(L, "max_itl_s", out[i].max_itl_s);
		lua_pushboolean(L, out[i].slo_met);
		lua_setfield(L, -2, "slo_met");
		lua_rawseti(L, -2, i + 1);
	}
	lua_setfield(L, -2, "requests");
	return 1;
}

/* ---- canonical JSON digest (spec 5.9.3) ---- */

static void canon_string(struct sbuf *b, const char *s, size_t len)
{
	size_t i = 0;

	sbuf_addc(b, '"');
	while (i < len) {
		unsigned char c = (unsigned char)s[i];
		uint32_t cp = c;
		size_t k, extra = c < 0x80 ? 0 : c < 0xE0 ? 1 : c < 0xF0 ? 2 : 3;

		for (k = 1; k <= extra && i + k < len; k++)
			cp = (cp << 6) | ((unsigned char)s[i + k] & 0x3F);
		if (extra)
			cp &= extra == 1 ? 0x7FF : extra == 2 ? 0xFFFF : 0x1FFFFF;
		i += extra + 1;
		if (cp == '"' || cp == '\\') {
			sbuf_addc(b, '\\');
			sbuf_addc(b, (char)cp);
		} else if (cp == '\n') {
			sbuf_adds(b, "\\n");
		} else if (cp == '\r') {
			sbuf_adds(b, "\\r");
		} else if (cp == '\t') {
			sbuf_adds(b, "\\t");
		} else if (cp == '\b') {
			sbuf_adds(b, "\\b");
		} else if (cp == '\f') {
			sbuf_adds(b, "\\f");
		} else if (cp < 0x20 || (cp >= 0x7F && cp < 0x10000)) {
			sbuf_addf(b, "\\u%04x", (unsigned)cp);
		} else if (cp >= 0x10000) {
			cp -= 0x10000;
			sbuf_addf(b, "\\u%04x\\u%04x", (unsigned)(0xD800 + (cp >> 10)),
				  (unsigned)(0xDC00 + (cp & 0x3FF)));
		} else {
			sbuf_addc(b, (char)cp);
		}
	}
	sbuf_addc(b, '"');
}

static int key_cmp(const void *a, const void *b)
{
	const char *const *x = a, *const *y = b;

	return strcmp(*x, *y);
}

static void canon(lua_State *L, int idx, struct sbuf *b, int depth)
{
	char num[NUM_REPR_MAX];
	int ty = lua_type(L, idx);

	if (depth > 64)
		luaL_error(L, "scheduling.canonical_digest: value nested too deeply");
	if (ty == LUA_TNUMBER) {
		if (lua_isinteger(L, idx)) {
			num_int((int64_t)lua_tointeger(L, idx), num);
		} else {
			if (!isfinite(lua_tonumber(L, idx)))
				luaL_error(L, "scheduling.canonical_digest: NaN or infinity");
			num_repr(lua_tonumber(L, idx), num);
		}
		sbuf_adds(b, num);
	} else if (ty == LUA_TBOOLEAN) {
		sbuf_adds(b, lua_toboolean(L, idx) ? "true" : "false");
	} else if (ty == LUA_TSTRING) {
		size_t len;
		const char *s = lua_tolstring(L, idx, &len);

		canon_string(b, s, len);
	} else if (ty == LUA_TTABLE) {
		lua_Integer len = (lua_Integer)lua_rawlen(L, idx), i, nkeys = 0;
		const char **keys;

		lua_pushnil(L);
		while (lua_next(L, idx)) {
			nkeys++;
			lua_pop(L, 1);
		}
		if (nkeys == len && len > 0) {
			sbuf_addc(b, '[');
			for (i = 1; i <= len; i++) {
				if (i > 1)
					sbuf_addc(b, ',');
				lua_rawgeti(L, idx, i);
				canon(L, lua_gettop(L), b, depth + 1);
				lua_pop(L, 1);
			}
			sbuf_addc(b, ']');
			return;
		}
		keys = lua_newuserdatauv(L, (size_t)(nkeys ? nkeys : 1) * sizeof *keys, 0);
		i = 0;
		lua_pushnil(L);
		while (lua_next(L, idx)) {
			if (lua_type(L, -2) != LUA_TSTRING)
				luaL_error(L, "scheduling.canonical_digest: keys must be strings");
			keys[i++] = lua_tostring(L, -2); /* kept alive by the table */
			lua_pop(L, 1);
		}
		qsort(keys, (size_t)nkeys, sizeof *keys, key_cmp);
		sbuf_addc(b, '{');
		for (i = 0; i < nkeys; i++) {
			if (i)
				sbuf_addc(b, ',');
			canon_string(b, keys[i], strlen(keys[i]));
			sbuf_addc(b, ':');
			lua_pushstring(L, keys[i]);
			lua_rawget(L, idx);
			canon(L, lua_gettop(L), b, depth + 1);
			lua_pop(L, 1);
		}
		sbuf_addc(b, '}');
		lua_pop(L, 1);
	} else if (sb_is_null(L, idx)) {
		sbuf_adds(b, "null");
	} else {
		luaL_error(L, "scheduling.canonical_digest: cannot encode a %s", luaL_typename(L, idx));
	}
}

int l_model_scheduling_canonical_digest(lua_State *L)
{
	struct sbuf *b;
	unsigned char md[CRYPTO_SHA256_LEN];
	char hex[2 * CRYPTO_SHA256_LEN + 1];

	luaL_checkany(L, 1);
	lua_settop(L, 1);
	b = sb_tmpbuf(L, 64u << 20);
	canon(L, 1, b, 0);
	if (b->failed || crypto_sha256(b->buf ? b->buf : "", b->len, md) < 0)
		return luaL_error(L, "scheduling.canonical_digest: value too large to hash");
	crypto_hex(md, sizeof md, hex);
	lua_pushstring(L, hex);
	lua_pushlstring(L, b->buf ? b->buf : "", b->len);
	return 2;
}
