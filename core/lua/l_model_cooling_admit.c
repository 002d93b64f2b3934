/*
 * l_model_cooling_admit.c: the Lua converter of models.cooling.admit. The
 * plan arrives as plain lists (the document order matters, spec/cooling.md
 * 5.5), ids are resolved to indices here and every number is checked, so a
 * caller that skipped the schema still gets a Lua error, never a wrong
 * index or a NaN inside the model. All buffers sit in one userdata.
 */
#include <lauxlib.h>
#include <lua.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/lua/l_fields.h"
#include "core/lua/l_models.h"
#include "core/models/cooling.h"

#define MAX_ITEMS 1000000u
#define INT_EXACT 9007199254740992.0 /* 2^53 */

static const char *const rule_ids[] = {
	[COOLING_R_RUNG_CEILING] = "cooling.rung-ceiling",
	[COOLING_R_RIDE_THROUGH] = "cooling.ride-through",
	[COOLING_R_HALL_HEADROOM] = "cooling.hall-headroom",
	[COOLING_R_FEEDER_CEILING] = "cooling.feeder-ceiling",
	[COOLING_R_FEEDER_STEP] = "cooling.feeder-step",
	[COOLING_R_STAGGER] = "cooling.stagger",
};

static const char *const outcome_names[] = {
	[COOLING_O_NONE] = NULL, [COOLING_O_FITS] = "fits", [COOLING_O_CEILING] = "ceiling",
	[COOLING_O_ALONE_STEP] = "alone-step", [COOLING_O_STAGGER] = "stagger",
};

static const char *const verdict_names[] = { "ADMIT", "STAGGER", "DENY" };

static int fail(lua_State *L, const char *what, size_t i, const char *why)
{
	return luaL_error(L, "bad argument to 'cooling.admit': %s %d %s", what, (int)i + 1, why);
}

static const char *id_field(lua_State *L, int t, const char *k, const char *what, size_t i,
			    size_t *len)
{
	const char *s;

	if (lf_rawfield(L, t, k) != LUA_TSTRING)
		fail(L, what, i, "needs a string id");
	s = lua_tolstring(L, -1, len);
	lua_pop(L, 1);
	if (*len == 0)
		fail(L, what, i, "has an empty id");
	return s;
}

static int name_field(lua_State *L, int t, const char *k, const struct cooling_model *m,
		      int (*find)(const struct cooling_model *, const char *), const char *what,
		      size_t i, const char *dflt)
{
	const char *s = dflt;
	int idx;

	if (lf_rawfield(L, t, k) == LUA_TSTRING)
		s = lua_tostring(L, -1);
	else if (!lua_isnil(L, -1) || !dflt)
		fail(L, what, i, "has a name that is not a string");
	idx = find(m, s);
	lua_pop(L, 1);
	if (idx < 0)
		fail(L, what, i, "names an unknown rung, climate or water mode");
	return idx;
}

/* A number >= lo (or > lo when open); 'dflt' when absent and not NaN. */
static double num_field(lua_State *L, int t, const char *k, const char *what, size_t i,
			double lo, int open, double hi, double dflt)
{
	double v;

	if (lf_rawfield(L, t, k) == LUA_TNIL && !isnan(dflt)) {
		lua_pop(L, 1);
		return dflt;
	}
	if (lua_type(L, -1) != LUA_TNUMBER)
		fail(L, what, i, "needs a number");
	v = lua_tonumber(L, -1);
	lua_pop(L, 1);
	if (!isfinite(v) || (open ? !(v > lo) : !(v >= lo)) || v > hi)
		luaL_error(L, "bad argument to 'cooling.admit': %s %d: '%s' is out of range", what,
			   (int)i + 1, k);
	return v;
}

static size_t list_len(lua_State *L, int t, const char *k, int required)
{
	size_t n;

	if (lf_rawfield(L, t, k) != LUA_TTABLE) {
		if (!required && lua_isnil(L, -1)) {
			lua_pop(L, 1);
			return 0;
		}
		luaL_error(L, "bad argument to 'cooling.admit': '%s' must be a list", k);
	}
	n = (size_t)lua_rawlen(L, -1);
	lua_pop(L, 1);
	if (n > MAX_ITEMS)
		lf_error(L, "bad argument to 'cooling.admit': '%s' has over %u items", k,
			 MAX_ITEMS);
	return n;
}

/* Ids sorted for lookups by bisection: plans may hold many halls. */
struct ids {
	const char *s;
	size_t len;
	int index;
};

