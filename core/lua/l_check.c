/*
 * l_check.c: running rules on a document (spec/core.md 5.4, 5.5): the
 * order of rules across packs and stages, the check context `ctx` and its
 * findings, report builders and run-level rules. Every call into pack code
 * goes through sb_pcall with the document's budget, and whatever pack code
 * returns is read back as JSON inside the same protected call, so a hostile
 * return value cannot crash the host or escape the budget.
 */
#include "core/lua/sb_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util/utf8.h"

#define SB_MESSAGE_MAX 1000

struct sb_ctx_ud {
	uint64_t call;
};

/* ---- the context object -------------------------------------------------- */

/* The running call of the ctx at idx. Its metatable is compared by address
 * with the one sb_open_ctx made, as views are (l_view.c): a rule calls ctx
 * methods dozens of times per document, and luaL_checkudata looks the
 * metatable up by name each time. The error is luaL_checkudata's. */
static struct sb_call *ctx_call(lua_State *L, int idx)
{
	struct sandbox *sb = sb_of(L);
	struct sb_ctx_ud *c = lua_touserdata(L, idx);
	int ours = 0;

	if (c && !lua_islightuserdata(L, idx) && lua_getmetatable(L, idx)) {
		ours = lua_topointer(L, -1) == sb->ctx_mt;
		lua_pop(L, 1);
	}
	if (!ours)
		luaL_typeerror(L, idx, SB_KEY_CTX_MT);
	if (!sb->call || sb->call->id != c->call)
		luaL_error(L, "the check context is no longer available");
	return sb->call;
}

/* Copy a message, cut at 1000 characters on a character boundary. */
static void set_message(struct sbuf *b, const char *s, size_t len)
{
	size_t chars = 0, i;

	for (i = 0; i < len; i++) {
		if (((unsigned char)s[i] & 0xC0) != 0x80 && ++chars > SB_MESSAGE_MAX) {
			sbuf_add(b, s, i);
			sbuf_adds(b, "...");
			return;
		}
	}
	sbuf_add(b, s, len);
}

static const char *const spec_fields[] = { "at", "key", "on", "message",
					   "figures", "file", "document", NULL };

