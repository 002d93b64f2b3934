/*
 * yaml_typing.c: PyYAML's safe-loader typing of scalars (spec/yaml.md 2,
 * 3): the implicit resolvers with their first-character dispatch, and the
 * constructors behind each tag. Hand-written matchers, no regex on this
 * path (it runs on every plain scalar); tests/unit/test_yaml.c checks them
 * against the PCRE2 patterns of the spec. Conversions are exact and
 * locale-free: each grammar is checked here before strtod sees the text.
 */
#include "core/yaml/yaml_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util/num.h"

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_sign(char c)
{
	return c == '-' || c == '+';
}

/* ---- the implicit grammars (each must match the whole text) ---------- */

static int match_bool(const char *s, size_t n)
{
	static const char *const words[] = {
		"yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE",
		"false", "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF", NULL
	};
	size_t i;

	for (i = 0; words[i]; i++)
		if (strlen(words[i]) == n && memcmp(words[i], s, n) == 0)
			return 1;
	return 0;
}

static int match_null(const char *s, size_t n)
{
	return n == 0 || (n == 1 && s[0] == '~') ||
	       (n == 4 && (memcmp(s, "null", 4) == 0 || memcmp(s, "Null", 4) == 0 ||
			   memcmp(s, "NULL", 4) == 0));
}

/* Digits and '_' from i; returns the new position. */
static size_t span_digits_us(const char *s, size_t i, size_t n)
{
	while (i < n && (is_digit(s[i]) || s[i] == '_'))
		i++;
	return i;
}

/* (?:[eE][-+][0-9]+)? at i: returns the end, or (size_t)-1 on a bad
 * exponent that started. */
static size_t exponent(const char *s, size_t i, size_t n)
{
	size_t j;

	if (i >= n || (s[i] != 'e' && s[i] != 'E'))
		return i;
	if (i + 1 >= n || !is_sign(s[i + 1]))
		return (size_t)-1;
	j = i + 2;
	if (j >= n || !is_digit(s[j]))
		return (size_t)-1;
	while (j < n && is_digit(s[j]))
		j++;
	return j;
}

/* (?::[0-5]?[0-9])+ from i; returns the end or (size_t)-1 if none. */
static size_t sexagesimal_groups(const char *s, size_t i, size_t n)
{
	size_t groups = 0;

	while (i < n && s[i] == ':') {
		size_t j = i + 1;

		if (j + 1 < n && s[j] >= '0' && s[j] <= '5' && is_digit(s[j + 1]))
			j += 2;
		else if (j < n && is_digit(s[j]))
			j += 1;
		else
			return (size_t)-1;
		groups++;
		i = j;
	}
	return groups ? i : (size_t)-1;
}

static int match_float(const char *s, size_t n)
{
	size_t i = 0, j;

	if (n == 0)
		return 0;
	/* \.(?:nan|NaN|NAN) */
	if (n == 4 && s[0] == '.' &&
	    (memcmp(s + 1, "nan", 3) == 0 || memcmp(s + 1, "NaN", 3) == 0 ||
	     memcmp(s + 1, "NAN", 3) == 0))
		return 1;
	/* \.[0-9][0-9_]*(?:[eE][-+][0-9]+)? -- no sign */
	if (s[0] == '.' && n > 1 && is_digit(s[1])) {
		j = exponent(s, span_digits_us(s, 2, n), n);
		return j == n;
	}
	if (is_sign(s[0]))
		i = 1;
	/* [-+]?\.(?:inf|Inf|INF) */
	if (n - i == 4 && s[i] == '.' &&
	    (memcmp(s + i + 1, "inf", 3) == 0 || memcmp(s + i + 1, "Inf", 3) == 0 ||
	     memcmp(s + i + 1, "INF", 3) == 0))
		return 1;
	if (i >= n || !is_digit(s[i]))
		return 0;
	j = span_digits_us(s, i + 1, n);
	/* [-+]?[0-9][0-9_]*\.[0-9_]*(?:[eE][-+][0-9]+)? */
	if (j < n && s[j] == '.') {
		size_t k = exponent(s, span_digits_us(s, j + 1, n), n);

		return k == n;
	}
	/* [-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]* */
	if (j < n && s[j] == ':') {
		size_t k = sexagesimal_groups(s, j, n);

		if (k == (size_t)-1 || k >= n || s[k] != '.')
			return 0;
		return span_digits_us(s, k + 1, n) == n;
	}
	return 0;
}

