/*
 * waiver.c: waivers (spec/core.md 9.2). A waiver names a rule, the files
 * and optionally the node and document it covers, who answers for it, and
 * the last day it is valid (UTC). Loading validates the file against
 * schemas/infragate-waivers.yaml and then checks rule patterns, globs and
 * blank owners; matching suppresses a finding until the waiver expires and
 * afterwards attaches the expired waiver to the finding, which stays
 * active. The date comes from the caller: nothing here reads the clock.
 */
#include "core/engine/policy.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define WAIVERS_ARENA_CAP ((size_t)64 << 20)

void waivers_init(struct waivers *w)
{
	memset(w, 0, sizeof *w);
	arena_init(&w->arena, WAIVERS_ARENA_CAP);
}

void waivers_release(struct waivers *w)
{
	arena_release(&w->arena);
	memset(w, 0, sizeof *w);
}

/* ---- reading ----------------------------------------------------------- */

struct wrd {
	struct waivers *w;
	const char *file;
	struct policy_errors *errs;
	struct sbuf ptr;
	struct sbuf src;
};

static void wbad(struct wrd *r, const struct node *n, const char *member,
		 const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void wbad(struct wrd *r, const struct node *n, const char *member,
		 const char *fmt, ...)
{
	size_t mark = r->ptr.len;
	char msg[DIAG_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (member)
		doc_pointer_add(&r->ptr, member, strlen(member));
	policy_errors_add(r->errs, "input.type", r->file, n->line, n->col,
			  sbuf_cstr(&r->ptr), "%s", msg);
	sbuf_truncate(&r->ptr, mark);
}

static const char *wstr(struct wrd *r, const struct node *n)
{
	const char *s = arena_strndup(&r->w->arena, n->v.str.s, n->v.str.len);

	if (!s)
		r->errs->failed = 1;
	return s;
}

/* Whether s holds something other than white space. */
static int blank(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	return *s == '\0';
}

static int32_t ymd_of(const struct node *n)
{
	return (int32_t)(n->v.t.year * 10000 + n->v.t.month * 100 + n->v.t.day);
}

static void read_files(struct wrd *r, struct waiver *wv, const struct node *v)
{
	const struct node *one = v;
	size_t i, n = v->type == NODE_LIST ? v->v.list.n : 1;
	const char *why;

	wv->files = arena_calloc(&r->w->arena, n + 1, sizeof(char *));
	if (!wv->files) {
		r->errs->failed = 1;
		return;
	}
	for (i = 0; i < n; i++) {
		if (v->type == NODE_LIST)
			one = v->v.list.items[i];
		if (one->type != NODE_STR) {
			wbad(r, one, "files",
			     "expected a glob or a list of "
			     "globs");
			continue;
		}
		why = glob_problem(one->v.str.s);
		if (why) {
			wbad(r, one, "files", "glob %s", why);
			continue;
		}
		wv->files[wv->nfiles++] = wstr(r, one);
	}
}

/* The members of one waiver entry: what each must be. */
enum wfield {
	W_RULE,
	W_FILES,
	W_PATH,
	W_DOCUMENT,
	W_OWNER,
	W_REASON,
	W_EXPIRES,
	W_TICKET,
	W_CREATED
};

static const struct {
	const char *name;
	enum wfield f;
	int type; /* enum node_type; -1: checked by the reader */
	int required;
} wfields[] = {
    {"rule", W_RULE, NODE_STR, 1},	  {"files", W_FILES, -1, 1},
    {"path", W_PATH, NODE_STR, 0},	  {"document", W_DOCUMENT, NODE_INT, 0},
    {"owner", W_OWNER, NODE_STR, 1},	  {"reason", W_REASON, NODE_STR, 1},
    {"expires", W_EXPIRES, NODE_DATE, 1}, {"ticket", W_TICKET, NODE_STR, 0},
    {"created", W_CREATED, NODE_DATE, 0},
};

#define NWFIELDS (sizeof wfields / sizeof wfields[0])

static void read_member(struct wrd *r, struct waiver *wv, size_t j,
			const struct node *v)
{
	const char *name = wfields[j].name;

	if (wfields[j].type >= 0 && v->type != wfields[j].type) {
		wbad(r, v, name, "expected %s",
		     doc_schema_type_name((enum node_type)wfields[j].type));
		return;
	}
	switch (wfields[j].f) {
	case W_RULE:
		if (!policy_id_valid(v->v.str.s, v->v.str.len, 1))
			wbad(r, v, name,
			     "'%s' is not a rule id or a prefix "
			     "ending in '.*'",
			     v->v.str.s);
		else if (policy_id_core(v->v.str.s))
			wbad(r, v, name,
			     "'%s' cannot be waived: input.*, "
			     "engine.* and cli.* findings mean the file could "
			     "not be checked",
			     v->v.str.s);
		else
			wv->rule = wstr(r, v);
		break;
	case W_FILES:
		read_files(r, wv, v);
		break;
	case W_PATH:
		if (v->v.str.len && v->v.str.s[0] != '/')
			wbad(r, v, name,
			     "'%s' is not a JSON Pointer "
			     "pattern (it must start with '/')",
			     v->v.str.s);
		else
			wv->path = wstr(r, v);
		break;
	case W_DOCUMENT:
		if (v->v.i < 0 || v->v.i > 0x7fffffff)
			wbad(r, v, name, "document must be >= 0");
		else
			wv->document = (int)v->v.i;
		break;
	case W_OWNER:
	case W_REASON:
		if (blank(v->v.str.s))
			wbad(r, v, name, "'%s' must not be blank", name);
		else if (wfields[j].f == W_OWNER)
			wv->owner = wstr(r, v);
		else
			wv->reason = wstr(r, v);
		break;
	case W_EXPIRES:
		wv->expires = ymd_of(v);
		break;
	case W_TICKET:
		wv->ticket = wstr(r, v);
		break;
	case W_CREATED:
		wv->created = ymd_of(v);
		break;
	}
}

static void read_entry(struct wrd *r, struct waiver *wv, const struct node *e)
{
	unsigned char seen[NWFIELDS] = {0};
	size_t i, j;

	wv->document = -1;
	wv->pos.line = e->line;
	wv->pos.col = e->col;
	if (e->type != NODE_MAP) {
		wbad(r, e, NULL, "expected a waiver (a mapping)");
		return;
	}
	for (i = 0; i < e->v.map.n; i++) {
		const struct node *k = e->v.map.pairs[i].key;

		for (j = 0; j < NWFIELDS; j++)
			if (k->type == NODE_STR &&
			    strcmp(k->v.str.s, wfields[j].name) == 0)
				break;
		if (j == NWFIELDS) {
			wbad(r, k, k->type == NODE_STR ? k->v.str.s : NULL,
			     "unknown key");
			continue;
		}
		seen[j] = 1;
		read_member(r, wv, j, e->v.map.pairs[i].value);
	}
	for (j = 0; j < NWFIELDS; j++)
		if (wfields[j].required && !seen[j])
			wbad(r, e, wfields[j].name,
			     "required key '%s' is "
			     "missing",
			     wfields[j].name);
	sbuf_reset(&r->src);
	sbuf_addf(&r->src, "%s:%u", r->file, (unsigned)e->line);
	wv->source = r->src.failed
			 ? NULL
			 : arena_strdup(&r->w->arena, sbuf_cstr(&r->src));
	if (!wv->source)
		r->errs->failed = 1;
}

int waivers_from_node(struct waivers *w, const struct node *list,
		      const char *display, const char *ptr,
		      struct policy_errors *errs)
{
	struct wrd r = {w, display, errs, SBUF_INIT, SBUF_INIT};
	size_t i, before = errs->n;

	w->file = arena_strdup(&w->arena, display);
	w->loaded = 1;
	if (list->type != NODE_LIST) {
		policy_errors_add(errs, "input.type", display, list->line,
				  list->col, ptr, "expected a list of waivers");
		return -1;
	}
	w->items =
	    arena_calloc(&w->arena, list->v.list.n + 1, sizeof *w->items);
	if (!w->items || !w->file) {
		errs->failed = 1;
		return -1;
	}
	for (i = 0; i < list->v.list.n; i++) {
		sbuf_reset(&r.ptr);
		sbuf_addf(&r.ptr, "%s/%zu", ptr, i);
		read_entry(&r, &w->items[i], list->v.list.items[i]);
	}
	w->n = list->v.list.n;
	if (r.ptr.failed || w->arena.failed)
		errs->failed = 1;
	sbuf_release(&r.ptr);
	sbuf_release(&r.src);
	return errs->n > before || errs->failed ? -1 : 0;
}

int waivers_load(struct waivers *w, const char *path, const char *display,
		 const struct policy_load *ld, struct policy_errors *errs)
{
	struct yaml_file yf;
	const struct node *root, *list;
	int rc = -1;

	yaml_file_init(&yf);
	w->file = arena_strdup(&w->arena, display);
	if (policy_read_yaml(path, display, ld->file_bytes, &yf, errs) != 0)
		goto done;
	root = yf.docs[0]->root;
	if (policy_validate(ld, "infragate-waivers.yaml", root, display,
			    errs) != 0)
		goto done;
	list = doc_get(root, "waivers");
	if (!list) {
		policy_errors_add(errs, "input.type", display, root->line,
				  root->col, "/waivers",
				  "required key 'waivers' is missing");
		goto done;
	}
	rc = waivers_from_node(w, list, display, "/waivers", errs);
done:
	yaml_file_release(&yf);
	return rc;
}

/* ---- matching ---------------------------------------------------------- */

/* The length of the pointer segment at s (up to '/' or the end). */
static size_t pseg(const char *s)
{
	const char *e = strchr(s, '/');

	return e ? (size_t)(e - s) : strlen(s);
}

int policy_pointer_match(const char *pat, const char *ptr)
{
	const char *star_p = NULL, *star_s = NULL;
	size_t pn, sn;

	if (*pat != '/' || *ptr != '/')
		return *pat == '/' ? strcmp(pat, "/**") == 0 && !*ptr
				   : strcmp(pat, ptr) == 0;
	/* Both start with '/': walk "/seg" units, '**' as a star over them. */
	while (*ptr) {
		pn = *pat ? pseg(pat + 1) : 0;
		sn = pseg(ptr + 1);
		if (*pat && pn == 2 && pat[1] == '*' && pat[2] == '*') {
			pat += 1 + pn;
			star_p = pat;
			star_s = ptr;
			continue;
		}
		if (*pat && ((pn == 1 && pat[1] == '*') ||
			     (pn == sn && memcmp(pat + 1, ptr + 1, pn) == 0))) {
			pat += 1 + pn;
			ptr += 1 + sn;
			continue;
		}
		if (!star_p)
			return 0;
		star_s += 1 + pseg(star_s + 1);
		ptr = star_s;
		pat = star_p;
	}
	while (strncmp(pat, "/**", 3) == 0 && (pat[3] == '/' || !pat[3]))
		pat += 3;
	return *pat == '\0';
}

static int waiver_matches(const struct waiver *wv, const struct finding *f,
			  const char *relpath)
{
	if (!wv->rule || !policy_id_match(wv->rule, f->rule))
		return 0;
	if (!glob_match_any(wv->files, wv->nfiles, relpath))
		return 0;
	if (wv->document >= 0 && wv->document != f->document)
		return 0;
	if (wv->path && (!f->path || !policy_pointer_match(wv->path, f->path)))
		return 0;
	return 1;
}

/* The JSON object of an expired waiver, in the list's arena. */
static const char *expired_json(struct findings *fs, const struct waiver *wv)
{
	struct sbuf sb = SBUF_INIT;
	char date[POLICY_DATE_LEN];
	const char *r;

	policy_date_text(wv->expires, date);
	sbuf_adds(&sb, "{\"owner\": ");
	json_write_str(&sb, wv->owner, strlen(wv->owner));
	sbuf_adds(&sb, ", \"reason\": ");
	json_write_str(&sb, wv->reason, strlen(wv->reason));
	sbuf_addf(&sb, ", \"expires\": \"%s\", \"source\": ", date);
	json_write_str(&sb, wv->source, strlen(wv->source));
	sbuf_addc(&sb, '}');
	r = sb.failed ? NULL : findings_strdup(fs, sbuf_cstr(&sb));
	sbuf_release(&sb);
	return r;
}

size_t waivers_apply(struct waivers *w, struct findings *fs,
		     const char *relpath, int32_t today)
{
	char date[POLICY_DATE_LEN];
	size_t i, j, n = 0;

	for (i = 0; i < fs->n; i++) {
		struct finding *f = &fs->items[i];
		const struct waiver *expired = NULL;

		if (f->supp_by || policy_id_core(f->rule))
			continue;
		for (j = 0; j < w->n; j++) {
			struct waiver *wv = &w->items[j];

			if (!waiver_matches(wv, f, relpath))
				continue;
			wv->matched++;
			if (today > wv->expires) {
				if (!expired)
					expired = wv;
				continue;
			}
			policy_date_text(wv->expires, date);
			f->supp_by = "waiver";
			f->supp_owner = findings_strdup(fs, wv->owner);
			f->supp_reason = findings_strdup(fs, wv->reason);
			f->supp_expires = findings_strdup(fs, date);
			f->supp_source = findings_strdup(fs, wv->source);
			n++;
			break;
		}
		if (!f->supp_by && expired)
			f->waiver = expired_json(fs, expired);
	}
	return n;
}

size_t waivers_stale(const struct waivers *w, struct findings *out)
{
	struct finding f;
	char msg[DIAG_MSG_MAX], ptr[48], date[POLICY_DATE_LEN];
	size_t i, n = 0;

	for (i = 0; i < w->n; i++) {
		const struct waiver *wv = &w->items[i];

		if (wv->matched || !wv->rule)
			continue;
		policy_date_text(wv->expires, date);
		snprintf(msg, sizeof msg,
			 "waiver for '%s' (owner '%s', expires %s) matched no "
			 "finding",
			 wv->rule, wv->owner ? wv->owner : "", date);
		snprintf(ptr, sizeof ptr, "/waivers/%zu", i);
		memset(&f, 0, sizeof f);
		f.rule = "engine.waiver";
		f.severity = SEV_WARNING;
		f.message = msg;
		f.line = wv->pos.line;
		f.col = wv->pos.col;
		f.path = ptr;
		f.document = 0;
		if (findings_add(out, &f))
			n++;
	}
	return n;
}
