/*
 * yaml_resolve.c: PyYAML's implicit resolvers (spec/yaml.md 2): hand-written
 * matchers behind a dispatch on the first character, tried in PyYAML's
 * order (no regex on this path: it runs on every plain scalar), and the
 * names of the tags. tests/unit/test_yaml.c checks the matchers against the
 * PCRE2 patterns of the spec. Nothing here allocates.
 */
#include "core/yaml/yaml_int.h"

#include <string.h>

/* ---- the implicit resolvers (spec/yaml.md 2.2) ------------------------ */

/* PyYAML's booleans: yes, no, true, false, on and off, each written in
 * lower case, with a capital first letter, or all in capitals ("yes",
 * "Yes", "YES"; not "yEs"). Compared by length and letters, not against
 * eighteen words: this runs on every plain scalar that starts with one of
 * those letters, and most are keys and names. */
static int match_bool(const char *s, size_t n)
{
	static const char *const words[] = { "yes", "no", "true", "false", "on", "off" };
	static const unsigned char lens[] = { 3, 2, 4, 5, 2, 3 };
	size_t i, k;

	if (n < 2 || n > 5)
		return 0;
	for (i = 0; i < sizeof words / sizeof words[0]; i++) {
		const char *w = words[i];
		int lower = 1, upper = 1;

		if (lens[i] != n || (s[0] != w[0] && s[0] != w[0] - 32))
			continue;
		for (k = 1; k < n; k++) {
			lower &= s[k] == w[k];
			upper &= s[k] == w[k] - 32;
		}
		if (lower || (upper && s[0] == w[0] - 32))
			return 1;
	}
	return 0;
}

static int match_null(const char *s, size_t n)
{
	return n == 0 || (n == 1 && s[0] == '~') || word_is(s, n, "null") ||
	       word_is(s, n, "Null") || word_is(s, n, "NULL");
}

/* [0-9_]* from i. */
static size_t span_digits_us(const char *s, size_t i, size_t n)
{
	while (i < n && (is_digit(s[i]) || s[i] == '_'))
		i++;
	return i;
}

/* (?:[eE][-+][0-9]+)? at i, then the end: whether the text ends there. */
static int exponent_then_end(const char *s, size_t i, size_t n)
{
	if (i == n)
		return 1;
	if (s[i] != 'e' && s[i] != 'E')
		return 0;
	if (i + 2 >= n || !is_sign(s[i + 1]) || !is_digit(s[i + 2]))
		return 0;
	for (i += 2; i < n; i++)
		if (!is_digit(s[i]))
			return 0;
	return 1;
}

/* (?::[0-5]?[0-9])+ from s[i] == ':'. A group cannot share a digit run
 * with the next one (each starts with ':'), so each maximal run after a
 * colon must be one digit, or two with the first at most 5. Returns the
 * end of the groups, or 0 when there is none or one is malformed. */
static size_t sexagesimal(const char *s, size_t i, size_t n)
{
	size_t groups = 0;

	while (i < n && s[i] == ':') {
		size_t j = i + 1, k = j;

		while (k < n && is_digit(s[k]))
			k++;
		if (k - j == 0 || k - j > 2 || (k - j == 2 && s[j] > '5'))
			return 0;
		groups++;
		i = k;
	}
	return groups ? i : 0;
}

static int match_float(const char *s, size_t n)
{
	size_t i = 0, j;

	if (n >= 2 && s[0] == '.' && is_digit(s[1])) /* \.[0-9][0-9_]*... */
		return exponent_then_end(s, span_digits_us(s, 2, n), n);
	if (n == 4 && s[0] == '.' &&
	    (word_is(s + 1, 3, "nan") || word_is(s + 1, 3, "NaN") ||
	     word_is(s + 1, 3, "NAN")))
		return 1;
	if (n && is_sign(s[0]))
		i = 1;
	if (n - i == 4 && s[i] == '.' &&
	    (word_is(s + i + 1, 3, "inf") || word_is(s + i + 1, 3, "Inf") ||
	     word_is(s + i + 1, 3, "INF")))
		return 1;
	if (i >= n || !is_digit(s[i]))
		return 0;
	j = span_digits_us(s, i + 1, n);
	if (j < n && s[j] == '.') /* [-+]?[0-9][0-9_]*\.[0-9_]*(exp)? */
		return exponent_then_end(s, span_digits_us(s, j + 1, n), n);
	if (j < n && s[j] == ':') { /* [-+]?[0-9][0-9_]*(:..)+\.[0-9_]* */
		size_t k = sexagesimal(s, j, n);

		return k && k < n && s[k] == '.' &&
		       span_digits_us(s, k + 1, n) == n;
	}
	return 0;
}

