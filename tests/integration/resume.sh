#!/usr/bin/env bash
# Checkpoints and --resume.  A sweep killed with SIGKILL once a checkpoint
# exists, then resumed, ends with the same front, row for row, as a sweep
# that was never stopped: exhaustive and genetic, stopped on 1 rank and
# resumed on 2, and the other way round.  SIGTERM stops a sweep with status 143, a last
# checkpoint and the command that continues it.  A damaged state, a state
# cut short, a truncated file, a file of another config and a finished
# sweep are each refused with status 2 and their message, leaving the file
# as it was.
# Kills at any moment leave a results file that opens; a normal run leaves
# no temporary file.
# Usage: resume.sh DSE SOURCE_DIR
. "$(dirname "$0")/common.sh"
export OMP_NUM_THREADS=1
PY=/usr/bin/python3
cd "$TMP" || exit 1

# An exhaustive sweep of 42 million points (5040 has 60 divisors: 60^3
# tilings x 7 x 7 latencies x 4 SIMD widths), a few seconds on one core,
# checkpointing every 0.2 s: the kills below come right after the first
# checkpoint, well before the end even on a fast machine with 2 ranks.
cat >ex.cfg <<'EOF'
[kernel]
name    = mm
domain  = [M,N,K] -> { S0[i,j,k] : 0 <= i < M and 0 <= j < N and 0 <= k < K }
reads   = [M,N,K] -> { S0[i,j,k] -> A[i,k]; S0[i,j,k] -> B[k,j]; S0[i,j,k] -> C[i,j] }
writes  = [M,N,K] -> { S0[i,j,k] -> C[i,j] }
params  = M=5040, N=5040, K=5040
[space]
array_part = 1..5040 divisors
latency    = 1..64 pow2
simd       = 1, 2, 4, 8
[search]
objectives  = latency, dsp
constraints = dsp <= 0.75, bram18k <= 0.7
checkpoint  = 0.2
EOF
# The genetic search of the same space, on four islands: also a few
# seconds.
sed -e 's/^objectives/strategy    = genetic\nbudget      = 400000\nislands     = 4\n&/' \
	ex.cfg >gen.cfg

# front_equal A B WHAT: the /mm/front tables of A and B are equal, column
# for column and row for row, byte for byte.
front_equal() {
	local why
	if why=$($PY - "$1" "$2" 2>&1 <<'EOF'
import sys
import h5py
a = h5py.File(sys.argv[1], "r")["mm/front"][()]
b = h5py.File(sys.argv[2], "r")["mm/front"][()]
if a.dtype != b.dtype:
    sys.exit("the columns differ")
if len(a) == 0 or len(a) != len(b):
    sys.exit("%d rows against %d" % (len(a), len(b)))
for i in range(len(a)):
    if a[i].tobytes() != b[i].tobytes():
        sys.exit("row %d differs: %s against %s" % (i, a[i], b[i]))
EOF
	); then ok; else fail "$3: front differs from the uninterrupted run: $why"; fi
}

# attr FILE NAME: a root attribute of FILE ("-" when it cannot be read).
attr() {
	$PY - "$1" "$2" 2>/dev/null <<'EOF' || echo -
import sys
import h5py
v = h5py.File(sys.argv[1], "r").attrs[sys.argv[2]]
print(v.decode() if isinstance(v, bytes) else v)
EOF
}

# is_checkpoint FILE WHAT: FILE opens and is a checkpoint: complete 0 and
# a state dataset of the size its attribute says.
is_checkpoint() {
	local why
	if why=$($PY - "$1" 2>&1 <<'EOF'
import sys
import h5py
f = h5py.File(sys.argv[1], "r")
if f.attrs["complete"] != 0:
    sys.exit("complete is %s" % f.attrs["complete"])
s = f["checkpoint/state"]
if s.shape[0] == 0 or s.attrs["size"] != s.shape[0]:
    sys.exit("state of %d bytes, size %s" % (s.shape[0], s.attrs["size"]))
EOF
	); then ok; else fail "$2: $1 is no checkpoint: $why"; fi
}

