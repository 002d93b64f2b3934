/*
 * names.h: the fixed names of the command line: the five linked programs
 * and the packs that own them, and the words no pack may take. They are a
 * table because they are installed as links and cannot depend on what a
 * pack declares (spec/core.md 2.1).
 */
#ifndef INFRAGATE_UTIL_NAMES_H
#define INFRAGATE_UTIL_NAMES_H

#include <stddef.h>

struct linked_program {
	const char *name; /* "pue-ladder" */
	const char *pack; /* "cooling" */
};

/* The five linked programs, in listing order. */
extern const struct linked_program linked_programs[];
extern const size_t linked_programs_count;

/* The pack that owns linked program 'name', or NULL when it is not one. */
const char *linked_program_pack(const char *name);

/* The linked program a pack owns, or NULL. */
const char *linked_program_of_pack(const char *pack);

/* Whether 'name' is a native verb or another word no pack may take
 * (lint, validate, test, rules, models, help, version). */
int name_is_reserved(const char *name);

/* Whether 'name' is a valid pack name: [a-z][a-z0-9]*(-[a-z0-9]+)* */
int name_is_pack(const char *name);

/* Levenshtein distance of two short strings (for "did you mean"); 99 for
 * strings over 63 bytes. */
size_t name_distance(const char *a, const char *b);

#endif
