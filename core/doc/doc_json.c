/*
 * doc_json.c: JSON text (RFC 8259) into the document model, with a start
 * and end position on every node. Open containers live on an explicit
 * stack (never recursion on input depth) whose children wait in one shared
 * array until their container closes, so a document costs one exact-size
 * array per container in its arena. Numbers pass our own grammar before
 * strtod (in the "C" locale) sees them; integers outside int64 are kept
 * exactly as NODE_BIGINT. The options reproduce Python's json.loads where
 * a pack needs it (spec/promotion.md 5.8): duplicate keys with the last
 * value winning at the first key's place, NaN/Infinity literals, lone
 * surrogate escapes kept as WTF-8. Nothing here prints or keeps state.
 */
#include "core/doc/doc.h"
#include "core/util/grow.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util/utf8.h"

#define JSON_DEFAULT_DEPTH 512
#define JSON_INT_MAX_DIGITS 4300 /* Python's int() refuses longer text */
#define JSON_LINEAR_KEYS 8

struct jframe {
	struct node *node;
	size_t base; /* children start at jp->items[base] */
};

struct jparser {
	const char *p, *end;
	uint32_t line, col;
	struct doc *d;
	const struct doc_json_opts *o;
	struct diag *err;
	size_t nodes, max_nodes, max_depth;
	struct jframe *st;
	size_t depth, st_alloc;
	struct node **items;
	size_t nitems, items_alloc;
	size_t *slots; /* duplicate-key table: pair index + 1 */
	size_t nslots;
	char *num; /* number text for strtod */
	size_t num_alloc;
	locale_t c_locale;
};

/* ---- positions and errors -------------------------------------------- */

static void advance(struct jparser *jp, size_t n)
{
	while (n-- && jp->p < jp->end) {
		unsigned char c = (unsigned char)*jp->p++;

		if (c == '\n') {
			jp->line++;
			jp->col = 1;
		} else if ((c & 0xC0) != 0x80) {
			jp->col++;
		}
	}
}

/* The JSON Pointer of the slot being filled in frame 'upto' - 1, then
 * 'key' when given. A container takes its slot in its parent when it
 * opens, so below the top frame the slot is the parent's last child. */
static void jpath(const struct jparser *jp, size_t upto, const struct node *key,
		  struct diag *err)
{
	struct sbuf b = SBUF_INIT;
	size_t i;

	for (i = 0; i < upto; i++) {
		int inner = i + 1 < jp->depth;
		size_t end = inner ? jp->st[i + 1].base : jp->nitems;
		size_t c = end - jp->st[i].base;

		if (jp->st[i].node->type == NODE_LIST) {
			char num[32];
			int n = snprintf(num, sizeof num, "%zu",
					 inner && c ? c - 1 : c);

			doc_pointer_add(&b, num, (size_t)n);
		} else if (inner && c >= 2 && c % 2 == 0) {
			doc_pointer_token(&b, jp->items[end - 2]);
		} else if (!inner && c % 2 == 1) {
			doc_pointer_token(&b, jp->items[end - 1]);
		} else {
			break;
		}
	}
	if (key && i == upto)
		doc_pointer_token(&b, key);
	diag_set_path(err, b.failed ? "" : sbuf_cstr(&b));
	sbuf_release(&b);
}

static int jfail(struct jparser *jp, enum diag_code code, const char *msg)
{
	diag_set(jp->err, code, jp->line, jp->col, "%s", msg);
	jpath(jp, jp->depth, NULL, jp->err);
	return -1;
}

static int jnomem(struct jparser *jp)
{
	diag_set(jp->err, DIAG_E_NOMEM, jp->line, jp->col,
		 "the JSON document needs more memory than its limit of %zu "
		 "bytes",
		 jp->d->arena.cap);
	if (jp->d->arena.cap) {
		diag_copy_text(jp->err->limit, sizeof jp->err->limit, "memory");
		jp->err->limit_value = (long long)jp->d->arena.cap;
	}
	return -1;
}

