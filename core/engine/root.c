/*
 * root.c: finding what the engine works with: the data root (spec/core.md
 * 15.3), the shipped packs under rules/, site packs given with --rules or
 * the configuration, and every kind's schema header (5.2), read without
 * running any Lua so that routing needs no pack. Folder listings are
 * sorted in byte order here, never trusted to the file system's order.
 */
#include "core/engine/eng_internal.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/util/names.h"
#include "core/util/readfile.h"

static int is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether a folder entry is a regular file, after links: the type readdir
 * reports answers without a system call, except for a link or a file
 * system that does not say. */
static int entry_is_file(DIR *dir, const struct dirent *d)
{
	struct stat st;

	if (d->d_type == DT_REG)
		return 1;
	if (d->d_type != DT_LNK && d->d_type != DT_UNKNOWN)
		return 0;
	return fstatat(dirfd(dir), d->d_name, &st, 0) == 0 && S_ISREG(st.st_mode);
}

/* The names in folder 'path' in byte order, hidden ones (a leading dot)
 * left out; with files_only, only regular files (after links). */
static char **list_dir(const char *path, size_t *n, int files_only)
{
	struct dirent *d;
	char **v = NULL;
	size_t alloc = 0;
	DIR *dir = opendir(path);

	*n = 0;
	if (!dir)
		return NULL;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		if (files_only && !entry_is_file(dir, d))
			continue;
		if (*n == alloc) {
			char **nv = realloc(v, (alloc ? alloc * 2 : 16) * sizeof *nv);

			if (!nv)
				break;
			v = nv;
			alloc = alloc ? alloc * 2 : 16;
		}
		v[*n] = strdup(d->d_name);
		if (v[*n])
			(*n)++;
	}
	closedir(dir);
	if (v)
		qsort(v, *n, sizeof *v, str_cmp);
	return v;
}

static void free_list(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static char *join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *p = malloc(la + lb + 2);

	if (!p)
		return NULL;
	memcpy(p, a, la);
	p[la] = '/';
	memcpy(p + la + 1, b, lb + 1);
	return p;
}

void engine_data_path(const struct engine *e, const char *rel, char *out,
		      size_t size)
{
	snprintf(out, size, "%s/%s", e->data_root, rel);
}

/* spec/core.md 15.3: INFRAGATE_HOME, an installed tree, a build tree. */
static char *find_root(const struct engine_globals *g, struct engine_out *o)
{
	char buf[PATH_MAX], exe_dir[PATH_MAX], rp[PATH_MAX];
	char *slash;

	if (g->env_home && *g->env_home) {
		snprintf(buf, sizeof buf, "%s/rules", g->env_home);
		if (is_dir(buf) && realpath(g->env_home, rp))
			return strdup(rp);
		engine_out_error(o, "engine.pack", NULL, 0, 0, NULL,
				 "INFRAGATE_HOME '%s' holds no rules/ folder",
				 g->env_home);
		return NULL;
	}
	if (g->exe && *g->exe) {
		snprintf(exe_dir, sizeof exe_dir, "%s", g->exe);
		slash = strrchr(exe_dir, '/');
		if (slash)
			*slash = '\0';
		snprintf(buf, sizeof buf, "%s/../share/infragate/rules", exe_dir);
		if (is_dir(buf)) {
			snprintf(buf, sizeof buf, "%s/../share/infragate", exe_dir);
			if (realpath(buf, rp))
				return strdup(rp);
		}
		snprintf(buf, sizeof buf, "%s/../rules", exe_dir);
		if (is_dir(buf)) {
			snprintf(buf, sizeof buf, "%s/../schemas", exe_dir);
			if (is_dir(buf)) {
				snprintf(buf, sizeof buf, "%s/..", exe_dir);
				if (realpath(buf, rp))
					return strdup(rp);
			}
		}
	}
	engine_out_error(o, "engine.pack", NULL, 0, 0, NULL,
			 "no data root found: looked at INFRAGATE_HOME, %s/../share/infragate and %s/..",
			 g->exe ? g->exe : "?", g->exe ? g->exe : "?");
	return NULL;
}

