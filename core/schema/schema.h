/*
 * schema.h: YAML schemas (spec/core.md 7). A schema file is compiled once,
 * when its pack loads, into a tree of checks with compiled regexes; a
 * document is then validated in one pre-order walk that reports every
 * violation as a finding with position, pointer and figures. Validation is
 * linear in the size of the document (uniqueItems hashes) and every pattern
 * match runs under the regex limits.
 *
 * Ownership: a struct schema owns everything it compiled (its regexes
 * included) and is freed by schema_free(); it keeps no pointer into the
 * document it was compiled from.
 */
#ifndef INFRAGATE_SCHEMA_SCHEMA_H
#define INFRAGATE_SCHEMA_SCHEMA_H

#include <stddef.h>

#include "core/doc/doc.h"
#include "core/re/re.h"
#include "core/util/diag.h"

/* What the compiler asks of its caller. */
struct schema_env {
	/* Whether finding id 'id' may be named by a `findings`/`finding` map:
	 * an input.* id, or one the owning pack declares. Sets *check_stage
	 * when the pack declared it with stage = "check" (its violations are
	 * then failures, not input errors). NULL: only input.* ids. */
	int (*id_known)(void *ud, const char *id, int *check_stage);
	/* Load the root of a sibling schema file named in a $ref
	 * ("other.yaml"), with its display path for messages. The caller owns
	 * the document; it must live as long as compilation runs. NULL: refs
	 * to other files are refused. */
	int (*load_sibling)(void *ud, const char *file, const struct node **root,
			    const char **display, struct diag *err);
	void *ud;
	const struct re_alloc *re_alloc; /* NULL: malloc */
};

struct schema;

/* Compile the schema whose root is 'root' (a mapping), read from 'display'
 * (a path for messages). The routing keys of spec/core.md 5.2 (pack,
 * api_version, default, detect, kind_value) and `findings`/`$defs` at the
 * root are understood and not treated as keywords. Returns the schema, or
 * NULL with 'err' set: DIAG_E_PACK at the offending key's line:column for an
 * unknown keyword, a keyword of the wrong type, a pattern that does not
 * compile (with its offset), an unresolvable or cyclic $ref, or a finding id
 * that 'env' does not know. */
struct schema *schema_compile(const struct node *root, const char *display,
			      const struct schema_env *env, struct diag *err);

/* Free a compiled schema (NULL is fine). */
void schema_free(struct schema *s);

/* Validate the document rooted at 'root' (document index 'document') and
 * append one finding per violation to 'out', in the order of spec/core.md
 * 7.4, with `figures` {keyword, limit, value}. Findings of ids mapped to a
 * check-stage id are added without FINDING_UNUSABLE; all carry
 * FINDING_SCHEMA. Returns the number of findings added, or -1 with 'err'
 * set to DIAG_E_BUDGET when a regex limit was hit (the findings added so
 * far stay). */
long schema_validate(const struct schema *s, const struct node *root,
		     int document, const struct re_limits *lim,
		     struct findings *out, struct diag *err);

/* Whether 'root' satisfies the schema, without findings (routing by
 * `detect`). Returns 1, 0, or -1 when a regex limit was hit. */
int schema_accepts(const struct schema *s, const struct node *root,
		   const struct re_limits *lim);

#endif