/* Record a finding from ctx:fail/warn/info. */
static int ctx_record(lua_State *L, enum severity sev, int use_rule_sev)
{
	struct sandbox *sb = sb_of(L);
	struct sb_call *call = ctx_call(L, 1);
	const struct sb_doc *d = NULL;
	struct sbuf *path, *figs, *msgb;
	struct sb_where w = { 0, 0, 0, 0 };
	int at, key, on = 0, message, figures, spec = 0, on_key = 0;
	char why[256];
	struct finding f;
	size_t mlen, i;
	const char *m;

	if (!call->rule)
		return luaL_error(L, "report builders cannot record findings");
	/* Long form ctx:fail{...} or short form ctx:fail(at, key, msg, figs). */
	if (lua_type(L, 2) == LUA_TTABLE && lua_gettop(L) == 2 &&
	    !sb_check_view(L, 2, 0)) {
		spec = 2;
		lua_pushnil(L);
		while (lua_next(L, spec)) {
			int ok = 0;

			if (lua_type(L, -2) == LUA_TSTRING)
				for (i = 0; spec_fields[i]; i++)
					if (strcmp(spec_fields[i], lua_tostring(L, -2)) == 0)
						ok = 1;
			if (!ok)
				return luaL_error(L, "ctx:fail: unknown field '%s'",
						  lua_type(L, -2) == LUA_TSTRING
							  ? lua_tostring(L, -2) : "?");
			lua_pop(L, 1);
		}
		lua_settop(L, 2);
		lua_getfield(L, spec, "at");
		at = lua_gettop(L);
		lua_getfield(L, spec, "key");
		key = lua_gettop(L);
		lua_getfield(L, spec, "on");
		on = lua_gettop(L);
		lua_getfield(L, spec, "message");
		message = lua_gettop(L);
		lua_getfield(L, spec, "figures");
		figures = lua_gettop(L);
	} else {
		lua_settop(L, 5);
		at = 2;
		key = 3;
		message = 4;
		figures = 5;
	}
	if (lua_type(L, message) != LUA_TSTRING)
		return luaL_error(L, "ctx:fail: 'message' must be a string, not %s",
				  luaL_typename(L, message));
	if (on && !lua_isnil(L, on)) {
		const char *o = lua_tostring(L, on);

		if (!o || (strcmp(o, "key") != 0 && strcmp(o, "value") != 0))
			return luaL_error(L, "ctx:fail: 'on' must be \"key\" or \"value\"");
		on_key = o[0] == 'k';
	}
	if (!lua_isnil(L, figures) && lua_type(L, figures) != LUA_TTABLE)
		return luaL_error(L, "ctx:fail: 'figures' must be a table");
	path = sb_tmpbuf(L, SB_JSON_MAX);
	figs = sb_tmpbuf(L, SB_JSON_MAX);
	msgb = sb_tmpbuf(L, SB_JSON_MAX);
	m = lua_tolstring(L, message, &mlen);
	if (!utf8_valid(m, mlen, NULL))
		return luaL_error(L, "ctx:fail: the message is not valid UTF-8");
	set_message(msgb, m, mlen);
	if (!lua_isnil(L, figures) &&
	    sb_json_encode(L, figures, 1, figs, why, sizeof why) < 0)
		return luaL_error(L, "ctx:fail: bad figures: %s", why);
	memset(&f, 0, sizeof f);
	if (call->runlevel) {
		/* A run-level finding names its file and document. */
		if (!spec)
			return luaL_error(L, "ctx:fail in a run-level check takes a table {file=, document=, at=, message=}");
		lua_getfield(L, spec, "file");
		lua_getfield(L, spec, "document");
		if (lua_type(L, -2) != LUA_TSTRING || !lua_isinteger(L, -1))
			return luaL_error(L, "ctx:fail: a run-level finding needs 'file' (a string) and 'document' (an integer)");
		if (!lua_isnil(L, at) && lua_type(L, at) != LUA_TSTRING)
			return luaL_error(L, "ctx:fail: a run-level 'at' is a JSON Pointer string");
		f.document = (int)lua_tointeger(L, -1);
		if (!lua_isnil(L, at))
			sbuf_adds(path, lua_tostring(L, at));
		f.rule = call->rule->info.id;
		f.severity = use_rule_sev ? call->rule->info.severity : sev;
		f.message = sbuf_cstr(msgb);
		f.path = sbuf_cstr(path);
		f.figures = figs->len ? sbuf_cstr(figs) : NULL;
		call->emit(call->emit_ud, lua_tostring(L, -2), f.document, &f);
		return 0;
	}
	d = sb_doc_get(sb, call->docid);
	if (!d)
		return luaL_error(L, "document is no longer available");
	if (sb_locate(L, at, key, on_key, call->docid, d->doc->root, NULL, &w, path,
		      why, sizeof why) < 0)
		return luaL_error(L, "ctx:fail: %s", why);
	f.rule = call->rule->info.id;
	f.severity = use_rule_sev ? call->rule->info.severity : sev;
	f.message = sbuf_cstr(msgb);
	f.line = w.line;
	f.col = w.col;
	f.end_line = w.end_line;
	f.end_col = w.end_col;
	f.path = sbuf_cstr(path);
	f.document = call->req->doc->index;
	f.figures = figs->len ? sbuf_cstr(figs) : NULL;
	if (call->rule->info.input_stage)
		f.flags |= FINDING_UNUSABLE;
	if (!findings_add(call->out, &f) && call->out->failed)
		return luaL_error(L, "out of memory recording a finding");
	return 0;
}

static int l_ctx_fail(lua_State *L)
{
	return ctx_record(L, SEV_ERROR, 1);
}

static int l_ctx_warn(lua_State *L)
{
	return ctx_record(L, SEV_WARNING, 0);
}

static int l_ctx_info(lua_State *L)
{
	return ctx_record(L, SEV_INFO, 0);
}

