/*
 * argparse_value.c: option values as the types of argparse.h read them
 * (Python float() and int() text through core/util/num, choices exactly,
 * bounds inclusive or strict), the messages that name what broke which
 * rule, and the early scan for "--format json" (spec/core.md 2.6 item 5).
 * A bigint's canonical text goes into the result's storage; nothing here
 * prints.
 */
#include "core/util/argparse_int.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/util/num.h"
#include "core/util/utf8.h"

void ap_text_add(struct ap_text *t, const char *s)
{
	size_t n = strlen(s);

	if (n > sizeof t->buf - 1 - t->len)
		n = sizeof t->buf - 1 - t->len;
	memcpy(t->buf + t->len, s, n);
	t->len += n;
	t->buf[t->len] = '\0';
}

const char *ap_shown(const char *s, char out[AP_SHOW_MAX + 4])
{
	size_t n = strlen(s);

	if (n <= AP_SHOW_MAX)
		return s;
	n = utf8_cut(s, n, AP_SHOW_MAX);
	memcpy(out, s, n);
	memcpy(out + n, "...", 4);
	return out;
}

int ap_usage(struct diag *err, const char *arg, const char *fmt, ...)
{
	va_list ap;
	char tmp[DIAG_MSG_MAX];

	va_start(ap, fmt);
	vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	diag_set(err, DIAG_E_USAGE, 0, 0, "%s", tmp);
	diag_set_path(err, arg);
	err->id[0] = '\0';
	return -1;
}

/* A bound as written in a message: "1", "0.5", "1e+20". */
static const char *bound_text(double b, char out[NUM_REPR_MAX])
{
	if (b == floor(b) && fabs(b) < 1e15)
		num_int((int64_t)b, out);
	else
		num_repr(b, out);
	return out;
}

static int is_space(char ch)
{
	return ch == ' ' || (ch >= '\t' && ch <= '\r');
}

/* The value text without surrounding whitespace, for "got X". */
static const char *trimmed(const char *s, char out[AP_SHOW_MAX + 4])
{
	size_t b = 0, e = strlen(s), n;

	while (is_space(s[b]))
		b++;
	while (e > b && is_space(s[e - 1]))
		e--;
	n = e - b;
	if (n > AP_SHOW_MAX)
		n = utf8_cut(s + b, n, AP_SHOW_MAX);
	memcpy(out, s + b, n);
	if (n < e - b)
		memcpy(out + n, "...", 4);
	else
		out[n] = '\0';
	return out;
}

/* Compare a value with a bound: <0, 0, >0, or 2 for NaN. */
static int cmp_bound(const struct ap_value *v, int is_int, double bound)
{
	if (is_int)
		return num_cmp_int_double(v->i, bound);
	if (isnan(v->f))
		return 2;
	return v->f < bound ? -1 : v->f > bound;
}

static int check_range(const struct ap_option *o, const struct ap_value *v,
		       int is_int, struct diag *err)
{
	char bt[NUM_REPR_MAX], gt[AP_SHOW_MAX + 4];
	int r;

	if (o->has_min) {
		r = cmp_bound(v, is_int, o->min);
		if (r == 2 || r < 0 || (o->min_exclusive && r == 0))
			return ap_usage(
				err, o->name,
				"option '%s' must be %s %s, got %s", o->name,
				o->min_exclusive ? "greater than" : "at least",
				bound_text(o->min, bt), trimmed(v->text, gt));
	}
	if (o->has_max) {
		r = cmp_bound(v, is_int, o->max);
		if (r == 2 || r > 0 || (o->max_exclusive && r == 0))
			return ap_usage(
				err, o->name,
				"option '%s' must be %s %s, got %s", o->name,
				o->max_exclusive ? "less than" : "at most",
				bound_text(o->max, bt), trimmed(v->text, gt));
	}
	return 0;
}

static int convert_choice(const struct ap_option *o, const char *text,
			  struct diag *err)
{
	struct ap_text list;
	char sv[AP_SHOW_MAX + 4];
	size_t i;

