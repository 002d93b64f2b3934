/*
 * sbuf.c: growable text buffer. Appends never fail loudly; they mark the
 * buffer failed so that one check at the end covers every step.
 */
#include "core/util/sbuf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sbuf_init(struct sbuf *sb)
{
	sb->buf = NULL;
	sb->len = 0;
	sb->alloc = 0;
	sb->cap = 0;
	sb->failed = 0;
}

void sbuf_release(struct sbuf *sb)
{
	size_t cap = sb->cap;

	free(sb->buf);
	sbuf_init(sb);
	sb->cap = cap;
}

void sbuf_reset(struct sbuf *sb)
{
	sb->len = 0;
	sb->failed = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

static int sbuf_reserve(struct sbuf *sb, size_t extra)
{
	size_t want, n;
	char *p;

	if (sb->failed)
		return -1;
	if (extra > SIZE_MAX - sb->len - 1 ||
	    (sb->cap && sb->len + extra > sb->cap)) {
		sb->failed = 1;
		return -1;
	}
	want = sb->len + extra + 1;
	if (want <= sb->alloc && sb->buf)
		return 0;
	n = sb->alloc ? sb->alloc : 64;
	while (n < want)
		n = n > SIZE_MAX / 2 ? want : n * 2;
	p = realloc(sb->buf, n);
	if (!p) {
		sb->failed = 1;
		return -1;
	}
	sb->buf = p;
	sb->alloc = n;
	return 0;
}

void sbuf_add(struct sbuf *sb, const void *data, size_t len)
{
	if (sbuf_reserve(sb, len) < 0)
		return;
	if (len)
		memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void sbuf_adds(struct sbuf *sb, const char *s)
{
	sbuf_add(sb, s, strlen(s));
}

void sbuf_addc(struct sbuf *sb, char c)
{
	sbuf_add(sb, &c, 1);
}

void sbuf_addu(struct sbuf *sb, unsigned long long v)
{
	char digits[24];
	size_t n = sizeof digits;

	do {
		digits[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	sbuf_add(sb, digits + n, sizeof digits - n);
}

void sbuf_vaddf(struct sbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	if (sb->failed)
		return;
	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0 || sbuf_reserve(sb, (size_t)n) < 0) {
		sb->failed = 1;
		return;
	}
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void sbuf_addf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

const char *sbuf_cstr(struct sbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

char *sbuf_detach(struct sbuf *sb, size_t *len)
{
	char *p;

	if (sb->failed) {
		sbuf_release(sb);
		return NULL;
	}
	if (!sb->buf) {
		if (sbuf_reserve(sb, 0) < 0)
			return NULL;
		sb->buf[0] = '\0';
	}
	p = sb->buf;
	if (len)
		*len = sb->len;
	sb->buf = NULL;
	sb->len = 0;
	sb->alloc = 0;
	return p;
}

void sbuf_truncate(struct sbuf *sb, size_t len)
{
	if (len < sb->len) {
		sb->len = len;
		sb->buf[len] = '\0';
	}
}
