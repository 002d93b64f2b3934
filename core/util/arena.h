/*
 * arena.h: bump allocation with a byte cap. Everything a document or a run
 * owns comes from one arena and is freed at once by arena_release(); a hostile
 * input that wants more than the cap gets NULL, never the OOM killer.
 */
#ifndef INFRAGATE_UTIL_ARENA_H
#define INFRAGATE_UTIL_ARENA_H

#include <stddef.h>

struct arena_chunk;

struct arena {
	struct arena_chunk *head; /* newest chunk first */
	size_t cap;               /* most bytes the arena may take; 0 = no cap */
	size_t used;              /* bytes taken from malloc, chunk headers included */
	int failed;               /* set once an allocation was refused */
	long fail_at;             /* tests: refuse the fail_at-th chunk (1-based); 0 = never */
};

/* Set up an empty arena that will hold at most 'cap' bytes (0: no cap). No
 * allocation happens until the first arena_alloc(). */
void arena_init(struct arena *a, size_t cap);

/* Free every chunk; the arena is empty and usable again, with the same cap. */
void arena_release(struct arena *a);

/* Return 'n' bytes aligned for any type, or NULL when the cap would be passed
 * (a->failed is then set). The memory lives until arena_release(). */
void *arena_alloc(struct arena *a, size_t n);

/* As arena_alloc(), zero-filled, for 'count' elements of 'size' bytes; NULL on
 * overflow of count * size as well. */
void *arena_calloc(struct arena *a, size_t count, size_t size);

/* Copy 'len' bytes of 's' and a terminating NUL into the arena. */
char *arena_strndup(struct arena *a, const char *s, size_t len);

/* Copy the NUL-terminated 's' into the arena. */
char *arena_strdup(struct arena *a, const char *s);

/* Grow an array held in the arena: return a copy of 'old' ('count' elements of
 * 'size' bytes) with room for 'newcount' elements. The old block is not
 * reclaimed (arenas never free singly); callers double capacities. */
void *arena_grow(struct arena *a, void *old, size_t count, size_t newcount,
		 size_t size);

#endif
