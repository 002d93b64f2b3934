/*
 * suppress.c: inline suppression comments (spec/core.md 9.1). The YAML
 * loader finds the comments (outside every scalar) and the line each one
 * annotates; this file reads the directive grammar out of them, suppresses
 * the findings they cover, and reports every directive that is malformed,
 * has no reason, names nothing that is loaded or cannot be suppressed, or
 * went unused. It never reads the file text itself, so a '#' inside a
 * quoted or block scalar can never become a directive here.
 */
#include "core/engine/policy.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define SUPP_ARENA_CAP ((size_t)16 << 20)

static const char supp_usage[] =
    "expected '# infragate: ignore|ignore-file ID[, ID...] -- REASON'";

void supp_set_init(struct supp_set *s)
{
	memset(s, 0, sizeof *s);
	arena_init(&s->arena, SUPP_ARENA_CAP);
}

void supp_set_release(struct supp_set *s)
{
	arena_release(&s->arena);
	memset(s, 0, sizeof *s);
}

/* The document of 'yf' that holds 'line', or -1 when it has none. */
static int doc_of_line(const struct yaml_file *yf, uint32_t line)
{
	size_t i;
	int d = yf->ndocs ? 0 : -1;

	for (i = 1; i < yf->ndocs; i++)
		if (yf->docs[i]->start_line <= line)
			d = (int)i;
	return d;
}

