/*
 * doc.h: the document model. A document is a tree of typed nodes (the value
 * types of spec/yaml.md 1.1) with 1-based positions; nodes, strings and
 * arrays are owned by the document's arena and live until doc_release().
 * Nothing here allocates outside that arena, except struct findings, which
 * owns its own arena. Aliases share nodes: a node may have several parents,
 * so walkers keep their own path and never write into nodes.
 *
 * This header also defines the finding (spec/core.md 8.1), because the
 * schema checker, the Lua layer and the engine all produce them and the
 * document is what they point into.
 */
#ifndef INFRAGATE_DOC_DOC_H
#define INFRAGATE_DOC_DOC_H

#include <stddef.h>
#include <stdint.h>

#include "core/util/arena.h"
#include "core/util/diag.h"
#include "core/util/sbuf.h"

enum node_type {
	NODE_NULL,
	NODE_BOOL,
	NODE_INT,
	NODE_FLOAT,
	NODE_STR,
	NODE_DATE,
	NODE_DATETIME,
	NODE_LIST,
	NODE_MAP,
	NODE_BIGINT, /* an integer outside int64, kept as canonical decimal text */
	NODE_NTYPES
};

/* Scalar styles, kept for messages and for the suppression scanner. */
enum node_style {
	STYLE_NONE,  /* collections, and nodes built from JSON or Lua */
	STYLE_PLAIN,
	STYLE_QUOTED,
	STYLE_BLOCK,
	STYLE_FLOW   /* a flow collection */
};

struct doc_time {
	int16_t year;
	int8_t month, day, hour, minute, second;
	int8_t has_offset; /* 0: naive datetime, or a date */
	int32_t usec;
	int16_t offset;    /* minutes east of UTC when has_offset */
};

struct node;

struct doc_pair {
	struct node *key;
	struct node *value;
};

struct node {
	uint8_t type;  /* enum node_type */
	uint8_t style; /* enum node_style */
	uint8_t merged; /* map: built with merge keys */
	/* 1-based; 0 = no position (nodes built from Lua tables). */
	uint32_t line, col, end_line, end_col;
	union {
		int b;
		int64_t i;
		double f;
		struct {
			const char *s; /* NUL-terminated, may hold NULs (JSON) */
			size_t len;
		} str; /* NODE_STR and NODE_BIGINT */
		struct doc_time t;
		struct {
			struct node **items;
			size_t n;
		} list;
		struct {
			struct doc_pair *pairs;
			size_t n;
		} map;
	} v;
};

struct doc {
	struct arena arena;
	struct node *root;
	int index;      /* document index in its stream, 0-based */
	size_t nodes;   /* nodes as written */
	uint32_t start_line; /* where the document starts in the file */
};

/* Set up an empty document whose arena holds at most 'cap' bytes (0: no cap). */
void doc_init(struct doc *d, size_t cap);

/* Free every node of the document. */
void doc_release(struct doc *d);

/* Allocate a node of 'type' in the document, zeroed, with no position.
 * Returns NULL when the arena cap is reached. */
struct node *doc_new(struct doc *d, enum node_type type);

/* A string node holding a copy of s[0..len). */
struct node *doc_new_str(struct doc *d, const char *s, size_t len);

/* The name of a type as spec/core.md 5.6 spells it: "null", "int", ... */
const char *doc_type_name(enum node_type t);

/* The name of a type as a schema's 'type' keyword spells it: "integer",
 * "number", "string", "array", "object", "boolean", "null", "date". */
const char *doc_schema_type_name(enum node_type t);

/* The value of string key 'key' in mapping 'map', or NULL when absent or
 * when 'map' is not a mapping. Only string keys match (spec/yaml.md 5.4). */
struct node *doc_get(const struct node *map, const char *key);
struct node *doc_getn(const struct node *map, const char *key, size_t len);

/* The pair of string key 'key' in 'map', or NULL. */
const struct doc_pair *doc_get_pair(const struct node *map, const char *key,
				    size_t len);

/* Equality as Python's dict sees keys (spec/yaml.md 5.3): bools equal ints,
 * ints equal floats of the same value, every NaN equals every NaN; lists and
 * maps are never keys and compare unequal. */
int doc_key_equal(const struct node *a, const struct node *b);

/* Equality for schema enum/const/uniqueItems (spec/core.md 7.2): numbers by
 * value across int and float, booleans only with booleans, strings exactly,
 * timestamps by value and type, lists item by item, maps by entries. */
int doc_equal(const struct node *a, const struct node *b);

/* Append the JSON Pointer token of a key node to 'sb' (with its leading '/'):
 * strings escaped per RFC 6901, other keys as JSON prints them. */
void doc_pointer_token(struct sbuf *sb, const struct node *key);

/* Append "/" and the RFC 6901 escape of s[0..len) to 'sb'. */
void doc_pointer_add(struct sbuf *sb, const char *s, size_t len);

