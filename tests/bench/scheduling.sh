#!/bin/sh
# Benchmark of the scheduling pack (spec/scheduling.md 9, issue 12
# acceptance 5): whole processes of `stranded`, `presets`, `grid` and
# `sensitivity` at their defaults, the 17-point registry and a lint of one
# scheduler policy with the default gate (4 seeds of 14 days), against a bare
# C process start measured in the same run; and the computation of one
# 14-day simulation, spread over a 64-seed grid (768 runs in one process,
# less the 12 runs of a one-seed grid, so start-up and loading cancel).
# Targets: stranded under 1.5 ms wall (reference ~30 ms), one 14-day
# simulation under 1 ms (reference 36-81 ms), grid under 100 ms (reference
# 5.9 s), sensitivity under 0.7 s (reference 26.7 s), validate under 1 s
# (reference 1.1 s for 9 points), lint of one policy under 10 ms.
# Prints numbers; never fails on timing.
#   sh tests/bench/scheduling.sh [BUILD_DIR]      (default build; run `make` first)
set -eu
cd "$(dirname "$0")/../.."
b=${1:-build}
runs=${BENCH_RUNS:-11}
dir=$(mktemp -d /tmp/ig-scbench-XXXXXX)
trap 'rm -rf "$dir"' EXIT
. tests/bench/lib/timing.sh
[ -x "$b/tests/bench/bare_parse" ] || make --no-print-directory B="$b" "$b/tests/bench/bare_parse" >/dev/null
: > "$dir/empty.yaml"
# A policy whose rules all need the gate runs: rigid FIFO under the power
# envelope with claims (kill, reservation and claim rules).
cat > "$dir/policy.yaml" <<'POLICY'
kind: scheduler-policy
cluster: {power_envelope: true, inf_surges: true}
policy: rigid-fifo
claims: {capacity_realization: 0.8, slo_attainment: 0.99, mean_wait_h: 1.5}
POLICY
ig="$b/infragate"
printf '%-52s %10s %10s %8s\n' case "ours us" "bare us" ratio
for args in "scheduling stranded" "scheduling stranded --preset typical-composite" \
	"scheduling presets" \
	"scheduling simulate --policy rigid-fifo --days 14 --seed 0" \
	"scheduling grid --format json" "scheduling sensitivity --format json" \
	"scheduling validate" "lint $dir/policy.yaml"; do
	# shellcheck disable=SC2086
	set -- $(paired "$ig" $args ::: "$b/tests/bench/bare_parse" "$dir/empty.yaml")
	printf '%-52s %10s %10s %8s\n' "$(echo "$args" | sed "s|$dir/||")" "$1" "$2" \
		"$(ratio "$1" "$2")"
done
seeds=$(seq -s, 0 63)
t64=$(median "$ig" scheduling grid --days 14 --seeds "$seeds" --format json)
t1=$(median "$ig" scheduling grid --days 14 --seeds 0 --format json)
echo "one 14-day simulation ((64-seed grid - 1-seed grid) / 756 runs):" \
	"$(awk -v a="$t64" -v c="$t1" 'BEGIN {printf "%.1f", (a - c) / 756}') us"
echo "(bare: a C process that parses an empty file with libyaml, run alternately with each case)"
