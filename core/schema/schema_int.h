/*
 * schema_int.h: what the files of core/schema/ share and nobody else sees.
 * A compiled schema is a graph of struct sch_node, all of it (strings,
 * copied enum/const values, arrays) in the schema's own arena; only the
 * compiled regexes live outside it and are listed for schema_free(). The
 * graph may have cycles only through properties, items,
 * additionalProperties and propertyNames (spec/core.md 7.5), which the
 * compiler proves, so a walk over one document node always ends.
 */
#ifndef INFRAGATE_SCHEMA_SCHEMA_INT_H
#define INFRAGATE_SCHEMA_SCHEMA_INT_H

#include <stddef.h>
#include <stdint.h>

#include "core/doc/doc.h"
#include "core/re/re.h"
#include "core/schema/schema.h"
#include "core/util/arena.h"
#include "core/util/sbuf.h"

/* The finding classes of spec/core.md 7.4, in that order. */
enum sch_class {
	SC_TYPE,
	SC_ENUM,
	SC_CONST,
	SC_RANGE,
	SC_LENGTH,
	SC_PATTERN,
	SC_REQUIRED,
	SC_ADDITIONAL,
	SC_NAMES,
	SC_SIZE,
	SC_UNIQUE,
	SC_CHOICE,
	SC_NCLASSES
};

/* Their names, as `findings`/`finding` maps spell them. */
extern const char *const sch_class_names[SC_NCLASSES];

/* The types a `type` keyword names, as bits. */
enum sch_type_bit {
	ST_BOOLEAN = 1u << 0,
	ST_INTEGER = 1u << 1,
	ST_NUMBER = 1u << 2,
	ST_STRING = 1u << 3,
	ST_ARRAY = 1u << 4,
	ST_OBJECT = 1u << 5,
	ST_DATE = 1u << 6,
	ST_DATETIME = 1u << 7,
	ST_NULL = 1u << 8 /* last: messages say "a string or null" */
};

#define SCH_NTYPES 9

/* Name ("integer") and phrase ("an integer") of type bit number i. */
struct sch_type_name {
	const char *name;
	const char *phrase;
};
extern const struct sch_type_name sch_type_names[SCH_NTYPES];

/* A finding id a class maps to. */
struct sch_id {
	const char *id;
	int check_stage; /* declared with stage = "check": not unusable */
};

/* The id of every class nobody mapped. */
extern const struct sch_id sch_default_id;

/* A numeric bound: minimum, maximum, exclusiveMinimum, exclusiveMaximum. */
enum sch_bound_kind { SB_MIN, SB_MAX, SB_XMIN, SB_XMAX, SB_N };

struct sch_bound {
	unsigned char set, is_int;
	int64_t i;
	double f;
};

struct sch_str {
	const char *s;
	size_t len;
};

struct sch_node;

struct sch_prop {
	struct sch_str name;
	struct sch_node *schema;
};

enum sch_additional { ADD_TRUE, ADD_FALSE, ADD_SCHEMA };

#define SCH_UNSET (-1)

struct sch_node {
	unsigned types;          /* ST_* bits; 0: no `type` keyword */
	const char *type_single; /* `type` when one string (figures) */
	unsigned char infinite, unique, empty_missing, additional;
	const struct node *enum_v;  /* a copied list, or NULL */
	const struct node *const_v; /* a copied value, or NULL */
	struct sch_bound bound[SB_N];
	int64_t min_len, max_len, min_props, max_props, min_items, max_items;
	struct re *re;
	struct sch_str pattern;
	struct sch_prop *props;   /* in schema order (suggestions) */
	struct sch_prop *by_name; /* the same, sorted by name (lookup) */
	size_t nprops;
	struct sch_str *required;
	size_t nrequired;
	struct sch_node *additional_schema, *names, *items, *ref;
	struct sch_node **all, **any, **one;
	size_t nall, nany, none;
	const char *title;
	const struct sch_id *ids[SC_NCLASSES]; /* the node's `finding` */
	/* Compile-time bookkeeping, kept for messages. */
	const struct node *src;
	const char *spath;       /* schema pointer of the node */
	const char *ref_text;
	const char *ref_spath;
	unsigned ref_line, ref_col;
	int file;
	unsigned char mark;
};

