#!/usr/bin/env python3
"""Writes src/label_tables.rs, the label cleaner's table, from the Unicode Character Database.

    python3 tools/label-tables.py [UCD_DIR] > src/label_tables.rs
    python3 tools/label-tables.py --check [UCD_DIR]   # the committed table is what the data gives

UCD_DIR holds UnicodeData.txt, PropList.txt and DerivedCoreProperties.txt (Debian's package
unicode-data puts them in /usr/share/unicode, the default). Each code point gets the first
kind that fits, in this order:

  Space   White_Space                                  -> a space
  Ignore  Default_Ignorable_Code_Point, Noncharacter_Code_Point, or gc Cc, Cf,
          Co                                           -> removed
  Open    gc Ps, and the symbols that draw a left frame: gc Sm, So, Sk or Po
          named with LEFT or BEGIN and BRACKET, CORNER, CEILING, FLOOR or
          TONE (U+23A1 LEFT SQUARE BRACKET UPPER CORNER, U+02F9 MODIFIER
          LETTER BEGIN HIGH TONE)                      -> (
  Close   gc Pe, and the symbols that draw a right frame, named as above with
          RIGHT or END                                 -> )
  Quote   gc Pi, Pf                                    -> '
  Dash    gc Pd, the box-drawing horizontals (U+2500..U+257F named
          HORIZONTAL, LEFT or RIGHT, with no UP, DOWN, VERTICAL, DIAGONAL or
          ARC), and the symbols that draw a horizontal stroke: gc Sm, So, Sk
          or Po named ... MINUS or ... MINUS SIGN, MACRON, FULLWIDTH MACRON,
          OVERLINE, or with HORIZONTAL LINE, HORIZONTAL SCAN LINE or ending
          HORIZONTAL BAR                               -> -

A letter that looks like a dash (CJK U+4E00, U+30FC, Hangul U+1173) is no
dash inside a word; the cleaner folds it where it stands alone, by the
confusables skeleton (src/text/mod.rs).
"""
import os
import sys


