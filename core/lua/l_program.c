/*
 * l_program.c: running a pack's program verbs (spec/core.md 5.9) and the
 * engine functions that only commands may call: engine.load, check, lint,
 * expand, validate, usage, input_error, plus engine.data, data_list and
 * view for pack data. A command opens only the paths on its own command
 * line, what engine.expand derived from them and its pack's own data
 * files; every other path is refused. Output is buffered in a struct
 * sb_output and reaches the terminal only after the verb returns.
 */
#include "core/lua/sb_internal.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/util/within.h"

void sb_output_init(struct sb_output *o)
{
	memset(o, 0, sizeof *o);
	sbuf_init(&o->out);
	sbuf_init(&o->json);
	sbuf_init(&o->notes);
	findings_init(&o->errors, 0);
}

void sb_output_release(struct sb_output *o)
{
	sbuf_release(&o->out);
	sbuf_release(&o->json);
	sbuf_release(&o->notes);
	findings_release(&o->errors);
	sb_free_const(o->usage_argument);
	o->usage_argument = NULL;
}

void sandbox_expanded_free(struct sb_expanded *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].display);
		free(v[i].path);
		free(v[i].error);
	}
	free(v);
}

static void loaded_free(struct sb_loaded *l)
{
	if (!l)
		return;
	yaml_file_release(&l->file);
	if (l->json_doc) {
		doc_release(l->json_doc);
		free(l->json_doc);
	}
	findings_release(&l->input);
	free(l);
}

void sb_command_reset(struct sandbox *sb)
{
	size_t i;

	/* Views of the loaded files become stale before their memory goes. */
	sb->ndocs = 0;
	for (i = 0; i < sb->nloads; i++)
		loaded_free(sb->loads[i]);
	sb->nloads = 0;
	for (i = 0; i < sb->nallowed; i++)
		free(sb->allowed[i]);
	sb->nallowed = 0;
}

static struct sb_loaded *keep_loaded(lua_State *L)
{
	struct sandbox *sb = sb_of(L);
	struct sb_loaded *l;

	if (sb->nloads == sb->loads_alloc) {
		size_t na = sb->loads_alloc ? sb->loads_alloc * 2 : 8;
		struct sb_loaded **v = realloc(sb->loads, na * sizeof *v);

		if (!v)
			luaL_error(L, "out of memory");
		sb->loads = v;
		sb->loads_alloc = na;
	}
	l = calloc(1, sizeof *l);
	if (!l)
		luaL_error(L, "out of memory");
	yaml_file_init(&l->file);
	findings_init(&l->input, 0);
	sb->loads[sb->nloads++] = l;
	return l;
}

static void commands_only(lua_State *L, const char *fn, int validation_too)
{
	struct sandbox *sb = sb_of(L);

	if (sb->call || !(sb->in_command || (validation_too && sb->in_validation)))
		luaL_error(L, "%s is available to commands only", fn);
}

/* ---- findings as Lua tables ----------------------------------------------- */

static int l_tmpfindings_gc(lua_State *L)
{
	findings_release(lua_touserdata(L, 1));
	return 0;
}

/* A findings list held by a userdata, released when collected (and safe
 * to release early: release is idempotent). */
static struct findings *sb_tmpfindings(lua_State *L, size_t max)
{
	struct findings *fs = lua_newuserdatauv(L, sizeof *fs, 0);

	findings_init(fs, max);
	if (luaL_newmetatable(L, "infragate.tmpfindings")) {
		lua_pushcfunction(L, l_tmpfindings_gc);
		lua_setfield(L, -2, "__gc");
		lua_pushboolean(L, 0);
		lua_setfield(L, -2, "__metatable");
	}
	lua_setmetatable(L, -2);
	return fs;
}

static void set_int_or_nil(lua_State *L, const char *k, uint32_t v)
{
	if (v)
		lua_pushinteger(L, v);
	else
		lua_pushnil(L);
	lua_setfield(L, -2, k);
}

