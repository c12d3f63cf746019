"""The print standard every kit meets, checked on the files themselves (PDF, SVG, the kit README).

One set of checks for every game, used by the conformance tests over ``installed_games()`` and by
``boardgen validate --kit``: font subsets embedded under tags of their own; no text under 6 pt and no line
thinner than 0.25 pt; TrimBox and BleedBox on every page; a file with duplex sheets in one page orientation,
every back at the place its front's flip (the edge the kit README states for that file) brings it to, and that
edge the one the page orientation needs; cut files the size of a sheet with one closed outline per part;
nothing outside the bleed (crop marks, rulers, fold marks, labels) closer than 5 mm to the paper edge; no
sheet filled less than ``MIN_FILL`` unless it is the last of its set.

Sheets name their parts and side in the page's /PieceInfo (written by ``cairo_backend.render_pdf`` from
``Page.pieces``), which is how a back is paired with its front.
"""

from __future__ import annotations

import hashlib
import io
import re
import zipfile
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pikepdf

from boardgen.i18n import Translator
from boardgen.play.report import Finding
from boardgen.render.cairo_backend import MIN_TEXT_PT, PIECE_INFO_KEY
from boardgen.render.imposition import DUPLEX_LINE, flip_edge
from boardgen.render.pdf_probe import marks

MM_PER_PT = 25.4 / 72.0
MIN_LINE_PT = 0.25
EDGE_CLEAR_MM = 5.0
MIN_FILL = 0.40
"""A sheet (not the last of its set) whose parts cover less of its printable area than this wastes paper."""
TOLERANCE_MM = 0.05

_DUPLEX_LINE = re.compile(DUPLEX_LINE.format(file=r"(?P<file>[\w./-]+\.pdf)", edge="(?P<edge>long|short)"))


def stated_edges(readme: str, tr: Translator | None = None) -> dict[str, str]:
    """{file name: "long" or "short"} for every double-sided file a kit README names with ``duplex_line``
    (in ``tr``'s words: a German README says "Wenden an der langen Kante")."""
    if tr is None or tr.language == "en":
        return {m.group("file"): m.group("edge") for m in _DUPLEX_LINE.finditer(readme)}
    edges = {tr.gettext(e): e for e in ("long", "short")}
    line = re.escape(tr.gettext(DUPLEX_LINE)).replace(re.escape("{file}"), r"(?P<file>[\w./-]+\.pdf)")
    line = line.replace(re.escape("{edge}"), "(?P<edge>" + "|".join(map(re.escape, edges)) + ")")
    return {m.group("file"): edges[m.group("edge")] for m in re.finditer(line, readme)}


# ------------------------------------------------------------------------------------------ pages


@dataclass(frozen=True)
class SheetPage:
    number: int
    width_mm: float
    height_mm: float
    side: str  # front, back, single
    part_set: str
    pieces: tuple[tuple[str, tuple[float, float, float, float]], ...]  # name, (x0, y0, x1, y1) page mm y down


def sheet_pages(pdf: pikepdf.Pdf) -> list[SheetPage]:
    """Each page of ``pdf``: its size and, from its /PieceInfo, its side, part set and parts."""
    out = []
    for number, page in enumerate(pdf.pages, start=1):
        x0, y0, x1, y1 = (float(v) for v in page.obj.MediaBox)
        piece_info = page.obj.get("/PieceInfo")
        info = None if piece_info is None else piece_info.get(PIECE_INFO_KEY)
        side, part_set = "single", ""
        pieces: list[tuple[str, tuple[float, float, float, float]]] = []
        if info is not None:
            private = info.Private
            side = str(private.Side)[1:]
            part_set = str(private.Set)
            for p in private.Pieces:
                x_0, y_0, x_1, y_1 = (float(v) for v in list(p)[1:5])
                pieces.append((str(p[0]), (x_0, y_0, x_1, y_1)))
        out.append(SheetPage(number, abs(x1 - x0) * MM_PER_PT, abs(y1 - y0) * MM_PER_PT, side, part_set,
                             tuple(pieces)))
    return out


def _flipped(box: tuple[float, float, float, float], page: SheetPage, edge: str) -> tuple[float, ...]:
    """Where a front's rectangle lies on the back of the sheet when the printer flips it on ``edge``."""
    x0, y0, x1, y1 = box
    portrait = page.height_mm >= page.width_mm
    if (edge == "long") == portrait:  # the flip turns the sheet about its upright axis
        return (page.width_mm - x1, y0, page.width_mm - x0, y1)
    return (x0, page.height_mm - y1, x1, page.height_mm - y0)


