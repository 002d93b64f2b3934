/*
 * baseline.c: baselines (spec/core.md 9.3). A baseline counts findings by
 * fingerprint (rule, file relative to the baseline's folder, document,
 * pointer: no line, no message), so an edit above a finding does not
 * revive it and a new finding of the same fingerprint is never swallowed.
 * Entries are kept sorted (file, document, path, rule) for lookup and for
 * a file that diffs well; writing goes through a temporary file in the
 * same folder and rename(), so a reader never sees half a baseline, and
 * nothing is written when a checked file was unusable.
 */
#include "core/engine/policy.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util/readfile.h"

#define BASELINE_ARENA_CAP  ((size_t)256 << 20)
#define BASELINE_FILE_BYTES 8388608

void baseline_init(struct baseline *b)
{
	memset(b, 0, sizeof *b);
	arena_init(&b->arena, BASELINE_ARENA_CAP);
	b->sorted = 1;
}

void baseline_release(struct baseline *b)
{
	arena_release(&b->arena);
	memset(b, 0, sizeof *b);
}

int baseline_set_path(struct baseline *b, const char *path, const char *display,
		      const char *cwd, struct diag *err)
{
	struct sbuf sb = SBUF_INIT;
	char real[PATH_MAX];
	const char *slash = strrchr(path, '/');
	int rc = 0;

	if (*path == '/')
		sbuf_add(&sb, path, slash == path ? 1 : (size_t)(slash - path));
	else
		sbuf_addf(&sb, "%s/%.*s", cwd, slash ? (int)(slash - path) : 0,
			  path);
	b->file = arena_strdup(&b->arena, display);
	b->cwd = arena_strdup(&b->arena, cwd);
	if (!realpath(sbuf_cstr(&sb), real)) {
		diag_set(err, DIAG_E_UNREADABLE, 0, 0,
			 "cannot use baseline '%s': its folder does not exist",
			 display);
		rc = -1;
	} else {
		b->dir = arena_strdup(&b->arena, real);
		sbuf_reset(&sb);
		sbuf_addf(&sb, "%s/%s", real, slash ? slash + 1 : path);
		b->path = arena_strdup(&b->arena, sbuf_cstr(&sb));
		if (!b->file || !b->cwd || !b->dir || !b->path || sb.failed) {
			diag_set(err, DIAG_E_NOMEM, 0, 0, "out of memory");
			rc = -1;
		}
	}
	sbuf_release(&sb);
	return rc;
}

int baseline_file_of(const struct baseline *b, const char *path,
		     struct sbuf *out)
{
	return policy_relpath(out, b->dir, b->cwd, path, 1) < 0 ? -1 : 0;
}

/* ---- entries ----------------------------------------------------------- */

static int entry_cmp(const void *pa, const void *pb)
{
	const struct baseline_entry *a = pa, *b = pb;
	int c = strcmp(a->file, b->file);

	if (c)
		return c;
	if (a->document != b->document)
		return a->document < b->document ? -1 : 1;
	c = strcmp(a->path, b->path);
	return c ? c : strcmp(a->rule, b->rule);
}

/* Sort entries[from..n) and merge equal fingerprints (counts add up). */
static void entries_sort(struct baseline *b, size_t from)
{
	size_t i, k;

	if (b->n - from > 1)
		qsort(b->items + from, b->n - from, sizeof *b->items,
		      entry_cmp);
	for (i = k = from; i < b->n; i++) {
		if (k > from &&
		    entry_cmp(&b->items[k - 1], &b->items[i]) == 0) {
			b->items[k - 1].count += b->items[i].count;
			continue;
		}
		b->items[k++] = b->items[i];
	}
	b->n = k;
}

static struct baseline_entry *entry_new(struct baseline *b)
{
	if (b->n == b->alloc) {
		size_t na = b->alloc ? b->alloc * 2 : 64;
		void *p =
		    arena_grow(&b->arena, b->items, b->n, na, sizeof *b->items);

		if (!p)
			return NULL;
		b->items = p;
		b->alloc = na;
	}
	memset(&b->items[b->n], 0, sizeof b->items[0]);
	return &b->items[b->n++];
}

