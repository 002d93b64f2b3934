/*
 * program.c: running a pack's program (spec/core.md 2.1, 5.9): load the
 * pack with its commands, parse the command line against the verbs it
 * declared, run the verb, and turn its buffered output into the result or
 * the error output. Nothing of a failed verb's output reaches stdout.
 */
#include "core/engine/eng_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util/names.h"

void engine_json_envelope(struct sbuf *out, const char *verb,
			  const char *members_object)
{
	const char *m = members_object ? members_object : "{}";
	size_t len = strlen(m);

	sbuf_adds(out, "{\"tool\": \"infragate\", \"version\": ");
	json_write_str(out, ENGINE_VERSION, strlen(ENGINE_VERSION));
	sbuf_adds(out, ", \"verb\": ");
	if (verb)
		json_write_str(out, verb, strlen(verb));
	else
		sbuf_adds(out, "null");
	/* The object's members follow the envelope, in the object's order. */
	if (len > 2 && m[0] == '{') {
		sbuf_adds(out, ", ");
		sbuf_add(out, m + 1, len - 1);
	} else {
		sbuf_addc(out, '}');
	}
	sbuf_addc(out, '\n');
}

static const char *program_pack(const struct engine *e, const char *name)
{
	const char *p = linked_program_pack(name);
	const struct packref *pr;

	if (p)
		return p;
	pr = engine_pack(e, name);
	if (pr && pr->has_commands && !linked_program_of_pack(name))
		return pr->name;
	return NULL;
}

int engine_has_program(struct engine *e, const char *name)
{
	return program_pack(e, name) != NULL;
}

void engine_list_programs(struct engine *e, struct sbuf *out)
{
	size_t i;

	for (i = 0; i < linked_programs_count; i++)
		sbuf_addf(out, "  %-18s %s pack\n", linked_programs[i].name,
			  linked_programs[i].pack);
	for (i = 0; i < e->npacks; i++)
		if (e->packs[i].has_commands &&
		    !linked_program_of_pack(e->packs[i].name))
			sbuf_addf(out, "  %-18s %s pack (infragate %s)\n",
				  e->packs[i].name, e->packs[i].name, e->packs[i].name);
}

static void copy_errors(struct engine_out *o, const struct sb_output *so)
{
	size_t i;

	for (i = 0; i < so->errors.n; i++)
		findings_add(&o->errors, &so->errors.items[i]);
	if (so->usage) {
		o->usage = 1;
		free(o->argument);
		o->argument = so->usage_argument ? strdup(so->usage_argument) : NULL;
	}
}

int engine_program(struct engine *e, const char *name, int argc, char **argv,
		   struct engine_out *o)
{
	const char *pack = program_pack(e, name), *fmt;
	const struct ap_program *prog;
	const struct packref *pr;
	struct sbuf prefix = SBUF_INIT;
	struct sb_output so;
	struct ap_result res;
	struct worker w;
	struct diag err;
	int rc = 0;

