/*
 * yaml.h: the YAML loader. Bytes are decoded (UTF-8, or UTF-16 with a BOM,
 * transcoded), parsed with libyaml's event API, typed exactly as PyYAML's
 * safe loader types them (spec/yaml.md), and built into documents of the
 * model in core/doc. Every limit of spec/core.md 4.5 that concerns input is
 * enforced here, each with its own message and figures; no input makes the
 * loader recurse, loop without bound or allocate past its caps.
 *
 * Ownership: a struct yaml_file owns its decoded text, its documents and its
 * comment list; yaml_file_release() frees all of them.
 */
#ifndef INFRAGATE_YAML_YAML_H
#define INFRAGATE_YAML_YAML_H

#include <stddef.h>
#include <stdint.h>

#include "core/doc/doc.h"
#include "core/util/diag.h"

struct yaml_limits {
	size_t documents;      /* documents in one file */
	size_t depth;          /* nesting depth of collections */
	size_t nodes;          /* nodes of one document as written */
	size_t expanded_nodes; /* nodes with every alias expanded */
	size_t scalar_bytes;   /* bytes of one decoded scalar */
	size_t doc_bytes;      /* arena cap of one document (memory) */
	long fail_at;          /* tests: refuse the fail_at-th arena chunk
				* of the file (1-based); 0 = never */
};

/* Fill 'lim' with the defaults of spec/core.md 4.5. */
void yaml_limits_default(struct yaml_limits *lim);

enum yaml_mode {
	YAML_SINGLE, /* safe_load: zero documents give one null document, two
		      * or more are input.yaml "expected a single document" */
	YAML_STREAM  /* safe_load_all, with spec/yaml.md 6.1's null rules */
};

/* A YAML comment outside every scalar. */
struct yaml_comment {
	uint32_t line, col;     /* of the '#', 1-based, col in code points */
	uint32_t applies_line;  /* the line it annotates: its own line when it
				 * follows content, else the next line that
				 * holds content (0: none) */
	int trailing;           /* it follows content on its line */
	const char *text;       /* after the '#', to the end of the line */
	size_t len;
};

struct yaml_file {
	char *text;                   /* the decoded UTF-8 text, NUL-terminated */
	size_t len;
	struct doc **docs;            /* each owns its arena */
	size_t ndocs;
	struct yaml_comment *comments;
	size_t ncomments;
	int had_bom;
};

/* Set up an empty file record. */
void yaml_file_init(struct yaml_file *f);

/* Free the text, every document and the comments. */
void yaml_file_release(struct yaml_file *f);

/* Load buf[0..len) in 'mode' under 'lim'. Returns 0 with f->docs filled, or
 * -1 with 'err' set to the first problem with its position and pointer:
 * DIAG_E_ENCODING, DIAG_E_YAML, DIAG_E_LIMIT (err->limit names the limit),
 * DIAG_E_DUPKEY, DIAG_E_TYPE, DIAG_E_NOMEM. On failure f holds no
 * documents. Comments are collected only when 'comments' is non-zero. */
int yaml_load(struct yaml_file *f, const char *buf, size_t len,
	      enum yaml_mode mode, const struct yaml_limits *lim, int comments,
	      struct diag *err);

/* The implicit tag of a plain scalar (spec/yaml.md 2.2), for tests and the
 * schema layer: one of "null", "bool", "int", "float", "timestamp",
 * "merge", "value", "str". */
const char *yaml_resolve_plain(const char *s, size_t len);

/* libyaml's version text ("0.2.5"). */
const char *yaml_library_version(void);

#endif
