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
[ -x "$b/tests/bench/bare_parse" ] || make --no-print-directory "$b/tests/bench/bare_parse" >/dev/null
: > "$dir/empty.yaml"
median() {
	n=0
	: > "$dir/t"
	while [ $n -lt "$runs" ]; do
		s=$(date +%s%N)
		"$@" >/dev/null 2>&1 || true
		e=$(date +%s%N)
		echo $(((e - s) / 1000)) >> "$dir/t"
		n=$((n + 1))
	done
	sort -n "$dir/t" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}
bare=$(median "$b/tests/bench/bare_parse" "$dir/empty.yaml")
ep="$b/edge-placement"
printf '%-44s %10s %10s %8s\n' case "ours us" "bare us" ratio
for args in "evaluate -w ric-xapp-loop -t central" "evaluate -w video-vlm -t hub --format json" "matrix" "physics --rate 100 --km 40"; do
	# shellcheck disable=SC2086
	t=$(median "$ep" $args)
	printf '%-44s %10s %10s %8s\n' "$args" "$t" "$bare" \
		"$(awk -v a="$t" -v b="$bare" 'BEGIN {printf "%.2f", a / b}')"
done
echo "(bare: a C process that parses an empty file with libyaml, measured here)"