/* Whether a finding can be baselined at all. */
static int baselinable(const struct finding *f)
{
	return !policy_id_core(f->rule) && f->document >= 0 && f->path;
}

size_t baseline_apply(struct baseline *b, struct findings *fs,
		      const char *fpfile)
{
	struct baseline_entry key, *e;
	size_t i, n = 0;

	if (!fpfile || !b->n)
		return 0;
	if (!b->sorted) {
		entries_sort(b, 0);
		b->sorted = 1;
	}
	for (i = 0; i < fs->n; i++) {
		struct finding *f = &fs->items[i];

		if (f->supp_by || !baselinable(f))
			continue;
		key.file = fpfile;
		key.document = f->document;
		key.path = f->path;
		key.rule = f->rule;
		e = bsearch(&key, b->items, b->n, sizeof *b->items, entry_cmp);
		if (!e || e->matched >= e->count)
			continue;
		e->matched++;
		f->supp_by = "baseline";
		f->supp_source = findings_strdup(fs, b->file);
		n++;
	}
	return n;
}

int baseline_add(struct baseline *b, const char *fpfile,
		 const struct findings *fs)
{
	struct baseline_entry *e;
	const char *file;
	size_t i, from = b->n;

	for (i = 0; i < fs->n; i++)
		if (fs->items[i].flags & FINDING_UNUSABLE)
			b->unusable = 1;
	if (!fpfile)
		return 0;
	file = arena_strdup(&b->arena, fpfile);
	if (!file)
		return -1;
	for (i = 0; i < fs->n; i++) {
		const struct finding *f = &fs->items[i];

		if (!baselinable(f) ||
		    (f->supp_by && strcmp(f->supp_by, "baseline") != 0))
			continue;
		e = entry_new(b);
		if (!e)
			return -1;
		e->file = file;
		e->document = f->document;
		e->path = arena_strdup(&b->arena, f->path);
		e->rule = arena_strdup(&b->arena, f->rule);
		e->count = 1;
		if (!e->path || !e->rule)
			return -1;
	}
	entries_sort(b, from);
	b->sorted =
	    from == 0 || b->n == from ||
	    (b->sorted && entry_cmp(&b->items[from - 1], &b->items[from]) < 0);
	return 0;
}

size_t baseline_stale(const struct baseline *b, struct findings *out)
{
	struct finding f;
	char msg[DIAG_MSG_MAX], ptr[48];
	size_t i, n = 0;

	for (i = 0; i < b->n; i++) {
		const struct baseline_entry *e = &b->items[i];

		if (e->matched >= e->count)
			continue;
		snprintf(msg, sizeof msg,
			 "baseline entry for '%s' in '%s' (document %d, path "
			 "'%s') matched %zu of %zu findings",
			 e->rule, e->file, e->document, e->path, e->matched,
			 e->count);
		snprintf(ptr, sizeof ptr, "/entries/%zu", e->index);
		memset(&f, 0, sizeof f);
		f.rule = "engine.baseline";
		f.severity = SEV_WARNING;
		f.message = msg;
		f.line = e->pos.line;
		f.col = e->pos.col;
		f.path = ptr;
		f.document = 0;
		if (findings_add(out, &f))
			n++;
	}
	return n;
}

/* ---- the file ---------------------------------------------------------- */

static void write_entry(struct sbuf *sb, const struct baseline_entry *e)
{
	sbuf_adds(sb, "  {\"rule\": ");
	json_write_str(sb, e->rule, strlen(e->rule));
	sbuf_adds(sb, ", \"file\": ");
	json_write_str(sb, e->file, strlen(e->file));
	sbuf_addf(sb, ", \"document\": %d,\n   \"path\": ", e->document);
	json_write_str(sb, e->path, strlen(e->path));
	sbuf_addf(sb, ", \"count\": %zu}", e->count);
}

/* Write all of buf[0..len) to fd. Returns 0 or an errno value. */
static int write_all(int fd, const char *buf, size_t len)
{
	ssize_t k;

	while (len > 0) {
		k = write(fd, buf, len);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return k < 0 ? errno : EIO;
		buf += k;
		len -= (size_t)k;
	}
	return 0;
}

