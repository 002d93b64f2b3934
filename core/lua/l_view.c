/*
 * l_view.c: documents as pack code sees them (spec/core.md 5.6). A list or
 * mapping reaches Lua as a read-only view: a userdata holding the
 * document's id and the node, with the JSON Pointer it was reached by as
 * its user value. Every access checks that the document is still
 * registered, so a view kept past its call raises "document is no longer
 * available" instead of touching freed memory. Scalars are plain Lua
 * values; dates and datetimes are timestamp userdata.
 */
#include "core/lua/sb_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/util/num.h"

/* ---- timestamps --------------------------------------------------------- */

struct sb_time {
	struct doc_time t;
	unsigned char is_datetime;
};

void sb_push_time(lua_State *L, const struct doc_time *t, int is_datetime)
{
	struct sb_time *p = lua_newuserdatauv(L, sizeof *p, 0);

	p->t = *t;
	p->is_datetime = (unsigned char)(is_datetime != 0);
	luaL_setmetatable(L, SB_KEY_TIME_MT);
}

static struct sb_time *check_time(lua_State *L, int idx)
{
	return luaL_checkudata(L, idx, SB_KEY_TIME_MT);
}

static int l_time_index(lua_State *L)
{
	static const char *const fields[] = { "year",   "month",  "day",
					      "hour",   "minute", "second",
					      "microsecond", "offset", NULL };
	struct sb_time *p = check_time(L, 1);
	int f = luaL_checkoption(L, 2, NULL, fields);
	lua_Integer v = 0;

	switch (f) {
	case 0: v = p->t.year; break;
	case 1: v = p->t.month; break;
	case 2: v = p->t.day; break;
	case 3: v = p->t.hour; break;
	case 4: v = p->t.minute; break;
	case 5: v = p->t.second; break;
	case 6: v = p->t.usec; break;
	default:
		if (!p->t.has_offset) {
			lua_pushnil(L);
			return 1;
		}
		v = p->t.offset;
	}
	lua_pushinteger(L, v);
	return 1;
}

static int l_time_tostring(lua_State *L)
{
	struct sb_time *p = check_time(L, 1);
	char buf[64];
	size_t n = doc_time_text(&p->t, p->is_datetime, 0, buf, sizeof buf);

	lua_pushlstring(L, buf, n);
	return 1;
}

static int time_compare(lua_State *L)
{
	struct sb_time *a = check_time(L, 1), *b = check_time(L, 2);
	int c;

	if (a->is_datetime != b->is_datetime)
		return luaL_error(L, "cannot compare a date with a datetime");
	c = doc_time_cmp(&a->t, &b->t, a->is_datetime);
	if (c == 2)
		return luaL_error(L, "cannot compare a naive datetime with one that has an offset");
	return c;
}

static int l_time_eq(lua_State *L)
{
	struct sb_time *a = check_time(L, 1), *b = check_time(L, 2);

	lua_pushboolean(L, a->is_datetime == b->is_datetime &&
			   doc_time_cmp(&a->t, &b->t, a->is_datetime) == 0);
	return 1;
}

static int l_time_lt(lua_State *L)
{
	lua_pushboolean(L, time_compare(L) < 0);
	return 1;
}

static int l_time_le(lua_State *L)
{
	lua_pushboolean(L, time_compare(L) <= 0);
	return 1;
}

static const luaL_Reg time_methods[] = {
	{ "__index", l_time_index }, { "__tostring", l_time_tostring },
	{ "__eq", l_time_eq },       { "__lt", l_time_lt },
	{ "__le", l_time_le },       { NULL, NULL }
};

/* ---- views ---------------------------------------------------------------- */

/* A view's user values: its JSON Pointer, and (made on its first list or
 * map child) a weak-valued table from child node to the child's view. Rules
 * read the same few containers over and over (doc.fault, doc.injection, one
 * per rule and access); the cache hands back the view already made instead
 * of a new userdata and pointer string each time. It is keyed below the
 * parent, not by node alone, because an alias shares one node between two
 * places with two pointers. Weak values keep it from holding a large
 * document's views alive: an entry nobody else holds goes with the next
 * collection, and is simply made again. */
enum { VIEW_UV_PATH = 1, VIEW_UV_CHILDREN = 2, VIEW_NUV = 2 };

static const char VIEW_CACHE_MT[] = "infragate.view-cache";

