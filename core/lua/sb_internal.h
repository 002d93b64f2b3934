/*
 * sb_internal.h: what the files of core/lua share and nothing outside sees:
 * the sandbox struct, pack and rule records, the budget frame, and the
 * helpers each binding file exports to the others. Only the files of
 * core/lua include it.
 */
#ifndef INFRAGATE_LUA_SB_INTERNAL_H
#define INFRAGATE_LUA_SB_INTERNAL_H

#include <lauxlib.h>
#include <lua.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/lua/lpattern.h"
#include "core/lua/sb_pool.h"
#include "core/lua/sandbox.h"

/* Lua's error raisers longjmp to the protected call and never return; the
 * headers declare them as returning int. Declared again with the attribute,
 * so that compilers and static analysers follow the paths the code takes
 * (a NULL checked by `if (!p) luaL_error(...)` is not used after it). */
extern int lua_error(lua_State *L) __attribute__((noreturn));
extern int luaL_error(lua_State *L, const char *fmt, ...) __attribute__((noreturn));
extern int luaL_argerror(lua_State *L, int arg, const char *extramsg) __attribute__((noreturn));
extern int luaL_typeerror(lua_State *L, int arg, const char *tname) __attribute__((noreturn));

/* Why a call tripped. */
#define TRIP_CPU 0x1u
#define TRIP_MEM 0x2u
#define TRIP_REGEX 0x4u
#define TRIP_PATTERN 0x8u

/* The count hook's period: the granularity of a budget error. */
#define SB_HOOK_PERIOD 1000u

/* Registry keys (light userdata addresses of these statics would be
 * mutable-free: we use string keys instead). */
#define SB_KEY_NULL "infragate.null"
#define SB_KEY_OBJORDER "infragate.objorder"
#define SB_KEY_OBJ_MT "infragate.object"
#define SB_KEY_ARR_MT "infragate.array"
#define SB_KEY_VIEW_MT "infragate.view"
#define SB_KEY_TIME_MT "infragate.time"
#define SB_KEY_RE_MT "infragate.regex"
#define SB_KEY_CTX_MT "infragate.ctx"
#define SB_KEY_OUT_MT "infragate.out"
#define SB_KEY_PROG_MT "infragate.program"
#define SB_KEY_STRING "infragate.string"
#define SB_KEY_SENTINEL "infragate.sentinel"

/* The budget of the host-to-Lua call that is running. */
struct sb_frame {
	unsigned long long budget;
	unsigned long long spent;
	unsigned tripped;
	unsigned period;
};

/* A document pack code may see, by id (views check it on every access). */
struct sb_doc {
	uint64_t id;
	const struct doc *doc;
	const char *kind;        /* for engine.check; may be NULL */
	const char *file;        /* display path */
};

#define SB_MAX_DOCS 4096

struct sb_pack;

struct sb_rule {
	struct rule_info info;
	struct sb_pack *pack;
	int check_ref;           /* LUA_NOREF for declared ids */
	int collect_ref;         /* run-level rules */
	char **kinds;            /* owned; NULL-terminated */
};

struct sb_report {
	char *kind;
	char *key;
	int build_ref;
	int program_only;
};

struct sb_named_ref {
	char *name;
	int ref;
};

struct sb_verb_extra {
	int run_ref;
	int lint;
	/* The verb declared no options and names a module: its options, if
	 * any, come from that module, read when the verb is about to parse
	 * (sb_complete_verb), so a run compiles only its own verb's. */
	int lazy;
};

struct sb_pack {
	struct sb_pack_info info;
	struct pack_desc desc;   /* strings owned */
	int env_ref;             /* the pack's environment */
	int base_ref;            /* its library copies */
	int loaded_ref;          /* require cache */
	unsigned loaded;         /* SB_LOAD_* bits done */
	int frozen;
	int active;
	char **oa_core, **oa_after; /* order_after pairs */
	size_t noa;
	struct sb_rule **rules;  /* declaration order (rules and declared ids) */
	size_t nrules;
	struct sb_report *reports;
	size_t nreports;
	/* The program. */
	int has_program;
	int before_ref;          /* the program's syntax.before_verb list, or LUA_NOREF */
	struct ap_program prog;
	struct ap_verb *verbs;
	struct sb_verb_extra *vx;
	size_t nverbs;
	/* Validation. */
	struct sb_named_ref *figures;
	size_t nfigures;
	struct sb_named_ref *mutations;
	size_t nmutations;
	const char **figure_ids;  /* views of the names, for the API */
	const char **mutation_names;
	int registry_fn_ref;
};

