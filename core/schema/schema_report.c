/*
 * schema_report.c: turning one violation into one finding. The walk
 * (schema_validate.c) puts the message in c->msg and names the keyword and
 * the figures; this file says who the message is about (a member's name,
 * else its pointer, "the document" at the top, "key ..." for a key), builds
 * the figures object {keyword, limit, value} (limit and value only when
 * scalars; floats in repr, strings JSON-escaped), picks the id (the node's
 * `finding`, else the file's `findings`, else input.type) and the flags,
 * and appends the finding. In probe mode nothing is built; in capture mode
 * only the message is kept.
 */
#include "core/schema/schema_int.h"

#include <string.h>

#include "core/util/num.h"

#define MSG_MAX 1000 /* spec/core.md 8.1 */

const struct sch_fig sch_fig_none = { SF_NONE, NULL, 0, NULL, NULL };

void sch_subj_save(const struct sch_vctx *c, struct sch_subj *s)
{
	s->key = c->subj_key;
	s->name = c->subj_name;
	s->len = c->subj_len;
	s->plen = c->subj_plen;
}

void sch_subj_restore(struct sch_vctx *c, const struct sch_subj *s)
{
	c->subj_key = s->key;
	c->subj_name = s->name;
	c->subj_len = s->len;
	c->subj_plen = s->plen;
}

/* The subject of the next walk: a member 'key' (named when a string), or
 * a list item (by pointer). The path must already hold the child. */
void sch_subj_child(struct sch_vctx *c, const struct node *key)
{
	c->subj_key = NULL;
	c->subj_name = key && key->type == NODE_STR ? key->v.str.s : NULL;
	c->subj_len = key && key->type == NODE_STR ? key->v.str.len : 0;
	c->subj_plen = c->path.len;
}

void sch_add_subject(struct sch_vctx *c, struct sbuf *sb)
{
	if (c->subj_key) {
		sbuf_adds(sb, "key ");
		sch_add_value(sb, c->subj_key);
	} else if (c->subj_name) {
		sch_add_quoted(sb, c->subj_name, c->subj_len);
	} else if (c->subj_plen == 0) {
		sbuf_adds(sb, "the document");
	} else {
		sch_add_quoted(sb, c->path.buf, c->subj_plen);
	}
}

/* " in 'fault'" for messages about a mapping's members; nothing at the
 * document's top. */
void sch_add_in(struct sch_vctx *c, struct sbuf *sb)
{
	if (!c->subj_key && !c->subj_name && c->subj_plen == 0)
		return;
	sbuf_adds(sb, " in ");
	sch_add_subject(c, sb);
}

static void add_fig(struct sbuf *sb, const char *name, const struct sch_fig *f)
{
	char buf[NUM_REPR_MAX];
	size_t at = sb->len, n;

	if (f->kind == SF_NONE || (f->kind == SF_NODE && f->n &&
				  (f->n->type == NODE_LIST ||
				   f->n->type == NODE_MAP)))
		return;
	sbuf_adds(sb, ", \"");
	sbuf_adds(sb, name);
	sbuf_adds(sb, "\": ");
	switch (f->kind) {
	case SF_NODE:
		if (doc_json_write(sb, f->n) < 0)
			sbuf_truncate(sb, at);
		break;
	case SF_INT:
		n = num_int(f->i, buf);
		sbuf_add(sb, buf, n);
		break;
	case SF_BOUND:
		sch_add_bound(sb, f->b);
		break;
	case SF_STR:
		json_write_str(sb, f->s, strlen(f->s));
		break;
	case SF_BOOL:
		sbuf_adds(sb, f->i ? "true" : "false");
		break;
	default:
		break;
	}
}

int sch_out_of_memory(struct sch_vctx *c)
{
	diag_set(c->err, DIAG_E_NOMEM, 0, 0,
		 "out of memory while validating a document");
	return V_ERR;
}

/* Report the violation whose message is in c->msg, at node 'at', with the
 * current path; the id comes from the node's `finding`, else the file's
 * `findings`, else input.type. */
int sch_emit(struct sch_vctx *c, const struct sch_node *sn, enum sch_class cls,
		const char *keyword, const struct node *at,
		const struct sch_fig *limit, const struct sch_fig *value)
{
	const struct sch_id *id = sn->ids[cls] ? sn->ids[cls]
			       : c->s->ids[cls] ? c->s->ids[cls]
						: &sch_default_id;
	char cut[MSG_MAX + 1];
	struct finding f;
	struct finding *stored;

	if (c->mode == M_PROBE)
		return V_STOP;
	if (c->mode == M_CAPTURE) {
		sbuf_reset(&c->cap);
		sbuf_add(&c->cap, c->msg.buf, c->msg.len);
		return V_STOP;
	}
	sbuf_reset(&c->fig);
	sbuf_adds(&c->fig, "{\"keyword\": ");
	json_write_str(&c->fig, keyword, strlen(keyword));
	add_fig(&c->fig, "limit", limit);
	add_fig(&c->fig, "value", value);
	sbuf_addc(&c->fig, '}');
	if (c->msg.failed || c->fig.failed || c->path.failed)
		return sch_out_of_memory(c);
	memset(&f, 0, sizeof f);
	f.rule = id->id;
	f.severity = SEV_ERROR;
	f.message = sbuf_cstr(&c->msg);
	if (c->msg.len > MSG_MAX) {
		diag_copy_text(cut, sizeof cut, f.message);
		f.message = cut;
	}
	f.line = at->line;
	f.col = at->col;
	f.end_line = at->end_line;
	f.end_col = at->end_col;
	f.path = sbuf_cstr(&c->path);
	f.document = c->document;
	f.figures = sbuf_cstr(&c->fig);
	f.flags = FINDING_SCHEMA | (id->check_stage ? 0u : FINDING_UNUSABLE);
	stored = findings_add(c->out, &f);
	if (stored)
		c->added++;
	else if (c->out->failed)
		return sch_out_of_memory(c);
	/* Past the findings limit nothing more is kept: stop walking. */
	return c->out->truncated ? V_STOP : V_OK;
}

int sch_budget(struct sch_vctx *c, const struct sch_node *sn,
		  const struct node *v)
{
	struct sbuf sb = SBUF_INIT;

	sbuf_adds(&sb, "matching ");
	sch_add_subject(c, &sb);
	sbuf_adds(&sb, " against pattern ");
	sch_add_quoted(&sb, sn->pattern.s, sn->pattern.len);
	sbuf_adds(&sb, ": ");
	sbuf_adds(&sb, c->err->msg);
	diag_copy_text(c->err->msg, sizeof c->err->msg, sbuf_cstr(&sb));
	sbuf_release(&sb);
	c->err->line = v->line;
	c->err->col = v->col;
	c->err->end_line = v->end_line;
	c->err->end_col = v->end_col;
	diag_set_path(c->err, sbuf_cstr(&c->path));
	return V_ERR;
}

