/*
 * l_register.c: what pack files declare while they load: engine.pack,
 * engine.rule, engine.declare, engine.run_rule, engine.report (pack.lua),
 * engine.program and prog:verb (commands.lua), engine.figure and
 * engine.mutation (validation.lua). Registration works only in its load
 * context, and every field of every call is checked against a table of
 * fields, so a typo is a load error pointing at the call's file:line.
 */
#include "core/lua/sb_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util/names.h"
#include "core/util/num.h"

enum fkind { F_STRING, F_STRLIST, F_FUNCTION, F_BOOL, F_TABLE, F_ANY };

struct field {
	const char *name;
	enum fkind kind;
	int required;
	const char *const *choices; /* for F_STRING: allowed values */
};

static const char *const severities[] = { "error", "warning", "info", NULL };
static const char *const stages[] = { "input", "check", NULL };
static const char *const orders[] = { "evaluation", "position", "rule", NULL };

static const struct field *field_find(const struct field *fs, const char *k)
{
	for (; fs->name; fs++)
		if (strcmp(fs->name, k) == 0)
			return fs;
	return NULL;
}

static int field_type_ok(lua_State *L, int idx, const struct field *f)
{
	int t = lua_type(L, idx);
	lua_Integer i, n;

	switch (f->kind) {
	case F_STRING:
		return t == LUA_TSTRING;
	case F_FUNCTION:
		return t == LUA_TFUNCTION;
	case F_BOOL:
		return t == LUA_TBOOLEAN;
	case F_TABLE:
		return t == LUA_TTABLE;
	case F_STRLIST:
		if (t == LUA_TSTRING)
			return 1;
		if (t != LUA_TTABLE)
			return 0;
		n = (lua_Integer)lua_rawlen(L, idx);
		for (i = 1; i <= n; i++) {
			int it = lua_rawgeti(L, idx, i);

			lua_pop(L, 1);
			if (it != LUA_TSTRING)
				return 0;
		}
		return n > 0;
	default:
		return 1;
	}
}

static const char *kind_text(enum fkind k)
{
	static const char *const names[] = {
		[F_STRING] = "a string", [F_STRLIST] = "a string or a list of strings",
		[F_FUNCTION] = "a function", [F_BOOL] = "a boolean",
		[F_TABLE] = "a table", [F_ANY] = "a value",
	};
	return names[k];
}

/* Push "a, b or c" of a NULL-ended list, for a message. */
static const char *push_choices(lua_State *L, const char *const *list)
{
	luaL_Buffer b;
	size_t i;

	luaL_buffinit(L, &b);
	for (i = 0; list[i]; i++) {
		if (i > 0)
			luaL_addstring(&b, list[i + 1] ? ", " : " or ");
		luaL_addstring(&b, list[i]);
	}
	luaL_pushresult(&b);
	return lua_tostring(L, -1);
}

/* Raise: 'k' is no field of fs, naming the nearest one when it is close. */
__attribute__((noreturn)) static void unknown_field(lua_State *L, const char *what,
						    const char *k, const struct field *fs)
{
	const struct field *f, *best = NULL;
	size_t bd = 3;

	for (f = fs; f->name; f++) {
		size_t d = name_distance(k, f->name);

		if (d < bd) {
			bd = d;
			best = f;
		}
	}
	if (best)
		luaL_error(L, "%s: unknown field '%s' (did you mean '%s'?)", what, k, best->name);
	luaL_error(L, "%s: unknown field '%s'", what, k);
}

/* Check the table argument 1 of 'what' against 'fs'; raises with the
 * caller's position. */
static void check_fields(lua_State *L, const char *what, const struct field *fs)
{
	const struct field *f;

	luaL_checktype(L, 1, LUA_TTABLE);
	lua_pushnil(L);
	while (lua_next(L, 1)) {
		const char *k;

		if (lua_type(L, -2) != LUA_TSTRING)
			luaL_error(L, "%s: fields must be named (a table of name = value)", what);
		k = lua_tostring(L, -2);
		f = field_find(fs, k);
		if (!f)
			unknown_field(L, what, k, fs);
		if (!field_type_ok(L, lua_gettop(L), f))
			luaL_error(L, "%s: field '%s' must be %s, not %s", what, k,
				   kind_text(f->kind), luaL_typename(L, -1));
		if (f->choices) {
			const char *v = lua_tostring(L, -1);
			size_t i;
			int ok = 0;

			for (i = 0; f->choices[i]; i++)
				if (strcmp(f->choices[i], v) == 0)
					ok = 1;
			if (!ok)
				luaL_error(L, "%s: field '%s' is '%s'; expected %s", what,
					   k, v, push_choices(L, f->choices));
		}
		lua_pop(L, 1);
	}
	for (f = fs; f->name; f++) {
		if (!f->required)
			continue;
		if (lua_getfield(L, 1, f->name) == LUA_TNIL)
			luaL_error(L, "%s: missing required field '%s'", what, f->name);
		lua_pop(L, 1);
	}
}

/* The string field 'k' of the table at 1, strdup'd, or NULL. */
static char *dup_field(lua_State *L, const char *k)
{
	char *s = NULL;

	if (lua_getfield(L, 1, k) == LUA_TSTRING) {
		s = strdup(lua_tostring(L, -1));
		if (!s)
			luaL_error(L, "out of memory");
	}
	lua_pop(L, 1);
	return s;
}

/* strdup that raises when memory runs out; NULL stays NULL. */
static char *xstrdup(lua_State *L, const char *s)
{
	char *p;

	if (!s)
		return NULL;
	p = strdup(s);

	if (!p)
		luaL_error(L, "out of memory");
	return p;
}

