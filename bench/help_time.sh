#!/usr/bin/env bash
# The time "dse --help" takes, start to exit: the best and the median of
# N runs (default 20).  Commands that do not search start no MPI, so this
# is the cost of the process alone.  Prints figures; never fails on a time.
# Usage: bench/help_time.sh [BUILD_DIR] [N]
set -eu
BUILD=${1:-build}
N=${2:-20}
/usr/bin/python3 - "$BUILD/dse" "$N" <<'PY'
import statistics, subprocess, sys, time
dse, n = sys.argv[1], int(sys.argv[2])
for args in (["--help"], ["eval", "--help"], ["help", "--markdown"], ["--version"]):
    t = []
    for _ in range(n):
        t0 = time.perf_counter()
        subprocess.run([dse] + args, stdout=subprocess.DEVNULL, check=True)
        t.append(time.perf_counter() - t0)
    print("dse %-18s best %6.1f ms  median %6.1f ms  (%d runs)" % (
        " ".join(args), 1e3 * min(t), 1e3 * statistics.median(t), n))
PY
