/*
 * expand.c: operands to files (spec/core.md 4.1, 4.2, and engine.expand's
 * options of 5.9). Folders are walked with an explicit stack, each
 * folder's entries sorted by byte order before they are visited, so the
 * result never depends on the order the file system returns them; dot
 * entries and node_modules are skipped unless an include glob names them;
 * links to files are followed and links to folders are not; a folder
 * already on the stack (a bind-mount loop) is not entered twice. Nothing
 * is opened for reading here: a missing operand becomes an item that
 * carries its input.unreadable message, for the runner to report.
 */
#include "core/engine/policy.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define EXPAND_ARENA_CAP ((size_t)1 << 30)

static const char *const default_include[] = {"*.yaml", "*.yml"};

void expand_opts_default(struct expand_opts *o)
{
	memset(o, 0, sizeof *o);
	o->recursive = 1;
	o->dedupe = 1;
}

void expand_opts_config(struct expand_opts *o, const struct config *c)
{
	o->include = c->include.items;
	o->ninclude = c->include.n;
	o->exclude = c->exclude.items;
	o->nexclude = c->exclude.n;
	o->root = c->root;
	o->cwd = c->cwd;
}

void expand_list_init(struct expand_list *l)
{
	memset(l, 0, sizeof *l);
	arena_init(&l->arena, EXPAND_ARENA_CAP);
}

void expand_list_release(struct expand_list *l)
{
	arena_release(&l->arena);
	memset(l, 0, sizeof *l);
}

/* Canonical paths seen so far: an open-addressing hash set. */
struct seen {
	const char **slots;
	size_t cap, n;
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

/* Insert 's'; returns 1 when new, 0 when already there, -1 on memory. */
static int seen_add(struct seen *st, const char *s)
{
	size_t i;

	if (2 * (st->n + 1) > st->cap) {
		size_t nc = st->cap ? st->cap * 2 : 64, j;
		const char **ns = calloc(nc, sizeof *ns);

		if (!ns)
			return -1;
		for (j = 0; j < st->cap; j++) {
			if (!st->slots[j])
				continue;
			i = hash_str(st->slots[j]) & (nc - 1);
			while (ns[i])
				i = (i + 1) & (nc - 1);
			ns[i] = st->slots[j];
		}
		free(st->slots);
		st->slots = ns;
		st->cap = nc;
	}
	i = hash_str(s) & (st->cap - 1);
	for (; st->slots[i]; i = (i + 1) & (st->cap - 1))
		if (strcmp(st->slots[i], s) == 0)
			return 0;
	st->slots[i] = s;
	st->n++;
	return 1;
}

struct ex {
	const struct expand_opts *o;
	struct expand_list *out;
	struct seen seen;
	struct sbuf tmp;
	int failed;
};

static const char *ex_dup(struct ex *x, const char *s)
{
	char *p = s ? arena_strdup(&x->out->arena, s) : NULL;

	if (s && !p)
		x->failed = 1;
	return p;
}

/* Join a folder and an entry name without doubling '/'. */
static const char *ex_join(struct ex *x, const char *dir, const char *name)
{
	size_t n = dir ? strlen(dir) : 0;

	if (!n)
		return ex_dup(x, name);
	sbuf_reset(&x->tmp);
	sbuf_adds(&x->tmp, dir);
	if (dir[n - 1] != '/')
		sbuf_addc(&x->tmp, '/');
	sbuf_adds(&x->tmp, name);
	return x->tmp.failed ? (x->failed = 1, NULL)
			     : ex_dup(x, sbuf_cstr(&x->tmp));
}

/* The path of 'path' relative to the project root ("" for the root
 * itself), or NULL outside it. */
static const char *ex_rel(struct ex *x, const char *path)
{
	int rc;

	if (!x->o->root)
		return NULL;
	rc = policy_relpath(&x->tmp, x->o->root, x->o->cwd, path, 0);
	if (rc < 0)
		x->failed = 1;
	return rc == 1 ? ex_dup(x, sbuf_cstr(&x->tmp)) : NULL;
}

static struct expand_item *ex_add(struct ex *x)
{
	struct expand_list *l = x->out;

