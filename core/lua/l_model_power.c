/*
 * l_model_power.c: the Lua converters of the power models (MODEL_TABLE
 * lines of core/models/models.def; spec/power.md 11). Each converter reads
 * plain tables with raw access, checks every field against the domain of
 * spec/power.md 3 (so the C model never sees a NaN, a zero bandwidth or a
 * horizon beyond the limits), runs the model and returns plain tables in
 * the key order of the spec (engine.object-compatible ordering is the
 * pack's job). The arithmetic stays in core/models/power*.c.
 */
#include <lauxlib.h>
#include <lua.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/lua/l_fields.h"
#include "core/lua/l_models.h"
#include "core/models/exact_mean.h"
#include "core/models/power.h"

/* ---- reading fields ------------------------------------------------------------ */

/* A finite number t[k] with lo (strict when lo_open) <= x <= hi. */
static double num(lua_State *L, const char *fn, int t, const char *k, double lo,
		  int lo_open, double hi)
{
	double v;

	if (lf_rawfield(L, t, k) != LUA_TNUMBER)
		luaL_error(L, "bad argument to 'power.%s': %s must be a number", fn, k);
	v = lua_tonumber(L, -1);
	lua_pop(L, 1);
	if (!isfinite(v))
		luaL_error(L, "bad argument to 'power.%s': %s must be finite", fn, k);
	if ((lo_open ? !(v > lo) : !(v >= lo)) || !(v <= hi))
		lf_error(L, "bad argument to 'power.%s': %s must be within %s%g..%g, got %g", fn,
			 k, lo_open ? "(exclusive) " : "", lo, hi, v);
	return v;
}

static long long integer(lua_State *L, const char *fn, int t, const char *k,
			 long long lo, long long hi)
{
	long long v;

	if (lf_rawfield(L, t, k) != LUA_TNUMBER || !lua_isinteger(L, -1))
		luaL_error(L, "bad argument to 'power.%s': %s must be an integer", fn, k);
	v = (long long)lua_tointeger(L, -1);
	lua_pop(L, 1);
	if (v < lo || v > hi)
		lf_error(L, "bad argument to 'power.%s': %s must be within %lld..%lld, got %lld",
			 fn, k, lo, hi, v);
	return v;
}

static int subtable(lua_State *L, const char *fn, int t, const char *k)
{
	if (lf_rawfield(L, t, k) != LUA_TTABLE)
		luaL_error(L, "bad argument to 'power.%s': %s must be a table", fn, k);
	return lua_gettop(L);
}

static void read_job(lua_State *L, const char *fn, int t, struct pw_job *j)
{
	luaL_checktype(L, t, LUA_TTABLE);
	j->params_b = num(L, fn, t, "params_b", 0, 1, 1e6);
	j->gpus = (double)integer(L, fn, t, "gpus", 1, 10000000);
	j->kw_per_gpu = num(L, fn, t, "kw_per_gpu", 0, 1, 100);
	j->dollars_per_gpu_h = num(L, fn, t, "dollars_per_gpu_h", 0, 1, 10000);
	j->wan_gbps = num(L, fn, t, "wan_gbps", 0, 1, 1e9);
	j->reload_h = num(L, fn, t, "reload_h", 0, 0, 1000);
	j->egress_per_gb = num(L, fn, t, "egress_per_gb", 0, 0, 1000);
	j->price_here_mwh = num(L, fn, t, "price_here_mwh", -1e6, 0, 1e6);
	j->price_there_mwh = num(L, fn, t, "price_there_mwh", -1e6, 0, 1e6);
}

static const char *const order_names[] = { "most-expensive-first", "least-expensive-first",
					   "random", NULL };

