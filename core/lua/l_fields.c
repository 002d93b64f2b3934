/*
 * l_fields.c: raw table fields for the model converters (l_fields.h).
 */
#include "core/lua/l_fields.h"

#include <lauxlib.h>
#include <stdarg.h>
#include <stdio.h>

int lf_rawfield(lua_State *L, int t, const char *k)
{
	lua_pushstring(L, k);
	return lua_rawget(L, t);
}

void lf_setnum(lua_State *L, const char *k, double v)
{
	lua_pushnumber(L, v);
	lua_setfield(L, -2, k);
}

void lf_setint(lua_State *L, const char *k, lua_Integer v)
{
	lua_pushinteger(L, v);
	lua_setfield(L, -2, k);
}

void lf_setbool(lua_State *L, const char *k, int v)
{
	lua_pushboolean(L, v);
	lua_setfield(L, -2, k);
}

void lf_setstr(lua_State *L, const char *k, const char *v)
{
	lua_pushstring(L, v);
	lua_setfield(L, -2, k);
}

int lf_error(lua_State *L, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return luaL_error(L, "%s", msg);
}
