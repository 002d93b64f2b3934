/*
 * report.c: the bookkeeping of a lint report (spec/core.md 8.2): files and
 * their ownership, verdicts, the summary counts and the exit code, the
 * format names, and the helpers every reporter shares. The reporters
 * themselves live in report_<format>.c. Nothing here prints: a report is
 * rendered into a struct sbuf and the caller writes it.
 */
#include "core/engine/report_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/doc/doc.h"
#include "core/util/utf8.h"

#ifdef INFRAGATE_VERSION
#define REPORT_VERSION INFRAGATE_VERSION
#else
#define REPORT_VERSION "0.0.0"
#endif

/* ---- the report ---------------------------------------------------------- */

void lint_report_init(struct lint_report *r)
{
	memset(r, 0, sizeof *r);
	r->fail_on = SEV_ERROR;
	r->verb = "lint";
	r->version = REPORT_VERSION;
}

static void lint_file_release(struct lint_file *f)
{
	size_t i;

	free(f->display);
	findings_release(&f->fs);
	free(f->report_members);
	for (i = 0; i < f->nrules_ran; i++)
		free(f->rules_ran[i]);
	free(f->rules_ran);
}

void lint_report_release(struct lint_report *r)
{
	size_t i;

	for (i = 0; i < r->nfiles; i++)
		lint_file_release(&r->files[i]);
	free(r->files);
	r->files = NULL;
	r->nfiles = 0;
	memset(&r->sum, 0, sizeof r->sum);
}

struct lint_file *lint_report_add_file(struct lint_report *r,
				       const char *display)
{
	struct lint_file *v, *f;
	char *d = strdup(display ? display : "");

	if (!d)
		return NULL;
	v = realloc(r->files, (r->nfiles + 1) * sizeof *v);
	if (!v) {
		free(d);
		return NULL;
	}
	r->files = v;
	f = &v[r->nfiles++];
	memset(f, 0, sizeof *f);
	f->display = d;
	f->verdict = VERDICT_PASS;
	/* The producer already applied the findings limit. */
	findings_init(&f->fs, 0);
	return f;
}

int report_is_unusable(const struct finding *f)
{
	if (f->flags & FINDING_UNUSABLE)
		return 1;
	if (f->supp_by || f->severity != SEV_ERROR)
		return 0;
	return strncmp(report_rule(f), "input.", 6) == 0 ||
	       strncmp(report_rule(f), "engine.", 7) == 0;
}

int report_fails(const struct lint_report *r, const struct finding *f)
{
	/* SEV_ERROR < SEV_WARNING < SEV_INFO: "at or above" is <=. */
	return !f->supp_by && r->fail_on != SEV_NONE &&
	       f->severity != SEV_NONE && f->severity <= r->fail_on;
}

static enum verdict file_verdict(const struct lint_report *r,
				 const struct lint_file *f)
{
	enum verdict v = VERDICT_PASS;
	size_t i;

	for (i = 0; i < f->fs.n; i++) {
		if (report_is_unusable(&f->fs.items[i]))
			return VERDICT_ERROR;
		if (report_fails(r, &f->fs.items[i]))
			v = VERDICT_FAIL;
	}
	return v;
}

void lint_report_finish(struct lint_report *r, size_t skipped)
{
	struct lint_summary *s = &r->sum;
	int code = 0, incomplete = 0;
	size_t i, j;

	memset(s, 0, sizeof *s);
	s->files = r->nfiles;
	s->skipped = skipped;
	for (i = 0; i < r->nfiles; i++) {
		struct lint_file *f = &r->files[i];

		f->verdict = file_verdict(r, f);
		if (f->verdict != VERDICT_PASS)
			s->failed++;
		if (f->verdict == VERDICT_ERROR)
			s->unusable++;
		if (f->verdict == VERDICT_ERROR)
			code = 2;
		else if (f->verdict == VERDICT_FAIL && code < 1)
			code = 1;
		incomplete |= f->fs.failed;
		for (j = 0; j < f->fs.n; j++) {
			const struct finding *x = &f->fs.items[j];

			if (x->supp_by)
				s->suppressed++;
			else if (x->severity == SEV_ERROR)
				s->errors++;
			else if (x->severity == SEV_WARNING)
				s->warnings++;
			else if (x->severity == SEV_INFO)
				s->infos++;
		}
	}
	s->passed = s->files - s->failed;
	/* A list that lost findings to memory cannot be trusted to pass. */
	if (incomplete)
		code = 2;
	if (r->exit_code != 2)
		r->exit_code = code;
}

