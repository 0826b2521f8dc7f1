#!/usr/bin/env python3
"""Counts the public items of the `collide` library from rustdoc's JSON output.

The count is every item rustdoc lists under `paths` for the crate itself (crate_id 0: the
modules, types, traits, functions, constants and enum variants reachable from the crate
root), plus the public inherent methods and associated constants of its types (rustdoc
gives those no path of their own). Trait methods and trait impls are not counted: a trait
counts once, whatever implements it.

Usage, from the repository root:

    RUSTC_BOOTSTRAP=1 cargo rustdoc --release -p collide -- -Z unstable-options --output-format json
    python3 scripts/count_public_items.py [target/doc/collide.json] [--list]

`--list` prints every counted item, one a line, sorted (to compare two counts with diff).
"""

import json
import sys


def counted(doc):
    """The counted items as sorted strings: `kind path` for each."""
    index, paths = doc["index"], doc["paths"]
    items = []
    for key, summary in paths.items():
        if summary["crate_id"] != 0:
            continue
        items.append(f"{summary['kind']} {'::'.join(summary['path'])}")
        item = index.get(key)
        if item is None:
            continue
        for impl_id in impls_of(item):
            impl = index.get(str(impl_id))
            if impl is None or impl["inner"]["impl"]["trait"] is not None:
                continue
            for member_id in impl["inner"]["impl"]["items"]:
                member = index.get(str(member_id))
                if member is not None and member["visibility"] == "public":
                    name = "::".join(summary["path"] + [member["name"]])
                    items.append(f"{next(iter(member['inner']))} {name}")
    return sorted(items)


def impls_of(item):
    """The impl blocks of a struct, enum or union (none for other kinds)."""
    inner = item["inner"]
    for kind in ("struct", "enum", "union"):
        if kind in inner:
            return inner[kind].get("impls", [])
    return []


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    path = args[0] if args else "target/doc/collide.json"
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as e:
        sys.exit(f"{path}: {e.strerror}; build it first (see this script's notes)")
    except json.JSONDecodeError as e:
        sys.exit(f"{path}: line {e.lineno}: not rustdoc JSON ({e.msg})")
    items = counted(doc)
    if "--list" in sys.argv:
        print("\n".join(items))
    print(f"{len(items)} public items")


if __name__ == "__main__":
    main()
