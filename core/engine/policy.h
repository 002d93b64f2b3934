/*
 * policy.h: the policy of a lint run (spec/core.md 3, 4.1-4.2, 9): finding
 * and loading the configuration, globs, operand expansion, inline
 * suppression comments, waivers, baselines, severity overrides and the date
 * that decides waiver expiry. A private header of core/engine. Nothing here
 * prints, exits or keeps global state; the system clock is read only by
 * policy_today(). Match counters (waivers, baselines, suppressions) are
 * written by the apply functions, so those run on one thread.
 *
 * Ownership: each struct that holds strings (policy_errors, config,
 * expand_list, supp_set, waivers, baseline) owns an arena and frees it in
 * its _release(); pointers it hands out live until then. Findings are
 * annotated in place: strings set on them are copied into their list's
 * arena.
 *
 * The lint runner calls, in this order:
 *   1. config_init(), config_discover(), config_load() when a file was
 *      found; then config_check_names() once packs are known.
 *   2. policy_today(); waivers_load() or config's inline waivers;
 *      baseline_load() (and baseline_set_path() on the --write-baseline
 *      target).
 *   3. expand_opts_default(), expand_opts_config(), policy_expand().
 *   4. Per file, after evaluation and the pack's finding order:
 *      config_strict() (before evaluation), policy_apply_severity(),
 *      supp_parse(), supp_apply(), supp_report_unused(), waivers_apply(),
 *      baseline_apply(), baseline_add() for the file to write.
 *   5. After the last file: waivers_stale() and baseline_stale() with
 *      --report-stale, baseline_write().
 */
#ifndef INFRAGATE_ENGINE_POLICY_H
#define INFRAGATE_ENGINE_POLICY_H

#include <stddef.h>
#include <stdint.h>

#include "core/doc/doc.h"
#include "core/util/arena.h"
#include "core/util/diag.h"
#include "core/util/sbuf.h"
#include "core/yaml/yaml.h"

/* ---- errors of the files the engine reads for itself ------------------ */

/* One problem of a configuration, waiver or baseline file: the entries of
 * an error document (spec/core.md 2.6 item 3), severity always error. */
struct policy_error {
	const char *id; /* input.unreadable, input.type, engine.pack, ... */
	const char *message; /* one line, our words */
	const char *file;    /* display path of the file at fault */
	uint32_t line, col;  /* 1-based; 0: no position */
	const char *path;    /* JSON Pointer into that file, or NULL */
};

struct policy_errors {
	struct arena arena;
	struct policy_error *items;
	size_t n, alloc;
	int failed; /* memory ran out: the list is incomplete */
};

void policy_errors_init(struct policy_errors *e);
void policy_errors_release(struct policy_errors *e);

