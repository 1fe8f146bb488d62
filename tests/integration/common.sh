# Shared by the integration tests: the dse binary, the source tree, a
# scratch directory removed on exit, and the MPI launcher set up for root
# and for more ranks than cores: the one the build found (DSE_MPIEXEC and
# DSE_MPIEXEC_FLAGS, from ctest), else Open MPI's mpirun.
set -u
DSE=$1
SRC=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
MPIRUN=${DSE_MPIEXEC:-mpirun}
MPIFLAGS=${DSE_MPIEXEC_FLAGS---oversubscribe}
failures=0
checks=0

fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

ok() {
	checks=$((checks + 1))
}

# mpi NP THREADS ARGS...: runs dse under the MPI launcher.
mpi() {
	local np=$1 threads=$2
	shift 2
	# shellcheck disable=SC2086
	OMP_NUM_THREADS=$threads "$MPIRUN" -np "$np" $MPIFLAGS "$DSE" "$@"
}

# ranks PID: the dse processes the launcher PID started: its children
# under Open MPI's mpirun, its grandchildren under MPICH's Hydra (which
# starts a proxy per node).
ranks() {
	local c
	for c in $(pgrep -P "$1"); do
		if [ "$(cat "/proc/$c/comm" 2>/dev/null)" = dse ]; then
			echo "$c"
		else
			ranks "$c"
		fi
	done
}

# expect_line TEXT PATTERN WHAT: TEXT has a line matching PATTERN.
expect_line() {
	if grep -qE -- "$2" <<<"$1"; then ok; else fail "$3: no line /$2/ in: $1"; fi
}

# run_status EXPECTED WHAT ARGS...: dse exits with EXPECTED; output in
# $out, errors in $err.
run_status() {
	local want=$1 what=$2 status
	shift 2
	out=$("$DSE" "$@" 2>"$TMP/err")
	status=$?
	err=$(cat "$TMP/err")
	[ "$status" -eq "$want" ] && ok ||
		fail "$what: exit $status, not $want ($err)"
}

# bad_config WHAT KEY LINE TEXT: a config of TEXT (printf %b escapes) is
# refused with status 2 and an error at bad.cfg:LINE about KEY, and no
# results file appears.
bad_config() {
	local what=$1 key=$2 line=$3
	printf '%b' "$4" >"$TMP/bad.cfg"
	rm -f "$TMP/bad.h5"
	run_status 2 "$what" -q -o "$TMP/bad.h5" "$TMP/bad.cfg"
	grep -qE "bad.cfg:$line:[0-9]+: error: .*key '$key'" <<<"$err" && ok ||
		fail "$what: no bad.cfg:$line with key '$key' in: $err"
	[ ! -e "$TMP/bad.h5" ] && ok || fail "$what: $TMP/bad.h5 written"
}

finish() {
	echo "$((checks)) passed, $failures failed"
	[ "$failures" -eq 0 ]
}
