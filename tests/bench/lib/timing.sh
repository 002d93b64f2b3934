# Shared by every tests/bench/*.sh (sourced, not run): the timing helpers.
# The caller sets $runs (how many times to run a command) and $dir (a
# scratch folder it owns and removes).

# The stopwatch (tests/bench/timeit.c) is built into $dir on first use, so
# every script times the same way without a make target of its own. Paths
# are from the checkout's root, where make and the pack scripts run.
timeit_bin="$dir/timeit"
cc -std=c11 -O2 -o "$timeit_bin" tests/bench/timeit.c

# Median wall time, in microseconds, of a command run $runs times: fork,
# exec and wait, nothing else. Output and exit status are dropped: a
# benchmark reports time, the tests judge behaviour.
median() {
	"$timeit_bin" "$runs" "$@"
}

# ratio A B [DECIMALS]: A / B, printed with DECIMALS places (2 unless told).
ratio() {
	awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN {printf "%.*f", d, a / b}'
}

# paired COMMAND... ::: BASELINE...: runs the two alternately ($runs each)
# and prints "COMMAND_us BASELINE_us", both medians taken over the same
# stretch of machine time (timeit.c says why that matters here).
paired() {
	"$timeit_bin" "$runs" "$@"
}
