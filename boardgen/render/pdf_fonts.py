"""Font subset tags: each embedded subset gets its own six-letter tag.

A subset's PostScript name is ``TAG+FontName`` (PDF 32000-1, 9.6.4), and two different subsets of one font
must not share a tag, or a RIP or preflight tool may take one for the other and print missing glyphs.
reportlab's ``invariant`` mode tags every subset ``AAAAAA+``; ``retag_subsets`` gives each a tag made from a
hash of its embedded font program, so the tag stays the same from build to build and differs between subsets.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator

import pikepdf

_TAGGED = re.compile(r"^/?([A-Z]{6})\+(.+)$")


def _font_dicts(pdf: pikepdf.Pdf) -> Iterator[pikepdf.Dictionary]:
    for obj in pdf.objects:
        if (isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == pikepdf.Name.Font and "/BaseFont" in obj
                and obj.get("/Subtype") not in (pikepdf.Name.CIDFontType0, pikepdf.Name.CIDFontType2)):
            yield obj  # descendant CID fonts are renamed with their Type0 parent


def _program(font: pikepdf.Dictionary) -> bytes:
    descriptor = font.get("/FontDescriptor")
    if descriptor is None and "/DescendantFonts" in font:
        descriptor = font.DescendantFonts[0].get("/FontDescriptor")
    if descriptor is None:
        return b""
    for key in ("/FontFile2", "/FontFile", "/FontFile3"):
        if key in descriptor:
            return descriptor[key].read_bytes()
    return b""


def _tag(digest: bytes) -> str:
    return "".join(chr(ord("A") + b % 26) for b in digest[:6])


def retag_subsets(pdf: pikepdf.Pdf) -> dict[str, str]:
    """Give every subset font in ``pdf`` a tag of its own (from the sha256 of its font program and name).
    Returns {new name: old name}."""
    renamed: dict[str, str] = {}
    used: set[str] = set()
    for font in _font_dicts(pdf):
        match = _TAGGED.match(str(font.BaseFont))
        if match is None:
            continue
        old_tag, name = match.groups()
        digest = hashlib.sha256(name.encode() + _program(font)).digest()
        tag, salt = _tag(digest), 0
        while f"{tag}+{name}" in used:  # the same program twice (rare): still one name per font object
            salt += 1
            tag = _tag(hashlib.sha256(digest + bytes([salt])).digest())
        new = f"{tag}+{name}"
        used.add(new)
        renamed[new] = f"{old_tag}+{name}"
        font.BaseFont = pikepdf.Name("/" + new)
        descendants = list(font.get("/DescendantFonts", []))
        descriptors = [font.get("/FontDescriptor")] + [d.get("/FontDescriptor") for d in descendants]
        for d in descendants:
            d.BaseFont = pikepdf.Name("/" + new)
        for descriptor in descriptors:
            if descriptor is not None and "/FontName" in descriptor:
                descriptor.FontName = pikepdf.Name("/" + new)
    return renamed
