#!/bin/sh
# make deps: install the Debian packages the build and the tests need, only
# those missing (dpkg-query first), through sudo when not root. Touches no
# other registry. A second run installs nothing.
set -eu
PKGS="libyaml-dev libpcre2-dev liblua5.4-dev libcriterion-dev libssl-dev pkg-config
python3 python3-yaml python3-jsonschema
valgrind clang libclang-rt-14-dev clang-tidy cppcheck lua-check gcovr"
missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done
if [ -z "$missing" ]; then
	echo "deps: everything is installed"
	exit 0
fi
echo "deps: installing$missing"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q || true
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing
