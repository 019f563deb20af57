#!/usr/bin/env python3
"""Counts the SASS instructions of ldmatrix-x4-sweep.sass on a variant's
path, and how many of them are integer multiply-adds (IMAD*). The address
ranges are read off the listing: the variant loop runs from 0x09b0 to the
vote at 0x1760; 0x0c10-0x0d60 draws a lane's own row (scattered and
repeated rows only, half the variants), 0x0e40-0x1020 counts a skipped
variant, and 0x1020-0x1770 judges the four words."""
import re
import sys

rows = []
for line in open(sys.argv[1] if len(sys.argv) > 1 else "ldmatrix-x4-sweep.sass"):
    m = re.search(r"/\*([0-9a-f]{4})\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9.]*)", line)
    if m:
        rows.append((int(m.group(1), 16), m.group(3)))


def count(lo, hi, excluded=()):
    picked = [op for a, op in rows if lo <= a < hi and not any(x <= a < y for x, y in excluded)]
    return len(picked), sum(op.startswith("IMAD") for op in picked)


print("a variant, own-row draw and skip aside: %d instructions, %d IMAD" % count(0x9B0, 0x17D0, [(0xC10, 0xD60), (0xE40, 0x1020)]))
print("a lane's own-row draw: %d instructions, %d IMAD" % count(0xC10, 0xD60))
print("the judge of four words: %d instructions, %d IMAD" % count(0x1020, 0x1770))
