/*
 * l_fields.h: the small table readers and writers every model converter
 * (core/lua/l_model_*.c) uses on the plain tables the packs pass in and
 * get back. Raw access only: a pack's metatable can not make a converter
 * run Lua code halfway through reading its arguments. Error messages stay
 * with each converter, which knows the model's name and its domains.
 */
#ifndef INFRAGATE_LUA_L_FIELDS_H
#define INFRAGATE_LUA_L_FIELDS_H

#include <lua.h>

/* Push t[k] (raw; t an absolute index) and return its type (LUA_T*). */
int lf_rawfield(lua_State *L, int t, const char *k);

/* Set field k of the table on top of the stack; the table stays there. */
void lf_setnum(lua_State *L, const char *k, double v);
void lf_setint(lua_State *L, const char *k, lua_Integer v);
void lf_setbool(lua_State *L, const char *k, int v);
void lf_setstr(lua_State *L, const char *k, const char *v);

/* luaL_error with printf's conversions (%g, %zu, %lld, %u, %.3f): Lua's own
 * formatter knows only %s %d %f %I %p %c %U and raises "invalid
 * conversion" on any other, which would replace the message it was asked
 * to give. Does not return. */
int lf_error(lua_State *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
