/*
 * argparse_help.c: help texts and synopses built from the same tables that
 * ap_parse() reads, so help lists exactly what the parser accepts. Output
 * depends only on the tables: table order, 80 columns, hidden options left
 * out. Nothing here prints; the text goes into the caller's sbuf.
 */
#include "core/util/argparse_int.h"

#include <string.h>

#define HELP_WIDTH 80
#define HELP_COL_MAX 30 /* where option help starts, at most */
#define HELP_INDENT 2

/* A line being filled item by item, wrapping at HELP_WIDTH when 'indent'
 * is set (continuation lines start there). */
struct line {
	struct sbuf *out;
	size_t col;
	size_t indent; /* 0: never wrap */
};

static void line_text(struct line *l, const char *s, size_t n)
{
	sbuf_add(l->out, s, n);
	l->col += n;
}

static void line_pad(struct line *l, size_t col)
{
	while (l->col < col)
		line_text(l, " ", 1);
}

static void line_break(struct line *l)
{
	sbuf_addc(l->out, '\n');
	l->col = 0;
}

/* One item, preceded by a space or by a line break and the indent. */
static void line_item(struct line *l, const char *s)
{
	size_t n = strlen(s);

	if (l->indent && l->col > l->indent && l->col + 1 + n > HELP_WIDTH) {
		line_break(l);
		line_pad(l, l->indent);
	} else {
		line_text(l, " ", 1);
	}
	line_text(l, s, n);
}

/* Words of 's' from the current column on, wrapped at 'indent'. */
static void line_words(struct line *l, const char *s)
{
	const char *p = s, *e;
	char word[HELP_WIDTH * 4];
	int first = 1;

	while (*p) {
		while (*p == ' ')
			p++;
		if (*p == '\n') {
			line_break(l);
			line_pad(l, l->indent);
			p++;
			first = 1;
			continue;
		}
		for (e = p; *e && *e != ' ' && *e != '\n'; e++)
			;
		if (e == p)
			break;
		if ((size_t)(e - p) >= sizeof word)
			e = p + sizeof word - 1;
		memcpy(word, p, (size_t)(e - p));
		word[e - p] = '\0';
		if (first) {
			line_text(l, word, (size_t)(e - p));
			first = 0;
		} else {
			line_item(l, word);
		}
		p = e;
	}
}

static int is_default(const struct ap_program *p, const struct ap_verb *v)
{
	return p->syntax.default_verb &&
	       strcmp(p->syntax.default_verb, v->name) == 0;
}

static const struct ap_verb *default_verb(const struct ap_program *p)
{
	size_t i;

	for (i = 0; p->syntax.default_verb && i < p->nverbs; i++)
		if (is_default(p, &p->verbs[i]))
			return &p->verbs[i];
	return NULL;
}

/* Whether the synopsis of 'v' names it: not for the verb of a program
 * without verb words, a default verb or one selected by a flag. */
static int has_word(const struct ap_program *p, const struct ap_verb *v)
{
	if (ap_no_verb_word(p) || is_default(p, v))
		return 0;
	return !(p->syntax.default_verb && v->nselect > 0);
}

/* Whether some verb can be named by a word at all. */
static int any_word(const struct ap_program *p)
{
	size_t i;

	for (i = 0; i < p->nverbs; i++)
		if (has_word(p, &p->verbs[i]))
			return 1;
	return 0;
}

/* The metavar: given, the choices "a|b", or the name in capitals. */
static void metavar(const struct ap_option *o, struct sbuf *out)
{
	const char *p;
	size_t i;

	if (o->metavar) {
		sbuf_adds(out, o->metavar);
	} else if (o->type == AP_CHOICE && o->choices) {
		for (i = 0; o->choices[i]; i++) {
			if (i)
				sbuf_addc(out, '|');
			sbuf_adds(out, o->choices[i]);
		}
	} else {
		for (p = o->name; *p == '-'; p++)
			;
		for (; *p; p++)
			sbuf_addc(out, *p == '-' ? '_'
				       : (*p >= 'a' && *p <= 'z')
					       ? (char)(*p - 'a' + 'A')
					       : *p);
	}
}

/* "--density KW", "[--rung NAME]", "[--set KV]...". */
static void option_item(const struct ap_option *o, struct sbuf *out)
{
	if (!o->required)
		sbuf_addc(out, '[');
	sbuf_adds(out, o->name);
	if (o->type != AP_FLAG) {
		sbuf_addc(out, ' ');
		metavar(o, out);
	}
	if (!o->required)
		sbuf_addc(out, ']');
	if (o->repeat_append)
		sbuf_adds(out, "...");
}

