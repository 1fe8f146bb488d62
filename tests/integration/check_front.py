"""Opens a results file with h5py and checks it as a user would see it.

Usage: /usr/bin/python3 check_front.py FILE BOARD_DSP BOARD_BRAM18K
Checks the root attributes, the front's columns and units, that every row
meets the constraints of the config (fractions of the board given on the
command line), that no row of the front dominates another, and the
space-time candidates and I/O groups of matrix multiply.
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
    # A point skipped by a bound (over a constraint, or beaten by the
    # pruning's reference) is pruned, not evaluated; together they are the
    # whole space.
    check("points_pruned" in a, "root attribute points_pruned missing")
    check(a["points_evaluated"] + a["points_pruned"] == a["points_total"],
          "evaluated and pruned points do not add up to the space")
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
        # What bounds the design: a kind, the array of an I/O or drain
        # bound (one of the kernel's arrays), and a share of the cycles.
        if "bound_by" in names:
            kind, arr = r["bound_by"].decode(), r["bound_array"].decode()
            check(kind in ("compute", "dram", "io", "drain"),
                  "bad bound_by %r" % kind)
            check((arr in ("A", "B", "C")) == (kind in ("io", "drain")),
                  "bound_by %s with array %r" % (kind, arr))
            check(0 < r["bound_share"] <= 1,
                  "bound_share %r" % r["bound_share"])
        else:
            failures.append("column bound_by missing")
    vals = [[float(r[o]) for o in objectives] for r in rows]
    for i, p in enumerate(vals):
        for j, q in enumerate(vals):
            if i != j and all(x <= y for x, y in zip(p, q)) and p != q:
                failures.append("row %d dominates row %d" % (i, j))


def check_analysis(f):
    """The candidates and I/O groups tables of matrix multiply."""
    check(f.attrs["space_time"] == 3, "root attribute space_time is not 3")
    check(f.attrs["default_space_time"] == 3, "default_space_time is not 3")
    cands = f["mm/candidates"][:]
    check(len(cands) == 6, "%d candidates, expected 6" % len(cands))
    check(list(cands["index"]) == list(range(len(cands))),
          "candidate indices are not 0..n-1")
    spaces = [c["space_loops"].decode() for c in cands]
    check(spaces == ["i", "j", "k", "i,j", "i,k", "j,k"],
          "space loops %s" % spaces)
    if len(cands) == 6:
        check(cands[3]["time_loops"] == b"k", "candidate 3 time loops")
        check(cands[3]["n_space"] == 2, "candidate 3 is not 2-D")
    groups = [g for g in f["mm/io_groups"][:] if g["candidate"] == 3]
    by_name = {g["name"].decode(): g for g in groups}
    check(sorted(by_name) == ["g1", "g2", "g3", "g4"],
          "groups of candidate 3: %s" % sorted(by_name))
    if len(by_name) != 4:
        return
    g1, g2, g3, g4 = (by_name[n] for n in ("g1", "g2", "g3", "g4"))
    check(g1["array"] == b"A" and g1["direction"] == b"(0,1)" and
          g1["type"] == b"exterior" and g1["embedded"] == 1 and
          g1["copy_in"] == 1, "g1 %s" % (g1,))
    check(g2["array"] == b"B" and g2["direction"] == b"(1,0)" and
          g2["type"] == b"exterior", "g2 %s" % (g2,))
    check(g3["array"] == b"C" and g3["pruned"] == 1 and
          g3["type"] == b"interior" and g3["kind"] == b"flow", "g3 %s" % (g3,))
    check(g4["copy_out"] == 1 and g4["pruned"] == 0 and
          g4["buffer_level"] == b"L1" and g4["kind"] == b"output",
          "g4 %s" % (g4,))


with h5py.File(path, "r") as f:
    check_analysis(f)

for msg in failures[:20]:
    print("FAIL:", msg)
print("%d passed, %d failed" % (1 if not failures else 0, len(failures)))
sys.exit(1 if failures else 0)
