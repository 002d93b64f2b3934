/*
 * yaml_decode.c: bytes to the text libyaml reads (spec/yaml.md 8). UTF-8
 * with or without a BOM is taken as is, UTF-16 with a BOM is transcoded to
 * UTF-8 first so that columns, comments and positions all work on one
 * encoding, and every character is checked against YAML's printable set
 * before the parser sees it. A problem is input.encoding at the offending
 * character's line:column, counted the way libyaml's marks count. This
 * file must not guess encodings: UTF-32 and BOM-less UTF-16 are refused.
 */
#include "core/yaml/yaml_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util/utf8.h"

/* YAML 1.1's printable set (what libyaml and PyYAML's reader accept). */
static int yaml_printable(uint32_t c)
{
	return c == 0x09 || c == 0x0A || c == 0x0D ||
	       (c >= 0x20 && c <= 0x7E) || c == 0x85 ||
	       (c >= 0xA0 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) ||
	       (c >= 0x10000 && c <= 0x10FFFF);
}

void yaml_text_advance(const char *s, size_t len, uint32_t *line, uint32_t *col,
		       int *cr)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = p[i];

		if (c == '\n') {
			if (!*cr) {
				(*line)++;
				*col = 1;
			}
			*cr = 0;
			continue;
		}
		*cr = 0;
		if (c == '\r') {
			(*line)++;
			*col = 1;
			*cr = 1;
		} else if (c == 0xC2 && i + 1 < len && p[i + 1] == 0x85) {
			(*line)++; /* NEL */
			*col = 1;
			i++;
		} else if (c == 0xE2 && i + 2 < len && p[i + 1] == 0x80 &&
			   (p[i + 2] == 0xA8 || p[i + 2] == 0xA9)) {
			(*line)++; /* LS, PS */
			*col = 1;
			i += 2;
		} else if ((c & 0xC0) != 0x80) {
			(*col)++;
		}
	}
}

static int decode_fail(struct diag *err, const char *text, size_t at,
		       const char *msg)
{
	uint32_t line = 1, col = 1;
	int cr = 0;

	yaml_text_advance(text, at, &line, &col, &cr);
	diag_set(err, DIAG_E_ENCODING, line, col, "%s", msg);
	return -1;
}

/* A NUL's message: name the likely encoding when the bytes look like
 * UTF-16 or UTF-32 without a byte-order mark. */
static const char *nul_message(const unsigned char *p, size_t len)
{
	if (len >= 4 && ((p[0] == 0 && p[1] == 0 && p[2] == 0 && p[3]) ||
			 (p[0] && p[1] == 0 && p[2] == 0 && p[3] == 0)))
		return "a NUL byte: this looks like UTF-32 text, which is not "
		       "read (UTF-8, or UTF-16 with a byte-order mark)";
	if (len >= 2 && ((p[0] == 0 && p[1]) || (p[0] && p[1] == 0)))
		return "a NUL byte: this looks like UTF-16 text without a "
		       "byte-order mark, which is not read";
	return "a NUL byte: the file is not text";
}

/* Check UTF-8 text: well-formed and printable. */
static int check_text(const char *s, size_t len, struct diag *err)
{
	const unsigned char *p = (const unsigned char *)s;
	char msg[96];
	size_t i = 0;

	while (i < len) {
		uint32_t c = p[i];
		size_t n = 1;

		if (c >= 0x20 && c < 0x7F) {
			i++;
			continue;
		}
		if (c >= 0x80) {
			n = utf8_decode(p + i, len - i, &c);
			if (n == 0) {
				snprintf(msg, sizeof msg,
					 "invalid UTF-8: byte 0x%02X does not "
					 "begin a well-formed character",
					 p[i]);
				return decode_fail(err, s, i, msg);
			}
		}
		if (c == 0)
			return decode_fail(err, s, i, nul_message(p, len));
		if (!yaml_printable(c)) {
			snprintf(msg, sizeof msg,
				 "character U+%04X is not allowed in YAML text",
				 (unsigned)c);
			return decode_fail(err, s, i, msg);
		}
		i += n;
	}
	return 0;
}

