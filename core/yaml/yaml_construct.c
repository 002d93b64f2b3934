/*
 * yaml_construct.c: PyYAML's safe constructors (spec/yaml.md 3), followed
 * step by step for resolved and explicit tags alike, including what
 * Python's int() and float() accept under an explicit tag (whitespace,
 * signs, base prefixes), PyYAML's order of base-60 sums and its NaN, and
 * datetime's validation. Conversions are exact and locale-free: our
 * grammar first, then strtod under the "C" locale. Nothing here allocates
 * except through the document's arena and the load's scratch buffer.
 */
#include "core/yaml/yaml_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util/utf8.h"

/* ---- Python's int() and float() text ---------------------------------- */

/* The byte length of a character of Python's whitespace set at s, or 0. */
static size_t py_space(const char *s, size_t n)
{
	uint32_t c;
	size_t w;

	if (n == 0)
		return 0;
	if ((unsigned char)s[0] < 0x80)
		return s[0] == ' ' || (s[0] >= '\t' && s[0] <= '\r');
	w = utf8_decode((const unsigned char *)s, n, &c);
	if (w && (c == 0x85 || c == 0xA0 || c == 0x1680 ||
		  (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 ||
		  c == 0x202F || c == 0x205F || c == 0x3000))
		return w;
	return 0;
}

/* Strip Python's whitespace from both ends of s[0..*n). */
static const char *py_strip(const char *s, size_t *n)
{
	size_t w;

	while ((w = py_space(s, *n)) > 0) {
		s += w;
		*n -= w;
	}
	while (*n) {
		size_t start = *n - 1;

		while (start > 0 && *n - start < 4 &&
		       ((unsigned char)s[start] & 0xC0) == 0x80)
			start--;
		w = py_space(s + start, *n - start);
		if (w == 0 || start + w != *n)
			break;
		*n = start;
	}
	return s;
}

/* Python's int(s, base) over text without '_' (PyYAML deleted them), for
 * base 2, 8, 10 or 16: whitespace around, a sign, the base's prefix, at
 * least one digit. Returns 0 with *neg and *mag, -1 for text int()
 * refuses, -2 when the magnitude passes 64 bits. */
static int py_int(const char *s, size_t n, unsigned base, int *neg,
		  uint64_t *mag)
{
	static const char prefix[17] = {[2] = 'b', [8] = 'o', [16] = 'x'};
	uint64_t v = 0;
	size_t i = 0;
	int over = 0;

	s = py_strip(s, &n);
	*neg = 0;
	if (n && is_sign(s[0])) {
		*neg = s[0] == '-';
		i = 1;
	}
	if (base != 10 && n - i >= 2 && s[i] == '0' &&
	    (s[i + 1] | 0x20) == prefix[base])
		i += 2;
	if (i >= n)
		return -1;
	for (; i < n; i++) {
		char c = s[i];
		unsigned d;

		if (is_digit(c))
			d = (unsigned)(c - '0');
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			d = (unsigned)((c | 0x20) - 'a' + 10);
		else
			return -1;
		if (d >= base)
			return -1;
		if (v > (UINT64_MAX - d) / base)
			over = 1; /* keep checking: a bad digit is -1 */
		else
			v = v * base + d;
	}
	*mag = v;
	return over ? -2 : 0;
}

/* Text of Python's float() grammar (after strip) as strtod input in
 * 'out' (size >= n + 1): returns 0 and sets *special for inf/nan
 * (1 inf, 2 nan) with *neg, else 0 with a plain decimal in out; -1 when
 * float() refuses the text. */
static int py_float_text(const char *s, size_t n, char *out, int *special,
			 int *neg)
{
	size_t i = 0, o = 0, nd = 0;
	char w[9];

	*special = 0;
	*neg = 0;
	if (n && is_sign(s[0])) {
		*neg = s[0] == '-';
		out[o++] = s[0];
		i = 1;
	}
	if (n - i <= 8) {
		size_t k;

		for (k = 0; k < n - i; k++)
			w[k] = (char)(s[i + k] >= 'A' && s[i + k] <= 'Z'
					  ? s[i + k] + 32
					  : s[i + k]);
		w[k] = '\0';
		if (strcmp(w, "inf") == 0 || strcmp(w, "infinity") == 0) {
			*special = 1;
			return 0;
		}
		if (strcmp(w, "nan") == 0) {
			*special = 2;
			return 0;
		}
	}
	for (; i < n && is_digit(s[i]); i++, nd++)
		out[o++] = s[i];
	if (i < n && s[i] == '.') {
		out[o++] = s[i++];
		for (; i < n && is_digit(s[i]); i++, nd++)
			out[o++] = s[i];
	}
	if (nd == 0)
		return -1;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		size_t ne = 0;

		out[o++] = 'e';
		i++;
		if (i < n && is_sign(s[i]))
			out[o++] = s[i++];
		for (; i < n && is_digit(s[i]); i++, ne++)
			out[o++] = s[i];
		if (ne == 0)
			return -1;
	}
	if (i != n)
		return -1;
	out[o] = '\0';
	return 0;
}

