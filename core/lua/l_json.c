/*
 * l_json.c: Lua values to JSON text and back. The encoder is the host's
 * way of reading what pack code returns (figures, out:json objects, report
 * objects, run-level values): raw access only, no metamethod ever runs, no
 * Lua error is raised (it returns -1 and a reason), and every nested table
 * costs stack space checked with lua_checkstack, so hostile values (cycles,
 * depth, NaN, functions) end in a message, not a crash.
 */
#include "core/lua/sb_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util/num.h"
#include "core/util/utf8.h"

#define SB_JSON_DEPTH 100
#define SB_FIGURES_DEPTH 4

struct enc {
	lua_State *L;
	struct sbuf *out;
	int figures;
	char *msg;
	size_t size;
	int obj_mt, arr_mt, null_ud, order; /* stack slots */
};

static int enc_fail(struct enc *e, const char *why)
{
	snprintf(e->msg, e->size, "%s", why);
	return -1;
}

static int enc_value(struct enc *e, int idx, int depth);

static int enc_string(struct enc *e, int idx)
{
	size_t len, bad;
	const char *s = lua_tolstring(e->L, idx, &len);

	if (!utf8_valid(s, len, &bad))
		return enc_fail(e, "a string is not valid UTF-8");
	json_write_str(e->out, s, len);
	return 0;
}

static int enc_number(struct enc *e, int idx)
{
	char buf[NUM_REPR_MAX];
	size_t n;

	if (lua_isinteger(e->L, idx)) {
		n = num_int(lua_tointeger(e->L, idx), buf);
	} else {
		double d = lua_tonumber(e->L, idx);

		if (!isfinite(d))
			return enc_fail(e, isnan(d) ? "NaN cannot be written as JSON"
						    : "an infinity cannot be written as JSON");
		n = num_repr(d, buf);
	}
	sbuf_add(e->out, buf, n);
	return 0;
}

static int figure_key_ok(const char *k, size_t len)
{
	size_t i;

	if (len == 0 || k[0] < 'a' || k[0] > 'z')
		return 0;
	for (i = 1; i < len; i++)
		if (!((k[i] >= 'a' && k[i] <= 'z') || (k[i] >= '0' && k[i] <= '9') ||
		      k[i] == '_'))
			return 0;
	return 1;
}

static int enc_key(struct enc *e, int kidx)
{
	lua_State *L = e->L;
	size_t len;
	const char *k;

	if (lua_type(L, kidx) != LUA_TSTRING)
		return enc_fail(e, "object keys must be strings");
	k = lua_tolstring(L, kidx, &len);
	if (e->figures && !figure_key_ok(k, len))
		return enc_fail(e, "figure names must match [a-z][a-z0-9_]*");
	return enc_string(e, kidx);
}

/* An engine.object: keys in insertion order, read from the side table. */
static int enc_object(struct enc *e, int t, int depth)
{
	lua_State *L = e->L;
	lua_Integer i, n;
	int first = 1;

	lua_pushvalue(L, t);
	if (lua_rawget(L, e->order) != LUA_TTABLE) {
		lua_pop(L, 1);
		sbuf_adds(e->out, "{}");
		return 0;
	}
	lua_rawgeti(L, -1, 1);
	n = (lua_Integer)lua_rawlen(L, -1);
	sbuf_addc(e->out, '{');
	for (i = 1; i <= n; i++) {
		lua_rawgeti(L, -1, i);
		lua_pushvalue(L, -1);
		if (lua_rawget(L, t) == LUA_TNIL) {
			lua_pop(L, 2);
			continue;
		}
		if (!first)
			sbuf_adds(e->out, ", ");
		first = 0;
		if (enc_key(e, lua_gettop(L) - 1) < 0)
			return -1;
		sbuf_adds(e->out, ": ");
		if (enc_value(e, lua_gettop(L), depth + 1) < 0)
			return -1;
		lua_pop(L, 2);
	}
	sbuf_addc(e->out, '}');
	lua_pop(L, 2);
	return 0;
}

static int enc_list(struct enc *e, int t, lua_Integer n, int depth)
{
	lua_Integer i;

	sbuf_addc(e->out, '[');
	for (i = 1; i <= n; i++) {
		if (i > 1)
			sbuf_adds(e->out, ", ");
		lua_rawgeti(e->L, t, i);
		if (enc_value(e, lua_gettop(e->L), depth + 1) < 0)
			return -1;
		lua_pop(e->L, 1);
	}
	sbuf_addc(e->out, ']');
	return 0;
}

struct key_ref {
	const char *s;
	size_t len;
};

static int key_cmp(const void *a, const void *b)
{
	const struct key_ref *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->s, y->s, n);

	if (c)
		return c;
	return x->len < y->len ? -1 : x->len > y->len;
}

/* A plain table: a list when its keys are exactly 1..n (n >= 1), else an
 * object with its string keys in byte order. */
