/*
 * l_validate.c: the Lua side of validation registries (spec/core.md 11.2,
 * 11.5): computing each point's figure with `v` (settings, mutation,
 * v:once), and calling a pack-defined registry function. Results are read
 * back inside the protected call, as everywhere else.
 */
#include "core/lua/sb_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* v:once(name, fn): one computation shared by the points of a run. */
static int l_v_once(lua_State *L)
{
	luaL_checktype(L, 1, LUA_TTABLE);
	luaL_checkstring(L, 2);
	luaL_checktype(L, 3, LUA_TFUNCTION);
	lua_settop(L, 3);
	lua_pushvalue(L, 2);
	if (lua_rawget(L, lua_upvalueindex(1)) == LUA_TTABLE) {
		lua_rawgeti(L, -1, 1);
		lua_rawgeti(L, -2, 2);
		return 2;
	}
	lua_pop(L, 1);
	lua_pushvalue(L, 3);
	lua_call(L, 0, 2);
	lua_createtable(L, 2, 0);
	lua_pushvalue(L, -3);
	lua_rawseti(L, -2, 1);
	lua_pushvalue(L, -2);
	lua_rawseti(L, -2, 2);
	lua_pushvalue(L, 2);
	lua_insert(L, -2);
	lua_rawset(L, lua_upvalueindex(1));
	return 2;
}

/* (settings_json or nil, mutation or nil) -> v */
static int build_v(lua_State *L)
{
	size_t len;
	const char *s = lua_tolstring(L, 1, &len);

	lua_createtable(L, 0, 3);
	if (s && sb_json_decode(L, s, len) == 0)
		lua_setfield(L, -2, "settings");
	else {
		sb_new_object(L);
		lua_setfield(L, -2, "settings");
	}
	lua_pushvalue(L, 2);
	lua_setfield(L, -2, "mutation");
	lua_newtable(L);
	lua_pushcclosure(L, l_v_once, 1);
	lua_setfield(L, -2, "once");
	return 1;
}

static int push_v(struct sandbox *sb, const char *settings_json,
		  const char *mutation, struct diag *err)
{
	char msg[DIAG_MSG_MAX];

	lua_pushcfunction(sb->L, build_v);
	if (settings_json)
		lua_pushstring(sb->L, settings_json);
	else
		lua_pushnil(sb->L);
	if (mutation)
		lua_pushstring(sb->L, mutation);
	else
		lua_pushnil(sb->L);
	if (sb_pcall(sb, 2, 1, sb->lim.command_instructions, msg, sizeof msg) !=
	    SB_OK) {
		diag_set(err, DIAG_E_ERROR, 0, 0, "cannot build the validation context: %s",
			 msg);
		return -1;
	}
	return 0;
}

struct fig_out {
	double actual;
	int has_actual;
	int is_int;
};

/* What running a registry changes in the sandbox. A registry may run
 * inside a pack program's verb (its validate verb calls engine.validate,
 * and the engine reuses the verb's sandbox): then the verb's pack and its
 * loaded files must survive, so they are put back afterwards, and the
 * files are freed with the verb's, not here. */
struct validation_state {
	int in_validation, nested;
	struct sb_pack *cur_pack;
};

static void enter_validation(struct sandbox *sb, struct sb_pack *p, struct validation_state *s)
{
	s->in_validation = sb->in_validation;
	s->cur_pack = sb->cur_pack;
	s->nested = sb->in_command;
	sb->in_validation = 1;
	sb->cur_pack = p;
}

static void leave_validation(struct sandbox *sb, const struct validation_state *s)
{
	sb->in_validation = s->in_validation;
	sb->cur_pack = s->cur_pack;
	if (!s->nested)
		sb_command_reset(sb);
}

/* (fn, v, result, detailbuf) -> fn(v): a number (or nil) and a detail. */
static int figure_tramp(lua_State *L)
{
	struct fig_out *r = lua_touserdata(L, 3);
	struct sbuf *detail = lua_touserdata(L, 4);
	char why[256];

	lua_settop(L, 2);
	lua_call(L, 1, 2);
	if (lua_type(L, -2) == LUA_TNUMBER) {
		r->actual = lua_tonumber(L, -2);
		r->has_actual = 1;
		r->is_int = lua_isinteger(L, -2);
	} else if (!lua_isnil(L, -2)) {
		return luaL_error(L, "a figure returns a number or nil, not %s",
				  luaL_typename(L, -2));
	}
	if (!lua_isnil(L, -1) &&
	    sb_json_encode(L, -1, 0, detail, why, sizeof why) < 0)
		return luaL_error(L, "the figure's detail cannot be read: %s", why);
	return 0;
}

int sandbox_figures(struct sandbox *sb, const char *pack,
		    const char *const *ids, size_t nids,
		    const char *settings_json, const char *mutation,
		    double *actual, int *is_int, char **detail,
		    struct diag *err)
{
	lua_State *L = sb->L;
	struct sb_pack *p = sb_find_pack(sb, pack);
	struct validation_state saved;
	int vidx, rc = 0;
	size_t i, k;