static int scratch_reserve(struct yaml_scratch *sc, size_t n)
{
	char *p;

	if (n <= sc->alloc)
		return 0;
	p = realloc(sc->buf, n < 256 ? 256 : n);
	if (!p)
		return -1;
	sc->buf = p;
	sc->alloc = n < 256 ? 256 : n;
	return 0;
}

void yaml_scratch_release(struct yaml_scratch *sc)
{
	free(sc->buf);
	sc->buf = NULL;
	sc->alloc = 0;
	if (sc->c_locale != (locale_t)0)
		freelocale(sc->c_locale);
	sc->c_locale = (locale_t)0;
}

/* strtod in the "C" locale, whatever the thread's locale is. */
static int c_strtod(struct yaml_scratch *sc, const char *text, double *out)
{
	locale_t old;

	if (sc->c_locale == (locale_t)0) {
		sc->c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
		if (sc->c_locale == (locale_t)0)
			return -2;
	}
	old = uselocale(sc->c_locale);
	*out = strtod(text, NULL); /* overflow: +-HUGE_VAL, as Python */
	uselocale(old);
	return 0;
}

/* Python's float(s[0..n)): 0 with *out, -1 refused, -2 no memory. The
 * text goes through 'tmp' (n + 1 bytes, not the scratch buffer). */
static int py_float(struct yaml_scratch *sc, const char *s, size_t n, char *tmp,
		    double *out)
{
	int special, neg, rc;

	s = py_strip(s, &n);
	if (py_float_text(s, n, tmp, &special, &neg) < 0)
		return -1;
	if (special == 1) {
		*out = neg ? -INFINITY : INFINITY;
		return 0;
	}
	if (special == 2) {
		*out = neg ? -NAN : NAN; /* float('-nan') keeps its sign */
		return 0;
	}
	rc = c_strtod(sc, tmp, out);
	return rc;
}

/* 60^k as Python converts the integer to a float: exact up to k = 13
 * (60^k = 2^2k * 15^k and 15^13 < 2^53), else 15^k rounded once by
 * strtod from its exact decimal digits, then scaled. Returns 0, or -1
 * when the integer is too large for a float (Python's OverflowError). */
static int pow60(struct yaml_scratch *sc, size_t k, double *out)
{
	uint32_t limb[32]; /* base 10^9, little-endian: 15^k < 10^288 */
	char text[300], *p = text;
	size_t nl = 1, i, j;
	double v = 1.0;

	if (k <= 13) {
		for (i = 0; i < k; i++)
			v *= 60.0;
		*out = v;
		return 0;
	}
	if (k > 180) /* 60^174 already passes DBL_MAX */
		return -1;
	limb[0] = 1;
	for (i = 0; i < k; i++) {
		uint64_t carry = 0;

		for (j = 0; j < nl; j++) {
			uint64_t t = (uint64_t)limb[j] * 15 + carry;

			limb[j] = (uint32_t)(t % 1000000000u);
			carry = t / 1000000000u;
		}
		if (carry)
			limb[nl++] = (uint32_t)carry;
	}
	p += snprintf(p, sizeof text, "%u", (unsigned)limb[nl - 1]);
	for (j = nl - 1; j-- > 0;)
		p += snprintf(p, sizeof text - (size_t)(p - text), "%09u",
			      (unsigned)limb[j]);
	if (c_strtod(sc, text, &v) < 0)
		return -2;
	v = ldexp(v, (int)(2 * k));
	if (isinf(v))
		return -1;
	*out = v;
	return 0;
}

