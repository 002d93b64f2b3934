/*
 * l_model_network.c: the Lua converters of the network models (the
 * MODEL_TABLE lines of core/models/models.def, spec/network.md 11). A
 * converter reads a scenario table field by field against the field table
 * of core/models/network.h (so the C model never sees a wrong type, a NaN
 * or a value outside spec 3.1), runs the model and returns plain tables.
 * Infinite figures come back as nil (spec 11). The arithmetic stays in
 * core/models/network*.c.
 */
#include <lauxlib.h>
#include <lua.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/lua/l_fields.h"
#include "core/lua/l_models.h"
#include "core/models/network.h"

/* ---- reading ------------------------------------------------------------------ */

static int is_null(lua_State *L, int idx)
{
	int ty = lua_type(L, idx);

	if (ty == LUA_TNIL)
		return 1;
	if (ty == LUA_TUSERDATA && luaL_getmetafield(L, idx, "__name") == LUA_TSTRING) {
		int r = strcmp(lua_tostring(L, -1), "null") == 0;

		lua_pop(L, 1);
		return r;
	}
	return 0;
}

static void field_path(const struct nw_field_info *f, char *buf, size_t size)
{
	if (f->section[0])
		snprintf(buf, size, "%s.%s", f->section, f->name);
	else
		snprintf(buf, size, "%s", f->name);
}

static int enum_index(const struct nw_field_info *f, const char *s)
{
	int i;

	for (i = 0; f->choices[i]; i++)
		if (strcmp(f->choices[i], s) == 0)
			return i;
	return -1;
}

/* The value at stack index v as field f's double; raises when mistyped. */
static double field_value(lua_State *L, const char *fn, const struct nw_field_info *f, int v)
{
	char path[96];
	int ty = lua_type(L, v);

	field_path(f, path, sizeof path);
	switch (f->type) {
	case NW_INT:
		if (ty == LUA_TNUMBER && lua_isinteger(L, v))
			return (double)lua_tointeger(L, v);
		if (ty == LUA_TNUMBER && lua_tonumber(L, v) == floor(lua_tonumber(L, v)))
			return lua_tonumber(L, v);
		break;
	case NW_NUM:
		if (ty == LUA_TNUMBER)
			return lua_tonumber(L, v);
		break;
	case NW_ENUM:
		if (ty == LUA_TSTRING && enum_index(f, lua_tostring(L, v)) >= 0)
			return (double)enum_index(f, lua_tostring(L, v));
		break;
	case NW_BOOL:
		if (ty == LUA_TBOOLEAN)
			return lua_toboolean(L, v) ? 1.0 : 0.0;
		break;
	}
	if (is_null(L, v) && (f->flags & NW_NULLABLE))
		return NAN;
	luaL_error(L, "bad argument to 'network.%s': %s has the wrong type (%s)", fn, path,
		   luaL_typename(L, v));
	return 0;
}

/* Read the scenario table at idx into s, resolved (n_pool derived). */
static void read_scn(lua_State *L, const char *fn, int idx, struct nw_scn *s)
{
	enum nw_field bad;
	char why[200], path[96];
	size_t i;

	idx = lua_absindex(L, idx);
	luaL_checktype(L, idx, LUA_TTABLE);
	for (i = 0; i < NW_NF; i++) {
		const struct nw_field_info *f = &nw_fields[i];
		int sec = idx, pushed = 0;

		if (f->section[0]) {
			if (lf_rawfield(L, idx, f->section) == LUA_TTABLE) {
				sec = lua_gettop(L);
				pushed = 1;
			} else {
				lua_pop(L, 1);
				sec = 0;
			}
		}
		if (sec && lf_rawfield(L, sec, f->name) != LUA_TNIL &&
		    !(is_null(L, -1) && (f->flags & NW_NULLABLE))) {
			s->f[i] = field_value(L, fn, f, lua_gettop(L));
		} else {
			if (f->flags & NW_REQ) {
				field_path(f, path, sizeof path);
				luaL_error(L, "bad argument to 'network.%s': the scenario has no %s", fn, path);
			}
			s->f[i] = f->dflt;
		}
		if (sec)
			lua_pop(L, 1);
		if (pushed)
			lua_pop(L, 1);
	}
	if (nw_check(s, &bad, why, sizeof why) < 0) {
		field_path(&nw_fields[bad], path, sizeof path);
		luaL_error(L, "bad argument to 'network.%s': %s %s", fn, path, why);
	}
	nw_resolve(s);
}

