"""Print metrics of built kits, for a session's before/after note: per kit folder the smallest text in any
printed PDF, whether font subset tags are unique, the sheets of each components file with each front's fill
and the lowest fill of a sheet that is not the last of its set, and the print-check findings. Every figure comes
from ``boardgen.render.print_checks`` (the checks ``boardgen validate --kit`` runs), so run it with the
PYTHONPATH of the tree that built the kits.

    python scripts/kit_metrics.py build/philanthropist build/better-life ...
"""

from __future__ import annotations

import argparse
import io
from dataclasses import dataclass, field
from pathlib import Path

import pikepdf

from boardgen.render import print_checks
from boardgen.render.pdf_probe import marks

COMPONENT_STEMS = ("components", "cards", "piecepack")
"""File name starts of the sheet files (older kits used cards- and piecepack- files)."""


@dataclass
class SheetFile:
    pages: int
    fills: list[float]  # each front (or single-sided sheet) with parts, in page order
    lowest_not_last: float | None  # the lowest fill of a sheet that is not the last of its set


@dataclass
class KitMetrics:
    smallest_text_pt: float | None = None
    smallest_text_where: str = ""
    subset_tag_findings: list[str] = field(default_factory=list)
    sheets: dict[str, SheetFile] = field(default_factory=dict)
    findings: list[str] = field(default_factory=list)


def kit_metrics(folder: Path) -> KitMetrics:
    """The metrics of one built kit folder (the one holding its kit zips)."""
    files = print_checks.kit_files(folder)
    out = KitMetrics()
    for name, data in sorted(files.items()):
        if not name.endswith(".pdf") or name.startswith("cut/"):
            continue
        texts = [m for m in marks(data) if m.kind == "text"]
        if texts:
            m = min(texts, key=lambda m: m.size_pt)
            if out.smallest_text_pt is None or m.size_pt < out.smallest_text_pt:
                out.smallest_text_pt = round(m.size_pt, 2)
                out.smallest_text_where = f"{name} page {m.page}: {m.text[:24].decode('latin-1')!r}"
        with pikepdf.open(io.BytesIO(data)) as pdf:
            out.subset_tag_findings += [f.message for f in print_checks.font_findings(name, pdf)]
            pages = print_checks.sheet_pages(pdf)
            count = len(pdf.pages)
        if Path(name).name.startswith(COMPONENT_STEMS) and pages:
            fronts = [p for p in pages if p.side != "back" and p.pieces]
            not_last = [print_checks.sheet_fill(p) for k, p in enumerate(fronts)
                        if k + 1 < len(fronts) and fronts[k + 1].part_set == p.part_set]
            out.sheets[name] = SheetFile(count, [round(print_checks.sheet_fill(p), 2) for p in fronts],
                                         round(min(not_last), 2) if not_last else None)
    out.findings = [f"{f.rule} {f.where}: {f.message}" for f in print_checks.kit_findings(files)]
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kits", nargs="+", type=Path, help="built kit folders")
    args = parser.parse_args(argv)
    for folder in args.kits:
        m = kit_metrics(folder)
        tags = "unique" if not m.subset_tag_findings else "; ".join(m.subset_tag_findings)
        print(f"{folder}: smallest text {m.smallest_text_pt} pt ({m.smallest_text_where}); subset tags {tags}")
        for name, s in m.sheets.items():
            print(f"  {name}: {s.pages} pages, {len(s.fills)} fronts, lowest fill not last {s.lowest_not_last}, "
                  f"fills {s.fills}")
        print(f"  findings: {len(m.findings)}", *m.findings, sep="\n    ")


if __name__ == "__main__":
    main()
