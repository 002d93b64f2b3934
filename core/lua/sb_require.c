/*
 * sb_require.c: the packs' require (spec/core.md 5.8). require("a.b") loads
 * the calling pack's own module lib/a/b.lua when the pack has one, else the
 * shared helper lua/a/b.lua of the data root: text only, once per pack, into
 * that pack's environment. The stock require and package do not exist.
 *
 * Pack modules are how a pack keeps code that only some verbs or rules need
 * out of pack.lua and commands.lua: compiling Lua is most of what a one-verb
 * run costs (5.1), and a module is compiled only when first required.
 */
#include "core/lua/sb_internal.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/util/readfile.h"
#include "core/util/within.h"

#define MODULE_SOURCE_MAX ((size_t)16 << 20)
#define MODULE_NAME_MAX 200

/* The value a module's cache slot holds while its chunk runs, so that a
 * module requiring itself (directly or round a cycle) is an error rather
 * than an endless recursion. Only its address matters. */
static char loading_mark;

/* Whether 'name' is a module name: [a-z][a-z0-9_]*(.[a-z][a-z0-9_]*)* */
static int module_name_ok(const char *s)
{
	int start = 1;

	if (!*s)
		return 0;
	for (; *s; s++) {
		if (start) {
			if (*s < 'a' || *s > 'z')
				return 0;
			start = 0;
		} else if (*s == '.') {
			start = 1;
		} else if (!((*s >= 'a' && *s <= 'z') ||
			     (*s >= '0' && *s <= '9') || *s == '_')) {
			return 0;
		}
	}
	return !start;
}

/* "a.b" -> "<folder>/a/b.lua" into 'out'. */
static void module_path(const char *folder, const char *name, char *out, size_t size)
{
	size_t i, at;

	at = (size_t)snprintf(out, size, "%s/", folder);
	for (i = 0; name[i] && at + 5 < size; i++)
		out[at++] = name[i] == '.' ? '/' : name[i];
	snprintf(out + at, size - at, ".lua");
}

static int regular_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Where a module's text is: the file to read and the chunk name its
 * messages carry. A name the pack and lua/ both define is refused: the
 * pack's copy would silently replace a shared helper for that pack only. */
static void locate(lua_State *L, const struct sandbox *sb, const struct sb_pack *p,
		   const char *name, char *path, char *chunk, size_t size)
{
	char rel[MODULE_NAME_MAX + 16], shared[PATH_MAX];

	module_path("lua", name, rel, sizeof rel);
	snprintf(shared, sizeof shared, "%s/%s", sb->data_root, rel);
	module_path("lib", name, rel, sizeof rel);
	snprintf(path, size, "%s/%s", p->desc.dir, rel);
	if (!regular_file(path)) {
		module_path("lua", name, rel, sizeof rel);
		snprintf(path, size, "%s", shared);
		snprintf(chunk, size, "@%s", rel);
		return;
	}
	if (regular_file(shared))
		luaL_error(L, "module '%s' is both %s/%s and the shared lua/ helper; "
			   "rename the pack's module", name, p->desc.chunk_dir, rel);
	switch (path_within(p->desc.dir, rel, path)) {
	case WITHIN:
		break;
	case WITHIN_OUTSIDE:
		luaL_error(L, "module '%s': %s leads outside the pack folder", name, rel);
		break;
	case WITHIN_MISSING:
	case WITHIN_NO_ROOT:
		luaL_error(L, "module '%s': %s/%s cannot be resolved", name,
			   p->desc.chunk_dir, rel);
		break;
	}
	snprintf(chunk, size, "@%s/%s", p->desc.chunk_dir, rel);
}

/* Compile the module's text; leaves the chunk on the stack. */
static void compile(lua_State *L, const char *name, const char *path, const char *chunk)
{
	char msg[DIAG_MSG_MAX];
	struct diag err;
	char *buf = NULL;
	size_t len = 0;
	int rc;

	/* luaL_error does not return; the returns after it say so to readers
	 * and analysers that do not know. */
	diag_init(&err);
	if (readfile(path, chunk + 1, MODULE_SOURCE_MAX, &buf, &len, &err) < 0) {
		if (err.code == DIAG_E_LIMIT)
			luaL_error(L, "module '%s': %s is larger than 16 MiB", name, chunk + 1);
		else
			luaL_error(L, "module '%s' not found in lua/ (nor in the pack's lib/)", name);
		return;
	}
	if (len && buf[0] == 0x1b) {
		free(buf);
		luaL_error(L, "'%s' is a binary chunk; only Lua text is loaded", chunk + 1);
		return;
	}
	rc = luaL_loadbufferx(L, buf, len, chunk, "t");
	free(buf);
	if (rc != LUA_OK) {
		sb_error_text(L, -1, msg, sizeof msg);
		luaL_error(L, "%s", msg);
	}
}

int sb_module_exists(const struct sandbox *sb, const struct sb_pack *p, const char *name)
{
	char rel[MODULE_NAME_MAX + 16], path[PATH_MAX];

	if (!module_name_ok(name) || strlen(name) > MODULE_NAME_MAX)
		return 0;
	module_path("lib", name, rel, sizeof rel);
	snprintf(path, sizeof path, "%s/%s", p->desc.dir, rel);
	if (regular_file(path))
		return 1;
	module_path("lua", name, rel, sizeof rel);
	snprintf(path, sizeof path, "%s/%s", sb->data_root, rel);
	return regular_file(path);
}

int sb_require(lua_State *L)
{
	struct sandbox *sb = sb_of(L);
	struct sb_pack *p = lua_touserdata(L, lua_upvalueindex(1));
	const char *name = luaL_checkstring(L, 1);
	char path[PATH_MAX], chunk[PATH_MAX];
	int cache;

	if (!module_name_ok(name) || strlen(name) > MODULE_NAME_MAX)
		return luaL_error(L, "module '%s' not found in lua/ (nor in the pack's lib/)",
				  name);
	lua_rawgeti(L, LUA_REGISTRYINDEX, p->loaded_ref);
	cache = lua_gettop(L);
	lua_getfield(L, cache, name);
	if (lua_touserdata(L, -1) == &loading_mark)
		return luaL_error(L, "module '%s' requires itself (a require cycle)", name);
	if (!lua_isnil(L, -1))
		return 1;
	lua_pop(L, 1);
	locate(L, sb, p, name, path, chunk, sizeof path);
	compile(L, name, path, chunk);
	sb_push_env(sb, p);
	lua_setupvalue(L, -2, 1);
	lua_pushlightuserdata(L, &loading_mark);
	lua_setfield(L, cache, name);
	if (lua_pcall(L, 0, 1, 0) != LUA_OK) {
		/* Forget the mark so a later require reports the same error
		 * instead of a cycle; then rethrow the error object as it is (a
		 * budget trip stays a budget trip). */
		lua_pushnil(L);
		lua_setfield(L, cache, name);
		return lua_error(L);
	}
	if (lua_isnil(L, -1)) {
		lua_pop(L, 1);
		lua_pushboolean(L, 1);
	}
	lua_pushvalue(L, -1);
	lua_setfield(L, cache, name);
	return 1;
}