# is_final FILE WHAT: FILE is a finished sweep, resumed, without a
# /checkpoint group.
is_final() {
	local why
	if why=$($PY - "$1" 2>&1 <<'EOF'
import sys
import h5py
f = h5py.File(sys.argv[1], "r")
for k, want in (("complete", 1), ("resumed", 1), ("interrupted", 0)):
    if f.attrs[k] != want:
        sys.exit("%s is %s, not %s" % (k, f.attrs[k], want))
if "checkpoint" in f:
    sys.exit("it still has /checkpoint")
EOF
	); then ok; else fail "$2: $1: $why"; fi
}

# start NP CFG OUT: starts a sweep in the background (under mpirun for NP
# > 1), its pid in $pid.
start() {
	if [ "$1" -eq 1 ]; then
		"$DSE" -q -o "$3" "$2" >"$3.out" 2>"$3.err" &
	else
		# shellcheck disable=SC2086
		"$MPIRUN" -np "$1" $MPIFLAGS "$DSE" -q -o "$3" "$2" \
			>"$3.out" 2>"$3.err" &
	fi
	pid=$!
}

# wait_file FILE: waits (at most 20 s) until FILE exists, that is until
# the first checkpoint was committed, or the sweep is gone.
wait_file() {
	local i
	for i in $(seq 1 1000); do
		[ -e "$1" ] && return 0
		kill -0 "$pid" 2>/dev/null || return 1
		sleep 0.02
	done
	return 1
}

# kill9 NP: SIGKILL to the sweep: to dse itself, or under the launcher
# to the dse processes, whose death the launcher then reports.
kill9() {
	if [ "$1" -eq 1 ]; then
		kill -KILL "$pid" 2>/dev/null
	else
		# shellcheck disable=SC2046
		kill -KILL $(ranks "$pid") 2>/dev/null
	fi
	wait "$pid" 2>/dev/null
}

# resume_run NP CFG OUT: dse --resume, waiting; the exit status in $status.
resume_run() {
	if [ "$1" -eq 1 ]; then
		"$DSE" -q --resume -o "$3" "$2" >"$3.rout" 2>"$3.rerr"
	else
		# shellcheck disable=SC2086
		"$MPIRUN" -np "$1" $MPIFLAGS "$DSE" -q --resume -o "$3" "$2" \
			>"$3.rout" 2>"$3.rerr"
	fi
	status=$?
}

# kill_and_resume KILL_NP RESUME_NP CFG OUT REF WHAT
kill_and_resume() {
	local what=$6
	rm -f "$4"
	start "$1" "$3" "$4"
	if ! wait_file "$4"; then
		fail "$what: no checkpoint appeared: $(cat "$4.err")"
		kill9 "$1"
		return
	fi
	kill9 "$1"
	is_checkpoint "$4" "$what (killed)"
	# The checkpoint holds part of the work, and the resumed sweep counts
	# the points of both runs once: as many as the uninterrupted one.
	done1=$(attr "$4" points_evaluated)
	goal=$(attr "$4" points_to_reach)
	[ "$done1" != - ] && [ "$done1" -gt 0 ] && [ "$done1" -lt "$goal" ] &&
		ok || fail "$what: the checkpoint has $done1 of $goal points"
	resume_run "$2" "$3" "$4"
	[ "$status" -eq 0 ] && ok ||
		fail "$what: --resume exited $status: $(cat "$4.rerr")"
	is_final "$4" "$what"
	front_equal "$5" "$4" "$what"
	[ "$(attr "$4" points_evaluated)" = "$(attr "$5" points_evaluated)" ] &&
		ok || fail "$what: $(attr "$4" points_evaluated) points evaluated, not $(attr "$5" points_evaluated)"
}

# ---- the uninterrupted references; a normal run leaves no temporary file
mkdir clean
(cd clean && "$DSE" -q -o ref.h5 ../ex.cfg) && ok || fail "exhaustive reference"
(cd clean && "$DSE" -q -o gref.h5 ../gen.cfg) && ok || fail "genetic reference"
left=$(ls clean | grep '\.tmp\.' || true)
[ -z "$left" ] && ok || fail "a normal run left $left"
[ "$(attr clean/ref.h5 complete)" = 1 ] && ok || fail "ref: complete is not 1"
[ "$(attr clean/gref.h5 strategy)" = genetic ] && ok ||
	fail "gref: strategy is $(attr clean/gref.h5 strategy), not genetic"
