"""Checks `dse show` against the results file as h5py reads it.

Usage: /usr/bin/python3 check_show.py DSE FILE CLOUD_N BOARD_DSP BOARD_BRAM
                                      MAX_LATENCY
FILE is a sweep of configs/mm-small.cfg with [output] cloud = CLOUD_N; its
constraints are dsp <= 50% and bram18k <= 0.5 of the board, whose DSP and
BRAM18K counts are given, and latency <= MAX_LATENCY seconds.  Checks sorting (ascending, descending, by
numbers and by text, stable on ties), the CSV against the stored rows, the
aligned table, the default view, and the cloud: its size, that its rows are
legal points whose "feasible" column matches the constraints, and that the
front weakly dominates every feasible one.
"""
import csv
import io
import subprocess
import sys

import h5py

dse, path = sys.argv[1], sys.argv[2]
cloud_n, board_dsp, board_bram = (int(a) for a in sys.argv[3:6])
max_latency = float(sys.argv[6])
failures = []
checks = 0


def check(cond, what):
    global checks
    checks += 1
    if not cond:
        failures.append(what)


def show(*args):
    r = subprocess.run([dse, "show", *args, path], capture_output=True,
                       text=True)
    check(r.returncode == 0, "dse show %s: exit %d (%s)"
          % (" ".join(args), r.returncode, r.stderr.strip()))
    return r.stdout


def value(x):
    return x.decode() if isinstance(x, bytes) else x


def stored(table):
    """The table as h5py reads it: the column names and the rows as
    lists of Python values.
    """
    with h5py.File(path, "r") as f:
        d = f["mm/" + table]
        names = list(d.dtype.names)
        rows = [[value(r[n]).item() if hasattr(value(r[n]), "item")
                 else value(r[n]) for n in names] for r in d[()]]
    return names, rows


def parse_csv(text, names, rows):
    """Parses `dse show --csv --all` and converts each field to the type
    of its stored column, so the comparison is exact.
    """
    got = list(csv.reader(io.StringIO(text, newline="")))
    check(got and got[0] == names, "CSV header %s, expected %s"
          % (got[0] if got else None, names))
    out = []
    kinds = [type(v) for v in rows[0]] if rows else []
    for line in got[1:]:
        out.append([k(v) for k, v in zip(kinds, line)])
    return out


def check_sort(table, column, desc):
    names, rows = stored(table)
    j = names.index(column)
    # Python's sort is stable, in either direction with reverse=False on
    # a negated key; text columns are compared as byte strings, as C's
    # strcmp does.
    if isinstance(rows[0][j], str):
        keys = [r[j].encode() for r in rows]
        order = sorted(range(len(rows)), key=lambda i: keys[i],
                       reverse=False)
        if desc:
            # Stable descending: ties keep file order.
            order = sorted(range(len(rows)),
                           key=lambda i: [-b for b in keys[i]] + [1])
    else:
        sign = -1 if desc else 1
        order = sorted(range(len(rows)), key=lambda i: sign * rows[i][j])
    want = [rows[i] for i in order]
    args = ["--csv", "--all", "--table", table, "--sort", column]
    if desc:
        args.append("--desc")
    got = parse_csv(show(*args), names, rows)
    check(got == want, "--sort %s%s of %s: rows differ from h5py's "
          "sorted rows" % (column, " --desc" if desc else "", table))
    if got != want:
        for g, w in zip(got, want):
            if g != w:
                print("  got ", g, "\n  want", w)
                break


