/*
 * sb_packs.c: loading pack folders into a sandbox and answering questions
 * about what they registered. A pack's files load in a fixed order into one
 * environment that is frozen after the last file; a file that fails leaves
 * the pack unusable, and the engine then stops before reading any input.
 */
#include "core/lua/sb_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int file_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static void free_strv(const char *const *v)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; v[i]; i++)
		sb_free_const(v[i]);
	sb_free_const(v);
}

static void free_verb(struct ap_verb *v)
{
	size_t i;

	sb_free_const(v->name);
	sb_free_const(v->summary);
	sb_free_const(v->help);
	sb_free_const(v->operands.name);
	free_strv(v->select);
	for (i = 0; i < v->noptions; i++) {
		const struct ap_option *o = &v->options[i];

		sb_free_const(o->name);
		sb_free_const(o->short_name);
		sb_free_const(o->dflt);
		free_strv(o->choices);
		sb_free_const(o->metavar);
		sb_free_const(o->help);
		sb_free_const(o->expand_prefix);
	}
	sb_free_const(v->options);
}

void sb_pack_free(lua_State *L, struct sb_pack *p)
{
	size_t i;

	(void)L;
	for (i = 0; i < p->nrules; i++)
		sb_rule_free(p->rules[i]);
	free(p->rules);
	for (i = 0; i < p->nreports; i++) {
		free(p->reports[i].kind);
		free(p->reports[i].key);
	}
	free(p->reports);
	for (i = 0; i < p->nverbs; i++)
		free_verb(&p->verbs[i]);
	free(p->verbs);
	free(p->vx);
	sb_free_const(p->prog.name);
	sb_free_const(p->prog.summary);
	sb_free_const(p->prog.help);
	sb_free_const(p->prog.syntax.default_verb);
	for (i = 0; i < p->nfigures; i++)
		free(p->figures[i].name);
	free(p->figures);
	for (i = 0; i < p->nmutations; i++)
		free(p->mutations[i].name);
	free(p->mutations);
	free(p->figure_ids);
	free(p->mutation_names);
	for (i = 0; i < p->noa; i++) {
		free(p->oa_core[i]);
		free(p->oa_after[i]);
	}
	free(p->oa_core);
	free(p->oa_after);
	sb_free_const(p->info.name);
	sb_free_const(p->info.version);
	sb_free_const(p->info.summary);
	sb_free_const(p->info.help_base);
	sb_free_const(p->info.registry_error);
	sb_free_const(p->desc.name);
	sb_free_const(p->desc.dir);
	sb_free_const(p->desc.chunk_dir);
	free(p);
}

static int rank_cmp(const void *a, const void *b)
{
	const struct sb_pack *x = *(const struct sb_pack *const *)a;
	const struct sb_pack *y = *(const struct sb_pack *const *)b;

	return x->info.rank < y->info.rank ? -1 : x->info.rank > y->info.rank;
}

int sb_index_rules(struct sandbox *sb)
{
	const struct rule_info **v;
	size_t i, j, n = 0;

	qsort(sb->packs, sb->npacks, sizeof *sb->packs, rank_cmp);
	for (i = 0; i < sb->npacks; i++)
		n += sb->packs[i]->nrules;
	v = malloc((n + 1) * sizeof *v);
	if (!v)
		return -1;
	n = 0;
	for (i = 0; i < sb->npacks; i++)
		for (j = 0; j < sb->packs[i]->nrules; j++)
			v[n++] = &sb->packs[i]->rules[j]->info;
	free(sb->infos);
	sb->infos = v;
	sb->ninfos = n;
	return 0;
}

static struct sb_pack *pack_new(struct sandbox *sb, const struct pack_desc *pd)
{
	struct sb_pack *p = calloc(1, sizeof *p), **v;