void sb_push_view(lua_State *L, uint64_t docid, const struct node *n,
		  const char *path, size_t pathlen)
{
	struct sb_view *v = lua_newuserdatauv(L, sizeof *v, VIEW_NUV);

	v->docid = docid;
	v->node = n;
	lua_pushlstring(L, path, pathlen);
	lua_setiuservalue(L, -2, VIEW_UV_PATH);
	luaL_setmetatable(L, SB_KEY_VIEW_MT);
}

void sb_push_value(lua_State *L, uint64_t docid, const struct node *n,
		   const char *path, size_t pathlen)
{
	switch (n->type) {
	case NODE_LIST:
	case NODE_MAP:
		sb_push_view(L, docid, n, path, pathlen);
		return;
	default:
		sb_push_plain(L, n);
	}
}

/* The view at idx, or NULL: its metatable compared by address with the one
 * sb_open_views made (what luaL_testudata does through a registry lookup by
 * name, on every field a rule reads). */
static struct sb_view *test_view(lua_State *L, int idx)
{
	struct sb_view *v = lua_touserdata(L, idx);
	int yes;

	if (!v || lua_islightuserdata(L, idx) || !lua_getmetatable(L, idx))
		return NULL;
	yes = lua_topointer(L, -1) == sb_of(L)->view_mt;
	lua_pop(L, 1);
	return yes ? v : NULL;
}

struct sb_view *sb_check_view(lua_State *L, int idx, int raise)
{
	struct sb_view *v = test_view(L, idx);

	if (!v)
		return NULL;
	if (!sb_doc_get(sb_of(L), v->docid)) {
		if (raise)
			luaL_error(L, "document is no longer available");
		return NULL;
	}
	return v;
}

const char *sb_view_path(lua_State *L, int idx, size_t *len)
{
	const char *s;

	lua_getiuservalue(L, idx, VIEW_UV_PATH);
	s = lua_tolstring(L, -1, len);
	lua_pop(L, 1);
	/* The string stays alive as the view's user value. */
	return s;
}

static struct sb_view *view_arg(lua_State *L, int idx)
{
	struct sb_view *v = sb_check_view(L, idx, 1);

	if (!v)
		luaL_typeerror(L, idx, "document view");
	return v;
}

/* The view an __index or __len was called on. Only indexing or measuring a
 * view reaches those two: the metatable is hidden behind __metatable and
 * the registry, so no pack can call them with another value, and argument
 * 1 is a view; what is left to check is that its document still lives.
 * (Not for __eq, whose first operand may be another userdata, nor for the
 * pairs iterator, which a rule can call by hand.) Rules index views
 * hundreds of times per document. */
static struct sb_view *view_self(lua_State *L)
{
	struct sb_view *v = lua_touserdata(L, 1);

	if (!sb_doc_get(sb_of(L), v->docid))
		luaL_error(L, "document is no longer available");
	return v;
}

/* Push the child pointer: parent path + "/" + token of key node k. */
static void push_child_path(lua_State *L, int view, const struct node *key,
			    size_t index, int is_list)
{
	size_t plen;
	const char *p = sb_view_path(L, view, &plen);
	/* The scratch buffer is safe to share: nothing between the reset and
	 * the push runs Lua code, and pack code has no finalizers (6.5). */
	struct sbuf *b = &sb_of(L)->path_scratch;

	sbuf_reset(b);
	b->cap = SB_JSON_MAX;
	sbuf_add(b, p, plen);
	if (is_list) {
		sbuf_addc(b, '/');
		sbuf_addu(b, index);
	} else {
		doc_pointer_token(b, key);
	}
	lua_pushlstring(L, sbuf_cstr(b), b->len);
}

/* Push child node c of the view at 'view' (key: its map key, or NULL for
 * list item 'index'): a scalar as its plain value, a list or map as a view
 * whose path is the parent's plus the child's token. The path is built only
 * for a container: most children a rule reads are scalars, which carry none. */
