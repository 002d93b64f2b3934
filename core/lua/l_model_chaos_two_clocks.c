/*
 * l_model_chaos_two_clocks.c: the Lua converter of models.chaos.two_clocks
 * (the MODEL_TABLE line of core/models/models.def). Its arguments are
 * numbers like any model's, positional or in one table by name, plus the
 * optional `variant` table of validation mutations; what sets it apart is
 * its result: an ordered object holding strings ("transport", "survive"),
 * booleans and nulls, the keys of spec/chaos.md 9.3. Every argument is
 * checked against the descriptor's domain before the model runs (hold_s
 * may be nil: no outage given); the arithmetic stays in core/models/chaos.c.
 */
#include "core/lua/sb_internal.h"

#include <math.h>
#include <string.h>

#include "core/lua/l_models.h"
#include "core/models/chaos.h"
#include "core/models/model.h"

enum { A_TIMEOUT, A_RETRY, A_C10D, A_HOLD, A_UNIT, A_MARGIN, A_N };

/* Read argument i (at stack index t, or field of the table at 1) into
 * *v; returns 0 when it is nil. Raises for a non-number or a value
 * outside the domain. */
static int read_arg(lua_State *L, const struct model *m, size_t i, int named,
		    int nargs, double *v)
{
	const struct model_arg *a = &m->args[i];
	struct diag err;
	int t, present;

	if (named) {
		lua_pushstring(L, a->name);
		lua_rawget(L, 1);
		t = lua_gettop(L);
		present = !lua_isnil(L, t);
	} else {
		t = (int)i + 1;
		present = t <= nargs && !lua_isnil(L, t);
	}
	if (present) {
		if (lua_type(L, t) != LUA_TNUMBER)
			return luaL_error(L, "bad argument '%s' to '%s' (number expected, got %s)",
					  a->name, m->name, luaL_typename(L, t));
		*v = lua_tonumber(L, t);
		diag_init(&err);
		if (model_check_arg(a, *v, &err) < 0)
			return luaL_error(L, "bad argument '%s' to '%s' (%s)", a->name,
					  m->name, err.msg);
	} else if (!isnan(a->dflt)) {
		*v = a->dflt;
	} else if (i != A_HOLD) {
		return luaL_error(L, "bad argument '%s' to '%s' (a number is required)",
				  a->name, m->name);
	}
	if (named)
		lua_pop(L, 1);
	return present;
}

/* The variant table at idx: switch names of the descriptor to bits. */
static unsigned read_variant(lua_State *L, const struct model *m, int idx)
{
	unsigned bits = 0;
	size_t i;
	int found;

	lua_pushnil(L);
	while (lua_next(L, idx)) {
		if (lua_type(L, -2) != LUA_TSTRING)
			luaL_error(L, "variant of '%s': switch names are strings", m->name);
		found = 0;
		for (i = 0; i < m->nswitches; i++)
			if (strcmp(m->switches[i], lua_tostring(L, -2)) == 0) {
				found = 1;
				if (lua_toboolean(L, -1))
					bits |= 1u << i;
			}
		if (!found)
			luaL_error(L, "model '%s' has no switch '%s'", m->name,
				   lua_tostring(L, -2));
		lua_pop(L, 1);
	}
	return bits;
}

static void set_num(lua_State *L, int obj, const char *k, double v)
{
	lua_pushnumber(L, v);
	sb_object_set(L, obj, k);
}

static void set_int(lua_State *L, int obj, const char *k, int v)
{
	lua_pushinteger(L, v);
	sb_object_set(L, obj, k);
}

static void set_str(lua_State *L, int obj, const char *k, const char *v)
{
	if (v)
		lua_pushstring(L, v);
	else
		sb_push_null(L);
	sb_object_set(L, obj, k);
}

static void set_opt_num(lua_State *L, int obj, const char *k, int has, double v)
{
	if (has)
		lua_pushnumber(L, v);
	else
		sb_push_null(L);
	sb_object_set(L, obj, k);
}

int l_model_chaos_two_clocks(lua_State *L)
{
	const struct model *m = lua_touserdata(L, lua_upvalueindex(1));
	int top = lua_gettop(L), named = lua_istable(L, 1), vidx = 0, nargs = 0, obj;
	double in[A_N] = { 0 };
	struct chaos_two_clocks r;
	unsigned variant = 0;
	int has_hold;
	size_t i;

	if (named) {
		if (top == 2 && lua_istable(L, 2))
			vidx = 2;
		else if (top > 1)
			return luaL_error(L, "'%s' takes one table of named arguments and an optional variant",
					  m->name);
	} else {
		/* Positional numbers; a table after them is the variant. */
		nargs = top;
		if (top > 0 && lua_istable(L, top)) {
			vidx = top;
			nargs = top - 1;
		}
		if (nargs > A_N)
			return luaL_error(L, "'%s' takes at most %d arguments, got %d",
					  m->name, A_N, nargs);
	}
	if (vidx)
		variant = read_variant(L, m, vidx);
	has_hold = 0;
	for (i = 0; i < A_N; i++)
		if (read_arg(L, m, i, named, nargs, &in[i]) && i == A_HOLD)
			has_hold = 1;
	chaos_two_clocks((int)in[A_TIMEOUT], (int)in[A_RETRY], in[A_C10D], has_hold,
			 in[A_HOLD], in[A_UNIT], in[A_MARGIN],
			 (variant & 1u) ? CHAOS_V_R_PLUS_ONE : 0u, &r);
	if (!isfinite(r.ack_timeout_s) || !isfinite(r.give_up_s) ||
	    !isfinite(r.margin))
		return luaL_error(L, "%s: the result is not finite", m->name);
	sb_new_object(L);
	obj = lua_gettop(L);
	set_int(L, obj, "nccl_ib_timeout", r.timeout);
	set_int(L, obj, "nccl_ib_retry_cnt", r.retry_cnt);
	set_num(L, obj, "ack_timeout_s", r.ack_timeout_s);
	set_num(L, obj, "give_up_s", r.give_up_s);
	set_num(L, obj, "c10d_timeout_s", r.c10d_timeout_s);
	set_str(L, obj, "first_clock", r.first_is_watchdog ? "watchdog" : "transport");
	set_num(L, obj, "first_clock_s", r.first_clock_s);
	set_opt_num(L, obj, "hold_s", r.has_hold, r.hold_s);
	set_str(L, obj, "outcome",
		!r.has_hold ? NULL : r.crash ? "crash-and-restart" : "survive");
	set_str(L, obj, "ended_by",
		!r.crash ? NULL : r.first_is_watchdog ? "watchdog" : "transport");
	set_opt_num(L, obj, "error_at_s", r.crash, r.first_clock_s);
	set_opt_num(L, obj, "margin", r.has_margin, r.margin);
	if (r.has_margin)
		lua_pushboolean(L, r.within_margin);
	else
		sb_push_null(L);
	sb_object_set(L, obj, "within_margin");
	return 1;
}
