/*
 * eng_internal.h: what the files of core/engine share: the engine record
 * (data root, packs, kinds), the worker (one sandbox and its compiled
 * schemas), document evaluation and the lint runner's internal entry.
 */
#ifndef INFRAGATE_ENGINE_ENG_INTERNAL_H
#define INFRAGATE_ENGINE_ENG_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "core/engine/engine.h"
#include "core/engine/policy.h"
#include "core/engine/report.h"
#include "core/lua/sandbox.h"
#include "core/schema/schema.h"
#include "core/yaml/yaml.h"

#define ENGINE_VERSION INFRAGATE_VERSION

struct packref {
	char *name;
	char *dir;          /* filesystem folder */
	char *chunk_dir;    /* "rules/demo", or the site path as given */
	int site;
	size_t rank;
	char *schemas_dir;  /* where its kinds' schemas are */
	char *fixtures_dir; /* fixtures/<pack> or DIR/fixtures */
	char *registry;     /* validation/<pack>.yaml or DIR/validation.yaml */
	char *registry_schema; /* schemas/<pack>-registry.yaml, or NULL */
	int has_commands;
};

struct kind {
	char *name;
	char *pack;
	char *file;         /* path to open */
	char *display;      /* "schemas/demo-item.yaml" */
	char *api_version;  /* NULL: none */
	char *kind_value;   /* NULL: none */
	int is_default;
	struct yaml_file yf; /* the routing header of the schema (root.c) */
	const struct node *root;   /* of the header only */
	const struct node *detect;
};

struct engine {
	struct engine_globals g;
	char *data_root;
	char *cwd;
	struct packref *packs;
	size_t npacks;
	struct kind *kinds;
	size_t nkinds;
	/* The shipped kinds (the data root's schemas/) are read on first
	 * need: a program run that never routes a document reads none of
	 * them, and its rules' kinds are checked by kind_owner. */
	int kinds_state;               /* 0 unread, 1 read, -1 failed */
	struct engine_out *kinds_err;  /* the failure, kept for the run's output */
	struct kind_owner *owners;     /* kind_owner's answers while unread */
	size_t nowners;
	struct sandbox_limits limits;
};

struct kind_owner {
	char *name, *pack;
};

/* ---- root.c ---- */

/* Add the site packs of 'dirs' (a pack folder, or a folder of them) with
 * their kinds. Returns 0, or -1 with the problem in 'o'. */
int engine_add_site_packs(struct engine *e, const char *const *dirs, size_t n,
			  struct engine_out *o);

const struct packref *engine_pack(const struct engine *e, const char *name);

/* engine_kinds_load (engine.h) accepts o == NULL: the problem is then only
 * kept, for engine_kinds_failure. Every lookup below loads first. */

/* Whether engine_kinds_load failed (1) or not (0); when it did and 'o' is
 * given, the problem is added to 'o'. */
int engine_kinds_failure(const struct engine *e, struct engine_out *o);

/* The kind of that name (reading the shipped kinds first), or NULL. */
const struct kind *engine_kind(struct engine *e, const char *name);
size_t engine_kind_index(const struct engine *e, const struct kind *k);

/* The pack owning kind 'name', or NULL. While the shipped kinds are unread
 * this reads only schemas/<name>.yaml, which is all a pack's rules need to
 * register (5.2: a kind exists because its schema file exists). */
const char *engine_kind_owner(struct engine *e, const char *name);

/* Join a path below the data root. */
void engine_data_path(const struct engine *e, const char *rel, char *out,
		      size_t size);

/* ---- listing.c ---- */

/* The README section of 'id' (its "### id" heading up to the next heading
 * of the same or a higher level), malloc'd, or NULL. */
char *readme_section(const char *readme_path, const char *id);

/* ---- ids.c: the core finding ids of spec/core.md 16 ---- */

const struct rule_info *core_id_info(const char *id);
/* The i-th core id, or NULL past the last. */
const struct rule_info *core_id_at(size_t i);
const char *core_id_explanation(const char *id);

/* ---- worker.c ---- */

struct lint_run;

struct wkind {
	struct schema *schema;
	struct schema *detect;
	int schema_done, detect_done;
};

struct worker {
	struct engine *e;
	struct sandbox *sb;
	struct sandbox_host host;
	struct wkind *wk;         /* one per kind of the engine */
	size_t nwk;
	struct lint_run *run;     /* the lint run this worker serves, or NULL */
	const char *const *selected; /* packs whose rules run; NULL: all */
	size_t nselected;
	struct diag fatal;        /* a pack failed to load */
	int has_fatal;
	const char *settings_json; /* lint runs: what rules see as ctx.settings */
	const char *mutation;     /* validation runs: applied at load */
	const char *mutation_pack;
};

/* Set up a worker (its sandbox is created on first use). */
void worker_init(struct worker *w, struct engine *e);
void worker_release(struct worker *w);

