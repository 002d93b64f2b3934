/*
 * l_service_promotion.c: the C services of the promotion pack
 * (spec/promotion.md 2, 5.5, 5.8, 7.5, 8): canonical JSON exactly as
 * Python's json.dumps(sort_keys=True, separators=(',', ':'),
 * ensure_ascii=True, allow_nan=False) writes it, the record digest,
 * SHA-256 and HMAC-SHA256 through libcrypto (core/util/crypto), hex
 * decoding as bytes.fromhex, a JSON reader with json.loads semantics, and
 * reads of evidence files confined to the evidence root. Everything is
 * reached as engine.promotion.<fn>; arguments are checked before anything
 * is allocated, and files are opened only below a root that came from the
 * command line.
 */
#include "core/lua/sb_internal.h"
#include "core/lua/l_services.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/doc/doc.h"
#include "core/util/crypto.h"
#include "core/util/num.h"
#include "core/util/readfile.h"
#include "core/util/utf8.h"

/* Evidence files (receipts, artifacts) and the trust policy are small JSON
 * documents; anything larger is refused as unreadable. */
#define PROMO_FILE_MAX ((size_t)8 << 20)
#define PROMO_LINKS_MAX 40
#define PROMO_JSON_NODES 1000000

/* ---- canonical JSON --------------------------------------------------------- */

/* Classes of mapping keys for Python's sort: strings sort among strings,
 * numbers and booleans among themselves; any other mix raises TypeError. */
enum key_class { KEY_STR, KEY_NUM, KEY_OTHER };

static enum key_class key_class_of(const struct node *k)
{
	switch (k->type) {
	case NODE_STR:
		return KEY_STR;
	case NODE_INT:
	case NODE_BOOL:
	case NODE_BIGINT:
		return KEY_NUM;
	case NODE_FLOAT:
		return isfinite(k->v.f) ? KEY_NUM : KEY_OTHER;
	default:
		return KEY_OTHER;
	}
}

/* Whether the keys of 'map' can be sorted and written as JSON keys. A
 * mapping of at most one key needs no comparison, but its key must still
 * be writable (a null key is; a date or a NaN is not). */
static int keys_encodable(const struct node *map)
{
	size_t i, n = map->v.map.n;
	enum key_class first;

	if (n == 0)
		return 1;
	if (n == 1)
		return map->v.map.pairs[0].key->type == NODE_NULL ||
		       key_class_of(map->v.map.pairs[0].key) != KEY_OTHER;
	first = key_class_of(map->v.map.pairs[0].key);
	if (first == KEY_OTHER)
		return 0;
	for (i = 1; i < n; i++)
		if (key_class_of(map->v.map.pairs[i].key) != first)
			return 0;
	return 1;
}

/* The first value, in document order, that cannot be encoded: 1 with its
 * JSON Pointer in 'path', else 0. 'skip' is a top-level key left out. */
static int canon_find_bad(const struct node *n, struct sbuf *path,
			  const char *skip)
{
	size_t i, mark = path->len;

	switch (n->type) {
	case NODE_FLOAT:
		return !isfinite(n->v.f);
	case NODE_DATE:
	case NODE_DATETIME:
		return 1;
	case NODE_LIST:
		for (i = 0; i < n->v.list.n; i++) {
			sbuf_addf(path, "/%zu", i);
			if (canon_find_bad(n->v.list.items[i], path, NULL))
				return 1;
			sbuf_truncate(path, mark);
		}
		return 0;
	case NODE_MAP:
		if (!keys_encodable(n))
			return 1;
		for (i = 0; i < n->v.map.n; i++) {
			const struct doc_pair *p = &n->v.map.pairs[i];

			if (skip && p->key->type == NODE_STR && strcmp(p->key->v.str.s, skip) == 0)
				continue;
			doc_pointer_token(path, p->key);
			if (canon_find_bad(p->value, path, NULL))
				return 1;
			sbuf_truncate(path, mark);
		}
		return 0;
	default:
		return 0;
	}
}

/* Decode one code point of WTF-8 (UTF-8 that may hold lone surrogates as
 * three-byte forms, as the JSON reader keeps them). Returns the length. */
