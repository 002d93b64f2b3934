/*
 * l_model_resiliency.c: the Lua converters of the resiliency models
 * (MODEL_TABLE lines of core/models/models.def): models.resiliency.catalog,
 * defaults, simulate, batch and grid_hours. A converter reads plain Lua
 * tables with raw access, checks every field against the domain of
 * spec/resiliency.md 3.4-3.6 (so the C model never sees a NaN, a zero
 * restore time or a horizon it cannot finish), builds the C structs in
 * Lua-owned userdata (an argument error cannot leak them), runs the model
 * and returns plain tables. The arithmetic stays in core/models/.
 */
#include <lauxlib.h>
#include <lua.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/lua/l_fields.h"
#include "core/lua/l_models.h"
#include "core/models/resiliency.h"

/* ---- reading fields ---------------------------------------------------------- */

/* One converted run: the instances' transports and modes, the policy, the
 * storm, the power block (grid hours) and the seed. */
struct conv {
	struct rs_transport tr[RS_MAX_INSTANCES];
	struct rs_mode modes[RS_MAX_INSTANCES][RS_MAX_MODES];
	size_t ntr;
	struct rs_policy policy;
	struct rs_storm storm;
	struct rs_power power;
	struct rs_seed seed;
	long years;
	int grid_hours;
};

static int bad(lua_State *L, const char *fn, const char *what, const char *why)
{
	return luaL_error(L, "bad argument to 'resiliency.%s': %s %s", fn, what, why);
}

enum bound { B_NONE, B_GE, B_GT };

/* A number field within [lo, hi] (lo per 'lb', hi inclusive or +inf). */
static double num(lua_State *L, const char *fn, int t, const char *k,
		  const char *where, enum bound lb, double lo, double hi,
		  int hi_open)
{
	char what[160];
	double v;

	snprintf(what, sizeof what, "%s.%s", where, k);
	if (lf_rawfield(L, t, k) != LUA_TNUMBER)
		bad(L, fn, what, "must be a number");
	v = lua_tonumber(L, -1);
	lua_pop(L, 1);
	if (!isfinite(v))
		bad(L, fn, what, "must be finite");
	if ((lb == B_GE && !(v >= lo)) || (lb == B_GT && !(v > lo)))
		lf_error(L, "bad argument to 'resiliency.%s': %s must be %s %g, got %g", fn,
			 what, lb == B_GE ? ">=" : ">", lo, v);
	if (hi_open ? !(v < hi) : !(v <= hi))
		lf_error(L, "bad argument to 'resiliency.%s': %s must be %s %g, got %g", fn,
			 what, hi_open ? "<" : "<=", hi, v);
	return v;
}

static int flag(lua_State *L, const char *fn, int t, const char *k,
		const char *where)
{
	char what[160];
	int v;

	snprintf(what, sizeof what, "%s.%s", where, k);
	if (lf_rawfield(L, t, k) != LUA_TBOOLEAN)
		bad(L, fn, what, "must be a boolean");
	v = lua_toboolean(L, -1);
	lua_pop(L, 1);
	return v;
}

/* A string field; the string stays alive in the argument table. */
static const char *str(lua_State *L, const char *fn, int t, const char *k,
		       const char *where)
{
	char what[160];
	const char *s;

	snprintf(what, sizeof what, "%s.%s", where, k);
	if (lf_rawfield(L, t, k) != LUA_TSTRING)
		bad(L, fn, what, "must be a string");
	s = lua_tostring(L, -1);
	lua_pop(L, 1);
	return s;
}

/* Push the table t[k]; error when it is not a table. Returns its index. */
static int subtable(lua_State *L, const char *fn, int t, const char *k,
		    const char *where)
{
	char what[160];

	snprintf(what, sizeof what, "%s.%s", where, k);
	if (lf_rawfield(L, t, k) != LUA_TTABLE)
		bad(L, fn, what, "must be a table");
	return lua_gettop(L);
}

static long years_field(lua_State *L, const char *fn, int t)
{
	lua_Integer y;

	if (lf_rawfield(L, t, "years") != LUA_TNUMBER || !lua_isinteger(L, -1))
		bad(L, fn, "years", "must be an integer");
	y = lua_tointeger(L, -1);
	lua_pop(L, 1);
	if (y < 1 || y > RS_MAX_YEARS)
		lf_error(L, "bad argument to 'resiliency.%s': years must be within 1..%d, got %lld",
			 fn, (int)RS_MAX_YEARS, (long long)y);
	return (long)y;
}