	if (!p)
		return NULL;
	p->desc.name = strdup(pd->name);
	p->desc.dir = strdup(pd->dir);
	p->desc.chunk_dir = strdup(pd->chunk_dir);
	p->desc.site = pd->site;
	p->desc.rank = pd->rank;
	p->info.name = strdup(pd->name);
	p->info.version = strdup(sb->version);
	p->info.site = pd->site;
	p->info.rank = pd->rank;
	p->info.dir = p->desc.dir;
	p->active = 1;
	p->env_ref = p->base_ref = p->loaded_ref = LUA_NOREF;
	p->registry_fn_ref = LUA_NOREF;
	p->before_ref = LUA_NOREF;
	v = realloc(sb->packs, (sb->npacks + 1) * sizeof *v);
	if (!p->desc.name || !p->desc.dir || !p->desc.chunk_dir ||
	    !p->info.name || !p->info.version || !v) {
		if (v)
			sb->packs = v;
		sb_pack_free(sb->L, p);
		return NULL;
	}
	sb->packs = v;
	sb->packs[sb->npacks++] = p;
	if (sb_make_env(sb, p) < 0)
		return NULL;
	return p;
}

/* Load one file of a pack; 'keep' leaves its return value on the stack. */
static int load_one(struct sandbox *sb, struct sb_pack *p, const char *file,
		    unsigned bit, int keep, struct diag *err)
{
	char path[4096], chunk[4096];
	int saved_in_command, saved_in_validation;
	enum sb_outcome out;

	snprintf(path, sizeof path, "%s/%s", p->desc.dir, file);
	snprintf(chunk, sizeof chunk, "%s/%s", p->desc.chunk_dir, file);
	if (bit != SB_LOAD_PACK && !file_exists(path)) {
		p->loaded |= bit;
		return 0;
	}
	/* A file may load while a verb runs (engine.validate adds
	 * validation.lua to the verb's sandbox): load-time rules apply to it,
	 * not the verb's, until it is loaded. */
	saved_in_command = sb->in_command;
	saved_in_validation = sb->in_validation;
	sb->in_command = sb->in_validation = 0;
	sb->loading = p;
	sb->loading_file = file;
	out = sb_run_file(sb, p, path, chunk, keep, err);
	sb->loading = NULL;
	sb->loading_file = NULL;
	sb->in_command = saved_in_command;
	sb->in_validation = saved_in_validation;
	if (out != SB_OK)
		return -1;
	p->loaded |= bit;
	return 1;
}

static int apply_mutation(struct sandbox *sb, struct sb_pack *p,
			  const char *name, struct diag *err)
{
	char msg[DIAG_MSG_MAX];
	size_t i;

	for (i = 0; i < p->nmutations; i++) {
		if (strcmp(p->mutations[i].name, name) != 0)
			continue;
		struct sb_pack *was_pack = sb->cur_pack;
		int was_validation = sb->in_validation;
		enum sb_outcome out;

		/* A mutation is validation code: it may read the pack's data
		 * (engine.data), as the figures it breaks do. */
		sb->in_validation = 1;
		sb->cur_pack = p;
		lua_rawgeti(sb->L, LUA_REGISTRYINDEX, p->mutations[i].ref);
		sb_push_env(sb, p);
		out = sb_pcall(sb, 1, 0, sb->lim.command_instructions, msg, sizeof msg);
		sb->in_validation = was_validation;
		sb->cur_pack = was_pack;
		if (out != SB_OK) {
			diag_set(err, DIAG_E_ERROR, 0, 0, "mutation '%s' failed: %s",
				 name, msg);
			return -1;
		}
		return 0;
	}
	diag_set(err, DIAG_E_USAGE, 0, 0, "pack '%s' has no mutation '%s'",
		 p->info.name, name);
	diag_set_path(err, "--mutate");
	return -1;
}

