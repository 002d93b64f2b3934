/*
 * re.h: PCRE2 behind a small interface. Patterns compile once (with JIT when
 * the library gives it a non-empty JIT program), match data is created from
 * the pattern and reused, every match runs under match, depth and heap
 * limits, and subjects are checked for valid UTF-8 before matching because
 * the JIT path does not check. Memory goes through a caller's allocator so
 * the Lua sandbox can count it.
 */
#ifndef INFRAGATE_RE_RE_H
#define INFRAGATE_RE_RE_H

#include <stddef.h>
#include <stdint.h>

#include "core/util/diag.h"

#define RE_CASELESS  0x1u
#define RE_MULTILINE 0x2u
#define RE_DOTALL    0x4u
#define RE_EXTENDED  0x8u

struct re_limits {
	uint32_t match_limit;  /* PCRE2 match limit per match */
	uint32_t depth_limit;  /* PCRE2 depth limit per match */
	uint32_t heap_kb;      /* PCRE2 heap limit per match, KiB */
};

/* The defaults of spec/core.md 4.5. */
void re_limits_default(struct re_limits *lim);

/* An allocator seam: PCRE2 calls these for everything it allocates. */
struct re_alloc {
	void *(*alloc)(size_t size, void *ud);
	void (*release)(void *ptr, void *ud);
	void *ud;
};

struct re;

/* Compile 'pat' (UTF-8, UTF and Unicode-property mode). 'al' may be NULL
 * (malloc) and must outlive the regex. Returns the regex, or NULL with 'err'
 * set (DIAG_E_PACK with the offset, or DIAG_E_NOMEM). */
struct re *re_compile(const char *pat, size_t len, unsigned flags,
		      const struct re_alloc *al, struct diag *err);

/* Free a regex (NULL is fine). */
void re_free(struct re *re);

/* Match 'subject' from byte offset 'start'. On a match, fills ov[0..2*n) with
 * byte offsets of the whole match and the groups (PCRE2_UNSET as SIZE_MAX)
 * for the first n pairs and returns the pair count (>= 1); 0 for no match;
 * -1 with 'err' = DIAG_E_BUDGET when a limit was hit (err->limit names it);
 * -2 with 'err' = DIAG_E_ERROR for a subject that is not UTF-8 or another
 * matching error. */
int re_match(struct re *re, const char *subject, size_t len, size_t start,
	     const struct re_limits *lim, size_t *ov, size_t n,
	     struct diag *err);

/* Number of capture groups of the pattern. */
size_t re_groups(const struct re *re);

/* Whether the regex runs JIT-compiled code. */
int re_is_jit(const struct re *re);

/* PCRE2's version and whether JIT is available: "10.42 JIT". */
void re_version(char *out, size_t size);

#endif
