#!/usr/bin/env bash
# The README's "Reading the results" snippet, run as a user runs it: the
# default sweep's results file in results/mm.h5, then the Python block of
# that section under /usr/bin/python3 (Debian's h5py and pandas).  It must
# run without error and print the front's units, the board and the sorted
# table, so the front door's example never goes stale.
# Usage: readme_python.sh DSE SOURCE_DIR
set -euo pipefail
DSE=$1
SRC=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir "$TMP/results"
"$DSE" -q -o "$TMP/results/mm.h5" "$SRC/configs/mm.cfg"
# The first ```python block after the "## Reading the results" heading.
awk '/^## Reading the results/ { sect = 1 }
     sect && /^```python/ { code = 1; next }
     code && /^```/ { exit }
     code { print }' "$SRC/README.md" > "$TMP/snippet.py"
if [ ! -s "$TMP/snippet.py" ]; then
	echo "FAIL: no python block under '## Reading the results' in README.md"
	exit 1
fi
out=$(cd "$TMP" && /usr/bin/python3 snippet.py)
echo "$out"
# The units of latency and DSP, the board, then rows of the front with
# their sa_sizes strings decoded to text.
grep -qE '^s DSP u250 [0-9]+$' <<<"$out" ||
	{ echo "FAIL: no 's DSP u250 <points>' line"; exit 1; }
grep -q '{kernel\[\]->space_time\[3\]' <<<"$out" ||
	{ echo "FAIL: no sa_sizes string in the table"; exit 1; }
echo "README snippet: ok"
