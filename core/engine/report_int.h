/*
 * report_int.h: what the reporter files (report*.c) share: the predicates
 * that decide verdicts, the sorted id list, string writers that keep JSON
 * valid UTF-8, and one entry per format. Private to core/engine/report*.c;
 * everything else goes through report.h.
 */
#ifndef INFRAGATE_ENGINE_REPORT_INT_H
#define INFRAGATE_ENGINE_REPORT_INT_H

#include <stddef.h>
#include <stdint.h>

#include "core/engine/report.h"
#include "core/util/sbuf.h"

/* The id of 'f', "" when it has none, so no reporter meets a NULL. */
static inline const char *report_rule(const struct finding *f)
{
	return f->rule ? f->rule : "";
}

/* Whether 'f' makes its file unusable (spec/core.md 8.2): flagged so by its
 * producer, or an active error whose id is input.* or engine.*. */
int report_is_unusable(const struct finding *f);

/* Whether 'f' is active and at or above r->fail_on (SEV_NONE: never). */
int report_fails(const struct lint_report *r, const struct finding *f);

/* The sorted, de-duplicated ids of the findings of 'files' (active ones
 * only when 'active_only'), as a malloc'd array of pointers into the
 * findings (free only the array; NULL when there are none). Returns 0, or -1
 * when memory ran out. */
int report_ids(const struct lint_file *files, size_t nfiles, int active_only,
	       const char ***ids, size_t *n);

/* Owner and expiry date of an expired waiver's JSON object text, appended
 * to 'owner' and 'expires'. Returns 0, or -1 when the text is not such an
 * object (nothing useful is then appended). */
int report_waiver_fields(const char *json, struct sbuf *owner,
			 struct sbuf *expires);

/* Append 's' as a JSON string, or null when NULL. Bytes that are not
 * well-formed UTF-8 become U+FFFD, so the document stays UTF-8. */
void report_json_str(struct sbuf *sb, const char *s);

/* Append 'v' as a JSON number, or null when 0 (no position). */
void report_json_pos(struct sbuf *sb, uint32_t v);

/* Append 's' with control characters (C0, DEL, C1) turned into spaces, as
 * text and github output show messages (spec/core.md 8.1). */
void report_text_clean(struct sbuf *sb, const char *s);

/* The writers, one per format; each appends to 'out'. */
void report_write_text(const struct lint_report *r, struct sbuf *out);
void report_write_json(const struct lint_report *r, struct sbuf *out);
void report_write_sarif(const struct lint_report *r, struct sbuf *out);
void report_write_github(const struct lint_report *r, struct sbuf *out);
void report_write_junit(const struct lint_report *r, struct sbuf *out);

#endif
