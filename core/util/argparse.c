/*
 * argparse.c: turning argv into typed option values against the tables of
 * argparse.h, the way Python's argparse did for the published tools and
 * spec/core.md 2.4 and 5.9 say for the rest. Parsing runs in argparse's
 * order: every token of a verb is classified first (so an ambiguous prefix
 * anywhere wins), values are then converted left to right (the first bad
 * value wins), and only at the end come missing options and operands and,
 * last, unknown options and stray operands. Values are checked in
 * argparse_value.c, help is written by argparse_help.c. Nothing here
 * prints or keeps state between calls.
 */
#include "core/util/argparse.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util/argparse_int.h"
#include "core/util/num.h"

#define AP_HELP_LONG "--help"
#define AP_HELP_SHORT "-h"
#define AP_SUGGEST_MAX 64 /* longest name a suggestion is computed for */

enum ap_tok_kind {
	TOK_OPERAND, /* an operand, or the value of the option before it */
	TOK_END,     /* "--" */
	TOK_OPTION,
	TOK_HELP,
	TOK_SKIP, /* a select flag the selected verb does not list */
	TOK_UNKNOWN
};

struct ap_tok {
	enum ap_tok_kind kind;
	const struct ap_option *o; /* TOK_OPTION */
	size_t opt;	   /* TOK_OPTION: index in its verb's option table */
	const char *value; /* "=VALUE" or an attached short value, or NULL */
};

struct ap_ctx {
	const struct ap_program *prog;
	const struct ap_verb *verb; /* NULL while looking for the verb */
	int restricted;		    /* before the verb word */
	struct ap_result *res;
	struct diag *err;
	const char *deferred; /* first unknown option or stray operand */
	int deferred_option;  /* it is an option (else an operand) */
	int deferred_before;  /* it came before the verb */
};

static int no_memory(struct ap_ctx *c)
{
	diag_set(c->err, DIAG_E_NOMEM, 0, 0,
		 "out of memory parsing the command line");
	diag_set_path(c->err, "");
	return -1;
}

/* ---- option lookup ---------------------------------------------------- */

int ap_before_seen(const struct ap_program *p, size_t v, size_t i)
{
	size_t w, j;

	for (w = 0; w <= v; w++)
		for (j = 0; j < (w == v ? i : p->verbs[w].noptions); j++)
			if (p->verbs[w].options[j].before_verb &&
			    strcmp(p->verbs[w].options[j].name,
				   p->verbs[v].options[i].name) == 0)
				return 1;
	return 0;
}

/*
 * The k-th option that can match now, or NULL past the end: the verb's
 * options (only its before_verb ones when restricted) or, before the verb
 * is known, the before_verb options of every verb, each name once.
 */
static const struct ap_option *cand(const struct ap_ctx *c, size_t k,
				    size_t *idx)
{
	const struct ap_program *p = c->prog;
	size_t v, i, n = 0;

	if (c->verb) {
		for (i = 0; i < c->verb->noptions; i++) {
			if (c->restricted && !c->verb->options[i].before_verb)
				continue;
			if (n++ == k) {
				*idx = i;
				return &c->verb->options[i];
			}
		}
		return NULL;
	}
	for (v = 0; v < p->nverbs; v++)
		for (i = 0; i < p->verbs[v].noptions; i++) {
			if (!p->verbs[v].options[i].before_verb ||
			    ap_before_seen(p, v, i))
				continue;
			if (n++ == k) {
				*idx = i;
				return &p->verbs[v].options[i];
			}
		}
	return NULL;
}

static int opt_abbrev(const struct ap_ctx *c, const struct ap_option *o)
{
	if (o->abbrev != AP_ABBREV_INHERIT)
		return o->abbrev == AP_ABBREV_YES;
	return c->prog->syntax.abbrev == AP_UNIQUE_PREFIX;
}

/* --help takes prefixes wherever any option does (an argparse parser that
 * allows abbreviations allows them for --help too). */
static int help_abbrev(const struct ap_ctx *c)
{
	const struct ap_option *o;
	size_t k, idx;

	if (c->prog->syntax.abbrev == AP_UNIQUE_PREFIX)
		return 1;
	for (k = 0; (o = cand(c, k, &idx)) != NULL; k++)
		if (o->abbrev == AP_ABBREV_YES)
			return 1;
	return 0;
}

