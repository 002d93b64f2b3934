/*
 * schema_text.c: the small pure helpers of the schema checker: the words of
 * messages (types, values, bounds), exact comparison of numbers with
 * bounds, the edit distance behind "did you mean", and the hash that makes
 * uniqueItems linear. Nothing here allocates except the temporary buffer
 * that renders a collection for a message; nothing keeps state.
 */
#include "core/schema/schema_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util/num.h"
#include "core/util/utf8.h"

#define SCH_QUOTE_MAX 60 /* characters of a value shown in a message */

const char *const sch_class_names[SC_NCLASSES] = {
	[SC_TYPE] = "type",         [SC_ENUM] = "enum",
	[SC_CONST] = "const",       [SC_RANGE] = "range",
	[SC_LENGTH] = "length",     [SC_PATTERN] = "pattern",
	[SC_REQUIRED] = "required", [SC_ADDITIONAL] = "additional",
	[SC_NAMES] = "names",       [SC_SIZE] = "size",
	[SC_UNIQUE] = "unique",     [SC_CHOICE] = "choice",
};

/* Indexed by bit number of enum sch_type_bit. */
const struct sch_type_name sch_type_names[SCH_NTYPES] = {
	{ "boolean", "a boolean" }, { "integer", "an integer" },
	{ "number", "a number" },   { "string", "a string" },
	{ "array", "an array" },    { "object", "an object" },
	{ "date", "a date" },       { "datetime", "a datetime" },
	{ "null", "null" },
};

const struct sch_id sch_default_id = { "input.type", 0 };

unsigned sch_node_types(const struct node *n, int infinite)
{
	switch (n->type) {
	case NODE_NULL:
		return ST_NULL;
	case NODE_BOOL:
		return ST_BOOLEAN;
	case NODE_INT:
	case NODE_BIGINT:
		return ST_INTEGER | ST_NUMBER;
	case NODE_FLOAT:
		if (isfinite(n->v.f) || (infinite && isinf(n->v.f)))
			return ST_NUMBER;
		return 0;
	case NODE_STR:
		return ST_STRING;
	case NODE_DATE:
		return ST_DATE;
	case NODE_DATETIME:
		return ST_DATETIME;
	case NODE_LIST:
		return ST_ARRAY;
	case NODE_MAP:
		return ST_OBJECT;
	default:
		return 0;
	}
}

void sch_add_types(struct sbuf *sb, unsigned types, int finite)
{
	size_t i, total = 0, done = 0;

	for (i = 0; i < SCH_NTYPES; i++)
		total += (types >> i) & 1u;
	for (i = 0; i < SCH_NTYPES; i++) {
		if (!((types >> i) & 1u))
			continue;
		if (done)
			sbuf_adds(sb, done + 1 == total ? " or " : ", ");
		if ((1u << i) == ST_NUMBER && finite)
			sbuf_adds(sb, "a finite number");
		else
			sbuf_adds(sb, sch_type_names[i].phrase);
		done++;
	}
}

void sch_add_quoted(struct sbuf *sb, const char *s, size_t len)
{
	size_t n = utf8_count(s, len), cut = len, i, seen = 0;

	if (n > SCH_QUOTE_MAX) {
		/* Cut after SCH_QUOTE_MAX characters (lead bytes). */
		for (i = 0; i < len; i++) {
			if (((unsigned char)s[i] & 0xC0) != 0x80) {
				if (seen == SCH_QUOTE_MAX) {
					cut = i;
					break;
				}
				seen++;
			}
		}
	}
	sbuf_addc(sb, '\'');
	sbuf_add(sb, s, cut);
	if (cut < len)
		sbuf_adds(sb, "...");
	sbuf_addc(sb, '\'');
}

static void add_scalar(struct sbuf *sb, const struct node *n)
{
	char buf[NUM_REPR_MAX + 32];
	size_t len;

	switch (n->type) {
	case NODE_NULL:
		sbuf_adds(sb, "null");
		break;
	case NODE_BOOL:
		sbuf_adds(sb, n->v.b ? "true" : "false");
		break;
	case NODE_INT:
		len = num_int(n->v.i, buf);
		sbuf_add(sb, buf, len);
		break;
	case NODE_FLOAT:
		len = num_repr(n->v.f, buf);
		sbuf_add(sb, buf, len);
		break;
	case NODE_BIGINT:
		sbuf_add(sb, n->v.str.s, n->v.str.len);
		break;
	case NODE_STR:
		sch_add_quoted(sb, n->v.str.s, n->v.str.len);
		break;
	case NODE_DATE:
	case NODE_DATETIME:
		len = doc_time_text(&n->v.t, n->type == NODE_DATETIME, 1, buf,
				    sizeof buf);
		sbuf_add(sb, buf, len < sizeof buf ? len : sizeof buf - 1);
		break;
	default:
		sbuf_adds(sb, "?");
	}
}

