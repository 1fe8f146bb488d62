#!/usr/bin/env bash
# [search] front_max and front_resolution on a sweep whose exact front in
# six objectives outgrows the bound: the thinned front fits, covers every
# exact design within (1 + eps)^2 and dse says so; a front kept in boxes
# from the start is the same for 1 rank and 2 ranks x 2 threads.
. "$(dirname "$0")/common.sh"

six="latency, dsp, bram18k, lut, energy, ff"
# bench/conv-vgg.cfg ([search] holds objectives) with six objectives.
sed -e "s|^objectives *= .*|objectives = $six|" \
	"$SRC/bench/conv-vgg.cfg" >"$TMP/exact.cfg"
grep -q "^objectives = $six" "$TMP/exact.cfg" && ok ||
	fail "no objectives key in $TMP/exact.cfg"
sed -e "s|^objectives *= .*|&\nfront_max = 1000|" "$TMP/exact.cfg" \
	>"$TMP/bounded.cfg"
sed -e "s|^objectives *= .*|&\nfront_resolution = 5%|" "$TMP/exact.cfg" \
	>"$TMP/boxes.cfg"

run_status 0 "exact sweep" -q -o "$TMP/exact.h5" "$TMP/exact.cfg"
run_status 0 "bounded sweep" -o "$TMP/bounded.h5" "$TMP/bounded.cfg"
expect_line "$err" "warning: the front outgrew front_max = 1000 points and was thinned to one design per box of [0-9.]+%" \
	"the thinning is reported"
expect_line "$err" "set front_resolution = [0-9.]+ for this front on any number of ranks" \
	"the report says how to reproduce the front"
/usr/bin/python3 "$(dirname "$0")/check_front_max.py" "$TMP/exact.h5" \
	"$TMP/bounded.h5" conv 1000 latency dsp bram18k lut energy ff &&
	ok || fail "the bounded front against the exact one"

run_status 0 "box sweep on one rank" -o "$TMP/boxes1.h5" "$TMP/boxes.cfg"
! grep -q "warning" <<<"$err" && ok ||
	fail "a box front within the bound warned: $err"
expect_line "$out" "front: one design per box of 5%" "box front reported"
mpi 2 2 -q -o "$TMP/boxes2.h5" "$TMP/boxes.cfg" && ok ||
	fail "box sweep on two ranks failed"
run_status 0 "box front, one rank" show --csv --all "$TMP/boxes1.h5"
one=$out
run_status 0 "box front, two ranks" show --csv --all "$TMP/boxes2.h5"
[ -n "$one" ] && [ "$one" = "$out" ] && ok ||
	fail "the box fronts of 1 and 2 ranks x 2 threads differ"
run_status 0 "show a box front" show "$TMP/boxes1.h5"
expect_line "$out" "rows, one design per box of 5% in every objective" \
	"dse show says the front is kept in boxes"
run_status 0 "show an exact front" show "$TMP/exact.h5"
! grep -q "per box" <<<"$out" && ok ||
	fail "dse show calls an exact front boxed: $out"
/usr/bin/python3 -c "
import sys, h5py
f = h5py.File(sys.argv[1], 'r')
r = f.attrs['front_resolution_reached']
sys.exit('%r' % r if abs(r - 0.05) > 1e-12 else 0)
" "$TMP/boxes2.h5" && ok || fail "front_resolution_reached is not 0.05"
finish