struct schema {
	struct arena arena;
	struct sch_node *root;
	const struct sch_id *ids[SC_NCLASSES]; /* the top-level `findings` */
	struct re **res;
	size_t nres, ares;
	struct re_alloc re_alloc; /* a copy: compiled regexes point here */
	int has_re_alloc;
};

/* ---- schema_text.c: words, numbers, hashes ---------------------------- */

/* The ST_* bit a document node counts as ('infinite': +-inf is a number);
 * 0 for NaN, or for +-inf when not 'infinite'. An integer gives
 * ST_INTEGER | ST_NUMBER. */
unsigned sch_node_types(const struct node *n, int infinite);

/* Append "an integer", "a string or null", "an integer, a string or null"
 * for the bits of 'types'; 'finite' words a number as "a finite number". */
void sch_add_types(struct sbuf *sb, unsigned types, int finite);

/* Append what a node is, for "found ...": "a string", "a float", "inf". */
void sch_add_found(struct sbuf *sb, const struct node *n);

/* Append a value as messages show it: strings in single quotes (cut at 60
 * characters), numbers in repr, true/false/null, collections as JSON. */
void sch_add_value(struct sbuf *sb, const struct node *n);

/* Append text in single quotes, cut at 60 characters. */
void sch_add_quoted(struct sbuf *sb, const char *s, size_t len);

/* Compare a number node (int, bigint, float) with a bound exactly: <0, 0,
 * >0, or 2 when unordered (NaN). */
int sch_num_cmp(const struct node *v, const struct sch_bound *b);

/* Append a bound as written (an int in decimal, a float in repr). */
void sch_add_bound(struct sbuf *sb, const struct sch_bound *b);

/* Edit distance of two byte strings, or 3 when it is more than 2. */
int sch_distance2(const char *a, size_t alen, const char *b, size_t blen);

/* A hash consistent with doc_equal(): equal values hash alike (numbers by
 * value across int and float, maps whatever their order). Recursion is
 * bounded by the loader's depth limit. */
uint64_t sch_hash(const struct node *n);

/* Whether a member value counts as absent under emptyIsMissing. */
int sch_is_empty(const struct node *n);

/* ---- the compiler (schema_compile.c, schema_link.c) -------------------- */

struct sch_file {
	const char *name; /* as a $ref wrote it; NULL for the file compiled */
	const struct node *root;
	const char *display;
};

struct sch_memo {
	const struct node *src;
	struct sch_node *sn;
};

/* A $ref whose target is compiled from the work list. */
struct sch_pending {
	struct sch_node *from;
	const struct node *target;
	const char *spath;
	int file;
};

struct sch_comp {
	struct schema *s;
	const struct schema_env *env;
	struct diag *err;
	struct sbuf spath;       /* schema pointer of what is being compiled */
	int file;                /* index into files[] */
	struct sch_file *files;
	size_t nfiles, afiles;
	struct sch_memo *memo;   /* source node -> compiled node */
	size_t nmemo, amemo;
	struct sch_node **nodes; /* every compiled node, in compile order */
	size_t nnodes, anodes;
	struct sch_pending *work;
	size_t nwork, awork;
};

typedef int (*sch_kw_fn)(struct sch_comp *c, struct sch_node *sn,
			 const struct node *key, const struct node *val,
			 size_t arg);

struct sch_keyword {
	const char *name;
	sch_kw_fn fn;
	size_t arg;
};

/* The keys only a file's top may carry (spec/core.md 5.2, 7.1). */
extern const struct sch_keyword sch_root_keys[];

/* Grow a malloc'd array so that index n fits. Returns 0 or -1. */

/* Set DIAG_E_NOMEM; returns -1. */
int sch_nomem(struct sch_comp *c);

/* Set an engine.pack error at 'at' with the current schema pointer;
 * returns -1. */