static int match_int(const char *s, size_t n)
{
	size_t i = 0, j;

	if (n == 0)
		return 0;
	if (is_sign(s[0]))
		i = 1;
	if (i >= n || !is_digit(s[i]))
		return 0;
	if (s[i] == '0') {
		if (n - i == 1)
			return 1; /* 0 */
		if (s[i + 1] == 'b') {
			for (j = i + 2; j < n; j++)
				if (s[j] != '0' && s[j] != '1' && s[j] != '_')
					return 0;
			return n > i + 2;
		}
		if (s[i + 1] == 'x') {
			for (j = i + 2; j < n; j++)
				if (!is_digit(s[j]) && !(s[j] >= 'a' && s[j] <= 'f') &&
				    !(s[j] >= 'A' && s[j] <= 'F') && s[j] != '_')
					return 0;
			return n > i + 2;
		}
		for (j = i + 1; j < n; j++)
			if (!(s[j] >= '0' && s[j] <= '7') && s[j] != '_')
				return 0;
		return 1; /* octal */
	}
	j = span_digits_us(s, i + 1, n);
	if (j == n)
		return 1; /* decimal */
	/* [-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+ */
	return s[j] == ':' && sexagesimal_groups(s, j, n) == n;
}

/* Length-checked digit runs for timestamps. */
static size_t digits_run(const char *s, size_t i, size_t n, size_t min,
			 size_t max)
{
	size_t j = i;

	while (j < n && j - i < max && is_digit(s[j]))
		j++;
	return j - i >= min ? j : (size_t)-1;
}

/* The time part of a timestamp from i: returns the end or -1. */
static size_t timestamp_time(const char *s, size_t i, size_t n)
{
	size_t j = digits_run(s, i, n, 1, 2), k;

	if (j == (size_t)-1 || j >= n || s[j] != ':')
		return (size_t)-1;
	j = digits_run(s, j + 1, n, 2, 2);
	if (j == (size_t)-1 || j >= n || s[j] != ':')
		return (size_t)-1;
	j = digits_run(s, j + 1, n, 2, 2);
	if (j == (size_t)-1)
		return (size_t)-1;
	if (j < n && s[j] == '.') {
		j++;
		while (j < n && is_digit(s[j]))
			j++;
	}
	/* (?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))? */
	k = j;
	while (k < n && (s[k] == ' ' || s[k] == '\t'))
		k++;
	if (k < n && s[k] == 'Z')
		return k + 1;
	if (k < n && is_sign(s[k])) {
		size_t m = digits_run(s, k + 1, n, 1, 2);

		if (m == (size_t)-1)
			return j;
		if (m < n && s[m] == ':') {
			size_t q = digits_run(s, m + 1, n, 2, 2);

			if (q != (size_t)-1)
				return q;
		}
		return m;
	}
	return j;
}

/* 'loose': the constructor's grammar, one-digit month and day allowed in
 * the date-only form too. */
static int match_timestamp(const char *s, size_t n, int loose)
{
	size_t j = digits_run(s, 0, n, 4, 4), k;

	if (j != 4 || j >= n || s[j] != '-')
		return 0;
	k = digits_run(s, 5, n, 1, 2);
	if (k == (size_t)-1 || k >= n || s[k] != '-')
		return 0;
	j = digits_run(s, k + 1, n, 1, 2);
	if (j == (size_t)-1)
		return 0;
	if (j == n)
		return loose || (k == 7 && j == 10);
	/* (?:[Tt]|[ \t]+) then the time */
	if (s[j] == 'T' || s[j] == 't') {
		j++;
	} else if (s[j] == ' ' || s[j] == '\t') {
		while (j < n && (s[j] == ' ' || s[j] == '\t'))
			j++;
	} else {
		return 0;
	}
	return timestamp_time(s, j, n) == n;
}