int baseline_write(struct baseline *b, const char *version, struct diag *err)
{
	struct sbuf sb = SBUF_INIT, tmp = SBUF_INIT;
	const char *base;
	size_t i;
	int fd = -1, e = 0, rc = -1;

	if (b->unusable)
		return 1;
	if (!b->sorted) {
		entries_sort(b, 0);
		b->sorted = 1;
	}
	sbuf_adds(&sb, "{\"tool\": \"infragate\", \"version\": ");
	json_write_str(&sb, version, strlen(version));
	sbuf_adds(&sb, ", \"verb\": \"baseline\", \"format\": 1,\n"
		       " \"entries\": [");
	for (i = 0; i < b->n; i++) {
		sbuf_adds(&sb, i ? ",\n" : "\n");
		write_entry(&sb, &b->items[i]);
	}
	sbuf_adds(&sb, "]}\n");
	base = strrchr(b->path, '/');
	sbuf_addf(&tmp, "%s/.%s.XXXXXX", b->dir, base ? base + 1 : b->path);
	if (sb.failed || tmp.failed) {
		e = ENOMEM;
		goto done;
	}
	fd = mkstemp(tmp.buf);
	if (fd < 0) {
		e = errno;
		goto done;
	}
	e = write_all(fd, sb.buf, sb.len);
	if (!e && fchmod(fd, 0644) != 0)
		e = errno;
	if (!e && fsync(fd) != 0)
		e = errno;
	if (close(fd) != 0 && !e)
		e = errno;
	if (!e && rename(tmp.buf, b->path) != 0)
		e = errno;
	if (e)
		unlink(tmp.buf);
	else
		rc = 0;
done:
	if (rc != 0)
		diag_set(err, DIAG_E_OUTPUT, 0, 0,
			 "cannot write baseline '%s': %s", b->file,
			 e == ENOMEM ? "out of memory" : strerror(e));
	sbuf_release(&sb);
	sbuf_release(&tmp);
	return rc;
}

/* The members of an entry; each must be present, of this type. */
static const struct {
	const char *name;
	enum node_type type;
} entry_fields[] = {
    {"rule", NODE_STR}, {"file", NODE_STR},  {"document", NODE_INT},
    {"path", NODE_STR}, {"count", NODE_INT},
};

#define NENTRY_FIELDS (sizeof entry_fields / sizeof entry_fields[0])

struct brd {
	struct baseline *b;
	struct policy_errors *errs;
	struct sbuf ptr;
};

static void bbad(struct brd *r, const struct node *n, const char *member,
		 const char *msg)
{
	size_t mark = r->ptr.len;

	if (member)
		doc_pointer_add(&r->ptr, member, strlen(member));
	policy_errors_add(r->errs, "input.type", r->b->file, n->line, n->col,
			  sbuf_cstr(&r->ptr), "%s", msg);
	sbuf_truncate(&r->ptr, mark);
}

/* Check one member value beyond its type. Returns its problem or NULL. */
static const char *member_problem(size_t j, const struct node *v)
{
	switch (j) {
	case 0:
		return policy_id_valid(v->v.str.s, v->v.str.len, 0)
			   ? NULL
			   : "not a rule id";
	case 1:
		return v->v.str.len ? NULL : "empty file name";
	case 2:
		return v->v.i >= 0 && v->v.i <= 0x7fffffff
			   ? NULL
			   : "negative document";
	case 3:
		return !v->v.str.len || v->v.str.s[0] == '/'
			   ? NULL
			   : "not a JSON Pointer";
	default:
		return v->v.i >= 1 ? NULL : "count must be >= 1";
	}
}

