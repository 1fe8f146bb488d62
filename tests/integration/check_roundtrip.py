"""Every front row evaluates back to the same numbers with `dse eval`.

Usage: /usr/bin/python3 check_roundtrip.py DSE FILE CONFIG [MAX_ROWS]
Reads /<kernel>/front of FILE (written by a sweep of CONFIG) with h5py,
takes up to MAX_ROWS rows spread over the front (10 by default), runs
`dse eval --json` with each row's sa_sizes (and its io_network and
double_buffer knobs when the front has them), and compares: integers
exactly, real numbers to 1e-9 relative.
"""
import json
import subprocess
import sys

import h5py

dse, path, config = sys.argv[1], sys.argv[2], sys.argv[3]
max_rows = int(sys.argv[4]) if len(sys.argv) > 4 else 10
INTS = [("cycles", "cycles"), ("dsp", "dsp"), ("bram18k", "bram18k"),
        ("uram", "uram"), ("lut", "lut"), ("ff", "ff"),
        ("offchip_bytes", "offchip_bytes"), ("n_pe", "n_pe"),
        ("pe_rows", "pe_rows"), ("pe_cols", "pe_cols"), ("ii", "ii")]
FLOATS = [("latency", "latency_s"), ("gops", "gops"), ("energy", "energy"),
          ("edp", "edp"), ("mhz", "mhz")]
NETS = ["daisy", "multicast"]
failures = []
bad_rows = set()


def text(v):
    return v.decode() if isinstance(v, bytes) else str(v)


def close(a, b):
    return a == b or abs(a - b) <= 1e-9 * max(abs(a), abs(b))


with h5py.File(path, "r") as f:
    kernel = text(f.attrs["kernel"])
    front = f[kernel + "/front"]
    names = front.dtype.names
    rows = front[:]
for col, _ in INTS + FLOATS:
    if col not in names:
        failures.append("front has no column %s" % col)
if not len(rows):
    failures.append("empty front")
step = max(1, len(rows) // max_rows)
picked = list(range(0, len(rows), step))[:max_rows]
for i in picked:
    r = rows[i]
    sa = text(r["sa_sizes"])
    cmd = [dse, "eval", "--json", "--sa-sizes", sa]
    if "io_network" in names:
        cmd += ["--io-network", NETS[int(r["io_network"])]]
    if "double_buffer" in names:
        cmd += ["--double-buffer", str(int(r["double_buffer"]))]
    cmd.append(config)
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        failures.append("row %d: %s exited %d: %s" % (i, " ".join(cmd),
                                                      p.returncode, p.stderr))
        bad_rows.add(i)
        continue
    d = json.loads(p.stdout)
    before = len(failures)
    if d["sa_sizes"] != sa or d["status"] != "ok":
        failures.append("row %d: eval gave %s, status %s" % (i, d["sa_sizes"],
                                                             d["status"]))
    for col, key in INTS:
        if col in names and int(r[col]) != d[key]:
            failures.append("row %d %s: front %d, eval %d (%s)" %
                            (i, col, int(r[col]), d[key], sa))
    for col, key in FLOATS:
        if col in names and not close(float(r[col]), float(d[key])):
            failures.append("row %d %s: front %r, eval %r (%s)" %
                            (i, col, float(r[col]), d[key], sa))
    if len(failures) == before:
        continue
    bad_rows.add(i)
for m in failures:
    print("FAIL:", m)
print("%s: %d of the %d rows checked (of %d) evaluated back identically" %
      (config, len(picked) - len(bad_rows), len(picked), len(rows)))
sys.exit(1 if failures else 0)