static void seed_field(lua_State *L, const char *fn, int t, struct rs_seed *s)
{
	struct diag err;
	int ty = lf_rawfield(L, t, "seed");

	if (ty == LUA_TNUMBER && lua_isinteger(L, -1)) {
		rs_seed_int(s, (int64_t)lua_tointeger(L, -1));
	} else if (ty == LUA_TSTRING) {
		diag_init(&err);
		if (rs_seed_parse(s, lua_tostring(L, -1), &err) < 0)
			bad(L, fn, "seed", err.msg);
	} else {
		bad(L, fn, "seed", "must be an integer or its decimal text");
	}
	lua_pop(L, 1);
}

static void read_power(lua_State *L, const char *fn, int t, const char *where,
		       struct rs_power *p)
{
	p->battery_h = num(L, fn, t, "battery_h", where, B_GE, 0, HUGE_VAL, 0);
	p->has_generator = flag(L, fn, t, "has_generator", where);
	p->generator_fuel_h = num(L, fn, t, "generator_fuel_h", where, B_GE, 0, HUGE_VAL, 0);
	p->generator_start_fail_p =
		num(L, fn, t, "generator_start_fail_p", where, B_GE, 0, 1, 0);
	p->routine_outages_per_year =
		num(L, fn, t, "routine_outages_per_year", where, B_GE, 0, RS_MAX_RATE, 0);
	p->routine_outage_h = num(L, fn, t, "routine_outage_h", where, B_GT, 0, HUGE_VAL, 0);
}

static void read_storm(lua_State *L, const char *fn, int t, struct rs_storm *s)
{
	s->rate_per_year = num(L, fn, t, "rate_per_year", "storm", B_GE, 0, RS_MAX_RATE, 0);
	s->mean_duration_h = num(L, fn, t, "mean_duration_h", "storm", B_GT, 0, HUGE_VAL, 0);
	s->grid_outage_p = num(L, fn, t, "grid_outage_p", "storm", B_GE, 0, 1, 0);
	s->neighbor_battery_h =
		num(L, fn, t, "neighbor_battery_h", "storm", B_GE, 0, HUGE_VAL, 0);
}

static void read_mode(lua_State *L, const char *fn, int t, const char *where,
		      struct rs_mode *m)
{
	m->name = str(L, fn, t, "name", where);
	m->rate_per_year = num(L, fn, t, "rate_per_year", where, B_GE, 0, RS_MAX_RATE, 0);
	m->mttr_h = num(L, fn, t, "mttr_h", where, B_GT, 0, HUGE_VAL, 0);
	m->capacity_factor = num(L, fn, t, "capacity_factor", where, B_GE, 0, 1, 1);
	m->storm_rate_mult = num(L, fn, t, "storm_rate_mult", where, B_GE, 1, HUGE_VAL, 0);
	m->storm_mttr_mult = num(L, fn, t, "storm_mttr_mult", where, B_GE, 1, HUGE_VAL, 0);
	m->physical_cut = flag(L, fn, t, "physical_cut", where);
	if (m->rate_per_year * (m->storm_rate_mult - 1.0) > RS_MAX_RATE)
		lf_error(L, "bad argument to 'resiliency.%s': %s: the storm arrival rate "
			 "rate_per_year * (storm_rate_mult - 1) is above %g",
			 fn, where, RS_MAX_RATE);
}