/* ---- formats ------------------------------------------------------------- */

static const struct {
	const char *name;
	void (*write)(const struct lint_report *r, struct sbuf *out);
} formats[FORMAT_NFORMATS] = {
	[FORMAT_TEXT] = { "text", report_write_text },
	[FORMAT_JSON] = { "json", report_write_json },
	[FORMAT_SARIF] = { "sarif", report_write_sarif },
	[FORMAT_GITHUB] = { "github", report_write_github },
	[FORMAT_JUNIT] = { "junit", report_write_junit },
};

const char *report_format_name(enum report_format f)
{
	return (unsigned)f < FORMAT_NFORMATS ? formats[f].name : NULL;
}

int report_format_parse(const char *s)
{
	int i;

	for (i = 0; s && i < FORMAT_NFORMATS; i++)
		if (strcmp(formats[i].name, s) == 0)
			return i;
	return -1;
}

int report_write(const struct lint_report *r, enum report_format format,
		 struct sbuf *out)
{
	if ((unsigned)format >= FORMAT_NFORMATS)
		return -1;
	formats[format].write(r, out);
	return out->failed ? -1 : 0;
}

/* ---- shared helpers ------------------------------------------------------ */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int report_ids(const struct lint_file *files, size_t nfiles, int active_only,
	       const char ***ids, size_t *n)
{
	const char **v;
	size_t i, j, total = 0, k = 0;

	*ids = NULL;
	*n = 0;
	for (i = 0; i < nfiles; i++)
		total += files[i].fs.n;
	if (!total)
		return 0;
	v = malloc(total * sizeof *v);
	if (!v)
		return -1;
	for (i = 0; i < nfiles; i++)
		for (j = 0; j < files[i].fs.n; j++) {
			const struct finding *f = &files[i].fs.items[j];

			if (!active_only || !f->supp_by)
				v[k++] = report_rule(f);
		}
	qsort(v, k, sizeof *v, cmp_str);
	for (i = j = 0; i < k; i++)
		if (j == 0 || strcmp(v[j - 1], v[i]) != 0)
			v[j++] = v[i];
	if (!j) {
		free(v);
		return 0;
	}
	*ids = v;
	*n = j;
	return 0;
}

void report_json_str(struct sbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	struct sbuf t = SBUF_INIT;
	size_t len, i, bad;

	if (!s) {
		sbuf_adds(sb, "null");
		return;
	}
	len = strlen(s);
	if (utf8_valid(s, len, &bad)) {
		json_write_str(sb, s, len);
		return;
	}
	for (i = 0; i < len;) {
		uint32_t cp;
		size_t k = utf8_decode(p + i, len - i, &cp);

		if (k) {
			sbuf_add(&t, p + i, k);
			i += k;
		} else {
			sbuf_adds(&t, "\xEF\xBF\xBD");
			i++;
		}
	}
	if (t.failed)
		sb->failed = 1;
	json_write_str(sb, sbuf_cstr(&t), t.len);
	sbuf_release(&t);
}

void report_json_pos(struct sbuf *sb, uint32_t v)
{
	if (v)
		sbuf_addf(sb, "%u", (unsigned)v);
	else
		sbuf_adds(sb, "null");
}

void report_text_clean(struct sbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i, start = 0;

	for (i = 0; p[i]; i++) {
		size_t skip = 0;

		if (p[i] < 0x20 || p[i] == 0x7f)
			skip = 1;
		else if (p[i] == 0xC2 && p[i + 1] >= 0x80 && p[i + 1] <= 0x9F)
			skip = 2; /* C1 controls, U+0080-U+009F */
		if (!skip)
			continue;
		sbuf_add(sb, p + start, i - start);
		sbuf_addc(sb, ' ');
		i += skip - 1;
		start = i + 1;
	}
	sbuf_add(sb, p + start, i - start);
}

/* ---- reading an expired waiver's object ---------------------------------- */

/*
 * The waiver object is JSON our own waiver code wrote: string members and
 * perhaps nulls. This reads exactly that much JSON (strings with escapes,
 * and scalars or nested values skipped by bracket counting) without a
 * document, so the reporters need no parser.
 */
struct jcur {
	const char *p;
};

