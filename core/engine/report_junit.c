/*
 * report_junit.c: JUnit XML (spec/core.md 8.7). A file is a testsuite, a
 * rule that ran on it is a testcase (evaluation order, then the ids of
 * findings from rules that did not "run", such as engine.truncated); a
 * rule fails with its findings at or above fail_on and shows the others in
 * system-out; an unusable file has one "input" testcase in error. Nothing
 * suppressed appears. The text is always well-formed XML 1.0: characters
 * XML forbids and bytes that are not UTF-8 become U+FFFD.
 */
#include "core/engine/report_int.h"

#include <string.h>

#include "core/util/utf8.h"

#define XML_REPLACEMENT "\xEF\xBF\xBD"

/* Escapes, by character; the whitespace ones only inside attributes, where
 * a parser would otherwise fold them into spaces. */
static const struct {
	const char *esc;
	uint32_t c;
	int attr_only;
} xml_escapes[] = {
	{ "&amp;", '&', 0 },  { "&lt;", '<', 0 },   { "&gt;", '>', 0 },
	{ "&quot;", '"', 0 }, { "&apos;", '\'', 0 }, { "&#13;", '\r', 0 },
	{ "&#9;", '\t', 1 },  { "&#10;", '\n', 1 },
};

/* XML 1.0 Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] |
 * [#x10000-#x10FFFF] (utf8_decode already refuses surrogates). */
static int xml_char(uint32_t c)
{
	return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xFFFD &&
						    c != 0xFFFE) ||
	       c >= 0x10000;
}

static void xml_esc(struct sbuf *out, const char *s, int attr)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s), i = 0, k;

	while (i < len) {
		uint32_t c;
		size_t n = utf8_decode(p + i, len - i, &c);

		if (!n || !xml_char(c)) {
			sbuf_adds(out, XML_REPLACEMENT);
			i += n ? n : 1;
			continue;
		}
		for (k = 0; k < sizeof xml_escapes / sizeof xml_escapes[0]; k++)
			if (xml_escapes[k].c == c &&
			    (attr || !xml_escapes[k].attr_only))
				break;
		if (k < sizeof xml_escapes / sizeof xml_escapes[0])
			sbuf_adds(out, xml_escapes[k].esc);
		else
			sbuf_add(out, p + i, n);
		i += n;
	}
}

/* A finding a rule's testcase shows: active, and not an input problem. */
static int shown_in_case(const struct finding *f)
{
	return !f->supp_by && !report_is_unusable(f);
}

/* "LINE:COL POINTER MESSAGE", each part only when known; with the id first
 * in the input testcase, where findings of several ids meet. */
static void junit_line(const struct finding *f, int with_id, struct sbuf *out)
{
	if (with_id) {
		xml_esc(out, report_rule(f), 0);
		sbuf_adds(out, ": ");
	}
	if (f->line) {
		sbuf_addf(out, "%u", (unsigned)f->line);
		if (f->col)
			sbuf_addf(out, ":%u", (unsigned)f->col);
		sbuf_addc(out, ' ');
	}
	if (f->path && f->path[0]) {
		xml_esc(out, f->path, 0);
		sbuf_addc(out, ' ');
	}
	xml_esc(out, f->message ? f->message : "", 0);
}

static void case_open(const struct lint_file *lf, const char *name,
		      struct sbuf *out)
{
	sbuf_adds(out, "    <testcase classname=\"");
	xml_esc(out, lf->display, 1);
	sbuf_adds(out, "\" name=\"");
	xml_esc(out, name, 1);
	sbuf_addc(out, '"');
}

/* One element ("failure", "system-out") holding the lines of the findings
 * of 'id' for which 'fails' is 'want'. */
static void case_element(const struct lint_report *r,
			 const struct lint_file *lf, const char *id,
			 int want, struct sbuf *out)
{
	const char *tag = want ? "failure" : "system-out";
	size_t i, shown = 0;

	for (i = 0; i < lf->fs.n; i++) {
		const struct finding *f = &lf->fs.items[i];

		if (!shown_in_case(f) || strcmp(report_rule(f), id) != 0 ||
		    !report_fails(r, f) != !want)
			continue;
		if (shown++) {
			sbuf_addc(out, '\n');
		} else {
			sbuf_addf(out, "      <%s", tag);
			if (want) {
				sbuf_adds(out, " type=\"");
				xml_esc(out, id, 1);
				sbuf_adds(out, "\" message=\"");
				xml_esc(out, f->message ? f->message : "", 1);
				sbuf_addc(out, '"');
			}
			sbuf_addc(out, '>');
		}
		junit_line(f, 0, out);
	}
	if (shown)
		sbuf_addf(out, "</%s>\n", tag);
}

