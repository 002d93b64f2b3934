#!/bin/sh
# Benchmark of the cooling pack (spec/cooling.md 9, issue 4 acceptance 5):
# each pue-ladder verb against a bare C process start measured in the same
# run (the bare libyaml parse of an empty file), with the published Python
# tool's timings of spec 9 for the ratio (the tool cannot be installed
# here). A 1000-hall plan shows the admission's scale. Prints numbers;
# never fails on timing.
#   sh tests/bench/cooling.sh [BUILD_DIR]      (default build; run `make` first)
set -eu
cd "$(dirname "$0")/../.."
b=${1:-build}
runs=${BENCH_RUNS:-21}
dir=$(mktemp -d /tmp/ig-coolbench-XXXXXX)
trap 'rm -rf "$dir"' EXIT
. tests/bench/lib/timing.sh
[ -x "$b/tests/bench/bare_parse" ] || make --no-print-directory B="$b" "$b/tests/bench/bare_parse" >/dev/null
: > "$dir/empty.yaml"
{
	echo "kind: cooling-plan"
	echo "halls:"
	i=0
	while [ $i -lt 1000 ]; do
		echo "  h$i: {feeder: F$((i % 10)), rung: direct-to-chip, kw_per_rack: 100, feed_mw: 8}"
		i=$((i + 1))
	done
	echo "feeders:"
	i=0
	while [ $i -lt 10 ]; do echo "  F$i: {limit_mw: 400, max_step_mw: 200}"; i=$((i + 1)); done
	echo "start:"
	echo "  min_ride_through_s: 5"
	echo "  racks:"
	i=0
	while [ $i -lt 1000 ]; do echo "    h$i: 2"; i=$((i + 1)); done
} > "$dir/plan.yaml"
bare=$(median "$b/tests/bench/bare_parse" "$dir/empty.yaml")
pl="$b/pue-ladder"
printf '%-44s %9s %9s %7s %9s %7s\n' case "ours us" "bare us" "x bare" "python" "x faster"
row() {
	ref_us=$1
	shift
	t=$(median "$pl" "$@")
	printf '%-44s %9s %9s %7s %9s %7s\n' "$*" "$t" "$bare" \
		"$(ratio "$t" "$bare")" "$ref_us" \
		"$(awk -v a="$t" -v r="$ref_us" 'BEGIN {if (r > 0) printf "%.1f", r / a; else print "-"}')"
}
row 45000 ladder
row 45000 gate --density 120
row 45000 capacity --pue-from 1.56 --pue-to 1.2
row 50000 fleet
row 49000 admit --density 132 --need-ride-through 30
row 133000 validate
row 0 admit --plan "$dir/plan.yaml" --format json
# infragate lint over 1000 small plans against a bare libyaml parse of them.
mkdir "$dir/many"
i=0
while [ $i -lt 1000 ]; do
	cp fixtures/cooling/good/pair-admits.yaml "$dir/many/p$i.yaml"
	i=$((i + 1))
done
runs=5
lint=$(median "$b/infragate" lint --pack cooling "$dir/many")
parse=$(median "$b/tests/bench/bare_parse" "$dir"/many/*.yaml)
printf '%-44s %9s %9s %7s\n' "lint 1000 small plans" "$lint" "$parse" \
	"$(ratio "$lint" "$parse")"
echo "(bare: a C process that parses an empty file with libyaml; python: spec/cooling.md 9)"
