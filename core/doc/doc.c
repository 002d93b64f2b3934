/*
 * doc.c: nodes, lookup, equality and JSON Pointers over the document model.
 * Walks here are iterative or bounded by the loader's depth limit; nothing
 * writes into a node after the loader built it.
 */
#include "core/doc/doc.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/util/num.h"

void doc_init(struct doc *d, size_t cap)
{
	arena_init(&d->arena, cap);
	d->root = NULL;
	d->index = 0;
	d->nodes = 0;
	d->start_line = 0;
}

void doc_release(struct doc *d)
{
	arena_release(&d->arena);
	d->root = NULL;
	d->nodes = 0;
}

struct node *doc_new(struct doc *d, enum node_type type)
{
	struct node *n = arena_calloc(&d->arena, 1, sizeof *n);

	if (n)
		n->type = (uint8_t)type;
	return n;
}

struct node *doc_new_str(struct doc *d, const char *s, size_t len)
{
	struct node *n = doc_new(d, NODE_STR);

	if (!n)
		return NULL;
	n->v.str.s = arena_strndup(&d->arena, s, len);
	if (!n->v.str.s)
		return NULL;
	n->v.str.len = len;
	return n;
}

static const char *const type_names[NODE_NTYPES] = {
	[NODE_NULL] = "null",     [NODE_BOOL] = "bool",
	[NODE_INT] = "int",       [NODE_FLOAT] = "float",
	[NODE_STR] = "str",       [NODE_DATE] = "date",
	[NODE_DATETIME] = "datetime", [NODE_LIST] = "list",
	[NODE_MAP] = "map",       [NODE_BIGINT] = "int",
};

static const char *const schema_type_names[NODE_NTYPES] = {
	[NODE_NULL] = "null",     [NODE_BOOL] = "boolean",
	[NODE_INT] = "integer",   [NODE_FLOAT] = "number",
	[NODE_STR] = "string",    [NODE_DATE] = "date",
	[NODE_DATETIME] = "datetime", [NODE_LIST] = "array",
	[NODE_MAP] = "object",    [NODE_BIGINT] = "integer",
};

const char *doc_type_name(enum node_type t)
{
	return (unsigned)t < NODE_NTYPES ? type_names[t] : "?";
}

const char *doc_schema_type_name(enum node_type t)
{
	return (unsigned)t < NODE_NTYPES ? schema_type_names[t] : "?";
}

const struct doc_pair *doc_get_pair(const struct node *map, const char *key,
				    size_t len)
{
	size_t i;

	if (!map || map->type != NODE_MAP)
		return NULL;
	for (i = 0; i < map->v.map.n; i++) {
		const struct node *k = map->v.map.pairs[i].key;

		if (k->type == NODE_STR && k->v.str.len == len &&
		    memcmp(k->v.str.s, key, len) == 0)
			return &map->v.map.pairs[i];
	}
	return NULL;
}

struct node *doc_getn(const struct node *map, const char *key, size_t len)
{
	const struct doc_pair *p = doc_get_pair(map, key, len);

	return p ? p->value : NULL;
}

struct node *doc_get(const struct node *map, const char *key)
{
	return doc_getn(map, key, strlen(key));
}

/* A number node's value as a comparable pair: an exact int when it has one. */
static int num_of(const struct node *n, int64_t *i, double *f)
{
	switch (n->type) {
	case NODE_BOOL:
		*i = n->v.b ? 1 : 0;
		return 1;
	case NODE_INT:
		*i = n->v.i;
		return 1;
	case NODE_FLOAT:
		*f = n->v.f;
		return 2;
	default:
		return 0;
	}
}

static int num_equal(const struct node *a, const struct node *b)
{
	int64_t ia = 0, ib = 0;
	double fa = 0, fb = 0;
	int ka = num_of(a, &ia, &fa), kb = num_of(b, &ib, &fb);

	if (ka == 1 && kb == 1)
		return ia == ib;
	if (ka == 2 && kb == 2)
		return fa == fb;
	if (ka == 1)
		return num_cmp_int_double(ia, fb) == 0;
	return num_cmp_int_double(ib, fa) == 0;
}

static int time_equal(const struct node *a, const struct node *b)
{
	return a->type == b->type &&
	       doc_time_cmp(&a->v.t, &b->v.t, a->type == NODE_DATETIME) == 0;
}

