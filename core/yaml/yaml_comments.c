/*
 * yaml_comments.c: the comments of a YAML text, for inline suppression
 * (spec/core.md 9.1). libyaml does not report comments, so the decoded
 * text is scanned: a '#' at the start of a line or after a space or tab
 * starts a comment, unless it lies inside a quoted or block scalar, whose
 * extents the loader took from the parser's marks. A scalar's marks start
 * at its properties (tag, anchor), which a comment may follow, so the
 * scanner walks over those itself; a block scalar's header line may end
 * in a comment, its content lines never hold one. Lines and columns move
 * exactly as libyaml's marks do. Each comment learns the line it
 * annotates: its own when content precedes it, else the next line that
 * holds content (block scalar lines included).
 */
#include "core/yaml/yaml_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum scan_state {
	SC_NORMAL, /* outside every scalar we know of */
	SC_PROPS,  /* a non-plain scalar's properties, before its text */
	SC_QUOTED, /* inside a quoted scalar */
	SC_HEADER, /* the rest of a block scalar's header line */
	SC_BLOCK   /* a block scalar's content lines */
};

/* Length of a line break at p (0 when none): LF, CRLF, CR, NEL, LS, PS. */
static size_t line_break(const char *p, const char *end)
{
	const unsigned char *u = (const unsigned char *)p;

	if (*p == '\n')
		return 1;
	if (*p == '\r')
		return p + 1 < end && p[1] == '\n' ? 2 : 1;
	if (end - p >= 2 && u[0] == 0xC2 && u[1] == 0x85)
		return 2;
	if (end - p >= 3 && u[0] == 0xE2 && u[1] == 0x80 &&
	    (u[2] == 0xA8 || u[2] == 0xA9))
		return 3;
	return 0;
}

struct scan {
	struct yaml_file *f;
	size_t alloc;
	unsigned char *content; /* per line (index = line - 1) */
	size_t lines, lines_alloc;
};

static int mark_line(struct scan *s, uint32_t line)
{
	size_t need = line;

	if (need > s->lines_alloc) {
		size_t na = s->lines_alloc ? s->lines_alloc * 2 : 256;
		unsigned char *v;

		while (na < need)
			na *= 2;
		v = realloc(s->content, na);
		if (!v)
			return -1;
		memset(v + s->lines_alloc, 0, na - s->lines_alloc);
		s->content = v;
		s->lines_alloc = na;
	}
	if (need > s->lines)
		s->lines = need;
	return 0;
}

static int add_comment(struct scan *s, uint32_t line, uint32_t col,
		       int trailing, const char *text, size_t len)
{
	struct yaml_file *f = s->f;
	struct yaml_comment *c;

	if (f->ncomments == s->alloc) {
		size_t na = s->alloc ? s->alloc * 2 : 16;
		struct yaml_comment *v = realloc(f->comments, na * sizeof *v);

		if (!v)
			return -1;
		f->comments = v;
		s->alloc = na;
	}
	c = &f->comments[f->ncomments++];
	c->line = line;
	c->col = col;
	c->trailing = trailing;
	c->applies_line = trailing ? line : 0;
	c->text = text;
	c->len = len;
	return 0;
}

/* The comments' lines: a comment alone on its line annotates the next
 * line that holds content. */
static void resolve_lines(struct scan *s)
{
	struct yaml_file *f = s->f;
	uint32_t next = 0;
	size_t i, l, ci = f->ncomments;

	/* Walk lines from the last; comments are in line order. */
	for (l = s->lines; l-- > 0;) {
		while (ci > 0 && f->comments[ci - 1].line == l + 1) {
			struct yaml_comment *c = &f->comments[--ci];

			if (!c->trailing)
				c->applies_line = next;
		}
		if (s->content[l])
			next = (uint32_t)l + 1;
	}
	for (i = 0; i < ci; i++)
		if (!f->comments[i].trailing)
			f->comments[i].applies_line = next;
}

/* Where the state next changes: a span's start outside spans, its end
 * inside one. */
