/*
 * glob.c: the globs of spec/core.md 3.4 and the relative paths they are
 * matched against. Matching never recurses and never allocates: within a
 * segment '*' is matched with the classic two-cursor algorithm that keeps
 * only the last star to return to, and across segments "**" is the same
 * algorithm over whole segments, so a hostile glob costs at most the
 * product of the glob's and the path's lengths, never an exponential.
 */
#include "core/engine/policy.h"

#include <string.h>

#include "core/util/utf8.h"

/* The byte length of the character at s (at least 1, at most end - s). */
static size_t char_len(const char *s, const char *end)
{
	uint32_t cp;
	size_t n =
	    utf8_decode((const unsigned char *)s, (size_t)(end - s), &cp);

	return n ? n : 1;
}

/* The code point at s, or the byte itself when the bytes are not UTF-8. */
static uint32_t char_at(const char *s, const char *end, size_t *len)
{
	uint32_t cp;
	size_t n =
	    utf8_decode((const unsigned char *)s, (size_t)(end - s), &cp);

	if (!n) {
		*len = 1;
		return (unsigned char)*s;
	}
	*len = n;
	return cp;
}

/*
 * Match the class starting at p ('[') against code point c. Returns the
 * position after the closing ']' and sets *hit, or NULL when the class is
 * not closed (the '[' is then a literal character).
 */
static const char *class_match(const char *p, const char *pend, uint32_t c,
			       int *hit)
{
	int neg = 0, in = 0;
	const char *q = p + 1;
	size_t n;

	if (q < pend && *q == '!') {
		neg = 1;
		q++;
	}
	if (q < pend && *q == ']') {
		in = c == ']';
		q++;
	}
	while (q < pend && *q != ']') {
		uint32_t lo = char_at(q, pend, &n), hi = lo;

		q += n;
		if (q + 1 < pend && *q == '-' && q[1] != ']') {
			hi = char_at(q + 1, pend, &n);
			q += 1 + n;
		}
		if (c >= lo && c <= hi)
			in = 1;
	}
	if (q >= pend)
		return NULL;
	*hit = in != neg;
	return q + 1;
}

/*
 * Match one token of a segment pattern at p against the character at s.
 * Returns the pattern position after the token, or NULL for no match;
 * *slen is the length of the character consumed.
 */
static const char *token_match(const char *p, const char *pend, const char *s,
			       const char *send, size_t *slen)
{
	size_t n, pn;
	uint32_t c = char_at(s, send, &n);
	int hit = 0;
	const char *q;

	*slen = n;
	if (*p == '?')
		return c == '/' ? NULL : p + 1;
	if (*p == '[') {
		q = class_match(p, pend, c, &hit);
		if (q)
			return hit && c != '/' ? q : NULL;
	}
	pn = char_len(p, pend);
	return pn == n && memcmp(p, s, n) == 0 ? p + pn : NULL;
}

/* Match the segment pattern p[0..pend) against the segment s[0..send). */
static int seg_match(const char *p, const char *pend, const char *s,
		     const char *send)
{
	const char *star_p = NULL, *star_s = NULL, *q;
	size_t n;

	while (s < send) {
		if (p < pend && *p == '*') {
			while (p < pend && *p == '*')
				p++;
			star_p = p;
			star_s = s;
			continue;
		}
		if (p < pend) {
			q = token_match(p, pend, s, send, &n);
			if (q) {
				p = q;
				s += n;
				continue;
			}
		}
		if (!star_p)
			return 0;
		star_s += char_len(star_s, send);
		s = star_s;
		p = star_p;
	}
	while (p < pend && *p == '*')
		p++;
	return p == pend;
}

/* Tail tokens added after the written segments of a glob. */
enum glob_tail { TAIL_NONE, TAIL_ANY0, TAIL_ANY1 };

/* A glob split into segments: real ones start at offsets [0, len), the
 * virtual tail tokens sit at offsets len and len + 1. */
struct gpat {
	const char *s;
	size_t len;
	size_t end; /* offset past the last token */
};

enum { TOK_SEG, TOK_STAR2 };

static size_t seg_end(const char *s, size_t len, size_t off)
{
	const char *e = memchr(s + off, '/', len - off);

	return e ? (size_t)(e - s) : len;
}

/* The kind and text of the token at 'off'. */
static int gtok(const struct gpat *g, size_t off, const char **t, size_t *n,
		enum glob_tail tail)
{
	size_t e;

	if (off >= g->len) {
		/* TAIL_ANY1 is "*" then "**"; TAIL_ANY0 is "**". */
		if (tail == TAIL_ANY1 && off == g->len) {
			*t = "*";
			*n = 1;
			return TOK_SEG;
		}
		*t = "**";
		*n = 2;
		return TOK_STAR2;
	}
	e = seg_end(g->s, g->len, off);
	*t = g->s + off;
	*n = e - off;
	return *n == 2 && (*t)[0] == '*' && (*t)[1] == '*' ? TOK_STAR2
							   : TOK_SEG;
}

static size_t gnext(const struct gpat *g, size_t off)
{
	size_t e;

	if (off >= g->len)
		return off + 1;
	e = seg_end(g->s, g->len, off);
	return e < g->len ? e + 1 : g->len;
}