static struct packref *add_pack(struct engine *e, const char *name,
				const char *dir, const char *chunk_dir, int site,
				struct engine_out *o)
{
	struct packref *v, *p;
	char buf[PATH_MAX];
	size_t i;

	if (!name_is_pack(name) || name_is_reserved(name) ||
	    strcmp(name, "infragate") == 0) {
		engine_out_error(o, "engine.pack", dir, 0, 0, NULL,
				 "'%s' is not a valid pack name (lower case words joined by '-', not a verb)",
				 name);
		return NULL;
	}
	for (i = 0; i < e->npacks; i++)
		if (strcmp(e->packs[i].name, name) == 0) {
			engine_out_error(o, "engine.pack", dir, 0, 0, NULL,
					 "two packs are named '%s': %s and %s", name,
					 e->packs[i].chunk_dir, chunk_dir);
			return NULL;
		}
	v = realloc(e->packs, (e->npacks + 1) * sizeof *v);
	if (!v)
		return NULL;
	e->packs = v;
	p = &e->packs[e->npacks];
	memset(p, 0, sizeof *p);
	p->name = strdup(name);
	p->dir = strdup(dir);
	p->chunk_dir = strdup(chunk_dir);
	p->site = site;
	p->rank = e->npacks;
	if (site) {
		p->schemas_dir = join(dir, "schemas");
		p->fixtures_dir = join(dir, "fixtures");
		p->registry = join(dir, "validation.yaml");
		snprintf(buf, sizeof buf, "%s/schemas/%s-registry.yaml", dir, name);
	} else {
		p->schemas_dir = join(e->data_root, "schemas");
		snprintf(buf, sizeof buf, "%s/fixtures/%s", e->data_root, name);
		p->fixtures_dir = strdup(buf);
		snprintf(buf, sizeof buf, "%s/validation/%s.yaml", e->data_root, name);
		p->registry = strdup(buf);
		snprintf(buf, sizeof buf, "%s/schemas/%s-registry.yaml", e->data_root,
			 name);
	}
	if (is_file(buf))
		p->registry_schema = strdup(buf);
	snprintf(buf, sizeof buf, "%s/commands.lua", dir);
	p->has_commands = is_file(buf);
	e->npacks++;
	return p;
}

/* Kind names: [a-z][a-z0-9]*([-_][a-z0-9]+)* */
static int kind_name_ok(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || s[0] < 'a' || s[0] > 'z' || s[n - 1] == '-' || s[n - 1] == '_')
		return 0;
	for (i = 1; i < n; i++) {
		char c = s[i];

		if (c == '-' || c == '_') {
			if (s[i + 1] == '-' || s[i + 1] == '_')
				return 0;
		} else if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) {
			return 0;
		}
	}
	return 1;
}

static const char *str_member(const struct node *map, const char *k,
			      struct engine_out *o, const struct kind *kd, int *bad)
{
	const struct node *v = doc_get(map, k);

	if (!v)
		return NULL;
	if (v->type != NODE_STR) {
		engine_out_error(o, "engine.pack", kd->display, v->line, v->col, NULL,
				 "schema key '%s' must be a string, found %s", k,
				 doc_type_name((enum node_type)v->type));
		*bad = 1;
		return NULL;
	}
	return v->v.str.s;
}

/* The end of a schema file's routing header: its leading top-level keys
 * among pack, api_version, default, detect and kind_value, with their
 * indented lines. Routing reads only that much, so that a run does not
 * parse every schema of every pack; the whole file is read when a worker
 * compiles the kind. 0: the header cannot be cut that way (flow style,
 * directives, no header key first) and the file is read whole. */
