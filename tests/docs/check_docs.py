#!/usr/bin/python3
"""Checks the documentation's links: every relative link in README.md and
docs/ names a file that exists and, when it has one, a heading anchor that
the file has; every page under docs/ can be reached from README.md by
following links; the README stays short (it is the front door, and the
detail belongs in docs/).  Usage: check_docs.py SOURCE_DIR
"""
import os
import re
import sys

README_MAX_LINES = 200
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^\s*```")


def strip_code(text):
    """The text without fenced code blocks and inline code spans, whose
    brackets are not links."""
    out, fenced = [], False
    for line in text.split("\n"):
        if FENCE.match(line):
            fenced = not fenced
            out.append("")
            continue
        out.append("" if fenced else re.sub(r"`[^`]*`", "", line))
    return "\n".join(out)


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped,
    blanks as hyphens."""
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def anchors(path):
    result, fenced = set(), False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if FENCE.match(line):
                fenced = not fenced
            elif not fenced and line.startswith("#"):
                result.add(slug(line.lstrip("#")))
    return result


def main():
    root = os.path.abspath(sys.argv[1])
    errors = []
    readme = os.path.join(root, "README.md")
    with open(readme, encoding="utf-8") as f:
        n = sum(1 for _ in f)
    if n > README_MAX_LINES:
        errors.append("README.md has %d lines, more than %d: move the detail "
                      "into docs/" % (n, README_MAX_LINES))
    seen, todo = set(), [readme]
    while todo:
        page = todo.pop()
        if page in seen:
            continue
        seen.add(page)
        with open(page, encoding="utf-8") as f:
            text = strip_code(f.read())
        for lineno, line in enumerate(text.split("\n"), 1):
            for m in LINK.finditer(line):
                target = m.group(1) or m.group(2)
                if re.match(r"[a-z]+:", target):
                    continue
                where = "%s:%d" % (os.path.relpath(page, root), lineno)
                path, _, anchor = target.partition("#")
                dest = os.path.normpath(os.path.join(os.path.dirname(page),
                                                     path)) if path else page
                if not os.path.exists(dest):
                    errors.append("%s: link to a missing file: %s"
                                  % (where, target))
                    continue
                if anchor and dest.endswith(".md") and \
                        anchor not in anchors(dest):
                    errors.append("%s: %s has no heading '#%s'"
                                  % (where, os.path.relpath(dest, root),
                                     anchor))
                if dest.endswith(".md") and dest.startswith(root):
                    todo.append(dest)
    for dirpath, _, files in os.walk(os.path.join(root, "docs")):
        for name in files:
            page = os.path.join(dirpath, name)
            if name.endswith(".md") and page not in seen:
                errors.append("%s cannot be reached from README.md"
                              % os.path.relpath(page, root))
    for e in sorted(errors):
        print("check_docs: " + e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
