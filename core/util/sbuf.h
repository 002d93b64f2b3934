/*
 * sbuf.h: a growable byte buffer for building text (messages, JSON, reports).
 * The buffer owns its memory (malloc); an allocation failure or a pass over
 * the optional cap sets 'failed', after which appends are ignored, so callers
 * check once at the end instead of after every append.
 */
#ifndef INFRAGATE_UTIL_SBUF_H
#define INFRAGATE_UTIL_SBUF_H

#include <stdarg.h>
#include <stddef.h>

struct sbuf {
	char *buf;    /* NUL-terminated when len > 0 or after sbuf_cstr() */
	size_t len;
	size_t alloc;
	size_t cap;   /* most bytes the buffer may hold; 0 = no cap */
	int failed;
};

#define SBUF_INIT { NULL, 0, 0, 0, 0 }

/* Set up an empty buffer with no allocation. */
void sbuf_init(struct sbuf *sb);

/* Free the contents; the buffer is empty and usable again. */
void sbuf_release(struct sbuf *sb);

/* Empty the buffer but keep its memory. */
void sbuf_reset(struct sbuf *sb);

/* Append 'len' bytes. */
void sbuf_add(struct sbuf *sb, const void *data, size_t len);

/* Append a NUL-terminated string. */
void sbuf_adds(struct sbuf *sb, const char *s);

/* Append one byte. */
void sbuf_addc(struct sbuf *sb, char c);

/* Append an unsigned integer in decimal: a list index in a path is built
 * per item of every document, where printf's cost shows. */
void sbuf_addu(struct sbuf *sb, unsigned long long v);

/* Append formatted text. */
void sbuf_addf(struct sbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sbuf_vaddf(struct sbuf *sb, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/* Return the contents as a NUL-terminated string ("" when empty); valid until
 * the next append or release. */
const char *sbuf_cstr(struct sbuf *sb);

/* Hand the malloc'd, NUL-terminated contents to the caller (who frees them)
 * and leave the buffer empty. Returns NULL when the buffer failed. */
char *sbuf_detach(struct sbuf *sb, size_t *len);

/* Drop bytes from the end so that 'len' remain. */
void sbuf_truncate(struct sbuf *sb, size_t len);

#endif