/* ---- constructors (spec/yaml.md 3) ------------------------------------ */

void yaml_shown(const char *s, size_t len, size_t max, char *out, size_t size)
{
	size_t n = len > max ? utf8_cut(s, len, max) : len, i, o = 0;

	for (i = 0; i < n && o + 4 < size; i++) {
		unsigned char c = (unsigned char)s[i];

		out[o++] = c < 0x20 || c == 0x7F ? '?' : (char)c;
	}
	if (n < len && o + 4 < size) {
		memcpy(out + o, "...", 3);
		o += 3;
	}
	out[o] = '\0';
}

/* The text with every '_' deleted (and lower-cased when 'lower') in the
 * scratch buffer, with room for a second copy after it. */
static char *strip_us(struct yaml_scratch *sc, const char *s, size_t len,
		      int lower, size_t *n)
{
	size_t i, o = 0;

	if (len > (SIZE_MAX - 4) / 2 || scratch_reserve(sc, 2 * len + 4) < 0)
		return NULL;
	for (i = 0; i < len; i++) {
		char c = s[i];

		if (c == '_')
			continue;
		if (lower && c >= 'A' && c <= 'Z')
			c = (char)(c + 32);
		sc->buf[o++] = c;
	}
	sc->buf[o] = '\0';
	*n = o;
	return sc->buf;
}

static int bad_value(char *msg, size_t size, const char *s, size_t len,
		     const char *what)
{
	char shown[96];

	yaml_shown(s, len, 60, shown, sizeof shown);
	snprintf(msg, size, "'%s' is not %s", shown, what);
	return -1;
}

/* PyYAML's construct_yaml_int. */
static int construct_int(struct yaml_scratch *sc, struct node *nd,
			 const char *text, size_t len, char *msg, size_t size)
{
	size_t n;
	char *v = strip_us(sc, text, len, 0, &n);
	int sign = 1, neg = 0, rc;
	uint64_t mag = 0;

	if (!v)
		return -2;
	if (n == 0) /* PyYAML: an index error */
		return bad_value(msg, size, text, len, "an integer");
	if (v[0] == '-')
		sign = -1;
	if (is_sign(v[0])) {
		v++;
		n--;
	}
	if (n == 1 && v[0] == '0') {
		rc = 0;
	} else if (n >= 2 && v[0] == '0' && v[1] == 'b') {
		rc = py_int(v + 2, n - 2, 2, &neg, &mag);
	} else if (n >= 2 && v[0] == '0' && v[1] == 'x') {
		rc = py_int(v + 2, n - 2, 16, &neg, &mag);
	} else if (n >= 1 && v[0] == '0') {
		rc = py_int(v, n, 8, &neg, &mag);
	} else if (n >= 1 && memchr(v, ':', n)) {
		/* Base 60, least significant part first, as PyYAML sums. */
		int64_t total = 0, base = 1;
		int base_over = 0;
		size_t end = n;

		for (;;) {
			size_t start = end;
			int pneg;
			uint64_t pmag;
			int64_t part, term;

			while (start > 0 && v[start - 1] != ':')
				start--;
			rc = py_int(v + start, end - start, 10, &pneg, &pmag);
			if (rc == -1)
				return bad_value(msg, size, text, len,
						 "an integer");
			if (rc == -2 || pmag > (uint64_t)INT64_MAX)
				goto out_of_range;
			part = pneg ? -(int64_t)pmag : (int64_t)pmag;
			if (sign < 0)
				part = -part;
			if (part != 0) {
				if (base_over ||
				    __builtin_mul_overflow(part, base, &term) ||
				    __builtin_add_overflow(total, term, &total))
					goto out_of_range;
			}
			if (start == 0)
				break;
			if (__builtin_mul_overflow(base, (int64_t)60, &base))
				base_over = 1;
			end = start - 1;
		}
		nd->type = NODE_INT;
		nd->v.i = total;
		return 0;
	} else if (n >= 1) {
		rc = py_int(v, n, 10, &neg, &mag);
	} else {
		return bad_value(msg, size, text, len, "an integer");
	}
	if (rc == -1)
		return bad_value(msg, size, text, len, "an integer");
	if (sign < 0)
		neg = !neg;
	if (rc == -2 ||
	    mag > (neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX))
		goto out_of_range;
	nd->type = NODE_INT;
	nd->v.i = !neg				   ? (int64_t)mag
		  : mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN
						   : -(int64_t)mag;
	return 0;
out_of_range : {
	char shown[96];

	yaml_shown(text, len, 60, shown, sizeof shown);
	snprintf(msg, size,
		 "integer %s is outside the 64-bit range "
		 "[-9223372036854775808, 9223372036854775807]",
		 shown);
}
	return -1;
}