/* The testcase of rule 'id'; returns 1 when it fails. */
static int junit_case(const struct lint_report *r, const struct lint_file *lf,
		      const char *id, struct sbuf *out)
{
	int fails = 0, other = 0;
	size_t i;

	for (i = 0; i < lf->fs.n; i++) {
		const struct finding *f = &lf->fs.items[i];

		if (!shown_in_case(f) || strcmp(report_rule(f), id) != 0)
			continue;
		if (report_fails(r, f))
			fails = 1;
		else
			other = 1;
	}
	case_open(lf, id, out);
	if (!fails && !other) {
		sbuf_adds(out, "/>\n");
		return 0;
	}
	sbuf_adds(out, ">\n");
	case_element(r, lf, id, 1, out);
	case_element(r, lf, id, 0, out);
	sbuf_adds(out, "    </testcase>\n");
	return fails;
}

/* The "input" testcase of an unusable file, in error. */
static void junit_input(const struct lint_file *lf, struct sbuf *out)
{
	size_t i, shown = 0;

	case_open(lf, "input", out);
	sbuf_adds(out, ">\n");
	for (i = 0; i < lf->fs.n; i++) {
		const struct finding *f = &lf->fs.items[i];

		if (f->supp_by || !report_is_unusable(f))
			continue;
		if (shown++) {
			sbuf_addc(out, '\n');
		} else {
			sbuf_adds(out, "      <error type=\"");
			xml_esc(out, report_rule(f), 1);
			sbuf_adds(out, "\" message=\"");
			xml_esc(out, f->message ? f->message : "", 1);
			sbuf_adds(out, "\">");
		}
		junit_line(f, 1, out);
	}
	if (shown)
		sbuf_adds(out, "</error>\n");
	else
		sbuf_adds(out, "      <error type=\"input\" "
			       "message=\"the file is unusable\"/>\n");
	sbuf_adds(out, "    </testcase>\n");
}

static int ran(const struct lint_file *lf, const char *id)
{
	size_t i;

	for (i = 0; i < lf->nrules_ran; i++)
		if (strcmp(lf->rules_ran[i], id) == 0)
			return 1;
	return 0;
}

/* Whether finding 'j' is the first shown one of its id that did not run. */
static int first_extra(const struct lint_file *lf, size_t j)
{
	const char *id = report_rule(&lf->fs.items[j]);
	size_t i;

	if (!shown_in_case(&lf->fs.items[j]) || ran(lf, id))
		return 0;
	for (i = 0; i < j; i++)
		if (shown_in_case(&lf->fs.items[i]) &&
		    strcmp(report_rule(&lf->fs.items[i]), id) == 0)
			return 0;
	return 1;
}

struct junit_counts {
	size_t tests, failures, errors;
};

static void junit_suite(const struct lint_report *r,
			const struct lint_file *lf, struct sbuf *out,
			struct junit_counts *total)
{
	struct junit_counts c = { 0, 0, 0 };
	struct sbuf cases = SBUF_INIT;
	size_t i;

	if (lf->verdict == VERDICT_ERROR) {
		junit_input(lf, &cases);
		c.tests++;
		c.errors++;
	}
	for (i = 0; i < lf->nrules_ran; i++) {
		c.failures +=
			(size_t)junit_case(r, lf, lf->rules_ran[i], &cases);
		c.tests++;
	}
	for (i = 0; i < lf->fs.n; i++) {
		if (!first_extra(lf, i))
			continue;
		c.failures += (size_t)junit_case(
			r, lf, report_rule(&lf->fs.items[i]), &cases);
		c.tests++;
	}
	sbuf_adds(out, "  <testsuite name=\"");
	xml_esc(out, lf->display, 1);
	sbuf_addf(out,
		  "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" "
		  "skipped=\"0\">\n",
		  c.tests, c.failures, c.errors);
	if (cases.failed)
		out->failed = 1;
	sbuf_add(out, sbuf_cstr(&cases), cases.len);
	sbuf_adds(out, "  </testsuite>\n");
	sbuf_release(&cases);
	total->tests += c.tests;
	total->failures += c.failures;
	total->errors += c.errors;
}

void report_write_junit(const struct lint_report *r, struct sbuf *out)
{
	struct junit_counts total = { 0, 0, 0 };
	struct sbuf suites = SBUF_INIT;
	size_t i;

	for (i = 0; i < r->nfiles; i++)
		junit_suite(r, &r->files[i], &suites, &total);
	sbuf_adds(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	sbuf_addf(out,
		  "<testsuites name=\"infragate\" tests=\"%zu\" "
		  "failures=\"%zu\" errors=\"%zu\">\n",
		  total.tests, total.failures, total.errors);
	if (suites.failed)
		out->failed = 1;
	sbuf_add(out, sbuf_cstr(&suites), suites.len);
	sbuf_adds(out, "</testsuites>\n");
	sbuf_release(&suites);
}
