#!/usr/bin/env bash
# `dse analyze`: the tables of the matrix-multiply analysis as in AutoSA's
# description (dependences D1..D4, I/O groups g1..g4 of space_time[3]),
# the JSON read back by Python, every example config, and the errors.
. "$(dirname "$0")/common.sh"
PY=/usr/bin/python3
CHECK="$(dirname "$0")/check_analyze.py"

out=$("$DSE" analyze "$SRC/configs/mm.cfg" 2>"$TMP/err")
status=$?
[ "$status" -eq 0 ] && ok || fail "dse analyze mm.cfg exited $status: $(cat "$TMP/err")"
[ ! -s "$TMP/err" ] && ok || fail "dse analyze mm.cfg wrote to stderr: $(cat "$TMP/err")"
# The dependence table: name, type, array, access, distance, relation.
expect_line "$out" '^  D1 +read +A +A\[i\]\[k\] +\(0,1,0\) +\{' "mm D1"
expect_line "$out" '^  D2 +read +B +B\[k\]\[j\] +\(1,0,0\) +\{' "mm D2"
expect_line "$out" '^  D3 +flow +C +C\[i\]\[j\] +\(0,0,1\) +\{' "mm D3"
expect_line "$out" '^  D4 +output +C +C\[i\]\[j\] +\(0,0,1\) +\{' "mm D4"
# The summary and the candidates table.
expect_line "$out" '^  reduction +k$' "mm reduction"
expect_line "$out" '^  parallel +i, j$' "mm parallel loops"
expect_line "$out" '^  simd +k \(layout change B\[k\]\[j\] -> B\[j\]\[k\]\)$' "mm simd"
expect_line "$out" '^  3 +2-D +i,j +k +4 +default, config$' "mm candidate 3"
expect_line "$out" '^  5 +2-D +j,k +i ' "mm candidate 5"
# The I/O groups of candidate 3 alone: group, access, kind, deps, dir,
# type, copy, pruned, embedded, levels, buffer, drained.  The tiles run
# i, j, k (space loops outermost), so C's partial sums stay in the PEs over
# the k tiles and leave once per tile of i and j.
out=$("$DSE" analyze --space-time 3 "$SRC/configs/mm.cfg")
[ "$(grep -c '^candidate ' <<<"$out")" -eq 1 ] && ok ||
	fail "--space-time 3 printed the groups of several candidates"
expect_line "$out" '^candidate 3: 2-D array, space i,j, time k' "mm c3 title"
expect_line "$out" '^  g1 +A\[i\]\[k\] +read +D1 +\(0,1\) +exterior +in +no +yes ' "mm g1"
expect_line "$out" '^  g2 +B\[k\]\[j\] +read +D2 +\(1,0\) +exterior +in +no +yes ' "mm g2"
expect_line "$out" '^  g3 +C\[i\]\[j\] +flow +D3 +\(0,0\) +interior +[-a-z/]+ +yes .* stays in PEs$' "mm g3"
expect_line "$out" '^  g4 +C\[i\]\[j\] +output +D4 +\(0,0\) +interior +out +no +no +[0-9]+ +L1 +per i,j tile$' "mm g4"
# Candidate 4, space i,k: the tiles run i, k, j, so a tile of C is left
# for the next j before its k tiles are done: the partial sums flow out
# and back after every tile.
out=$("$DSE" analyze --space-time 4 "$SRC/configs/mm.cfg")
expect_line "$out" '^  g3 +C\[i\]\[j\] +flow +D3 +\(0,1\) +exterior +in/out +no .* every tile$' "mm c4 g3"
expect_line "$out" '^  g4 +C\[i\]\[j\] +output .* with its flow$' "mm c4 g4"
expect_line "$out" '^  g4 +W_out +\{' "mm g4 W_out"

