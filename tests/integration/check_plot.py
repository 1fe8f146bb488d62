#!/usr/bin/python3
"""Checks an image plot_front.py wrote: a PNG that is not blank (many
distinct colours, a size no empty canvas reaches), or an SVG whose text
(kept as text) holds each of the given legend entries.

Usage: check_plot.py IMAGE [TEXT...]
"""
import sys
import xml.etree.ElementTree as ET


def check_png(path):
    import matplotlib.image as mpimg
    import numpy as np

    img = mpimg.imread(path)
    if img.ndim != 3 or img.shape[0] < 300 or img.shape[1] < 400:
        sys.exit("%s: %s is no plot-sized image" % (path, img.shape))
    flat = (img[:, :, :3] * 255).astype(np.uint8).reshape(-1, 3)
    colours = len(np.unique(flat, axis=0))
    ink = float((flat.min(axis=1) < 200).mean())
    if colours < 50 or ink < 0.02:
        sys.exit("%s: looks blank (%d colours, %.1f%% ink)"
                 % (path, colours, 100 * ink))


def check_svg(path, wanted):
    root = ET.parse(path).getroot()
    words = " ".join(t for e in root.iter() if e.tag.endswith("text")
                     for t in e.itertext())
    for w in wanted:
        if w not in words:
            sys.exit("%s: no '%s' in its text: %s" % (path, w, words[:400]))


def main():
    path, wanted = sys.argv[1], sys.argv[2:]
    if path.endswith(".png"):
        check_png(path)
    else:
        check_svg(path, wanted)


if __name__ == "__main__":
    main()