static int name_is(const char *name, const char *s, size_t n)
{
	return name && strlen(name) == n && memcmp(name, s, n) == 0;
}

/* An exact long or short name s[0..n). */
static int match_exact(const struct ap_ctx *c, const char *s, size_t n,
		       struct ap_tok *t)
{
	const struct ap_option *o;
	size_t k, idx;

	for (k = 0; (o = cand(c, k, &idx)) != NULL; k++)
		if (name_is(o->name, s, n) || name_is(o->short_name, s, n)) {
			t->kind = TOK_OPTION;
			t->o = o;
			t->opt = idx;
			return 1;
		}
	if (name_is(AP_HELP_LONG, s, n) || name_is(AP_HELP_SHORT, s, n)) {
		t->kind = TOK_HELP;
		return 1;
	}
	return 0;
}

static int has_prefix(const char *name, const char *s, size_t n)
{
	return strlen(name) > n && strncmp(name, s, n) == 0;
}

/* List the options of 'group' that s[0..n) is a prefix of. */
static size_t prefix_matches(const struct ap_ctx *c, const char *s, size_t n,
			     enum ap_group group, struct ap_tok *t,
			     struct ap_text *list)
{
	const struct ap_option *o;
	size_t k, idx, count = 0;

	if (group == AP_GROUP_REFERENCE && help_abbrev(c) &&
	    has_prefix(AP_HELP_LONG, s, n)) {
		t->kind = TOK_HELP;
		ap_text_add(list, AP_HELP_LONG);
		count++;
	}
	for (k = 0; (o = cand(c, k, &idx)) != NULL; k++) {
		if (o->group != group || !opt_abbrev(c, o) ||
		    !has_prefix(o->name, s, n))
			continue;
		if (count)
			ap_text_add(list, "\n");
		ap_text_add(list, o->name);
		t->kind = TOK_OPTION;
		t->o = o;
		t->opt = idx;
		count++;
	}
	return count;
}

/* "--a, --b or --c" from the newline-separated list. */
static void join_names(const struct ap_text *list, struct ap_text *out)
{
	const char *p = list->buf, *nl;
	char name[DIAG_MSG_MAX];

	while ((nl = strchr(p, '\n')) != NULL) {
		memcpy(name, p, (size_t)(nl - p));
		name[nl - p] = '\0';
		ap_text_add(out, name);
		p = nl + 1;
		ap_text_add(out, strchr(p, '\n') ? ", " : " or ");
	}
	ap_text_add(out, p);
}

/*
 * A unique prefix s[0..n) of a long name: the reference group first, then
 * the added one. Returns 1 (found), 0 (none) or -1 (ambiguous: the error).
 */
static int match_prefix(struct ap_ctx *c, const char *s, size_t n,
			struct ap_tok *t)
{
	static const enum ap_group groups[] = { AP_GROUP_REFERENCE,
						AP_GROUP_ADDED };
	struct ap_text list, names;
	char arg[DIAG_PATH_MAX];
	size_t g, count;

	if (n <= 2)
		return 0;
	for (g = 0; g < sizeof groups / sizeof groups[0]; g++) {
		list.len = 0;
		list.buf[0] = '\0';
		count = prefix_matches(c, s, n, groups[g], t, &list);
		if (count == 1)
			return 1;
		if (count > 1) {
			names.len = 0;
			names.buf[0] = '\0';
			join_names(&list, &names);
			if (n >= sizeof arg)
				n = sizeof arg - 1;
			memcpy(arg, s, n);
			arg[n] = '\0';
			return ap_usage(
				c->err, arg,
				"option '%s' is ambiguous: it could be %s", arg,
				names.buf);
		}
	}
	return 0;
}

