/*
 * lpattern.c: the engine's own string.find, string.match, string.gmatch and
 * string.gsub (spec/core.md 6.6), written from the Lua 5.4 manual's pattern
 * semantics so that results, captures and error messages are those of the
 * stock library, with every matcher step counted and charged to a meter.
 * The matcher recurses at most LP_MAXCCALLS deep, like the stock one, and
 * holds nothing but Lua-owned memory and C automatics: the meter, or any
 * pattern error, may longjmp out of it at any step. Nothing here may keep
 * state outside the Lua state (no globals) or print.
 */
#include "core/lua/lpattern.h"

#include <ctype.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#define LP_ESC		  '%'
#define LP_SPECIALS	  "^$*+?.([%-" /* any of these: not a plain find */
#define LP_MAXCAPTURES	  32	       /* LUA_MAXCAPTURES of lstrlib */
#define LP_MAXCCALLS	  200	       /* nesting: else "pattern too complex" */
#define LP_CAP_UNFINISHED (-1)
#define LP_CAP_POSITION	  (-2)
#define LP_BYTES_PER_STEP 64 /* memchr/memcmp bytes worth one step */

struct lp_capture {
	const char *init;
	ptrdiff_t len; /* or LP_CAP_UNFINISHED, _POSITION */
};

/* One matching attempt's state; the subject and pattern are Lua strings. */
struct lp_state {
	const char *src_init;
	const char *src_end; /* at the subject's terminating NUL */
	const char *p_end;   /* at the pattern's terminating NUL */
	lua_State *L;
	const struct lpattern_meter *meter;
	unsigned long steps; /* counted but not yet charged */
	int depth;	     /* nested lp_match calls allowed */
	int level;	     /* captures opened */
	struct lp_capture capture[LP_MAXCAPTURES];
};

/* The state of one gmatch iterator, a userdata in its third upvalue. */
struct lp_gmatch {
	struct lp_state ms;
	const char *src; /* where the next search starts */
	const char *p;
	const char *lastmatch; /* end of the last match, or NULL */
};

/* ---- metering ------------------------------------------------------------ */

static void lp_charge_batches(struct lp_state *ms)
{
	unsigned long n = ms->steps - ms->steps % LPATTERN_BATCH;

	ms->steps -= n; /* before the call: it may not return */
	ms->meter->charge(ms->L, ms->meter->ud, n);
}

static inline void lp_step(struct lp_state *ms, unsigned long n)
{
	ms->steps += n;
	if (ms->steps >= LPATTERN_BATCH)
		lp_charge_batches(ms);
}

/* The steps a memchr or memcmp over 'len' bytes is worth. */
static unsigned long lp_bulk(size_t len)
{
	return 1 + (unsigned long)(len / LP_BYTES_PER_STEP);
}

/* Charge what is left; the end of every top-level call comes through here. */
static void lp_flush(struct lp_state *ms)
{
	unsigned long n = ms->steps;

	ms->steps = 0;
	if (n)
		ms->meter->charge(ms->L, ms->meter->ud, n);
}

