/*
 * yaml_map.c: mappings as PyYAML's constructor builds them (spec/yaml.md 4,
 * 5): merge keys flattened in PyYAML's order (each source list taken last
 * to first, then the written pairs, a repeated key keeping its first place
 * and taking the later value), merge values checked, and duplicate written
 * keys found by Python's equality through a hash consistent with it. The
 * key table is scratch of the load, reused for every mapping; nothing here
 * recurses.
 */
#include "core/yaml/yaml_int.h"
#include "core/util/grow.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

static long long civil_days(int y, int m, int d)
{
	y -= m <= 2;
	return (long long)365 * y + y / 4 - y / 100 + y / 400 +
	       (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d;
}

/* A hash consistent with doc_key_equal (Python's dict): equal numbers
 * hash alike across bool, int and float; every NaN alike. */
static uint64_t key_hash(const struct node *k)
{
	uint64_t h = 1469598103934665603ULL, bits;
	size_t i;

	switch (k->type) {
	case NODE_NULL:
		return 0x9e3779b97f4a7c15ULL;
	case NODE_BOOL:
		return mix((uint64_t)(k->v.b ? 1 : 0));
	case NODE_INT:
		return mix((uint64_t)k->v.i);
	case NODE_FLOAT:
		if (isnan(k->v.f))
			return 0x5bd1e995ULL;
		if (k->v.f == floor(k->v.f) && fabs(k->v.f) < 9.2e18)
			return mix((uint64_t)(int64_t)k->v.f);
		memcpy(&bits, &k->v.f, sizeof bits);
		return mix(bits);
	case NODE_DATE:
		return mix((uint64_t)civil_days(k->v.t.year, k->v.t.month,
						k->v.t.day) ^
			   0xda7eULL);
	case NODE_DATETIME: {
		long long s =
		    civil_days(k->v.t.year, k->v.t.month, k->v.t.day) *
			86400LL +
		    k->v.t.hour * 3600LL + k->v.t.minute * 60LL +
		    k->v.t.second -
		    (k->v.t.has_offset ? k->v.t.offset * 60LL : 0);

		return mix((uint64_t)s * 1000003ULL + (uint64_t)k->v.t.usec +
			   (uint64_t)k->v.t.has_offset);
	}
	default:
		for (i = 0; i < k->v.str.len; i++)
			h = (h ^ (unsigned char)k->v.str.s[i]) *
			    1099511628211ULL;
		return mix(h ^ k->type);
	}
}

/* Dict-ordered output of one mapping: out[0..n), looked up through
 * ld->kslots[0..ns) (index + 1) when the mapping is large, linearly when
 * small (ns == 0). */
struct keyset {
	struct doc_pair *out;
	size_t n, ns;
};

#define KEYSET_LINEAR 8
#define YNODE_SKIP 0x8u /* finish_map: a merge key whose value is refused */

static int keyset_init(struct loader *ld, struct keyset *ks,
		       struct doc_pair *out, size_t cap)
{
	size_t ns = 16;

	ks->out = out;
	ks->n = 0;
	ks->ns = 0;
	if (grow_array(&ld->kfirst, &ld->kfirst_alloc, cap + 1,
		      sizeof *ld->kfirst) < 0)
		return -1;
	if (cap <= KEYSET_LINEAR)
		return 0;
	while (ns < 2 * cap)
		ns *= 2;
	if (ns > ld->kslots_size) {
		size_t *v = realloc(ld->kslots, ns * sizeof *v);

		if (!v)
			return -1;
		ld->kslots = v;
		ld->kslots_size = ns;
	}
	memset(ld->kslots, 0, ns * sizeof *ld->kslots);
	ks->ns = ns;
	return 0;
}

/* Find 'k': its index or -1, and then the slot to fill in *slot. */
static long keyset_find(const struct loader *ld, const struct keyset *ks,
			const struct node *k, size_t *slot)
{
	size_t i;

	if (!ks->ns) {
		for (i = 0; i < ks->n; i++)
			if (doc_key_equal(ks->out[i].key, k))
				return (long)i;
		return -1;
	}
	i = (size_t)key_hash(k) & (ks->ns - 1);
	while (ld->kslots[i]) {
		size_t at = ld->kslots[i] - 1;

		if (doc_key_equal(ks->out[at].key, k))
			return (long)at;
		i = (i + 1) & (ks->ns - 1);
	}
	*slot = i;
	return -1;
}

/* Dict assignment: an equal key keeps its place and takes the value.
 * 'explicit_key' marks keys written in this mapping; returns the index
 * of an earlier explicit key equal to it, else -1. */
static long keyset_put(struct loader *ld, struct keyset *ks, struct node *k,
		       struct node *v, int explicit_key)
{
	size_t slot = 0;
	long at = keyset_find(ld, ks, k, &slot);

	if (at >= 0) {
		ks->out[at].value = v;
		if (!explicit_key)
			return -1;
		if (ld->kfirst[at])
			return at;
		ld->kfirst[at] = k;
		return -1;
	}
	ks->out[ks->n].key = k;
	ks->out[ks->n].value = v;
	ld->kfirst[ks->n] = explicit_key ? k : NULL;
	if (ks->ns)
		ld->kslots[slot] = ks->n + 1;
	ks->n++;
	return -1;
}

static void key_shown(const struct node *k, char *out, size_t size)
{
	struct sbuf b = SBUF_INIT;
	char shown[96];

	if (k->type == NODE_STR) {
		yaml_shown(k->v.str.s, k->v.str.len, 60, shown, sizeof shown);
		snprintf(out, size, "'%s'", shown);
		return;
	}
	doc_pointer_token(&b, k);
	yaml_shown(b.failed || b.len < 1 ? "?" : b.buf + 1,
		   b.failed || b.len < 1 ? 1 : b.len - 1, 60, shown,
		   sizeof shown);
	snprintf(out, size, "%s (a %s)", shown, doc_type_name(k->type));
	sbuf_release(&b);
}

/* Whether a merge value is acceptable; defers the error otherwise. */
static int merge_source_ok(struct loader *ld, struct node *k, struct node *v)
{
	size_t i;

	if (v->type == NODE_MAP)
		return 1;
	if (v->type != NODE_LIST) {
		yaml_defer(ld, DIAG_E_TYPE, v->line, v->col, ld->depth - 1, k,
			   "a merge key '<<' takes a mapping or a sequence of "
			   "mappings");
		return 0;
	}
	for (i = 0; i < v->v.list.n; i++)
		if (v->v.list.items[i]->type != NODE_MAP) {
			yaml_defer(ld, DIAG_E_TYPE, v->v.list.items[i]->line,
				   v->v.list.items[i]->col, ld->depth - 1, k,
				   "a merge sequence may hold only mappings");
			return 0;
		}
	return 1;
}

int yaml_finish_map(struct loader *ld, struct frame *fr)
{
	struct node *map = fr->node, **it = ld->items + fr->base;
	size_t npairs = (ld->nitems - fr->base) / 2, total = 0, i, j;
	struct node *first_merge = NULL;
	struct doc_pair *out;
	struct keyset ks;

	if (NEVER((ld->nitems - fr->base) % 2 != 0))
		return yaml_fail(ld, DIAG_E_YAML, map->line, map->col,
				 "a mapping ends with a key and no value");
	/* Merge keys: check their values and count what they bring. */
	for (i = 0; i < npairs; i++) {
		struct node *k = it[2 * i], *v = it[2 * i + 1];

		if (!(k->merged & YNODE_MERGE_KEY))
			continue;
		if (first_merge) {
			char msg[160];

			snprintf(msg, sizeof msg,
				 "a second merge key '<<' in one mapping (the "
				 "first is on line %u)",
				 (unsigned)first_merge->line);
			yaml_defer(ld, DIAG_E_DUPKEY, k->line, k->col,
				   ld->depth - 1, k, msg);
		} else {
			first_merge = k;
		}
		if (!merge_source_ok(ld, k, v)) {
			k->merged |= YNODE_SKIP;
			continue;
		}
		if (v->type == NODE_MAP)
			total += v->v.map.n;
		else
			for (j = 0; j < v->v.list.n; j++)
				total += v->v.list.items[j]->v.map.n;
	}
	out = arena_calloc(&ld->doc->arena, npairs + total ? npairs + total : 1,
			   sizeof *out);
	if (!out)
		return yaml_fail_nomem(ld, map->line, map->col);
	if (keyset_init(ld, &ks, out, npairs + total) < 0)
		return yaml_fail_malloc(ld);
	/* PyYAML's order: the merge lists (each source list taken last to
	 * first) then the written pairs; a repeated key keeps its first
	 * place and takes the later value. */
	for (i = 0; i < npairs; i++) {
		struct node *k = it[2 * i], *v = it[2 * i + 1];
		size_t m;

		if (!(k->merged & YNODE_MERGE_KEY) || (k->merged & YNODE_SKIP))
			continue;
		map->merged |= 1;
		if (v->type == NODE_MAP) {
			for (m = 0; m < v->v.map.n; m++)
				keyset_put(ld, &ks, v->v.map.pairs[m].key,
					   v->v.map.pairs[m].value, 0);
			continue;
		}
		for (j = v->v.list.n; j-- > 0;) {
			struct node *src = v->v.list.items[j];

			for (m = 0; m < src->v.map.n; m++)
				keyset_put(ld, &ks, src->v.map.pairs[m].key,
					   src->v.map.pairs[m].value, 0);
		}
	}
	for (i = 0; i < npairs; i++) {
		struct node *k = it[2 * i], *v = it[2 * i + 1];
		long at;

		k->merged &= (uint8_t)~YNODE_SKIP;
		if ((k->merged & YNODE_MERGE_KEY) || k->type == NODE_LIST ||
		    k->type == NODE_MAP)
			continue;
		at = keyset_put(ld, &ks, k, v, 1);
		if (at >= 0 && !ld->have_dup) {
			char msg[300], shown[128];

			key_shown(k, shown, sizeof shown);
			snprintf(msg, sizeof msg,
				 "key %s repeats the key on line %u", shown,
				 (unsigned)ld->kfirst[at]->line);
			yaml_defer(ld, DIAG_E_DUPKEY, k->line, k->col,
				   ld->depth - 1, k, msg);
		}
	}
	map->v.map.pairs = out;
	map->v.map.n = ks.n;
	return 0;
}