static int ids_cmp(const void *x, const void *y)
{
	const struct ids *a = x, *b = y;

	return cooling_id_cmp(a->s, a->len, b->s, b->len);
}

/* Sort; returns the position of a repeated id, or -1. */
static int ids_sort(struct ids *v, size_t n)
{
	size_t i;

	qsort(v, n, sizeof *v, ids_cmp);
	for (i = 1; i < n; i++)
		if (ids_cmp(&v[i - 1], &v[i]) == 0)
			return v[i].index > v[i - 1].index ? v[i].index : v[i - 1].index;
	return -1;
}

static int find_id(const struct ids *v, size_t n, const char *s, size_t len)
{
	struct ids key = { s, len, 0 };
	const struct ids *hit = n ? bsearch(&key, v, n, sizeof *v, ids_cmp) : NULL;

	return hit ? hit->index : -1;
}

/* Everything the model reads and writes, in one userdata. */
struct arena {
	unsigned char *p;
	size_t used;
};

static void *take(struct arena *a, size_t n, size_t size)
{
	void *r = a->p + a->used;

	a->used += (n * size + 15u) & ~(size_t)15u;
	return r;
}

static size_t need_of(size_t n, size_t size)
{
	return (n * size + 15u) & ~(size_t)15u;
}

struct conv {
	struct cooling_hall *halls;
	struct cooling_feeder *feeders;
	struct cooling_start *start;
	struct ids *hall_feeder; /* the feeder id each hall names */
	struct cooling_plan plan;
	struct cooling_admission res;
};

static void read_feeders(lua_State *L, struct conv *c, int list)
{
	size_t i;

	for (i = 0; i < c->plan.nfeeders; i++) {
		struct cooling_feeder *f = &c->feeders[i];
		int t;

		if (lua_rawgeti(L, list, (lua_Integer)i + 1) != LUA_TTABLE)
			fail(L, "feeder", i, "is not a table");
		t = lua_gettop(L);
		f->id = id_field(L, t, "id", "feeder", i, &f->idlen);
		f->limit_mw = num_field(L, t, "limit_mw", "feeder", i, 0, 1, HUGE_VAL, NAN);
		f->max_step_mw = num_field(L, t, "max_step_mw", "feeder", i, 0, 1, HUGE_VAL, NAN);
		f->tenant_mw = 0.0;
		f->has_tenant = 0;
		lua_pop(L, 1);
	}
}

static void read_tenants(lua_State *L, struct conv *c, struct ids *fids, int list, size_t n)
{
	size_t i, len;

	for (i = 0; i < n; i++) {
		const char *id;
		double mw;
		int t, f;

		if (lua_rawgeti(L, list, (lua_Integer)i + 1) != LUA_TTABLE)
			fail(L, "tenant load", i, "is not a table");
		t = lua_gettop(L);
		id = id_field(L, t, "id", "tenant load", i, &len);
		mw = num_field(L, t, "mw", "tenant load", i, 0, 0, HUGE_VAL, NAN);
		lua_pop(L, 1);
		/* An unknown feeder's load is ignored, as the reference does
		 * (cooling.strict.unknown-tenant-feeder reports it). */
		f = find_id(fids, c->plan.nfeeders, id, len);
		if (f >= 0) {
			c->feeders[f].tenant_mw = mw;
			c->feeders[f].has_tenant = 1;
		}
	}
}

static void read_halls(lua_State *L, const struct cooling_model *m, struct conv *c,
		       struct ids *fids, int list)
{
	size_t i, len;

	for (i = 0; i < c->plan.nhalls; i++) {
		struct cooling_hall *h = &c->halls[i];
		const char *fid;
		int t;

		if (lua_rawgeti(L, list, (lua_Integer)i + 1) != LUA_TTABLE)
			fail(L, "hall", i, "is not a table");
		t = lua_gettop(L);
		h->id = id_field(L, t, "id", "hall", i, &h->idlen);
		fid = id_field(L, t, "feeder", "hall", i, &len);
		h->feeder = find_id(fids, c->plan.nfeeders, fid, len);
		if (h->feeder < 0)
			fail(L, "hall", i, "names a feeder that is not in the plan");
		h->rung = name_field(L, t, "rung", m, cooling_rung_index, "hall", i, NULL);
		h->climate = name_field(L, t, "climate", m, cooling_climate_index, "hall", i,
					"temperate");
		h->mode = name_field(L, t, "water_mode", m, cooling_mode_index, "hall", i,
				     "evaporative");
		h->kw = num_field(L, t, "kw_per_rack", "hall", i, 0, 1, HUGE_VAL, NAN);
		h->racks_running = num_field(L, t, "racks_running", "hall", i, 0, 0, INT_EXACT, 0.0);
		if (h->racks_running != floor(h->racks_running))
			fail(L, "hall", i, "has a fractional racks_running");
		h->feed_mw = num_field(L, t, "feed_mw", "hall", i, 0, 1, HUGE_VAL, NAN);
		lua_pop(L, 1);
	}
}

