/*
 * l_model_reliability.c: the Lua converters of the reliability models
 * (MODEL_TABLE lines of core/models/models.def): models.reliability.
 * simulate, events, means and exact_mean. A converter reads the config
 * table with raw access and checks every field against spec/reliability.md
 * 3.1 (types, ranges, the expected-event limit of 5.10) before the C model
 * runs, so the model never sees a NaN, a zero horizon or an endless
 * timeline. The pack validates documents and options first with positioned
 * messages; these checks are the last line, not the user-facing one.
 * Timelines are freed before any Lua call that could raise.
 */
#include <lauxlib.h>
#include <lua.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/lua/l_fields.h"
#include "core/lua/l_models.h"
#include "core/models/exact_mean.h"
#include "core/models/reliability.h"

#define MAX_EXPECTED_EVENTS 2000000.0
#define MAX_SEEDS 100000
#define MAX_LISTED 1000000

static double num(lua_State *L, const char *fn, int t, const char *k, double lo,
		  int lo_open, double hi)
{
	double v;

	if (lf_rawfield(L, t, k) != LUA_TNUMBER)
		luaL_error(L, "bad argument to 'reliability.%s': config.%s must be a number", fn, k);
	v = lua_tonumber(L, -1);
	lua_pop(L, 1);
	if (!isfinite(v) || (lo_open ? !(v > lo) : !(v >= lo)) || !(v <= hi))
		lf_error(L, "bad argument to 'reliability.%s': config.%s = %g is outside "
			 "its domain", fn, k, v);
	return v;
}

static int64_t integer(lua_State *L, const char *fn, int t, const char *k, int64_t lo,
		       int64_t hi)
{
	lua_Integer v;

	if (lf_rawfield(L, t, k) != LUA_TNUMBER || !lua_isinteger(L, -1))
		luaL_error(L, "bad argument to 'reliability.%s': config.%s must be an integer",
			   fn, k);
	v = lua_tointeger(L, -1);
	lua_pop(L, 1);
	if (v < lo || v > hi)
		lf_error(L, "bad argument to 'reliability.%s': config.%s = %lld is outside "
			 "%lld..%lld", fn, k, (long long)v, (long long)lo, (long long)hi);
	return (int64_t)v;
}

/* Read arg[1].config into c, every field checked. */
static void read_config(lua_State *L, const char *fn, int arg, struct rel_config *c)
{
	int t;

	if (lf_rawfield(L, arg, "config") != LUA_TTABLE)
		luaL_error(L, "bad argument to 'reliability.%s': config must be a table", fn);
	t = lua_gettop(L);
	c->nodes = integer(L, fn, t, "nodes", 1, 1000000);
	c->horizon_h = num(L, fn, t, "horizon_h", 0, 1, 87600);
	c->seed = (uint64_t)integer(L, fn, t, "seed", 0, INT64_MAX);
	c->dollars_per_gpu_h = num(L, fn, t, "dollars_per_gpu_h", 0, 0, HUGE_VAL);
	c->single_rate_per_node_h = num(L, fn, t, "single_rate_per_node_h", 0, 0, HUGE_VAL);
	c->burst_rate_per_h = num(L, fn, t, "burst_rate_per_h", 0, 0, HUGE_VAL);
	c->burst_blast = integer(L, fn, t, "burst_blast", 1, c->nodes);
	c->detect_h = num(L, fn, t, "detect_h", 0, 0, HUGE_VAL);
	c->reload_h = num(L, fn, t, "reload_h", 0, 0, HUGE_VAL);
	c->repair_h = num(L, fn, t, "repair_h", 0, 0, HUGE_VAL);
	c->requal_h = num(L, fn, t, "requal_h", 0, 0, HUGE_VAL);
	c->operator_h = num(L, fn, t, "operator_h", 0, 0, HUGE_VAL);
	c->reshard_h = num(L, fn, t, "reshard_h", 0, 0, HUGE_VAL);
	c->ckpt_interval_h = num(L, fn, t, "ckpt_interval_h", 0, 1, HUGE_VAL);
	c->ckpt_write_h = num(L, fn, t, "ckpt_write_h", 0, 0, c->ckpt_interval_h);
	c->ckpt_overlap_interval_h = num(L, fn, t, "ckpt_overlap_interval_h", 0, 1, HUGE_VAL);
	c->ckpt_overlap_write_h =
		num(L, fn, t, "ckpt_overlap_write_h", 0, 0, c->ckpt_overlap_interval_h);
	c->spare_nodes = integer(L, fn, t, "spare_nodes", 0, 1000000);
	c->legal_shape_nodes = integer(L, fn, t, "legal_shape_nodes", 1, INT64_MAX);
	lua_pop(L, 1);
	if (!((rel_single_rate(c) + c->burst_rate_per_h) * c->horizon_h <= MAX_EXPECTED_EVENTS))
		lf_error(L, "bad argument to 'reliability.%s': more than %.0f expected latent "
			 "events", fn, MAX_EXPECTED_EVENTS);
}