static int enc_plain(struct enc *e, int t, int depth)
{
	lua_State *L = e->L;
	size_t count = 0, ints = 0, i;
	lua_Integer maxi = 0;
	struct key_ref *keys;
	int rc = 0;

	lua_pushnil(L);
	while (lua_next(L, t)) {
		count++;
		if (lua_isinteger(L, -2) && lua_tointeger(L, -2) >= 1) {
			ints++;
			if (lua_tointeger(L, -2) > maxi)
				maxi = lua_tointeger(L, -2);
		}
		lua_pop(L, 1);
	}
	if (count == 0) {
		sbuf_adds(e->out, "{}");
		return 0;
	}
	if (ints == count && (size_t)maxi == count)
		return enc_list(e, t, maxi, depth);
	/* A userdata, so that a memory error below frees it. */
	keys = lua_newuserdatauv(L, count * sizeof *keys, 0);
	i = 0;
	lua_pushnil(L);
	while (lua_next(L, t)) {
		lua_pop(L, 1);
		if (lua_type(L, -1) != LUA_TSTRING) {
			lua_pop(L, 2);
			return enc_fail(e, "a table mixes list items and named keys, or has non-string keys");
		}
		keys[i].s = lua_tolstring(L, -1, &keys[i].len);
		i++;
	}
	qsort(keys, count, sizeof *keys, key_cmp);
	sbuf_addc(e->out, '{');
	for (i = 0; i < count && rc == 0; i++) {
		if (i)
			sbuf_adds(e->out, ", ");
		/* The key strings are alive: they are keys of table t. */
		lua_pushlstring(L, keys[i].s, keys[i].len);
		rc = enc_key(e, lua_gettop(L));
		if (rc == 0) {
			sbuf_adds(e->out, ": ");
			lua_pushvalue(L, -1);
			lua_rawget(L, t);
			rc = enc_value(e, lua_gettop(L), depth + 1);
			lua_pop(L, 1);
		}
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
	if (rc == 0)
		sbuf_addc(e->out, '}');
	return rc;
}

static int enc_table(struct enc *e, int t, int depth)
{
	lua_State *L = e->L;
	int kind = 0;

	if (lua_getmetatable(L, t)) {
		if (lua_rawequal(L, -1, e->obj_mt))
			kind = 1;
		else if (lua_rawequal(L, -1, e->arr_mt))
			kind = 2;
		lua_pop(L, 1);
	}
	if (kind == 1)
		return enc_object(e, t, depth);
	if (kind == 2)
		return enc_list(e, t, (lua_Integer)lua_rawlen(L, t), depth);
	return enc_plain(e, t, depth);
}

static int enc_userdata(struct enc *e, int idx)
{
	lua_State *L = e->L;
	struct sb_view *v;
	int r;

	if (lua_rawequal(L, idx, e->null_ud)) {
		sbuf_adds(e->out, "null");
		return 0;
	}
	if (lua_getmetatable(L, idx)) {
		luaL_getmetatable(L, SB_KEY_TIME_MT);
		r = lua_rawequal(L, -1, -2);
		lua_pop(L, 2);
		if (r) {
			const unsigned char *p = lua_touserdata(L, idx);
			const struct doc_time *t = (const void *)p;
			char buf[64];
			size_t n = doc_time_text(t, p[sizeof *t], 1, buf, sizeof buf);

			json_write_str(e->out, buf, n);
			return 0;
		}
	}
	v = sb_check_view(L, idx, 0);
	if (v) {
		if (e->figures)
			return enc_fail(e, "a document view cannot be a figure; pass engine.plain(v) or a value");
		if (!sb_doc_get(sb_of(L), v->docid))
			return enc_fail(e, "document is no longer available");
		if (doc_json_write(e->out, v->node) < 0)
			return enc_fail(e, "the document holds NaN or an infinity");
		return 0;
	}
	return enc_fail(e, "a userdata cannot be written as JSON");
}

static int enc_value(struct enc *e, int idx, int depth)
{
	lua_State *L = e->L;

	if (depth > (e->figures ? SB_FIGURES_DEPTH : SB_JSON_DEPTH))
		return enc_fail(e, e->figures ? "figures nest deeper than 4 levels"
					      : "value nests too deep (or is cyclic)");
	if (!lua_checkstack(L, 8))
		return enc_fail(e, "value nests too deep");
	if (e->out->failed)
		return enc_fail(e, "JSON text too large");
	switch (lua_type(L, idx)) {
	case LUA_TNIL:
		sbuf_adds(e->out, "null");
		return 0;
	case LUA_TBOOLEAN:
		sbuf_adds(e->out, lua_toboolean(L, idx) ? "true" : "false");
		return 0;
	case LUA_TNUMBER:
		return enc_number(e, idx);
	case LUA_TSTRING:
		return enc_string(e, idx);
	case LUA_TTABLE:
		return enc_table(e, idx, depth);
	case LUA_TUSERDATA:
		return enc_userdata(e, idx);
	default:
		return enc_fail(e, lua_type(L, idx) == LUA_TFUNCTION
					   ? "a function cannot be written as JSON"
					   : "this value cannot be written as JSON");
	}
}

int sb_json_encode(lua_State *L, int idx, int figures, struct sbuf *out,
		   char *msg, size_t size)
{
	struct enc e;
	int top = lua_gettop(L), rc;

	idx = lua_absindex(L, idx);
	if (!lua_checkstack(L, 16)) {
		snprintf(msg, size, "no stack space");
		return -1;
	}
	e.L = L;
	e.out = out;
	e.figures = figures;
	e.msg = msg;
	e.size = size;
	luaL_getmetatable(L, SB_KEY_OBJ_MT);
	e.obj_mt = lua_gettop(L);
	luaL_getmetatable(L, SB_KEY_ARR_MT);
	e.arr_mt = lua_gettop(L);
	sb_push_null(L);
	e.null_ud = lua_gettop(L);
	lua_getfield(L, LUA_REGISTRYINDEX, SB_KEY_OBJORDER);
	e.order = lua_gettop(L);
	rc = enc_value(&e, idx, 0);
	if (rc == 0 && out->failed)
		rc = enc_fail(&e, "JSON text too large");
	lua_settop(L, top);
	return rc;
}

/* ---- document nodes and JSON text to plain Lua values ------------------- */

static void push_key(lua_State *L, const struct node *k)
{
	switch (k->type) {
	case NODE_STR:
	case NODE_BIGINT:
		lua_pushlstring(L, k->v.str.s, k->v.str.len);
		break;
	case NODE_INT:
		lua_pushinteger(L, k->v.i);
		break;
	case NODE_FLOAT:
		lua_pushnumber(L, k->v.f);
		break;
	case NODE_BOOL:
		lua_pushboolean(L, k->v.b);
		break;
	case NODE_DATE:
	case NODE_DATETIME:
		sb_push_time(L, &k->v.t, k->type == NODE_DATETIME);
		break;
	default:
		sb_push_null(L);
	}
}

void sb_push_plain(lua_State *L, const struct node *n)
{
	size_t i;

	/* Depth is bounded by the loader's depth limit (512). */
	luaL_checkstack(L, 6, "document nests too deep");
	switch (n->type) {
	case NODE_LIST:
		sb_new_array(L);
		for (i = 0; i < n->v.list.n; i++) {
			sb_push_plain(L, n->v.list.items[i]);
			lua_rawseti(L, -2, (lua_Integer)i + 1);
		}
		return;
	case NODE_MAP: {
		/* A loaded mapping's keys are distinct (a repeated key does not
		 * load), so they go straight into the object and its order. */
		int obj, order;

		luaL_checkstack(L, 8, "a deep document");
		sb_new_object_for(L, (int)n->v.map.n);
		order = lua_gettop(L);
		obj = order - 1;
		for (i = 0; i < n->v.map.n; i++) {
			const struct doc_pair *p = &n->v.map.pairs[i];

			push_key(L, p->key);
			sb_push_plain(L, p->value);
			if (lua_type(L, -2) == LUA_TSTRING)
				sb_object_add_new(L, obj, order);
			else
				lua_rawset(L, obj); /* typed keys stay typed, unordered */
		}
		lua_pop(L, 1);
		return;
	}
	case NODE_NULL:
		sb_push_null(L);
		return;
	case NODE_BOOL:
		lua_pushboolean(L, n->v.b);
		return;
	case NODE_INT:
		lua_pushinteger(L, n->v.i);
		return;
	case NODE_FLOAT:
		lua_pushnumber(L, n->v.f);
		return;
	case NODE_DATE:
	case NODE_DATETIME:
		sb_push_time(L, &n->v.t, n->type == NODE_DATETIME);
		return;
	default:
		lua_pushlstring(L, n->v.str.s, n->v.str.len);
		return;
	}
}

static int l_tmpdoc_gc(lua_State *L)
{
	doc_release(lua_touserdata(L, 1));
	return 0;
}

struct doc *sb_tmpdoc(lua_State *L, size_t cap)
{
	struct doc *d = lua_newuserdatauv(L, sizeof *d, 0);

	doc_init(d, cap);
	if (luaL_newmetatable(L, "infragate.tmpdoc")) {
		lua_pushcfunction(L, l_tmpdoc_gc);
		lua_setfield(L, -2, "__gc");
		lua_pushboolean(L, 0);
		lua_setfield(L, -2, "__metatable");
	}
	lua_setmetatable(L, -2);
	return d;
}

int sb_json_decode(lua_State *L, const char *text, size_t len)
{
	struct doc_json_opts opts;
	struct diag err;
	struct doc *d;

	memset(&opts, 0, sizeof opts);
	diag_init(&err);
	/* The document is a userdata: a memory error while pushing frees it. */
	d = sb_tmpdoc(L, (size_t)256 << 20);
	if (doc_json_parse(d, text, len, &opts, &err) < 0 || !d->root) {
		lua_pop(L, 1);
		return -1;
	}
	sb_push_plain(L, d->root);
	lua_remove(L, -2);
	return 0;
}
