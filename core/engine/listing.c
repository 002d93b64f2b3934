/*
 * listing.c: `infragate rules` and `infragate models` (spec/core.md 13,
 * 14). Rules come from the packs' own registrations and the core id table;
 * models from the C descriptors that the Lua binding uses, so the listing
 * cannot drift from the code.
 */
#include "core/engine/eng_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine/options.h"
#include "core/models/model.h"
#include "core/util/names.h"
#include "core/util/num.h"
#include "core/util/readfile.h"

static void jstr(struct sbuf *b, const char *s)
{
	if (s)
		json_write_str(b, s, strlen(s));
	else
		sbuf_adds(b, "null");
}

/* The README section of 'id': from its "### id" heading to the next
 * heading of the same or a higher level. Returns a malloc'd string or
 * NULL. */
char *readme_section(const char *readme_path, const char *id)
{
	struct diag err;
	char *buf = NULL, *out = NULL;
	const char *p, *start = NULL, *end;
	size_t len, idlen = strlen(id);

	diag_init(&err);
	if (readfile(readme_path, "README.md", 8 << 20, &buf, &len, &err) < 0)
		return NULL;
	for (p = buf; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		const char *eol = strchr(p, '\n');
		size_t ll = eol ? (size_t)(eol - p) : strlen(p);

		while (ll && (p[ll - 1] == ' ' || p[ll - 1] == '\r'))
			ll--;
		if (!start) {
			if (ll == 4 + idlen && strncmp(p, "### ", 4) == 0 &&
			    strncmp(p + 4, id, idlen) == 0)
				start = p;
			continue;
		}
		if (p[0] == '#' && (strncmp(p, "# ", 2) == 0 || strncmp(p, "## ", 3) == 0 ||
				    strncmp(p, "### ", 4) == 0))
			break;
	}
	if (start) {
		end = p ? p : start + strlen(start);
		out = strndup(start, (size_t)(end - start));
		len = out ? strlen(out) : 0;
		while (len && (out[len - 1] == '\n' || out[len - 1] == ' '))
			out[--len] = '\0';
	}
	free(buf);
	return out;
}

static void rule_json(struct sbuf *b, const struct rule_info *r)
{
	size_t i;

	sbuf_adds(b, "{\"id\": ");
	jstr(b, r->id);
	sbuf_adds(b, ", \"pack\": ");
	jstr(b, r->pack);
	sbuf_adds(b, ", \"severity\": ");
	jstr(b, severity_name(r->severity));
	sbuf_addf(b, ", \"strict\": %s, \"stage\": \"%s\", \"kinds\": [",
		  r->strict ? "true" : "false", r->input_stage ? "input" : "check");
	for (i = 0; i < r->nkinds; i++) {
		if (i)
			sbuf_adds(b, ", ");
		jstr(b, r->kinds[i]);
	}
	sbuf_adds(b, "], \"summary\": ");
	jstr(b, r->summary);
	sbuf_adds(b, ", \"description\": ");
	jstr(b, r->description);
	sbuf_adds(b, ", \"rationale\": ");
	jstr(b, r->rationale);
	sbuf_adds(b, ", \"fix\": ");
	jstr(b, r->fix);
	sbuf_adds(b, ", \"help_uri\": ");
	jstr(b, r->help_uri);
	sbuf_adds(b, ", \"tags\": [");
	for (i = 0; i < r->ntags; i++) {
		if (i)
			sbuf_adds(b, ", ");
		jstr(b, r->tags[i]);
	}
	sbuf_adds(b, "]}");
}

static int load_packs(struct worker *w, const struct ap_result *res,
		      struct engine_out *o)
{
	struct engine *e = w->e;
	size_t i;

	if (res->noperands) {
		for (i = 0; i < res->noperands; i++) {
			if (!engine_pack(e, res->operands[i])) {
				engine_out_usage(o, "PACK", "there is no pack '%s'",
						 res->operands[i]);
				return -1;
			}
			if (worker_load_pack(w, res->operands[i],
					     SB_LOAD_PACK | SB_LOAD_COMMANDS) < 0)
				goto fatal;
		}
		return 0;
	}
	for (i = 0; i < e->npacks; i++)
		if (worker_load_pack(w, e->packs[i].name,
				     SB_LOAD_PACK | SB_LOAD_COMMANDS) < 0)
			goto fatal;
	return 0;
fatal:
	worker_fatal_out(w, o, NULL);
	return -1;
}

