/*
 * report_sarif.c: SARIF 2.1.0 (spec/core.md 8.5): one log, one run, the
 * rules that results name (sorted by id) with their metadata, one result
 * per finding in report order (suppressed ones with their suppression), a
 * region on every result because GitHub code scanning rejects results
 * without one, and no timestamps, so shards merge by concatenating runs.
 */
#include "core/engine/report_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/util/crypto.h"

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"

static const char *const sarif_levels[] = {
	[SEV_ERROR] = "error",
	[SEV_WARNING] = "warning",
	[SEV_INFO] = "note",
	[SEV_NONE] = "none",
};

/* How each suppression mechanism reads in SARIF. */
static const struct {
	const char *by, *kind;
} sarif_kinds[] = {
	{ "inline", "inSource" },
	{ "waiver", "external" },
	{ "baseline", "external" },
};

static const char *sarif_level(enum severity s)
{
	return (unsigned)s <= SEV_NONE ? sarif_levels[s] : "none";
}

static const char *sarif_kind(const char *by)
{
	size_t i;

	for (i = 0; i < sizeof sarif_kinds / sizeof sarif_kinds[0]; i++)
		if (strcmp(sarif_kinds[i].by, by) == 0)
			return sarif_kinds[i].kind;
	return "external";
}

static const struct rule_info *sarif_info(const struct lint_report *r,
					  const char *id)
{
	return r->rules.find ? r->rules.find(r->rules.ud, id) : NULL;
}

/* The severity of the first finding with 'id', for rules nobody knows. */
static enum severity first_severity(const struct lint_report *r,
				    const char *id)
{
	size_t i, j;

	for (i = 0; i < r->nfiles; i++)
		for (j = 0; j < r->files[i].fs.n; j++)
			if (strcmp(report_rule(&r->files[i].fs.items[j]), id) ==
			    0)
				return r->files[i].fs.items[j].severity;
	return SEV_WARNING;
}

static void text_object(struct sbuf *out, const char *key, const char *text)
{
	sbuf_addf(out, ", \"%s\": {\"text\": ", key);
	report_json_str(out, text);
	sbuf_addc(out, '}');
}

/* properties.tags: the rule's tags, "strict", the pack; each once (SARIF
 * wants unique items). */
static void sarif_tags(const struct rule_info *ri, struct sbuf *out)
{
	const char **v = malloc((ri->ntags + 2) * sizeof *v);
	size_t i, j, n = 0;

	if (!v) {
		out->failed = 1;
		return;
	}
	for (i = 0; i < ri->ntags + 2; i++) {
		const char *t = ri->pack;

		if (i < ri->ntags)
			t = ri->tags[i];
		else if (i == ri->ntags)
			t = ri->strict ? "strict" : NULL;

		for (j = 0; t && j < n; j++)
			if (strcmp(v[j], t) == 0)
				break;
		if (t && j == n)
			v[n++] = t;
	}
	if (n) {
		sbuf_adds(out, ", \"properties\": {\"tags\": [");
		for (i = 0; i < n; i++) {
			if (i)
				sbuf_adds(out, ", ");
			report_json_str(out, v[i]);
		}
		sbuf_adds(out, "]}");
	}
	free(v);
}

static void sarif_rule(const struct lint_report *r, const char *id,
		       struct sbuf *out)
{
	const struct rule_info *ri = sarif_info(r, id);

	sbuf_adds(out, "{\"id\": ");
	report_json_str(out, id);
	if (!ri) {
		text_object(out, "shortDescription", id);
		sbuf_addf(out,
			  ", \"defaultConfiguration\": {\"level\": \"%s\"}}",
			  sarif_level(first_severity(r, id)));
		return;
	}
	text_object(out, "shortDescription",
		    ri->summary && ri->summary[0] ? ri->summary : id);
	if (ri->description && ri->description[0])
		text_object(out, "fullDescription", ri->description);
	if (ri->fix && ri->fix[0])
		text_object(out, "help", ri->fix);
	if (ri->help_uri && ri->help_uri[0]) {
		sbuf_adds(out, ", \"helpUri\": ");
		report_json_str(out, ri->help_uri);
	}
	sbuf_addf(out, ", \"defaultConfiguration\": {\"level\": \"%s\"}",
		  sarif_level(ri->severity));
	sarif_tags(ri, out);
	sbuf_addc(out, '}');
}

/* RFC 3986: unreserved characters and '/' stay, every other byte is
 * percent-encoded; an absolute path becomes a file:// URI. */
static int uri_plain(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
	       c == '~' || c == '/';
}

static void sarif_uri(const char *path, struct sbuf *out)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *p = (const unsigned char *)path;
	struct sbuf u = SBUF_INIT;
	size_t i;

	if (p[0] == '/')
		sbuf_adds(&u, "file://");
	for (i = 0; p[i]; i++) {
		if (uri_plain(p[i])) {
			sbuf_addc(&u, (char)p[i]);
			continue;
		}
		sbuf_addc(&u, '%');
		sbuf_addc(&u, hex[p[i] >> 4]);
		sbuf_addc(&u, hex[p[i] & 15]);
	}
	if (u.failed)
		out->failed = 1;
	report_json_str(out, sbuf_cstr(&u));
	sbuf_release(&u);
}

static void sarif_region(const struct finding *f, struct sbuf *out)
{
	uint32_t sl = f->line ? f->line : 1;
	uint32_t sc = f->line && f->col ? f->col : 1;
	uint32_t el = f->end_line, ec = f->end_col;

	/* An unknown or impossible end is the start. */
	if (!f->line || !el || !ec || el < sl || (el == sl && ec < sc)) {
		el = sl;
		ec = sc;
	}
	sbuf_addf(out,
		  "\"region\": {\"startLine\": %u, \"startColumn\": %u, "
		  "\"endLine\": %u, \"endColumn\": %u}",
		  (unsigned)sl, (unsigned)sc, (unsigned)el, (unsigned)ec);
}

