#!/bin/sh
# Benchmarks of the resiliency pack (spec/resiliency.md 9): airan-resiliency
# against the reference tool's recorded timings (the Python tool cannot be
# installed here) and against bare C baselines measured in the same run: the
# model's C API alone for the Monte Carlo verbs, a bare libyaml parse for
# `transports --site`. Prints numbers; never fails on timing.
#   sh tests/bench/resiliency.sh [BUILD_DIR]      (default build; run `make` first)
set -eu
cd "$(dirname "$0")/../.."
b=${1:-build}
runs=${BENCH_RUNS:-9}
dir=$(mktemp -d /tmp/ig-rsbench-XXXXXX)
trap 'rm -rf "$dir"' EXIT
. tests/bench/lib/timing.sh
cc -std=c11 -O2 -ffp-contract=off -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -I. -pthread \
	-o "$dir/bare" tests/bench/resiliency_bare.c "$b/libinfragate.a" -lm -lpthread
[ -x "$b/tests/bench/bare_parse" ] || make --no-print-directory "$b/tests/bench/bare_parse" >/dev/null
printf 'kind: resiliency-site\npolicy: {base: P2}\ncatalog:\n  dsl: {kind: other, capacity_gbps: 0.1, rtt_ms: 12, carries: [R1, R2], monthly_usd: 90, modes: [{name: f, rate_per_year: 4, mttr_h: 6}]}\n' > "$dir/site.yaml"
ms() { awk -v u="$1" 'BEGIN {printf "%.1f", u / 1000}'; }
ar="$b/airan-resiliency"
printf '%-34s %10s %10s %9s %10s %8s\n' case "ours ms" "bare ms" "x bare" "python ms" "speedup"
row() { # name python_ms bare_ms command...
	name=$1 py=$2 bare=$3
	shift 3
	t=$(median "$@")
	printf '%-34s %10s %10s %9s %10s %8s\n' "$name" "$(ms "$t")" \
		"$( [ "$bare" = - ] && echo - || ms "$bare")" \
		"$( [ "$bare" = - ] && echo - || ratio "$t" "$bare" 1)" "$py" "$(ratio $((py * 1000)) "$t" 1)x"
}
bare_ladder=$(median "$dir/bare" 2000)
bare_ladder20=$(median "$dir/bare" 20000)
bare_parse=$(median "$b/tests/bench/bare_parse" "$dir/site.yaml")
row "ladder (2000 y x 5 rungs)" 1020 "$bare_ladder" "$ar" ladder
row "ladder --format json" 1020 "$bare_ladder" "$ar" ladder --format json
row "ladder --years 20000" 11350 "$bare_ladder20" "$ar" ladder --years 20000
row "validate (40 runs + grid hours)" 9530 - "$ar" validate
row "policy -p P4" 694 - "$ar" policy -p P4
row "policy -p P0" 63 - "$ar" policy -p P0
row "transports" 100 "$bare_parse" "$ar" transports
row "transports --site" 100 "$bare_parse" "$ar" transports --site "$dir/site.yaml"
echo "(python ms: the reference tool's recorded timings, spec/resiliency.md 9; 'x bare' is ours over"
echo " the bare C baseline measured here: the model API alone, or a bare libyaml parse)"