void sch_add_value(struct sbuf *sb, const struct node *n)
{
	struct sbuf tmp = SBUF_INIT;

	if (n->type != NODE_LIST && n->type != NODE_MAP) {
		add_scalar(sb, n);
		return;
	}
	if (doc_json_write(&tmp, n) < 0 || tmp.failed) {
		sbuf_adds(sb, n->type == NODE_LIST ? "an array" : "an object");
	} else if (tmp.len > SCH_QUOTE_MAX) {
		sbuf_add(sb, tmp.buf, utf8_cut(tmp.buf, tmp.len, SCH_QUOTE_MAX));
		sbuf_adds(sb, "...");
	} else {
		sbuf_add(sb, tmp.buf, tmp.len);
	}
	sbuf_release(&tmp);
}

void sch_add_found(struct sbuf *sb, const struct node *n)
{
	static const char *const found[NODE_NTYPES] = {
		[NODE_NULL] = "null",         [NODE_BOOL] = "a boolean",
		[NODE_INT] = "an integer",    [NODE_FLOAT] = "a float",
		[NODE_STR] = "a string",      [NODE_DATE] = "a date",
		[NODE_DATETIME] = "a datetime", [NODE_LIST] = "an array",
		[NODE_MAP] = "an object",     [NODE_BIGINT] = "an integer",
	};

	if (n->type == NODE_FLOAT && !isfinite(n->v.f)) {
		add_scalar(sb, n); /* "nan", "inf", "-inf" */
		return;
	}
	sbuf_adds(sb, n->type < NODE_NTYPES ? found[n->type] : "?");
	if (n->type == NODE_NULL || n->type == NODE_LIST ||
	    n->type == NODE_MAP)
		return;
	sbuf_adds(sb, " (");
	add_scalar(sb, n);
	sbuf_addc(sb, ')');
}

void sch_add_bound(struct sbuf *sb, const struct sch_bound *b)
{
	char buf[NUM_REPR_MAX];
	size_t len = b->is_int ? num_int(b->i, buf) : num_repr(b->f, buf);

	sbuf_add(sb, buf, len);
}

/* Compare canonical decimal texts (an optional '-', no leading zeros). */
static int dec_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	int na = alen && a[0] == '-', nb = blen && b[0] == '-';
	int mag;

	if (na != nb)
		return na ? -1 : 1;
	a += na;
	alen -= (size_t)na;
	b += nb;
	blen -= (size_t)nb;
	if (alen != blen)
		mag = alen < blen ? -1 : 1;
	else {
		int c = memcmp(a, b, alen);

		mag = c < 0 ? -1 : c > 0;
	}
	return na ? -mag : mag;
}

/* A big integer (outside int64) against a double, exactly. Rounding to
 * double is monotonic, so the rounded value decides unless it ties; a tie
 * means the double is an integer (|d| >= 2^63) whose exact decimal text
 * "%.0f" prints. */
static int big_cmp_double(const struct node *v, double f)
{
	char buf[400];
	double d;
	int n;

	if (isnan(f))
		return 2;
	if (isinf(f))
		return f > 0 ? -1 : 1;
	d = strtod(v->v.str.s, NULL);
	if (d != f)
		return d < f ? -1 : 1;
	n = snprintf(buf, sizeof buf, "%.0f", f);
	if (n < 0 || (size_t)n >= sizeof buf)
		return 0;
	return dec_cmp(v->v.str.s, v->v.str.len, buf, (size_t)n);
}

int sch_num_cmp(const struct node *v, const struct sch_bound *b)
{
	int r;

	switch (v->type) {
	case NODE_INT:
		if (b->is_int)
			return v->v.i < b->i ? -1 : v->v.i > b->i;
		return num_cmp_int_double(v->v.i, b->f);
	case NODE_FLOAT:
		if (isnan(v->v.f))
			return 2;
		if (!b->is_int)
			return v->v.f < b->f ? -1 : v->v.f > b->f;
		r = num_cmp_int_double(b->i, v->v.f);
		return r == 2 ? 2 : -r;
	case NODE_BIGINT:
		if (b->is_int)
			return v->v.str.len && v->v.str.s[0] == '-' ? -1 : 1;
		return big_cmp_double(v, b->f);
	default:
		return 2;
	}
}

