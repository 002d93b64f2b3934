#!/bin/sh
# Every verb of every program prints its help (exit 0), and no option's help
# states its default twice: the engine appends "(default: X)" to an option
# that declares a default, so the help text itself must not say it again
# (a "(default ...)" there is for a default the option cannot declare).
bin=$1
pass=0
fail=0
for prog in chaos-fidelity promotion-gate edge-placement airan-resiliency pue-ladder \
	reliability power network scheduling; do
	verbs=$("$bin" "$prog" --help | awk '/^commands:/ { on = 1; next }
		on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }')
	for verb in "" $verbs; do
		# shellcheck disable=SC2086
		if ! text=$("$bin" "$prog" $verb --help 2>&1); then
			echo "help: '$prog $verb --help' failed"
			fail=$((fail + 1))
			continue
		fi
		if printf '%s\n' "$text" | tr '\n' ' ' | tr -s ' ' |
			grep -q '(default [^)]*) (default:'; then
			echo "help: '$prog $verb' states a default twice:"
			printf '%s\n' "$text" | grep -B1 -A1 '(default'
			fail=$((fail + 1))
		else
			pass=$((pass + 1))
		fi
	done
done
echo "help: $pass passed, $fail failed"
[ $fail -eq 0 ]