int doc_key_equal(const struct node *a, const struct node *b)
{
	int na = a->type == NODE_BOOL || a->type == NODE_INT ||
		 a->type == NODE_FLOAT;
	int nb = b->type == NODE_BOOL || b->type == NODE_INT ||
		 b->type == NODE_FLOAT;

	if (na && nb) {
		if (a->type == NODE_FLOAT && b->type == NODE_FLOAT &&
		    isnan(a->v.f) && isnan(b->v.f))
			return 1;
		return num_equal(a, b);
	}
	if (a->type != b->type)
		return 0;
	switch (a->type) {
	case NODE_NULL:
		return 1;
	case NODE_STR:
	case NODE_BIGINT:
		return a->v.str.len == b->v.str.len &&
		       memcmp(a->v.str.s, b->v.str.s, a->v.str.len) == 0;
	case NODE_DATE:
	case NODE_DATETIME:
		return time_equal(a, b);
	default:
		return 0;
	}
}

static int map_equal(const struct node *a, const struct node *b);

int doc_equal(const struct node *a, const struct node *b)
{
	size_t i;

	if (a == b)
		return 1;
	if (a->type == NODE_BOOL || b->type == NODE_BOOL)
		return a->type == b->type && !a->v.b == !b->v.b;
	if ((a->type == NODE_INT || a->type == NODE_FLOAT) &&
	    (b->type == NODE_INT || b->type == NODE_FLOAT))
		return num_equal(a, b);
	if (a->type != b->type)
		return 0;
	switch (a->type) {
	case NODE_NULL:
		return 1;
	case NODE_STR:
	case NODE_BIGINT:
		return a->v.str.len == b->v.str.len &&
		       memcmp(a->v.str.s, b->v.str.s, a->v.str.len) == 0;
	case NODE_DATE:
	case NODE_DATETIME:
		return time_equal(a, b);
	case NODE_LIST:
		if (a->v.list.n != b->v.list.n)
			return 0;
		for (i = 0; i < a->v.list.n; i++)
			if (!doc_equal(a->v.list.items[i], b->v.list.items[i]))
				return 0;
		return 1;
	case NODE_MAP:
		return map_equal(a, b);
	default:
		return 0;
	}
}

static int map_equal(const struct node *a, const struct node *b)
{
	size_t i, j;

	if (a->v.map.n != b->v.map.n)
		return 0;
	for (i = 0; i < a->v.map.n; i++) {
		const struct doc_pair *pa = &a->v.map.pairs[i];
		int found = 0;

		for (j = 0; j < b->v.map.n && !found; j++) {
			const struct doc_pair *pb = &b->v.map.pairs[j];

			if (doc_key_equal(pa->key, pb->key)) {
				if (!doc_equal(pa->value, pb->value))
					return 0;
				found = 1;
			}
		}
		if (!found)
			return 0;
	}
	return 1;
}

void doc_pointer_add(struct sbuf *sb, const char *s, size_t len)
{
	size_t i, start = 0;

	sbuf_addc(sb, '/');
	for (i = 0; i < len; i++) {
		if (s[i] == '~' || s[i] == '/') {
			sbuf_add(sb, s + start, i - start);
			sbuf_adds(sb, s[i] == '~' ? "~0" : "~1");
			start = i + 1;
		}
	}
	sbuf_add(sb, s + start, len - start);
}

/* The text a key node has as a pointer token, before RFC 6901 escaping. */
static size_t key_token(const struct node *k, char *buf, size_t size)
{
	switch (k->type) {
	case NODE_NULL:
		return (size_t)snprintf(buf, size, "null");
	case NODE_BOOL:
		return (size_t)snprintf(buf, size, k->v.b ? "true" : "false");
	case NODE_INT:
		return num_int(k->v.i, buf);
	case NODE_FLOAT:
		return num_repr(k->v.f, buf);
	case NODE_DATE:
	case NODE_DATETIME:
		return doc_time_text(&k->v.t, k->type == NODE_DATETIME, 1, buf,
				     size);
	default:
		return (size_t)snprintf(buf, size, "?");
	}
}

void doc_pointer_token(struct sbuf *sb, const struct node *key)
{
	char buf[64];
	size_t n;

	if (key->type == NODE_STR || key->type == NODE_BIGINT) {
		doc_pointer_add(sb, key->v.str.s, key->v.str.len);
		return;
	}
	n = key_token(key, buf, sizeof buf);
	doc_pointer_add(sb, buf, n);
}

