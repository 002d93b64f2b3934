/*
 * report_json.c: the generic lint JSON (spec/core.md 8.4, 2.6): one
 * document, the envelope first, keys in the order the spec lists them, one
 * finding per line so diffs stay readable. Figures, expired waivers and
 * pack report members are JSON text already and are spliced in as they are.
 */
#include "core/engine/report_int.h"

#include <stdlib.h>

static const char *const verdict_names[] = {
	[VERDICT_PASS] = "pass",
	[VERDICT_FAIL] = "fail",
	[VERDICT_ERROR] = "error",
};

static void json_finding(const struct finding *f, struct sbuf *out)
{
	sbuf_adds(out, "{\"rule\": ");
	report_json_str(out, f->rule);
	sbuf_adds(out, ", \"severity\": ");
	report_json_str(out, severity_name(f->severity));
	sbuf_adds(out, ", \"message\": ");
	report_json_str(out, f->message ? f->message : "");
	sbuf_adds(out, ", \"line\": ");
	report_json_pos(out, f->line);
	sbuf_adds(out, ", \"column\": ");
	report_json_pos(out, f->col);
	sbuf_adds(out, ", \"path\": ");
	report_json_str(out, f->path);
	if (f->document >= 0)
		sbuf_addf(out, ", \"document\": %d", f->document);
	else
		sbuf_adds(out, ", \"document\": null");
	sbuf_adds(out, ", \"end_line\": ");
	report_json_pos(out, f->end_line);
	sbuf_adds(out, ", \"end_column\": ");
	report_json_pos(out, f->end_col);
	if (f->figures) {
		sbuf_adds(out, ", \"figures\": ");
		sbuf_adds(out, f->figures);
	}
	if (f->waiver) {
		sbuf_adds(out, ", \"waiver\": ");
		sbuf_adds(out, f->waiver);
	}
	if (f->supp_by) {
		sbuf_adds(out, ", \"suppression\": {\"by\": ");
		report_json_str(out, f->supp_by);
		sbuf_adds(out, ", \"reason\": ");
		report_json_str(out, f->supp_reason);
		sbuf_adds(out, ", \"owner\": ");
		report_json_str(out, f->supp_owner);
		sbuf_adds(out, ", \"expires\": ");
		report_json_str(out, f->supp_expires);
		sbuf_adds(out, ", \"source\": ");
		report_json_str(out, f->supp_source);
		sbuf_addc(out, '}');
	}
	sbuf_addc(out, '}');
}

/* "findings" or "suppressed": the file's findings that are (not) active. */
static void json_list(const struct lint_file *lf, int suppressed,
		      struct sbuf *out)
{
	size_t i, shown = 0;

	sbuf_addc(out, '[');
	for (i = 0; i < lf->fs.n; i++) {
		const struct finding *f = &lf->fs.items[i];

		if (!f->supp_by != !suppressed)
			continue;
		sbuf_adds(out, shown ? ",\n    " : "\n    ");
		json_finding(f, out);
		shown++;
	}
	sbuf_addc(out, ']');
}

static void json_file(const struct lint_file *lf, struct sbuf *out)
{
	const char **ids;
	size_t n, i;

	sbuf_adds(out, "{\"file\": ");
	report_json_str(out, lf->display);
	sbuf_adds(out, ", \"verdict\": ");
	report_json_str(out, (unsigned)lf->verdict <= VERDICT_ERROR
				     ? verdict_names[lf->verdict]
				     : "error");
	sbuf_adds(out, ",\n   \"rules\": [");
	if (report_ids(lf, 1, 1, &ids, &n) < 0)
		out->failed = 1;
	for (i = 0; i < n; i++) {
		if (i)
			sbuf_adds(out, ", ");
		report_json_str(out, ids[i]);
	}
	free(ids);
	sbuf_adds(out, "],\n   \"findings\": ");
	json_list(lf, 0, out);
	sbuf_adds(out, ",\n   \"suppressed\": ");
	json_list(lf, 1, out);
	if (lf->report_members && lf->report_members[0]) {
		sbuf_adds(out, ",\n   ");
		sbuf_adds(out, lf->report_members);
	}
	sbuf_addc(out, '}');
}

void report_write_json(const struct lint_report *r, struct sbuf *out)
{
	const struct lint_summary *s = &r->sum;
	size_t i;

	sbuf_adds(out, "{\"tool\": \"infragate\", \"version\": ");
	report_json_str(out, r->version ? r->version : "");
	sbuf_adds(out, ", \"verb\": ");
	report_json_str(out, r->verb);
	sbuf_adds(out, ",\n \"files\": [");
	for (i = 0; i < r->nfiles; i++) {
		sbuf_adds(out, i ? ",\n  " : "\n  ");
		json_file(&r->files[i], out);
	}
	sbuf_adds(out, "],\n");
	sbuf_addf(out,
		  " \"summary\": {\"files\": %zu, \"failed\": %zu, "
		  "\"errors\": %zu, \"warnings\": %zu, \"infos\": %zu, "
		  "\"unusable\": %zu, \"skipped\": %zu, "
		  "\"suppressed\": %zu}}\n",
		  s->files, s->failed, s->errors, s->warnings, s->infos,
		  s->unusable, s->skipped, s->suppressed);
}
