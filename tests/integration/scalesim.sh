#!/usr/bin/env bash
# The SCALE-Sim examples of configs/scalesim: scale.cfg with every
# topology writes SCALE-Sim's three reports and the
# network's totals, one line per layer (a depthwise row one per channel),
# and its JSON totals are the sums of its layers; a config that names its
# topology runs without -t, and without -c too; the process writes
# nothing else.
. "$(dirname "$0")/common.sh"

EX="$SRC/configs/scalesim"
# rows FILE: the layer rows of a topology, a depthwise row counting as
# its channels.
rows() {
	awk -F, 'NR > 1 && NF > 3 { n += ($1 ~ /DP/) ? $6 : 1 } END { print n }' "$1"
}

for cfg in "$EX"/scale.cfg; do
	run=$(sed -n 's/^run_name *= *//p' "$cfg")
	for topo in "$EX"/*.csv; do
		form=conv
		head -n 1 "$topo" | grep -q 'M, N, K' && form=gemm
		out="$TMP/$(basename "$cfg" .cfg)-$(basename "$topo" .csv)"
		"$DSE" scalesim -q -c "$cfg" -t "$topo" -i "$form" -p "$out" &&
			ok || fail "$(basename "$cfg") $(basename "$topo") failed"
		n=$(rows "$topo")
		for rep in COMPUTE_REPORT BANDWIDTH_REPORT DETAILED_ACCESS_REPORT; do
			lines=$(wc -l <"$out/$run/$rep.csv")
			[ "$lines" -eq $((n + 1)) ] && ok ||
				fail "$rep of $(basename "$topo"): $lines lines, not $((n + 1))"
		done
		[ -s "$out/$run/NETWORK_REPORT.csv" ] && ok ||
			fail "no NETWORK_REPORT.csv"
		[ "$(ls "$out/$run" | wc -l)" -eq 4 ] && ok ||
			fail "more than the four reports in $out/$run: $(ls "$out/$run")"
	done
done

# The JSON: the totals are the sums of the layers, the cycles the counts
# (SCALE-Sim's Total Cycles + 1).
"$DSE" scalesim --json -c "$EX/scale.cfg" -t "$EX/resnet18.csv" \
	-p "$TMP/json" >"$TMP/out.json" && ok || fail "--json run failed"
/usr/bin/python3 - "$TMP/out.json" \
	"$TMP/json/scale_example_run_32x32_os/COMPUTE_REPORT.csv" <<'PY' && ok ||
import json, sys
d = json.load(open(sys.argv[1]))
layers, total = d["layers"], d["total"]
assert len(layers) == 21, len(layers)
for key in ("cycles", "macs", "stall_cycles"):
    assert sum(l[key] for l in layers) == total[key], key
for op in ("ifmap", "filter"):
    assert sum(l["dram_reads"][op] for l in layers) == total["dram_reads"][op]
rep = [l.split(",") for l in open(sys.argv[2]).read().splitlines()[1:]]
assert [int(r[1]) + 1 for r in rep] == [l["cycles"] for l in layers]
PY
	fail "the JSON totals or cycles disagree"

# user.cfg names its topology (relative to the current folder).
(cd "$SRC" && "$DSE" scalesim -q -c configs/scalesim/user.cfg \
	-p "$TMP/user") && [ -s "$TMP/user/user_bw10_32x32_ws/COMPUTE_REPORT.csv" ] &&
	ok || fail "user.cfg without -t"
# The config alone, without -c, as a SCALE-Sim user types it first: the
# same reports as with -c.
(cd "$SRC" && "$DSE" scalesim -q configs/scalesim/user.cfg \
	-p "$TMP/bare") && cmp -s "$TMP/user/user_bw10_32x32_ws/COMPUTE_REPORT.csv" \
	"$TMP/bare/user_bw10_32x32_ws/COMPUTE_REPORT.csv" &&
	ok || fail "user.cfg without -c"
ls -R "$TMP" | grep -q '\.tmp\.' && fail "a temporary file was left" || ok
finish