static size_t boundary(enum scan_state st, const struct yaml_span *spans,
		       size_t nspans, size_t k)
{
	if (k >= nspans)
		return SIZE_MAX;
	return st == SC_NORMAL ? spans[k].start : spans[k].end;
}

int yaml_scan_comments(struct yaml_file *f, const struct yaml_span *spans,
		       size_t nspans)
{
	const char *p = f->text, *end = f->text + f->len;
	enum scan_state st = SC_NORMAL;
	uint32_t line = 1, col = 1;
	int ws = 1, content = 0, in_prop = 0;
	size_t k = 0, ci = 0, next = boundary(st, spans, nspans, 0);
	struct scan s;

	memset(&s, 0, sizeof s);
	s.f = f;
	f->comments = NULL;
	f->ncomments = 0;
	/* Every comment starts with '#' (the UTF-8 text has no other byte of
	 * that value): with none, there is nothing to find, and most files
	 * a linter reads carry no comment at all. */
	if (!memchr(f->text, '#', f->len))
		return 0;
	if (mark_line(&s, 1) < 0)
		goto fail;
	while (p < end) {
		unsigned char c = (unsigned char)*p;
		size_t br = 0, w = 1;

		/* The common case: an ordinary character, no boundary. */
		if (ci < next && c > ' ' && c < 0x7F && c != '#') {
			content = 1;
			ws = 0;
			if (st == SC_PROPS && !in_prop) {
				if (c == '!' || c == '&')
					in_prop = 1;
				else if (c == '|' || c == '>')
					st = SC_HEADER;
				else
					st = SC_QUOTED;
			}
			p++;
			ci++;
			col++;
			continue;
		}
		while (ci >= next) {
			if (st == SC_NORMAL) {
				st = SC_PROPS;
				in_prop = 0;
			} else {
				st = SC_NORMAL;
				k++;
			}
			next = boundary(st, spans, nspans, k);
		}
		if (c == '\n' || c == '\r' || c == 0xC2 || c == 0xE2)
			br = line_break(p, end);
		if (br) {
			if (content)
				s.content[line - 1] = 1;
			if (st == SC_HEADER)
				st = SC_BLOCK;
			p += br;
			ci += br == 2 && c == '\r' ? 2 : 1; /* CRLF: two */
			line++;
			col = 1;
			ws = 1;
			content = 0;
			in_prop = 0;
			if (mark_line(&s, line) < 0)
				goto fail;
			continue;
		}
		if (c == ' ' || c == '\t') {
			ws = 1;
			in_prop = 0;
		} else if (c == '#' && ws && st != SC_QUOTED &&
			   st != SC_BLOCK) {
			const char *t = p + 1, *e = t;

			while (e < end && *e != '\n' && *e != '\r' &&
			       !line_break(e, end))
				e++;
			if (add_comment(&s, line, col, content, t,
					(size_t)(e - t)) < 0)
				goto fail;
			/* The rest of the line is the comment: count its
			 * characters, no state changes inside it. */
			for (; p < e; p++)
				if (((unsigned char)*p & 0xC0) != 0x80)
					ci++;
			continue;
		} else {
			content = 1;
			ws = 0;
			if (st == SC_PROPS && !in_prop) {
				if (c == '!' || c == '&')
					in_prop = 1;
				else if (c == '|' || c == '>')
					st = SC_HEADER;
				else
					st = SC_QUOTED;
			}
		}
		/* One whole character: columns count code points. */
		if (c >= 0xF0)
			w = 4;
		else if (c >= 0xE0)
			w = 3;
		else if (c >= 0xC0)
			w = 2;
		p += (size_t)(end - p) < w ? (size_t)(end - p) : w;
		ci++;
		col++;
	}
	if (content)
		s.content[line - 1] = 1;
	resolve_lines(&s);
	free(s.content);
	return 0;
fail:
	free(s.content);
	free(f->comments);
	f->comments = NULL;
	f->ncomments = 0;
	return -1;
}