/* An attached short value: "-j4" is "-j" with "4". */
static int match_short(const struct ap_ctx *c, const char *a, struct ap_tok *t)
{
	const struct ap_option *o;
	size_t k, idx;

	for (k = 0; (o = cand(c, k, &idx)) != NULL; k++)
		if (o->short_name && strlen(o->short_name) == 2 &&
		    strncmp(a, o->short_name, 2) == 0) {
			t->kind = TOK_OPTION;
			t->o = o;
			t->opt = idx;
			t->value = a + 2;
			return 1;
		}
	if (strncmp(a, AP_HELP_SHORT, 2) == 0) {
		t->kind = TOK_HELP;
		t->value = a + 2;
		return 1;
	}
	return 0;
}

static int is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

/* argparse's negative number test: ^-\d+$|^-\d*\.\d+$ (ASCII digits). */
static int is_negative_number(const char *s)
{
	size_t i = 1, d = 0;

	if (s[0] != '-')
		return 0;
	while (is_digit(s[i]))
		i++;
	if (s[i] == '\0')
		return i > 1;
	if (s[i] != '.')
		return 0;
	for (i++; is_digit(s[i]); i++)
		d++;
	return s[i] == '\0' && d > 0;
}

static int is_select(const struct ap_ctx *c, const char *a)
{
	size_t i;

	for (i = 0; c->verb && i < c->verb->nselect; i++)
		if (strcmp(c->verb->select[i], a) == 0)
			return 1;
	return 0;
}

/*
 * What argument 'a' is, in argparse's order: an exact name, a name before
 * '=', a unique prefix or an attached short value, then (with
 * negative_numbers) a negative number or a text with a space, which are
 * operands; anything else starting with '-' is an unknown option.
 * Returns 0, or -1 for an ambiguous prefix.
 */
static int classify(struct ap_ctx *c, const char *a, struct ap_tok *t)
{
	const char *eq;
	size_t n;
	int r;

	t->kind = TOK_OPERAND;
	t->o = NULL;
	t->opt = 0;
	t->value = NULL;
	if (a[0] != '-' || a[1] == '\0')
		return 0;
	if (strcmp(a, "--") == 0) {
		t->kind = TOK_END;
		return 0;
	}
	if (match_exact(c, a, strlen(a), t))
		return 0;
	eq = strchr(a, '=');
	n = eq ? (size_t)(eq - a) : strlen(a);
	if (eq && match_exact(c, a, n, t)) {
		t->value = eq + 1;
		return 0;
	}
	if (a[1] == '-') {
		r = match_prefix(c, a, n, t);
		if (r < 0)
			return -1;
		if (r > 0) {
			t->value = eq ? eq + 1 : NULL;
			return 0;
		}
	} else if (match_short(c, a, t)) {
		return 0;
	}
	if (c->prog->syntax.negative_numbers &&
	    (is_negative_number(a) || strchr(a, ' ')))
		return 0;
	t->kind = is_select(c, a) ? TOK_SKIP : TOK_UNKNOWN;
	return 0;
}

/* ---- unknown options: the closest name ------------------------------ */

/* Edit distance with adjacent transpositions ("fromat" is one from
 * "format"); both strings at most AP_SUGGEST_MAX bytes. */
static size_t distance(const char *a, const char *b)
{
	size_t rows[3][AP_SUGGEST_MAX + 1];
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t *pp = rows[0], *p = rows[1], *cur = rows[2], *tmp;

	for (j = 0; j <= lb; j++)
		p[j] = j;
	for (i = 1; i <= la; i++) {
		cur[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t best = p[j - 1] + (a[i - 1] != b[j - 1]);

			if (p[j] + 1 < best)
				best = p[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && pp[j - 2] + 1 < best)
				best = pp[j - 2] + 1;
			cur[j] = best;
		}
		tmp = pp;
		pp = p;
		p = cur;
		cur = tmp;
	}
	return p[lb];
}

/* The listed long name closest to 'a' (within a third of its length). */
static const char *suggest(const struct ap_ctx *c, const char *a)
{
	const struct ap_option *o;
	const char *best = NULL;
	char name[AP_SUGGEST_MAX + 1];
	size_t k, idx, n, d, bestd = (size_t)-1;
	const char *eq = strchr(a, '=');

	n = eq ? (size_t)(eq - a) : strlen(a);
	if (n > AP_SUGGEST_MAX)
		return NULL;
	memcpy(name, a, n);
	name[n] = '\0';
	for (k = 0; (o = cand(c, k, &idx)) != NULL; k++) {
		if (o->hidden || strlen(o->name) > AP_SUGGEST_MAX)
			continue;
		d = distance(name, o->name);
		if (d < bestd && d * 3 <= strlen(o->name) - 2) {
			bestd = d;
			best = o->name;
		}
	}
	return best;
}

