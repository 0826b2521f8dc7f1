#!/usr/bin/env python3
"""Cuts the panels' fonts inside a built module down to the characters the toy can write.

Usage: fonts.py IN.wasm OUT.wasm CARGO_LOCK REGISTRY_SRC [SOURCE_DIR ...]

egui links its four default fonts into the module whole (Ubuntu Light, Hack, Noto Emoji and
the emoji icon font: 1.4 MB, about 770 KB gzipped, most of it glyphs for scripts and pictures
the toy never shows). Each font's bytes are found in the module (exactly once, else it is left
as it is and said so), made a subset with fontTools holding the glyphs of the characters kept
(printable ASCII, Latin-1 and Latin Extended-A, Greek, general punctuation, super- and
subscripts, arrows, mathematical operators, geometric shapes, and every other character
written in the sources under SOURCE_DIRs: the app's and the library's messages, egui's own
icons), and written over the original with zeros after it. The font keeps its place and
length, so the module is unchanged but for those bytes; the zeros cost nothing compressed (and
wasm-opt drops them from the data). Glyph shapes and advances are the originals', so the panels
look the same; a character outside the subset falls back to egui's replacement box, as a
character in none of the fonts did before.

Prints one line: the fonts cut and the bytes they shrank by."""
import io
import logging
import pathlib
import re
import sys

from fontTools import subset
from fontTools.ttLib import TTFont

RANGES = [
    (0x20, 0x7E),
    (0xA0, 0x17F),
    (0x370, 0x3FF),
    (0x2000, 0x206F),
    (0x2070, 0x209F),
    (0x2190, 0x21FF),
    (0x2200, 0x22FF),
    (0x25A0, 0x25FF),
]


def kept_characters(dirs):
    """The code points to keep: the ranges, and every non-ASCII character in the sources."""
    keep = {c for lo, hi in RANGES for c in range(lo, hi + 1)}
    for d in dirs:
        for path in pathlib.Path(d).rglob("*.rs"):
            keep.update(ord(c) for c in path.read_text(errors="replace") if ord(c) > 0x7E)
    return keep


def cut(font_bytes, keep):
    """The font with only the glyphs of `keep` (no hinting: egui does not hint)."""
    options = subset.Options()
    options.hinting = False
    options.notdef_outline = True
    options.layout_features = ["*"]
    font = TTFont(io.BytesIO(font_bytes))
    sub = subset.Subsetter(options)
    sub.populate(unicodes=keep & set(font.getBestCmap()))
    sub.subset(font)
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def fonts_dir(lock, registry):
    """The fonts of the epaint_default_fonts version Cargo.lock names."""
    text = pathlib.Path(lock).read_text()
    m = re.search(r'name = "epaint_default_fonts"\nversion = "([^"]+)"', text)
    if not m:
        return None
    found = sorted(pathlib.Path(registry).glob(f"*/epaint_default_fonts-{m.group(1)}/fonts"))
    return found[0] if found else None


def main():
    # fontTools names each table it cannot cut (and keeps or drops it): not news here.
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    src, dst, lock, registry, dirs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
    module = bytearray(pathlib.Path(src).read_bytes())
    where = fonts_dir(lock, registry)
    notes, saved = [], 0
    keep = kept_characters(dirs)
    for path in sorted(where.glob("*.ttf")) if where else []:
        whole = path.read_bytes()
        at = module.find(whole)
        if at < 0 or module.find(whole, at + 1) >= 0:
            notes.append(f"{path.name} not found once, left whole")
            continue
        small = cut(whole, keep)
        module[at:at + len(whole)] = small + bytes(len(whole) - len(small))
        saved += len(whole) - len(small)
        notes.append(f"{path.name} {len(whole)} -> {len(small)}")
    if where is None:
        notes.append("epaint_default_fonts not found in the cargo registry; fonts left whole")
    pathlib.Path(dst).write_bytes(module)
    print(f"fonts: {'; '.join(notes)} ({saved} bytes of glyphs dropped)")


main()
