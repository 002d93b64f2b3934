/*
 * l_re.c: the `re` library (spec/core.md 5.7): PCRE2 regexes for pack code.
 * re.compile checks its arguments before anything is allocated; every match
 * runs under the regex limits, and hitting one trips the running call, so
 * a backtracking pattern ends as engine.budget even inside pcall.
 */
#include "core/lua/sb_internal.h"

#include <stdint.h>
#include <string.h>

struct l_regex {
	struct re *re;
};

static struct l_regex *check_regex(lua_State *L)
{
	struct l_regex *r = luaL_checkudata(L, 1, SB_KEY_RE_MT);

	if (!r->re)
		luaL_error(L, "regex is closed");
	return r;
}

static int l_re_compile(lua_State *L)
{
	struct sandbox *sb = sb_of(L);
	size_t len;
	const char *pat = luaL_checklstring(L, 1, &len);
	const char *flags = luaL_optstring(L, 2, "");
	unsigned f = 0;
	struct l_regex *r;
	struct diag err;

	for (; *flags; flags++) {
		switch (*flags) {
		case 'i': f |= RE_CASELESS; break;
		case 'm': f |= RE_MULTILINE; break;
		case 's': f |= RE_DOTALL; break;
		case 'x': f |= RE_EXTENDED; break;
		default:
			return luaL_argerror(L, 2, "flags are i, m, s and x");
		}
	}
	r = lua_newuserdatauv(L, sizeof *r, 0);
	r->re = NULL;
	luaL_setmetatable(L, SB_KEY_RE_MT);
	diag_init(&err);
	r->re = re_compile(pat, len, f, &sb->re_alloc, &err);
	if (!r->re)
		return luaL_error(L, "re.compile: %s", err.msg);
	return 1;
}

/* Match; returns the pair count (>= 1), 0, or raises. */
static int do_match(lua_State *L, struct l_regex *r, size_t *ov, size_t n,
		    const char **s, size_t *len)
{
	struct sandbox *sb = sb_of(L);
	lua_Integer init;
	struct diag err;
	int rc;

	*s = luaL_checklstring(L, 2, len);
	init = luaL_optinteger(L, 3, 1);
	if (init < 0)
		init = (lua_Integer)*len + init + 1;
	if (init < 1)
		init = 1;
	if ((size_t)init > *len + 1)
		return 0;
	diag_init(&err);
	rc = re_match(r->re, *s, *len, (size_t)init - 1, &sb->lim.re, ov, n, &err);
	if (rc == -1) {
		sb_trip(L, TRIP_REGEX);
		return luaL_error(L, "%s", err.msg);
	}
	if (rc == -2)
		return luaL_error(L, "%s", err.msg);
	return rc;
}

static int l_re_test(lua_State *L)
{
	struct l_regex *r = check_regex(L);
	size_t ov[2], len;
	const char *s;

	lua_pushboolean(L, do_match(L, r, ov, 1, &s, &len) > 0);
	return 1;
}

static int l_re_find(lua_State *L)
{
	struct l_regex *r = check_regex(L);
	size_t ov[2], len;
	const char *s;

	if (do_match(L, r, ov, 1, &s, &len) <= 0) {
		lua_pushnil(L);
		return 1;
	}
	lua_pushinteger(L, (lua_Integer)ov[0] + 1);
	lua_pushinteger(L, (lua_Integer)ov[1]);
	return 2;
}

#define RE_MAX_GROUPS 32

static int l_re_match(lua_State *L)
{
	struct l_regex *r = check_regex(L);
	size_t ov[2 * (RE_MAX_GROUPS + 1)], len, n, i;
	const char *s;

	n = re_groups(r->re) + 1;
	if (n > RE_MAX_GROUPS + 1)
		n = RE_MAX_GROUPS + 1;
	if (do_match(L, r, ov, n, &s, &len) <= 0) {
		lua_pushnil(L);
		return 1;
	}
	luaL_checkstack(L, (int)n, NULL);
	for (i = 0; i < n; i++) {
		if (ov[2 * i] == SIZE_MAX)
			lua_pushboolean(L, 0);
		else
			lua_pushlstring(L, s + ov[2 * i], ov[2 * i + 1] - ov[2 * i]);
	}
	return (int)n;
}

static int l_re_gc(lua_State *L)
{
	struct l_regex *r = luaL_checkudata(L, 1, SB_KEY_RE_MT);

	re_free(r->re);
	r->re = NULL;
	return 0;
}

static int l_re_tostring(lua_State *L)
{
	luaL_checkudata(L, 1, SB_KEY_RE_MT);
	lua_pushliteral(L, "regex");
	return 1;
}

static const luaL_Reg re_methods[] = {
	{ "test", l_re_test },  { "find", l_re_find }, { "match", l_re_match },
	{ NULL, NULL }
};

static const luaL_Reg re_funcs[] = { { "compile", l_re_compile }, { NULL, NULL } };

int luaopen_infragate_re(lua_State *L)
{
	luaL_newmetatable(L, SB_KEY_RE_MT);
	lua_newtable(L);
	luaL_setfuncs(L, re_methods, 0);
	lua_setfield(L, -2, "__index");
	lua_pushcfunction(L, l_re_gc);
	lua_setfield(L, -2, "__gc");
	lua_pushcfunction(L, l_re_tostring);
	lua_setfield(L, -2, "__tostring");
	lua_pushliteral(L, "regex");
	lua_setfield(L, -2, "__metatable");
	lua_pop(L, 1);
	luaL_newlib(L, re_funcs);
	return 1;
}