def duplex_findings(name: str, pages: Sequence[SheetPage], stated: str | None) -> list[Finding]:
    """Each front followed by its back; every back part at the flipped place of the same part's front for the
    edge the README states, which must be the edge the pages' orientation needs; one orientation per file."""
    out: list[Finding] = []
    backs = [p for p in pages if p.side == "back"]
    if not backs:
        return out
    shapes = {p.height_mm >= p.width_mm for p in pages}
    if len(shapes) > 1:
        portrait = sum(1 for p in pages if p.height_mm >= p.width_mm)
        out.append(Finding("duplex-orientation", "error", name, f"a double-sided file with {portrait} portrait and "
                           f"{len(pages) - portrait} landscape pages: no one printer setting prints it"))
    needed = flip_edge(backs[0].width_mm, backs[0].height_mm)
    if stated is None:
        out.append(Finding("duplex-edge", "error", name, f"the kit README gives no flip edge for this double-sided "
                           f"file (its backs need the {needed} edge)"))
        edge = needed
    else:
        edge = stated
        if stated != needed:
            out.append(Finding("duplex-edge", "error", name, f"the kit README says flip on the {stated} edge; the "
                               f"backs are laid out for the {needed} edge"))
    by_number = {p.number: p for p in pages}
    for back in backs:
        front = by_number.get(back.number - 1)
        if front is None or front.side != "front":
            out.append(Finding("duplex-pairs", "error", f"{name} page {back.number}",
                               "a back page that does not follow its front"))
            continue
        wanted = [(n + "-back", _flipped(b, front, edge)) for n, b in front.pieces]
        unmatched = list(back.pieces)
        wrong = 0
        for name_wanted, box in wanted:
            hit = next((k for k, (n, b) in enumerate(unmatched) if n == name_wanted
                        and max(abs(u - v) for u, v in zip(b, box, strict=True)) < 0.2), None)
            if hit is None:
                wrong += 1
            else:
                unmatched.pop(hit)
        if wrong:
            out.append(Finding("duplex-backs", "error", f"{name} page {back.number}",
                               f"{wrong} of {len(wanted)} parts get no back or the wrong back when flipped on "
                               f"the {edge} edge"))
    return out


def fill_findings(name: str, pages: Sequence[SheetPage], min_fill: float = MIN_FILL) -> list[Finding]:
    """Fronts (and single-sided sheets) whose parts cover less than ``min_fill`` of the printable area
    (the page less 2 x 12 mm each way for the edge, header, footer and marks), except each set's last sheet."""
    out = []
    sheets = [p for p in pages if p.side != "back" and p.pieces]
    for k, p in enumerate(sheets):
        if k + 1 == len(sheets) or sheets[k + 1].part_set != p.part_set:
            continue  # the last sheet of its set may be part-empty
        fill = sheet_fill(p)
        if fill < min_fill:
            out.append(Finding("sheet-fill", "warning", f"{name} page {p.number}",
                               f"parts cover {fill:.0%} of the sheet ({p.part_set}); at least {min_fill:.0%} expected"))
    return out


def sheet_fill(page: SheetPage) -> float:
    area = (page.width_mm - 24.0) * (page.height_mm - 24.0)
    used = sum((b[2] - b[0]) * (b[3] - b[1]) for _n, b in page.pieces)
    return used / area if area > 0 else 0.0


# ------------------------------------------------------------------------------------------ fonts, sizes, edges


def font_findings(name: str, pdf: pikepdf.Pdf) -> list[Finding]:
    """Every embedded subset under a tag no other subset in the file uses."""
    programs: dict[str, set[bytes]] = defaultdict(set)
    for obj in pdf.objects:
        if not (isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == pikepdf.Name.Font
                and "/BaseFont" in obj):
            continue
        base = str(obj.BaseFont)[1:]
        if "+" not in base:
            continue
        descriptor = obj.get("/FontDescriptor")
        if descriptor is None and "/DescendantFonts" in obj:
            descriptor = obj.DescendantFonts[0].get("/FontDescriptor")
        data = b""
        for key in ("/FontFile2", "/FontFile", "/FontFile3"):
            if descriptor is not None and key in descriptor:
                data = descriptor[key].read_bytes()
        programs[base.split("+")[0]].add(hashlib.sha256(base.split("+", 1)[1].encode() + data).digest())
    shared = sorted(tag for tag, p in programs.items() if len(p) > 1)
    if shared:
        return [Finding("font-subset-tags", "error", name, f"{sum(len(programs[t]) for t in shared)} different font "
                        f"subsets share the tag(s) {', '.join(t + '+' for t in shared)}")]
    return []