	for (i = 0; i < nids; i++) {
		actual[i] = NAN;
		is_int[i] = 0;
		detail[i] = NULL;
	}
	if (!p) {
		diag_set(err, DIAG_E_PACK, 0, 0, "pack '%s' is not loaded", pack);
		return -1;
	}
	enter_validation(sb, p, &saved);
	if (push_v(sb, settings_json, mutation, err) < 0) {
		rc = -1;
		goto done;
	}
	vidx = lua_gettop(L);
	for (i = 0; i < nids && rc == 0; i++) {
		const struct sb_named_ref *f = NULL;
		struct fig_out *r;
		struct sbuf *d;
		char msg[DIAG_MSG_MAX];

		for (k = 0; k < p->nfigures; k++)
			if (strcmp(p->figures[k].name, ids[i]) == 0)
				f = &p->figures[k];
		if (!f)
			continue;
		lua_pushcfunction(L, figure_tramp);
		lua_rawgeti(L, LUA_REGISTRYINDEX, f->ref);
		lua_pushvalue(L, vidx);
		r = lua_newuserdatauv(L, sizeof *r, 0);
		r->has_actual = 0;
		r->is_int = 0;
		lua_pushvalue(L, -1);
		lua_insert(L, vidx + 1); /* keep the result alive below */
		d = sb_tmpbuf(L, SB_JSON_MAX);
		lua_pushvalue(L, -1);
		lua_insert(L, vidx + 2);
		if (sb_pcall(sb, 4, 0, sb->lim.command_instructions, msg,
			     sizeof msg) != SB_OK) {
			diag_set(err, DIAG_E_ERROR, 0, 0, "figure '%s' failed: %s", ids[i],
				 msg);
			rc = -1;
		} else {
			if (r->has_actual) {
				actual[i] = r->actual;
				is_int[i] = r->is_int;
			}
			if (d->len)
				detail[i] = strdup(sbuf_cstr(d));
		}
		sbuf_release(d);
		lua_settop(L, vidx);
	}
	lua_settop(L, vidx - 1);
done:
	leave_validation(sb, &saved);
	return rc;
}

/* (fn, reg, v, okflag, buf) -> the entry as JSON, its "ok" read raw. */
static int registry_tramp(lua_State *L)
{
	int *ok = lua_touserdata(L, 4);
	struct sbuf *buf = lua_touserdata(L, 5);
	char why[256];

	lua_settop(L, 3);
	lua_call(L, 2, 1);
	if (lua_type(L, -1) != LUA_TTABLE)
		return luaL_error(L, "the registry function must return an object");
	lua_pushliteral(L, "ok");
	*ok = lua_rawget(L, -2) == LUA_TBOOLEAN && lua_toboolean(L, -1);
	lua_pop(L, 1);
	if (sb_json_encode(L, -1, 0, buf, why, sizeof why) < 0)
		return luaL_error(L, "the registry entry cannot be read: %s", why);
	return 0;
}

static int push_plain_tramp(lua_State *L)
{
	sb_push_plain(L, lua_touserdata(L, 1));
	return 1;
}

/* A registry function that raised: through engine.input_error, the
 * registry is malformed (the first finding's message, at the pointer it
 * gave); any other error is a fault of the pack's code. */
static void registry_failure(struct sandbox *sb, const char *msg, struct diag *err)
{
	const struct finding *f = sb->pending.kind == 2 && sb->pending.input.n
					  ? &sb->pending.input.items[0]
					  : NULL;

	if (!f) {
		diag_set(err, DIAG_E_ERROR, 0, 0, "the registry function failed: %s", msg);
		return;
	}
	/* The id is engine.registry whatever the finding named; the engine
	 * reports it under the pack's registry_error alias (validate.c). */
	diag_set(err, DIAG_E_REGISTRY, 0, 0, "%s", f->message);
	if (f->path)
		diag_set_path(err, f->path);
}

int sandbox_registry_function(struct sandbox *sb, const char *pack,
			      const struct node *registry,
			      const char *settings_json, const char *mutation,
			      struct sbuf *entry, int *ok, struct diag *err)
{
	lua_State *L = sb->L;
	struct sb_pack *p = sb_find_pack(sb, pack);
	struct validation_state saved;
	char msg[DIAG_MSG_MAX];
	struct sbuf *buf;
	int *okp, rc = 0, base = lua_gettop(L);

	*ok = 0;
	if (!p || p->registry_fn_ref == LUA_NOREF) {
		diag_set(err, DIAG_E_REGISTRY, 0, 0,
			 "pack '%s' has no registry function", pack);
		return -1;
	}
	enter_validation(sb, p, &saved);
	lua_pushcfunction(L, push_plain_tramp);
	lua_pushlightuserdata(L, (void *)(uintptr_t)registry);
	if (sb_pcall(sb, 1, 1, sb->lim.command_instructions, msg, sizeof msg) !=
	    SB_OK) {
		diag_set(err, DIAG_E_ERROR, 0, 0, "cannot pass the registry: %s", msg);
		rc = -1;
		goto done;
	}
	if (push_v(sb, settings_json, mutation, err) < 0) {
		rc = -1;
		goto done;
	}
	okp = lua_newuserdatauv(L, sizeof *okp, 0);
	*okp = 0;
	buf = sb_tmpbuf(L, SB_JSON_MAX);
	lua_pushcfunction(L, registry_tramp);
	lua_rawgeti(L, LUA_REGISTRYINDEX, p->registry_fn_ref);
	lua_pushvalue(L, base + 1);
	lua_pushvalue(L, base + 2);
	lua_pushvalue(L, base + 3);
	lua_pushvalue(L, base + 4);
	sb->pending.kind = 0;
	if (sb_pcall(sb, 5, 0, sb->lim.command_instructions, msg, sizeof msg) !=
	    SB_OK) {
		registry_failure(sb, msg, err);
		rc = -1;
	} else {
		sbuf_add(entry, sbuf_cstr(buf), buf->len);
		*ok = *okp;
	}
	sbuf_release(buf);
done:
	lua_settop(L, base);
	leave_validation(sb, &saved);
	return rc;
}