# Every example analyses, as tables and as JSON that Python reads and
# that matches what the kernel must give.
for cfg in "$SRC"/configs/*.cfg; do
	name=$(basename "$cfg" .cfg)
	# A GNN workload has no kernel to analyse: the command says so.
	if grep -q '^\[workload\]' "$cfg"; then
		run_status 2 "dse analyze configs/$name.cfg" analyze "$cfg"
		grep -q "analyses a \[kernel\]" <<<"$err" && ok ||
			fail "dse analyze configs/$name.cfg: $err"
		continue
	fi
	"$DSE" analyze "$cfg" >"$TMP/$name.txt" 2>&1 && ok ||
		fail "dse analyze configs/$name.cfg: $(cat "$TMP/$name.txt")"
	if "$DSE" analyze --json "$cfg" >"$TMP/$name.json" 2>"$TMP/err"; then
		$PY "$CHECK" "$name" <"$TMP/$name.json" && ok ||
			fail "configs/$name.cfg: JSON check"
	else
		fail "dse analyze --json configs/$name.cfg: $(cat "$TMP/err")"
	fi
done
# --space-time keeps one candidate in the JSON too.
"$DSE" analyze --json -s 4 "$SRC/configs/mm.cfg" | $PY -c '
import json, sys
d = json.load(sys.stdin)
c = d["candidates"]
sys.exit(0 if d["n_candidates"] == 6 and len(c) == 1 and c[0]["index"] == 4
         and c[0]["space_loops"] == ["i", "k"] else 1)' && ok ||
	fail "--json --space-time 4"

# Strings are escaped: a config whose path holds a quote, a backslash, a
# tab and a control character comes back unchanged through the JSON
# parser; a byte that is not UTF-8 becomes U+FFFD instead of breaking it.
weird="$TMP/we\"ird\\	name"$'\x01'".cfg"
cp "$SRC/configs/mm-small.cfg" "$weird"
"$DSE" analyze --json "$weird" | $PY -c '
import json, sys
sys.exit(0 if json.load(sys.stdin)["config_file"] == sys.argv[1] else 1)' \
	"$weird" && ok || fail "JSON escaping of the config file name"
latin="$TMP/caf"$'\xe9'".cfg"
cp "$SRC/configs/mm-small.cfg" "$latin"
"$DSE" analyze --json "$latin" | $PY -c '
import json, sys
name = json.loads(sys.stdin.buffer.read().decode("utf-8"))["config_file"]
sys.exit(0 if name.endswith("/caf\ufffd.cfg") else 1)' &&
	ok || fail "JSON output of a file name that is not UTF-8"

# Under mpirun the report is printed once, by rank 0.
out=$(mpi 2 1 analyze "$SRC/configs/mm-small.cfg")
[ "$(grep -c '^dependences' <<<"$out")" -eq 1 ] && ok ||
	fail "mpirun -np 2 dse analyze: expected one report, got: $out"

# Nothing is written: no results file, even where the config points.
(cd "$TMP" && "$DSE" analyze "$SRC/configs/mm-small.cfg" >/dev/null)
[ ! -e "$TMP/results" ] && ok || fail "dse analyze wrote a results file"

# Help, usage errors and bad configs.
expect() {	# expect STATUS PATTERN ARGS...
	local want=$1 pattern=$2 out status
	shift 2
	out=$("$DSE" "$@" 2>&1)
	status=$?
	if [ "$status" -ne "$want" ]; then
		fail "dse $* exited $status, expected $want: $(head -c 400 <<<"$out")"
	elif ! grep -qE -- "$pattern" <<<"$out"; then
		fail "dse $*: output lacks /$pattern/: $(head -c 400 <<<"$out")"
	else
		ok
	fi
}
expect 0 '^Usage: dse analyze' analyze --help
expect 0 '^  analyze ' --help
expect 2 "unknown option '--bogus'" analyze --bogus "$SRC/configs/mm.cfg"
expect 2 "needs a candidate number" analyze --space-time x "$SRC/configs/mm.cfg"
expect 2 "needs a value" analyze --space-time
expect 2 "unexpected argument" analyze a.cfg b.cfg
expect 2 "^dse: error: --space-time 6: kernel 'mm' has 6 space-time candidates" \
	analyze --space-time 6 "$SRC/configs/mm.cfg"
expect 2 "nothere.cfg:0:0: error: cannot read file" analyze "$TMP/nothere.cfg"
printf '%s\n' '[kernel]' 'name = mm' \
	'domain = [M] -> { S0[i,j,k] : 0 <= i < M and and }' \
	'reads = [M] -> { S0[i,j,k] -> A[i,k] }' \
	'writes = [M] -> { S0[i,j,k] -> C[i,j] }' 'params = M=64' >"$TMP/isl.cfg"
expect 2 "^dse: $TMP/isl.cfg:3:10: error: .*, key 'domain'" analyze "$TMP/isl.cfg"
expect 2 "^dse: $TMP/isl.cfg:3:10: error: " analyze --json "$TMP/isl.cfg"
printf '%s\n' '[kernel]' 'name = mm' 'domian = { S0[i] : 0 <= i < 8 }' \
	>"$TMP/key.cfg"
expect 2 "^dse: $TMP/key.cfg:3:1: error: unknown key .*, key 'domian'" \
	analyze "$TMP/key.cfg"
printf '%s\n' '[kernel]' 'name = mm' \
	'domain = [M] -> { S0[i,j,k] : 0 <= i,j,k < M }' \
	'reads = [M] -> { S0[i,j,k] -> A[i,k] }' \
	'writes = [M] -> { S0[i,j,k] -> C[i,j] }' 'params = M=64, Q=3' \
	>"$TMP/param.cfg"
expect 2 "^dse: $TMP/param.cfg:6:10: error: .*, key 'params'" analyze "$TMP/param.cfg"
# A space_time the kernel lacks does not stop the analysis (it is how a
# user finds the right one) but is pointed out.
sed 's/^\[space\]$/[space]\nspace_time = 40/' "$SRC/configs/mm-small.cfg" \
	>"$TMP/st.cfg"
expect 0 "st.cfg:[0-9]+:14: warning: space_time = 40 is not a candidate" \
	analyze "$TMP/st.cfg"
finish
