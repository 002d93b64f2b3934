#!/bin/sh
# make bench (spec/core.md 17): infragate lint over 1, 100 and 1000 small
# demo documents against a bare libyaml parse of the same files, and one
# document's start-up against a bare C process, as ratios measured in the
# same run. Prints numbers; never fails on timing.
set -eu
bin=$1
bare=$2
runs=${BENCH_RUNS:-15}
dir=$(mktemp -d /tmp/ig-bench-XXXXXX)
trap 'rm -rf "$dir"' EXIT
. "$(dirname "$0")/lib/timing.sh"
i=0
while [ $i -lt 1000 ]; do
	printf 'kind: demo-item\nname: item-%d\nsize: %d\nowner: ops\ntags: [a, b]\n' "$i" $((i % 90)) > "$dir/d$i.yaml"
	i=$((i + 1))
done
files() {
	k=0
	while [ $k -lt "$1" ]; do printf '%s\n' "$dir/d$k.yaml"; k=$((k + 1)); done
}
printf '%-34s %12s %12s %8s\n' "case" "baseline us" "infragate us" "ratio"
for n in 1 100 1000; do
	files "$n" > "$dir/list"
	# shellcheck disable=SC2046
	b=$(median "$bare" $(cat "$dir/list"))
	# shellcheck disable=SC2046
	g=$(median "$bin" lint --no-config -q $(cat "$dir/list"))
	printf '%-34s %12s %12s %8s\n' "lint $n documents vs bare parse" "$b" "$g" \
		"$(ratio "$g" "$b")"
done
t=$(median /bin/true)
b=$(median "$bare" "$dir/d0.yaml")
g=$(median "$bin" lint --no-config -q "$dir/d0.yaml")
printf '%-34s %12s %12s %8s\n' "one document vs bare C process" "$b" "$g" \
	"$(ratio "$g" "$b")"
printf '%-34s %12s\n' "/bin/true" "$t"
