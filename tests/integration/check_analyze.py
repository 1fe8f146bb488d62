"""Checks the JSON of `dse analyze --json` against the analysis AutoSA
describes for each example kernel.

Usage: /usr/bin/python3 check_analyze.py CONFIG < analysis.json
CONFIG is the config's name in configs/ without .cfg (mm, conv, fir, ...);
configs without specific expectations get the structural checks only.
"""
import json
import sys

kernel = sys.argv[1]
doc = json.load(sys.stdin)
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def by_name(items, name):
    found = [x for x in items if x["name"] == name]
    check(len(found) == 1, "no single entry named %s" % name)
    return found[0] if found else {}


def structure(d):
    """What every analysis must satisfy, whatever the kernel."""
    for key in ("kernel", "loops", "band", "reduction", "dependences",
                "candidates", "default_candidate", "analysis_seconds"):
        check(key in d, "key %s missing" % key)
    names = [l["name"] for l in d["loops"]]
    check(len(d["candidates"]) == d["n_candidates"] > 0, "no candidates")
    check(0 <= d["default_candidate"] < d["n_candidates"],
          "default candidate out of range")
    check(d["analysis_seconds"] >= 0, "negative analysis time")
    for dep in d["dependences"]:
        check(dep["type"] in ("read", "flow", "output"), "bad dep type")
        check(len(dep["distance_min"]) == len(names), "distance length")
        check(all(a <= b for a, b in zip(dep["distance_min"],
                                          dep["distance_max"])),
              "%s: min above max" % dep["name"])
    for i, c in enumerate(d["candidates"]):
        check(c["index"] == i, "candidate %d has index %d" % (i, c["index"]))
        check(c["dims"] == "%d-D" % len(c["space_loops"]), "dims")
        check(sorted(c["space_loops"] + c["time_loops"]) == sorted(names),
              "candidate %d: space and time loops are not the loops" % i)
        for g in c["io_groups"]:
            check(g["type"] in ("exterior", "interior"), "group type")
            check(g["direction"] is None or
                  len(g["direction"]) == len(c["space_loops"]),
                  "direction length")
            check(not g["pruned"] or g["levels"] == 0,
                  "pruned group with I/O levels")


def space_sets(d):
    return [c["space_loops"] for c in d["candidates"]]


def check_mm_shape(d, compute, extent):
    """The loops and candidates of matrix multiply."""
    check(d["statement"] == compute, "compute statement %s" % d["statement"])
    check([l["name"] for l in d["loops"]] == ["i", "j", "k"],
          "loops %s" % d["loops"])
    check(extent is None or all(l["extent"] == extent for l in d["loops"]),
          "extents %s" % d["loops"])
    check(d["band"] == ["i", "j", "k"], "band %s" % d["band"])
    check(d["reduction"] == "k", "reduction %s" % d["reduction"])
    check(d["parallel"] == ["i", "j"], "parallel %s" % d["parallel"])
    check(d["simd_loop"] == "k", "simd loop %s" % d["simd_loop"])
    check(space_sets(d) == [["i"], ["j"], ["k"], ["i", "j"], ["i", "k"],
                            ["j", "k"]], "candidates %s" % space_sets(d))
    check(d["default_candidate"] == 3, "default %d" % d["default_candidate"])


