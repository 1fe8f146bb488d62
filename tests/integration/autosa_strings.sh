#!/usr/bin/env bash
# Every --sa-sizes string of AutoSA's documentation (autosa_strings.tsv)
# read by "dse eval" against the kernel it belongs to (autosa/): an
# accepted string gives the design the table names (each knob in the loop
# order AutoSA's lists follow, the SIMD width, the PE count) and, read
# again as dse writes it back, the same design; a refused one exits 2 with
# the words the table gives.
. "$(dirname "$0")/common.sh"
PY=/usr/bin/python3
DIR="$SRC/tests/integration"

# check JSON KNOBS NOTE: the design of the eval JSON is KNOBS ("name=value
# ...", n_pe among them) and its note holds NOTE.
check() {
	$PY - "$1" "$2" "$3" <<'PYEOF'
import json, sys
d = json.loads(sys.argv[1])
want = dict(kv.split("=") for kv in sys.argv[2].split())
got = dict(d["knobs"], n_pe=d["n_pe"])
bad = {k: (v, got.get(k)) for k, v in want.items() if str(got.get(k)) != v}
if bad or sys.argv[3] not in d.get("note", ""):
    print("want/got:", bad, "note:", d.get("note", ""))
    sys.exit(1)
PYEOF
}

n=0
while IFS=$'\t' read -r src cfg sa outcome want note; do
	case "$src" in '' | '#'*) continue ;; esac
	n=$((n + 1))
	out=$("$DSE" eval --json --sa-sizes "$sa" "$DIR/autosa/$cfg.cfg" \
		2>"$TMP/err")
	status=$?
	err=$(cat "$TMP/err")
	if [ "$outcome" = refused ]; then
		[ "$status" -eq 2 ] && grep -qF -- "$want" <<<"$err" && ok ||
			fail "$src: $sa on $cfg: exit $status, not 2 with '$want': $err"
		continue
	fi
	# A design over the board still prints its JSON (exit 1).
	if [ "$status" -gt 1 ] || ! check "$out" "$want" "$note"; then
		fail "$src: $sa on $cfg: exit $status: $err"
		continue
	fi
	ok
	# What dse writes back reads as the same design.
	back=$($PY -c 'import json,sys; print(json.loads(sys.argv[1])["sa_sizes"])' "$out")
	out2=$("$DSE" eval --json --sa-sizes "$back" "$DIR/autosa/$cfg.cfg" 2>"$TMP/err")
	[ $? -le 1 ] && check "$out2" "$want" "" && ok ||
		fail "$src: $back (written back) on $cfg: $(cat "$TMP/err")"
done <"$DIR/autosa_strings.tsv"
[ "$n" -ge 40 ] && ok || fail "only $n strings in autosa_strings.tsv"

# What dse writes is AutoSA's form: one simd factor per candidate loop of
# AutoSA's SIMD pass (the loops outside the band innermost first, then the
# band's time loops), array_part_L2 in array_part tiles.
written() {	# written CFG IN OUT
	out=$("$DSE" eval --json --sa-sizes "$2" "$DIR/autosa/$1.cfg" 2>/dev/null)
	got=$($PY -c 'import json,sys; print(json.loads(sys.argv[1])["sa_sizes"])' "$out" 2>/dev/null)
	[ "$got" = "$3" ] && ok || fail "$2 on $1 is written '$got', not '$3'"
}
K='kernel[]->'
written mttkrp '{space_time[3];array_part[128,128,2];latency[16,8];simd[8]}' \
	"{${K}space_time[3];${K}array_part[128,128,2];${K}latency[16,8];${K}simd[8,1]}"
written ttmc '{space_time[4];array_part[16,64,16,32];latency[1,8,8];simd[8]}' \
	"{${K}space_time[4];${K}array_part[16,64,16,32];${K}latency[1,8,8];${K}simd[8,1]}"
written cnn-large '{space_time[4];array_part[64,56,14,64];latency[4,4,7];simd[8]}' \
	"{${K}space_time[4];${K}array_part[64,56,14,64];${K}latency[4,4,7];${K}simd[1,1,8]}"
written mm64 '{space_time[3];array_part[16,16,16];array_part_L2[2,2,2];latency[8,8];simd[2]}' \
	"{${K}space_time[3];${K}array_part[16,16,16];${K}array_part_L2[2,2,2];${K}latency[8,8];${K}simd[2]}"
# The array_part of a 1-D candidate in AutoSA's order: k first.
written mm64 '{space_time[2];array_part[4,32,16];latency[8,8]}' \
	"{${K}space_time[2];${K}array_part[4,32,16];${K}latency[8,8]}"
# Untiled loops (-1) are their whole extent.
written mm64 '{space_time[3];array_part[-1,-1,16];latency[8,8];simd[2]}' \
	"{${K}space_time[3];${K}array_part[64,64,16];${K}latency[8,8];${K}simd[2]}"

# The --simd-info file dse tune writes answers each loop AutoSA asks about.
cat "$DIR/autosa/mttkrp.cfg" - >"$TMP/tune.cfg" <<'CFG'
[space]
array_part = 2, 4
latency    = 1, 2
simd       = 1, 2
CFG
"$DSE" tune -q "$TMP/tune.cfg" >"$TMP/tune.sh" 2>"$TMP/err" &&
	(cd "$TMP" && sed -n '/^cat > simd_info.json/,/^DSE_EOF$/p' tune.sh | bash) &&
	$PY -c "import json; d=json.load(open('$TMP/simd_info.json')); assert d == {'kernel3': {'reduction': ['y', 'y']}}, d" &&
	ok || fail "dse tune's --simd-info for MTTKRP: $(cat "$TMP/err") $(cat "$TMP/simd_info.json" 2>&1)"
finish
