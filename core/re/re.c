/*
 * re.c: the only file that includes <pcre2.h>. Each regex owns its general,
 * compile and match contexts and its match data, so two threads never share
 * PCRE2 state; the JIT stack is PCRE2's default (on the machine stack, bound
 * by the depth and heap limits).
 */
#include "core/re/re.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "core/util/utf8.h"

struct re {
	pcre2_general_context *gctx;
	pcre2_code *code;
	pcre2_match_data *md;
	pcre2_match_context *mctx;
	int jit;
	uint32_t groups;
};

void re_limits_default(struct re_limits *lim)
{
	lim->match_limit = 1000000;
	lim->depth_limit = 100000;
	lim->heap_kb = 65536;
}

static void *re_malloc_hook(PCRE2_SIZE size, void *ud)
{
	const struct re_alloc *al = ud;

	return al->alloc(size, al->ud);
}

static void re_free_hook(void *ptr, void *ud)
{
	const struct re_alloc *al = ud;

	al->release(ptr, al->ud);
}

void re_free(struct re *re)
{
	if (!re)
		return;
	pcre2_match_data_free(re->md);
	pcre2_match_context_free(re->mctx);
	pcre2_code_free(re->code);
	pcre2_general_context_free(re->gctx);
	free(re);
}

struct re *re_compile(const char *pat, size_t len, unsigned flags,
		      const struct re_alloc *al, struct diag *err)
{
	uint32_t opts = PCRE2_UTF | PCRE2_UCP;
	struct re *re = calloc(1, sizeof *re);
	pcre2_compile_context *cctx = NULL;
	PCRE2_SIZE off = 0;
	size_t jit_size = 0;
	int ec = 0;

	if (!re)
		goto nomem;
	if (al) {
		/* PCRE2 keeps the pointer: 'al' must outlive the regex. */
		re->gctx = pcre2_general_context_create(
			re_malloc_hook, re_free_hook,
			(void *)(uintptr_t)al);
		if (!re->gctx)
			goto nomem;
	}
	if (flags & RE_CASELESS)
		opts |= PCRE2_CASELESS;
	if (flags & RE_MULTILINE)
		opts |= PCRE2_MULTILINE;
	if (flags & RE_DOTALL)
		opts |= PCRE2_DOTALL;
	if (flags & RE_EXTENDED)
		opts |= PCRE2_EXTENDED;
	cctx = pcre2_compile_context_create(re->gctx);
	if (!cctx)
		goto nomem;
	re->code = pcre2_compile((PCRE2_SPTR)pat, len, opts, &ec, &off, cctx);
	pcre2_compile_context_free(cctx);
	if (!re->code) {
		PCRE2_UCHAR msg[256];

		if (pcre2_get_error_message(ec, msg, sizeof msg) < 0)
			snprintf((char *)msg, sizeof msg, "error %d", ec);
		diag_set(err, DIAG_E_PACK, 0, 0,
			 "pattern does not compile at offset %zu: %s",
			 (size_t)off, (const char *)msg);
		re_free(re);
		return NULL;
	}
	/* JIT only when it produced code: a (*NO_JIT) pattern has size 0. */
	if (pcre2_jit_compile(re->code, PCRE2_JIT_COMPLETE) == 0 &&
	    pcre2_pattern_info(re->code, PCRE2_INFO_JITSIZE, &jit_size) == 0 &&
	    jit_size > 0)
		re->jit = 1;
	pcre2_pattern_info(re->code, PCRE2_INFO_CAPTURECOUNT, &re->groups);
	re->md = pcre2_match_data_create_from_pattern(re->code, re->gctx);
	re->mctx = pcre2_match_context_create(re->gctx);
	if (!re->md || !re->mctx)
		goto nomem;
	return re;
nomem:
	re_free(re);
	diag_set(err, DIAG_E_NOMEM, 0, 0, "out of memory compiling a pattern");
	return NULL;
}

size_t re_groups(const struct re *re)
{
	return re->groups;
}

int re_is_jit(const struct re *re)
{
	return re->jit;
}

int re_match(struct re *re, const char *subject, size_t len, size_t start,
	     const struct re_limits *lim, size_t *ov, size_t n,
	     struct diag *err)
{
	PCRE2_SIZE *vec;
	uint32_t pairs, i;
	size_t bad;
	int rc;

	if (start > len)
		return 0;
	if (!utf8_valid(subject, len, &bad)) {
		diag_set(err, DIAG_E_ERROR, 0, 0,
			 "subject is not valid UTF-8 at byte %zu", bad);
		return -2;
	}
	pcre2_set_match_limit(re->mctx, lim->match_limit);
	pcre2_set_depth_limit(re->mctx, lim->depth_limit);
	pcre2_set_heap_limit(re->mctx, lim->heap_kb);
	/* The subject was checked above, so both paths may skip the check. */
	if (re->jit)
		rc = pcre2_jit_match(re->code, (PCRE2_SPTR)subject, len, start,
				     PCRE2_NO_UTF_CHECK, re->md, re->mctx);
	else
		rc = pcre2_match(re->code, (PCRE2_SPTR)subject, len, start,
				 PCRE2_NO_UTF_CHECK, re->md, re->mctx);
	if (rc == PCRE2_ERROR_NOMATCH)
		return 0;
	if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT ||
	    rc == PCRE2_ERROR_HEAPLIMIT || rc == PCRE2_ERROR_JIT_STACKLIMIT ||
	    rc == PCRE2_ERROR_NOMEMORY) {
		const char *which = rc == PCRE2_ERROR_DEPTHLIMIT ? "regex_depth_limit"
				  : rc == PCRE2_ERROR_MATCHLIMIT ? "regex_match_limit"
				  : "regex_heap_kb";
		long long value = rc == PCRE2_ERROR_DEPTHLIMIT ? lim->depth_limit
				: rc == PCRE2_ERROR_MATCHLIMIT ? lim->match_limit
				: lim->heap_kb;

		diag_limit(err, 0, 0, which, value, -1,
			   "regular expression exceeded its %s of %lld", which,
			   value);
		err->code = DIAG_E_BUDGET;
		return -1;
	}
	if (rc < 0) {
		PCRE2_UCHAR msg[256];

		if (pcre2_get_error_message(rc, msg, sizeof msg) < 0)
			snprintf((char *)msg, sizeof msg, "error %d", rc);
		diag_set(err, DIAG_E_ERROR, 0, 0, "regular expression failed: %s",
			 (const char *)msg);
		return -2;
	}
	pairs = pcre2_get_ovector_count(re->md);
	vec = pcre2_get_ovector_pointer(re->md);
	for (i = 0; i < n; i++) {
		if (i < pairs && i < (uint32_t)rc) {
			ov[2 * i] = vec[2 * i] == PCRE2_UNSET ? SIZE_MAX : vec[2 * i];
			ov[2 * i + 1] = vec[2 * i + 1] == PCRE2_UNSET ? SIZE_MAX
								      : vec[2 * i + 1];
		} else {
			ov[2 * i] = SIZE_MAX;
			ov[2 * i + 1] = SIZE_MAX;
		}
	}
	return rc == 0 ? (int)pairs : rc;
}

void re_version(char *out, size_t size)
{
	char ver[64] = "";
	uint32_t jit = 0;

	pcre2_config(PCRE2_CONFIG_VERSION, ver);
	pcre2_config(PCRE2_CONFIG_JIT, &jit);
	/* The version text is "10.42 2022-12-11": keep the number. */
	ver[strcspn(ver, " ")] = '\0';
	snprintf(out, size, "%s %s", ver, jit ? "JIT" : "no-JIT");
}
