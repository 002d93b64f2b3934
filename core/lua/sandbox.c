/*
 * sandbox.c: the Lua state every piece of pack code runs in. It builds the
 * allowed library set from an explicit list (never "open all, then
 * delete"), counts every byte the state allocates against its cap, runs
 * every host-to-Lua call under a sticky instruction budget, and loads pack
 * files as text only, each pack into its own environment. This is the
 * engine's security boundary: nothing here may let pack code reach files,
 * the clock, the environment or native code, or outlive its budget.
 */
#include "core/lua/sb_internal.h"

#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/lua/l_services.h"
#include "core/util/readfile.h"

#define SB_SOURCE_MAX ((size_t)16 << 20)

struct sandbox *sb_of(lua_State *L)
{
	return *(struct sandbox **)lua_getextraspace(L);
}

void sandbox_limits_default(struct sandbox_limits *lim)
{
	lim->instructions = 10000000ULL;
	lim->instructions_per_node = 100ULL;
	lim->command_instructions = 2000000000ULL;
	lim->memory_bytes = (size_t)256 << 20;
	re_limits_default(&lim->re);
	yaml_limits_default(&lim->yaml);
	lim->file_bytes = 8388608;
	lim->findings = 10000;
}

/* ---- memory (spec/core.md 6.4) ---------------------------------------- */

static void sb_hook(lua_State *L, lua_Debug *ar);

/* Under AddressSanitizer every block comes from malloc, so that Lua's
 * heap keeps its redzones and leak reports. */
#if defined(__SANITIZE_ADDRESS__)
#define SB_USE_POOL 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SB_USE_POOL 0
#endif
#endif
#ifndef SB_USE_POOL
#define SB_USE_POOL 1
#endif

static int pooled(size_t n)
{
	return SB_USE_POOL && n > 0 && n <= SB_POOL_MAX_BLOCK;
}

/* realloc with the pool for small blocks (sb_pool.h); a block's size says
 * where it came from. */
static void *sb_realloc(struct sandbox *sb, void *ptr, size_t osize, size_t nsize)
{
	int small_old = ptr && pooled(osize), small_new = pooled(nsize);
	void *p;

	if (small_old && small_new && (osize - 1) >> 4 == (nsize - 1) >> 4)
		return ptr;
	if (!small_old && !small_new)
		return realloc(ptr, nsize);
	p = small_new ? sb_pool_get(&sb->pool, nsize, nsize < osize) : malloc(nsize);
	if (!p || !ptr)
		return p;
	memcpy(p, ptr, osize < nsize ? osize : nsize);
	if (small_old)
		sb_pool_put(&sb->pool, ptr, osize);
	else
		free(ptr);
	return p;
}

static void *sb_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	struct sandbox *sb = ud;
	void *p;

	/* With a NULL pointer, osize is a type tag, not a size. */
	if (!ptr)
		osize = 0;
	if (nsize == 0) {
		if (ptr && pooled(osize))
			sb_pool_put(&sb->pool, ptr, osize);
		else
			free(ptr);
		sb->mem_used -= osize;
		return NULL;
	}
	if (nsize > osize) {
		if (sb->fail_at > 0 && --sb->fail_at == 0)
			return NULL;
		if (nsize - osize > sb->mem_cap - sb->mem_used ||
		    sb->mem_used > sb->mem_cap) {
			if (sb->frame && sb->L) {
				/* Sticky, as for instructions: a pcall that
				 * caught "not enough memory" cannot go on. */
				sb->frame->tripped |= TRIP_MEM;
				sb->frame->period = 1;
				lua_sethook(sb->L, sb_hook, LUA_MASKCOUNT, 1);
			}
			return NULL;
		}
	}
	p = sb_realloc(sb, ptr, osize, nsize);
	if (!p)
		return NULL;
	sb->mem_used = sb->mem_used - osize + nsize;
	return p;
}

/* PCRE2's allocations count against the same cap; its free hook gets no
 * size, so each block carries one. */