static int unfreeze(struct sandbox *sb, struct sb_pack *p)
{
	lua_State *L = sb->L;

	sb_push_env(sb, p);
	if (lua_getmetatable(L, -1)) {
		lua_pushnil(L);
		lua_setfield(L, -2, "__newindex");
		lua_pushnil(L);
		lua_setfield(L, -2, "__frozen");
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
	p->frozen = 0;
	return 0;
}

static int load_pack(struct sandbox *sb, const struct pack_desc *pd, unsigned what,
		     const char *mutation, struct diag *err)
{
	struct sb_pack *p = sb_find_pack(sb, pd->name);
	int rc;

	if (!p) {
		p = pack_new(sb, pd);
		if (!p) {
			diag_set(err, DIAG_E_NOMEM, 0, 0, "out of memory loading pack '%s'",
				 pd->name);
			return -1;
		}
	}
	what |= SB_LOAD_PACK;
	if (what & SB_DEFER_RULES)
		what &= ~(SB_DEFER_RULES | SB_LOAD_RULES);
	else
		what |= SB_LOAD_RULES;
	if ((p->loaded & what) == what && !mutation)
		return 0;
	if (p->frozen)
		unfreeze(sb, p);
	if ((what & SB_LOAD_PACK) && !(p->loaded & SB_LOAD_PACK) &&
	    load_one(sb, p, "pack.lua", SB_LOAD_PACK, 0, err) < 0)
		return -1;
	if ((what & SB_LOAD_RULES) && !(p->loaded & SB_LOAD_RULES) &&
	    load_one(sb, p, "rules.lua", SB_LOAD_RULES, 0, err) < 0)
		return -1;
	if ((what & SB_LOAD_COMMANDS) && !(p->loaded & SB_LOAD_COMMANDS) &&
	    load_one(sb, p, "commands.lua", SB_LOAD_COMMANDS, 0, err) < 0)
		return -1;
	if ((what & SB_LOAD_VALIDATION) && !(p->loaded & SB_LOAD_VALIDATION)) {
		rc = load_one(sb, p, "validation.lua", SB_LOAD_VALIDATION, 1, err);
		if (rc < 0)
			return -1;
		if (rc > 0) {
			if (lua_type(sb->L, -1) == LUA_TFUNCTION) {
				p->registry_fn_ref = luaL_ref(sb->L, LUA_REGISTRYINDEX);
				p->info.registry_function = 1;
			} else {
				lua_pop(sb->L, 1);
			}
		}
		p->info.has_validation = p->nfigures > 0 || p->nmutations > 0 ||
					 p->info.registry_function;
	}
	if (mutation && apply_mutation(sb, p, mutation, err) < 0)
		return -1;
	sb_freeze(sb, p);
	if (sb_index_rules(sb) < 0) {
		diag_set(err, DIAG_E_NOMEM, 0, 0, "out of memory");
		return -1;
	}
	return 0;
}

/* A pack's files run once and keep nearly all they build (functions,
 * tables of rules and data), so collecting while they load finds little
 * and, for a one-verb run, costs more than the run's own work. The
 * collector is stopped for the load and restarted after it. The memory cap
 * still holds: an allocation the cap refuses makes Lua collect in full
 * and try again before it fails. */
int sandbox_load_pack(struct sandbox *sb, const struct pack_desc *pd,
		      unsigned what, const char *mutation, struct diag *err)
{
	int running = lua_gc(sb->L, LUA_GCISRUNNING), rc;

	lua_gc(sb->L, LUA_GCSTOP);
	rc = load_pack(sb, pd, what, mutation, err);
	if (running)
		lua_gc(sb->L, LUA_GCRESTART);
	return rc;
}

/* rules.lua of a pack whose pack.lua ran with SB_DEFER_RULES: loaded as it
 * would have been at load time, between an unfreeze and a freeze, with the
 * collector stopped as for any pack file. */
int sandbox_need_rules(struct sandbox *sb, struct diag *err)
{
	size_t i;
	int running, rc = 0;

	for (i = 0; i < sb->npacks && rc == 0; i++) {
		struct sb_pack *p = sb->packs[i];

		if (!(p->loaded & SB_LOAD_PACK) || (p->loaded & SB_LOAD_RULES))
			continue;
		running = lua_gc(sb->L, LUA_GCISRUNNING);
		lua_gc(sb->L, LUA_GCSTOP);
		if (p->frozen)
			unfreeze(sb, p);
		rc = load_one(sb, p, "rules.lua", SB_LOAD_RULES, 0, err) < 0 ? -1 : 0;
		sb_freeze(sb, p);
		if (running)
			lua_gc(sb->L, LUA_GCRESTART);
		if (rc == 0 && sb_index_rules(sb) < 0) {
			diag_set(err, DIAG_E_NOMEM, 0, 0, "out of memory");
			rc = -1;
		}
	}
	return rc;
}

/* For the lookups, which return records and cannot fail: the failure is
 * kept for the run to report (sandbox_rules_failure). */
static void need_rules_quietly(const struct sandbox *csb)
{
	struct sandbox *sb = (struct sandbox *)(uintptr_t)csb; /* lazily complete */

	if (sb->has_rules_error)
		return;
	diag_init(&sb->rules_error);
	if (sandbox_need_rules(sb, &sb->rules_error) < 0)
		sb->has_rules_error = 1;
}

int sandbox_rules_failure(const struct sandbox *sb, struct diag *out)
{
	if (sb->has_rules_error && out)
		*out = sb->rules_error;
	return sb->has_rules_error;
}

void sandbox_set_active(struct sandbox *sb, const char *pack, int active)
{
	struct sb_pack *p = sb_find_pack(sb, pack);

	if (p)
		p->active = active;
}

int sandbox_has_pack(const struct sandbox *sb, const char *pack)
{
	const struct sb_pack *p = sb_find_pack(sb, pack);

	return p && (p->loaded & SB_LOAD_PACK);
}

const struct sb_pack_info *sandbox_pack_info(const struct sandbox *sb,
					     const char *pack)
{
	const struct sb_pack *p = sb_find_pack(sb, pack);

	return p ? &p->info : NULL;
}

size_t sandbox_rules(const struct sandbox *sb,
		     const struct rule_info *const **out)
{
	need_rules_quietly(sb);
	*out = sb->infos;
	return sb->ninfos;
}

const struct rule_info *sandbox_rule(const struct sandbox *sb, const char *id)
{
	size_t i;

	need_rules_quietly(sb);
	for (i = 0; i < sb->ninfos; i++)
		if (strcmp(sb->infos[i]->id, id) == 0)
			return sb->infos[i];
	return NULL;
}

long sandbox_order_key(const struct sandbox *sb, const char *pack,
		       const char *id)
{
	const struct sb_pack *p = sb_find_pack(sb, pack);
	size_t i, j;

	if (!p)
		return 0;
	need_rules_quietly(sb);
	for (i = 0; i < p->nrules; i++)
		if (strcmp(p->rules[i]->info.id, id) == 0)
			return 2 * (long)(i + 1);
	for (i = 0; i < p->noa; i++) {
		if (strcmp(p->oa_core[i], id) != 0)
			continue;
		for (j = 0; j < p->nrules; j++)
			if (strcmp(p->rules[j]->info.id, p->oa_after[i]) == 0)
				return 2 * (long)(j + 1) + 1;
	}
	/* Core ids come first; ids of other packs last. */
	if (strncmp(id, "input.", 6) == 0 || strncmp(id, "engine.", 7) == 0)
		return 0;
	return 2 * (long)(p->nrules + 1);
}

const struct ap_program *sandbox_program(const struct sandbox *sb,
					 const char *pack)
{
	const struct sb_pack *p = sb_find_pack(sb, pack);

	return p && p->has_program ? &p->prog : NULL;
}

static const struct sb_named_ref *named(const struct sb_named_ref *v, size_t n,
					const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(v[i].name, name) == 0)
			return &v[i];
	return NULL;
}

