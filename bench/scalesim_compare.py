#!/usr/bin/python3
"""dse scalesim beside SCALE-Sim v2 itself, figure by figure.

For a table of layers (convolutions of ResNet-18 and MobileNet shapes on a
32x32 input, strided layers whose stride does not divide the input, a
depthwise layer, GEMMs), each run under the three dataflows in SCALE-Sim's
CALC mode and in USER mode at 10 and at 1 word a cycle, this runs SCALE-Sim
(from its source: give the folder of a scale-sim-v2 checkout with
--scalesim or SCALESIM_SRC; it needs Debian's python3-numpy and
python3-tqdm) and dse on the same config and topology files, and prints for
every figure of SCALE-Sim's three report files the largest relative error
over all layers and how many layers agree exactly, then the CPU time of
each tool and their ratio.

SCALE-Sim is never shipped with dse: without a checkout the benchmark says
so and exits 0.  It never fails on a figure.

With --shipped CONFIG:TOPOLOGY (paths inside the checkout, repeatable) it
runs instead the layers of SCALE-Sim's own topologies under its own
configs, one layer a run, and prints per layer SCALE-Sim's and dse's total
and stall cycles, DRAM reads of the IFMAP and FILTER and DRAM writes of the
OFMAP (DETAILED_ACCESS_REPORT.csv), with the error of each.  SCALE-Sim
builds every demand matrix in full, so only layers whose demand (dse's
cycles times the array's rows plus columns) stays under --max-cells are
run, each under --timeout seconds; the others are listed as skipped, with
why.  --mode USER --bw N runs the configs in USER mode at N words a cycle.

  bench/scalesim_compare.py --dse build/dse --scalesim /tmp/scale-sim-v2
  bench/scalesim_compare.py ... --quick          # a third of the table
  bench/scalesim_compare.py ... --save-golden DIR  # the tests' golden files
  bench/scalesim_compare.py ... --shipped configs/eyeriss.cfg:topologies/conv_nets/alexnet.csv
"""
import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile

# The layers: name, IFMAP height, width, filter height, width, channels,
# filters, stride (and stride width), SCALE-Sim's conv topology columns.
CONV_LAYERS = [
    ("conv1_3x3", 34, 34, 3, 3, 3, 64, 1),
    ("res2_3x3", 34, 34, 3, 3, 64, 64, 1),
    ("res3_down", 33, 33, 3, 3, 64, 128, 2),        # (33-3) % 2 == 0
    ("res3_3x3", 18, 18, 3, 3, 128, 128, 1),
    ("res4_down", 18, 18, 3, 3, 128, 256, 2),       # 15 % 2: ceil size
    ("res4_1x1", 16, 16, 1, 1, 128, 256, 2),
    ("res5_3x3", 6, 6, 3, 3, 256, 512, 1),
    ("stem_7x7", 38, 38, 7, 7, 3, 32, 2, 3),        # 9 columns
    ("mb_pw", 16, 16, 1, 1, 64, 128, 1),
    ("mbDP_dw", 18, 18, 3, 3, 4, 1, 1),             # depthwise, 4 channels
]
GEMM_LAYERS = [
    ("fc", 1, 1000, 512),
    ("attn_qk", 64, 64, 64),
    ("mlp", 128, 256, 96),
]

# The test suite's golden files (tests/sim/scalesim_golden, made with
# --save-golden on a 4x4 array with 1 KiB SRAMs): small enough that SCALE-Sim
# runs them in minutes, large enough that the buffers hand over their
# halves and, at 1 word a cycle, stall.
GOLDEN_CONV = [
    ("c1", 16, 16, 3, 3, 8, 12, 2),
    ("c2", 13, 11, 2, 3, 6, 10, 1, 2),
    ("dwDP", 10, 10, 3, 3, 3, 1, 1),
]
GOLDEN_GEMM = [
    ("g1", 40, 24, 30),
    ("g2", 7, 50, 60),
]

