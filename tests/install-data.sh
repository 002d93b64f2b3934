#!/bin/sh
# Install the data root (spec/core.md 15.2): every shipped pack but demo,
# the schemas (not the demo's), lua/ helpers and validation registries.
# Re-running is harmless; every path is quoted.
set -eu
dest=$1
cd "$(dirname "$0")/.."
install -d "$dest/rules" "$dest/schemas" "$dest/lua" "$dest/validation"
for p in rules/*/; do
	name=$(basename "$p")
	[ "$name" = demo ] && continue
	[ -f "$p/pack.lua" ] || continue
	find "$p" -type d | while read -r d; do install -d "$dest/$d"; done
	find "$p" -type f | while read -r f; do install -m 0644 "$f" "$dest/$f"; done
done
for s in schemas/*.yaml; do
	grep -q '^pack: demo$' "$s" && continue
	install -m 0644 "$s" "$dest/$s"
done
for l in lua/*.lua; do
	[ -f "$l" ] && install -m 0644 "$l" "$dest/$l"
done
for v in validation/*.yaml; do
	[ -f "$v" ] || continue
	[ "$(basename "$v")" = demo.yaml ] && continue
	install -m 0644 "$v" "$dest/$v"
done