static void push_child(lua_State *L, int view, const struct sb_view *v,
		       const struct node *c, const struct node *key, size_t index)
{
	/* The cache key is the child's slot in its parent (item or pair), not
	 * the child node, which an alias may place at two slots. */
	const void *slot = key ? (const void *)key : (const void *)&v->node->v.list.items[index];

	struct sb_view *cv;

	if (c->type != NODE_LIST && c->type != NODE_MAP) {
		sb_push_plain(L, c);
		return;
	}
	view = lua_absindex(L, view);
	if (lua_getiuservalue(L, view, VIEW_UV_CHILDREN) == LUA_TTABLE) {
		if (lua_rawgetp(L, -1, slot) != LUA_TNIL) {
			lua_remove(L, -2);
			return;
		}
		lua_pop(L, 1);
	} else {
		lua_pop(L, 1);
		lua_createtable(L, 0, 4);
		luaL_setmetatable(L, VIEW_CACHE_MT);
		lua_pushvalue(L, -1);
		lua_setiuservalue(L, view, VIEW_UV_CHILDREN);
	}
	cv = lua_newuserdatauv(L, sizeof *cv, VIEW_NUV);
	cv->docid = v->docid;
	cv->node = c;
	push_child_path(L, view, key, index, key == NULL);
	lua_setiuservalue(L, -2, VIEW_UV_PATH);
	luaL_setmetatable(L, SB_KEY_VIEW_MT);
	lua_pushvalue(L, -1);
	lua_rawsetp(L, -3, slot);
	lua_remove(L, -2);
}

/* Build a key node for a non-string Lua value; returns 0 when it cannot
 * be a key. */
static int lua_key_node(lua_State *L, int idx, struct node *k)
{
	memset(k, 0, sizeof *k);
	switch (lua_type(L, idx)) {
	case LUA_TBOOLEAN:
		k->type = NODE_BOOL;
		k->v.b = lua_toboolean(L, idx);
		return 1;
	case LUA_TNUMBER:
		if (lua_isinteger(L, idx)) {
			k->type = NODE_INT;
			k->v.i = lua_tointeger(L, idx);
		} else {
			k->type = NODE_FLOAT;
			k->v.f = lua_tonumber(L, idx);
		}
		return 1;
	case LUA_TUSERDATA:
		if (sb_is_null(L, idx)) {
			k->type = NODE_NULL;
			return 1;
		}
		if (luaL_testudata(L, idx, SB_KEY_TIME_MT)) {
			struct sb_time *t = lua_touserdata(L, idx);

			k->type = t->is_datetime ? NODE_DATETIME : NODE_DATE;
			k->v.t = t->t;
			return 1;
		}
		return 0;
	default:
		return 0;
	}
}

/* Find the pair of a map whose key matches the Lua value at idx: string
 * keys by text only, other values by Python key equality. */
static const struct doc_pair *find_pair(lua_State *L, const struct node *map,
					int idx)
{
	struct node k;
	size_t i;

	if (lua_type(L, idx) == LUA_TSTRING) {
		size_t len;
		const char *s = lua_tolstring(L, idx, &len);

		return doc_get_pair(map, s, len);
	}
	if (!lua_key_node(L, idx, &k))
		return NULL;
	for (i = 0; i < map->v.map.n; i++)
		if (map->v.map.pairs[i].key->type != NODE_STR &&
		    doc_key_equal(map->v.map.pairs[i].key, &k))
			return &map->v.map.pairs[i];
	return NULL;
}

/* A list index from a Lua value (1-based), or 0. */
static size_t list_index(lua_State *L, int idx, size_t n)
{
	lua_Integer i;

	if (!lua_isinteger(L, idx)) {
		lua_Number f;

		if (lua_type(L, idx) != LUA_TNUMBER)
			return 0;
		f = lua_tonumber(L, idx);
		if (f != floor(f) || f < 1 || f > (lua_Number)n)
			return 0;
		i = (lua_Integer)f;
	} else {
		i = lua_tointeger(L, idx);
	}
	return i >= 1 && (size_t)i <= n ? (size_t)i : 0;
}

static int l_view_index(lua_State *L)
{
	struct sb_view *v = view_self(L);
	const struct node *n = v->node;

	if (n->type == NODE_LIST) {
		size_t i = list_index(L, 2, n->v.list.n);

		if (!i)
			return 0;
		push_child(L, 1, v, n->v.list.items[i - 1], NULL, i - 1);
		return 1;
	}
	if (n->type == NODE_MAP) {
		const struct doc_pair *pr = find_pair(L, n, 2);

		if (!pr)
			return 0;
		push_child(L, 1, v, pr->value, pr->key, 0);
		return 1;
	}
	return 0;
}

static int l_view_newindex(lua_State *L)
{
	return luaL_error(L, "documents are read-only");
}