static void *sb_re_alloc(size_t size, void *ud)
{
	struct sandbox *sb = ud;
	size_t *p;

	if (size > SIZE_MAX - 16 || size + 16 > sb->mem_cap - sb->mem_used ||
	    sb->mem_used > sb->mem_cap) {
		if (sb->frame)
			sb->frame->tripped |= TRIP_MEM;
		return NULL;
	}
	p = malloc(size + 16);
	if (!p)
		return NULL;
	p[0] = size + 16;
	sb->mem_used += size + 16;
	return (char *)p + 16;
}

static void sb_re_free(void *ptr, void *ud)
{
	struct sandbox *sb = ud;
	size_t *p;

	if (!ptr)
		return;
	p = (size_t *)(void *)((char *)ptr - 16);
	sb->mem_used -= p[0];
	free(p);
}

/* ---- budget (spec/core.md 6.3) ----------------------------------------- */

static void sb_arm(lua_State *L, struct sb_frame *f)
{
	lua_sethook(L, sb_hook, LUA_MASKCOUNT, (int)f->period);
}

static void sb_raise_budget(lua_State *L, struct sb_frame *f, int level)
{
	const char *what = (f->tripped & TRIP_MEM) ? "memory"
			 : (f->tripped & TRIP_REGEX) ? "regular expression"
			 : "instruction";

	luaL_where(L, level);
	lua_pushfstring(L, "rule exceeded its %s budget", what);
	lua_concat(L, 2);
	lua_error(L);
}

static void sb_hook(lua_State *L, lua_Debug *ar)
{
	struct sandbox *sb = sb_of(L);
	struct sb_frame *f = sb->frame;

	(void)ar;
	if (!f)
		return;
	f->spent += f->period;
	if (f->spent <= f->budget && !f->tripped)
		return;
	if (!f->tripped)
		f->tripped = TRIP_CPU;
	/* From now on every instruction raises, so no pcall can go on. */
	f->period = 1;
	lua_sethook(L, sb_hook, LUA_MASKCOUNT, 1);
	/* Level 0: inside a hook, level 1 names no Lua function. */
	sb_raise_budget(L, f, 0);
}

void sb_trip(lua_State *L, unsigned why)
{
	struct sandbox *sb = sb_of(L);

	if (!sb->frame)
		return;
	sb->frame->tripped |= why;
	sb->frame->period = 1;
	lua_sethook(L, sb_hook, LUA_MASKCOUNT, 1);
}

void sb_charge(lua_State *L, unsigned long long steps)
{
	struct sandbox *sb = sb_of(L);
	struct sb_frame *f = sb->frame;

	if (!f)
		return;
	f->spent += steps;
	if (f->spent <= f->budget && !f->tripped)
		return;
	if (!f->tripped)
		f->tripped = TRIP_CPU;
	sb_trip(L, 0);
	sb_raise_budget(L, f, 1);
}

static void sb_meter_charge(lua_State *L, void *ud, unsigned long steps)
{
	(void)ud;
	sb_charge(L, steps);
}

/* ---- errors ------------------------------------------------------------ */

void sb_error_text(lua_State *L, int idx, char *msg, size_t size)
{
	if (lua_type(L, idx) == LUA_TSTRING) {
		size_t len;
		const char *s = lua_tolstring(L, idx, &len);

		diag_copy_text(msg, size, s);
		(void)len;
		return;
	}
	snprintf(msg, size, "the rule raised %s %s",
		 lua_type(L, idx) == LUA_TNIL ? "" : "a",
		 lua_type(L, idx) == LUA_TNIL ? "nil" : luaL_typename(L, idx));
}