/* The load context: which file of which pack is loading. */
static struct sb_pack *load_context(lua_State *L, const char *fn,
				    const char *file)
{
	struct sandbox *sb = sb_of(L);

	if (!sb->loading || sb->call || sb->in_command || sb->in_validation ||
	    strcmp(sb->loading_file, file) != 0)
		luaL_error(L, "%s can only be called while %s loads", fn, file);
	return sb->loading;
}

/* Rules register while pack.lua or the pack's rules.lua loads. */
static struct sb_pack *rules_context(lua_State *L, const char *fn)
{
	struct sandbox *sb = sb_of(L);

	if (sb->loading_file && strcmp(sb->loading_file, "rules.lua") == 0)
		return load_context(L, fn, "rules.lua");
	return load_context(L, fn, "pack.lua");
}

/* ---- ids ------------------------------------------------------------------ */

static int segment_ok(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || s[0] == '-' || s[n - 1] == '-')
		return 0;
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (c == '-') {
			if (s[i + 1] == '-')
				return 0;
		} else if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) {
			return 0;
		}
	}
	return 1;
}

/* Validate an id for 'pack'; returns 1 when strict. Raises otherwise. */
static int check_id(lua_State *L, const char *pack, const char *id)
{
	size_t plen = strlen(pack);
	const char *p = id + plen, *seg;
	int nseg = 0, strict = 0;

	if (strncmp(id, pack, plen) != 0 || *p != '.')
		luaL_error(L, "rule id '%s' must start with the pack's name '%s.'", id,
			   pack);
	while (*p == '.') {
		seg = p + 1;
		p = strchr(seg, '.');
		if (!p)
			p = seg + strlen(seg);
		if (!segment_ok(seg, (size_t)(p - seg)))
			luaL_error(L, "rule id '%s': each segment after '%s' must be lower kebab case",
				   id, pack);
		if (nseg == 0 && (size_t)(p - seg) == 6 && strncmp(seg, "strict", 6) == 0)
			strict = 1;
		nseg++;
	}
	if (*p || nseg == 0 || (strict && nseg < 2))
		luaL_error(L, "rule id '%s' is not of the form %s.<name>", id, pack);
	return strict;
}

static struct sb_rule *find_rule(struct sandbox *sb, const char *id)
{
	size_t i, j;

	for (i = 0; i < sb->npacks; i++)
		for (j = 0; j < sb->packs[i]->nrules; j++)
			if (strcmp(sb->packs[i]->rules[j]->info.id, id) == 0)
				return sb->packs[i]->rules[j];
	return NULL;
}

/* README anchor of a heading "### <id>" as GitHub renders it. */
static void readme_anchor(const char *id, char *out, size_t size)
{
	size_t o = 0;

	for (; *id && o + 1 < size; id++)
		if ((*id >= 'a' && *id <= 'z') || (*id >= '0' && *id <= '9') ||
		    *id == '-' || *id == '_')
			out[o++] = *id;
	out[o] = '\0';
}

void sb_rule_free(struct sb_rule *r)
{
	size_t i;

	if (!r)
		return;
	sb_free_const(r->info.id);
	sb_free_const(r->info.summary);
	sb_free_const(r->info.description);
	sb_free_const(r->info.rationale);
	sb_free_const(r->info.fix);
	sb_free_const(r->info.help_uri);
	sb_free_const(r->info.file);
	for (i = 0; i < r->info.ntags; i++)
		sb_free_const(r->info.tags[i]);
	sb_free_const(r->info.tags);
	if (r->kinds)
		for (i = 0; r->kinds[i]; i++)
			free(r->kinds[i]);
	free(r->kinds);
	free(r);
}

/* A string list field into a malloc'd NULL-terminated array. */
static char **strlist_field(lua_State *L, const char *k, size_t *n)
{
	char **v;
	lua_Integer i, len;

	*n = 0;
	if (lua_getfield(L, 1, k) == LUA_TNIL) {
		lua_pop(L, 1);
		return NULL;
	}
	if (lua_type(L, -1) == LUA_TSTRING) {
		v = calloc(2, sizeof *v);
		if (!v || !(v[0] = strdup(lua_tostring(L, -1)))) {
			free(v);
			luaL_error(L, "out of memory");
		}
		*n = 1;
		lua_pop(L, 1);
		return v;
	}
	len = (lua_Integer)lua_rawlen(L, -1);
	v = calloc((size_t)len + 1, sizeof *v);
	if (!v)
		luaL_error(L, "out of memory");
	for (i = 1; i <= len; i++) {
		lua_rawgeti(L, -1, i);
		v[i - 1] = strdup(lua_tostring(L, -1));
		lua_pop(L, 1);
		if (!v[i - 1])
			break;
		*n = (size_t)i;
	}
	lua_pop(L, 1);
	return v;
}

static int add_rule(struct sandbox *sb, struct sb_pack *p, struct sb_rule *r)
{
	struct sb_rule **v = realloc(p->rules, (p->nrules + 1) * sizeof *v);

	if (!v)
		return -1;
	p->rules = v;
	r->info.index = p->nrules;
	p->rules[p->nrules++] = r;
	(void)sb;
	return 0;
}

static const struct field rule_fields[] = {
	{ "id", F_STRING, 1, NULL },        { "kind", F_STRLIST, 1, NULL },
	{ "severity", F_STRING, 1, severities },
	{ "summary", F_STRING, 1, NULL },   { "description", F_STRING, 0, NULL },
	{ "rationale", F_STRING, 0, NULL }, { "fix", F_STRING, 0, NULL },
	{ "help_uri", F_STRING, 0, NULL },  { "tags", F_STRLIST, 0, NULL },
	{ "stage", F_STRING, 0, stages },   { "check", F_FUNCTION, 1, NULL },
	{ NULL, F_ANY, 0, NULL }
};

