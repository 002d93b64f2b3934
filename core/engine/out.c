/*
 * out.c: the record a verb fills instead of printing, and the JSON error
 * document of spec/core.md 2.6 item 3 (all nine keys, always, in order).
 */
#include "core/engine/eng_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/lua/sandbox.h"
#include "core/re/re.h"

void engine_out_init(struct engine_out *o)
{
	memset(o, 0, sizeof *o);
	sbuf_init(&o->out);
	sbuf_init(&o->notes);
	findings_init(&o->errors, 0);
}

void engine_out_release(struct engine_out *o)
{
	sbuf_release(&o->out);
	sbuf_release(&o->notes);
	findings_release(&o->errors);
	free(o->argument);
	free(o->synopsis);
	o->argument = NULL;
	o->synopsis = NULL;
}

void engine_out_set_verb(struct engine_out *o, const char *name)
{
	if (!name) {
		o->verb = NULL;
		return;
	}
	snprintf(o->verb_buf, sizeof o->verb_buf, "%s", name);
	o->verb = o->verb_buf;
}

void engine_out_set_program(struct engine_out *o, const char *name)
{
	snprintf(o->program_buf, sizeof o->program_buf, "%s", name);
	o->program = o->program_buf;
}

void engine_out_usage(struct engine_out *o, const char *argument,
		      const char *fmt, ...)
{
	char msg[DIAG_MSG_MAX];
	struct finding f;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	memset(&f, 0, sizeof f);
	f.rule = "cli.usage";
	f.severity = SEV_ERROR;
	f.message = msg;
	f.document = -1;
	findings_add(&o->errors, &f);
	if (!o->argument && argument)
		o->argument = strdup(argument);
	o->usage = 1;
	o->exit_code = 2;
}

void engine_out_error(struct engine_out *o, const char *id, const char *file,
		      unsigned line, unsigned col, const char *path,
		      const char *fmt, ...)
{
	char msg[DIAG_MSG_MAX];
	struct finding f;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	memset(&f, 0, sizeof f);
	f.rule = id;
	f.severity = SEV_ERROR;
	f.message = msg;
	f.line = line;
	f.col = col;
	f.path = path;
	f.document = -1;
	f.file = file;
	findings_add(&o->errors, &f);
	o->exit_code = 2;
}

static void json_str_or_null(struct sbuf *b, const char *s)
{
	if (s)
		json_write_str(b, s, strlen(s));
	else
		sbuf_adds(b, "null");
}

void engine_error_document(const struct engine_out *o, const char *version,
			   struct sbuf *out)
{
	size_t i;

	sbuf_adds(out, "{\"tool\": \"infragate\", \"version\": ");
	json_write_str(out, version, strlen(version));
	sbuf_adds(out, ", \"verb\": ");
	json_str_or_null(out, o->verb);
	if (o->pack) {
		sbuf_adds(out, ", \"pack\": ");
		json_write_str(out, o->pack, strlen(o->pack));
	}
	sbuf_adds(out, ", \"errors\": [");
	for (i = 0; i < o->errors.n; i++) {
		const struct finding *f = &o->errors.items[i];

		if (i)
			sbuf_adds(out, ", ");
		sbuf_adds(out, "{\"id\": ");
		json_str_or_null(out, f->rule);
		sbuf_adds(out, ", \"rule\": ");
		json_str_or_null(out, f->rule);
		sbuf_adds(out, ", \"severity\": \"error\", \"message\": ");
		json_str_or_null(out, f->message);
		sbuf_adds(out, ", \"file\": ");
		json_str_or_null(out, f->file);
		if (f->line)
			sbuf_addf(out, ", \"line\": %u, \"column\": %u", f->line,
				  f->col);
		else
			sbuf_adds(out, ", \"line\": null, \"column\": null");
		sbuf_adds(out, ", \"path\": ");
		json_str_or_null(out, f->path);
		sbuf_adds(out, ", \"argument\": ");
		json_str_or_null(out, strcmp(f->rule, "cli.usage") == 0 ? o->argument
								       : NULL);
		sbuf_addc(out, '}');
	}
	sbuf_adds(out, "]}\n");
}

void engine_version_text(struct sbuf *out)
{
	char re[64];

	re_version(re, sizeof re);
	sbuf_addf(out, "infragate %s (libyaml %s, PCRE2 %s, %s)\n", ENGINE_VERSION,
		  yaml_library_version(), re, sandbox_lua_version());
}
