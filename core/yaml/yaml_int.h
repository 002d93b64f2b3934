/*
 * yaml_int.h: what the files of core/yaml share. yaml_decode.c turns bytes
 * into checked UTF-8, yaml_resolve.c types scalars (the implicit resolvers
 * and the constructors of spec/yaml.md 2-3), yaml_comments.c finds the
 * comments, yaml.c drives libyaml and builds the documents. Private to
 * core/yaml: nothing else includes this header.
 */
#ifndef INFRAGATE_YAML_YAML_INT_H
#define INFRAGATE_YAML_YAML_INT_H

#include <locale.h>
#include <stddef.h>
#include <stdint.h>

#include <yaml.h>

#include "core/yaml/yaml.h"

/* Defensive checks that name themselves (STYLE.md 5): true when the
 * condition believed impossible holds. */
#ifdef NDEBUG
#define NEVER(x) (x)
#else
#include <assert.h>
#define NEVER(x) ((x) ? (assert(!#x), 1) : 0)
#endif

/* ---- yaml_decode.c ---------------------------------------------------- */

/* Decode buf[0..len) into UTF-8 text: a UTF-8 BOM is dropped, UTF-16 with a
 * BOM is transcoded, and every character is checked against what YAML
 * allows (spec/yaml.md 8). On success *out is a malloc'd, NUL-terminated
 * copy the caller frees. Returns 0, or -1 with 'err' set: DIAG_E_ENCODING
 * at the offending character's line:column, or DIAG_E_NOMEM. */
int yaml_decode(const char *buf, size_t len, char **out, size_t *outlen,
		int *had_bom, struct diag *err);

/* Advance a 1-based line:column over s[0..len) the way libyaml's marks
 * move: CR, LF, CRLF, NEL, LS and PS end a line, columns count code
 * points. *cr carries a CR seen at the end of a previous piece. */
void yaml_text_advance(const char *s, size_t len, uint32_t *line, uint32_t *col,
		       int *cr);

/* ---- yaml_resolve.c, yaml_construct.c ---------------------------------- */

enum ytag {
	YT_NULL,
	YT_BOOL,
	YT_INT,
	YT_FLOAT,
	YT_TIMESTAMP,
	YT_MERGE,
	YT_VALUE,
	YT_STR,
	YT_BINARY, /* known to PyYAML, refused here: "unsupported tag" */
	YT_SET,
	YT_OMAP,
	YT_PAIRS,
	YT_SEQ,
	YT_MAP,
	YT_UNKNOWN
};

/* The implicit tag of s[0..len) (spec/yaml.md 2.2-2.3): first-character
 * dispatch, patterns tried in PyYAML's order, each matching the whole text
 * or the text less one final '\n' (Python's '$'). */
enum ytag yaml_resolve(const char *s, size_t len);

/* The fields of a timestamp as PyYAML's patterns read them. */
struct yaml_ts {
	int year, month, day;
	int has_time, hour, minute, second;
	int usec; /* the fraction truncated to six digits */
	int zone; /* 0 none, 'Z', or '+' / '-' */
	int tz_hour, tz_minute;
};

/* Whether s[0..n) matches PyYAML's timestamp pattern: the resolver's, or
 * with 'loose' the constructor's (one-digit month and day in the date-only
 * form too). Fills 'f'; validates nothing. */
int yaml_ts_match(const char *s, size_t n, int loose, struct yaml_ts *f);

/* The tag an explicit tag string names ("tag:yaml.org,2002:int"). */
enum ytag yaml_tag_of(const char *tag);

/* The short name of a tag, for messages: "int", "timestamp". */
const char *yaml_tag_name(enum ytag t);

/* Scratch space of one load, reused across scalars so that no scalar
 * costs a malloc: a growable byte buffer and the "C" locale for strtod. */
struct yaml_scratch {
	char *buf;
	size_t alloc;
	locale_t c_locale; /* (locale_t)0 until the first float */
};

void yaml_scratch_release(struct yaml_scratch *sc);

/* Construct a scalar of tag 't' from s[0..len) into 'n' (allocated, type
 * set here); strings are copied into d's arena. Every tag takes PyYAML's
 * constructor exactly, for resolved and explicit tags alike. Returns 0,
 * -1 with a message in msg[0..size) (the value cannot be constructed:
 * input.type), or -2 when memory ran out. */