static const struct field declare_fields[] = {
	{ "id", F_STRING, 1, NULL },        { "severity", F_STRING, 1, severities },
	{ "summary", F_STRING, 1, NULL },   { "description", F_STRING, 0, NULL },
	{ "rationale", F_STRING, 0, NULL }, { "fix", F_STRING, 0, NULL },
	{ "help_uri", F_STRING, 0, NULL },  { "tags", F_STRLIST, 0, NULL },
	{ "stage", F_STRING, 0, stages },   { "program", F_BOOL, 0, NULL },
	{ NULL, F_ANY, 0, NULL }
};

static const struct field run_rule_fields[] = {
	{ "id", F_STRING, 1, NULL },        { "kind", F_STRLIST, 1, NULL },
	{ "severity", F_STRING, 1, severities },
	{ "summary", F_STRING, 1, NULL },   { "description", F_STRING, 0, NULL },
	{ "rationale", F_STRING, 0, NULL }, { "fix", F_STRING, 0, NULL },
	{ "help_uri", F_STRING, 0, NULL },  { "tags", F_STRLIST, 0, NULL },
	{ "collect", F_FUNCTION, 1, NULL }, { "check", F_FUNCTION, 1, NULL },
	{ NULL, F_ANY, 0, NULL }
};

static int field_bool(lua_State *L, int t, const char *k, int dflt)
{
	int v = dflt;

	if (lua_getfield(L, t, k) == LUA_TBOOLEAN)
		v = lua_toboolean(L, -1);
	lua_pop(L, 1);
	return v;
}

/* The common part of rule, declare and run_rule. */
static int register_id(lua_State *L, const char *fn, const struct field *fs,
		       int declared, int run_level)
{
	struct sandbox *sb = sb_of(L);
	struct sb_pack *p = rules_context(L, fn);
	struct sb_rule *r, *dup;
	const char *id, *summary;
	char anchor[256];
	lua_Debug ar;
	size_t i, n;

	check_fields(L, fn, fs);
	lua_getfield(L, 1, "id");
	id = lua_tostring(L, -1);
	lua_pop(L, 1);
	lua_getfield(L, 1, "summary");
	summary = lua_tostring(L, -1);
	lua_pop(L, 1);
	n = strlen(summary);
	if (n == 0 || n > 120 || summary[n - 1] == '.')
		luaL_error(L, "%s '%s': summary must be one line of 1-120 characters without a final period",
			   fn, id);
	check_id(L, p->info.name, id);
	dup = find_rule(sb, id);
	if (dup)
		luaL_error(L, "%s: id '%s' is already registered at %s:%d", fn, id,
			   dup->info.file, dup->info.line);
	r = calloc(1, sizeof *r);
	if (!r)
		luaL_error(L, "out of memory");
	r->pack = p;
	r->check_ref = LUA_NOREF;
	r->collect_ref = LUA_NOREF;
	r->info.id = strdup(id);
	r->info.pack = p->info.name;
	r->info.summary = dup_field(L, "summary");
	r->info.description = dup_field(L, "description");
	r->info.rationale = dup_field(L, "rationale");
	r->info.fix = dup_field(L, "fix");
	r->info.help_uri = dup_field(L, "help_uri");
	r->info.strict = check_id(L, p->info.name, id);
	r->info.declared = declared;
	r->info.program_only = declared && field_bool(L, 1, "program", 0);
	r->info.run_level = run_level;
	lua_getfield(L, 1, "severity");
	r->info.severity = severity_parse(lua_tostring(L, -1));
	lua_pop(L, 1);
	lua_getfield(L, 1, "stage");
	r->info.input_stage = lua_isstring(L, -1)
				      ? strcmp(lua_tostring(L, -1), "input") == 0
				      : declared;
	lua_pop(L, 1);
	r->info.tags = (const char *const *)strlist_field(L, "tags", &r->info.ntags);
	if (lua_getstack(L, 1, &ar) && lua_getinfo(L, "Sl", &ar)) {
		r->info.file = strdup(ar.short_src);
		r->info.line = ar.currentline;
	} else {
		r->info.file = strdup(p->desc.chunk_dir);
	}
	if (!r->info.help_uri && p->info.help_base) {
		char buf[1024];

		readme_anchor(id, anchor, sizeof anchor);
		snprintf(buf, sizeof buf, "%s#%s", p->info.help_base, anchor);
		r->info.help_uri = strdup(buf);
	}
	if (!declared) {
		r->kinds = strlist_field(L, "kind", &r->info.nkinds);
		r->info.kinds = (const char *const *)r->kinds;
		for (i = 0; i < r->info.nkinds; i++) {
			const char *owner = sb->host && sb->host->kind_pack
						    ? sb->host->kind_pack(sb->host->ud, r->kinds[i])
						    : NULL;

			if (!owner || (!p->info.site && strcmp(owner, p->info.name) != 0)) {
				lua_pushstring(L, r->kinds[i]);
				lua_pushstring(L, owner ? owner : "");
				sb_rule_free(r);
				if (!owner)
					return luaL_error(L, "%s '%s': unknown kind '%s'",
							  fn, id, lua_tostring(L, -2));
				return luaL_error(L,
						  "%s '%s': kind '%s' belongs to pack '%s'; a shipped pack's rules check only its own kinds",
						  fn, id, lua_tostring(L, -2), lua_tostring(L, -1));
			}
		}
		lua_getfield(L, 1, "check");
		r->check_ref = luaL_ref(L, LUA_REGISTRYINDEX);
		if (run_level) {
			lua_getfield(L, 1, "collect");
			r->collect_ref = luaL_ref(L, LUA_REGISTRYINDEX);
		}
	}
	if (!r->info.id || !r->info.summary || !r->info.file || add_rule(sb, p, r) < 0) {
		sb_rule_free(r);
		return luaL_error(L, "out of memory");
	}
	return 0;
}

static int l_rule(lua_State *L)
{
	return register_id(L, "engine.rule", rule_fields, 0, 0);
}

static int l_declare(lua_State *L)
{
	return register_id(L, "engine.declare", declare_fields, 1, 0);
}