static int l_ctx_once(lua_State *L)
{
	struct sb_call *call = ctx_call(L, 1);

	luaL_checkstring(L, 2);
	luaL_checktype(L, 3, LUA_TFUNCTION);
	lua_settop(L, 3);
	if (call->once_ref == LUA_NOREF)
		return luaL_error(L, "ctx:once is not available here");
	lua_rawgeti(L, LUA_REGISTRYINDEX, call->once_ref);
	lua_pushvalue(L, 2);
	if (lua_rawget(L, 4) != LUA_TNIL) {
		lua_rawgeti(L, -1, 1);
		return 1;
	}
	lua_pop(L, 1);
	/* Runs under the caller's budget: it is the same protected call. */
	lua_pushvalue(L, 3);
	lua_call(L, 0, 1);
	lua_createtable(L, 1, 0);
	lua_pushvalue(L, -2);
	lua_rawseti(L, -2, 1);
	lua_pushvalue(L, 2);
	lua_insert(L, -2);
	lua_rawset(L, 4);
	return 1;
}

static int l_ctx_fired(lua_State *L)
{
	struct sb_call *call = ctx_call(L, 1);
	const char *id = luaL_checkstring(L, 2);
	size_t i;

	for (i = call->first_finding; i < call->out->n; i++)
		if (strcmp(call->out->items[i].rule, id) == 0) {
			lua_pushboolean(L, 1);
			return 1;
		}
	lua_pushboolean(L, 0);
	return 1;
}

static int l_ctx_stop(lua_State *L)
{
	ctx_call(L, 1)->stopped = 1;
	return 0;
}

static const luaL_Reg ctx_methods[] = {
	{ "fail", l_ctx_fail },   { "warn", l_ctx_warn }, { "info", l_ctx_info },
	{ "once", l_ctx_once },   { "fired", l_ctx_fired }, { "stop", l_ctx_stop },
	{ NULL, NULL }
};

/* ctx.<name>: a method from the table in upvalue 1 (a rule reads ctx:once
 * and ctx:fail many times per document, so this is one raw lookup; the
 * method checks that its ctx is the running call's), else a field. */
static int l_ctx_index(lua_State *L)
{
	struct sb_call *call;
	const char *k;

	lua_settop(L, 2);
	lua_pushvalue(L, 2);
	if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL)
		return 1;
	lua_pop(L, 1);
	call = ctx_call(L, 1);
	k = luaL_checkstring(L, 2);
	if (strcmp(k, "strict") == 0) {
		lua_pushboolean(L, call->req && call->req->strict);
		return 1;
	}
	if (strcmp(k, "rule") == 0 && call->rule) {
		lua_pushstring(L, call->rule->info.id);
		return 1;
	}
	if (strcmp(k, "pack") == 0) {
		lua_pushstring(L, call->req && call->req->owner ? call->req->owner
								: call->pack->info.name);
		return 1;
	}
	if (!call->req)
		return 0;
	if (strcmp(k, "settings") == 0) {
		const char *s = call->req->settings_json;

		if (!s || sb_json_decode(L, s, strlen(s)) < 0)
			lua_pushnil(L);
		return 1;
	}
	if (strcmp(k, "file") == 0) {
		lua_pushstring(L, call->req->file);
		return 1;
	}
	if (strcmp(k, "document") == 0) {
		lua_pushinteger(L, call->req->doc ? call->req->doc->index : 0);
		return 1;
	}
	if (strcmp(k, "kind") == 0) {
		lua_pushstring(L, call->req->kind);
		return 1;
	}
	return 0;
}

static int l_ctx_newindex(lua_State *L)
{
	return luaL_error(L, "the check context is read-only");
}

void sb_open_ctx(lua_State *L)
{
	luaL_newmetatable(L, SB_KEY_CTX_MT);
	sb_of(L)->ctx_mt = lua_topointer(L, -1);
	luaL_newlib(L, ctx_methods);
	lua_pushcclosure(L, l_ctx_index, 1);
	lua_setfield(L, -2, "__index");
	lua_pushcfunction(L, l_ctx_newindex);
	lua_setfield(L, -2, "__newindex");
	lua_pushliteral(L, "ctx");
	lua_setfield(L, -2, "__metatable");
	lua_pop(L, 1);
}