CONFIG = """[general]
run_name = {name}

[architecture_presets]
ArrayHeight:    {rows}
ArrayWidth:     {cols}
IfmapSramSzkB:   {kb}
FilterSramSzkB:  {kb}
OfmapSramSzkB:   {kb}
IfmapOffset:    0
FilterOffset:   10000000
OfmapOffset:    20000000
Bandwidth : {bw}
Dataflow : {df}
MemoryBanks:   1

[run_presets]
InterfaceBandwidth: {mode}
"""

REPORTS = ["COMPUTE_REPORT", "BANDWIDTH_REPORT", "DETAILED_ACCESS_REPORT"]


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def write_inputs(d, name, rows, cols, kb, df, mode, bw, gemm, layers):
    cfg = os.path.join(d, "scale.cfg")
    topo = os.path.join(d, "topology.csv")
    with open(cfg, "w") as f:
        f.write(CONFIG.format(name=name, rows=rows, cols=cols, kb=kb,
                              df=df, mode=mode, bw=bw))
    with open(topo, "w") as f:
        if gemm:
            f.write("Layer, M, N, K,\n")
        else:
            f.write("Layer name, IFMAP Height, IFMAP Width, Filter Height, "
                    "Filter Width, Channels, Num Filter, Strides,\n")
        for l in layers:
            f.write(", ".join(str(x) for x in l) + ",\n")
    return cfg, topo


def run_scalesim(src, cfg, topo, out, gemm, timeout=None):
    code = ("import sys, io, contextlib\n"
            "sys.path.insert(0, %r)\n"
            "from scalesim.scale_sim import scalesim\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    s = scalesim(save_disk_space=True, verbose=False, "
            "config=%r, topology=%r, input_type_gemm=%r)\n"
            "    s.run_scale(top_path=%r)\n" % (src, cfg, topo, gemm, out))
    t0 = child_cpu()
    subprocess.run(["/usr/bin/python3", "-c", code], check=True,
                   timeout=timeout)
    return child_cpu() - t0


def run_dse(dse, cfg, topo, out, gemm):
    t0 = child_cpu()
    subprocess.run([dse, "scalesim", "-q", "-c", cfg, "-t", topo, "-p", out]
                   + (["-i", "gemm"] if gemm else []), check=True,
                   env=dict(os.environ, OMP_NUM_THREADS="1"))
    return child_cpu() - t0


def read_report(path):
    with open(path) as f:
        lines = f.read().splitlines()
    head = [h.strip() for h in lines[0].rstrip(",").split(",")]
    rows = [[x.strip() for x in l.rstrip(",").split(",")] for l in lines[1:]]
    return head, rows


class Tally:
    """Per figure: the largest relative error and the exact matches."""

    def __init__(self):
        self.figs = {}

    def add(self, key, ours, theirs):
        worst, same, n = self.figs.get(key, (0.0, 0, 0))
        a, b = float(ours), float(theirs)
        err = 0.0 if a == b else abs(a - b) / max(abs(b), 1e-300)
        self.figs[key] = (max(worst, err), same + (ours == theirs), n + 1)

    def show(self, title):
        print(title)
        print("  %-30s %12s %14s" % ("figure", "max |error|", "text equal"))
        for key, (worst, same, n) in self.figs.items():
            print("  %-30s %11.4f%% %8d / %d" % (key, 100 * worst, same, n))


def compare(d, name, tally):
    for rep in REPORTS:
        head, theirs = read_report(os.path.join(d, "ss", name, rep + ".csv"))
        _, ours = read_report(os.path.join(d, "dse", name, rep + ".csv"))
        if len(ours) != len(theirs):
            print("  %s %s: %d layers, SCALE-Sim %d"
                  % (name, rep, len(ours), len(theirs)))
            continue
        for o, t in zip(ours, theirs):
            for k in range(1, len(head)):
                tally.add(head[k], o[k], t[k])


SHIPPED_FIGS = [("COMPUTE_REPORT", "Total Cycles"),
                ("COMPUTE_REPORT", "Stall Cycles"),
                ("DETAILED_ACCESS_REPORT", "DRAM IFMAP Reads"),
                ("DETAILED_ACCESS_REPORT", "DRAM Filter Reads"),
                ("DETAILED_ACCESS_REPORT", "DRAM OFMAP Writes")]


