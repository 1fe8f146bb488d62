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
# It writes the C file the command names, too (no C file nobody wrote).
grep -q '^void mm(' "$TMP/mm.c" 2>/dev/null && ok ||
	fail "no mm.c from the snippet"

# same_analysis A B WHAT: two "dse analyze --json" outputs agree on
# everything but the names of the kernel and its config and the timings:
# loops in the same order, candidates, dependences, I/O groups, counts.
same_analysis() {
	$PY - "$1" "$2" <<'PYEOF' && ok || fail "$3: the analyses differ"
import json, sys
skip = {"tool_version", "config_file", "kernel", "read_seconds",
        "analysis_seconds", "c_reader_seconds"}
a, b = (json.load(open(f)) for f in sys.argv[1:3])
for k in sorted(set(a) | set(b)):
    if k not in skip and a.get(k) != b.get(k):
        print(k, json.dumps(a.get(k))[:400], json.dumps(b.get(k))[:400])
        sys.exit(1)
PYEOF
}

# The folder form (-o DIR): the kernel's C file, simd_info.json and
# autosa.sh with the full command line, which holds the design's
# --sa-sizes (the tuned design of --emit json) and names the files.
"$DSE" tune -q --objective latency -o "$TMP/sa" "$MM" >"$TMP/cmd" \
	2>"$TMP/err" && ok || fail "tune -o DIR: $(cat "$TMP/err")"
for f in mm.c simd_info.json autosa.sh; do
	[ -s "$TMP/sa/$f" ] && ok || fail "no $f in the folder"
done
design=none
"$DSE" tune -q --objective latency --emit json "$MM" >"$TMP/d.json" &&
	design=$($PY -c "import json; print(json.load(open('$TMP/d.json'))['design'])") &&
	ok || fail "tune --emit json for the design"
grep -qF -- "--sa-sizes=\"$design\"" "$TMP/sa/autosa.sh" && ok ||
	fail "autosa.sh lacks --sa-sizes=\"$design\": $(cat "$TMP/sa/autosa.sh")"
dir=$(cd "$TMP/sa" && pwd -P)
grep -qF -- "$dir/mm.c --config=" "$TMP/sa/autosa.sh" &&
	grep -qF -- "--simd-info=$dir/simd_info.json" "$TMP/sa/autosa.sh" &&
	[ -x "$TMP/sa/autosa.sh" ] && ok ||
	fail "autosa.sh does not name the folder's files"
grep -qF -- "--sa-sizes=\"$design\"" "$TMP/cmd" && ok ||
	fail "the command is not on standard output"
# The C written from the isl kernel reads back, through dse's C reader,
# to the analysis of the config.
"$DSE" analyze --json "$MM" >"$TMP/isl.json" &&
	"$DSE" analyze --json "$TMP/sa/mm.c" >"$TMP/c.json" && ok ||
	fail "analyze the emitted C"
same_analysis "$TMP/isl.json" "$TMP/c.json" "emitted mm.c"

# A C kernel: its file as it is, with the config's defines as -D.
mkdir -p "$TMP/g"
cp "$SRC/configs/kernels/gemm.c" "$TMP/g/gemm.c"
printf '%s\n' "[kernel]" "name = gemm" "source = gemm.c" \
	"defines = NI=64, NJ=32, NK=16" "[platform]" "board = u250" \
	"[space]" "array_part = 1..64 divisors" "latency = 1..8 pow2" \
	"simd = 1, 2" "[search]" "objectives = latency, dsp" \
	>"$TMP/g/gemm.cfg"
"$DSE" tune -q --objective latency -o "$TMP/g/out" "$TMP/g/gemm.cfg" \
	>/dev/null 2>"$TMP/err" && ok || fail "tune gemm.c: $(cat "$TMP/err")"
cmp -s "$TMP/g/gemm.c" "$TMP/g/out/gemm.c" && ok ||
	fail "gemm.c is not written as it is"
grep -qF -- "-DNI=64 -DNJ=32 -DNK=16" "$TMP/g/out/autosa.sh" && ok ||
	fail "no -D in: $(cat "$TMP/g/out/autosa.sh")"
# -o naming the kernel's folder would overwrite its source: refused.
run_status 2 "-o over the C source" tune -q -o "$TMP/g" "$TMP/g/gemm.cfg"
cmp -s "$SRC/configs/kernels/gemm.c" "$TMP/g/gemm.c" && ok ||
	fail "the C source was overwritten"
# -o naming a file that is not a folder: refused before any work.
: >"$TMP/plain"
run_status 2 "-o a plain file" tune -q -o "$TMP/plain" "$MM"

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