static void operands_item(const struct ap_operands *od, struct sbuf *out)
{
	const char *name = od->name ? od->name : "OPERAND";

	if (od->max == 0)
		return;
	if (od->min == 0)
		sbuf_addc(out, '[');
	sbuf_adds(out, name);
	if (od->max > 1)
		sbuf_adds(out, "...");
	if (od->min == 0)
		sbuf_addc(out, ']');
}

static int is_select_option(const struct ap_verb *v, const char *name)
{
	size_t i;

	for (i = 0; i < v->nselect; i++)
		if (strcmp(v->select[i], name) == 0)
			return 1;
	return 0;
}

/* Whether the program's name already ends in the verb's ("infragate lint"):
 * a program without verb words may be named either way. */
static int names_verb(const struct ap_program *p, const struct ap_verb *v)
{
	size_t n = strlen(p->name), m = strlen(v->name);

	return n > m && p->name[n - m - 1] == ' ' &&
	       strcmp(p->name + n - m, v->name) == 0;
}

/* One usage form of 'v' from the current column; 'word': name the verb. */
static void verb_usage(const struct ap_program *p, const struct ap_verb *v,
		       int word, struct line *l)
{
	struct sbuf item = SBUF_INIT;
	size_t i;

	line_text(l, p->name, strlen(p->name));
	if (word || (ap_no_verb_word(p) && !names_verb(p, v)))
		line_item(l, v->name);
	if (l->indent)
		l->indent = l->col + 1;
	if (!word && p->syntax.default_verb && v->nselect)
		line_item(l, v->select[0]);
	line_item(l, "[-h]");
	for (i = 0; i < v->noptions; i++) {
		if (v->options[i].hidden ||
		    (!word && is_select_option(v, v->options[i].name)))
			continue;
		sbuf_reset(&item);
		option_item(&v->options[i], &item);
		line_item(l, sbuf_cstr(&item));
	}
	sbuf_reset(&item);
	operands_item(&v->operands, &item);
	if (item.len)
		line_item(l, sbuf_cstr(&item));
	sbuf_release(&item);
}

void ap_synopsis(const struct ap_program *prog, const struct ap_verb *verb,
		 struct sbuf *out)
{
	struct line l = { out, 0, 0 };

	sbuf_adds(out, "usage: ");
	if (!verb)
		verb = default_verb(prog);
	if (verb) {
		verb_usage(prog, verb, has_word(prog, verb), &l);
	} else {
		sbuf_adds(out, prog->name);
		sbuf_adds(out, " [-h] COMMAND [ARGS...]");
	}
}

/* The usage lines of the program's help: every form it accepts. */
static void program_usage(const struct ap_program *p, struct sbuf *out)
{
	struct line l = { out, 0, 1 };
	const char *head = "usage: ";
	size_t i;
	int lines = 0;

	for (i = 0; p->syntax.default_verb && i < p->nverbs; i++) {
		const struct ap_verb *v = &p->verbs[i];

		if (has_word(p, v) && !is_default(p, v))
			continue;
		line_text(&l, head, strlen(head));
		l.indent = 1;
		verb_usage(p, v, 0, &l);
		line_break(&l);
		head = "       ";
		lines++;
	}
	for (i = 0; any_word(p) && i < p->nverbs; i++) {
		const struct ap_verb *v = &p->verbs[i];

		if (!p->syntax.default_verb)
			break;
		if (!has_word(p, v) && !is_default(p, v))
			continue;
		line_text(&l, head, strlen(head));
		l.indent = 1;
		verb_usage(p, v, 1, &l);
		line_break(&l);
		head = "       ";
		lines++;
	}
	if (!lines) {
		sbuf_adds(out, head);
		sbuf_adds(out, p->name);
		sbuf_adds(out, " [-h] COMMAND [ARGS...]\n");
	}
}

static void paragraph(struct sbuf *out, const char *text)
{
	struct line l = { out, 0, 0 };

	if (!text || !*text)
		return;
	line_break(&l);
	line_words(&l, text);
	line_break(&l);
}

/* The left column of an option: "-p, --policy NAME". */
static void option_entry(const struct ap_option *o, struct sbuf *out)
{
	if (o->short_name) {
		sbuf_adds(out, o->short_name);
		sbuf_adds(out, ", ");
	}
	sbuf_adds(out, o->name);
	if (o->type != AP_FLAG) {
		sbuf_addc(out, ' ');
		metavar(o, out);
	}
}