static int l_view_len(lua_State *L)
{
	struct sb_view *v = view_self(L);

	lua_pushinteger(L, (lua_Integer)(v->node->type == NODE_LIST
						 ? v->node->v.list.n
						 : v->node->v.map.n));
	return 1;
}

/* Iterator state in upvalues: 1 the view, 2 the position. */
static int l_view_next(lua_State *L)
{
	struct sb_view *v = view_arg(L, lua_upvalueindex(1));
	const struct node *n = v->node;
	lua_Integer pos = lua_tointeger(L, lua_upvalueindex(2));

	if (n->type == NODE_LIST) {
		if ((size_t)pos >= n->v.list.n)
			return 0;
		lua_pushinteger(L, pos + 1);
		lua_replace(L, lua_upvalueindex(2));
		lua_pushinteger(L, pos + 1);
		push_child(L, lua_upvalueindex(1), v, n->v.list.items[pos], NULL, (size_t)pos);
		return 2;
	}
	if ((size_t)pos >= n->v.map.n)
		return 0;
	lua_pushinteger(L, pos + 1);
	lua_replace(L, lua_upvalueindex(2));
	sb_push_plain(L, n->v.map.pairs[pos].key);
	push_child(L, lua_upvalueindex(1), v, n->v.map.pairs[pos].value, n->v.map.pairs[pos].key,
		   0);
	return 2;
}

static int l_view_pairs(lua_State *L)
{
	view_arg(L, 1);
	lua_pushvalue(L, 1);
	lua_pushinteger(L, 0);
	lua_pushcclosure(L, l_view_next, 2);
	lua_pushnil(L);
	lua_pushnil(L);
	return 3;
}

static int l_view_tostring(lua_State *L)
{
	struct sb_view *v = luaL_checkudata(L, 1, SB_KEY_VIEW_MT);
	size_t plen;
	const char *p = sb_view_path(L, 1, &plen);

	lua_pushfstring(L, "%s view '%s'",
			v->node->type == NODE_LIST ? "list" : "map", p);
	return 1;
}

static int l_view_eq(lua_State *L)
{
	struct sb_view *a = test_view(L, 1);
	struct sb_view *b = test_view(L, 2);

	lua_pushboolean(L, a && b && a->docid == b->docid && a->node == b->node);
	return 1;
}

static const luaL_Reg view_methods[] = {
	{ "__index", l_view_index },     { "__newindex", l_view_newindex },
	{ "__len", l_view_len },         { "__pairs", l_view_pairs },
	{ "__tostring", l_view_tostring }, { "__eq", l_view_eq },
	{ NULL, NULL }
};

/* ---- document functions ---------------------------------------------------- */

static int l_type(lua_State *L)
{
	struct sb_view *v;

	luaL_checkany(L, 1);
	switch (lua_type(L, 1)) {
	case LUA_TBOOLEAN:
		lua_pushliteral(L, "bool");
		return 1;
	case LUA_TNUMBER:
		lua_pushstring(L, lua_isinteger(L, 1) ? "int" : "float");
		return 1;
	case LUA_TSTRING:
		lua_pushliteral(L, "str");
		return 1;
	case LUA_TUSERDATA:
		if (sb_is_null(L, 1)) {
			lua_pushliteral(L, "null");
			return 1;
		}
		if (luaL_testudata(L, 1, SB_KEY_TIME_MT)) {
			struct sb_time *t = lua_touserdata(L, 1);

			lua_pushstring(L, t->is_datetime ? "datetime" : "date");
			return 1;
		}
		v = sb_check_view(L, 1, 1);
		if (v) {
			lua_pushstring(L, v->node->type == NODE_LIST ? "list" : "map");
			return 1;
		}
		break;
	default:
		break;
	}
	lua_pushliteral(L, "lua");
	return 1;
}

static int l_isnull(lua_State *L)
{
	lua_pushboolean(L, sb_is_null(L, 1));
	return 1;
}

static const struct node *map_arg(lua_State *L, int idx)
{
	struct sb_view *v = view_arg(L, idx);

	if (v->node->type != NODE_MAP)
		luaL_argerror(L, idx, "a map view expected, got a list");
	return v->node;
}

static int l_has(lua_State *L)
{
	const struct node *m = map_arg(L, 1);

	luaL_checkany(L, 2);
	lua_pushboolean(L, find_pair(L, m, 2) != NULL);
	return 1;
}