static void j_ws(struct jcur *c)
{
	while (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r')
		c->p++;
}

static int j_hex4(const char *p, uint32_t *v)
{
	int i;

	*v = 0;
	for (i = 0; i < 4; i++) {
		char ch = p[i];
		uint32_t d;

		if (ch >= '0' && ch <= '9')
			d = (uint32_t)(ch - '0');
		else if (ch >= 'a' && ch <= 'f')
			d = (uint32_t)(ch - 'a' + 10);
		else if (ch >= 'A' && ch <= 'F')
			d = (uint32_t)(ch - 'A' + 10);
		else
			return -1;
		*v = *v << 4 | d;
	}
	return 0;
}

/* Escapes of one character, by the letter after the backslash. */
static const char j_escapes[][2] = {
	{ '"', '"' }, { '\\', '\\' }, { '/', '/' }, { 'b', '\b' },
	{ 'f', '\f' }, { 'n', '\n' }, { 'r', '\r' }, { 't', '\t' },
};

/* Read a JSON string at c->p (on its quote) into 'out' (NULL: skip). */
static int j_string(struct jcur *c, struct sbuf *out)
{
	struct sbuf skip = SBUF_INIT;
	struct sbuf *o = out ? out : &skip;
	int rc = -1;

	if (*c->p++ != '"')
		return -1;
	while (*c->p && *c->p != '"') {
		char enc[4];
		uint32_t cp, lo;
		size_t k;

		if (*c->p != '\\') {
			sbuf_addc(o, *c->p++);
			continue;
		}
		c->p++;
		for (k = 0; k < sizeof j_escapes / sizeof j_escapes[0]; k++)
			if (j_escapes[k][0] == *c->p)
				break;
		if (k < sizeof j_escapes / sizeof j_escapes[0]) {
			sbuf_addc(o, j_escapes[k][1]);
			c->p++;
			continue;
		}
		if (*c->p != 'u' || j_hex4(c->p + 1, &cp) < 0)
			goto done;
		c->p += 5;
		if (cp >= 0xD800 && cp <= 0xDBFF && c->p[0] == '\\' &&
		    c->p[1] == 'u' && j_hex4(c->p + 2, &lo) == 0 &&
		    lo >= 0xDC00 && lo <= 0xDFFF) {
			cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
			c->p += 6;
		}
		k = utf8_encode(cp, enc);
		if (!k)
			k = utf8_encode(0xFFFD, enc);
		sbuf_add(o, enc, k);
	}
	if (*c->p == '"') {
		c->p++;
		rc = 0;
	}
done:
	sbuf_release(&skip);
	return rc;
}

/* Skip one value that is not a string at the top of the object. */
static int j_skip(struct jcur *c)
{
	int depth = 0;

	for (;;) {
		j_ws(c);
		if (*c->p == '"') {
			if (j_string(c, NULL) < 0)
				return -1;
		} else if (*c->p == '{' || *c->p == '[') {
			depth++;
			c->p++;
		} else if (*c->p == '}' || *c->p == ']') {
			if (depth == 0)
				return 0;
			depth--;
			c->p++;
		} else if (*c->p == ',') {
			if (depth == 0)
				return 0;
			c->p++;
		} else if (*c->p) {
			c->p++;
		} else {
			return -1;
		}
		if (depth == 0 && (*c->p == ',' || *c->p == '}'))
			return 0;
	}
}

int report_waiver_fields(const char *json, struct sbuf *owner,
			 struct sbuf *expires)
{
	struct jcur c = { json };
	struct sbuf key = SBUF_INIT, val = SBUF_INIT;
	int rc = -1, got = 0;

	j_ws(&c);
	if (*c.p++ != '{')
		goto done;
	for (;;) {
		j_ws(&c);
		if (*c.p == '}')
			break;
		sbuf_reset(&key);
		if (j_string(&c, &key) < 0)
			goto done;
		j_ws(&c);
		if (*c.p++ != ':')
			goto done;
		j_ws(&c);
		if (*c.p == '"') {
			sbuf_reset(&val);
			if (j_string(&c, &val) < 0)
				goto done;
			if (strcmp(sbuf_cstr(&key), "owner") == 0) {
				sbuf_add(owner, sbuf_cstr(&val), val.len);
				got |= 1;
			} else if (strcmp(sbuf_cstr(&key), "expires") == 0) {
				sbuf_add(expires, sbuf_cstr(&val), val.len);
				got |= 2;
			}
		} else if (j_skip(&c) < 0) {
			goto done;
		}
		j_ws(&c);
		if (*c.p == ',')
			c.p++;
		else if (*c.p != '}')
			goto done;
	}
	rc = got == 3 && !key.failed && !val.failed ? 0 : -1;
done:
	sbuf_release(&key);
	sbuf_release(&val);
	return rc;
}