static void read_fleet(lua_State *L, const char *fn, int t, struct pw_fleet_config *c)
{
	luaL_checktype(L, t, LUA_TTABLE);
	c->horizon_h = (long)integer(L, fn, t, "horizon_h", 1, PW_MAX_HOURS);
	c->fleet_mw = num(L, fn, t, "fleet_mw", 0, 1, 1e6);
	c->flexible_fraction = num(L, fn, t, "flexible_fraction", 0, 0, 1);
	c->seed = (uint64_t)integer(L, fn, t, "seed", 0, INT64_MAX);
	c->base_mwh = num(L, fn, t, "base_mwh", -1e6, 0, 1e6);
	c->diurnal_amp_mwh = num(L, fn, t, "diurnal_amp_mwh", 0, 0, 1e6);
	c->spike_rate_per_h = num(L, fn, t, "spike_rate_per_h", 0, 0, 1);
	c->spike_len_h = (long)integer(L, fn, t, "spike_len_h", 1, 8760);
	c->spike_min_mwh = num(L, fn, t, "spike_min_mwh", 0, 0, 1e6);
	c->spike_max_mwh = num(L, fn, t, "spike_max_mwh", c->spike_min_mwh, 0, 1e6);
	c->curtail_threshold_mwh = num(L, fn, t, "curtail_threshold_mwh", 0, 0, 1e6);
	c->curtail_budget_frac = num(L, fn, t, "curtail_budget_frac", 0, 0, 1);
	if (lf_rawfield(L, t, "curtail_order") != LUA_TSTRING)
		luaL_error(L, "bad argument to 'power.%s': curtail_order must be a string", fn);
	c->order = (enum pw_order)luaL_checkoption(L, -1, NULL, order_names);
	lua_pop(L, 1);
}

/* A list of finite prices in [lo, 1e6] into a userdata array (freed by Lua,
 * so an error midway leaks nothing). */
static double *read_prices(lua_State *L, const char *fn, int t, double lo, double hi,
			   size_t max, size_t *n)
{
	size_t i, len;
	double *p;

	luaL_checktype(L, t, LUA_TTABLE);
	len = (size_t)lua_rawlen(L, t);
	if (len < 1 || len > max)
		lf_error(L, "bad argument to 'power.%s': 1 to %zu prices, got %zu", fn, max, len);
	p = lua_newuserdatauv(L, len * sizeof *p, 0);
	for (i = 0; i < len; i++) {
		double v;

		if (lua_rawgeti(L, t, (lua_Integer)i + 1) != LUA_TNUMBER)
			lf_error(L, "bad argument to 'power.%s': value %zu must be a number", fn,
				 i + 1);
		v = lua_tonumber(L, -1);
		lua_pop(L, 1);
		if (!isfinite(v) || v < lo || v > hi)
			lf_error(L, "bad argument to 'power.%s': value %zu must be finite, "
				 "%g..%g, got %g", fn, i + 1, lo, hi, v);
		p[i] = v;
	}
	*n = len;
	return p;
}

static void push_migration(lua_State *L, const struct pw_migration *m)
{
	lua_createtable(L, 0, 7);
	lf_setnum(L, "state_gb", m->state_gb);
	lf_setnum(L, "power_mw", m->power_mw);
	lf_setnum(L, "transfer_h", m->transfer_h);
	lf_setnum(L, "downtime_h", m->downtime_h);
	lf_setnum(L, "idle_dollars", m->idle_dollars);
	lf_setnum(L, "egress_dollars", m->egress_dollars);
	lf_setnum(L, "cost_dollars", m->cost_dollars);
}

/* ---- one job ------------------------------------------------------------------------ */

int l_model_power_migration(lua_State *L)
{
	struct pw_job j;
	struct pw_migration m;

	read_job(L, "migration", 1, &j);
	pw_migration(&j, lm_variant_bits(L, 2, "power", pw_switches, PW_NSWITCHES), &m);
	push_migration(L, &m);
	return 1;
}

static double length_arg(lua_State *L, const char *fn, int idx)
{
	double v = luaL_checknumber(L, idx);

	if (!isfinite(v) || v < 0 || v > 1e7)
		luaL_error(L, "bad argument to 'power.%s': length_h must be finite, 0..1e7", fn);
	return v;
}