static void push_ctx(lua_State *L, uint64_t call)
{
	struct sb_ctx_ud *c = lua_newuserdatauv(L, sizeof *c, 0);

	c->call = call;
	luaL_setmetatable(L, SB_KEY_CTX_MT);
}

/* ---- calling pack code and reading its result ---------------------------- */

/* Trampoline: (fn, args..., buf, figures) -> calls fn(args) and writes its
 * first result as JSON into buf ("" for nil). */
static int call_tramp(lua_State *L)
{
	int n = lua_gettop(L);
	int figures = lua_toboolean(L, n);
	struct sbuf *buf = lua_touserdata(L, n - 1);
	char why[256];

	lua_settop(L, n - 2);
	lua_call(L, n - 3, 1);
	if (lua_isnil(L, -1))
		return 0;
	if (sb_json_encode(L, -1, figures, buf, why, sizeof why) < 0)
		return luaL_error(L, "the returned value cannot be read: %s", why);
	if (buf->len == 0)
		sbuf_adds(buf, "null");
	return 0;
}

/* Stack: fn, args (nargs). Runs under 'budget'; on SB_OK 'json' holds the
 * first result as JSON (empty for nil). */
enum sb_outcome sb_call_json(struct sandbox *sb, int nargs,
			     unsigned long long budget, int figures,
			     struct sbuf *json, char *msg, size_t size)
{
	lua_State *L = sb->L;
	int fnidx = lua_gettop(L) - nargs;
	enum sb_outcome out;
	struct sbuf *buf;

	buf = sb_tmpbuf(L, SB_JSON_MAX);
	lua_insert(L, fnidx); /* the buffer stays below the call */
	lua_pushcfunction(L, call_tramp);
	lua_insert(L, fnidx + 1);
	lua_pushvalue(L, fnidx);
	lua_pushboolean(L, figures);
	out = sb_pcall(sb, nargs + 3, 0, budget, msg, size);
	if (out == SB_OK) {
		sbuf_add(json, sbuf_cstr(buf), buf->len);
		if (json->failed) {
			snprintf(msg, size, "out of memory");
			out = SB_ERROR;
		}
	}
	sbuf_release(buf);
	lua_remove(L, fnidx);
	return out;
}

/* ---- rules on a document --------------------------------------------------- */

static int rule_has_kind(const struct sb_rule *r, const char *kind)
{
	size_t i;

	for (i = 0; i < r->info.nkinds; i++)
		if (strcmp(r->kinds[i], kind) == 0)
			return 1;
	return 0;
}

/* The packs in evaluation order: the owner first, then pack order. */
static size_t pack_order(struct sandbox *sb, const char *owner,
			 struct sb_pack **v)
{
	size_t i, n = 0;

	for (i = 0; i < sb->npacks; i++)
		if (owner && strcmp(sb->packs[i]->info.name, owner) == 0)
			v[n++] = sb->packs[i];
	for (i = 0; i < sb->npacks; i++)
		if (!owner || strcmp(sb->packs[i]->info.name, owner) != 0)
			v[n++] = sb->packs[i];
	return n;
}

/* 'who' names the pack code that failed: "rule 'x'", "report of kind 'y'". */
static void add_engine_finding(struct findings *out, const struct sb_check_req *req,
			       const char *id, const char *who, const char *msg)
{
	const struct node *root = req->doc->root;
	struct finding f;
	char text[DIAG_MSG_MAX + 384];

	memset(&f, 0, sizeof f);
	snprintf(text, sizeof text, "%s %s%s", who,
		 strcmp(id, "engine.budget") == 0 ? "" : "failed: ", msg);
	f.rule = id;
	f.severity = SEV_ERROR;
	f.message = text;
	f.line = root ? root->line : 0;
	f.col = root ? root->col : 0;
	f.end_line = root ? root->end_line : 0;
	f.end_col = root ? root->end_col : 0;
	f.path = "";
	f.document = req->doc->index;
	f.flags = FINDING_UNUSABLE;
	findings_add(out, &f);
}

static void push_root(struct sandbox *sb, uint64_t docid, const struct doc *doc)
{
	if (doc->root)
		sb_push_value(sb->L, docid, doc->root, "", 0);
	else
		sb_push_null(sb->L);
}