enum ytag yaml_resolve(const char *s, size_t n, int bang)
{
	/* Python's '$' also matches before one final newline. */
	if (bang && n > 0 && s[n - 1] == '\n')
		n--;
	if (n == 0)
		return YT_NULL;
	switch (s[0]) {
	case 'y': case 'Y':
		return match_bool(s, n) ? YT_BOOL : YT_STR;
	case 'n': case 'N':
		return match_bool(s, n) ? YT_BOOL : match_null(s, n) ? YT_NULL : YT_STR;
	case 't': case 'T': case 'f': case 'F': case 'o': case 'O':
		return match_bool(s, n) ? YT_BOOL : YT_STR;
	case '~':
		return n == 1 ? YT_NULL : YT_STR;
	case '.':
		return match_float(s, n) ? YT_FLOAT : YT_STR;
	case '-': case '+':
		return match_float(s, n) ? YT_FLOAT : match_int(s, n) ? YT_INT : YT_STR;
	case '<':
		return n == 2 && s[1] == '<' ? YT_MERGE : YT_STR;
	case '=':
		return n == 1 ? YT_VALUE : YT_STR;
	default:
		if (!is_digit(s[0]))
			return YT_STR;
		if (match_float(s, n))
			return YT_FLOAT;
		if (match_int(s, n))
			return YT_INT;
		return match_timestamp(s, n, 0) ? YT_TIMESTAMP : YT_STR;
	}
}

enum ytag yaml_tag_of(const char *tag)
{
	static const struct {
		const char *name;
		enum ytag tag;
	} tags[] = {
		{ "null", YT_NULL },   { "bool", YT_BOOL },     { "int", YT_INT },
		{ "float", YT_FLOAT }, { "timestamp", YT_TIMESTAMP },
		{ "merge", YT_MERGE }, { "value", YT_VALUE },   { "str", YT_STR },
		{ "binary", YT_BINARY }, { "set", YT_SET },     { "omap", YT_OMAP },
		{ "pairs", YT_PAIRS }, { "seq", YT_SEQ },       { "map", YT_MAP },
	};
	static const char prefix[] = "tag:yaml.org,2002:";
	size_t i;

	if (strncmp(tag, prefix, sizeof prefix - 1) != 0)
		return YT_UNKNOWN;
	tag += sizeof prefix - 1;
	for (i = 0; i < sizeof tags / sizeof tags[0]; i++)
		if (strcmp(tags[i].name, tag) == 0)
			return tags[i].tag;
	return YT_UNKNOWN;
}

/* ---- constructors --------------------------------------------------------- */

/* Copy s without '_' into buf (size >= n + 1). */
static size_t strip_underscores(const char *s, size_t n, char *buf)
{
	size_t i, o = 0;

	for (i = 0; i < n; i++)
		if (s[i] != '_')
			buf[o++] = s[i];
	buf[o] = '\0';
	return o;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	       c == '\v';
}

static void trim(const char **s, size_t *n)
{
	while (*n && is_space(**s)) {
		(*s)++;
		(*n)--;
	}
	while (*n && is_space((*s)[*n - 1]))
		(*n)--;
}

/* Digits of 'base' into an unsigned magnitude; -1 bad digit, -2 overflow. */
static int parse_base(const char *s, size_t n, unsigned base, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (n == 0)
		return -1;
	for (i = 0; i < n; i++) {
		unsigned d;
		char c = s[i];

		if (is_digit(c))
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return -1;
		if (d >= base)
			return -1;
		if (v > (UINT64_MAX - d) / base)
			return -2;
		v = v * base + d;
	}
	*out = v;
	return 0;
}