static int l_keys(lua_State *L)
{
	const struct node *m = map_arg(L, 1);
	size_t i;

	sb_new_array(L);
	for (i = 0; i < m->v.map.n; i++) {
		sb_push_plain(L, m->v.map.pairs[i].key);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	return 1;
}

static int l_get(lua_State *L)
{
	struct sb_view *v = view_arg(L, 1);
	size_t plen, ptrlen;
	const char *ptr = luaL_checklstring(L, 2, &ptrlen);
	const char *p = sb_view_path(L, 1, &plen);
	struct node *n = doc_resolve((struct node *)(uintptr_t)v->node, ptr, NULL);

	if (!n)
		return 0;
	lua_pushlstring(L, p, plen);
	lua_pushlstring(L, ptr, ptrlen);
	lua_concat(L, 2);
	p = lua_tolstring(L, -1, &plen);
	sb_push_value(L, v->docid, n, p, plen);
	return 1;
}

/* Resolve a position and pointer (spec/core.md 5.5). */
int sb_locate(lua_State *L, int at, int key, int on_key, uint64_t docid,
	      const struct node *root, const char *root_path,
	      struct sb_where *w, struct sbuf *path, char *msg, size_t size)
{
	const struct node *n = root, *pos = root;
	size_t plen;
	const char *p;

	(void)docid;
	sbuf_reset(path);
	if (lua_isnoneornil(L, at)) {
		sbuf_adds(path, root_path ? root_path : "");
	} else if (lua_type(L, at) == LUA_TSTRING) {
		struct node *deep = NULL;

		p = lua_tolstring(L, at, &plen);
		n = doc_resolve((struct node *)(uintptr_t)root, p, &deep);
		pos = n ? n : deep;
		sbuf_add(path, p, plen);
	} else {
		struct sb_view *v = sb_check_view(L, at, 1);

		if (!v) {
			snprintf(msg, size, "'at' must be a document view, a JSON Pointer or nil, not %s",
				 luaL_typename(L, at));
			return -1;
		}
		n = pos = v->node;
		p = sb_view_path(L, at, &plen);
		sbuf_add(path, p, plen);
	}
	if (!lua_isnoneornil(L, key)) {
		if (!n || (n->type != NODE_MAP && n->type != NODE_LIST)) {
			snprintf(msg, size, "'key' needs a map or list to look in");
			return -1;
		}
		if (n->type == NODE_MAP) {
			const struct doc_pair *pr = find_pair(L, n, key);

			if (pr) {
				pos = on_key ? pr->key : pr->value;
				doc_pointer_token(path, pr->key);
			} else if (lua_type(L, key) == LUA_TSTRING) {
				/* Absent: the member's pointer, the map's place. */
				p = lua_tolstring(L, key, &plen);
				doc_pointer_add(path, p, plen);
				pos = n;
			} else {
				struct node k;

				if (!lua_key_node(L, key, &k)) {
					snprintf(msg, size, "'key' cannot be a %s",
						 luaL_typename(L, key));
					return -1;
				}
				doc_pointer_token(path, &k);
				pos = n;
			}
		} else {
			size_t i = list_index(L, key, n->v.list.n);
			char num[32];

			if (lua_type(L, key) != LUA_TNUMBER) {
				snprintf(msg, size, "a list 'key' must be a number");
				return -1;
			}
			if (i) {
				pos = n->v.list.items[i - 1];
				snprintf(num, sizeof num, "%zu", i - 1);
			} else {
				snprintf(num, sizeof num, "%lld",
					 (long long)lua_tointeger(L, key) - 1);
			}
			doc_pointer_add(path, num, strlen(num));
		}
	} else if (on_key) {
		snprintf(msg, size, "on = \"key\" needs a 'key'");
		return -1;
	}
	if (pos) {
		w->line = pos->line;
		w->col = pos->col;
		w->end_line = pos->end_line;
		w->end_col = pos->end_col;
	} else {
		memset(w, 0, sizeof *w);
	}
	return 0;
}

static void push_where(lua_State *L, const struct sb_where *w, const char *p,
		       size_t plen)
{
	lua_createtable(L, 0, 5);
	if (w->line) {
		lua_pushinteger(L, w->line);
		lua_setfield(L, -2, "line");
		lua_pushinteger(L, w->col);
		lua_setfield(L, -2, "column");
		lua_pushinteger(L, w->end_line);
		lua_setfield(L, -2, "end_line");
		lua_pushinteger(L, w->end_col);
		lua_setfield(L, -2, "end_column");
	}
	lua_pushlstring(L, p, plen);
	lua_setfield(L, -2, "path");
}

static int where_or_path(lua_State *L, int want_where)
{
	struct sb_view *v;
	const struct sb_doc *d;
	struct sbuf *path;
	int bufidx;
	struct sb_where w;
	char msg[256];
	int on_key = 0;

	/* Fix the optional arguments' slots before the buffer is pushed. */
	lua_settop(L, 3);
	v = view_arg(L, 1);
	d = sb_doc_get(sb_of(L), v->docid);
	path = sb_tmpbuf(L, SB_JSON_MAX);
	bufidx = lua_gettop(L);

	if (!lua_isnoneornil(L, 3)) {
		const char *on = luaL_checkstring(L, 3);

		if (strcmp(on, "key") != 0 && strcmp(on, "value") != 0)
			return luaL_argerror(L, 3, "\"key\" or \"value\" expected");
		on_key = on[0] == 'k';
	}
	if (sb_locate(L, 1, 2, on_key, v->docid, d->doc->root, NULL, &w, path,
		      msg, sizeof msg) < 0)
		return luaL_error(L, "%s", msg);
	if (want_where)
		push_where(L, &w, sbuf_cstr(path), path->len);
	else
		lua_pushlstring(L, sbuf_cstr(path), path->len);
	sbuf_release(path);
	lua_remove(L, bufidx);
	return 1;
}

static int l_where(lua_State *L)
{
	return where_or_path(L, 1);
}

static int l_path(lua_State *L)
{
	return where_or_path(L, 0);
}

/* engine.nonstring_keys(view): every mapping key at or below the view that is
 * not a string, depth first in document order, each as {map = <view of its
 * mapping>, key = <the key, typed>}; the value under such a key is not
 * searched. Packs whose documents need string keys (chaos, spec/chaos.md
 * 4.1) check this on every file they read, and one C walk costs a small part
 * of a Lua recursion through views, which builds a view per container. */
struct key_walk {
	lua_State *L;
	uint64_t docid;
	struct sbuf *path;
	lua_Integer n;
};

static void walk_keys(struct key_walk *kw, const struct node *n)
{
	size_t mark = kw->path->len, i;

	if (n->type == NODE_LIST) {
		for (i = 0; i < n->v.list.n; i++) {
			sbuf_addc(kw->path, '/');
			sbuf_addu(kw->path, i);
			walk_keys(kw, n->v.list.items[i]);
			sbuf_truncate(kw->path, mark);
		}
		return;
	}
	if (n->type != NODE_MAP)
		return;
	for (i = 0; i < n->v.map.n; i++) {
		const struct doc_pair *pr = &n->v.map.pairs[i];

		if (pr->key->type != NODE_STR) {
			lua_State *L = kw->L;

			luaL_checkstack(L, 4, "nonstring_keys");
			lua_createtable(L, 0, 2);
			sb_push_view(L, kw->docid, n, sbuf_cstr(kw->path), mark);
			lua_setfield(L, -2, "map");
			sb_push_plain(L, pr->key);
			lua_setfield(L, -2, "key");
			lua_rawseti(L, -2, ++kw->n);
			continue;
		}
		doc_pointer_token(kw->path, pr->key);
		walk_keys(kw, pr->value);
		sbuf_truncate(kw->path, mark);
	}
}

static int l_nonstring_keys(lua_State *L)
{
	struct key_walk kw;
	struct sb_view *v;
	size_t plen;
	const char *p;

	lua_settop(L, 1);
	v = view_arg(L, 1);
	p = sb_view_path(L, 1, &plen);
	kw.L = L;
	kw.docid = v->docid;
	kw.path = sb_tmpbuf(L, SB_JSON_MAX);
	kw.n = 0;
	sbuf_add(kw.path, p, plen);
	sb_new_array(L);
	walk_keys(&kw, v->node);
	return 1;
}

static const luaL_Reg doc_funcs[] = {
	{ "type", l_type }, { "isnull", l_isnull }, { "has", l_has },
	{ "keys", l_keys }, { "get", l_get },       { "where", l_where },
	{ "path", l_path }, { "nonstring_keys", l_nonstring_keys },
	{ NULL, NULL }
};

void sb_open_views(lua_State *L, int idx)
{
	idx = lua_absindex(L, idx);
	luaL_newmetatable(L, SB_KEY_VIEW_MT);
	sb_of(L)->view_mt = lua_topointer(L, -1);
	luaL_setfuncs(L, view_methods, 0);
	lua_pushliteral(L, "view");
	lua_setfield(L, -2, "__metatable");
	lua_pop(L, 1);
	luaL_newmetatable(L, VIEW_CACHE_MT);
	lua_pushliteral(L, "v");
	lua_setfield(L, -2, "__mode");
	lua_pop(L, 1);
	luaL_newmetatable(L, SB_KEY_TIME_MT);
	luaL_setfuncs(L, time_methods, 0);
	lua_pushliteral(L, "timestamp");
	lua_setfield(L, -2, "__metatable");
	lua_pop(L, 1);
	lua_pushvalue(L, idx);
	luaL_setfuncs(L, doc_funcs, 0);
	lua_pop(L, 1);
}

/* ---- plain Lua values to a document (engine.view) ---------------------- */

#define SB_VIEW_DEPTH 100
#define SB_VIEW_NODES 1000000

struct to_doc {
	lua_State *L;
	struct doc *d;
	char *msg;
	size_t size;
	size_t nodes;
	int obj_mt, arr_mt, order;
};

static struct node *to_node(struct to_doc *c, int idx, int depth);

static struct node *to_fail(struct to_doc *c, const char *why)
{
	if (!c->msg[0])
		snprintf(c->msg, c->size, "%s", why);
	return NULL;
}

static int to_add_pair(struct to_doc *c, struct node *map, int kidx, int vidx,
		       int depth, size_t *alloc)
{
	struct node *k, *v;
	size_t len;
	const char *s;

	if (lua_type(c->L, kidx) != LUA_TSTRING) {
		to_fail(c, "map keys must be strings");
		return -1;
	}
	s = lua_tolstring(c->L, kidx, &len);
	k = doc_new_str(c->d, s, len);
	v = to_node(c, vidx, depth + 1);
	if (!k || !v)
		return -1;
	if (map->v.map.n == *alloc) {
		size_t na = *alloc ? *alloc * 2 : 8;
		struct doc_pair *p = arena_grow(&c->d->arena, map->v.map.pairs,
						map->v.map.n, na, sizeof *p);

		if (!p)
			return -1;
		map->v.map.pairs = p;
		*alloc = na;
	}
	map->v.map.pairs[map->v.map.n].key = k;
	map->v.map.pairs[map->v.map.n].value = v;
	map->v.map.n++;
	return 0;
}

static struct node *to_table(struct to_doc *c, int t, int depth)
{
	lua_State *L = c->L;
	struct node *n;
	size_t count = 0, alloc = 0;
	int kind = 0;
	lua_Integer i, len;

	if (lua_getmetatable(L, t)) {
		kind = lua_rawequal(L, -1, c->obj_mt) ? 1
		     : lua_rawequal(L, -1, c->arr_mt) ? 2 : 3;
		lua_pop(L, 1);
	}
	if (kind == 3)
		return to_fail(c, "a table with a metatable cannot become a document");
	if (kind == 0) {
		lua_Integer maxi = 0;

		lua_pushnil(L);
		while (lua_next(L, t)) {
			count++;
			if (lua_isinteger(L, -2) && lua_tointeger(L, -2) > maxi)
				maxi = lua_tointeger(L, -2);
			lua_pop(L, 1);
		}
		kind = count > 0 && (size_t)maxi == count ? 2 : 1;
		if (kind == 1 && count > 0) {
			/* A plain map: keys in byte order, via a sorted object. */
			n = doc_new(c->d, NODE_MAP);
			if (!n)
				return NULL;
			lua_pushnil(L);
			while (lua_next(L, t)) {
				if (to_add_pair(c, n, lua_gettop(L) - 1,
						lua_gettop(L), depth, &alloc) < 0) {
					lua_pop(L, 2);
					return NULL;
				}
				lua_pop(L, 1);
			}
			/* Sort keys: insertion sort, maps from Lua are small. */
			for (i = 1; i < (lua_Integer)n->v.map.n; i++) {
				struct doc_pair p = n->v.map.pairs[i];
				lua_Integer j = i - 1;

				while (j >= 0 &&
				       strcmp(n->v.map.pairs[j].key->v.str.s,
					      p.key->v.str.s) > 0) {
					n->v.map.pairs[j + 1] = n->v.map.pairs[j];
					j--;
				}
				n->v.map.pairs[j + 1] = p;
			}
			return n;
		}
	}
	if (kind == 2) {
		len = (lua_Integer)lua_rawlen(L, t);
		n = doc_new(c->d, NODE_LIST);
		if (!n)
			return NULL;
		n->v.list.items = arena_calloc(&c->d->arena, (size_t)len + 1,
					       sizeof *n->v.list.items);
		if (!n->v.list.items)
			return NULL;
		for (i = 1; i <= len; i++) {
			struct node *item;

			lua_rawgeti(L, t, i);
			item = to_node(c, lua_gettop(L), depth + 1);
			lua_pop(L, 1);
			if (!item)
				return NULL;
			n->v.list.items[n->v.list.n++] = item;
		}
		return n;
	}
	/* An engine.object (or an empty plain table): insertion order. */
	n = doc_new(c->d, NODE_MAP);
	if (!n)
		return NULL;
	lua_pushvalue(L, t);
	if (lua_rawget(L, c->order) == LUA_TTABLE) {
		lua_rawgeti(L, -1, 1);
		len = (lua_Integer)lua_rawlen(L, -1);
		for (i = 1; i <= len; i++) {
			lua_rawgeti(L, -1, i);
			lua_pushvalue(L, -1);
			if (lua_rawget(L, t) != LUA_TNIL &&
			    to_add_pair(c, n, lua_gettop(L) - 1, lua_gettop(L),
					depth, &alloc) < 0) {
				lua_pop(L, 4);
				return NULL;
			}
			lua_pop(L, 2);
		}
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
	return n;
}

static struct node *to_node(struct to_doc *c, int idx, int depth)
{
	lua_State *L = c->L;
	struct node *n = NULL;

	if (depth > SB_VIEW_DEPTH)
		return to_fail(c, "value nests too deep (or is cyclic)");
	if (++c->nodes > SB_VIEW_NODES)
		return to_fail(c, "value has too many nodes");
	if (!lua_checkstack(L, 8))
		return to_fail(c, "value nests too deep");
	switch (lua_type(L, idx)) {
	case LUA_TNIL:
		return doc_new(c->d, NODE_NULL);
	case LUA_TBOOLEAN:
		n = doc_new(c->d, NODE_BOOL);
		if (n)
			n->v.b = lua_toboolean(L, idx);
		return n;
	case LUA_TNUMBER:
		if (lua_isinteger(L, idx)) {
			n = doc_new(c->d, NODE_INT);
			if (n)
				n->v.i = lua_tointeger(L, idx);
		} else {
			n = doc_new(c->d, NODE_FLOAT);
			if (n)
				n->v.f = lua_tonumber(L, idx);
		}
		return n;
	case LUA_TSTRING: {
		size_t len;
		const char *s = lua_tolstring(L, idx, &len);

		return doc_new_str(c->d, s, len);
	}
	case LUA_TTABLE:
		return to_table(c, lua_absindex(L, idx), depth);
	case LUA_TUSERDATA: {
		struct node k;

		if (lua_key_node(L, idx, &k) && k.type != NODE_BOOL &&
		    k.type != NODE_INT && k.type != NODE_FLOAT) {
			n = doc_new(c->d, (enum node_type)k.type);
			if (n)
				n->v = k.v;
			return n;
		}
		return to_fail(c, "a userdata cannot become a document value");
	}
	default:
		return to_fail(c, "a function cannot become a document value");
	}
}

int sb_lua_to_doc(lua_State *L, int idx, struct doc *d, char *msg,
		  size_t size)
{
	struct to_doc c;
	int top = lua_gettop(L);

	idx = lua_absindex(L, idx);
	msg[0] = '\0';
	c.L = L;
	c.d = d;
	c.msg = msg;
	c.size = size;
	c.nodes = 0;
	luaL_getmetatable(L, SB_KEY_OBJ_MT);
	c.obj_mt = lua_gettop(L);
	luaL_getmetatable(L, SB_KEY_ARR_MT);
	c.arr_mt = lua_gettop(L);
	lua_getfield(L, LUA_REGISTRYINDEX, SB_KEY_OBJORDER);
	c.order = lua_gettop(L);
	d->root = to_node(&c, idx, 0);
	lua_settop(L, top);
	if (!d->root) {
		if (!msg[0])
			snprintf(msg, size, "out of memory building a document");
		return -1;
	}
	d->nodes = c.nodes;
	return 0;
}
