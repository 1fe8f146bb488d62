#!/usr/bin/env bash
# What a sweep writes, and what it must never write over: output names
# that are not regular files (a device node, a FIFO, a directory, a name
# ending in '/', an empty name) are refused with status 2 before any
# work, and left as they were; a symbolic link has its target written and
# stays a link; an input file (the config, a topology) is never an output,
# whatever name reaches it; 'dse tune -o' follows the same rules; a second
# writer of the same file is refused with the first one's process number;
# an unfinished checkpoint of the same config is not overwritten without
# --restart; a checkpoint whose input file changed is not resumed; the
# temporary files of killed writers are removed; a stop during the final
# write finishes it; a full disk is reported, never a crash, and failed
# checkpoints are tried again while the sweep goes on.
# Usage: output.sh DSE SOURCE_DIR
. "$(dirname "$0")/common.sh"
export OMP_NUM_THREADS=1
cd "$TMP" || exit 1
cp "$SRC/configs/mm-small.cfg" s.cfg
sed -i 's|^file = .*|file = out.h5|' s.cfg

# refused WHAT PATTERN ARGS...: dse exits 2 with PATTERN on stderr, fast
# (a FIFO must not block it).
refused() {
	local what=$1 pattern=$2
	shift 2
	out=$(timeout 60 "$DSE" "$@" 2>&1)
	status=$?
	[ "$status" -eq 2 ] && ok || fail "$what: exit $status, not 2: $out"
	expect_line "$out" "$pattern" "$what"
}

# ---- names that are not regular files ------------------------------------
mkfifo fifo
refused "-o a FIFO" "output file 'fifo' is a FIFO \\(named pipe\\), not a regular file" -q -o fifo s.cfg
[ -p fifo ] && ok || fail "the FIFO was replaced"
refused "a FIFO as the config" "fifo:0:0: error: .*FIFO" -q -o x.h5 fifo
mkfifo gfifo.mtx
printf '[workload]\nfamily = gnn-overlay\nmodel = b1\ngraph = gfifo.mtx\nfeatures = 16\nclasses = 4\n' >gfifo.cfg
refused "a FIFO as the graph file" "gfifo.cfg:4:9: error: 'gfifo.mtx' is a FIFO \\(named pipe\\), not a regular file; dse reads its inputs only from regular files, key 'graph'" -q -o x.h5 gfifo.cfg
mkdir adir
refused "-o a directory" "is a directory, not a regular file" -q -o adir s.cfg
refused "-o ending in /" "ends in '/'" -q -o newdir/ s.cfg
[ ! -e newdir ] && ok || fail "-o newdir/ made the directory"
refused "-o empty" "the output file name is empty" -q -o "" s.cfg
if mknod null c 1 3 2>/dev/null; then
	refused "-o a device node" "'null' is a character device" -q -o null s.cfg
	[ -c null ] && ok || fail "the device node was replaced"
	refused "tune -o a device node" "'null' is a character device" tune -q --emit json -o null s.cfg
	refused "tune -o a device node for a folder" "'null' is a character device" tune -q -o null s.cfg
	[ -c null ] && ok || fail "tune replaced the device node"
	ln -s null tonull
	refused "-o a link to a device node" "\\(a link to 'null'\\) is a character device" -q -o tonull s.cfg
else
	echo "skipped the device-node cases: mknod needs root"