/* What the running check call is doing (ctx, findings). */
struct sb_call {
	uint64_t id;             /* ctx userdata must match */
	struct sb_rule *rule;
	struct sb_pack *pack;    /* the pack whose rule runs */
	const struct sb_check_req *req;
	uint64_t docid;
	struct findings *out;
	size_t first_finding;    /* out->n when the document started */
	int stopped;             /* ctx:stop() */
	int once_ref;            /* per document and pack cache table */
	/* Run-level checks emit through this. */
	void (*emit)(void *ud, const char *file, int document,
		     const struct finding *f);
	void *emit_ud;
	int runlevel;
	int validation;          /* v:once in a figure */
};

/* A pending non-local outcome raised by engine.usage / engine.input_error. */
struct sb_pending {
	int kind;                /* 0 none, 1 usage, 2 input */
	char argument[128];
	char message[DIAG_MSG_MAX];
	struct findings input;
};

struct sandbox {
	lua_State *L;
	struct sandbox_limits lim;
	char *data_root;
	char *version;
	const struct sandbox_host *host;
	/* Memory accounting (spec/core.md 6.4). */
	size_t mem_used;
	size_t mem_cap;
	struct sb_pool pool;     /* Lua's small blocks (sb_pool.h) */
	long fail_at;            /* tests: refuse the N-th allocation */
	struct sb_frame *frame;  /* the running call, or NULL */
	struct sb_frame idle;    /* used between calls */
	/* Documents visible to pack code. */
	const void *view_mt;     /* the view metatable, for a cheap type test */
	const void *ctx_mt;      /* the check context's metatable, likewise */
	struct sb_doc docs[SB_MAX_DOCS];
	size_t ndocs;
	uint64_t next_id;
	/* Packs and rules. */
	struct sb_pack **packs;
	size_t npacks;
	const struct rule_info **infos; /* every rule, pack order */
	size_t ninfos;
	struct sb_pack *loading; /* the pack whose pack.lua is loading */
	const char *loading_file; /* "pack.lua", "commands.lua", ... */
	struct sb_call *call;    /* the running check, or NULL */
	uint64_t next_call;
	int in_command;          /* a verb is running: commands-only API */
	int in_validation;       /* a figure is running */
	struct sb_output *output; /* the verb's output */
	struct sb_pack *cur_pack; /* the pack whose verb or figure runs */
	const char *cur_verb;    /* the verb that runs */
	struct sb_pending pending;
	/* Paths a command may open (its path tokens and expansions). */
	char **allowed;
	size_t nallowed, allowed_alloc;
	/* Files a command loaded (freed when the verb ends). */
	struct sb_loaded **loads;
	size_t nloads, loads_alloc;
	struct lpattern_meter meter;
	struct re_alloc re_alloc;
	/* Reused for every child path a document view builds (l_view.c): a
	 * fresh buffer per field access was a measurable share of a lint. */
	struct sbuf path_scratch;
	/* engine.data_error while pack.lua loads: the load fails with this
	 * problem, positioned in the pack's data file (l_program.c). */
	struct diag data_error;
	int has_data_error;
	/* A deferred rules.lua that failed to load from a lookup
	 * (sandbox_rule, sandbox_rules), which has no way to report it. */
	struct diag rules_error;
	int has_rules_error;
};

/* Free memory held through a const pointer (records keep their strings
 * const for readers). */
static inline void sb_free_const(const void *p)
{
	free((void *)(uintptr_t)p);
}

/* ---- sandbox.c ---- */

/* The sandbox a state belongs to. */
struct sandbox *sb_of(lua_State *L);

/* Outcome of a protected call. */
enum sb_outcome { SB_OK, SB_ERROR, SB_BUDGET, SB_USAGE, SB_INPUT };

/* Call the function below 'nargs' arguments on the stack in protected mode
 * under 'budget' instructions; leaves 'nres' results on success. On
 * failure the stack holds nothing of the call and 'msg' (size 'size') says
 * why: the Lua message with its position, or the budget that ran out. */
