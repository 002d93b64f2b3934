#!/bin/sh
# Every header compiles on its own (STYLE.md 2, git's hdr-check).
cc=$1
flags=$2
cd "$(dirname "$0")/.." || exit 2
pass=0
fail=0
for h in core/*/*.h; do
	# shellcheck disable=SC2086
	if printf '#include "%s"\n' "$h" | $cc $flags -x c -fsyntax-only - 2>/tmp/hdr-check.$$; then
		pass=$((pass + 1))
	else
		echo "$h does not compile alone:"
		cat /tmp/hdr-check.$$
		fail=$((fail + 1))
	fi
done
rm -f /tmp/hdr-check.$$
echo "headers: $pass passed, $fail failed"
[ $fail -eq 0 ]
