"""Board fit of a results file, read with h5py: no row of the front (nor a
feasible row of the cloud) uses more of a resource than its board has.

Usage: /usr/bin/python3 check_board_fit.py FILE

The capacities are the FPGA parts' published figures (the Xilinx device
data sheets DS962, DS963, DS890, DS180, DS190, DS891), kept here apart
from dse's own board table, which the file's board_* attributes must
match.  A config that lets a resource past the board says so with a
percentage above 100% in its constraints; the examples never do, so any
row over the board fails.
"""
import sys

import h5py

# part: DSP, BRAM18K, URAM, LUT, FF
PUBLISHED = {
    "u250": (12288, 5376, 1280, 1728000, 3456000),
    "u280": (9024, 4032, 960, 1304000, 2607000),
    "vu9p": (6840, 4320, 960, 1182240, 2364480),
    "arty-a7-35": (90, 100, 0, 20800, 41600),
    "pynq-z1": (220, 280, 0, 53200, 106400),
    "ultra96-v2": (360, 432, 0, 70560, 141120),
    "zcu102": (2520, 1824, 0, 274080, 548160),
}
RES = ("dsp", "bram18k", "uram", "lut", "ff")


def text(v):
    return v.decode() if isinstance(v, bytes) else str(v)


failures = []
with h5py.File(sys.argv[1], "r") as f:
    a = f.attrs
    board = text(a["board"])
    cap = dict(zip(RES, PUBLISHED[board]))
    for r in RES:
        if int(a["board_" + r]) != cap[r]:
            failures.append("board_%s = %d, published %d"
                            % (r, a["board_" + r], cap[r]))
    for line in text(a["constraints"]).splitlines():
        words = line.split()
        if (len(words) >= 3 and words[0] in RES and words[2].endswith("%")
                and float(words[2][:-1]) > 100):
            failures.append("the config relaxes board fit: %r" % line)
    groups = [k for k in f.keys() if isinstance(f[k], h5py.Group)]
    rows = 0
    for g in groups:
        tables = [("front", None)]
        if "cloud" in f[g]:
            tables.append(("cloud", "feasible"))
        for name, only in tables:
            if name not in f[g]:
                continue
            for i, row in enumerate(f[g][name][:]):
                if only and not row[only]:
                    continue
                rows += 1
                for r in RES:
                    if row[r] > cap[r]:
                        failures.append("%s/%s row %d: %s %d over %s's %d"
                                        % (g, name, i, r, row[r], board,
                                           cap[r]))
    if rows == 0:
        failures.append("no rows to check")
for msg in failures[:20]:
    print("FAIL:", msg)
sys.exit(1 if failures else 0)
