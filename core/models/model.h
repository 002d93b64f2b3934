/*
 * model.h: the contract every numeric model fills in. A model is a pure
 * function of numbers to numbers (no Lua, no I/O, no globals) plus a
 * descriptor that names its arguments, units and domains. The one generic
 * Lua binding (core/lua/l_models.c) checks arguments against the domain
 * before calling eval, and `infragate models` prints the same descriptors,
 * so the listing, the checks and the code cannot drift.
 */
#ifndef INFRAGATE_MODELS_MODEL_H
#define INFRAGATE_MODELS_MODEL_H

#include <stddef.h>

#include "core/util/diag.h"

/* Flags of an argument's domain. */
#define MODEL_ARG_INTEGER 0x1u /* must be a whole number */
#define MODEL_ARG_LO_OPEN 0x2u /* lo is exclusive */
#define MODEL_ARG_HI_OPEN 0x4u /* hi is exclusive */
#define MODEL_ARG_INFINITE 0x8u /* +-inf allowed (NaN never) */

struct model_arg {
	const char *name; /* "km": the Lua field name */
	const char *unit; /* "km", shown by `infragate models` */
	double lo, hi;    /* domain bounds; NAN for an open side */
	double dflt;      /* NAN when required */
	unsigned flags;
};

#define MODEL_MAX_ARGS 24
#define MODEL_MAX_OUTS 16

struct model {
	const char *name;        /* "placement.one_way_us": group.name */
	const char *summary;     /* one line, with the result's unit */
	const struct model_arg *args;
	size_t nargs;
	const char *result_unit; /* unit of the (first) result */
	/* Names of the results when there is more than one (the Lua result is
	 * then a table); NULL and 1 for a single number. */
	const char *const *outs;
	size_t nout;
	/* Named formula switches a validation mutation may turn on (the
	 * `variant` argument, spec/core.md 11.2); bit i is switches[i]. */
	const char *const *switches;
	size_t nswitches;
	/* Compute: in[nargs] -> out[nout]. Returns 0, or -1 with 'err' set
	 * (DIAG_E_ERROR) when the inputs have no finite result. */
	int (*eval)(const double *in, double *out, unsigned variant,
		    struct diag *err);
	/* For table-input models: a one-line description of the table; eval is
	 * then NULL and the Lua converter calls the model's own C API. */
	const char *table_input;
};

/* Every model, in the order of models.def. */
extern const struct model *const models_all[];
extern const size_t models_count;

/* The model named 'name', or NULL. */
const struct model *model_find(const char *name);

/* Write the domain of an argument as `infragate models` prints it
 * ("finite, >= 0"). Returns the length. */
size_t model_domain_text(const struct model_arg *a, char *out, size_t size);

/* Check one argument value against its domain: 0, or -1 with 'err' set to
 * "must be >= 0"-style text naming nothing else (the binding adds names). */
int model_check_arg(const struct model_arg *a, double v, struct diag *err);

#endif