/* Unescape one pointer step (~0 ~1) into buf; returns its length, or
 * (size_t)-1 when it is too long or malformed. */
static size_t pointer_step(const char *p, size_t len, char *buf, size_t size)
{
	size_t i, o = 0;

	for (i = 0; i < len; i++) {
		char c = p[i];

		if (c == '~') {
			if (i + 1 >= len || (p[i + 1] != '0' && p[i + 1] != '1'))
				return (size_t)-1;
			c = p[i + 1] == '0' ? '~' : '/';
			i++;
		}
		if (o + 1 >= size)
			return (size_t)-1;
		buf[o++] = c;
	}
	buf[o] = '\0';
	return o;
}

static struct node *map_step(struct node *map, const char *step, size_t len)
{
	char tok[64];
	size_t i;
	struct node *v = doc_getn(map, step, len);

	if (v)
		return v;
	for (i = 0; i < map->v.map.n; i++) {
		const struct node *k = map->v.map.pairs[i].key;
		size_t n;

		if (k->type == NODE_STR)
			continue;
		n = key_token(k, tok, sizeof tok);
		if (n == len && memcmp(tok, step, len) == 0)
			return map->v.map.pairs[i].value;
	}
	return NULL;
}

static struct node *list_step(struct node *list, const char *step, size_t len)
{
	size_t i, idx = 0;

	if (len == 0 || (len > 1 && step[0] == '0') || len > 18)
		return NULL;
	for (i = 0; i < len; i++) {
		if (step[i] < '0' || step[i] > '9')
			return NULL;
		idx = idx * 10 + (size_t)(step[i] - '0');
	}
	return idx < list->v.list.n ? list->v.list.items[idx] : NULL;
}

struct node *doc_resolve(struct node *root, const char *ptr,
			 struct node **deepest)
{
	struct node *cur = root;
	char step[1024];

	if (deepest)
		*deepest = root;
	if (!root)
		return NULL;
	if (*ptr && *ptr != '/')
		return NULL;
	while (*ptr == '/') {
		const char *s = ptr + 1, *e = strchr(s, '/');
		size_t raw = e ? (size_t)(e - s) : strlen(s);
		size_t n = pointer_step(s, raw, step, sizeof step);
		struct node *next = NULL;

		if (n == (size_t)-1)
			return NULL;
		if (cur->type == NODE_MAP)
			next = map_step(cur, step, n);
		else if (cur->type == NODE_LIST)
			next = list_step(cur, step, n);
		if (!next)
			return NULL;
		cur = next;
		if (deepest)
			*deepest = cur;
		ptr = s + raw;
	}
	return cur;
}

size_t doc_time_text(const struct doc_time *t, int is_datetime, int iso,
		     char *out, size_t size)
{
	int n = snprintf(out, size, "%04d-%02d-%02d", t->year, t->month, t->day);

	if (!is_datetime || n < 0)
		return n < 0 ? 0 : (size_t)n;
	n += snprintf(out + n, size > (size_t)n ? size - (size_t)n : 0,
		      "%c%02d:%02d:%02d", iso ? 'T' : ' ', t->hour, t->minute,
		      t->second);
	if (t->usec)
		n += snprintf(out + n, size > (size_t)n ? size - (size_t)n : 0,
			      ".%06d", (int)t->usec);
	if (t->has_offset) {
		int off = t->offset < 0 ? -t->offset : t->offset;

		n += snprintf(out + n, size > (size_t)n ? size - (size_t)n : 0,
			      "%c%02d:%02d", t->offset < 0 ? '-' : '+',
			      off / 60, off % 60);
	}
	return (size_t)n;
}

/* Days from 0001-01-01 (proleptic Gregorian), for ordering. */
static long long days_of(const struct doc_time *t)
{
	long long y = t->year, m = t->month, d = t->day;

	if (m <= 2) {
		y--;
		m += 12;
	}
	return 365 * y + y / 4 - y / 100 + y / 400 + (153 * (m - 3) + 2) / 5 + d;
}

