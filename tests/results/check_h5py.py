"""Opens a file written by write_sample with h5py and checks that the
layout is what other tools expect: field names, dtypes, values, the
"units" and "columns" attributes, and the root attributes.

Usage: /usr/bin/python3 check_h5py.py FILE.h5
"""
import sys

import h5py
import numpy as np


def check(cond, what):
    if not cond:
        sys.exit("check_h5py: " + what)


def text(value):
    # Fixed-length strings come back as bytes (or numpy.bytes_).
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def check_front(f):
    d = f["/mm/front"]
    check(d.shape == (3,), "front shape %r" % (d.shape,))
    check(d.chunks == (3,), "front chunks %r" % (d.chunks,))
    check(d.maxshape == (None,), "front maxshape %r" % (d.maxshape,))
    check(d.compression == "gzip", "front compression %r" % d.compression)
    names = d.dtype.names
    check(names == ("id", "latency", "dsp", "sa_sizes"),
          "field names %r" % (names,))
    check(d.dtype["id"] == np.dtype("<i8"), "id dtype")
    check(d.dtype["latency"] == np.dtype("<f8"), "latency dtype")
    check(d.dtype["dsp"] == np.dtype("<i8"), "dsp dtype")
    check(d.dtype["sa_sizes"] == np.dtype("S320"),
          "sa_sizes dtype %r" % d.dtype["sa_sizes"])
    rows = d[()]
    check(list(rows["id"]) == [0, 1, 2], "id values")
    check(list(rows["latency"]) == [1200.5, 980.25, -1.0e300],
          "latency values")
    check(list(rows["dsp"]) == [512, 1024, -7], "dsp values")
    sizes = [text(s) for s in rows["sa_sizes"]]
    check(sizes == ["kernel[]->space_time[3];kernel[]->array_part[16,16,16]",
                    "", "z" * 319], "sa_sizes values %r" % sizes)
    units = [text(u) for u in d.attrs["units"]]
    check(units == ["", "cycles", "DSP", ""], "units %r" % units)
    cols = [text(c) for c in d.attrs["columns"]]
    check(cols == list(names), "columns %r" % cols)


def check_empty(f):
    d = f["/mm/empty"]
    check(d.shape == (0,), "empty shape %r" % (d.shape,))
    check(d.dtype.names == ("id", "latency"), "empty names")
    check(len(d[()]) == 0, "empty read")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check_h5py.py FILE.h5")
    with h5py.File(sys.argv[1], "r") as f:
        a = f.attrs
        check(text(a["version"]) == "0.1.0", "version %r" % a["version"])
        check(text(a["config"]) == "[sweep]\nkernel = mm\n", "config")
        check(int(a["seed"]) == 42 and a["seed"].dtype == np.dtype("<i8"),
              "seed")
        check(float(a["wall_time"]) == 3.25, "wall_time")
        check_front(f)
        check_empty(f)
    print("check_h5py: ok")


main()
