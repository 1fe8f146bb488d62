#!/usr/bin/env bash
# scripts/plot_front.py on two results files (two space-time candidates of
# the small matrix multiply): a PNG of a non-trivial size, and exit status
# 2 for a missing file or column.
. "$(dirname "$0")/common.sh"

PLOT="$SRC/scripts/plot_front.py"
for st in 3 4; do
	sed -e "s|^\[space\]|[space]\nspace_time = $st|" \
		-e "s|^file = .*|cloud = 2000|" \
		"$SRC/configs/mm-small.cfg" >"$TMP/st$st.cfg"
	"$DSE" -q -o "$TMP/st$st.h5" "$TMP/st$st.cfg" && ok ||
		fail "sweep of space-time $st failed"
done

/usr/bin/python3 "$PLOT" "$TMP/st3.h5" "$TMP/st4.h5" -o "$TMP/front.png" \
	2>"$TMP/err" && ok || fail "plot_front.py failed: $(cat "$TMP/err")"
# The PNG signature, then a size no empty canvas reaches: the two clouds'
# dots and the fronts' markers are what make it large.
sig=$(head -c 8 "$TMP/front.png" | od -An -tx1 | tr -d ' \n')
[ "$sig" = "89504e470d0a1a0a" ] && ok || fail "not a PNG: signature $sig"
size=$(stat -c %s "$TMP/front.png" 2>/dev/null || echo 0)
[ "$size" -gt 30000 ] && ok || fail "PNG of only $size bytes"
/usr/bin/python3 "$PLOT" "$TMP/st3.h5" -o "$TMP/empty.png" -x latency \
	-y dsp --logx off --logy on && ok || fail "explicit axes failed"

/usr/bin/python3 "$PLOT" "$TMP/st3.h5" -y nosuch -o "$TMP/x.png" \
	2>"$TMP/err"
[ $? -eq 2 ] && ok || fail "unknown column: status not 2"
expect_line "$(cat "$TMP/err")" "no column 'nosuch'.*bram18k" \
	"unknown column lists the columns"
/usr/bin/python3 "$PLOT" "$TMP/nothere.h5" -o "$TMP/x.png" 2>"$TMP/err"
[ $? -eq 2 ] && ok || fail "missing file: status not 2"
expect_line "$(cat "$TMP/err")" "nothere.h5" "missing file named"
/usr/bin/python3 "$PLOT" "$TMP/st3.cfg" -o "$TMP/x.png" 2>"$TMP/err"
[ $? -eq 2 ] && ok || fail "not a results file: status not 2"
[ ! -e "$TMP/x.png" ] && ok || fail "an image was written after an error"
/usr/bin/python3 "$PLOT" --help | grep -q "^usage: plot_front.py" && ok ||
	fail "--help"
finish
