# Shared by the integration tests: the dse binary, the source tree, a
# scratch directory removed on exit, and mpirun set up for root and for
# more ranks than cores.
set -u
DSE=$1
SRC=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
failures=0
checks=0

fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

ok() {
	checks=$((checks + 1))
}

# mpi NP THREADS ARGS...: runs dse under mpirun.
mpi() {
	local np=$1 threads=$2
	shift 2
	OMP_NUM_THREADS=$threads mpirun -np "$np" --oversubscribe "$DSE" "$@"
}

finish() {
	echo "$((checks)) passed, $failures failed"
	[ "$failures" -eq 0 ]
}