int yaml_construct(struct doc *d, struct yaml_scratch *sc, struct node *n,
		   enum ytag t, const char *s, size_t len, char *msg,
		   size_t size);

/* Write s[0..len) for a message: at most 'max' bytes, cut at a character
 * boundary, "..." marking a cut, control characters as '?'. */
void yaml_shown(const char *s, size_t len, size_t max, char *out, size_t size);

/* ---- yaml.c, yaml_map.c: the loader ------------------------------------ */

/* Flags kept in node->merged of a scalar used as a key. */
#define YNODE_MERGE_KEY 0x2u /* resolved or tagged merge: '<<' */
#define YNODE_VALUE_KEY 0x4u /* resolved or tagged value: '=' */

struct anchor {
	const char *name; /* in the document's arena */
	struct node *node;
	size_t size; /* nodes of its subtree with aliases expanded */
	int open;    /* its collection has not ended: an alias recurses */
};

struct frame {
	struct node *node;
	size_t base; /* its children start at ld->items[base] */
	size_t size; /* expanded size so far, itself included */
	long anchor; /* index in ld->anchors, or -1 */
};

struct loader {
	yaml_parser_t parser;
	struct yaml_file *f;
	const struct yaml_limits *lim;
	struct diag *err;
	enum yaml_mode mode;
	struct doc *doc;
	size_t docs_alloc, docs_seen;
	long fail_left; /* the arena seam, carried across documents */
	struct frame *frames;
	size_t depth, frames_alloc;
	struct node **items;
	size_t nitems, items_alloc;
	struct anchor *anchors;
	size_t nanchors, anchors_alloc;
	size_t *ahash; /* anchor index + 1; 0 empty */
	size_t ahash_size;
	size_t nodes, expanded;
	/* Mapping scratch: key slots, and per output pair its first
	 * explicit key (NULL while only merged). */
	size_t *kslots;
	size_t kslots_size;
	struct node **kfirst;
	size_t kfirst_alloc;
	struct yaml_span *spans;
	size_t nspans, spans_alloc;
	int want_spans;
	struct yaml_scratch sc;
	/* Constructor-level problems, reported when the document ends. */
	struct diag *pending_type, *pending_dup; /* malloc'd when first used */
	int have_type, have_dup, pending_nomem;
};

/* Errors that stop the load (at the slot being filled), and the one that
 * waits for the document's end (a constructor-level problem: the first of
 * each code is kept; 'upto' frames make its path, then 'key'). */
int yaml_fail(struct loader *ld, enum diag_code code, uint32_t line,
	      uint32_t col, const char *msg);
int yaml_fail_nomem(struct loader *ld, uint32_t line, uint32_t col);
int yaml_fail_malloc(struct loader *ld);
void yaml_defer(struct loader *ld, enum diag_code code, uint32_t line,
		uint32_t col, size_t upto, const struct node *key,
		const char *msg);

/* Grow a malloc'd array to hold 'need' elements (doubling). Returns 0 or
 * -1 (the array is unchanged). */

/* Build the mapping of the top frame from its children (keys and values
 * alternating in ld->items). Returns 0 or -1 with ld->err set. */
int yaml_finish_map(struct loader *ld, struct frame *fr);

/* ---- yaml_comments.c -------------------------------------------------- */

/* A non-plain scalar as the loader saw it: comments inside its text are not
 * comments. Marks are 1-based, columns in code points, end exclusive;
 * start and end are libyaml's character indexes (CRLF counts two). The
 * scalar's own text starts after its properties (tag, anchor). */
struct yaml_span {
	uint32_t line, col, end_line, end_col;
	size_t start, end;
	int block; /* '|' or '>': its content starts on the next line */
};

/* Collect the comments of f->text outside the spans (sorted by start, as
 * the parser reports them) into f->comments. Returns 0, or -1 when memory
 * ran out. */
int yaml_scan_comments(struct yaml_file *f, const struct yaml_span *spans,
		       size_t nspans);

/* Character and word tests shared by the resolver and the constructors. */
static inline int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static inline int is_sign(char c)
{
	return c == '-' || c == '+';
}

static inline int word_is(const char *s, size_t n, const char *w)
{
	return strlen(w) == n && memcmp(s, w, n) == 0;
}

#endif
