#!/bin/sh
# make lint: clang-tidy, cppcheck and luacheck over the tree. The banned
# function and layer greps run in every `make check` (check-layers.sh).
set -u
cd "$(dirname "$0")/.." || exit 2
status=0
inc="-I. -I/usr/include/lua5.4"
defs="-std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -DINFRAGATE_VERSION=\"0\""
if command -v clang-tidy >/dev/null; then
	# One clang-tidy per few files, on every core: the analyser takes
	# minutes over the tree on one.
	# (The flags go through the environment: split there as here, so the
	# version's quotes stay part of its value.)
	TIDY_FLAGS="$defs $inc"
	export TIDY_FLAGS
	# shellcheck disable=SC2016
	printf '%s\n' core/*/*.c | xargs -P "$(nproc)" -n 6 sh -c \
		'clang-tidy --quiet "$@" -- $TIDY_FLAGS 2>&1 || exit 255' tidy \
		>/tmp/tidy.$$ || status=1
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