$PY -c 'import sys, h5py; sys.exit("checkpoint" in h5py.File(sys.argv[1], "r"))' 2>/dev/null \
	clean/ref.h5 && ok || fail "a finished sweep has a /checkpoint group"

# ---- (a), (b) SIGKILL, then --resume ----------------------------------
# Each rank count stops a sweep and resumes one; the state does not
# depend on the ranks, so a sweep may also continue on another count.
kill_and_resume 1 2 ex.cfg k12.h5 clean/ref.h5 "exhaustive, 1 rank then 2"
kill_and_resume 2 1 ex.cfg k21.h5 clean/ref.h5 "exhaustive, 2 ranks then 1"
kill_and_resume 1 2 gen.cfg g12.h5 clean/gref.h5 "genetic, 1 rank then 2"
kill_and_resume 2 1 gen.cfg g21.h5 clean/gref.h5 "genetic, 2 ranks then 1"

# ---- (c) SIGTERM: status 143, a last checkpoint, the command to go on ---
rm -f t.h5
"$DSE" -o t.h5 ex.cfg >t.out 2>t.err &
pid=$!
if wait_file t.h5; then
	kill -TERM "$pid"
	wait "$pid"
	status=$?
	[ "$status" -eq 143 ] && ok || fail "SIGTERM: exit $status, not 143"
	expect_line "$(cat t.err)" '^dse: interrupted after [0-9]+ of 42336000 points; checkpoint written to t\.h5; continue with: dse --resume -o t\.h5 ex\.cfg$' "SIGTERM message"
	[ "$(attr t.h5 interrupted)" = 1 ] && ok || fail "SIGTERM: interrupted is not 1"
	is_checkpoint t.h5 "SIGTERM"
else
	fail "SIGTERM: no checkpoint appeared"
	kill -KILL "$pid"
fi
# The refusals below must leave the checkpoint as it is.
cp t.h5 keep.h5
sum=$(md5sum <t.h5)

# SIGINT, as a terminal's Ctrl-C sends it: once stops the sweep with
# status 130 and a checkpoint; twice ends it at once, killed by the second
# (the handler put the default action back when it ran, which
# /proc/PID/status shows as SIGINT leaving the caught set).  A script's
# background job ignores SIGINT, so Python starts dse with the default.
if why=$($PY - "$DSE" <<'EOF' 2>&1
import os, signal, subprocess, sys, time
dse = sys.argv[1]

def caught(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("SigCgt:"):
                return int(line.split()[1], 16) & (1 << (signal.SIGINT - 1))
    return 0

def start(out):
    if os.path.exists(out):
        os.remove(out)
    p = subprocess.Popen([dse, "-q", "-o", out, "ex.cfg"],
                         stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT,
                                                           signal.SIG_DFL))
    for _ in range(2000):
        if os.path.exists(out) or p.poll() is not None:
            break
        time.sleep(0.01)
    if p.poll() is not None or not caught(p.pid):
        sys.exit("%s: the sweep ended or does not catch SIGINT" % out)
    return p

p = start("int1.h5")
p.send_signal(signal.SIGINT)
err = p.communicate()[1]
if p.returncode != 130 or "interrupted after" not in err:
    sys.exit("one SIGINT: status %s, %r" % (p.returncode, err))
p = start("int2.h5")
p.send_signal(signal.SIGINT)
while caught(p.pid) and p.poll() is None:
    time.sleep(0.001)
if p.poll() is None:
    p.send_signal(signal.SIGINT)
    err = p.communicate()[1]
    if p.returncode != -signal.SIGINT or "interrupted after" in err:
        sys.exit("two SIGINTs: status %s, %r" % (p.returncode, err))
EOF
); then ok; else fail "SIGINT: $why"; fi

