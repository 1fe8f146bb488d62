#!/usr/bin/env bash
# `dse eval`: one design in AutoSA's --sa-sizes syntax, the table and the
# JSON (read back by Python), the candidate picked by space_time, an
# illegal design (exit 1, the rule named, JSON still printed), a design
# over the board (exit 1, each resource named) and board fit relaxed by a
# percentage above 100%, an int32 kernel, the --breakdown table and
# JSON adding up to the metrics, malformed
# strings and lists of the wrong length (exit 2), and MPI ranks agreeing.
. "$(dirname "$0")/common.sh"
PY=/usr/bin/python3
SMALL="$SRC/configs/mm-small.cfg"
GOOD='{kernel[]->space_time[3];kernel[]->array_part[128,128,8];kernel[]->latency[16,4];kernel[]->simd[4]}'

# The table: every metric with its unit, resources as a share of the board.
run_status 0 "eval table" eval --sa-sizes "$GOOD" "$SMALL"
expect_line "$out" '^  design +\{kernel\[\]->space_time\[3\];kernel\[\]->array_part\[128,128,8\]' "design"
expect_line "$out" '^  status +legal$' "status"
expect_line "$out" '^  cycles +[1-9][0-9]* cycles$' "cycles"
expect_line "$out" '^  latency +[0-9.e+-]+ ms$' "latency"
expect_line "$out" '^  throughput +[0-9.]+ GFLOP/s$' "throughput"
expect_line "$out" '^  clock +[0-9.]+ MHz$' "clock"
expect_line "$out" '^  PE array +8 x 32 \(256 PEs\), II [0-9]+$' "PE array"
expect_line "$out" '^  DSP +5120 \(41\.7% of 12288\)$' "DSP, 5 x 256 PEs x 4 lanes"
expect_line "$out" '^  BRAM18K +[0-9]+ \([0-9.]+% of 5376\)$' "BRAM18K"
expect_line "$out" '^  URAM +[0-9]+ \([0-9.]+% of 1280\)$' "URAM"
expect_line "$out" '^  LUT +[0-9]+ \([0-9.]+% of [0-9]+\)$' "LUT"
expect_line "$out" '^  FF +[0-9]+ \([0-9.]+% of [0-9]+\)$' "FF"
expect_line "$out" '^  off-chip +[0-9]+ bytes' "off-chip bytes"
expect_line "$out" '^  energy +[0-9.e+-]+ J$' "energy"
expect_line "$out" '^  EDP +[0-9.e+-]+ J\*s$' "EDP"
expect_line "$out" '^  I/O network +daisy, double buffering on$' "network"

# The JSON, and the same design written loosely: any order, blanks, no
# prefixes.
run_status 0 "eval json" eval --json --sa-sizes "$GOOD" "$SMALL"
echo "$out" >"$TMP/a.json"
run_status 0 "eval json, loose syntax" eval --json --sa-sizes \
	' { simd[4]; kernel [] -> latency [16, 4] ; array_part[128,128,8] } ' "$SMALL"
echo "$out" >"$TMP/b.json"
$PY - "$TMP/a.json" "$TMP/b.json" <<'PYEOF' && ok || fail "eval JSON check"
import json, sys
a = json.load(open(sys.argv[1]))
b = json.load(open(sys.argv[2]))
need = ["cycles", "latency_s", "gops", "dsp", "bram18k", "uram", "lut", "ff",
        "offchip_bytes", "energy", "edp", "mhz", "n_pe", "pe_rows", "pe_cols",
        "ii", "status", "sa_sizes"]
missing = [k for k in need if k not in a]
assert not missing, missing
assert a == b, (a, b)
assert a["status"] == "ok" and a["dsp"] == 5 * 256 * 4, a
assert a["n_pe"] == a["pe_rows"] * a["pe_cols"] == 256, a
assert a["cycles"] > 0 and a["latency_s"] > 0 and a["gops"] > 0, a
assert abs(a["board_fraction"]["dsp"] - 5120 / 12288) < 1e-12, a
assert a["io_network"] == "daisy" and a["double_buffer"] == 1, a
assert a["bound_by"] in ("compute", "dram", "io", "drain"), a
assert (a["bound_array"] != "") == (a["bound_by"] in ("io", "drain")), a
assert 0 < a["bound_share"] <= 1, a
PYEOF

