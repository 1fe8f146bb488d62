#!/usr/bin/env bash
# GNN workloads end to end: "dse simulate" of both families in every mode,
# a sweep whose front h5py reads, and bad [workload] inputs, each refused
# with status 2, file:line:col and the key, before anything is written.
. "$(dirname "$0")/common.sh"
PY=/usr/bin/python3
OV="$SRC/configs/gnn-overlay.cfg"
DF="$SRC/configs/gnn-dataflow.cfg"

# json FILE EXPR: the Python expression holds on the JSON object d.
json() {
	$PY -c "import json,sys; d=json.load(open('$1')); sys.exit(0 if ($2) else 1)"
}

# The overlay's default design (GraphAGILE's 8 PEs) needs more BRAM and
# URAM than a U250 has in the model, and a design over the board exits 1:
# the overlay runs with 4 PEs, which fit.
for fam in overlay dataflow; do
	cfg="$SRC/configs/gnn-$fam.cfg"
	design=""
	[ $fam = overlay ] && design="n_pe=4"
	for mode in analytic sampled full; do
		if "$DSE" simulate --json --mode $mode --design "$design" "$cfg" \
			>"$TMP/$fam-$mode.json" 2>"$TMP/err"; then
			ok
		else
			fail "simulate $fam $mode: $(cat "$TMP/err")"
			continue
		fi
		json "$TMP/$fam-$mode.json" "d['model'] == '$mode' and \
d['status'] == 'ok' and d['cycles'] > 0 and d['dsp'] > 0 and \
d['family'] == 'gnn-$fam'" && ok || fail "$fam $mode: JSON fields"
	done
	# The full model simulates every tile; the sampled one a part of
	# them, with an interval around its estimate.
	json "$TMP/$fam-full.json" "d['tiles_simulated'] == d['tiles'] and \
d['tiles'] > 0" && ok || fail "$fam full: not every tile simulated"
	json "$TMP/$fam-sampled.json" "d['cycles_low'] <= d['cycles'] <= \
d['cycles_high'] and 0 < d['tiles_simulated'] <= d['tiles']" && ok ||
		fail "$fam sampled: interval or tiles"
	$PY - "$TMP/$fam-full.json" "$TMP/$fam-sampled.json" <<'PYEOF' && ok ||
import json, sys
f = json.load(open(sys.argv[1]))
s = json.load(open(sys.argv[2]))
sys.exit(0 if abs(s["cycles"] - f["cycles"]) <= 0.05 * f["cycles"] else 1)
PYEOF
		fail "$fam: sampled more than 5% from full"
done

# A generated simple graph: named by its generator, every edge kept.
printf '[workload]\nfamily = gnn-overlay\nmodel = b1\ngraph = rmat_simple(2000, 20000)\nfeatures = 32\nclasses = 4\n' \
	>"$TMP/simple.cfg"
"$DSE" simulate --json --mode analytic --design "" "$TMP/simple.cfg" \
	>"$TMP/simple.json" 2>"$TMP/err" &&
	json "$TMP/simple.json" "d['status'] == 'ok' and \
d['graph'].startswith('rmat_simple(n=2000,e=20000,')" && ok ||
	fail "rmat_simple graph: $(cat "$TMP/err")"

# A knob given on the command line wins over the config and the default.
"$DSE" simulate --json --mode analytic --design "n_pe=2 p_sys=8" "$OV" \
	>"$TMP/d.json" && json "$TMP/d.json" "'n_pe=2 p_sys=8' in d['design']" &&
	ok || fail "--design knobs not applied"
# A design whose buffer heights the config's [space] does not list is
# built for the occasion; an illegal one exits 1 and says why.
"$DSE" simulate --json --mode analytic --design "n_pe=4 feat_rows=1024 feat_cols=64" "$OV" \
	>"$TMP/d.json" 2>"$TMP/err" && json "$TMP/d.json" "d['status'] == 'ok' and \
'feat_rows=1024 feat_cols=64' in d['design'] and d['cycles'] > 0" && ok ||
	fail "design outside the space: $(cat "$TMP/err")"
run_status 1 "illegal GNN design" simulate --design "p_sys=32 feat_cols=16" "$OV"
grep -q "why  *feat_cols (16) is not a multiple of p_sys (32)" <<<"$out" &&
	grep -q "illegal design.*not a multiple of p_sys" <<<"$err" && ok ||
	fail "illegal GNN design: $out $err"
run_status 1 "illegal dataflow design" simulate --design "mesh_rows=1 mesh_cols=1" "$DF"
grep -q "why  *pass 1 of .*aggregation cores, the 1 x 1 mesh has 1" <<<"$out" && ok ||
	fail "illegal dataflow design: $out"
