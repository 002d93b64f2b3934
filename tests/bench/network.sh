#!/bin/sh
# Benchmark of the network pack (spec/network.md 9, issue 11 acceptance 5):
# model verbs, the default 144-cell decision map, the validation registry and
# `lint` of 1,000 small capacity proposals on the reference preset (with -j 1),
# against a bare C process start measured in the same run and the reference
# model's recorded timings (0.13-0.18 s per model-verb process, 3.3 s for the
# map in process). Prints numbers; never fails on timing.
#   sh tests/bench/network.sh [BUILD_DIR]      (default build; run `make` first)
set -eu
cd "$(dirname "$0")/../.."
b=${1:-build}
runs=${BENCH_RUNS:-11}
dir=$(mktemp -d /tmp/ig-nwbench-XXXXXX)
trap 'rm -rf "$dir"' EXIT
. tests/bench/lib/timing.sh
[ -x "$b/tests/bench/bare_parse" ] || make --no-print-directory B="$b" "$b/tests/bench/bare_parse" >/dev/null
: > "$dir/empty.yaml"
i=0
while [ $i -lt 1000 ]; do
	printf 'kind: network-capacity-proposal\nid: grow-%d\npreset: reference-405b-16k\nadd_accelerators: %d\n' \
		"$i" $((128 + i * 8)) > "$dir/p$i.yaml"
	i=$((i + 1))
done
bare=$(median "$b/tests/bench/bare_parse" "$dir/empty.yaml")
ig="$b/infragate"
printf '%-40s %10s %8s %14s\n' case "ours us" "x bare" "x reference"
row() { # name reference_us command...
	name=$1 ref=$2
	shift 2
	t=$(median "$@")
	printf '%-40s %10s %8s %14s\n' "$name" "$t" \
		"$(ratio "$t" "$bare")" \
		"$(awk -v a="$t" -v r="$ref" 'BEGIN {printf "%.1f", r / a}')"
}
row "network step" 130000 "$ig" network step --format json
row "network ledger" 130000 "$ig" network ledger --format json
row "network sea" 130000 "$ig" network sea --format json
row "network atlas --circuit-gbps 400" 260000 "$ig" network atlas --circuit-gbps 400 --format json
row "network map (144 cells)" 3300000 "$ig" network map --format json
row "network validate" 170000 "$ig" network validate --format json
(cd "$dir" && ls p*.yaml > list)
runs=3
row "lint 1000 proposals (-j 1)" 2000000 sh -c "cd '$dir' && '$PWD/$ig' lint --no-config -j 1 -q \$(cat list)"
echo "(bare: a C process that parses an empty file with libyaml, measured here;"
echo " x reference: the recorded reference timing over ours; lint's reference is the 2 s target)"
