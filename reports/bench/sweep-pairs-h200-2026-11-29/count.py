#!/usr/bin/env python3
"""Counts the SASS instructions on a variant's path of ldmatrix.x4's sweep
kernel, before (../sweep-keys-h200-2026-11-29/ldmatrix-x4-sweep.sass) and
after (ldmatrix-x4-sweep.sass here), as that report's count.py does: the
variant loop from its bounds check to seven instructions past the vote, a
lane's own-row draw (half the variants) and a skipped variant's count set
apart. The address ranges are read off each listing."""
import re


def rows(path):
    found = []
    for line in open(path):
        m = re.search(r"/\*([0-9a-f]{4})\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9.]*)", line)
        if m:
            found.append((int(m.group(1), 16), m.group(3)))
    return found


def count(listing, lo, hi, excluded=()):
    picked = [op for a, op in listing if lo <= a < hi and not any(x <= a < y for x, y in excluded)]
    return len(picked), sum(op.startswith("IMAD") for op in picked)


for name, path, loop, vote, own_row, skip in [
    ("before", "../sweep-keys-h200-2026-11-29/ldmatrix-x4-sweep.sass", 0xB30, 0x1760, (0xC60, 0xDD0), (0xEA0, 0x1080)),
    ("after", "ldmatrix-x4-sweep.sass", 0xB50, 0x15B0, (0xC80, 0xDF0), (0xEC0, 0x10A0)),
]:
    listing = rows(path)
    common = count(listing, loop, vote + 0x70, [own_row, skip])
    own = count(listing, *own_row)
    print("%s: every variant %d instructions (%d IMAD), a lane's own row %d (%d IMAD), mean a variant %.1f"
          % (name, common[0], common[1], own[0], own[1], common[0] + own[0] / 2))
