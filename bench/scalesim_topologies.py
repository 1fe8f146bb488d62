#!/usr/bin/python3
"""dse scalesim on every topology SCALE-Sim v2 ships, against SCALE-Sim.

For each of SCALE-Sim's configs (configs/scale.cfg, google.cfg,
eyeriss.cfg of a scale-sim-v2 checkout, all CALC mode) and each topology
CSV under its topologies/ folder, this

- reads the topology with SCALE-Sim's own reader (scalesim/topology_utils.py)
  and with dse, and compares the layer lists (names and MACs);
  where SCALE-Sim's reader fails on a file (a tab-separated file, title
  rows, a spreadsheet's extra columns, rows without the final comma), it
  is given the file with those mended, and the table says so;
- runs every layer through SCALE-Sim's operand matrices and compute model
  (scalesim/compute/*) and takes the length of its demand matrices, the
  layer's cycles in CALC mode (the memories never stall there), and
  compares it with the cycles dse prints (a count: SCALE-Sim's length,
  where its report's Total Cycles is that length - 1).

SCALE-Sim's compute model builds its demand matrices in full, in time
quadratic in the folds; a layer whose matrices would exceed --max-cells
cells, or whose folds times cells exceed 100 times that, is not compared and is counted as such.  It needs Debian's
python3-numpy.  It never fails on a figure: it prints the mismatches, per
file the layers compared, equal and skipped, and the totals.

  bench/scalesim_topologies.py --dse build/dse --scalesim /tmp/scale-sim-v2
  bench/scalesim_topologies.py ... --expect FILE   # the reader's test table
"""
import argparse
import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile


def form_of(path):
    with open(path, encoding="utf-8-sig", errors="replace") as f:
        head = f.readline().replace(" ", "").upper()
    return "gemm" if ",M,N,K" in head else "conv"


def mend(text):
    """The file as SCALE-Sim's reader can take it, or None when it needs
    nothing.  Mends only what the reader cannot read: tabs as separators,
    a '#' note after the last comma, a row of one name (a title), columns
    after an empty one past the stride, a row without the final comma."""
    lines = text.splitlines()
    out, changed = [lines[0]], False
    tabs = "," not in lines[0] and "\t" in lines[0]
    for row in lines[1:]:
        new = row.replace("\t", ",") if tabs else row
        new = new.split("#")[0]
        fields = [x.strip() for x in new.split(",")]
        if fields and fields[-1] == "":
            fields = fields[:-1]
        if all(x == "" for x in fields):
            new = ""
        elif len(fields) == 1 and not fields[0].lstrip("+-").isdigit():
            new = ""
        else:
            for i in range(8, len(fields)):
                if fields[i] == "":
                    fields = fields[:i]
                    break
            new = ",".join(fields) + ","
        changed |= new.strip() != row.strip()
        out.append(new)
    return "\n".join(out) + "\n" if changed else None


def scalesim_layers(src, path, form):
    """The layer list SCALE-Sim's reader makes of a file: (rows, mended),
    rows None when even the mended file fails."""
    sys.path.insert(0, src)
    from scalesim.topology_utils import topologies
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    for attempt, body in ((False, text), (True, mend(text))):
        if body is None:
            continue
        with tempfile.NamedTemporaryFile("w", suffix=".csv",
                                         delete=False) as f:
            f.write(body)
        t = topologies()
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                t.load_arrays(f.name, mnk_inputs=(form == "gemm"))
                t.topo_calc_hyperparams()
            return [list(a) for a in t.topo_arrays], attempt, t
        except Exception:
            pass
        finally:
            os.unlink(f.name)
    return None, True, None


def dse_layers(dse, cfg, path, form, limit):
    try:
        r = subprocess.run([dse, "scalesim", "--json", "-c", cfg, "-t", path,
                            "-i", form, "-p", tempfile.gettempdir()],
                           capture_output=True, text=True, timeout=limit,
                           env=dict(os.environ, OMP_NUM_THREADS="1"))
    except subprocess.TimeoutExpired:
        return None, "not run: over %g s" % limit
    if r.returncode:
        return None, r.stderr.strip().splitlines()[0]
    return json.loads(r.stdout)["layers"], None


