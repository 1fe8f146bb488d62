#!/usr/bin/python3
"""Plots the Pareto fronts of dse results files over their clouds.

    scripts/plot_front.py results/mm.h5 results/conv.h5 -o front.png
    scripts/plot_front.py results/mm.h5 -x latency -y bram18k --logy on

Each file gets one colour: its cloud (the sample of every legal point the
sweep evaluated, /<kernel>/cloud) as small translucent dots, the points
that broke a constraint in grey, and its front (/<kernel>/front) as a line
with markers.  A file is labelled by its kernel and space-time candidate,
or by its workload and accelerator family.

Needs Debian's python3-h5py and python3-matplotlib (hence /usr/bin/python3).
Exit status: 0 success, 1 missing Python package or unwritable output,
2 bad input (missing file, not a dse results file, unknown column).
"""
import argparse
import os
import sys

PROG = "plot_front.py"


class InputError(Exception):
    """Bad input: a message for the user and exit status 2."""


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog=PROG,
        description="Plot the Pareto front and the cloud of evaluated "
        "points of one or more dse results files.",
        epilog="Columns are any numeric column of the front table, e.g. "
        "latency, gops, dsp, bram18k, uram, lut, ff, energy, cycles "
        "('dse show --all FILE' lists them). A log axis is chosen "
        "automatically when the values span more than two decades.")
    p.add_argument("files", nargs="+", metavar="results.h5",
                   help="results files written by dse")
    p.add_argument("-x", default="latency", metavar="COLUMN",
                   help="column on the x axis (default: latency)")
    p.add_argument("-y", default="dsp", metavar="COLUMN",
                   help="column on the y axis (default: dsp)")
    p.add_argument("--logx", choices=("auto", "on", "off"), default="auto",
                   help="logarithmic x axis (default: auto)")
    p.add_argument("--logy", choices=("auto", "on", "off"), default="auto",
                   help="logarithmic y axis (default: auto)")
    p.add_argument("-o", "--output", default="front.png", metavar="FILE",
                   help="image to write (default: front.png; the "
                   "extension picks the format: png, svg, pdf)")
    p.add_argument("--title", default=None, help="title of the plot")
    return p.parse_args(argv)


def text(v):
    """An HDF5 string attribute as str (h5py gives bytes or str)."""
    return v.decode() if isinstance(v, bytes) else str(v)


def units_of(dset):
    """Column name -> unit, from the table's "units" attribute."""
    units = dset.attrs.get("units")
    if units is None:
        return {}
    return {n: text(u) for n, u in zip(dset.dtype.names, units)}


def column(dset, name, path, fname):
    names = dset.dtype.names
    if name not in names:
        raise InputError("%s: table %s has no column '%s'; its columns: %s"
                         % (fname, path, name, ", ".join(names)))
    if dset.dtype[name].kind not in "iuf":
        raise InputError("%s: column '%s' of %s is not numeric"
                         % (fname, name, path))
    return dset[name].astype(float)


def label_of(f):
    """The legend entry of a file: kernel and space-time candidate (with
    its space loops when the analysis table is there), or workload and
    family.
    """
    kernel = text(f.attrs["kernel"])
    family = text(f.attrs.get("family", "systolic"))
    if family != "systolic":
        return "%s (%s)" % (kernel, family)
    if "space_time" not in f.attrs:
        return kernel
    st = int(f.attrs["space_time"])
    label = "%s, space-time %d" % (kernel, st)
    cand = "/%s/candidates" % kernel
    if cand in f:
        for row in f[cand][()]:
            if int(row["index"]) == st:
                label += " (space %s)" % text(row["space_loops"])
    return label


