#!/bin/sh
# Generate the hostile YAML inputs too big to commit into build/fixtures-yaml/
# (spec/core.md 4.5 acceptance): 100,000 nested '[', a 2 MiB scalar, a 9 MiB
# file, 20,000 documents. Idempotent; run by `make check`.
set -eu
out=${1:-build/fixtures-yaml}
mkdir -p "$out"
[ -f "$out/.done" ] && exit 0
/usr/bin/python3 - "$out" <<'PY'
import sys
out = sys.argv[1]
def w(name, text):
    with open(f"{out}/{name}", "w") as f:
        f.write(text)
w("deep-flow.yaml", "[" * 100000 + "]" * 100000 + "\n")
w("huge-scalar.yaml", "kind: demo-item\nname: a\nsize: 1\nowner: " + "x" * (2 << 20) + "\n")
w("nine-mib.yaml", "kind: demo-item\nname: a\nsize: 1\n" + ("# padding line of a big file\n" * (9 * 2**20 // 29 + 1)))
w("many-docs.yaml", "".join("---\nkind: demo-item\nname: d\nsize: 1\nowner: o\n" for _ in range(20000)))
PY
touch "$out/.done"
