/*
 * doc_json.c: JSON text (RFC 8259) into the document model, with a position
 * on every node. An explicit stack bounds nesting; numbers are checked
 * against the grammar before strtod sees them; integers too big for int64
 * are kept exactly as NODE_BIGINT. The options reproduce Python's
 * json.loads where a pack needs it (spec/promotion.md 5.8): duplicate keys
 * with the last value winning, NaN/Infinity literals, lone surrogates.
 */
#include "core/doc/doc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util/utf8.h"

struct jframe {
	struct node *node;
	struct node **items; /* array items, or keys and values alternating */
	size_t n, alloc;
	struct node *key;    /* objects: the key waiting for its value */
};

struct jparser {
	const char *s, *end, *p;
	uint32_t line, col;
	struct doc *d;
	const struct doc_json_opts *o;
	struct diag *err;
	size_t nodes, max_nodes, max_depth;
};

static int jerr(struct jparser *jp, enum diag_code code, const char *msg)
{
	diag_set(jp->err, code, jp->line, jp->col, "%s", msg);
	return -1;
}

static void advance(struct jparser *jp, size_t n)
{
	while (n-- && jp->p < jp->end) {
		if (*jp->p == '\n') {
			jp->line++;
			jp->col = 1;
		} else if (((unsigned char)*jp->p & 0xC0) != 0x80) {
			jp->col++;
		}
		jp->p++;
	}
}

static void skip_ws(struct jparser *jp)
{
	while (jp->p < jp->end && (*jp->p == ' ' || *jp->p == '\t' ||
				   *jp->p == '\n' || *jp->p == '\r'))
		advance(jp, 1);
}

static struct node *new_node(struct jparser *jp, enum node_type t)
{
	struct node *n;

	if (++jp->nodes > jp->max_nodes && jp->max_nodes) {
		diag_limit(jp->err, jp->line, jp->col, "nodes", (long long)jp->max_nodes,
			   -1, "the document has more than %zu nodes (the nodes limit)",
			   jp->max_nodes);
		return NULL;
	}
	n = doc_new(jp->d, t);
	if (!n) {
		diag_set(jp->err, DIAG_E_NOMEM, jp->line, jp->col,
			 "the document does not fit in its memory limit");
		return NULL;
	}
	n->line = jp->line;
	n->col = jp->col;
	return n;
}

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

