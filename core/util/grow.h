/*
 * grow.h: the one growable-array helper for malloc'd scratch arrays (the
 * YAML loader's stacks, the JSON reader's, the schema compiler's), which
 * outlive any one arena.
 */
#ifndef INFRAGATE_UTIL_GROW_H
#define INFRAGATE_UTIL_GROW_H

#include <stddef.h>

/*
 * Makes the array at *(T **)pp hold at least 'need' elements of 'size'
 * bytes, doubling from 16; *alloc is its capacity in elements. Returns 0, or
 * -1 (the array unchanged) when memory runs out or the size would overflow.
 */
int grow_array(void *pp, size_t *alloc, size_t need, size_t size);

#endif