static size_t wtf8_decode(const unsigned char *s, size_t len, uint32_t *cp)
{
	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if ((s[0] & 0xE0) == 0xC0 && len >= 2) {
		*cp = ((uint32_t)(s[0] & 0x1F) << 6) | (s[1] & 0x3F);
		return 2;
	}
	if ((s[0] & 0xF0) == 0xE0 && len >= 3) {
		*cp = ((uint32_t)(s[0] & 0x0F) << 12) | ((uint32_t)(s[1] & 0x3F) << 6) |
		      (s[2] & 0x3F);
		return 3;
	}
	if ((s[0] & 0xF8) == 0xF0 && len >= 4) {
		*cp = ((uint32_t)(s[0] & 0x07) << 18) | ((uint32_t)(s[1] & 0x3F) << 12) |
		      ((uint32_t)(s[2] & 0x3F) << 6) | (s[3] & 0x3F);
		return 4;
	}
	*cp = 0xFFFD; /* cannot happen for loader output */
	return 1;
}

/* A string with ensure_ascii: short escapes for the five controls Python
 * names, \u00XX for the others and for U+007F up, surrogate pairs above
 * U+FFFF; '/' is not escaped. */
static void canon_str(struct sbuf *out, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	sbuf_addc(out, '"');
	while (i < len) {
		uint32_t cp;

		i += wtf8_decode(p + i, len - i, &cp);
		switch (cp) {
		case '"': sbuf_adds(out, "\\\""); continue;
		case '\\': sbuf_adds(out, "\\\\"); continue;
		case '\b': sbuf_adds(out, "\\b"); continue;
		case '\f': sbuf_adds(out, "\\f"); continue;
		case '\n': sbuf_adds(out, "\\n"); continue;
		case '\r': sbuf_adds(out, "\\r"); continue;
		case '\t': sbuf_adds(out, "\\t"); continue;
		default: break;
		}
		if (cp >= 0x20 && cp < 0x7F)
			sbuf_addc(out, (char)cp);
		else if (cp > 0xFFFF)
			sbuf_addf(out, "\\u%04x\\u%04x", 0xD800 + ((cp - 0x10000) >> 10),
				  0xDC00 + ((cp - 0x10000) & 0x3FF));
		else
			sbuf_addf(out, "\\u%04x", cp);
	}
	sbuf_addc(out, '"');
}

/* A key or scalar as text: integers in decimal, floats in repr. */
static void canon_number(struct sbuf *out, const struct node *n)
{
	char buf[NUM_REPR_MAX];

	if (n->type == NODE_INT)
		sbuf_add(out, buf, num_int(n->v.i, buf));
	else if (n->type == NODE_FLOAT)
		sbuf_add(out, buf, num_repr(n->v.f, buf));
	else
		sbuf_add(out, n->v.str.s, n->v.str.len); /* canonical decimal */
}

/* The value of a numeric key, for sorting: booleans are 0 and 1. Big
 * integers compare by sign and magnitude of their text. */
static int num_key_cmp(const struct node *a, const struct node *b)
{
	double x, y;

	if (a->type == NODE_BIGINT || b->type == NODE_BIGINT) {
		x = a->type == NODE_BIGINT ? strtod(a->v.str.s, NULL)
		    : a->type == NODE_FLOAT ? a->v.f
		    : a->type == NODE_INT ? (double)a->v.i : a->v.b;
		y = b->type == NODE_BIGINT ? strtod(b->v.str.s, NULL)
		    : b->type == NODE_FLOAT ? b->v.f
		    : b->type == NODE_INT ? (double)b->v.i : b->v.b;
		if (a->type == NODE_BIGINT && b->type == NODE_BIGINT && x == y) {
			int neg = a->v.str.s[0] == '-';
			int c = a->v.str.len < b->v.str.len ? -1
				: a->v.str.len > b->v.str.len ? 1
				: strcmp(a->v.str.s, b->v.str.s);
			return neg ? -c : c;
		}
		return x < y ? -1 : x > y;
	}
	if (a->type == NODE_FLOAT && b->type == NODE_FLOAT)
		return a->v.f < b->v.f ? -1 : a->v.f > b->v.f;
	if (a->type == NODE_FLOAT)
		return -num_cmp_int_double(b->type == NODE_INT ? b->v.i : b->v.b, a->v.f);
	if (b->type == NODE_FLOAT)
		return num_cmp_int_double(a->type == NODE_INT ? a->v.i : a->v.b, b->v.f);
	x = 0;
	{
		int64_t i = a->type == NODE_INT ? a->v.i : a->v.b;
		int64_t j = b->type == NODE_INT ? b->v.i : b->v.b;

		(void)x;
		return i < j ? -1 : i > j;
	}
}

