#!/usr/bin/env bash
# The bad-input corpus: every config of cfg/ (and through them every graph
# and topology file of data/) and every command line of cmdline.tsv must
# be refused with the expected exit status and message, and leave no file
# behind: no results file, no temporary "*.tmp.*" file.  A config must
# also say where the problem is: its first error line is
# "dse: FILE:LINE:COL: error: ..." with LINE at least 1.
# Usage: bad.sh DSE SOURCE_DIR
. "$(dirname "$0")/../integration/common.sh"
BAD="$SRC/tests/bad"
export OMP_NUM_THREADS=1

# no_output WHAT: nothing was written in the scratch folder.
no_output() {
	local left
	left=$(ls -A "$TMP" | grep -v '^err$' || true)
	if [ -z "$left" ]; then
		ok
	else
		fail "$1: left $(tr '\n' ' ' <<<"$left")in the output folder"
		(cd "$TMP" && rm -rf -- $left)
	fi
}

# The configs.  Each runs in the scratch folder, so a relative output path
# would land there too.
n=0
while IFS=$'\t' read -r file want regex; do
	case "$file" in '' | '#'*) continue ;; esac
	n=$((n + 1))
	if [ ! -f "$BAD/$file" ]; then
		fail "$file: no such file in the corpus"
		continue
	fi
	# This graph is refused for the memory it needs (64 GiB); a machine
	# with that much would build it instead, for minutes.
	if [ "$file" = cfg/graph-huge-vertices-mtx.cfg ] &&
	   [ "$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)" -ge 67108864 ]; then
		echo "skipped $file: this machine has 64 GiB of memory or more"
		continue
	fi
	(cd "$TMP" && "$DSE" -q -o "$TMP/out.h5" "$BAD/$file") 2>"$TMP/err" \
		>/dev/null
	status=$?
	first=$(head -n 1 "$TMP/err")
	if [ "$status" -ne "$want" ]; then
		fail "$file: exit $status, not $want: $first"
	elif ! grep -qE -- "$regex" "$TMP/err"; then
		fail "$file: no /$regex/ in: $first"
	elif ! grep -qE -- '^dse: [^ ]+:[1-9][0-9]*:[0-9]+: error: ' <<<"$first"; then
		fail "$file: the error names no file:line: $first"
	else
		ok
	fi
	rm -f "$TMP/err"
	no_output "$file"
done <"$BAD/expect.tsv"

# Every config of cfg/ and every C kernel of c/ (run as "dse kernel.c") is
# in the manifest, and the corpus is complete.
for f in "$BAD"/cfg/*.cfg; do
	grep -q "^cfg/$(basename "$f")	" "$BAD/expect.tsv" && ok ||
		fail "cfg/$(basename "$f") is not in expect.tsv"
done
for f in "$BAD"/c/*.c; do
	case "$(basename "$f")" in two-scops.c) continue ;; esac
	grep -q "^c/$(basename "$f")	" "$BAD/expect.tsv" && ok ||
		fail "c/$(basename "$f") is not in expect.tsv"
done
[ "$n" -ge 80 ] && ok || fail "only $n configs in expect.tsv"

# Command lines: @SRC@ stands for the source folder, @BAD@ for this one;
# words are split on blanks.  These errors are about no file, so only the
# status and the message are checked.
while IFS=$'\t' read -r args want regex; do
	case "$args" in '' | '#'*) continue ;; esac
	args=${args//@SRC@/$SRC}
	args=${args//@BAD@/$BAD}
	# Split on blanks, but "[16,16]" is no file pattern.
	# shellcheck disable=SC2086
	(set -f && cd "$TMP" && "$DSE" $args) 2>"$TMP/err" >/dev/null
	status=$?
	if [ "$status" -ne "$want" ]; then
		fail "dse $args: exit $status, not $want: $(head -n 1 "$TMP/err")"
	elif ! grep -qE -- "$regex" "$TMP/err"; then
		fail "dse $args: no /$regex/ in: $(head -n 1 "$TMP/err")"
	else
		ok
	fi
	rm -f "$TMP/err"
	no_output "dse $args"
done <"$BAD/cmdline.tsv"
finish
