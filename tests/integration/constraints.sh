#!/usr/bin/env bash
# The constraint grammar end to end: lower bounds ("gops >= 100") and
# units ("latency <= 0.5ms") hold on every row of the front, exhaustive and
# genetic alike; a bound with a unit sweeps as the same bound in the
# metric's own unit; a bound that admits almost nothing of the board
# ("dsp <= 1") warns at its file:line:col (and -q silences it); an empty
# front names the constraint that removed the most points; board overrides
# within what the board can do are taken.
. "$(dirname "$0")/common.sh"
PY=/usr/bin/python3
SMALL="$SRC/configs/mm-small.cfg"

# with CONSTRAINTS [EXTRA]: mm-small with its constraints replaced, and
# EXTRA lines (printf %b escapes) after them, in $TMP/c.cfg.
with() {
	sed "s|^constraints.*|constraints = $1|" "$SMALL" >"$TMP/c.cfg"
	printf '%b' "${2:-}" >>"$TMP/c.cfg"
}

# rows FILE EXPR: every row r of FILE's front satisfies the Python
# expression, and there are rows.
rows() {
	$PY - "$1" "$2" <<'PYEOF'
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    front = f["mm/front"][:]
bad = [r for r in front if not eval(sys.argv[2], {"r": r})]
sys.exit(0 if len(front) and not bad else 1)
PYEOF
}

# Lower bound and units, exhaustive: GFLOP/s at least 100 and latency at
# most 1.5 ms (1.5e-3 s) on every row; the file records the bounds as
# written, board fit included.
with "gops >= 100 GFLOP/s, latency <= 1.5ms, dsp <= 50%"
run_status 0 "gops >= 100, latency <= 1.5ms" -q -o "$TMP/lo.h5" "$TMP/c.cfg"
rows "$TMP/lo.h5" 'r["gops"] >= 100 and r["latency"] <= 1.5e-3' && ok ||
	fail "a front row breaks gops >= 100 or latency <= 1.5ms"
$PY -c 'import h5py,sys; c=h5py.File(sys.argv[1])["/"].attrs["constraints"]; c=c.decode() if isinstance(c,bytes) else c; sys.exit(0 if c.splitlines()[:3]==["gops >= 100GFLOP/s","latency <= 1.5ms","dsp <= 50%"] and "lut <= 100% of the board (1728000)" in c else 1)' "$TMP/lo.h5" &&
	ok || fail "constraints attribute"
# Without the lower bound the front reaches below 100 GFLOP/s, so the
# bound did remove designs.
with "latency <= 1.5ms, dsp <= 50%"
run_status 0 "latency <= 1.5ms alone" -q -o "$TMP/nolo.h5" "$TMP/c.cfg"
rows "$TMP/nolo.h5" 'r["latency"] <= 1.5e-3' && ok || fail "latency bound"
rows "$TMP/nolo.h5" 'r["gops"] >= 100' && fail "gops >= 100 removed nothing" || ok

# The same bound in another unit sweeps to the same front, row for row.
with "gops >= 0.1 TFLOP/s, latency <= 1500us, dsp <= 50%"
run_status 0 "the same bounds in other units" -q -o "$TMP/lo2.h5" "$TMP/c.cfg"
$PY - "$TMP/lo.h5" "$TMP/lo2.h5" <<'PYEOF' && ok || fail "units change the front"
import sys, h5py
a = h5py.File(sys.argv[1], "r")["mm/front"][:]
b = h5py.File(sys.argv[2], "r")["mm/front"][:]
sys.exit(0 if len(a) and list(a["index"]) == list(b["index"]) else 1)
PYEOF

# Lower bound, genetic: the islands' constrained domination keeps the
# front above it too.
with "gops >= 100, dsp <= 50%"
sed -i "s|^\[search\]$|[search]\nstrategy = genetic\nbudget = 4000\nislands = 2|" "$TMP/c.cfg"
run_status 0 "genetic, gops >= 100" -q -o "$TMP/gen.h5" "$TMP/c.cfg"
rows "$TMP/gen.h5" 'r["gops"] >= 100' && ok ||
	fail "a genetic front row breaks gops >= 100"

# "dsp <= 1", meant as the whole board: a warning at its place, and none
# under -q.
with "dsp <= 1"
line=$(grep -n '^constraints' "$TMP/c.cfg" | cut -d: -f1)
run_status 0 "dsp <= 1" -o "$TMP/one.h5" "$TMP/c.cfg"
expect_line "$err" "^dse: $TMP/c.cfg:$line:15: warning: dsp <= 1 allows 1 DSP, 0.0081% of u250's 12288; a share of the whole board is written dsp <= 1.0 or dsp <= 100%$" "dsp <= 1 warning"
run_status 0 "dsp <= 1, quiet" -q -o "$TMP/one.h5" "$TMP/c.cfg"
grep -q warning <<<"$err" && fail "-q printed a warning: $err" || ok
# A share of the board does not warn.
with "dsp <= 1.0"
run_status 0 "dsp <= 1.0" -o "$TMP/whole.h5" "$TMP/c.cfg"
grep -q warning <<<"$err" && fail "dsp <= 1.0 warned: $err" || ok

# An empty front names the bound that removed the most points, with its
# place, and the sweep still writes its file and exits 0.
with "offchip_bytes <= 1KiB, dsp <= 50%"
run_status 0 "empty front" -o "$TMP/empty.h5" "$TMP/c.cfg"
expect_line "$out" "front of 0 designs" "empty front"
expect_line "$out" "^  the front is empty: every legal design breaks a constraint; of [0-9]+ legal designs looked at again,$" "empty front explained"
expect_line "$out" "^    100\\.0% break offchip_bytes <= 1KiB \\($TMP/c.cfg:$line:15\\)$" "the bound named first"
[ -s "$TMP/empty.h5" ] && ok || fail "no file for an empty front"

# Board overrides within what the board can do.
with "dsp <= 50%"
sed -i 's|^board = u250|board = u250\nmhz = 450\ndram_gbps = 19.2|' "$TMP/c.cfg"
run_status 0 "mhz = 450, dram_gbps = 19.2" eval --json --sa-sizes \
	'{kernel[]->space_time[3];kernel[]->array_part[128,128,8];kernel[]->latency[16,4];kernel[]->simd[4]}' "$TMP/c.cfg"
$PY -c 'import json,sys; d=json.loads(sys.argv[1]); sys.exit(0 if d["mhz"]==450 else 1)' "$out" &&
	ok || fail "mhz = 450 not taken: $out"
finish
