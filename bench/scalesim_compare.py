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

  bench/scalesim_compare.py --dse build/dse --scalesim /tmp/scale-sim-v2
  bench/scalesim_compare.py ... --quick          # a third of the table
  bench/scalesim_compare.py ... --save-golden DIR  # the tests' golden files
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


def run_scalesim(src, cfg, topo, out, gemm):
    code = ("import sys, io, contextlib\n"
            "sys.path.insert(0, %r)\n"
            "from scalesim.scale_sim import scalesim\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    s = scalesim(save_disk_space=True, verbose=False, "
            "config=%r, topology=%r, input_type_gemm=%r)\n"
            "    s.run_scale(top_path=%r)\n" % (src, cfg, topo, gemm, out))
    t0 = child_cpu()
    subprocess.run(["/usr/bin/python3", "-c", code], check=True)
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
    args = ap.parse_args()
    if args.save_golden:
        args.array, args.kb = "4x4", 1
    src = args.scalesim
    if not src or not os.path.isfile(os.path.join(src, "scalesim",
                                                  "scale_sim.py")):
        print("SCALE-Sim's source not found (--scalesim DIR or SCALESIM_SRC):"
              " nothing to compare")
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