static struct node *new_node(struct jparser *jp, enum node_type t)
{
	struct node *n;

	if (jp->max_nodes && ++jp->nodes > jp->max_nodes) {
		diag_limit(jp->err, jp->line, jp->col, "nodes",
			   (long long)jp->max_nodes, -1,
			   "the JSON document has more than %zu nodes (the "
			   "nodes limit)",
			   jp->max_nodes);
		jpath(jp, jp->depth, NULL, jp->err);
		return NULL;
	}
	if (!jp->max_nodes)
		jp->nodes++;
	n = doc_new(jp->d, t);
	if (!n) {
		jnomem(jp);
		return NULL;
	}
	n->line = jp->line;
	n->col = jp->col;
	return n;
}

static void end_mark(struct jparser *jp, struct node *n)
{
	n->end_line = jp->line;
	n->end_col = jp->col;
}

/* ---- strings ---------------------------------------------------------- */

static int hex4(const char *p, uint32_t *v)
{
	int i;

	*v = 0;
	for (i = 0; i < 4; i++) {
		char c = p[i];
		uint32_t d;

		if (c >= '0' && c <= '9')
			d = (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (uint32_t)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (uint32_t)(c - 'A' + 10);
		else
			return -1;
		*v = *v << 4 | d;
	}
	return 0;
}

static struct node *parse_string(struct jparser *jp)
{
	struct node *n = new_node(jp, NODE_STR);
	const char *q;
	char *buf, *o;

	if (!n)
		return NULL;
	advance(jp, 1); /* the opening quote */
	/* The decoded text is never longer than the raw text. */
	for (q = jp->p; q < jp->end && *q != '"'; q++)
		if (*q == '\\' && q + 1 < jp->end)
			q++;
	if (q >= jp->end) {
		jfail(jp, DIAG_E_YAML, "a JSON string is not closed");
		return NULL;
	}
	buf = arena_alloc(&jp->d->arena, (size_t)(q - jp->p) + 1);
	if (!buf) {
		jnomem(jp);
		return NULL;
	}
	o = buf;
	while (*jp->p != '"') {
		unsigned char c = (unsigned char)*jp->p;
		uint32_t cp, lo;

		if (c < 0x20) {
			jfail(jp, DIAG_E_YAML,
			      "a control character inside a JSON string (it "
			      "must be escaped)");
			return NULL;
		}
		if (c != '\\') {
			*o++ = (char)c;
			advance(jp, 1);
			continue;
		}
		switch (jp->p[1]) {
		case '"':
			*o++ = '"';
			break;
		case '\\':
			*o++ = '\\';
			break;
		case '/':
			*o++ = '/';
			break;
		case 'b':
			*o++ = '\b';
			break;
		case 'f':
			*o++ = '\f';
			break;
		case 'n':
			*o++ = '\n';
			break;
		case 'r':
			*o++ = '\r';
			break;
		case 't':
			*o++ = '\t';
			break;
		case 'u':
			if (jp->end - jp->p < 6 || hex4(jp->p + 2, &cp) < 0) {
				jfail(jp, DIAG_E_YAML,
				      "a \\u escape needs four hex digits");
				return NULL;
			}
			if (cp >= 0xD800 && cp <= 0xDBFF &&
			    jp->end - jp->p >= 12 && jp->p[6] == '\\' &&
			    jp->p[7] == 'u' && hex4(jp->p + 8, &lo) == 0 &&
			    lo >= 0xDC00 && lo <= 0xDFFF) {
				cp = 0x10000 + ((cp - 0xD800) << 10) +
				     (lo - 0xDC00);
				advance(jp, 6);
			}
			if (cp >= 0xD800 && cp <= 0xDFFF) {
				if (!jp->o || !jp->o->lone_surrogates) {
					jfail(jp, DIAG_E_YAML,
					      "a lone surrogate escape cannot "
					      "be UTF-8 text");
					return NULL;
				}
				/* WTF-8: the code unit as a 3-byte form. */
				*o++ = (char)(0xE0 | (cp >> 12));
				*o++ = (char)(0x80 | ((cp >> 6) & 0x3F));
				*o++ = (char)(0x80 | (cp & 0x3F));
			} else {
				o += utf8_encode(cp, o);
			}
			advance(jp, 4);
			break;
		default:
			jfail(jp, DIAG_E_YAML,
			      "an unknown escape in a JSON string");
			return NULL;
		}
		advance(jp, 2);
	}
	advance(jp, 1);
	*o = '\0';
	n->v.str.s = buf;
	n->v.str.len = (size_t)(o - buf);
	end_mark(jp, n);
	return n;
}

/* ---- numbers and literals ---------------------------------------------- */

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int to_double(struct jparser *jp, const char *s, size_t len, double *out)
{
	locale_t old;

	if (grow_array(&jp->num, &jp->num_alloc, len + 1, 1) < 0)
		return -1;
	memcpy(jp->num, s, len);
	jp->num[len] = '\0';
	if (jp->c_locale == (locale_t)0) {
		jp->c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
		if (jp->c_locale == (locale_t)0)
			return -1;
	}
	old = uselocale(jp->c_locale);
	*out = strtod(jp->num, NULL); /* overflow: +-inf, as Python */
	uselocale(old);
	return 0;
}

static struct node *parse_number(struct jparser *jp)
{
	const char *s = jp->p, *p = s, *digits;
	int is_float = 0;
	struct node *n;
	size_t len, nd;

	if (*p == '-')
		p++;
	digits = p;
	if (p >= jp->end || !is_digit(*p))
		goto bad;
	if (*p == '0')
		p++;
	else
		while (p < jp->end && is_digit(*p))
			p++;
	nd = (size_t)(p - digits);
	if (p < jp->end && *p == '.' && p + 1 < jp->end && is_digit(p[1])) {
		is_float = 1;
		for (p++; p < jp->end && is_digit(*p); p++)
			;
	}
	if (p < jp->end && (*p == 'e' || *p == 'E')) {
		const char *e = p + 1;

		if (e < jp->end && (*e == '+' || *e == '-'))
			e++;
		if (e < jp->end && is_digit(*e)) {
			is_float = 1;
			for (p = e; p < jp->end && is_digit(*p); p++)
				;
		}
	}
	len = (size_t)(p - s);
	n = new_node(jp, is_float ? NODE_FLOAT : NODE_INT);
	if (!n)
		return NULL;
	if (is_float) {
		if (to_double(jp, s, len, &n->v.f) < 0) {
			jfail(jp, DIAG_E_NOMEM,
			      "out of memory reading a number");
			return NULL;
		}
	} else if (nd > JSON_INT_MAX_DIGITS) {
		jfail(jp, DIAG_E_YAML,
		      "an integer of more than 4300 digits (Python refuses to "
		      "convert it)");
		return NULL;
	} else {
		uint64_t v = 0, lim = *s == '-' ? (uint64_t)INT64_MAX + 1
						: (uint64_t)INT64_MAX;
		size_t i;
		int over = 0;

		for (i = 0; i < nd && !over; i++) {
			unsigned dig = (unsigned)(digits[i] - '0');

			if (v > (lim - dig) / 10)
				over = 1;
			else
				v = v * 10 + dig;
		}
		if (!over) {
			n->v.i = *s != '-'			? (int64_t)v
				 : v == (uint64_t)INT64_MAX + 1 ? INT64_MIN
								: -(int64_t)v;
		} else {
			/* JSON has no leading zeros: the text is canonical. */
			n->type = NODE_BIGINT;
			n->v.str.s = arena_strndup(&jp->d->arena, s, len);
			n->v.str.len = len;
			if (!n->v.str.s) {
				jnomem(jp);
				return NULL;
			}
		}
	}
	advance(jp, len);
	end_mark(jp, n);
	return n;
bad:
	jfail(jp, DIAG_E_YAML, "expected a JSON value");
	return NULL;
}

static int word(const struct jparser *jp, const char *w)
{
	size_t n = strlen(w);

	return (size_t)(jp->end - jp->p) >= n && memcmp(jp->p, w, n) == 0;
}

static struct node *parse_scalar(struct jparser *jp)
{
	static const struct {
		const char *w;
		enum node_type t;
		int b;
		int sign; /* floats: 0 NaN, 1 inf, -1 -inf */
		int python;
	} words[] = {
	    {"true", NODE_BOOL, 1, 0, 0},
	    {"false", NODE_BOOL, 0, 0, 0},
	    {"null", NODE_NULL, 0, 0, 0},
	    {"NaN", NODE_FLOAT, 0, 0, 1},
	    {"Infinity", NODE_FLOAT, 0, 1, 1},
	    {"-Infinity", NODE_FLOAT, 0, -1, 1},
	};
	size_t i;

	if (*jp->p == '"')
		return parse_string(jp);
	for (i = 0; i < sizeof words / sizeof words[0]; i++) {
		struct node *n;

		if (!word(jp, words[i].w))
			continue;
		if (words[i].python && !(jp->o && jp->o->allow_nonfinite)) {
			jfail(jp, DIAG_E_YAML, "NaN and Infinity are not JSON");
			return NULL;
		}
		n = new_node(jp, words[i].t);
		if (!n)
			return NULL;
		if (words[i].t == NODE_BOOL)
			n->v.b = words[i].b;
		else if (words[i].t == NODE_FLOAT)
			n->v.f = words[i].sign == 0  ? NAN
				 : words[i].sign > 0 ? INFINITY
						     : -INFINITY;
		advance(jp, strlen(words[i].w));
		end_mark(jp, n);
		return n;
	}
	if (*jp->p == '-' || is_digit(*jp->p))
		return parse_number(jp);
	jfail(jp, DIAG_E_YAML, "expected a JSON value");
	return NULL;
}

/* ---- containers ------------------------------------------------------- */

static int push_item(struct jparser *jp, struct node *n)
{
	if (grow_array(&jp->items, &jp->items_alloc, jp->nitems + 1,
		 sizeof *jp->items) < 0) {
		diag_set(jp->err, DIAG_E_NOMEM, jp->line, jp->col,
			 "out of memory reading JSON");
		return -1;
	}
	jp->items[jp->nitems++] = n;
	return 0;
}

static uint64_t str_hash(const struct node *k)
{
	uint64_t h = 1469598103934665603ULL;
	size_t i;

	for (i = 0; i < k->v.str.len; i++)
		h = (h ^ (unsigned char)k->v.str.s[i]) * 1099511628211ULL;
	return h ^ (h >> 29);
}

static int same_key(const struct node *a, const struct node *b)
{
	return a->v.str.len == b->v.str.len &&
	       memcmp(a->v.str.s, b->v.str.s, a->v.str.len) == 0;
}

/* Build an object's pairs from its children: a repeated key is an error,
 * or (Python) keeps its first place and takes the last value. */
static int close_object(struct jparser *jp, struct jframe *fr)
{
	struct node *obj = fr->node, **it = jp->items + fr->base;
	size_t npairs = (jp->nitems - fr->base) / 2, n = 0, i, j, ns = 0;
	struct doc_pair *out;

	out = arena_alloc(&jp->d->arena, (npairs ? npairs : 1) * sizeof *out);
	if (!out)
		return jnomem(jp);
	if (npairs > JSON_LINEAR_KEYS) {
		ns = 16;
		while (ns < 2 * npairs)
			ns *= 2;
		if (ns > jp->nslots) {
			size_t *v = realloc(jp->slots, ns * sizeof *v);

			if (!v)
				return jfail(jp, DIAG_E_NOMEM,
					     "out of memory reading JSON");
			jp->slots = v;
			jp->nslots = ns;
		}
		memset(jp->slots, 0, ns * sizeof *jp->slots);
	}
	for (i = 0; i < npairs; i++) {
		struct node *k = it[2 * i], *v = it[2 * i + 1];
		long at = -1;
		size_t slot = 0;

		if (ns) {
			slot = (size_t)str_hash(k) & (ns - 1);
			while (jp->slots[slot]) {
				if (same_key(out[jp->slots[slot] - 1].key, k)) {
					at = (long)(jp->slots[slot] - 1);
					break;
				}
				slot = (slot + 1) & (ns - 1);
			}
		} else {
			for (j = 0; j < n; j++)
				if (same_key(out[j].key, k)) {
					at = (long)j;
					break;
				}
		}
		if (at >= 0) {
			char shown[80];
			size_t cut = utf8_cut(k->v.str.s, k->v.str.len, 60);

			if (jp->o && jp->o->dup_last_wins) {
				out[at].value = v;
				continue;
			}
			snprintf(shown, sizeof shown, "%.*s%s", (int)cut,
				 k->v.str.s, cut < k->v.str.len ? "..." : "");
			diag_set(jp->err, DIAG_E_DUPKEY, k->line, k->col,
				 "key '%s' repeats the key on line %u", shown,
				 (unsigned)out[at].key->line);
			jpath(jp, jp->depth - 1, k, jp->err);
			return -1;
		}
		out[n].key = k;
		out[n].value = v;
		if (ns)
			jp->slots[slot] = n + 1;
		n++;
	}
	obj->v.map.pairs = out;
	obj->v.map.n = n;
	return 0;
}

static int close_container(struct jparser *jp)
{
	struct jframe *fr = &jp->st[jp->depth - 1];
	struct node *n = fr->node;
	size_t c = jp->nitems - fr->base;

	advance(jp, 1);
	end_mark(jp, n);
	if (n->type == NODE_MAP) {
		if (close_object(jp, fr) < 0)
			return -1;
	} else {
		n->v.list.items = arena_alloc(
		    &jp->d->arena, (c ? c : 1) * sizeof *n->v.list.items);
		if (!n->v.list.items)
			return jnomem(jp);
		if (c)
			memcpy(n->v.list.items, jp->items + fr->base,
			       c * sizeof *n->v.list.items);
		n->v.list.n = c;
	}
	jp->nitems = fr->base;
	jp->depth--;
	return 0;
}

static void skip_ws(struct jparser *jp)
{
	while (jp->p < jp->end && (*jp->p == ' ' || *jp->p == '\t' ||
				   *jp->p == '\n' || *jp->p == '\r'))
		advance(jp, 1);
}

enum jstate {
	J_VALUE,	  /* a value must come */
	J_VALUE_OR_CLOSE, /* just after '[' */
	J_KEY,		  /* after ',' in an object */
	J_KEY_OR_CLOSE,	  /* just after '{' */
	J_AFTER		  /* after a value */
};

static int parse(struct jparser *jp)
{
	enum jstate s = J_VALUE;

	for (;;) {
		struct jframe *top = jp->depth ? &jp->st[jp->depth - 1] : NULL;
		struct node *n;
		char c;

		skip_ws(jp);
		if (jp->p >= jp->end) {
			if (s == J_AFTER && !top)
				return 0;
			return jfail(jp, DIAG_E_YAML,
				     top ? "the JSON text ends inside a "
					   "container"
					 : "no JSON value");
		}
		c = *jp->p;
		if (s == J_AFTER) {
			if (!top)
				return jfail(jp, DIAG_E_YAML,
					     "text after the JSON value");
			if (c == ',') {
				advance(jp, 1);
				s = top->node->type == NODE_MAP ? J_KEY
								: J_VALUE;
				continue;
			}
			if (c != (top->node->type == NODE_MAP ? '}' : ']'))
				return jfail(jp, DIAG_E_YAML,
					     top->node->type == NODE_MAP
						 ? "expected ',' or '}'"
						 : "expected ',' or ']'");
			if (close_container(jp) < 0)
				return -1;
			continue; /* the container is the value just read */
		}
		if (s == J_KEY_OR_CLOSE && c == '}') {
			if (close_container(jp) < 0)
				return -1;
			s = J_AFTER;
			continue;
		}
		if (s == J_VALUE_OR_CLOSE && c == ']') {
			if (close_container(jp) < 0)
				return -1;
			s = J_AFTER;
			continue;
		}
		if (s == J_KEY || s == J_KEY_OR_CLOSE) {
			if (c != '"')
				return jfail(jp, DIAG_E_YAML,
					     "expected a string key");
			n = parse_string(jp);
			if (!n || push_item(jp, n) < 0)
				return -1;
			skip_ws(jp);
			if (jp->p >= jp->end || *jp->p != ':')
				return jfail(jp, DIAG_E_YAML,
					     "expected ':' after a key");
			advance(jp, 1);
			s = J_VALUE;
			continue;
		}
		if (c == '{' || c == '[') {
			if (jp->depth >= jp->max_depth) {
				diag_limit(
				    jp->err, jp->line, jp->col, "depth",
				    (long long)jp->max_depth, -1,
				    "nesting deeper than the depth limit "
				    "of %zu levels",
				    jp->max_depth);
				jpath(jp, jp->depth, NULL, jp->err);
				return -1;
			}
			n = new_node(jp, c == '{' ? NODE_MAP : NODE_LIST);
			if (!n)
				return -1;
			if (top && push_item(jp, n) < 0)
				return -1;
			if (!top)
				jp->d->root = n;
			if (grow_array(&jp->st, &jp->st_alloc, jp->depth + 1,
				 sizeof *jp->st) < 0)
				return jfail(jp, DIAG_E_NOMEM,
					     "out of memory reading JSON");
			advance(jp, 1);
			/* The container's own slot is filled now; its
			 * children follow it in the shared array. */
			jp->st[jp->depth].node = n;
			jp->st[jp->depth].base = jp->nitems;
			jp->depth++;
			s = c == '{' ? J_KEY_OR_CLOSE : J_VALUE_OR_CLOSE;
			continue;
		}
		n = parse_scalar(jp);
		if (!n)
			return -1;
		if (!top)
			jp->d->root = n;
		else if (push_item(jp, n) < 0)
			return -1;
		s = J_AFTER;
	}
}

int doc_json_parse(struct doc *d, const char *buf, size_t len,
		   const struct doc_json_opts *opts, struct diag *err)
{
	struct jparser jp;
	size_t bad;
	int rc;

	memset(&jp, 0, sizeof jp);
	jp.p = buf;
	jp.end = buf + len;
	jp.line = 1;
	jp.col = 1;
	jp.d = d;
	jp.o = opts;
	jp.err = err;
	jp.max_nodes = opts ? opts->max_nodes : 0;
	jp.max_depth =
	    opts && opts->max_depth ? opts->max_depth : JSON_DEFAULT_DEPTH;
	d->root = NULL;
	if (len >= 3 && (unsigned char)buf[0] == 0xEF &&
	    (unsigned char)buf[1] == 0xBB && (unsigned char)buf[2] == 0xBF) {
		diag_set(err, DIAG_E_ENCODING, 1, 1,
			 "a byte-order mark is not allowed in JSON");
		return -1;
	}
	if (!utf8_valid(buf, len, &bad)) {
		advance(&jp, bad);
		diag_set(err, DIAG_E_ENCODING, jp.line, jp.col,
			 "invalid UTF-8: byte 0x%02X does not begin a "
			 "well-formed character",
			 (unsigned char)buf[bad]);
		return -1;
	}
	rc = parse(&jp);
	free(jp.st);
	free(jp.items);
	free(jp.slots);
	free(jp.num);
	if (jp.c_locale != (locale_t)0)
		freelocale(jp.c_locale);
	if (rc < 0) {
		d->root = NULL;
		return -1;
	}
	d->nodes = jp.nodes;
	return 0;
}
