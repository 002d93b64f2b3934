/*
 * sandbox.h: the Lua layer's public interface (the module's one header; it
 * is not named lua.h so that it can never be mistaken for Lua's own). A
 * struct sandbox is one Lua state with the allow-listed libraries, a capped
 * allocator, a sticky instruction budget and the engine/models/re
 * bindings; packs load into it, each into its own environment, and the
 * engine asks it to run rules, report builders, program verbs and
 * validation figures. No Lua type crosses this header: everything the
 * engine sees is C data.
 *
 * Threads: a sandbox belongs to one thread. The engine gives each -j worker
 * its own; nothing here is shared between sandboxes.
 *
 * Ownership: the sandbox owns the pack and rule records it returns; they
 * live until sandbox_free(). Findings are copied into the caller's list.
 */
#ifndef INFRAGATE_LUA_SANDBOX_H
#define INFRAGATE_LUA_SANDBOX_H

#include <stddef.h>
#include <stdint.h>

#include "core/doc/doc.h"
#include "core/re/re.h"
#include "core/schema/schema.h"
#include "core/util/argparse.h"
#include "core/util/diag.h"
#include "core/util/sbuf.h"
#include "core/yaml/yaml.h"

/* ---- what a rule id is ------------------------------------------------- */

/* Metadata of a rule or declared id: listings, --explain, SARIF. */
struct rule_info {
	const char *id;
	const char *pack;        /* NULL for core ids */
	const char *summary;
	const char *description; /* NULL when not given */
	const char *rationale;
	const char *fix;
	const char *help_uri;
	const char *const *tags;
	size_t ntags;
	enum severity severity;  /* default severity */
	int strict;
	int input_stage;         /* stage = "input" */
	const char *const *kinds; /* NULL-terminated; NULL for declared ids */
	size_t nkinds;
	int declared;            /* engine.declare (no check of its own) */
	int program_only;        /* engine.declare{program = true}: reported by
				  * the pack's program alone (promotion-gate's
				  * receipt ids), so no lint fixture can expect it */
	int run_level;           /* engine.run_rule */
	const char *file;        /* where it was registered: "rules/demo/pack.lua" */
	int line;
	size_t index;            /* declaration index within its pack */
};

/* ---- limits and host services ----------------------------------------- */

struct sandbox_limits {
	unsigned long long instructions;          /* per rule call */
	unsigned long long instructions_per_node; /* added per document node */
	unsigned long long command_instructions;  /* verbs, figures, loads */
	size_t memory_bytes;                      /* whole state */
	struct re_limits re;
	struct yaml_limits yaml;                  /* engine.load, engine.data */
	size_t file_bytes;
	size_t findings;                          /* per file */
};

/* Fill 'lim' with the defaults of spec/core.md 4.5. */
void sandbox_limits_default(struct sandbox_limits *lim);

struct sandbox;

/* A file loaded for pack code (engine.load, engine.data): the host reads,
 * decodes and parses it and applies a kind's schema. */
struct sb_loaded {
	struct yaml_file file;   /* owns the documents */
	struct doc *json_doc;    /* for JSON input: the one document */
	struct findings input;   /* input findings (when collect was asked) */
	int failed;              /* input findings exist */
};

struct sb_load_req {
	const char *path;        /* filesystem path; "-" for stdin */
	const char *display;     /* for messages */
	const char *kind;        /* apply this kind's schema, or NULL */
	int stream;              /* stream mode instead of single */
	int json;                /* JSON instead of YAML */
};

/* Operand expansion request of engine.expand (spec/core.md 4.1, 5.9). */
struct sb_expand_req {
	const char *const *operands;
	size_t noperands;
	int recursive, hidden, dedupe, on_empty_error;
	const char *const *suffixes;
	size_t nsuffixes;
	const char *pack_dir;     /* absolute folder to expand when no operands */
};

struct sb_expanded {
	char *display;
	char *path;
	char *error;              /* unreadable: the message; else NULL */
};

/* engine.lint from a command: the lint runner with these settings. */
struct sb_lint_req {
	const char *const *operands;
	size_t noperands;
	const char *pack;        /* the program's pack, selected */
	int strict;
	const char *format;      /* text json sarif github junit */
	long jobs;               /* 0 auto */
	const char *verb;        /* envelope verb */
	const struct sb_expand_req *expand; /* compat expansion, or NULL */
	const char *stdin_filepath;
	const char *settings_json; /* opts.settings as a JSON object, or NULL:
				    * what the run's rules read as ctx.settings */
};

