#!/usr/bin/python3
"""Plots dse results files for a designer: fronts over their clouds, with
the board's limits and the sweep's constraints, or as a roofline.

    scripts/plot_front.py results/mm.h5 -o front.png -o front.svg
    scripts/plot_front.py results/mm.h5 -x latency -y bram18k --logy on
    scripts/plot_front.py results/mm.h5 --view roofline -o roofline.png
    scripts/plot_front.py u250.h5 zcu102.h5 -o boards.png   # two fronts

The front view draws, per file in its own colour, the cloud (the sample of
every legal point the sweep evaluated) as small translucent dots, the
points that broke a constraint in grey, and the front as a line.  On it:

  - the board's capacity of a resource on an axis as a dashed line, and
    each constraint of the sweep on an axis as a dotted line;
  - each front design labelled with its PE shape (rows x cols), or the
    family's main knobs;
  - the front's markers coloured by a third column (by default the sweep's
    third objective; --color picks one, --color none leaves them plain);
  - a marker shape for what bounds the design (compute, DRAM, I/O, drain)
    when the file has a bound_by column.

The roofline view puts every design at its operational intensity
(operations per off-chip byte) against its throughput (GOP/s), under the
board's peak and its DRAM bandwidth.  Several files make an overlay:
boards, dataflows (space-time candidates) or families side by side.

Needs Debian's python3-h5py and python3-matplotlib (hence /usr/bin/python3).
Exit status: 0 success, 1 missing Python package or unwritable output,
2 bad input (missing file, not a dse results file, unknown column).
"""
import argparse
import os
import re
import sys

PROG = "plot_front.py"
RESOURCES = ("dsp", "bram18k", "uram", "lut", "ff")
# What bounds a design (the bound_by column) and its marker.
BOUND_MARKERS = {"compute": "o", "dram": "s", "io": "^", "drain": "D"}
MAX_LABELS = 24


class InputError(Exception):
    """Bad input: a message for the user and exit status 2."""


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog=PROG,
        description="Plot the Pareto fronts and the clouds of evaluated "
        "points of dse results files, with the board's limits and the "
        "constraints, or as a roofline.",
        epilog="Columns are any numeric column of the front table, e.g. "
        "latency, gops, dsp, bram18k, uram, lut, ff, energy, cycles "
        "('dse show --all FILE' lists them). A log axis is chosen "
        "automatically when the values span more than two decades.")
    p.add_argument("files", nargs="+", metavar="results.h5",
                   help="results files written by dse (several: an "
                   "overlay of their fronts)")
    p.add_argument("--view", choices=("front", "roofline"), default="front",
                   help="front: two columns against each other (default); "
                   "roofline: GOP/s against operations per DRAM byte")
    p.add_argument("-x", default="latency", metavar="COLUMN",
                   help="column on the x axis (default: latency)")
    p.add_argument("-y", default="dsp", metavar="COLUMN",
                   help="column on the y axis (default: dsp)")
    p.add_argument("--color", default="auto", metavar="COLUMN",
                   help="column that colours the front's markers (default: "
                   "the sweep's third objective; 'none' for plain markers)")
    p.add_argument("--labels", choices=("auto", "on", "off"),
                   default="auto", help="label the front's designs (auto: "
                   "at most %d labels a front)" % MAX_LABELS)
    p.add_argument("--no-limits", action="store_true",
                   help="leave out the board's limits and the constraints")
    p.add_argument("--logx", choices=("auto", "on", "off"), default="auto",
                   help="logarithmic x axis (default: auto)")
    p.add_argument("--logy", choices=("auto", "on", "off"), default="auto",
                   help="logarithmic y axis (default: auto)")
    p.add_argument("-o", "--output", action="append", metavar="FILE",
                   help="image to write, as often as wanted (default: "
                   "front.png; the extension picks the format: png, svg, "
                   "pdf)")
    p.add_argument("--title", default=None, help="title of the plot")
    args = p.parse_args(argv)
    args.output = args.output or ["front.png"]
    if args.view == "roofline":
        args.x, args.y = "intensity", "gops"
    return args


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
    """A numeric column as floats; "intensity" is worked out as operations
    (GOP/s x s) per off-chip byte."""
    names = dset.dtype.names
    if name == "intensity":
        for need in ("gops", "latency", "offchip_bytes"):
            if need not in names:
                raise InputError("%s: table %s has no column '%s', which "
                                 "the roofline needs" % (fname, path, need))
        ops = dset["gops"].astype(float) * 1e9 * dset["latency"].astype(float)
        return ops / dset["offchip_bytes"].astype(float).clip(min=1.0)
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