static int l_run_rule(lua_State *L)
{
	return register_id(L, "engine.run_rule", run_rule_fields, 0, 1);
}

static const struct field pack_fields[] = {
	{ "version", F_STRING, 0, NULL },  { "summary", F_STRING, 0, NULL },
	{ "help_base", F_STRING, 0, NULL }, { "order", F_STRING, 0, orders },
	{ "order_after", F_TABLE, 0, NULL }, { "registry_error", F_STRING, 0, NULL },
	{ NULL, F_ANY, 0, NULL }
};

static int l_pack(lua_State *L)
{
	struct sb_pack *p = load_context(L, "engine.pack", "pack.lua");
	size_t n = 0;

	check_fields(L, "engine.pack", pack_fields);
	if (p->nrules || p->nreports || p->info.summary)
		return luaL_error(L, "engine.pack must come once, before any other engine call");
	if (lua_getfield(L, 1, "version") == LUA_TSTRING) {
		sb_free_const(p->info.version);
		p->info.version = xstrdup(L, lua_tostring(L, -1));
	}
	lua_pop(L, 1);
	p->info.summary = dup_field(L, "summary");
	if (!p->info.summary)
		p->info.summary = xstrdup(L, "");
	p->info.help_base = dup_field(L, "help_base");
	if (lua_getfield(L, 1, "registry_error") == LUA_TSTRING) {
		const char *id = lua_tostring(L, -1);

		check_id(L, p->info.name, id); /* raises on a bad form */
		p->info.registry_error = xstrdup(L, id);
	}
	lua_pop(L, 1);
	if (lua_getfield(L, 1, "order") == LUA_TSTRING) {
		const char *o = lua_tostring(L, -1);

		p->info.order = o[0] == 'p' ? ORDER_POSITION
			      : o[0] == 'r' ? ORDER_RULE : ORDER_EVALUATION;
	}
	lua_pop(L, 1);
	if (lua_getfield(L, 1, "order_after") == LUA_TTABLE) {
		lua_pushnil(L);
		while (lua_next(L, -2))
			n++, lua_pop(L, 1);
		p->oa_core = calloc(n + 1, sizeof *p->oa_core);
		p->oa_after = calloc(n + 1, sizeof *p->oa_after);
		if (!p->oa_core || !p->oa_after)
			return luaL_error(L, "out of memory");
		lua_pushnil(L);
		while (lua_next(L, -2)) {
			if (lua_type(L, -2) != LUA_TSTRING || lua_type(L, -1) != LUA_TSTRING)
				return luaL_error(L, "engine.pack: order_after maps a core id to a rule id");
			p->oa_core[p->noa] = xstrdup(L, lua_tostring(L, -2));
			p->oa_after[p->noa] = xstrdup(L, lua_tostring(L, -1));
			p->noa++;
			lua_pop(L, 1);
		}
	}
	lua_pop(L, 1);
	return 0;
}

static const char *const report_verbs[] = { "program", NULL };
static const struct field report_fields[] = {
	{ "kind", F_STRING, 1, NULL },    { "key", F_STRING, 0, NULL },
	{ "verbs", F_STRING, 0, report_verbs }, { "build", F_FUNCTION, 1, NULL },
	{ NULL, F_ANY, 0, NULL }
};

static int l_report(lua_State *L)
{
	struct sandbox *sb = sb_of(L);
	struct sb_pack *p = load_context(L, "engine.report", "pack.lua");
	struct sb_report *v, *r;
	const char *kind, *owner;
	size_t i;

	check_fields(L, "engine.report", report_fields);
	lua_getfield(L, 1, "kind");
	kind = lua_tostring(L, -1);
	owner = sb->host && sb->host->kind_pack ? sb->host->kind_pack(sb->host->ud, kind)
						: NULL;
	if (!owner || strcmp(owner, p->info.name) != 0)
		return luaL_error(L, "engine.report: '%s' is not a kind of pack '%s'", kind,
				  p->info.name);
	for (i = 0; i < p->nreports; i++)
		if (strcmp(p->reports[i].kind, kind) == 0)
			return luaL_error(L, "engine.report: kind '%s' already has a report", kind);
	v = realloc(p->reports, (p->nreports + 1) * sizeof *v);
	if (!v)
		return luaL_error(L, "out of memory");
	p->reports = v;
	r = &p->reports[p->nreports];
	memset(r, 0, sizeof *r);
	r->build_ref = LUA_NOREF;
	r->kind = xstrdup(L, kind);
	p->nreports++;
	r->key = dup_field(L, "key");
	if (!r->key)
		r->key = xstrdup(L, p->info.name);
	lua_getfield(L, 1, "verbs");
	r->program_only = lua_isstring(L, -1);
	lua_pop(L, 1);
	lua_getfield(L, 1, "build");
	r->build_ref = luaL_ref(L, LUA_REGISTRYINDEX);
	return 0;
}

/* ---- validation ----------------------------------------------------------- */

static int add_named(lua_State *L, struct sb_named_ref **v, size_t *n,
		     const char *fn, const char *namefield, const char *funcfield)
{
	struct sb_named_ref *nv;
	const char *name;
	size_t i;

	lua_getfield(L, 1, namefield);
	name = lua_tostring(L, -1);
	lua_pop(L, 1);
	for (i = 0; i < *n; i++)
		if (strcmp((*v)[i].name, name) == 0)
			return luaL_error(L, "%s: '%s' is registered twice", fn, name);
	nv = realloc(*v, (*n + 1) * sizeof *nv);
	if (!nv)
		return luaL_error(L, "out of memory");
	*v = nv;
	nv[*n].name = xstrdup(L, name);
	lua_getfield(L, 1, funcfield);
	nv[*n].ref = luaL_ref(L, LUA_REGISTRYINDEX);
	(*n)++;
	return 0;
}

