/*
 * config.c: the configuration file (spec/core.md 3.1-3.3). Discovery walks
 * up from the current directory; loading reads the file with our YAML
 * loader, validates it against schemas/infragate-config.yaml and then
 * checks what a schema cannot say, each problem an error positioned in the
 * file. The result is a struct config that owns copies of every string, so
 * the document is freed before the run starts. Also the error list and the
 * two helpers (read one YAML file, validate it against one of our schemas)
 * that the waiver loader shares. Nothing here decides per-file settings:
 * overrides.c does.
 */
#include "core/engine/policy.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/re/re.h"
#include "core/schema/schema.h"
#include "core/util/readfile.h"

#define CONFIG_ARENA_CAP	  ((size_t)64 << 20)
#define POLICY_FILE_BYTES_DEFAULT 8388608

/* ---- errors ------------------------------------------------------------ */

void policy_errors_init(struct policy_errors *e)
{
	arena_init(&e->arena, CONFIG_ARENA_CAP);
	e->items = NULL;
	e->n = e->alloc = 0;
	e->failed = 0;
}

void policy_errors_release(struct policy_errors *e)
{
	arena_release(&e->arena);
	e->items = NULL;
	e->n = e->alloc = 0;
	e->failed = 0;
}

static void errors_vadd(struct policy_errors *e, const char *id,
			const char *file, uint32_t line, uint32_t col,
			const char *path, const char *fmt, va_list ap)
    __attribute__((format(printf, 7, 0)));

static void errors_vadd(struct policy_errors *e, const char *id,
			const char *file, uint32_t line, uint32_t col,
			const char *path, const char *fmt, va_list ap)
{
	struct policy_error *it;
	char msg[DIAG_MSG_MAX];

	if (e->n == e->alloc) {
		size_t na = e->alloc ? e->alloc * 2 : 8;
		void *p =
		    arena_grow(&e->arena, e->items, e->n, na, sizeof *e->items);

		if (!p) {
			e->failed = 1;
			return;
		}
		e->items = p;
		e->alloc = na;
	}
	if (vsnprintf(msg, sizeof msg, fmt, ap) >= (int)sizeof msg)
		diag_copy_text(msg, sizeof msg, msg);
	it = &e->items[e->n];
	it->id = arena_strdup(&e->arena, id);
	it->message = arena_strdup(&e->arena, msg);
	it->file = arena_strdup(&e->arena, file ? file : "");
	it->line = line;
	it->col = line ? col : 0;
	it->path = path ? arena_strdup(&e->arena, path) : NULL;
	if (!it->id || !it->message || !it->file || (path && !it->path)) {
		e->failed = 1;
		return;
	}
	e->n++;
}

void policy_errors_add(struct policy_errors *e, const char *id,
		       const char *file, uint32_t line, uint32_t col,
		       const char *path, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	errors_vadd(e, id, file, line, col, path, fmt, ap);
	va_end(ap);
}

void policy_errors_add_diag(struct policy_errors *e, const char *file,
			    const struct diag *d)
{
	policy_errors_add(e, diag_id(d), file, d->line, d->col,
			  d->path[0] ? d->path : NULL, "%s", d->msg);
}

/* ---- our own YAML files and schemas ------------------------------------ */

int policy_read_yaml(const char *path, const char *display, size_t file_bytes,
		     struct yaml_file *yf, struct policy_errors *errs)
{
	struct yaml_limits lim;
	struct diag err;
	char *buf = NULL;
	size_t len = 0;
	int rc;

	diag_init(&err);
	yaml_limits_default(&lim);
	if (readfile(path, display,
		     file_bytes ? file_bytes : POLICY_FILE_BYTES_DEFAULT, &buf,
		     &len, &err) != 0) {
		policy_errors_add_diag(errs, display, &err);
		return -1;
	}
	rc = yaml_load(yf, buf, len, YAML_SINGLE, &lim, 0, &err);
	free(buf);
	if (rc != 0) {
		policy_errors_add_diag(errs, display, &err);
		return -1;
	}
	if (yf->ndocs != 1) {
		policy_errors_add(errs, "input.yaml", display, 0, 0, NULL,
				  "expected a single document");
		return -1;
	}
	return 0;
}

/* Sibling schema files loaded for a $ref, freed after compiling. */
#define SIBLINGS_MAX 4

struct siblings {
	const struct policy_load *ld;
	struct yaml_file files[SIBLINGS_MAX];
	char names[SIBLINGS_MAX][96];
	size_t n;
	struct policy_errors *errs;
};

