#!/usr/bin/env bash
# Points per second and parallel efficiency of every search strategy on
# 1, 2 and 4 cores as ranks x threads (1x1, 1x2, 2x1, 2x2, 4x1; 4 cores
# oversubscribe a 2-core machine, so read those figures as a check that
# nothing breaks, not as speed).  Efficiency of n cores is rate(n) /
# (n * rate(1)).  The heuristics spend 20% of the space (642,253 points of
# bench/conv-vgg.cfg), so a run lasts long enough to time.  Best of 3 runs
# each.  Prints figures; never fails on a time.  Ranks are not bound to
# cores (mpirun binds a rank to one core by default, which would leave its
# second thread no core of its own), and OpenMP threads wait passively, so
# oversubscribed runs do not spin against each other.
# Usage: bench/search_parallel.sh [build-dir] [config]
set -u
cd "$(dirname "$0")/.."
build=${1:-build}
cfg=${2:-bench/conv-vgg.cfg}
bench="$build/bench/bench_search"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
out=$(mktemp)
trap 'rm -f "$out"' EXIT

export OMP_WAIT_POLICY=PASSIVE
for shape in 1x1 1x2 2x1 2x2 4x1; do
	np=${shape%x*}
	th=${shape#*x}
	for run in 1 2 3; do
		OMP_NUM_THREADS=$th mpirun -np "$np" --oversubscribe --bind-to none "$bench" \
			--speed --budgets 0.2 "$cfg" || exit 1
	done
done | awk '$1 == "speed"' >"$out"

awk '
{
	key = $3 " " $5 "x" $7
	if (!(key in best) || $13 > best[key]) best[key] = $13
	pts[key] = $9
	s[$3] = 1
}
END {
	printf "%-10s %6s %12s %14s %10s\n", "strategy", "cores", "points", \
		"points/s", "efficiency"
	n = split("1x1 1x2 2x1 2x2 4x1", shapes, " ")
	for (st in s) {
		base = best[st " 1x1"]
		for (i = 1; i <= n; i++) {
			k = st " " shapes[i]
			if (!(k in best)) continue
			split(shapes[i], rt, "x")
			c = rt[1] * rt[2]
			printf "%-10s %6s %12d %14.0f %9.1f%%\n", st, shapes[i], \
				pts[k], best[k], 100 * best[k] / (c * base)
		}
	}
}' "$out"