static int set_value(struct ap_ctx *c, size_t idx, const char *text, int given);

/* A float as text that a YAML 1.1 reader types as that float: Python's
 * repr with a fraction before any exponent ("1e-05" is a string to YAML
 * 1.1, "1.0e-05" a float) and the YAML words for the non-finite. */
static void yaml_float_text(double x, char out[NUM_REPR_MAX + 4])
{
	char r[NUM_REPR_MAX];
	const char *e;

	if (isnan(x) || isinf(x)) {
		snprintf(out, NUM_REPR_MAX + 4, "%s",
			 isnan(x) ? ".nan" : x < 0 ? "-.inf" : ".inf");
		return;
	}
	num_repr(x, r);
	e = strchr(r, 'e');
	if (e && !strchr(r, '.'))
		snprintf(out, NUM_REPR_MAX + 4, "%.*s.0%s", (int)(e - r), r, e);
	else
		snprintf(out, NUM_REPR_MAX + 4, "%s", r);
}

/* A shorthand's value, also given to its target as prefix + text; the
 * text lives in the result's storage (sized for it, storage_size). A
 * number goes on as its value, not its text, so that the target's YAML
 * 1.1 typing reads what Python's int() or float() read: `--seed 010` is
 * ten (the text would be octal eight), `--hours 1e3` is 1000.0 (the text
 * would be a string). */
static int expand_value(struct ap_ctx *c, const struct ap_option *o, const char *text,
			const struct ap_value *v)
{
	struct ap_result *res = c->res;
	char num[NUM_REPR_MAX + 4];
	size_t need;
	char *dst;

	if (o->type == AP_INT) {
		snprintf(num, sizeof num, "%lld", (long long)v->i);
		text = num;
	} else if (o->type == AP_FLOAT) {
		yaml_float_text(v->f, num);
		text = num;
	}
	need = strlen(o->expand_prefix) + strlen(text) + 1;
	if (!res->storage || res->storage_alloc - res->storage_len < need)
		return no_memory(c);
	dst = res->storage + res->storage_len;
	snprintf(dst, need, "%s%s", o->expand_prefix, text);
	res->storage_len += need;
	if (set_value(c, o->expand_to, dst, 1) != 0)
		return -1;
	/* The copy remembers where it came from, for the caller's messages. */
	res->slots[o->expand_to].values[res->slots[o->expand_to].nvalues - 1].via = o->name;
	return 0;
}

/* Store the value of option 'idx': appended, or replacing the last. */
static int set_value(struct ap_ctx *c, size_t idx, const char *text, int given)
{
	const struct ap_option *o = &c->verb->options[idx];
	struct ap_slot *s = &c->res->slots[idx];
	struct ap_value v, *vals;

	if (ap_convert(o, text, &v, c->res, c->err) != 0)
		return -1;
	if (o->type == AP_FLAG && given)
		v.b = 1;
	if (!o->repeat_append && s->nvalues) {
		s->values[0] = v;
	} else {
		vals = realloc(s->values, (s->nvalues + 1) * sizeof *vals);
		if (!vals)
			return no_memory(c);
		s->values = vals;
		s->values[s->nvalues++] = v;
	}
	s->given |= given;
	s->has_value = 1;
	if (o->expand_prefix && given)
		return expand_value(c, o, text, &v);
	return 0;
}

static void defer(struct ap_ctx *c, const char *a, int option)
{
	if (c->deferred)
		return;
	c->deferred = a;
	c->deferred_option = option;
	c->deferred_before = c->restricted;
}

static void add_operand(struct ap_ctx *c, const char *a)
{
	struct ap_result *res = c->res;

	if (res->noperands < c->verb->operands.max)
		res->operands[res->noperands++] = a;
	else
		defer(c, a, 0);
}