static const struct field figure_fields[] = {
	{ "id", F_STRING, 1, NULL }, { "compute", F_FUNCTION, 1, NULL },
	{ NULL, F_ANY, 0, NULL }
};

static const struct field mutation_fields[] = {
	{ "name", F_STRING, 1, NULL }, { "apply", F_FUNCTION, 1, NULL },
	{ "about", F_STRING, 0, NULL }, { NULL, F_ANY, 0, NULL }
};

static int l_figure(lua_State *L)
{
	struct sb_pack *p = load_context(L, "engine.figure", "validation.lua");

	check_fields(L, "engine.figure", figure_fields);
	return add_named(L, &p->figures, &p->nfigures, "engine.figure", "id",
			 "compute");
}

static int l_mutation(lua_State *L)
{
	struct sb_pack *p = load_context(L, "engine.mutation", "validation.lua");

	check_fields(L, "engine.mutation", mutation_fields);
	return add_named(L, &p->mutations, &p->nmutations, "engine.mutation",
			 "name", "apply");
}

/* ---- programs -------------------------------------------------------------- */

static const char *const abbrevs[] = { "none", "unique-prefix", NULL };

static const struct field syntax_fields[] = {
	{ "abbrev", F_STRING, 0, abbrevs },  { "negative_numbers", F_BOOL, 0, NULL },
	{ "help_anywhere", F_BOOL, 0, NULL }, { "before_verb", F_TABLE, 0, NULL },
	{ "verb_required", F_BOOL, 0, NULL }, { "default_verb", F_STRING, 0, NULL },
	{ NULL, F_ANY, 0, NULL }
};

static const struct field program_fields[] = {
	{ "name", F_STRING, 1, NULL }, { "summary", F_STRING, 1, NULL },
	{ "help", F_STRING, 0, NULL }, { "syntax", F_TABLE, 0, NULL },
	{ NULL, F_ANY, 0, NULL }
};

static int l_program(lua_State *L)
{
	struct sb_pack *p = load_context(L, "engine.program", "commands.lua");
	const char *name, *owner;

	check_fields(L, "engine.program", program_fields);
	if (p->has_program)
		return luaL_error(L, "engine.program: a pack declares one program");
	lua_getfield(L, 1, "name");
	name = lua_tostring(L, -1);
	lua_pop(L, 1);
	owner = linked_program_pack(name);
	if (owner ? strcmp(owner, p->info.name) != 0
		  : (strcmp(name, p->info.name) != 0 ||
		     linked_program_of_pack(p->info.name)))
		return luaL_error(L, "engine.program: pack '%s' must name its program '%s', not '%s'",
				  p->info.name,
				  linked_program_of_pack(p->info.name)
					  ? linked_program_of_pack(p->info.name)
					  : p->info.name,
				  name);
	p->has_program = 1;
	p->info.has_program = 1;
	p->prog.name = xstrdup(L, name);
	p->prog.summary = dup_field(L, "summary");
	p->prog.help = dup_field(L, "help");
	p->prog.syntax.abbrev = AP_NO_ABBREV;
	p->prog.syntax.help_anywhere = 1;
	p->prog.syntax.verb_required = 1;
	if (lua_getfield(L, 1, "syntax") == LUA_TTABLE) {
		int s = lua_gettop(L);

		lua_pushvalue(L, s);
		lua_replace(L, 1);
		check_fields(L, "engine.program syntax", syntax_fields);
		if (lua_getfield(L, s, "abbrev") == LUA_TSTRING &&
		    strcmp(lua_tostring(L, -1), "unique-prefix") == 0)
			p->prog.syntax.abbrev = AP_UNIQUE_PREFIX;
		lua_pop(L, 1);
		p->prog.syntax.negative_numbers = field_bool(L, s, "negative_numbers", 0);
		p->prog.syntax.help_anywhere = field_bool(L, s, "help_anywhere", 1);
		p->prog.syntax.verb_required = field_bool(L, s, "verb_required", 1);
		if (lua_getfield(L, s, "default_verb") == LUA_TSTRING) {
			p->prog.syntax.default_verb = xstrdup(L, lua_tostring(L, -1));
			p->prog.syntax.verb_required = 0;
		}
		lua_pop(L, 1);
		/* before_verb: kept in the program table for verbs to read. */
	}
	/* The syntax table (or nil) is at -1: its before_verb list is kept
	 * for every verb's options, those read later from a verb's module
	 * included. */
	if (lua_type(L, -1) == LUA_TTABLE &&
	    lua_getfield(L, -1, "before_verb") == LUA_TTABLE)
		p->before_ref = luaL_ref(L, LUA_REGISTRYINDEX);
	else if (lua_type(L, -1) != LUA_TNIL)
		lua_pop(L, 1);
	/* The program object: a userdata whose 'verb' method adds verbs. */
	lua_newuserdatauv(L, 0, 0);
	luaL_setmetatable(L, SB_KEY_PROG_MT);
	return 1;
}

static const char *const opt_types[] = { "flag", "string", "choice", "float", "int",
					 "bigint", "path", NULL };
static const char *const opt_repeat[] = { "last", "append", NULL };
static const char *const opt_group[] = { "reference", "added", NULL };

static const struct field option_fields[] = {
	{ "short", F_STRING, 0, NULL },     { "type", F_STRING, 0, opt_types },
	{ "required", F_BOOL, 0, NULL },    { "default", F_ANY, 0, NULL },
	{ "choices", F_TABLE, 0, NULL },    { "min", F_ANY, 0, NULL },
	{ "max", F_ANY, 0, NULL },          { "min_exclusive", F_ANY, 0, NULL },
	{ "max_exclusive", F_ANY, 0, NULL }, { "finite", F_BOOL, 0, NULL },
	{ "repeat", F_STRING, 0, opt_repeat }, { "group", F_STRING, 0, opt_group },
	{ "abbrev", F_BOOL, 0, NULL },      { "metavar", F_STRING, 0, NULL },
	{ "help", F_STRING, 0, NULL },      { "hidden", F_BOOL, 0, NULL },
	{ "expands_to", F_STRING, 0, NULL }, { NULL, F_ANY, 0, NULL }
};