static int pair_cmp(const void *pa, const void *pb)
{
	const struct doc_pair *a = *(const struct doc_pair *const *)pa;
	const struct doc_pair *b = *(const struct doc_pair *const *)pb;

	if (a->key->type == NODE_STR && b->key->type == NODE_STR) {
		size_t n = a->key->v.str.len < b->key->v.str.len ? a->key->v.str.len
								   : b->key->v.str.len;
		int c = memcmp(a->key->v.str.s, b->key->v.str.s, n);

		if (c)
			return c;
		return a->key->v.str.len < b->key->v.str.len ? -1
		       : a->key->v.str.len > b->key->v.str.len;
	}
	return num_key_cmp(a->key, b->key);
}

static void canon_key(struct sbuf *out, const struct node *k)
{
	switch (k->type) {
	case NODE_STR:
		canon_str(out, k->v.str.s, k->v.str.len);
		return;
	case NODE_BOOL:
		sbuf_adds(out, k->v.b ? "\"true\"" : "\"false\"");
		return;
	case NODE_NULL:
		sbuf_adds(out, "\"null\"");
		return;
	default:
		sbuf_addc(out, '"');
		canon_number(out, k);
		sbuf_addc(out, '"');
	}
}

/* Write an encodable node (canon_find_bad said so). 'skip': a key of this
 * mapping left out (the record's receipts). */
static int canon_write(struct sbuf *out, const struct node *n, const char *skip)
{
	const struct doc_pair **sorted;
	size_t i, m, k;

	switch (n->type) {
	case NODE_NULL:
		sbuf_adds(out, "null");
		return 0;
	case NODE_BOOL:
		sbuf_adds(out, n->v.b ? "true" : "false");
		return 0;
	case NODE_INT:
	case NODE_FLOAT:
	case NODE_BIGINT:
		canon_number(out, n);
		return 0;
	case NODE_STR:
		canon_str(out, n->v.str.s, n->v.str.len);
		return 0;
	case NODE_LIST:
		sbuf_addc(out, '[');
		for (i = 0; i < n->v.list.n; i++) {
			if (i)
				sbuf_addc(out, ',');
			if (canon_write(out, n->v.list.items[i], NULL) < 0)
				return -1;
		}
		sbuf_addc(out, ']');
		return 0;
	case NODE_MAP:
		m = n->v.map.n;
		sorted = malloc((m ? m : 1) * sizeof *sorted);
		if (!sorted)
			return -1;
		for (i = 0, k = 0; i < m; i++) {
			const struct doc_pair *p = &n->v.map.pairs[i];

			if (skip && p->key->type == NODE_STR && strcmp(p->key->v.str.s, skip) == 0)
				continue;
			sorted[k++] = p;
		}
		if (k > 1)
			qsort(sorted, k, sizeof *sorted, pair_cmp);
		sbuf_addc(out, '{');
		for (i = 0; i < k; i++) {
			if (i)
				sbuf_addc(out, ',');
			canon_key(out, sorted[i]->key);
			sbuf_addc(out, ':');
			if (canon_write(out, sorted[i]->value, NULL) < 0) {
				free(sorted);
				return -1;
			}
		}
		sbuf_addc(out, '}');
		free(sorted);
		return 0;
	default:
		return -1;
	}
}

/* Push the canonical text of 'n', or nil and the pointer of the first
 * value that cannot be encoded (and its position when it has one). Leaves
 * only the results on the stack; returns their number. */
static int push_canonical(lua_State *L, const struct node *root, const struct node *n,
			  const char *skip, const char *base)
{
	int top = lua_gettop(L), nres = 1;
	struct sbuf *b = sb_tmpbuf(L, SB_JSON_MAX);
	struct sbuf *path = sb_tmpbuf(L, 0);

	sbuf_adds(path, base);
	if (canon_find_bad(n, path, skip)) {
		const struct node *bad = doc_resolve((struct node *)(uintptr_t)root,
						     sbuf_cstr(path), NULL);

		lua_pushnil(L);
		lua_pushstring(L, sbuf_cstr(path));
		nres = 2;
		if (bad && bad->line) {
			lua_pushinteger(L, bad->line);
			lua_pushinteger(L, bad->col);
			nres = 4;
		}
	} else {
		if (canon_write(b, n, skip) < 0 || b->failed)
			return luaL_error(L, "canonical JSON: out of memory");
		lua_pushlstring(L, b->buf ? b->buf : "", b->len);
	}
	/* Drop the two buffers below the results. */
	lua_rotate(L, top + 1, -2);
	lua_pop(L, 2);
	return nres;
}