/* Match the segments of 'g' (with its tail) against path[0..plen). */
static int path_match(const struct gpat *g, enum glob_tail tail,
		      const char *path, size_t plen)
{
	size_t gi = 0, pi = 0, star_g = (size_t)-1, star_p = 0, n, pe;
	const char *t;

	while (pi < plen) {
		pe = seg_end(path, plen, pi);
		if (gi < g->end) {
			if (gtok(g, gi, &t, &n, tail) == TOK_STAR2) {
				gi = star_g = gnext(g, gi);
				star_p = pi;
				continue;
			}
			if (seg_match(t, t + n, path + pi, path + pe)) {
				gi = gnext(g, gi);
				pi = pe < plen ? pe + 1 : plen;
				continue;
			}
		}
		if (star_g == (size_t)-1)
			return 0;
		pe = seg_end(path, plen, star_p);
		star_p = pe < plen ? pe + 1 : plen;
		pi = star_p;
		gi = star_g;
	}
	while (gi < g->end && gtok(g, gi, &t, &n, tail) == TOK_STAR2)
		gi = gnext(g, gi);
	return gi >= g->end;
}

int glob_match(const char *glob, const char *relpath)
{
	struct gpat g;
	enum glob_tail tail = TAIL_NONE;
	size_t glen, plen;
	const char *base;

	if (!glob || !relpath || !*glob || !*relpath)
		return 0;
	glen = strlen(glob);
	plen = strlen(relpath);
	while (plen > 1 && relpath[plen - 1] == '/')
		plen--;
	if (!memchr(glob, '/', glen)) {
		base = relpath + plen;
		while (base > relpath && base[-1] != '/')
			base--;
		return seg_match(glob, glob + glen, base, relpath + plen);
	}
	if (glob[glen - 1] == '/') {
		while (glen > 0 && glob[glen - 1] == '/')
			glen--;
		tail = TAIL_ANY0;
	} else if (glen >= 3 && strcmp(glob + glen - 3, "/**") == 0) {
		glen -= 3;
		tail = TAIL_ANY1;
	}
	g.s = glob;
	g.len = glen;
	g.end = glen + (tail == TAIL_ANY1 ? 2 : tail == TAIL_ANY0 ? 1 : 0);
	return path_match(&g, tail, relpath, plen);
}

int glob_match_any(const char *const *globs, size_t n, const char *relpath)
{
	size_t i;

	if (!relpath)
		return 0;
	for (i = 0; i < n; i++)
		if (glob_match(globs[i], relpath))
			return 1;
	return 0;
}

int glob_names_entry(const char *glob, const char *name, int is_dir)
{
	size_t len = strlen(glob), off = 0, e;
	size_t nlen = strlen(name);
	int dir_tail = 0;

	while (len > 0 && glob[len - 1] == '/') {
		len--;
		dir_tail = 1;
	}
	while (off < len) {
		e = seg_end(glob, len, off);
		/* A file is named by the last segment, a folder by another
		 * (or by the last one of a glob that ends in '/'). */
		if ((e == len && !dir_tail) == !is_dir && e > off &&
		    !strchr("*?[", glob[off]) &&
		    seg_match(glob + off, glob + e, name, name + nlen))
			return 1;
		off = e + 1;
	}
	return 0;
}

const char *glob_problem(const char *glob)
{
	const char *p;
	int hit;

	if (!*glob)
		return "is empty";
	if (*glob == '/')
		return "is absolute: globs are relative to the project root";
	for (p = glob; *p; p++)
		if (*p == '[' && !class_match(p, p + strlen(p), 0, &hit))
			return "has an unclosed '['";
	return NULL;
}

/* Append the segments of 'p' to the normalised absolute path in 'sb',
 * resolving '.' and '..' lexically. */
static void path_push(struct sbuf *sb, const char *p)
{
	size_t n;
	const char *e;

	while (*p) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		e = strchr(p, '/');
		n = e ? (size_t)(e - p) : strlen(p);
		if (n == 1 && p[0] == '.') {
			/* nothing */
		} else if (n == 2 && p[0] == '.' && p[1] == '.') {
			size_t k = sb->len;

			while (k > 0 && sb->buf[k - 1] != '/')
				k--;
			sbuf_truncate(sb, k > 0 ? k - 1 : 0);
		} else {
			sbuf_addc(sb, '/');
			sbuf_add(sb, p, n);
		}
		p += n;
	}
}

/* The normalised absolute form of 'path' ("" for /). */
static void path_abs(struct sbuf *sb, const char *cwd, const char *path)
{
	if (*path != '/' && cwd)
		path_push(sb, cwd);
	path_push(sb, path);
}

int policy_relpath(struct sbuf *out, const char *base, const char *cwd,
		   const char *path, int up)
{
	struct sbuf a = SBUF_INIT, b = SBUF_INIT;
	size_t i, common = 0;
	int rc = 1;

	path_abs(&a, cwd, path);
	path_abs(&b, NULL, base);
	sbuf_reset(out);
	if (a.failed || b.failed) {
		rc = -1;
		goto done;
	}
	/* The longest common prefix that ends at a segment boundary. */
	for (i = 0; i <= b.len && i <= a.len; i++) {
		int bend = i == b.len || b.buf[i] == '/';
		int aend = i == a.len || a.buf[i] == '/';

		if (bend && aend)
			common = i;
		if (i == b.len || i == a.len || a.buf[i] != b.buf[i])
			break;
	}
	if (common < b.len) {
		if (!up) {
			rc = 0;
			goto done;
		}
		for (i = common; i < b.len; i++)
			if (b.buf[i] == '/')
				sbuf_adds(out, "../");
	}
	if (common < a.len)
		sbuf_adds(out, a.buf + common + 1);
	else if (out->len > 0)
		sbuf_truncate(out, out->len - 1);
	sbuf_cstr(out);
	if (out->failed)
		rc = -1;
done:
	sbuf_release(&a);
	sbuf_release(&b);
	return rc;
}
