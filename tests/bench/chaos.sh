#!/bin/sh
# Benchmark of the chaos pack (spec/chaos.md 12): chaos-fidelity on one spec,
# on the bundled catalog, coverage, two-clocks, registry and the validation
# run, each against a bare C process that parses the same files with libyaml
# (measured in the same run). The recorded Python reference takes 260-350 ms
# for one spec and 370-410 ms for the catalog; the targets are <= 15 ms, 20 ms,
# 25 ms (coverage), 5 ms (two-clocks, registry) and 50 ms (validate), and
# `infragate lint` over 1000 experiments (the catalog copied 40 times, one
# job, strict off so the copies' ids are not duplicates) within 2x a bare
# libyaml parse of the same files. Prints numbers; never fails on timing.
#   sh tests/bench/chaos.sh [BUILD_DIR]      (default build; run `make` first)
set -eu
cd "$(dirname "$0")/../.."
b=${1:-build}
runs=${BENCH_RUNS:-21}
dir=$(mktemp -d /tmp/ig-chbench-XXXXXX)
trap 'rm -rf "$dir"' EXIT
. tests/bench/lib/timing.sh
[ -x "$b/tests/bench/bare_parse" ] || make --no-print-directory "$b/tests/bench/bare_parse" >/dev/null
cat=rules/chaos/catalog
one=$cat/ib-link-flap.yaml
cf="$b/chaos-fidelity"
# row LABEL BASELINE-FILES... ::: COMMAND...: the command and a bare parse
# of the files, run alternately (timeit.c says why).
row() {
	label=$1
	shift
	files=""
	while [ "$1" != ":::" ]; do
		files="$files $1"
		shift
	done
	shift
	# shellcheck disable=SC2086
	set -- $(paired "$@" ::: "$b/tests/bench/bare_parse" $files)
	printf '%-36s %10s %10s %8s\n' "$label" "$1" "$2" "$(ratio "$1" "$2")"
}
printf '%-36s %10s %10s %8s\n' case "ours us" "bare us" ratio
row "one spec" "$one" ::: "$cf" "$one"
row "bundled catalog (25 specs)" "$cat"/*.yaml ::: "$cf"
row "coverage of the catalog" "$cat"/*.yaml ::: "$cf" coverage
row "two-clocks" "$one" ::: "$cf" two-clocks
row "registry --format json" "$one" ::: "$cf" registry --format json
row "infragate validate chaos" "$cat"/*.yaml ::: "$b/infragate" validate chaos
mkdir "$dir/1000"
for k in $(seq 1 40); do
	for f in "$cat"/*.yaml; do cp "$f" "$dir/1000/$k-${f##*/}"; done
done
row "lint 1000 experiments, one job" "$dir"/1000/*.yaml ::: "$b/infragate" lint \
	--no-config --no-strict -q -j 1 "$dir/1000"
row "lint 1000 experiments, -j 2" "$dir"/1000/*.yaml ::: "$b/infragate" lint \
	--no-config --no-strict -q -j 2 "$dir/1000"
echo "(bare: a C process that parses the same files with libyaml, run alternately with each case)"