# space_time picks the candidate: [i] alone is a 1-D array of 16 PEs.
run_status 0 "eval space_time[0]" eval --json --sa-sizes \
	'{kernel[]->space_time[0];kernel[]->array_part[16,16,8];kernel[]->latency[1,1];kernel[]->simd[2]}' "$SMALL"
$PY -c 'import json,sys; d=json.loads(sys.argv[1]); assert d["space_time"]==0 and d["space_time_name"]=="[i]" and d["n_pe"]==16 and d["pe_cols"]==1, d' "$out" &&
	ok || fail "space_time[0] is not a 16-PE 1-D array: $out"

# An illegal design: the rule it breaks, exit 1, JSON with its status.
BAD='{kernel[]->array_part[128,128,8];kernel[]->latency[3,4];kernel[]->simd[4]}'
run_status 1 "illegal design" eval --sa-sizes "$BAD" "$SMALL"
expect_line "$out" '^  status +illegal: latency does not divide array_part$' "illegal status"
expect_line "$err" '^dse: error: illegal design .*latency does not divide array_part$' "illegal message"
run_status 1 "illegal design, json" eval --json --sa-sizes "$BAD" "$SMALL"
$PY -c 'import json,sys; d=json.loads(sys.argv[1]); assert d["status"].startswith("latency does not divide") and d["status_code"]==2, d' "$out" &&
	ok || fail "illegal design JSON: $out"

# A design over the board (64 x 64 PEs of 4 fp32 lanes, 5 DSP each:
# 81,920 DSP on a 12,288-DSP U250; each of its 4,096 C_drain_IO_L1_out
# modules has a 64-bit local_C that AutoSA binds to BRAM, 2 BRAM18K
# each): its status names every resource over the board with its share,
# and it exits as an illegal design does.
OVER='{kernel[]->space_time[3];kernel[]->array_part[128,128,8];kernel[]->latency[2,2];kernel[]->simd[4]}'
run_status 1 "over the board" eval --sa-sizes "$OVER" "$SMALL"
expect_line "$out" '^  status +over the board: DSP 81920 \(666\.7% of 12288\), BRAM18K [0-9]+ \([0-9.]+% of 5376\), LUT [0-9]+ \([0-9.]+% of 1728000\), FF [0-9]+ \([0-9.]+% of 3456000\)$' "over-board status"
expect_line "$err" '^dse: error: design .* does not fit u250: DSP 81920' "over-board message"
run_status 1 "over the board, json" eval --json --sa-sizes "$OVER" "$SMALL"
$PY -c 'import json,sys; d=json.loads(sys.argv[1]); assert d["status"]=="over_board" and d["over_board"]==["dsp","bram18k","lut","ff"] and d["dsp"]==81920, d' "$out" &&
	ok || fail "over-board JSON: $out"
run_status 1 "over the board, simulate" simulate --mode analytic --sa-sizes "$OVER" "$SMALL"
expect_line "$out" '^  status +over the board: DSP 81920 ' "simulate over-board status"
# A fitting design says so in its JSON.
run_status 0 "fits, json" eval --json --sa-sizes "$GOOD" "$SMALL"
$PY -c 'import json,sys; d=json.loads(sys.argv[1]); assert d["status"]=="ok" and d["over_board"]==[], d' "$out" &&
	ok || fail "fitting design JSON: $out"
# Percentages above 100% relax board fit on purpose: then it is legal.
sed 's/^constraints.*/constraints = dsp <= 700%, bram18k <= 200%, lut <= 600%, ff <= 500%/' \
	"$SMALL" >"$TMP/relaxed.cfg"