static int field_by_path(const char *path)
{
	char buf[96];
	size_t i;

	for (i = 0; i < NW_NF; i++) {
		field_path(&nw_fields[i], buf, sizeof buf);
		if (strcmp(buf, path) == 0)
			return (int)i;
	}
	return -1;
}

static enum nw_cut cut_arg(lua_State *L, int idx, int allow_checkpoint)
{
	static const char *const cuts[] = { "none", "tp", "cp", "pp", "dp", "checkpoint", NULL };
	int c = luaL_checkoption(L, idx, NULL, cuts);

	if (c == NW_CUT_NONE || (c == NW_CUT_CHECKPOINT && !allow_checkpoint))
		luaL_argerror(L, idx, "not a cut of this model");
	return (enum nw_cut)c;
}

static double num_arg(lua_State *L, int idx, double lo, double hi, int lo_open)
{
	double v = luaL_checknumber(L, idx);

	if (!isfinite(v) || (lo_open ? !(v > lo) : !(v >= lo)) || !(v <= hi))
		luaL_argerror(L, idx, lua_pushfstring(L, "must be within %s%f, %f]", lo_open ? "(" : "[", lo, hi));
	return v;
}

/* One intervention table at idx into iv; category, name, cost read by the caller. */
static void read_map(lua_State *L, int t, const char *key, int multiply, struct nw_iv *iv)
{
	int m;

	if (lf_rawfield(L, t, key) == LUA_TNIL) {
		lua_pop(L, 1);
		return;
	}
	luaL_argexpected(L, lua_istable(L, -1), t, "intervention maps as tables");
	m = lua_gettop(L);
	lua_pushnil(L);
	while (lua_next(L, m)) {
		int id = -1;

		if (lua_type(L, -2) != LUA_TSTRING || (id = field_by_path(lua_tostring(L, -2))) < 0)
			luaL_error(L, "bad argument to a network model: an intervention names an unknown "
				      "field '%s'", lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?");
		if (iv->n == NW_MAX_IV_KEYS)
			luaL_error(L, "bad argument to a network model: an intervention has more than %d keys",
				   NW_MAX_IV_KEYS);
		if (multiply) {
			if ((nw_fields[id].type != NW_NUM && nw_fields[id].type != NW_INT) ||
			    lua_type(L, -1) != LUA_TNUMBER || !isfinite(lua_tonumber(L, -1)))
				luaL_error(L, "bad argument to a network model: multiplier of '%s' must be a "
					      "finite number on a number field", lua_tostring(L, -2));
			iv->value[iv->n] = lua_tonumber(L, -1);
		} else {
			iv->value[iv->n] = field_value(L, "intervention", &nw_fields[id], lua_gettop(L));
		}
		iv->key[iv->n] = (enum nw_field)id;
		iv->multiply[iv->n] = (unsigned char)multiply;
		iv->n++;
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
}

static void read_iv(lua_State *L, int t, struct nw_iv *iv)
{
	t = lua_absindex(L, t);
	luaL_checktype(L, t, LUA_TTABLE);
	iv->n = 0;
	read_map(L, t, "overrides", 0, iv);
	read_map(L, t, "multipliers", 1, iv);
}

/* ---- pushing -------------------------------------------------------------------- */

static void setnum(lua_State *L, const char *k, double v)
{
	if (isfinite(v)) {
		lua_pushnumber(L, v);
		lua_setfield(L, -2, k);
	}
}

static void setint(lua_State *L, const char *k, double v)
{
	lua_pushinteger(L, (lua_Integer)v);
	lua_setfield(L, -2, k);
}

/* A copy of the scenario table at src (two levels) with s's fields. */
static void push_scn(lua_State *L, int src, const struct nw_scn *s)
{
	size_t i;

	src = lua_absindex(L, src);
	lua_newtable(L);
	lua_pushnil(L);
	while (lua_next(L, src)) {
		if (lua_istable(L, -1)) {
			int t = lua_gettop(L);

			lua_newtable(L);
			lua_pushnil(L);
			while (lua_next(L, t)) {
				lua_pushvalue(L, -2);
				lua_insert(L, -2);
				lua_rawset(L, -4);
			}
			lua_replace(L, t);
		}
		lua_pushvalue(L, -2);
		lua_insert(L, -2);
		lua_rawset(L, -4);
	}
	for (i = 0; i < NW_NF; i++) {
		const struct nw_field_info *f = &nw_fields[i];
		int sec = lua_gettop(L);

		if (f->section[0]) {
			if (lf_rawfield(L, sec, f->section) != LUA_TTABLE) {
				lua_pop(L, 1);
				lua_newtable(L);
				lua_pushvalue(L, -1);
				lua_setfield(L, sec, f->section);
			}
		} else {
			lua_pushvalue(L, sec);
		}
		if (f->type == NW_INT)
			lua_pushinteger(L, (lua_Integer)s->f[i]);
		else if (f->type == NW_ENUM)
			lua_pushstring(L, f->choices[(int)s->f[i]]);
		else if (f->type == NW_BOOL)
			lua_pushboolean(L, s->f[i] != 0);
		else if (isnan(s->f[i]))
			lua_pushnil(L);
		else
			lua_pushnumber(L, s->f[i]);
		lua_setfield(L, -2, f->name);
		lua_pop(L, 1);
	}
}

static void push_step(lua_State *L, const struct nw_step *st)
{
	lua_createtable(L, 0, 24);
	setnum(L, "t_compute_s", st->t_compute);
	setnum(L, "t_tp_exposed_s", st->exp_tp);
	setnum(L, "t_cp_exposed_s", st->exp_cp);
	setnum(L, "t_pp_exposed_s", st->exp_pp);
	setnum(L, "t_dp_exposed_s", st->exp_dp);
	setnum(L, "t_bubble_s", st->bubble);
	setnum(L, "t_sync_wait_s", st->sync_wait);
	setnum(L, "t_step_s", st->t_step);
	setnum(L, "t_blocked_s", st->blocked);
	setnum(L, "step_efficiency", st->efficiency);
	setnum(L, "comm_raw_tp_s", st->raw_tp);
	setnum(L, "comm_raw_cp_s", st->raw_cp);
	setnum(L, "comm_raw_pp_s", st->raw_pp);
	setnum(L, "comm_raw_dp_s", st->raw_dp);
	setint(L, "tokens_per_step", st->tokens);
	setnum(L, "flops_per_token", st->flops_per_token);
	setnum(L, "mfu", st->mfu);
	setnum(L, "tflops_per_gpu", st->tflops_per_gpu);
	setnum(L, "param_disagreement", st->param_disagreement);
	setnum(L, "memory_state_gb", st->mem_state);
	setnum(L, "memory_activation_gb", st->mem_activation);
	setnum(L, "memory_total_gb", st->mem_total);
}

static void push_rel(lua_State *L, const struct nw_rel *r)
{
	lua_createtable(L, 0, 12);
	setnum(L, "discarded_s", r->discarded);
	setnum(L, "restart_s", r->restart);
	setnum(L, "checkpoint_s", r->checkpoint);
	setnum(L, "run_s", r->run);
	setnum(L, "running_s", r->running);
	setnum(L, "unavailable_s", r->unavailable);
	setnum(L, "n_failures", r->n_failures);
	setnum(L, "interval_s", r->interval);
	setnum(L, "mttf_s", r->mttf);
	setnum(L, "recovery_pressure", r->pressure);
}

/* opts at idx: {fidelity, seed, replicates}; fills rel for Monte Carlo and
 * returns 1, or returns 0 for the analytical model. */
static int read_fidelity(lua_State *L, int idx, const struct nw_scn *s, unsigned variant,
			 struct nw_rel *rel)
{
	lua_Integer seed = 0, reps = 200;
	int mc = 0;

	if (lua_isnoneornil(L, idx))
		return 0;
	luaL_checktype(L, idx, LUA_TTABLE);
	if (lf_rawfield(L, idx, "fidelity") == LUA_TSTRING)
		mc = strcmp(lua_tostring(L, -1), "monte-carlo") == 0;
	lua_pop(L, 1);
	if (!mc)
		return 0;
	if (lf_rawfield(L, idx, "seed") != LUA_TNIL) {
		if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 0)
			luaL_error(L, "bad argument to 'network.ledger': seed must be an integer >= 0");
		seed = lua_tointeger(L, -1);
	}
	lua_pop(L, 1);
	if (lf_rawfield(L, idx, "replicates") != LUA_TNIL) {
		if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1 || lua_tointeger(L, -1) > 100000)
			luaL_error(L, "bad argument to 'network.ledger': replicates must be within 1..100000");
		reps = lua_tointeger(L, -1);
	}
	lua_pop(L, 1);
	switch (nw_reliability_mc(s, (uint64_t)seed, (long)reps, variant, rel)) {
	case 0: break;
	case -2:
		luaL_error(L, "bad argument to 'network.ledger': %I replicates of this job would "
			      "draw more than %f failure gaps; lower the replicates, the window or "
			      "the failure rate", (LUAI_UACINT)reps, (lua_Number)NW_MAX_MC_DRAWS);
		break;
	default:
		luaL_error(L, "network.ledger: a Monte Carlo replicate's buckets do not sum to the "
			      "running time (internal error)");
	}
	return 1;
}