/* What the engine offers pack code. Every callback returns 0 or -1 with
 * 'err' set; none may call back into the same sandbox except check. */
struct pack_desc;

struct sandbox_host {
	void *ud;
	/* The pack that owns kind 'kind', or NULL when no kind has that name. */
	const char *(*kind_pack)(void *ud, const char *kind);
	/* The compiled schema of a kind (compiling it on first use). */
	const struct schema *(*kind_schema)(void *ud, struct sandbox *sb,
					    const char *kind, struct diag *err);
	/* Read and parse one file. On an input problem: -1 with 'err', unless
	 * collect is set (then 0 with out->failed and out->input filled). */
	int (*load)(void *ud, const struct sb_load_req *req, int collect,
		    struct sb_loaded *out, struct diag *err);
	/* Run the whole evaluation of spec/core.md 5.4 on one document. */
	int (*check)(void *ud, struct sandbox *sb, const struct doc *doc,
		     const char *kind, int strict, struct findings *out,
		     struct diag *err);
	/* The lint runner; writes the report into 'out', sets *exit_code. */
	int (*lint)(void *ud, const struct sb_lint_req *req, struct sbuf *out,
		    struct sbuf *errout, int *exit_code, struct diag *err);
	/* Operand expansion; returns a malloc'd array the sandbox frees with
	 * sandbox_expanded_free(). */
	int (*expand)(void *ud, const struct sb_expand_req *req,
		      struct sb_expanded **out, size_t *n, struct diag *err);
	/* Render findings (out:report) in 'format' as a lint report of one
	 * file named 'file', for the envelope verb 'verb'. */
	int (*report)(void *ud, const struct findings *fs, const char *file,
		      const char *format, const char *verb, struct sbuf *out,
		      struct diag *err);
	/* A validation run of 'pack' (engine.validate); writes the registry
	 * entry as JSON into 'out' and sets *ok. 'settings_json' may be NULL. */
	int (*validate)(void *ud, const char *pack, const char *mutation,
			const char *settings_json, struct sbuf *out, int *ok,
			struct diag *err);
	/* The i-th site pack of the run (load order) into 'out': 1, or 0 past
	 * the last (engine.site_files; NULL: the run has none). */
	int (*site_pack)(void *ud, size_t i, struct pack_desc *out);
};

/* Free an expansion result. */
void sandbox_expanded_free(struct sb_expanded *v, size_t n);

struct sandbox_config {
	struct sandbox_limits limits;
	const char *data_root;   /* absolute: holds lua/ */
	const char *version;     /* engine version */
	const struct sandbox_host *host;
};

/* Create a state. Returns NULL with 'err' set when Lua cannot start. */
struct sandbox *sandbox_new(const struct sandbox_config *cfg,
			    struct diag *err);

/* The same, refusing the 'fail_at'-th allocation of the state (tests of
 * the allocation-failure seam, STYLE.md 6): every refusal must end in a
 * clean error. */
struct sandbox *sandbox_new_failing(const struct sandbox_config *cfg,
				    long fail_at, struct diag *err);

/* Close the state and free every record. */
void sandbox_free(struct sandbox *sb);

/* The names of the C services packs can call (services.def), NULL-ended. */
const char *const *sandbox_services(void);

/* Lua's version text ("Lua 5.4.4"). */
const char *sandbox_lua_version(void);

/* ---- packs ------------------------------------------------------------ */

enum pack_order { ORDER_EVALUATION, ORDER_POSITION, ORDER_RULE };

struct pack_desc {
	const char *name;
	const char *dir;         /* filesystem folder */
	const char *chunk_dir;   /* for chunk names: "rules/cooling" or the
				  * site path as given */
	int site;
	size_t rank;             /* pack order */
};

#define SB_LOAD_PACK       0x1u
#define SB_LOAD_COMMANDS   0x2u
#define SB_LOAD_VALIDATION 0x4u
#define SB_LOAD_RULES      0x8u  /* rules.lua, when the pack has one */
/* A request, never a loaded bit: leave rules.lua for when rules are first
 * needed (a program verb's run; see sandbox_need_rules). */