/* PyYAML's construct_yaml_float. */
static int construct_float(struct yaml_scratch *sc, struct node *nd,
			   const char *text, size_t len, char *msg, size_t size)
{
	size_t n;
	char *v = strip_us(sc, text, len, 1, &n), *tmp;
	int sign = 1, rc;
	double value = 0;

	if (!v)
		return -2;
	tmp = sc->buf + n + 2; /* room for n + 1 bytes after the copy */
	if (n == 0)
		return bad_value(msg, size, text, len, "a float");
	if (v[0] == '-')
		sign = -1;
	if (is_sign(v[0])) {
		v++;
		n--;
	}
	if (word_is(v, n, ".inf")) {
		value = INFINITY;
	} else if (word_is(v, n, ".nan")) {
		/* PyYAML's nan_value is -inf/inf: a NaN with its sign bit
		 * set, and the sign of the text does not touch it. */
		nd->type = NODE_FLOAT;
		nd->v.f = -NAN;
		return 0;
	} else if (memchr(v, ':', n)) {
		size_t end = n, k = 0;

		for (;;) {
			size_t start = end;
			double part, base;

			while (start > 0 && v[start - 1] != ':')
				start--;
			rc = py_float(sc, v + start, end - start, tmp, &part);
			if (rc == -1)
				return bad_value(msg, size, text, len,
						 "a float");
			if (rc < 0)
				return -2;
			rc = pow60(sc, k++, &base);
			if (rc == -2)
				return -2;
			if (rc < 0) {
				snprintf(msg, size,
					 "a base-60 float with %zu parts is "
					 "too large",
					 k);
				return -1;
			}
			value += part * base;
			if (start == 0)
				break;
			end = start - 1;
		}
	} else {
		rc = py_float(sc, v, n, tmp, &value);
		if (rc == -1)
			return bad_value(msg, size, text, len, "a float");
		if (rc < 0)
			return -2;
	}
	/* sign * value: a NaN keeps its bits, as the machine's multiply. */
	if (sign < 0 && !isnan(value))
		value = -value;
	nd->type = NODE_FLOAT;
	nd->v.f = value;
	return 0;
}

static int days_in(int y, int m)
{
	static const int days[] = {31, 28, 31, 30, 31, 30,
				   31, 31, 30, 31, 30, 31};
	int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;

	return m == 2 && leap ? 29 : days[m - 1];
}