static void read_start(lua_State *L, struct conv *c, struct ids *hids, int list,
		       unsigned char *seen)
{
	size_t i, len;

	for (i = 0; i < c->plan.nstart; i++) {
		struct cooling_start *s = &c->start[i];
		const char *id;
		int t;

		if (lua_rawgeti(L, list, (lua_Integer)i + 1) != LUA_TTABLE)
			fail(L, "start item", i, "is not a table");
		t = lua_gettop(L);
		id = id_field(L, t, "hall", "start item", i, &len);
		s->hall = find_id(hids, c->plan.nhalls, id, len);
		if (s->hall < 0)
			fail(L, "start item", i, "names a hall that is not in the plan");
		if (seen[s->hall]++)
			fail(L, "start item", i, "names a hall twice");
		s->racks = num_field(L, t, "racks", "start item", i, 1, 0, INT_EXACT, NAN);
		if (s->racks != floor(s->racks))
			fail(L, "start item", i, "has a fractional racks count");
		lua_pop(L, 1);
	}
}

static void set_id(lua_State *L, const char *k, const char *s, size_t len)
{
	lua_pushlstring(L, s, len);
	lua_setfield(L, -2, k);
}

static void push_reason(lua_State *L, const struct conv *c, const struct cooling_reason *r)
{
	lua_createtable(L, 0, 8);
	lua_pushstring(L, rule_ids[r->rule]);
	lua_setfield(L, -2, "rule");
	if (r->hall >= 0) {
		set_id(L, "hall", c->halls[r->hall].id, c->halls[r->hall].idlen);
		lua_pushinteger(L, r->hall + 1);
		lua_setfield(L, -2, "hall_index");
	}
	if (r->feeder >= 0) {
		set_id(L, "feeder", c->feeders[r->feeder].id, c->feeders[r->feeder].idlen);
		lua_pushinteger(L, r->feeder + 1);
		lua_setfield(L, -2, "feeder_index");
	}
	switch (r->rule) {
	case COOLING_R_RUNG_CEILING:
		lf_setnum(L, "kw_per_rack", r->a);
		lf_setnum(L, "max_kw_per_rack", r->b);
		break;
	case COOLING_R_RIDE_THROUGH:
		lf_setnum(L, "held_s", r->a);
		lf_setnum(L, "need_s", r->b);
		lf_setnum(L, "kw_per_rack", r->c);
		break;
	case COOLING_R_HALL_HEADROOM:
		lf_setnum(L, "step_mw", r->a);
		lf_setnum(L, "headroom_mw", r->b);
		break;
	case COOLING_R_FEEDER_CEILING:
		lf_setnum(L, "carried_mw", r->a);
		lf_setnum(L, "step_mw", r->b);
		lf_setnum(L, "limit_mw", r->c);
		break;
	case COOLING_R_FEEDER_STEP:
		lf_setnum(L, "step_mw", r->a);
		lf_setnum(L, "feeder_step_mw", r->b);
		lf_setnum(L, "max_step_mw", r->c);
		break;
	case COOLING_R_STAGGER:
		lua_pushinteger(L, (lua_Integer)r->count);
		lua_setfield(L, -2, "halls");
		lf_setnum(L, "step_mw", r->a);
		lf_setnum(L, "max_step_mw", r->b);
		break;
	}
}

