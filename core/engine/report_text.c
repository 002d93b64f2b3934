/*
 * report_text.c: the text reporter (spec/core.md 8.3), one line per active
 * finding in the house diagnostic shape and a summary line; also the
 * summary line the github reporter ends with. Control characters in
 * anything shown become spaces, so one finding is always one line. Colour
 * is ANSI escapes, only when the report asks for it.
 */
#include "core/engine/report_int.h"

#include <stddef.h>
#include <string.h>

#define ANSI_BOLD "\033[1m"
#define ANSI_RESET "\033[0m"

static const char *const sev_color[] = {
	[SEV_ERROR] = "\033[31m",   /* red */
	[SEV_WARNING] = "\033[33m", /* yellow */
	[SEV_INFO] = "\033[36m",    /* cyan */
	[SEV_NONE] = NULL,
};

/* " (suppressed by inline: REASON)" or " (waiver by OWNER expired DATE)". */
static void text_suffix(const struct finding *f, struct sbuf *out)
{
	struct sbuf owner = SBUF_INIT, expires = SBUF_INIT;

	if (f->supp_by) {
		sbuf_adds(out, " (suppressed by ");
		report_text_clean(out, f->supp_by);
		if (f->supp_reason && f->supp_reason[0]) {
			sbuf_adds(out, ": ");
			report_text_clean(out, f->supp_reason);
		}
		sbuf_addc(out, ')');
	} else if (f->waiver) {
		if (report_waiver_fields(f->waiver, &owner, &expires) == 0) {
			sbuf_adds(out, " (waiver by ");
			report_text_clean(out, sbuf_cstr(&owner));
			sbuf_adds(out, " expired ");
			report_text_clean(out, sbuf_cstr(&expires));
			sbuf_addc(out, ')');
		} else {
			sbuf_adds(out, " (waiver expired)");
		}
		if (owner.failed || expires.failed)
			out->failed = 1;
	}
	sbuf_release(&owner);
	sbuf_release(&expires);
}

static void text_finding(const struct lint_report *r,
			 const struct lint_file *lf, const struct finding *f,
			 struct sbuf *out)
{
	const char *color = (unsigned)f->severity <= SEV_NONE
				    ? sev_color[f->severity]
				    : NULL;

	report_text_clean(out, lf->display);
	/* No position: no ":0:0" (STYLE.md 8.13). */
	if (f->line) {
		sbuf_addf(out, ":%u", (unsigned)f->line);
		if (f->col)
			sbuf_addf(out, ":%u", (unsigned)f->col);
	}
	sbuf_adds(out, ": ");
	if (r->color && color)
		sbuf_adds(out, color);
	sbuf_adds(out, severity_name(f->severity));
	if (r->color && color)
		sbuf_adds(out, ANSI_RESET);
	sbuf_addc(out, '[');
	if (r->color)
		sbuf_adds(out, ANSI_BOLD);
	report_text_clean(out, f->rule ? f->rule : "");
	if (r->color)
		sbuf_adds(out, ANSI_RESET);
	sbuf_adds(out, "]: ");
	report_text_clean(out, f->message ? f->message : "");
	text_suffix(f, out);
	sbuf_addc(out, '\n');
}

void report_text_file(const struct lint_report *r, const struct lint_file *f,
		      struct sbuf *out)
{
	size_t i;

	for (i = 0; i < f->fs.n; i++) {
		const struct finding *x = &f->fs.items[i];

		if (!x->supp_by || r->show_suppressed)
			text_finding(r, f, x, out);
	}
}

/*
 * The summary line, in this form (the parts in brackets only when their
 * count is non-zero, the words singular for a count of 1):
 *
 *   N files: P passed, F failed[ (U unusable[, S skipped])]; E errors,
 *   W warnings[, I infos][, S suppressed]
 *
 * on one line, e.g. "1 file: 1 passed, 0 failed; 0 errors, 0 warnings" and
 * "3 files: 1 passed, 2 failed (1 unusable, 2 skipped); 2 errors,
 * 1 warning, 1 info, 4 suppressed". "files" counts reported files; skipped
 * ones (no routed document) are counted apart.
 */
struct sum_part {
	size_t off; /* of the count in struct lint_summary */
	const char *one, *many;
	int always;
};

static const struct sum_part sum_files[] = {
	{ offsetof(struct lint_summary, unusable), "unusable", "unusable", 0 },
	{ offsetof(struct lint_summary, skipped), "skipped", "skipped", 0 },
};

static const struct sum_part sum_findings[] = {
	{ offsetof(struct lint_summary, errors), "error", "errors", 1 },
	{ offsetof(struct lint_summary, warnings), "warning", "warnings", 1 },
	{ offsetof(struct lint_summary, infos), "info", "infos", 0 },
	{ offsetof(struct lint_summary, suppressed), "suppressed", "suppressed",
	  0 },
};

/* Append the parts of 'p' that show, separated by ", "; returns how many. */
static size_t sum_list(const struct lint_summary *s, const struct sum_part *p,
		       size_t n, const char *open, struct sbuf *out)
{
	size_t i, shown = 0;

	for (i = 0; i < n; i++) {
		size_t v;

		memcpy(&v, (const char *)s + p[i].off, sizeof v);
		if (!v && !p[i].always)
			continue;
		sbuf_adds(out, shown ? ", " : open);
		sbuf_addf(out, "%zu %s", v, v == 1 ? p[i].one : p[i].many);
		shown++;
	}
	return shown;
}

void report_text_summary(const struct lint_report *r, struct sbuf *out)
{
	const struct lint_summary *s = &r->sum;

	sbuf_addf(out, "%zu %s: %zu passed, %zu failed", s->files,
		  s->files == 1 ? "file" : "files", s->passed, s->failed);
	if (sum_list(s, sum_files, sizeof sum_files / sizeof sum_files[0],
		     " (", out))
		sbuf_addc(out, ')');
	sum_list(s, sum_findings, sizeof sum_findings / sizeof sum_findings[0],
		 "; ", out);
	sbuf_addc(out, '\n');
}

void report_write_text(const struct lint_report *r, struct sbuf *out)
{
	size_t i;

	for (i = 0; i < r->nfiles; i++)
		report_text_file(r, &r->files[i], out);
	if (!r->quiet)
		report_text_summary(r, out);
}