static void explain_text(struct sbuf *out, const struct rule_info *r,
			 const char *text, const char *readme)
{
	sbuf_addf(out, "%s\n", r->id);
	sbuf_addf(out, "  pack:      %s\n", r->pack ? r->pack : "(core)");
	sbuf_addf(out, "  severity:  %s\n", severity_name(r->severity));
	if (r->pack) {
		sbuf_addf(out, "  stage:     %s\n", r->input_stage ? "input" : "check");
		sbuf_addf(out, "  strict:    %s\n", r->strict ? "yes" : "no");
	}
	if (r->nkinds) {
		size_t i;

		sbuf_adds(out, "  kinds:    ");
		for (i = 0; i < r->nkinds; i++)
			sbuf_addf(out, " %s", r->kinds[i]);
		sbuf_addc(out, '\n');
	}
	sbuf_addf(out, "  summary:   %s\n", r->summary);
	if (r->description)
		sbuf_addf(out, "  description: %s\n", r->description);
	if (r->rationale)
		sbuf_addf(out, "  rationale: %s\n", r->rationale);
	if (r->fix)
		sbuf_addf(out, "  fix:       %s\n", r->fix);
	if (r->help_uri)
		sbuf_addf(out, "  help:      %s\n", r->help_uri);
	if (text)
		sbuf_addf(out, "\n%s\n", text);
	if (readme)
		sbuf_addf(out, "\n%s\n", readme);
}

static const struct rule_info *closest(struct sandbox *sb, const char *id,
				       struct sbuf *hint)
{
	const struct rule_info *const *all;
	size_t n = sandbox_rules(sb, &all), i, shown = 0;
	size_t len = strlen(id);

	for (i = 0; i < n && shown < 5; i++) {
		const char *dot = strrchr(id, '.');

		if ((dot && strncmp(all[i]->id, id, (size_t)(dot - id)) == 0) ||
		    strncmp(all[i]->id, id, len / 2) == 0) {
			sbuf_addf(hint, "%s%s", shown ? ", " : "", all[i]->id);
			shown++;
		}
	}
	return NULL;
}

int engine_rules(struct engine *e, const struct ap_result *res,
		 struct engine_out *o)
{
	const char *explain = opt_text(res, "--explain");
	const char *fmt = opt_text(res, "--format");
	int json = fmt && strcmp(fmt, "json") == 0;
	const struct rule_info *const *all;
	struct worker w;
	size_t n, i, k;
	int rc = -1;