/* engine.promotion.record_canonical(view): canonical(record without its
 * top-level 'receipts'); nil, pointer[, line, column] when not encodable. */
static int l_record_canonical(lua_State *L)
{
	struct sb_view *v = sb_check_view(L, 1, 1);
	const struct sb_doc *d;

	if (!v)
		return luaL_typeerror(L, 1, "document view");
	d = sb_doc_get(sb_of(L), v->docid);
	if (v->node->type != NODE_MAP)
		return luaL_error(L, "record_canonical needs a mapping");
	return push_canonical(L, d->doc->root, v->node, "receipts", "");
}

/* ---- JSON reading (5.8) ----------------------------------------------------- */

/* Read JSON text as Python's json.loads does into the document on top of
 * the stack. Returns 0, or pushes nil and an error table and returns -1. */
static int parse_json(lua_State *L, struct doc *d, const char *text, size_t len)
{
	struct doc_json_opts o;
	struct diag err;
	size_t bad;

	memset(&o, 0, sizeof o);
	o.dup_last_wins = 1;
	o.allow_nonfinite = 1;
	o.lone_surrogates = 1;
	o.max_nodes = PROMO_JSON_NODES;
	diag_init(&err);
	if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
		diag_set(&err, DIAG_E_ENCODING, 1, 1, "the text starts with a byte-order mark");
	} else if (!utf8_valid(text, len, &bad)) {
		size_t i, line = 1, col = 1;

		for (i = 0; i < bad; i++) {
			if (text[i] == '\n') {
				line++;
				col = 1;
			} else if (((unsigned char)text[i] & 0xC0) != 0x80) {
				col++;
			}
		}
		diag_set(&err, DIAG_E_ENCODING, (unsigned)line, (unsigned)col,
			 "byte 0x%02x at offset %zu is not valid UTF-8",
			 (unsigned char)text[bad], bad);
	} else if (doc_json_parse(d, text, len, &o, &err) == 0) {
		return 0;
	}
	lua_pushnil(L);
	lua_createtable(L, 0, 4);
	lua_pushstring(L, err.code == DIAG_E_ENCODING ? "encoding"
			  : err.code == DIAG_E_LIMIT || err.code == DIAG_E_NOMEM ? "limit"
			  : "json");
	lua_setfield(L, -2, "kind");
	lua_pushstring(L, err.msg);
	lua_setfield(L, -2, "message");
	if (err.line) {
		lua_pushinteger(L, err.line);
		lua_setfield(L, -2, "line");
		lua_pushinteger(L, err.col ? err.col : 1);
		lua_setfield(L, -2, "column");
	}
	return -1;
}

/* Plain Lua values of a JSON node, tagged so that pack code can tell an
 * empty object from an empty array and a big integer from a string:
 * objects are {t = "object", keys = {...}, map = {...}} (keys in document
 * order), arrays {t = "array", n = N, ...items}, integers outside int64
 * {t = "bigint", text = "..."}; scalars are Lua values and null is
 * engine.null. */
static void push_json_value(lua_State *L, const struct node *n)
{
	size_t i;

	luaL_checkstack(L, 6, "JSON nests too deep");
	switch (n->type) {
	case NODE_LIST:
		lua_createtable(L, (int)n->v.list.n, 2);
		lua_pushliteral(L, "array");
		lua_setfield(L, -2, "t");
		lua_pushinteger(L, (lua_Integer)n->v.list.n);
		lua_setfield(L, -2, "n");
		for (i = 0; i < n->v.list.n; i++) {
			push_json_value(L, n->v.list.items[i]);
			lua_rawseti(L, -2, (lua_Integer)i + 1);
		}
		return;
	case NODE_MAP:
		lua_createtable(L, 0, 3);
		lua_pushliteral(L, "object");
		lua_setfield(L, -2, "t");
		lua_createtable(L, (int)n->v.map.n, 0);
		lua_createtable(L, 0, (int)n->v.map.n);
		for (i = 0; i < n->v.map.n; i++) {
			const struct doc_pair *p = &n->v.map.pairs[i];

			lua_pushlstring(L, p->key->v.str.s, p->key->v.str.len);
			lua_rawseti(L, -3, (lua_Integer)i + 1);
			lua_pushlstring(L, p->key->v.str.s, p->key->v.str.len);
			push_json_value(L, p->value);
			lua_rawset(L, -3);
		}
		lua_setfield(L, -3, "map");
		lua_setfield(L, -2, "keys");
		return;
	case NODE_BIGINT:
		lua_createtable(L, 0, 2);
		lua_pushliteral(L, "bigint");
		lua_setfield(L, -2, "t");
		lua_pushlstring(L, n->v.str.s, n->v.str.len);
		lua_setfield(L, -2, "text");
		return;
	default:
		sb_push_plain(L, n);
		return;
	}
}