static void push_findings(lua_State *L, const struct findings *fs)
{
	size_t i;

	lua_createtable(L, (int)fs->n, 0);
	for (i = 0; i < fs->n; i++) {
		const struct finding *f = &fs->items[i];

		lua_createtable(L, 0, 10);
		lua_pushstring(L, f->rule);
		lua_setfield(L, -2, "rule");
		lua_pushstring(L, severity_name(f->severity));
		lua_setfield(L, -2, "severity");
		lua_pushstring(L, f->message);
		lua_setfield(L, -2, "message");
		set_int_or_nil(L, "line", f->line);
		set_int_or_nil(L, "column", f->col);
		set_int_or_nil(L, "end_line", f->end_line);
		set_int_or_nil(L, "end_column", f->end_col);
		if (f->path)
			lua_pushstring(L, f->path);
		else
			lua_pushnil(L);
		lua_setfield(L, -2, "path");
		lua_pushinteger(L, f->document);
		lua_setfield(L, -2, "document");
		lua_pushboolean(L, (f->flags & FINDING_UNUSABLE) != 0);
		lua_setfield(L, -2, "unusable");
		if (f->figures && sb_json_decode(L, f->figures, strlen(f->figures)) == 0)
			lua_setfield(L, -2, "figures");
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
}

static uint32_t int_field(lua_State *L, int t, const char *k)
{
	lua_Integer v = 0;

	if (lua_getfield(L, t, k) == LUA_TNUMBER)
		v = lua_tointeger(L, -1);
	lua_pop(L, 1);
	return v > 0 && v < 0x7fffffff ? (uint32_t)v : 0;
}

/* Read a list of finding tables at 'idx' into 'fs'. */
static void read_findings(lua_State *L, int idx, struct findings *fs,
			  const char *fn)
{
	struct sbuf *figs = sb_tmpbuf(L, SB_JSON_MAX);
	lua_Integer i, n;
	char why[256];

	idx = lua_absindex(L, idx);
	luaL_checktype(L, idx, LUA_TTABLE);
	n = (lua_Integer)lua_rawlen(L, idx);
	for (i = 1; i <= n; i++) {
		struct finding f;
		int t;

		if (lua_rawgeti(L, idx, i) != LUA_TTABLE)
			luaL_error(L, "%s: findings must be tables", fn);
		t = lua_gettop(L);
		memset(&f, 0, sizeof f);
		lua_getfield(L, t, "rule");
		lua_getfield(L, t, "message");
		if (lua_type(L, -2) != LUA_TSTRING || lua_type(L, -1) != LUA_TSTRING)
			luaL_error(L, "%s: a finding needs 'rule' and 'message' strings", fn);
		f.rule = lua_tostring(L, -2);
		f.message = lua_tostring(L, -1);
		f.severity = SEV_ERROR;
		if (lua_getfield(L, t, "severity") == LUA_TSTRING)
			f.severity = severity_parse(lua_tostring(L, -1));
		if (f.severity == SEV_NONE)
			luaL_error(L, "%s: bad severity", fn);
		f.line = int_field(L, t, "line");
		f.col = int_field(L, t, "column");
		f.end_line = int_field(L, t, "end_line");
		f.end_col = int_field(L, t, "end_column");
		f.document = -1;
		if (lua_getfield(L, t, "document") == LUA_TNUMBER)
			f.document = (int)lua_tointeger(L, -1);
		if (lua_getfield(L, t, "path") == LUA_TSTRING)
			f.path = lua_tostring(L, -1);
		/* The file at fault: error entries name it (spec/core.md 2.6). */
		if (lua_getfield(L, t, "file") == LUA_TSTRING)
			f.file = lua_tostring(L, -1);
		sbuf_reset(figs);
		if (lua_getfield(L, t, "figures") == LUA_TTABLE) {
			if (sb_json_encode(L, -1, 1, figs, why, sizeof why) < 0)
				luaL_error(L, "%s: bad figures: %s", fn, why);
			f.figures = sbuf_cstr(figs);
		}
		if (lua_getfield(L, t, "unusable") == LUA_TBOOLEAN && lua_toboolean(L, -1))
			f.flags |= FINDING_UNUSABLE;
		if (strncmp(f.rule, "input.", 6) == 0 || strncmp(f.rule, "engine.", 7) == 0)
			f.flags |= FINDING_UNUSABLE;
		findings_add(fs, &f);
		lua_settop(L, t - 1);
	}
	lua_pop(L, 1);
}

/* ---- the out object ------------------------------------------------------- */

static struct sb_output *out_of(lua_State *L)
{
	struct sandbox *sb = sb_of(L);

	luaL_checkudata(L, 1, SB_KEY_OUT_MT);
	if (!sb->output)
		luaL_error(L, "the output object is no longer available");
	return sb->output;
}

static int l_out_write(lua_State *L)
{
	struct sb_output *o = out_of(L);
	size_t len;
	const char *s = luaL_checklstring(L, 2, &len);

	sbuf_add(&o->out, s, len);
	if (o->out.failed)
		return luaL_error(L, "output too large");
	return 0;
}

static int l_out_json(lua_State *L)
{
	struct sb_output *o = out_of(L);
	struct sbuf *b;
	char why[256];

	luaL_checktype(L, 2, LUA_TTABLE);
	b = sb_tmpbuf(L, SB_JSON_MAX);
	if (sb_json_encode(L, 2, 0, b, why, sizeof why) < 0)
		return luaL_error(L, "out:json: %s", why);
	if (b->len < 2 || sbuf_cstr(b)[0] != '{')
		return luaL_error(L, "out:json takes an object (engine.object or a table of named values)");
	sbuf_reset(&o->json);
	sbuf_add(&o->json, sbuf_cstr(b), b->len);
	o->has_json = 1;
	return 0;
}

static int l_out_note(lua_State *L)
{
	struct sb_output *o = out_of(L);
	size_t len;
	const char *s = luaL_checklstring(L, 2, &len);

	sbuf_add(&o->notes, s, len);
	if (!len || s[len - 1] != '\n')
		sbuf_addc(&o->notes, '\n');
	return 0;
}

static int l_out_report(lua_State *L)
{
	struct sandbox *sb = sb_of(L);
	struct sb_output *o = out_of(L);
	const char *format = luaL_checkstring(L, 3);
	const char *file = luaL_optstring(L, 4, "-");
	struct findings *fs;
	struct diag err;

	luaL_checktype(L, 2, LUA_TTABLE);
	fs = sb_tmpfindings(L, 0);
	read_findings(L, 2, fs, "out:report");
	diag_init(&err);
	if (!sb->host || !sb->host->report ||
	    sb->host->report(sb->host->ud, fs, file, format,
			     sb->cur_verb ? sb->cur_verb : "lint", &o->out, &err) < 0) {
		findings_release(fs);
		return luaL_error(L, "out:report: %s", err.msg[0] ? err.msg : "no reporter");
	}
	findings_release(fs);
	return 0;
}

static const luaL_Reg out_methods[] = {
	{ "write", l_out_write }, { "json", l_out_json },
	{ "note", l_out_note },   { "report", l_out_report },
	{ NULL, NULL }
};

/* ---- commands-only engine functions ---------------------------------------- */

/* Raise a usage error that ends the verb with exit 2. */
static int l_usage(lua_State *L)
{
	struct sandbox *sb = sb_of(L);
	const char *arg = luaL_checkstring(L, 1);
	const char *msg = luaL_checkstring(L, 2);

	commands_only(L, "engine.usage", 0);
	sb->pending.kind = 1;
	diag_copy_text(sb->pending.argument, sizeof sb->pending.argument, arg);
	diag_copy_text(sb->pending.message, sizeof sb->pending.message, msg);
	return luaL_error(L, "usage error: %s", msg);
}

static int l_input_error(lua_State *L)
{
	struct sandbox *sb = sb_of(L);

	/* Also in validation: a pack-defined registry's function reports a
	 * malformed registry through it, with the pointer of the node. */
	commands_only(L, "engine.input_error", 1);
	findings_release(&sb->pending.input);
	findings_init(&sb->pending.input, 0);
	read_findings(L, 1, &sb->pending.input, "engine.input_error");
	sb->pending.kind = 2;
	return luaL_error(L, "input error");
}

static void input_error_from_diag(lua_State *L, const struct diag *err,
				  const char *file)
{
	struct sandbox *sb = sb_of(L);
	struct finding *f;

	findings_release(&sb->pending.input);
	findings_init(&sb->pending.input, 0);
	f = findings_add_diag(&sb->pending.input, err, err->line ? 0 : -1);
	if (f && !f->path && err->line)
		f->path = "";
	if (f && file)
		f->file = findings_strdup(&sb->pending.input, file);
	sb->pending.kind = 2;
	luaL_error(L, "%s", err->msg);
}

/* Register a loaded file's documents and push views: one (single mode) or
 * a list (stream mode). */
static void push_loaded(lua_State *L, struct sb_loaded *l, const char *kind,
			const char *display, int stream, int plain)
{
	struct sandbox *sb = sb_of(L);
	size_t i;

	if (l->json_doc) {
		uint64_t id = sb_doc_add(sb, l->json_doc, kind, display);

		if (!id)
			luaL_error(L, "too many documents open at once");
		if (plain)
			sb_push_plain(L, l->json_doc->root);
		else
			sb_push_value(L, id, l->json_doc->root, "", 0);
		return;
	}
	if (stream)
		lua_createtable(L, (int)l->file.ndocs, 0);
	for (i = 0; i < l->file.ndocs; i++) {
		struct doc *d = l->file.docs[i];
		uint64_t id = sb_doc_add(sb, d, kind, display);

		if (!id)
			luaL_error(L, "too many documents open at once");
		if (plain && d->root)
			sb_push_plain(L, d->root);
		else if (d->root)
			sb_push_value(L, id, d->root, "", 0);
		else
			sb_push_null(L);
		if (!stream)
			return;
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	if (!stream)
		sb_push_null(L);
}

static int opt_bool(lua_State *L, int t, const char *k, int dflt)
{
	int v = dflt;

	if (lua_istable(L, t)) {
		if (lua_getfield(L, t, k) != LUA_TNIL)
			v = lua_toboolean(L, -1);
		lua_pop(L, 1);
	}
	return v;
}

static const char *opt_string(lua_State *L, int t, const char *k)
{
	const char *s = NULL;

	if (lua_istable(L, t)) {
		if (lua_getfield(L, t, k) == LUA_TSTRING)
			s = lua_tostring(L, -1);
		else if (!lua_isnil(L, -1))
			luaL_error(L, "option '%s' must be a string", k);
		lua_pop(L, 1);
		/* The string is kept alive by the options table. */
	}
	return s;
}

static int do_load(lua_State *L, const char *path, const char *display,
		   int opts, int collect_default, int plain)
{
	struct sandbox *sb = sb_of(L);
	struct sb_load_req req;
	struct sb_loaded *l;
	const char *mode = opt_string(L, opts, "mode");
	int collect = opt_bool(L, opts, "collect", collect_default);
	struct diag err;

	memset(&req, 0, sizeof req);
	req.path = path;
	req.display = display;
	req.kind = opt_string(L, opts, "kind");
	req.json = opt_bool(L, opts, "json", 0);
	if (mode && strcmp(mode, "single") != 0 && strcmp(mode, "stream") != 0)
		return luaL_error(L, "mode must be \"single\" or \"stream\"");
	req.stream = mode && strcmp(mode, "stream") == 0;
	if (req.kind && !(sb->host->kind_pack && sb->host->kind_pack(sb->host->ud, req.kind)))
		return luaL_error(L, "unknown kind '%s'", req.kind);
	l = keep_loaded(L);
	diag_init(&err);
	if (sb->host->load(sb->host->ud, &req, collect, l, &err) < 0) {
		if (sb->in_command && !sb->loading)
			input_error_from_diag(L, &err, display);
		return luaL_error(L, "%s", err.msg);
	}
	if (l->failed) {
		lua_pushnil(L);
		push_findings(L, &l->input);
		return 2;
	}
	push_loaded(L, l, req.kind, display, req.stream, plain);
	if (collect) {
		push_findings(L, &l->input);
		return 2;
	}
	return 1;
}

static int l_load(lua_State *L)
{
	struct sandbox *sb = sb_of(L);
	const char *path = luaL_checkstring(L, 1);

	commands_only(L, "engine.load", 0);
	if (!lua_isnoneornil(L, 2))
		luaL_checktype(L, 2, LUA_TTABLE);
	if (!sb_path_allowed(sb, path))
		return luaL_error(L, "engine.load: '%s' did not come from the command line", path);
	return do_load(L, path, path, 2, 0, 0);
}

/* A data path must be relative and free of '..' components. */
static void check_relative(lua_State *L, const char *rel)
{
	const char *s;

	if (!rel[0] || rel[0] == '/')
		luaL_error(L, "'%s' must be a path relative to the pack folder", rel);
	for (s = rel; *s;) {
		const char *e = strchr(s, '/');
		size_t n = e ? (size_t)(e - s) : strlen(s);

		if (n == 2 && s[0] == '.' && s[1] == '.')
			luaL_error(L, "'%s' may not contain '..'", rel);
		s += n + (e ? 1 : 0);
	}
}

/* The folder a data call reads and how its files are named: the calling
 * pack's own, or with opts.site = NAME that site pack's of the run (a
 * shipped pack reading a site's extension of its data: chaos's registry). */
struct data_src {
	const char *dir, *chunk_dir, *name;
};

static int find_site(lua_State *L, const char *name, struct data_src *src)
{
	struct sandbox *sb = sb_of(L);
	struct pack_desc pd;
	size_t i;

	for (i = 0; sb->host->site_pack && sb->host->site_pack(sb->host->ud, i, &pd); i++)
		if (strcmp(pd.name, name) == 0) {
			src->dir = pd.dir;
			src->chunk_dir = pd.chunk_dir;
			src->name = pd.name;
			return 0;
		}
	return luaL_error(L, "'%s' is not a site pack of this run", name);
}

static void data_src(lua_State *L, const struct sb_pack *p, const char *site,
		     struct data_src *src)
{
	if (site) {
		find_site(L, site, src);
		return;
	}
	src->dir = p->desc.dir;
	src->chunk_dir = p->desc.chunk_dir;
	src->name = p->info.name;
}

static void confine_src(lua_State *L, const struct data_src *src, const char *rel,
			char *out)
{
	check_relative(L, rel);
	switch (path_within(src->dir, rel, out)) {
	case WITHIN:
		return;
	case WITHIN_NO_ROOT:
		luaL_error(L, "the folder of pack '%s' cannot be resolved", src->name);
		return;
	case WITHIN_MISSING:
		luaL_error(L, "cannot read '%s' in pack '%s'", rel, src->name);
		return;
	case WITHIN_OUTSIDE:
		luaL_error(L, "'%s' leads outside the pack folder", rel);
		return;
	}
}

/* Resolve a path relative to the calling pack's folder, refusing '..',
 * absolute paths and links that lead outside it; the real path goes into
 * 'out' (PATH_MAX bytes). */
static void confine(lua_State *L, const struct sb_pack *p, const char *rel,
		    char *out)
{
	struct data_src src;

	data_src(L, p, NULL, &src);
	confine_src(L, &src, rel, out);
}

static struct sb_pack *data_pack(lua_State *L, const char *fn)
{
	struct sandbox *sb = sb_of(L);

	if (sb->loading)
		return sb->loading;
	if (!sb->call && (sb->in_command || sb->in_validation) && sb->cur_pack)
		return sb->cur_pack;
	luaL_error(L, "%s is available while pack.lua loads, in commands and in validation figures", fn);
	return NULL;
}

static int l_data(lua_State *L)
{
	struct sandbox *sb = sb_of(L);
	struct sb_pack *p = data_pack(L, "engine.data");
	const char *rel = luaL_checkstring(L, 1);
	char real[PATH_MAX], display[PATH_MAX + 64];
	struct data_src src;
	int plain;

	if (!lua_isnoneornil(L, 2))
		luaL_checktype(L, 2, LUA_TTABLE);
	data_src(L, p, opt_string(L, 2, "site"), &src);
	confine_src(L, &src, rel, real);
	plain = sb->loading != NULL || opt_bool(L, 2, "plain", 0);
	snprintf(display, sizeof display, "%s/%s", src.chunk_dir, rel);
	return do_load(L, real, display, 2, 0, plain);
}

/* engine.data_error{rule =, file =, path =, message = [, site =]} while
 * pack.lua loads: the pack's own data (chaos's registry), or the extension
 * of it a site pack ships (site = its name), is not well-formed; the load
 * fails with 'rule' (an id of the pack) at the node 'path' points to in
 * 'file' (relative to that pack folder), with its line and column. */
static int l_data_error(lua_State *L)
{
	struct sandbox *sb = sb_of(L);
	struct sb_pack *p = sb->loading;
	const char *rule, *rel, *ptr, *message;
	char real[PATH_MAX], display[PATH_MAX + 64];
	struct sb_load_req req;
	struct sb_loaded *l;
	struct data_src src;
	struct diag *d = &sb->data_error, err;
	size_t n;

	if (!p || sb->call || sb->in_command || sb->in_validation)
		return luaL_error(L, "engine.data_error can only be called while pack.lua loads");
	luaL_checktype(L, 1, LUA_TTABLE);
	rule = opt_string(L, 1, "rule");
	rel = opt_string(L, 1, "file");
	ptr = opt_string(L, 1, "path");
	message = opt_string(L, 1, "message");
	n = strlen(p->info.name);
	if (!rule || !rel || !message)
		return luaL_error(L, "engine.data_error needs rule, file and message strings");
	if (strncmp(rule, p->info.name, n) != 0 || rule[n] != '.' || strlen(rule) >= sizeof d->id)
		return luaL_error(L, "engine.data_error: '%s' is not an id of pack '%s'", rule,
				  p->info.name);
	data_src(L, p, opt_string(L, 1, "site"), &src);
	confine_src(L, &src, rel, real);
	snprintf(display, sizeof display, "%s/%s", src.chunk_dir, rel);
	diag_init(d);
	diag_set(d, DIAG_E_PACK, 0, 0, "%s", message);
	snprintf(d->id, sizeof d->id, "%s", rule);
	diag_copy_text(d->file, sizeof d->file, display);
	if (ptr) {
		struct node *at = NULL, *deepest = NULL;

		diag_set_path(d, ptr);
		/* The position: the node in the file as the loader reads it. */
		memset(&req, 0, sizeof req);
		req.path = real;
		req.display = display;
		l = keep_loaded(L);
		diag_init(&err);
		if (sb->host->load(sb->host->ud, &req, 1, l, &err) == 0 && l->file.ndocs &&
		    l->file.docs[0]->root) {
			at = doc_resolve(l->file.docs[0]->root, ptr, &deepest);
			if (!at)
				at = deepest;
		}
		if (at) {
			d->line = at->line;
			d->col = at->col;
		}
	}
	sb->has_data_error = 1;
	return luaL_error(L, "%s", message);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int l_data_list(lua_State *L)
{
	struct sb_pack *p = data_pack(L, "engine.data_list");
	const char *rel = luaL_checkstring(L, 1);
	char real[PATH_MAX], file[PATH_MAX + 300];
	struct data_src src;
	struct dirent *e;
	char **names;
	size_t n = 0, alloc = 64, i;
	DIR *dir;

	if (!lua_isnoneornil(L, 2))
		luaL_checktype(L, 2, LUA_TTABLE);
	data_src(L, p, opt_string(L, 2, "site"), &src);
	confine_src(L, &src, rel, real);
	dir = opendir(real);
	if (!dir)
		return luaL_error(L, "cannot list '%s' in pack '%s'", rel, src.name);
	names = malloc(alloc * sizeof *names);
	if (!names) {
		closedir(dir);
		return luaL_error(L, "out of memory");
	}
	while ((e = readdir(dir))) {
		struct stat st;
		size_t len = strlen(e->d_name);

		if (len < 6 || strcmp(e->d_name + len - 5, ".yaml") != 0 ||
		    e->d_name[0] == '.')
			continue;
		snprintf(file, sizeof file, "%s/%s", real, e->d_name);
		if (lstat(file, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		if (n == alloc) {
			char **v = realloc(names, alloc * 2 * sizeof *v);

			if (!v)
				break;
			names = v;
			alloc *= 2;
		}
		names[n] = strdup(e->d_name);
		if (names[n])
			n++;
	}
	closedir(dir);
	qsort(names, n, sizeof *names, name_cmp);
	/* Move the names into Lua, then free them: nothing below raises
	 * before the frees except running out of memory. */
	lua_createtable(L, (int)n, 0);
	for (i = 0; i < n; i++) {
		lua_pushstring(L, names[i]);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return 1;
}

/* engine.site_files(relpath): the names of the run's site packs (load
 * order) whose folder holds 'relpath' as a regular file, for a pack whose
 * data a site may extend (chaos's registry). A path that leads outside its
 * site pack's folder is an error, as for engine.data. */
static int l_site_files(lua_State *L)
{
	struct sandbox *sb = sb_of(L);
	const char *rel = luaL_checkstring(L, 1);
	char real[PATH_MAX];
	struct pack_desc pd;
	struct stat st;
	lua_Integer n = 0;
	size_t i;

	(void)data_pack(L, "engine.site_files");
	check_relative(L, rel);
	lua_newtable(L);
	for (i = 0; sb->host->site_pack && sb->host->site_pack(sb->host->ud, i, &pd); i++) {
		switch (path_within(pd.dir, rel, real)) {
		case WITHIN:
			if (stat(real, &st) == 0 && S_ISREG(st.st_mode)) {
				lua_pushstring(L, pd.name);
				lua_rawseti(L, -2, ++n);
			}
			break;
		case WITHIN_OUTSIDE:
			return luaL_error(L, "'%s' leads outside the folder of site pack '%s'", rel,
					  pd.name);
		case WITHIN_MISSING:
		case WITHIN_NO_ROOT:
			break;
		}
	}
	return 1;
}

static int l_view(lua_State *L)
{
	struct sandbox *sb = sb_of(L);
	const char *kind = luaL_checkstring(L, 1);
	struct sb_loaded *l;
	char msg[256];
	uint64_t id;

	commands_only(L, "engine.view", 1);
	luaL_checkany(L, 2);
	if (!sb->host->kind_pack || !sb->host->kind_pack(sb->host->ud, kind))
		return luaL_error(L, "engine.view: unknown kind '%s'", kind);
	l = keep_loaded(L);
	l->json_doc = calloc(1, sizeof *l->json_doc);
	if (!l->json_doc)
		return luaL_error(L, "out of memory");
	doc_init(l->json_doc, sb->lim.yaml.doc_bytes);
	if (sb_lua_to_doc(L, 2, l->json_doc, msg, sizeof msg) < 0)
		return luaL_error(L, "engine.view: %s", msg);
	id = sb_doc_add(sb, l->json_doc, kind, "-");
	if (!id)
		return luaL_error(L, "too many documents open at once");
	sb_push_value(L, id, l->json_doc->root, "", 0);
	return 1;
}

static int l_check(lua_State *L)
{
	struct sandbox *sb = sb_of(L);
	struct sb_view *v;
	const struct sb_doc *d;
	const char *kind;
	struct findings *fs;
	struct diag err;
	int strict;

	commands_only(L, "engine.check", 1);
	v = sb_check_view(L, 1, 1);
	if (!v)
		return luaL_typeerror(L, 1, "document view");
	if (!lua_isnoneornil(L, 2))
		luaL_checktype(L, 2, LUA_TTABLE);
	d = sb_doc_get(sb, v->docid);
	if (v->node != d->doc->root)
		return luaL_error(L, "engine.check needs a document's root view");
	kind = opt_string(L, 2, "kind");
	if (!kind)
		kind = d->kind;
	if (!kind)
		return luaL_error(L, "engine.check: the document has no kind; pass opts.kind");
	strict = opt_bool(L, 2, "strict", 0);
	fs = sb_tmpfindings(L, sb->lim.findings);
	diag_init(&err);
	if (sb->host->check(sb->host->ud, sb, d->doc, kind, strict, fs, &err) < 0) {
		findings_release(fs);
		return luaL_error(L, "engine.check: %s", err.msg);
	}
	push_findings(L, fs);
	findings_release(fs);
	return 1;
}

static const char **string_list(lua_State *L, int t, const char *k, size_t *n)
{
	const char **v;
	lua_Integer i, len;

	*n = 0;
	if (!lua_istable(L, t) || lua_getfield(L, t, k) == LUA_TNIL) {
		if (lua_istable(L, t))
			lua_pop(L, 1);
		return NULL;
	}
	luaL_checktype(L, -1, LUA_TTABLE);
	len = (lua_Integer)lua_rawlen(L, -1);
	v = lua_newuserdatauv(L, ((size_t)len + 1) * sizeof *v, 0);
	for (i = 1; i <= len; i++) {
		lua_rawgeti(L, -2, i);
		if (lua_type(L, -1) != LUA_TSTRING)
			luaL_error(L, "'%s' must be a list of strings", k);
		v[i - 1] = lua_tostring(L, -1);
		/* Kept alive by the list table, which stays on the stack. */
		lua_pop(L, 1);
	}
	*n = (size_t)len;
	/* Leave the list and the array on the stack for the caller's call. */
	return v;
}

static void fill_expand(lua_State *L, int opts, struct sb_expand_req *ex)
{
	struct sandbox *sb = sb_of(L);
	static const char *const default_suffixes[] = { ".yaml", ".yml" };
	const char *pd;

	ex->recursive = opt_bool(L, opts, "recursive", 1);
	ex->hidden = opt_bool(L, opts, "hidden", 0);
	ex->dedupe = opt_bool(L, opts, "dedupe", 1);
	ex->on_empty_error = 0;
	if (opt_string(L, opts, "on_empty") &&
	    strcmp(opt_string(L, opts, "on_empty"), "error") == 0)
		ex->on_empty_error = 1;
	ex->suffixes = string_list(L, opts, "suffixes", &ex->nsuffixes);
	if (!ex->suffixes) {
		ex->suffixes = default_suffixes;
		ex->nsuffixes = 2;
	}
	pd = opt_string(L, opts, "pack_dir");
	if (pd) {
		char *real = lua_newuserdatauv(L, PATH_MAX, 0);

		if (!sb->cur_pack)
			luaL_error(L, "pack_dir needs a running command");
		confine(L, sb->cur_pack, pd, real);
		ex->pack_dir = real;
	}
}

static int l_expand(lua_State *L)
{
	struct sandbox *sb = sb_of(L);
	struct sb_expand_req ex;
	struct sb_expanded *v = NULL;
	size_t n = 0, i;
	lua_Integer k, len;
	const char **ops;
	struct diag err;

	commands_only(L, "engine.expand", 0);
	luaL_checktype(L, 1, LUA_TTABLE);
	if (!lua_isnoneornil(L, 2))
		luaL_checktype(L, 2, LUA_TTABLE);
	memset(&ex, 0, sizeof ex);
	len = (lua_Integer)lua_rawlen(L, 1);
	ops = lua_newuserdatauv(L, ((size_t)len + 1) * sizeof *ops, 0);
	for (k = 1; k <= len; k++) {
		lua_rawgeti(L, 1, k);
		if (lua_type(L, -1) != LUA_TSTRING)
			return luaL_error(L, "engine.expand: operands must be strings");
		ops[k - 1] = lua_tostring(L, -1);
		lua_pop(L, 1);
		if (!sb_path_allowed(sb, ops[k - 1]))
			return luaL_error(L, "engine.expand: '%s' did not come from the command line",
					  ops[k - 1]);
	}
	ex.operands = ops;
	ex.noperands = (size_t)len;
	fill_expand(L, 2, &ex);
	diag_init(&err);
	if (sb->host->expand(sb->host->ud, &ex, &v, &n, &err) < 0)
		return luaL_error(L, "engine.expand: %s", err.msg);
	for (i = 0; i < n; i++)
		if (v[i].path && sb_allow_path(sb, v[i].path) < 0) {
			sandbox_expanded_free(v, n);
			return luaL_error(L, "out of memory");
		}
	lua_createtable(L, (int)n, 0);
	for (i = 0; i < n; i++) {
		lua_createtable(L, 0, 3);
		lua_pushstring(L, v[i].display);
		lua_setfield(L, -2, "display");
		if (v[i].path) {
			lua_pushstring(L, v[i].path);
			lua_setfield(L, -2, "path");
		}
		if (v[i].error) {
			lua_pushstring(L, v[i].error);
			lua_setfield(L, -2, "error");
		}
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	sandbox_expanded_free(v, n);
	return 1;
}

static int l_lint(lua_State *L)
{
	struct sandbox *sb = sb_of(L);
	struct sb_lint_req req;
	struct sb_expand_req ex;
	struct diag err;
	int exit_code = 0, use_expand;
	size_t i;

	commands_only(L, "engine.lint", 0);
	luaL_checktype(L, 1, LUA_TTABLE);
	memset(&req, 0, sizeof req);
	memset(&ex, 0, sizeof ex);
	req.operands = string_list(L, 1, "operands", &req.noperands);
	for (i = 0; i < req.noperands; i++)
		if (!sb_path_allowed(sb, req.operands[i]))
			return luaL_error(L, "engine.lint: '%s' did not come from the command line",
					  req.operands[i]);
	req.pack = opt_string(L, 1, "pack");
	if (!req.pack)
		req.pack = sb->cur_pack->info.name;
	/* strict absent: the configuration's strict for each file, else on,
	 * as for `infragate lint` (a lint verb's run is configured, 5.9). */
	req.strict = -1;
	if (lua_getfield(L, 1, "strict") != LUA_TNIL)
		req.strict = lua_toboolean(L, -1);
	lua_pop(L, 1);
	req.format = opt_string(L, 1, "format");
	if (!req.format)
		req.format = "text";
	if (lua_getfield(L, 1, "jobs") == LUA_TNUMBER)
		req.jobs = (long)lua_tointeger(L, -1);
	lua_pop(L, 1);
	req.verb = opt_string(L, 1, "verb");
	if (!req.verb)
		req.verb = sb->cur_verb;
	req.stdin_filepath = opt_string(L, 1, "stdin_filepath");
	if (lua_getfield(L, 1, "settings") == LUA_TTABLE) {
		struct sbuf *sj = sb_tmpbuf(L, SB_JSON_MAX);
		char why[256];

		if (sb_json_encode(L, -2, 0, sj, why, sizeof why) < 0)
			return luaL_error(L, "engine.lint: bad settings: %s", why);
		req.settings_json = sbuf_cstr(sj);
	} else {
		lua_pop(L, 1);
	}
	use_expand = lua_getfield(L, 1, "expand") == LUA_TTABLE;
	if (use_expand) {
		fill_expand(L, lua_gettop(L), &ex);
		req.expand = &ex;
	}
	diag_init(&err);
	if (sb->host->lint(sb->host->ud, &req, &sb->output->out, &sb->output->notes,
			   &exit_code, &err) < 0) {
		if (err.code == DIAG_E_USAGE) {
			sb->pending.kind = 1;
			diag_copy_text(sb->pending.argument, sizeof sb->pending.argument,
				       err.path);
			diag_copy_text(sb->pending.message, sizeof sb->pending.message,
				       err.msg);
		} else {
			input_error_from_diag(L, &err, NULL);
		}
		return luaL_error(L, "engine.lint: %s", err.msg);
	}
	lua_pushinteger(L, exit_code);
	return 1;
}

static int l_validate(lua_State *L)
{
	struct sandbox *sb = sb_of(L);
	struct sbuf *out, *settings;
	const char *pack, *mutation;
	char why[256];
	struct diag err;
	int ok = 0;

	commands_only(L, "engine.validate", 0);
	if (!lua_isnoneornil(L, 1))
		luaL_checktype(L, 1, LUA_TTABLE);
	pack = opt_string(L, 1, "pack");
	if (!pack)
		pack = sb->cur_pack->info.name;
	mutation = opt_string(L, 1, "mutation");
	settings = sb_tmpbuf(L, SB_JSON_MAX);
	if (lua_istable(L, 1) && lua_getfield(L, 1, "settings") == LUA_TTABLE) {
		if (sb_json_encode(L, -1, 0, settings, why, sizeof why) < 0)
			return luaL_error(L, "engine.validate: bad settings: %s", why);
	}
	out = sb_tmpbuf(L, SB_JSON_MAX);
	diag_init(&err);
	if (sb->host->validate(sb->host->ud, pack, mutation,
			       settings->len ? sbuf_cstr(settings) : NULL, out, &ok,
			       &err) < 0) {
		if (err.code == DIAG_E_USAGE) {
			sb->pending.kind = 1;
			diag_copy_text(sb->pending.argument, sizeof sb->pending.argument,
				       err.path);
			diag_copy_text(sb->pending.message, sizeof sb->pending.message,
				       err.msg);
		} else {
			input_error_from_diag(L, &err, NULL);
		}
		return luaL_error(L, "engine.validate: %s", err.msg);
	}
	if (sb_json_decode(L, sbuf_cstr(out), out->len) < 0)
		return luaL_error(L, "engine.validate: unreadable result");
	return 1;
}

static const luaL_Reg command_funcs[] = {
	{ "load", l_load },         { "check", l_check },
	{ "lint", l_lint },         { "expand", l_expand },
	{ "validate", l_validate }, { "usage", l_usage },
	{ "input_error", l_input_error }, { "data", l_data },
	{ "data_list", l_data_list }, { "site_files", l_site_files },
	{ "view", l_view },
	{ "data_error", l_data_error },
	{ NULL, NULL }
};

void sb_open_commands(lua_State *L, int idx)
{
	idx = lua_absindex(L, idx);
	luaL_newmetatable(L, SB_KEY_OUT_MT);
	lua_newtable(L);
	luaL_setfuncs(L, out_methods, 0);
	lua_setfield(L, -2, "__index");
	lua_pushliteral(L, "out");
	lua_setfield(L, -2, "__metatable");
	lua_pop(L, 1);
	lua_pushvalue(L, idx);
	luaL_setfuncs(L, command_funcs, 0);
	lua_pop(L, 1);
}

/* ---- running a verb ----------------------------------------------------------- */

/* args.<name>: the option's long name without dashes, '-' -> '_'. */
static void arg_key(const char *name, char *out, size_t size)
{
	size_t o = 0;

	while (*name == '-')
		name++;
	for (; *name && o + 1 < size; name++)
		out[o++] = *name == '-' ? '_' : *name;
	out[o] = '\0';
}

static void push_arg_value(lua_State *L, const struct ap_option *opt,
			   const struct ap_value *v)
{
	switch (opt->type) {
	case AP_FLAG:
		lua_pushboolean(L, v->b);
		return;
	case AP_FLOAT:
		lua_pushnumber(L, v->f);
		return;
	case AP_INT:
		lua_pushinteger(L, v->i);
		return;
	default:
		lua_pushstring(L, v->text ? v->text : "");
	}
}

/* Under the option's list (at the top), set args.<key>_via (the table below
 * it): value index -> the long name of the shorthand that gave it. */
static void push_via(lua_State *L, const struct ap_slot *s, const char *key)
{
	char name[160];
	size_t j;

	lua_newtable(L);
	for (j = 0; j < s->nvalues; j++) {
		if (!s->values[j].via)
			continue;
		lua_pushstring(L, s->values[j].via);
		lua_rawseti(L, -2, (lua_Integer)j + 1);
	}
	snprintf(name, sizeof name, "%s_via", key);
	lua_setfield(L, -3, name);
}

/* Build the args table; arguments: the result pointer (light userdata). */
static int build_args(lua_State *L)
{
	struct sandbox *sb = sb_of(L);
	const struct ap_result *res = lua_touserdata(L, 1);
	const struct ap_verb *verb = res->verb;
	char key[128];
	size_t i, j;

	lua_newtable(L);
	for (i = 0; i < verb->noptions; i++) {
		const struct ap_option *o = &verb->options[i];
		const struct ap_slot *s = &res->slots[i];

		arg_key(o->name, key, sizeof key);
		if (o->repeat_append) {
			int via = 0;

			lua_createtable(L, (int)s->nvalues, 0);
			for (j = 0; j < s->nvalues; j++) {
				push_arg_value(L, o, &s->values[j]);
				lua_rawseti(L, -2, (lua_Integer)j + 1);
				via |= s->values[j].via != NULL;
			}
			/* args.<key>_via[i]: the shorthand that gave value i (expands_to). */
			if (via)
				push_via(L, s, key);
		} else if (s->has_value && s->nvalues) {
			push_arg_value(L, o, &s->values[s->nvalues - 1]);
		} else if (o->type == AP_FLAG) {
			lua_pushboolean(L, 0);
		} else {
			continue;
		}
		lua_setfield(L, -2, key);
		if (o->type == AP_PATH)
			for (j = 0; j < s->nvalues; j++)
				if (s->values[j].text &&
				    sb_allow_path(sb, s->values[j].text) < 0)
					return luaL_error(L, "out of memory");
	}
	lua_createtable(L, (int)res->noperands, 0);
	for (i = 0; i < res->noperands; i++) {
		lua_pushstring(L, res->operands[i]);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
		if (sb_allow_path(sb, res->operands[i]) < 0)
			return luaL_error(L, "out of memory");
	}
	lua_setfield(L, -2, "operands");
	return 1;
}

static void output_error(struct sb_output *o, const char *id, const char *msg)
{
	struct finding f;

	memset(&f, 0, sizeof f);
	f.rule = id;
	f.severity = SEV_ERROR;
	f.message = msg;
	f.document = -1;
	f.flags = FINDING_UNUSABLE;
	findings_add(&o->errors, &f);
}

/* require(name) for a verb whose run is a module name; the module must
 * return the run function. Arguments: the name, the pack's require. */
static int run_from_module(lua_State *L)
{
	lua_pushvalue(L, 2);
	lua_pushvalue(L, 1);
	lua_call(L, 1, 1);
	if (lua_type(L, -1) != LUA_TFUNCTION)
		return luaL_error(L, "module '%s' returned %s; a verb's module returns its run "
				  "function", lua_tostring(L, 1), luaL_typename(L, -1));
	return 1;
}

/* Push verb vi's run function, compiling its module on the first run
 * (spec/core.md 5.9: run = "module"); on failure nothing is pushed. */
static enum sb_outcome push_run(struct sandbox *sb, struct sb_pack *p, size_t vi,
				char *msg, size_t size)
{
	lua_State *L = sb->L;
	enum sb_outcome out;

	lua_rawgeti(L, LUA_REGISTRYINDEX, p->vx[vi].run_ref);
	if (lua_type(L, -1) != LUA_TSTRING)
		return SB_OK;
	lua_pushcfunction(L, run_from_module);
	lua_insert(L, -2);
	sb_push_env(sb, p);
	lua_getfield(L, -1, "require");
	lua_remove(L, -2);
	out = sb_pcall(sb, 2, 1, sb->lim.command_instructions, msg, size);
	if (out == SB_OK) {
		lua_pushvalue(L, -1);
		lua_rawseti(L, LUA_REGISTRYINDEX, p->vx[vi].run_ref);
	}
	return out;
}

/* ---- verbs whose options live in their module ----------------------------- */

/*
 * Protected: require the module of lazy verb 'vi' and take what it
 * returned, its run function or { options = {...}, run = function }.
 * Arguments: the pack's require, the module name, the pack (light
 * userdata), vi. Leaves the run function.
 */
static int l_complete_verb(lua_State *L)
{
	struct sb_pack *p = lua_touserdata(L, 3);
	size_t vi = (size_t)lua_tointeger(L, 4);

	lua_pushvalue(L, 1);
	lua_pushvalue(L, 2);
	lua_call(L, 1, 1); /* 5: what the module returned */
	if (lua_type(L, 5) == LUA_TFUNCTION)
		return 1;
	if (lua_type(L, 5) != LUA_TTABLE)
		return luaL_error(L, "it returned %s; a verb's module returns its run function, "
				  "or { options = {...}, run = function }", luaL_typename(L, 5));
	lua_pushnil(L);
	while (lua_next(L, 5)) {
		/* lua_tostring only on a string key: it would convert a
		 * number in place and upset lua_next. */
		if (lua_type(L, -2) != LUA_TSTRING ||
		    (strcmp(lua_tostring(L, -2), "options") != 0 &&
		     strcmp(lua_tostring(L, -2), "run") != 0))
			return luaL_error(L, "its table has the key %s; a verb's table holds only "
					  "options and run",
					  lua_type(L, -2) == LUA_TSTRING
						  ? lua_pushfstring(L, "'%s'", lua_tostring(L, -2))
						  : luaL_tolstring(L, -2, NULL));
		lua_pop(L, 1);
	}
	if (lua_getfield(L, 5, "options") == LUA_TTABLE)
		sb_read_verb_options(L, p, vi, -1);
	else if (!lua_isnil(L, -1))
		return luaL_error(L, "options must be a list of option tables, not %s",
				  luaL_typename(L, -1));
	if (lua_getfield(L, 5, "run") != LUA_TFUNCTION)
		return luaL_error(L, "run must be a function, not %s", luaL_typename(L, -1));
	return 1;
}

/* Which lazy verbs a run must read before parsing argv: only the verb that
 * argv names first, when it does (`infragate power decide ...`); every one
 * when the first argument may be an option of any verb (a program with
 * options before the verb, a default verb or select flags); none
 * otherwise, since then no verb can be chosen (help, or a usage error). */
enum { COMPLETE_NONE = -1, COMPLETE_ALL = -2 };

static int verbs_to_complete(lua_State *L, const struct sb_pack *p, int argc, char **argv)
{
	size_t i;
	int before;

	for (i = 0; argc > 0 && i < p->nverbs; i++)
		if (strcmp(p->verbs[i].name, argv[0]) == 0)
			return (int)i;
	if (p->prog.syntax.default_verb)
		return COMPLETE_ALL;
	for (i = 0; i < p->nverbs; i++)
		if (p->verbs[i].nselect)
			return COMPLETE_ALL;
	before = lua_rawgeti(L, LUA_REGISTRYINDEX, p->before_ref) == LUA_TTABLE;
	lua_pop(L, 1);
	return before ? COMPLETE_ALL : COMPLETE_NONE;
}

int sandbox_complete_verbs(struct sandbox *sb, const char *pack, int argc, char **argv,
			   struct diag *err)
{
	lua_State *L = sb->L;
	struct sb_pack *p = sb_find_pack(sb, pack);
	char msg[DIAG_MSG_MAX];
	int only;
	size_t vi;

	if (!p || !p->has_program)
		return 0;
	only = verbs_to_complete(L, p, argc, argv);
	for (vi = 0; vi < p->nverbs && only != COMPLETE_NONE; vi++) {
		enum sb_outcome out;

		if (!p->vx[vi].lazy || (only >= 0 && (size_t)only != vi))
			continue;
		sb->in_command = 1;
		sb->cur_pack = p;
		sb->cur_verb = p->verbs[vi].name;
		lua_pushcfunction(L, l_complete_verb);
		sb_push_env(sb, p);
		lua_getfield(L, -1, "require");
		lua_remove(L, -2);
		lua_rawgeti(L, LUA_REGISTRYINDEX, p->vx[vi].run_ref);
		lua_pushlightuserdata(L, p);
		lua_pushinteger(L, (lua_Integer)vi);
		out = sb_pcall(sb, 4, 1, sb->lim.command_instructions, msg, sizeof msg);
		sb->in_command = 0;
		sb->cur_pack = NULL;
		sb->cur_verb = NULL;
		sb->pending.kind = 0;
		sb_command_reset(sb);
		if (out != SB_OK) {
			lua_rawgeti(L, LUA_REGISTRYINDEX, p->vx[vi].run_ref);
			diag_set(err, out == SB_BUDGET ? DIAG_E_BUDGET : DIAG_E_PACK, 0, 0,
				 "verb '%s' of program '%s' (module '%s'): %s", p->verbs[vi].name,
				 p->prog.name, lua_tostring(L, -1), msg);
			lua_pop(L, 1);
			return -1;
		}
		lua_rawseti(L, LUA_REGISTRYINDEX, p->vx[vi].run_ref);
		p->vx[vi].lazy = 0;
	}
	return 0;
}

int sandbox_run_verb(struct sandbox *sb, const char *pack,
		     const struct ap_result *res, struct sb_output *o,
		     struct diag *err)
{
	lua_State *L = sb->L;
	struct sb_pack *p = sb_find_pack(sb, pack);
	char msg[DIAG_MSG_MAX];
	enum sb_outcome out;
	size_t vi = res->verb_index;

	if (!p || !p->has_program || vi >= p->nverbs) {
		diag_set(err, DIAG_E_PACK, 0, 0, "pack '%s' has no such verb", pack);
		return -1;
	}
	sb->in_command = 1;
	sb->cur_pack = p;
	sb->cur_verb = p->verbs[vi].name;
	sb->output = o;
	sb->pending.kind = 0;
	out = push_run(sb, p, vi, msg, sizeof msg);
	if (out == SB_OK) {
		lua_pushcfunction(L, build_args);
		lua_pushlightuserdata(L, (void *)(uintptr_t)res);
		out = sb_pcall(sb, 1, 1, sb->lim.command_instructions, msg, sizeof msg);
		if (out == SB_OK) {
			lua_newuserdatauv(L, 1, 0);
			luaL_setmetatable(L, SB_KEY_OUT_MT);
			out = sb_pcall(sb, 2, 1, sb->lim.command_instructions, msg,
				       sizeof msg);
		} else {
			lua_pop(L, 1);
		}
	}
	o->exit_code = 0;
	switch (out) {
	case SB_OK:
		/* 2 is how a lint verb passes on engine.lint's exit 2 (a report
		 * with unusable files, printed as usual). */
		if (lua_isinteger(L, -1) && lua_tointeger(L, -1) >= 0 &&
		    lua_tointeger(L, -1) <= 2) {
			o->exit_code = (int)lua_tointeger(L, -1);
		} else if (!lua_isnil(L, -1)) {
			snprintf(msg, sizeof msg,
				 "verb '%s' returned %s; it must return 0, 1, 2 or nothing",
				 sb->cur_verb, luaL_typename(L, -1));
			output_error(o, "engine.error", msg);
			o->exit_code = 2;
		}
		lua_pop(L, 1);
		break;
	case SB_USAGE:
		o->usage = 1;
		o->usage_argument = strdup(sb->pending.argument);
		output_error(o, "cli.usage", sb->pending.message);
		o->exit_code = 2;
		break;
	case SB_INPUT: {
		size_t i;

		for (i = 0; i < sb->pending.input.n; i++)
			findings_add(&o->errors, &sb->pending.input.items[i]);
		o->exit_code = 2;
		break;
	}
	case SB_BUDGET: {
		char text[DIAG_MSG_MAX + 64];

		snprintf(text, sizeof text, "verb '%s' %s", sb->cur_verb, msg);
		output_error(o, "engine.budget", text);
		o->exit_code = 2;
		break;
	}
	default:
		output_error(o, "engine.error", msg);
		o->exit_code = 2;
	}
	sb->pending.kind = 0;
	sb->in_command = 0;
	sb->output = NULL;
	sb->cur_pack = NULL;
	sb->cur_verb = NULL;
	sb_command_reset(sb);
	(void)err;
	return 0;
}
