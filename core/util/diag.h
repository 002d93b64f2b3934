/*
 * diag.h: one error record, filled by the layer that found the problem and
 * printed only by core/cli. Every code maps to a finding id of spec/core.md 16
 * through a table built with designated initialisers, so a code without a
 * name is a NULL that test_util catches.
 */
#ifndef INFRAGATE_UTIL_DIAG_H
#define INFRAGATE_UTIL_DIAG_H

#include <stddef.h>

#define DIAG_CODES(X)                                   \
	X(DIAG_OK, NULL)                                \
	X(DIAG_E_NOMEM, "input.limit")                  \
	X(DIAG_E_UNREADABLE, "input.unreadable")        \
	X(DIAG_E_ENCODING, "input.encoding")            \
	X(DIAG_E_YAML, "input.yaml")                    \
	X(DIAG_E_LIMIT, "input.limit")                  \
	X(DIAG_E_DUPKEY, "input.duplicate-key")         \
	X(DIAG_E_TYPE, "input.type")                    \
	X(DIAG_E_KIND, "input.kind")                    \
	X(DIAG_E_PACK, "engine.pack")                   \
	X(DIAG_E_REGISTRY, "engine.registry")           \
	X(DIAG_E_BUDGET, "engine.budget")               \
	X(DIAG_E_ERROR, "engine.error")                 \
	X(DIAG_E_OUTPUT, "engine.output")               \
	X(DIAG_E_USAGE, "cli.usage")

enum diag_code {
#define DIAG_ENUM(name, id) name,
	DIAG_CODES(DIAG_ENUM)
#undef DIAG_ENUM
	DIAG_NCODES
};

#define DIAG_MSG_MAX 1024
#define DIAG_PATH_MAX 512
#define DIAG_NAME_MAX 64

struct diag {
	enum diag_code code;
	unsigned line, col;         /* 1-based; 0 = no position */
	unsigned end_line, end_col; /* exclusive end; 0 = unknown */
	char path[DIAG_PATH_MAX];   /* JSON Pointer of the offending node, or "" */
	char msg[DIAG_MSG_MAX];
	/* For limits: which one, its value and what was seen (-1: unknown). */
	char limit[DIAG_NAME_MAX];
	long long limit_value, observed;
	char id[DIAG_NAME_MAX];     /* a finding id overriding the code's, or "" */
	char file[DIAG_PATH_MAX];   /* the file at fault when it is not the one
				     * the caller reads (a pack's data file), or "" */
};

/* Clear 'd' to DIAG_OK with no position. */
void diag_init(struct diag *d);

/* Record a problem. 'line'/'col' are 1-based, 0 for none. */
void diag_set(struct diag *d, enum diag_code code, unsigned line, unsigned col,
	      const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Record a limit problem: the limit's name and value, the observed count. */
void diag_limit(struct diag *d, unsigned line, unsigned col, const char *name,
		long long value, long long observed, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

/* Set the JSON Pointer of the problem. */
void diag_set_path(struct diag *d, const char *path);

/* The finding id of 'd' ("input.yaml"): its override, else its code's. */
const char *diag_id(const struct diag *d);

/* The finding id of a code, or NULL for DIAG_OK. */
const char *diag_code_id(enum diag_code code);

/* Copy 'src' into 'dst' of 'size' bytes, cutting at a UTF-8 character boundary
 * and ending in "..." when it does not fit. */
void diag_copy_text(char *dst, size_t size, const char *src);

#endif