/* engine.promotion.json_where(text, pointer): line and column of the node
 * at a JSON Pointer (for messages about a document already decoded), or
 * nothing when the text does not parse or the pointer resolves nowhere
 * (then the deepest existing ancestor's position). */
static int l_json_where(lua_State *L)
{
	size_t len;
	const char *text = luaL_checklstring(L, 1, &len);
	const char *ptr = luaL_checkstring(L, 2);
	struct node *n, *deepest = NULL;
	struct doc *d = sb_tmpdoc(L, 0);

	if (parse_json(L, d, text, len) < 0)
		return 0;
	n = doc_resolve(d->root, ptr, &deepest);
	if (!n)
		n = deepest;
	if (!n || !n->line)
		return 0;
	lua_pushinteger(L, n->line);
	lua_pushinteger(L, n->col);
	return 2;
}

/* engine.promotion.json_decode(text[, member]) -> value, canonical text of
 * root[member] (or of the root; nil when it cannot be encoded); or nil and
 * {kind = "encoding"|"json"|"limit", message, line, column}. */
static int l_json_decode(lua_State *L)
{
	size_t len, mlen = 0;
	const char *text = luaL_checklstring(L, 1, &len);
	const char *member = luaL_optlstring(L, 2, NULL, &mlen);
	const struct node *target;
	struct doc *d;
	int top;

	d = sb_tmpdoc(L, 0);
	if (parse_json(L, d, text, len) < 0)
		return 2;
	top = lua_gettop(L);
	push_json_value(L, d->root);
	target = member ? (d->root->type == NODE_MAP ? doc_getn(d->root, member, mlen) : NULL)
			: d->root;
	if (target && push_canonical(L, d->root, target, NULL, "") > 1) {
		lua_settop(L, top + 1);
		lua_pushnil(L);
	} else if (!target) {
		lua_pushnil(L);
	}
	return 2;
}

/* ---- hashes, keys ------------------------------------------------------------ */

static int l_sha256_hex(lua_State *L)
{
	size_t len;
	const char *s = luaL_checklstring(L, 1, &len);
	unsigned char md[CRYPTO_SHA256_LEN];
	char hex[2 * CRYPTO_SHA256_LEN + 1];

	if (crypto_sha256(s, len, md) < 0)
		return luaL_error(L, "SHA-256 failed in libcrypto");
	crypto_hex(md, sizeof md, hex);
	lua_pushstring(L, hex);
	return 1;
}

static int l_hmac_sha256_hex(lua_State *L)
{
	size_t klen, len;
	const char *key = luaL_checklstring(L, 1, &klen);
	const char *s = luaL_checklstring(L, 2, &len);
	unsigned char md[CRYPTO_SHA256_LEN];
	char hex[2 * CRYPTO_SHA256_LEN + 1];

	if (crypto_hmac_sha256(key, klen, s, len, md) < 0)
		return luaL_error(L, "HMAC-SHA256 failed in libcrypto");
	crypto_hex(md, sizeof md, hex);
	lua_pushstring(L, hex);
	return 1;
}

/* engine.promotion.equal(a, b): constant-time comparison (CRYPTO_memcmp)
 * of two strings; strings of different lengths are unequal. */
static int l_equal(lua_State *L)
{
	size_t la, lb;
	const char *a = luaL_checklstring(L, 1, &la);
	const char *b = luaL_checklstring(L, 2, &lb);

	lua_pushboolean(L, la == lb && crypto_equal(a, b, la));
	return 1;
}

