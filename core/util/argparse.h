/*
 * argparse.h: command lines as tables. A program is a list of verbs, a verb
 * a list of options and operands; the parser turns argv into typed values
 * or one usage error naming the offending argument (spec/core.md 2.4, 2.6
 * and 5.9). Native verbs and every pack program share this one parser, so
 * "--name=VALUE", prefixes, negative numbers and help behave the same
 * everywhere. Nothing here prints: help text is returned in an sbuf.
 *
 * Ownership: the tables belong to the caller and must outlive the result;
 * a struct ap_result owns its value arrays (ap_result_release()). String
 * values point into argv or into the result's own storage.
 */
#ifndef INFRAGATE_UTIL_ARGPARSE_H
#define INFRAGATE_UTIL_ARGPARSE_H

#include <stddef.h>
#include <stdint.h>

#include "core/util/diag.h"
#include "core/util/sbuf.h"

enum ap_type {
	AP_FLAG,   /* no value: boolean */
	AP_STRING, /* any text ("--tier=" gives "") */
	AP_CHOICE, /* exactly one of choices, case-sensitive, never abbreviated */
	AP_FLOAT,  /* Python float() text; refused when not finite unless !finite */
	AP_INT,    /* Python int() base 10, within int64 */
	AP_BIGINT, /* as int, any size up to 4300 digits: canonical decimal text */
	AP_PATH    /* a file path, or "-" for standard input */
};

enum ap_group { AP_GROUP_REFERENCE, AP_GROUP_ADDED };

/* Tri-state for an option's own abbreviation switch. */
enum ap_abbrev { AP_ABBREV_INHERIT, AP_ABBREV_YES, AP_ABBREV_NO };

struct ap_option {
	const char *name;        /* long name with dashes: "--density" */
	const char *short_name;  /* "-p", or NULL */
	enum ap_type type;
	int required;
	const char *dflt;        /* default as text (parsed like a value), or NULL */
	const char *const *choices; /* AP_CHOICE: NULL-terminated */
	int has_min, has_max, min_exclusive, max_exclusive;
	double min, max;         /* numeric bounds (AP_FLOAT, AP_INT) */
	int finite;              /* AP_FLOAT: refuse inf/nan (default 1) */
	int repeat_append;       /* values accumulate instead of last-wins */
	enum ap_group group;
	enum ap_abbrev abbrev;
	const char *metavar;     /* "KW"; NULL: from the type */
	const char *help;
	int hidden;              /* accepted, not listed in help */
	int before_verb;         /* also accepted before the verb */
	/* A shorthand (expand_prefix not NULL): each value given on the
	 * command line is also appended, as expand_prefix followed by the
	 * value's text, to the option at index expand_to of the same verb (a
	 * repeatable string option that is no shorthand itself), so that
	 * `--seed 3` takes its argv place among the `--set` values as
	 * "seed=3". */
	const char *expand_prefix;
	size_t expand_to;
};

struct ap_operands {
	const char *name; /* metavar: "FILE" */
	size_t min;
	size_t max;       /* SIZE_MAX: unbounded */
};

struct ap_verb {
	const char *name;
	const char *summary;
	const char *help;        /* longer text, or NULL */
	const struct ap_option *options;
	size_t noptions;
	struct ap_operands operands;
	/* Flags that, anywhere on a command line naming no verb, select this
	 * verb instead of the default verb (promotion's --print-digest). */
	const char *const *select;
	size_t nselect;
};

enum ap_abbrev_mode { AP_NO_ABBREV, AP_UNIQUE_PREFIX };

struct ap_syntax {
	enum ap_abbrev_mode abbrev;
	int negative_numbers;   /* argparse's test for values that start with '-' */
	int help_anywhere;      /* -h/--help even after "--" */
	int verb_required;
	const char *default_verb; /* NULL: none */
};

struct ap_program {
	const char *name;       /* "pue-ladder", "infragate lint" */
	const char *summary;
	const char *help;
	struct ap_syntax syntax;
	const struct ap_verb *verbs;
	size_t nverbs;
	/* A program without verbs (a native verb such as `infragate lint`) has
	 * nverbs == 1 and syntax.default_verb naming it; it has no verb word,
	 * so every argument (even one spelled like the verb) is the verb's. */
};

/* One parsed option value. */
struct ap_value {
	const char *text;   /* the text as given (or the default) */
	int64_t i;          /* AP_INT */
	double f;           /* AP_FLOAT */
	int b;              /* AP_FLAG */
	const char *via;    /* a shorthand's copy: the shorthand's long name */
};

struct ap_slot {
	int given;               /* appeared on the command line */
	int has_value;           /* given, or has a default */
	struct ap_value *values; /* one, or several with repeat_append */
	size_t nvalues;
};

struct ap_result {
	const struct ap_verb *verb;   /* the verb that runs */
	size_t verb_index;
	struct ap_slot *slots;        /* one per option of the verb, in order */
	const char **operands;
	size_t noperands;
	int help;                     /* -h/--help was asked: print help, exit 0 */
	char *storage;                /* canonical texts (bigint) */
	size_t storage_len, storage_alloc;
};

/* Parse argv[0..argc) (argv[0] is the first argument, not the program
 * name) against 'prog'. Returns 0 with 'res' filled, or -1 with 'err' set:
 * DIAG_E_USAGE, err->msg saying what is wrong (the option, the value, the
 * rule it broke: the range, the choices, the candidates of an ambiguous
 * prefix) and err->id left empty; the offending argument (the long option
 * name, the unknown token itself, "command" for a missing or unknown verb,
 * or the operand metavar for a missing operand) is written to err->path,
 * and the verb that was selected, if any, is in res->verb even on error.
 * When help was asked, 0 is returned with res->help set, no slots, and
 * res->verb the verb to describe, or NULL for the program's help (no verb
 * word given). A flag's value text is "true". */
int ap_parse(const struct ap_program *prog, int argc, char **argv,
	     struct ap_result *res, struct diag *err);

/* Free what 'res' owns. */
void ap_result_release(struct ap_result *res);

/* The help text of the program (verb == NULL) or of one verb. */
void ap_help(const struct ap_program *prog, const struct ap_verb *verb,
	     struct sbuf *out);

/* The one-line synopsis of a verb, without a newline
 * ("usage: pue-ladder gate [-h] --density KW ..."). */
void ap_synopsis(const struct ap_program *prog, const struct ap_verb *verb,
		 struct sbuf *out);

/* Find the last "--format VALUE" / "--format=VALUE" before "--" (and, when
 * 'prefixes' is non-zero, a unique prefix of --format of at least three
 * characters) so that usage errors found later can be written as JSON
 * (spec/core.md 2.6 item 5). Returns the value or NULL. */
const char *ap_scan_format(int argc, char **argv, int prefixes);

#endif