/* Encode a code point, surrogates too (WTF-8) when 'wtf'. */
static size_t put_cp(uint32_t cp, char *out, int wtf)
{
	if (cp >= 0xD800 && cp <= 0xDFFF) {
		if (!wtf)
			return 0;
		out[0] = (char)(0xE0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		out[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	return utf8_encode(cp, out);
}

static struct node *parse_string(struct jparser *jp)
{
	struct node *n = new_node(jp, NODE_STR);
	const char *q;
	char *buf, *o;
	size_t cap;

	if (!n)
		return NULL;
	advance(jp, 1); /* the opening quote */
	/* The decoded string is never longer than the raw text. */
	for (q = jp->p; q < jp->end && *q != '"'; q++)
		if (*q == '\\' && q + 1 < jp->end)
			q++;
	cap = (size_t)(q - jp->p) + 1;
	buf = arena_alloc(&jp->d->arena, cap);
	if (!buf) {
		jerr(jp, DIAG_E_NOMEM, "the document does not fit in its memory limit");
		return NULL;
	}
	o = buf;
	while (jp->p < jp->end && *jp->p != '"') {
		unsigned char c = (unsigned char)*jp->p;

		if (c < 0x20) {
			jerr(jp, DIAG_E_YAML, "a control character inside a JSON string");
			return NULL;
		}
		if (c != '\\') {
			*o++ = (char)c;
			advance(jp, 1);
			continue;
		}
		if (jp->p + 1 >= jp->end)
			break;
		switch (jp->p[1]) {
		case '"': *o++ = '"'; break;
		case '\\': *o++ = '\\'; break;
		case '/': *o++ = '/'; break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u': {
			uint32_t cp, lo;
			size_t w;

			if (jp->end - jp->p < 6 || hex4(jp->p + 2, &cp) < 0) {
				jerr(jp, DIAG_E_YAML, "a \\u escape needs four hex digits");
				return NULL;
			}
			if (cp >= 0xD800 && cp <= 0xDBFF && jp->end - jp->p >= 12 &&
			    jp->p[6] == '\\' && jp->p[7] == 'u' && hex4(jp->p + 8, &lo) == 0 &&
			    lo >= 0xDC00 && lo <= 0xDFFF) {
				cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
				advance(jp, 6);
			}
			w = put_cp(cp, o, jp->o && jp->o->lone_surrogates);
			if (!w) {
				jerr(jp, DIAG_E_YAML, "a lone surrogate escape cannot be UTF-8 text");
				return NULL;
			}
			o += w;
			advance(jp, 4);
			break;
		}
		default:
			jerr(jp, DIAG_E_YAML, "an unknown escape in a JSON string");
			return NULL;
		}
		advance(jp, 2);
	}
	if (jp->p >= jp->end) {
		jerr(jp, DIAG_E_YAML, "a JSON string is not closed");
		return NULL;
	}
	advance(jp, 1);
	*o = '\0';
	n->v.str.s = buf;
	n->v.str.len = (size_t)(o - buf);
	n->end_line = jp->line;
	n->end_col = jp->col;
	return n;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static struct node *parse_number(struct jparser *jp)
{
	const char *s = jp->p, *p = s;
	int is_float = 0;
	struct node *n;
	char buf[400];
	size_t len;

	if (p < jp->end && *p == '-')
		p++;
	if (p >= jp->end || !is_digit(*p))
		goto bad;
	if (*p == '0')
		p++;
	else
		while (p < jp->end && is_digit(*p))
			p++;
	if (p < jp->end && *p == '.') {
		p++;
		is_float = 1;
		if (p >= jp->end || !is_digit(*p))
			goto bad;
		while (p < jp->end && is_digit(*p))
			p++;
	}
	if (p < jp->end && (*p == 'e' || *p == 'E')) {
		p++;
		is_float = 1;
		if (p < jp->end && (*p == '+' || *p == '-'))
			p++;
		if (p >= jp->end || !is_digit(*p))
			goto bad;
		while (p < jp->end && is_digit(*p))
			p++;
	}
	len = (size_t)(p - s);
	n = new_node(jp, is_float ? NODE_FLOAT : NODE_INT);
	if (!n)
		return NULL;
	if (is_float) {
		char *heap = NULL, *t = buf;

		if (len >= sizeof buf) {
			heap = malloc(len + 1);
			if (!heap) {
				jerr(jp, DIAG_E_NOMEM, "out of memory");
				return NULL;
			}
			t = heap;
		}
		memcpy(t, s, len);
		t[len] = '\0';
		n->v.f = strtod(t, NULL);
		free(heap);
	} else {
		const char *d = s[0] == '-' ? s + 1 : s;
		size_t nd = (size_t)(p - d), i;
		unsigned long long v = 0;
		int over = 0;

		for (i = 0; i < nd; i++) {
			unsigned dig = (unsigned)(d[i] - '0');

			if (v > (9223372036854775808ULL - dig) / 10) {
				over = 1;
				break;
			}
			v = v * 10 + dig;
		}
		if (!over && s[0] == '-') {
			n->v.i = v == 9223372036854775808ULL ? INT64_MIN : -(int64_t)v;
		} else if (!over && v <= 9223372036854775807ULL) {
			n->v.i = (int64_t)v;
		} else {
			n->type = NODE_BIGINT;
			n->v.str.s = arena_strndup(&jp->d->arena, s, len);
			n->v.str.len = len;
			if (!n->v.str.s) {
				jerr(jp, DIAG_E_NOMEM, "out of memory");
				return NULL;
			}
		}
	}
	advance(jp, len);
	n->end_line = jp->line;
	n->end_col = jp->col;
	return n;
bad:
	jerr(jp, DIAG_E_YAML, "a malformed JSON number");
	return NULL;
}

static int word(struct jparser *jp, const char *w)
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
		double f;
		int python;
	} words[] = {
		{ "true", NODE_BOOL, 1, 0, 0 },      { "false", NODE_BOOL, 0, 0, 0 },
		{ "null", NODE_NULL, 0, 0, 0 },      { "NaN", NODE_FLOAT, 0, NAN, 1 },
		{ "Infinity", NODE_FLOAT, 0, INFINITY, 1 },
		{ "-Infinity", NODE_FLOAT, 0, -INFINITY, 1 },
	};
	size_t i;

	for (i = 0; i < sizeof words / sizeof words[0]; i++) {
		struct node *n;

		if (!word(jp, words[i].w))
			continue;
		if (words[i].python && !(jp->o && jp->o->allow_nonfinite)) {
			jerr(jp, DIAG_E_YAML, "NaN and Infinity are not JSON");
			return NULL;
		}
		n = new_node(jp, words[i].t);
		if (!n)
			return NULL;
		n->v.b = words[i].b;
		if (words[i].t == NODE_FLOAT)
			n->v.f = words[i].f;
		advance(jp, strlen(words[i].w));
		n->end_line = jp->line;
		n->end_col = jp->col;
		return n;
	}
	if (*jp->p == '-' || is_digit(*jp->p))
		return parse_number(jp);
	jerr(jp, DIAG_E_YAML, "expected a JSON value");
	return NULL;
}

/* Find an earlier member with the same key; returns its index or -1. */
static long find_key(const struct jframe *fr, const struct node *k)
{
	size_t i;

	for (i = 0; i + 1 < fr->n; i += 2)
		if (fr->items[i]->v.str.len == k->v.str.len &&
		    memcmp(fr->items[i]->v.str.s, k->v.str.s, k->v.str.len) == 0)
			return (long)i;
	return -1;
}

static int push(struct jparser *jp, struct jframe *fr, struct node *n)
{
	if (fr->n == fr->alloc) {
		size_t na = fr->alloc ? fr->alloc * 2 : 8;
		struct node **v = arena_grow(&jp->d->arena, fr->items, fr->n, na,
					     sizeof *v);

		if (!v)
			return jerr(jp, DIAG_E_NOMEM,
				    "the document does not fit in its memory limit");
		fr->items = v;
		fr->alloc = na;
	}
	fr->items[fr->n++] = n;
	return 0;
}

/* Add a finished value to the open container (or make it the root). */
static int add_value(struct jparser *jp, struct jframe *st, size_t depth,
		     struct node *n)
{
	struct jframe *fr;
	long at;

	if (depth == 0) {
		jp->d->root = n;
		return 0;
	}
	fr = &st[depth - 1];
	if (fr->node->type == NODE_LIST)
		return push(jp, fr, n);
	at = find_key(fr, fr->key);
	if (at >= 0) {
		if (!(jp->o && jp->o->dup_last_wins)) {
			diag_set(jp->err, DIAG_E_DUPKEY, fr->key->line, fr->key->col,
				 "key '%.60s' repeats the key on line %u", fr->key->v.str.s,
				 (unsigned)fr->items[at]->line);
			return -1;
		}
		/* Python: the last value, at the first key's place. */
		fr->items[at + 1] = n;
		fr->key = NULL;
		return 0;
	}
	if (push(jp, fr, fr->key) < 0 || push(jp, fr, n) < 0)
		return -1;
	fr->key = NULL;
	return 0;
}

static void close_container(struct jparser *jp, struct jframe *fr)
{
	struct node *n = fr->node;
	size_t i;

	advance(jp, 1);
	n->end_line = jp->line;
	n->end_col = jp->col;
	if (n->type == NODE_LIST) {
		n->v.list.items = fr->items;
		n->v.list.n = fr->n;
		return;
	}
	n->v.map.pairs = arena_calloc(&jp->d->arena, fr->n / 2 + 1, sizeof *n->v.map.pairs);
	if (!n->v.map.pairs)
		return;
	for (i = 0; i + 1 < fr->n; i += 2) {
		n->v.map.pairs[i / 2].key = fr->items[i];
		n->v.map.pairs[i / 2].value = fr->items[i + 1];
	}
	n->v.map.n = fr->n / 2;
}

int doc_json_parse(struct doc *d, const char *buf, size_t len,
		   const struct doc_json_opts *opts, struct diag *err)
{
	struct jparser jp;
	struct jframe *st;
	size_t depth = 0, bad, maxd;
	int rc = -1;

	memset(&jp, 0, sizeof jp);
	jp.s = jp.p = buf;
	jp.end = buf + len;
	jp.line = 1;
	jp.col = 1;
	jp.d = d;
	jp.o = opts;
	jp.err = err;
	jp.max_nodes = opts ? opts->max_nodes : 0;
	maxd = opts && opts->max_depth ? opts->max_depth : 512;
	if (len >= 3 && (unsigned char)buf[0] == 0xEF && (unsigned char)buf[1] == 0xBB &&
	    (unsigned char)buf[2] == 0xBF) {
		diag_set(err, DIAG_E_ENCODING, 1, 1, "a byte-order mark is not allowed in JSON");
		return -1;
	}
	if (!utf8_valid(buf, len, &bad)) {
		size_t i;

		for (i = 0; i < bad; i++)
			advance(&jp, 1);
		diag_set(err, DIAG_E_ENCODING, jp.line, jp.col,
			 "the text is not valid UTF-8 (byte 0x%02X)",
			 (unsigned char)buf[bad]);
		return -1;
	}
	st = calloc(maxd + 1, sizeof *st);
	if (!st) {
		diag_set(err, DIAG_E_NOMEM, 0, 0, "out of memory");
		return -1;
	}
	for (;;) {
		struct jframe *top = depth ? &st[depth - 1] : NULL;
		struct node *n;

		skip_ws(&jp);
		if (jp.p >= jp.end) {
			jerr(&jp, DIAG_E_YAML, depth ? "the JSON text ends inside a container"
						     : "no JSON value");
			goto done;
		}
		/* Inside an object, a key and ':' come before each value. */
		if (top && top->node->type == NODE_MAP && !top->key) {
			if (*jp.p == '}' && top->n == 0)
				goto close;
			if (*jp.p != '"') {
				jerr(&jp, DIAG_E_YAML, "expected a string key");
				goto done;
			}
			top->key = parse_string(&jp);
			if (!top->key)
				goto done;
			skip_ws(&jp);
			if (jp.p >= jp.end || *jp.p != ':') {
				jerr(&jp, DIAG_E_YAML, "expected ':' after a key");
				goto done;
			}
			advance(&jp, 1);
			skip_ws(&jp);
			if (jp.p >= jp.end)
				continue;
		}
		if (top && top->node->type == NODE_LIST && *jp.p == ']' && top->n == 0)
			goto close;
		if (*jp.p == '{' || *jp.p == '[') {
			if (depth >= maxd) {
				diag_limit(err, jp.line, jp.col, "depth", (long long)maxd, -1,
					   "nesting deeper than the depth limit of %zu levels", maxd);
				goto done;
			}
			n = new_node(&jp, *jp.p == '{' ? NODE_MAP : NODE_LIST);
			if (!n)
				goto done;
			advance(&jp, 1);
			memset(&st[depth], 0, sizeof st[depth]);
			st[depth++].node = n;
			continue;
		}
		n = *jp.p == '"' ? parse_string(&jp) : parse_scalar(&jp);
		if (!n || add_value(&jp, st, depth, n) < 0)
			goto done;
		/* After a value: ',' to go on, or close containers. */
		for (;;) {
			skip_ws(&jp);
			if (depth == 0) {
				if (jp.p != jp.end) {
					jerr(&jp, DIAG_E_YAML, "text after the JSON value");
					goto done;
				}
				rc = 0;
				goto done;
			}
			top = &st[depth - 1];
			if (jp.p < jp.end && *jp.p == ',') {
				advance(&jp, 1);
				break;
			}
			if (jp.p < jp.end &&
			    *jp.p == (top->node->type == NODE_MAP ? '}' : ']')) {
close:
				top = &st[depth - 1];
				close_container(&jp, top);
				n = top->node;
				depth--;
				if (add_value(&jp, st, depth, n) < 0)
					goto done;
				continue;
			}
			jerr(&jp, DIAG_E_YAML, jp.p >= jp.end ? "the JSON text ends inside a container"
							     : "expected ',' or the end of the container");
			goto done;
		}
	}
done:
	free(st);
	if (rc == 0)
		d->nodes = jp.nodes;
	return rc;
}
