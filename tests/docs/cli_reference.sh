#!/usr/bin/env bash
# docs/reference/cli.md is what the command table generates ("dse help
# --markdown"); a command whose help changed without the page, or the
# other way round, fails here with the difference.
# Usage: cli_reference.sh DSE SOURCE_DIR
set -u
DSE=$1
SRC=$2
TMP=$(mktemp)
trap 'rm -f "$TMP"' EXIT
"$DSE" help --markdown > "$TMP" || { echo "FAIL: dse help --markdown exited $?"; exit 1; }
if ! diff -u "$SRC/docs/reference/cli.md" "$TMP"; then
	echo "FAIL: docs/reference/cli.md differs from the command table;"
	echo "regenerate it: build/dse help --markdown > docs/reference/cli.md"
	exit 1
fi
# Every command of the table has its section, so a new command cannot
# be left out of the page.
for c in analyze eval simulate tune show scalesim help; do
	grep -q "^## dse $c\$" "$TMP" || { echo "FAIL: no section for dse $c"; exit 1; }
done
echo "docs/reference/cli.md matches the command table"