static unsigned long long doc_budget(const struct sandbox *sb,
				     const struct doc *doc)
{
	return sb->lim.instructions + sb->lim.instructions_per_node * doc->nodes;
}

/* Run one rule function; returns 0, or 1 when it stopped the pack. */
static int run_one(struct sandbox *sb, struct sb_rule *r,
		   const struct sb_check_req *req, uint64_t docid, int root_ref,
		   struct findings *out, int *once_ref)
{
	lua_State *L = sb->L;
	struct sb_call call, *outer = sb->call;
	char msg[DIAG_MSG_MAX];
	enum sb_outcome o;

	memset(&call, 0, sizeof call);
	call.id = ++sb->next_call;
	call.rule = r;
	call.pack = r->pack;
	call.req = req;
	call.docid = docid;
	call.out = out;
	call.first_finding = 0;
	if (*once_ref == LUA_NOREF) {
		lua_newtable(L);
		*once_ref = luaL_ref(L, LUA_REGISTRYINDEX);
	}
	call.once_ref = *once_ref;
	sb->call = &call;
	lua_rawgeti(L, LUA_REGISTRYINDEX, r->check_ref);
	lua_rawgeti(L, LUA_REGISTRYINDEX, root_ref);
	push_ctx(L, call.id);
	o = sb_pcall(sb, 2, 0, doc_budget(sb, req->doc), msg, sizeof msg);
	sb->call = outer;
	if (o != SB_OK) {
		char who[300];

		snprintf(who, sizeof who, "rule '%s'", r->info.id);
		if (o == SB_ERROR)
			add_engine_finding(out, req, "engine.error", who, msg);
		else if (o == SB_BUDGET || o == SB_USAGE || o == SB_INPUT)
			add_engine_finding(out, req, "engine.budget", who, msg);
	}
	return call.stopped;
}

long sandbox_check(struct sandbox *sb, const struct sb_check_req *req,
		   const struct sb_ran *ran, struct findings *out,
		   struct diag *err)
{
	struct sb_pack **packs;
	size_t np, i, j, before = out->n;
	uint64_t docid;
	int pass, root_ref;

	if (sandbox_need_rules(sb, err) < 0)
		return -1;
	packs = malloc((sb->npacks + 1) * sizeof *packs);
	if (!packs) {
		diag_set(err, DIAG_E_NOMEM, 0, 0, "out of memory");
		return -1;
	}
	docid = sb_doc_add(sb, req->doc, req->kind, req->file);
	if (!docid) {
		free(packs);
		diag_set(err, DIAG_E_ERROR, 0, 0, "too many documents open at once");
		return -1;
	}
	/* One root view for every rule of this document: the views it hands
	 * out are cached below it (l_view.c), so rules share them. */
	push_root(sb, docid, req->doc);
	root_ref = luaL_ref(sb->L, LUA_REGISTRYINDEX);
	np = pack_order(sb, req->owner, packs);
	for (i = 0; i < np; i++) {
		struct sb_pack *p = packs[i];
		int once_ref = LUA_NOREF, stopped = 0;

		if (!p->active || !(p->loaded & SB_LOAD_PACK))
			continue;
		/* Non-strict rules first, then, in strict mode, strict ones. */
		for (pass = 0; pass < 2 && !stopped; pass++) {
			for (j = 0; j < p->nrules && !stopped; j++) {
				struct sb_rule *r = p->rules[j];

				if (r->info.declared || r->info.run_level ||
				    !rule_has_kind(r, req->kind))
					continue;
				if (req->stage == SB_STAGE_INPUT ? !r->info.input_stage
								 : r->info.input_stage)
					continue;
				if (r->info.strict != pass || (pass && !req->strict))
					continue;
				stopped = run_one(sb, r, req, docid, root_ref, out,
						  &once_ref);
				if (ran && ran->rule_ran)
					ran->rule_ran(ran->ud, r->info.id);
			}
		}
		if (once_ref != LUA_NOREF)
			luaL_unref(sb->L, LUA_REGISTRYINDEX, once_ref);
	}
	luaL_unref(sb->L, LUA_REGISTRYINDEX, root_ref);
	sb_doc_remove(sb, docid);
	free(packs);
	return (long)(out->n - before);
}