def design_labels(front):
    """Each front design's short name: its PE shape, or the family's first
    knobs (the columns before the metrics)."""
    names = front.dtype.names
    rows = front[()]
    if "pe_rows" in names and "pe_cols" in names:
        return ["%dx%d" % (r["pe_rows"], r["pe_cols"]) for r in rows]
    end = names.index("cycles") if "cycles" in names else len(names)
    knobs = [n for n in names[:end] if n != "index"][:2]
    return [" ".join("%s=%s" % (k, r[k]) for k in knobs) for r in rows]


def board_of(f):
    """The board's name, resources and roofline figures the file records
    (an older file records only the name)."""
    b = {"name": text(f.attrs.get("board", "?"))}
    for key in RESOURCES:
        if "board_" + key in f.attrs:
            b[key] = float(f.attrs["board_" + key])
    for key in ("peak_gops", "dram_gbps"):
        if "board_" + key in f.attrs:
            b[key] = float(f.attrs["board_" + key])
    return b


CONSTRAINT = re.compile(r"^\s*(\w+)\s*(<=|>=)\s*([0-9.eE+-]+|inf)(\s+board)?"
                        r"\s*$")


def constraints_of(f):
    """The sweep's constraints as (column, op, value in the column's unit,
    the text the config wrote); board fit is left to the board's own
    lines."""
    out = []
    bounds = text(f.attrs.get("constraint_bounds", "")).splitlines()
    texts = text(f.attrs.get("constraints", "")).splitlines()
    for i, line in enumerate(bounds):
        m = CONSTRAINT.match(line)
        if not m or m.group(4):
            continue
        out.append((m.group(1), m.group(2), float(m.group(3)),
                    texts[i].strip() if i < len(texts) else line))
    return out


def load(fname, args):
    """Reads one results file: its label, board, front and cloud."""
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
        names = front.dtype.names
        board = board_of(f)
        objectives = text(f.attrs.get("objectives", "")).split(",")
        d = {"file": fname, "label": label_of(f), "board": board,
             "family": text(f.attrs.get("family", "systolic")),
             "units": units_of(front),
             "objectives": [o for o in objectives if o],
             "constraints": constraints_of(f),
             "fx": column(front, args.x, front_path, fname),
             "fy": column(front, args.y, front_path, fname),
             "names": design_labels(front),
             "bound": ([text(v) for v in front["bound_by"]]
                       if "bound_by" in names else None),
             "fc": None, "cloud": None}
        colour = pick_colour(args, d)
        if colour:
            d["fc"] = (colour, column(front, colour, front_path, fname))
        cloud_path = "/%s/cloud" % kernel
        if cloud_path in f:
            cloud = f[cloud_path]
            cx = column(cloud, args.x, cloud_path, fname)
            cy = column(cloud, args.y, cloud_path, fname)
            feas = (cloud["feasible"].astype(bool)
                    if "feasible" in cloud.dtype.names else
                    [True] * len(cx))
            d["cloud"] = (cx, cy, feas)
        else:
            print("%s: note: '%s' has no cloud (swept with [output] "
                  "cloud = 0?); plotting its front alone" % (PROG, fname),
                  file=sys.stderr)
    return d