static int policy_index(const char *s)
{
	int p;

	for (p = 0; p < REL_NPOLICIES; p++)
		if (strcmp(s, rel_policy_names[p]) == 0)
			return p;
	return -1;
}

static unsigned read_variant(lua_State *L, int idx)
{
	unsigned bits = 0;

	if (lua_isnoneornil(L, idx))
		return 0;
	luaL_checktype(L, idx, LUA_TTABLE);
	lua_pushnil(L);
	while (lua_next(L, idx)) {
		if (lua_type(L, -2) != LUA_TSTRING ||
		    strcmp(lua_tostring(L, -2), "full_interval_loss") != 0)
			luaL_error(L, "model 'reliability' has no such switch");
		if (lua_toboolean(L, -1))
			bits |= REL_V_FULL_INTERVAL_LOSS;
		lua_pop(L, 1);
	}
	return bits;
}

static void push_result(lua_State *L, const struct rel_result *r)
{
	lua_createtable(L, 0, 11);
	lua_pushstring(L, rel_policy_names[r->policy]);
	lua_setfield(L, -2, "policy");
	lua_pushinteger(L, (lua_Integer)r->seed);
	lua_setfield(L, -2, "seed");
	lf_setnum(L, "ettr", r->ettr);
	lf_setnum(L, "availability", r->availability);
	lf_setnum(L, "mttf_h", r->mttf_h);
	lf_setnum(L, "mttr_h", r->mttr_h);
	lua_pushinteger(L, (lua_Integer)r->interruptions);
	lua_setfield(L, -2, "interruptions");
	lf_setnum(L, "reserved_spare_gpu_h", r->reserved_spare_gpu_h);
	lf_setnum(L, "productive_gpu_h", r->productive_gpu_h);
	lf_setnum(L, "waste_gpu_h", r->waste_gpu_h);
	lf_setnum(L, "waste_dollars", r->waste_dollars);
}

/* simulate({config=, policy=}[, variant]) -> {events=, results={...}} */
int l_model_reliability_simulate(lua_State *L)
{
	struct rel_result res[REL_NPOLICIES];
	struct rel_timeline tl;
	struct rel_config c;
	struct diag err;
	unsigned variant;
	int p, lo, hi, rc = 0;
	size_t count;

	luaL_checktype(L, 1, LUA_TTABLE);
	variant = read_variant(L, 2);
	read_config(L, "simulate", 1, &c);
	if (lf_rawfield(L, 1, "policy") != LUA_TSTRING)
		return luaL_error(L, "bad argument to 'reliability.simulate': policy must be a string");
	if (strcmp(lua_tostring(L, -1), "all") == 0) {
		lo = 0;
		hi = REL_NPOLICIES - 1;
	} else if ((lo = hi = policy_index(lua_tostring(L, -1))) < 0) {
		return luaL_error(L, "bad argument to 'reliability.simulate': unknown policy '%s'",
				  lua_tostring(L, -1));
	}
	lua_pop(L, 1);
	diag_init(&err);
	if (rel_timeline_build(&c, &tl, &err) < 0)
		return luaL_error(L, "reliability.simulate: %s", err.msg);
	for (p = lo; p <= hi && rc == 0; p++)
		rc = rel_simulate(&c, (enum rel_policy)p, &tl, variant, &res[p], &err);
	count = tl.count;
	rel_timeline_free(&tl);
	if (rc < 0)
		return luaL_error(L, "reliability.simulate: %s", err.msg);
	lua_createtable(L, 0, 2);
	lua_pushinteger(L, (lua_Integer)count);
	lua_setfield(L, -2, "events");
	lua_createtable(L, hi - lo + 1, 0);
	for (p = lo; p <= hi; p++) {
		push_result(L, &res[p]);
		lua_rawseti(L, -2, p - lo + 1);
	}
	lua_setfield(L, -2, "results");
	return 1;
}

static lua_Integer count_arg(lua_State *L, int t, const char *k, lua_Integer dflt)
{
	lua_Integer v;
	int ty = lf_rawfield(L, t, k);

	if (ty == LUA_TNIL) {
		lua_pop(L, 1);
		return dflt;
	}
	if (ty != LUA_TNUMBER || !lua_isinteger(L, -1))
		luaL_error(L, "bad argument to 'reliability.events': %s must be an integer", k);
	v = lua_tointeger(L, -1);
	lua_pop(L, 1);
	if (v < 0 || v > MAX_LISTED)
		luaL_error(L, "bad argument to 'reliability.events': %s must be within 0..%d", k,
			   MAX_LISTED);
	return v;
}

