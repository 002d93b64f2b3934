/*
 * yaml_comments.c: the comments of a YAML text, for inline suppression
 * (spec/core.md 9.1). libyaml does not report comments, so the text is
 * scanned: a '#' at the start of a line or after a space or tab starts a
 * comment unless it lies inside a quoted or block scalar, whose spans the
 * loader recorded from the parser's marks. Each comment learns the line
 * it annotates: its own when it follows content, else the next line that
 * holds content.
 */
#include "core/yaml/yaml_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/util/utf8.h"

struct line_info {
	int content;     /* something other than blanks and a comment */
	long comment;    /* index into f->comments, or -1 */
};

/* Whether (line, col) lies in spans[*k...]; advances *k past spans that
 * end before it (positions only grow). */
static int in_span(const struct yaml_span *s, size_t n, size_t *k,
		   uint32_t line, uint32_t col)
{
	while (*k < n && (s[*k].end_line < line ||
			  (s[*k].end_line == line && s[*k].end_col <= col)))
		(*k)++;
	if (*k >= n)
		return 0;
	if (s[*k].line > line || (s[*k].line == line && s[*k].col > col))
		return 0;
	return 1;
}

/* Length of a line break at p (0 when none): LF, CRLF, CR, NEL, LS, PS. */
static size_t line_break(const char *p, const char *end)
{
	const unsigned char *u = (const unsigned char *)p;

	if (p >= end)
		return 0;
	if (*p == '\n')
		return 1;
	if (*p == '\r')
		return p + 1 < end && p[1] == '\n' ? 2 : 1;
	if (end - p >= 2 && u[0] == 0xC2 && u[1] == 0x85)
		return 2;
	if (end - p >= 3 && u[0] == 0xE2 && u[1] == 0x80 && (u[2] == 0xA8 || u[2] == 0xA9))
		return 3;
	return 0;
}

static int add_comment(struct yaml_file *f, size_t *alloc, uint32_t line,
		       uint32_t col, int trailing, const char *text, size_t len)
{
	struct yaml_comment *c;

	if (f->ncomments == *alloc) {
		size_t na = *alloc ? *alloc * 2 : 16;
		struct yaml_comment *v = realloc(f->comments, na * sizeof *v);

		if (!v)
			return -1;
		f->comments = v;
		*alloc = na;
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

int yaml_scan_comments(struct yaml_file *f, const struct yaml_span *spans,
		       size_t nspans)
{
	const char *p = f->text, *end = f->text + f->len;
	struct line_info *lines = NULL;
	size_t nlines = 0, alloc = 0, calloc_n = 0, k = 0, i;
	uint32_t line = 1;

	while (p <= end) {
		uint32_t col = 1;
		int content = 0, in_comment = 0;
		const char *ls = p;
		size_t br;

		if (nlines == alloc) {
			size_t na = alloc ? alloc * 2 : 64;
			struct line_info *v = realloc(lines, na * sizeof *v);

			if (!v)
				goto fail;
			lines = v;
			alloc = na;
		}
		lines[nlines].comment = -1;
		while (p < end && !(br = line_break(p, end))) {
			uint32_t cp;
			size_t w = utf8_decode((const unsigned char *)p, (size_t)(end - p), &cp);
			int spanned;

			if (w == 0)
				w = 1;
			if (!in_comment) {
				spanned = in_span(spans, nspans, &k, line, col);
				if (*p == '#' && !spanned &&
				    (p == ls || p[-1] == ' ' || p[-1] == '\t')) {
					const char *t = p + 1, *e = t;

					while (e < end && !line_break(e, end))
						e++;
					lines[nlines].comment = (long)f->ncomments;
					if (add_comment(f, &calloc_n, line, col, content, t,
							(size_t)(e - t)) < 0)
						goto fail;
					in_comment = 1;
				} else if (spanned || (*p != ' ' && *p != '\t')) {
					content = 1;
				}
			}
			p += w;
			col++;
		}
		lines[nlines].content = content;
		nlines++;
		if (p >= end)
			break;
		p += line_break(p, end);
		line++;
	}
	/* A comment alone on its line annotates the next line with content. */
	for (i = 0; i < f->ncomments; i++) {
		struct yaml_comment *c = &f->comments[i];
		size_t l;

		if (c->trailing)
			continue;
		for (l = c->line; l < nlines; l++)
			if (lines[l].content) {
				c->applies_line = (uint32_t)l + 1;
				break;
			}
	}
	free(lines);
	return 0;
fail:
	free(lines);
	return -1;
}