	o->verb = "rules";
	o->program = "infragate rules";
	o->json = json;
	worker_init(&w, e);
	if (load_packs(&w, res, o) < 0)
		goto done;
	n = sandbox_rules(w.sb, &all);
	if (explain) {
		const struct rule_info *r = core_id_info(explain);
		char *readme = NULL;
		char path[4096];

		if (!r)
			r = sandbox_rule(w.sb, explain);
		if (!r) {
			struct sbuf hint = SBUF_INIT;

			closest(w.sb, explain, &hint);
			engine_out_usage(o, "--explain", "no rule or core id '%s'%s%s%s",
					 explain, hint.len ? " (close: " : "",
					 sbuf_cstr(&hint), hint.len ? ")" : "");
			sbuf_release(&hint);
			goto done;
		}
		if (r->pack) {
			const struct packref *p = engine_pack(e, r->pack);

			snprintf(path, sizeof path, "%s/README.md", p->dir);
			readme = readme_section(path, r->id);
		}
		if (json) {
			sbuf_adds(&o->out, "{\"tool\": \"infragate\", \"version\": ");
			jstr(&o->out, ENGINE_VERSION);
			sbuf_adds(&o->out, ", \"verb\": \"rules\", \"rules\": [");
			rule_json(&o->out, r);
			sbuf_adds(&o->out, "], \"readme\": ");
			jstr(&o->out, readme ? readme : core_id_explanation(r->id));
			sbuf_adds(&o->out, "}\n");
		} else {
			explain_text(&o->out, r, core_id_explanation(r->id), readme);
		}
		free(readme);
		o->exit_code = 0;
		rc = 0;
		goto done;
	}
	if (json) {
		sbuf_adds(&o->out, "{\"tool\": \"infragate\", \"version\": ");
		jstr(&o->out, ENGINE_VERSION);
		sbuf_adds(&o->out, ", \"verb\": \"rules\", \"packs\": [");
		for (i = 0, k = 0; i < e->npacks; i++) {
			const struct sb_pack_info *pi = sandbox_pack_info(w.sb, e->packs[i].name);
			size_t j, nk = 0;

			if (!pi)
				continue;
			if (k++)
				sbuf_adds(&o->out, ", ");
			sbuf_adds(&o->out, "{\"name\": ");
			jstr(&o->out, pi->name);
			sbuf_adds(&o->out, ", \"version\": ");
			jstr(&o->out, pi->version);
			sbuf_addf(&o->out, ", \"origin\": \"%s\", \"path\": ",
				  e->packs[i].site ? "site" : "shipped");
			jstr(&o->out, e->packs[i].chunk_dir);
			sbuf_adds(&o->out, ", \"kinds\": [");
			for (j = 0; j < e->nkinds; j++)
				if (strcmp(e->kinds[j].pack, pi->name) == 0) {
					if (nk++)
						sbuf_adds(&o->out, ", ");
					jstr(&o->out, e->kinds[j].name);
				}
			sbuf_adds(&o->out, "]}");
		}
		sbuf_adds(&o->out, "], \"programs\": [");
		for (i = 0; i < linked_programs_count; i++) {
			if (i)
				sbuf_adds(&o->out, ", ");
			sbuf_adds(&o->out, "{\"name\": ");
			jstr(&o->out, linked_programs[i].name);
			sbuf_adds(&o->out, ", \"pack\": ");
			jstr(&o->out, linked_programs[i].pack);
			sbuf_adds(&o->out, ", \"link\": true}");
		}
		for (i = 0; i < e->npacks; i++)
			if (e->packs[i].has_commands &&
			    !linked_program_of_pack(e->packs[i].name)) {
				sbuf_adds(&o->out, ", {\"name\": ");
				jstr(&o->out, e->packs[i].name);
				sbuf_adds(&o->out, ", \"pack\": ");
				jstr(&o->out, e->packs[i].name);
				sbuf_adds(&o->out, ", \"link\": false}");
			}
		sbuf_adds(&o->out, "], \"services\": [");
		{
			const char *const *sv = sandbox_services();

			for (k = 0; sv[k]; k++) {
				if (k)
					sbuf_adds(&o->out, ", ");
				jstr(&o->out, sv[k]);
			}
		}
		sbuf_adds(&o->out, "], \"rules\": [");
		for (i = 0; i < n; i++) {
			if (i)
				sbuf_adds(&o->out, ", ");
			rule_json(&o->out, all[i]);
		}
		sbuf_adds(&o->out, "]}\n");
	} else {
		const char *last = NULL;

		for (i = 0; i < n; i++) {
			const struct rule_info *r = all[i];
			size_t j;

			if (!last || strcmp(last, r->pack) != 0) {
				const struct sb_pack_info *pi = sandbox_pack_info(w.sb, r->pack);

				sbuf_addf(&o->out, "%s%s %s: %s\n", last ? "\n" : "", r->pack,
					  pi ? pi->version : "", pi ? pi->summary : "");
				last = r->pack;
			}
			sbuf_addf(&o->out, "  %-44s %-7s%s ", r->id,
				  severity_name(r->severity), r->strict ? " strict" : "");
			for (j = 0; j < r->nkinds; j++)
				sbuf_addf(&o->out, "%s%s", j ? "," : "[", r->kinds[j]);
			sbuf_addf(&o->out, "%s %s\n", r->nkinds ? "]" : "", r->summary);
		}
	}
	o->exit_code = 0;
	rc = 0;
done:
	worker_release(&w);
	return rc;
}

/* ---- models -------------------------------------------------------------------- */

static int model_selected(const struct model *m, const struct ap_result *res)
{
	size_t i, len;

	if (!res->noperands)
		return 1;
	for (i = 0; i < res->noperands; i++) {
		len = strlen(res->operands[i]);
		if (strcmp(m->name, res->operands[i]) == 0 ||
		    (strncmp(m->name, res->operands[i], len) == 0 && m->name[len] == '.'))
			return 1;
	}
	return 0;
}