int sch_cerr(struct sch_comp *c, const struct node *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "a string", "a mapping": what a schema value is, for compile errors. */
const char *sch_found_word(const struct node *n);

/* A copy of s[0..len) in the schema's arena (NULL: out of memory, set). */
char *sch_cstrdup(struct sch_comp *c, const char *s, size_t len);

/* The name among names[0..n) closest to s within two edits, or NULL. */
const char *sch_closest(const char *s, size_t len, const char *const *names,
			size_t n);

/* Compile the mapping 'src' (memoised by node). NULL with c->err set. */
struct sch_node *sch_compile_node(struct sch_comp *c, const struct node *src);

/* The node compiled from 'src', or NULL; record one (0, or -1: memory). */
struct sch_node *sch_memo_get(struct sch_comp *c, const struct node *src);
int sch_memo_put(struct sch_comp *c, const struct node *src,
		 struct sch_node *sn);

/* Parse a `finding`/`findings` mapping into ids[]. Returns 0 or -1. */
int sch_parse_ids(struct sch_comp *c, const struct node *key,
		  const struct node *val, const struct sch_id **ids);

/* Resolve the $ref 'val' of 'sn' and queue its target. Returns 0 or -1. */
int sch_ref_queue(struct sch_comp *c, struct sch_node *sn,
		  const struct node *key, const struct node *val);

/* The schema of property 'name' of 'sn', or NULL. */
const struct sch_node *sch_prop_find(const struct sch_node *sn,
				     const char *name, size_t len);

/* ---- the walk (schema_validate.c, schema_report.c) ---------------------- */

/* What a walk step returns: go on, stop (probe/capture saw a violation, or
 * the findings limit was reached), or fail (a regex budget, memory). */
enum { V_OK = 0, V_STOP = 1, V_ERR = -1 };

/* emit findings; decide only (choices, schema_accepts); keep the first
 * message only (propertyNames). */
enum { M_EMIT, M_PROBE, M_CAPTURE };

struct sch_vctx {
	const struct schema *s;
	const struct re_limits *lim;
	struct findings *out;
	int document;
	struct diag *err;
	int mode;
	long added;
	struct sbuf path;
	/* Who the messages are about: a key (propertyNames), a member name,
	 * or else the pointer path[0..subj_plen) ("" is the document). */
	const struct node *subj_key;
	const char *subj_name;
	size_t subj_len, subj_plen;
	struct sbuf msg, fig, cap;
	uint32_t *scratch; /* uniqueItems tables, used as a stack */
	size_t nscratch, ascratch;
};

struct sch_subj {
	const struct node *key;
	const char *name;
	size_t len, plen;
};

/* A figure: nothing, a document value (kept only when a scalar), an
 * integer, a bound, a string, a boolean. */
enum sch_fig_kind { SF_NONE, SF_NODE, SF_INT, SF_BOUND, SF_STR, SF_BOOL };

struct sch_fig {
	enum sch_fig_kind kind;
	const struct node *n;
	int64_t i;
	const struct sch_bound *b;
	const char *s;
};

extern const struct sch_fig sch_fig_none;

static inline struct sch_fig sch_fig_node(const struct node *n)
{
	struct sch_fig f = { SF_NODE, n, 0, NULL, NULL };

	return f;
}

static inline struct sch_fig sch_fig_int(int64_t i)
{
	struct sch_fig f = { SF_INT, NULL, i, NULL, NULL };

	return f;
}

static inline struct sch_fig sch_fig_bool(int b)
{
	struct sch_fig f = { SF_BOOL, NULL, b, NULL, NULL };

	return f;
}

void sch_subj_save(const struct sch_vctx *c, struct sch_subj *s);
void sch_subj_restore(struct sch_vctx *c, const struct sch_subj *s);

/* The subject of the next walk: member 'key' (named when a string), or a
 * list item (NULL: by pointer). The path must already hold the child. */
void sch_subj_child(struct sch_vctx *c, const struct node *key);

/* Append the subject: "'size'", "'/tags/1'", "the document", "key 1". */
void sch_add_subject(struct sch_vctx *c, struct sbuf *sb);

/* Append " in <subject>", or nothing at the document's top. */
void sch_add_in(struct sch_vctx *c, struct sbuf *sb);

/* Report the violation whose message is in c->msg at node 'at' with the
 * current path. Returns V_OK, V_STOP (probe, capture, findings limit) or
 * V_ERR (memory). */
int sch_emit(struct sch_vctx *c, const struct sch_node *sn, enum sch_class cls,
	     const char *keyword, const struct node *at,
	     const struct sch_fig *limit, const struct sch_fig *value);

/* Set DIAG_E_NOMEM; returns V_ERR. */
int sch_out_of_memory(struct sch_vctx *c);

/* c->err holds a regex budget error: position it at 'v' with the path and
 * name the pattern. Returns V_ERR. */
int sch_budget(struct sch_vctx *c, const struct sch_node *sn,
	       const struct node *v);

#endif
