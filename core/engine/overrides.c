/*
 * overrides.c: what a configuration decides for one file, once a rule has
 * spoken: its strict mode and each finding's severity (spec/core.md 3.2,
 * 3.3), with "off" dropping a finding before suppression, waivers or
 * baselines see it. Also the small vocabulary the policy files share: rule
 * id patterns, the ids no policy may touch, and calendar dates, including
 * the one read of the system clock in the program (policy_today()).
 */
#include "core/engine/policy.h"

#include <string.h>
#include <time.h>

/* The id prefixes that mean "the file could not be checked". */
static const char *const core_prefixes[] = {"input.", "engine.", "cli."};

int policy_id_core(const char *id)
{
	size_t i;

	for (i = 0; i < sizeof core_prefixes / sizeof core_prefixes[0]; i++)
		if (strncmp(id, core_prefixes[i], strlen(core_prefixes[i])) ==
		    0)
			return 1;
	return 0;
}

int policy_id_match(const char *pattern, const char *id)
{
	size_t n = strlen(pattern);

	if (n >= 2 && pattern[n - 1] == '*' && pattern[n - 2] == '.')
		return strncmp(pattern, id, n - 1) == 0 && id[n - 1] != '\0';
	return strcmp(pattern, id) == 0;
}

static int kebab_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

int policy_id_valid(const char *s, size_t len, int prefix)
{
	size_t i, segs = 0;

	if (prefix && len >= 2 && s[len - 2] == '.' && s[len - 1] == '*')
		len -= 2;
	else
		prefix = 0;
	/* segment ('.' segment)*, segment = [a-z0-9]+ ('-' [a-z0-9]+)* */
	for (i = 0; i < len; segs++) {
		if (!kebab_char(s[i]))
			return 0;
		while (i < len && s[i] != '.') {
			if (s[i] == '-' &&
			    (i + 1 >= len || !kebab_char(s[i + 1])))
				return 0;
			if (s[i] != '-' && !kebab_char(s[i]))
				return 0;
			i++;
		}
		if (i < len && ++i == len)
			return 0; /* a trailing '.' */
	}
	/* A whole id has a pack and a name; a prefix needs only the pack. */
	return prefix ? segs >= 1 : segs >= 2;
}

int policy_rule_glob_match(const char *p, const char *s)
{
	const char *star_p = NULL, *star_s = NULL;

	while (*s) {
		if (*p == '*') {
			star_p = ++p;
			star_s = s;
		} else if (*p && *p == *s) {
			p++;
			s++;
		} else if (star_p) {
			p = star_p;
			s = ++star_s;
		} else {
			return 0;
		}
	}
	while (*p == '*')
		p++;
	return *p == '\0';
}

/*
 * The entry of 'rules' that decides for 'id': the exact id (the later one
 * if repeated), else the longest matching glob, the later of equals.
 * Returns NULL when none matches.
 */
static const struct config_rule *rules_pick(const struct config_rules *r,
					    const char *id)
{
	const struct config_rule *best = NULL, *e;
	size_t i, best_len = 0, n;

	for (i = 0; i < r->n; i++) {
		e = &r->items[i];
		if (!e->glob) {
			if (strcmp(e->pattern, id) == 0) {
				best = e;
				best_len = (size_t)-1;
			}
			continue;
		}
		n = strlen(e->pattern);
		if (best_len != (size_t)-1 && n >= best_len &&
		    policy_rule_glob_match(e->pattern, id)) {
			best = e;
			best_len = n;
		}
	}
	return best;
}

static int override_applies(const struct config_override *o,
			    const char *relpath)
{
	return glob_match_any(o->files.items, o->files.n, relpath);
}

int config_strict(const struct config *c, const char *relpath, int cli,
		  int dflt)
{
	size_t i;

	if (cli >= 0)
		return cli;
	if (!c)
		return dflt;
	for (i = c->noverrides; i-- > 0;)
		if (c->overrides[i].strict >= 0 &&
		    override_applies(&c->overrides[i], relpath))
			return c->overrides[i].strict;
	return c->strict >= 0 ? c->strict : dflt;
}