def shipped_config(path, mode, bw):
    """SCALE-Sim's config text, in USER mode at bw words a cycle if asked."""
    with open(path) as f:
        lines = f.read().splitlines()
    out = []
    for l in lines:
        key = l.split(":")[0].split("=")[0].strip().lower()
        if mode and key == "interfacebandwidth":
            l = "InterfaceBandwidth: %s" % mode
        if mode and key == "bandwidth":
            l = "Bandwidth : %d" % bw
        out.append(l)
    return "\n".join(out) + "\n"


def shipped_rows(path):
    """The header and the layer rows of a plain SCALE-Sim conv topology;
    depthwise rows (a name with DP: one layer per channel) are left out."""
    with open(path) as f:
        lines = [l for l in f.read().splitlines() if l.strip()]
    rows = []
    for l in lines[1:]:
        f = [x.strip() for x in l.split(",")]
        if len(f) >= 8 and "DP" not in f[0]:
            rows.append(l.rstrip())
    return lines[0], rows


def report_figs(d, name):
    figs = {}
    for rep, col in SHIPPED_FIGS:
        head, rows = read_report(os.path.join(d, name, rep + ".csv"))
        figs[col] = rows[0][head.index(col)] if rows else None
    return figs


def run_shipped(args, src, spec, tmp, tally, skipped):
    cfg_path, topo_path = (os.path.join(src, x) for x in spec.split(":"))
    text = shipped_config(cfg_path, args.mode, args.bw)
    head, rows = shipped_rows(topo_path)
    tag = os.path.basename(cfg_path) + " " + os.path.basename(topo_path)
    d0 = os.path.join(tmp, "all")
    shutil.rmtree(d0, ignore_errors=True)
    os.makedirs(d0)
    cfg = os.path.join(d0, "scale.cfg")
    with open(cfg, "w") as f:
        f.write(text.replace("run_name = ", "run_name = x", 1))
    topo = os.path.join(d0, "topology.csv")
    with open(topo, "w") as f:
        f.write("\n".join([head] + rows) + "\n")
    run_dse(args.dse, cfg, topo, os.path.join(d0, "dse"), False)
    name = os.listdir(os.path.join(d0, "dse"))[0]
    chead, crows = read_report(os.path.join(d0, "dse", name,
                                            "COMPUTE_REPORT.csv"))
    arr = [int(l.split(":")[1]) for l in text.splitlines()
           if l.split(":")[0].strip() in ("ArrayHeight", "ArrayWidth")]
    print("%s, %s%s:" % (tag, args.mode or "as shipped",
                         " bw %d" % args.bw if args.mode == "USER" else ""))
    print("  %-16s %-13s %14s %14s %9s" % ("layer", "figure", "SCALE-Sim",
                                         "dse", "error"))
    for row, crow in zip(rows, crows):
        lname = row.split(",")[0].strip()
        cells = int(crow[chead.index("Total Cycles")]) * sum(arr)
        if cells > args.max_cells:
            skipped.append("%s %s (demand of %.1e cells)" % (tag, lname,
                                                             cells))
            continue
        d = os.path.join(tmp, "one")
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        c1 = os.path.join(d, "scale.cfg")
        with open(c1, "w") as f:
            f.write(text)
        t1 = os.path.join(d, "topology.csv")
        with open(t1, "w") as f:
            f.write(head + "\n" + row + "\n")
        try:
            ts = run_scalesim(src, c1, t1, os.path.join(d, "ss"), False,
                              args.timeout)
        except subprocess.TimeoutExpired:
            skipped.append("%s %s (SCALE-Sim over %d s)"
                           % (tag, lname, args.timeout))
            continue
        td = run_dse(args.dse, c1, t1, os.path.join(d, "dse"), False)
        run = os.listdir(os.path.join(d, "ss"))[0]
        theirs = report_figs(os.path.join(d, "ss"), run)
        ours = report_figs(os.path.join(d, "dse"), run)
        for rep, col in SHIPPED_FIGS:
            a, b = float(ours[col]), float(theirs[col])
            err = 0.0 if a == b else (a - b) / max(abs(b), 1.0)
            print("  %-16s %-13s %14s %14s %8.3f%%" % (
                lname, col.replace("DRAM ", "").replace(" Cycles", ""),
                theirs[col], ours[col], 100 * err))
            tally.add(col, ours[col], theirs[col])
        print("  %-16s SCALE-Sim %.1f s, dse %.3f s" % (lname, ts, td),
              flush=True)


