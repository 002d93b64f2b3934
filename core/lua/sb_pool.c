/*
 * sb_pool.c: see sb_pool.h. Chunks are never returned one by one: a
 * sandbox lives for one run (or one worker of a run), and its pool goes
 * with it.
 */
#include "core/lua/sb_pool.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK_BYTES ((size_t)64 << 10)
#define CHUNK_HEAD 16 /* the link to the next chunk, padded to alignment */

static size_t class_of(size_t n)
{
	return (n - 1) >> 4;
}

void sb_pool_init(struct sb_pool *pl, size_t max)
{
	memset(pl, 0, sizeof *pl);
	pl->max = max;
}

void sb_pool_release(struct sb_pool *pl)
{
	void *c = pl->chunks, *next;

	while (c) {
		memcpy(&next, c, sizeof next);
		free(c);
		c = next;
	}
	sb_pool_init(pl, pl->max);
}

void *sb_pool_get(struct sb_pool *pl, size_t n, int shrinking)
{
	size_t c = class_of(n), size = (c + 1) << 4;
	char *chunk;
	void *p = pl->free[c];

	if (p) {
		memcpy(&pl->free[c], p, sizeof(void *)); /* the block's link */
		return p;
	}
	if ((size_t)(pl->end - pl->bump) < size) {
		if (!shrinking && pl->bytes + CHUNK_BYTES > pl->max)
			return NULL;
		chunk = malloc(CHUNK_BYTES);
		if (!chunk)
			return NULL;
		memcpy(chunk, &pl->chunks, sizeof pl->chunks);
		pl->chunks = chunk;
		pl->bump = chunk + CHUNK_HEAD;
		pl->end = chunk + CHUNK_BYTES;
		pl->bytes += CHUNK_BYTES;
	}
	p = pl->bump;
	pl->bump += size;
	return p;
}

void sb_pool_put(struct sb_pool *pl, void *p, size_t n)
{
	size_t c = class_of(n);

	memcpy(p, &pl->free[c], sizeof pl->free[c]);
	pl->free[c] = p;
}