enum sb_outcome sb_pcall(struct sandbox *sb, int nargs, int nres,
			 unsigned long long budget, char *msg, size_t size);

/* Stack: fn, args (nargs). Run fn(args) under 'budget' and write its
 * first result as JSON into 'json' (nothing for nil), inside the same
 * protected call; 'figures' applies the figures rules. */
enum sb_outcome sb_call_json(struct sandbox *sb, int nargs,
			     unsigned long long budget, int figures,
			     struct sbuf *json, char *msg, size_t size);

/* Charge 'steps' to the running call (patterns, regex work); raises the
 * budget error when it passes the budget. */
void sb_charge(lua_State *L, unsigned long long steps);

/* Mark the running call tripped for 'why' and arm the sticky hook. */
void sb_trip(lua_State *L, unsigned why);

/* Load and run a text chunk with the pack's environment under the command
 * budget; the chunk's return values are discarded except when 'keep' is
 * set (then one value stays on the stack). Returns SB_OK or a failure with
 * 'err' (DIAG_E_PACK) filled. */
enum sb_outcome sb_run_file(struct sandbox *sb, struct sb_pack *p,
			    const char *path, const char *chunkname, int keep,
			    struct diag *err);

/* Create a pack's environment and library copies (sets env_ref,
 * base_ref, loaded_ref). */
int sb_make_env(struct sandbox *sb, struct sb_pack *p);

/* The packs' require (sb_require.c): upvalue 1 is the calling pack. */
int sb_require(lua_State *L);

/* Whether require(name) from pack 'p' would find a file (it may still fail
 * to compile or run); an invalid name does not exist. */
int sb_module_exists(const struct sandbox *sb, const struct sb_pack *p, const char *name);

/* Read the options table at index 'ot' into verb 'vi' of pack 'p' (raises
 * on a malformed option, naming it). Only once per verb. */
void sb_read_verb_options(lua_State *L, struct sb_pack *p, size_t vi, int ot);

/* Freeze a pack's top level: a new global raises from now on. */
void sb_freeze(struct sandbox *sb, struct sb_pack *p);

/* Push the pack's environment table. */
void sb_push_env(struct sandbox *sb, struct sb_pack *p);

/* The pack with this name, or NULL. */
struct sb_pack *sb_find_pack(const struct sandbox *sb, const char *name);

/* Register a document for views; returns its id, or 0 when full. */
uint64_t sb_doc_add(struct sandbox *sb, const struct doc *doc,
		    const char *kind, const char *file);

/* Forget a document: its views become stale. */
void sb_doc_remove(struct sandbox *sb, uint64_t id);

/* The registered document of an id, or NULL when gone. */
const struct sb_doc *sb_doc_get(const struct sandbox *sb, uint64_t id);

/* Copy an error value into 'msg': strings as they are, other values by
 * type ("the rule raised a table"), never through __tostring. */
void sb_error_text(lua_State *L, int idx, char *msg, size_t size);

/* Whether a command may open 'path'; add one. */
int sb_path_allowed(const struct sandbox *sb, const char *path);
int sb_allow_path(struct sandbox *sb, const char *path);

/* ---- l_engine.c: values ---- */

/* Open the engine table (basic functions) into the table on top. */
void sb_open_engine(lua_State *L);

/* Most bytes of JSON text one value may produce. */
#define SB_JSON_MAX ((size_t)64 << 20)

/* Push a userdata holding an empty sbuf (capped at 'cap') that is freed
 * when collected, so a Lua error between fill and use cannot leak it. */
struct sbuf *sb_tmpbuf(lua_State *L, size_t cap);

/* Push engine.null. */
void sb_push_null(lua_State *L);

/* Whether the value at idx is engine.null. */
int sb_is_null(lua_State *L, int idx);

/* Push a new empty engine.object / engine.array. */
void sb_new_object(lua_State *L);
void sb_new_array(lua_State *L);

/* Append to an engine.object on top of the stack: key 'k', value on top. */
void sb_object_set(lua_State *L, int obj, const char *k);