/* ---- the verb's arguments ------------------------------------------------ */

/*
 * Parse argv[from..to) for the verb. Returns 0, 1 when help was asked (the
 * rest is not looked at) or -1 on an error.
 */
static int parse_span(struct ap_ctx *c, char **argv, int from, int to)
{
	struct ap_tok t, next;
	const struct ap_option *o;
	int i, ended = 0;

	/* argparse classifies every argument before using any. */
	for (i = from; i < to && strcmp(argv[i], "--") != 0; i++)
		if (classify(c, argv[i], &t) != 0)
			return -1;
	for (i = from; i < to; i++) {
		if (ended) {
			add_operand(c, argv[i]);
			continue;
		}
		if (classify(c, argv[i], &t) != 0)
			return -1;
		switch (t.kind) {
		case TOK_END:
			ended = 1;
			break;
		case TOK_OPERAND:
			add_operand(c, argv[i]);
			break;
		case TOK_SKIP:
			break;
		case TOK_UNKNOWN:
			defer(c, argv[i], 1);
			break;
		case TOK_HELP:
			if (t.value)
				return ap_usage(c->err, AP_HELP_LONG,
						"option '%s' takes no value",
						AP_HELP_LONG);
			return 1;
		case TOK_OPTION:
			o = &c->verb->options[t.opt];
			if (o->type == AP_FLAG) {
				if (t.value)
					return ap_usage(
						c->err, o->name,
						"option '%s' takes no value",
						o->name);
				t.value = "true";
			} else if (!t.value) {
				if (i + 1 >= to ||
				    classify(c, argv[i + 1], &next) != 0 ||
				    next.kind != TOK_OPERAND)
					return ap_usage(
						c->err, o->name,
						"option '%s' needs a value",
						o->name);
				t.value = argv[++i];
			}
			if (set_value(c, t.opt, t.value, 1) != 0)
				return -1;
			break;
		}
	}
	return 0;
}

/* Defaults, required options, operand counts, then the deferred errors. */
static int finish(struct ap_ctx *c)
{
	const struct ap_verb *v = c->verb;
	const struct ap_operands *od = &v->operands;
	const char *oname = od->name ? od->name : "OPERAND";
	size_t i;

	for (i = 0; i < v->noptions; i++)
		if (!c->res->slots[i].given && v->options[i].dflt &&
		    set_value(c, i, v->options[i].dflt, 0) != 0)
			return -1;
	for (i = 0; i < v->noptions; i++)
		if (v->options[i].required && !c->res->slots[i].given)
			return ap_usage(c->err, v->options[i].name,
					"missing required option '%s'",
					v->options[i].name);
	if (c->res->noperands < od->min) {
		if (od->min > 1)
			return ap_usage(
				c->err, oname,
				"missing operand %s (at least %zu needed)",
				oname, od->min);
		return ap_usage(c->err, oname, "missing operand %s", oname);
	}
	return 0;
}

static int report_deferred(struct ap_ctx *c)
{
	const struct ap_operands *od;
	const char *near;
	char sv[AP_SHOW_MAX + 4];

	if (!c->deferred)
		return 0;
	if (c->deferred_option && c->deferred_before && c->verb)
		return ap_usage(c->err, c->deferred,
				"unknown option '%s' before the command "
				"(options of '%s' follow it)",
				ap_shown(c->deferred, sv), c->verb->name);
	if (c->deferred_option) {
		c->restricted = 0;
		near = c->verb ? suggest(c, c->deferred) : NULL;
		if (near)
			return ap_usage(
				c->err, c->deferred,
				"unknown option '%s' (did you mean '%s'?)",
				ap_shown(c->deferred, sv), near);
		return ap_usage(c->err, c->deferred, "unknown option '%s'",
				ap_shown(c->deferred, sv));
	}
	od = &c->verb->operands;
	if (od->max == 0)
		return ap_usage(
			c->err, c->deferred,
			"unexpected operand '%s': '%s' takes no operands",
			ap_shown(c->deferred, sv), c->verb->name);
	return ap_usage(c->err, c->deferred,
			"unexpected operand '%s': at most %zu %s allowed",
			ap_shown(c->deferred, sv), od->max,
			od->name ? od->name : "operands");
}