_Noreturn static void lp_error(struct lp_state *ms, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Raise a pattern error after charging the steps spent so far. The message
 * is built as luaL_error builds it, so it carries the position of the Lua
 * code that called find/match/gsub or the gmatch iterator, as stock does.
 */
_Noreturn static void lp_error(struct lp_state *ms, const char *fmt, ...)
{
	va_list ap;

	lp_flush(ms);
	luaL_where(ms->L, 1);
	va_start(ap, fmt);
	lua_pushvfstring(ms->L, fmt, ap);
	va_end(ap);
	lua_concat(ms->L, 2);
	lua_error(ms->L);
	abort(); /* not reached: lua_error longjmps, but is not noreturn */
}

/* ---- single characters --------------------------------------------------- */

/* Does byte 'c' belong to class letter 'cl' (%a, %D, ...), or equal it? */
static int lp_class(int c, int cl)
{
	int res;

	switch (tolower(cl)) {
	case 'a': res = isalpha(c); break;
	case 'c': res = iscntrl(c); break;
	case 'd': res = isdigit(c); break;
	case 'g': res = isgraph(c); break;
	case 'l': res = islower(c); break;
	case 'p': res = ispunct(c); break;
	case 's': res = isspace(c); break;
	case 'u': res = isupper(c); break;
	case 'w': res = isalnum(c); break;
	case 'x': res = isxdigit(c); break;
	case 'z': res = (c == 0); break; /* deprecated, still accepted */
	default: return cl == c;
	}
	return islower(cl) ? res : !res;
}

/* Is 'c' in the set from '[' at 'p' to its closing ']' at 'ec'? */
static int lp_set(struct lp_state *ms, int c, const char *p, const char *ec)
{
	int in = 1;

	if (p[1] == '^') {
		in = 0;
		p++;
	}
	while (++p < ec) {
		lp_step(ms, 1);
		if (*p == LP_ESC) {
			p++;
			if (lp_class(c, (unsigned char)*p))
				return in;
		} else if (p[1] == '-' && p + 2 < ec) {
			if ((unsigned char)p[0] <= c &&
			    c <= (unsigned char)p[2])
				return in;
			p += 2;
		} else if ((unsigned char)*p == c) {
			return in;
		}
	}
	return !in;
}

/* Return the end of the single-character class starting at 'p'. */
static const char *lp_class_end(struct lp_state *ms, const char *p)
{
	switch (*p++) {
	case LP_ESC:
		if (p == ms->p_end)
			lp_error(ms, "malformed pattern (ends with '%%')");
		return p + 1;
	case '[':
		if (*p == '^')
			p++;
		do { /* the first character is in the set, even a ']' */
			lp_step(ms, 1);
			if (p == ms->p_end)
				lp_error(ms, "malformed pattern (missing ']')");
			if (*p++ == LP_ESC && p < ms->p_end)
				p++;
		} while (*p != ']');
		return p + 1;
	default: return p;
	}
}

/* Does the subject byte at 's' match the class from 'p' to 'ep'? */
static int lp_single(struct lp_state *ms, const char *s, const char *p,
		     const char *ep)
{
	int c;

	lp_step(ms, 1);
	if (s >= ms->src_end)
		return 0;
	c = (unsigned char)*s;
	switch (*p) {
	case '.': return 1;
	case LP_ESC: return lp_class(c, (unsigned char)p[1]);
	case '[': return lp_set(ms, c, p, ep - 1);
	default: return (unsigned char)*p == c;
	}
}

/* ---- the matcher --------------------------------------------------------- */

/*
 * The matcher recurses on captures and quantifiers, as the stock one does,
 * and like it stops at LP_MAXCCALLS levels with "pattern too complex": the
 * same patterns must fail the same way, and 200 levels are a few KiB.
 */
/* NOLINTBEGIN(misc-no-recursion) */

static const char *lp_match(struct lp_state *ms, const char *s, const char *p);

/* %bxy at 'p' (after the "%b"): the end of the balanced run at 's', or NULL. */
static const char *lp_balance(struct lp_state *ms, const char *s, const char *p)
{
	int open = 1;

	if (p >= ms->p_end - 1)
		lp_error(ms, "malformed pattern (missing arguments to '%%b')");
	if (s >= ms->src_end || *s != p[0])
		return NULL;
	while (++s < ms->src_end) {
		lp_step(ms, 1);
		if (*s == p[1]) {
			if (--open == 0)
				return s + 1;
		} else if (*s == p[0]) {
			open++;
		}
	}
	return NULL;
}

/* %1-%9 (digit 'd') at 's': the end of the repeated text, or NULL. */
static const char *lp_backref(struct lp_state *ms, const char *s, int d)
{
	int i = d - '1';
	size_t len;

	if (i < 0 || i >= ms->level || ms->capture[i].len == LP_CAP_UNFINISHED)
		lp_error(ms, "invalid capture index %%%d", i + 1);
	if (ms->capture[i].len == LP_CAP_POSITION)
		return NULL; /* as stock: its length never fits */
	len = (size_t)ms->capture[i].len;
	if ((size_t)(ms->src_end - s) < len)
		return NULL;
	lp_step(ms, lp_bulk(len));
	return memcmp(ms->capture[i].init, s, len) == 0 ? s + len : NULL;
}

static const char *lp_open(struct lp_state *ms, const char *s, const char *p,
			   ptrdiff_t what)
{
	const char *res;

	if (ms->level >= LP_MAXCAPTURES)
		lp_error(ms, "too many captures");
	ms->capture[ms->level].init = s;
	ms->capture[ms->level].len = what;
	ms->level++;
	res = lp_match(ms, s, p);
	if (!res)
		ms->level--;
	return res;
}

static const char *lp_close(struct lp_state *ms, const char *s, const char *p)
{
	const char *res;
	int i;

	for (i = ms->level - 1; i >= 0; i--)
		if (ms->capture[i].len == LP_CAP_UNFINISHED)
			break;
	if (i < 0)
		lp_error(ms, "invalid pattern capture");
	ms->capture[i].len = s - ms->capture[i].init;
	res = lp_match(ms, s, p);
	if (!res)
		ms->capture[i].len = LP_CAP_UNFINISHED;
	return res;
}

/* Class 'p'..'ep' followed by '*' (or '+', one already matched): longest. */
static const char *lp_max_expand(struct lp_state *ms, const char *s,
				 const char *p, const char *ep)
{
	ptrdiff_t i = 0;

	while (lp_single(ms, s + i, p, ep))
		i++;
	for (; i >= 0; i--) {
		const char *res = lp_match(ms, s + i, ep + 1);

		if (res)
			return res;
	}
	return NULL;
}

/* Class 'p'..'ep' followed by '-': shortest. */
static const char *lp_min_expand(struct lp_state *ms, const char *s,
				 const char *p, const char *ep)
{
	for (;;) {
		const char *res = lp_match(ms, s, ep + 1);

		if (res)
			return res;
		if (!lp_single(ms, s, p, ep))
			return NULL;
		s++;
	}
}

/* %f[set], '*pp' at the 'f': on success '*pp' moves past the set. */
static int lp_frontier(struct lp_state *ms, const char *s, const char **pp)
{
	const char *p = *pp + 1;
	const char *ep;
	int prev, cur;

	if (*p != '[')
		lp_error(ms, "missing '[' after '%%f' in pattern");
	ep = lp_class_end(ms, p);
	prev = s == ms->src_init ? 0 : (unsigned char)s[-1];
	cur = s < ms->src_end ? (unsigned char)*s : 0;
	if (lp_set(ms, prev, p, ep - 1) || !lp_set(ms, cur, p, ep - 1))
		return 0;
	*pp = ep;
	return 1;
}

/*
 * Match pattern 'p' (up to ms->p_end) at subject position 's'; return the
 * end of the match or NULL. Items that need no backtracking loop here;
 * captures and quantifiers recurse, each level counted against ms->depth.
 */
static const char *lp_match(struct lp_state *ms, const char *s, const char *p)
{
	const char *ep;

	if (ms->depth-- == 0)
		lp_error(ms, "pattern too complex");
	for (;;) {
		lp_step(ms, 1);
		if (p == ms->p_end)
			break;
		if (*p == '(') {
			if (p[1] == ')')
				s = lp_open(ms, s, p + 2, LP_CAP_POSITION);
			else
				s = lp_open(ms, s, p + 1, LP_CAP_UNFINISHED);
			break;
		}
		if (*p == ')') {
			s = lp_close(ms, s, p + 1);
			break;
		}
		if (*p == '$' && p + 1 == ms->p_end) {
			if (s != ms->src_end)
				s = NULL;
			break;
		}
		if (*p == LP_ESC && p[1] == 'b') {
			s = lp_balance(ms, s, p + 2);
			if (!s)
				break;
			p += 4;
			continue;
		}
		if (*p == LP_ESC && p[1] == 'f') {
			p++;
			if (!lp_frontier(ms, s, &p)) {
				s = NULL;
				break;
			}
			continue;
		}
		if (*p == LP_ESC && p[1] >= '0' && p[1] <= '9') {
			s = lp_backref(ms, s, p[1]);
			if (!s)
				break;
			p += 2;
			continue;
		}
		/* a single-character class and its optional quantifier */
		ep = lp_class_end(ms, p);
		if (!lp_single(ms, s, p, ep)) {
			if (*ep == '*' || *ep == '?' || *ep == '-') {
				p = ep + 1; /* zero repetitions will do */
				continue;
			}
			s = NULL;
			break;
		}
		if (*ep == '?') {
			const char *res = lp_match(ms, s + 1, ep + 1);

			if (res) {
				s = res;
				break;
			}
			p = ep + 1;
			continue;
		}
		if (*ep == '+') {
			s = lp_max_expand(ms, s + 1, p, ep);
			break;
		}
		if (*ep == '*') {
			s = lp_max_expand(ms, s, p, ep);
			break;
		}
		if (*ep == '-') {
			s = lp_min_expand(ms, s, p, ep);
			break;
		}
		s++;
		p = ep;
	}
	ms->depth++;
	return s;
}

/* NOLINTEND(misc-no-recursion) */

/* ---- captures to Lua ----------------------------------------------------- */

/*
 * Capture 'i' of the match 's'..'e' (capture 0 is the whole match when the
 * pattern has none): set '*cap' and return its length, or push the position
 * and return LP_CAP_POSITION.
 */
static ptrdiff_t lp_get_capture(struct lp_state *ms, int i, const char *s,
				const char *e, const char **cap)
{
	if (i >= ms->level) {
		if (i != 0)
			lp_error(ms, "invalid capture index %%%d", i + 1);
		*cap = s;
		return e - s;
	}
	*cap = ms->capture[i].init;
	if (ms->capture[i].len == LP_CAP_UNFINISHED)
		lp_error(ms, "unfinished capture");
	if (ms->capture[i].len == LP_CAP_POSITION)
		lua_pushinteger(ms->L, ms->capture[i].init - ms->src_init + 1);
	return ms->capture[i].len;
}

static void lp_push_capture(struct lp_state *ms, int i, const char *s,
			    const char *e)
{
	const char *cap;
	ptrdiff_t len = lp_get_capture(ms, i, s, e, &cap);

	if (len != LP_CAP_POSITION)
		lua_pushlstring(ms->L, cap, (size_t)len);
}

/* Push the captures (the whole match if none and 's' is set); count them. */
static int lp_push_captures(struct lp_state *ms, const char *s, const char *e)
{
	int n = (ms->level == 0 && s) ? 1 : ms->level;
	int i;

	luaL_checkstack(ms->L, n, "too many captures");
	for (i = 0; i < n; i++)
		lp_push_capture(ms, i, s, e);
	return n;
}

/* ---- the library functions ----------------------------------------------- */

static const struct lpattern_meter *lp_meter(lua_State *L)
{
	const struct lpattern_meter *const *slot =
		lua_touserdata(L, lua_upvalueindex(1));

	return *slot;
}

static void lp_init(struct lp_state *ms, lua_State *L,
		    const struct lpattern_meter *m, const char *s, size_t ls,
		    const char *p, size_t lp)
{
	ms->src_init = s;
	ms->src_end = s + ls;
	ms->p_end = p + lp;
	ms->L = L;
	ms->meter = m;
	ms->steps = 0;
	ms->depth = LP_MAXCCALLS;
	ms->level = 0;
}

/* Before each attempt at a new subject position. */
static void lp_reset(struct lp_state *ms)
{
	ms->level = 0;
	ms->depth = LP_MAXCCALLS;
}

/* The 1-based start for 'pos': negative counts from the end, clipped to 1. */
static size_t lp_start(lua_Integer pos, size_t len)
{
	if (pos > 0)
		return (size_t)pos;
	if (pos == 0 || pos < -(lua_Integer)len)
		return 1;
	return len + (size_t)pos + 1;
}

static int lp_no_specials(struct lp_state *ms, const char *p, size_t lp)
{
	size_t i;

	lp_step(ms, lp_bulk(lp));
	for (i = 0; i < lp; i++)
		if (memchr(LP_SPECIALS, p[i], sizeof LP_SPECIALS - 1))
			return 0;
	return 1;
}

/* The first occurrence of 'p' (length 'lp') in 's' (length 'ls'), or NULL. */
static const char *lp_memfind(struct lp_state *ms, const char *s, size_t ls,
			      const char *p, size_t lp)
{
	const char *end, *hit;

	if (lp == 0)
		return s;
	if (lp > ls)
		return NULL;
	end = s + (ls - lp + 1); /* candidates are in [s, end) */
	while (s < end) {
		hit = memchr(s, *p, (size_t)(end - s));
		if (!hit) {
			lp_step(ms, lp_bulk((size_t)(end - s)));
			return NULL;
		}
		lp_step(ms, lp_bulk((size_t)(hit - s)) + lp_bulk(lp - 1));
		if (memcmp(hit + 1, p + 1, lp - 1) == 0)
			return hit;
		s = hit + 1;
	}
	return NULL;
}

static int lp_find_aux(lua_State *L, int find)
{
	size_t ls, lp;
	const char *s = luaL_checklstring(L, 1, &ls);
	const char *p = luaL_checklstring(L, 2, &lp);
	size_t init = lp_start(luaL_optinteger(L, 3, 1), ls) - 1;
	struct lp_state ms;
	const char *s1, *res;
	int anchor, n;

	if (init > ls) { /* starts after the end: nothing to find */
		luaL_pushfail(L);
		return 1;
	}
	s1 = s + init;
	lp_init(&ms, L, lp_meter(L), s, ls, p, lp);
	if (find && (lua_toboolean(L, 4) || lp_no_specials(&ms, p, lp))) {
		res = lp_memfind(&ms, s1, ls - init, p, lp);
		lp_flush(&ms);
		if (!res) {
			luaL_pushfail(L);
			return 1;
		}
		lua_pushinteger(L, res - s + 1);
		lua_pushinteger(L, (lua_Integer)(res - s) + (lua_Integer)lp);
		return 2;
	}
	anchor = *p == '^';
	if (anchor)
		p++; /* ms.p_end stays where it is */
	for (;;) {
		lp_reset(&ms);
		res = lp_match(&ms, s1, p);
		if (res) {
			if (find) {
				lua_pushinteger(L, s1 - s + 1);
				lua_pushinteger(L, res - s);
				n = lp_push_captures(&ms, NULL, NULL) + 2;
			} else {
				n = lp_push_captures(&ms, s1, res);
			}
			lp_flush(&ms);
			return n;
		}
		if (anchor || s1 == ms.src_end)
			break;
		s1++;
	}
	lp_flush(&ms);
	luaL_pushfail(L);
	return 1;
}

static int l_find(lua_State *L)
{
	return lp_find_aux(L, 1);
}

static int l_match(lua_State *L)
{
	return lp_find_aux(L, 0);
}

static int l_gmatch_next(lua_State *L)
{
	struct lp_gmatch *gm = lua_touserdata(L, lua_upvalueindex(3));
	const char *src, *e;
	int n;

	gm->ms.L = L; /* the iterator may run in another thread */
	gm->ms.steps = 0;
	for (src = gm->src; src <= gm->ms.src_end; src++) {
		lp_reset(&gm->ms);
		e = lp_match(&gm->ms, src, gm->p);
		if (e && e != gm->lastmatch) {
			gm->src = gm->lastmatch = e;
			n = lp_push_captures(&gm->ms, src, e);
			lp_flush(&gm->ms);
			return n;
		}
	}
	lp_flush(&gm->ms);
	return 0;
}

static int l_gmatch(lua_State *L)
{
	size_t ls, lp;
	const char *s = luaL_checklstring(L, 1, &ls);
	const char *p = luaL_checklstring(L, 2, &lp);
	size_t init = lp_start(luaL_optinteger(L, 3, 1), ls) - 1;
	const struct lpattern_meter *m = lp_meter(L);
	struct lp_gmatch *gm;

	lua_settop(L, 2); /* the strings become upvalues: kept alive */
	gm = lua_newuserdatauv(L, sizeof *gm, 0);
	if (init > ls)
		init = ls + 1; /* past the end: no match, no overflow */
	lp_init(&gm->ms, L, m, s, ls, p, lp);
	gm->src = s + init;
	gm->p = p;
	gm->lastmatch = NULL;
	lua_pushcclosure(L, l_gmatch_next, 3);
	return 1;
}

/* Append replacement string (argument 3) for the match 's'..'e'. */
static void lp_add_string(struct lp_state *ms, luaL_Buffer *b, const char *s,
			  const char *e)
{
	size_t l;
	const char *r = lua_tolstring(ms->L, 3, &l);
	const char *esc;
	const char *cap;
	ptrdiff_t len;

	lp_step(ms, lp_bulk(l));
	while ((esc = memchr(r, LP_ESC, l)) != NULL) {
		lp_step(ms, 1);
		luaL_addlstring(b, r, (size_t)(esc - r));
		esc++; /* at most at the string's terminating NUL */
		if (*esc == LP_ESC) {
			luaL_addchar(b, LP_ESC);
		} else if (*esc == '0') {
			luaL_addlstring(b, s, (size_t)(e - s));
		} else if (isdigit((unsigned char)*esc)) {
			len = lp_get_capture(ms, *esc - '1', s, e, &cap);
			if (len == LP_CAP_POSITION)
				luaL_addvalue(b);
			else
				luaL_addlstring(b, cap, (size_t)len);
		} else {
			lp_error(ms,
				 "invalid use of '%c' in replacement string",
				 LP_ESC);
		}
		l -= (size_t)(esc + 1 - r);
		r = esc + 1;
	}
	luaL_addlstring(b, r, l);
}

/*
 * Append the replacement for the match 's'..'e' by the replacement of type
 * 'tr' (argument 3). Return whether anything but the original was added.
 */
static int lp_add_value(struct lp_state *ms, luaL_Buffer *b, const char *s,
			const char *e, int tr)
{
	lua_State *L = ms->L;

	if (tr == LUA_TFUNCTION) {
		int n;

		lua_pushvalue(L, 3);
		n = lp_push_captures(ms, s, e);
		lua_call(L, n, 1);
	} else if (tr == LUA_TTABLE) {
		lp_push_capture(ms, 0, s, e);
		lua_gettable(L, 3);
	} else { /* a string or a number */
		lp_add_string(ms, b, s, e);
		return 1;
	}
	if (!lua_toboolean(L, -1)) { /* nil or false: keep the match */
		lua_pop(L, 1);
		luaL_addlstring(b, s, (size_t)(e - s));
		return 0;
	}
	if (!lua_isstring(L, -1))
		lp_error(ms, "invalid replacement value (a %s)",
			 luaL_typename(L, -1));
	luaL_addvalue(b);
	return 1;
}

static int l_gsub(lua_State *L)
{
	size_t srcl, lp;
	const char *src = luaL_checklstring(L, 1, &srcl);
	const char *p = luaL_checklstring(L, 2, &lp);
	const char *lastmatch = NULL;
	int tr = lua_type(L, 3);
	lua_Integer max_s = luaL_optinteger(L, 4, (lua_Integer)srcl + 1);
	int anchor = *p == '^';
	lua_Integer n = 0;
	int changed = 0;
	struct lp_state ms;
	luaL_Buffer b;
	const char *e;

	luaL_argexpected(L,
			 tr == LUA_TNUMBER || tr == LUA_TSTRING ||
				 tr == LUA_TFUNCTION || tr == LUA_TTABLE,
			 3, "string/function/table");
	luaL_buffinit(L, &b);
	if (anchor) {
		p++;
		lp--;
	}
	lp_init(&ms, L, lp_meter(L), src, srcl, p, lp);
	while (n < max_s) {
		lp_reset(&ms);
		e = lp_match(&ms, src, p);
		if (e && e != lastmatch) {
			n++;
			changed = lp_add_value(&ms, &b, src, e, tr) | changed;
			src = lastmatch = e;
		} else if (src < ms.src_end) {
			luaL_addchar(&b, *src++);
		} else {
			break;
		}
		if (anchor)
			break;
	}
	if (!changed) {
		lua_pushvalue(L, 1); /* the original, even a number */
	} else {
		luaL_addlstring(&b, src, (size_t)(ms.src_end - src));
		luaL_pushresult(&b);
	}
	lua_pushinteger(L, n);
	lp_flush(&ms);
	return 2;
}

static const luaL_Reg lp_funcs[] = {
	{ "find", l_find }, { "match", l_match }, { "gmatch", l_gmatch },
	{ "gsub", l_gsub }, { NULL, NULL },
};

void lpattern_register(lua_State *L, int idx, const struct lpattern_meter *m)
{
	const struct lpattern_meter **slot;

	idx = lua_absindex(L, idx);
	luaL_checkstack(L, 3, "lpattern_register");
	lua_pushvalue(L, idx);
	slot = lua_newuserdatauv(L, sizeof *slot, 0);
	*slot = m;
	luaL_setfuncs(L, lp_funcs, 1); /* the slot: every function's upvalue */
	lua_pop(L, 1);
}
