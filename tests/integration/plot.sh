#!/usr/bin/env bash
# scripts/plot_front.py on real results files (two space-time candidates of
# the small matrix multiply, a Tensil sweep): each view (the front with the
# board's limit, the constraints, labels and a colour column; the
# roofline; two fronts overlaid) as a PNG that is not blank and an SVG
# whose legend names its series; exit status 2 for a missing file or
# column.
. "$(dirname "$0")/common.sh"

PLOT="$SRC/scripts/plot_front.py"
for st in 3 4; do
	sed -e "s|^\[space\]|[space]\nspace_time = $st|" \
		-e "s|^file = .*|cloud = 2000|" \
		"$SRC/configs/mm-small.cfg" >"$TMP/st$st.cfg"
	"$DSE" -q -o "$TMP/st$st.h5" "$TMP/st$st.cfg" && ok ||
		fail "sweep of space-time $st failed"
done

CHECK="/usr/bin/python3 $(dirname "$0")/check_plot.py"
# view NAME ARGS... -- TEXT...: renders ARGS to NAME.png and NAME.svg, and
# checks both (the SVG's text must hold every TEXT).
view() {
	local name=$1 args=() want=()
	shift
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do args+=("$1"); shift; done
	[ $# -gt 0 ] && shift
	want=("$@")
	/usr/bin/python3 "$PLOT" "${args[@]}" -o "$TMP/$name.png" \
		-o "$TMP/$name.svg" 2>"$TMP/err" && ok ||
		fail "$name: plot_front.py failed: $(cat "$TMP/err")"
	$CHECK "$TMP/$name.png" && ok || fail "$name: blank PNG"
	$CHECK "$TMP/$name.svg" "${want[@]}" && ok ||
		fail "$name: the SVG's legend lacks a series"
}
# The front: mm-small's constraints (dsp <= 50%, bram18k <= 0.5 of the
# U250) and the board's DSP on the y axis, its third objective (bram18k)
# as the colour bar, each design's PE shape.
view front "$TMP/st3.h5" -- "front of" "cloud of" "u250: dsp 12288" \
	"constraint dsp <= 50%" "bram18k (BRAM18K)" "1x1"
view front_bram "$TMP/st3.h5" -y bram18k -x latency --color gops -- \
	"u250: bram18k 5376" "gops (GOP/s)"
view roofline "$TMP/st3.h5" --view roofline -- "u250 roof" \
	"operational intensity"
view overlay "$TMP/st3.h5" "$TMP/st4.h5" -- "space-time 3" "space-time 4"
"$DSE" -q -o "$TMP/tensil.h5" "$SRC/configs/tensil-mlp.cfg" && ok ||
	fail "tensil sweep failed"
view tensil "$TMP/tensil.h5" -x latency -y dsp -- "(overlay-systolic)" \
	"array_size="
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