/* ---- finding the verb -------------------------------------------------- */

static int find_verb(const struct ap_program *p, const char *name)
{
	size_t i;

	for (i = 0; name && i < p->nverbs; i++)
		if (strcmp(p->verbs[i].name, name) == 0)
			return (int)i;
	return -1;
}

static int verb_error(struct ap_ctx *c, const char *word)
{
	struct ap_text list;
	char sv[AP_SHOW_MAX + 4];
	size_t i;

	list.len = 0;
	list.buf[0] = '\0';
	for (i = 0; i < c->prog->nverbs; i++) {
		if (i)
			ap_text_add(&list, ", ");
		ap_text_add(&list, c->prog->verbs[i].name);
	}
	if (!word)
		return ap_usage(c->err, "command",
				"no command given; expected one of: %s",
				list.buf);
	return ap_usage(c->err, "command",
			"unknown command '%s'; expected one of: %s",
			ap_shown(word, sv), list.buf);
}

int ap_no_verb_word(const struct ap_program *p)
{
	return p->nverbs == 1 && p->syntax.default_verb &&
	       strcmp(p->verbs[0].name, p->syntax.default_verb) == 0;
}

/* With a default verb: the first argument, a select flag, or the default. */
static int select_default(struct ap_ctx *c, int argc, char **argv, int *vpos)
{
	const struct ap_program *p = c->prog;
	int i, k = find_verb(p, argc > 0 ? argv[0] : NULL);
	size_t v, s;

	if (k >= 0) {
		*vpos = 0;
		return k;
	}
	for (i = 0; i < argc && strcmp(argv[i], "--") != 0; i++)
		for (v = 0; v < p->nverbs; v++)
			for (s = 0; s < p->verbs[v].nselect; s++)
				if (strcmp(p->verbs[v].select[s], argv[i]) == 0)
					return (int)v;
	k = find_verb(p, p->syntax.default_verb);
	if (k < 0)
		return ap_usage(c->err, "command",
				"default command '%s' is not a command",
				p->syntax.default_verb);
	return k;
}

/*
 * Find the verb: skip the before_verb options and their values, then the
 * verb word. Returns the verb's index, -1 on an error, -2 when help was
 * asked before the verb, -3 when there is no verb and none is required.
 * *vpos is the position of the verb word, or -1 when there is none.
 */
static int select_verb(struct ap_ctx *c, int argc, char **argv, int *vpos)
{
	const struct ap_program *p = c->prog;
	struct ap_tok t, next;
	int i, k;

	*vpos = -1;
	if (ap_no_verb_word(p))
		return 0;
	if (p->syntax.default_verb)
		return select_default(c, argc, argv, vpos);
	for (i = 0; i < argc; i++) {
		if (classify(c, argv[i], &t) != 0)
			return -1;
		if (t.kind == TOK_HELP)
			return t.value ? ap_usage(c->err, AP_HELP_LONG,
						  "option '%s' takes no value",
						  AP_HELP_LONG)
				       : -2;
		if (t.kind == TOK_END) {
			i++;
			break;
		}
		if (t.kind == TOK_OPERAND)
			break;
		if (t.kind != TOK_OPTION) {
			defer(c, argv[i], 1);
			continue;
		}
		if (t.o->type == AP_FLAG || t.value)
			continue;
		if (i + 1 >= argc || classify(c, argv[i + 1], &next) != 0 ||
		    next.kind != TOK_OPERAND)
			return ap_usage(c->err, t.o->name,
					"option '%s' needs a value", t.o->name);
		i++;
	}
	if (i >= argc) {
		if (p->syntax.verb_required)
			return verb_error(c, NULL);
		return c->deferred ? report_deferred(c) : -3;
	}
	k = find_verb(p, argv[i]);
	if (k < 0)
		return verb_error(c, argv[i]);
	*vpos = i;
	return k;
}

/* Room for every canonical text: each argument and default, once; and for
 * each argument once more behind the longest shorthand prefix. */
