/*
 * yaml_int.h: what the files of core/yaml share: decoding, the scalar
 * resolver and constructors, the comment scanner. Private to core/yaml.
 */
#ifndef INFRAGATE_YAML_YAML_INT_H
#define INFRAGATE_YAML_YAML_INT_H

#include <stddef.h>
#include <stdint.h>

#include "core/yaml/yaml.h"

/* Flags kept in node->merged. */
#define YNODE_MERGED    0x1u /* a mapping built with merge keys */
#define YNODE_MERGE_KEY 0x2u /* the plain scalar '<<' used as a key */
#define YNODE_VALUE_KEY 0x4u /* the plain scalar '=' */

/* ---- yaml_text.c ---- */

/* Decode buf into UTF-8 text (BOM dropped, UTF-16 transcoded) and check
 * every character YAML allows. On success *out is a malloc'd,
 * NUL-terminated copy. Returns 0 or -1 with err (DIAG_E_ENCODING at the
 * offending character's line:column). */
int yaml_decode(const char *buf, size_t len, char **out, size_t *outlen,
		int *had_bom, struct diag *err);

/* ---- yaml_typing.c ---- */

enum ytag {
	YT_NULL,
	YT_BOOL,
	YT_INT,
	YT_FLOAT,
	YT_TIMESTAMP,
	YT_MERGE,
	YT_VALUE,
	YT_STR,
	YT_BINARY,  /* refused: unsupported */
	YT_SET,
	YT_OMAP,
	YT_PAIRS,
	YT_SEQ,
	YT_MAP,
	YT_UNKNOWN
};

/* The implicit tag of plain (or '!'-tagged) text, spec/yaml.md 2.2-2.3.
 * 'bang': the text came with the '!' tag (a trailing newline is then
 * allowed, as Python's '$' allows it). */
enum ytag yaml_resolve(const char *s, size_t len, int bang);

/* The tag named by an explicit tag string ("tag:yaml.org,2002:int"). */
enum ytag yaml_tag_of(const char *tag);

/* Construct a scalar of tag 't' from s[0..len) into 'n' (already
 * allocated; type set here). 'explicit_tag': the tag was written out, so
 * Python's looser int()/float() grammar applies (spec/yaml.md 3.2, 3.3).
 * Returns 0 or -1 with a message in 'msg'. */
int yaml_construct(struct doc *d, struct node *n, enum ytag t, const char *s,
		   size_t len, int explicit_tag, char *msg, size_t size);

/* ---- yaml_comments.c ---- */

/* A span of the text that holds a quoted or block scalar: comments inside
 * it are not comments. 1-based lines, code-point columns, end exclusive. */
struct yaml_span {
	uint32_t line, col, end_line, end_col;
};

/* Collect the comments of f->text outside the spans. Returns 0 or -1 on
 * memory failure. */
int yaml_scan_comments(struct yaml_file *f, const struct yaml_span *spans,
		       size_t nspans);

#endif
