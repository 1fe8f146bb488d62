#!/usr/bin/python3
"""The layering check on small made-up trees: each case is a file, the
include it holds, and what check_layers.py must say (nothing for a legal
include).  Usage: test_check_layers.py SOURCE_DIR
"""
import os
import subprocess
import sys
import tempfile

TABLE = """# floors
<!-- floors: test -->
| floor | folders | what |
| --- | --- | --- |
| 0 | `core/` | ground |
| 1 | `arch/`, `poly/` | one |
| 2 | `sim/` | two |
<!-- end floors -->
"""

# (file, include, expected message fragment or None for a legal include)
CASES = [
    ("sim/a.c", "arch/arch.h", None),
    ("sim/b.c", "core/error.h", None),
    ("sim/c.c", "sim/sim.h", None),
    ("sim/d.c", "internal.h", None),
    ("arch/e.c", "sim/sim.h", "sim/ (floor 2) stands above arch/ (floor 1)"),
    ("core/f.h", "arch/arch.h", "arch/ (floor 1) stands above core/ (floor 0)"),
    ("arch/g.c", "poly/poly.h", "stand on the same floor (1)"),
    ("sim/h.c", "poly/internal.h", "a private header of poly/"),
    ("sim/i.c", "gnn/graph.h", "a folder on no floor"),
]


def run(root):
    p = subprocess.run([sys.executable, os.path.join(HERE, "check_layers.py"),
                        root], capture_output=True, text=True)
    return p.returncode, p.stderr


def main():
    failures = 0
    for path, inc, want in CASES:
        with tempfile.TemporaryDirectory() as root:
            os.makedirs(os.path.join(root, "docs/developer"))
            with open(os.path.join(root, "docs/developer/architecture.md"),
                      "w") as f:
                f.write(TABLE)
            for d in ("core", "arch", "poly", "sim"):
                os.makedirs(os.path.join(root, d))
            with open(os.path.join(root, path), "w") as f:
                f.write('#include <stdio.h>\n#include "%s"\n' % inc)
            rc, err = run(root)
            if want is None and (rc != 0 or err):
                print("FAIL: %s including %s was refused: %s" % (path, inc, err))
                failures += 1
            elif want is not None and (rc != 1 or want not in err or
                                       path + ":2:" not in err):
                print("FAIL: %s including %s: want '%s' at %s:2, got rc %d: %s"
                      % (path, inc, want, path, rc, err))
                failures += 1
    print("%d of %d cases as expected" % (len(CASES) - failures, len(CASES)))
    return 1 if failures else 0


HERE = os.path.dirname(os.path.abspath(__file__))
if __name__ == "__main__":
    sys.exit(main())
