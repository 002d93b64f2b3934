/*
 * sb_pool.h: the small-block pool under a sandbox's Lua allocator. Lua
 * allocates and frees short strings, small tables, closures and upvalues
 * by the thousand while it compiles a pack and runs its rules; glibc's
 * realloc and free cost several times what a size-class free list does,
 * and that was a tenth of a one-verb run. Blocks of up to SB_POOL_MAX_BLOCK
 * bytes come from the pool, larger ones from malloc; a block's size class
 * (which Lua always passes back) says which, so no header is needed.
 */
#ifndef INFRAGATE_LUA_SB_POOL_H
#define INFRAGATE_LUA_SB_POOL_H

#include <stddef.h>

#define SB_POOL_MAX_BLOCK 256
#define SB_POOL_CLASSES (SB_POOL_MAX_BLOCK / 16)

struct sb_pool {
	void *free[SB_POOL_CLASSES]; /* freed blocks of each 16-byte class */
	char *bump, *end;            /* the newest chunk's untouched tail */
	void *chunks;                /* every chunk, linked by its first word */
	size_t bytes;                /* chunk bytes taken from malloc */
	size_t max;                  /* no new chunk past this (growth only) */
};

/* 'max' bounds the chunk bytes for new blocks (the sandbox's memory cap:
 * freed blocks of one class are not reused for another, so hostile code
 * that cycles through sizes meets "not enough memory" rather than growing
 * without end). */
void sb_pool_init(struct sb_pool *pl, size_t max);

/* Every chunk back to malloc; the pool is empty and reusable after. */
void sb_pool_release(struct sb_pool *pl);

/* A block of n (1..SB_POOL_MAX_BLOCK) bytes, 16-byte aligned, or NULL.
 * 'shrinking' set: the caller may not fail (Lua assumes a shrinking
 * realloc succeeds), so 'max' is not applied. */
void *sb_pool_get(struct sb_pool *pl, size_t n, int shrinking);

/* Give back a block of the size it was got with. */
void sb_pool_put(struct sb_pool *pl, void *p, size_t n);

#endif
