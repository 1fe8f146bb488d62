#!/usr/bin/env bash
# The two-stage search: a sweep of mm-small with `model = sampled`, whose
# front rows say "sampled" and carry the interval (read with h5py); the
# same front for 1 and 2 ranks and 1 and 2 threads; band_max cutting the
# band (said in the summary); config errors of [search] model and band.
. "$(dirname "$0")/common.sh"
PY=/usr/bin/python3

# mm-small with the two-stage search; $1 extra [search] lines.
config() {
	sed -e '/^\[search\]/a model = sampled\nband = 5%\nseed = 3'"${1:+\\n$1}" \
		"$SRC/configs/mm-small.cfg"
}
config >"$TMP/two.cfg"
config 'band_max = 40' >"$TMP/cut.cfg"

out=$(mpi 1 1 -o "$TMP/a.h5" "$TMP/two.cfg" 2>"$TMP/err") && ok ||
	fail "two-stage sweep failed: $(cat "$TMP/err")"
grep -qE '^  two-stage: [1-9][0-9]* points within 5% of the analytic front' <<<"$out" &&
	ok || fail "no two-stage summary line: $out"
grep -q 'sampled model:' "$TMP/err" && ok || fail "no second-stage progress line"
mpi 2 2 -q -o "$TMP/b.h5" "$TMP/two.cfg" && ok || fail "np 2 x 2 threads failed"
mpi 2 1 -q -o "$TMP/c.h5" "$TMP/two.cfg" && ok || fail "np 2 failed"
out=$(mpi 1 2 -o "$TMP/d.h5" "$TMP/cut.cfg" 2>/dev/null) && ok || fail "band_max sweep failed"
grep -qE '^  two-stage: the band had [0-9]+ points; band_max = 40 left out' <<<"$out" &&
	ok || fail "the summary does not say band_max cut the band: $out"

$PY - "$TMP" <<'PYEOF' && ok || fail "h5py check of the two-stage front"
import sys
import h5py
d = sys.argv[1]

def front(name):
    with h5py.File(f"{d}/{name}.h5", "r") as f:
        return f["mm/front"][:], dict(f.attrs)

a, aa = front("a")
assert len(a) > 1, len(a)
assert all(m == b"sampled" for m in a["model"]), set(a["model"])
for col in ("cycles_low", "cycles_high", "sampled_fraction"):
    assert col in a.dtype.names, col
assert (a["cycles_low"] <= a["cycles"]).all() and (a["cycles"] <= a["cycles_high"]).all()
assert ((a["sampled_fraction"] > 0) & (a["sampled_fraction"] <= 1)).all()
assert aa["search_model"] == b"sampled" or aa["search_model"] == "sampled", aa["search_model"]
assert aa["points_resimulated"] >= len(a), (aa["points_resimulated"], len(a))
assert aa["band_cut"] == 0 and aa["band"] == 0.05, aa
# The same front for any ranks and threads: rows, cycles and intervals.
for other in ("b", "c"):
    o, oa = front(other)
    assert len(o) == len(a), other
    for col in ("index", "cycles", "cycles_low", "cycles_high", "sa_sizes"):
        assert (o[col] == a[col]).all(), (other, col)
    assert oa["points_resimulated"] == aa["points_resimulated"]
cut, ca = front("d")
assert ca["points_resimulated"] == 40, ca["points_resimulated"]
assert ca["band_cut"] == ca["band_points"] - 40 > 0, ca
assert all(m == b"sampled" for m in cut["model"])
PYEOF

# A plain sweep: analytic rows, nothing re-simulated.
mpi 1 1 -q -o "$TMP/p.h5" "$SRC/configs/mm-small.cfg" && ok || fail "plain sweep failed"
$PY -c '
import sys, h5py
f = h5py.File(sys.argv[1], "r")
a = f["mm/front"][:]
assert all(m == b"analytic" for m in a["model"])
assert (a["cycles_low"] == a["cycles"]).all() and (a["sampled_fraction"] == 0).all()
assert f.attrs["points_resimulated"] == 0
' "$TMP/p.h5" && ok || fail "plain sweep rows are not analytic"

# Config errors: position, key, message, status 2, no file written.
bad() {	# bad LINE PATTERN: LINE in place of "band = 5%"
	sed -e "s/^band = 5%\$/$1/" "$TMP/two.cfg" >"$TMP/bad.cfg"
	out=$("$DSE" -q -o "$TMP/bad.h5" "$TMP/bad.cfg" 2>&1)
	status=$?
	if [ $status -ne 2 ] || ! grep -qE -- "$2" <<<"$out" || [ -e "$TMP/bad.h5" ]; then
		fail "bad config '$1': exit $status: $out"
	else
		ok
	fi
}
bad 'band = -0.1' "bad.cfg:[0-9]+:8: error: band must be a fraction from 0 to 10.*key 'band'"
bad 'band = 11' "band must be a fraction"
bad 'band = ten' "got 'ten'"
bad 'band = 5%%' "got '5%%'"
bad 'band_max = 20000000' "bad.cfg:[0-9]+:12: error: band_max must be at most 10000000 points, key 'band_max'"
sed -e 's/^model = sampled$/model = exact/' "$TMP/two.cfg" >"$TMP/bad.cfg"
out=$("$DSE" -q -o "$TMP/bad.h5" "$TMP/bad.cfg" 2>&1)
[ $? -eq 2 ] && grep -qE "bad.cfg:[0-9]+:9: error: .*expected one of: analytic, sampled, key 'model'" <<<"$out" &&
	ok || fail "bad model: $out"
finish