static void push_events(lua_State *L, const struct rel_event *ev, size_t n)
{
	size_t i;

	lua_createtable(L, (int)n, 0);
	for (i = 0; i < n; i++) {
		lua_createtable(L, 2, 0);
		lua_pushnumber(L, ev[i].t);
		lua_rawseti(L, -2, 1);
		lua_pushinteger(L, (lua_Integer)ev[i].n);
		lua_rawseti(L, -2, 2);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
}

/* events({config=, first=, last=, all=}) -> {count=, nodes_failed=,
 * first=, last=[, events=]}. The timeline is copied into a userdata first
 * so that a Lua memory error cannot leak it. */
int l_model_reliability_events(lua_State *L)
{
	struct rel_timeline tl;
	struct rel_event *ev;
	struct rel_config c;
	struct diag err;
	lua_Integer first, last;
	int all;
	size_t i, n, nf, nl;
	int64_t failed = 0;

	luaL_checktype(L, 1, LUA_TTABLE);
	read_config(L, "events", 1, &c);
	first = count_arg(L, 1, "first", 5);
	last = count_arg(L, 1, "last", 2);
	lf_rawfield(L, 1, "all");
	all = lua_toboolean(L, -1);
	lua_pop(L, 1);
	diag_init(&err);
	if (rel_timeline_build(&c, &tl, &err) < 0)
		return luaL_error(L, "reliability.events: %s", err.msg);
	n = tl.count;
	ev = lua_newuserdatauv(L, (n ? n : 1) * sizeof *ev, 0);
	if (n)
		memcpy(ev, tl.ev, n * sizeof *ev);
	rel_timeline_free(&tl);
	for (i = 0; i < n; i++)
		failed += ev[i].n;
	nf = (size_t)first < n ? (size_t)first : n;
	nl = (size_t)last < n ? (size_t)last : n;
	lua_createtable(L, 0, 5);
	lua_pushinteger(L, (lua_Integer)n);
	lua_setfield(L, -2, "count");
	lua_pushinteger(L, (lua_Integer)failed);
	lua_setfield(L, -2, "nodes_failed");
	push_events(L, ev, nf);
	lua_setfield(L, -2, "first");
	push_events(L, ev + (n - nl), nl);
	lua_setfield(L, -2, "last");
	if (all) {
		push_events(L, ev, n);
		lua_setfield(L, -2, "events");
	}
	return 1;
}

/* means({config=, policies={name...}, seeds=N}[, variant]) ->
 * {[name] = {field = mean, ..., events = mean}} */
int l_model_reliability_means(lua_State *L)
{
	struct rel_means m[REL_NPOLICIES];
	struct rel_config c;
	struct diag err;
	unsigned variant, mask = 0;
	lua_Integer seeds, i, n;
	int p;
	size_t f;

	luaL_checktype(L, 1, LUA_TTABLE);
	variant = read_variant(L, 2);
	read_config(L, "means", 1, &c);
	if (lf_rawfield(L, 1, "seeds") != LUA_TNUMBER || !lua_isinteger(L, -1) ||
	    (seeds = lua_tointeger(L, -1)) < 1 || seeds > MAX_SEEDS)
		return luaL_error(L, "bad argument to 'reliability.means': seeds must be an "
				  "integer within 1..%d", MAX_SEEDS);
	lua_pop(L, 1);
	if (lf_rawfield(L, 1, "policies") != LUA_TTABLE)
		return luaL_error(L, "bad argument to 'reliability.means': policies must be a list");
	n = (lua_Integer)lua_rawlen(L, -1);
	for (i = 1; i <= n; i++) {
		if (lua_rawgeti(L, -1, i) != LUA_TSTRING ||
		    (p = policy_index(lua_tostring(L, -1))) < 0)
			return luaL_error(L, "bad argument to 'reliability.means': policies[%d] is "
					  "not a policy name", (int)i);
		mask |= 1u << p;
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
	diag_init(&err);
	if (rel_seed_means(&c, mask, (uint64_t)seeds, variant, m, &err) < 0)
		return luaL_error(L, "reliability.means: %s", err.msg);
	lua_createtable(L, 0, REL_NPOLICIES);
	for (p = 0; p < REL_NPOLICIES; p++) {
		if (!(mask & (1u << p)))
			continue;
		lua_createtable(L, 0, REL_NFIELDS + 1);
		for (f = 0; f < REL_NFIELDS; f++)
			lf_setnum(L, rel_field_names[f], m[p].field[f]);
		lf_setnum(L, "events", m[p].events);
		lua_setfield(L, -2, rel_policy_names[p]);
	}
	return 1;
}

/* reliability.exact_mean({x...}) -> the correctly rounded mean */
int l_model_reliability_exact_mean(lua_State *L)
{
	struct exact_sum s;
	lua_Integer i, n;

	luaL_checktype(L, 1, LUA_TTABLE);
	n = (lua_Integer)lua_rawlen(L, 1);
	if (n < 1)
		return luaL_error(L, "bad argument to 'reliability.exact_mean': an empty list");
	exact_sum_init(&s);
	for (i = 1; i <= n; i++) {
		double v;

		if (lua_rawgeti(L, 1, i) != LUA_TNUMBER)
			return luaL_error(L, "bad argument to 'reliability.exact_mean': item %d is "
					  "not a number", (int)i);
		v = lua_tonumber(L, -1);
		lua_pop(L, 1);
		if (!isfinite(v))
			return luaL_error(L, "bad argument to 'reliability.exact_mean': item %d is "
					  "not finite", (int)i);
		exact_sum_add(&s, v);
	}
	lua_pushnumber(L, exact_sum_mean(&s, (uint64_t)n));
	return 1;
}
