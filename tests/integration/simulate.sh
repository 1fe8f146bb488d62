#!/usr/bin/env bash
# `dse simulate`: one design through the full, sampled and analytic models;
# the table and the JSON (read back by Python); the analytic mode agreeing
# with `dse eval`; the sampled interval holding its estimate; usage and
# design errors with eval's exit statuses; MPI ranks agreeing.
. "$(dirname "$0")/common.sh"
PY=/usr/bin/python3
SMALL="$SRC/configs/mm-small.cfg"
GOOD='{kernel[]->space_time[3];kernel[]->array_part[128,128,8];kernel[]->latency[16,4];kernel[]->simd[4]}'

# The table of the sampled model (the default mode).
run_status 0 "simulate table" simulate --sa-sizes "$GOOD" "$SMALL"
expect_line "$out" '^dse simulate: mm on u250, fp32, space_time\[3\] \[i,j\], sampled cycle model$' "title"
expect_line "$out" '^  status +legal$' "status"
expect_line "$out" '^  cycles +[1-9][0-9]* cycles$' "cycles"
expect_line "$out" '^  interval +[0-9]+ \.\. [0-9]+ cycles \(95% confidence\)$' "interval"
expect_line "$out" '^  tiles +[0-9]+ of [1-9][0-9]* simulated \(' "tiles"
expect_line "$out" '^  PE utilisation +[0-9.]+%$' "utilisation"
expect_line "$out" '^  DRAM bandwidth +[0-9.]+ GB/s' "bandwidth"
expect_line "$out" '^  module +count +busy +stall_in +stall_out$' "module table"
expect_line "$out" '^  PE +256 +[0-9]+ +[0-9]+ +[0-9]+$' "PE row"

# The full simulation has no interval line.
run_status 0 "simulate full" simulate --mode full --sa-sizes "$GOOD" "$SMALL"
grep -q '^  interval' <<<"$out" && fail "full mode prints an interval" || ok
expect_line "$out" 'full cycle simulation$' "full title"

# JSON of the three modes, and eval's JSON for the analytic numbers.
for mode in full sampled analytic; do
	run_status 0 "simulate --json $mode" simulate --json --mode $mode \
		--seed 5 --samples 3 --fifo-depth 4 --sa-sizes "$GOOD" "$SMALL"
	echo "$out" >"$TMP/$mode.json"
done
run_status 0 "eval json" eval --json --sa-sizes "$GOOD" "$SMALL"
echo "$out" >"$TMP/eval.json"
$PY - "$TMP" <<'PYEOF' && ok || fail "simulate JSON check"
import json, sys
d = sys.argv[1]
full, sam, ana, ev = (json.load(open(f"{d}/{m}.json"))
                      for m in ("full", "sampled", "analytic", "eval"))
for j, m in ((full, "full"), (sam, "sampled"), (ana, "analytic")):
    assert j["mode"] == m and j["model"] == m, j
    assert j["status"] == "ok" and j["cycles"] > 0, j
    assert j["n_pe"] == 256 and j["dsp"] == ev["dsp"], j
    assert j["seed"] == 5, j
    for k in ("latency_s", "pe_utilisation", "dram_gbps", "fraction",
              "cycles_low", "cycles_high", "tiles", "modules"):
        assert k in j, (m, k)
    assert 0 <= j["pe_utilisation"] <= 1, j
    if m != "analytic":
        names = [x["name"] for x in j["modules"]]
        assert "PE" in names, names
    for x in j["modules"]:
        assert x["count"] >= 1 and x["busy"] >= 0, x
    assert j["bound_by"] in ("compute", "dram", "io", "drain"), j
    assert 0 < j["bound_share"] <= 1, j
