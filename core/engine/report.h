/*
 * report.h: the result of a lint run and the five reporters that render it
 * (spec/core.md 8.3-8.7): text, the generic lint JSON, SARIF 2.1.0, GitHub
 * workflow commands and JUnit XML. Reporters are pure functions of a
 * struct lint_report to text; they never print. This is a private header of
 * core/engine (cli sees it through engine.h).
 *
 * Ownership: a lint_report owns its files, each file owns its findings list
 * and strings; lint_report_release() frees everything.
 */
#ifndef INFRAGATE_ENGINE_REPORT_H
#define INFRAGATE_ENGINE_REPORT_H

#include <stddef.h>

#include "core/doc/doc.h"
#include "core/lua/sandbox.h"
#include "core/util/sbuf.h"

enum verdict { VERDICT_PASS, VERDICT_FAIL, VERDICT_ERROR };

enum report_format {
	FORMAT_TEXT,
	FORMAT_JSON,
	FORMAT_SARIF,
	FORMAT_GITHUB,
	FORMAT_JUNIT,
	FORMAT_NFORMATS
};

/* What a reporter needs to know of a rule id is struct rule_info of
 * core/lua/sandbox.h (one record for listings, SARIF and --explain). */

/* Looks a rule id up; returns NULL when unknown. */
struct rule_lookup {
	const struct rule_info *(*find)(void *ud, const char *id);
	void *ud;
};

struct lint_file {
	char *display;        /* the path as reported (spec/core.md 4.1) */
	enum verdict verdict;
	struct findings fs;   /* report order; suppressed ones have supp_by set */
	/* engine.report objects as JSON members ("key": value, ...), without
	 * braces, or NULL. */
	char *report_members;
	/* Ids of the rules that ran on this file, in evaluation order, for the
	 * JUnit testcases; each at most once. */
	char **rules_ran;
	size_t nrules_ran;
};

struct lint_summary {
	size_t files, passed, failed, errors, warnings, infos, unusable, skipped,
		suppressed;
};

struct lint_report {
	struct lint_file *files; /* reported files, input order */
	size_t nfiles;
	struct lint_summary sum;
	enum severity fail_on;   /* SEV_NONE: nothing fails */
	int exit_code;           /* 0, 1 or 2, as the run will exit */
	int quiet;               /* -q: no summary line */
	int show_suppressed;     /* --show-suppressed */
	int color;               /* ANSI colour in text output */
	const char *verb;        /* the JSON envelope's verb ("lint") */
	const char *version;     /* the engine's version */
	struct rule_lookup rules;
};

/* Set up an empty report. */
void lint_report_init(struct lint_report *r);

/* Free every file and the file array. */
void lint_report_release(struct lint_report *r);

/* Add an empty file entry (display copied); returns it, or NULL on failure. */
struct lint_file *lint_report_add_file(struct lint_report *r,
				       const char *display);

/* Compute each file's verdict, the summary and the exit code from the
 * findings (spec/core.md 8.2). 'skipped' is the number of files that had no
 * routed document (they are not in r->files). */
void lint_report_finish(struct lint_report *r, size_t skipped);

/* Render 'r' in 'format', appending to 'out'. Returns 0, or -1 when 'out'
 * failed (memory). */
int report_write(const struct lint_report *r, enum report_format format,
		 struct sbuf *out);

/* Render one file of 'r' in text form (findings only, no summary): text
 * output may be written file by file. */
void report_text_file(const struct lint_report *r, const struct lint_file *f,
		      struct sbuf *out);

/* The summary line of text output ("3 files: 1 passed, 2 failed ..."). */
void report_text_summary(const struct lint_report *r, struct sbuf *out);

/* The name of a format ("text", "json", ...), and the reverse (-1 when
 * unknown). */
const char *report_format_name(enum report_format f);
int report_format_parse(const char *s);

#endif