/* Add one error; every string is copied. 'path' may be NULL. */
void policy_errors_add(struct policy_errors *e, const char *id,
		       const char *file, uint32_t line, uint32_t col,
		       const char *path, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

/* Add a loader diagnostic (its id, position and pointer) for 'file'. */
void policy_errors_add_diag(struct policy_errors *e, const char *file,
			    const struct diag *d);

/* Where the engine's own schemas are, and how big its own files may be. */
struct policy_load {
	const char *schemas_dir; /* holds infragate-config.yaml and
				  * infragate-waivers.yaml */
	size_t file_bytes;	 /* 0: the default of spec/core.md 4.5 */
};

/* Read 'path' (shown as 'display') and load it as one YAML document
 * (comments not kept). Returns 0, or -1 with the problem in 'errs'. */
int policy_read_yaml(const char *path, const char *display, size_t file_bytes,
		     struct yaml_file *yf, struct policy_errors *errs);

/* Validate 'root' of 'display' against our schema ld->schemas_dir/'name'
 * ("infragate-config.yaml"). Returns 0 when it holds, -1 with every
 * violation in 'errs' (or engine.pack when the schema fails to load). */
int policy_validate(const struct policy_load *ld, const char *name,
		    const struct node *root, const char *display,
		    struct policy_errors *errs);

/* ---- rule ids and dates ------------------------------------------------ */

/* Whether 'id' matches 'pattern': the same id, or, for a pattern ending in
 * ".*", an id that starts with the text before '*' ("cooling.*" matches
 * "cooling.strict.x", not "cooling"). */
int policy_id_match(const char *pattern, const char *id);

/* Whether 'id' (or a pattern) is an input.*, engine.* or cli.* id: those
 * cannot be overridden, suppressed, waived or baselined. */
int policy_id_core(const char *id);

/* Whether s[0..len) is a rule id of spec/core.md 5.3 (dot-separated lower
 * kebab segments), or, with 'prefix', an id prefix ending in ".*". */
int policy_id_valid(const char *s, size_t len, int prefix);

/* A calendar date as the integer YYYYMMDD (20260630), so that dates
 * compare as integers. */
#define POLICY_DATE_LEN 11 /* "2026-06-30" and its NUL */

/* Parse "YYYY-MM-DD" (exactly ten characters, a real date of the
 * proleptic Gregorian calendar, years 1-9999). Returns 0 with *ymd set, or
 * -1. */
int policy_date_parse(const char *s, size_t len, int32_t *ymd);

/* Write a YYYYMMDD date as "YYYY-MM-DD". */
void policy_date_text(int32_t ymd, char out[POLICY_DATE_LEN]);

/* Today for waiver expiry (spec/core.md 9.2): 'flag' (--today) when not
 * NULL, else 'env' (INFRAGATE_TODAY) when set and non-empty, else the UTC
 * date of the system clock. Returns 0, or -1 with 'err' = DIAG_E_USAGE and
 * err->path naming "--today" or "INFRAGATE_TODAY" for a value that is not
 * a real YYYY-MM-DD date. */
int policy_today(const char *flag, const char *env, int32_t *ymd,
		 struct diag *err);

/* ---- globs and paths (glob.c) ------------------------------------------ */

/* Match 'glob' against a path relative to the project root, with '/' and
 * no leading "./" (spec/core.md 3.4): '*' any run of characters but '/',
 * '?' one character but '/', '[abc]' '[a-z]' '[!a-z]' one character of a
 * class (a ']' first in a class is literal; an unclosed '[' is a literal
 * '['), a "**" segment zero or more whole folders, a final "**" segment
 * one or more path segments below; a glob without '/' matches the file
 * name at any depth; a glob ending in '/' matches that folder (anchored, as
 * every glob with a '/') and everything below it. Case-sensitive, characters
 * are UTF-8 code points. Linear in practice and never exponential (no
 * recursion). Returns 1 or 0; a NULL or empty path matches nothing. */
int glob_match(const char *glob, const char *relpath);

/* Whether any of globs[0..n) matches (0 for a NULL path). */
int glob_match_any(const char *const *globs, size_t n, const char *relpath);

/* Whether 'glob' names entry 'name' explicitly: a segment of the glob (the
 * last one for a file, one before the last for a folder) that starts with
 * a literal character and matches 'name'. A walk enters a dot folder or a
 * node_modules folder, and keeps a dot-file, only when an include glob
 * names it (spec/core.md 4.1). */
int glob_names_entry(const char *glob, const char *name, int is_dir);

/* Why 'glob' cannot be used in a configuration ("is empty", "is absolute:
 * globs are relative to the project root", "has an unclosed '['"), or NULL
 * when it is fine. */
const char *glob_problem(const char *glob);

/* Write into 'out' the path 'path' (absolute, or relative to 'cwd', which
 * is absolute) relative to the folder 'base' (absolute), lexically: '.'
 * and '..' segments resolved, '/' separators, no leading "./", "" for the
 * folder itself. Returns 1 with 'out' set; 0 when the path is outside
 * 'base' and 'up' is 0 (with 'up', "../" segments are written instead);
 * -1 when 'out' failed. */
int policy_relpath(struct sbuf *out, const char *base, const char *cwd,
		   const char *path, int up);

/* ---- configuration (config.c) ------------------------------------------ */

struct config_pos {
	uint32_t line, col;
};

/* A list of strings with the position of each item. 'given': the key was
 * in the file (a default list has given == 0). */
struct config_list {
	const char **items;
	struct config_pos *pos;
	size_t n;
	int given;
};

struct config_route {
	struct config_list files;
	const char *pack;
	const char *kind; /* NULL when not given */
	struct config_pos pos, pack_pos, kind_pos;
};

/* One severity override: 'sev' SEV_ERROR/WARNING/INFO, or SEV_NONE for
 * "off" (the finding is dropped). */
struct config_rule {
	const char *pattern; /* an id, or a glob where '*' is any run */
	enum severity sev;
	int glob; /* the pattern holds a '*' */
	struct config_pos pos;
};

struct config_rules {
	struct config_rule *items;
	size_t n;
};

struct config_override {
	struct config_list files;
	struct config_rules rules;
	int strict; /* -1: not set */
	struct config_pos pos;
};

struct config_limit {
	const char *name;
	long long value;
	struct config_pos pos;
};

struct waiver {
	const char *rule;   /* an id, or a prefix ending in ".*" */
	const char **files; /* globs, relative to the project root */
	size_t nfiles;
	const char *path; /* pointer pattern, or NULL: any node */
	int document;	  /* -1: any */
	const char *owner, *reason, *ticket; /* ticket may be NULL */
	int32_t expires;    /* YYYYMMDD, valid through that day (UTC) */
	int32_t created;    /* 0: not given */
	const char *source; /* "waivers.yaml:12": display path and line */
	struct config_pos pos;
	size_t matched; /* findings it matched (expired ones included) */
};

struct waivers {
	struct arena arena;
	const char *file; /* display path of the file that holds them */
	struct waiver *items;
	size_t n;
	int loaded; /* a file or an inline list was read */
};

struct config {
	struct arena arena;
	const char *file; /* display path of the configuration, NULL: none */
	const char *dir;  /* its folder for joining: "" (the current
			   * directory), "../..", or as given */
	const char *root; /* the project root: absolute, canonical */
	const char *cwd;  /* the current directory: absolute */
	int version;
	struct config_list paths, include, exclude, packs, site_packs;
	struct config_route *routes;
	size_t nroutes;
	int strict;  /* -1: not set */
	int fail_on; /* -1: not set; else enum severity, SEV_NONE for
		      * "none" */
	struct config_rules rules;
	struct config_override *overrides;
	size_t noverrides;
	const char *waivers_path; /* as written, relative to the root */
	struct waivers waivers;	  /* an inline list (waivers.loaded) */
	const char *baseline;	  /* as written, relative to the root */
	int unrouted_error;	  /* -1: not set, 0: skip, 1: error */
	long long jobs;		  /* -1: not set */
	struct config_limit *limits;
	size_t nlimits;
};

/* Where the configuration comes from (spec/core.md 3.1). */
struct config_source {
	int no_config;	    /* --no-config */
	const char *config; /* --config FILE, or NULL */
	const char *env;    /* INFRAGATE_CONFIG, or NULL */
};

/* Set up the built-in defaults with 'cwd' (absolute) as the current
 * directory and the project root: include ["*.yaml", "*.yml"], nothing
 * else set. */
void config_init(struct config *c, const char *cwd);

/* Free everything the configuration holds. */
void config_release(struct config *c);

/* Find the configuration file: --no-config, --config, INFRAGATE_CONFIG,
 * else a walk up from c->cwd looking for .infragate.yaml then
 * .infragate.yml in each folder, stopping at the first found, after a
 * folder that contains .git, or at /. Sets c->file, c->dir and c->root.
 * Returns 1 when a file was chosen, 0 for none, -1 with 'errs' filled
 * (both names in one folder; a missing --config file is input.unreadable
 * at load time, not here). */
int config_discover(struct config *c, const struct config_source *src,
		    struct policy_errors *errs);

/* Read c->file with the YAML loader (single document), validate it against
 * schemas/infragate-config.yaml, then check what a schema cannot say
 * (version 1, limit names, globs, ids that cannot be overridden) and fill
 * 'c'. Returns 0, or -1 with every problem in 'errs', positioned in the
 * configuration (engine.pack for a schema of ours that fails to load). */
int config_load(struct config *c, const struct policy_load *ld,
		struct policy_errors *errs);

/* What the caller knows once packs are loaded. */
struct config_names {
	int (*rule)(void *ud,
		    const char *id); /* an available pack declares it */
	int (*pack)(void *ud,
		    const char *name); /* a pack of that name exists */
	int (*kind)(void *ud, const char *pack, const char *kind); /* or NULL */
	void *ud;
};

/* Check names against the available packs: every `packs` entry and route
 * pack (and kind) must exist; an exact id in `rules` or an override must
 * be declared by some pack, unless its pack (the id's first segment) is
 * not among selected[0..nselected) (NULL: every pack is selected). Returns
 * 0, or -1 with 'errs' filled. */
int config_check_names(const struct config *c, const struct config_names *k,
		       const char *const *selected, size_t nselected,
		       struct policy_errors *errs);

/* A path of the configuration (relative to its folder) as the current
 * directory reaches it: c->dir joined with 'p' ('p' itself when absolute
 * or when dir is ""). Owned by 'c'; NULL on memory failure. */
const char *config_path(struct config *c, const char *p);

/* The value of limit 'name': the configuration's, else its default
 * (spec/core.md 4.5). Returns -1 for an unknown name. */
long long config_limit(const struct config *c, const char *name);

/* Whether 'name' is a limit of spec/core.md 4.5; sets *dflt when given. */
int policy_limit_known(const char *name, long long *dflt);

/* ---- per-file settings and severity overrides (overrides.c) ------------ */

/* In the three functions below 'c' may be NULL (no configuration: only
 * the command line and the defaults decide). */

/* Strict mode for a file: 'cli' (-1: not given, else 0/1), else the last
 * override with `strict` whose files match 'relpath', else top-level
 * `strict`, else 'dflt'. 'relpath' may be NULL (no override matches). */
int config_strict(const struct config *c, const char *relpath, int cli,
		  int dflt);

/* The severity of rule 'id' in the file 'relpath' (spec/core.md 3.2):
 * within one map an exact id beats a glob, a longer glob a shorter one,
 * and the later of two equal lengths wins; 'cli' (may be NULL) beats every
 * matching override, a later override an earlier one, overrides the
 * top-level map, which beats 'dflt'. input.*, engine.* and cli.* ids keep
 * 'dflt'. Returns the severity, or SEV_NONE when the rule is "off". */
enum severity config_severity(const struct config *c,
			      const struct config_rules *cli,
			      const char *relpath, const char *id,
			      enum severity dflt);

/* Apply config_severity() to every finding of 'fs' (its severity being the
 * default) and drop the "off" ones, keeping the order of the rest. Returns
 * the number dropped. */
size_t policy_apply_severity(const struct config *c,
			     const struct config_rules *cli,
			     const char *relpath, struct findings *fs);

/* Whether a severity-override key matches an id ('*' any run). */
int policy_rule_glob_match(const char *pattern, const char *id);

/* ---- operand expansion (expand.c) -------------------------------------- */

struct expand_opts {
	int recursive;		     /* walk below a folder operand (1) */
	const char *const *suffixes; /* keep names ending so; NULL: include */
	size_t nsuffixes;
	int hidden;		    /* keep dot entries (0) */
	int dedupe;		    /* one entry per canonical path (1) */
	int on_empty_error;	    /* no file at all is an error (0) */
	const char *pack_dir;	    /* no operands: this folder, bare names */
	const char *const *include; /* NULL: "*.yaml", "*.yml" */
	size_t ninclude;
	const char *const *exclude;
	size_t nexclude;
	const char *root; /* project root for globs; NULL: no relpaths */
	const char *cwd;  /* absolute; needed with root */
	const char *stdin_filepath; /* --stdin-filepath, or NULL */
};

struct expand_item {
	const char *display; /* the name reports use */
	const char *path;    /* what to open; "-" for standard input */
	const char *relpath; /* relative to the root, for globs; NULL
			      * outside it, or stdin without a filepath */
	const char *canon;   /* canonical path, NULL when unknown */
	int is_stdin;
	const char *error; /* NULL, or the message of an input.unreadable
			    * finding of this file */
};

struct expand_list {
	struct arena arena;
	struct expand_item *items;
	size_t n, alloc;
};

/* The options of spec/core.md 4.1 (engine.expand's defaults). */
void expand_opts_default(struct expand_opts *o);

/* Take include, exclude, root and cwd from a configuration. */
void expand_opts_config(struct expand_opts *o, const struct config *c);

void expand_list_init(struct expand_list *l);
void expand_list_release(struct expand_list *l);

/* Expand operands[0..n) into files, in operand order, a folder's files in
 * byte order of their names whatever order the file system gives. A
 * missing or unreadable operand becomes an item with 'error' set. Returns
 * 0, or -1 with 'err' set: DIAG_E_USAGE for '-' given twice (err->path
 * "-"), for no operand without pack_dir, or for no file at all with
 * on_empty_error (err->path "PATH"); DIAG_E_NOMEM. */
int policy_expand(struct expand_list *out, const char *const *operands,
		  size_t n, const struct expand_opts *o, struct diag *err);

/* ---- inline suppression (suppress.c) ----------------------------------- */

struct supp_directive {
	uint32_t line, col;    /* of the '#' */
	uint32_t applies_line; /* the line it annotates (0: none) */
	int file_wide;	       /* ignore-file */
	int document;	       /* document holding the line, -1: none */
	const char **patterns; /* ids or prefixes ending in ".*" */
	unsigned char *live;   /* per pattern: suppresses (known, not core) */
	size_t npatterns;
	const char *reason; /* NULL: the directive does not apply */
	size_t used;	    /* findings it suppressed */
};

struct supp_set {
	struct arena arena;
	const char *file; /* display path, for "file:line" sources */
	struct supp_directive *items;
	size_t n;
};

/* What the caller knows of the loaded rules. */
struct supp_rules {
	/* Whether some loaded rule matches 'pattern' (policy_id_match). */
	int (*known)(void *ud, const char *pattern);
	void *ud;
};

/* The ids of the rules that ran on one document. */
struct policy_ran {
	const char *const *ids;
	size_t n;
};

void supp_set_init(struct supp_set *s);
void supp_set_release(struct supp_set *s);

/* Parse the comments of 'yf' (loaded with comments) into directives of
 * spec/core.md 9.1 and add an engine.suppression warning to 'fs', at the
 * comment, for each that is malformed, has no reason, or names a pattern
 * that matches no loaded rule ('rules' may be NULL: every pattern is
 * known) or an id that cannot be suppressed. Comments that do not start
 * with "infragate:" are ignored. Returns the number of directives, or -1
 * on memory failure. */
int supp_parse(struct supp_set *s, const char *display,
	       const struct yaml_file *yf, const struct supp_rules *rules,
	       struct findings *fs);

/* Suppress the active findings of 'fs' that a directive covers: a line
 * directive those starting on its applies_line, ignore-file every one;
 * core ids never. Sets supp_by "inline", supp_reason and supp_source
 * "FILE:LINE". Returns the number suppressed. */
size_t supp_apply(struct supp_set *s, struct findings *fs);

/* Add an engine.suppression warning to 'fs' for every applicable
 * directive that suppressed nothing although a rule it names ran on its
 * document (ran[0..nran) indexed by document; an ignore-file directive
 * looks at every document). Returns the number added. */
size_t supp_report_unused(const struct supp_set *s,
			  const struct policy_ran *ran, size_t nran,
			  struct findings *fs);

/* ---- waivers (waiver.c) ------------------------------------------------ */

void waivers_init(struct waivers *w);
void waivers_release(struct waivers *w);

/* Load the waiver file 'path' (shown as 'display'): YAML, validated against
 * schemas/infragate-waivers.yaml, then checked (rule patterns, globs,
 * non-empty owner and reason). Returns 0, or -1 with 'errs' positioned in
 * the file. */
int waivers_load(struct waivers *w, const char *path, const char *display,
		 const struct policy_load *ld, struct policy_errors *errs);

/* Read an already validated list of waiver entries ('list' is a YAML list
 * of the waiver schema; 'ptr' its JSON Pointer for messages, "/waivers").
 * config_load() uses it for an inline list. Returns 0 or -1. */
int waivers_from_node(struct waivers *w, const struct node *list,
		      const char *display, const char *ptr,
		      struct policy_errors *errs);

/* Match the active, suppressible findings of 'fs' in the file 'relpath'
 * (NULL: no waiver matches) against the waivers in order. The first
 * unexpired match suppresses (supp_by "waiver", owner, reason, expires,
 * source); when only expired waivers match, the finding stays active and
 * its 'waiver' is the JSON object {"owner", "reason", "expires",
 * "source"} of the first. Returns the number suppressed. */
size_t waivers_apply(struct waivers *w, struct findings *fs,
		     const char *relpath, int32_t today);

/* Add an engine.waiver warning to 'out' for each waiver that matched
 * nothing, at the waiver's position. Returns the number added. */
size_t waivers_stale(const struct waivers *w, struct findings *out);

/* Whether pointer pattern 'pat' ('*' one segment, '**' any number)
 * matches JSON Pointer 'ptr'. */
int policy_pointer_match(const char *pat, const char *ptr);

/* ---- baselines (baseline.c) -------------------------------------------- */

struct baseline_entry {
	const char *rule;
	const char *file; /* relative to the baseline file's folder, '/' */
	int document;
	const char *path;
	size_t count;
	size_t matched;
	struct config_pos pos;
	size_t index; /* its place in the file's "entries" */
};

struct baseline {
	struct arena arena;
	const char *file; /* display path */
	const char *path; /* path to open or write */
	const char *dir;  /* absolute folder of the file, for fingerprints */
	const char *cwd;
	struct baseline_entry *items;
	size_t n, alloc;
	int sorted;
	int unusable; /* baseline_add() saw an unusable file */
};

void baseline_init(struct baseline *b);
void baseline_release(struct baseline *b);

/* Name the baseline file ('path' relative to 'cwd', shown as 'display')
 * and compute its folder. Returns 0, or -1 with 'err' (DIAG_E_UNREADABLE:
 * the folder does not exist). */
int baseline_set_path(struct baseline *b, const char *path, const char *display,
		      const char *cwd, struct diag *err);

/* baseline_set_path(), then read and check the JSON file of
 * spec/core.md 9.3. Returns 0, or -1 with 'errs' positioned in it. */
int baseline_load(struct baseline *b, const char *path, const char *display,
		  const char *cwd, const struct policy_load *ld,
		  struct policy_errors *errs);

/* Write the fingerprint file of 'path' (a file's path as opened) into
 * 'out'. Returns 0, or -1 on memory failure. */
int baseline_file_of(const struct baseline *b, const char *path,
		     struct sbuf *out);

/* Suppress (supp_by "baseline", supp_source the baseline's display) the
 * first `count` active, suppressible findings of each fingerprint, in the
 * order of 'fs'. 'fpfile' is baseline_file_of() of the file; NULL
 * (standard input) matches nothing. Returns the number suppressed. */
size_t baseline_apply(struct baseline *b, struct findings *fs,
		      const char *fpfile);

/* Count the findings of one file for writing: every finding not
 * suppressed inline or by a waiver, core ids excluded. A file with an
 * unusable finding marks the baseline unusable. NULL 'fpfile' (standard
 * input) adds nothing. Returns 0, or -1 on memory failure. */
int baseline_add(struct baseline *b, const char *fpfile,
		 const struct findings *fs);

/* Write the entries, sorted by file, document, path, rule, as the JSON of
 * spec/core.md 9.3, atomically: a temporary file in the same folder, then
 * rename(). Returns 0; 1 without writing anything when a file was
 * unusable; -1 with 'err' (DIAG_E_OUTPUT) when writing failed (no
 * temporary file is left). */
int baseline_write(struct baseline *b, const char *version, struct diag *err);

/* Add an engine.baseline warning to 'out' for each entry that matched
 * fewer findings than its count. Returns the number added. */
size_t baseline_stale(const struct baseline *b, struct findings *out);

#endif