/* Message handler: append the pack frames of the stack, on one line. */
static int sb_msgh(lua_State *L)
{
	char msg[DIAG_MSG_MAX];
	luaL_Buffer b;
	lua_Debug ar;
	int level, shown = 0;

	sb_error_text(L, 1, msg, sizeof msg);
	luaL_buffinit(L, &b);
	luaL_addstring(&b, msg);
	for (level = 1; shown < 4 && lua_getstack(L, level, &ar); level++) {
		if (!lua_getinfo(L, "Sl", &ar) || ar.currentline <= 0)
			continue;
		luaL_addstring(&b, shown ? ", " : " (traceback: ");
		lua_pushfstring(L, "%s:%d", ar.short_src, ar.currentline);
		luaL_addvalue(&b);
		shown++;
	}
	if (shown)
		luaL_addchar(&b, ')');
	luaL_pushresult(&b);
	return 1;
}

enum sb_outcome sb_pcall(struct sandbox *sb, int nargs, int nres,
			 unsigned long long budget, char *msg, size_t size)
{
	lua_State *L = sb->L;
	struct sb_frame frame, *outer = sb->frame;
	enum sb_outcome out = SB_OK;
	int base = lua_gettop(L) - nargs, rc;

	frame.budget = budget;
	frame.spent = 0;
	frame.tripped = 0;
	frame.period = budget < SB_HOOK_PERIOD ? (unsigned)(budget ? budget : 1)
					       : SB_HOOK_PERIOD;
	lua_pushcfunction(L, sb_msgh);
	lua_insert(L, base);
	sb->frame = &frame;
	sb_arm(L, &frame);
	rc = lua_pcall(L, nargs, nres, base);
	lua_sethook(L, NULL, 0, 0);
	sb->frame = outer;
	if (outer)
		sb_arm(L, outer);
	if (rc != LUA_OK) {
		if (rc == LUA_ERRMEM)
			frame.tripped |= TRIP_MEM;
		sb_error_text(L, -1, msg, size);
		lua_pop(L, 1);
		out = SB_ERROR;
	}
	lua_remove(L, base);
	if (sb->pending.kind == 1)
		out = SB_USAGE;
	else if (sb->pending.kind == 2)
		out = SB_INPUT;
	if (frame.tripped) {
		/* The trip wins over whatever the call returned. */
		if (out == SB_OK)
			lua_pop(L, nres);
		if (out != SB_USAGE && out != SB_INPUT) {
			snprintf(msg, size, "%s",
				 (frame.tripped & TRIP_MEM) ?
				 "exceeded the memory limit of the Lua state (lua_memory_mb)" :
				 (frame.tripped & TRIP_REGEX) ?
				 "a regular expression exceeded its match limits" :
				 "exceeded its instruction budget");
			out = SB_BUDGET;
		}
		lua_gc(L, LUA_GCCOLLECT);
	}
	return out;
}

/* ---- documents visible to Lua ------------------------------------------ */

uint64_t sb_doc_add(struct sandbox *sb, const struct doc *doc,
		    const char *kind, const char *file)
{
	struct sb_doc *d;

	if (sb->ndocs == SB_MAX_DOCS)
		return 0;
	d = &sb->docs[sb->ndocs++];
	d->id = ++sb->next_id;
	d->doc = doc;
	d->kind = kind;
	d->file = file;
	return d->id;
}

void sb_doc_remove(struct sandbox *sb, uint64_t id)
{
	size_t i;

	for (i = sb->ndocs; i-- > 0;) {
		if (sb->docs[i].id == id) {
			memmove(&sb->docs[i], &sb->docs[i + 1],
				(sb->ndocs - i - 1) * sizeof sb->docs[0]);
			sb->ndocs--;
			return;
		}
	}
}

const struct sb_doc *sb_doc_get(const struct sandbox *sb, uint64_t id)
{
	size_t i;

	/* Newest first: a check reads the document it was just given. */
	for (i = sb->ndocs; i-- > 0;)
		if (sb->docs[i].id == id)
			return &sb->docs[i];
	return NULL;
}

/* ---- paths a command may open ------------------------------------------ */

