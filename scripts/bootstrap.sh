#!/usr/bin/env bash
# Installs the Debian packages dse needs (only those missing), then
# configures and builds it into build/.  Safe to run again: it only does
# what is left to do.  Usage: scripts/bootstrap.sh [cmake options...]
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake pkg-config libisl-dev libopenmpi-dev
	openmpi-bin libhdf5-dev hdf5-tools libcmocka-dev python3-h5py)

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "bootstrap: installing ${missing[*]}" >&2
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
		--no-install-recommends "${missing[@]}" >/dev/null
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
echo "bootstrap: built build/dse" >&2