#define SB_DEFER_RULES     0x10u

/* Load the files of a pack ('what': SB_LOAD_* bits; pack.lua always comes
 * first, then rules.lua unless SB_DEFER_RULES, then commands.lua, then
 * validation.lua, each only once, and files that do not exist are skipped
 * except pack.lua). A validation mutation (name, or NULL) is applied before
 * the environment is frozen. Returns 0, or -1 with 'err' = DIAG_E_PACK
 * naming the file and line. */
int sandbox_load_pack(struct sandbox *sb, const struct pack_desc *pd,
		      unsigned what, const char *mutation, struct diag *err);

/* Load the rules.lua of every loaded pack that deferred it. Everything
 * that reads rules calls this first (checks, collections, the rule
 * listing and lookups), so a deferred pack is never seen without its
 * rules. Returns 0, or -1 with 'err' as sandbox_load_pack. */
int sandbox_need_rules(struct sandbox *sb, struct diag *err);

/* Whether a deferred rules.lua failed when a lookup (which cannot report)
 * loaded it; copies the failure to 'out' when not NULL. The run that saw
 * it reports it in place of its result. */
int sandbox_rules_failure(const struct sandbox *sb, struct diag *out);

/* Mark which loaded packs are active (their rules run). All are active by
 * default. */
void sandbox_set_active(struct sandbox *sb, const char *pack, int active);

/* Whether 'pack' is loaded (its pack.lua). */
int sandbox_has_pack(const struct sandbox *sb, const char *pack);

/* Pack-level settings of a loaded pack. */
struct sb_pack_info {
	const char *name;
	const char *version;
	const char *summary;
	const char *help_base;
	enum pack_order order;
	int site;
	size_t rank;
	int has_program;
	int has_validation;      /* engine.figure / engine.mutation, or a
				  * pack-defined registry function */
	int registry_function;   /* validation.lua returned a function */
	const char *registry_error; /* engine.pack's id reported in place of
				     * engine.registry, or NULL (core.md 11.5) */
	const char *dir;
};

/* Info on a loaded pack, or NULL. */
const struct sb_pack_info *sandbox_pack_info(const struct sandbox *sb,
					     const char *pack);

/* Every rule and declared id of every loaded pack, in pack order then
 * declaration order. Returns the count; *out points into the sandbox. */
size_t sandbox_rules(const struct sandbox *sb,
		     const struct rule_info *const **out);

/* The record of one id, or NULL. */
const struct rule_info *sandbox_rule(const struct sandbox *sb, const char *id);

/* The sort key of a finding id for a pack with order = "rule" (spec/core.md
 * 5.4): declaration index, core input ids first unless placed by
 * order_after. */
long sandbox_order_key(const struct sandbox *sb, const char *pack,
		       const char *id);

/* ---- evaluation -------------------------------------------------------- */

enum sb_stage { SB_STAGE_INPUT, SB_STAGE_CHECK };

struct sb_check_req {
	const struct doc *doc;   /* root and node count */
	const char *kind;
	const char *owner;       /* the kind's pack (its rules run first) */
	const char *file;        /* display path */
	int strict;
	enum sb_stage stage;
	const char *settings_json; /* ctx.settings (engine.lint), or NULL */
};

/* Called once per rule that ran on the document (for JUnit and unused
 * suppressions). */
struct sb_ran {
	void (*rule_ran)(void *ud, const char *id);
	void *ud;
};

/* Run the rules of one stage on a document, appending findings to 'out'.
 * A rule that raised an error gives engine.error, one that ran out of
 * budget engine.budget, both at the document's root naming the rule; other
 * rules still run. Returns the number of findings added, or -1 with 'err'
 * when the sandbox itself failed. */
long sandbox_check(struct sandbox *sb, const struct sb_check_req *req,
		   const struct sb_ran *ran, struct findings *out,
		   struct diag *err);

/* Run the engine.report builders for the document's kind (only those
 * without verbs = "program", unless 'program' is set), appending
 * `"key": value` JSON members to 'members' (comma-separated). A builder
 * error is a finding in 'out'. Returns 0 or -1. */
int sandbox_reports(struct sandbox *sb, const struct sb_check_req *req,
		    int program, struct sbuf *members, struct findings *out,
		    struct diag *err);

