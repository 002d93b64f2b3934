/*
 * yaml_text.c: bytes to the text the parser reads (spec/yaml.md 8). UTF-8
 * with or without a BOM is taken as is, UTF-16 with a BOM is transcoded to
 * UTF-8 first so that columns, comments and the line map all work on one
 * encoding, and every character is checked against what YAML allows. A
 * problem is input.encoding at the offending character's line:column.
 */
#include "core/yaml/yaml_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/util/utf8.h"

/* Whether YAML 1.1 allows code point c in a stream (its printable set). */
static int printable(uint32_t c)
{
	return c == 0x09 || c == 0x0A || c == 0x0D || (c >= 0x20 && c <= 0x7E) ||
	       c == 0x85 || (c >= 0xA0 && c <= 0xD7FF) ||
	       (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
}


/* Transcode UTF-16 (after its BOM) to UTF-8. */
static int from_utf16(const unsigned char *p, size_t len, int big, char **out,
		      size_t *outlen, struct diag *err)
{
	size_t i, o = 0;
	unsigned line = 1, col = 1;
	char *buf;

	if (len % 2)
		return diag_set(err, DIAG_E_ENCODING, 0, 0,
				"UTF-16 text with an odd number of bytes"), -1;
	/* Each unit becomes at most 3 bytes (a pair: 4 bytes for 2 units). */
	buf = malloc(len / 2 * 3 + 1);
	if (!buf) {
		diag_set(err, DIAG_E_NOMEM, 0, 0, "out of memory decoding UTF-16");
		return -1;
	}
	for (i = 0; i < len; i += 2) {
		uint32_t u = big ? (uint32_t)(p[i] << 8 | p[i + 1])
				 : (uint32_t)(p[i + 1] << 8 | p[i]);

		if (u >= 0xD800 && u <= 0xDBFF) {
			uint32_t lo;

			if (i + 3 >= len)
				goto bad_pair;
			lo = big ? (uint32_t)(p[i + 2] << 8 | p[i + 3])
				 : (uint32_t)(p[i + 3] << 8 | p[i + 2]);
			if (lo < 0xDC00 || lo > 0xDFFF)
				goto bad_pair;
			u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
			i += 2;
		} else if (u >= 0xDC00 && u <= 0xDFFF) {
			goto bad_pair;
		}
		o += utf8_encode(u, buf + o);
		if (u == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	buf[o] = '\0';
	*out = buf;
	*outlen = o;
	return 0;
bad_pair:
	free(buf);
	diag_set(err, DIAG_E_ENCODING, line, col,
		 "a lone UTF-16 surrogate at byte %zu", i + 2);
	return -1;
}

/* Check the UTF-8 text: well-formed, printable; track line:column. */
static int check_text(const char *s, size_t len, struct diag *err)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned line = 1, col = 1;
	size_t i = 0;

	while (i < len) {
		uint32_t c;
		size_t n;

		if (p[i] < 0x80) {
			c = p[i];
			n = 1;
		} else {
			n = utf8_decode(p + i, len - i, &c);
			if (n == 0)
				return diag_set(err, DIAG_E_ENCODING, line, col,
						"the text is not valid UTF-8 (byte 0x%02X)",
						p[i]), -1;
		}
		if (c == 0)
			return diag_set(err, DIAG_E_ENCODING, line, col,
					"a NUL byte: this is not a text file"), -1;
		if (!printable(c))
			return diag_set(err, DIAG_E_ENCODING, line, col,
					"character U+%04X is not allowed in YAML",
					(unsigned)c), -1;
		i += n;
		if (c == '\n' || (c == '\r' && !(i < len && p[i] == '\n')) ||
		    c == 0x85 || c == 0x2028 || c == 0x2029) {
			line++;
			col = 1;
		} else if (c != '\r') {
			col++;
		}
	}
	return 0;
}

int yaml_decode(const char *buf, size_t len, char **out, size_t *outlen,
		int *had_bom, struct diag *err)
{
	const unsigned char *p = (const unsigned char *)buf;
	char *copy;

	*had_bom = 0;
	if (len >= 4 && ((p[0] == 0 && p[1] == 0 && p[2] == 0xFE && p[3] == 0xFF) ||
			 (p[0] == 0xFF && p[1] == 0xFE && p[2] == 0 && p[3] == 0)))
		return diag_set(err, DIAG_E_ENCODING, 1, 1,
				"UTF-32 text: only UTF-8 and UTF-16 with a BOM are read"), -1;
	if (len >= 2 && ((p[0] == 0xFF && p[1] == 0xFE) || (p[0] == 0xFE && p[1] == 0xFF))) {
		*had_bom = 1;
		if (from_utf16(p + 2, len - 2, p[0] == 0xFE, out, outlen, err) < 0)
			return -1;
		if (check_text(*out, *outlen, err) < 0) {
			free(*out);
			*out = NULL;
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
		diag_set(err, DIAG_E_NOMEM, 0, 0, "out of memory reading the text");
		return -1;
	}
	memcpy(copy, p, len);
	copy[len] = '\0';
	*out = copy;
	*outlen = len;
	return 0;
}