def load(fname, xcol, ycol):
    """Reads one results file: its label, units, front and cloud."""
    import h5py

    if not os.path.isfile(fname):
        raise InputError("cannot read results file '%s': no such file"
                         % fname)
    try:
        f = h5py.File(fname, "r")
    except OSError as e:
        raise InputError("'%s' is not a dse results file (%s)" % (fname, e))
    with f:
        if text(f.attrs.get("tool", "")) != "dse" or "kernel" not in f.attrs:
            raise InputError("'%s' is not a dse results file (no 'tool' = "
                             "\"dse\" and 'kernel' attributes)" % fname)
        kernel = text(f.attrs["kernel"])
        front_path = "/%s/front" % kernel
        if front_path not in f:
            raise InputError("'%s' has no table %s" % (fname, front_path))
        front = f[front_path]
        d = {"file": fname, "label": label_of(f),
             "board": text(f.attrs.get("board", "?")),
             "units": units_of(front),
             "fx": column(front, xcol, front_path, fname),
             "fy": column(front, ycol, front_path, fname),
             "cloud": None}
        cloud_path = "/%s/cloud" % kernel
        if cloud_path in f:
            cloud = f[cloud_path]
            cx = column(cloud, xcol, cloud_path, fname)
            cy = column(cloud, ycol, cloud_path, fname)
            feas = (cloud["feasible"].astype(bool)
                    if "feasible" in cloud.dtype.names else
                    [True] * len(cx))
            d["cloud"] = (cx, cy, feas)
        else:
            print("%s: note: '%s' has no cloud (swept with [output] "
                  "cloud = 0?); plotting its front alone" % (PROG, fname),
                  file=sys.stderr)
    return d


def want_log(mode, values):
    """"on", "off", or "auto": log when the positive values span more than
    two decades (and there are no others, which a log axis cannot show).
    """
    if mode != "auto":
        return mode == "on"
    if not values or min(values) <= 0:
        return False
    return max(values) / min(values) > 100.0


def axis_label(name, units):
    unit = units.get(name, "")
    return "%s (%s)" % (name, unit) if unit else name


def plot(data, args):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 5.5), dpi=110)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    xs, ys = [], []
    # Every cloud first, the grey points under the others, so that no
    # file's dots cover another file's front.
    for feasible in (False, True):
        for i, d in enumerate(data):
            if d["cloud"] is None:
                continue
            cx, cy, feas = d["cloud"]
            pts = [(a, b) for a, b, k in zip(cx, cy, feas)
                   if bool(k) == feasible]
            if pts:
                ax.scatter([p[0] for p in pts], [p[1] for p in pts],
                           s=4 if feasible else 3,
                           color=colours[i % len(colours)] if feasible
                           else "0.6", alpha=0.25 if feasible else 0.15,
                           linewidths=0, rasterized=True)
            xs += [p[0] for p in pts]
            ys += [p[1] for p in pts]
    for i, d in enumerate(data):
        pts = sorted(zip(d["fx"], d["fy"]))
        label = "%s: front of %d" % (d["label"], len(pts))
        if d["cloud"] is not None:
            label += ", cloud of %d" % len(d["cloud"][0])
        ax.plot([p[0] for p in pts], [p[1] for p in pts], "-o",
                color=colours[i % len(colours)], markersize=4.5,
                linewidth=1.6, markeredgecolor="black",
                markeredgewidth=0.4, label=label)
        xs += list(d["fx"])
        ys += list(d["fy"])
    if any(d["cloud"] is not None and not all(d["cloud"][2]) for d in data):
        ax.scatter([], [], s=12, color="0.6", label="over a constraint")
    if want_log(args.logx, xs):
        ax.set_xscale("log")
    if want_log(args.logy, ys):
        ax.set_yscale("log")
    ax.set_xlabel(axis_label(args.x, data[0]["units"]))
    ax.set_ylabel(axis_label(args.y, data[0]["units"]))
    boards = sorted({d["board"] for d in data})
    ax.set_title(args.title if args.title is not None else
                 "Pareto fronts over the evaluated points (%s)"
                 % ", ".join(boards))
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    fig.tight_layout()
    fig.savefig(args.output)
    plt.close(fig)


def main(argv):
    args = parse_args(argv)
    try:
        import h5py  # noqa: F401
        import matplotlib  # noqa: F401
    except ImportError as e:
        print("%s: %s (install Debian's python3-h5py and "
              "python3-matplotlib, and run this with /usr/bin/python3)"
              % (PROG, e), file=sys.stderr)
        return 1
    try:
        data = [load(f, args.x, args.y) for f in args.files]
    except InputError as e:
        print("%s: %s" % (PROG, e), file=sys.stderr)
        return 2
    # Two files of the same candidate would share a label: add the file.
    labels = [d["label"] for d in data]
    for d in data:
        if labels.count(d["label"]) > 1:
            d["label"] += " [%s]" % os.path.basename(d["file"])
    try:
        plot(data, args)
    except OSError as e:
        print("%s: cannot write '%s': %s" % (PROG, args.output, e),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
