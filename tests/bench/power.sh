#!/bin/sh
# Benchmark of the power pack (spec/power.md 9, issue 10 acceptance 5): whole
# processes of the model verbs, the registry and a lint of one curtailment
# plan (24 seeds), against a bare C process start measured in the same run;
# and the computation of one simulated year, taken from a 1,000-seed sweep
# (one process, so start-up is spread over 1,000 year runs). Reference
# timings (Python): decide ~20 ms a process, a fleet month or year 90-120 ms
# a process, one year ~10 ms of computation, the 16-point registry 1.6-1.9 s.
# Prints numbers; never fails on timing.
#   sh tests/bench/power.sh [BUILD_DIR]      (default build; run `make` first)
set -eu
cd "$(dirname "$0")/../.."
b=${1:-build}
runs=${BENCH_RUNS:-11}
dir=$(mktemp -d /tmp/ig-pwbench-XXXXXX)
trap 'rm -rf "$dir"' EXIT
. tests/bench/lib/timing.sh
[ -x "$b/tests/bench/bare_parse" ] || make --no-print-directory B="$b" "$b/tests/bench/bare_parse" >/dev/null
: > "$dir/empty.yaml"
cat > "$dir/plan.yaml" <<'PLAN'
kind: curtailment-plan
fleet: {curtail_order: random}
claims: {saving_pct: 0.045}
gate: {seeds: 24}
PLAN
ig="$b/infragate"
printf '%-52s %10s %10s %8s\n' case "ours us" "bare us" ratio
for args in "power decide --length-h 96" "power fleet --format json" \
	"power fleet --set horizon_h=8760 --format json" "power validate" \
	"lint $dir/plan.yaml"; do
	# shellcheck disable=SC2086
	set -- $(paired "$ig" $args ::: "$b/tests/bench/bare_parse" "$dir/empty.yaml")
	printf '%-52s %10s %10s %8s\n' "$(echo "$args" | sed "s|$dir/||")" "$1" "$2" \
		"$(ratio "$1" "$2")"
done
t=$(median "$ig" power sweep --vary horizon_h=8760 --seeds 1000)
echo "one simulated year (1,000-seed sweep / 1,000): $(awk -v a="$t" 'BEGIN {printf "%.1f", a / 1000}') us"
echo "(bare: a C process that parses an empty file with libyaml, run alternately with each case)"