static size_t header_end(const char *buf, size_t len)
{
	static const char *const keys[] = { "pack", "api_version", "default",
					    "detect", "kind_value", NULL };
	size_t i = 0, end = 0;

	while (i < len) {
		size_t eol = i, k, n;
		int known = 0;

		while (eol < len && buf[eol] != '\n')
			eol++;
		if (buf[i] == '{' || buf[i] == '%' || buf[i] == '[' ||
		    (eol - i >= 3 && memcmp(buf + i, "---", 3) == 0))
			return 0;
		if (buf[i] != ' ' && buf[i] != '\t' && buf[i] != '#' && buf[i] != '\n' &&
		    buf[i] != '\r' && buf[i] != '-') {
			for (k = 0; keys[k]; k++) {
				n = strlen(keys[k]);
				if (eol - i > n && memcmp(buf + i, keys[k], n) == 0 &&
				    (buf[i + n] == ':' || buf[i + n] == ' '))
					known = 1;
			}
			if (!known)
				return end;
		}
		/* A key, or a line that continues one; not a comment or a
		 * blank line (those stay out of the header's end). */
		if (buf[i] != '#' && buf[i] != '\n' && buf[i] != '\r')
			end = eol < len ? eol + 1 : len;
		i = eol + 1;
	}
	return end;
}

/* Shorten each comment line at column 0 of buf[0, n) to its line break,
 * in place; returns the new length. The parser would walk every character
 * of them (most schemas open with a comment block), and an empty line keeps
 * every line and column the parser reports where it was. */
static size_t drop_comment_text(char *buf, size_t n)
{
	size_t i = 0, out = 0;

	while (i < n) {
		size_t eol = i;

		while (eol < n && buf[eol] != '\n')
			eol++;
		if (buf[i] == '#') {
			if (eol < n)
				buf[out++] = '\n';
		} else {
			memmove(buf + out, buf + i, eol - i + (eol < n));
			out += eol - i + (eol < n);
		}
		i = eol + 1;
	}
	return out;
}

/* What of a schema file routing parses: its header, comment text dropped,
 * or all of it as it is. */
static size_t header_or_whole(char *buf, size_t len)
{
	size_t n = header_end(buf, len);

	return n ? drop_comment_text(buf, n) : len;
}

/* Release what read_kind filled in. */
static void kind_free(struct kind *k)
{
	yaml_file_release(&k->yf);
	free(k->display);
	free(k->file);
	free(k->name);
	free(k->pack);
	free(k->api_version);
	free(k->kind_value);
	memset(k, 0, sizeof *k);
}

/* Read one schema's routing header into 'kd'. Returns 1 (kd filled; the
 * caller owns it), 0 for the engine's own schemas (pack: infragate, never
 * routing targets; kd empty) or -1 with the problem in 'o'. */
static int read_kind(struct engine *e, const char *file, const char *display,
		     const char *name, size_t namelen, const char *implied_pack,
		     struct engine_out *o, struct kind *out)
{
	struct kind kd;
	struct yaml_limits lim;
	struct diag err;
	const char *pack, *s;
	const struct node *root, *dflt;
	char *buf = NULL;
	size_t len;
	int bad = 0;

	memset(&kd, 0, sizeof kd);
	kd.display = strdup(display);
	kd.file = strdup(file);
	yaml_file_init(&kd.yf);
	yaml_limits_default(&lim);
	diag_init(&err);
	if (readfile(file, display, e->limits.file_bytes, &buf, &len, &err) < 0 ||
	    yaml_load(&kd.yf, buf, header_or_whole(buf, len), YAML_SINGLE, &lim, 0,
		      &err) < 0) {
		engine_out_error(o, "engine.pack", display, err.line, err.col,
				 err.path[0] ? err.path : NULL, "schema does not load: %s",
				 err.msg);
		goto fail;
	}
	free(buf);
	buf = NULL;
	root = kd.yf.ndocs ? kd.yf.docs[0]->root : NULL;
	if (!root || root->type != NODE_MAP) {
		engine_out_error(o, "engine.pack", display, root ? root->line : 0,
				 root ? root->col : 0, NULL, "a schema must be a mapping");
		goto fail;
	}
	pack = str_member(root, "pack", o, &kd, &bad);
	if (bad)
		goto fail;
	if (pack && strcmp(pack, "infragate") == 0) {
		kind_free(&kd);
		return 0;
	}
	if (!pack)
		pack = implied_pack;
	if (!pack) {
		engine_out_error(o, "engine.pack", display, root->line, root->col,
				 "/pack", "schema has no 'pack' key naming its pack");
		goto fail;
	}
	if (implied_pack && strcmp(pack, implied_pack) != 0) {
		engine_out_error(o, "engine.pack", display, root->line, root->col,
				 "/pack", "a site pack's schema belongs to that pack ('%s'), not '%s'",
				 implied_pack, pack);
		goto fail;
	}
	if (!engine_pack(e, pack)) {
		engine_out_error(o, "engine.pack", display, root->line, root->col,
				 "/pack", "schema names pack '%s', which does not exist", pack);
		goto fail;
	}
	if (!kind_name_ok(name, namelen)) {
		engine_out_error(o, "engine.pack", display, 0, 0, NULL,
				 "'%.*s' is not a valid kind name", (int)namelen, name);
		goto fail;
	}
	kd.name = strndup(name, namelen);
	kd.pack = strdup(pack);
	s = str_member(root, "api_version", o, &kd, &bad);
	kd.api_version = s ? strdup(s) : NULL;
	s = str_member(root, "kind_value", o, &kd, &bad);
	kd.kind_value = s ? strdup(s) : NULL;
	if (bad)
		goto fail;
	dflt = doc_get(root, "default");
	if (dflt && dflt->type != NODE_BOOL) {
		engine_out_error(o, "engine.pack", display, dflt->line, dflt->col,
				 "/default", "schema key 'default' must be a boolean");
		goto fail;
	}
	kd.is_default = dflt && dflt->v.b;
	kd.root = root;
	kd.detect = doc_get(root, "detect");
	if (!kd.name || !kd.pack)
		goto fail;
	*out = kd;
	return 1;
fail:
	free(buf);
	kind_free(&kd);
	return -1;
}

