#!/usr/bin/env bash
# Runs every single-rank unit test of a build under
# valgrind --leak-check=full --error-exitcode=1: the cmocka executables
# ctest knows, with their arguments, working directory and environment.
# Tests that start MPI ranks (OpenMPI never frees part of what MPI_Init
# allocates), the shell-script integration tests and the tests that run
# valgrind themselves are left out.  Prints one line per test and a
# summary; exits 1 when valgrind found an error or a leak in any test.
#
# Usage: scripts/valgrind.sh [build-dir] [name-regex]   (default: build, all)
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
build=${1:-build}
pattern=${2:-.}

. scripts/install-missing.sh
install_missing valgrind valgrind

list=$(mktemp)
logs=$(mktemp -d)
trap 'rm -rf "$list" "$logs"' EXIT
ctest --test-dir "$build" --show-only=json-v1 >"$list" || exit 1

# One line per test: name, working directory, environment (k=v;...), then
# the command, separated by the unit separator (0x1f), which, unlike a
# tab, keeps an empty field.  Only the build's own executables are run
# (not python3 or h5dump checks).
/usr/bin/python3 - "$list" "$pattern" "$(cd "$build" && pwd)" \
	>"$logs/tests" <<'EOF'
import json, os, re, sys
tests = json.load(open(sys.argv[1]))["tests"]
pat, build = re.compile(sys.argv[2]), sys.argv[3] + os.sep
for t in tests:
    cmd, name = t.get("command") or [], t["name"]
    props = {p["name"]: p["value"] for p in t.get("properties", [])}
    if not cmd or not pat.search(name) or not cmd[0].startswith(build):
        continue
    if any("mpiexec" in c or "mpirun" in c or c.endswith(".sh")
           for c in cmd) or "memcheck" in name or "valgrind" in name:
        continue
    env = props.get("ENVIRONMENT", [])
    env = ";".join(env) if isinstance(env, list) else env
    print("\x1f".join([name, props.get("WORKING_DIRECTORY", "."), env] +
                      cmd))
EOF

n=0
bad=0
start=$(date +%s)
while IFS=$'\x1f' read -r name dir env cmd; do
	n=$((n + 1))
	cmd=${cmd//$'\x1f'/ }
	# shellcheck disable=SC2086
	if (cd "$dir" && env ${env//;/ } valgrind --quiet --leak-check=full \
		--errors-for-leak-kinds=definite,indirect --error-exitcode=1 \
		--suppressions="$root/tests/support/valgrind.supp" \
		$cmd >"$logs/$n.log" 2>&1); then
		echo "valgrind: clean   $name"
	else
		bad=$((bad + 1))
		echo "valgrind: FAILED  $name"
		tail -30 "$logs/$n.log" | sed 's/^/    /'
	fi
done <"$logs/tests"
echo "valgrind: $n tests, $bad with findings, $(($(date +%s) - start)) s"
[ "$bad" -eq 0 ]