static int construct_int(struct node *nd, const char *text, size_t len,
			 int explicit_tag, char *msg, size_t size)
{
	char *buf = malloc(len + 1);
	const char *p;
	size_t n;
	uint64_t mag = 0;
	int neg = 0, signed_ = 0, rc = -1;

	(void)explicit_tag;
	if (!buf) {
		snprintf(msg, size, "out of memory");
		return -1;
	}
	n = strip_underscores(text, len, buf);
	p = buf;
	if (n && is_sign(p[0])) {
		neg = p[0] == '-';
		signed_ = 1;
		p++;
		n--;
	}
	/* Python's int() ignores surrounding whitespace, and takes a sign
	 * after it when none came first. */
	trim(&p, &n);
	if (!signed_ && n && is_sign(p[0])) {
		neg = p[0] == '-';
		p++;
		n--;
	}
	if (n == 0) {
		snprintf(msg, size, "'%.*s' is not an integer", (int)len, text);
		goto done;
	}
	if (n == 1 && p[0] == '0') {
		mag = 0;
		rc = 0;
	} else if (n >= 2 && p[0] == '0' && p[1] == 'b') {
		rc = parse_base(p + 2, n - 2, 2, &mag);
	} else if (n >= 2 && p[0] == '0' && p[1] == 'x') {
		rc = parse_base(p + 2, n - 2, 16, &mag);
	} else if (p[0] == '0') {
		/* Python's int(text, 8) also takes a 0o prefix. */
		if (n >= 2 && (p[1] == 'o' || p[1] == 'O'))
			rc = parse_base(p + 2, n - 2, 8, &mag);
		else
			rc = parse_base(p + 1, n - 1, 8, &mag);
	} else if (memchr(p, ':', n)) {
		const char *q = p, *end = p + n;

		rc = 0;
		while (q < end && rc == 0) {
			const char *c = memchr(q, ':', (size_t)(end - q));
			size_t plen = c ? (size_t)(c - q) : (size_t)(end - q);
			uint64_t part;

			rc = parse_base(q, plen, 10, &part);
			if (rc == 0) {
				if (mag > (UINT64_MAX - part) / 60)
					rc = -2;
				else
					mag = mag * 60 + part;
			}
			q += plen + (c ? 1 : 0);
			if (c && q == end)
				rc = -1;
		}
	} else {
		rc = parse_base(p, n, 10, &mag);
	}
	if (rc == -1) {
		snprintf(msg, size, "'%.*s' is not an integer", (int)len, text);
		rc = -1;
		goto done;
	}
	if (rc == -2 || mag > (neg ? 9223372036854775808ULL : 9223372036854775807ULL)) {
		snprintf(msg, size,
			 "integer %.*s is out of range (at most 64 bits are kept)",
			 (int)(len > 40 ? 40 : len), text);
		rc = -1;
		goto done;
	}
	nd->type = NODE_INT;
	nd->v.i = neg ? (mag == 9223372036854775808ULL ? INT64_MIN : -(int64_t)mag)
		      : (int64_t)mag;
	rc = 0;
done:
	free(buf);
	return rc;
}

static int construct_float(struct node *nd, const char *text, size_t len,
			   char *msg, size_t size)
{
	char *buf = malloc(len + 1), *p;
	size_t n, i;
	double sign = 1.0, v = 0;
	int rc = -1;

	if (!buf) {
		snprintf(msg, size, "out of memory");
		return -1;
	}
	n = strip_underscores(text, len, buf);
	for (i = 0; i < n; i++)
		if (buf[i] >= 'A' && buf[i] <= 'Z')
			buf[i] = (char)(buf[i] - 'A' + 'a');
	p = buf;
	if (n == 0)
		goto bad;
	if (is_sign(p[0])) {
		if (p[0] == '-')
			sign = -1.0;
		p++;
		n--;
	}
	if (n == 4 && memcmp(p, ".inf", 4) == 0) {
		v = sign * INFINITY;
	} else if (n == 4 && memcmp(p, ".nan", 4) == 0) {
		v = NAN;
	} else if (memchr(p, ':', n)) {
		/* Base 60, least significant part first, as PyYAML sums. */
		double base = 1.0, acc = 0.0;
		size_t end = n;

		for (;;) {
			size_t start = end;
			double part;

			while (start > 0 && p[start - 1] != ':')
				start--;
			if (num_parse_pyfloat(p + start, end - start, 0, &part) < 0)
				goto bad;
			acc += part * base;
			base *= 60;
			if (start == 0)
				break;
			end = start - 1;
		}
		v = sign * acc;
	} else {
		if (num_parse_pyfloat(p, n, 0, &v) < 0)
			goto bad;
		v = sign * v;
	}
	nd->type = NODE_FLOAT;
	nd->v.f = v;
	rc = 0;
	goto done;
bad:
	snprintf(msg, size, "'%.*s' is not a number", (int)(len > 60 ? 60 : len), text);
done:
	free(buf);
	return rc;
}

static int days_in(int y, int m)
{
	static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;

	return m == 2 && leap ? 29 : days[m - 1];
}

static int num_at(const char *s, size_t *i, size_t n)
{
	int v = 0;

	while (*i < n && is_digit(s[*i]))
		v = v * 10 + (s[(*i)++] - '0');
	return v;
}