	if (l->n == l->alloc) {
		size_t na = l->alloc ? l->alloc * 2 : 32;
		void *p =
		    arena_grow(&l->arena, l->items, l->n, na, sizeof *l->items);

		if (!p) {
			x->failed = 1;
			return NULL;
		}
		l->items = p;
		l->alloc = na;
	}
	memset(&l->items[l->n], 0, sizeof l->items[0]);
	return &l->items[l->n++];
}

static const char *reason(int e)
{
	static const struct {
		int e;
		const char *text;
	} rows[] = {
	    {ENOENT, "no such file"},
	    {EACCES, "permission denied"},
	    {ENOTDIR, "a part of the path is not a folder"},
	    {ELOOP, "too many symbolic links"},
	    {ENAMETOOLONG, "the name is too long"},
	};
	size_t i;

	for (i = 0; i < sizeof rows / sizeof rows[0]; i++)
		if (rows[i].e == e)
			return rows[i].text;
	return "cannot be opened";
}

static void ex_unreadable(struct ex *x, const char *display, const char *path,
			  const char *rel, int e)
{
	struct expand_item *it = ex_add(x);

	if (!it)
		return;
	it->display = ex_dup(x, display);
	it->path = ex_dup(x, path);
	it->relpath = rel;
	sbuf_reset(&x->tmp);
	sbuf_addf(&x->tmp, "cannot read '%s': %s", display, reason(e));
	it->error = ex_dup(x, sbuf_cstr(&x->tmp));
}

/* Add a file unless it was seen before (by canonical path). */
static void ex_file(struct ex *x, const char *display, const char *path,
		    const char *rel)
{
	char real[PATH_MAX];
	const char *canon = NULL;
	struct expand_item *it;
	int rc;

	if (realpath(path, real)) {
		canon = ex_dup(x, real);
		if (canon && x->o->dedupe) {
			rc = seen_add(&x->seen, canon);
			if (rc < 0)
				x->failed = 1;
			if (rc <= 0)
				return;
		}
	}
	it = ex_add(x);
	if (!it)
		return;
	it->display = display;
	it->path = path;
	it->relpath = rel;
	it->canon = canon;
}

/* Whether a dot entry or node_modules folder is named by an include. */
static int ex_named(const struct ex *x, const char *name, int is_dir)
{
	const struct expand_opts *o = x->o;
	size_t i;

	if (o->suffixes || !o->include)
		return 0;
	for (i = 0; i < o->ninclude; i++)
		if (glob_names_entry(o->include[i], name, is_dir))
			return 1;
	return 0;
}

/* Whether a glob names hidden entries explicitly: one of its segments
 * starts with a literal '.' or is "node_modules". */
static int glob_explicit(const char *g)
{
	const char *s = g;

	for (; s; s = strchr(s, '/') ? strchr(s, '/') + 1 : NULL)
		if (*s == '.' || (strncmp(s, "node_modules", 12) == 0 &&
				  (s[12] == '/' || !s[12])))
			return 1;
	return 0;
}

/*
 * Whether a file of the walk is kept. 'hidden' says the file, or a folder
 * between it and the operand, is a dot entry or node_modules: then only an
 * include glob that names such entries explicitly can keep it.
 */
static int ex_keep(const struct ex *x, const char *name, const char *rel,
		   const char *wrel, int hidden)
{
	const struct expand_opts *o = x->o;
	size_t i, n = strlen(name), sl;

	if (glob_match_any(o->exclude, o->nexclude, rel))
		return 0;
	if (o->suffixes) {
		for (i = 0; i < o->nsuffixes; i++) {
			sl = strlen(o->suffixes[i]);
			if (n >= sl &&
			    strcmp(name + n - sl, o->suffixes[i]) == 0)
				return 1;
		}
		return 0;
	}
	if (!o->include)
		return !hidden &&
		       glob_match_any(default_include, 2, rel ? rel : wrel);
	for (i = 0; i < o->ninclude; i++)
		if ((!hidden || o->hidden || glob_explicit(o->include[i])) &&
		    glob_match(o->include[i], rel ? rel : wrel))
			return 1;
	return 0;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One folder being walked. */
struct frame {
	const char *path, *display, *rel, *wrel;
	char **names;
	size_t n, i;
	int hidden; /* below a dot folder or node_modules */
	dev_t dev;
	ino_t ino;
};

/* Read and sort the names of a folder. Returns 0, or an errno value. */
static int read_names(struct frame *f)
{
	DIR *d = opendir(f->path);
	struct dirent *de;
	size_t alloc = 0;
	char **p;
	int e;

	if (!d)
		return errno ? errno : EACCES;
	while ((de = readdir(d))) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		if (f->n == alloc) {
			alloc = alloc ? alloc * 2 : 16;
			p = realloc(f->names, alloc * sizeof *p);
			if (!p)
				break;
			f->names = p;
		}
		f->names[f->n] = strdup(de->d_name);
		if (!f->names[f->n])
			break;
		f->n++;
	}
	e = de ? ENOMEM : 0;
	closedir(d);
	if (f->n > 1)
		qsort(f->names, f->n, sizeof *f->names, name_cmp);
	return e;
}

static void frame_free(struct frame *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		free(f->names[i]);
	free(f->names);
}

/* Visit one entry of the top frame; may push a new frame. */
static void ex_entry(struct ex *x, struct frame **stack, size_t *depth,
		     size_t *alloc)
{
	struct frame *f = &(*stack)[*depth - 1];
	const char *name = f->names[f->i++];
	const char *path, *display, *rel, *wrel;
	struct stat st;
	size_t k;
	int dot = name[0] == '.', is_dir, e;

	path = ex_join(x, f->path, name);
	if (!path || lstat(path, &st) != 0)
		return;
	if (S_ISLNK(st.st_mode) &&
	    (stat(path, &st) != 0 || S_ISDIR(st.st_mode)))
		return; /* broken, or a link to a folder: not followed */
	is_dir = S_ISDIR(st.st_mode);
	if (!is_dir && !S_ISREG(st.st_mode))
		return;
	if (is_dir && !x->o->recursive)
		return;
	if (is_dir && strcmp(name, "node_modules") == 0)
		dot = 1;
	if (dot && !x->o->hidden && !ex_named(x, name, is_dir))
		return;
	dot |= f->hidden;
	display = ex_join(x, f->display, name);
	wrel = ex_join(x, f->wrel, name);
	rel = f->rel ? ex_join(x, f->rel, name) : NULL;
	if (!display || !wrel)
		return;
	if (!is_dir) {
		if (ex_keep(x, name, rel, wrel, dot))
			ex_file(x, display, path, rel);
		return;
	}
	for (k = 0; k < *depth; k++)
		if ((*stack)[k].dev == st.st_dev &&
		    (*stack)[k].ino == st.st_ino)
			return;
	if (*depth == *alloc) {
		struct frame *ns = realloc(*stack, 2 * *alloc * sizeof *ns);

		if (!ns) {
			x->failed = 1;
			return;
		}
		*stack = ns;
		*alloc *= 2;
	}
	f = &(*stack)[(*depth)++];
	memset(f, 0, sizeof *f);
	f->path = path;
	f->display = display;
	f->rel = rel;
	f->wrel = wrel;
	f->hidden = dot;
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	e = read_names(f);
	if (e)
		ex_unreadable(x, display, path, rel, e);
}

/* Walk the folder 'path', shown as 'display' ("" for bare names). */
static void ex_walk(struct ex *x, const char *path, const char *display,
		    const char *rel, const struct stat *st)
{
	size_t depth = 1, alloc = 16;
	struct frame *stack = calloc(alloc, sizeof *stack);
	int e;

	if (!stack) {
		x->failed = 1;
		return;
	}
	stack[0].path = path;
	stack[0].display = display;
	stack[0].rel = rel;
	stack[0].wrel = "";
	stack[0].dev = st->st_dev;
	stack[0].ino = st->st_ino;
	e = read_names(&stack[0]);
	if (e)
		ex_unreadable(x, *display ? display : path, path, rel, e);
	while (depth > 0 && !x->failed) {
		if (stack[depth - 1].i == stack[depth - 1].n) {
			frame_free(&stack[--depth]);
			continue;
		}
		ex_entry(x, &stack, &depth, &alloc);
	}
	while (depth > 0)
		frame_free(&stack[--depth]);
	free(stack);
}

/* Expand one operand (not "-"). */
static void ex_operand(struct ex *x, const char *op)
{
	size_t n = strlen(op);
	const char *display, *rel;
	struct stat st;

	while (n > 1 && op[n - 1] == '/')
		n--;
	display = arena_strndup(&x->out->arena, op, n);
	if (!display) {
		x->failed = 1;
		return;
	}
	rel = ex_rel(x, display);
	if (stat(op, &st) != 0) {
		if (!glob_match_any(x->o->exclude, x->o->nexclude, rel))
			ex_unreadable(x, display, op, rel, errno);
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		if (!glob_match_any(x->o->exclude, x->o->nexclude, rel))
			ex_file(x, display, ex_dup(x, op), rel);
		return;
	}
	ex_walk(x, display, display, rel, &st);
}

static void ex_stdin(struct ex *x)
{
	struct expand_item *it = ex_add(x);
	const char *fp = x->o->stdin_filepath;

	if (!it)
		return;
	it->is_stdin = 1;
	it->path = "-";
	it->display = fp ? ex_dup(x, fp) : "-";
	it->relpath = fp ? ex_rel(x, fp) : NULL;
}

int policy_expand(struct expand_list *out, const char *const *operands,
		  size_t n, const struct expand_opts *o, struct diag *err)
{
	struct ex x;
	struct stat st;
	size_t i, nstdin = 0;

	memset(&x, 0, sizeof x);
	x.o = o;
	x.out = out;
	if (n == 0 && !o->pack_dir) {
		diag_set(err, DIAG_E_USAGE, 0, 0, "no PATH to check");
		diag_set_path(err, "PATH");
		return -1;
	}
	for (i = 0; i < n; i++)
		if (strcmp(operands[i], "-") == 0 && ++nstdin > 1) {
			diag_set(err, DIAG_E_USAGE, 0, 0,
				 "standard input '-' can be read only once");
			diag_set_path(err, "-");
			return -1;
		}
	if (n == 0) {
		if (stat(o->pack_dir, &st) != 0)
			ex_unreadable(&x, o->pack_dir, o->pack_dir, NULL,
				      errno);
		else if (!S_ISDIR(st.st_mode))
			ex_unreadable(&x, o->pack_dir, o->pack_dir, NULL,
				      ENOTDIR);
		else
			ex_walk(&x, o->pack_dir, "", NULL, &st);
	}
	for (i = 0; i < n && !x.failed; i++) {
		if (strcmp(operands[i], "-") == 0)
			ex_stdin(&x);
		else
			ex_operand(&x, operands[i]);
	}
	free(x.seen.slots);
	sbuf_release(&x.tmp);
	if (x.failed || out->arena.failed) {
		diag_set(err, DIAG_E_NOMEM, 0, 0,
			 "out of memory while expanding operands");
		return -1;
	}
	if (o->on_empty_error && out->n == 0) {
		diag_set(err, DIAG_E_USAGE, 0, 0, "no file to check");
		diag_set_path(err, "PATH");
		return -1;
	}
	return 0;
}