/* Run-level rules (engine.run_rule). */
struct sb_collected {
	const char *rule;
	const char *file;
	int document;
	char *value_json;        /* malloc'd */
};

/* Run the collect functions of run-level rules for a document, appending
 * collected values (JSON) to *items. */
int sandbox_collect(struct sandbox *sb, const struct sb_check_req *req,
		    struct sb_collected **items, size_t *nitems,
		    struct findings *out, struct diag *err);

/* Run each run-level rule's check over the collected items (in input
 * order, each rule seeing only its own items); every finding is handed to
 * 'emit' with the file and document it names, for the caller to add to
 * that file's list. */
int sandbox_run_checks(struct sandbox *sb, const struct sb_collected *items,
		       size_t nitems, int strict,
		       void (*emit)(void *ud, const char *file, int document,
				    const struct finding *f),
		       void *ud, struct diag *err);

/* Free collected items. */
void sandbox_collected_free(struct sb_collected *items, size_t n);

/* ---- programs ---------------------------------------------------------- */

/* The program a loaded pack declared, as a parser table, or NULL. The table
 * lives in the sandbox. */
const struct ap_program *sandbox_program(const struct sandbox *sb,
					 const char *pack);

/* Read the options of the verbs that declared theirs in their module (a
 * verb with `run = "module"` and no `options`), compiling those modules:
 * only the verb argv names first when it names one, else every such verb.
 * Call before parsing argv against sandbox_program(). Returns 0, or -1 with
 * 'err' (engine.pack) naming the verb and what its module got wrong. */
int sandbox_complete_verbs(struct sandbox *sb, const char *pack, int argc, char **argv,
			   struct diag *err);

/* What a verb run produced. */
struct sb_output {
	struct sbuf out;         /* stdout text (out:write, reports) */
	struct sbuf json;        /* the out:json object's members, or empty */
	int has_json;
	struct sbuf notes;       /* stderr lines */
	int exit_code;           /* 0, 1 or 2 */
	struct findings errors;  /* exit 2: usage or input errors to print */
	int usage;               /* the errors are usage errors */
	const char *usage_argument;
};

void sb_output_init(struct sb_output *o);
void sb_output_release(struct sb_output *o);

/* Run verb res->verb of the pack's program with the parsed arguments.
 * Returns 0 (o->exit_code says how the verb ended, 2 with o->errors when it
 * raised an input or usage error, or when pack code failed: then err is
 * set too) or -1 with 'err' set for a sandbox failure. */
int sandbox_run_verb(struct sandbox *sb, const char *pack,
		     const struct ap_result *res, struct sb_output *o,
		     struct diag *err);

/* ---- validation -------------------------------------------------------- */

/* Run a pack's validation figures over a registry already loaded as a
 * document: for each point id, compute the actual value. The result for
 * point i is in actual[i] (NAN when the figure returned nil; is_int[i]
 * set when it was a Lua integer, which prints as one) with its
 * optional detail JSON in detail[i] (malloc'd or NULL). 'settings_json' is
 * the merged settings object. The mutation (or NULL) was applied at load. */
int sandbox_figures(struct sandbox *sb, const char *pack,
		    const char *const *ids, size_t nids,
		    const char *settings_json, const char *mutation,
		    double *actual, int *is_int, char **detail,
		    struct diag *err);

/* Whether the pack has a figure for 'id' / a mutation named 'name'. */
int sandbox_has_figure(const struct sandbox *sb, const char *pack,
		       const char *id);
int sandbox_has_mutation(const struct sandbox *sb, const char *pack,
			 const char *name);

/* The figure ids and mutation names a pack registered, in order. */
size_t sandbox_figure_ids(const struct sandbox *sb, const char *pack,
			  const char *const **out);
size_t sandbox_mutation_names(const struct sandbox *sb, const char *pack,
			      const char *const **out);

/* A pack-defined registry (spec/core.md 11.5): call the function
 * validation.lua returned with the registry as plain tables and write the
 * entry it returns as JSON into 'entry'; *ok is its "ok". */
int sandbox_registry_function(struct sandbox *sb, const char *pack,
			      const struct node *registry,
			      const char *settings_json, const char *mutation,
			      struct sbuf *entry, int *ok, struct diag *err);

#endif
