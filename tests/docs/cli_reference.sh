#!/usr/bin/env bash
# The generated reference pages are what dse generates: docs/reference/cli.md
# from the command table ("dse help --markdown"), docs/reference/families.md
# from the workload families' tables ("dse help --families").  A help text or
# a family's knob that changed without its page, or the other way round,
# fails here with the difference.
# Usage: cli_reference.sh DSE SOURCE_DIR [cli|families]
set -u
DSE=$1
SRC=$2
PAGE=${3:-cli}
case $PAGE in
cli) OPT=--markdown ;;
families) OPT=--families ;;
*) echo "FAIL: no generated page '$PAGE'"; exit 1 ;;
esac
TMP=$(mktemp)
trap 'rm -f "$TMP"' EXIT
"$DSE" help $OPT > "$TMP" || { echo "FAIL: dse help $OPT exited $?"; exit 1; }
if ! diff -u "$SRC/docs/reference/$PAGE.md" "$TMP"; then
	echo "FAIL: docs/reference/$PAGE.md differs from what dse generates;"
	echo "regenerate it: build/dse help $OPT > docs/reference/$PAGE.md"
	exit 1
fi
if [ "$PAGE" = families ]; then
	# Every family dse knows has its section.
	for f in gnn-overlay gnn-dataflow overlay-systolic; do
		grep -q "^## $f\$" "$TMP" || { echo "FAIL: no section for $f"; exit 1; }
	done
	echo "docs/reference/families.md matches the families' tables"
	exit 0
fi
# Every command of the table has its section, so a new command cannot
# be left out of the page.
for c in analyze eval simulate tune show scalesim help; do
	grep -q "^## dse $c\$" "$TMP" || { echo "FAIL: no section for dse $c"; exit 1; }
done
echo "docs/reference/cli.md matches the command table"