run_status 0 "relaxed board fit" eval --sa-sizes "$OVER" "$TMP/relaxed.cfg"
expect_line "$out" '^  status +legal$' "relaxed status"
# LUT relaxed only: DSP, BRAM and FF still over.
sed 's/^constraints.*/constraints = lut <= 600%/' "$SMALL" >"$TMP/lut.cfg"
run_status 1 "LUT relaxed only" eval --sa-sizes "$OVER" "$TMP/lut.cfg"
expect_line "$out" '^  status +over the board: DSP 81920 \(666\.7% of 12288\), BRAM18K [0-9]+ \([0-9.]+% of 5376\), FF [0-9]+ ' "LUT relaxed status"

# int32 (C int): a lane is one 32-bit multiplier of three DSP slices (three
# 27x18 partial products) with the add in the fabric, so 256 PEs of 4
# lanes take 3,072 DSP; integers are counted in GOP/s.
sed 's/^dtype.*/dtype = int32/' "$SMALL" >"$TMP/int32.cfg"
run_status 0 "int32" eval --sa-sizes "$GOOD" "$TMP/int32.cfg"
expect_line "$out" '^dse eval: mm on u250, int32, space_time\[3\] \[i,j\]$' "int32 heading"
expect_line "$out" '^  DSP +3072 \(25\.0% of 12288\)$' "int32 DSP, 3 x 256 PEs x 4 lanes"
expect_line "$out" '^  throughput +[0-9.]+ GOP/s$' "int32 throughput in GOP/s"

# --breakdown: every module AutoSA generates, with its buffers and FIFOs;
# the rows add up to the design's metrics, in the table and in the JSON.
# The output C stays in the PEs, so each of the 8 x 32 PEs has a
# C_drain_IO_L1_out module beside it.
run_status 0 "breakdown" eval --breakdown --sa-sizes "$GOOD" "$SMALL"
expect_line "$out" '^  module +part +count +width +depth +banks +x +memory +DSP +BRAM18K +URAM +LUT +FF$' "breakdown header"
expect_line "$out" '^  C_drain_IO_L1_out +256 ' "one drain L1 module per PE"
expect_line "$out" '^  A_IO_L2_in +local_A +8 +[0-9]+ +[0-9]+ +1 +2 BRAM ' "ping-pong L2 buffer of A in BRAM"
$PY - "$out" <<'PYEOF' && ok || fail "breakdown total row: $out"
import re, sys
t = sys.argv[1]
val = {k: int(re.search(r"^  %s +([0-9]+) " % k, t, re.M).group(1))
       for k in ("DSP", "BRAM18K", "URAM", "LUT", "FF")}
tot = re.search(r"^  total +([0-9]+) +([0-9]+) +([0-9]+) +([0-9]+) +([0-9]+)$",
                t, re.M)
assert tot, "no total row"
assert [int(x) for x in tot.groups()] == \
    [val[k] for k in ("DSP", "BRAM18K", "URAM", "LUT", "FF")], (tot.groups(), val)
PYEOF
run_status 0 "breakdown json" eval --json --breakdown --sa-sizes "$GOOD" "$SMALL"
$PY - "$out" <<'PYEOF' && ok || fail "breakdown JSON: $out"
import json, sys
d = json.loads(sys.argv[1])
rows = d["breakdown"]
for k in ("dsp", "bram18k", "uram", "lut", "ff"):
    assert sum(r[k] for r in rows) == d[k], (k, sum(r[k] for r in rows), d[k])
kinds = {r["kind"] for r in rows}
assert kinds == {"module", "buffer", "fifo"}, kinds
for r in rows:
    assert (r["memory"] is None) == (r["kind"] == "module"), r
    assert r["memory"] in (None, "FF", "SRL", "LUTRAM", "BRAM", "URAM"), r
    assert r["count"] > 0, r
pe = [r for r in rows if r["kind"] == "module" and r["module"] == "PE"]
assert len(pe) == 1 and pe[0]["count"] == d["n_pe"] == 256, pe
PYEOF
run_status 0 "no breakdown without the option" eval --json --sa-sizes "$GOOD" "$SMALL"
$PY -c 'import json,sys; assert "breakdown" not in json.loads(sys.argv[1])' "$out" &&
	ok || fail "breakdown in JSON without --breakdown"

