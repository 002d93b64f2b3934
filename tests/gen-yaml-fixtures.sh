#!/bin/sh
# Write the hostile YAML inputs too big to commit (fixtures/yaml/ holds
# only files under 64 KiB) into build/fixtures-yaml/, or into the folder
# given as the first argument. Each must end in its documented input.*
# finding in under a second (spec/core.md 4.5 acceptance):
#   huge-scalar.yaml      a 2 MiB plain scalar             input.limit (scalar_bytes)
#   nine-mib.yaml         a 9 MiB file                     input.limit (file_bytes)
#   many-docs.yaml        20,000 documents                 input.limit (documents)
#   deep-flow.yaml        100,000 nested '['               input.limit (depth)
#   deep-block-map.yaml   600 nested block mappings        input.limit (depth)
# Plain POSIX sh and awk, no other tool; the output is the same every run,
# and a stamp makes a second run free (`make check` calls this each time;
# bump the stamp's number when the files change).
set -eu
out=${1:-build/fixtures-yaml}
stamp="$out/.generated-2"
mkdir -p "$out"
[ -f "$stamp" ] && exit 0
awk 'BEGIN {
	printf "kind: demo-item\nname: huge\nnote: "
	s = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	for (i = 0; i < 32768; i++) printf "%sx", s   # 32768 * 64 = 2 MiB
	printf "\nsize: 5\nowner: ops\n"
}' >"$out/huge-scalar.yaml"
awk 'BEGIN {
	printf "kind: demo-item\nname: big\nsize: 5\nowner: ops\nitems:\n"
	for (i = 0; i < 147456; i++)                  # 147456 * 64 = 9 MiB
		printf "  - item-%08d-padding-padding-padding-padding-padding-pa\n", i
}' >"$out/nine-mib.yaml"
awk 'BEGIN {
	for (i = 0; i < 20000; i++)
		printf "---\nkind: demo-item\nname: d%d\nsize: 5\nowner: ops\n", i
}' >"$out/many-docs.yaml"
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; printf "\n" }' \
	>"$out/deep-flow.yaml"
awk 'BEGIN {
	for (i = 0; i < 600; i++) {
		for (j = 0; j < i; j++) printf " "
		printf "k%d:\n", i
	}
}' >"$out/deep-block-map.yaml"
touch "$stamp"
