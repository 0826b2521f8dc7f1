#!/usr/bin/env python3
"""How far a part of the page scrolled between two screenshots.

Usage: scrolled.py BEFORE.png AFTER.png X0 X1 Y0 Y1

Reads both PNGs (web/check_shot.py's reader) and, in the rectangle X0..X1, Y0..Y1 (device
pixels), finds the upward shift s (0 to half the rectangle's height) for which the rows of
AFTER best match the rows of BEFORE s pixels lower (each row reduced to the mean grey level
of each run of 8 pixels, the difference the mean absolute one over the rows the two share). Prints s and how
well the rows matched, e.g. `48 0.3` (the content moved 48 px up; 0.3 grey levels apart)."""
import sys

from check_shot import pixels


RUN = 8


def rows_grey(path, x0, x1, y0, y1):
    """Each row of the rectangle as the mean grey level of each run of RUN pixels."""
    width, height, bpp, rows = pixels(path)
    out = []
    for row in rows[y0:y1]:
        grey = [sum(row[x * bpp:x * bpp + 3]) for x in range(x0, x1)]
        out.append([sum(grey[i:i + RUN]) / (3 * RUN) for i in range(0, len(grey) - RUN + 1, RUN)])
    return out


def main():
    before, after = sys.argv[1], sys.argv[2]
    x0, x1, y0, y1 = (int(v) for v in sys.argv[3:7])
    a, b = rows_grey(before, x0, x1, y0, y1), rows_grey(after, x0, x1, y0, y1)
    best = None
    for s in range(0, (y1 - y0) // 2):
        pairs = zip(b[: len(b) - s], a[s:])
        total = n = 0
        for rb, ra in pairs:
            total += sum(abs(p - q) for p, q in zip(rb, ra))
            n += len(rb)
        diff = total / max(n, 1)
        if best is None or diff < best[1]:
            best = (s, diff)
    print(f"{best[0]} {best[1]:.1f}")


main()
