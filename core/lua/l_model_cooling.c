/*
 * l_model_cooling.c: the Lua converters of the cooling models (the
 * MODEL_TABLE lines of core/models/models.def that name cooling): names of
 * rungs, climates and modes become indices, plan tables become the structs
 * of core/models/cooling.h, and results become plain tables. Every field is
 * read with raw access and checked (type, finiteness, range) before the
 * model runs, so the C model never sees a NaN, a zero density or a
 * dangling reference; buffers live in Lua userdata, so an argument error
 * cannot leak them. The optional last argument `variant` carries the
 * mutation switches of spec/cooling.md 7.4 (validation only). The
 * arithmetic stays in core/models/cooling*.c.
 */
#include <lauxlib.h>
#include <lua.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/lua/l_fields.h"
#include "core/lua/l_models.h"
#include "core/models/cooling.h"
#include "core/models/exact_mean.h"
#include "core/models/mt19937.h"

#define MAX_FLEET_SITES 20000000u
#define MAX_FLEET_SEEDS 256 /* simulate_seeds: seeds 0..255 at most */

/* ---- shared readers ------------------------------------------------------------ */

static void model_at(lua_State *L, const char *fn, int vidx, struct cooling_model *m)
{
	char owner[64];

	snprintf(owner, sizeof owner, "cooling.%s", fn);
	cooling_model_init(m, lm_variant_bits(L, vidx, owner, cooling_switch_names,
					       COOLING_SW_COUNT));
}

typedef int (*index_fn)(const struct cooling_model *, const char *);

static int name_arg(lua_State *L, const char *fn, const struct cooling_model *m, int idx,
		    index_fn find, const char *what)
{
	const char *s = luaL_checkstring(L, idx);
	int i;

	if (lua_type(L, idx) != LUA_TSTRING)
		return luaL_error(L, "bad argument #%d to 'cooling.%s' (a %s name is required)", idx,
				  fn, what);
	i = find(m, s);
	if (i < 0)
		luaL_error(L, "bad argument #%d to 'cooling.%s' (unknown %s '%s')", idx, fn, what, s);
	return i;
}

static double number_arg(lua_State *L, const char *fn, int idx, const char *name)
{
	double v;

	if (lua_type(L, idx) != LUA_TNUMBER)
		luaL_error(L, "bad argument '%s' to 'cooling.%s' (number expected, got %s)", name,
			   fn, luaL_typename(L, idx));
	v = lua_tonumber(L, idx);
	if (!isfinite(v))
		luaL_error(L, "bad argument '%s' to 'cooling.%s' (must be a finite number)", name, fn);
	return v;
}