	for (i = 0; o->choices && o->choices[i]; i++)
		if (strcmp(o->choices[i], text) == 0)
			return 0;
	list.len = 0;
	list.buf[0] = '\0';
	for (i = 0; o->choices && o->choices[i]; i++) {
		if (i)
			ap_text_add(&list, ", ");
		ap_text_add(&list, o->choices[i]);
	}
	return ap_usage(err, o->name, "'%s' is not one of %s (option '%s')",
			ap_shown(text, sv), list.buf, o->name);
}

static int convert_bigint(const struct ap_option *o, const char *text,
			  struct ap_value *v, struct ap_result *res,
			  struct diag *err)
{
	char sv[AP_SHOW_MAX + 4], *dst = res->storage + res->storage_len;
	int r = num_parse_bigint(text, strlen(text), dst,
				 res->storage_alloc - res->storage_len);

	if (r == -1)
		return ap_usage(err, o->name,
				"'%s' is not an integer (option '%s')",
				ap_shown(text, sv), o->name);
	if (r == -2)
		return ap_usage(err, o->name,
				"option '%s' has more than 4300 digits",
				o->name);
	res->storage_len += strlen(dst) + 1;
	v->text = dst;
	if (num_parse_pyint(dst, strlen(dst), &v->i) != 0)
		v->i = 0;
	return 0;
}

int ap_convert(const struct ap_option *o, const char *text, struct ap_value *v,
	       struct ap_result *res, struct diag *err)
{
	char sv[AP_SHOW_MAX + 4];
	int r;

	memset(v, 0, sizeof *v);
	v->text = text;
	switch (o->type) {
	case AP_FLAG:
		v->b = strcmp(text, "false") != 0 && strcmp(text, "0") != 0 &&
		       text[0] != '\0';
		return 0;
	case AP_STRING:
		return 0;
	case AP_PATH:
		if (text[0] == '\0')
			return ap_usage(
				err, o->name,
				"option '%s' needs a path, got an empty value",
				o->name);
		return 0;
	case AP_CHOICE:
		return convert_choice(o, text, err);
	case AP_FLOAT:
		if (num_parse_pyfloat(text, strlen(text), 1, &v->f) != 0)
			return ap_usage(err, o->name,
					"'%s' is not a number (option '%s')",
					ap_shown(text, sv), o->name);
		if (o->finite && !isfinite(v->f))
			return ap_usage(
				err, o->name,
				"option '%s' must be a finite number, got %s",
				o->name, trimmed(text, sv));
		return check_range(o, v, 0, err);
	case AP_INT:
		r = num_parse_pyint(text, strlen(text), &v->i);
		if (r == -1)
			return ap_usage(err, o->name,
					"'%s' is not an integer (option '%s')",
					ap_shown(text, sv), o->name);
		if (r == -2)
			return ap_usage(
				err, o->name,
				"option '%s' must fit in 64 bits, got %s",
				o->name, trimmed(text, sv));
		v->f = (double)v->i;
		return check_range(o, v, 1, err);
	case AP_BIGINT:
		return convert_bigint(o, text, v, res, err);
	}
	return 0;
}

/* A unique prefix of --format of at least three letters. */
static int is_format_name(const char *s, size_t n, int prefixes)
{
	if (n == 8)
		return strncmp(s, "--format", 8) == 0;
	return prefixes && n >= 5 && n < 8 && strncmp(s, "--format", n) == 0;
}

const char *ap_scan_format(int argc, char **argv, int prefixes)
{
	const char *found = NULL, *a, *eq;
	int i;

	for (i = 0; i < argc && strcmp(argv[i], "--") != 0; i++) {
		a = argv[i];
		eq = strchr(a, '=');
		if (eq && is_format_name(a, (size_t)(eq - a), prefixes))
			found = eq + 1;
		else if (!eq && is_format_name(a, strlen(a), prefixes) &&
			 i + 1 < argc &&
			 (argv[i + 1][0] != '-' || argv[i + 1][1] == '\0'))
			found = argv[++i];
	}
	return found;
}
