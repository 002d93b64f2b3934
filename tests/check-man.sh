#!/bin/sh
# The man page names every native verb and every option their --help
# prints (spec/core.md 15.4); groff, where installed, must not warn.
bin=$1
page=$2
pass=0
fail=0
for verb in lint validate test rules models; do
	if grep -q "^\.B $verb\$" "$page" || grep -q "\\\\fB$verb\\\\fR" "$page"; then
		pass=$((pass + 1))
	else
		echo "man page: verb '$verb' is missing"
		fail=$((fail + 1))
	fi
	for opt in $("$bin" "$verb" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
		esc=$(printf '%s' "$opt" | sed 's/-/\\\\-/g')
		if grep -q -- "$esc" "$page"; then
			pass=$((pass + 1))
		else
			echo "man page: option '$opt' of '$verb' is missing"
			fail=$((fail + 1))
		fi
	done
done
if command -v groff >/dev/null 2>&1; then
	if groff -man -ww -z "$page" 2>&1 | grep -q .; then
		groff -man -ww -z "$page"
		fail=$((fail + 1))
	else
		pass=$((pass + 1))
	fi
fi
echo "man: $pass passed, $fail failed"
[ $fail -eq 0 ]