/* read_kind, then the checks against the kinds already known, and keep it. */
static int add_kind(struct engine *e, const char *file, const char *display,
		    const char *name, size_t namelen, const char *implied_pack,
		    struct engine_out *o)
{
	struct kind kd, *v;
	const struct node *dflt;
	size_t i;
	int rc = read_kind(e, file, display, name, namelen, implied_pack, o, &kd);

	if (rc <= 0)
		return rc;
	dflt = doc_get(kd.root, "default");
	for (i = 0; i < e->nkinds; i++) {
		const struct kind *k = &e->kinds[i];

		if (strcmp(k->name, kd.name) == 0 &&
		    (!k->api_version || !kd.api_version ||
		     strcmp(k->api_version, kd.api_version) == 0)) {
			engine_out_error(o, "engine.pack", display, 0, 0, NULL,
					 "kind '%s' is declared twice (%s and %s)", kd.name,
					 k->display, display);
			goto fail;
		}
		if (kd.is_default && k->is_default && strcmp(k->pack, kd.pack) == 0) {
			engine_out_error(o, "engine.pack", display, dflt->line, dflt->col,
					 "/default", "pack '%s' has two default kinds: '%s' and '%s'",
					 kd.pack, k->name, kd.name);
			goto fail;
		}
	}
	v = realloc(e->kinds, (e->nkinds + 1) * sizeof *v);
	if (!v)
		goto fail;
	e->kinds = v;
	e->kinds[e->nkinds++] = kd;
	return 0;
fail:
	kind_free(&kd);
	return -1;
}

/* Every <kind>.yaml of a schemas folder; 'implied' is the site pack. */
static int scan_schemas(struct engine *e, const char *dir, const char *shown,
			const char *implied, struct engine_out *o)
{
	size_t n, i, len;
	char **names = list_dir(dir, &n, 1);
	char file[PATH_MAX], display[PATH_MAX];
	int rc = 0;

	for (i = 0; i < n && rc == 0; i++) {
		const char *nm = names[i];
		const struct packref *p;
		char pk[256];

		len = strlen(nm);
		if (len < 6 || strcmp(nm + len - 5, ".yaml") != 0)
			continue;
		/* <pack>-registry.yaml is a registry format, not a kind. */
		if (len > 14 && strcmp(nm + len - 14, "-registry.yaml") == 0) {
			snprintf(pk, sizeof pk, "%.*s", (int)(len - 14), nm);
			p = engine_pack(e, pk);
			if (p && (!implied || strcmp(pk, implied) == 0))
				continue;
		}
		snprintf(file, sizeof file, "%s/%s", dir, nm);
		snprintf(display, sizeof display, "%s/%s", shown, nm);
		rc = add_kind(e, file, display, nm, len - 5, implied, o);
	}
	free_list(names, n);
	return rc;
}