def check_table_view():
    names, rows = stored("front")
    out = show("--sort", "latency", "--columns", "index, latency,dsp")
    lines = out.splitlines()
    check(len(lines) == 3 + len(rows), "table has %d lines for %d rows"
          % (len(lines), len(rows)))
    check(lines[0].startswith(path + ": kernel mm") and "u250" in lines[0]
          and "exhaustive" in lines[0] and "latency,dsp,bram18k" in
          lines[0], "header line: %r" % lines[0])
    check("%d rows" % len(rows) in lines[1], "count line: %r" % lines[1])
    check(lines[2].split() == ["index", "latency", "dsp"],
          "column line %r" % lines[2])
    # Numbers are right-aligned: every line of a numeric table has the
    # header's width.
    check(len({len(x) for x in lines[2:]}) == 1, "table not aligned")
    i, lat = names.index("index"), names.index("latency")
    want = [r[i] for r in sorted(rows, key=lambda r: r[lat])]
    got = [int(x.split()[0]) for x in lines[3:]]
    check(got == want, "table rows not in latency order")
    for x, r in zip(lines[3:], sorted(rows, key=lambda r: r[lat])):
        shown = float(x.split()[1])
        check(abs(shown - r[lat]) <= 5e-4 * abs(r[lat]),
              "latency %s printed for %r" % (x.split()[1], r[lat]))
    # The default view: the objectives and the design string, not the
    # index or the interval of the analytic model.
    head = show().splitlines()[2].split()
    for c in ("latency", "dsp", "bram18k", "sa_sizes"):
        check(c in head, "default view lacks %s" % c)
    for c in ("index", "cycles_low", "sampled_fraction"):
        check(c not in head, "default view shows %s" % c)
    check(show("--all").splitlines()[2].split() == names,
          "--all does not show every column in file order")


def legal(r, n):
    """The model's legality rules for configs/mm-small.cfg (space-time 3:
    latency tiles the space loops i and j inside array_part, simd the
    time loop k).
    """
    c = dict(zip(n, r))
    return (c["array_part_i"] % c["latency_i"] == 0 and
            c["array_part_j"] % c["latency_j"] == 0 and
            c["array_part_k"] % c["simd_k"] == 0 and
            c["cycles"] > 0 and c["latency"] > 0 and c["dsp"] > 0)


def check_cloud():
    names, rows = stored("cloud")
    with h5py.File(path, "r") as f:
        valid = int(f.attrs["points_valid"])
    check(min(cloud_n, valid) <= len(rows) <= cloud_n,
          "cloud of %d rows for N = %d and %d valid points"
          % (len(rows), cloud_n, valid))
    got = parse_csv(show("--csv", "--all", "--table", "cloud"), names, rows)
    check(got == rows, "cloud CSV differs from the stored rows")
    idx = [r[names.index("index")] for r in rows]
    check(len(set(idx)) == len(idx), "a point twice in the cloud")
    for r in rows:
        c = dict(zip(names, r))
        check(legal(r, names), "illegal point in the cloud: %s" % c)
        fits = (c["dsp"] <= 0.5 * board_dsp and
                c["bram18k"] <= 0.5 * board_bram and
                c["latency"] <= max_latency)
        check(c["feasible"] in (0, 1) and c["feasible"] == int(fits),
              "feasible = %s for dsp %d, bram18k %d, latency %g"
              % (c["feasible"], c["dsp"], c["bram18k"], c["latency"]))
    check(any(dict(zip(names, r))["feasible"] == 0 for r in rows) and
          any(dict(zip(names, r))["feasible"] == 1 for r in rows),
          "the cloud lacks feasible or infeasible points")
    fn, front = stored("front")
    obj = ("latency", "dsp", "bram18k")
    fv = [[r[fn.index(o)] for o in obj] for r in front]
    for r in rows:
        if r[names.index("feasible")]:
            p = [r[names.index(o)] for o in obj]
            check(any(all(a <= b for a, b in zip(q, p)) for q in fv),
                  "feasible cloud point %s beats the front" % p)


check_table_view()
check_sort("front", "latency", False)
check_sort("front", "latency", True)
check_sort("front", "dsp", False)	# ties: file order kept
check_sort("front", "dsp", True)
check_sort("front", "simd_k", True)
check_sort("front", "sa_sizes", False)
check_sort("cloud", "bram18k", True)
check_cloud()

for msg in failures[:20]:
    print("FAIL:", msg)
print("%d passed, %d failed" % (checks - len(failures), len(failures)))
sys.exit(1 if failures else 0)
