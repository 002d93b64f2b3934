/*
 * arena.c: the bump allocator behind documents, findings and runs. It must
 * never hand out more than its cap: every size computation is checked for
 * overflow before it is used.
 */
#include "core/util/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ARENA_MIN_CHUNK 4096u
#define ARENA_ALIGN 16u

struct arena_chunk {
	struct arena_chunk *next;
	size_t size; /* usable bytes after the header */
	size_t off;  /* bytes handed out */
	_Alignas(16) unsigned char data[];
};

void arena_init(struct arena *a, size_t cap)
{
	a->head = NULL;
	a->cap = cap;
	a->used = 0;
	a->failed = 0;
	a->fail_at = 0;
}

void arena_release(struct arena *a)
{
	struct arena_chunk *c = a->head;

	while (c) {
		struct arena_chunk *next = c->next;
		free(c);
		c = next;
	}
	a->head = NULL;
	a->used = 0;
	a->failed = 0;
}

static struct arena_chunk *arena_new_chunk(struct arena *a, size_t need)
{
	size_t size = need < ARENA_MIN_CHUNK ? ARENA_MIN_CHUNK : need;
	struct arena_chunk *c;

	/* Later chunks double, so a big document costs few mallocs. */
	if (a->head && a->head->size * 2 > size && a->head->size <= SIZE_MAX / 4)
		size = a->head->size * 2;
	if (a->cap && (a->used > a->cap || size + sizeof *c > a->cap - a->used)) {
		/* Fall back to exactly what is needed before refusing. */
		size = need;
		if (a->used > a->cap || size + sizeof *c > a->cap - a->used)
			return NULL;
	}
	/* The allocation-failure seam: tests fail the N-th chunk in turn. */
	if (a->fail_at > 0 && --a->fail_at == 0)
		return NULL;
	c = malloc(sizeof *c + size);
	if (!c)
		return NULL;
	c->next = a->head;
	c->size = size;
	c->off = 0;
	a->head = c;
	a->used += sizeof *c + size;
	return c;
}

void *arena_alloc(struct arena *a, size_t n)
{
	struct arena_chunk *c = a->head;
	size_t off;

	if (n == 0)
		n = 1;
	if (n > SIZE_MAX - ARENA_ALIGN - sizeof(struct arena_chunk)) {
		a->failed = 1;
		return NULL;
	}
	n = (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	if (c) {
		off = c->off;
		if (c->size - off >= n) {
			c->off = off + n;
			return c->data + off;
		}
	}
	c = arena_new_chunk(a, n);
	if (!c) {
		a->failed = 1;
		return NULL;
	}
	c->off = n;
	return c->data;
}

void *arena_calloc(struct arena *a, size_t count, size_t size)
{
	void *p;

	if (size && count > SIZE_MAX / size) {
		a->failed = 1;
		return NULL;
	}
	p = arena_alloc(a, count * size);
	if (p)
		memset(p, 0, count * size);
	return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t len)
{
	char *p;

	if (len == SIZE_MAX) {
		a->failed = 1;
		return NULL;
	}
	p = arena_alloc(a, len + 1);
	if (!p)
		return NULL;
	if (len)
		memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *arena_strdup(struct arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

void *arena_grow(struct arena *a, void *old, size_t count, size_t newcount,
		 size_t size)
{
	void *p;

	if (newcount < count || (size && newcount > SIZE_MAX / size)) {
		a->failed = 1;
		return NULL;
	}
	p = arena_alloc(a, newcount * size);
	if (p && count)
		memcpy(p, old, count * size);
	return p;
}
