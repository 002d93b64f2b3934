/*
 * models.c: the registry of models, built from models.def, and the domain
 * checks shared by the Lua binding and the listing.
 */
#include "core/models/model.h"

#include "core/util/num.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MODEL(n) extern const struct model model_##n;
#define MODEL_TABLE(n) extern const struct model model_##n;
#include "core/models/models.def"
#undef MODEL
#undef MODEL_TABLE

const struct model *const models_all[] = {
#define MODEL(n) &model_##n,
#define MODEL_TABLE(n) &model_##n,
#include "core/models/models.def"
#undef MODEL
#undef MODEL_TABLE
	NULL
};

const size_t models_count = sizeof models_all / sizeof models_all[0] - 1;

const struct model *model_find(const char *name)
{
	size_t i;

	for (i = 0; i < models_count; i++)
		if (strcmp(models_all[i]->name, name) == 0)
			return models_all[i];
	return NULL;
}

/* A bound as people write it: "0", "4.9", "1e-06". */
static const char *bound_text(double v, char buf[NUM_REPR_MAX])
{
	size_t n;

	if (v == floor(v) && fabs(v) < 1e15) {
		snprintf(buf, NUM_REPR_MAX, "%.0f", v);
		return buf;
	}
	n = num_repr(v, buf);
	(void)n;
	return buf;
}

size_t model_domain_text(const struct model_arg *a, char *out, size_t size)
{
	char b[NUM_REPR_MAX];
	int n = snprintf(out, size, "%s", a->flags & MODEL_ARG_INFINITE ? "not NaN" : "finite");

	if (n < 0)
		return 0;
	if (a->flags & MODEL_ARG_INTEGER)
		n += snprintf(out + n, size > (size_t)n ? size - (size_t)n : 0,
			      ", integer");
	if (!isnan(a->lo))
		n += snprintf(out + n, size > (size_t)n ? size - (size_t)n : 0,
			      ", %s %s", a->flags & MODEL_ARG_LO_OPEN ? ">" : ">=",
			      bound_text(a->lo, b));
	if (!isnan(a->hi))
		n += snprintf(out + n, size > (size_t)n ? size - (size_t)n : 0,
			      ", %s %s", a->flags & MODEL_ARG_HI_OPEN ? "<" : "<=",
			      bound_text(a->hi, b));
	return (size_t)n;
}

int model_check_arg(const struct model_arg *a, double v, struct diag *err)
{
	char b[NUM_REPR_MAX];

	if (isnan(v) || (isinf(v) && !(a->flags & MODEL_ARG_INFINITE))) {
		diag_set(err, DIAG_E_ERROR, 0, 0, "must be a finite number");
		return -1;
	}
	if ((a->flags & MODEL_ARG_INTEGER) && v != floor(v)) {
		diag_set(err, DIAG_E_ERROR, 0, 0, "must be a whole number");
		return -1;
	}
	if (!isnan(a->lo) && ((a->flags & MODEL_ARG_LO_OPEN) ? !(v > a->lo) : !(v >= a->lo))) {
		diag_set(err, DIAG_E_ERROR, 0, 0, "must be %s %s",
			 a->flags & MODEL_ARG_LO_OPEN ? ">" : ">=",
			 bound_text(a->lo, b));
		return -1;
	}
	if (!isnan(a->hi) && ((a->flags & MODEL_ARG_HI_OPEN) ? !(v < a->hi) : !(v <= a->hi))) {
		diag_set(err, DIAG_E_ERROR, 0, 0, "must be %s %s",
			 a->flags & MODEL_ARG_HI_OPEN ? "<" : "<=",
			 bound_text(a->hi, b));
		return -1;
	}
	return 0;
}