static uint32_t unit16(const unsigned char *p, int big)
{
	return big ? (uint32_t)(p[0] << 8 | p[1])
		   : (uint32_t)(p[1] << 8 | p[0]);
}

/* Transcode UTF-16 (after its BOM) to UTF-8. */
static int from_utf16(const unsigned char *p, size_t len, int big, char **out,
		      size_t *outlen, struct diag *err)
{
	size_t i, o = 0;
	char *buf;

	/* Each unit becomes at most 3 bytes; a pair of units 4. */
	if (len / 2 > (SIZE_MAX - 1) / 3) {
		diag_set(err, DIAG_E_NOMEM, 0, 0, "the text is too large");
		return -1;
	}
	buf = malloc(len / 2 * 3 + 1);
	if (!buf) {
		diag_set(err, DIAG_E_NOMEM, 0, 0,
			 "out of memory transcoding UTF-16");
		return -1;
	}
	for (i = 0; i + 1 < len; i += 2) {
		uint32_t u = unit16(p + i, big);

		if (u >= 0xD800 && u <= 0xDBFF && i + 3 < len &&
		    unit16(p + i + 2, big) >= 0xDC00 &&
		    unit16(p + i + 2, big) <= 0xDFFF) {
			u = 0x10000 + ((u - 0xD800) << 10) +
			    (unit16(p + i + 2, big) - 0xDC00);
			i += 2;
		} else if (u >= 0xD800 && u <= 0xDFFF) {
			char msg[64];

			snprintf(msg, sizeof msg,
				 "invalid UTF-16: a lone surrogate 0x%04X",
				 (unsigned)u);
			decode_fail(err, buf, o, msg);
			free(buf);
			return -1;
		}
		o += utf8_encode(u, buf + o);
	}
	if (len % 2) {
		decode_fail(err, buf, o,
			    "invalid UTF-16: an odd number of bytes");
		free(buf);
		return -1;
	}
	buf[o] = '\0';
	*out = buf;
	*outlen = o;
	return 0;
}

int yaml_decode(const char *buf, size_t len, char **out, size_t *outlen,
		int *had_bom, struct diag *err)
{
	const unsigned char *p = (const unsigned char *)buf;
	char *copy;

	*out = NULL;
	*outlen = 0;
	*had_bom = 0;
	if (len >= 4 &&
	    ((p[0] == 0 && p[1] == 0 && p[2] == 0xFE && p[3] == 0xFF) ||
	     (p[0] == 0xFF && p[1] == 0xFE && p[2] == 0 && p[3] == 0))) {
		diag_set(err, DIAG_E_ENCODING, 1, 1,
			 "UTF-32 text is not read (UTF-8, or UTF-16 with a "
			 "byte-order mark)");
		return -1;
	}
	if (len >= 2 && ((p[0] == 0xFF && p[1] == 0xFE) ||
			 (p[0] == 0xFE && p[1] == 0xFF))) {
		*had_bom = 1;
		if (from_utf16(p + 2, len - 2, p[0] == 0xFE, out, outlen, err) <
		    0)
			return -1;
		if (check_text(*out, *outlen, err) < 0) {
			free(*out);
			*out = NULL;
			*outlen = 0;
			return -1;
		}
		return 0;
	}
	if (len >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) {
		*had_bom = 1;
		p += 3;
		len -= 3;
	}
	if (check_text((const char *)p, len, err) < 0)
		return -1;
	copy = malloc(len + 1);
	if (!copy) {
		diag_set(err, DIAG_E_NOMEM, 0, 0,
			 "out of memory reading the text");
		return -1;
	}
	if (len)
		memcpy(copy, p, len);
	copy[len] = '\0';
	*out = copy;
	*outlen = len;
	return 0;
}