/* Resolve JSON Pointer 'ptr' below 'root'. Returns the node, or NULL when a
 * step does not exist; *deepest (when given) is then the deepest existing
 * ancestor. Map steps match string keys first, then keys whose pointer token
 * equals the step; list steps are decimal indexes without leading zeros. */
struct node *doc_resolve(struct node *root, const char *ptr,
			 struct node **deepest);

/* Write Python's str() of a timestamp ("2026-01-01 10:00:00+00:00") or, with
 * 'iso', ISO 8601 with a 'T' (JSON). Returns the length written. */
size_t doc_time_text(const struct doc_time *t, int is_datetime, int iso,
		     char *out, size_t size);

/* Compare two timestamps of the same type: <0, 0, >0; 2 when a naive and an
 * aware datetime are compared (unordered). */
int doc_time_cmp(const struct doc_time *a, const struct doc_time *b,
		 int is_datetime);

/* Append 'n' as JSON to 'sb': strings escaped (non-ASCII kept), floats in
 * repr, timestamps in ISO 8601, maps with keys made strings as JSON prints
 * them. Returns 0, or -1 when a float is NaN or infinite (nothing useful is
 * then in 'sb'). */
int doc_json_write(struct sbuf *sb, const struct node *n);

/* Append s[0..len) as a JSON string (quotes included): '"', '\\' and control
 * characters escaped, everything else as is (UTF-8). */
void json_write_str(struct sbuf *sb, const char *s, size_t len);

/* Options of the JSON reader. */
struct doc_json_opts {
	int dup_last_wins;   /* duplicate keys: last value at the first position (Python) */
	int allow_nonfinite; /* NaN, Infinity, -Infinity literals (Python) */
	int lone_surrogates; /* keep lone \uD800 escapes as WTF-8 (Python) */
	size_t max_depth;    /* 0: 512 */
	size_t max_nodes;    /* 0: no limit */
};

/* Parse JSON text (RFC 8259) into d->root, with positions. Integers outside
 * int64 become NODE_BIGINT. Returns 0, or -1 with 'err' set (DIAG_E_YAML for
 * syntax, DIAG_E_ENCODING, DIAG_E_DUPKEY, DIAG_E_LIMIT, DIAG_E_NOMEM). */
int doc_json_parse(struct doc *d, const char *buf, size_t len,
		   const struct doc_json_opts *opts, struct diag *err);

/* ---- findings ---------------------------------------------------------- */

enum severity { SEV_ERROR, SEV_WARNING, SEV_INFO, SEV_NONE };

/* Flags of a finding. */
#define FINDING_UNUSABLE 0x1u /* makes the file unusable (verdict error) */
#define FINDING_SCHEMA   0x2u /* came from a schema (stops evaluation) */

struct finding {
	const char *rule;     /* id */
	enum severity severity;
	const char *message;  /* one line */
	uint32_t line, col, end_line, end_col; /* 0 = none */
	const char *path;     /* JSON Pointer; NULL when the file has no document */
	int document;         /* -1: not in a document */
	const char *figures;  /* JSON object text, or NULL */
	unsigned flags;
	size_t seq;           /* emission order, for stable sorts */
	long order;           /* pack-defined sort key (order = "rule"), else 0 */
	/* Suppression (spec/core.md 8.4): by == NULL when active. */
	const char *supp_by, *supp_reason, *supp_owner, *supp_expires,
		*supp_source;
	const char *waiver;   /* JSON object text of an expired waiver, or NULL */
	const char *file;     /* error entries only: the file at fault */
};

struct findings {
	struct arena arena;   /* strings of every finding */
	struct finding *items;
	size_t n, alloc;
	size_t max;           /* 0 = no limit; past it one engine.truncated */
	int truncated;
	int failed;           /* an allocation failed: the list is incomplete */
};

/* Set up an empty list keeping at most 'max' findings (0: no limit). */
void findings_init(struct findings *fs, size_t max);

/* Free the list and every string it owns. */
void findings_release(struct findings *fs);

/* Add a finding: every string is copied into the list's arena. Past the
 * limit, the first extra finding becomes one engine.truncated warning and
 * later ones are dropped. Returns the stored finding, or NULL when dropped. */
struct finding *findings_add(struct findings *fs, const struct finding *f);

/* Add a finding built from a diag record (input and engine errors). */
struct finding *findings_add_diag(struct findings *fs, const struct diag *d,
				  int document);

/* Copy a string into the list's arena (for fields set after findings_add). */
const char *findings_strdup(struct findings *fs, const char *s);

/* The word of a severity: "error", "warning", "info". */
const char *severity_name(enum severity s);

/* Parse "error"/"warning"/"info"; returns SEV_NONE for anything else. */
enum severity severity_parse(const char *s);

#endif