def fields(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                yield [p.strip() for p in line.split(";")]


def code_range(text):
    if ".." in text:
        lo, hi = text.split("..")
        return int(lo, 16), int(hi, 16)
    return int(text, 16), int(text, 16)


def load(ucd):
    category, name = {}, {}
    first = None
    for f in fields(os.path.join(ucd, "UnicodeData.txt")):
        cp, nm, gc = int(f[0], 16), f[1], f[2]
        if nm.endswith(", First>"):
            first = cp
            continue
        if nm.endswith(", Last>"):
            for c in range(first, cp + 1):
                category[c] = gc
            continue
        category[cp] = gc
        name[cp] = nm
    props = {}
    for file in ("PropList.txt", "DerivedCoreProperties.txt"):
        for f in fields(os.path.join(ucd, file)):
            lo, hi = code_range(f[0])
            props.setdefault(f[1], set()).update(range(lo, hi + 1))
    version = "unknown"
    with open(os.path.join(ucd, "DerivedCoreProperties.txt"), encoding="utf-8") as f:
        head = f.readline().strip()
        if head.startswith("# DerivedCoreProperties-"):
            version = head[len("# DerivedCoreProperties-"):].removesuffix(".txt")
    return category, name, props, version


def is_box_horizontal(cp, name):
    if not 0x2500 <= cp <= 0x257F:
        return False
    words = set(name.split())
    return bool(words & {"HORIZONTAL", "LEFT", "RIGHT"}) and not words & {"UP", "DOWN", "VERTICAL", "DIAGONAL", "ARC"}


SYMBOLS = ("Sm", "So", "Sk", "Po")


def frame_side(gc, name):
    """Open or Close for a symbol that draws one side of a frame, else None."""
    words = set(name.replace("-", " ").split())
    if gc not in SYMBOLS or not words & {"BRACKET", "CORNER", "CEILING", "FLOOR", "TONE"}:
        return None
    if words & {"ARROW", "ARROWS"}:
        return None
    if words & {"LEFT", "BEGIN"}:
        return "Open"
    if words & {"RIGHT", "END"}:
        return "Close"
    return None


def draws_stroke(gc, name):
    """Whether a symbol draws a horizontal stroke: a minus, a macron, an overline, a line."""
    if gc not in SYMBOLS:
        return False
    return (
        name.endswith(" MINUS") or name.endswith("MINUS SIGN") or name in ("MACRON", "FULLWIDTH MACRON", "OVERLINE")
        or "HORIZONTAL LINE" in name or "HORIZONTAL SCAN LINE" in name or name.endswith("HORIZONTAL BAR")
    )


def kind_of(cp, category, name, props):
    gc = category.get(cp, "Cn")
    nm = name.get(cp, "")
    if cp in props["White_Space"]:
        return "Space"
    if (cp in props["Default_Ignorable_Code_Point"] or cp in props["Noncharacter_Code_Point"]
            or gc in ("Cc", "Cf", "Co")):
        return "Ignore"
    if gc == "Ps":
        return "Open"
    if gc == "Pe":
        return "Close"
    side = frame_side(gc, nm)
    if side:
        return side
    if gc in ("Pi", "Pf"):
        return "Quote"
    if gc == "Pd" or is_box_horizontal(cp, nm) or draws_stroke(gc, nm):
        return "Dash"
    return None


def table(ucd):
    category, name, props, version = load(ucd)
    ranges = []
    for cp in range(0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        kind = kind_of(cp, category, name, props)
        if kind is None:
            continue
        if ranges and ranges[-1][2] == kind and ranges[-1][1] == cp - 1:
            ranges[-1][1] = cp
        else:
            ranges.append([cp, cp, kind])
    out = [
        "//! The label cleaner's table: which characters a server label loses or has replaced.",
        f"//! Generated by `tools/label-tables.py` from the Unicode Character Database {version}; do",
        "//! not edit by hand (CI checks it against the data).",
        "",
        "#![allow(clippy::unreadable_literal)] // code points as the Unicode data writes them",
        "",
        "/// What a label does with a character.",
        "#[derive(Clone, Copy, Debug, PartialEq, Eq)]",
        "pub(crate) enum Kind {",
        "    /// White space: a space.",
        "    Space,",
        "    /// Default ignorable, a noncharacter, a control, a format or a private-use character:",
        "    /// removed.",
        "    Ignore,",
        "    /// An opening bracket (Ps), or a symbol drawing a left frame (`⎡`, `˹`): `(`.",
        "    Open,",
        "    /// A closing bracket (Pe), or a symbol drawing a right frame (`⎤`, `˺`): `)`.",
        "    Close,",
        "    /// An initial or final quote (Pi, Pf): `'`.",
        "    Quote,",
        "    /// A dash (Pd), a minus, a macron, an overline or a horizontal line: `-`.",
        "    Dash,",
        "}",
        "",
        "/// Sorted, disjoint ranges of code points, first and last included, and their kind.",
        "#[rustfmt::skip]",
        f"pub(crate) const RANGES: [(u32, u32, Kind); {len(ranges)}] = [",
    ]
    for lo, hi, kind in ranges:
        out.append(f"    (0x{lo:04X}, 0x{hi:04X}, Kind::{kind}),")
    out.append("];")
    return "\n".join(out) + "\n"


def main(argv):
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    ucd = args[0] if args else "/usr/share/unicode"
    text = table(ucd)
    if not check:
        sys.stdout.write(text)
        return 0
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "label_tables.rs")
    with open(here, encoding="utf-8") as f:
        if f.read() != text:
            print("src/label_tables.rs is not what tools/label-tables.py makes of the data", file=sys.stderr)
            return 1
    print("src/label_tables.rs matches the Unicode data")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