int doc_time_cmp(const struct doc_time *a, const struct doc_time *b,
		 int is_datetime)
{
	long long sa, sb;

	if (is_datetime && a->has_offset != b->has_offset)
		return 2;
	sa = days_of(a) * 86400LL;
	sb = days_of(b) * 86400LL;
	if (is_datetime) {
		sa += a->hour * 3600LL + a->minute * 60LL + a->second -
		      (a->has_offset ? a->offset * 60LL : 0);
		sb += b->hour * 3600LL + b->minute * 60LL + b->second -
		      (b->has_offset ? b->offset * 60LL : 0);
		if (sa == sb)
			return a->usec < b->usec ? -1 : a->usec > b->usec;
	}
	return sa < sb ? -1 : sa > sb;
}

void json_write_str(struct sbuf *sb, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, start = 0;

	sbuf_addc(sb, '"');
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		const char *esc = NULL;
		char u[7];

		if (c >= 0x20 && c != '"' && c != '\\' && c != 0x7f)
			continue;
		switch (c) {
		case '"':
			esc = "\\\"";
			break;
		case '\\':
			esc = "\\\\";
			break;
		case '\n':
			esc = "\\n";
			break;
		case '\r':
			esc = "\\r";
			break;
		case '\t':
			esc = "\\t";
			break;
		case '\b':
			esc = "\\b";
			break;
		case '\f':
			esc = "\\f";
			break;
		default:
			u[0] = '\\';
			u[1] = 'u';
			u[2] = '0';
			u[3] = '0';
			u[4] = hex[c >> 4];
			u[5] = hex[c & 15];
			u[6] = '\0';
			esc = u;
		}
		sbuf_add(sb, s + start, i - start);
		sbuf_adds(sb, esc);
		start = i + 1;
	}
	sbuf_add(sb, s + start, len - start);
	sbuf_addc(sb, '"');
}

/* Writes one scalar; returns -1 for a non-finite float. */
static int json_scalar(struct sbuf *sb, const struct node *n)
{
	char buf[64];
	size_t len;

	switch (n->type) {
	case NODE_NULL:
		sbuf_adds(sb, "null");
		return 0;
	case NODE_BOOL:
		sbuf_adds(sb, n->v.b ? "true" : "false");
		return 0;
	case NODE_INT:
		len = num_int(n->v.i, buf);
		sbuf_add(sb, buf, len);
		return 0;
	case NODE_BIGINT:
		sbuf_add(sb, n->v.str.s, n->v.str.len);
		return 0;
	case NODE_FLOAT:
		if (!isfinite(n->v.f))
			return -1;
		len = num_repr(n->v.f, buf);
		sbuf_add(sb, buf, len);
		return 0;
	case NODE_STR:
		json_write_str(sb, n->v.str.s, n->v.str.len);
		return 0;
	case NODE_DATE:
	case NODE_DATETIME:
		len = doc_time_text(&n->v.t, n->type == NODE_DATETIME, 1, buf,
				    sizeof buf);
		json_write_str(sb, buf, len);
		return 0;
	default:
		return -1;
	}
}

static int json_key(struct sbuf *sb, const struct node *k)
{
	char buf[64];
	size_t n;

	if (k->type == NODE_STR) {
		json_write_str(sb, k->v.str.s, k->v.str.len);
		return 0;
	}
	if (k->type == NODE_FLOAT && !isfinite(k->v.f))
		return -1;
	if (k->type == NODE_BIGINT) {
		json_write_str(sb, k->v.str.s, k->v.str.len);
		return 0;
	}
	n = key_token(k, buf, sizeof buf);
	json_write_str(sb, buf, n);
	return 0;
}

int doc_json_write(struct sbuf *sb, const struct node *n)
{
	size_t i;

	/* Recursion is bounded by the loader's depth limit (and by the
	 * figures depth of 4 for values built from Lua). */
	if (n->type == NODE_LIST) {
		sbuf_addc(sb, '[');
		for (i = 0; i < n->v.list.n; i++) {
			if (i)
				sbuf_adds(sb, ", ");
			if (doc_json_write(sb, n->v.list.items[i]) < 0)
				return -1;
		}
		sbuf_addc(sb, ']');
		return 0;
	}
	if (n->type == NODE_MAP) {
		sbuf_addc(sb, '{');
		for (i = 0; i < n->v.map.n; i++) {
			if (i)
				sbuf_adds(sb, ", ");
			if (json_key(sb, n->v.map.pairs[i].key) < 0)
				return -1;
			sbuf_adds(sb, ": ");
			if (doc_json_write(sb, n->v.map.pairs[i].value) < 0)
				return -1;
		}
		sbuf_addc(sb, '}');
		return 0;
	}
	return json_scalar(sb, n);
}