int sb_path_allowed(const struct sandbox *sb, const char *path)
{
	size_t i;

	for (i = 0; i < sb->nallowed; i++)
		if (strcmp(sb->allowed[i], path) == 0)
			return 1;
	return 0;
}

int sb_allow_path(struct sandbox *sb, const char *path)
{
	char *copy;

	if (sb_path_allowed(sb, path))
		return 0;
	if (sb->nallowed == sb->allowed_alloc) {
		size_t na = sb->allowed_alloc ? sb->allowed_alloc * 2 : 16;
		char **p = realloc(sb->allowed, na * sizeof *p);

		if (!p)
			return -1;
		sb->allowed = p;
		sb->allowed_alloc = na;
	}
	copy = strdup(path);
	if (!copy)
		return -1;
	sb->allowed[sb->nallowed++] = copy;
	return 0;
}

/* ---- the library set (spec/core.md 6.1) -------------------------------- */

static const luaL_Reg sb_libs[] = {
	{ LUA_GNAME, luaopen_base },       { LUA_TABLIBNAME, luaopen_table },
	{ LUA_STRLIBNAME, luaopen_string }, { LUA_MATHLIBNAME, luaopen_math },
	{ LUA_UTF8LIBNAME, luaopen_utf8 }, { NULL, NULL }
};

/* Base functions a pack gets; everything else of the base library
 * (load, loadfile, dofile, require, collectgarbage, print, warn) is left
 * out. */
static const char *const sb_base_names[] = {
	"assert", "error",  "ipairs", "next",   "pairs",    "pcall",
	"rawequal", "rawget", "rawlen", "select", "tonumber", "tostring",
	"type",   "xpcall", "_VERSION", NULL
};

/* Entries removed from the copies of library tables. */
static const char *const sb_string_denied[] = { "dump", NULL };
static const char *const sb_math_denied[] = { "random", "randomseed", NULL };

