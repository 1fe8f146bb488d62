"""Checks a thinned front against the exact one: at most front_max rows,
a positive box size recorded, and every exact design within (1 + eps)^2 of
a kept design in every objective (all objectives here are minimised).

Usage: check_front_max.py EXACT.h5 THINNED.h5 GROUP FRONT_MAX OBJ...
"""
import sys

import h5py
import numpy as np


def main():
    exact_path, thin_path, group, front_max = sys.argv[1:5]
    objectives = sys.argv[5:]
    with h5py.File(exact_path, "r") as f:
        exact = f[group]["front"][:]
        if f.attrs["front_resolution_reached"] != 0:
            sys.exit("the exact run was thinned too")
    with h5py.File(thin_path, "r") as f:
        thin = f[group]["front"][:]
        eps = float(f.attrs["front_resolution_reached"])
        if int(f.attrs["front_max"]) != int(front_max):
            sys.exit("front_max attribute %s" % f.attrs["front_max"])
    if not 0 < len(thin) <= int(front_max) < len(exact):
        sys.exit("rows: %d thinned, %d exact, bound %s"
                 % (len(thin), len(exact), front_max))
    if not eps > 0:
        sys.exit("no box size recorded for a thinned front")
    factor = (1 + eps) ** 2 * (1 + 1e-9)
    kept = np.stack([thin[o].astype(float) for o in objectives], axis=1)
    for row in exact:
        want = np.array([float(row[o]) for o in objectives]) * factor
        if not np.any(np.all(kept <= want, axis=1)):
            sys.exit("design %d is not within %.4g of any kept design"
                     % (row["index"], factor))
    print("%d exact designs covered by %d kept within %.4f"
          % (len(exact), len(thin), factor))


if __name__ == "__main__":
    main()
