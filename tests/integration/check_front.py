"""Opens a results file with h5py and checks it as a user would see it.

Usage: /usr/bin/python3 check_front.py FILE BOARD_DSP BOARD_BRAM18K
Checks the root attributes, the front's columns and units, that every row
meets the constraints of the config (fractions of the board given on the
command line) and that no row of the front dominates another.
"""
import sys

import h5py

path, board_dsp, board_bram = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


with h5py.File(path, "r") as f:
    a = f.attrs
    for key in ("tool_version", "config", "seed", "ranks", "threads",
                "wall_time", "points_evaluated", "points_valid",
                "objectives"):
        check(key in a, "root attribute %s missing" % key)
    check(a["points_evaluated"] == a["points_total"],
          "not every point was evaluated")
    check(0 < a["points_valid"] <= a["points_evaluated"], "bad valid count")
    check("[kernel]" in a["config"].decode() if isinstance(a["config"], bytes)
          else "[kernel]" in a["config"], "config text not stored")
    front = f["mm/front"]
    names = front.dtype.names
    for col in ("array_part_i", "array_part_j", "array_part_k", "latency_i",
                "latency_j", "simd_k", "cycles", "latency", "gops", "dsp",
                "bram18k", "uram", "sa_sizes"):
        check(col in names, "column %s missing" % col)
    units = [u.decode() if isinstance(u, bytes) else u
             for u in front.attrs["units"]]
    check(len(units) == len(names), "units attribute has the wrong length")
    check(units[names.index("latency")] == "s", "latency unit is not s")
    rows = front[:]
    check(len(rows) > 1, "front has fewer than two rows")
    objectives = (a["objectives"].decode() if isinstance(a["objectives"], bytes)
                  else a["objectives"]).split(",")
    for r in rows:
        check(r["dsp"] <= 0.5 * board_dsp, "row over the DSP constraint")
        check(r["bram18k"] <= 0.5 * board_bram, "row over the BRAM constraint")
        check(r["sa_sizes"].startswith(b"{kernel[]->space_time[3];"),
              "bad sa_sizes %r" % r["sa_sizes"])
    vals = [[float(r[o]) for o in objectives] for r in rows]
    for i, p in enumerate(vals):
        for j, q in enumerate(vals):
            if i != j and all(x <= y for x, y in zip(p, q)) and p != q:
                failures.append("row %d dominates row %d" % (i, j))

for msg in failures[:20]:
    print("FAIL:", msg)
print("%d passed, %d failed" % (1 if not failures else 0, len(failures)))
sys.exit(1 if failures else 0)
