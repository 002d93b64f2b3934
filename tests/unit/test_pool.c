/*
 * test_pool.c: the small-block pool under the sandbox's Lua allocator
 * (core/lua/sb_pool.c): aligned blocks that do not overlap, a freed block
 * reused for its own size class only, the chunk budget refusing growth but
 * never a shrink, and a release that leaves the pool usable.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "core/lua/sb_pool.h"

#define BIG ((size_t)1 << 30)

Test(pool, blocks_are_aligned_and_disjoint)
{
	struct sb_pool pl;
	unsigned char *b[200];
	size_t i, j;

	sb_pool_init(&pl, BIG);
	for (i = 0; i < 200; i++) {
		size_t n = 1 + (i * 37) % SB_POOL_MAX_BLOCK;

		b[i] = sb_pool_get(&pl, n, 0);
		cr_assert_not_null(b[i]);
		cr_assert_eq((uintptr_t)b[i] % 16, 0, "block %zu is not 16-byte aligned", i);
		memset(b[i], (int)i, n);
	}
	/* Each block still holds its own byte: none overlapped another. */
	for (i = 0; i < 200; i++) {
		size_t n = 1 + (i * 37) % SB_POOL_MAX_BLOCK;

		for (j = 0; j < n; j++)
			cr_assert_eq(b[i][j], (unsigned char)i, "block %zu byte %zu overwritten", i, j);
	}
	sb_pool_release(&pl);
}

Test(pool, a_freed_block_serves_its_class_only)
{
	struct sb_pool pl;
	void *a, *b, *c;

	sb_pool_init(&pl, BIG);
	a = sb_pool_get(&pl, 40, 0);   /* class 33..48 */
	sb_pool_put(&pl, a, 40);
	b = sb_pool_get(&pl, 20, 0);   /* another class: a fresh block */
	cr_assert_neq(b, a);
	c = sb_pool_get(&pl, 48, 0);   /* the same class: the freed block */
	cr_assert_eq(c, a);
	sb_pool_release(&pl);
}

Test(pool, the_budget_refuses_growth_not_a_shrink)
{
	struct sb_pool pl;
	size_t got = 0;
	void *p;

	/* Room for one chunk: blocks come until it is used up, then growth is
	 * refused while a shrinking request still gets a block. */
	sb_pool_init(&pl, (size_t)64 << 10);
	while (got < 1000 && (p = sb_pool_get(&pl, SB_POOL_MAX_BLOCK, 0)) != NULL)
		got++;
	cr_assert_gt(got, 200);
	cr_assert_lt(got, 256);
	/* The chunk's tail still serves smaller blocks, then nothing. */
	for (got = 0; got < 100 && sb_pool_get(&pl, 16, 0) != NULL; got++)
		;
	cr_assert_lt(got, 16);
	cr_assert_not_null(sb_pool_get(&pl, 16, 1));
	cr_assert_gt(pl.bytes, pl.max);
	sb_pool_release(&pl);
	cr_assert_eq(pl.bytes, 0);
	cr_assert_not_null(sb_pool_get(&pl, 16, 0), "a released pool serves again");
	sb_pool_release(&pl);
}