def cases(quick, golden):
    dfs = ["os", "ws", "is"]
    modes = [("CALC", 10), ("USER", 10), ("USER", 1)]
    conv = CONV_LAYERS[::3] if quick else CONV_LAYERS
    gemm = GEMM_LAYERS[:1] if quick else GEMM_LAYERS
    if golden:
        conv, gemm = GOLDEN_CONV, GOLDEN_GEMM
    for mode, bw in modes:
        for df in dfs:
            yield mode, bw, df, False, conv
            yield mode, bw, df, True, gemm


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dse", default="build/dse")
    ap.add_argument("--scalesim", default=os.environ.get("SCALESIM_SRC"))
    ap.add_argument("--array", default="32x32")
    ap.add_argument("--kb", type=int, default=64)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--save-golden")
    ap.add_argument("--shipped", action="append", default=[],
                    metavar="CONFIG:TOPOLOGY")
    ap.add_argument("--mode", choices=["CALC", "USER"])
    ap.add_argument("--bw", type=int, default=10)
    ap.add_argument("--max-cells", type=float, default=2e7)
    ap.add_argument("--timeout", type=int, default=120)
    args = ap.parse_args()
    if args.save_golden:
        args.array, args.kb = "4x4", 1
    src = args.scalesim
    if not src or not os.path.isfile(os.path.join(src, "scalesim",
                                                  "scale_sim.py")):
        print("SCALE-Sim's source not found (--scalesim DIR or SCALESIM_SRC):"
              " nothing to compare")
        return 0
    if args.shipped:
        tally, skipped = Tally(), []
        tmp = tempfile.mkdtemp(prefix="scalesim_compare.")
        try:
            for spec in args.shipped:
                run_shipped(args, src, spec, tmp, tally, skipped)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        print()
        tally.show("all layers run: dse against SCALE-Sim")
        print("skipped: %d layers" % len(skipped))
        for x in skipped:
            print("  " + x)
        return 0
    rows, cols = (int(x) for x in args.array.split("x"))
    tallies = {}
    cpu = {}
    tmp = tempfile.mkdtemp(prefix="scalesim_compare.")
    try:
        for i, (mode, bw, df, gemm, layers) in enumerate(
                cases(args.quick, bool(args.save_golden))):
            label = "%s%s" % (mode, "" if mode == "CALC" else " bw %d" % bw)
            name = "%s_%s_%s" % (mode.lower() + str(bw), df,
                                 "gemm" if gemm else "conv")
            d = os.path.join(tmp, name)
            os.makedirs(d)
            cfg, topo = write_inputs(d, name, rows, cols, args.kb, df, mode,
                                     bw, gemm, layers)
            ts = run_scalesim(src, cfg, topo, os.path.join(d, "ss"), gemm)
            td = run_dse(args.dse, cfg, topo, os.path.join(d, "dse"), gemm)
            a, b = cpu.get(label, (0.0, 0.0))
            cpu[label] = (a + ts, b + td)
            compare(d, name, tallies.setdefault(label, Tally()))
            print("  %-24s SCALE-Sim %8.1f s   dse %6.3f s" % (name, ts, td),
                  flush=True)
            if args.save_golden:
                g = os.path.join(args.save_golden, name)
                shutil.rmtree(g, ignore_errors=True)
                shutil.copytree(os.path.join(d, "ss", name), g)
                shutil.copy(cfg, g)
                shutil.copy(topo, g)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print()
    for label, t in tallies.items():
        t.show("%s, %s array, %d KiB SRAMs: dse against SCALE-Sim"
               % (label, args.array, args.kb))
        ts, td = cpu[label]
        print("  CPU time: SCALE-Sim %.1f s, dse %.3f s (process start "
              "included): %.0fx\n" % (ts, td, ts / td if td else 0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
