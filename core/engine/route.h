/*
 * route.h: routing documents to kinds (spec/core.md 4.4); private to
 * core/engine.
 */
#ifndef INFRAGATE_ENGINE_ROUTE_H
#define INFRAGATE_ENGINE_ROUTE_H

#include "core/engine/eng_internal.h"

#define ROUTE_SKIP (-1)   /* no pack claims the document */
#define ROUTE_FAILED (-2) /* an input finding was added */
#define ROUTE_FATAL (-3)  /* a detect schema failed to compile: err set */

struct route_ctx {
	const struct config *cfg;      /* NULL: no configuration */
	const char *relpath;           /* the file relative to the root, or NULL */
	const char *const *selected;   /* selected packs; NULL: all */
	size_t nselected;
	int unrouted_error;
};

/* The kind index of 'doc', or ROUTE_SKIP / ROUTE_FAILED / ROUTE_FATAL.
 * The decision is described in 'why' (for -v). */
long route_document(struct worker *w, const struct route_ctx *rc,
		    const struct doc *doc, struct findings *fs, struct sbuf *why,
		    struct diag *err);

#endif
