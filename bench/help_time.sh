#!/usr/bin/env bash
# The time "dse --help" takes, start to exit: the best and the median of
# N runs (default 20), wall clock and CPU time (user + system, which a
# loaded machine inflates far less).  Commands that do not search start no
# MPI and libclang is loaded only when a C kernel is read, so this is the
# cost of the process alone.  Prints figures; never fails on a time.
# Usage: bench/help_time.sh [BUILD_DIR] [N]
set -eu
BUILD=${1:-build}
N=${2:-20}
/usr/bin/python3 - "$BUILD/dse" "$N" <<'PY'
import resource, statistics, subprocess, sys, time
dse, n = sys.argv[1], int(sys.argv[2])


def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


for args in (["--help"], ["eval", "--help"], ["help", "--markdown"], ["--version"]):
    t, c = [], []
    for _ in range(n):
        c0, t0 = cpu(), time.perf_counter()
        subprocess.run([dse] + args, stdout=subprocess.DEVNULL, check=True)
        t.append(time.perf_counter() - t0)
        c.append(cpu() - c0)
    print("dse %-18s wall best %6.1f ms  median %6.1f ms  cpu median "
          "%6.1f ms  (%d runs)" % (" ".join(args), 1e3 * min(t),
                                   1e3 * statistics.median(t),
                                   1e3 * statistics.median(c), n))
PY