static int load_sibling(void *ud, const char *file, const struct node **root,
			const char **display, struct diag *err)
{
	struct siblings *sb = ud;
	struct sbuf path = SBUF_INIT;
	size_t i = sb->n;
	int rc;

	if (i == SIBLINGS_MAX || strlen(file) + 9 > sizeof sb->names[0]) {
		diag_set(err, DIAG_E_PACK, 0, 0, "too many schema files");
		return -1;
	}
	snprintf(sb->names[i], sizeof sb->names[i], "schemas/%s", file);
	sbuf_addf(&path, "%s/%s", sb->ld->schemas_dir, file);
	yaml_file_init(&sb->files[i]);
	sb->n++;
	rc = policy_read_yaml(sbuf_cstr(&path), sb->names[i],
			      sb->ld->file_bytes, &sb->files[i], sb->errs);
	sbuf_release(&path);
	if (rc != 0) {
		diag_set(err, DIAG_E_PACK, 0, 0, "cannot load schema '%s'",
			 file);
		return -1;
	}
	*root = sb->files[i].docs[0]->root;
	*display = sb->names[i];
	return 0;
}

int policy_validate(const struct policy_load *ld, const char *name,
		    const struct node *root, const char *display,
		    struct policy_errors *errs)
{
	struct siblings sb;
	struct schema_env env;
	struct schema *s = NULL;
	struct findings fs;
	struct re_limits rl;
	struct diag err;
	const struct node *sroot;
	const char *shown;
	size_t i;
	int rc = -1;

	memset(&sb, 0, sizeof sb);
	sb.ld = ld;
	sb.errs = errs;
	memset(&env, 0, sizeof env);
	env.load_sibling = load_sibling;
	env.ud = &sb;
	findings_init(&fs, 0);
	diag_init(&err);
	if (load_sibling(&sb, name, &sroot, &shown, &err) != 0)
		goto done;
	s = schema_compile(sroot, shown, &env, &err);
	if (!s) {
		policy_errors_add_diag(errs, shown, &err);
		goto done;
	}
	re_limits_default(&rl);
	if (schema_validate(s, root, 0, &rl, &fs, &err) < 0) {
		policy_errors_add_diag(errs, display, &err);
		goto done;
	}
	for (i = 0; i < fs.n; i++) {
		const struct finding *f = &fs.items[i];

		policy_errors_add(errs, f->rule, display, f->line, f->col,
				  f->path, "%s", f->message);
	}
	rc = fs.n || fs.failed ? -1 : 0;
done:
	schema_free(s);
	for (i = 0; i < sb.n; i++)
		yaml_file_release(&sb.files[i]);
	findings_release(&fs);
	return rc;
}

/* ---- limits ------------------------------------------------------------ */

/* The limits of spec/core.md 4.5, with their defaults. */
static const struct {
	const char *name;
	long long dflt;
} limit_table[] = {
    {"file_bytes", 8388608},
    {"documents", 10000},
    {"depth", 512},
    {"nodes", 1000000},
    {"expanded_nodes", 1000000},
    {"scalar_bytes", 1048576},
    {"findings", 10000},
    {"instructions", 10000000},
    {"instructions_per_node", 100},
    {"command_instructions", 2000000000},
    {"lua_memory_mb", 256},
    {"regex_match_limit", 1000000},
    {"regex_depth_limit", 100000},
    {"regex_heap_kb", 65536},
};

int policy_limit_known(const char *name, long long *dflt)
{
	size_t i;

	for (i = 0; i < sizeof limit_table / sizeof limit_table[0]; i++)
		if (strcmp(limit_table[i].name, name) == 0) {
			if (dflt)
				*dflt = limit_table[i].dflt;
			return 1;
		}
	return 0;
}

long long config_limit(const struct config *c, const char *name)
{
	long long v;
	size_t i;

	if (!policy_limit_known(name, &v))
		return -1;
	for (i = 0; i < c->nlimits; i++)
		if (strcmp(c->limits[i].name, name) == 0)
			v = c->limits[i].value;
	return v;
}

/* ---- the configuration ------------------------------------------------- */

static const char *const default_include[] = {"*.yaml", "*.yml"};

void config_init(struct config *c, const char *cwd)
{
	size_t i, n = sizeof default_include / sizeof default_include[0];

	memset(c, 0, sizeof *c);
	arena_init(&c->arena, CONFIG_ARENA_CAP);
	c->cwd = arena_strdup(&c->arena, cwd);
	c->root = c->cwd;
	c->dir = "";
	c->version = 1;
	c->include.items = arena_calloc(&c->arena, n, sizeof(char *));
	c->include.pos = arena_calloc(&c->arena, n, sizeof(struct config_pos));
	if (c->include.items && c->include.pos) {
		for (i = 0; i < n; i++)
			c->include.items[i] = default_include[i];
		c->include.n = n;
	}
	c->strict = -1;
	c->fail_on = -1;
	c->unrouted_error = -1;
	c->jobs = -1;
	waivers_init(&c->waivers);
}