static void dflt_json(struct sbuf *b, double v)
{
	char buf[NUM_REPR_MAX];

	if (isnan(v)) {
		sbuf_adds(b, "null");
		return;
	}
	num_repr(v, buf);
	sbuf_adds(b, buf);
}

int engine_models(struct engine *e, const struct ap_result *res,
		  struct engine_out *o)
{
	const char *fmt = opt_text(res, "--format");
	int json = fmt && strcmp(fmt, "json") == 0;
	size_t i, j, shown = 0;
	char dom[128];

	(void)e;
	o->verb = "models";
	o->program = "infragate models";
	o->json = json;
	for (i = 0; i < res->noperands; i++) {
		size_t k, found = 0;

		for (k = 0; k < models_count; k++) {
			struct ap_result one = *res;

			one.operands = &res->operands[i];
			one.noperands = 1;
			found |= (size_t)model_selected(models_all[k], &one);
		}
		if (!found) {
			engine_out_usage(o, "NAME", "no model or model group '%s'",
					 res->operands[i]);
			return -1;
		}
	}
	if (json) {
		sbuf_adds(&o->out, "{\"tool\": \"infragate\", \"version\": ");
		jstr(&o->out, ENGINE_VERSION);
		sbuf_adds(&o->out, ", \"verb\": \"models\", \"models\": [");
	}
	for (i = 0; i < models_count; i++) {
		const struct model *m = models_all[i];
		const char *dot = strchr(m->name, '.');

		if (!model_selected(m, res))
			continue;
		if (json) {
			if (shown)
				sbuf_adds(&o->out, ", ");
			sbuf_adds(&o->out, "{\"name\": ");
			jstr(&o->out, m->name);
			sbuf_adds(&o->out, ", \"pack\": ");
			if (dot) {
				json_write_str(&o->out, m->name, (size_t)(dot - m->name));
			} else {
				sbuf_adds(&o->out, "null");
			}
			sbuf_adds(&o->out, ", \"summary\": ");
			jstr(&o->out, m->summary);
			sbuf_adds(&o->out, ", \"args\": [");
			if (m->table_input) {
				sbuf_adds(&o->out, "{\"name\": \"table\", \"unit\": null, \"default\": null, \"domain\": ");
				jstr(&o->out, m->table_input);
				sbuf_addc(&o->out, '}');
			}
			for (j = 0; j < m->nargs; j++) {
				const struct model_arg *a = &m->args[j];

				if (j || m->table_input)
					sbuf_adds(&o->out, ", ");
				sbuf_adds(&o->out, "{\"name\": ");
				jstr(&o->out, a->name);
				sbuf_adds(&o->out, ", \"unit\": ");
				jstr(&o->out, a->unit);
				sbuf_adds(&o->out, ", \"default\": ");
				dflt_json(&o->out, a->dflt);
				model_domain_text(a, dom, sizeof dom);
				sbuf_adds(&o->out, ", \"domain\": ");
				jstr(&o->out, dom);
				sbuf_addc(&o->out, '}');
			}
			sbuf_adds(&o->out, "], \"result\": {\"unit\": ");
			jstr(&o->out, m->result_unit);
			sbuf_addf(&o->out, ", \"type\": \"%s\"}}",
				  m->nout > 1 && m->outs ? "table" : "number");
		} else {
			sbuf_addf(&o->out, "%s: %s\n", m->name, m->summary);
			if (m->table_input)
				sbuf_addf(&o->out, "  table: %s\n", m->table_input);
			for (j = 0; j < m->nargs; j++) {
				const struct model_arg *a = &m->args[j];
				char d[NUM_REPR_MAX];

				model_domain_text(a, dom, sizeof dom);
				if (!isnan(a->dflt))
					num_repr(a->dflt, d);
				sbuf_addf(&o->out, "  %-22s %-10s %-22s%s%s\n", a->name,
					  a->unit ? a->unit : "", dom,
					  isnan(a->dflt) ? "" : " default ",
					  isnan(a->dflt) ? "" : d);
			}
			sbuf_addf(&o->out, "  -> %s\n", m->result_unit ? m->result_unit : "");
		}
		shown++;
	}
	if (json)
		sbuf_adds(&o->out, "]}\n");
	else if (!shown)
		sbuf_adds(&o->out, "no models in this build\n");
	o->exit_code = 0;
	return 0;
}
