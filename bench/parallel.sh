#!/usr/bin/env bash
# Wall time of the default sweep on 2 cores, and the parallel efficiency of
# 2 MPI ranks over 1 (search phase, best of 3 runs each) on the default
# sweep and on a 42-million-point sweep.  Prints figures; never fails on a
# time.  Usage: bench/parallel.sh [build-dir]
set -u
cd "$(dirname "$0")/.."
build=${1:-build}
dse="$build/dse"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMP_NUM_THREADS=1

attr() {	# attr FILE NAME: a scalar root attribute
	h5dump -a "/$2" "$1" | sed -n 's/.*(0): \(.*\)$/\1/p'
}

# best NP CONFIG: the best search time of 3 runs, and the front checksum.
best() {
	local np=$1 cfg=$2 b="" i t
	for i in 1 2 3; do
		mpirun -np "$np" --oversubscribe "$dse" -q -o "$tmp/o.h5" \
			$cfg || return 1
		t=$(attr "$tmp/o.h5" search_time)
		b=$(awk -v a="$t" -v b="$b" 'BEGIN{print (b==""||a<b)?a:b}')
	done
	echo "$b $(attr "$tmp/o.h5" points_evaluated)"
}

start=$(date +%s.%N)
mpirun -np 2 "$dse" -q -o "$tmp/default.h5" || exit 1
end=$(date +%s.%N)
awk -v s="$start" -v e="$end" -v n="$(attr "$tmp/default.h5" points_evaluated)" \
	'BEGIN{printf "default sweep: %d points, mpirun -np 2 dse end to end %.2f s\n", n, e-s}'

for cfg in "" bench/mm-5040.cfg; do
	read -r t1 n <<<"$(best 1 "$cfg")"
	read -r t2 _ <<<"$(best 2 "$cfg")"
	awk -v a="$t1" -v b="$t2" -v n="$n" -v c="${cfg:-default sweep}" \
		'BEGIN{printf "%s: %d points, search 1 rank %.3f s (%.2f M/s), 2 ranks %.3f s (%.2f M/s), efficiency %.1f%%\n", c, n, a, n/a/1e6, b, n/b/1e6, 100*a/(2*b)}'
done
