#!/usr/bin/env bash
# Builds dse and its MPI tests against MPICH into build-mpich/ and runs
# the tests that start ranks (the search tests on 1 to 4 ranks, and the
# end-to-end runs that compare rank counts and resume on other ones), so
# that the code keeps to what the MPI standard promises rather than to
# what one library happens to do.  scripts/bootstrap.sh installs MPICH
# beside Open MPI, which stays the default.  Usage: scripts/mpich.sh
# [ctest args]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=build-mpich
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release \
	-DMPI_C_COMPILER=/usr/bin/mpicc.mpich \
	-DMPIEXEC_EXECUTABLE=/usr/bin/mpiexec.mpich >/dev/null
# Only what the tests below run, to keep CI short: a new test that starts
# ranks needs its program named here.
cmake --build "$dir" -j"$(nproc)" --target dse test_search_exhaustive \
	test_search_heuristic test_search_parallel test_search_prune \
	test_search_parts test_gnn_share >/dev/null
ctest --test-dir "$dir" --output-on-failure -j2 \
	-R '^(search|gnn)\..*_np[0-9]|^integration\.(determinism|resume|gnn_share_np2)$' "$@"