	engine_out_set_program(o, name);
	if (!pack) {
		engine_out_usage(o, "command", "there is no program '%s'", name);
		return -1;
	}
	/* The research-model programs (`infragate reliability ...`) name
	 * their pack in every document, error documents included; the
	 * drop-in programs keep the published tools' envelopes. */
	if (!linked_program_pack(name)) {
		snprintf(o->pack_buf, sizeof o->pack_buf, "%s", pack);
		o->pack = o->pack_buf;
	}
	pr = engine_pack(e, pack);
	fmt = ap_scan_format(argc, argv, 0);
	o->json = fmt && strcmp(fmt, "json") == 0;
	if (!pr || !pr->has_commands) {
		engine_out_error(o, "engine.pack", NULL, 0, 0, NULL,
				 "'%s' belongs to the %s pack, which is not in this build",
				 name, pack);
		return -1;
	}
	worker_init(&w, e);
	memset(&res, 0, sizeof res);
	sb_output_init(&so);
	/* A verb's run compiles rules.lua only if it reads rules (a check, a
	 * report, a schema naming a rule id): most verbs never do. */
	if (worker_load_pack(&w, pack, SB_LOAD_PACK | SB_LOAD_COMMANDS | SB_DEFER_RULES) < 0) {
		worker_fatal_out(&w, o, "engine.pack");
		rc = -1;
		goto done;
	}
	prog = sandbox_program(w.sb, pack);
	if (!prog || prog->nverbs == 0) {
		engine_out_error(o, "engine.pack", NULL, 0, 0, NULL,
				 "pack '%s' declares no program verbs", pack);
		rc = -1;
		goto done;
	}
	diag_init(&err);
	if (sandbox_complete_verbs(w.sb, pack, argc, argv, &err) < 0) {
		size_t i;

		/* The verb named first is the one whose module failed. */
		for (i = 0; argc > 0 && i < prog->nverbs; i++)
			if (strcmp(prog->verbs[i].name, argv[0]) == 0)
				engine_out_set_verb(o, argv[0]);
		engine_out_error(o, diag_id(&err), NULL, 0, 0, NULL, "%s", err.msg);
		rc = -1;
		goto done;
	}
	/* With abbreviations allowed, --form json is --format json too. */
	fmt = ap_scan_format(argc, argv, prog->syntax.abbrev == AP_UNIQUE_PREFIX);
	o->json = fmt && strcmp(fmt, "json") == 0;
	diag_init(&err);
	if (ap_parse(prog, argc, argv, &res, &err) < 0) {
		struct sbuf syn = SBUF_INIT;

		engine_out_set_verb(o, res.verb ? res.verb->name : NULL);
		if (res.verb) {
			sbuf_addf(&prefix, "%s %s", name, res.verb->name);
			engine_out_set_program(o, sbuf_cstr(&prefix));
		}
		ap_synopsis(prog, res.verb, &syn);
		o->synopsis = sbuf_detach(&syn, NULL);
		engine_out_usage(o, err.path[0] ? err.path : "command", "%s", err.msg);
		rc = -1;
		goto done;
	}
	/* Program-level help has no verb. */
	if (res.help) {
		ap_help(prog, res.verb, &o->out);
		o->exit_code = 0;
		goto done;
	}
	if (!res.verb) {
		engine_out_usage(o, "command", "no command given");
		rc = -1;
		goto done;
	}
	engine_out_set_verb(o, res.verb->name);
	sbuf_addf(&prefix, "%s %s", name, res.verb->name);
	engine_out_set_program(o, sbuf_cstr(&prefix));
	if (sandbox_run_verb(w.sb, pack, &res, &so, &err) < 0) {
		engine_out_error(o, diag_id(&err), NULL, 0, 0, NULL, "%s", err.msg);
		rc = -1;
		goto done;
	}
	sbuf_add(&o->notes, sbuf_cstr(&so.notes), so.notes.len);
	if (so.errors.n) {
		copy_errors(o, &so);
		if (o->usage) {
			struct sbuf syn = SBUF_INIT;

			ap_synopsis(prog, res.verb, &syn);
			o->synopsis = sbuf_detach(&syn, NULL);
		}
		o->exit_code = 2;
		rc = -1;
		goto done;
	}
	if (so.has_json)
		engine_json_envelope(&o->out, res.verb->name, sbuf_cstr(&so.json));
	else
		sbuf_add(&o->out, sbuf_cstr(&so.out), so.out.len);
	o->exit_code = so.exit_code;
done:
	/* A shipped schema that failed to load when the verb first looked a
	 * kind up is the run's real problem: what the verb or the pack made of
	 * the missing kind ("unknown kind") is only its echo, so it replaces
	 * them. */
	if (engine_kinds_failure(e, NULL)) {
		findings_release(&o->errors);
		findings_init(&o->errors, 0);
		engine_kinds_failure(e, o);
		sbuf_reset(&o->out);
		rc = -1;
	} else if (w.sb && sandbox_rules_failure(w.sb, &err)) {
		/* The same holds for a deferred rules.lua that failed when the
		 * verb first looked a rule up. */
		findings_release(&o->errors);
		findings_init(&o->errors, 0);
		sbuf_reset(&o->out);
		engine_out_error(o, err.id[0] ? err.id : "engine.pack",
				 err.file[0] ? err.file : NULL, err.line, err.col, NULL,
				 "%s", err.msg);
		rc = -1;
	}
	sbuf_release(&prefix);
	sb_output_release(&so);
	ap_result_release(&res);
	worker_release(&w);
	return rc;
}