# The full simulation's bound is the resource busiest over its run: no
# module class of its report is busier, the PEs' share is their
# utilisation, and an I/O or drain bound names an array whose modules
# the report lists.
busiest = max(x["busy"] for x in full["modules"]) / full["cycles"]
assert full["bound_share"] >= min(busiest, 1) - 1e-9, (busiest, full)
if full["bound_by"] == "compute":
    assert abs(full["bound_share"] - full["pe_utilisation"]) < 1e-9, full
if full["bound_by"] in ("io", "drain"):
    assert any(x["name"].startswith(full["bound_array"] + "_")
               for x in full["modules"]), full
# The analytic mode is the model of dse eval and of the sweep.
assert ana["cycles"] == ev["cycles"], (ana["cycles"], ev["cycles"])
assert ana["cycles_low"] == ana["cycles_high"] == ana["cycles"], ana
# The full simulation runs every tile; the sampled model a part, with an
# interval around its own estimate.
assert full["fraction"] == 1 and full["tiles_simulated"] == full["tiles"], full
assert 0 < sam["fraction"] <= 1, sam
assert sam["cycles_low"] <= sam["cycles"] <= sam["cycles_high"], sam
assert sam["tiles"] == full["tiles"], (sam["tiles"], full["tiles"])
PYEOF

# The sampled model is reproducible for a seed.
run_status 0 "sampled again" simulate --json --mode sampled --seed 5 \
	--samples 3 --fifo-depth 4 --sa-sizes "$GOOD" "$SMALL"
$PY -c 'import json,sys; a=json.load(open(sys.argv[1])); b=json.loads(sys.argv[2]); [a.pop("seconds"), b.pop("seconds")]; assert a == b' \
	"$TMP/sampled.json" "$out" && ok || fail "sampled model not reproducible"

# Errors: usage (2), malformed design (2), illegal design (1, printed).
run_status 2 "no --sa-sizes" simulate "$SMALL"
expect_line "$err" "needs --sa-sizes" "missing --sa-sizes"
run_status 2 "bad mode" simulate --mode exact --sa-sizes "$GOOD" "$SMALL"
expect_line "$err" "--mode takes full, sampled or analytic, got 'exact'" "bad mode"
run_status 2 "bad samples" simulate --samples 0 --sa-sizes "$GOOD" "$SMALL"
expect_line "$err" "--samples takes an integer from 1" "bad samples"
run_status 2 "bad fifo depth" simulate --fifo-depth x --sa-sizes "$GOOD" "$SMALL"
expect_line "$err" "--fifo-depth takes an integer" "bad fifo depth"
run_status 2 "malformed design" simulate --sa-sizes '{kernel[]->array_part[8,8}' "$SMALL"
run_status 2 "wrong list length" simulate --sa-sizes '{kernel[]->array_part[8,8]}' "$SMALL"
run_status 1 "illegal design" simulate --json --sa-sizes \
	'{kernel[]->space_time[3];kernel[]->array_part[128,128,8];kernel[]->latency[3,4];kernel[]->simd[4]}' "$SMALL"
$PY -c 'import json,sys; d=json.loads(sys.argv[1]); assert d["status"] != "ok"' "$out" &&
	ok || fail "illegal design JSON: $out"
expect_line "$err" "illegal design" "illegal design message"
run_status 0 "simulate --help" simulate --help
expect_line "$out" '^Usage: dse simulate' "help"
run_status 0 "dse --help names simulate" --help
expect_line "$out" '^  simulate ' "dse --help"

# Two ranks: rank 0 prints once, both exit with the same status.
out=$(mpi 2 1 simulate --mode sampled --sa-sizes "$GOOD" "$SMALL" 2>&1) && ok ||
	fail "mpirun -np 2 dse simulate failed: $out"
[ "$(grep -c '^dse simulate:' <<<"$out")" -eq 1 ] && ok || fail "two ranks printed: $out"
mpi 2 1 simulate --sa-sizes '{bad' "$SMALL" >/dev/null 2>&1
[ $? -eq 2 ] && ok || fail "mpirun -np 2 with a bad design is not exit 2"
finish
