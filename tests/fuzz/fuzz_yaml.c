/*
 * fuzz_yaml.c: the libFuzzer target of the YAML loader: any bytes, stream
 * mode with comments, small limits and a 1 MiB document cap (STYLE.md 8
 * trap 4). tests/fuzz/replay.c feeds the corpus to the same function in
 * every `make check`.
 */
#include <stddef.h>
#include <stdint.h>

#include "core/yaml/yaml.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct yaml_limits lim;
	struct yaml_file f;
	struct diag err;

	yaml_limits_default(&lim);
	lim.depth = 64;
	lim.nodes = 20000;
	lim.expanded_nodes = 20000;
	lim.doc_bytes = (size_t)1 << 20;
	yaml_file_init(&f);
	diag_init(&err);
	(void)yaml_load(&f, (const char *)data, size, YAML_STREAM, &lim, 1, &err);
	yaml_file_release(&f);
	return 0;
}
