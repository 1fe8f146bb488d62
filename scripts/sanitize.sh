#!/usr/bin/env bash
# Builds the whole tree with AddressSanitizer and UndefinedBehaviorSanitizer
# into build-sanitize/ and runs the test suite there.  Any sanitizer report
# fails the test that triggered it.  Usage: scripts/sanitize.sh [ctest args]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=build-sanitize
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Debug \
	-DDSE_SANITIZE=address,undefined >/dev/null
cmake --build "$dir" -j"$(nproc)"
ctest --test-dir "$dir" --output-on-failure -j2 "$@"
