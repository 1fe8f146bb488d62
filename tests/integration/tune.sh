#!/usr/bin/env bash
# "dse tune": the best design for one objective, from a search or from a
# results file, emitted for AutoSA, Tensil or as JSON.
. "$(dirname "$0")/common.sh"
PY=/usr/bin/python3
MM="$SRC/configs/mm-small.cfg"

# The AutoSA form: a --simd-info file and a command with the design.
"$DSE" tune -q --objective latency "$MM" >"$TMP/autosa.sh" 2>"$TMP/err" &&
	ok || fail "tune mm: $(cat "$TMP/err")"
grep -qE '^\./autosa \./mm\.c .*--sa-sizes="\{kernel\[\]->space_time\[3\];.*\}" --simd-info=\./simd_info\.json' \
	"$TMP/autosa.sh" && ok || fail "no AutoSA command in: $(cat "$TMP/autosa.sh")"
# The snippet runs and writes a --simd-info file JSON can read.
(cd "$TMP" && sed '/^\.\/autosa/d' autosa.sh | bash) &&
	$PY -c "import json; d=json.load(open('$TMP/simd_info.json')); \
assert d == {'kernel3': {'reduction': ['y']}}" && ok ||
	fail "simd_info.json from the snippet"

# The tuned design is the one of least latency: no row of the sweep's
# front (which has latency as an objective) does better.
"$DSE" -q -o "$TMP/mm.h5" "$MM" && ok || fail "mm sweep"
"$DSE" tune -q --objective latency --emit json "$MM" >"$TMP/t.json" &&
	ok || fail "tune --emit json"
"$DSE" tune --from "$TMP/mm.h5" --objective latency --emit json \
	>"$TMP/f.json" && ok || fail "tune --from"
$PY - "$TMP/mm.h5" "$TMP/t.json" "$TMP/f.json" <<'PYEOF' && ok || fail "tuned latency"
import json, sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    best = min(f["mm/front"]["latency"])
t = json.load(open(sys.argv[2]))
fr = json.load(open(sys.argv[3]))
assert abs(t["metrics"]["latency"] - best) <= 1e-12 * best, (t, best)
assert abs(fr["metrics"]["latency"] - best) <= 1e-12 * best, (fr, best)
assert t["objective"] == "latency" and t["family"] == "systolic"
PYEOF
# Another objective: the least energy, written atomically with -o.
"$DSE" tune -q --objective energy --emit json -o "$TMP/e.json" "$MM" &&
	[ -s "$TMP/e.json" ] && [ ! -e "$TMP/e.json.tmp" ] && ok ||
	fail "tune -o"
$PY -c "import json; d=json.load(open('$TMP/e.json')); \
assert d['objective'] == 'energy' and d['metrics']['energy'] > 0" && ok ||
	fail "energy JSON"

# Tensil's .tarch for an overlay-systolic workload.
"$DSE" tune -q "$SRC/configs/tensil-resnet20.cfg" >"$TMP/best.tarch" &&
	$PY -c "import json; d=json.load(open('$TMP/best.tarch')); \
assert set(d) == {'data_type', 'array_size', 'dram0_depth', 'dram1_depth', \
'local_depth', 'accumulator_depth', 'simd_registers_depth', \
'stride0_depth', 'stride1_depth'}" && ok || fail "tensil .tarch"

# Bad input: status 2, nothing written.
run_status 2 "unknown objective" tune --objective foo "$MM"
run_status 2 "unknown form" tune --emit verilog "$MM"
run_status 2 "tensil form of a kernel" tune --emit tensil -o "$TMP/x" "$MM"
[ ! -e "$TMP/x" ] && ok || fail "a file written for a bad --emit"
run_status 2 "autosa form of a workload" tune --emit autosa \
	"$SRC/configs/gnn-overlay.cfg"
run_status 2 "missing results file" tune --from "$TMP/none.h5"
run_status 2 "--from with a config" tune --from "$TMP/mm.h5" "$MM"
finish
