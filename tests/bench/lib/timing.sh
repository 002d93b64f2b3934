# Shared by every tests/bench/*.sh (sourced, not run): the timing helpers.
# The caller sets $runs (how many times to run a command) and $dir (a
# scratch folder it owns and removes).

# Median wall time, in microseconds, of a command run $runs times. Output
# and exit status are dropped: a benchmark reports time, the tests judge
# behaviour.
median() {
	n=0
	: > "$dir/times"
	while [ $n -lt "$runs" ]; do
		s=$(date +%s%N)
		"$@" >/dev/null 2>&1 || true
		e=$(date +%s%N)
		echo $(((e - s) / 1000)) >> "$dir/times"
		n=$((n + 1))
	done
	sort -n "$dir/times" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

# ratio A B [DECIMALS]: A / B, printed with DECIMALS places (2 unless told).
ratio() {
	awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN {printf "%.*f", d, a / b}'
}