int sandbox_reports(struct sandbox *sb, const struct sb_check_req *req,
		    int program, struct sbuf *members, struct findings *out,
		    struct diag *err)
{
	lua_State *L = sb->L;
	size_t i, j;
	uint64_t docid = sb_doc_add(sb, req->doc, req->kind, req->file);

	if (!docid) {
		diag_set(err, DIAG_E_ERROR, 0, 0, "too many documents open at once");
		return -1;
	}
	for (i = 0; i < sb->npacks; i++) {
		struct sb_pack *p = sb->packs[i];

		if (!p->active)
			continue;
		for (j = 0; j < p->nreports; j++) {
			struct sb_report *r = &p->reports[j];
			struct sb_call call, *outer = sb->call;
			struct sbuf json = SBUF_INIT;
			char msg[DIAG_MSG_MAX];
			enum sb_outcome o;

			if (strcmp(r->kind, req->kind) != 0 ||
			    (r->program_only && !program))
				continue;
			memset(&call, 0, sizeof call);
			call.id = ++sb->next_call;
			call.pack = p;
			call.req = req;
			call.docid = docid;
			call.out = out;
			call.once_ref = LUA_NOREF;
			sb->call = &call;
			lua_rawgeti(L, LUA_REGISTRYINDEX, r->build_ref);
			push_root(sb, docid, req->doc);
			push_ctx(L, call.id);
			o = sb_call_json(sb, 2, doc_budget(sb, req->doc), 0, &json,
					 msg, sizeof msg);
			sb->call = outer;
			if (o != SB_OK) {
				char who[300];

				snprintf(who, sizeof who, "report of kind '%s'", r->kind);
				add_engine_finding(out, req,
						   o == SB_ERROR ? "engine.error" : "engine.budget",
						   who, msg);
			} else if (json.len) {
				if (members->len)
					sbuf_adds(members, ", ");
				json_write_str(members, r->key, strlen(r->key));
				sbuf_adds(members, ": ");
				sbuf_add(members, sbuf_cstr(&json), json.len);
			}
			sbuf_release(&json);
		}
	}
	sb_doc_remove(sb, docid);
	return members->failed ? -1 : 0;
}

/* ---- run-level rules ---------------------------------------------------------- */

int sandbox_collect(struct sandbox *sb, const struct sb_check_req *req,
		    struct sb_collected **items, size_t *nitems,
		    struct findings *out, struct diag *err)
{
	lua_State *L = sb->L;
	uint64_t docid;
	size_t i, j;

	if (sandbox_need_rules(sb, err) < 0)
		return -1;
	docid = sb_doc_add(sb, req->doc, req->kind, req->file);
	if (!docid) {
		diag_set(err, DIAG_E_ERROR, 0, 0, "too many documents open at once");
		return -1;
	}
	for (i = 0; i < sb->npacks; i++) {
		struct sb_pack *p = sb->packs[i];

		if (!p->active)
			continue;
		for (j = 0; j < p->nrules; j++) {
			struct sb_rule *r = p->rules[j];
			struct sb_call call, *outer = sb->call;
			struct sbuf json = SBUF_INIT;
			struct sb_collected *v;
			char msg[DIAG_MSG_MAX];
			enum sb_outcome o;

			if (!r->info.run_level || !rule_has_kind(r, req->kind) ||
			    (r->info.strict && !req->strict))
				continue;
			memset(&call, 0, sizeof call);
			call.id = ++sb->next_call;
			call.rule = r;
			call.pack = p;
			call.req = req;
			call.docid = docid;
			call.out = out;
			call.once_ref = LUA_NOREF;
			sb->call = &call;
			lua_rawgeti(L, LUA_REGISTRYINDEX, r->collect_ref);
			push_root(sb, docid, req->doc);
			push_ctx(L, call.id);
			o = sb_call_json(sb, 2, doc_budget(sb, req->doc), 0, &json,
					 msg, sizeof msg);
			sb->call = outer;
			if (o != SB_OK) {
				char who[300];

				snprintf(who, sizeof who, "rule '%s'", r->info.id);
				add_engine_finding(out, req,
						   o == SB_ERROR ? "engine.error" : "engine.budget",
						   who, msg);
				sbuf_release(&json);
				continue;
			}
			if (!json.len) {
				sbuf_release(&json);
				continue;
			}
			v = realloc(*items, (*nitems + 1) * sizeof *v);
			if (!v) {
				sbuf_release(&json);
				diag_set(err, DIAG_E_NOMEM, 0, 0, "out of memory");
				sb_doc_remove(sb, docid);
				return -1;
			}
			*items = v;
			v[*nitems].rule = r->info.id;
			v[*nitems].file = strdup(req->file);
			v[*nitems].document = req->doc->index;
			v[*nitems].value_json = sbuf_detach(&json, NULL);
			(*nitems)++;
		}
	}
	sb_doc_remove(sb, docid);
	return 0;
}

