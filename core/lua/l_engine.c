/*
 * l_engine.c: the value side of the `engine` table: engine.null, ordered
 * objects and arrays for JSON shaping, Python-compatible repr and round,
 * engine.json. Objects remember insertion order in a weak side table so a
 * pack can fill them by plain assignment; the host reads them with raw
 * access only.
 */
#include "core/lua/sb_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util/num.h"

void sb_push_null(lua_State *L)
{
	lua_getfield(L, LUA_REGISTRYINDEX, SB_KEY_NULL);
}

int sb_is_null(lua_State *L, int idx)
{
	int r;

	if (lua_type(L, idx) != LUA_TUSERDATA)
		return 0;
	idx = lua_absindex(L, idx);
	sb_push_null(L);
	r = lua_rawequal(L, idx, -1);
	lua_pop(L, 1);
	return r;
}

static int l_null_tostring(lua_State *L)
{
	lua_pushliteral(L, "null");
	return 1;
}

/* Push the order record of the object at idx: { keys..., [key] = true }
 * held as two tables {list, set}; creates it when 'create'. */
static int sb_object_order(lua_State *L, int idx, int create)
{
	idx = lua_absindex(L, idx);
	lua_getfield(L, LUA_REGISTRYINDEX, SB_KEY_OBJORDER);
	lua_pushvalue(L, idx);
	if (lua_rawget(L, -2) == LUA_TTABLE) {
		lua_remove(L, -2);
		return 1;
	}
	lua_pop(L, 1);
	if (!create) {
		lua_pop(L, 1);
		return 0;
	}
	lua_createtable(L, 2, 0);
	lua_newtable(L);
	lua_rawseti(L, -2, 1);
	lua_newtable(L);
	lua_rawseti(L, -2, 2);
	lua_pushvalue(L, idx);
	lua_pushvalue(L, -2);
	lua_rawset(L, -4);
	lua_remove(L, -2);
	return 1;
}

/* Record key at -1 (not popped) as the object's next key, once. */
static void sb_object_note_key(lua_State *L, int obj, int key)
{
	sb_object_order(L, obj, 1);
	lua_rawgeti(L, -1, 2); /* set */
	lua_pushvalue(L, key);
	if (lua_rawget(L, -2) == LUA_TNIL) {
		lua_pop(L, 1);
		lua_pushvalue(L, key);
		lua_pushboolean(L, 1);
		lua_rawset(L, -3);
		lua_rawgeti(L, -2, 1); /* list */
		lua_pushvalue(L, key);
		lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
		lua_pop(L, 1);
	} else {
		lua_pop(L, 1);
	}
	lua_pop(L, 2);
}

/* __newindex: fires only for keys not yet present, which is exactly when
 * a key enters the order. */
static int l_object_newindex(lua_State *L)
{
	if (lua_type(L, 2) != LUA_TSTRING)
		return luaL_error(L, "engine.object keys must be strings, not %s",
				  luaL_typename(L, 2));
	if (!lua_isnil(L, 3))
		sb_object_note_key(L, 1, 2);
	lua_settop(L, 3);
	lua_rawset(L, 1);
	return 0;
}

static int l_object_next(lua_State *L)
{
	/* upvalue 1: the object; 2: its key list; state: position */
	lua_Integer i = lua_tointeger(L, lua_upvalueindex(3));
	lua_Integer n = (lua_Integer)lua_rawlen(L, lua_upvalueindex(2));

	while (++i <= n) {
		lua_rawgeti(L, lua_upvalueindex(2), i);
		lua_pushvalue(L, -1);
		if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) {
			lua_pushinteger(L, i);
			lua_replace(L, lua_upvalueindex(3));
			return 2;
		}
		lua_pop(L, 2);
	}
	lua_pushinteger(L, i);
	lua_replace(L, lua_upvalueindex(3));
	return 0;
}

static int l_object_pairs(lua_State *L)
{
	lua_pushvalue(L, 1);
	if (!sb_object_order(L, 1, 0)) {
		lua_newtable(L);
	} else {
		lua_rawgeti(L, -1, 1);
		lua_remove(L, -2);
	}
	lua_pushinteger(L, 0);
	lua_pushcclosure(L, l_object_next, 3);
	lua_pushnil(L);
	lua_pushnil(L);
	return 3;
}

void sb_new_object(lua_State *L)
{
	lua_newtable(L);
	luaL_setmetatable(L, SB_KEY_OBJ_MT);
}

void sb_new_array(lua_State *L)
{
	lua_newtable(L);
	luaL_setmetatable(L, SB_KEY_ARR_MT);
}