int l_model_power_decide(lua_State *L)
{
	struct pw_job j;
	struct pw_decide d;
	double L_h;

	read_job(L, "decide", 1, &j);
	L_h = length_arg(L, "decide", 2);
	pw_decide(&j, L_h, lm_variant_bits(L, 3, "power", pw_switches, PW_NSWITCHES), &d);
	lua_createtable(L, 0, 8);
	lua_pushstring(L, d.move ? "move" : "stay");
	lua_setfield(L, -2, "decision");
	lf_setnum(L, "net_dollars", pw_round(d.net_dollars, 0));
	lf_setnum(L, "energy_saving_dollars", pw_round(d.saving_dollars, 0));
	lf_setnum(L, "migration_cost_dollars", pw_round(d.mig.cost_dollars, 0));
	lf_setnum(L, "migration_downtime_h", pw_round(d.mig.downtime_h, 2));
	lf_setnum(L, "state_gb", pw_round(d.mig.state_gb, 0));
	lf_setnum(L, "energy_share_of_gpu_cost", pw_round(d.energy_share, 4));
	lua_createtable(L, 0, 12);
	lf_setnum(L, "net_dollars", d.net_dollars);
	lf_setnum(L, "energy_saving_dollars", d.saving_dollars);
	lf_setnum(L, "migration_cost_dollars", d.mig.cost_dollars);
	lf_setnum(L, "migration_downtime_h", d.mig.downtime_h);
	lf_setnum(L, "state_gb", d.mig.state_gb);
	lf_setnum(L, "energy_share_of_gpu_cost", d.energy_share);
	lf_setnum(L, "remaining_h", d.remaining_h);
	lf_setnum(L, "power_mw", d.mig.power_mw);
	lf_setnum(L, "spread_mwh", d.spread_mwh);
	lf_setnum(L, "transfer_h", d.mig.transfer_h);
	lf_setnum(L, "idle_dollars", d.mig.idle_dollars);
	lf_setnum(L, "egress_dollars", d.mig.egress_dollars);
	lua_setfield(L, -2, "unrounded");
	return 1;
}

int l_model_power_breakeven_spread(lua_State *L)
{
	struct pw_job j;
	double L_h;

	read_job(L, "breakeven_spread", 1, &j);
	L_h = length_arg(L, "breakeven_spread", 2);
	lua_pushnumber(L, pw_breakeven_spread(&j, L_h, lm_variant_bits(L, 3, "power", pw_switches, PW_NSWITCHES)));
	return 1;
}

int l_model_power_breakeven_length(lua_State *L)
{
	struct pw_job j;
	double s, out;

	read_job(L, "breakeven_length", 1, &j);
	s = luaL_checknumber(L, 2);
	if (!isfinite(s) || s < -1e6 || s > 1e6)
		return luaL_error(L, "bad argument to 'power.breakeven_length': spread_mwh must be "
				  "finite, -1e6..1e6");
	if (pw_breakeven_length(&j, s, lm_variant_bits(L, 3, "power", pw_switches, PW_NSWITCHES), &out) < 0)
		lua_pushnil(L);
	else
		lua_pushnumber(L, out);
	return 1;
}

int l_model_power_scarcity(lua_State *L)
{
	struct pw_job j;
	struct pw_scarcity s;
	double P, h;

	read_job(L, "scarcity", 1, &j);
	P = luaL_checknumber(L, 2);
	h = luaL_checknumber(L, 3);
	if (!isfinite(P) || P < -1e6 || P > 1e6 || !isfinite(h) || !(h > 0) || h > 8760)
		return luaL_error(L, "bad argument to 'power.scarcity': spike price -1e6..1e6 and "
				  "hours within (0, 8760] required");
	pw_scarcity(&j, P, h, lm_variant_bits(L, 4, "power", pw_switches, PW_NSWITCHES), &s);
	lua_createtable(L, 0, 5);
	lf_setnum(L, "stay_through_spike_dollars", pw_round(s.stay_dollars, 0));
	lf_setnum(L, "move_and_ride_it_out_dollars", pw_round(s.move_dollars, 0));
	lf_setnum(L, "net_benefit_of_moving", pw_round(s.net_benefit, 0));
	lf_setbool(L, "worth_moving", s.net_benefit > 0);
	lua_createtable(L, 0, 3);
	lf_setnum(L, "stay_through_spike_dollars", s.stay_dollars);
	lf_setnum(L, "move_and_ride_it_out_dollars", s.move_dollars);
	lf_setnum(L, "net_benefit_of_moving", s.net_benefit);
	lua_setfield(L, -2, "unrounded");
	return 1;
}

/* ---- prices and fleets ------------------------------------------------------------------ */