static unsigned read_carries(lua_State *L, const char *fn, int t, const char *where)
{
	unsigned bits = 0;
	lua_Integer i, n;
	int c, lt = subtable(L, fn, t, "carries", where);

	n = (lua_Integer)lua_rawlen(L, lt);
	for (i = 1; i <= n; i++) {
		const char *s;
		int found = 0;

		if (lua_rawgeti(L, lt, i) != LUA_TSTRING)
			bad(L, fn, where, "carries classes as strings");
		s = lua_tostring(L, -1);
		for (c = 0; c < RS_NCLASSES; c++)
			if (strcmp(s, rs_classes[c].name) == 0) {
				bits |= RS_CARRIES(c);
				found = 1;
			}
		if (!found)
			luaL_error(L, "bad argument to 'resiliency.%s': %s carries an unknown class '%s'",
				   fn, where, s);
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
	return bits;
}

/* Convert the catalog entry at index 'e' into cv->tr[cv->ntr]. */
static const struct rs_transport *read_transport(lua_State *L, const char *fn,
						 int e, struct conv *cv)
{
	struct rs_transport *tr = &cv->tr[cv->ntr];
	struct rs_mode *modes = cv->modes[cv->ntr];
	char where[160];
	lua_Integer i, n;
	int mt;

	tr->name = str(L, fn, e, "name", "catalog entry");
	snprintf(where, sizeof where, "transport '%.64s'", tr->name);
	tr->kind = str(L, fn, e, "kind", where);
	tr->capacity_gbps = num(L, fn, e, "capacity_gbps", where, B_GT, 0, HUGE_VAL, 0);
	tr->rtt_ms = num(L, fn, e, "rtt_ms", where, B_GE, 0, HUGE_VAL, 0);
	tr->monthly_usd = num(L, fn, e, "monthly_usd", where, B_GE, 0, HUGE_VAL, 0);
	tr->grid_dependent = flag(L, fn, e, "grid_dependent", where);
	tr->carries = read_carries(L, fn, e, where);
	mt = subtable(L, fn, e, "modes", where);
	n = (lua_Integer)lua_rawlen(L, mt);
	if (n > RS_MAX_MODES)
		luaL_error(L, "bad argument to 'resiliency.%s': %s has more than %d modes", fn,
			   where, RS_MAX_MODES);
	for (i = 1; i <= n; i++) {
		char mw[240];

		if (lua_rawgeti(L, mt, i) != LUA_TTABLE)
			bad(L, fn, where, "modes must be tables");
		snprintf(mw, sizeof mw, "%s mode %lld", where, (long long)i);
		read_mode(L, fn, lua_gettop(L), mw, &modes[i - 1]);
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
	tr->modes = modes;
	tr->nmodes = (size_t)n;
	cv->ntr++;
	return tr;
}

/* The transport named 'name' of the catalog list at 'cat' (or of the
 * built-in catalog when cat is 0), converted once per run. */
static const struct rs_transport *transport(lua_State *L, const char *fn, int cat,
					    const char *name, struct conv *cv)
{
	lua_Integer i, n;
	size_t k;

	for (k = 0; k < cv->ntr; k++)
		if (strcmp(cv->tr[k].name, name) == 0)
			return &cv->tr[k];
	if (!cat) {
		const struct rs_transport *b =
			rs_catalog_find(rs_builtin_catalog, RS_NBUILTINS, name);

		if (!b)
			luaL_error(L, "bad argument to 'resiliency.%s': no transport '%s' in the catalog",
				   fn, name);
		return b;
	}
	n = (lua_Integer)lua_rawlen(L, cat);
	for (i = 1; i <= n; i++) {
		const struct rs_transport *t = NULL;

		if (lua_rawgeti(L, cat, i) != LUA_TTABLE)
			bad(L, fn, "catalog", "entries must be tables");
		if (lf_rawfield(L, lua_gettop(L), "name") == LUA_TSTRING &&
		    strcmp(lua_tostring(L, -1), name) == 0)
			t = read_transport(L, fn, lua_gettop(L) - 1, cv);
		lua_pop(L, 2);
		if (t)
			return t;
	}
	luaL_error(L, "bad argument to 'resiliency.%s': no transport '%s' in the catalog", fn,
		   name);
	return NULL;
}

static void read_policy(lua_State *L, const char *fn, int t, int cat, struct conv *cv)
{
	struct rs_policy *p = &cv->policy;
	lua_Integer i, n;
	size_t k;
	int lt, sub;

	p->name = str(L, fn, t, "name", "policy");
	p->label = str(L, fn, t, "label", "policy");
	p->fiber = p->fiber_b = -1;
	lt = subtable(L, fn, t, "transports", "policy");
	n = (lua_Integer)lua_rawlen(L, lt);
	if (n > RS_MAX_LISTED)
		luaL_error(L, "bad argument to 'resiliency.%s': a policy lists at most %d transports",
			   fn, RS_MAX_LISTED);
	for (i = 1; i <= n; i++) {
		const char *name;

		if (lua_rawgeti(L, lt, i) != LUA_TSTRING)
			bad(L, fn, "policy.transports", "must list names");
		name = lua_tostring(L, -1);
		for (k = 0; k < p->ninst; k++)
			if (strcmp(p->inst[k]->name, name) == 0)
				luaL_error(L, "bad argument to 'resiliency.%s': transport '%s' is listed twice",
					   fn, name);
		if (strcmp(name, "fiber") == 0)
			p->fiber = (int)p->ninst;
		p->inst[p->ninst++] = transport(L, fn, cat, name, cv);
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
	p->dual_fiber = flag(L, fn, t, "dual_fiber", "policy");
	if (p->dual_fiber) {
		for (k = 0; k < p->ninst; k++)
			if (strcmp(p->inst[k]->name, "fiber-b") == 0)
				bad(L, fn, "policy", "lists fiber-b and has dual fiber");
		if (p->fiber < 0)
			bad(L, fn, "policy", "has dual fiber but no fiber instance");
		p->fiber_b = (int)p->ninst;
		p->inst[p->ninst++] = p->inst[p->fiber];
	}
	p->shared_cut_fraction = num(L, fn, t, "shared_cut_fraction", "policy", B_GE, 0, 1, 0);
	p->local_autonomy = flag(L, fn, t, "local_autonomy", "policy");
	sub = subtable(L, fn, t, "power", "policy");
	read_power(L, fn, sub, "policy.power", &p->power);
	lua_pop(L, 1);
	sub = subtable(L, fn, t, "timing", "policy");
	p->timing.holdover = str(L, fn, sub, "holdover", "policy.timing");
	p->timing.holdover_h = rs_holdover_h(p->timing.holdover);
	if (p->timing.holdover_h < 0)
		luaL_error(L, "bad argument to 'resiliency.%s': unknown holdover '%s'", fn,
			   p->timing.holdover);
	p->timing.gnss_events_per_year = num(L, fn, sub, "gnss_events_per_year",
					     "policy.timing", B_GE, 0, RS_MAX_RATE, 0);
	p->timing.gnss_event_h =
		num(L, fn, sub, "gnss_event_h", "policy.timing", B_GT, 0, HUGE_VAL, 0);
	lua_pop(L, 1);
}

/* Convert the run table at 't' into a new userdata (pushed); a grid-hours
 * run when 'grid' is set or the table says grid_hours = true. */
static struct conv *read_run(lua_State *L, const char *fn, int t, int grid)
{
	struct conv *cv;
	int cat = 0, sub;

	t = lua_absindex(L, t);
	luaL_checktype(L, t, LUA_TTABLE);
	cv = lua_newuserdatauv(L, sizeof *cv, 0);
	memset(cv, 0, sizeof *cv);
	cv->years = years_field(L, fn, t);
	seed_field(L, fn, t, &cv->seed);
	sub = subtable(L, fn, t, "storm", "run");
	read_storm(L, fn, sub, &cv->storm);
	lua_pop(L, 1);
	if (lf_rawfield(L, t, "grid_hours") == LUA_TBOOLEAN && lua_toboolean(L, -1))
		grid = 1;
	lua_pop(L, 1);
	if (grid) {
		cv->grid_hours = 1;
		sub = subtable(L, fn, t, "power", "run");
		read_power(L, fn, sub, "power", &cv->power);
		lua_pop(L, 1);
		return cv;
	}
	if (lf_rawfield(L, t, "catalog") == LUA_TTABLE)
		cat = lua_gettop(L);
	else if (!lua_isnil(L, -1))
		bad(L, fn, "catalog", "must be a list of transports");
	sub = subtable(L, fn, t, "policy", "run");
	read_policy(L, fn, sub, cat, cv);
	lua_pop(L, 2);
	return cv;
}

/* ---- writing results ---------------------------------------------------------- */

static void push_figures(lua_State *L, const struct rs_figures *f)
{
	lua_createtable(L, 0, 12);
	lf_setnum(L, "availability", f->availability);
	lf_setnum(L, "nines", f->nines);
	lf_setnum(L, "nines_unrounded", f->nines_unrounded);
	lf_setnum(L, "downtime_h_yr", f->downtime_h_yr);
	lf_setnum(L, "ettr_h", f->ettr_h);
	lf_setnum(L, "episodes_per_year", f->episodes_per_year);
	lf_setnum(L, "retention", f->retention);
	lf_setnum(L, "down_yr", f->down_yr);
	lf_setnum(L, "episodes_unrounded", f->episodes_unrounded);
	lf_setnum(L, "ettr_unrounded", f->ettr_unrounded);
	lf_setnum(L, "retention_unrounded", f->retention_unrounded);
	lua_createtable(L, 0, 4);
	lf_setnum(L, "down_h", f->totals.down_h);
	lua_pushinteger(L, (lua_Integer)f->totals.episodes);
	lua_setfield(L, -2, "episodes");
	lf_setnum(L, "degraded_h", f->totals.degraded_h);
	lf_setnum(L, "capacity_loss_h", f->totals.capacity_loss_h);
	lua_setfield(L, -2, "totals");
}

static void push_result(lua_State *L, const struct rs_result *r)
{
	int c;

	lua_createtable(L, 0, 4);
	lf_setnum(L, "monthly_usd", r->monthly_usd);
	lf_setnum(L, "monthly_usd_unrounded", r->monthly_usd_unrounded);
	lua_pushinteger(L, (lua_Integer)r->draws);
	lua_setfield(L, -2, "draws");
	lua_createtable(L, 0, RS_NCLASSES);
	for (c = 0; c < RS_NCLASSES; c++) {
		push_figures(L, &r->cls[c]);
		lua_setfield(L, -2, rs_classes[c].name);
	}
	lua_setfield(L, -2, "classes");
}

static void push_modes(lua_State *L, const struct rs_mode *m, size_t n)
{
	size_t i;

	lua_createtable(L, (int)n, 0);
	for (i = 0; i < n; i++) {
		lua_createtable(L, 0, 7);
		lua_pushstring(L, m[i].name);
		lua_setfield(L, -2, "name");
		lf_setnum(L, "rate_per_year", m[i].rate_per_year);
		lf_setnum(L, "mttr_h", m[i].mttr_h);
		lf_setnum(L, "capacity_factor", m[i].capacity_factor);
		lf_setnum(L, "storm_rate_mult", m[i].storm_rate_mult);
		lf_setnum(L, "storm_mttr_mult", m[i].storm_mttr_mult);
		lua_pushboolean(L, m[i].physical_cut);
		lua_setfield(L, -2, "physical_cut");
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
}

static void push_transport(lua_State *L, const struct rs_transport *t)
{
	int c, k = 0;

	lua_createtable(L, 0, 8);
	lua_pushstring(L, t->name);
	lua_setfield(L, -2, "name");
	lua_pushstring(L, t->kind);
	lua_setfield(L, -2, "kind");
	lf_setnum(L, "capacity_gbps", t->capacity_gbps);
	lf_setnum(L, "rtt_ms", t->rtt_ms);
	lua_createtable(L, RS_NCLASSES, 0);
	for (c = 0; c < RS_NCLASSES; c++)
		if (t->carries & RS_CARRIES(c)) {
			lua_pushstring(L, rs_classes[c].name);
			lua_rawseti(L, -2, ++k);
		}
	lua_setfield(L, -2, "carries");
	lf_setnum(L, "monthly_usd", t->monthly_usd);
	lua_pushboolean(L, t->grid_dependent);
	lua_setfield(L, -2, "grid_dependent");
	push_modes(L, t->modes, t->nmodes);
	lua_setfield(L, -2, "modes");
}

static void push_power(lua_State *L, const struct rs_power *p)
{
	lua_createtable(L, 0, 6);
	lf_setnum(L, "battery_h", p->battery_h);
	lua_pushboolean(L, p->has_generator);
	lua_setfield(L, -2, "has_generator");
	lf_setnum(L, "generator_fuel_h", p->generator_fuel_h);
	lf_setnum(L, "generator_start_fail_p", p->generator_start_fail_p);
	lf_setnum(L, "routine_outages_per_year", p->routine_outages_per_year);
	lf_setnum(L, "routine_outage_h", p->routine_outage_h);
}

static void push_timing(lua_State *L, const struct rs_timing *t)
{
	lua_createtable(L, 0, 4);
	lua_pushstring(L, t->holdover);
	lua_setfield(L, -2, "holdover");
	lf_setnum(L, "holdover_h", t->holdover_h);
	lf_setnum(L, "gnss_events_per_year", t->gnss_events_per_year);
	lf_setnum(L, "gnss_event_h", t->gnss_event_h);
}

static void push_storm(lua_State *L, const struct rs_storm *s)
{
	lua_createtable(L, 0, 4);
	lf_setnum(L, "rate_per_year", s->rate_per_year);
	lf_setnum(L, "mean_duration_h", s->mean_duration_h);
	lf_setnum(L, "grid_outage_p", s->grid_outage_p);
	lf_setnum(L, "neighbor_battery_h", s->neighbor_battery_h);
}

/* ---- the converters -------------------------------------------------------------- */

int l_model_resiliency_catalog(lua_State *L)
{
	size_t i;

	lua_createtable(L, RS_NBUILTINS, 0);
	for (i = 0; i < RS_NBUILTINS; i++) {
		push_transport(L, &rs_builtin_catalog[i]);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	return 1;
}

int l_model_resiliency_defaults(lua_State *L)
{
	size_t i, k;

	lua_createtable(L, 0, 12);
	lua_createtable(L, RS_NRUNGS, 0);
	for (i = 0; i < RS_NRUNGS; i++) {
		const struct rs_rung *r = &rs_rungs[i];
		struct rs_power pw = rs_default_power;
		struct rs_timing tm = rs_default_timing;

		lua_createtable(L, 0, 8);
		lua_pushstring(L, r->name);
		lua_setfield(L, -2, "name");
		lua_pushstring(L, r->label);
		lua_setfield(L, -2, "label");
		lua_newtable(L);
		for (k = 0; r->transports[k]; k++) {
			lua_pushstring(L, r->transports[k]);
			lua_rawseti(L, -2, (lua_Integer)k + 1);
		}
		lua_setfield(L, -2, "transports");
		lua_pushboolean(L, r->dual_fiber);
		lua_setfield(L, -2, "dual_fiber");
		lf_setnum(L, "shared_cut_fraction", rs_default_shared_cut_fraction);
		lua_pushboolean(L, r->local_autonomy);
		lua_setfield(L, -2, "local_autonomy");
		pw.battery_h = r->battery_h;
		pw.has_generator = r->has_generator;
		push_power(L, &pw);
		lua_setfield(L, -2, "power");
		tm.holdover = r->holdover;
		tm.holdover_h = rs_holdover_h(r->holdover);
		push_timing(L, &tm);
		lua_setfield(L, -2, "timing");
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	lua_setfield(L, -2, "rungs");
	push_power(L, &rs_default_power);
	lua_setfield(L, -2, "power");
	push_timing(L, &rs_default_timing);
	lua_setfield(L, -2, "timing");
	push_storm(L, &rs_default_storm);
	lua_setfield(L, -2, "storm");
	lf_setnum(L, "shared_cut_fraction", rs_default_shared_cut_fraction);
	lua_pushinteger(L, rs_default_years);
	lua_setfield(L, -2, "years");
	lua_pushinteger(L, rs_default_seed);
	lua_setfield(L, -2, "seed");
	lua_newtable(L);
	for (k = 0; rs_holdover_names[k]; k++) {
		lua_pushnumber(L, rs_holdover_hours[k]);
		lua_setfield(L, -2, rs_holdover_names[k]);
	}
	lua_setfield(L, -2, "holdover_h");
	lua_createtable(L, 0, 5);
	lf_setnum(L, "battery_per_h", rs_costs.battery_per_h);
	lf_setnum(L, "generator", rs_costs.generator);
	lf_setnum(L, "rubidium", rs_costs.rubidium);
	lf_setnum(L, "ocxo", rs_costs.ocxo);
	lf_setnum(L, "local_autonomy", rs_costs.local_autonomy);
	lua_setfield(L, -2, "costs");
	lua_createtable(L, 0, 5);
	lua_pushinteger(L, RS_MAX_YEARS);
	lua_setfield(L, -2, "max_years");
	lf_setnum(L, "max_rate", RS_MAX_RATE);
	lua_pushinteger(L, RS_MAX_LISTED);
	lua_setfield(L, -2, "max_transports");
	lua_pushinteger(L, RS_MAX_MODES);
	lua_setfield(L, -2, "max_modes");
	lua_pushinteger(L, RS_MAX_SEED_DIGITS);
	lua_setfield(L, -2, "max_seed_digits");
	lua_setfield(L, -2, "limits");
	lua_createtable(L, RS_NCLASSES, 0);
	for (k = 0; k < RS_NCLASSES; k++) {
		lua_pushstring(L, rs_classes[k].name);
		lua_rawseti(L, -2, (lua_Integer)k + 1);
	}
	lua_setfield(L, -2, "classes");
	return 1;
}

/* simulate(run[, variant]) -> result */
int l_model_resiliency_simulate(lua_State *L)
{
	struct rs_result res;
	struct conv *cv;
	struct diag err;
	unsigned variant;

	luaL_checktype(L, 1, LUA_TTABLE);
	variant = lm_variant_bits(L, 2, "resiliency", rs_switches, rs_nswitches);
	cv = read_run(L, "simulate", 1, 0);
	if (cv->grid_hours)
		return bad(L, "simulate", "run", "is a grid-hours run: use grid_hours");
	diag_init(&err);
	if (rs_simulate(&cv->policy, &cv->storm, cv->years, &cv->seed, variant, &res,
			&err) < 0)
		return luaL_error(L, "resiliency.simulate: %s", err.msg);
	push_result(L, &res);
	return 1;
}

/* grid_hours{storm=, power=, years=, seed=} -> h/yr */
int l_model_resiliency_grid_hours(lua_State *L)
{
	struct conv *cv;
	struct diag err;
	double h;

	luaL_checktype(L, 1, LUA_TTABLE);
	cv = read_run(L, "grid_hours", 1, 1);
	diag_init(&err);
	if (rs_grid_hours(&cv->storm, &cv->power, cv->years, &cv->seed, &h, &err) < 0)
		return luaL_error(L, "resiliency.grid_hours: %s", err.msg);
	lua_pushnumber(L, h);
	return 1;
}

/* batch({run...}[, variant]) -> {result...}: threads, same figures. */
int l_model_resiliency_batch(lua_State *L)
{
	struct rs_job *jobs;
	struct diag err;
	lua_Integer i, n;
	unsigned variant;

	luaL_checktype(L, 1, LUA_TTABLE);
	variant = lm_variant_bits(L, 2, "resiliency", rs_switches, rs_nswitches);
	lua_settop(L, 2);
	n = (lua_Integer)lua_rawlen(L, 1);
	if (n > RS_MAX_JOBS)
		return luaL_error(L, "bad argument to 'resiliency.batch': at most %d runs",
				  RS_MAX_JOBS);
	jobs = lua_newuserdatauv(L, ((size_t)n + 1) * sizeof *jobs, 0); /* 3 */
	memset(jobs, 0, ((size_t)n + 1) * sizeof *jobs);
	lua_createtable(L, (int)n, 0); /* 4: keeps the converted runs alive */
	for (i = 1; i <= n; i++) {
		struct rs_job *j = &jobs[i - 1];
		struct conv *cv;

		if (lua_rawgeti(L, 1, i) != LUA_TTABLE)
			return bad(L, "batch", "runs", "must be tables");
		cv = read_run(L, "batch", -1, 0);
		lua_rawseti(L, 4, i);
		lua_pop(L, 1);
		j->kind = cv->grid_hours ? RS_JOB_GRID_HOURS : RS_JOB_SIMULATE;
		j->policy = &cv->policy;
		j->storm = &cv->storm;
		j->power = &cv->power;
		j->years = cv->years;
		j->seed = &cv->seed;
		j->variant = variant;
	}
	diag_init(&err);
	if (rs_batch(jobs, (size_t)n, &err) < 0)
		return luaL_error(L, "resiliency.batch: %s", err.msg);
	lua_createtable(L, (int)n, 0);
	for (i = 1; i <= n; i++) {
		if (jobs[i - 1].kind == RS_JOB_GRID_HOURS)
			lua_pushnumber(L, jobs[i - 1].grid_hours);
		else
			push_result(L, &jobs[i - 1].result);
		lua_rawseti(L, -2, i);
	}
	return 1;
}
