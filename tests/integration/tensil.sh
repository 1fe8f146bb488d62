#!/usr/bin/env bash
# Overlay-systolic (Tensil) workloads end to end: "dse simulate" in every
# mode, a sweep whose front h5py reads, and bad [workload] inputs refused
# with status 2, file:line:col and the key, before anything is written.
. "$(dirname "$0")/common.sh"
PY=/usr/bin/python3
RN="$SRC/configs/tensil-resnet20.cfg"
MLP="$SRC/configs/tensil-mlp.cfg"

json() {
	$PY -c "import json,sys; d=json.load(open('$1')); sys.exit(0 if ($2) else 1)"
}

for mode in analytic sampled full; do
	if "$DSE" simulate --json --mode $mode --design "array_size=12" \
		"$RN" >"$TMP/$mode.json" 2>"$TMP/err"; then
		ok
	else
		fail "simulate $mode: $(cat "$TMP/err")"
		continue
	fi
	json "$TMP/$mode.json" "d['model'] == '$mode' and d['status'] == 'ok' \
and d['cycles'] > 0 and d['dsp'] > 0 and d['family'] == 'overlay-systolic' \
and 'array_size=12' in d['design']" && ok || fail "$mode: JSON fields"
done
json "$TMP/full.json" "d['tiles_simulated'] == d['tiles'] > 0" && ok ||
	fail "full: not every stage simulated"
$PY - "$TMP/full.json" "$TMP/sampled.json" "$TMP/analytic.json" <<'PYEOF' && ok ||
import json, sys
f, s, a = (json.load(open(p)) for p in sys.argv[1:4])
# The sampled model is within 5% of the full one; the analytic model,
# which does not overlap instructions the way the pipeline does, within
# a factor of two of it.
sys.exit(0 if abs(s["cycles"] - f["cycles"]) <= 0.05 * f["cycles"] and
         0.5 * f["cycles"] <= a["cycles"] <= 2.0 * f["cycles"] else 1)
PYEOF
	fail "sampled or analytic far from full"
# A design a layer does not fit: exit 1, the status and the layer with the
# memory it lacks, in text and in JSON.
run_status 1 "illegal design" simulate --design "array_size=12 local_depth=64" "$RN"
grep -q "local memory too small" <<<"$out" &&
	grep -q "why .*layer '.*' (.* of .*): local memory too small: its smallest stage needs [0-9]* vectors, local_depth is 64" <<<"$out" &&
	grep -q "illegal design.*local_depth is 64" <<<"$err" && ok ||
	fail "illegal design: $out $err"
"$DSE" simulate --json --design "array_size=12 local_depth=64" "$RN" \
	>"$TMP/bad.json" 2>/dev/null
json "$TMP/bad.json" "d['status'].startswith('a layer fits no tiling') and \
'local_depth is 64' in d['why']" && ok || fail "illegal design: JSON why"
run_status 2 "unknown --design knob" simulate --design "n_pe=4" "$RN"
grep -q "no knob 'n_pe'" <<<"$err" && ok || fail "unknown knob: $err"

# Sweeps of a built-in network and of a GEMM topology file.
for cfg in "$RN" "$MLP"; do
	name=$(basename "$cfg" .cfg)
	if "$DSE" -q -o "$TMP/$name.h5" "$cfg"; then ok; else fail "$name sweep"; fi
	$PY - "$TMP/$name.h5" <<'PYEOF' && ok || fail "$name results file"
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    fam = f.attrs["family"]
    assert fam in ("overlay-systolic", b"overlay-systolic"), fam
    kernel = f.attrs["kernel"]
    kernel = kernel.decode() if isinstance(kernel, bytes) else kernel
    front = f[kernel + "/front"][...]
    for k in ("array_size", "local_depth", "accumulator_depth", "latency",
              "dsp", "bram18k", "design"):
        assert k in front.dtype.names, k
    assert len(front) > 0
PYEOF
done

# A sweep that loses points shows one of each kind with what is wrong.
printf '[workload]\nfamily = overlay-systolic\nmodel = resnet20v2\n[platform]\nboard = pynq-z1\n[space]\narray_size = 12\nlocal_depth = 64, 8192\n' \
	>"$TMP/lost.cfg"
if "$DSE" -o "$TMP/lost.h5" "$TMP/lost.cfg" >"$TMP/lost.out" 2>"$TMP/err"; then
	grep -q "left out: 0 over a constraint, 1 illegal (a layer fits no tiling" "$TMP/lost.out" &&
		grep -q "e.g. array_size=12 local_depth=64 .*: layer '.*' (1 of 23): local memory too small" "$TMP/lost.out" &&
		ok || fail "lost points: $(cat "$TMP/lost.out")"
else
	fail "sweep with an illegal point: $(cat "$TMP/err")"
fi

W='[workload]\nfamily = overlay-systolic\n'
bad_config "unknown network" model 3 "${W}model = resnet9000\n"
bad_config "model and topology" family 2 "${W}model = resnet20v2\ntopology = x.csv\n"
bad_config "missing topology" topology 3 "${W}topology = nowhere.csv\n"
bad_config "GNN knob on an overlay" n_pe 5 "${W}model = resnet20v2\n[space]\nn_pe = 4\n"
bad_config "graph on an overlay" family 2 "${W}model = resnet20v2\ngraph = cora\n"
# A malformed topology row names its own file and line.
printf 'name, M, N, K\nfc1, 64, 512, 784\nfc2, 64, x, 512\n' >"$TMP/t.csv"
printf '[workload]\nfamily = overlay-systolic\ntopology = t.csv\n' >"$TMP/t.cfg"
run_status 2 "malformed topology row" -q -o "$TMP/t.h5" "$TMP/t.cfg"
grep -q "t.csv:3" <<<"$err" && ok || fail "malformed topology row: $err"
# An ONNX model: the sweep reads it, and the tuner names it in the Tensil
# command it prints (standard output stays the .tarch).
"$DSE" tune --emit tensil -o "$TMP/onnx.tarch" "$SRC/configs/tensil-onnx.cfg" \
	>/dev/null 2>"$TMP/err" && ok || fail "tune of the ONNX example: $(cat "$TMP/err")"
grep -q 'tensil compile -a .*onnx.tarch -m .*configs/topologies/resnet-block\.onnx -o "fc" -s true' \
	"$TMP/err" && ok || fail "no Tensil command naming the ONNX file: $(cat "$TMP/err")"
/usr/bin/python3 -c "import json, sys; json.load(open(sys.argv[1]))" \
	"$TMP/onnx.tarch" && ok || fail "the .tarch of the ONNX example is no JSON"
printf '%b' "${W}model = $SRC/tests/bad/data/onnx-sigmoid.onnx\n" >"$TMP/o.cfg"
run_status 2 "unknown ONNX operator" -q -o "$TMP/o.h5" "$TMP/o.cfg"
grep -q "onnx-sigmoid.onnx:2:0: error: node 2 'act' (Sigmoid)" <<<"$err" &&
	ok || fail "unknown ONNX operator: $err"
finish