static void read_bentry(struct brd *r, const struct node *e, size_t index)
{
	const struct node *v[NENTRY_FIELDS] = {NULL};
	struct baseline_entry *be;
	const char *why;
	size_t i, j;

	if (e->type != NODE_MAP) {
		bbad(r, e, NULL, "expected an entry (an object)");
		return;
	}
	for (i = 0; i < e->v.map.n; i++) {
		const struct node *k = e->v.map.pairs[i].key;

		for (j = 0; j < NENTRY_FIELDS; j++)
			if (strcmp(k->v.str.s, entry_fields[j].name) == 0)
				break;
		if (j == NENTRY_FIELDS) {
			bbad(r, k, k->v.str.s, "unknown key");
			continue;
		}
		v[j] = e->v.map.pairs[i].value;
		why =
		    v[j]->type != entry_fields[j].type
			? (entry_fields[j].type == NODE_INT ? "expected integer"
							    : "expected string")
			: member_problem(j, v[j]);
		if (why) {
			bbad(r, v[j], entry_fields[j].name, why);
			v[j] = NULL;
			e = NULL;
			break;
		}
	}
	for (j = 0; e && j < NENTRY_FIELDS; j++)
		if (!v[j]) {
			bbad(r, e, entry_fields[j].name, "missing key");
			e = NULL;
		}
	if (!e)
		return;
	be = entry_new(r->b);
	if (!be) {
		r->errs->failed = 1;
		return;
	}
	be->rule = arena_strdup(&r->b->arena, v[0]->v.str.s);
	be->file = arena_strdup(&r->b->arena, v[1]->v.str.s);
	be->document = (int)v[2]->v.i;
	be->path = arena_strdup(&r->b->arena, v[3]->v.str.s);
	be->count = (size_t)v[4]->v.i;
	be->pos.line = e->line;
	be->pos.col = e->col;
	be->index = index;
	if (!be->rule || !be->file || !be->path)
		r->errs->failed = 1;
}

static void read_broot(struct brd *r, const struct node *root)
{
	const struct node *v, *entries;
	size_t i;

	if (root->type != NODE_MAP) {
		bbad(r, root, NULL, "expected a baseline (a JSON object)");
		return;
	}
	v = doc_get(root, "verb");
	if (!v || v->type != NODE_STR || strcmp(v->v.str.s, "baseline") != 0)
		bbad(r, v ? v : root, v ? NULL : "verb",
		     "not a baseline: 'verb' must be \"baseline\"");
	v = doc_get(root, "format");
	if (!v || v->type != NODE_INT || v->v.i != 1)
		bbad(r, v ? v : root, v ? NULL : "format",
		     "unsupported baseline format; expected 1");
	entries = doc_get(root, "entries");
	if (!entries || entries->type != NODE_LIST) {
		bbad(r, entries ? entries : root, "entries",
		     "expected a list of entries");
		return;
	}
	for (i = 0; i < entries->v.list.n; i++) {
		sbuf_reset(&r->ptr);
		sbuf_addf(&r->ptr, "/entries/%zu", i);
		read_bentry(r, entries->v.list.items[i], i);
	}
}

int baseline_load(struct baseline *b, const char *path, const char *display,
		  const char *cwd, const struct policy_load *ld,
		  struct policy_errors *errs)
{
	struct brd r = {b, errs, SBUF_INIT};
	struct doc_json_opts jo;
	struct diag err;
	struct doc d;
	char *buf = NULL;
	size_t len = 0, before = errs->n;

	diag_init(&err);
	doc_init(&d, 0);
	if (baseline_set_path(b, path, display, cwd, &err) != 0 ||
	    readfile(b->path, display,
		     ld && ld->file_bytes ? ld->file_bytes
					  : BASELINE_FILE_BYTES,
		     &buf, &len, &err) != 0) {
		policy_errors_add_diag(errs, display, &err);
		goto done;
	}
	memset(&jo, 0, sizeof jo);
	if (doc_json_parse(&d, buf, len, &jo, &err) != 0) {
		policy_errors_add_diag(errs, display, &err);
		goto done;
	}
	read_broot(&r, d.root);
	entries_sort(b, 0);
	b->sorted = 1;
done:
	free(buf);
	doc_release(&d);
	if (r.ptr.failed)
		errs->failed = 1;
	sbuf_release(&r.ptr);
	return errs->n > before || errs->failed ? -1 : 0;
}
