"""The files every game's kit is made of, whatever the game: component sheets laid out on one paper as a PDF
(``PaperKit``), where each cut sheet's front is printed, and zips whose bytes depend only on their contents."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass

from boardgen.cards.sheets import CutSheet, LaidOut
from boardgen.render.cairo_backend import Page
from boardgen.render.imposition import Paper

ZIP_DATE = (2026, 1, 1, 0, 0, 0)


@dataclass(frozen=True)
class PaperKit:
    paper: Paper
    laid: tuple[LaidOut, ...]
    pages: tuple[Page, ...]
    pdf: bytes

    def page_ranges(self) -> list[tuple[LaidOut, int, int]]:
        out, start = [], 1
        for lo in self.laid:
            out.append((lo, start, start + len(lo.pages) - 1))
            start += len(lo.pages)
        return out


def front_page_number(kit: PaperKit, sheet: CutSheet) -> int:
    """The page of ``kit``'s PDF that prints the front of ``sheet``."""
    for lo, start, _end in kit.page_ranges():
        for i, cs in enumerate(lo.cut_sheets):
            if cs is sheet:
                per = 2 if len(lo.pages) == 2 * len(lo.cut_sheets) else 1
                return start + i * per
    return 0


STORED_SUFFIXES = (".pdf", ".png", ".zip")
"""Members stored as they are: their own streams are compressed already (deflating a kit's PDFs again saved 4%
of its size and took 80% of the time it takes to zip)."""


def deterministic_zip(files: Sequence[tuple[str, bytes]]) -> bytes:
    """A zip whose bytes depend only on the file names and contents (fixed dates, sorted names); text members
    are deflated, already compressed ones (``STORED_SUFFIXES``) stored."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in sorted(files):
            info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_STORED if name.endswith(STORED_SUFFIXES) else zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3
            zf.writestr(info, data, compress_type=info.compress_type, compresslevel=9)
    return buf.getvalue()
