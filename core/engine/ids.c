/*
 * ids.c: the core finding ids of spec/core.md 16, as one table: name,
 * severity, a summary for listings and SARIF, and the explanation that
 * `infragate rules --explain` prints. The list in the spec, the
 * explanations and the code cannot drift because there is only this table.
 */
#include "core/engine/eng_internal.h"

#include <string.h>

struct core_id {
	struct rule_info info;
	const char *explanation;
};

#define CORE_ID(id_, sev, summary_, text)                                   \
	{ { .id = id_, .pack = NULL, .summary = summary_, .severity = sev,  \
	    .help_uri = NULL }, text }

static const struct core_id core_table[] = {
	CORE_ID("cli.usage", SEV_ERROR, "the command line is wrong",
		"A usage error: an unknown verb or option, a missing or extra "
		"operand, or a value that breaks the option's rule (its type, "
		"range or choices). The run stops with exit 2 before reading any "
		"input; the message names the argument."),
	CORE_ID("input.unreadable", SEV_ERROR, "a file cannot be read",
		"The file is missing, not readable with the program's "
		"permissions, or is a folder where a file is needed. The file is "
		"reported with verdict error and the run exits 2; other files "
		"are still checked."),
	CORE_ID("input.encoding", SEV_ERROR, "a file is not UTF-8 text",
		"The file is not UTF-8 (or UTF-16 with a byte-order mark), holds "
		"a NUL byte, or a character YAML forbids (control characters, "
		"U+FFFE, U+FFFF). The position names the first offending "
		"character."),
	CORE_ID("input.yaml", SEV_ERROR, "a file is not valid YAML",
		"A YAML syntax error, an undefined or duplicate anchor, or more "
		"than one document where one is expected. No document of the "
		"file is checked."),
	CORE_ID("input.limit", SEV_ERROR, "a file passes an input limit",
		"The file passes one of the input limits (file_bytes, "
		"documents, depth, nodes, expanded_nodes, scalar_bytes) or "
		"recurses through an alias. Limits are set with --limit "
		"NAME=VALUE or the configuration's limits; figures name the "
		"limit and its value."),
	CORE_ID("input.duplicate-key", SEV_ERROR, "a mapping repeats a key",
		"A key appears twice in one mapping. YAML loaders keep the last "
		"value silently, which hides the value a reviewer read; remove "
		"one of them."),
	CORE_ID("input.type", SEV_ERROR, "a value has the wrong type or shape",
		"A value the loader cannot construct (an integer out of range, "
		"an invalid date, an unknown tag), a schema violation, or a "
		"document whose kind or apiVersion does not match its route."),
	CORE_ID("input.kind", SEV_ERROR, "a document's kind is unknown or ambiguous",
		"The document's kind is a near miss of a known kind, matches "
		"several kinds, or no pack claims it while unrouted documents "
		"are errors (--unrouted error)."),
	CORE_ID("engine.budget", SEV_ERROR, "pack code ran out of its budget",
		"A rule, report builder or command passed its instruction "
		"budget, the memory cap of its Lua state, or a regex limit. "
		"The file is unusable; raise the limit with --limit only if the "
		"rule is known to need it."),
	CORE_ID("engine.error", SEV_ERROR, "pack code raised an error",
		"A rule raised a Lua error while checking a document; the "
		"message names the rule and the Lua position. The file is "
		"unusable; other rules still run."),
	CORE_ID("engine.truncated", SEV_WARNING, "a file has more findings than the limit",
		"More findings than the findings limit were recorded for one "
		"file; the rest are not listed."),
	CORE_ID("engine.suppression", SEV_WARNING, "an inline suppression is wrong or unused",
		"An '# infragate: ignore' comment is malformed, has no reason "
		"after ' -- ', names a rule no loaded pack has or an id that "
		"cannot be suppressed, or suppressed nothing although its rules "
		"ran."),
	CORE_ID("engine.waiver", SEV_WARNING, "a waiver matched nothing",
		"With --report-stale: a waiver that no finding matched. Remove "
		"it, or fix its rule, files or path."),
	CORE_ID("engine.baseline", SEV_WARNING, "a baseline entry matched fewer findings",
		"With --report-stale: a baseline entry whose fingerprint matched "
		"fewer findings than its count. Rewrite the baseline with "
		"--write-baseline."),
	CORE_ID("engine.pack", SEV_ERROR, "a pack, schema or helper fails to load",
		"A pack file has a Lua error, misuses an engine call, or a "
		"schema does not compile. The run stops with exit 2 before any "
		"verdict."),
	CORE_ID("engine.registry", SEV_ERROR, "a validation registry is not well-formed",
		"A validation registry fails to load or breaks a well-formedness "
		"rule (unique ids, references, tolerances, declined anchors, "
		"figures for every point)."),
	CORE_ID("engine.output", SEV_ERROR, "output could not be written",
		"Writing the result failed (a full disk, a closed file). The run "
		"exits 2."),
};

#define CORE_N (sizeof core_table / sizeof core_table[0])

const struct rule_info *core_id_info(const char *id)
{
	size_t i;

	for (i = 0; i < CORE_N; i++)
		if (strcmp(core_table[i].info.id, id) == 0)
			return &core_table[i].info;
	return NULL;
}

const char *core_id_explanation(const char *id)
{
	size_t i;

	for (i = 0; i < CORE_N; i++)
		if (strcmp(core_table[i].info.id, id) == 0)
			return core_table[i].explanation;
	return NULL;
}

const struct rule_info *core_id_at(size_t i)
{
	return i < CORE_N ? &core_table[i].info : NULL;
}
