#!/bin/sh
# make lint: clang-tidy, cppcheck and luacheck over the tree. The banned
# function and layer greps run in every `make check` (check-layers.sh).
set -u
cd "$(dirname "$0")/.." || exit 2
status=0
inc="-I. -I/usr/include/lua5.4"
defs="-std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -DINFRAGATE_VERSION=\"0\""
if command -v clang-tidy >/dev/null; then
	# shellcheck disable=SC2086
	clang-tidy --quiet core/*/*.c -- $defs $inc >/tmp/tidy.$$ 2>&1 || status=1
	grep -E 'warning:|error:' /tmp/tidy.$$ && status=1
	rm -f /tmp/tidy.$$
fi
if command -v cppcheck >/dev/null; then
	# shellcheck disable=SC2086
	cppcheck --enable=warning,portability,performance --std=c11 --inline-suppr \
		--suppress=missingIncludeSystem --error-exitcode=1 -q $inc core/ || status=1
fi
if command -v luacheck >/dev/null; then
	luacheck --no-color -q lua rules || status=1
fi
[ $status -eq 0 ] && echo "lint: clean"
exit $status