static void option_help(const struct ap_option *o, struct sbuf *out)
{
	if (o->help)
		sbuf_adds(out, o->help);
	if (o->required)
		sbuf_adds(out, o->help ? " (required)" : "(required)");
	if (o->repeat_append)
		sbuf_adds(out, out->len ? " (repeatable)" : "(repeatable)");
	if (o->dflt && o->type != AP_FLAG) {
		sbuf_adds(out, out->len ? " (default: " : "(default: ");
		sbuf_adds(out, o->dflt);
		sbuf_addc(out, ')');
	}
}

/* One row of a two-column table: the entry, then wrapped help. */
static void table_row(struct sbuf *out, const char *entry, const char *help,
		      size_t col)
{
	struct line l = { out, 0, col };

	line_pad(&l, HELP_INDENT);
	line_text(&l, entry, strlen(entry));
	if (*help) {
		if (l.col + 2 > col)
			line_break(&l);
		line_pad(&l, col);
		line_words(&l, help);
	}
	line_break(&l);
}

static size_t entry_col(size_t widest)
{
	size_t col = HELP_INDENT + widest + 2;

	return col > HELP_COL_MAX ? HELP_COL_MAX : col;
}

/* The k-th option listed in help: the verb's, or (verb NULL) the
 * before_verb options of every verb, each name once; NULL past the end. */
static const struct ap_option *listed(const struct ap_program *p,
				      const struct ap_verb *verb, size_t k)
{
	size_t v, i, n = 0;

	for (i = 0; verb && i < verb->noptions; i++)
		if (!verb->options[i].hidden && n++ == k)
			return &verb->options[i];
	for (v = 0; !verb && v < p->nverbs; v++)
		for (i = 0; i < p->verbs[v].noptions; i++)
			if (!p->verbs[v].options[i].hidden &&
			    p->verbs[v].options[i].before_verb &&
			    !ap_before_seen(p, v, i) && n++ == k)
				return &p->verbs[v].options[i];
	return NULL;
}

/* The "options:" table, -h/--help first. */
static void options_table(const struct ap_program *p, const struct ap_verb *v,
			  struct sbuf *out)
{
	static const char help_entry[] = "-h, --help";
	struct sbuf entry = SBUF_INIT, help = SBUF_INIT;
	const struct ap_option *o;
	size_t k, col, widest = strlen(help_entry);

	for (k = 0; (o = listed(p, v, k)) != NULL; k++) {
		sbuf_reset(&entry);
		option_entry(o, &entry);
		if (entry.len > widest &&
		    HELP_INDENT + entry.len + 2 <= HELP_COL_MAX)
			widest = entry.len;
	}
	col = entry_col(widest);
	sbuf_adds(out, "\noptions:\n");
	table_row(out, help_entry, "show this help and exit", col);
	for (k = 0; (o = listed(p, v, k)) != NULL; k++) {
		sbuf_reset(&entry);
		option_entry(o, &entry);
		sbuf_reset(&help);
		option_help(o, &help);
		table_row(out, sbuf_cstr(&entry), sbuf_cstr(&help), col);
	}
	sbuf_release(&entry);
	sbuf_release(&help);
}

static void commands_table(const struct ap_program *p, struct sbuf *out)
{
	size_t i, widest = 0;

	for (i = 0; i < p->nverbs; i++)
		if (has_word(p, &p->verbs[i]) || is_default(p, &p->verbs[i]))
			if (strlen(p->verbs[i].name) > widest)
				widest = strlen(p->verbs[i].name);
	sbuf_adds(out, "\ncommands:\n");
	for (i = 0; i < p->nverbs; i++)
		if (has_word(p, &p->verbs[i]) || is_default(p, &p->verbs[i]))
			table_row(out, p->verbs[i].name,
				  p->verbs[i].summary ? p->verbs[i].summary
						      : "",
				  entry_col(widest));
}

void ap_help(const struct ap_program *prog, const struct ap_verb *verb,
	     struct sbuf *out)
{
	struct line l = { out, 0, 1 };

	if (!verb && ap_no_verb_word(prog)) {
		verb = &prog->verbs[0];
		line_text(&l, "usage: ", 7);
		verb_usage(prog, verb, 0, &l);
		line_break(&l);
		paragraph(out, prog->summary ? prog->summary : verb->summary);
		paragraph(out, prog->help ? prog->help : verb->help);
		options_table(prog, verb, out);
		return;
	}
	if (!verb) {
		program_usage(prog, out);
		paragraph(out, prog->summary);
		paragraph(out, prog->help);
		if (any_word(prog))
			commands_table(prog, out);
		options_table(prog, default_verb(prog), out);
		return;
	}
	line_text(&l, "usage: ", 7);
	verb_usage(prog, verb, has_word(prog, verb), &l);
	line_break(&l);
	paragraph(out, verb->summary);
	paragraph(out, verb->help);
	options_table(prog, verb, out);
}
