/*
 * options.h: reading parse results of the native verb tables; private to
 * core/engine.
 */
#ifndef INFRAGATE_ENGINE_OPTIONS_H
#define INFRAGATE_ENGINE_OPTIONS_H

#include <stdint.h>
#include <stdlib.h>

#include "core/engine/eng_internal.h"

/* The slot of option 'name' ("--format") of the parsed verb, or NULL. */
const struct ap_slot *opt_slot(const struct ap_result *res, const char *name);

/* The last value's text of an option, or NULL when not given and without
 * a default. */
const char *opt_text(const struct ap_result *res, const char *name);

/* Whether a flag was given. */
int opt_flag(const struct ap_result *res, const char *name);

/* Every value of a repeatable option, as a malloc'd array of pointers into
 * 'res' (free it with opt_free_list); NULL and 0 when not given. */
const char **opt_all(const struct ap_result *res, const char *name, size_t *n);

static inline void opt_free_list(const char *const *v)
{
	free((void *)(uintptr_t)v);
}

/* Fill lint options from a parse of engine_lint_program. */
int lint_opts_from(struct lint_opts *lo, const struct ap_result *res);

/* Free what lint_opts_from() allocated. */
void lint_opts_free(struct lint_opts *lo);

#endif