static int add_site_folder(struct engine *e, const char *given,
			   struct engine_out *o)
{
	char buf[PATH_MAX], real[PATH_MAX], shown[PATH_MAX];
	const char *base;
	struct packref *p;
	size_t n, i;
	char **names;
	int rc = 0;

	if (!realpath(given, real) || !is_dir(real)) {
		engine_out_error(o, "engine.pack", given, 0, 0, NULL,
				 "site pack folder '%s' does not exist", given);
		return -1;
	}
	snprintf(buf, sizeof buf, "%s/pack.lua", real);
	snprintf(shown, sizeof shown, "%s", given);
	n = strlen(shown);
	while (n > 1 && shown[n - 1] == '/')
		shown[--n] = '\0';
	if (is_file(buf)) {
		base = strrchr(real, '/');
		base = base ? base + 1 : real;
		p = add_pack(e, base, real, shown, 1, o);
		if (!p)
			return -1;
		snprintf(buf, sizeof buf, "%s/schemas", shown);
		return is_dir(p->schemas_dir)
			       ? scan_schemas(e, p->schemas_dir, buf, p->name, o)
			       : 0;
	}
	names = list_dir(real, &n, 0);
	for (i = 0; i < n && rc == 0; i++) {
		char sub[PATH_MAX], subshown[PATH_MAX];

		snprintf(sub, sizeof sub, "%s/%s/pack.lua", real, names[i]);
		if (!is_file(sub))
			continue;
		snprintf(sub, sizeof sub, "%s/%s", real, names[i]);
		snprintf(subshown, sizeof subshown, "%s/%s", shown, names[i]);
		p = add_pack(e, names[i], sub, subshown, 1, o);
		if (!p) {
			rc = -1;
			break;
		}
		snprintf(buf, sizeof buf, "%s/schemas", subshown);
		if (is_dir(p->schemas_dir))
			rc = scan_schemas(e, p->schemas_dir, buf, p->name, o);
	}
	free_list(names, n);
	return rc;
}

int engine_add_site_packs(struct engine *e, const char *const *dirs, size_t n,
			  struct engine_out *o)
{
	size_t i;

	/* Shipped kinds first, so that a site kind clashing with one is
	 * reported the same way whichever is needed first. */
	if (n && engine_kinds_load(e, o) < 0)
		return -1;
	for (i = 0; i < n; i++)
		if (add_site_folder(e, dirs[i], o) < 0)
			return -1;
	return 0;
}

const struct packref *engine_pack(const struct engine *e, const char *name)
{
	size_t i;

	for (i = 0; i < e->npacks; i++)
		if (strcmp(e->packs[i].name, name) == 0)
			return &e->packs[i];
	return NULL;
}

static void copy_errors_to(const struct engine_out *from, struct engine_out *o)
{
	size_t i;

	for (i = 0; i < from->errors.n; i++)
		findings_add(&o->errors, &from->errors.items[i]);
	o->exit_code = 2;
}

int engine_kinds_load(struct engine *e, struct engine_out *o)
{
	char dir[PATH_MAX];

	if (e->kinds_state == 0) {
		e->kinds_err = malloc(sizeof *e->kinds_err);
		if (!e->kinds_err)
			return -1;
		engine_out_init(e->kinds_err);
		snprintf(dir, sizeof dir, "%s/schemas", e->data_root);
		e->kinds_state = scan_schemas(e, dir, "schemas", NULL, e->kinds_err) < 0 ? -1 : 1;
		if (e->kinds_state > 0) {
			engine_out_release(e->kinds_err);
			free(e->kinds_err);
			e->kinds_err = NULL;
		}
	}
	if (e->kinds_state > 0)
		return 0;
	if (o)
		engine_kinds_failure(e, o);
	return -1;
}

int engine_kinds_failure(const struct engine *e, struct engine_out *o)
{
	if (e->kinds_state >= 0 || !e->kinds_err)
		return 0;
	if (o)
		copy_errors_to(e->kinds_err, o);
	return 1;
}