static void warn(struct findings *fs, uint32_t line, uint32_t col, int doc,
		 const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void warn(struct findings *fs, uint32_t line, uint32_t col, int doc,
		 const char *fmt, ...)
{
	struct finding f;
	char msg[DIAG_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	memset(&f, 0, sizeof f);
	f.rule = "engine.suppression";
	f.severity = SEV_WARNING;
	f.message = msg;
	f.line = line;
	f.col = col;
	f.document = doc;
	f.path = doc >= 0 ? "" : NULL;
	findings_add(fs, &f);
}

/* A directive being read: the cursor over the comment text. */
struct cur {
	const char *p, *end;
};

static int at_space(const struct cur *c)
{
	return c->p < c->end && (*c->p == ' ' || *c->p == '\t');
}

/* Skip white space; returns how much was skipped. */
static size_t skip_space(struct cur *c)
{
	const char *p0 = c->p;

	while (at_space(c))
		c->p++;
	return (size_t)(c->p - p0);
}

static int take(struct cur *c, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(c->end - c->p) < n || memcmp(c->p, word, n) != 0)
		return 0;
	c->p += n;
	return 1;
}

/* A pattern token: id characters and '*'. */
static size_t pattern_len(const struct cur *c)
{
	const char *q = c->p;

	while (q < c->end &&
	       strchr("abcdefghijklmnopqrstuvwxyz0123456789.-*", *q) && *q)
		q++;
	return (size_t)(q - c->p);
}

/*
 * Read the directive after "infragate:". Returns 1 with 'd' filled (reason
 * NULL when there is none), or 0 when it is malformed.
 */
static int read_directive(struct supp_set *s, struct cur *c,
			  struct supp_directive *d, int *failed)
{
	const char *pats[64];
	size_t np = 0, n, i;
	const char *r, *re;

	if (!skip_space(c))
		return 0;
	if (take(c, "ignore-file"))
		d->file_wide = 1;
	else if (!take(c, "ignore"))
		return 0;
	if (!skip_space(c))
		return 0;
	for (;;) {
		n = pattern_len(c);
		if (!n || !policy_id_valid(c->p, n, 1) ||
		    np == sizeof pats / sizeof pats[0])
			return 0;
		pats[np] = arena_strndup(&s->arena, c->p, n);
		if (!pats[np])
			*failed = 1;
		np++;
		c->p += n;
		skip_space(c);
		if (c->p < c->end && *c->p == ',') {
			c->p++;
			skip_space(c);
			continue;
		}
		break;
	}
	d->patterns = arena_calloc(&s->arena, np, sizeof(char *));
	d->live = arena_calloc(&s->arena, np, 1);
	if (!d->patterns || !d->live) {
		*failed = 1;
		return 0;
	}
	for (i = 0; i < np; i++)
		d->patterns[i] = pats[i];
	d->npatterns = np;
	if (c->p == c->end)
		return 1; /* no reason */
	/* " -- REASON": the space before "--" was skipped above. */
	if (c->p[-1] != ' ' && c->p[-1] != '\t')
		return 0;
	if (!take(c, "--") || (c->p < c->end && !at_space(c)))
		return 0;
	skip_space(c);
	r = c->p;
	re = c->end;
	while (re > r && (re[-1] == ' ' || re[-1] == '\t' || re[-1] == '\r' ||
			  re[-1] == '\n'))
		re--;
	if (re > r) {
		d->reason = arena_strndup(&s->arena, r, (size_t)(re - r));
		if (!d->reason)
			*failed = 1;
	}
	return 1;
}

/* Mark the patterns that can suppress; report the others. */
static void check_patterns(struct supp_directive *d,
			   const struct supp_rules *rules, struct findings *fs)
{
	size_t i;

	for (i = 0; i < d->npatterns; i++) {
		const char *p = d->patterns[i];

		if (policy_id_core(p))
			warn(fs, d->line, d->col, d->document,
			     "'%s' cannot be suppressed: input.*, engine.* and "
			     "cli.* findings mean the file could not be "
			     "checked",
			     p);
		else if (rules && rules->known && !rules->known(rules->ud, p))
			warn(fs, d->line, d->col, d->document,
			     "suppression names '%s', which matches no loaded "
			     "rule",
			     p);
		else
			d->live[i] = 1;
	}
}

int supp_parse(struct supp_set *s, const char *display,
	       const struct yaml_file *yf, const struct supp_rules *rules,
	       struct findings *fs)
{
	size_t i, alloc = 0;
	int failed = 0;

	s->file = arena_strdup(&s->arena, display);
	if (!s->file)
		return -1;
	for (i = 0; i < yf->ncomments; i++) {
		const struct yaml_comment *cm = &yf->comments[i];
		struct cur c = {cm->text, cm->text + cm->len};
		struct supp_directive d;

		skip_space(&c);
		if (!take(&c, "infragate:"))
			continue;
		memset(&d, 0, sizeof d);
		d.line = cm->line;
		d.col = cm->col;
		d.applies_line = cm->applies_line;
		d.document = doc_of_line(yf, cm->applies_line ? cm->applies_line
							      : cm->line);
		if (!read_directive(s, &c, &d, &failed)) {
			if (!failed)
				warn(fs, d.line, d.col, d.document,
				     "malformed suppression comment; %s",
				     supp_usage);
			continue;
		}
		if (!d.reason) {
			warn(
			    fs, d.line, d.col, d.document,
			    "suppression of '%s' has no reason, so it does not "
			    "apply; add ' -- REASON'",
			    d.patterns[0]);
			continue;
		}
		check_patterns(&d, rules, fs);
		if (s->n == alloc) {
			size_t na = alloc ? alloc * 2 : 8;
			void *p =
			    arena_grow(&s->arena, s->items, s->n, na, sizeof d);

			if (!p)
				return -1;
			s->items = p;
			alloc = na;
		}
		s->items[s->n++] = d;
	}
	return failed ? -1 : (int)s->n;
}

/* Whether a live pattern of 'd' matches 'id'. */
static int directive_names(const struct supp_directive *d, const char *id)
{
	size_t i;

	for (i = 0; i < d->npatterns; i++)
		if (d->live[i] && policy_id_match(d->patterns[i], id))
			return 1;
	return 0;
}

/* "FILE:LINE" of a directive, in the findings' arena. */
static const char *source_of(const struct supp_set *s,
			     const struct supp_directive *d,
			     struct findings *fs)
{
	struct sbuf sb = SBUF_INIT;
	const char *r;

	sbuf_addf(&sb, "%s:%u", s->file, (unsigned)d->line);
	r = sb.failed ? NULL : findings_strdup(fs, sbuf_cstr(&sb));
	sbuf_release(&sb);
	return r;
}

size_t supp_apply(struct supp_set *s, struct findings *fs)
{
	size_t i, j, n = 0;

	for (i = 0; i < fs->n; i++) {
		struct finding *f = &fs->items[i];

		if (f->supp_by || policy_id_core(f->rule))
			continue;
		for (j = 0; j < s->n; j++) {
			struct supp_directive *d = &s->items[j];

			if (!d->file_wide &&
			    (!f->line || f->line != d->applies_line))
				continue;
			if (!directive_names(d, f->rule))
				continue;
			f->supp_by = "inline";
			f->supp_reason = findings_strdup(fs, d->reason);
			f->supp_source = source_of(s, d, fs);
			d->used++;
			n++;
			break;
		}
	}
	return n;
}

/* The patterns of 'd' as "a, b" (cut to fit 'size'). */
static const char *patterns_text(const struct supp_directive *d, char *buf,
				 size_t size)
{
	size_t i, len = 0;
	int k;

	buf[0] = '\0';
	for (i = 0; i < d->npatterns && len < size; i++) {
		k = snprintf(buf + len, size - len, "%s%s", i ? ", " : "",
			     d->patterns[i]);
		if (k < 0)
			break;
		len += (size_t)k;
	}
	return buf;
}

/* Whether a rule named by 'd' ran on document 'doc'. */
static int ran_on(const struct supp_directive *d, const struct policy_ran *ran,
		  size_t nran, size_t doc)
{
	size_t i;

	if (doc >= nran)
		return 0;
	for (i = 0; i < ran[doc].n; i++)
		if (directive_names(d, ran[doc].ids[i]))
			return 1;
	return 0;
}

size_t supp_report_unused(const struct supp_set *s,
			  const struct policy_ran *ran, size_t nran,
			  struct findings *fs)
{
	size_t i, k, n = 0;
	char pats[256];
	int any;

	for (i = 0; i < s->n; i++) {
		const struct supp_directive *d = &s->items[i];

		if (d->used)
			continue;
		any = 0;
		if (d->file_wide) {
			for (k = 0; k < nran && !any; k++)
				any = ran_on(d, ran, nran, k);
		} else if (d->document >= 0) {
			any = ran_on(d, ran, nran, (size_t)d->document);
		}
		if (!any)
			continue;
		if (d->file_wide)
			warn(fs, d->line, d->col, d->document,
			     "unused suppression: no finding of '%s' in this "
			     "file",
			     patterns_text(d, pats, sizeof pats));
		else
			warn(
			    fs, d->line, d->col, d->document,
			    "unused suppression: no finding of '%s' on line %u",
			    patterns_text(d, pats, sizeof pats),
			    (unsigned)d->applies_line);
		n++;
	}
	return n;
}