/* PyYAML's construct_yaml_timestamp, with datetime's validation. */
static int construct_timestamp(struct node *nd, const char *text, size_t len,
			       char *msg, size_t size)
{
	struct yaml_ts f;
	struct doc_time t;
	size_t n = len;
	char shown[96];
	int off;

	if (n && text[n - 1] == '\n')
		n--;
	yaml_shown(text, n, 60, shown, sizeof shown);
	if (!yaml_ts_match(text, n, 1, &f))
		return bad_value(msg, size, text, len, "a timestamp");
	if (f.year < 1) {
		snprintf(msg, size,
			 "'%s' is not a date: year 0 is out of range", shown);
		return -1;
	}
	if (f.month < 1 || f.month > 12) {
		snprintf(msg, size,
			 "'%s' is not a date: month %d is out of range", shown,
			 f.month);
		return -1;
	}
	if (f.day < 1 || f.day > days_in(f.year, f.month)) {
		snprintf(msg, size,
			 "'%s' is not a date: month %d of %d has no day %d",
			 shown, f.month, f.year, f.day);
		return -1;
	}
	memset(&t, 0, sizeof t);
	t.year = (int16_t)f.year;
	t.month = (int8_t)f.month;
	t.day = (int8_t)f.day;
	if (!f.has_time) {
		nd->type = NODE_DATE;
		nd->v.t = t;
		return 0;
	}
	if (f.hour > 23 || f.minute > 59 || f.second > 59) {
		snprintf(msg, size,
			 "'%s' is not a time of day: %d:%02d:%02d is out of "
			 "range (at most 23:59:59)",
			 shown, f.hour, f.minute, f.second);
		return -1;
	}
	t.hour = (int8_t)f.hour;
	t.minute = (int8_t)f.minute;
	t.second = (int8_t)f.second;
	t.usec = f.usec;
	if (f.zone == '+' || f.zone == '-') {
		off = f.tz_hour * 60 + f.tz_minute;
		if (off >= 24 * 60) {
			snprintf(msg, size,
				 "'%s' has a UTC offset of %d minutes, not "
				 "less than 24 hours",
				 shown, off);
			return -1;
		}
		t.has_offset = 1;
		t.offset = (int16_t)(f.zone == '-' ? -off : off);
	} else if (f.zone == 'Z') {
		t.has_offset = 1;
	}
	nd->type = NODE_DATETIME;
	nd->v.t = t;
	return 0;
}

/* PyYAML's construct_yaml_bool: the lower-cased text, looked up. */
static int construct_bool(struct node *nd, const char *text, size_t len,
			  char *msg, size_t size)
{
	static const struct {
		const char *w;
		int v;
	} words[] = {{"yes", 1}, {"true", 1},  {"on", 1},
		     {"no", 0},	 {"false", 0}, {"off", 0}};
	char low[8];
	size_t i;

	if (len < sizeof low) {
		for (i = 0; i < len; i++)
			low[i] = (char)(text[i] >= 'A' && text[i] <= 'Z'
					    ? text[i] + 32
					    : text[i]);
		low[len] = '\0';
		for (i = 0; i < sizeof words / sizeof words[0]; i++)
			if (strcmp(low, words[i].w) == 0) {
				nd->type = NODE_BOOL;
				nd->v.b = words[i].v;
				return 0;
			}
	}
	bad_value(msg, size, text, len,
		  "a boolean (yes/no, true/false, on/off)");
	return -1;
}

int yaml_construct(struct doc *d, struct yaml_scratch *sc, struct node *n,
		   enum ytag t, const char *s, size_t len, char *msg,
		   size_t size)
{
	switch (t) {
	case YT_NULL:
		n->type = NODE_NULL;
		return 0;
	case YT_BOOL:
		return construct_bool(n, s, len, msg, size);
	case YT_INT:
		return construct_int(sc, n, s, len, msg, size);
	case YT_FLOAT:
		return construct_float(sc, n, s, len, msg, size);
	case YT_TIMESTAMP:
		return construct_timestamp(n, s, len, msg, size);
	case YT_STR:
		n->type = NODE_STR;
		n->v.str.s = arena_strndup(&d->arena, s, len);
		n->v.str.len = len;
		return n->v.str.s ? 0 : -2;
	case YT_BINARY:
	case YT_SET:
	case YT_OMAP:
	case YT_PAIRS:
		snprintf(msg, size,
			 "unsupported tag '!!%s': binary, set, omap and pairs "
			 "values are not read",
			 yaml_tag_name(t));
		return -1;
	case YT_SEQ:
	case YT_MAP:
		snprintf(msg, size,
			 "the tag '!!%s' names a collection, not a "
			 "scalar",
			 yaml_tag_name(t));
		return -1;
	case YT_MERGE:
	case YT_VALUE:
		snprintf(msg, size,
			 "'%s' (the %s key) can only be a mapping key",
			 t == YT_MERGE ? "<<" : "=", yaml_tag_name(t));
		return -1;
	default:
		snprintf(msg, size, "unknown tag");
		return -1;
	}
}