const char *engine_kind_owner(struct engine *e, const char *name)
{
	char file[PATH_MAX], display[PATH_MAX];
	struct kind_owner *v;
	const struct kind *k;
	struct engine_out quiet;
	struct kind kd;
	size_t i, n = strlen(name);
	int rc;

	if (e->kinds_state == 0 && kind_name_ok(name, n)) {
		for (i = 0; i < e->nowners; i++)
			if (strcmp(e->owners[i].name, name) == 0)
				return e->owners[i].pack;
		snprintf(file, sizeof file, "%s/schemas/%s.yaml", e->data_root, name);
		snprintf(display, sizeof display, "schemas/%s.yaml", name);
		if (!is_file(file))
			return NULL;
		engine_out_init(&quiet);
		rc = read_kind(e, file, display, name, n, NULL, &quiet, &kd);
		engine_out_release(&quiet);
		if (rc > 0) {
			v = realloc(e->owners, (e->nowners + 1) * sizeof *v);
			if (v) {
				e->owners = v;
				v[e->nowners].name = kd.name;
				v[e->nowners].pack = kd.pack;
				kd.name = kd.pack = NULL;
				kind_free(&kd);
				return v[e->nowners++].pack;
			}
			kind_free(&kd);
		}
		/* Anything odd: read every kind, which reports it properly. */
	}
	k = engine_kind(e, name);
	return k ? k->pack : NULL;
}

const struct kind *engine_kind(struct engine *e, const char *name)
{
	size_t i;

	if (engine_kinds_load(e, NULL) < 0)
		return NULL;
	for (i = 0; i < e->nkinds; i++)
		if (strcmp(e->kinds[i].name, name) == 0)
			return &e->kinds[i];
	return NULL;
}

size_t engine_kind_index(const struct engine *e, const struct kind *k)
{
	return (size_t)(k - e->kinds);
}

struct engine *engine_open(const struct engine_globals *g,
			   struct engine_out *o)
{
	struct engine *e = calloc(1, sizeof *e);
	char dir[PATH_MAX];
	size_t n, i;
	char **names;

	if (!e)
		return NULL;
	e->g = *g;
	sandbox_limits_default(&e->limits);
	e->cwd = strdup(g->cwd ? g->cwd : ".");
	e->data_root = find_root(g, o);
	if (!e->data_root || !e->cwd)
		goto fail;
	snprintf(dir, sizeof dir, "%s/rules", e->data_root);
	names = list_dir(dir, &n, 0);
	for (i = 0; i < n; i++) {
		char pl[PATH_MAX], pd[PATH_MAX], chunk[PATH_MAX];

		snprintf(pd, sizeof pd, "%s/%s", dir, names[i]);
		snprintf(pl, sizeof pl, "%s/pack.lua", pd);
		snprintf(chunk, sizeof chunk, "rules/%s", names[i]);
		if (is_file(pl) && !add_pack(e, names[i], pd, chunk, 0, o)) {
			free_list(names, n);
			goto fail;
		}
	}
	free_list(names, n);
	if (engine_add_site_packs(e, g->rules_dirs, g->nrules_dirs, o) < 0)
		goto fail;
	return e;
fail:
	engine_close(e);
	return NULL;
}

void engine_close(struct engine *e)
{
	size_t i;

	if (!e)
		return;
	for (i = 0; i < e->npacks; i++) {
		struct packref *p = &e->packs[i];

		free(p->name);
		free(p->dir);
		free(p->chunk_dir);
		free(p->schemas_dir);
		free(p->fixtures_dir);
		free(p->registry);
		free(p->registry_schema);
	}
	free(e->packs);
	for (i = 0; i < e->nkinds; i++) {
		struct kind *k = &e->kinds[i];

		yaml_file_release(&k->yf);
		free(k->name);
		free(k->pack);
		free(k->file);
		free(k->display);
		free(k->api_version);
		free(k->kind_value);
	}
	free(e->kinds);
	for (i = 0; i < e->nowners; i++) {
		free(e->owners[i].name);
		free(e->owners[i].pack);
	}
	free(e->owners);
	if (e->kinds_err) {
		engine_out_release(e->kinds_err);
		free(e->kinds_err);
	}
	free(e->data_root);
	free(e->cwd);
	free(e);
}