static const struct field operands_fields[] = {
	{ "name", F_STRING, 1, NULL }, { "min", F_ANY, 0, NULL },
	{ "max", F_ANY, 0, NULL },     { NULL, F_ANY, 0, NULL }
};

static const struct field verb_fields[] = {
	{ "name", F_STRING, 1, NULL },    { "summary", F_STRING, 1, NULL },
	{ "help", F_STRING, 0, NULL },    { "options", F_TABLE, 0, NULL },
	{ "operands", F_TABLE, 0, NULL }, { "lint", F_BOOL, 0, NULL },
	{ "select", F_TABLE, 0, NULL },   { "run", F_ANY, 1, NULL },
	{ NULL, F_ANY, 0, NULL }
};

/* A number field as a double; returns 0 when absent. */
static int num_field(lua_State *L, int t, const char *k, double *v)
{
	int r = 0;

	if (lua_getfield(L, t, k) != LUA_TNIL) {
		if (lua_type(L, -1) != LUA_TNUMBER)
			luaL_error(L, "option field '%s' must be a number", k);
		*v = lua_tonumber(L, -1);
		r = 1;
	}
	lua_pop(L, 1);
	return r;
}

static char *default_text(lua_State *L, int idx)
{
	char buf[NUM_REPR_MAX];

	switch (lua_type(L, idx)) {
	case LUA_TNIL:
		return NULL;
	case LUA_TSTRING:
		return xstrdup(L, lua_tostring(L, idx));
	case LUA_TNUMBER:
		if (lua_isinteger(L, idx))
			num_int(lua_tointeger(L, idx), buf);
		else
			num_repr(lua_tonumber(L, idx), buf);
		return xstrdup(L, buf);
	case LUA_TBOOLEAN:
		return lua_toboolean(L, idx) ? xstrdup(L, "true") : NULL;
	default:
		luaL_error(L, "option default must be a string, number or boolean");
		return NULL;
	}
}

/* The fields of option_fields, in its order. */
enum option_field {
	OF_SHORT, OF_TYPE, OF_REQUIRED, OF_DEFAULT, OF_CHOICES, OF_MIN, OF_MAX,
	OF_MIN_EXCLUSIVE, OF_MAX_EXCLUSIVE, OF_FINITE, OF_REPEAT, OF_GROUP, OF_ABBREV,
	OF_METAVAR, OF_HELP, OF_HIDDEN, OF_EXPANDS_TO
};

_Static_assert(sizeof option_fields / sizeof option_fields[0] == OF_EXPANDS_TO + 2,
	       "enum option_field follows option_fields");

/* A number-valued option field (min, max, ...): raises on any other type. */
static double option_number(lua_State *L, const char *opt, const char *k)
{
	if (lua_type(L, -1) != LUA_TNUMBER)
		luaL_error(L, "prog:verb: option %s: field '%s' must be a number, not %s", opt,
			   k, luaL_typename(L, -1));
	return lua_tonumber(L, -1);
}

/* The choices list at the top into o->choices, which owns each string as
 * it is copied (so a raise part way frees what was made). */
static void option_choices(lua_State *L, struct ap_option *o)
{
	lua_Integer i, n = (lua_Integer)lua_rawlen(L, -1);
	char **c = calloc((size_t)n + 1, sizeof *c);

	if (!c)
		luaL_error(L, "out of memory");
	o->choices = (const char *const *)c;
	for (i = 1; i <= n; i++) {
		if (lua_rawgeti(L, -1, i) != LUA_TSTRING)
			luaL_error(L, "option '%s': choices must be strings", o->name);
		c[i - 1] = xstrdup(L, lua_tostring(L, -1));
		lua_pop(L, 1);
	}
}

/* The index of s in the NULL-ended list, or -1. */
static int choice_index(const char *const *list, const char *s)
{
	int i;

	for (i = 0; list[i]; i++)
		if (strcmp(list[i], s) == 0)
			return i;
	return -1;
}

/* Set the field at the top (key below it) of option 'o'; f is its entry in
 * option_fields, its type already checked. */
static void set_option_field(lua_State *L, struct ap_option *o, const struct field *f)
{
	static const enum ap_type types[] = { AP_FLAG,	AP_STRING, AP_CHOICE, AP_FLOAT,
					      AP_INT,	AP_BIGINT, AP_PATH };
	const char *v = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;

	switch ((enum option_field)(f - option_fields)) {
	case OF_SHORT: o->short_name = xstrdup(L, v); break;
	case OF_TYPE: o->type = types[choice_index(opt_types, v)]; break;
	case OF_REQUIRED: o->required = lua_toboolean(L, -1); break;
	case OF_DEFAULT: o->dflt = default_text(L, -1); break;
	case OF_CHOICES: option_choices(L, o); break;
	case OF_MIN: o->has_min = 1; o->min = option_number(L, o->name, f->name); break;
	case OF_MAX: o->has_max = 1; o->max = option_number(L, o->name, f->name); break;
	case OF_MIN_EXCLUSIVE:
		o->has_min = o->min_exclusive = 1;
		o->min = option_number(L, o->name, f->name);
		break;
	case OF_MAX_EXCLUSIVE:
		o->has_max = o->max_exclusive = 1;
		o->max = option_number(L, o->name, f->name);
		break;
	case OF_FINITE: o->finite = lua_toboolean(L, -1); break;
	case OF_REPEAT: o->repeat_append = v && strcmp(v, "append") == 0; break;
	case OF_GROUP:
		o->group = v && strcmp(v, "added") == 0 ? AP_GROUP_ADDED : AP_GROUP_REFERENCE;
		break;
	case OF_ABBREV: o->abbrev = lua_toboolean(L, -1) ? AP_ABBREV_YES : AP_ABBREV_NO; break;
	case OF_METAVAR: o->metavar = xstrdup(L, v); break;
	case OF_HELP: o->help = xstrdup(L, v); break;
	case OF_HIDDEN: o->hidden = lua_toboolean(L, -1); break;
	case OF_EXPANDS_TO: {
		/* "--set seed=": the target's name, then the prefix; the target
		 * is found once the verb's options are all read
		 * (link_shorthands). */
		const char *sp = v ? strchr(v, ' ') : NULL;

		if (!sp || sp == v || !sp[1])
			luaL_error(L, "prog:verb: option %s: expands_to is \"--target prefix\"",
				   o->name);
		o->expand_prefix = xstrdup(L, v);
		break;
	}
	}
}

