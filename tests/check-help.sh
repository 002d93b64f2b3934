#!/bin/sh
# Every verb of every program, and every native verb, prints its help
# (exit 0), and no option's help says a thing twice: the engine appends
# "(default: X)" to an option that declares a default and "(repeatable)" to
# one that may repeat, so the help text itself must not say either again (a
# "(default ...)" there is for a default the option cannot declare).
bin=$1
pass=0
fail=0
check() {
	# shellcheck disable=SC2086
	if ! text=$("$bin" "$@" --help 2>&1); then
		echo "help: '$* --help' failed"
		fail=$((fail + 1))
		return
	fi
	flat=$(printf '%s\n' "$text" | tr '\n' ' ' | tr -s ' ')
	if printf '%s\n' "$flat" | grep -q '(default [^)]*) (default:'; then
		echo "help: '$*' states a default twice:"
		printf '%s\n' "$text" | grep -B1 -A1 '(default'
		fail=$((fail + 1))
	elif printf '%s\n' "$flat" | grep -q '(repeatable) (repeatable)'; then
		echo "help: '$*' says (repeatable) twice:"
		printf '%s\n' "$text" | grep -B1 'repeatable'
		fail=$((fail + 1))
	else
		pass=$((pass + 1))
	fi
}
for verb in lint validate test rules models; do
	check "$verb"
done
for prog in chaos-fidelity promotion-gate edge-placement airan-resiliency pue-ladder \
	reliability power network scheduling; do
	verbs=$("$bin" "$prog" --help | awk '/^commands:/ { on = 1; next }
		on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }')
	check "$prog"
	for verb in $verbs; do
		check "$prog" "$verb"
	done
done
echo "help: $pass passed, $fail failed"
[ $fail -eq 0 ]