def check_mm(d):
    """The dependences and I/O groups of the seed's matrix multiply."""
    check_mm_shape(d, "S0", 1024)
    want = {"D1": ("read", "A", [0, 1, 0]), "D2": ("read", "B", [1, 0, 0]),
            "D3": ("flow", "C", [0, 0, 1]), "D4": ("output", "C", [0, 0, 1])}
    for name, (kind, array, dist) in want.items():
        dep = by_name(d["dependences"], name)
        check(dep.get("type") == kind and dep.get("array") == array,
              "%s is %s on %s" % (name, dep.get("type"), dep.get("array")))
        check(dep.get("distance_min") == dist and
              dep.get("distance_max") == dist and dep.get("uniform"),
              "%s distance %s" % (name, dep.get("distance_min")))
    c3 = d["candidates"][3]
    check(c3["space_loops"] == ["i", "j"] and c3["time_loops"] == ["k"],
          "candidate 3 loops")
    # The tiles run with the space loops outermost, the others as written.
    orders = [c["loop_order"] for c in d["candidates"]]
    check(orders == [["i", "j", "k"], ["j", "i", "k"], ["k", "i", "j"],
                     ["i", "j", "k"], ["i", "k", "j"], ["j", "k", "i"]],
          "loop orders %s" % orders)
    g = {x["name"]: x for x in c3["io_groups"]}
    check(sorted(g) == ["g1", "g2", "g3", "g4"], "groups %s" % sorted(g))
    if len(g) != 4:
        return
    check(g["g1"]["array"] == "A" and g["g1"]["direction"] == [0, 1] and
          g["g1"]["type"] == "exterior" and g["g1"]["embedded"] and
          g["g1"]["copy_in"] and g["g1"]["deps"] == ["D1"], "g1 %s" % g["g1"])
    check(g["g2"]["array"] == "B" and g["g2"]["direction"] == [1, 0] and
          g["g2"]["type"] == "exterior" and g["g2"]["embedded"] and
          g["g2"]["copy_in"], "g2 %s" % g["g2"])
    check(g["g3"]["array"] == "C" and g["g3"]["pruned"] and
          g["g3"]["type"] == "interior" and g["g3"]["direction"] == [0, 0] and
          g["g3"]["kind"] == "flow", "g3 %s" % g["g3"])
    check(g["g4"]["array"] == "C" and not g["g4"]["pruned"] and
          g["g4"]["copy_out"] and g["g4"]["type"] == "interior" and
          g["g4"]["buffer_level"] == "L1" and g["g4"]["kind"] == "output",
          "g4 %s" % g["g4"])
    # C accumulates in the PEs over the innermost k tiles and leaves once
    # per tile of i and j; A and B are never drained.
    check(g["g3"]["drain"] == "stays" and g["g4"]["drain"] == "per_tile" and
          g["g4"]["drain_loops"] == ["i", "j"] and
          g["g1"]["drain"] == "none" and g["g1"]["drain_loops"] == [],
          "drains %s" % [(x["drain"], x["drain_loops"]) for x in g.values()])
    # Space i,k: the tiles run i, k, j, so C's partial sums leave after
    # every tile, and its output group goes with them.
    g = {x["name"]: x for x in d["candidates"][4]["io_groups"]}
    if len(g) == 4:
        check(g["g3"]["drain"] == "every_tile" and
              g["g3"]["drain_loops"] == ["i", "k", "j"] and
              g["g4"]["drain"] == "with_flow",
              "candidate 4 drains %s %s" % (g["g3"]["drain"],
                                            g["g4"]["drain"]))


def check_gnn(d):
    # The feature loop is the only space loop; the edge loop carries
    # dependences the analysis cannot bound.
    check(d["reduction"] == "e", "reduction %s" % d["reduction"])
    check(d["space_loops"] == ["f"], "space loops %s" % d["space_loops"])
    check(any(dep["unknown"] for dep in d["dependences"]),
          "no unknown dependence")
    check(all(c["space_loops"] == ["f"] for c in d["candidates"]),
          "candidates %s" % space_sets(d))


def loops(d):
    return [l["name"] for l in d["loops"]]


structure(doc)
if kernel == "mm":
    check_mm(doc)
elif kernel in ("mm-small", "mm-ultra96"):
    check_mm_shape(doc, "S0", None)
elif kernel == "mm-init":
    check(doc["statements"] == ["S0", "S1"], "statements")
    check_mm_shape(doc, "S1", 256)
elif kernel == "conv":
    check(loops(doc) == ["o", "r", "c", "i", "p", "q"], "conv loops")
    check(doc["reduction"] == "i", "conv reduction")
elif kernel == "mttkrp":
    check(loops(doc) == ["i", "j", "k", "l"], "mttkrp loops")
    check(doc["ops_per_point"] == 3, "mttkrp ops")
elif kernel == "ttmc":
    check(loops(doc) == ["i", "j", "k", "l", "m"], "ttmc loops")
    check(doc["ops_per_point"] == 3, "ttmc ops")
elif kernel == "fir":
    check(space_sets(doc) == [["i"], ["j"], ["i", "j"]],
          "fir candidates %s" % space_sets(doc))
elif kernel == "gnn-agg":
    check_gnn(doc)

for msg in failures[:20]:
    print("FAIL: %s: %s" % (kernel, msg))
sys.exit(1 if failures else 0)
