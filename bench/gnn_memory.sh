#!/usr/bin/env bash
# Memory per node of a GNN sweep on 1, 2 and 4 ranks of one machine (a
# node): the graph and its partitions are built once per node and shared
# by its ranks (gnn/share.h), so the node's memory should not grow with
# its ranks.
#
# Two figures per run, both summed over the ranks (mpirun itself is not
# counted):
#  - PSS: the proportional set size from /proc/<pid>/smaps_rollup, where a
#    page that n processes share counts 1/n in each, so the sum is the
#    memory the node really holds; sampled every 0.1 s, and the largest
#    sum of one sampling round kept (a peak between two rounds is missed);
#  - HWM: each rank's VmHWM (peak resident set), summed.  A shared page
#    counts in full in every rank that touched it, so this sum over-counts
#    shared memory; it is what a batch system that adds up its processes'
#    RSS would report.
# Prints figures; never fails on a time or a size.
#
# Usage: bench/gnn_memory.sh [build-dir] [config] [ranks...]
# Default config: bench/gnn-yelp.cfg (the Yelp-sized preset, 7 M edges);
# ranks 1 2 4.  Give another build directory (one without the shared copy)
# to measure the ranks' private copies.  The launcher is $DSE_MPIEXEC
# (default mpirun; --oversubscribe is added for Open MPI).
set -u
cd "$(dirname "$0")/.."
build=${1:-build}
cfg=${2:-bench/gnn-yelp.cfg}
shift 2 2>/dev/null || shift $#
list=${*:-1 2 4}
dse=$(realpath "$build/dse")
mpiexec=${DSE_MPIEXEC:-mpirun}
flags=""
"$mpiexec" --version 2>&1 | grep -q "Open MPI" && flags=--oversubscribe
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMP_NUM_THREADS=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ranks: the dse processes of the run now going, found by the unique
# results path on their command lines (the launcher's too, and under
# MPICH Hydra's proxies, which are not named dse).
ranks() {
	local p
	for p in $(pgrep -f -- "$tmp/out.h5"); do
		[ "$(cat "/proc/$p/comm" 2>/dev/null)" = dse ] && echo "$p"
	done
}

# kB FIELD FILE: the value of "FIELD: n kB" in FILE, 0 when unreadable.
kb() {
	awk -v f="$1:" '$1 == f { print $2; found = 1 } END { if (!found) print 0 }' \
		"$2" 2>/dev/null || echo 0
}

echo "config $cfg, $build/dse, $(nproc) cores, 1 thread a rank"
printf "%6s %9s %14s %14s  %s\n" ranks "wall s" "peak PSS MB" "sum HWM MB" \
	"HWM per rank MB"
for np in $list; do
	start=$(date +%s.%N)
	"$mpiexec" -np "$np" $flags "$dse" -q -o "$tmp/out.h5" "$cfg" \
		>/dev/null 2>"$tmp/err" &
	launcher=$!
	peak=0
	declare -A hwm=()
	while kill -0 "$launcher" 2>/dev/null; do
		sum=0
		for p in $(ranks); do
			pss=$(kb Pss "/proc/$p/smaps_rollup")
			h=$(kb VmHWM "/proc/$p/status")
			sum=$((sum + pss))
			[ "$h" -gt "${hwm[$p]:-0}" ] && hwm[$p]=$h
		done
		[ "$sum" -gt "$peak" ] && peak=$sum
		sleep 0.1
	done
	wait "$launcher"
	status=$?
	end=$(date +%s.%N)
	[ "$status" -eq 0 ] || { echo "np $np failed: $(tail -3 "$tmp/err")"; continue; }
	total=0 each=""
	for p in "${!hwm[@]}"; do
		total=$((total + hwm[$p]))
		each="$each $((hwm[$p] / 1000))"
	done
	unset hwm
	awk -v np="$np" -v s="$start" -v e="$end" -v pk="$peak" -v t="$total" \
		-v each="$each" 'BEGIN { printf "%6d %9.1f %14.1f %14.1f  %s\n",
		np, e - s, pk / 1000, t / 1000, each }'
done
