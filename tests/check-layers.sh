#!/bin/sh
# House rules a compiler does not check (STYLE.md 2, 5): includes point
# down the layers only, each third-party header lives in one module, and no
# banned function is used in core/. Prints each violation and "N passed,
# N failed" (one check per file).
cd "$(dirname "$0")/.." || exit 2
layer() {
	case "$1" in
	util) echo 0 ;;
	doc|re|models) echo 1 ;;
	yaml|schema) echo 2 ;;
	lua) echo 3 ;;
	engine) echo 4 ;;
	cli) echo 5 ;;
	*) echo 9 ;;
	esac
}
# third-party header -> the one module allowed to include it
owner_of() {
	case "$1" in
	yaml.h) echo yaml ;;
	pcre2.h) echo re ;;
	lua.h|lauxlib.h|lualib.h) echo lua ;;
	openssl/*) echo util ;;
	*) echo "" ;;
	esac
}
banned='(^|[^a-z_])(sprintf|vsprintf|strcpy|strcat|strtok|atoi|atol|atof|gets|system)[[:space:]]*\('
pass=0
fail=0
for f in core/*/*.c core/*/*.h; do
	m=$(echo "$f" | cut -d/ -f2)
	lm=$(layer "$m")
	bad=0
	for inc in $(sed -n 's/^#include "core\/\([a-z]*\)\/.*/\1/p' "$f"); do
		li=$(layer "$inc")
		if [ "$inc" != "$m" ] && [ "$li" -ge "$lm" ]; then
			echo "$f: includes core/$inc/ (layer $li) from layer $lm"
			bad=1
		fi
	done
	for h in $(sed -n 's/^#include <\(.*\)>.*/\1/p' "$f"); do
		o=$(owner_of "$h")
		if [ -n "$o" ] && [ "$o" != "$m" ]; then
			echo "$f: includes <$h>, which belongs to core/$o/ only"
			bad=1
		fi
		if [ "$h" = "openssl/evp.h" ] || [ "$h" = "openssl/hmac.h" ]; then
			[ "$f" = core/util/crypto.c ] || { echo "$f: OpenSSL outside core/util/crypto.c"; bad=1; }
		fi
	done
	# Comments and strings may name banned functions; code may not.
	if sed -e 's://.*$::' "$f" | grep -E -n "$banned" | grep -v '^\s*\*' \
	   | grep -v '/\*' >/dev/null; then
		sed -e 's://.*$::' "$f" | grep -E -n "$banned" | grep -v '/\*' | sed "s|^|$f:|"
		bad=1
	fi
	if [ "$m" != cli ] && grep -E -n '(^|[^a-z_])(exit|printf|puts|fprintf|perror)[[:space:]]*\(' "$f" \
	   | grep -v 'snprintf\|vsnprintf\|sbuf_\|/\*\|\* ' >/dev/null; then
		grep -E -n '(^|[^a-z_])(exit|printf|puts|fprintf|perror)[[:space:]]*\(' "$f" \
		  | grep -v 'snprintf\|vsnprintf\|sbuf_\|/\*\|\* ' | sed "s|^|$f: prints or exits outside core/cli: |"
		bad=1
	fi
	if [ $bad -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "layers: $pass passed, $fail failed"
[ $fail -eq 0 ]
