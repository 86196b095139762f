#!/bin/sh
# Installs what schedlab needs to build and test on Debian (12+):
# a C17 compiler, GNU make, cmocka for the unit tests, gnuplot (no X) to
# render --plot's pictures.
set -e
pkgs="gcc make libcmocka-dev gnuplot-nox procps"
if [ "$(id -u)" -eq 0 ]; then
	sudo=
else
	sudo=sudo
fi
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	export DEBIAN_FRONTEND=noninteractive
	$sudo apt-get update -qq
	$sudo apt-get install -y -qq $missing
fi