static int match_int(const char *s, size_t n)
{
	size_t i = 0, j;

	if (n && is_sign(s[0]))
		i = 1;
	if (i >= n || !is_digit(s[i]))
		return 0;
	if (s[i] == '0') {
		if (i + 1 == n)
			return 1; /* 0 */
		if (s[i + 1] == 'b') {
			for (j = i + 2; j < n; j++)
				if (s[j] != '0' && s[j] != '1' && s[j] != '_')
					return 0;
			return n > i + 2;
		}
		if (s[i + 1] == 'x') {
			for (j = i + 2; j < n; j++)
				if (!is_digit(s[j]) &&
				    !(s[j] >= 'a' && s[j] <= 'f') &&
				    !(s[j] >= 'A' && s[j] <= 'F') &&
				    s[j] != '_')
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
		return 1;				 /* decimal */
	return s[j] == ':' && sexagesimal(s, j, n) == n; /* base 60 */
}

/* A run of 'min'..'max' digits at i that is not followed by a digit;
 * returns its end and its value, or 0. */
static size_t digit_run(const char *s, size_t i, size_t n, size_t min,
			size_t max, int *value)
{
	size_t j = i;
	int v = 0;

	while (j < n && is_digit(s[j]) && j - i < max)
		v = v * 10 + (s[j++] - '0');
	if (j - i < min || (j < n && is_digit(s[j])))
		return 0;
	*value = v;
	return j;
}

/* PyYAML's timestamp patterns. 'loose' is the constructor's pattern (the
 * date-only form takes one-digit month and day too); otherwise the
 * resolver's. Returns whether the whole text matches; fills 'f'. */
int yaml_ts_match(const char *s, size_t n, int loose, struct yaml_ts *f)
{
	size_t i, k;
	int frac_digits = 0;

	memset(f, 0, sizeof *f);
	i = digit_run(s, 0, n, 4, 4, &f->year);
	if (!i || i >= n || s[i] != '-')
		return 0;
	k = digit_run(s, i + 1, n, 1, 2, &f->month);
	if (!k || k >= n || s[k] != '-')
		return 0;
	i = digit_run(s, k + 1, n, 1, 2, &f->day);
	if (!i)
		return 0;
	if (i == n)
		return loose || (k == 7 && i == 10);
	if (s[i] == 'T' || s[i] == 't') {
		i++;
	} else if (s[i] == ' ' || s[i] == '\t') {
		while (i < n && (s[i] == ' ' || s[i] == '\t'))
			i++;
	} else {
		return 0;
	}
	f->has_time = 1;
	i = digit_run(s, i, n, 1, 2, &f->hour);
	if (!i || i >= n || s[i] != ':')
		return 0;
	i = digit_run(s, i + 1, n, 2, 2, &f->minute);
	if (!i || i >= n || s[i] != ':')
		return 0;
	i = digit_run(s, i + 1, n, 2, 2, &f->second);
	if (!i)
		return 0;
	if (i < n && s[i] == '.') {
		/* Truncated to six digits, right-padded with zeros. */
		for (i++; i < n && is_digit(s[i]); i++)
			if (frac_digits < 6) {
				f->usec = f->usec * 10 + (s[i] - '0');
				frac_digits++;
			}
		while (frac_digits < 6) {
			f->usec *= 10;
			frac_digits++;
		}
	}
	if (i == n)
		return 1;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i < n && s[i] == 'Z') {
		f->zone = 'Z';
		return i + 1 == n;
	}
	if (i >= n || !is_sign(s[i]))
		return 0;
	f->zone = s[i];
	i = digit_run(s, i + 1, n, 1, 2, &f->tz_hour);
	if (!i)
		return 0;
	if (i == n)
		return 1;
	if (s[i] != ':')
		return 0;
	i = digit_run(s, i + 1, n, 2, 2, &f->tz_minute);
	return i == n;
}

enum ytag yaml_resolve(const char *s, size_t len)
{
	size_t n = len;
	struct yaml_ts f;

	if (len == 0)
		return YT_NULL;
	/* Python's '$' also matches before one final newline, and no
	 * pattern can consume a newline itself. */
	if (s[n - 1] == '\n')
		n--;
	switch (s[0]) {
	case 'y':
	case 'Y':
	case 't':
	case 'T':
	case 'f':
	case 'F':
	case 'o':
	case 'O':
		return match_bool(s, n) ? YT_BOOL : YT_STR;
	case 'n':
	case 'N':
		if (match_bool(s, n))
			return YT_BOOL;
		return match_null(s, n) ? YT_NULL : YT_STR;
	case '~':
		return n == 1 ? YT_NULL : YT_STR;
	case '.':
		return match_float(s, n) ? YT_FLOAT : YT_STR;
	case '-':
	case '+':
		if (match_float(s, n))
			return YT_FLOAT;
		return match_int(s, n) ? YT_INT : YT_STR;
	case '<':
		return n == 2 && s[1] == '<' ? YT_MERGE : YT_STR;
	case '=':
		return n == 1 ? YT_VALUE : YT_STR;
	case '0':
	case '1':
	case '2':
	case '3':
	case '4':
	case '5':
	case '6':
	case '7':
	case '8':
	case '9':
		if (match_float(s, n))
			return YT_FLOAT;
		if (match_int(s, n))
			return YT_INT;
		return yaml_ts_match(s, n, 0, &f) ? YT_TIMESTAMP : YT_STR;
	default:
		return YT_STR;
	}
}

const char *yaml_resolve_plain(const char *s, size_t len)
{
	return yaml_tag_name(yaml_resolve(s, len));
}

/* ---- tags ------------------------------------------------------------- */

static const char *const tag_names[] = {
    [YT_NULL] = "null",
    [YT_BOOL] = "bool",
    [YT_INT] = "int",
    [YT_FLOAT] = "float",
    [YT_TIMESTAMP] = "timestamp",
    [YT_MERGE] = "merge",
    [YT_VALUE] = "value",
    [YT_STR] = "str",
    [YT_BINARY] = "binary",
    [YT_SET] = "set",
    [YT_OMAP] = "omap",
    [YT_PAIRS] = "pairs",
    [YT_SEQ] = "seq",
    [YT_MAP] = "map",
};

const char *yaml_tag_name(enum ytag t)
{
	return (unsigned)t < YT_UNKNOWN ? tag_names[t] : "unknown";
}

enum ytag yaml_tag_of(const char *tag)
{
	static const char prefix[] = "tag:yaml.org,2002:";
	size_t i;

	if (strncmp(tag, prefix, sizeof prefix - 1) != 0)
		return YT_UNKNOWN;
	tag += sizeof prefix - 1;
	for (i = 0; i < YT_UNKNOWN; i++)
		if (strcmp(tag_names[i], tag) == 0)
			return (enum ytag)i;
	return YT_UNKNOWN;
}
