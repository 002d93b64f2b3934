#!/bin/sh
# Run every Criterion unit-test binary given as an argument, one test at a
# time (--jobs 1), optionally under $VALGRIND, and print "N passed, N failed"
# over all of them. Criterion runs each test in a child process; a crash is
# a failure it reports, a leak is not (the sanitizer and valgrind log gates
# in the Makefile catch those).
status=0
passed=0
failed=0
for t in "$@"; do
	out=$(${VALGRIND:-} "$t" --jobs 1 2>&1)
	rc=$?
	line=$(printf '%s\n' "$out" | grep 'Synthesis:' | tail -n 1)
	p=$(printf '%s' "$line" | sed -n 's/.*Passing: \([0-9]*\).*/\1/p')
	f=$(printf '%s' "$line" | sed -n 's/.*Failing: \([0-9]*\).*/\1/p')
	c=$(printf '%s' "$line" | sed -n 's/.*Crashing: \([0-9]*\).*/\1/p')
	p=${p:-0}
	f=${f:-0}
	c=${c:-0}
	passed=$((passed + p))
	failed=$((failed + f + c))
	if [ "$rc" -ne 0 ] || [ -z "$line" ] || [ "$f" -ne 0 ] || [ "$c" -ne 0 ]; then
		status=1
		[ -z "$line" ] && failed=$((failed + 1))
		printf '%s\n' "$out" | grep -v '^\[----\]' | tail -n 40
		echo "FAIL $t"
	fi
done
echo "unit: $passed passed, $failed failed"
exit $status