def page_box_findings(name: str, pdf: pikepdf.Pdf) -> list[Finding]:
    missing = [n for n, page in enumerate(pdf.pages, start=1)
               if "/TrimBox" not in page.obj or "/BleedBox" not in page.obj]
    if missing:
        return [Finding("page-boxes", "error", name, f"{len(missing)} pages without a TrimBox or BleedBox "
                        f"(first: page {missing[0]})")]
    return []


def mark_findings(name: str, data: bytes, pdf: pikepdf.Pdf) -> list[Finding]:
    """Text under 6 pt, lines under 0.25 pt, and anything outside the page's BleedBox within 5 mm of the paper
    edge (where home printers print nothing)."""
    out: list[Finding] = []
    found = marks(data)
    boxes = {}
    for number, page in enumerate(pdf.pages, start=1):
        media = [float(v) for v in page.obj.MediaBox]
        trim = [float(v) for v in page.obj.get("/TrimBox", page.obj.MediaBox)]
        bleed = [float(v) for v in page.obj.get("/BleedBox", page.obj.MediaBox)]
        if all(abs(a - b) < 0.5 for a, b in zip(media, trim, strict=True)):
            bleed = [media[0] + 1e9, media[1] + 1e9, media[0] - 1e9, media[1] - 1e9]  # a sheet printed to the paper's
            # edge and not trimmed (a leaflet): every mark on it keeps clear of the edge
        boxes[number] = (media, bleed)
    small = [m for m in found if m.kind == "text" and m.size_pt < MIN_TEXT_PT - 0.005]
    if small:
        m = min(small, key=lambda m: m.size_pt)
        out.append(Finding("text-size", "error", f"{name} page {m.page}", f"{len(small)} text runs under "
                           f"{MIN_TEXT_PT:g} pt; smallest {m.size_pt:.2f} pt: {m.text[:40].decode('latin-1')!r}"))
    thin = [m for m in found if m.kind == "stroke" and m.size_pt < MIN_LINE_PT - 0.001]
    if thin:
        m = min(thin, key=lambda m: m.size_pt)
        out.append(Finding("line-width", "error", f"{name} page {m.page}", f"{len(thin)} lines under "
                           f"{MIN_LINE_PT:g} pt; thinnest {m.size_pt:.3f} pt"))
    near = []
    for m in found:
        if m.bounds is None:
            continue
        (mx0, my0, mx1, my1), (bx0, by0, bx1, by1) = boxes[m.page]
        x0, y0, x1, y1 = m.bounds
        if m.kind == "text":
            y1 = y1 + 0.7 * m.size_pt  # the cap height above the baseline
        slack = TOLERANCE_MM / MM_PER_PT
        if bx0 - slack <= x0 and x1 <= bx1 + slack and by0 - slack <= y0 and y1 <= by1 + slack:
            continue  # art inside the bleed: the print shop trims it
        gap_mm = min(x0 - mx0, y0 - my0, mx1 - x1, my1 - y1) * MM_PER_PT
        if gap_mm < EDGE_CLEAR_MM - TOLERANCE_MM:
            near.append((gap_mm, m))
    if near:
        gap, m = min(near, key=lambda g: g[0])
        what = m.text[:30].decode("latin-1") if m.kind == "text" else "a line"
        out.append(Finding("edge-clearance", "error", f"{name} page {m.page}", f"{len(near)} marks closer than "
                           f"{EDGE_CLEAR_MM:g} mm to the paper edge; closest {gap:.1f} mm ({what!r})"))
    return out


def pdf_findings(name: str, data: bytes, readme_edges: Mapping[str, str] | None = None) -> list[Finding]:
    """Every check of one PDF; ``readme_edges``: the flip edges its kit README states (``stated_edges``)."""
    with pikepdf.open(io.BytesIO(data)) as pdf:
        pages = sheet_pages(pdf)
        out = [*font_findings(name, pdf), *page_box_findings(name, pdf), *mark_findings(name, data, pdf)]
    if readme_edges is not None:
        out += duplex_findings(name, pages, readme_edges.get(name, readme_edges.get(Path(name).name)))
    elif pages:  # a set of parts with no kit README: the backs checked against the edge their pages need
        out += duplex_findings(name, pages, flip_edge(pages[0].width_mm, pages[0].height_mm))
    out += fill_findings(name, pages)
    return out


# ------------------------------------------------------------------------------------------ cut files

_SVG_SIZE = re.compile(rb'<svg[^>]*\swidth="([\d.]+)mm"[^>]*\sheight="([\d.]+)mm"', re.S)
_CUT_LAYER = re.compile(rb'<g id="cut"[^>]*>(.*?)</g>\s*(?=<g id=|</svg>)', re.S)
_PATH_D = re.compile(rb'<path[^>]*\sd="([^"]*)"')
_SHEET_SVG = re.compile(r"^(?P<stem>.+)-page-(?P<page>\d+)\.svg$")


