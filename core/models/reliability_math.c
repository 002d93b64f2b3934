/*
 * reliability_math.c: the closed forms of spec/reliability.md 5.5 and
 * 5.7 and the spec's rounding. Each expression is evaluated left to right
 * as the spec writes it, so the figures match the reference bit for bit.
 */
#include "core/models/reliability.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int64_t rel_legal_loss(int64_t d, int64_t g)
{
	if (d <= 0 || g < 1)
		return 0;
	return ((d + g - 1) / g) * g;
}

void rel_checkpoint(double w, double m, double r, double c, struct rel_checkpoint *out)
{
	double q = w / (2 * m);

	out->young_h = sqrt((2 * w) * m);
	out->daly_h = w < 2 * m ? sqrt((2 * w) * m) * ((1 + sqrt(q) / 3) + q / 9) - w : m;
	out->young_daly_mr_h = sqrt((2 * w) * (m + r)) - w;
	out->ratio_to_young = c / out->young_h;
	out->overhead = w / c + c / (2 * m);
	out->optimal_overhead = sqrt((2 * w) / m);
	out->overhead_excess = out->overhead / out->optimal_overhead - 1;
}

/* The exact decimal expansion rounded half-even by printf, read back:
 * Python's round(x, n) (5.6). */
double rel_round(double x, int n)
{
	char buf[400];
	double r;

	if (!isfinite(x))
		return x;
	snprintf(buf, sizeof buf, "%.*f", n, x);
	r = strtod(buf, NULL);
	return r == 0 ? 0.0 : r;
}
