/*
 * argparse_int.h: what the parts of the option parser share (argparse.c
 * parses, argparse_value.c checks values, argparse_help.c writes help).
 * Nothing outside core/util/argparse*.c includes this header.
 */
#ifndef INFRAGATE_UTIL_ARGPARSE_INT_H
#define INFRAGATE_UTIL_ARGPARSE_INT_H

#include <stddef.h>

#include "core/util/argparse.h"
#include "core/util/diag.h"

#define AP_SHOW_MAX 64 /* bytes of a value quoted in a message */

/* A bounded text being built for a message. */
struct ap_text {
	char buf[DIAG_MSG_MAX];
	size_t len;
};

/* Append 's', cutting what does not fit. */
void ap_text_add(struct ap_text *t, const char *s);

/* 's' as quoted in a message: itself, or its first AP_SHOW_MAX bytes (cut
 * at a character boundary) and "..." written into 'out'. */
const char *ap_shown(const char *s, char out[AP_SHOW_MAX + 4]);

/* Record a usage error about argument 'arg' (err->path). Returns -1. */
int ap_usage(struct diag *err, const char *arg, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Check 'text' against the type and bounds of 'o' and fill 'v'. A bigint's
 * canonical text goes into res->storage. Returns 0, or -1 with 'err' set. */
int ap_convert(const struct ap_option *o, const char *text, struct ap_value *v,
	       struct ap_result *res, struct diag *err);

/* Whether the program has no verb words: its only verb is its default. */
int ap_no_verb_word(const struct ap_program *p);

/* Whether option i of verb v is a before_verb option whose name an earlier
 * verb (or an earlier option of v) already has: listed and matched once. */
int ap_before_seen(const struct ap_program *p, size_t v, size_t i);

#endif
