/*
 * diag.c: filling error records. Nothing here prints; core/cli does.
 */
#include "core/util/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const diag_ids[DIAG_NCODES] = {
#define DIAG_NAME(name, id) [name] = id,
	DIAG_CODES(DIAG_NAME)
#undef DIAG_NAME
};

void diag_init(struct diag *d)
{
	/* Only the first byte of each text matters; clearing the whole 1.7 KB
	 * per call showed in a lint of many small files. */
	d->code = DIAG_OK;
	d->line = d->col = d->end_line = d->end_col = 0;
	d->path[0] = d->msg[0] = d->limit[0] = d->id[0] = d->file[0] = '\0';
	d->limit_value = -1;
	d->observed = -1;
}

/* Cut a string that vsnprintf truncated back to a whole UTF-8 character and
 * mark the cut with "...". */
static void diag_mark_cut(char *buf, size_t size)
{
	size_t n = size - 1;

	if (size < 8)
		return;
	n -= 3;
	while (n > 0 && ((unsigned char)buf[n] & 0xC0) == 0x80)
		n--;
	memcpy(buf + n, "...", 4);
}

static void diag_vfmt(struct diag *d, const char *fmt, va_list ap)
{
	int n = vsnprintf(d->msg, sizeof d->msg, fmt, ap);

	if (n >= (int)sizeof d->msg)
		diag_mark_cut(d->msg, sizeof d->msg);
}

void diag_set(struct diag *d, enum diag_code code, unsigned line, unsigned col,
	      const char *fmt, ...)
{
	va_list ap;

	d->code = code;
	d->line = line;
	d->col = col;
	va_start(ap, fmt);
	diag_vfmt(d, fmt, ap);
	va_end(ap);
}

void diag_limit(struct diag *d, unsigned line, unsigned col, const char *name,
		long long value, long long observed, const char *fmt, ...)
{
	va_list ap;

	d->code = DIAG_E_LIMIT;
	d->line = line;
	d->col = col;
	diag_copy_text(d->limit, sizeof d->limit, name);
	d->limit_value = value;
	d->observed = observed;
	va_start(ap, fmt);
	diag_vfmt(d, fmt, ap);
	va_end(ap);
}

void diag_set_path(struct diag *d, const char *path)
{
	diag_copy_text(d->path, sizeof d->path, path);
}

const char *diag_code_id(enum diag_code code)
{
	if ((unsigned)code >= DIAG_NCODES)
		return NULL;
	return diag_ids[code];
}

const char *diag_id(const struct diag *d)
{
	if (d->id[0])
		return d->id;
	return diag_code_id(d->code);
}

void diag_copy_text(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);

	if (size == 0)
		return;
	if (n < size) {
		memcpy(dst, src, n + 1);
		return;
	}
	memcpy(dst, src, size - 1);
	dst[size - 1] = '\0';
	diag_mark_cut(dst, size);
}