static size_t storage_size(const struct ap_verb *v, int argc, char **argv)
{
	size_t n = 0, prefix = 0, i;
	int bigint = 0;

	for (i = 0; i < v->noptions; i++) {
		if (v->options[i].type == AP_BIGINT)
			bigint = 1;
		if (v->options[i].expand_prefix &&
		    strlen(v->options[i].expand_prefix) + 1 > prefix)
			prefix = strlen(v->options[i].expand_prefix) + 1;
	}
	if (!bigint && !prefix)
		return 0;
	/* A number's canonical text may be longer than its argument
	 * ("1e3" -> "1000.0"): NUM_REPR_MAX + 4 covers any. */
	for (i = 0; i < (size_t)argc; i++)
		n += (strlen(argv[i]) + 1) * (bigint ? 1 : 0) +
		     (prefix ? strlen(argv[i]) + prefix + NUM_REPR_MAX + 4 : 0);
	for (i = 0; bigint && i < v->noptions; i++)
		if (v->options[i].dflt)
			n += strlen(v->options[i].dflt) + 1;
	return n;
}

static void release_values(struct ap_result *res)
{
	size_t i;

	for (i = 0; res->slots && res->verb && i < res->verb->noptions; i++)
		free(res->slots[i].values);
	free(res->slots);
	free(res->operands);
	free(res->storage);
	res->slots = NULL;
	res->operands = NULL;
	res->noperands = 0;
	res->storage = NULL;
	res->storage_len = 0;
	res->storage_alloc = 0;
}

static int setup(struct ap_ctx *c, int argc, char **argv)
{
	struct ap_result *res = c->res;
	const struct ap_verb *v = c->verb;

	res->slots = calloc(v->noptions ? v->noptions : 1, sizeof *res->slots);
	res->operands =
		calloc(argc > 0 ? (size_t)argc : 1, sizeof *res->operands);
	res->storage_alloc = storage_size(v, argc, argv);
	if (res->storage_alloc)
		res->storage = malloc(res->storage_alloc);
	if (!res->slots || !res->operands ||
	    (res->storage_alloc && !res->storage))
		return no_memory(c);
	return 0;
}

/* Help was asked: it describes the verb when a word named it (or the
 * program has no verb words), else the program. */
static int help_verb(struct ap_ctx *c, int vpos)
{
	release_values(c->res);
	if (vpos < 0 && !ap_no_verb_word(c->prog))
		c->res->verb = NULL;
	c->res->help = 1;
	return 0;
}

int ap_parse(const struct ap_program *prog, int argc, char **argv,
	     struct ap_result *res, struct diag *err)
{
	struct ap_ctx c;
	int i, k, vpos = -1, r, help_first = 0;

	memset(res, 0, sizeof *res);
	memset(&c, 0, sizeof c);
	c.prog = prog;
	c.res = res;
	c.err = err;
	if (prog->syntax.help_anywhere)
		for (i = 0; i < argc; i++)
			if (strcmp(argv[i], AP_HELP_LONG) == 0 ||
			    strcmp(argv[i], AP_HELP_SHORT) == 0)
				help_first = 1;
	k = prog->nverbs ? select_verb(&c, argc, argv, &vpos)
			 : verb_error(&c, NULL);
	if (k == -2 || (help_first && k < 0)) {
		diag_init(err);
		res->help = 1;
		return 0;
	}
	if (k == -3)
		return 0;
	if (k < 0)
		return -1;
	res->verb = c.verb = &prog->verbs[k];
	res->verb_index = (size_t)k;
	if (help_first)
		return help_verb(&c, vpos);
	c.deferred = NULL;
	if (setup(&c, argc, argv) != 0)
		goto fail;
	c.restricted = 1;
	r = vpos > 0 ? parse_span(&c, argv, 0, vpos) : 0;
	c.restricted = 0;
	if (r == 0)
		r = parse_span(&c, argv, vpos + 1, argc);
	if (r > 0)
		return help_verb(&c, vpos);
	if (r < 0 || finish(&c) != 0 || report_deferred(&c) != 0)
		goto fail;
	return 0;
fail:
	release_values(res);
	return -1;
}

void ap_result_release(struct ap_result *res)
{
	release_values(res);
	memset(res, 0, sizeof *res);
}