static void push_names(lua_State *L, const struct cooling_model *m, const int *idx, size_t n)
{
	size_t i;

	lua_createtable(L, (int)n, 0);
	for (i = 0; i < n; i++) {
		lua_pushstring(L, m->rungs[idx[i]].name);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
}

static void set_int(lua_State *L, const char *k, double v)
{
	lua_pushinteger(L, (lua_Integer)v);
	lua_setfield(L, -2, k);
}

/* ---- the ladder ---------------------------------------------------------------- */

static void push_rung(lua_State *L, const struct cooling_model *m, int r)
{
	const struct cooling_rung *g = &m->rungs[r];
	int c, k;

	lua_createtable(L, 0, 14);
	set_int(L, "index", r);
	lf_setstr(L, "name", g->name);
	lf_setnum(L, "max_kw_per_rack", g->max_kw);
	lf_setnum(L, "pue_floor", g->pue_floor);
	lf_setnum(L, "mech_penalty", g->mech_penalty);
	lua_pushboolean(L, g->economizer);
	lua_setfield(L, -2, "economizer_capable");
	lf_setnum(L, "heat_capture", g->heat_capture);
	lf_setnum(L, "thermal_buffer_kj", g->buffer_kj);
	lf_setnum(L, "retrofit_usd_per_kw", g->retrofit_usd_per_kw);
	lf_setnum(L, "pue_cold", cooling_pue(m, r, 0, 0));
	lf_setnum(L, "pue_hot_humid", cooling_pue(m, r, 3, 0));
	lf_setnum(L, "ride_through_at_max_s", cooling_ride_through(m, r, g->max_kw));
	lua_createtable(L, 0, COOLING_CLIMATES);
	for (c = 0; c < COOLING_CLIMATES; c++) {
		lua_createtable(L, 0, COOLING_MODES);
		for (k = 0; k < COOLING_MODES; k++)
			lf_setnum(L, m->modes[k].name, cooling_pue(m, r, c, k));
		lua_setfield(L, -2, m->climates[c].name);
	}
	lua_setfield(L, -2, "pue");
}

int l_model_cooling_ladder(lua_State *L)
{
	struct cooling_model m;
	int r, c, k;

	model_at(L, "ladder", 1, &m);
	lua_createtable(L, 0, 5);
	lua_createtable(L, COOLING_RUNGS, 0);
	for (r = 0; r < COOLING_RUNGS; r++) {
		push_rung(L, &m, r);
		lua_rawseti(L, -2, r + 1);
	}
	lua_setfield(L, -2, "rungs");
	lua_createtable(L, COOLING_CLIMATES, 0);
	for (c = 0; c < COOLING_CLIMATES; c++) {
		lua_createtable(L, 0, 2);
		lf_setstr(L, "name", m.climates[c].name);
		lf_setnum(L, "free_cooling", m.climates[c].free_cooling);
		lua_rawseti(L, -2, c + 1);
	}
	lua_setfield(L, -2, "climates");
	lua_createtable(L, COOLING_MODES, 0);
	for (k = 0; k < COOLING_MODES; k++) {
		lua_createtable(L, 0, 3);
		lf_setstr(L, "name", m.modes[k].name);
		lf_setnum(L, "free_cooling_shift", m.modes[k].shift);
		lf_setnum(L, "wue_l_per_kwh", m.modes[k].wue);
		lua_rawseti(L, -2, k + 1);
	}
	lua_setfield(L, -2, "water_modes");
	lua_createtable(L, 0, COOLING_CLIMATES);
	for (c = 0; c < COOLING_CLIMATES; c++) {
		lua_createtable(L, 0, COOLING_MODES);
		for (k = 0; k < COOLING_MODES; k++)
			lf_setnum(L, m.modes[k].name, cooling_free_cooling(&m, c, k));
		lua_setfield(L, -2, m.climates[c].name);
	}
	lua_setfield(L, -2, "free_cooling");
	lf_setstr(L, "thinnest_rung", m.rungs[cooling_thinnest(&m)].name);
	return 1;
}

/* ---- one-figure models --------------------------------------------------------- */

int l_model_cooling_pue(lua_State *L)
{
	struct cooling_model m;
	int r, c, k;

	model_at(L, "pue", 4, &m);
	r = name_arg(L, "pue", &m, 1, cooling_rung_index, "rung");
	c = name_arg(L, "pue", &m, 2, cooling_climate_index, "climate");
	k = name_arg(L, "pue", &m, 3, cooling_mode_index, "water mode");
	lua_pushnumber(L, cooling_pue(&m, r, c, k));
	return 1;
}

int l_model_cooling_free_cooling(lua_State *L)
{
	struct cooling_model m;
	int c, k;

	model_at(L, "free_cooling", 3, &m);
	c = name_arg(L, "free_cooling", &m, 1, cooling_climate_index, "climate");
	k = name_arg(L, "free_cooling", &m, 2, cooling_mode_index, "water mode");
	lua_pushnumber(L, cooling_free_cooling(&m, c, k));
	return 1;
}

int l_model_cooling_wue(lua_State *L)
{
	struct cooling_model m;
	int k;

	model_at(L, "wue", 2, &m);
	k = name_arg(L, "wue", &m, 1, cooling_mode_index, "water mode");
	lua_pushnumber(L, m.modes[k].wue);
	return 1;
}

static double positive_kw(lua_State *L, const char *fn, int idx)
{
	double kw = number_arg(L, fn, idx, "kw");

	if (!(kw > 0.0))
		luaL_error(L, "bad argument 'kw' to 'cooling.%s' (rack power must be > 0 kW, got %f)",
			   fn, kw);
	return kw;
}

int l_model_cooling_feasible(lua_State *L)
{
	struct cooling_model m;
	int idx[COOLING_RUNGS];
	double kw;
	size_t n;

	model_at(L, "feasible", 2, &m);
	kw = positive_kw(L, "feasible", 1);
	n = cooling_feasible(&m, kw, idx);
	push_names(L, &m, idx, n);
	return 1;
}

int l_model_cooling_ride_through(lua_State *L)
{
	struct cooling_model m;
	double kw;
	int r;

	model_at(L, "ride_through", 3, &m);
	r = name_arg(L, "ride_through", &m, 1, cooling_rung_index, "rung");
	kw = positive_kw(L, "ride_through", 2);
	if (kw > m.rungs[r].max_kw)
		luaL_error(L, "bad argument 'kw' to 'cooling.ride_through' (%f kW is over the %s "
			   "ceiling of %f kW)", kw, m.rungs[r].name, m.rungs[r].max_kw);
	lua_pushnumber(L, cooling_ride_through(&m, r, kw));
	return 1;
}

int l_model_cooling_thinnest(lua_State *L)
{
	struct cooling_model m;

	model_at(L, "thinnest", 1, &m);
	lua_pushstring(L, m.rungs[cooling_thinnest(&m)].name);
	return 1;
}

static void feed_and_pue(lua_State *L, const char *fn, double feed, double pue,
			 const char *pname)
{
	if (!(feed > 0.0) || feed > 1e12)
		luaL_error(L, "bad argument 'feed_mw' to 'cooling.%s' (must be > 0 and <= 1e12 MW)",
			   fn);
	if (!(pue >= 1.0))
		luaL_error(L, "bad argument '%s' to 'cooling.%s' (a PUE is >= 1.0)", pname, fn);
}

int l_model_cooling_retrofit_cost(lua_State *L)
{
	struct cooling_model m;
	double feed, pue;
	int r;

	model_at(L, "retrofit_cost", 4, &m);
	feed = number_arg(L, "retrofit_cost", 1, "feed_mw");
	pue = number_arg(L, "retrofit_cost", 2, "pue_to");
	feed_and_pue(L, "retrofit_cost", feed, pue, "pue_to");
	r = name_arg(L, "retrofit_cost", &m, 3, cooling_rung_index, "rung");
	lua_pushnumber(L, cooling_retrofit_cost(&m, feed, pue, r));
	return 1;
}

int l_model_cooling_cost_per_freed(lua_State *L)
{
	struct cooling_model m;
	double feed, from, to, mw, cost;
	const char *why = NULL;
	int r, c, k;

	model_at(L, "cost_per_freed", 6, &m);
	feed = number_arg(L, "cost_per_freed", 1, "feed_mw");
	from = number_arg(L, "cost_per_freed", 2, "pue_from");
	feed_and_pue(L, "cost_per_freed", feed, from, "pue_from");
	r = name_arg(L, "cost_per_freed", &m, 3, cooling_rung_index, "rung");
	c = name_arg(L, "cost_per_freed", &m, 4, cooling_climate_index, "climate");
	k = name_arg(L, "cost_per_freed", &m, 5, cooling_mode_index, "water mode");
	to = cooling_pue(&m, r, c, k);
	if (cooling_freed_mw(feed, from, to, &mw, &why) < 0)
		return luaL_error(L, "cooling.cost_per_freed: %s", why);
	cost = cooling_retrofit_cost(&m, feed, to, r);
	lua_pushnumber(L, mw);
	lua_pushnumber(L, cost);
	if (mw > 0.0)
		lua_pushnumber(L, cost / mw);
	else
		lua_pushnil(L);
	return 3;
}

int l_model_cooling_mean_exact(lua_State *L)
{
	lua_Integer n, i;
	double *x, r;

	luaL_checktype(L, 1, LUA_TTABLE);
	n = (lua_Integer)lua_rawlen(L, 1);
	if (n < 1 || n > 1048576)
		return luaL_error(L, "cooling.mean_exact: 1 to 1048576 values, got %d", (int)n);
	x = lua_newuserdatauv(L, (size_t)n * sizeof *x, 0);
	for (i = 1; i <= n; i++) {
		if (lua_rawgeti(L, 1, i) != LUA_TNUMBER)
			return luaL_error(L, "cooling.mean_exact: value %d is not a number", (int)i);
		x[i - 1] = lua_tonumber(L, -1);
		lua_pop(L, 1);
		if (!isfinite(x[i - 1]))
			return luaL_error(L, "cooling.mean_exact: value %d is not finite", (int)i);
	}
	r = exact_mean(x, (size_t)n);
	lua_pushnumber(L, r);
	return 1;
}

/* ---- the fleet ----------------------------------------------------------------- */

static lua_Integer int_arg(lua_State *L, const char *fn, int idx, const char *name,
			   lua_Integer lo, lua_Integer hi)
{
	lua_Integer v;

	if (!lua_isinteger(L, idx))
		luaL_error(L, "bad argument '%s' to 'cooling.%s' (integer expected)", name, fn);
	v = lua_tointeger(L, idx);
	if (v < lo || v > hi)
		luaL_error(L, "bad argument '%s' to 'cooling.%s' (must be %d..%d)", name, fn,
			   (int)lo, (int)hi);
	return v;
}

/* The years of one simulation as a Lua list of tables. */
static void push_years(lua_State *L, const struct cooling_year *years, lua_Integer count)
{
	lua_Integer i;

	lua_createtable(L, (int)count, 0);
	for (i = 0; i < count; i++) {
		const struct cooling_year *y = &years[i];

		lua_createtable(L, 0, 7);
		set_int(L, "year", y->year);
		lf_setnum(L, "survey_avg", y->survey_avg);
		lf_setnum(L, "energy_weighted", y->energy_weighted);
		lf_setnum(L, "gap", y->survey_avg - y->energy_weighted);
		set_int(L, "sites", (double)y->sites);
		set_int(L, "surveyed_sites", (double)y->surveyed);
		lf_setnum(L, "it_mw", y->it_mw);
		lua_rawseti(L, -2, i + 1);
	}
}

/* start_year, end_year and legacy_sites at 'at', at+1, at+2 of 'fn'. */
static void read_horizon(lua_State *L, const char *fn, int at, lua_Integer *start,
			 lua_Integer *end, lua_Integer *n)
{
	*start = int_arg(L, fn, at, "start_year", 1900, 2200);
	*end = int_arg(L, fn, at + 1, "end_year", *start, 2200);
	if (*end - *start > 49)
		luaL_error(L, "bad argument 'end_year' to 'cooling.%s' (at most 50 years)", fn);
	*n = int_arg(L, fn, at + 2, "legacy_sites", 1, 10000);
}

int l_model_cooling_simulate(lua_State *L)
{
	struct cooling_model m;
	struct mt19937 *rng;
	struct cooling_year *years;
	lua_Integer start, end, n;

	model_at(L, "simulate", 5, &m);
	read_horizon(L, "simulate", 2, &start, &end, &n);
	rng = lua_newuserdatauv(L, sizeof *rng, 0);
	if (lua_isinteger(L, 1)) {
		mt19937_seed_int64(rng, (int64_t)lua_tointeger(L, 1));
	} else if (lua_type(L, 1) != LUA_TSTRING ||
		   mt19937_seed_decimal(rng, lua_tostring(L, 1)) < 0) {
		return luaL_error(L, "bad argument 'seed' to 'cooling.simulate' "
				  "(an integer or its decimal text is required)");
	}
	years = lua_newuserdatauv(L, (size_t)(end - start + 1) * sizeof *years, 0);
	if (cooling_simulate(&m, rng, (int)start, (int)end, (size_t)n, MAX_FLEET_SITES,
			     years) < 0)
		return lf_error(L, "cooling.simulate: the fleet outgrew %u sites",
				MAX_FLEET_SITES);
	push_years(L, years, end - start + 1);
	return 1;
}

int l_model_cooling_simulate_seeds(lua_State *L)
{
	struct cooling_model m;
	struct cooling_year *years;
	lua_Integer seeds, start, end, n, nyears, i;

	model_at(L, "simulate_seeds", 5, &m);
	seeds = int_arg(L, "simulate_seeds", 1, "seeds", 1, MAX_FLEET_SEEDS);
	read_horizon(L, "simulate_seeds", 2, &start, &end, &n);
	nyears = end - start + 1;
	years = lua_newuserdatauv(L, (size_t)(seeds * nyears) * sizeof *years, 0);
	if (cooling_simulate_seeds(&m, (size_t)seeds, (int)start, (int)end, (size_t)n,
				   MAX_FLEET_SITES, years) < 0)
		return lf_error(L, "cooling.simulate_seeds: the fleet outgrew %u sites",
				MAX_FLEET_SITES);
	lua_createtable(L, (int)seeds, 0);
	for (i = 0; i < seeds; i++) {
		push_years(L, years + i * nyears, nyears);
		lua_rawseti(L, -2, i + 1);
	}
	return 1;
}
