#!/usr/bin/env bash
# [space] space_time = all and lists: a sweep over every candidate of a
# small matrix multiply is the non-dominated union of the one-candidate
# sweeps (check_space_time.py), the same on 2 ranks x 2 threads and for a
# heuristic strategy on any rank count; dse show and dse tune name the
# candidate; a list sweeps only the candidates it names; the single form
# writes no candidate column; a killed sweep over every candidate resumes
# to the uninterrupted front.
. "$(dirname "$0")/common.sh"

cfg() { # cfg NAME SPACE_TIME [EXTRA-SEARCH-LINE]
	sed -e "s|^array_part   = 1..256 divisors|array_part   = 4..64 divisors|" \
		-e "s|^array_part   = .*|space_time = $2\n&|" \
		-e "s|^\\[search\\]|&\n${3:-}|" \
		"$SRC/configs/mm-small.cfg" >"$TMP/$1.cfg"
	grep -q "^space_time = $2\$" "$TMP/$1.cfg" && ok ||
		fail "no space_time in $TMP/$1.cfg"
}

cfg all all
run_status 0 "sweep of every candidate" -q -o "$TMP/all.h5" "$TMP/all.cfg"
n=$(/usr/bin/python3 -c "
import sys, h5py
print(len(h5py.File(sys.argv[1], 'r')['mm']['candidates'][:]))" \
	"$TMP/all.h5" 2>/dev/null || echo 0)
[ "$n" -ge 2 ] && ok || fail "the kernel has $n candidates"
singles=()
for ((c = 0; c < n; c++)); do
	cfg "one$c" "$c"
	run_status 0 "sweep of candidate $c" -q -o "$TMP/one$c.h5" \
		"$TMP/one$c.cfg"
	singles+=("$TMP/one$c.h5")
done
/usr/bin/python3 "$(dirname "$0")/check_space_time.py" mm "$TMP/all.h5" \
	"${singles[@]}" && ok || fail "the front over every candidate"

# The single form has no candidate column, as before.
run_status 0 "columns of a one-candidate front" show --all --csv \
	"$TMP/one0.h5"
! grep -q "space_time" <<<"$(head -1 <<<"$out")" && ok ||
	fail "a one-candidate front has a space_time column"

run_status 0 "show the front" show "$TMP/all.h5"
expect_line "$out" "kernel mm \\(space-time candidates 0(,[0-9]+)+\\)" \
	"dse show lists the candidates"
expect_line "$out" "space_time_name" "dse show has the candidate's name"
run_status 0 "front, one rank" show --csv --all "$TMP/all.h5"
one=$out
mpi 2 2 -q -o "$TMP/all2.h5" "$TMP/all.cfg" && ok ||
	fail "sweep on 2 ranks failed"
run_status 0 "front, two ranks" show --csv --all "$TMP/all2.h5"
[ -n "$one" ] && [ "$one" = "$out" ] && ok ||
	fail "the fronts of 1 rank and 2 ranks x 2 threads differ"

# Pruning by bounds stays sound over the candidates: the front without
# it is the same.
cfg noprune all "prune = off"
run_status 0 "sweep of every candidate without pruning" -q \
	-o "$TMP/noprune.h5" "$TMP/noprune.cfg"
run_status 0 "front without pruning" show --csv --all "$TMP/noprune.h5"
[ -n "$one" ] && [ "$one" = "$out" ] && ok ||
	fail "the front without pruning differs"

# A list sweeps the candidates it names and no other.
cfg list "$((n - 1)), 0"
run_status 0 "sweep of a list" -q -o "$TMP/list.h5" "$TMP/list.cfg"
/usr/bin/python3 -c "
import sys, h5py
f = h5py.File(sys.argv[1], 'r')
got = set(int(x) for x in f['mm']['front']['space_time'])
want = {0, int(sys.argv[2])}
sys.exit(0 if got <= want and f.attrs['space_times'] in
	(b'0,%s' % sys.argv[2].encode(), '0,' + sys.argv[2]) else
	'%s %s' % (got, f.attrs['space_times']))
" "$TMP/list.h5" "$((n - 1))" && ok || fail "a list's candidates"

# A heuristic strategy over every candidate: the same front for any rank
# and thread count.
cfg gen all "strategy = genetic\nbudget = 3000\nislands = 4"
run_status 0 "genetic, one rank" -q -o "$TMP/gen1.h5" "$TMP/gen.cfg"
run_status 0 "genetic front, one rank" show --csv --all "$TMP/gen1.h5"
one=$out
mpi 2 2 -q -o "$TMP/gen2.h5" "$TMP/gen.cfg" && ok ||
	fail "genetic sweep on 2 ranks failed"
run_status 0 "genetic front, two ranks" show --csv --all "$TMP/gen2.h5"
[ -n "$one" ] && [ "$one" = "$out" ] && ok ||
	fail "the genetic fronts of 1 rank and 2 ranks x 2 threads differ"

# dse tune picks across the candidates and names the winner; from the
# results file it picks the same design.
best=$(/usr/bin/python3 -c "
import sys, h5py
f = h5py.File(sys.argv[1], 'r')['mm']['front'][:]
r = min(f, key=lambda r: r['latency'])
print(int(r['space_time']))" "$TMP/all.h5")
run_status 0 "tune over every candidate" tune --objective latency \
	--emit autosa -o "$TMP/tuned" "$TMP/all.cfg"
expect_line "$out" "^# dataflow: space_time\\[$best\\] \\[[a-z,]+\\], best of $n candidates" \
	"dse tune names the winning candidate"
grep -q "space_time\\[$best\\]" "$TMP/tuned/autosa.sh" && ok ||
	fail "autosa.sh does not build candidate $best"
run_status 0 "tune from the results" tune --objective latency \
	--emit json --from "$TMP/all.h5"
expect_line "$out" "\"space_time\":$best," "tune --from picks candidate $best"
# A sweep over every candidate killed once a checkpoint exists, then
# resumed, ends with the front of a sweep never stopped; a checkpoint of
# one candidate's sweep does not resume it.
sed -e "s|^params .*|params  = M=360, N=360, K=360|" \
	-e "s|^array_part .*|array_part = 1..360 divisors|" \
	-e "s|^array_part.k .*||" \
	-e "s|^latency .*|latency = 1..64 pow2|" \
	-e "s|^simd .*|simd = 1, 2, 4, 8|" \
	-e "s|^constraints .*|&\ncheckpoint = 0.2|" "$TMP/all.cfg" >"$TMP/big.cfg"
grep -q "^checkpoint = 0.2" "$TMP/big.cfg" && ok || fail "no big.cfg"
OMP_NUM_THREADS=1 "$DSE" -q -o "$TMP/big-ref.h5" "$TMP/big.cfg" && ok ||
	fail "uninterrupted sweep of big.cfg"
# kill_after_checkpoint CFG OUT: a sweep killed with SIGKILL as soon as
# its first checkpoint is committed (or once it is over).
kill_after_checkpoint() {
	local pid i
	OMP_NUM_THREADS=1 "$DSE" -q -o "$2" "$1" &
	pid=$!
	for i in $(seq 1 1000); do
		[ -e "$2" ] && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.02
	done
	kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
}
kill_after_checkpoint "$TMP/big.cfg" "$TMP/big.h5"
complete=$(/usr/bin/python3 -c "
import sys, h5py
print(h5py.File(sys.argv[1], 'r').attrs['complete'])" "$TMP/big.h5" 2>&1)
if [ "$complete" = 0 ]; then
	run_status 0 "resume the sweep over every candidate" --resume -q \
		-o "$TMP/big.h5" "$TMP/big.cfg"
	run_status 0 "resumed front" show --csv --all "$TMP/big.h5"
	resumed=$out
	run_status 0 "uninterrupted front" show --csv --all "$TMP/big-ref.h5"
	[ -n "$out" ] && [ "$out" = "$resumed" ] && ok ||
		fail "the resumed front differs from the uninterrupted one"
else
	# A machine fast enough to finish before the kill: nothing to
	# resume, which is no failure of dse.
	echo "note: big.cfg finished before the kill ($complete)"
fi
sed -e "s|^space_time = all|space_time = 0|" "$TMP/big.cfg" >"$TMP/big0.cfg"
kill_after_checkpoint "$TMP/big0.cfg" "$TMP/one.h5"
run_status 2 "a one-candidate checkpoint resumes no sweep of all" \
	--resume -q -o "$TMP/one.h5" "$TMP/big.cfg"
finish