/* Push and return "prog:verb: option --name", the start of a message about
 * option 'o' (made only when there is an error to report). */
static const char *option_what(lua_State *L, const struct ap_option *o)
{
	return lua_pushfstring(L, "prog:verb: option %s", o->name);
}

/* Convert one option table (at the top) into 'o', in one pass over its
 * fields: item 1 is the long name, every other key a field of
 * option_fields of the right type. */
static void convert_option(lua_State *L, struct ap_option *o, int before)
{
	int t = lua_gettop(L);

	if (lua_rawgeti(L, t, 1) != LUA_TSTRING || strncmp(lua_tostring(L, -1), "--", 2) != 0)
		luaL_error(L, "prog:verb: an option's first item is its long name, \"--name\"");
	o->name = xstrdup(L, lua_tostring(L, -1));
	lua_pop(L, 1);
	o->finite = 1;
	o->type = AP_STRING;
	o->before_verb = before;
	lua_pushnil(L);
	while (lua_next(L, t)) {
		const struct field *f;
		const char *k, *v;

		if (lua_type(L, -2) == LUA_TNUMBER && lua_tointeger(L, -2) == 1) {
			lua_pop(L, 1);
			continue;
		}
		if (lua_type(L, -2) != LUA_TSTRING)
			luaL_error(L, "prog:verb: option %s: fields after the name must be named",
				   o->name);
		k = lua_tostring(L, -2);
		f = field_find(option_fields, k);
		if (!f)
			unknown_field(L, option_what(L, o), k, option_fields);
		if (!field_type_ok(L, lua_gettop(L), f)) {
			const char *tn = luaL_typename(L, -1);

			luaL_error(L, "%s: field '%s' must be %s, not %s", option_what(L, o), k,
				   kind_text(f->kind), tn);
		}
		/* Only string fields have choices: lua_tostring converts no
		 * number in place here. */
		v = f->choices ? lua_tostring(L, -1) : NULL;
		if (v && choice_index(f->choices, v) < 0) {
			const char *what = option_what(L, o);

			luaL_error(L, "%s: field '%s' is '%s'; expected %s", what, k, v,
				   push_choices(L, f->choices));
		}
		set_option_field(L, o, f);
		lua_pop(L, 1);
	}
	if (o->type == AP_CHOICE && !o->choices)
		luaL_error(L, "option '%s' of type choice needs choices", o->name);
}

/* Resolve each shorthand's target (expands_to "--set seed=") among the
 * verb's options: it must be a repeatable string option and no shorthand. */
static void link_shorthands(lua_State *L, struct ap_option *opts, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		char *spec = (char *)(uintptr_t)opts[i].expand_prefix;
		char *sp;

		if (!spec)
			continue;
		sp = strchr(spec, ' ');
		*sp = '\0';
		for (j = 0; j < n; j++)
			if (strcmp(opts[j].name, spec) == 0)
				break;
		if (j == n || opts[j].type != AP_STRING || !opts[j].repeat_append ||
		    opts[j].expand_prefix)
			luaL_error(L, "prog:verb: option %s expands to %s, which is not a "
				   "repeatable string option of the verb", opts[i].name, spec);
		opts[i].expand_to = j;
		/* The prefix moves to the front of the same allocation. */
		memmove(spec, sp + 1, strlen(sp + 1) + 1);
	}
}

/* Whether long option 'name' is listed in the program's before_verb. */
static int is_before_verb(lua_State *L, const struct sb_pack *p, const char *name)
{
	lua_Integer i, n;
	int r = 0;

	if (lua_rawgeti(L, LUA_REGISTRYINDEX, p->before_ref) == LUA_TTABLE) {
		n = (lua_Integer)lua_rawlen(L, -1);
		for (i = 1; i <= n && !r; i++) {
			lua_rawgeti(L, -1, i);
			r = lua_type(L, -1) == LUA_TSTRING &&
			    strcmp(lua_tostring(L, -1), name) == 0;
			lua_pop(L, 1);
		}
	}
	lua_pop(L, 1);
	return r;
}

void sb_read_verb_options(lua_State *L, struct sb_pack *p, size_t vi, int ot)
{
	struct ap_verb *v = &p->verbs[vi];
	struct ap_option *opts;
	lua_Integer i, n;

	ot = lua_absindex(L, ot);
	n = (lua_Integer)lua_rawlen(L, ot);
	opts = calloc((size_t)n + 1, sizeof *opts);
	if (!opts)
		luaL_error(L, "out of memory");
	v->options = opts;
	for (i = 1; i <= n; i++) {
		if (lua_rawgeti(L, ot, i) != LUA_TTABLE)
			luaL_error(L, "prog:verb: options must be tables");
		v->noptions = (size_t)i;
		convert_option(L, &opts[i - 1], 0);
		opts[i - 1].before_verb = is_before_verb(L, p, opts[i - 1].name);
		lua_pop(L, 1);
	}
	link_shorthands(L, opts, v->noptions);
}