void sb_new_object_for(lua_State *L, int nkeys)
{
	int obj;

	lua_createtable(L, 0, nkeys);
	luaL_setmetatable(L, SB_KEY_OBJ_MT);
	obj = lua_gettop(L);
	lua_getfield(L, LUA_REGISTRYINDEX, SB_KEY_OBJORDER);
	lua_createtable(L, 2, 0);      /* the record: {list, set} */
	lua_createtable(L, nkeys, 0);
	lua_rawseti(L, -2, 1);
	lua_createtable(L, 0, nkeys);
	lua_rawseti(L, -2, 2);
	lua_pushvalue(L, obj);
	lua_pushvalue(L, -2);
	lua_rawset(L, -4);             /* orders[obj] = record */
	lua_remove(L, -2);             /* the orders table */
}

void sb_object_add_new(lua_State *L, int obj, int order)
{
	obj = lua_absindex(L, obj);
	order = lua_absindex(L, order);
	lua_rawgeti(L, order, 2);      /* set */
	lua_pushvalue(L, -3);          /* key */
	/* A big-integer key and a string key of the same digits meet here as
	 * one Lua string: like sb_object_set, the later value wins at the
	 * first place. */
	if (lua_rawget(L, -2) == LUA_TNIL) {
		lua_pop(L, 1);
		lua_pushvalue(L, -3);
		lua_pushboolean(L, 1);
		lua_rawset(L, -3);
		lua_rawgeti(L, order, 1); /* list */
		lua_pushvalue(L, -4);
		lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
		lua_pop(L, 1);
	} else {
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
	lua_rawset(L, obj);            /* obj[key] = value; pops both */
}

void sb_object_set(lua_State *L, int obj, const char *k)
{
	obj = lua_absindex(L, obj);
	lua_pushstring(L, k);
	sb_object_note_key(L, obj, lua_gettop(L));
	lua_insert(L, -2);
	lua_rawset(L, obj);
}

/* engine.object("a", 1, "b", 2) */
static int l_object(lua_State *L)
{
	int n = lua_gettop(L), i;

	if (n % 2)
		return luaL_error(L, "engine.object takes key, value pairs (got %d arguments)", n);
	for (i = 1; i <= n; i += 2)
		luaL_checktype(L, i, LUA_TSTRING);
	sb_new_object(L);               /* n + 1 */
	/* The order record once, its list and set held on the stack, rather
	 * than looked up again for every key (sb_object_note_key): JSON verbs
	 * build thousands of these objects. */
	sb_object_order(L, n + 1, 1);   /* n + 2 */
	lua_rawgeti(L, n + 2, 1);       /* n + 3: key list */
	lua_rawgeti(L, n + 2, 2);       /* n + 4: key set */
	for (i = 1; i <= n; i += 2) {
		if (lua_isnil(L, i + 1))
			continue;
		lua_pushvalue(L, i);
		if (lua_rawget(L, n + 4) == LUA_TNIL) {
			lua_pushvalue(L, i);
			lua_pushboolean(L, 1);
			lua_rawset(L, n + 4);
			lua_pushvalue(L, i);
			lua_rawseti(L, n + 3, (lua_Integer)lua_rawlen(L, n + 3) + 1);
		}
		lua_pop(L, 1);
		lua_pushvalue(L, i);
		lua_pushvalue(L, i + 1);
		lua_rawset(L, n + 1);
	}
	lua_settop(L, n + 1);
	return 1;
}

/* engine.array(...): a list that stays a JSON array when empty. */
static int l_array(lua_State *L)
{
	int n = lua_gettop(L), i;

	sb_new_array(L);
	for (i = 1; i <= n; i++) {
		lua_pushvalue(L, i);
		lua_rawseti(L, -2, i);
	}
	return 1;
}

static int l_repr(lua_State *L)
{
	char buf[NUM_REPR_MAX];
	size_t n;

	luaL_checktype(L, 1, LUA_TNUMBER);
	if (lua_isinteger(L, 1))
		n = num_int(lua_tointeger(L, 1), buf);
	else
		n = num_repr(lua_tonumber(L, 1), buf);
	lua_pushlstring(L, buf, n);
	return 1;
}

/* Python round(): without ndigits an int (ties to even), with ndigits a
 * float for a float (an int stays an int). */
static int l_round(lua_State *L)
{
	lua_Number x;
	lua_Integer nd;

	luaL_checktype(L, 1, LUA_TNUMBER);
	if (lua_isinteger(L, 1)) {
		lua_pushvalue(L, 1);
		return 1;
	}
	x = lua_tonumber(L, 1);
	if (lua_isnoneornil(L, 2)) {
		double r;

		if (!isfinite(x))
			return luaL_error(L, "cannot round %s to an integer",
					  isnan(x) ? "NaN" : "an infinity");
		r = num_round(x, 0);
		if (r < -9223372036854775808.0 || r >= 9223372036854775808.0)
			return luaL_error(L, "round: result outside the integer range");
		lua_pushinteger(L, (lua_Integer)r);
		return 1;
	}
	nd = luaL_checkinteger(L, 2);
	if (nd > 400)
		nd = 400;
	if (nd < -400)
		nd = -400;
	lua_pushnumber(L, num_round(x, (int)nd));
	return 1;
}

static int l_tmpbuf_gc(lua_State *L)
{
	struct sbuf *b = lua_touserdata(L, 1);

	sbuf_release(b);
	return 0;
}

struct sbuf *sb_tmpbuf(lua_State *L, size_t cap)
{
	struct sbuf *b = lua_newuserdatauv(L, sizeof *b, 0);

	sbuf_init(b);
	b->cap = cap;
	if (luaL_newmetatable(L, "infragate.tmpbuf")) {
		lua_pushcfunction(L, l_tmpbuf_gc);
		lua_setfield(L, -2, "__gc");
		lua_pushboolean(L, 0);
		lua_setfield(L, -2, "__metatable");
	}
	lua_setmetatable(L, -2);
	return b;
}

/* engine.json(v): JSON text of a value; raises on NaN/inf. */
static int l_json(lua_State *L)
{
	char msg[256];
	struct sbuf *b;

	luaL_checkany(L, 1);
	lua_settop(L, 1);
	/* The buffer is a userdata: a Lua error below cannot leak it. */
	b = sb_tmpbuf(L, SB_JSON_MAX);
	if (sb_json_encode(L, 1, 0, b, msg, sizeof msg) < 0)
		return luaL_error(L, "engine.json: %s", msg);
	lua_pushlstring(L, sbuf_cstr(b), b->len);
	sbuf_release(b);
	return 1;
}

static int l_plain(lua_State *L)
{
	struct sb_view *v;

	luaL_checkany(L, 1);
	v = sb_check_view(L, 1, 1);
	if (!v) {
		lua_settop(L, 1);
		return 1;
	}
	luaL_checkstack(L, 8, NULL);
	sb_push_plain(L, v->node);
	return 1;
}

static const luaL_Reg engine_funcs[] = {
	{ "object", l_object }, { "array", l_array }, { "repr", l_repr },
	{ "round", l_round },   { "json", l_json },   { "plain", l_plain },
	{ NULL, NULL }
};

void sb_open_engine(lua_State *L)
{
	struct sandbox *sb = sb_of(L);

	/* engine.null: one full userdata, truthy, printed as "null". */
	lua_newuserdatauv(L, 1, 0);
	lua_newtable(L);
	lua_pushcfunction(L, l_null_tostring);
	lua_setfield(L, -2, "__tostring");
	lua_pushliteral(L, "null");
	lua_setfield(L, -2, "__name");
	lua_pushboolean(L, 0);
	lua_setfield(L, -2, "__metatable");
	lua_setmetatable(L, -2);
	lua_pushvalue(L, -1);
	lua_setfield(L, LUA_REGISTRYINDEX, SB_KEY_NULL);
	lua_setfield(L, -2, "null");

	/* The weak side table of object key orders. */
	lua_newtable(L);
	lua_newtable(L);
	lua_pushliteral(L, "k");
	lua_setfield(L, -2, "__mode");
	lua_setmetatable(L, -2);
	lua_setfield(L, LUA_REGISTRYINDEX, SB_KEY_OBJORDER);

	luaL_newmetatable(L, SB_KEY_OBJ_MT);
	lua_pushcfunction(L, l_object_newindex);
	lua_setfield(L, -2, "__newindex");
	lua_pushcfunction(L, l_object_pairs);
	lua_setfield(L, -2, "__pairs");
	lua_pushboolean(L, 0);
	lua_setfield(L, -2, "__metatable");
	lua_pop(L, 1);
	luaL_newmetatable(L, SB_KEY_ARR_MT);
	lua_pushboolean(L, 0);
	lua_setfield(L, -2, "__metatable");
	lua_pop(L, 1);

	luaL_setfuncs(L, engine_funcs, 0);
	lua_pushstring(L, sb->version);
	lua_setfield(L, -2, "version");
}
