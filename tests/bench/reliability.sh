#!/bin/sh
# Benchmark of the reliability pack (spec/reliability.md 10, issue 9
# acceptance 5): whole processes of simulate at defaults, the full phase
# grid, the pack's registry and a lint of one recovery plan (40
# simulations), against a bare C process start measured in the same run;
# and the computation of one default simulation, taken from a 1,000-seed
# sweep (one process, so start-up is spread over 1,000 runs). Reference
# timings (Python 3.11, NumPy 1.24): one auto-spares-ckpt run ~170 us of
# computation, the phase grid ~55 ms, the registry 0.18-0.21 s a command.
# Prints numbers; never fails on timing.
#   sh tests/bench/reliability.sh [BUILD_DIR]      (default build; run `make` first)
set -eu
cd "$(dirname "$0")/../.."
b=${1:-build}
runs=${BENCH_RUNS:-11}
dir=$(mktemp -d /tmp/ig-relbench-XXXXXX)
trap 'rm -rf "$dir"' EXIT
. tests/bench/lib/timing.sh
[ -x "$b/tests/bench/bare_parse" ] || make --no-print-directory B="$b" "$b/tests/bench/bare_parse" >/dev/null
: > "$dir/empty.yaml"
cat > "$dir/plan.yaml" <<'PLAN'
kind: training-recovery-plan
policy: auto-spares-ckpt
config: {spare_nodes: 8, ckpt_overlap_interval_h: 0.136}
claims: {ettr: 0.87}
PLAN
ig="$b/infragate"
printf '%-52s %10s %10s %8s\n' case "ours us" "bare us" ratio
for args in "reliability simulate --policy auto-spares-ckpt" "reliability simulate" \
	"reliability phase --format json" "reliability validate" \
	"reliability lint $dir/plan.yaml"; do
	# shellcheck disable=SC2086
	set -- $(paired "$ig" $args ::: "$b/tests/bench/bare_parse" "$dir/empty.yaml")
	printf '%-52s %10s %10s %8s\n' "$(echo "$args" | sed "s|$dir/||")" "$1" "$2" \
		"$(ratio "$1" "$2")"
done
t=$(median "$ig" reliability sweep --policy auto-spares-ckpt --vary nodes=2048 --seeds 1000)
echo "one default auto-spares-ckpt simulation (1,000-seed sweep / 1,000): $(awk -v a="$t" 'BEGIN {printf "%.1f", a / 1000}') us"
echo "(bare: a C process that parses an empty file with libyaml, run alternately with each case)"