int sch_distance2(const char *a, size_t alen, const char *b, size_t blen)
{
	int rows[2][66];
	int *prev = rows[0], *cur = rows[1];
	size_t i, j;

	if (alen > blen + 2 || blen > alen + 2 || blen > 64)
		return 3;
	for (j = 0; j <= blen; j++)
		prev[j] = (int)j;
	for (i = 1; i <= alen; i++) {
		int best;
		int *t;

		cur[0] = (int)i;
		best = cur[0];
		for (j = 1; j <= blen; j++) {
			int del = prev[j] + 1, ins = cur[j - 1] + 1;
			int sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			int m = del < ins ? del : ins;

			cur[j] = m < sub ? m : sub;
			if (cur[j] < best)
				best = cur[j];
		}
		if (best > 2)
			return 3;
		t = prev;
		prev = cur;
		cur = t;
	}
	return prev[blen] > 2 ? 3 : prev[blen];
}

/* ---- hashing ----------------------------------------------------------- */

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

static uint64_t hash_bytes(const char *s, size_t len, uint64_t seed)
{
	uint64_t h = 0xcbf29ce484222325ULL ^ seed;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ULL;
	}
	return mix64(h);
}

#define H_NUM 0x6e756d0000000001ULL
#define H_NAN 0x6e616e0000000002ULL

static uint64_t hash_int(int64_t i)
{
	return mix64((uint64_t)i ^ H_NUM);
}

/* Ints and integral floats hash alike, so 3 and 3.0 meet. */
static uint64_t hash_float(double f)
{
	uint64_t bits;

	if (isnan(f))
		return H_NAN;
	if (f == floor(f) && f >= -9223372036854775808.0 &&
	    f < 9223372036854775808.0)
		return hash_int((int64_t)f);
	memcpy(&bits, &f, sizeof bits);
	return mix64(bits ^ 0x666c740000000003ULL);
}

static long long days_of(const struct doc_time *t)
{
	long long y = t->year, m = t->month, d = t->day;

	if (m <= 2) {
		y--;
		m += 12;
	}
	return 365 * y + y / 4 - y / 100 + y / 400 + (153 * (m - 3) + 2) / 5 +
	       d;
}

static uint64_t hash_time(const struct node *n)
{
	const struct doc_time *t = &n->v.t;
	long long s = days_of(t) * 86400LL;

	if (n->type == NODE_DATE)
		return mix64((uint64_t)s ^ 0x6461740000000004ULL);
	s += t->hour * 3600LL + t->minute * 60LL + t->second -
	     (t->has_offset ? t->offset * 60LL : 0);
	return mix64(((uint64_t)s * 1000003ULL + (uint64_t)t->usec) ^
		     (t->has_offset ? 0x6474610000000005ULL
				    : 0x64746e0000000006ULL));
}

/* Keys compare as doc_key_equal does: booleans equal ints there. */
static uint64_t hash_key(const struct node *k)
{
	if (k->type == NODE_BOOL)
		return hash_int(k->v.b ? 1 : 0);
	return sch_hash(k);
}

uint64_t sch_hash(const struct node *n)
{
	uint64_t h;
	size_t i;

	switch (n->type) {
	case NODE_NULL:
		return 0x6e756c6c00000007ULL;
	case NODE_BOOL:
		return n->v.b ? 0x74727565ULL : 0x66616c7365ULL;
	case NODE_INT:
		return hash_int(n->v.i);
	case NODE_FLOAT:
		return hash_float(n->v.f);
	case NODE_BIGINT:
		return hash_bytes(n->v.str.s, n->v.str.len, 0xb16);
	case NODE_STR:
		return hash_bytes(n->v.str.s, n->v.str.len, 0x57);
	case NODE_DATE:
	case NODE_DATETIME:
		return hash_time(n);
	case NODE_LIST:
		h = 0x6c697374ULL + n->v.list.n;
		for (i = 0; i < n->v.list.n; i++)
			h = mix64(h * 31 + sch_hash(n->v.list.items[i]));
		return h;
	case NODE_MAP:
		/* A sum of per-entry hashes does not depend on the order. */
		h = 0x6d6170ULL + n->v.map.n;
		for (i = 0; i < n->v.map.n; i++) {
			const struct doc_pair *p = &n->v.map.pairs[i];

			h += mix64(hash_key(p->key) * 0x9e3779b97f4a7c15ULL +
				   sch_hash(p->value));
		}
		return mix64(h);
	default:
		return 0;
	}
}

int sch_is_empty(const struct node *n)
{
	switch (n->type) {
	case NODE_NULL:
		return 1;
	case NODE_STR:
		return n->v.str.len == 0;
	case NODE_LIST:
		return n->v.list.n == 0;
	case NODE_MAP:
		return n->v.map.n == 0;
	default:
		return 0;
	}
}