/* setmetatable that refuses finalizers (spec/core.md 6.5). */
static int sb_setmetatable(lua_State *L)
{
	int t = lua_type(L, 2);

	luaL_checktype(L, 1, LUA_TTABLE);
	luaL_argexpected(L, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table");
	if (t == LUA_TTABLE) {
		lua_pushliteral(L, "__gc");
		if (lua_rawget(L, 2) != LUA_TNIL)
			return luaL_error(L, "finalizers are not allowed in pack code");
		lua_pop(L, 1);
	}
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_call(L, lua_gettop(L) - 1, 1);
	return 1;
}

/* getmetatable that never hands out an engine metatable (they all set
 * __metatable); the stock function honours __metatable already. */

/* rawset that refuses frozen pack environments. */
static int sb_rawset(lua_State *L)
{
	luaL_checktype(L, 1, LUA_TTABLE);
	luaL_checkany(L, 2);
	luaL_checkany(L, 3);
	if (lua_getmetatable(L, 1)) {
		lua_pushliteral(L, "__frozen");
		if (lua_rawget(L, -2) == LUA_TBOOLEAN && lua_toboolean(L, -1))
			return luaL_error(L, "pack globals are read-only after load");
		lua_pop(L, 2);
	}
	lua_settop(L, 3);
	lua_rawset(L, 1);
	return 1;
}

/* Copy the table at idx, leaving out 'denied' names; pushes the copy. */
static void sb_copy_table(lua_State *L, int idx, const char *const *denied)
{
	int n = 0;

	idx = lua_absindex(L, idx);
	/* Sized once: growing a table key by key rehashes it log2(n) times,
	 * and every run copies the libraries into each pack's environment. */
	lua_pushnil(L);
	while (lua_next(L, idx)) {
		lua_pop(L, 1);
		n++;
	}
	lua_createtable(L, 0, n);
	lua_pushnil(L);
	while (lua_next(L, idx)) {
		int skip = 0;
		size_t i;

		if (denied && lua_type(L, -2) == LUA_TSTRING)
			for (i = 0; denied[i]; i++)
				if (strcmp(lua_tostring(L, -2), denied[i]) == 0)
					skip = 1;
		if (skip) {
			lua_pop(L, 1);
			continue;
		}
		lua_pushvalue(L, -2);
		lua_insert(L, -2);
		lua_rawset(L, -4);
	}
}

/* Build the master tables once per state, in the registry under
 * "infragate.master": the stock libraries minus what is denied, the
 * engine and re tables (each pack's models table is its own,
 * sb_make_env). */
static int sb_build_master(lua_State *L)
{
	struct sandbox *sb = sb_of(L);
	const luaL_Reg *lib;
	int master, g;
	size_t i;

	for (lib = sb_libs; lib->func; lib++) {
		luaL_requiref(L, lib->name, lib->func, 1);
		lua_pop(L, 1);
	}
	lua_pushglobaltable(L);
	g = lua_gettop(L);
	lua_newtable(L);
	master = lua_gettop(L);
	for (i = 0; sb_base_names[i]; i++) {
		lua_getfield(L, g, sb_base_names[i]);
		lua_setfield(L, master, sb_base_names[i]);
	}
	lua_getfield(L, g, "setmetatable");
	lua_pushcclosure(L, sb_setmetatable, 1);
	lua_setfield(L, master, "setmetatable");
	lua_getfield(L, g, "getmetatable");
	lua_setfield(L, master, "getmetatable");
	lua_pushcfunction(L, sb_rawset);
	lua_setfield(L, master, "rawset");

	/* string: our step-counted pattern functions, no dump. */
	lua_getfield(L, g, LUA_STRLIBNAME);
	sb_copy_table(L, -1, sb_string_denied);
	lpattern_register(L, lua_gettop(L), &sb->meter);
	/* The shared string metatable: protected, indexing the master copy. */
	lua_pushliteral(L, "");
	lua_getmetatable(L, -1);
	lua_pushvalue(L, -3);
	lua_setfield(L, -2, "__index");
	lua_pushboolean(L, 0);
	lua_setfield(L, -2, "__metatable");
	lua_pop(L, 2);
	lua_pushvalue(L, -1);
	lua_setfield(L, LUA_REGISTRYINDEX, SB_KEY_STRING);
	lua_setfield(L, master, LUA_STRLIBNAME);
	lua_pop(L, 1);

	lua_getfield(L, g, LUA_TABLIBNAME);
	sb_copy_table(L, -1, NULL);
	lua_setfield(L, master, LUA_TABLIBNAME);
	lua_pop(L, 1);
	lua_getfield(L, g, LUA_MATHLIBNAME);
	sb_copy_table(L, -1, sb_math_denied);
	lua_setfield(L, master, LUA_MATHLIBNAME);
	lua_pop(L, 1);
	lua_getfield(L, g, LUA_UTF8LIBNAME);
	sb_copy_table(L, -1, NULL);
	lua_setfield(L, master, LUA_UTF8LIBNAME);
	lua_pop(L, 1);

	lua_newtable(L);
	sb_open_engine(L);
	sb_open_views(L, lua_gettop(L));
	sb_open_register(L, lua_gettop(L));
	sb_open_commands(L, lua_gettop(L));
#define SERVICE(n) sb_open_service_##n(L, lua_gettop(L));
#include "core/lua/services.def"
#undef SERVICE
	lua_setfield(L, master, "engine");
	luaL_requiref(L, "re", luaopen_infragate_re, 0);
	lua_setfield(L, master, "re");
	sb_open_ctx(L);

	/* The stock global table is not reachable by pack code: empty it so
	 * that nothing of it survives by accident. */
	lua_pushvalue(L, master);
	lua_setfield(L, LUA_REGISTRYINDEX, "infragate.master");
	lua_pushnil(L);
	while (lua_next(L, g)) {
		lua_pop(L, 1);
		lua_pushvalue(L, -1);
		lua_pushnil(L);
		lua_rawset(L, g);
	}
	lua_settop(L, 0);
	return 0;
}

struct sandbox *sandbox_new(const struct sandbox_config *cfg,
			    struct diag *err)
{
	return sandbox_new_failing(cfg, 0, err);
}

struct sandbox *sandbox_new_failing(const struct sandbox_config *cfg,
				    long fail_at, struct diag *err)
{
	struct sandbox *sb = calloc(1, sizeof *sb);
	char msg[DIAG_MSG_MAX];

	if (!sb)
		goto nomem;
	sb->lim = cfg->limits;
	sb->mem_cap = cfg->limits.memory_bytes;
	sb_pool_init(&sb->pool, sb->mem_cap);
	sb->host = cfg->host;
	sb->data_root = strdup(cfg->data_root ? cfg->data_root : ".");
	sb->version = strdup(cfg->version ? cfg->version : "0");
	if (!sb->data_root || !sb->version)
		goto nomem;
	sb->meter.charge = sb_meter_charge;
	sb->meter.ud = sb;
	sb->re_alloc.alloc = sb_re_alloc;
	sb->re_alloc.release = sb_re_free;
	sb->re_alloc.ud = sb;
	findings_init(&sb->pending.input, 0);
	sb->fail_at = fail_at;
	sb->L = lua_newstate(sb_alloc, sb);
	if (!sb->L)
		goto nomem;
	*(struct sandbox **)lua_getextraspace(sb->L) = sb;
	lua_pushcfunction(sb->L, sb_build_master);
	if (sb_pcall(sb, 0, 0, sb->lim.command_instructions, msg, sizeof msg) !=
	    SB_OK) {
		diag_set(err, DIAG_E_PACK, 0, 0, "cannot start Lua: %s", msg);
		sandbox_free(sb);
		return NULL;
	}
	sb->fail_at = 0;
	return sb;
nomem:
	diag_set(err, DIAG_E_NOMEM, 0, 0, "out of memory starting Lua");
	sandbox_free(sb);
	return NULL;
}

void sandbox_free(struct sandbox *sb)
{
	size_t i;

	if (!sb)
		return;
	sb_command_reset(sb);
	if (sb->L) {
		for (i = 0; i < sb->npacks; i++)
			sb_pack_free(sb->L, sb->packs[i]);
		/* Pack finalizers cannot exist (6.5); engine userdata have C
		 * finalizers that do not run Lua code. */
		lua_close(sb->L);
	}
	sb_pool_release(&sb->pool);
	free(sb->packs);
	free(sb->infos);
	free(sb->allowed);
	free(sb->loads);
	sbuf_release(&sb->path_scratch);
	findings_release(&sb->pending.input);
	free(sb->data_root);
	free(sb->version);
	free(sb);
}

static const char *const sb_service_names[] = {
#define SERVICE(n) #n,
#include "core/lua/services.def"
#undef SERVICE
	NULL
};

const char *const *sandbox_services(void)
{
	return sb_service_names;
}

const char *sandbox_lua_version(void)
{
	return LUA_RELEASE;
}

/* ---- environments, require, files -------------------------------------- */

struct sb_pack *sb_find_pack(const struct sandbox *sb, const char *name)
{
	size_t i;

	for (i = 0; i < sb->npacks; i++)
		if (strcmp(sb->packs[i]->info.name, name) == 0)
			return sb->packs[i];
	return NULL;
}

void sb_push_env(struct sandbox *sb, struct sb_pack *p)
{
	lua_rawgeti(sb->L, LUA_REGISTRYINDEX, p->env_ref);
}

/* Create the pack's environment (spec/core.md 6.1): its own shallow copies
 * of every library table, the pack's require, and _G pointing at itself. */
int sb_make_env(struct sandbox *sb, struct sb_pack *p)
{
	lua_State *L = sb->L;
	static const char *const copied[] = { LUA_STRLIBNAME, LUA_TABLIBNAME,
					      LUA_MATHLIBNAME, LUA_UTF8LIBNAME,
					      "engine", "re", NULL };
	int master, base;
	size_t i;

	lua_getfield(L, LUA_REGISTRYINDEX, "infragate.master");
	master = lua_gettop(L);
	sb_copy_table(L, master, NULL);
	base = lua_gettop(L);
	for (i = 0; copied[i]; i++) {
		lua_getfield(L, master, copied[i]);
		sb_copy_table(L, -1, NULL);
		lua_setfield(L, base, copied[i]);
		lua_pop(L, 1);
	}
	/* models: the pack's own, so no pack can change another's, its
	 * groups made when first named (l_models.c). */
	sb_push_models(L);
	lua_setfield(L, base, "models");
	lua_pushlightuserdata(L, p);
	lua_pushcclosure(L, sb_require, 1);
	lua_setfield(L, base, "require");

	lua_newtable(L); /* require cache */
	p->loaded_ref = luaL_ref(L, LUA_REGISTRYINDEX);
	lua_newtable(L); /* env */
	lua_newtable(L); /* its metatable */
	lua_pushvalue(L, base);
	lua_setfield(L, -2, "__index");
	lua_pushboolean(L, 0);
	lua_setfield(L, -2, "__metatable");
	lua_setmetatable(L, -2);
	lua_pushvalue(L, -1);
	lua_setfield(L, -2, "_G");
	p->env_ref = luaL_ref(L, LUA_REGISTRYINDEX);
	p->base_ref = luaL_ref(L, LUA_REGISTRYINDEX);
	lua_pop(L, 1);
	return 0;
}

static int sb_frozen_newindex(lua_State *L)
{
	return luaL_error(L, "pack globals are read-only after load");
}

/* Freeze a pack's top level: a new global raises. */
void sb_freeze(struct sandbox *sb, struct sb_pack *p)
{
	lua_State *L = sb->L;

	sb_push_env(sb, p);
	if (lua_getmetatable(L, -1)) {
		lua_pushcfunction(L, sb_frozen_newindex);
		lua_setfield(L, -2, "__newindex");
		lua_pushboolean(L, 1);
		lua_setfield(L, -2, "__frozen");
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
	p->frozen = 1;
}

enum sb_outcome sb_run_file(struct sandbox *sb, struct sb_pack *p,
			    const char *path, const char *chunkname, int keep,
			    struct diag *err)
{
	lua_State *L = sb->L;
	char msg[DIAG_MSG_MAX], chunk[1024];
	enum sb_outcome out;
	char *buf = NULL;
	size_t len = 0;

	if (readfile(path, chunkname, SB_SOURCE_MAX, &buf, &len, err) < 0) {
		err->code = DIAG_E_PACK;
		return SB_ERROR;
	}
	if (len && buf[0] == 0x1b) {
		free(buf);
		diag_set(err, DIAG_E_PACK, 0, 0,
			 "'%s' is a binary chunk; packs are loaded from Lua text only",
			 chunkname);
		return SB_ERROR;
	}
	snprintf(chunk, sizeof chunk, "@%s", chunkname);
	if (luaL_loadbufferx(L, buf, len, chunk, "t") != LUA_OK) {
		free(buf);
		sb_error_text(L, -1, msg, sizeof msg);
		lua_pop(L, 1);
		diag_set(err, DIAG_E_PACK, 0, 0, "%s", msg);
		return SB_ERROR;
	}
	free(buf);
	sb_push_env(sb, p);
	lua_setupvalue(L, -2, 1);
	out = sb_pcall(sb, 0, keep ? 1 : 0, sb->lim.command_instructions, msg,
		       sizeof msg);
	if (out != SB_OK) {
		if (out == SB_ERROR && sb->has_data_error)
			*err = sb->data_error;
		else if (out == SB_BUDGET)
			diag_set(err, DIAG_E_PACK, 0, 0, "%s: loading it %s",
				 chunkname, msg);
		else
			diag_set(err, DIAG_E_PACK, 0, 0, "%s", msg);
	}
	sb->has_data_error = 0;
	return out;
}