static void push_result(lua_State *L, const struct conv *c)
{
	const struct cooling_plan *p = &c->plan;
	const struct cooling_admission *a = &c->res;
	size_t i, k;

	lua_createtable(L, 0, 7);
	lua_pushstring(L, verdict_names[a->verdict]);
	lua_setfield(L, -2, "verdict");
	lf_setnum(L, "total_step_mw", a->total_step_mw);
	lua_createtable(L, (int)a->nreasons, 0);
	for (i = 0; i < a->nreasons; i++) {
		push_reason(L, c, &a->reasons[i]);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	lua_setfield(L, -2, "reasons");
	lua_createtable(L, (int)p->nstart, 0);
	for (i = 0; i < p->nstart; i++) {
		int hi = p->start[a->by_id[i]].hall;
		const struct cooling_hall *h = &p->halls[hi];

		lua_createtable(L, 0, 5);
		set_id(L, "hall", h->id, h->idlen);
		set_id(L, "feeder", p->feeders[h->feeder].id, p->feeders[h->feeder].idlen);
		lua_pushinteger(L, (lua_Integer)p->start[a->by_id[i]].racks);
		lua_setfield(L, -2, "racks");
		lf_setnum(L, "step_mw", a->halls[hi].step_mw);
		lua_pushinteger(L, hi + 1);
		lua_setfield(L, -2, "hall_index");
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	lua_setfield(L, -2, "steps");
	lua_createtable(L, (int)a->nstagger, 0);
	for (i = 0; i < a->nstagger; i++) {
		lua_pushlstring(L, p->halls[a->stagger[i]].id, p->halls[a->stagger[i]].idlen);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	lua_setfield(L, -2, "stagger_order");
	lua_createtable(L, (int)p->nhalls, 0);
	for (i = 0; i < p->nhalls; i++) {
		const struct cooling_hall_out *o = &a->halls[i];

		lua_createtable(L, 0, 6);
		lf_setnum(L, "pue", o->pue);
		if (!isnan(o->ride_through_s))
			lf_setnum(L, "ride_through_s", o->ride_through_s);
		lf_setnum(L, "running_mw", o->running_mw);
		lf_setnum(L, "headroom_mw", o->headroom_mw);
		lua_pushinteger(L, (lua_Integer)o->start_racks);
		lua_setfield(L, -2, "start_racks");
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	lua_setfield(L, -2, "halls");
	lua_createtable(L, (int)p->nfeeders, 0);
	for (i = 0; i < p->nfeeders; i++) {
		const struct cooling_feeder_out *o = &a->feeders[i];

		lua_createtable(L, 0, 9);
		lf_setnum(L, "tenant_mw", p->feeders[i].tenant_mw);
		lf_setnum(L, "carried_mw", o->carried_mw);
		lf_setnum(L, "start_step_mw", o->start_step_mw);
		if (outcome_names[o->outcome]) {
			lua_pushstring(L, outcome_names[o->outcome]);
			lua_setfield(L, -2, "outcome");
		}
		lua_pushboolean(L, o->checked);
		lua_setfield(L, -2, "checked");
		if (o->biggest >= 0) {
			set_id(L, "biggest_hall", p->halls[o->biggest].id, p->halls[o->biggest].idlen);
			lf_setnum(L, "biggest_mw", o->biggest_mw);
		}
		lua_pushinteger(L, (lua_Integer)o->start_halls);
		lua_setfield(L, -2, "start_count");
		lua_createtable(L, (int)o->start_halls, 0);
		for (k = (size_t)a->start_off[i]; k < (size_t)a->start_off[i + 1]; k++) {
			const struct cooling_hall *h = &p->halls[p->start[a->start_group[k]].hall];

			lua_pushlstring(L, h->id, h->idlen);
			lua_rawseti(L, -2, (lua_Integer)(k - (size_t)a->start_off[i]) + 1);
		}
		lua_setfield(L, -2, "start_halls");
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	lua_setfield(L, -2, "feeders");
}

static unsigned variant_bits(lua_State *L)
{
	unsigned bits = 0;
	int i, found;

	if (lua_isnoneornil(L, 2))
		return 0;
	luaL_checktype(L, 2, LUA_TTABLE);
	lua_pushnil(L);
	while (lua_next(L, 2)) {
		found = 0;
		for (i = 0; i < COOLING_SW_COUNT; i++)
			if (lua_type(L, -2) == LUA_TSTRING &&
			    strcmp(cooling_switch_names[i], lua_tostring(L, -2)) == 0) {
				found = 1;
				if (lua_toboolean(L, -1))
					bits |= 1u << i;
			}
		if (!found)
			luaL_error(L, "model 'cooling.admit' has no such switch");
		lua_pop(L, 1);
	}
	return bits;
}

int l_model_cooling_admit(lua_State *L)
{
	struct cooling_model m;
	struct conv c;
	struct arena ar;
	struct ids *fids, *hids;
	size_t nh, nf, nt, ns, total, i;
	int tf, th, tt, ts, dup;
	unsigned char *seen;
	const char *why = NULL;

	luaL_checktype(L, 1, LUA_TTABLE);
	cooling_model_init(&m, variant_bits(L));
	lua_settop(L, 1);
	nh = list_len(L, 1, "halls", 1);
	nf = list_len(L, 1, "feeders", 1);
	nt = list_len(L, 1, "running_mw", 0);
	if (lf_rawfield(L, 1, "start") != LUA_TTABLE)
		return luaL_error(L, "bad argument to 'cooling.admit': 'start' must be a table");
	ts = lua_gettop(L);
	ns = list_len(L, ts, "racks", 1);
	if (nh == 0 || nf == 0 || ns == 0)
		return luaL_error(L, "bad argument to 'cooling.admit': a plan needs halls, "
				  "feeders and start racks");
	memset(&c, 0, sizeof c);
	c.plan.nhalls = nh;
	c.plan.nfeeders = nf;
	c.plan.nstart = ns;
	total = need_of(nh, sizeof *c.halls) + need_of(nf, sizeof *c.feeders) +
		need_of(ns, sizeof *c.start) + need_of(nf, sizeof *fids) +
		need_of(nh, sizeof *hids) +
		need_of(cooling_admission_max_reasons(&c.plan), sizeof *c.res.reasons) +
		2 * need_of(ns, sizeof(int)) + need_of(nh, sizeof *c.res.halls) +
		need_of(nf, sizeof *c.res.feeders) + need_of(ns + 2 * nf, sizeof(int)) +
		need_of(nh, sizeof(int)) + need_of(ns, sizeof(int)) + 2 * need_of(nf + 1, sizeof(int)) +
		need_of(nh + ns, sizeof(double)) + need_of(nh, 1);
	ar.p = lua_newuserdatauv(L, total, 0);
	ar.used = 0;
	c.halls = take(&ar, nh, sizeof *c.halls);
	c.feeders = take(&ar, nf, sizeof *c.feeders);
	c.start = take(&ar, ns, sizeof *c.start);
	fids = take(&ar, nf, sizeof *fids);
	hids = take(&ar, nh, sizeof *hids);
	c.res.reasons = take(&ar, cooling_admission_max_reasons(&c.plan), sizeof *c.res.reasons);
	c.res.by_id = take(&ar, ns, sizeof(int));
	c.res.stagger = take(&ar, ns, sizeof(int));
	c.res.halls = take(&ar, nh, sizeof *c.res.halls);
	c.res.feeders = take(&ar, nf, sizeof *c.res.feeders);
	c.res.scratch = take(&ar, ns + 2 * nf, sizeof(int));
	c.res.hall_group = take(&ar, nh, sizeof(int));
	c.res.hall_off = take(&ar, nf + 1, sizeof(int));
	c.res.start_group = take(&ar, ns, sizeof(int));
	c.res.start_off = take(&ar, nf + 1, sizeof(int));
	c.res.sums = take(&ar, nh + ns, sizeof(double));
	seen = take(&ar, nh, 1);
	memset(seen, 0, nh);
	c.plan.halls = c.halls;
	c.plan.feeders = c.feeders;
	c.plan.start = c.start;

	lf_rawfield(L, 1, "feeders");
	tf = lua_gettop(L);
	read_feeders(L, &c, tf);
	for (i = 0; i < nf; i++) {
		fids[i].s = c.feeders[i].id;
		fids[i].len = c.feeders[i].idlen;
		fids[i].index = (int)i;
	}
	dup = ids_sort(fids, nf);
	if (dup >= 0)
		fail(L, "feeder", (size_t)dup, "repeats an id");
	if (nt) {
		lf_rawfield(L, 1, "running_mw");
		tt = lua_gettop(L);
		read_tenants(L, &c, fids, tt, nt);
	}
	lf_rawfield(L, 1, "halls");
	th = lua_gettop(L);
	read_halls(L, &m, &c, fids, th);
	for (i = 0; i < nh; i++) {
		hids[i].s = c.halls[i].id;
		hids[i].len = c.halls[i].idlen;
		hids[i].index = (int)i;
	}
	dup = ids_sort(hids, nh);
	if (dup >= 0)
		fail(L, "hall", (size_t)dup, "repeats an id");
	lf_rawfield(L, ts, "racks");
	read_start(L, &c, hids, lua_gettop(L), seen);
	c.plan.need_s = 0.0;
	if (lf_rawfield(L, ts, "need_s") != LUA_TNIL) {
		if (lua_type(L, -1) != LUA_TNUMBER || !isfinite(lua_tonumber(L, -1)) ||
		    !(lua_tonumber(L, -1) >= 0.0))
			return luaL_error(L, "bad argument to 'cooling.admit': start.need_s must be "
					  "a finite number >= 0");
		c.plan.need_s = lua_tonumber(L, -1);
	}
	if (cooling_admit(&m, &c.plan, &c.res, &why) < 0)
		return luaL_error(L, "cooling.admit: %s", why);
	push_result(L, &c);
	return 1;
}
