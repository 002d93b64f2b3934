/*
 * fuzz_yaml.c: the libFuzzer target of the YAML loader (and, on the same
 * bytes, the JSON reader): load in stream mode with comments, under small
 * limits and a 1 MiB document cap, write each document back as JSON, then
 * release. Built by `make fuzz`; tests/fuzz/replay.c feeds it the corpus
 * in every `make check`.
 */
#include <stddef.h>
#include <stdint.h>

#include "core/yaml/yaml.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct doc_json_opts jo = {1, 1, 1, 64, 20000};
	struct yaml_limits lim;
	struct yaml_file f;
	struct diag err;
	struct doc d;
	size_t i;

	yaml_limits_default(&lim);
	lim.depth = 64;
	lim.nodes = 20000;
	lim.expanded_nodes = 50000;
	lim.scalar_bytes = 65536;
	lim.documents = 100;
	lim.doc_bytes = (size_t)1 << 20;
	yaml_file_init(&f);
	if (yaml_load(&f, (const char *)data, size, YAML_STREAM, &lim, 1,
		      &err) == 0) {
		for (i = 0; i < f.ndocs; i++) {
			struct sbuf sb = SBUF_INIT;

			doc_json_write(&sb, f.docs[i]->root);
			sbuf_release(&sb);
		}
	}
	yaml_file_release(&f);
	doc_init(&d, (size_t)1 << 20);
	doc_json_parse(&d, (const char *)data, size, &jo, &err);
	doc_release(&d);
	return 0;
}