static int construct_timestamp(struct node *nd, const char *text, size_t len,
			       char *msg, size_t size)
{
	struct doc_time t;
	size_t i = 0, n = len;
	int is_dt = 0;

	while (n && text[n - 1] == '\n')
		n--;
	if (!match_timestamp(text, n, 1)) {
		snprintf(msg, size, "'%.*s' is not a timestamp", (int)(n > 60 ? 60 : n), text);
		return -1;
	}
	memset(&t, 0, sizeof t);
	{
		int y = num_at(text, &i, n), mo, d;

		i++;
		mo = num_at(text, &i, n);
		i++;
		d = num_at(text, &i, n);
		if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > days_in(y, mo)) {
			snprintf(msg, size, "'%.*s' is not a real date", (int)n, text);
			return -1;
		}
		t.year = (int16_t)y;
		t.month = (int8_t)mo;
		t.day = (int8_t)d;
	}
	if (i < n) {
		int h, mi, se;

		is_dt = 1;
		while (i < n && (text[i] == 'T' || text[i] == 't' || text[i] == ' ' ||
				 text[i] == '\t'))
			i++;
		h = num_at(text, &i, n);
		i++;
		mi = num_at(text, &i, n);
		i++;
		se = num_at(text, &i, n);
		if (h > 23 || mi > 59 || se > 59) {
			snprintf(msg, size, "'%.*s' is not a real time of day", (int)n, text);
			return -1;
		}
		t.hour = (int8_t)h;
		t.minute = (int8_t)mi;
		t.second = (int8_t)se;
		if (i < n && text[i] == '.') {
			int us = 0, k = 0;

			/* Truncated to six digits, right-padded with zeros. */
			for (i++; i < n && is_digit(text[i]); i++, k++)
				if (k < 6)
					us = us * 10 + (text[i] - '0');
			for (; k < 6; k++)
				us *= 10;
			t.usec = us;
		}
		while (i < n && (text[i] == ' ' || text[i] == '\t'))
			i++;
		if (i < n && text[i] == 'Z') {
			t.has_offset = 1;
			t.offset = 0;
		} else if (i < n && is_sign(text[i])) {
			int neg = text[i] == '-', oh, om = 0, off;

			i++;
			oh = num_at(text, &i, n);
			if (i < n && text[i] == ':') {
				i++;
				om = num_at(text, &i, n);
			}
			off = oh * 60 + om;
			if (off >= 24 * 60) {
				snprintf(msg, size,
					 "'%.*s' has an offset of 24 hours or more",
					 (int)n, text);
				return -1;
			}
			t.has_offset = 1;
			t.offset = (int16_t)(neg ? -off : off);
		}
	}
	nd->type = is_dt ? NODE_DATETIME : NODE_DATE;
	nd->v.t = t;
	return 0;
}

static int construct_bool(struct node *nd, const char *text, size_t len,
			  char *msg, size_t size)
{
	static const struct {
		const char *w;
		int v;
	} words[] = { { "yes", 1 }, { "true", 1 }, { "on", 1 },
		      { "no", 0 },  { "false", 0 }, { "off", 0 } };
	char low[8];
	size_t i;

	if (len < sizeof low) {
		for (i = 0; i < len; i++)
			low[i] = (char)(text[i] >= 'A' && text[i] <= 'Z'
						? text[i] - 'A' + 'a' : text[i]);
		low[len] = '\0';
		for (i = 0; i < sizeof words / sizeof words[0]; i++)
			if (strcmp(low, words[i].w) == 0) {
				nd->type = NODE_BOOL;
				nd->v.b = words[i].v;
				return 0;
			}
	}
	snprintf(msg, size, "'%.*s' is not a boolean", (int)(len > 60 ? 60 : len), text);
	return -1;
}

int yaml_construct(struct doc *d, struct node *n, enum ytag t, const char *s,
		   size_t len, int explicit_tag, char *msg, size_t size)
{
	switch (t) {
	case YT_NULL:
		n->type = NODE_NULL;
		return 0;
	case YT_BOOL:
		return construct_bool(n, s, len, msg, size);
	case YT_INT:
		return construct_int(n, s, len, explicit_tag, msg, size);
	case YT_FLOAT:
		return construct_float(n, s, len, msg, size);
	case YT_TIMESTAMP:
		return construct_timestamp(n, s, len, msg, size);
	case YT_STR:
		n->type = NODE_STR;
		n->v.str.s = arena_strndup(&d->arena, s, len);
		n->v.str.len = len;
		if (!n->v.str.s) {
			snprintf(msg, size, "out of memory");
			return -1;
		}
		return 0;
	case YT_BINARY:
	case YT_SET:
	case YT_OMAP:
	case YT_PAIRS:
		snprintf(msg, size, "unsupported tag: binary, set, omap and pairs values are not read");
		return -1;
	case YT_MERGE:
	case YT_VALUE:
		snprintf(msg, size, "'%.*s' cannot be a value here", (int)len, s);
		return -1;
	default:
		snprintf(msg, size, "unknown tag");
		return -1;
	}
}
