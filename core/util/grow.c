/*
 * grow.c: geometric growth, so n appends cost O(n) copies in all.
 */
#include "core/util/grow.h"

#include <stdint.h>
#include <stdlib.h>

int grow_array(void *pp, size_t *alloc, size_t need, size_t size)
{
	void **p = pp;
	size_t na = *alloc ? *alloc : 16;
	void *v;

	if (need <= *alloc)
		return 0;
	while (na < need) {
		if (na > SIZE_MAX / 2 / size)
			return -1;
		na *= 2;
	}
	if (na > SIZE_MAX / size)
		return -1;
	v = realloc(*p, na * size);
	if (!v)
		return -1;
	*p = v;
	*alloc = na;
	return 0;
}