/* The worker's sandbox, created on first use; NULL with w->fatal set. */
struct sandbox *worker_sandbox(struct worker *w);

/* Make sure 'pack' (and the files 'what') is loaded; 0 or -1 with
 * w->fatal set. */
int worker_load_pack(struct worker *w, const char *pack, unsigned what);

/* Report the worker's fatal problem (a pack that did not load) as an error
 * of 'o', with its file, position and pointer when it has them. Its id is
 * the one the pack named (engine.data_error), else 'id', else its own. */
void worker_fatal_out(const struct worker *w, struct engine_out *o, const char *id);

/* Load every site pack and apply the selection (active flags). */
int worker_prepare(struct worker *w);

/* The compiled schema of kind index k (compiling it, after loading its
 * pack); NULL with 'err'. */
const struct schema *worker_schema(struct worker *w, size_t k,
				   struct diag *err);

/* The compiled detect schema of kind index k, or NULL when it has none. */
const struct schema *worker_detect(struct worker *w, size_t k,
				   struct diag *err);

/* What evaluation of one document produced. */
struct eval_out {
	struct findings *fs;        /* findings are appended here */
	struct sbuf *reports;       /* report members, or NULL: none wanted */
	int program_reports;        /* include verbs = "program" builders */
	const struct sb_ran *ran;   /* rules that ran */
	struct sb_collected **items; /* run-level values, or NULL */
	size_t *nitems;
};

/* Evaluate one document of kind index k (spec/core.md 5.4) with the
 * findings order of its pack. Returns 0, or -1 with 'err' (a fatal
 * problem: a pack that does not load, memory). */
int worker_evaluate(struct worker *w, const struct doc *doc, size_t k,
		    const char *file, int strict, const struct eval_out *eo,
		    struct diag *err);

/* Read and parse a file for pack code (engine.load, engine.data). */
int worker_load_file(struct worker *w, const struct sb_load_req *req,
		     int collect, struct sb_loaded *out, struct diag *err);

/* ---- lint.c ---- */

struct lint_opts {
	const char *const *operands;
	size_t noperands;
	const char *const *packs;  /* --pack; NULL: configuration or all */
	size_t npacks;
	int strict;                /* -1: default (config, else 'strict_default') */
	int strict_default;
	int format;                /* enum report_format */
	int fail_on;               /* -1: config, else enum severity */
	long jobs;                 /* -1: config/auto */
	const char *stdin_filepath;
	const char *settings_json; /* engine.lint settings: ctx.settings, or NULL */
	int unrouted;              /* -1, 0 skip, 1 error */
	const char *waivers;
	int no_waivers;
	const char *baseline;
	int no_baseline;
	const char *write_baseline;
	const char *today;
	int report_stale, show_suppressed, quiet;
	const char *const *limits; /* "name=value" */
	size_t nlimits;
	const char *verb;          /* envelope verb */
	int no_config;             /* pack tests: no configuration */
	const struct sb_expand_req *expand; /* compat expansion, or NULL */
	int program_reports;       /* include verbs = "program" objects */
	struct config_rules *cli_rules; /* NULL */
};

void lint_opts_init(struct lint_opts *lo);

/* Run a lint and leave its report in 'r' (exit code in r->exit_code);
 * with 'render' a report format (not -1), also render it into o->out
 * while the rule records it needs still exist. Returns 0, or -1 when the
 * run could not start or failed: then 'o' holds the errors. */
int lint_run(struct engine *e, const struct lint_opts *lo,
	     struct lint_report *r, int render, struct engine_out *o);

/* Whether a loaded pack of the worker has a run-level rule. */
int worker_has_run_rules(const struct worker *w);

/* Render a finished report into o->out. */
int lint_render(const struct lint_report *r, int format, struct engine_out *o);

/* ---- program.c ---- */

/* Compose the JSON result of a verb: envelope then the object's members. */
void engine_json_envelope(struct sbuf *out, const char *verb,
			  const char *members_object);

/* ---- validate.c ---- */

/* Run the registry of 'pack' (registry file 'file' or the pack's own),
 * with 'mutation' (or NULL) and 'settings_json' merged over its settings;
 * writes the registry entry JSON into 'entry' and sets *ok. 'host' is the
 * worker of the pack program that asks (engine.validate), whose sandbox
 * the registry reuses when there is no mutation, or NULL. Returns 0, or
 * -1 with errors in 'o' (usage errors name --mutate). */
int validate_pack(struct engine *e, struct worker *host, const char *pack, const char *file,
		  const char *mutation, const char *settings_json,
		  struct sbuf *entry, int *ok, struct engine_out *o);

/* ---- host.c ---- */

/* Fill the sandbox host callbacks for a worker. */
void worker_host(struct worker *w);

/* A struct rule_lookup function over core ids and the worker's packs
 * ('ud' is the worker). */
const struct rule_info *worker_rule_info(void *ud, const char *id);

#endif
