"""Checks a sweep over every space-time candidate against sweeps of one
candidate each (all objectives minimised, exhaustive search):

- every row of the cross-candidate front is a row of its candidate's own
  front, with the same metrics, and names its candidate consistently;
- the cross-candidate front is exactly the non-dominated union of the
  one-candidate fronts;
- each candidate's best design in the first objective is in the
  cross-candidate front unless a design of another candidate beats it,
  and the best of the whole is the best of the candidates' bests.

Usage: check_space_time.py GROUP ALL.h5 ONE.h5...
"""
import sys

import h5py


def rows(path, group):
    with h5py.File(path, "r") as f:
        objectives = f.attrs["objectives"]
        if isinstance(objectives, bytes):
            objectives = objectives.decode()
        objectives = [o.strip() for o in objectives.split(",")]
        front = f[group]["front"][:]
        st = int(f.attrs["space_time"])
    names = front.dtype.names
    out = []
    for r in front:
        sa = r["sa_sizes"]
        sa = sa.decode() if isinstance(sa, bytes) else sa
        cand = int(r["space_time"]) if "space_time" in names else st
        name = r["space_time_name"] if "space_time_name" in names else b""
        name = name.decode() if isinstance(name, bytes) else name
        out.append((cand, sa, tuple(float(r[o]) for o in objectives), name,
                    int(r["index"])))
    return objectives, st, out


def beats(a, b):
    """Whether row a drops row b from a front: better in one objective and
    no worse in any, or equal in all with a smaller index (the earlier
    candidate's, as the whole's index runs candidate after candidate).
    """
    if a[2] == b[2]:
        return (a[0], a[4]) < (b[0], b[4])
    return all(x <= y for x, y in zip(a[2], b[2]))


def main():
    group, all_path = sys.argv[1:3]
    objectives, st, whole = rows(all_path, group)
    if st != -1:
        sys.exit("space_time attribute of the whole is %d, not -1" % st)
    singles = {}
    for path in sys.argv[3:]:
        obj, cand, r = rows(path, group)
        if obj != objectives:
            sys.exit("%s: objectives %s" % (path, obj))
        singles[cand] = r
    union = [x for r in singles.values() for x in r]
    names = {}
    for cand, sa, m, name, _ in whole:
        if "space_time[%d]" % cand not in sa:
            sys.exit("row of candidate %d has --sa-sizes %s" % (cand, sa))
        if not name.startswith("[") or names.setdefault(cand, name) != name:
            sys.exit("candidate %d is named %r and %r"
                     % (cand, names[cand], name))
        if (cand, sa, m) not in {(c, s, x) for c, s, x, _, _ in singles[cand]}:
            sys.exit("%s %s is no row of candidate %d's own front"
                     % (sa, m, cand))
    if len(set(names.values())) != len(names):
        sys.exit("two candidates share a name: %s" % names)
    want = {(x[0], x[1], x[2]) for x in union
            if not any(beats(o, x) for o in union)}
    got = {(x[0], x[1], x[2]) for x in whole}
    if got != want:
        sys.exit("the front is not the non-dominated union: %d rows, want "
                 "%d; extra %s; missing %s" % (len(got), len(want),
                                              sorted(got - want)[:3],
                                              sorted(want - got)[:3]))
    for cand, r in singles.items():
        best = min(r, key=lambda x: x[2])
        beaten = any(beats(o, best) for o in union)
        if not beaten and (cand, best[1], best[2]) not in got:
            sys.exit("candidate %d's best %s is missing" % (cand, best[1]))
    best_whole = min(x[2][0] for x in whole)
    best_each = min(min(x[2][0] for x in r) for r in singles.values() if r)
    if best_whole != best_each:
        sys.exit("best %s %g, best of the candidates %g"
                 % (objectives[0], best_whole, best_each))
    print("%d rows over %d candidates (%d candidates' fronts, %d rows)"
          % (len(whole), len(names), len(singles), len(union)))


main()
