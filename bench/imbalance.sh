#!/usr/bin/env bash
# Dealing under imbalance: the exhaustive sweep on 2 ranks, each pinned to
# a core of its own, while a busy process takes half of rank 1's core, with
# blocks dealt as ranks free up ([search] deal = dynamic) and by index
# (deal = index: block j of an epoch to rank j mod 2, as dse once did).
#
# The busy process is a plain spinner at the ranks' own nice level pinned
# to the loaded core: the kernel's fair scheduler gives two runnable tasks
# of equal weight equal shares of a core, so the rank there gets half of it
# for as long as both want it, whatever the rank does.  (A duty-cycled
# spinner that runs half of each period would also take half, but its share
# depends on the timer's granularity and on sleeper credit, and a
# nice-levelled one takes a share set by the weight table, 1024/(1024+w),
# not a half.)  The single-rank runs on the quiet core and on the loaded
# core, under the same spinner, give each core's rate r0 and r1; a perfect
# split of the space would finish in points / (r0 + r1), and the efficiency
# of a 2-rank run is that time over its own.  "share c1" is the share of
# core 1 the single rank there got (CPU s / wall s): a half, on an
# otherwise idle machine.  Beside the wall-clock figures
# it prints the CPU seconds of every run, summed over ranks: a rank that
# waits in the epoch's collective spins there (MPI polls), so CPU seconds
# per point rising over the single-rank runs' is time lost to waiting, and
# this figure moves little with whatever else the machine runs.  Three
# rounds of the four runs; the median round's figures.  Pruning is off, so
# every point costs the same.  Prints figures; never fails on a time.
#
# Usage: bench/imbalance.sh [build-dir] [config]
# Default config bench/mm-5040.cfg (42.3 million points).  The launcher is
# $DSE_MPIEXEC (default mpirun); MPICH's and OpenMPI's both take the
# colon-separated form used here.
set -u
cd "$(dirname "$0")/.."
build=${1:-build}
cfg=${2:-bench/mm-5040.cfg}
dse=$(realpath "$build/dse")
mpiexec=${DSE_MPIEXEC:-mpirun}
tmp=$(mktemp -d)
busy=""
cleanup() {
	[ -n "$busy" ] && kill "$busy" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMP_NUM_THREADS=1
# OpenMPI binds each rank to a core of its own choosing; taskset does it here.
bind=""
"$mpiexec" --version 2>&1 | grep -q "Open MPI\|OpenRTE" && bind="--bind-to none"

for deal in dynamic index; do
	sed "/^\[search\]/a deal = $deal\nprune = off" "$cfg" >"$tmp/$deal.cfg"
done

attr() {	# attr FILE NAME: a scalar root attribute
	h5dump -a "/$2" "$1" | sed -n 's/.*(0): \(.*\)$/\1/p'
}

# run DEAL CPU[,CPU]: one rank per listed core; prints the search's wall
# and CPU seconds and the points.
run() {
	local deal=$1 cpus=$2 cmd="" sep="" cpu f=$tmp/o.h5
	for cpu in ${cpus//,/ }; do
		cmd="$cmd $sep -np 1 taskset -c $cpu $dse -q -o $f $tmp/$deal.cfg"
		sep=":"
	done
	# shellcheck disable=SC2086
	"$mpiexec" $bind $cmd || return 1
	echo "$(attr "$f" search_time) $(attr "$f" search_cpu_time)" \
		"$(attr "$f" points_evaluated)"
}

taskset -c 1 sh -c 'while :; do :; done' &
busy=$!

# Rounds of the four runs back to back, so that each round's runs share
# whatever else the machine does at the time; the median round is the
# figure.
for round in 1 2 3; do
	read -r t0 c0 n <<<"$(run dynamic 0)" || exit 1
	read -r t1 c1 _ <<<"$(run dynamic 1)" || exit 1
	read -r td cd _ <<<"$(run dynamic 0,1)" || exit 1
	read -r ti ci _ <<<"$(run index 0,1)" || exit 1
	echo "$round $n $t0 $c0 $t1 $c1 $td $cd $ti $ci"
done >"$tmp/rounds"

awk -v cfg="$cfg" '
{
	n = $2; t0 = $3; c0 = $4; t1 = $5; c1 = $6
	td = $7; cd = $8; ti = $9; ci = $10
	r0 = n / t0; r1 = n / t1; ideal = n / (r0 + r1)
	# CPU seconds per point of the single-rank runs, weighted as a
	# perfect split would share the points between the cores.
	cpp = (r0 * c0 / n + r1 * c1 / n) / (r0 + r1)
	ed[NR] = 100 * ideal / td; ei[NR] = 100 * ideal / ti
	if (NR == 1) {
		printf "%s: %d points, pruning off, a spinner on core 1; " \
			"wall s (CPU s)\n", cfg, n
		printf "%5s %15s %15s %15s %15s %8s %8s %10s\n", "round", \
			"1 rank core 0", "1 rank core 1", "2 dynamic", \
			"2 by index", "eff dyn", "eff idx", "share c1"
	}
	printf "%5d %6.2f (%6.2f) %6.2f (%6.2f) %6.2f (%6.2f) %6.2f (%6.2f)" \
		" %7.1f%% %7.1f%% %9.0f%%\n", NR, t0, c0, t1, c1, td, cd, ti, ci, \
		ed[NR], ei[NR], 100 * c1 / t1
	cd_[NR] = 100 * cd / n / cpp; ci_[NR] = 100 * ci / n / cpp
}
function median(a,   x, y, z) {
	x = a[1]; y = a[2]; z = a[3]
	return x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y))
}
END {
	printf "efficiency against a perfect split (median round): dynamic " \
		"%.1f%%, by index %.1f%%\n", median(ed), median(ei)
	printf "CPU seconds per point over a perfect split (median round): " \
		"dynamic %.1f%%, by index %.1f%%\n", median(cd_), median(ci_)
}' "$tmp/rounds"