static void push_doubles(lua_State *L, const double *x, size_t n)
{
	size_t i;

	lua_createtable(L, (int)n, 0);
	for (i = 0; i < n; i++) {
		lua_pushnumber(L, x[i]);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
}

int l_model_power_prices(lua_State *L)
{
	struct pw_fleet_config c;
	struct pw_spike *sp;
	double *p;
	size_t ns, i;

	read_fleet(L, "prices", 1, &c);
	p = lua_newuserdatauv(L, (size_t)c.horizon_h * sizeof *p, 0);
	sp = lua_newuserdatauv(L, (size_t)c.horizon_h * sizeof *sp, 0);
	pw_prices(&c, p, sp, &ns);
	push_doubles(L, p, (size_t)c.horizon_h);
	lua_createtable(L, (int)ns, 0);
	for (i = 0; i < ns; i++) {
		lua_createtable(L, 0, 2);
		lf_setint(L, "start_h", sp[i].start_h);
		lf_setnum(L, "magnitude_mwh", sp[i].magnitude_mwh);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	return 2;
}

/* The 12 numeric result fields, by name, in result order. */
static double result_field(const struct pw_fleet_result *r, int i)
{
	switch (i) {
	case 0: return (double)r->hours_curtailed;
	case 1: return (double)r->eligible_hours;
	case 2: return r->curtailed_frac_of_uptime;
	case 3: return r->curtailed_mwh;
	case 4: return r->deferred_mwh;
	case 5: return r->blind_cost;
	case 6: return r->aware_cost;
	case 7: return r->saving;
	case 8: return r->saving_pct;
	case 9: return r->gross_avoided;
	case 10: return r->top1pct_frac;
	default: return r->max_price;
	}
}

static const char *const result_names[] = {
	"hours_curtailed", "eligible_hours", "curtailed_frac_of_uptime", "curtailed_mwh",
	"deferred_mwh", "blind_cost_dollars", "aware_cost_dollars", "saving_dollars",
	"saving_pct", "gross_avoided_dollars", "saving_from_top1pct_hours_frac",
	"max_price_mwh", NULL,
};

/* The 13-figure result table of one fleet run. */
static void push_fleet_result(lua_State *L, uint64_t seed, const struct pw_fleet_result *r)
{
	long i;

	lua_createtable(L, 0, 13);
	lf_setint(L, "seed", (long long)seed);
	lf_setint(L, "hours_curtailed", r->hours_curtailed);
	lf_setint(L, "eligible_hours", r->eligible_hours);
	for (i = 2; i < 12; i++)
		lf_setnum(L, result_names[i], result_field(r, (int)i));
}

static void push_fleet(lua_State *L, const struct pw_fleet_config *c,
		       const struct pw_fleet_result *r)
{
	long i;

	push_fleet_result(L, c->seed, r);
	lua_createtable(L, 0, 16);
	lf_setint(L, "budget_hours", r->budget_hours);
	lf_setint(L, "top1pct_hours", r->top1pct_hours);
	lf_setbool(L, "budget_binds", r->eligible_hours > r->hours_curtailed);
	lf_setnum(L, "flex_mw", r->flex_mw);
	lf_setnum(L, "firm_mw", r->firm_mw);
	lf_setnum(L, "blind_cost_dollars", r->u_blind);
	lf_setnum(L, "firm_cost_dollars", r->u_firm_cost);
	lf_setnum(L, "flex_cost_dollars", r->u_flex_cost);
	lf_setnum(L, "deferral_cost_dollars", r->u_deferral);
	lf_setnum(L, "aware_cost_dollars", r->u_aware);
	lf_setnum(L, "saving_dollars", r->u_saving);
	lf_setnum(L, "saving_frac", r->u_saving_frac);
	lf_setnum(L, "gross_avoided_dollars", r->u_gross);
	lf_setnum(L, "gross_from_top1pct_dollars", r->u_gross_top);
	lf_setnum(L, "max_price_mwh", r->u_max_price);
	lua_createtable(L, (int)r->hours_curtailed, 0);
	for (i = 0; i < r->hours_curtailed; i++) {
		lua_pushinteger(L, r->curtailed_hours[i]);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	lua_setfield(L, -2, "curtailed_hours");
}

static void fleet_fail(lua_State *L, const struct diag *err)
{
	luaL_error(L, "power.fleet: %s", err->msg);
}

/* fleet(config[, prices[, variant]]) -> result, detail */
int l_model_power_fleet(lua_State *L)
{
	struct pw_fleet_config c;
	struct pw_fleet_result r = { 0 };
	struct diag err;
	double *p;
	size_t n;

	read_fleet(L, "fleet", 1, &c);
	(void)lm_variant_bits(L, 3, "power", pw_switches, PW_NSWITCHES);
	if (!lua_isnoneornil(L, 2)) {
		p = read_prices(L, "fleet", 2, -1e6, 1e6, PW_MAX_HOURS, &n);
		c.horizon_h = (long)n;
	} else {
		p = lua_newuserdatauv(L, (size_t)c.horizon_h * sizeof *p, 0);
		pw_prices(&c, p, NULL, NULL);
	}
	r.curtailed_hours = lua_newuserdatauv(L, (size_t)c.horizon_h * sizeof(long), 0);
	diag_init(&err);
	if (pw_fleet_on(&c, p, &r, &err) < 0)
		fleet_fail(L, &err);
	push_fleet(L, &c, &r);
	return 2;
}

/* fleet_mean(config, field, seeds[, variant]): seeds 0..seeds-1, the exact
 * mean of the rounded field (5.9). */
int l_model_power_fleet_mean(lua_State *L)
{
	struct pw_fleet_config c;
	struct pw_fleet_result *r;
	struct diag err;
	lua_Integer seeds = luaL_checkinteger(L, 3), s;
	int field = luaL_checkoption(L, 2, NULL, result_names);
	double *vals;

	read_fleet(L, "fleet_mean", 1, &c);
	(void)lm_variant_bits(L, 4, "power", pw_switches, PW_NSWITCHES);
	if (seeds < 1 || seeds > 1000)
		return luaL_error(L, "bad argument to 'power.fleet_mean': seeds must be 1..1000");
	vals = lua_newuserdatauv(L, (size_t)seeds * sizeof *vals, 0);
	r = lua_newuserdatauv(L, (size_t)seeds * sizeof *r, 0);
	diag_init(&err);
	if (pw_fleet_seeds(&c, (size_t)seeds, r, &err) < 0)
		fleet_fail(L, &err);
	for (s = 0; s < seeds; s++)
		vals[s] = result_field(&r[s], field);
	lua_pushnumber(L, exact_mean(vals, (size_t)seeds));
	return 1;
}

/* fleet_seeds(config, seeds[, variant]) -> the result tables of seeds
 * 0..seeds-1 (the config's own seed ignored), run on threads. */
int l_model_power_fleet_seeds(lua_State *L)
{
	struct pw_fleet_config c;
	struct pw_fleet_result *r;
	struct diag err;
	lua_Integer seeds = luaL_checkinteger(L, 2), s;

	read_fleet(L, "fleet_seeds", 1, &c);
	(void)lm_variant_bits(L, 3, "power", pw_switches, PW_NSWITCHES);
	if (seeds < 1 || seeds > 1000)
		return luaL_error(L, "bad argument to 'power.fleet_seeds': seeds must be 1..1000");
	r = lua_newuserdatauv(L, (size_t)seeds * sizeof *r, 0);
	diag_init(&err);
	if (pw_fleet_seeds(&c, (size_t)seeds, r, &err) < 0)
		fleet_fail(L, &err);
	lua_createtable(L, (int)seeds, 0);
	for (s = 0; s < seeds; s++) {
		push_fleet_result(L, (uint64_t)s, &r[s]);
		lua_rawseti(L, -2, s + 1);
	}
	return 1;
}

static void read_causal_opts(lua_State *L, const char *fn, int t, struct pw_causal_opts *o)
{
	luaL_checktype(L, t, LUA_TTABLE);
	o->fleet_mw = num(L, fn, t, "fleet_mw", 0, 1, 1e6);
	o->flexible_fraction = num(L, fn, t, "flexible_fraction", 0, 1, 1);
	o->threshold_mwh = num(L, fn, t, "threshold", 0, 0, 1e6);
	o->budget_fraction = num(L, fn, t, "budget_fraction", 0, 0, 1);
	if (!(o->budget_fraction < 1))
		lf_error(L, "bad argument to 'power.%s': budget_fraction must be < 1", fn);
	o->cheap_threshold_mwh = num(L, fn, t, "cheap_threshold", 0, 0, 1e6);
}

static void push_causal(lua_State *L, const struct pw_causal *r)
{
	lua_createtable(L, 0, 12);
	lf_setint(L, "budget_hours", r->budget_hours);
	lf_setnum(L, "cost_dollars", r->cost);
	lf_setnum(L, "blind_cost_dollars", r->blind);
	if (r->has_saving)
		lf_setnum(L, "saving_dollars", r->saving);
	lf_setnum(L, "served_mwh", r->served);
	lf_setnum(L, "unserved_mwh", r->unserved);
	lf_setnum(L, "extra_headroom_mw", r->flex);
	lf_setint(L, "curtailed_hours", r->curtailed_hours);
}

/* causal_seeds(config, opts, seeds[, variant]) -> the causal results over
 * the config's generated prices for seeds 0..seeds-1, run on threads. */
int l_model_power_causal_seeds(lua_State *L)
{
	struct pw_fleet_config c;
	struct pw_causal_opts o;
	struct pw_causal *r;
	struct diag err;
	lua_Integer seeds = luaL_checkinteger(L, 3), s;
	unsigned variant;

	read_fleet(L, "causal_seeds", 1, &c);
	read_causal_opts(L, "causal_seeds", 2, &o);
	variant = lm_variant_bits(L, 4, "power", pw_switches, PW_NSWITCHES);
	if (seeds < 1 || seeds > 1000)
		return luaL_error(L, "bad argument to 'power.causal_seeds': seeds must be 1..1000");
	r = lua_newuserdatauv(L, (size_t)seeds * sizeof *r, 0);
	diag_init(&err);
	if (pw_causal_seeds(&c, &o, variant, (size_t)seeds, r, &err) < 0)
		return luaL_error(L, "power.causal_seeds: %s", err.msg);
	lua_createtable(L, (int)seeds, 0);
	for (s = 0; s < seeds; s++) {
		push_causal(L, &r[s]);
		lua_rawseti(L, -2, s + 1);
	}
	return 1;
}

/* causal(prices, opts[, variant]) -> result (with actions when opts.actions) */
int l_model_power_causal(lua_State *L)
{
	struct pw_causal_opts o;
	struct pw_action *act = NULL;
	struct pw_causal r;
	struct diag err;
	unsigned variant;
	size_t n, i;
	double *p;
	int want;

	read_causal_opts(L, "causal", 2, &o);
	want = lf_rawfield(L, 2, "actions") == LUA_TBOOLEAN && lua_toboolean(L, -1);
	lua_pop(L, 1);
	variant = lm_variant_bits(L, 3, "power", pw_switches, PW_NSWITCHES);
	p = read_prices(L, "causal", 1, 0, 1e6, PW_MAX_PRICES, &n);
	if (want)
		act = lua_newuserdatauv(L, n * sizeof *act, 0);
	diag_init(&err);
	if (pw_causal(p, n, &o, variant, act, &r, &err) < 0)
		return luaL_error(L, "power.causal: %s", err.msg);
	push_causal(L, &r);
	if (want) {
		lua_createtable(L, (int)n, 0);
		for (i = 0; i < n; i++) {
			lua_createtable(L, 0, 5);
			lf_setint(L, "hour", (long long)i);
			lf_setnum(L, "price", p[i]);
			lf_setnum(L, "draw_mw", act[i].draw_mw);
			lf_setnum(L, "backlog_mwh", act[i].backlog_mwh);
			lf_setbool(L, "curtailed", act[i].curtailed);
			lua_rawseti(L, -2, (lua_Integer)i + 1);
		}
		lua_setfield(L, -2, "actions");
	}
	return 1;
}

/* ---- the span ledger ---------------------------------------------------------------------- */

static void read_span_job(lua_State *L, const char *fn, int t, struct pw_span_job *j)
{
	luaL_checktype(L, t, LUA_TTABLE);
	j->params_b = num(L, fn, t, "params_b", 0, 1, 1e6);
	j->gpus_needed = (long)integer(L, fn, t, "gpus_needed", 1, 10000000);
	j->hours_at_full = num(L, fn, t, "hours_at_full", 0, 1, 87600);
	j->step_time_s = num(L, fn, t, "step_time_s", 0, 1, 86400);
	j->kw_per_gpu = num(L, fn, t, "kw_per_gpu", 0, 1, 100);
	j->dollars_per_gpu_h = num(L, fn, t, "dollars_per_gpu_h", 0, 1, 10000);
	j->deadline_h = NAN;
	if (lf_rawfield(L, t, "deadline_h") != LUA_TNIL) {
		lua_pop(L, 1);
		j->deadline_h = num(L, fn, t, "deadline_h", 0, 1, 1e7);
	} else {
		lua_pop(L, 1);
	}
	j->wan_gbps = num(L, fn, t, "wan_gbps", 0, 1, 1e9);
	j->reload_h = num(L, fn, t, "reload_h", 0, 0, 1000);
	j->egress_per_gb = num(L, fn, t, "egress_per_gb", 0, 0, 1000);
}

static void read_hall(lua_State *L, const char *fn, int t, struct pw_hall *h)
{
	luaL_checktype(L, t, LUA_TTABLE);
	h->free_gpus = (long)integer(L, fn, t, "free_gpus", 0, 10000000);
	h->price_mwh = num(L, fn, t, "price_mwh", -1e6, 0, 1e6);
	h->spike_price_mwh = num(L, fn, t, "spike_price_mwh", -1e6, 0, 1e6);
	h->spike_hours_per_week = num(L, fn, t, "spike_hours_per_week", 0, 0, 168);
}

static void read_circuit(lua_State *L, const char *fn, int t, struct pw_circuit *c)
{
	luaL_checktype(L, t, LUA_TTABLE);
	c->rtt_ms = num(L, fn, t, "rtt_ms", 0, 0, 1e4);
	c->gbps = num(L, fn, t, "gbps", 0, 1, 1e9);
	c->hold_dollars_per_h = num(L, fn, t, "hold_dollars_per_h", 0, 0, 1e7);
}

/* stitch_tax(job, circuit, cut[, variant]); cut = {gb_per_step, crossings} */
int l_model_power_stitch_tax(lua_State *L)
{
	struct pw_span_job j = { 0 };
	struct pw_circuit c = { 0 };
	struct pw_cut cut = { PW_CUT_PIPELINE, 0, 0 };

	luaL_checktype(L, 1, LUA_TTABLE);
	j.params_b = num(L, "stitch_tax", 1, "params_b", 0, 1, 1e6);
	j.step_time_s = num(L, "stitch_tax", 1, "step_time_s", 0, 1, 86400);
	luaL_checktype(L, 2, LUA_TTABLE);
	c.rtt_ms = num(L, "stitch_tax", 2, "rtt_ms", 0, 0, 1e4);
	c.gbps = num(L, "stitch_tax", 2, "gbps", 0, 1, 1e9);
	luaL_checktype(L, 3, LUA_TTABLE);
	cut.gb_per_step = num(L, "stitch_tax", 3, "gb_per_step", 0, 0, 1e7);
	cut.crossings = num(L, "stitch_tax", 3, "crossings", 0, 0, 1e3);
	lua_pushnumber(L, pw_stitch_tax(&j, &c, &cut, lm_variant_bits(L, 4, "power", pw_switches, PW_NSWITCHES)));
	return 1;
}

int l_model_power_hall_price(lua_State *L)
{
	struct pw_hall h;

	luaL_checktype(L, 1, LUA_TTABLE);
	h.free_gpus = 0;
	h.price_mwh = num(L, "hall_price", 1, "price_mwh", -1e6, 0, 1e6);
	h.spike_price_mwh = num(L, "hall_price", 1, "spike_price_mwh", -1e6, 0, 1e6);
	h.spike_hours_per_week = num(L, "hall_price", 1, "spike_hours_per_week", 0, 0, 168);
	lua_createtable(L, 0, 2);
	lf_setnum(L, "spike_fraction", pw_hall_spike_fraction(&h));
	lf_setnum(L, "expected_price_mwh", pw_hall_price(&h));
	return 1;
}

static void push_option(lua_State *L, const struct pw_option_row *o, int i)
{
	lua_createtable(L, 0, 10);
	lua_pushstring(L, pw_option_names[i]);
	lua_setfield(L, -2, "option");
	lf_setbool(L, "feasible", o->feasible);
	if (o->feasible) {
		lf_setnum(L, "dollars", o->r_dollars);
		lf_setnum(L, "duration_h", o->r_duration_h);
		lf_setnum(L, "dollars_per_useful_gpu_h", o->r_per_useful);
	}
	lf_setbool(L, "reference", i == PW_BUY);
	if (o->reason != PW_R_NONE) {
		lua_pushstring(L, pw_reason_names[o->reason]);
		lua_setfield(L, -2, "reason");
	}
	lf_setint(L, "home_gpus", o->home_gpus);
	lf_setint(L, "away_gpus", o->away_gpus);
	if (o->priced) {
		lua_createtable(L, 0, 3);
		lf_setnum(L, "dollars", o->dollars);
		lf_setnum(L, "duration_h", o->duration_h);
		lf_setnum(L, "dollars_per_useful_gpu_h", o->r_per_useful);
		lua_setfield(L, -2, "unrounded");
	}
	lua_rawseti(L, -2, i + 1);
}

/* ledger(scenario[, variant]): scenario = {job, home, away, circuit, cut,
 * activation_gb_per_step}, every field resolved. */
int l_model_power_ledger(lua_State *L)
{
	static const char *const cuts[] = { "pipeline", "allreduce", NULL };
	struct pw_span_job j;
	struct pw_hall home, away;
	struct pw_circuit c;
	struct pw_ledger l;
	enum pw_cut_kind cut;
	double act;
	unsigned variant;
	int i;

	luaL_checktype(L, 1, LUA_TTABLE);
	variant = lm_variant_bits(L, 2, "power", pw_switches, PW_NSWITCHES);
	read_span_job(L, "ledger", subtable(L, "ledger", 1, "job"), &j);
	read_hall(L, "ledger", subtable(L, "ledger", 1, "home"), &home);
	read_hall(L, "ledger", subtable(L, "ledger", 1, "away"), &away);
	read_circuit(L, "ledger", subtable(L, "ledger", 1, "circuit"), &c);
	if (lf_rawfield(L, 1, "cut") != LUA_TSTRING)
		return luaL_error(L, "bad argument to 'power.ledger': cut must be a string");
	cut = (enum pw_cut_kind)luaL_checkoption(L, -1, NULL, cuts);
	act = num(L, "ledger", 1, "activation_gb_per_step", 0, 0, 1e6);
	pw_ledger(&j, &home, &away, &c, cut, act, variant, &l);
	lua_createtable(L, 0, 10);
	lf_setnum(L, "stitch_tax", l.tax);
	lf_setnum(L, "useful_gpu_h", l.useful_gpu_h);
	lf_setnum(L, "migration_downtime_h", l.downtime_h);
	lf_setnum(L, "migration_cost_dollars", l.migration_cost);
	lf_setint(L, "capacity_deficit_gpus", l.deficit);
	{
		struct pw_cut c2;

		pw_cut_of(&j, cut, act, variant, &c2);
		lf_setnum(L, "cut_gb_per_step", c2.gb_per_step);
		lf_setint(L, "cut_crossings", (long long)c2.crossings);
	}
	lf_setnum(L, "home_expected_price_mwh", pw_hall_price(&home));
	lf_setnum(L, "away_expected_price_mwh", pw_hall_price(&away));
	lua_pushstring(L, l.decision < 0 ? "escalate" : pw_option_names[l.decision]);
	lua_setfield(L, -2, "decision");
	lf_setbool(L, "deadline_rounding", l.deadline_rounding);
	lua_createtable(L, PW_NOPTIONS, 0);
	for (i = 0; i < PW_NOPTIONS; i++)
		push_option(L, &l.opt[i], i);
	lua_setfield(L, -2, "options");
	return 1;
}

int l_model_power_mean_exact(lua_State *L)
{
	size_t n;
	double *x = read_prices(L, "mean_exact", 1, -HUGE_VAL, HUGE_VAL, 100000000, &n);

	lua_pushnumber(L, exact_mean(x, n));
	return 1;
}