def svg_size_mm(data: bytes) -> tuple[float, float] | None:
    m = _SVG_SIZE.search(data)
    return None if m is None else (float(m.group(1)), float(m.group(2)))


def cut_file_findings(name: str, data: bytes, sheet_sizes: Iterable[tuple[float, float]]) -> list[Finding]:
    """A cut file for cutting machines is one sheet: its size one of ``sheet_sizes`` (either way round)."""
    size = svg_size_mm(data)
    if size is None:
        return [Finding("cut-file-size", "error", name, "an SVG without a width and height in mm")]
    fits = any(max(abs(size[0] - w), abs(size[1] - h)) < 0.5 or max(abs(size[0] - h), abs(size[1] - w)) < 0.5
               for w, h in sheet_sizes)
    if not fits:
        return [Finding("cut-file-size", "error", name, f"{size[0]:.1f} x {size[1]:.1f} mm: not the size of a "
                        "printed sheet, so a cutting machine cannot register it")]
    return []


def cut_outlines(data: bytes) -> list[bytes]:
    """The path data of every outline on an SVG's "cut" layer."""
    layer = _CUT_LAYER.search(data)
    return [] if layer is None else _PATH_D.findall(layer.group(1))


def outline_findings(name: str, data: bytes, pieces: int) -> list[Finding]:
    """A sheet's cut file: one closed outline (a single ring, ending in Z) per part on its printed sheet."""
    outlines = cut_outlines(data)
    out = []
    open_or_many = [d for d in outlines if not d.rstrip().endswith(b"Z") or d.count(b"M") != 1]
    if open_or_many:
        out.append(Finding("cut-outlines", "error", name, f"{len(open_or_many)} cut paths are open or hold more "
                           "than one outline"))
    if len(outlines) != pieces:
        out.append(Finding("cut-outlines", "error", name, f"{len(outlines)} cut outlines for the {pieces} parts on "
                           "its sheet"))
    return out


# ------------------------------------------------------------------------------------------ a kit


def kit_files(folder: Path) -> dict[str, bytes]:
    """The files of a built kit folder (PDF, SVG) by their path in it, and each kit zip's README as
    ``<zip>/README.txt``."""
    out: dict[str, bytes] = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if rel.startswith(("preview/", "report/")) or not path.is_file():
            continue
        if path.suffix in (".pdf", ".svg"):
            out[rel] = path.read_bytes()
        elif path.suffix == ".zip":
            with zipfile.ZipFile(path) as zf:
                for member in zf.namelist():
                    if member.endswith(("README.txt", "README.md")):
                        out[f"{rel}/{member}"] = zf.read(member)
    return out


def kit_findings(files: Mapping[str, bytes], tr: Translator | None = None) -> list[Finding]:
    """Every print check over a kit's files (``kit_files``): each PDF once, its duplex pairs against every kit
    README that names it (written in ``tr``'s words), its cut files against its sheet sizes."""
    out: list[Finding] = []
    readmes = {k: v.decode("utf-8", "replace") for k, v in files.items() if k.endswith(("README.txt", "README.md"))}
    edges: dict[str, str] = {}
    for text in readmes.values():
        edges.update(stated_edges(text, tr))
    sizes: set[tuple[float, float]] = set()
    for name, data in sorted(files.items()):
        if name.endswith(".pdf"):
            out += pdf_findings(name, data, edges if readmes else None)
            with pikepdf.open(io.BytesIO(data)) as pdf:
                for page in pdf.pages:
                    for box in (page.obj.MediaBox, page.obj.get("/TrimBox", page.obj.MediaBox)):
                        x0, y0, x1, y1 = (float(v) for v in box)
                        sizes.add((round(abs(x1 - x0) * MM_PER_PT, 1), round(abs(y1 - y0) * MM_PER_PT, 1)))
    for name, data in sorted(files.items()):
        if name.endswith(".svg") and b'id="cut"' in data:
            out += cut_file_findings(name, data, sizes)
            sheet = _SHEET_SVG.match(name)
            pdf_name = f"{sheet.group('stem').rsplit('-', 1)[0]}.pdf" if sheet else ""
            if sheet and pdf_name not in files:
                pdf_name = f"{sheet.group('stem')}.pdf"
            if sheet and pdf_name in files:
                with pikepdf.open(io.BytesIO(files[pdf_name])) as pdf:
                    pages = sheet_pages(pdf)
                number = int(sheet.group("page"))
                if 1 <= number <= len(pages):  # backs on the same sheet (gutter folds) are cut with their fronts
                    fronts = [n for n, _box in pages[number - 1].pieces if not n.endswith("-back")]
                    out += outline_findings(name, data, len(fronts))
    return out