void sandbox_collected_free(struct sb_collected *items, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		sb_free_const(items[i].file);
		free(items[i].value_json);
	}
	free(items);
}

/* Build the items list of one rule: {file=, document=, value=}... */
static int push_items(lua_State *L)
{
	const struct sb_collected *items = lua_touserdata(L, 1);
	size_t n = (size_t)lua_tointeger(L, 2), i, k = 0;
	const char *rule = lua_tostring(L, 3);

	lua_newtable(L);
	for (i = 0; i < n; i++) {
		if (strcmp(items[i].rule, rule) != 0)
			continue;
		lua_createtable(L, 0, 3);
		lua_pushstring(L, items[i].file);
		lua_setfield(L, -2, "file");
		lua_pushinteger(L, items[i].document);
		lua_setfield(L, -2, "document");
		if (sb_json_decode(L, items[i].value_json,
				   strlen(items[i].value_json)) < 0)
			lua_pushnil(L);
		lua_setfield(L, -2, "value");
		lua_rawseti(L, -2, (lua_Integer)++k);
	}
	return 1;
}

int sandbox_run_checks(struct sandbox *sb, const struct sb_collected *items,
		       size_t nitems, int strict,
		       void (*emit)(void *ud, const char *file, int document,
				    const struct finding *f),
		       void *ud, struct diag *err)
{
	lua_State *L = sb->L;
	size_t i, j;

	if (sandbox_need_rules(sb, err) < 0)
		return -1;
	for (i = 0; i < sb->npacks; i++) {
		struct sb_pack *p = sb->packs[i];

		if (!p->active)
			continue;
		for (j = 0; j < p->nrules; j++) {
			struct sb_rule *r = p->rules[j];
			struct sb_call call, *outer = sb->call;
			char msg[DIAG_MSG_MAX];
			enum sb_outcome o;

			if (!r->info.run_level || (r->info.strict && !strict))
				continue;
			lua_pushcfunction(L, push_items);
			lua_pushlightuserdata(L, (void *)(uintptr_t)items);
			lua_pushinteger(L, (lua_Integer)nitems);
			lua_pushstring(L, r->info.id);
			if (sb_pcall(sb, 3, 1, sb->lim.command_instructions, msg,
				     sizeof msg) != SB_OK) {
				diag_set(err, DIAG_E_ERROR, 0, 0, "rule '%s': %s",
					 r->info.id, msg);
				return -1;
			}
			memset(&call, 0, sizeof call);
			call.id = ++sb->next_call;
			call.rule = r;
			call.pack = p;
			call.runlevel = 1;
			call.emit = emit;
			call.emit_ud = ud;
			call.once_ref = LUA_NOREF;
			sb->call = &call;
			lua_rawgeti(L, LUA_REGISTRYINDEX, r->check_ref);
			lua_insert(L, -2);
			push_ctx(L, call.id);
			o = sb_pcall(sb, 2, 0, sb->lim.command_instructions, msg,
				     sizeof msg);
			sb->call = outer;
			if (o != SB_OK) {
				diag_set(err, o == SB_ERROR ? DIAG_E_ERROR : DIAG_E_BUDGET,
					 0, 0, "run-level rule '%s' %s%s", r->info.id,
					 o == SB_ERROR ? "failed: " : "", msg);
				return -1;
			}
		}
	}
	return 0;
}