fi
ls ./*.tmp.* >/dev/null 2>&1 && fail "a refusal left a temporary file" || ok

# ---- links are followed ----------------------------------------------------
: >target.h5
ln -s target.h5 link.h5
run_status 0 "-o a link" -q -o link.h5 s.cfg
[ -L link.h5 ] && ok || fail "the link was replaced"
[ "$(head -c 4 target.h5 | od -An -c | tr -d ' ')" = '211HDF' ] && ok ||
	fail "the link's target was not written"
ln -s missing.h5 dangling.h5
run_status 0 "-o a dangling link" -q -o dangling.h5 s.cfg
[ -L dangling.h5 ] && [ -s missing.h5 ] && ok ||
	fail "a dangling link's target was not created"

# ---- inputs are never outputs -----------------------------------------------
cp s.cfg keep.cfg
refused "-o the config" "'s.cfg' is the config file 's.cfg' this run reads" -q -o s.cfg s.cfg
refused "-o the config by another path" "is the config file" -q -o ./././s.cfg s.cfg
ln s.cfg hard.cfg
refused "-o a hard link of the config" "is the config file" -q -o hard.cfg s.cfg
ln -s s.cfg soft.cfg
refused "-o a link to the config" "is the config file" -q -o soft.cfg s.cfg
refused "tune -o the config" "is the config file" tune -q --emit json -o s.cfg s.cfg
refused "tune -o the config for a folder" "is the config file" tune -q -o s.cfg s.cfg
cmp -s s.cfg keep.cfg && ok || fail "the config was changed"
ln -s tuned.txt tune-link.txt
run_status 0 "tune -o a link" tune -q --emit json -o tune-link.txt s.cfg
[ -L tune-link.txt ] && grep -q "space_time" tuned.txt && ok ||
	fail "tune -o a link did not write its target"
# --emit autosa writes a folder: a link to one is followed, a file is not
# a folder, and a name ending in '/' is one.
mkdir tuned.d
ln -s tuned.d tune-dir-link
run_status 0 "tune -o a link to a folder" tune -q -o tune-dir-link s.cfg
[ -L tune-dir-link ] && grep -q "sa-sizes" tuned.d/autosa.sh && ok ||
	fail "tune -o a link to a folder did not write into the folder"
refused "tune -o a file for a folder" "'tuned.txt' exists and is not a folder" tune -q -o tuned.txt s.cfg
grep -q "space_time" tuned.txt && ok || fail "tune -o a file for a folder changed the file"
run_status 0 "tune -o a new folder ending in /" tune -q -o tuned2/ s.cfg
[ -f tuned2/autosa.sh ] && ok || fail "tune -o tuned2/ wrote no autosa.sh"
run_status 0 "a sweep to out.h5" -q s.cfg
refused "tune -o the --from file" "is the --from file" tune -q --emit json -o out.h5 --from out.h5
refused "tune -o the --from file for a folder" "is the --from file" tune -q -o out.h5 --from out.h5

# ---- a file that is not dse's is not replaced --------------------------------
echo "my notes" >notes.txt
refused "-o someone's file" "notes.txt exists and is not a dse results file" -q -o notes.txt s.cfg
[ "$(cat notes.txt)" = "my notes" ] && ok || fail "notes.txt was replaced"

# ---- a long sweep: an overlay on a topology file, checkpointing often -------
mkdir long
cp "$SRC/configs/topologies/mlp.csv" long/
cat >long/t.cfg <<'EOF'
[workload]
family   = overlay-systolic
name     = mlp
topology = mlp.csv
[platform]
board = u250
[space]
array_size        = 2..256
local_depth       = 1024..65536
accumulator_depth = 512..65536
[search]
objectives  = latency, dsp, bram18k
checkpoint  = 0.05
EOF

# start_long OUT: the endless sweep in the background, $pid, its stderr
# in $log (here, not beside OUT, which may be on a full disk); waits (at
# most 60 s) for its first checkpoint.
start_long() {
	rm -f "$1"
	log=$(tr / _ <<<"$1").err
	"$DSE" -q -o "$1" long/t.cfg >/dev/null 2>"$log" &
	pid=$!
	for _ in $(seq 1 3000); do
		[ -e "$1" ] && return 0
		kill -0 "$pid" 2>/dev/null || return 1
		sleep 0.02
	done
	return 1
}

# One writer: a second one is refused with the first one's process number.
if start_long w.h5; then
	refused "a second writer" "'w.h5' is being written by another dse \\(process $pid on host" -q -o w.h5 long/t.cfg
	ln -s w.h5 wl.h5
	refused "a second writer through a link" "'w.h5' is being written by another dse" -q -o wl.h5 long/t.cfg
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
else
	fail "the long sweep wrote no checkpoint: $(cat "$log")"
	kill -KILL "$pid" 2>/dev/null
fi

# The unfinished checkpoint the kill left: the same command again is
# refused (a requeued job must not start over), and the file is kept.
sum=$(md5sum <w.h5)
refused "rerun onto an unfinished checkpoint" "w.h5 holds an unfinished sweep of this config \\([0-9]+ of [0-9]+ points, written .*\\); continue it with 'dse --resume -o w.h5 long/t.cfg', or start again with --restart" -q -o w.h5 long/t.cfg
[ "$(md5sum <w.h5)" = "$sum" ] && ok || fail "the refusal changed w.h5"
refused "--resume with --restart" "give one of them" -q --resume --restart -o w.h5 long/t.cfg

# A killed writer's temporary file is removed by the next writer.
echo junk >w.h5.tmp.999999
# A changed input file: the checkpoint is not resumed.
cp long/mlp.csv long/mlp.bak
sed -i 's/fc3, 64, 10, 256/fc3, 64, 12, 256/' long/mlp.csv
refused "--resume after the topology changed" "t.cfg:4:12: error: 'long/mlp.csv' changed since the checkpoint in w.h5 was written \\(67 bytes then, 67 now, other contents\\).*key 'topology'" -q --resume -o w.h5 long/t.cfg
[ "$(md5sum <w.h5)" = "$sum" ] && ok || fail "the refused resume changed w.h5"
[ ! -e w.h5.tmp.999999 ] && ok || fail "the stale temporary file is still there"
mv long/mlp.bak long/mlp.csv
# --restart discards the checkpoint and starts again.
"$DSE" -q --restart -o w.h5 long/t.cfg >r.out 2>r.err &
pid=$!
for _ in $(seq 1 3000); do
	[ "$(md5sum <w.h5)" != "$sum" ] && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.02
done
[ "$(md5sum <w.h5)" != "$sum" ] && ok || fail "--restart wrote no checkpoint: $(cat r.err)"
kill -TERM "$pid"
wait "$pid"
status=$?
[ "$status" -eq 143 ] && ok || fail "--restart then SIGTERM: exit $status"
# With the file the sweep started with, --resume goes on (and is stopped).
timeout --preserve-status -s TERM 2 "$DSE" -q --resume -o w.h5 long/t.cfg 2>res.err
status=$?
[ "$status" -eq 143 ] && ok || fail "--resume with the same topology: exit $status: $(cat res.err)"

# ---- a stop during the final write finishes it --------------------------------
# strace holds the final rename (the only one: no checkpoint is due) for
# 3 s; SIGTERM and then SIGINT arrive meanwhile.
cat >fin.cfg <<'EOF'
[kernel]
name    = mm
domain  = [M,N,K] -> { S0[i,j,k] : 0 <= i < M and 0 <= j < N and 0 <= k < K }
reads   = [M,N,K] -> { S0[i,j,k] -> A[i,k]; S0[i,j,k] -> B[k,j]; S0[i,j,k] -> C[i,j] }
writes  = [M,N,K] -> { S0[i,j,k] -> C[i,j] }
params  = M=256, N=256, K=128
[space]
array_part = 1..256 divisors
latency    = 1..16 pow2
[search]
objectives  = latency, dsp
checkpoint  = 3600
# Every point evaluated, so that the cloud (which holds no point a bound
# skipped) fills and the file outgrows the full disk's 200 KB below.
prune       = off
[output]
cloud = 20000
EOF
if command -v strace >/dev/null &&
	strace -f -o /dev/null -e inject=rename:delay_enter=1 true 2>/dev/null; then
	strace -f -o /dev/null -e trace=rename -e inject=rename:delay_enter=3000000 \
		"$DSE" -q -o fin.h5 fin.cfg 2>fin.err &
	spid=$!
	for _ in $(seq 1 3000); do
		ls fin.h5.tmp.* >/dev/null 2>&1 && break
		sleep 0.01
	done
	dpid=$(pgrep -P "$spid")
	kill -TERM "$dpid"
	sleep 0.2
	kill -INT "$dpid" 2>/dev/null
	wait "$spid"
	status=$?
	[ "$status" -eq 0 ] && ok || fail "a stop in the final write: exit $status: $(cat fin.err)"
	expect_line "$(cat fin.err)" "^dse: SIGTERM arrived while the results were being written; the write was finished: fin\\.h5 holds the whole sweep$" "a stop in the final write"
	h5dump -a complete fin.h5 2>/dev/null | grep -q "(0): 1" && ok ||
		fail "fin.h5 is not a finished sweep"
	ls fin.h5.tmp.* >/dev/null 2>&1 && fail "the final write left its temporary file" || ok
else
	echo "skipped the stop during the final write: strace cannot delay a system call here"
fi

# ---- a full disk ------------------------------------------------------------
# A small tmpfs (root only): the final write fails with the reason, status
# 1, no crash and nothing left behind; checkpoints that do not fit fail
# while the sweep goes on, and are written again once there is room.
mkdir full
if mount -t tmpfs -o size=200k tmpfs full 2>/dev/null; then
	trap 'umount "$TMP/full" 2>/dev/null; rm -rf "$TMP"' EXIT
	"$DSE" -q -o full/x.h5 fin.cfg 2>full.err
	status=$?
	[ "$status" -eq 1 ] && ok || fail "a full disk: exit $status, not 1: $(cat full.err)"
	expect_line "$(cat full.err)" "cannot write results file 'full/x\\.h5' \\(write of [0-9]+ bytes to 'full/x\\.h5\\.tmp\\.[0-9]+' failed\\): No space left on device" "a full disk"
	[ -z "$(ls full | grep -v lock)" ] && ok || fail "a full disk left $(ls full)"
	# The disk fills up under a running sweep and frees again: the
	# failed checkpoints are reported, the sweep goes on, and the next
	# checkpoint after the space came back is written.
	umount full
	mount -t tmpfs -o size=4m tmpfs full
	if start_long full/w.h5; then
		dd if=/dev/zero of=full/filler bs=4k 2>/dev/null
		for _ in $(seq 1 3000); do
			grep -q "could not be written" "$log" && break
			sleep 0.02
		done
		rm -f full/filler
		for _ in $(seq 1 3000); do
			grep -q "written again" "$log" && break
			sleep 0.02
		done
		kill -TERM "$pid"
		wait "$pid"
		status=$?
		[ "$status" -eq 143 ] && ok || fail "a disk that filled up: exit $status, not 143: $(cat "$log")"
		expect_line "$(cat "$log")" "^dse: warning: 1 checkpoint in a row could not be written \\(.*No space left on device\\); the sweep goes on and tries again every 0\\.05 s$" "a disk that filled up"
		expect_line "$(cat "$log")" "^dse: a checkpoint was written again, after [0-9]+ that could not be$" "a disk that freed again"
		h5dump -a complete full/w.h5 2>/dev/null | grep -q "(0): 0" && ok ||
			fail "after the disk freed again, full/w.h5 is no checkpoint"
	else
		fail "the long sweep wrote no checkpoint on the tmpfs: $(cat "$log")"
		kill -KILL "$pid" 2>/dev/null
	fi
	umount full
else
	echo "skipped the full disk: mounting a tmpfs needs root"
fi

# ---- an ONNX model is an input like a graph or a topology -----------------
# The results file records its size and hash (what --resume compares),
# and -o naming it is refused.
mkdir onnx
cp "$SRC/configs/topologies/resnet-block.onnx" onnx/net.onnx
sed -e 's|^model .*|model = net.onnx|' -e '/^file /d' \
	"$SRC/configs/tensil-onnx.cfg" >onnx/o.cfg
"$DSE" -q -o onnx/o.h5 onnx/o.cfg 2>onnx.err && ok ||
	fail "the ONNX sweep: $(cat onnx.err)"
h5dump -a input_files onnx/o.h5 2>/dev/null | grep -q "model.*onnx/net\.onnx" &&
	ok || fail "input_files does not record the ONNX model"
refused "-o the ONNX model" "is the model file" -q -o onnx/net.onnx onnx/o.cfg

# ---- a C kernel is an input too --------------------------------------------
# input_files records [kernel] source, -o naming it is refused, and a
# checkpoint of it is not resumed after the C file changed.
mkdir ck
cp "$SRC/configs/kernels/gemm.c" ck/gemm.c
sed -e 's|^source .*|source = gemm.c|' -e 's|^file .*|file = g.h5|' \
	-e 's|^array_part .*|array_part = 1..64 divisors|' \
	"$SRC/configs/gemm.cfg" >ck/g.cfg
"$DSE" -q -o ck/g.h5 ck/g.cfg 2>ck.err && ok || fail "the C sweep: $(cat ck.err)"
h5dump -a input_files ck/g.h5 2>/dev/null | grep -q "source.*ck/gemm\.c" &&
	ok || fail "input_files does not record the C kernel"
refused "-o the C kernel" "is the source file" -q -o ck/gemm.c ck/g.cfg
finish