def scalesim_cycles(src, cfg_path, topo, layer, max_cells, cache):
    """The length of SCALE-Sim's demand matrices for one layer, None when
    they would be larger than max_cells."""
    sys.path.insert(0, src)
    from scalesim.scale_config import scale_config
    from scalesim.compute.operand_matrix import operand_matrix
    from scalesim.compute import systolic_compute_os as cos
    from scalesim.compute import systolic_compute_ws as cws
    from scalesim.compute import systolic_compute_is as cis
    cfg = scale_config()
    with contextlib.redirect_stdout(io.StringIO()):
        cfg.read_conf_file(cfg_path)
    rows, cols = cfg.get_array_dims()
    df = cfg.get_dataflow()
    key = (rows, cols, df, tuple(topo.topo_arrays[layer][1:]))
    if key in cache:
        return cache[key]
    sr, sc, t = topo.get_spatiotemporal_dims(layer_id=layer, df=df)
    folds = -(-sr // rows) * -(-sc // cols)
    length = folds * (t + 2 * rows + cols)
    e = topo.get_layer_num_ofmap_px(layer) // topo.get_layer_num_filters(layer)
    k = topo.get_layer_num_filters(layer)
    win = topo.get_layer_window_size(layer)
    cells = length * max(rows, cols) + (e + k) * win + e * k
    if cells > max_cells or folds * cells > 100 * max_cells:
        cache[key] = None
        return None
    om = operand_matrix()
    om.set_params(config_obj=cfg, topoutil_obj=topo, layer_id=layer)
    _, ifm = om.get_ifmap_matrix()
    _, flt = om.get_filter_matrix()
    _, ofm = om.get_ofmap_matrix()
    comp = {"os": cos.systolic_compute_os, "ws": cws.systolic_compute_ws,
            "is": cis.systolic_compute_is}[df]()
    comp.set_params(config_obj=cfg, ifmap_op_mat=ifm, filter_op_mat=flt,
                    ofmap_op_mat=ofm)
    demand, _, _ = comp.get_demand_matrices()
    cache[key] = demand.shape[0]
    return cache[key]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dse", default="build/dse")
    ap.add_argument("--scalesim", default=os.environ.get("SCALESIM_SRC"))
    ap.add_argument("--configs", default="scale,google,eyeriss")
    ap.add_argument("--max-cells", type=float, default=3e7)
    ap.add_argument("--timeout", type=float, default=120,
                    help="seconds dse may take on one topology")
    ap.add_argument("--expect", help="write the reader's test table here")
    ap.add_argument("--only", help="topologies whose path contains this")
    args = ap.parse_args()
    src = args.scalesim
    if not src or not os.path.isdir(os.path.join(src, "topologies")):
        print("SCALE-Sim's source not found (--scalesim DIR or SCALESIM_SRC):"
              " nothing to compare")
        return 0
    topo_dir = os.path.join(src, "topologies")
    files = sorted(os.path.relpath(os.path.join(d, f), topo_dir)
                   for d, _, fs in os.walk(topo_dir) for f in fs
                   if f.endswith(".csv"))
    if args.only:
        files = [f for f in files if args.only in f]
    expect = []
    totals = {}
    cache = {}
    for name in args.configs.split(","):
        cfg = os.path.join(src, "configs", name + ".cfg")
        tot = totals.setdefault(name, [0, 0, 0, 0])
        for rel in files:
            path = os.path.join(topo_dir, rel)
            form = form_of(path)
            theirs, mended, topo = scalesim_layers(src, path, form)
            ours, err = dse_layers(args.dse, cfg, path, form, args.timeout)
            note = " (SCALE-Sim's reader fails; mended)" if mended else ""
            if name == args.configs.split(",")[0]:
                expect.append((rel, form, theirs, err))
            if ours is None or theirs is None:
                print("%-8s %-55s dse: %s; SCALE-Sim reads %s%s"
                      % (name, rel, err or "reads it",
                         "nothing" if theirs is None else
                         "%d layers" % len(theirs), note))
                continue
            if len(ours) != len(theirs) or any(
                    o["name"] != t[0] or o["macs"] != topo.get_layer_mac_ops(i)
                    for i, (o, t) in enumerate(zip(ours, theirs))):
                print("%-8s %-55s layer lists differ: dse %d, SCALE-Sim %d%s"
                      % (name, rel, len(ours), len(theirs), note))
                continue
            n = same = skipped = 0
            for i, o in enumerate(ours):
                c = scalesim_cycles(src, cfg, topo, i, args.max_cells, cache)
                if c is None:
                    skipped += 1
                    continue
                n += 1
                if c == o["cycles"]:
                    same += 1
                else:
                    print("%-8s %-55s layer %d %s: dse %d cycles, SCALE-Sim "
                          "%d" % (name, rel, i, o["name"], o["cycles"], c))
            tot[0] += len(ours)
            tot[1] += n
            tot[2] += same
            tot[3] += skipped
            print("%-8s %-55s %4d layers: %4d compared, %4d equal, %4d too "
                  "large for SCALE-Sim%s" % (name, rel, len(ours), n, same,
                                             skipped, note), flush=True)
    print()
    for name, (layers, n, same, skipped) in totals.items():
        print("%s.cfg: %d layers read; %d compared, %d equal; %d too large "
              "for SCALE-Sim's compute model" % (name, layers, n, same,
                                                 skipped))
    if args.expect:
        with open(args.expect, "w") as f:
            for rel, form, theirs, err in expect:
                if theirs is None:
                    f.write("%s\t%s\trefused\t%s\n" % (rel, form, err))
                    continue
                macs = sum(
                    -(-(a[1] - a[3] + a[7]) // a[7]) *
                    -(-(a[2] - a[4] + a[8]) // a[8]) *
                    a[3] * a[4] * a[5] * a[6] for a in theirs)
                f.write("%s\t%s\t%d\t%d\n" % (rel, form, len(theirs), macs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
