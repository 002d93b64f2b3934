/*
 * engine.h: the engine as core/cli sees it. An engine knows where its data
 * root is, which packs and kinds exist, and runs the native verbs (lint,
 * validate, test, rules, models) and pack programs. It never prints: every
 * verb fills a struct engine_out (stdout text, stderr notes, the errors of
 * an exit 2) that cli writes out, in text or as the error document.
 *
 * Ownership: struct engine is opaque and freed by engine_close(); an
 * engine_out owns its buffers (engine_out_release()).
 */
#ifndef INFRAGATE_ENGINE_ENGINE_H
#define INFRAGATE_ENGINE_ENGINE_H

#include <stddef.h>

#include "core/doc/doc.h"
#include "core/util/argparse.h"
#include "core/util/sbuf.h"

/* Global options (spec/core.md 2.2) and the process's environment. */
struct engine_globals {
	const char *const *rules_dirs; /* --rules, in order */
	size_t nrules_dirs;
	const char *config;            /* --config FILE */
	int no_config;                 /* --no-config */
	int verbose;                   /* -v */
	int color;                     /* colour resolved by cli */
	const char *env_home;          /* INFRAGATE_HOME */
	const char *env_config;        /* INFRAGATE_CONFIG */
	const char *env_today;         /* INFRAGATE_TODAY */
	const char *exe;               /* /proc/self/exe, resolved by cli */
	const char *cwd;               /* the current directory, absolute */
};

/* What a verb produced. */
struct engine_out {
	struct sbuf out;         /* stdout */
	struct sbuf notes;       /* stderr lines that are not errors */
	struct findings errors;  /* exit 2: the problems that stopped the run */
	char *argument;          /* usage errors: the offending argument */
	char *synopsis;          /* usage errors: a one-line synopsis */
	const char *verb;        /* the verb that ran (NULL: none recognised) */
	const char *program;     /* "infragate lint", "pue-ladder gate": for
				  * "PROGRAM VERB: error[cli.usage]" lines */
	const char *pack;        /* `infragate PACK VERB` programs: the envelope's
				  * "pack" (spec/core.md 2.6); NULL: none */
	int json;                /* errors go out as the JSON error document */
	int exit_code;
	int usage;               /* the errors are usage errors */
	char verb_buf[128];      /* holds 'verb' when it names a pack's verb */
	char program_buf[256];
	char pack_buf[64];
};

void engine_out_init(struct engine_out *o);
void engine_out_release(struct engine_out *o);

/* Set o->verb / o->program to a copy of 'name' (which may not outlive the
 * call). */
void engine_out_set_verb(struct engine_out *o, const char *name);
void engine_out_set_program(struct engine_out *o, const char *name);

/* Record a usage error (cli.usage) naming 'argument'. */
void engine_out_usage(struct engine_out *o, const char *argument,
		      const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Record an error finding with id 'id' (file may be NULL). */
void engine_out_error(struct engine_out *o, const char *id, const char *file,
		      unsigned line, unsigned col, const char *path,
		      const char *fmt, ...) __attribute__((format(printf, 7, 8)));

/* Render the error document of spec/core.md 2.6 item 3 into 'out'. */
void engine_error_document(const struct engine_out *o, const char *version,
			   struct sbuf *out);

struct engine;

/* Find the data root (spec/core.md 15.3), the shipped packs and the site
 * packs of --rules with their kinds (the shipped kinds are read on first
 * need, see engine_kinds_load). Returns the engine, or
 * NULL with the problem in 'o' (exit 2). */
struct engine *engine_open(const struct engine_globals *g,
			   struct engine_out *o);

void engine_close(struct engine *e);

/* Read every shipped kind's schema header now (engine_open leaves that to
 * the first lookup, which a program run may never make). The native verbs
 * call it first: they route, list or check every kind. Returns 0, or -1
 * with the problem in 'o' (exit 2). */
int engine_kinds_load(struct engine *e, struct engine_out *o);

/* The engine's version and the libraries' ("infragate 0.1.0 (libyaml
 * 0.2.5, PCRE2 10.42 JIT, Lua 5.4.4)"). */
void engine_version_text(struct sbuf *out);

/* ---- native verbs -------------------------------------------------------- */

/* The option table of `infragate lint` (and of `args:` in pack test
 * expectations), shared so both parse alike. */
extern const struct ap_program engine_lint_program;

/* Run `infragate lint` with parsed arguments. */
int engine_lint(struct engine *e, const struct ap_result *res,
		struct engine_out *o);

extern const struct ap_program engine_validate_program;
int engine_validate(struct engine *e, const struct ap_result *res,
		    struct engine_out *o);

extern const struct ap_program engine_test_program;
int engine_test(struct engine *e, const struct ap_result *res,
		struct engine_out *o);

extern const struct ap_program engine_rules_program;
int engine_rules(struct engine *e, const struct ap_result *res,
		 struct engine_out *o);

extern const struct ap_program engine_models_program;
int engine_models(struct engine *e, const struct ap_result *res,
		  struct engine_out *o);

/* ---- programs ------------------------------------------------------------ */

/* Whether 'name' is a program: a linked name, or a pack declaring a
 * program under its own name. */
int engine_has_program(struct engine *e, const char *name);

/* Write the names of the programs (linked first, then packs with their own
 * program) as "name (pack)" lines into 'out', for help and usage. */
void engine_list_programs(struct engine *e, struct sbuf *out);

/* Run program 'name' with its arguments argv[0..argc) (argv[0] is the
 * first argument after the program name). */
int engine_program(struct engine *e, const char *name, int argc, char **argv,
		   struct engine_out *o);

#endif