static int hex_value(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int is_ascii_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/* engine.promotion.hex_decode(s): bytes.fromhex(s), or nil when Python
 * would raise (odd digit, whitespace inside a pair, a non-hex byte). */
static int l_hex_decode(lua_State *L)
{
	size_t len, i = 0, n = 0;
	const char *s = luaL_checklstring(L, 1, &len);
	luaL_Buffer b;
	char *out;

	out = luaL_buffinitsize(L, &b, len / 2 + 1);
	while (i < len) {
		int hi, lo;

		if (is_ascii_space((unsigned char)s[i])) {
			i++;
			continue;
		}
		if (i + 1 >= len || (hi = hex_value((unsigned char)s[i])) < 0 ||
		    (lo = hex_value((unsigned char)s[i + 1])) < 0) {
			lua_pushnil(L);
			return 1;
		}
		out[n++] = (char)(hi * 16 + lo);
		i += 2;
	}
	luaL_pushresultsize(&b, n);
	return 1;
}

/* ---- files ------------------------------------------------------------------- */

static void check_allowed(lua_State *L, const char *path, const char *what)
{
	if (!sb_path_allowed(sb_of(L), path))
		luaL_error(L, "%s '%s' did not come from the command line", what, path);
}

/* Read a regular file into a Lua string; 0, or -1 with errno-like text. */
static int push_file(lua_State *L, int fd, const char *display, char *why, size_t size)
{
	struct diag err;
	char *buf = NULL;
	size_t len = 0;
	struct stat st;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(why, size, "'%s' is not a regular file", display);
		return -1;
	}
	diag_init(&err);
	if (readfile_fd(fd, display, PROMO_FILE_MAX, &buf, &len, &err) < 0) {
		snprintf(why, size, "%s", err.msg);
		return -1;
	}
	lua_pushlstring(L, buf ? buf : "", len);
	free(buf);
	return 0;
}

/* engine.promotion.read_file(path): the bytes of a file named on the
 * command line (the trust policy), or nil and the reason. */
static int l_read_file(lua_State *L)
{
	const char *path = luaL_checkstring(L, 1);
	char why[DIAG_MSG_MAX];
	int fd;

	check_allowed(L, path, "file");
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		lua_pushnil(L);
		lua_pushfstring(L, "cannot open '%s': %s", path, strerror(errno));
		return 2;
	}
	if (push_file(L, fd, path, why, sizeof why) < 0) {
		close(fd);
		lua_pushnil(L);
		lua_pushstring(L, why);
		return 2;
	}
	close(fd);
	return 1;
}

/* engine.promotion.is_dir(path): a folder named on the command line. */
static int l_is_dir(lua_State *L)
{
	const char *path = luaL_checkstring(L, 1);
	struct stat st;

	check_allowed(L, path, "folder");
	lua_pushboolean(L, stat(path, &st) == 0 && S_ISDIR(st.st_mode));
	return 1;
}

/* Append component c[0..n) to the absolute path 'p' (length *pl), applying
 * '.' and '..' lexically. Returns -1 when the path grows too long. */
static int path_push(char *p, size_t *pl, const char *c, size_t n)
{
	if (n == 0 || (n == 1 && c[0] == '.'))
		return 0;
	if (n == 2 && c[0] == '.' && c[1] == '.') {
		while (*pl > 1 && p[*pl - 1] != '/')
			(*pl)--;
		if (*pl > 1)
			(*pl)--;
		p[*pl] = '\0';
		return 0;
	}
	if (*pl + n + 2 >= PATH_MAX)
		return -1;
	if (*pl > 1)
		p[(*pl)++] = '/';
	memcpy(p + *pl, c, n);
	*pl += n;
	p[*pl] = '\0';
	return 0;
}

/* Resolve 'in' (absolute) like POSIX realpath, but as Python's
 * os.path.realpath(strict=False): symbolic links are followed, components
 * that do not exist are appended lexically. Returns 0, or -1 (too long, a
 * link loop). */