void config_release(struct config *c)
{
	waivers_release(&c->waivers);
	arena_release(&c->arena);
	memset(c, 0, sizeof *c);
}

const char *config_path(struct config *c, const char *p)
{
	struct sbuf sb = SBUF_INIT;
	char *r;

	if (*p == '/' || !*c->dir)
		return arena_strdup(&c->arena, p);
	sbuf_addf(&sb, "%s%s%s", c->dir,
		  c->dir[strlen(c->dir) - 1] == '/' ? "" : "/", p);
	r = sb.failed ? NULL : arena_strdup(&c->arena, sbuf_cstr(&sb));
	sbuf_release(&sb);
	return r;
}

/* The canonical absolute folder of 'file' (relative to cwd), or its
 * lexical form when the folder does not exist. */
static const char *folder_of(struct config *c, const char *file)
{
	struct sbuf sb = SBUF_INIT, rel = SBUF_INIT;
	char real[PATH_MAX];
	const char *slash = strrchr(file, '/'), *r;

	if (*file == '/')
		sbuf_add(&sb, file, slash == file ? 1 : (size_t)(slash - file));
	else
		sbuf_addf(&sb, "%s/%.*s", c->cwd,
			  slash ? (int)(slash - file) : 0, file);
	if (realpath(sbuf_cstr(&sb), real)) {
		r = arena_strdup(&c->arena, real);
	} else {
		policy_relpath(&rel, "/", "/", sbuf_cstr(&sb), 0);
		sbuf_reset(&sb);
		sbuf_addf(&sb, "/%s", sbuf_cstr(&rel));
		r = arena_strdup(&c->arena, sbuf_cstr(&sb));
	}
	sbuf_release(&sb);
	sbuf_release(&rel);
	return r;
}

/* Use 'file' (as given on the command line or in the environment). */
static int config_given(struct config *c, const char *file)
{
	const char *slash = strrchr(file, '/');

	c->file = arena_strdup(&c->arena, file);
	if (!slash)
		c->dir = "";
	else if (slash == file)
		c->dir = "/";
	else
		c->dir = arena_strndup(&c->arena, file, (size_t)(slash - file));
	c->root = folder_of(c, file);
	return c->file && c->dir && c->root ? 1 : -1;
}

static int exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

int config_discover(struct config *c, const struct config_source *src,
		    struct policy_errors *errs)
{
	static const char *const names[] = {".infragate.yaml",
					    ".infragate.yml"};
	struct sbuf dir = SBUF_INIT, p = SBUF_INIT, up = SBUF_INIT;
	int found[2], rc = 0;
	size_t i, k;

	if (src->no_config)
		return 0;
	if (src->config)
		return config_given(c, src->config);
	if (src->env && *src->env)
		return config_given(c, src->env);
	sbuf_adds(&dir, c->cwd);
	for (k = 0;; k++) {
		for (i = 0; i < 2; i++) {
			sbuf_reset(&p);
			sbuf_addf(&p, "%s/%s", dir.len > 1 ? dir.buf : "",
				  names[i]);
			found[i] = exists(sbuf_cstr(&p));
		}
		if (found[0] || found[1]) {
			i = found[0] ? 0 : 1;
			sbuf_addf(&up, "%s", names[i]);
			c->file = arena_strdup(&c->arena, sbuf_cstr(&up));
			sbuf_truncate(&up, up.len - strlen(names[i]));
			sbuf_truncate(&up, up.len ? up.len - 1 : 0);
			c->dir = arena_strdup(&c->arena, sbuf_cstr(&up));
			c->root = arena_strdup(&c->arena, sbuf_cstr(&dir));
			rc = c->file && c->dir && c->root ? 1 : -1;
			if (found[0] && found[1]) {
				policy_errors_add(errs, "input.unreadable",
						  c->file, 0, 0, NULL,
						  "both '%s' and '%s' exist in "
						  "'%s'; keep one",
						  names[0], names[1],
						  sbuf_cstr(&dir));
				rc = -1;
			}
			break;
		}
		sbuf_reset(&p);
		sbuf_addf(&p, "%s/.git", dir.len > 1 ? dir.buf : "");
		if (exists(sbuf_cstr(&p)) || dir.len <= 1)
			break;
		i = dir.len;
		while (i > 1 && dir.buf[i - 1] != '/')
			i--;
		sbuf_truncate(&dir, i > 1 ? i - 1 : 1);
		sbuf_adds(&up, "../");
	}
	if (dir.failed || p.failed || up.failed)
		rc = -1;
	sbuf_release(&dir);
	sbuf_release(&p);
	sbuf_release(&up);
	return rc;
}