/* A new engine.object sized for 'nkeys' string keys (a loaded mapping's):
 * pushes the object, then the record of its key order;
 * sb_object_add_new(L, obj, order) then takes the key and value on top of
 * the stack into both, without sb_object_set's registry lookups. Pop the
 * record when done. */
void sb_new_object_for(lua_State *L, int nkeys);
void sb_object_add_new(lua_State *L, int obj, int order);

/* ---- l_json.c ---- */

/* Encode the Lua value at 'idx' as JSON into 'sb' with raw access only.
 * 'figures': the figures rules of spec/core.md 5.5 (key form, depth 4, no
 * views). Returns 0, or -1 with 'msg' saying why (a non-finite float, a
 * function, too deep, ...). Never calls a metamethod. */
int sb_json_encode(lua_State *L, int idx, int figures, struct sbuf *out,
		   char *msg, size_t size);

/* Push a document node as plain Lua values (engine.plain). */
void sb_push_plain(lua_State *L, const struct node *n);

/* Push a userdata holding an empty document (arena cap 'cap') released
 * when collected. */
struct doc *sb_tmpdoc(lua_State *L, size_t cap);

/* Decode JSON text into plain Lua values (engine.object for objects);
 * returns 0 or -1 (nothing pushed). */
int sb_json_decode(lua_State *L, const char *text, size_t len);

/* ---- l_view.c ---- */

/* Open the view, timestamp and document functions into the engine table
 * at 'idx'. */
void sb_open_views(lua_State *L, int idx);

/* Push a view of node 'n' of document 'docid' with pointer 'path'. */
void sb_push_view(lua_State *L, uint64_t docid, const struct node *n,
		  const char *path, size_t pathlen);

/* Push a scalar or a view for node 'n' reached by 'path'. */
void sb_push_value(lua_State *L, uint64_t docid, const struct node *n,
		   const char *path, size_t pathlen);

/* Push a timestamp value. */
void sb_push_time(lua_State *L, const struct doc_time *t, int is_datetime);

/* The view at idx, or NULL when it is not one; raises when it is stale. */
struct sb_view {
	uint64_t docid;
	const struct node *node;
};
struct sb_view *sb_check_view(lua_State *L, int idx, int raise);

/* The path of the view at idx (a Lua string kept as its user value). */
const char *sb_view_path(lua_State *L, int idx, size_t *len);

/* A node's position (0: none). */
struct sb_where {
	uint32_t line, col, end_line, end_col;
};

/* Resolve a finding's place (spec/core.md 5.5): 'at' (stack index: a view,
 * a JSON Pointer string into 'root', or nil for the root, whose pointer is
 * 'root_path' or ""), 'key' (index of a member key, or nil) and on_key.
 * Fills 'w' and the pointer into 'path'. Returns 0, or -1 with 'msg'. */
int sb_locate(lua_State *L, int at, int key, int on_key, uint64_t docid,
	      const struct node *root, const char *root_path,
	      struct sb_where *w, struct sbuf *path, char *msg, size_t size);

/* Build a document from a plain Lua value (engine.view). */
int sb_lua_to_doc(lua_State *L, int idx, struct doc *d, char *msg,
		  size_t size);

/* ---- l_register.c ---- */

/* Open engine.pack, rule, declare, run_rule, report, program, figure,
 * mutation into the engine table at 'idx'. */
void sb_open_register(lua_State *L, int idx);

/* Free a rule record and its strings. */
void sb_rule_free(struct sb_rule *r);

/* Free a pack record. */
void sb_pack_free(lua_State *L, struct sb_pack *p);

/* Rebuild the list of rule infos after a load. */
int sb_index_rules(struct sandbox *sb);

/* ---- l_check.c ---- */

/* Open ctx's metatable. */
void sb_open_ctx(lua_State *L);

/* ---- l_program.c ---- */

/* Open the commands-only engine functions into the engine table at idx. */
void sb_open_commands(lua_State *L, int idx);

/* Free what a verb run loaded and allowed. */
void sb_command_reset(struct sandbox *sb);

/* ---- l_re.c, l_models.c ---- */

int luaopen_infragate_re(lua_State *L);
/* Push a pack's own models table: empty, its groups (models.<group>) made
 * on first lookup from core/models/models.def. */
void sb_push_models(lua_State *L);

#endif
