/*
 * l_models.c: the one generic binding of numeric models (STYLE.md 3.1).
 * Each descriptor of core/models/models.def becomes models.<group>.<name>,
 * called with positional numbers or one table of named arguments, plus an
 * optional last `variant` table of switches (validation mutations only).
 * Arguments are checked against the descriptor's domain before the model
 * runs, so no model checks its own, and results are never NaN or infinite.
 */
#include "core/lua/sb_internal.h"

#include <math.h>
#include <string.h>

#include "core/lua/l_models.h"
#include "core/models/model.h"

static const struct model *model_up(lua_State *L)
{
	return lua_touserdata(L, lua_upvalueindex(1));
}

unsigned lm_variant_bits(lua_State *L, int idx, const char *owner,
			 const char *const *names, size_t n)
{
	unsigned bits = 0;
	size_t i;

	if (idx == 0 || lua_isnoneornil(L, idx))
		return 0;
	luaL_checktype(L, idx, LUA_TTABLE);
	lua_pushnil(L);
	while (lua_next(L, idx)) {
		int found = 0;

		if (lua_type(L, -2) != LUA_TSTRING)
			luaL_error(L, "variant of '%s': switch names are strings", owner);
		for (i = 0; i < n; i++)
			if (strcmp(names[i], lua_tostring(L, -2)) == 0) {
				found = 1;
				if (lua_toboolean(L, -1))
					bits |= 1u << i;
			}
		if (!found)
			luaL_error(L, "model '%s' has no switch '%s'", owner,
				   lua_tostring(L, -2));
		lua_pop(L, 1);
	}
	return bits;
}

static int l_model_call(lua_State *L)
{
	const struct model *m = model_up(L);
	double in[MODEL_MAX_ARGS], out[MODEL_MAX_OUTS];
	int named = lua_istable(L, 1) && m->nargs > 0;
	int top = lua_gettop(L), vidx = 0;
	unsigned variant = 0;
	struct diag err;
	size_t i;

	if (!named && top == (int)m->nargs + 1 && lua_istable(L, top))
		vidx = top;
	if (named && top == 2 && lua_istable(L, 2))
		vidx = 2;
	if (vidx)
		variant = lm_variant_bits(L, vidx, m->name, m->switches, m->nswitches);
	for (i = 0; i < m->nargs; i++) {
		const struct model_arg *a = &m->args[i];
		int t;

		if (named) {
			lua_getfield(L, 1, a->name);
			t = lua_gettop(L);
		} else {
			t = (int)i + 1;
		}
		if (lua_isnoneornil(L, t)) {
			if (isnan(a->dflt))
				return luaL_error(L, "bad argument '%s' to '%s' (a number is required)",
						  a->name, m->name);
			in[i] = a->dflt;
		} else if (lua_type(L, t) != LUA_TNUMBER) {
			return luaL_error(L, "bad argument '%s' to '%s' (number expected, got %s)",
					  a->name, m->name, luaL_typename(L, t));
		} else {
			in[i] = lua_tonumber(L, t);
			diag_init(&err);
			if (model_check_arg(a, in[i], &err) < 0)
				return luaL_error(L, "bad argument '%s' to '%s' (%s)", a->name,
						  m->name, err.msg);
		}
		if (named)
			lua_pop(L, 1);
	}
	if (!named && top > (int)m->nargs + (vidx ? 1 : 0))
		return luaL_error(L, "'%s' takes %d arguments, got %d", m->name,
				  (int)m->nargs, top);
	diag_init(&err);
	if (m->eval(in, out, variant, &err) < 0)
		return luaL_error(L, "%s: %s", m->name, err.msg);
	for (i = 0; i < m->nout; i++)
		if (!isfinite(out[i]))
			return luaL_error(L, "%s: the result is not finite", m->name);
	if (m->nout <= 1 || !m->outs) {
		lua_pushnumber(L, out[0]);
		return 1;
	}
	lua_createtable(L, 0, (int)m->nout);
	for (i = 0; i < m->nout; i++) {
		lua_pushnumber(L, out[i]);
		lua_setfield(L, -2, m->outs[i]);
	}
	return 1;
}

struct table_model {
	const char *name;
	lua_CFunction fn;
};

static const struct table_model table_models[] = {
#define MODEL(n)
#define MODEL_TABLE(n) { #n, l_model_##n },
#include "core/models/models.def"
#undef MODEL
#undef MODEL_TABLE
	{ NULL, NULL }
};

/* The converter of a table model by its descriptor name ("group.name" ->
 * "group_name"). */
static lua_CFunction table_converter(const char *name)
{
	const struct table_model *t;
	char id[128];
	size_t i;

	for (i = 0; name[i] && i + 1 < sizeof id; i++)
		id[i] = name[i] == '.' ? '_' : name[i];
	id[i] = '\0';
	for (t = table_models; t->name; t++)
		if (strcmp(t->name, id) == 0)
			return t->fn;
	return NULL;
}

/* models.<group> on first use: the table of the group's models, each a
 * closure over its descriptor, stored in the models table so the next
 * lookup finds it. A pack reaches only the groups it names, so a run never
 * builds closures for the other packs' models. An unknown group is nil. */
static int l_models_group(lua_State *L)
{
	size_t len, i;
	const char *group = lua_tolstring(L, 2, &len);
	int made = 0;

	if (!group)
		return 0;
	for (i = 0; i < models_count; i++) {
		const struct model *m = models_all[i];
		lua_CFunction conv = NULL;

		if (strncmp(m->name, group, len) != 0 || m->name[len] != '.')
			continue;
		if (!made) {
			lua_newtable(L);
			made = 1;
		}
		if (m->table_input)
			conv = table_converter(m->name);
		lua_pushlightuserdata(L, (void *)(uintptr_t)m);
		lua_pushcclosure(L, conv ? conv : l_model_call, 1);
		lua_setfield(L, -2, m->name + len + 1);
	}
	if (!made)
		return 0;
	lua_pushvalue(L, 2);
	lua_pushvalue(L, -2);
	lua_rawset(L, 1);
	return 1;
}

void sb_push_models(lua_State *L)
{
	lua_newtable(L);
	lua_createtable(L, 0, 2);
	lua_pushcfunction(L, l_models_group);
	lua_setfield(L, -2, "__index");
	lua_pushboolean(L, 0);
	lua_setfield(L, -2, "__metatable");
	lua_setmetatable(L, -2);
}
