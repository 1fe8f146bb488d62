#!/usr/bin/python3
"""The layering rule (docs/developer/architecture.md): a file includes
headers of its own folder and of folders on lower floors only, folders on
one floor do not include each other, and no folder includes another's
private header.  The floors are read from the table between the
"<!-- floors" and "<!-- end floors -->" markers of that page, so the page
is the one place they are stated.  Usage: check_layers.py SOURCE_DIR
"""
import os
import re
import sys

DOC = "docs/developer/architecture.md"
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
PRIVATE = re.compile(r"(^|/)(internal|[a-z_]*_internal|[a-z_]*_private)\.h$")


def floors(root):
    """Folder -> floor, from the table of the architecture page."""
    with open(os.path.join(root, DOC), encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"<!-- floors.*?-->(.*?)<!-- end floors -->", text, re.S)
    if not m:
        sys.exit("check_layers: no floor table in " + DOC)
    result = {}
    for line in m.group(1).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 2 or not cells[0].isdigit():
            continue
        for folder in re.findall(r"`([a-z_]+)/`", cells[1]):
            result[folder] = int(cells[0])
    if not result:
        sys.exit("check_layers: the floor table of %s is empty" % DOC)
    return result


def check(root, floor_of):
    errors = []
    for folder, floor in sorted(floor_of.items()):
        path = os.path.join(root, folder)
        if not os.path.isdir(path):
            errors.append("%s: folder %s/ of the floor table does not exist"
                          % (DOC, folder))
            continue
        for name in sorted(os.listdir(path)):
            if not name.endswith((".c", ".h")):
                continue
            fname = os.path.join(path, name)
            with open(fname, encoding="utf-8") as f:
                text = f.read()
            for m in INCLUDE.finditer(text):
                inc = m.group(1)
                line = text.count("\n", 0, m.start()) + 1
                where = "%s/%s:%d" % (folder, name, line)
                if "/" not in inc:
                    continue        # a header of the same folder
                other = inc.split("/", 1)[0]
                if other == folder:
                    continue
                if other not in floor_of:
                    errors.append('%s: includes "%s", a folder on no floor'
                                  % (where, inc))
                elif floor_of[other] > floor:
                    errors.append('%s: includes "%s": %s/ (floor %d) stands '
                                  'above %s/ (floor %d)' % (where, inc, other,
                                  floor_of[other], folder, floor))
                elif floor_of[other] == floor:
                    errors.append('%s: includes "%s": %s/ and %s/ stand on '
                                  'the same floor (%d)' % (where, inc, other,
                                  folder, floor))
                elif PRIVATE.search(inc):
                    errors.append('%s: includes "%s", a private header of '
                                  '%s/' % (where, inc, other))
    return errors


def main():
    root = os.path.abspath(sys.argv[1])
    floor_of = floors(root)
    errors = check(root, floor_of)
    for e in errors:
        print("check_layers: " + e, file=sys.stderr)
    if not errors:
        print("check_layers: %d folders on %d floors, no include runs up "
              "the house" % (len(floor_of), len(set(floor_of.values()))))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