enum severity config_severity(const struct config *c,
			      const struct config_rules *cli,
			      const char *relpath, const char *id,
			      enum severity dflt)
{
	const struct config_rule *e;
	size_t i;

	if (policy_id_core(id))
		return dflt;
	if (cli && (e = rules_pick(cli, id)))
		return e->sev;
	if (!c)
		return dflt;
	for (i = c->noverrides; i-- > 0;)
		if (override_applies(&c->overrides[i], relpath) &&
		    (e = rules_pick(&c->overrides[i].rules, id)))
			return e->sev;
	e = rules_pick(&c->rules, id);
	return e ? e->sev : dflt;
}

size_t policy_apply_severity(const struct config *c,
			     const struct config_rules *cli,
			     const char *relpath, struct findings *fs)
{
	size_t i, kept = 0, dropped;
	enum severity s;

	for (i = 0; i < fs->n; i++) {
		struct finding *f = &fs->items[i];

		s = config_severity(c, cli, relpath, f->rule, f->severity);
		if (s == SEV_NONE)
			continue;
		f->severity = s;
		if (kept != i)
			fs->items[kept] = *f;
		kept++;
	}
	dropped = fs->n - kept;
	fs->n = kept;
	return dropped;
}

/* ---- dates ------------------------------------------------------------- */

static int days_in_month(int y, int m)
{
	static const int days[] = {31, 28, 31, 30, 31, 30,
				   31, 31, 30, 31, 30, 31};
	int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;

	return m == 2 && leap ? 29 : days[m - 1];
}

/* The number of decimal digits s[0..n) or -1 when one is not a digit. */
static int digits(const char *s, size_t n)
{
	int v = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

int policy_date_parse(const char *s, size_t len, int32_t *ymd)
{
	int y, m, d;

	if (len != 10 || s[4] != '-' || s[7] != '-')
		return -1;
	y = digits(s, 4);
	m = digits(s + 5, 2);
	d = digits(s + 8, 2);
	if (y < 1 || m < 1 || m > 12 || d < 1 || d > days_in_month(y, m))
		return -1;
	*ymd = (int32_t)(y * 10000 + m * 100 + d);
	return 0;
}

void policy_date_text(int32_t ymd, char out[POLICY_DATE_LEN])
{
	int y = (int)(ymd / 10000), m = (int)(ymd / 100 % 100),
	    d = (int)(ymd % 100), i;

	if (y < 0 || y > 9999)
		y = 0;
	for (i = 3; i >= 0; i--, y /= 10)
		out[i] = (char)('0' + y % 10);
	out[4] = '-';
	out[5] = (char)('0' + m / 10);
	out[6] = (char)('0' + m % 10);
	out[7] = '-';
	out[8] = (char)('0' + d / 10);
	out[9] = (char)('0' + d % 10);
	out[10] = '\0';
}

int policy_today(const char *flag, const char *env, int32_t *ymd,
		 struct diag *err)
{
	const char *src = NULL, *name = NULL;
	struct tm tm;
	time_t now;

	if (flag) {
		src = flag;
		name = "--today";
	} else if (env && *env) {
		src = env;
		name = "INFRAGATE_TODAY";
	}
	if (src) {
		if (policy_date_parse(src, strlen(src), ymd) == 0)
			return 0;
		diag_set(err, DIAG_E_USAGE, 0, 0,
			 "invalid date '%s' for %s; expected a real date "
			 "YYYY-MM-DD",
			 src, name);
		diag_set_path(err, name);
		return -1;
	}
	now = time(NULL);
	if (now == (time_t)-1 || !gmtime_r(&now, &tm)) {
		diag_set(err, DIAG_E_USAGE, 0, 0,
			 "cannot read the system clock; give --today");
		diag_set_path(err, "--today");
		return -1;
	}
	*ymd = (int32_t)((tm.tm_year + 1900) * 10000 + (tm.tm_mon + 1) * 100 +
			 tm.tm_mday);
	return 0;
}
