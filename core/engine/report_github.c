/*
 * report_github.c: GitHub workflow commands (spec/core.md 8.6), one
 * "::error file=...::message" line per active finding, then the text
 * summary line. The escaping is GitHub's own: '%', CR and LF everywhere,
 * ':' and ',' too in property values; other control characters become
 * spaces, so a finding can never end its command early.
 */
#include "core/engine/report_int.h"

#include <string.h>

static const char *const gh_command[] = {
	[SEV_ERROR] = "error",
	[SEV_WARNING] = "warning",
	[SEV_INFO] = "notice",
	[SEV_NONE] = "notice",
};

/* Characters with an escape, by context: message data, property value. */
struct gh_escape {
	const char *esc;
	int property_only;
	char c;
};

static const struct gh_escape gh_escapes[] = {
	{ "%25", 0, '%' },
	{ "%0D", 0, '\r' },
	{ "%0A", 0, '\n' },
	{ "%3A", 1, ':' },
	{ "%2C", 1, ',' },
};

static void gh_escape(struct sbuf *out, const char *s, int property)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i, k;

	for (i = 0; p[i]; i++) {
		for (k = 0; k < sizeof gh_escapes / sizeof gh_escapes[0]; k++)
			if ((unsigned char)gh_escapes[k].c == p[i] &&
			    (property || !gh_escapes[k].property_only))
				break;
		if (k < sizeof gh_escapes / sizeof gh_escapes[0]) {
			sbuf_adds(out, gh_escapes[k].esc);
		} else if (p[i] < 0x20 || p[i] == 0x7f) {
			sbuf_addc(out, ' ');
		} else if (p[i] == 0xC2 && p[i + 1] >= 0x80 &&
			   p[i + 1] <= 0x9F) {
			sbuf_addc(out, ' '); /* a C1 control */
			i++;
		} else {
			sbuf_addc(out, (char)p[i]);
		}
	}
}

/* ",NAME=VALUE" for a position property that is known. */
static void gh_num(struct sbuf *out, const char *name, uint32_t v)
{
	if (v)
		sbuf_addf(out, ",%s=%u", name, (unsigned)v);
}

static void gh_finding(const struct lint_file *lf, const struct finding *f,
		       struct sbuf *out)
{
	unsigned sev = (unsigned)f->severity <= SEV_NONE ? f->severity
							 : SEV_NONE;

	sbuf_addf(out, "::%s file=", gh_command[sev]);
	gh_escape(out, lf->display, 1);
	if (f->line) {
		gh_num(out, "line", f->line);
		gh_num(out, "col", f->col);
		if (f->end_line) {
			gh_num(out, "endLine", f->end_line);
			gh_num(out, "endColumn", f->end_col);
		}
	}
	sbuf_adds(out, ",title=");
	gh_escape(out, f->rule ? f->rule : "", 1);
	sbuf_adds(out, "::");
	gh_escape(out, f->message ? f->message : "", 0);
	sbuf_addc(out, '\n');
}

void report_write_github(const struct lint_report *r, struct sbuf *out)
{
	size_t i, j;

	for (i = 0; i < r->nfiles; i++) {
		const struct lint_file *lf = &r->files[i];

		for (j = 0; j < lf->fs.n; j++)
			if (!lf->fs.items[j].supp_by)
				gh_finding(lf, &lf->fs.items[j], out);
	}
	if (!r->quiet)
		report_text_summary(r, out);
}
