#!/usr/bin/env python3
"""Checks a screenshot of the page: the table's lines and some balls are drawn, and, given the
desktop's screenshot of the same run, the two agree within a tolerance.

Usage: check_shot.py SHOT.png [DESKTOP.png]. Reads the PNGs itself (8-bit RGB or RGBA, as
Chromium and the app write them) and counts the pixels of the shapes' colour and of the
balls' (saturated colours); exits 1 when either is missing (a blank or black canvas). With
DESKTOP.png, both of one size, compares them in blocks of BLOCK x BLOCK pixels (the mean of
each colour channel in a block, so that anti-aliasing and a text's exact pixels do not
count), above the bottom rows where the page shows its summary line over the record bar:
the share of blocks whose means differ by more than BLOCK_LIMIT must stay under
MAX_SHARE."""
import struct
import sys
import zlib


def pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    pos, idat, head = 8, b"", None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = head
    if depth != 8 or colour not in (2, 6) or interlace:
        sys.exit(f"{path}: only 8-bit RGB(A) PNGs without interlace are read")
    bpp = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(idat), width * bpp
    prev, rows = bytearray(stride), []
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return width, height, bpp, rows


BLOCK = 16
BLOCK_LIMIT = 24
MAX_SHARE = 0.04
# The page's summary line lies over the bottom rows (the record bar).
BOTTOM_SKIPPED = 0.12


def block_means(width, height, bpp, rows):
    """The mean (r, g, b) of each block, row by row, down to the skipped bottom rows."""
    out = []
    for by in range(0, int(height * (1 - BOTTOM_SKIPPED)) - BLOCK + 1, BLOCK):
        for bx in range(0, width - BLOCK + 1, BLOCK):
            sums = [0, 0, 0]
            for row in rows[by : by + BLOCK]:
                seg = row[bx * bpp : (bx + BLOCK) * bpp]
                for c in range(3):
                    sums[c] += sum(seg[c::bpp])
            out.append([v / (BLOCK * BLOCK) for v in sums])
    return out


def compare(web, desktop):
    a, b = pixels(web), pixels(desktop)
    if a[:2] != b[:2]:
        sys.exit(f"the screenshots differ in size: web {a[0]}x{a[1]}, desktop {b[0]}x{b[1]}")
    ma, mb = block_means(*a), block_means(*b)
    off = sum(1 for p, q in zip(ma, mb) if max(abs(x - y) for x, y in zip(p, q)) > BLOCK_LIMIT)
    share = off / len(ma)
    print(f"against the desktop: {off} of {len(ma)} blocks of {BLOCK} px differ by more than "
          f"{BLOCK_LIMIT} ({share:.1%}; at most {MAX_SHARE:.0%} allowed)")
    if share > MAX_SHARE:
        sys.exit("the page's picture differs from the desktop's")


def main():
    if len(sys.argv) > 2:
        compare(sys.argv[1], sys.argv[2])
    width, height, bpp, rows = pixels(sys.argv[1])
    lines = balls = 0
    for row in rows:
        for x in range(0, width * bpp, bpp):
            r, g, b = row[x], row[x + 1], row[x + 2]
            if r > 150 and g > 160 and b > 180 and max(r, g, b) - min(r, g, b) < 60:
                lines += 1
            elif max(r, g, b) - min(r, g, b) > 90:
                balls += 1
    print(f"screenshot {width}x{height}: {lines} pixels of shape lines, {balls} of coloured balls")
    if lines < 2000 or balls < 300:
        sys.exit("the screenshot does not show the table with balls")


if __name__ == "__main__":
    main()
