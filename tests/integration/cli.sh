#!/usr/bin/env bash
# The command line: help, version, usage errors, config errors.  Every bad
# input must exit with status 2, print one file:line:col message naming the
# key, and leave no output file behind.
. "$(dirname "$0")/common.sh"

expect() {	# expect STATUS PATTERN -- ARGS...
	local want=$1 pattern=$2 out status
	shift 3
	out=$("$DSE" "$@" 2>&1)
	status=$?
	if [ "$status" -ne "$want" ]; then
		fail "dse $* exited $status, expected $want: $out"
	elif ! grep -qE -- "$pattern" <<<"$out"; then
		fail "dse $*: output lacks /$pattern/: $out"
	else
		ok
	fi
}

expect 0 'Exit status' -- --help
expect 0 '^Usage' -- -h
expect 0 '^dse [0-9]+\.[0-9]+\.[0-9]+$' -- --version
expect 0 '^\[kernel\]' -- --print-default
expect 2 "unknown option '--bogus'" -- --bogus
expect 2 "needs a value" -- -o
expect 2 "unexpected argument 'b.cfg'" -- a.cfg b.cfg
expect 2 'nothere.cfg:0:0: error: cannot read file' -- "$TMP/nothere.cfg"

# An output path that cannot be created is a runtime failure (status 1),
# found before the sweep starts.
expect 1 "cannot create directory '/proc/nope'" -- -q -o /proc/nope/x.h5 \
	"$SRC/configs/mm-small.cfg"

# Each bad config: file, expected line:col, key, and a message fragment.
good_kernel='[kernel]
name = mm
domain = [M,N,K] -> { S0[i,j,k] : 0 <= i < M and 0 <= j < N and 0 <= k < K }
reads = [M,N,K] -> { S0[i,j,k] -> A[i,k]; S0[i,j,k] -> B[k,j]; S0[i,j,k] -> C[i,j] }
writes = [M,N,K] -> { S0[i,j,k] -> C[i,j] }
params = M=64, N=64, K=64'
bad_case() {	# bad_case NAME LINE:COL KEY FRAGMENT TEXT
	local name=$1 pos=$2 key=$3 frag=$4 text=$5
	local cfg="$TMP/$name.cfg" out="$TMP/out-$name.h5"
	printf '%s\n' "$text" >"$cfg"
	expect 2 "^dse: $cfg:$pos: error: .*$frag.*, key '$key'" -- -o "$out" "$cfg"
	if ls "$TMP" | grep -q "out-$name"; then
		fail "$name: an output file was created"
	else
		ok
	fi
}
bad_case board 8:9 board "unknown board 'u999'" "$good_kernel
[platform]
board = u999"
bad_case dtype 7:9 dtype "" "$good_kernel
dtype = fp64"
bad_case objective 8:23 objectives "unknown metric 'power'" "$good_kernel
[search]
objectives = latency, power"
bad_case loopkey 8:13 latency.k "no such knob" "$good_kernel
[space]
latency.k = 1..4 pow2"
bad_case constraint 8:15 constraints "unknown metric 'watts'" "$good_kernel
[search]
constraints = watts <= 5"
bad_case param 7:10 params "" "[kernel]
name = mm
domain = [M,N,K] -> { S0[i,j,k] : 0 <= i < M and 0 <= j < N and 0 <= k < K }
reads = [M,N,K] -> { S0[i,j,k] -> A[i,k]; S0[i,j,k] -> B[k,j]; S0[i,j,k] -> C[i,j] }
writes = [M,N,K] -> { S0[i,j,k] -> C[i,j] }
# K has no value
params = M=64, N=64"
bad_case isl 3:10 domain "isl" "[kernel]
name = mm
domain = [M] -> { S0[i,j,k] : 0 <= i < M and and }
reads = [M] -> { S0[i,j,k] -> A[i,k] }
writes = [M] -> { S0[i,j,k] -> C[i,j] }
params = M=64"
bad_case emptyset 8:14 array_part "empty" "$good_kernel
[space]
array_part = 3..3 divisors"
bad_case section 7:2 spaces "unknown section" "$good_kernel
[spaces]"
bad_case spacetime 8:14 space_time "has 6 space-time candidates \(0\.\.5\)" "$good_kernel
[space]
space_time = 6"
bad_case fraction 8:15 constraints "a fraction is at most 1 \\(the whole board\\)" "$good_kernel
[search]
constraints = dsp <= 5.0"
bad_case mhz 8:7 mhz "more than u250 can run: the DSP slices of its part" "$good_kernel
[platform]
mhz = 99999"
bad_case huge 9:11 latency "more than 2\^64 points" "$good_kernel
[space]
array_part = 1..1000000
latency = 1..1000000"
bad_case name 2:8 name "short identifier" "[kernel]
name = ../evil
domain = [M] -> { S0[i,j,k] : 0 <= i,j,k < M }
reads = [M] -> { S0[i,j,k] -> A[i,k]; S0[i,j,k] -> B[k,j] }
writes = [M] -> { S0[i,j,k] -> C[i,j] }
params = M=64"
printf '[kernel]\nname = mm\n\0[bogus]\n' >"$TMP/nul.cfg"
expect 2 "nul.cfg:3:1: error: a NUL byte" -- -o "$TMP/out-nul.h5" "$TMP/nul.cfg"
# An output name that holds a directory is bad input: refused before the
# sweep, as every name that is not a regular file (tests/integration/output.sh).
mkdir -p "$TMP/adir"
expect 2 "is a directory, not a regular file" -- -q -o "$TMP/adir" "$SRC/configs/mm-small.cfg"

# The same bad config under mpirun: every rank agrees, status 2, one message.
out=$(mpi 2 1 -o "$TMP/mpi.h5" "$TMP/board.cfg" 2>&1)
status=$?
[ "$status" -eq 2 ] && ok || fail "mpirun -np 2 on a bad config exited $status"
[ "$(grep -c "unknown board" <<<"$out")" -eq 1 ] && ok ||
	fail "mpirun -np 2: expected one error line, got: $out"
[ ! -e "$TMP/mpi.h5" ] && ok || fail "mpirun -np 2 wrote a file on bad input"

finish