# Bad input: exit 2, a message that says what is expected, nothing on
# standard output.
bad_input() {
	run_status 2 "$1" eval --sa-sizes "$2" "$SMALL"
	[ -z "$out" ] && ok || fail "$1: printed '$out'"
	grep -qF -- "$3" <<<"$err" && ok || fail "$1: '$err' lacks '$3'"
}
bad_input "short array_part" '{array_part[128,128];latency[16,4];simd[4]}' \
	"array_part needs 3 values, for loops i, j, k (space_time[3]); got 2"
bad_input "no latency" '{array_part[128,128,8];simd[4]}' \
	"latency needs 2 values, for loops i, j (space_time[3]); the entry is missing"
# AutoSA's simd lists hold one factor per candidate loop; its code has one
# SIMD width, so two factors above 1 cannot be one design.
bad_input "two simd" '{array_part[128,128,8];latency[16,4];simd[4,4]}' \
	"simd has two factors above 1 (4 and 4); AutoSA's code has one SIMD width"
bad_input "L2 too short" '{array_part[128,128,8];array_part_L2[256];latency[16,4];simd[4]}' \
	"array_part_L2 needs 3 values, for loops i, j, k"
bad_input "no candidate 9" '{space_time[9];array_part[1,1,1]}' \
	"space_time[9]: kernel 'mm' has 6 space-time candidates (0..5)"
bad_input "malformed" '{array_part[128,128,8];latency[16,4];simd[4]' \
	"--sa-sizes, column 45: expected ';' or '}' after an entry"
bad_input "unknown entry" '{tile[4]}' "unknown entry 'tile'"
run_status 2 "no --sa-sizes" eval "$SMALL"
grep -qF "'dse eval' needs --sa-sizes" <<<"$err" && ok || fail "no --sa-sizes: $err"
run_status 2 "bad --io-network" eval --io-network mesh --sa-sizes "$GOOD" "$SMALL"
grep -qF -- "--io-network takes daisy or multicast, got 'mesh'" <<<"$err" && ok || fail "$err"
run_status 2 "bad --double-buffer" eval --double-buffer 2 --sa-sizes "$GOOD" "$SMALL"
grep -qF -- "--double-buffer takes 0 or 1, got '2'" <<<"$err" && ok || fail "$err"
# A config error comes first, with its position, before any evaluation.
printf '[kernel]\nname = mm\n' >"$TMP/bad.cfg"
run_status 2 "bad config" eval --sa-sizes "$GOOD" "$TMP/bad.cfg"
grep -qF "bad.cfg:1:1: error: missing required key" <<<"$err" && ok || fail "bad config: $err"

# The help of both levels documents the command.
run_status 0 "eval --help" eval --help
expect_line "$out" '^Usage: dse eval --sa-sizes STRING' "eval usage"
run_status 0 "--help" --help
expect_line "$out" '^  eval +evaluate one design' "dse --help lists eval"

# Under mpirun every rank exits alike and the design prints once.
out=$(mpi 2 1 eval --sa-sizes "$GOOD" "$SMALL" 2>"$TMP/err")
status=$?
[ "$status" -eq 0 ] && [ "$(grep -c '^  status' <<<"$out")" -eq 1 ] && ok ||
	fail "mpirun -np 2 dse eval: exit $status, output $out"
mpi 2 1 eval --sa-sizes "$BAD" "$SMALL" >/dev/null 2>&1
status=$?
[ "$status" -eq 1 ] && ok || fail "mpirun -np 2 dse eval of an illegal design exited $status"
mpi 2 1 eval --sa-sizes '{simd[' "$SMALL" >/dev/null 2>"$TMP/err"
status=$?
[ "$status" -eq 2 ] && [ "$(grep -c 'error' "$TMP/err")" -eq 1 ] && ok ||
	fail "mpirun -np 2 dse eval of a malformed string: exit $status, $(cat "$TMP/err")"
finish