int sandbox_has_figure(const struct sandbox *sb, const char *pack,
		       const char *id)
{
	const struct sb_pack *p = sb_find_pack(sb, pack);

	return p && named(p->figures, p->nfigures, id);
}

int sandbox_has_mutation(const struct sandbox *sb, const char *pack,
			 const char *name)
{
	const struct sb_pack *p = sb_find_pack(sb, pack);

	return p && named(p->mutations, p->nmutations, name);
}

static size_t names_of(struct sb_named_ref *v, size_t n, const char ***cache,
		       const char *const **out)
{
	size_t i;

	if (!*cache) {
		*cache = malloc((n + 1) * sizeof **cache);
		if (!*cache) {
			*out = NULL;
			return 0;
		}
	}
	for (i = 0; i < n; i++)
		(*cache)[i] = v[i].name;
	*out = *cache;
	return n;
}

size_t sandbox_figure_ids(const struct sandbox *sb, const char *pack,
			  const char *const **out)
{
	struct sb_pack *p = sb_find_pack(sb, pack);

	*out = NULL;
	if (!p)
		return 0;
	free(p->figure_ids);
	p->figure_ids = NULL;
	return names_of(p->figures, p->nfigures, &p->figure_ids, out);
}

size_t sandbox_mutation_names(const struct sandbox *sb, const char *pack,
			      const char *const **out)
{
	struct sb_pack *p = sb_find_pack(sb, pack);

	*out = NULL;
	if (!p)
		return 0;
	free(p->mutation_names);
	p->mutation_names = NULL;
	return names_of(p->mutations, p->nmutations, &p->mutation_names, out);
}