/* prog:verb{...} */
static int l_prog_verb(lua_State *L)
{
	struct sb_pack *p = load_context(L, "prog:verb", "commands.lua");
	struct ap_verb *verbs, *v;
	struct sb_verb_extra *vx;
	lua_Integer i, n;
	const char *name;
	size_t k;
	int spec, has_options;

	luaL_checkudata(L, 1, SB_KEY_PROG_MT);
	luaL_checktype(L, 2, LUA_TTABLE);
	lua_settop(L, 2);
	/* check_fields reads the table at 1; the spec stays at 'spec' while
	 * 1 is reused for the operands table. */
	spec = 2;
	lua_pushvalue(L, spec);
	lua_replace(L, 1);
	check_fields(L, "prog:verb", verb_fields);
	lua_getfield(L, spec, "name");
	name = lua_tostring(L, -1);
	for (k = 0; k < p->nverbs; k++)
		if (strcmp(p->verbs[k].name, name) == 0)
			return luaL_error(L, "prog:verb: verb '%s' is declared twice", name);
	verbs = realloc(p->verbs, (p->nverbs + 1) * sizeof *verbs);
	if (!verbs)
		return luaL_error(L, "out of memory");
	p->verbs = verbs;
	vx = realloc(p->vx, (p->nverbs + 1) * sizeof *vx);
	if (!vx)
		return luaL_error(L, "out of memory");
	p->vx = vx;
	v = &p->verbs[p->nverbs];
	memset(v, 0, sizeof *v);
	memset(&p->vx[p->nverbs], 0, sizeof p->vx[0]);
	p->vx[p->nverbs].run_ref = LUA_NOREF;
	p->nverbs++;
	p->prog.verbs = p->verbs;
	p->prog.nverbs = p->nverbs;
	v->name = xstrdup(L, name);
	lua_pop(L, 1);
	lua_getfield(L, spec, "summary");
	v->summary = xstrdup(L, lua_tostring(L, -1));
	lua_pop(L, 1);
	if (lua_getfield(L, spec, "help") == LUA_TSTRING)
		v->help = xstrdup(L, lua_tostring(L, -1));
	lua_pop(L, 1);
	v->operands.name = NULL;
	v->operands.min = 0;
	v->operands.max = 0;
	if (lua_getfield(L, spec, "operands") == LUA_TTABLE) {
		double d;
		int t = lua_gettop(L);

		lua_pushvalue(L, t);
		lua_replace(L, 1);
		check_fields(L, "prog:verb operands", operands_fields);
		lua_getfield(L, t, "name");
		v->operands.name = xstrdup(L, lua_tostring(L, -1));
		lua_pop(L, 1);
		v->operands.max = SIZE_MAX;
		if (num_field(L, t, "min", &d))
			v->operands.min = d < 0 ? 0 : (size_t)d;
		if (num_field(L, t, "max", &d))
			v->operands.max = isinf(d) || d > 1e15 ? SIZE_MAX : (size_t)d;
	}
	lua_pop(L, 1);
	if (lua_getfield(L, spec, "select") == LUA_TTABLE) {
		char **sel;

		n = (lua_Integer)lua_rawlen(L, -1);
		sel = calloc((size_t)n + 1, sizeof *sel);
		if (!sel)
			return luaL_error(L, "out of memory");
		v->select = (const char *const *)sel;
		for (i = 1; i <= n; i++) {
			if (lua_rawgeti(L, -1, i) != LUA_TSTRING)
				return luaL_error(L, "prog:verb: select lists option names");
			sel[i - 1] = xstrdup(L, lua_tostring(L, -1));
			v->nselect = (size_t)i;
			lua_pop(L, 1);
		}
	}
	lua_pop(L, 1);
	has_options = lua_getfield(L, spec, "options") == LUA_TTABLE;
	if (has_options)
		sb_read_verb_options(L, p, p->nverbs - 1, lua_gettop(L));
	lua_pop(L, 1);
	p->vx[p->nverbs - 1].lint = field_bool(L, spec, "lint", 0);
	lua_getfield(L, spec, "run");
	if (lua_type(L, -1) == LUA_TSTRING) {
		/* A module name: compiled when the verb first runs (5.9), but
		 * a name that leads nowhere is a load error now. Without
		 * options here, the module may declare them. */
		if (!sb_module_exists(sb_of(L), p, lua_tostring(L, -1)))
			return luaL_error(L, "prog:verb '%s': run module '%s' is neither the pack's "
					  "lib/ module nor a lua/ helper", v->name,
					  lua_tostring(L, -1));
		p->vx[p->nverbs - 1].lazy = !has_options;
	} else if (lua_type(L, -1) != LUA_TFUNCTION) {
		return luaL_error(L, "prog:verb '%s': run must be a function or a module name",
				  v->name);
	}
	p->vx[p->nverbs - 1].run_ref = luaL_ref(L, LUA_REGISTRYINDEX);
	return 0;
}

static const luaL_Reg register_funcs[] = {
	{ "pack", l_pack },         { "rule", l_rule },
	{ "declare", l_declare },   { "run_rule", l_run_rule },
	{ "report", l_report },     { "program", l_program },
	{ "figure", l_figure },     { "mutation", l_mutation },
	{ NULL, NULL }
};

void sb_open_register(lua_State *L, int idx)
{
	idx = lua_absindex(L, idx);
	luaL_newmetatable(L, SB_KEY_PROG_MT);
	lua_newtable(L);
	lua_pushcfunction(L, l_prog_verb);
	lua_setfield(L, -2, "verb");
	lua_setfield(L, -2, "__index");
	lua_pushboolean(L, 0);
	lua_setfield(L, -2, "__metatable");
	lua_pop(L, 1);
	lua_pushvalue(L, idx);
	luaL_setfuncs(L, register_funcs, 0);
	lua_pop(L, 1);
}