static int resolve_path(const char *in, char out[PATH_MAX])
{
	char rest[PATH_MAX], link[PATH_MAX], tmp[PATH_MAX];
	size_t ol = 1, links = 0;
	int missing = 0;
	char *r;

	if (strlen(in) >= PATH_MAX)
		return -1;
	snprintf(rest, sizeof rest, "%s", in);
	out[0] = '/';
	out[1] = '\0';
	r = rest;
	while (*r) {
		char *e;
		size_t n, before = ol;
		struct stat st;
		ssize_t ln;

		while (*r == '/')
			r++;
		if (!*r)
			break;
		e = strchr(r, '/');
		n = e ? (size_t)(e - r) : strlen(r);
		if (path_push(out, &ol, r, n) < 0)
			return -1;
		r += n;
		if (missing || ol <= before || (n == 2 && r[-1] == '.' && r[-2] == '.'))
			continue;
		if (lstat(out, &st) < 0) {
			missing = 1; /* the rest is appended lexically */
			continue;
		}
		if (!S_ISLNK(st.st_mode))
			continue;
		if (++links > PROMO_LINKS_MAX)
			return -1;
		ln = readlink(out, link, sizeof link - 1);
		if (ln < 0)
			return -1;
		link[ln] = '\0';
		/* Drop the link's own component, then splice its target in
		 * front of what is left. */
		while (ol > 1 && out[ol - 1] != '/')
			ol--;
		if (ol > 1)
			ol--;
		out[ol] = '\0';
		if (link[0] == '/') {
			ol = 1;
			out[1] = '\0';
		}
		if (strlen(link) + strlen(r) + 2 >= PATH_MAX)
			return -1;
		snprintf(tmp, sizeof tmp, "%s%s", link, r);
		snprintf(rest, sizeof rest, "%s", tmp);
		r = rest;
	}
	return 0;
}

/* Whether 'p' is 'root' or below it. */
static int path_within(const char *p, const char *root)
{
	size_t rl = strlen(root);

	if (rl == 1)
		return p[0] == '/';
	return strncmp(p, root, rl) == 0 && (p[rl] == '/' || p[rl] == '\0');
}

/* engine.promotion.evidence_read(root, item): read root/item (an absolute
 * item replaces the root) when its resolved path is the resolved root or
 * below it. Returns the bytes, or nil and "outside-root", "missing" (no
 * regular file there) or "unreadable", and a message. The file is opened
 * with O_NOFOLLOW at its resolved path, so a link swapped in after the
 * resolution is refused rather than followed. */
static int l_evidence_read(lua_State *L)
{
	const char *root = luaL_checkstring(L, 1);
	const char *item = luaL_checkstring(L, 2);
	char rroot[PATH_MAX], joined[PATH_MAX], cwd[PATH_MAX], real[PATH_MAX];
	char why[DIAG_MSG_MAX];
	struct stat st;
	int fd;

	check_allowed(L, root, "evidence root");
	if (strlen(item) != lua_rawlen(L, 2) || !realpath(root, rroot))
		goto outside;
	if (item[0] == '/') {
		snprintf(joined, sizeof joined, "%s", item);
	} else if (root[0] == '/') {
		snprintf(joined, sizeof joined, "%s/%s", root, item);
	} else {
		if (!getcwd(cwd, sizeof cwd))
			goto outside;
		snprintf(joined, sizeof joined, "%s/%s/%s", cwd, root, item);
	}
	if (resolve_path(joined, real) < 0 || !path_within(real, rroot))
		goto outside;
	if (stat(real, &st) < 0 || !S_ISREG(st.st_mode)) {
		lua_pushnil(L);
		lua_pushliteral(L, "missing");
		lua_pushfstring(L, "no regular file at '%s' under the evidence root", item);
		return 3;
	}
	fd = open(real, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0 || push_file(L, fd, item, why, sizeof why) < 0) {
		if (fd >= 0)
			close(fd);
		else
			snprintf(why, sizeof why, "cannot open '%s': %s", item, strerror(errno));
		lua_pushnil(L);
		lua_pushliteral(L, "unreadable");
		lua_pushstring(L, why);
		return 3;
	}
	close(fd);
	return 1;
outside:
	lua_pushnil(L);
	lua_pushliteral(L, "outside-root");
	lua_pushfstring(L, "'%s' resolves outside the evidence root", item);
	return 3;
}

static const luaL_Reg promotion_fns[] = {
	{ "record_canonical", l_record_canonical },
	{ "json_decode", l_json_decode },
	{ "json_where", l_json_where },
	{ "sha256_hex", l_sha256_hex },
	{ "hmac_sha256_hex", l_hmac_sha256_hex },
	{ "equal", l_equal },
	{ "hex_decode", l_hex_decode },
	{ "read_file", l_read_file },
	{ "is_dir", l_is_dir },
	{ "evidence_read", l_evidence_read },
	{ NULL, NULL }
};

void sb_open_service_promotion(lua_State *L, int engine_idx)
{
	luaL_newlib(L, promotion_fns);
	lua_setfield(L, engine_idx, "promotion");
}