/* ---- the converters ------------------------------------------------------------------ */

int l_model_network_fields(lua_State *L)
{
	size_t i;
	int c;
	char path[96];

	lua_createtable(L, NW_NF, 0);
	for (i = 0; i < NW_NF; i++) {
		const struct nw_field_info *f = &nw_fields[i];
		static const char *const types[] = { "int", "number", "enum", "bool" };

		lua_createtable(L, 0, 10);
		field_path(f, path, sizeof path);
		lua_pushstring(L, path);
		lua_setfield(L, -2, "path");
		lua_pushstring(L, f->section);
		lua_setfield(L, -2, "section");
		lua_pushstring(L, f->name);
		lua_setfield(L, -2, "name");
		lua_pushstring(L, types[f->type]);
		lua_setfield(L, -2, "type");
		setnum(L, "lo", f->lo);
		setnum(L, "hi", f->hi);
		lf_setbool(L, "lo_open", (f->flags & NW_LO_OPEN) != 0);
		lf_setbool(L, "nullable", (f->flags & NW_NULLABLE) != 0);
		lf_setbool(L, "required", (f->flags & NW_REQ) != 0);
		if (f->type == NW_ENUM) {
			lua_newtable(L);
			for (c = 0; f->choices[c]; c++) {
				lua_pushstring(L, f->choices[c]);
				lua_rawseti(L, -2, c + 1);
			}
			lua_setfield(L, -2, "choices");
		}
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	return 1;
}

int l_model_network_scenario(lua_State *L)
{
	struct nw_scn s;

	read_scn(L, "scenario", 1, &s);
	push_scn(L, 1, &s);
	setint(L, "world_size", (double)nw_world(&s));
	setnum(L, "window_s", nw_window_s(&s));
	setnum(L, "overhead", nw_overhead(&s));
	return 1;
}

/* Like read_scn, but a failed check returns {path, message} instead of raising. */
int l_model_network_check(lua_State *L)
{
	struct nw_scn s;
	enum nw_field bad;
	char why[200], path[96];
	size_t i;

	luaL_checktype(L, 1, LUA_TTABLE);
	for (i = 0; i < NW_NF; i++) {
		const struct nw_field_info *f = &nw_fields[i];
		int sec = 1, ok = 1;

		if (f->section[0]) {
			ok = lf_rawfield(L, 1, f->section) == LUA_TTABLE;
			sec = lua_gettop(L);
		}
		s.f[i] = f->dflt;
		if (ok && lf_rawfield(L, sec, f->name) != LUA_TNIL &&
		    !(is_null(L, -1) && (f->flags & NW_NULLABLE)))
			s.f[i] = field_value(L, "check", f, lua_gettop(L));
		if (ok)
			lua_pop(L, 1);
		if (f->section[0])
			lua_pop(L, 1);
	}
	if (nw_check(&s, &bad, why, sizeof why) < 0) {
		field_path(&nw_fields[bad], path, sizeof path);
		lua_createtable(L, 0, 2);
		lua_pushstring(L, path);
		lua_setfield(L, -2, "path");
		lua_pushstring(L, why);
		lua_setfield(L, -2, "message");
		return 1;
	}
	lua_pushnil(L);
	return 1;
}

int l_model_network_ring(lua_State *L)
{
	static const char *const kinds[] = { "allreduce", "reducescatter", "allgather", NULL };
	int kind = luaL_checkoption(L, 1, NULL, kinds);
	double bytes = num_arg(L, 2, 0, 1e18, 0), k = num_arg(L, 3, 1, 1e9, 0);
	double b = num_arg(L, 4, 0, 1e18, 1), a = num_arg(L, 5, 0, 1e6, 0);

	lua_pushnumber(L, nw_ring((enum nw_ring)kind, bytes, floor(k), b, a));
	return 1;
}

int l_model_network_layout(lua_State *L)
{
	struct nw_scn s;
	struct nw_layout l;
	enum nw_cut dim;

	unsigned variant;

	read_scn(L, "layout", 1, &s);
	dim = cut_arg(L, 2, 0);
	variant = lm_variant_bits(L, 3, "network", nw_switches, NW_NSWITCHES);
	l = nw_layout_of(&s, dim, variant);
	lua_createtable(L, 0, 6);
	setint(L, "per_su", (double)l.per_su);
	setint(L, "su_per_pod", (double)l.su_per_pod);
	setint(L, "pods", (double)l.pods);
	setint(L, "halls", (double)l.halls);
	setnum(L, "contention", l.contention);
	setint(L, "ring", (double)l.ring);
	setnum(L, "span_latency_allreduce_s", nw_span_latency(&s, &l, 0, variant));
	setnum(L, "span_latency_allgather_s", nw_span_latency(&s, &l, 1, variant));
	return 1;
}

int l_model_network_span_share(lua_State *L)
{
	struct nw_scn s;
	double contention;

	read_scn(L, "span_share", 1, &s);
	contention = num_arg(L, 2, 0, 1e12, 0);
	lua_pushnumber(L, nw_span_share(&s, contention, lm_variant_bits(L, 3, "network", nw_switches, NW_NSWITCHES)));
	return 1;
}

int l_model_network_step(lua_State *L)
{
	struct nw_scn s;
	struct nw_step st;

	read_scn(L, "step", 1, &s);
	nw_step_of(&s, lm_variant_bits(L, 2, "network", nw_switches, NW_NSWITCHES), &st);
	push_step(L, &st);
	return 1;
}

int l_model_network_reliability(lua_State *L)
{
	struct nw_scn s;
	struct nw_rel r;
	unsigned variant;

	read_scn(L, "reliability", 1, &s);
	variant = lm_variant_bits(L, 3, "network", nw_switches, NW_NSWITCHES);
	if (!read_fidelity(L, 2, &s, variant, &r))
		nw_reliability(&s, variant, &r);
	push_rel(L, &r);
	return 1;
}

int l_model_network_ledger(lua_State *L)
{
	struct nw_scn s;
	struct nw_rel r;
	struct nw_ledger l;
	unsigned variant;
	int mc;

	read_scn(L, "ledger", 1, &s);
	variant = lm_variant_bits(L, 3, "network", nw_switches, NW_NSWITCHES);
	mc = read_fidelity(L, 2, &s, variant, &r);
	if (nw_ledger_of(&s, mc ? &r : NULL, variant, &l) < 0)
		return luaL_error(L, "network.ledger: the buckets do not sum to the total (internal error)");
	lua_createtable(L, 0, 24);
	setnum(L, "productive", l.productive);
	setnum(L, "blocked_comm", l.comm);
	setnum(L, "blocked_sync", l.sync);
	setnum(L, "blocked_bubble", l.bubble);
	setnum(L, "blocked_checkpoint", l.checkpoint);
	setnum(L, "blocked_restart", l.restart);
	setnum(L, "discarded", l.discarded);
	setnum(L, "unavailable_down", l.down);
	setnum(L, "unavailable_spare_stranded", l.spare);
	setnum(L, "total", l.total);
	setnum(L, "ucf", l.ucf);
	setnum(L, "productive_accelerators", l.productive_acc);
	setnum(L, "tokens_per_second", l.tokens_per_s);
	setnum(L, "ettr", l.ettr);
	setnum(L, "step_efficiency", l.step.efficiency);
	setnum(L, "t_step_s", l.step.t_step);
	lf_setbool(L, "failure_free", isinf(l.rel.mttf));
	setnum(L, "job_mttf_hours", l.rel.mttf / 3600.0);
	setnum(L, "checkpoint_interval_s", l.rel.interval);
	setnum(L, "n_failures", l.rel.n_failures);
	setnum(L, "recovery_pressure", l.rel.pressure);
	lf_setbool(L, "within_validity_envelope", l.rel.pressure < 0.25);
	setint(L, "world_size", (double)nw_world(&s));
	setint(L, "n_pool", s.f[NW_N_POOL]);
	push_step(L, &l.step);
	lua_setfield(L, -2, "step");
	return 1;
}

int l_model_network_rescale(lua_State *L)
{
	struct nw_scn s, o;
	double pool;
	char name[256];

	read_scn(L, "rescale", 1, &s);
	pool = num_arg(L, 2, 0, 1e12, 0);
	if (nw_rescale(&s, pool, &o) < 0) {
		lua_pushnil(L);
		return 1;
	}
	push_scn(L, 1, &o);
	if (lf_rawfield(L, 1, "name") == LUA_TSTRING)
		snprintf(name, sizeof name, "%.200s@pool%.0f", lua_tostring(L, -1), pool);
	else
		snprintf(name, sizeof name, "@pool%.0f", pool);
	lua_pop(L, 1);
	lua_pushstring(L, name);
	lua_setfield(L, -2, "name");
	return 1;
}

int l_model_network_curve(lua_State *L)
{
	struct nw_scn s;
	struct nw_point pts[NW_MAX_CURVE];
	double factor;
	size_t n, i;

	read_scn(L, "curve", 1, &s);
	factor = num_arg(L, 2, 1, 1024, 1);
	n = nw_curve(&s, factor, lm_variant_bits(L, 3, "network", nw_switches, NW_NSWITCHES), pts);
	lua_createtable(L, (int)n, 0);
	for (i = 0; i < n; i++) {
		lua_createtable(L, 0, 2);
		setint(L, "n_pool", pts[i].n_pool);
		setnum(L, "productive", pts[i].productive);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	return 1;
}

int l_model_network_expand(lua_State *L)
{
	struct nw_scn s, e;
	double add, target, p0, p1;
	unsigned variant;

	read_scn(L, "expand", 1, &s);
	add = num_arg(L, 2, 1, 1e8, 0);
	variant = lm_variant_bits(L, 3, "network", nw_switches, NW_NSWITCHES);
	target = s.f[NW_N_POOL] + floor(add);
	p0 = nw_productive(&s, variant);
	lua_createtable(L, 0, 12);
	setint(L, "add_accelerators", floor(add));
	setint(L, "target_pool", target);
	setnum(L, "baseline_productive_accelerators", p0);
	setnum(L, "average_productivity", p0 / s.f[NW_N_POOL]);
	setint(L, "n_pool", s.f[NW_N_POOL]);
	if (nw_rescale(&s, target, &e) < 0) {
		lf_setbool(L, "realizable", 0);
		return 1;
	}
	p1 = nw_productive(&e, variant);
	lf_setbool(L, "realizable", 1);
	setint(L, "expanded_pool", e.f[NW_N_POOL]);
	setint(L, "expanded_world_size", (double)nw_world(&e));
	setnum(L, "expanded_productive_accelerators", p1);
	setnum(L, "gain_fraction", p1 / p0 - 1);
	setnum(L, "pool_growth_fraction", e.f[NW_N_POOL] / s.f[NW_N_POOL] - 1);
	if (e.f[NW_N_POOL] != s.f[NW_N_POOL])
		setnum(L, "marginal_productivity", (p1 - p0) / (e.f[NW_N_POOL] - s.f[NW_N_POOL]));
	return 1;
}

/* One SEA row for the intervention at idx (pts: the baseline's curve). */
static void push_sea_row(lua_State *L, const struct nw_scn *s, int idx, const struct nw_point *pts,
			 size_t npts, unsigned variant, double *sea_out)
{
	struct nw_iv iv;
	struct nw_sea r;
	enum nw_field bad;
	char why[200], path[96];
	double cost = NAN;

	idx = lua_absindex(L, idx);
	read_iv(L, idx, &iv);
	if (nw_sea_of(s, &iv, pts, npts, variant, &r, &bad, why, sizeof why) < 0) {
		field_path(&nw_fields[bad], path, sizeof path);
		luaL_error(L, "bad argument to 'network.sea': the intervention makes %s %s", path, why);
	}
	if (lf_rawfield(L, idx, "cost") == LUA_TNUMBER && isfinite(lua_tonumber(L, -1)))
		cost = lua_tonumber(L, -1);
	lua_pop(L, 1);
	lua_createtable(L, 0, 16);
	lf_rawfield(L, idx, "name");
	lua_setfield(L, -2, "name");
	lf_rawfield(L, idx, "category");
	lua_setfield(L, -2, "category");
	lf_setbool(L, "attainable", !isinf(r.sea));
	setnum(L, "sea", r.sea);
	setnum(L, "sea_fraction_of_pool", r.sea / s->f[NW_N_POOL]);
	setnum(L, "baseline_productive_accelerators", r.baseline);
	setnum(L, "treated_productive_accelerators", r.treated);
	setnum(L, "delta_productive_accelerators", r.treated - r.baseline);
	setnum(L, "best_throughput_by_scaling", r.best);
	setnum(L, "naive_equivalent", r.naive);
	setnum(L, "baseline_ucf", r.baseline_ucf);
	setnum(L, "treated_ucf", r.treated_ucf);
	setnum(L, "cost_accelerator_equivalents", cost);
	if (cost > 0 && !isinf(r.sea))
		setnum(L, "value_ratio", r.sea / cost);
	*sea_out = r.sea;
}

static int is_list(lua_State *L, int idx)
{
	int r = lf_rawfield(L, idx, "name") == LUA_TNIL;

	lua_pop(L, 1);
	return r;
}

int l_model_network_sea(lua_State *L)
{
	struct nw_scn s;
	struct nw_point pts[NW_MAX_CURVE];
	size_t npts;
	unsigned variant;
	double sea;

	read_scn(L, "sea", 1, &s);
	luaL_checktype(L, 2, LUA_TTABLE);
	variant = lm_variant_bits(L, 3, "network", nw_switches, NW_NSWITCHES);
	npts = nw_curve(&s, 64.0, variant, pts);
	if (!is_list(L, 2)) {
		push_sea_row(L, &s, 2, pts, npts, variant, &sea);
		return 1;
	}
	lua_newtable(L);
	for (lua_Integer i = 1; i <= (lua_Integer)lua_rawlen(L, 2); i++) {
		lua_rawgeti(L, 2, i);
		push_sea_row(L, &s, -1, pts, npts, variant, &sea);
		lua_remove(L, -2);
		lua_rawseti(L, -2, i);
	}
	return 1;
}

int l_model_network_winner(lua_State *L)
{
	struct nw_scn s;
	struct nw_point pts[NW_MAX_CURVE];
	size_t npts;
	unsigned variant;
	lua_Integer i, n, best = 0;
	double best_sea = -INFINITY;
	int rows;

	read_scn(L, "winner", 1, &s);
	luaL_checktype(L, 2, LUA_TTABLE);
	variant = lm_variant_bits(L, 3, "network", nw_switches, NW_NSWITCHES);
	n = (lua_Integer)lua_rawlen(L, 2);
	if (n < 1 || n > NW_MAX_IV)
		return luaL_error(L, "bad argument to 'network.winner': 1..%d interventions", NW_MAX_IV);
	npts = nw_curve(&s, 64.0, variant, pts);
	lua_newtable(L);
	rows = lua_gettop(L);
	for (i = 1; i <= n; i++) {
		double sea;

		lua_rawgeti(L, 2, i);
		push_sea_row(L, &s, -1, pts, npts, variant, &sea);
		lua_remove(L, -2);
		lua_rawseti(L, rows, i);
		if (sea > best_sea) {
			best_sea = sea;
			best = i;
		}
	}
	lua_createtable(L, 0, 5);
	lua_rawgeti(L, rows, best);
	lua_getfield(L, -1, "name");
	lua_setfield(L, -3, "name");
	lua_getfield(L, -1, "category");
	lua_setfield(L, -3, "category");
	lua_pop(L, 1);
	setnum(L, "sea", best_sea);
	setint(L, "index", (double)best);
	lua_pushvalue(L, rows);
	lua_setfield(L, -2, "rows");
	return 1;
}

int l_model_network_shapley(lua_State *L)
{
	struct nw_scn s;
	struct nw_iv ivs[NW_MAX_BUNDLE];
	struct nw_shapley sh;
	enum nw_field bad;
	char why[200], path[96];
	lua_Integer i, n;

	read_scn(L, "shapley", 1, &s);
	luaL_checktype(L, 2, LUA_TTABLE);
	n = (lua_Integer)lua_rawlen(L, 2);
	if (n < 1 || n > NW_MAX_BUNDLE)
		return luaL_error(L, "bad argument to 'network.shapley': 1..%d interventions",
				  NW_MAX_BUNDLE);
	for (i = 1; i <= n; i++) {
		lua_rawgeti(L, 2, i);
		read_iv(L, -1, &ivs[i - 1]);
		lua_pop(L, 1);
	}
	if (nw_shapley_of(&s, ivs, (size_t)n, lm_variant_bits(L, 3, "network", nw_switches, NW_NSWITCHES), &sh, &bad, why, sizeof why) < 0) {
		field_path(&nw_fields[bad], path, sizeof path);
		return luaL_error(L, "bad argument to 'network.shapley': the bundle makes %s %s", path,
				  why);
	}
	lua_createtable(L, 0, 4);
	lua_createtable(L, (int)n, 0);
	for (i = 0; i < n; i++) {
		lua_pushnumber(L, sh.phi[i]);
		lua_rawseti(L, -2, i + 1);
	}
	lua_setfield(L, -2, "shapley");
	setnum(L, "bundle_sea", sh.bundle);
	setnum(L, "sum_of_individual_sea", sh.sum_individual);
	lf_setbool(L, "capped", sh.capped);
	return 1;
}

int l_model_network_check_intervention(lua_State *L)
{
	struct nw_scn s, out;
	struct nw_iv iv;
	enum nw_field bad;
	char why[200], path[96];

	read_scn(L, "check_intervention", 1, &s);
	read_iv(L, 2, &iv);
	if (nw_apply(&s, &iv, &out, &bad, why, sizeof why) < 0) {
		field_path(&nw_fields[bad], path, sizeof path);
		lua_createtable(L, 0, 2);
		lua_pushstring(L, path);
		lua_setfield(L, -2, "path");
		lua_pushstring(L, why);
		lua_setfield(L, -2, "message");
		return 1;
	}
	lua_pushnil(L);
	return 1;
}

int l_model_network_regimes(lua_State *L)
{
	size_t i;

	lua_createtable(L, 5, 0);
	for (i = 0; i < 5; i++) {
		lua_createtable(L, 0, 2);
		lua_pushstring(L, nw_regimes[i].name);
		lua_setfield(L, -2, "name");
		setnum(L, "alpha_us", nw_regimes[i].alpha_us);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	return 1;
}

int l_model_network_span(lua_State *L)
{
	static const char *const placements[] = { "hierarchical", "blind", NULL };
	struct nw_scn s;
	struct nw_span sp;
	enum nw_cut cut;
	double alpha, gbps, halls;
	int blind;

	read_scn(L, "span", 1, &s);
	cut = cut_arg(L, 2, 1);
	alpha = num_arg(L, 3, 0, 1e7, 0);
	gbps = num_arg(L, 4, 0, 1e12, 1);
	halls = floor(num_arg(L, 5, 2, 64, 0));
	blind = luaL_checkoption(L, 6, "hierarchical", placements);
	nw_span_of(&s, cut, alpha, gbps, (long)halls, blind, lm_variant_bits(L, 7, "network", nw_switches, NW_NSWITCHES), &sp);
	lua_createtable(L, 0, 3);
	lf_setbool(L, "applicable", sp.applicable);
	if (sp.applicable) {
		setnum(L, "retention", sp.retention);
		setnum(L, "step_ratio", sp.step_ratio);
		setnum(L, "recovery_pressure", sp.pressure);
	}
	return 1;
}

int l_model_network_stitch(lua_State *L)
{
	struct nw_scn s;
	struct nw_stitch st;
	enum nw_cut cut;
	double alpha, gbps;

	read_scn(L, "stitch", 1, &s);
	cut = cut_arg(L, 2, 1);
	alpha = num_arg(L, 3, 0, 1e7, 0);
	gbps = num_arg(L, 4, 0, 1e12, 1);
	nw_stitch_of(&s, cut, alpha, gbps, lm_variant_bits(L, 5, "network", nw_switches, NW_NSWITCHES), &st);
	lua_createtable(L, 0, 6);
	lf_setbool(L, "applicable", st.applicable);
	if (st.applicable) {
		setint(L, "accelerators_connected", st.connected);
		setnum(L, "accelerators_delivered", st.delivered);
		setnum(L, "efficiency", st.efficiency);
		setnum(L, "throughput_local", st.p_local);
		setnum(L, "throughput_spanned", st.p_span);
	}
	return 1;
}

int l_model_network_bytes(lua_State *L)
{
	struct nw_scn s;
	struct nw_bytes b;
	enum nw_cut cut;
	double halls, gbps;

	read_scn(L, "bytes", 1, &s);
	cut = cut_arg(L, 2, 1);
	halls = floor(num_arg(L, 3, 2, 64, 0));
	gbps = num_arg(L, 4, 0, 1e12, 1);
	nw_bytes_of(&s, cut, (long)halls, gbps, lm_variant_bits(L, 5, "network", nw_switches, NW_NSWITCHES), &b);
	lua_createtable(L, 0, 4);
	lf_setbool(L, "modelled", b.modelled);
	if (b.modelled) {
		setnum(L, "raw", b.raw);
		setnum(L, "exposed", b.exposed);
		setnum(L, "lower_bound_s", b.lower_bound_s);
	}
	return 1;
}