run_status 2 "unknown --design knob" simulate --design "warp=9" "$OV"
grep -q "no knob 'warp'" <<<"$err" && ok || fail "unknown knob message: $err"
run_status 2 "--sa-sizes on a workload" simulate --sa-sizes "{}" "$OV"
run_status 2 "--design on a kernel" simulate --design "n_pe=2" \
	"$SRC/configs/mm-small.cfg"
run_status 2 "eval on a workload" eval --sa-sizes "{}" "$OV"

# A sweep: the front has the family's knobs and a design column, the
# attributes say which family and graph.
if mpi 2 1 -q -o "$TMP/ov.h5" "$OV"; then ok; else fail "gnn-overlay sweep"; fi
$PY - "$TMP/ov.h5" <<'PYEOF' && ok || fail "gnn-overlay results file"
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    assert f.attrs["family"] in ("gnn-overlay", b"gnn-overlay")
    assert f.attrs["graph_edges"] == 5429  # Cora in GraphAGILE Table IV
    front = f["gcn-cora/front"][...]
    names = front.dtype.names
    for k in ("n_pe", "p_sys", "feat_rows", "latency", "dsp", "uram",
              "design", "model"):
        assert k in names, k
    assert len(front) > 0
    assert all(m in (b"sampled", "sampled") for m in front["model"])
    lat = front["latency"]
    dsp = front["dsp"]
    # A front: sorted by latency, DSP falls as latency rises.
    for i in range(1, len(front)):
        assert lat[i] >= lat[i - 1] and dsp[i] <= dsp[i - 1]
PYEOF

# Bad [workload] inputs: status 2, the position and key, nothing written.
W='[workload]\n'
bad_config "unknown family" family 2 "${W}family = gnn-foo\ngraph = cora\nmodel = b1\n"
bad_config "unknown model" model 4 "${W}family = gnn-overlay\ngraph = cora\nmodel = b9\n"
bad_config "unknown graph" graph 3 "${W}family = gnn-overlay\ngraph = atlantis\nmodel = b1\n"
bad_config "file graph without features" graph 3 "${W}family = gnn-overlay\ngraph = rmat(100, 400)\nmodel = b1\n"
bad_config "model and layers" layers 5 "${W}family = gnn-overlay\ngraph = cora\nmodel = b1\nlayers = linear(4)\n"
bad_config "bad layer" layers 4 "${W}family = gnn-overlay\ngraph = cora\nlayers = linear(4), frobnicate\n"
bad_config "linear without length" layers 4 "${W}family = gnn-overlay\ngraph = cora\nlayers = linear\n"
bad_config "vector-add of a later layer" layers 4 "${W}family = gnn-overlay\ngraph = cora\nlayers = linear(4), vector-add(5)\n"
bad_config "missing graph file" graph 3 "${W}family = gnn-overlay\ngraph = nowhere.mtx\nmodel = b1\nfeatures = 4\nclasses = 2\n"
bad_config "bad rmat" graph 3 "${W}family = gnn-overlay\ngraph = rmat(10)\nmodel = b1\n"
bad_config "knob of the other family" slots 6 "${W}family = gnn-overlay\ngraph = cora\nmodel = b1\n[space]\nslots = 4\n"
bad_config "kernel and workload" workload 1 "${W}family = gnn-overlay\ngraph = cora\nmodel = b1\n[kernel]\nname = x\n"
bad_config "GNN knob on a kernel" n_pe 8 "[kernel]\nname = v\ndomain = [M] -> { S[i] : 0 <= i < M }\nreads = { S[i] -> A[i] }\nwrites = { S[i] -> B[i] }\nparams = M=8\n[space]\nn_pe = 4\n"
# The column points at the bad layer, not at the start of the list.
printf '[workload]\nfamily = gnn-overlay\ngraph = cora\nlayers = linear(4), frobnicate\n' >"$TMP/col.cfg"
run_status 2 "bad layer column" -q -o "$TMP/col.h5" "$TMP/col.cfg"
grep -q "col.cfg:4:21:" <<<"$err" && ok || fail "bad layer column: $err"
# A malformed graph file names its own line.
printf '%%%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n1 x\n' >"$TMP/g.mtx"
printf '[workload]\nfamily = gnn-overlay\ngraph = g.mtx\nmodel = b1\nfeatures = 4\nclasses = 2\n' >"$TMP/g.cfg"
run_status 2 "malformed graph file" -q -o "$TMP/g.h5" "$TMP/g.cfg"
grep -q "g.mtx:4" <<<"$err" && ok || fail "malformed graph file: $err"
finish