# ---- one rank of two killed ----------------------------------------------
# The launcher ends the whole job, saying which rank died of which
# signal; the last checkpoint is whole and a resumed sweep finishes with
# the front of the uninterrupted one.
rm -f r1.h5
# shellcheck disable=SC2086
"$MPIRUN" -np 2 $MPIFLAGS "$DSE" -q -o r1.h5 ex.cfg >r1.out 2>r1.err &
pid=$!
if wait_file r1.h5; then
	# The rank with the larger pid, not rank 0 necessarily: any one of
	# them will do.
	victim=$(ranks "$pid" | sort -n | tail -1)
	kill -KILL "$victim"
	wait "$pid"
	status=$?
	[ "$status" -ne 0 ] && ok || fail "one rank killed: the launcher exited 0"
	# Open MPI says "signal 9" on stderr, MPICH's Hydra "(signal 9)" on
	# stdout.
	cat r1.err r1.out | grep -qiE "signal:? 9" && ok ||
		fail "one rank killed: no word of the signal in: $(cat r1.err r1.out)"
	is_checkpoint r1.h5 "one rank killed"
	resume_run 2 ex.cfg r1.h5
	[ "$status" -eq 0 ] && ok ||
		fail "one rank killed: --resume exited $status: $(cat r1.h5.rerr)"
	front_equal clean/ref.h5 r1.h5 "one rank killed"
else
	fail "one rank killed: no checkpoint appeared: $(cat r1.err)"
	# shellcheck disable=SC2046
	kill -KILL $(ranks "$pid") 2>/dev/null
fi

# ---- (d) refusals --------------------------------------------------------
# refused OUT CFG REGEX WHAT: --resume exits 2 with REGEX on stderr and OUT
# unchanged.
refused() {
	local before
	before=$(md5sum <"$1")
	run_status 2 "$4" -q --resume -o "$1" "$2"
	expect_line "$err" "$3" "$4"
	[ "$(md5sum <"$1")" = "$before" ] && ok || fail "$4: $1 was changed"
}
# A byte of the state flipped (through HDF5, so the file stays readable).
cp keep.h5 flip.h5
$PY - flip.h5 <<'EOF'
import sys
import h5py
with h5py.File(sys.argv[1], "r+") as f:
    s = f["checkpoint/state"]
    i = s.shape[0] // 2
    s[i] = s[i] ^ 0x10
EOF
refused flip.h5 ex.cfg '^dse: error: cannot resume from flip\.h5: .*(corrupt|checksum)' "flipped state byte"
# The state cut short by 10 bytes.
cp keep.h5 short.h5
$PY - short.h5 <<'EOF'
import sys
import h5py
with h5py.File(sys.argv[1], "r+") as f:
    s = f["checkpoint/state"][()]
    del f["checkpoint/state"]
    f["checkpoint/state"] = s[:-10]
EOF
refused short.h5 ex.cfg '^dse: error: cannot resume from short\.h5: .*truncated' "truncated state"
# Half of the file.
head -c "$(($(stat -c %s keep.h5) / 2))" keep.h5 >half.h5
refused half.h5 ex.cfg '^dse: error: cannot resume from half\.h5: cannot open results file .*truncated file' "truncated file"
# Another config: a different constraint on line 13.
sed 's/dsp <= 0.75/dsp <= 0.7/' ex.cfg >other.cfg
refused t.h5 other.cfg "^dse: error: t\\.h5 was written by another config: line 13 differs \\('constraints = dsp <= 0\\.75, bram18k <= 0\\.7' there, 'constraints = dsp <= 0\\.7, bram18k <= 0\\.7' in other\\.cfg\\)" "another config"
refused clean/ref.h5 ex.cfg '^dse: error: clean/ref\.h5 is a finished sweep; nothing to resume$' "finished sweep"
[ "$(md5sum <t.h5)" = "$sum" ] && ok || fail "the refusals changed t.h5"

# The command the SIGTERM message gave finishes the sweep.
cmd=$(sed -n 's/.*continue with: dse //p' t.err)
# shellcheck disable=SC2086
"$DSE" -q $cmd && ok || fail "'dse $cmd' failed"
is_final t.h5 "SIGTERM, resumed"
front_equal clean/ref.h5 t.h5 "SIGTERM, resumed"

# ---- (e) kills at any moment leave a file that opens ---------------------
# Checkpoints every 20 ms, killed at several moments: whenever the kill
# lands (in a write, between writes), the file under the final name is a
# whole checkpoint.
sed 's/^checkpoint .*/checkpoint  = 0.02/' ex.cfg >often.cfg
for delay in 0.01 0.07 0.13 0.19; do
	rm -f often.h5
	start 1 often.cfg often.h5
	if wait_file often.h5; then
		sleep "$delay"
		kill9 1
		is_checkpoint often.h5 "killed $delay s after the first checkpoint"
	else
		fail "often.cfg: no checkpoint appeared"
		kill9 1
	fi
done
finish