def pick_colour(args, d):
    """The column that colours the front: the one asked for, or the sweep's
    first objective not on an axis."""
    if args.color == "none":
        return None
    if args.color != "auto":
        return args.color
    for o in d["objectives"]:
        if o not in (args.x, args.y) and not (args.view == "roofline"
                                              and o == "latency"):
            return o
    return None


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
    if name == "intensity":
        return "operational intensity (operations per DRAM byte)"
    unit = units.get(name, "")
    return "%s (%s)" % (name, unit) if unit else name


def draw_clouds(ax, data, colours):
    """Every cloud first, the grey points under the others, so that no
    file's dots cover another file's front."""
    xs, ys = [], []
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
    return xs, ys


def draw_front(ax, d, colour, norm, cmap, labels):
    """One front: the line in the file's colour, the markers shaped by
    what bounds each design and filled by the colour column."""
    order = sorted(range(len(d["fx"])), key=lambda i: (d["fx"][i],
                                                      d["fy"][i]))
    ax.plot([d["fx"][i] for i in order], [d["fy"][i] for i in order], "-",
            color=colour, linewidth=1.6, zorder=3)
    bounds = d["bound"] or ["?"] * len(order)
    for kind in sorted(set(bounds)):
        idx = [i for i in order if bounds[i] == kind]
        face = ([cmap(norm(d["fc"][1][i])) for i in idx]
                if d["fc"] is not None else colour)
        ax.scatter([d["fx"][i] for i in idx], [d["fy"][i] for i in idx],
                   marker=BOUND_MARKERS.get(kind, "o" if kind == "?"
                                            else "X"),
                   s=34, c=face, edgecolors="black", linewidths=0.5,
                   zorder=4)
    if labels == "off" or (labels == "auto" and not d["names"]):
        return []
    step = 1 if labels == "on" else max(1, -(-len(order) // MAX_LABELS))
    return [ax.annotate(d["names"][i], (d["fx"][i], d["fy"][i]), fontsize=6,
                        xytext=(3, 3), textcoords="offset points", zorder=5)
            for i in order[::step]]


def drop_overlaps(fig, texts):
    """Removes each label that would print over one kept before it (in
    the front's order), so that close designs stay readable; needs the
    final layout, so it runs last."""
    renderer = fig.canvas.get_renderer()
    kept = []
    for t in texts:
        box = t.get_window_extent(renderer).expanded(1.05, 1.1)
        if any(box.overlaps(k) for k in kept):
            t.remove()
        else:
            kept.append(box)


def draw_limits(ax, data, args):
    """The board's capacity of a resource on an axis (dashed) and each
    constraint on an axis (dotted), once per distinct value."""
    seen = set()
    for d in data:
        b = d["board"]
        for axis, col in (("x", args.x), ("y", args.y)):
            if col in RESOURCES and col in b:
                key = (axis, b[col])
                if key not in seen:
                    seen.add(key)
                    line = ax.axhline if axis == "y" else ax.axvline
                    line(b[col], color="black", linestyle="--",
                         linewidth=1.0, zorder=2,
                         label="%s: %s %d" % (b["name"], col, b[col]))
            for name, op, value, txt in d["constraints"]:
                key = (axis, name, value)
                if name != col or key in seen:
                    continue
                seen.add(key)
                line = ax.axhline if axis == "y" else ax.axvline
                line(value, color="tab:red", linestyle=":", linewidth=1.2,
                     zorder=2, label="constraint %s" % txt)


def draw_roofline(ax, data, xs):
    """The board's peak and the DRAM bandwidth's slope, once per board."""
    seen = set()
    lo = min([x for x in xs if x > 0] or [1e-3]) / 2
    hi = max(xs or [1.0]) * 2
    for d in data:
        b = d["board"]
        if b["name"] in seen:
            continue
        seen.add(b["name"])
        if "peak_gops" not in b or "dram_gbps" not in b:
            print("%s: note: '%s' records no board peak or bandwidth (an "
                  "older file?); the roofline has no roof"
                  % (PROG, d["file"]), file=sys.stderr)
            continue
        peak, bw = b["peak_gops"], b["dram_gbps"]
        ridge = peak / bw
        ax.plot([lo, ridge, max(hi, 2 * ridge)],
                [bw * lo, peak, peak], color="black", linewidth=1.4,
                zorder=2, label="%s roof: %.0f GOP/s, %.1f GB/s"
                % (b["name"], peak, bw))


def plot(data, args):
    import matplotlib
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.fonttype"] = "none"
    import matplotlib.pyplot as plt
    from matplotlib import colors as mcolors
    from matplotlib.lines import Line2D

    fig, ax = plt.subplots(figsize=(9, 6), dpi=110)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    xs, ys = draw_clouds(ax, data, colours)
    coloured = [d for d in data if d["fc"] is not None]
    cmap, norm = plt.get_cmap("viridis"), None
    if coloured:
        vals = [v for d in coloured for v in d["fc"][1]]
        norm = mcolors.Normalize(min(vals), max(vals))
    texts = []
    for i, d in enumerate(data):
        texts += draw_front(ax, d, colours[i % len(colours)], norm, cmap,
                            args.labels)
        xs += list(d["fx"])
        ys += list(d["fy"])
        label = "%s: front of %d" % (d["label"], len(d["fx"]))
        if d["cloud"] is not None:
            label += ", cloud of %d" % len(d["cloud"][0])
        ax.plot([], [], "-", color=colours[i % len(colours)], label=label)
    if any(d["cloud"] is not None and not all(d["cloud"][2]) for d in data):
        ax.scatter([], [], s=12, color="0.6", label="over a constraint")
    kinds = sorted({k for d in data for k in (d["bound"] or [])})
    for k in kinds:
        ax.add_line(Line2D([], [], marker=BOUND_MARKERS.get(k, "X"),
                           linestyle="", color="white",
                           markeredgecolor="black", label="bound by " + k))
    if args.view == "roofline":
        draw_roofline(ax, data, xs)
    elif not args.no_limits:
        draw_limits(ax, data, args)
    if want_log(args.logx if args.view == "front" else "on", xs):
        ax.set_xscale("log")
    if want_log(args.logy if args.view == "front" else "on", ys):
        ax.set_yscale("log")
    if coloured:
        sm = plt.cm.ScalarMappable(norm=norm, cmap=cmap)
        fig.colorbar(sm, ax=ax, label=axis_label(coloured[0]["fc"][0],
                                                 coloured[0]["units"]))
    ax.set_xlabel(axis_label(args.x, data[0]["units"]))
    ax.set_ylabel(axis_label(args.y, data[0]["units"]))
    boards = sorted({d["board"]["name"] for d in data})
    what = ("Roofline" if args.view == "roofline" else
            "Pareto fronts over the evaluated points")
    ax.set_title(args.title if args.title is not None else
                 "%s (%s)" % (what, ", ".join(boards)))
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=7, loc="best")
    fig.tight_layout()
    if args.labels == "auto":
        fig.canvas.draw()
        drop_overlaps(fig, texts)
    for out in args.output:
        fig.savefig(out)
    plt.close(fig)


def disambiguate(data):
    """Two files of the same label (the same kernel on two boards, or the
    same candidate twice) get the board, then the file, added."""
    labels = [d["label"] for d in data]
    for d in data:
        if labels.count(d["label"]) > 1:
            d["label"] += " on %s" % d["board"]["name"]
    labels = [d["label"] for d in data]
    for d in data:
        if labels.count(d["label"]) > 1:
            d["label"] += " [%s]" % os.path.basename(d["file"])


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
        data = [load(f, args) for f in args.files]
    except InputError as e:
        print("%s: %s" % (PROG, e), file=sys.stderr)
        return 2
    disambiguate(data)
    try:
        plot(data, args)
    except OSError as e:
        print("%s: cannot write '%s': %s" % (PROG, ", ".join(args.output),
                                             e), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
