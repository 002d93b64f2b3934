/*
 * names.c: the program-name table and name grammars.
 */
#include "core/util/names.h"

#include <string.h>

const struct linked_program linked_programs[] = {
	{ "chaos-fidelity", "chaos" },
	{ "promotion-gate", "promotion" },
	{ "edge-placement", "placement" },
	{ "airan-resiliency", "resiliency" },
	{ "pue-ladder", "cooling" },
};

const size_t linked_programs_count =
	sizeof linked_programs / sizeof linked_programs[0];

const char *linked_program_pack(const char *name)
{
	size_t i;

	for (i = 0; i < linked_programs_count; i++)
		if (strcmp(linked_programs[i].name, name) == 0)
			return linked_programs[i].pack;
	return NULL;
}

const char *linked_program_of_pack(const char *pack)
{
	size_t i;

	for (i = 0; i < linked_programs_count; i++)
		if (strcmp(linked_programs[i].pack, pack) == 0)
			return linked_programs[i].name;
	return NULL;
}

int name_is_reserved(const char *name)
{
	static const char *const reserved[] = { "lint", "validate", "test",
						"rules", "models", "help",
						"version", "infragate", NULL };
	size_t i;

	for (i = 0; reserved[i]; i++)
		if (strcmp(reserved[i], name) == 0)
			return 1;
	return 0;
}

int name_is_pack(const char *name)
{
	const char *p = name;

	if (*p < 'a' || *p > 'z')
		return 0;
	for (p++; *p; p++) {
		if (*p == '-') {
			if (!((p[1] >= 'a' && p[1] <= 'z') ||
			      (p[1] >= '0' && p[1] <= '9')))
				return 0;
		} else if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9'))) {
			return 0;
		}
	}
	return 1;
}

size_t name_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, row[64], prev, tmp;

	if (la >= 63 || lb >= 63)
		return 99;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t best = prev + (a[i - 1] != b[j - 1]);

			tmp = row[j];
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			prev = tmp;
		}
	}
	return row[lb];
}
