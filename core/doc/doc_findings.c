/*
 * doc_findings.c: the finding list. Every string a finding carries is copied
 * into the list's own arena, so a finding outlives the document, the Lua
 * state and the buffers it was built from. The 'findings' limit is enforced
 * here, once, for every producer.
 */
#include "core/doc/doc.h"

#include <stdio.h>
#include <string.h>

#define FINDINGS_ARENA_CAP ((size_t)256 << 20)

void findings_init(struct findings *fs, size_t max)
{
	arena_init(&fs->arena, FINDINGS_ARENA_CAP);
	fs->items = NULL;
	fs->n = 0;
	fs->alloc = 0;
	fs->max = max;
	fs->truncated = 0;
	fs->failed = 0;
}

void findings_release(struct findings *fs)
{
	arena_release(&fs->arena);
	fs->items = NULL;
	fs->n = 0;
	fs->alloc = 0;
	fs->truncated = 0;
	fs->failed = 0;
}

const char *findings_strdup(struct findings *fs, const char *s)
{
	const char *p;

	if (!s)
		return NULL;
	p = arena_strdup(&fs->arena, s);
	if (!p)
		fs->failed = 1;
	return p;
}

static struct finding *findings_slot(struct findings *fs)
{
	if (fs->n == fs->alloc) {
		size_t na = fs->alloc ? fs->alloc * 2 : 16;
		struct finding *p = arena_grow(&fs->arena, fs->items, fs->n, na,
					       sizeof *p);

		if (!p) {
			fs->failed = 1;
			return NULL;
		}
		fs->items = p;
		fs->alloc = na;
	}
	return &fs->items[fs->n++];
}

static struct finding *findings_store(struct findings *fs,
				      const struct finding *f)
{
	struct finding *d = findings_slot(fs);

	if (!d)
		return NULL;
	*d = *f;
	d->seq = fs->n - 1;
	d->rule = findings_strdup(fs, f->rule);
	d->message = findings_strdup(fs, f->message ? f->message : "");
	d->path = findings_strdup(fs, f->path);
	d->figures = findings_strdup(fs, f->figures);
	d->supp_by = findings_strdup(fs, f->supp_by);
	d->supp_reason = findings_strdup(fs, f->supp_reason);
	d->supp_owner = findings_strdup(fs, f->supp_owner);
	d->supp_expires = findings_strdup(fs, f->supp_expires);
	d->supp_source = findings_strdup(fs, f->supp_source);
	d->waiver = findings_strdup(fs, f->waiver);
	d->file = findings_strdup(fs, f->file);
	return d;
}

struct finding *findings_add(struct findings *fs, const struct finding *f)
{
	struct finding t;
	char msg[160], fig[96];

	if (fs->truncated)
		return NULL;
	if (!fs->max || fs->n < fs->max)
		return findings_store(fs, f);
	/* The first finding past the limit becomes the truncation warning. */
	fs->truncated = 1;
	snprintf(msg, sizeof msg,
		 "more than %zu findings in this file; the rest are not listed",
		 fs->max);
	snprintf(fig, sizeof fig,
		 "{\"limit\": \"findings\", \"value\": %zu}", fs->max);
	memset(&t, 0, sizeof t);
	t.rule = "engine.truncated";
	t.severity = SEV_WARNING;
	t.message = msg;
	t.path = "";
	t.document = f->document;
	t.figures = fig;
	return findings_store(fs, &t);
}

struct finding *findings_add_diag(struct findings *fs, const struct diag *d,
				  int document)
{
	struct finding f;
	char fig[160];

	memset(&f, 0, sizeof f);
	f.rule = diag_id(d);
	f.severity = SEV_ERROR;
	f.message = d->msg;
	f.line = d->line;
	f.col = d->col;
	f.end_line = d->end_line;
	f.end_col = d->end_col;
	f.document = document;
	f.path = document >= 0 || d->path[0] ? d->path : NULL;
	f.flags = FINDING_UNUSABLE;
	if (d->limit[0]) {
		int n = snprintf(fig, sizeof fig, "{\"limit\": \"%s\", \"value\": %lld",
				 d->limit, d->limit_value);

		if (d->observed >= 0 && n > 0 && (size_t)n < sizeof fig)
			n += snprintf(fig + n, sizeof fig - (size_t)n,
				      ", \"observed\": %lld", d->observed);
		if (n > 0 && (size_t)n + 2 < sizeof fig) {
			fig[n] = '}';
			fig[n + 1] = '\0';
			f.figures = fig;
		}
	}
	return findings_add(fs, &f);
}

static const char *const severity_names[] = {
	[SEV_ERROR] = "error", [SEV_WARNING] = "warning", [SEV_INFO] = "info",
	[SEV_NONE] = "none",
};

const char *severity_name(enum severity s)
{
	return (unsigned)s <= SEV_NONE ? severity_names[s] : "?";
}

enum severity severity_parse(const char *s)
{
	if (strcmp(s, "error") == 0)
		return SEV_ERROR;
	if (strcmp(s, "warning") == 0)
		return SEV_WARNING;
	if (strcmp(s, "info") == 0)
		return SEV_INFO;
	return SEV_NONE;
}
