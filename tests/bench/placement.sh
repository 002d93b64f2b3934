#!/bin/sh
# Benchmark of the placement pack (spec/placement.md, issue acceptance 5): one
# `edge-placement evaluate` call against a bare C process start measured in
# the same run (the bare libyaml parse of an empty file: exec, dynamic
# loading, exit). The published Python tool takes 60-90 ms per call. Prints
# numbers; never fails on timing.
#   sh tests/bench/placement.sh [BUILD_DIR]      (default build; run `make` first)
set -eu
cd "$(dirname "$0")/../.."
b=${1:-build}
runs=${BENCH_RUNS:-21}
dir=$(mktemp -d /tmp/ig-plbench-XXXXXX)
trap 'rm -rf "$dir"' EXIT
. tests/bench/lib/timing.sh
[ -x "$b/tests/bench/bare_parse" ] || make --no-print-directory "$b/tests/bench/bare_parse" >/dev/null
: > "$dir/empty.yaml"
ep="$b/edge-placement"
printf '%-44s %10s %10s %8s\n' case "ours us" "bare us" ratio
for args in "evaluate -w ric-xapp-loop -t central" "evaluate -w video-vlm -t hub --format json" "matrix" "physics --rate 100 --km 40"; do
	# shellcheck disable=SC2086
	set -- $(paired "$ep" $args ::: "$b/tests/bench/bare_parse" "$dir/empty.yaml")
	printf '%-44s %10s %10s %8s\n' "$args" "$1" "$2" "$(ratio "$1" "$2")"
done
echo "(bare: a C process that parses an empty file with libyaml, run alternately with each case)"