/* The baseline fingerprint of spec/core.md 9.3 (rule, file, document,
 * pointer, NUL-separated; no line, no message), hashed. */
static void sarif_fingerprint(const struct lint_file *lf,
			      const struct finding *f, struct sbuf *out)
{
	unsigned char md[CRYPTO_SHA256_LEN];
	char hex[2 * CRYPTO_SHA256_LEN + 1];
	struct sbuf fp = SBUF_INIT;

	sbuf_adds(&fp, report_rule(f));
	sbuf_addc(&fp, '\0');
	sbuf_adds(&fp, lf->display);
	sbuf_addc(&fp, '\0');
	if (f->document >= 0)
		sbuf_addf(&fp, "%d", f->document);
	sbuf_addc(&fp, '\0');
	sbuf_adds(&fp, f->path ? f->path : "");
	if (fp.failed || crypto_sha256(fp.buf, fp.len, md) < 0) {
		out->failed = 1;
		sbuf_release(&fp);
		return;
	}
	sbuf_release(&fp);
	crypto_hex(md, sizeof md, hex);
	sbuf_addf(out, ", \"partialFingerprints\": {\"infragate/v1\": \"%s\"}",
		  hex);
}

static void sarif_result(const struct lint_file *lf, const struct finding *f,
			 size_t index, struct sbuf *out)
{
	sbuf_adds(out, "{\"ruleId\": ");
	report_json_str(out, report_rule(f));
	sbuf_addf(out, ", \"ruleIndex\": %zu, \"level\": \"%s\"", index,
		  sarif_level(f->severity));
	sbuf_adds(out, ", \"message\": {\"text\": ");
	report_json_str(out, f->message ? f->message : "");
	sbuf_adds(out, "},\n    \"locations\": [{\"physicalLocation\": "
		       "{\"artifactLocation\": {\"uri\": ");
	sarif_uri(lf->display, out);
	sbuf_adds(out, "}, ");
	sarif_region(f, out);
	sbuf_addc(out, '}');
	if (f->path) {
		sbuf_adds(out, ", \"logicalLocations\": "
			       "[{\"fullyQualifiedName\": ");
		report_json_str(out, f->path);
		sbuf_adds(out, "}]");
	}
	sbuf_adds(out, "}]");
	sarif_fingerprint(lf, f, out);
	sbuf_adds(out, ",\n    \"properties\": {");
	if (f->figures) {
		sbuf_adds(out, "\"figures\": ");
		sbuf_adds(out, f->figures);
		sbuf_adds(out, ", ");
	}
	if (f->document >= 0)
		sbuf_addf(out, "\"document\": %d", f->document);
	else
		sbuf_adds(out, "\"document\": null");
	if (f->waiver) {
		sbuf_adds(out, ", \"waiver\": ");
		sbuf_adds(out, f->waiver);
	}
	sbuf_addc(out, '}');
	if (f->supp_by) {
		sbuf_addf(out,
			  ", \"suppressions\": [{\"kind\": \"%s\", "
			  "\"status\": \"accepted\"",
			  sarif_kind(f->supp_by));
		if (f->supp_reason) {
			sbuf_adds(out, ", \"justification\": ");
			report_json_str(out, f->supp_reason);
		}
		sbuf_adds(out, "}]");
	}
	sbuf_addc(out, '}');
}

static int cmp_id(const void *key, const void *elem)
{
	return strcmp(key, *(const char *const *)elem);
}

void report_write_sarif(const struct lint_report *r, struct sbuf *out)
{
	const char *version = r->version ? r->version : "";
	const char **ids;
	size_t n, i, j, shown = 0;

	if (report_ids(r->files, r->nfiles, 0, &ids, &n) < 0) {
		out->failed = 1;
		return;
	}
	sbuf_adds(out, "{\"$schema\": \"" SARIF_SCHEMA "\", "
		       "\"version\": \"2.1.0\",\n \"runs\": [{\"tool\": "
		       "{\"driver\": {\"name\": \"infragate\", \"version\": ");
	report_json_str(out, version);
	sbuf_adds(out, ", \"semanticVersion\": ");
	report_json_str(out, version);
#ifdef INFRAGATE_URI
	sbuf_adds(out, ", \"informationUri\": ");
	report_json_str(out, INFRAGATE_URI);
#endif
	sbuf_adds(out, ",\n   \"rules\": [");
	for (i = 0; i < n; i++) {
		sbuf_adds(out, i ? ",\n    " : "\n    ");
		sarif_rule(r, ids[i], out);
	}
	sbuf_adds(out, "]}},\n  \"columnKind\": \"unicodeCodePoints\",\n"
		       "  \"results\": [");
	for (i = 0; i < r->nfiles; i++) {
		const struct lint_file *lf = &r->files[i];

		for (j = 0; j < lf->fs.n; j++) {
			const struct finding *f = &lf->fs.items[j];
			const char **at = bsearch(report_rule(f), ids, n,
						  sizeof *ids, cmp_id);

			sbuf_adds(out, shown++ ? ",\n   " : "\n   ");
			sarif_result(lf, f, at ? (size_t)(at - ids) : 0, out);
		}
	}
	sbuf_addf(out,
		  "],\n  \"invocations\": [{\"executionSuccessful\": %s, "
		  "\"exitCode\": %d}]}]}\n",
		  r->exit_code < 2 ? "true" : "false", r->exit_code);
	free(ids);
}
