"""The live preview's kit: a template built in memory by its game's own stages, every page they print kept as the
``Page`` (scene) it was drawn from, so each is drawn to SVG directly; the board's graph of spaces placed on its
poster; card rows found on the card sheets. Nothing is written to disk.

Stages that make no pages (``validate`` plays simulated games, ``kits`` zips files) are skipped: the preview
shows what would be printed, quickly. A page with no scene (the leaflet is typeset by reportlab) is drawn from
its PDF by poppler's ``pdftocairo -svg``, the one page kind that has no scene to draw.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boardgen.build import fewer_collections
from boardgen.errors import BoardgenError, blamed_on, one_line
from boardgen.io import Artifact
from boardgen.plugin import BuildContext, GamePlugin, load_stage
from boardgen.render.cairo_backend import Page, recording_pages, render_svg
from boardgen.render.scene import Group, Op, Text
from boardgen.template import load

SKIPPED_STAGES = frozenset({"validate", "kits"})
"""Stages that print no page: the preview does not wait for them."""

MAX_CARD_ROWS = 2000


def error_line(exc: BaseException) -> str:
    """The one line the CLI prints for ``exc`` (boardgen.cli.main)."""
    if isinstance(exc, BoardgenError):
        return f"boardgen: error: {one_line(str(exc))}"
    if isinstance(exc, OSError):
        where = f" ({exc.filename})" if getattr(exc, "filename", None) else ""
        return f"boardgen: error: {one_line(f'cannot write or read a file{where}: {exc.strerror or exc}')}"
    kind = f"{type(exc).__name__}: {exc}"
    return ("boardgen: error: " + one_line(f"unexpected error ({kind}); please report it with the template "
                                           "(BOARDGEN_DEBUG=1 shows the traceback)"))


@dataclass(frozen=True)
class PreviewPage:
    """One page of the kit: which document it belongs to, and how to draw it."""

    document: str  # the PDF's title, e.g. "My Game: components (A4)"
    number: int  # 1-based within the document
    width_mm: float
    height_mm: float
    page: Page | None  # None: drawn from ``pdf`` (a page with no scene)
    pdf: bytes = b""
    hotspots: tuple[dict[str, Any], ...] = ()  # card rows placed on the page: {"x","y","w","h","row"}


@dataclass
class Kit:
    """One successful build of the template, as the preview shows it."""

    template: Path
    game: str
    title: str
    pages: list[PreviewPage]
    board: dict[str, Any] | None  # {"page": index of the poster, "offset_mm": [x, y], "spaces": [...]}
    built_s: float
    generation: int
    _svg: dict[int, bytes] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def summary(self) -> dict[str, Any]:
        return {"template": self.template.name, "game": self.game, "title": self.title,
                "generation": self.generation, "built_s": round(self.built_s, 3), "board": self.board,
                "pages": [{"index": i, "document": p.document, "number": p.number, "width_mm": round(p.width_mm, 3),
                           "height_mm": round(p.height_mm, 3), "hotspots": list(p.hotspots)}
                          for i, p in enumerate(self.pages)]}

    def svg(self, index: int) -> bytes:
        """Page ``index`` as SVG (drawn on first request, then kept)."""
        with self._lock:
            cached = self._svg.get(index)
        if cached is not None:
            return cached
        page = self.pages[index]
        data = render_svg(page.page) if page.page is not None else pdf_page_svg(page.pdf, page.number)
        with self._lock:
            self._svg[index] = data
        return data


def pdf_page_svg(pdf: bytes, number: int) -> bytes:
    """One page of a PDF that has no scene behind it, as SVG (poppler's pdftocairo), or a placeholder."""
    tool = shutil.which("pdftocairo")
    if tool is None:
        return (b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 210 297"><text x="10" y="20" font-size="6">'
                b"install poppler-utils (pdftocairo) to see this page</text></svg>")
    with tempfile.TemporaryDirectory(prefix="boardgen-serve-") as folder:
        source = Path(folder) / "in.pdf"
        source.write_bytes(pdf)
        target = Path(folder) / "out.svg"
        subprocess.run([tool, "-svg", "-f", str(number), "-l", str(number), str(source), str(target)],
                       check=True, timeout=60, capture_output=True)
        return target.read_bytes()


def _pdf_pages(data: bytes) -> int:
    return max(1, len(re.findall(rb"/Type\s*/Page\b", data)))


def _run_stages(ctx: BuildContext) -> list[tuple[str, tuple[Page, ...]]]:
    """The game's page-making stages in this process and thread, with every ``render_pdf`` call recorded."""
    with recording_pages() as record:
        for name, spec, *_options in ctx.plugin.stages:
            if name in SKIPPED_STAGES:
                continue
            ctx.artifacts.extend(load_stage(spec)(ctx))
    return list(record)


def _wanted(title: str) -> bool:
    """Documents drawn only to be merged into others (the section sheets' pieces and board art, the leaflet's
    pictures) are left out:
    the page they end up on is shown."""
    from boardgen.render.board_print import ART_PDF_TITLE, PIECES_PDF_TITLE

    return title not in (PIECES_PDF_TITLE, ART_PDF_TITLE, "leaflet pictures") and bool(title)


def _texts(items: Sequence[Op]) -> Iterator[str]:
    for op in items:
        if isinstance(op, Text):
            yield op.text.strip()
        elif isinstance(op, Group):
            yield from _texts(op.items)


def card_rows(plugin: GamePlugin, config: Any) -> list[dict[str, str]]:
    """Rows of the template's CSV data files (cards), each with ``_file`` naming its file, read through the
    data-file reader every build uses (a file it refuses shows no rows here; the build says why)."""
    from boardgen.datafiles import read_csv
    from boardgen.errors import BoardgenError

    rows: list[dict[str, str]] = []
    try:
        files = plugin.data_files(config)
    except Exception:
        return rows
    for key, path in files.items():
        if Path(path).suffix.lower() != ".csv":
            continue
        try:
            _header, records = read_csv(Path(path), getattr(config, "source", ""), str(key))
        except BoardgenError:
            continue
        for _line, row in records:
            rows.append({"_file": Path(path).name, **row})
            if len(rows) >= MAX_CARD_ROWS:
                return rows
    return rows + template_rows(config, MAX_CARD_ROWS - len(rows))


def template_rows(config: Any, limit: int) -> list[dict[str, str]]:
    """Rows a template writes itself (a list of mappings with a name, such as a deck of event cards), each with
    ``_file`` naming the template and ``_key`` the list's dotted key."""
    dump = getattr(config, "model_dump", None)
    if dump is None:
        return []
    found: list[dict[str, str]] = []
    source = Path(str(getattr(config, "source", "template"))).name

    def walk(value: Any, key: str) -> None:
        if len(found) >= limit:
            return
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, f"{key}.{k}" if key else str(k))
        elif isinstance(value, list | tuple):
            for item in value:
                if isinstance(item, dict) and any(isinstance(item.get(n), str) for n in ("name", "title")):
                    if len(found) < limit:
                        found.append({"_file": source, "_key": key,
                                      **{str(k): ", ".join(map(str, v)) if isinstance(v, list | tuple) else str(v)
                                         for k, v in item.items()}})
                else:
                    walk(item, key)

    walk(dump(), "")
    return found


def _row_names(row: Mapping[str, str]) -> list[str]:
    keys = [k for k in row if k.lower() in ("name", "title", "card", "label")] or [k for k in row if k != "_file"][:2]
    return [row[k].strip() for k in keys if row.get(k, "").strip()]


def card_hotspots(page: Page, rows: Sequence[Mapping[str, str]]) -> tuple[dict[str, Any], ...]:
    """Where card rows sit on ``page``: every placed item (a top-level group moved onto the sheet) whose texts
    include a row's name; its rectangle in page mm and the row."""
    if not rows:
        return ()
    by_name: dict[str, Mapping[str, str]] = {}
    for each in rows:
        for name in _row_names(each):
            by_name.setdefault(name, each)
    out: list[dict[str, Any]] = []
    for op in page.scene.items:
        if not (isinstance(op, Group) and op.name.startswith("item:") and op.transform is not None):
            continue
        texts = set(_texts(op.items))
        row: Mapping[str, str] | None = next((by_name[t] for t in sorted(texts) if t in by_name), None)
        if row is None:
            continue
        xs: list[float] = []
        ys: list[float] = []
        for cmd in op.clip or ():
            if cmd[0] in ("M", "L"):
                xs.append(cmd[1])
                ys.append(cmd[2])
        if not xs:
            continue
        t = op.transform
        out.append({"x": round(min(xs) + t.e, 2), "y": round(min(ys) + t.f, 2), "w": round(max(xs) - min(xs), 2),
                    "h": round(max(ys) - min(ys), 2), "row": dict(row)})
    return tuple(out)


def board_summary(ctx: BuildContext, pages: Sequence[PreviewPage]) -> dict[str, Any] | None:
    """The board's spaces placed on its poster page: the page whose document is "<title>: board" in the edition's
    language (its trim box is the board's origin), or None when the game has no graph of spaces."""
    try:
        graph = ctx.plugin.board_graph(ctx)
    except Exception:
        graph = None
    from boardgen.i18n import translator

    title = str(getattr(ctx.config, "title", ""))
    posters = {f"{title}: board", translator(ctx.config, ctx.plugin).gettext("{title}: board").format(title=title)}
    poster = next((i for i, p in enumerate(pages) if p.document in posters and p.page is not None), None)
    out: dict[str, Any] = {"page": poster, "offset_mm": [0.0, 0.0], "spaces": []}
    if poster is not None:
        trim = pages[poster].page.trim_box_mm  # type: ignore[union-attr]
        if trim is not None:
            out["offset_mm"] = [round(trim.x, 3), round(trim.y, 3)]
    if graph is None:
        return out if poster is not None else None
    out["spaces"] = graph.as_dict()["spaces"]
    out["width_mm"], out["height_mm"] = graph.width_mm, graph.height_mm
    return out


def build_kit(template: Path, generation: int) -> tuple[Kit, BuildContext]:
    """Build ``template`` in memory (raises what the CLI would report)."""
    started = time.perf_counter()
    plugin, config = load(template)
    ctx = BuildContext(config, None)
    with blamed_on(config.source), fewer_collections():
        recorded = _run_stages(ctx)
    rows = card_rows(plugin, config)
    pages: list[PreviewPage] = []
    shown: set[str] = set()
    for title, doc_pages in recorded:
        if not _wanted(title) or title in shown:  # the first record of a title: sheets as printed (note_pages)
            continue
        shown.add(title)
        for number, page in enumerate(doc_pages, start=1):
            pages.append(PreviewPage(title, number, page.width_mm, page.height_mm, page,
                                     hotspots=card_hotspots(page, rows)))
    for artifact in _sceneless_pdfs(ctx.artifacts):
        for number in range(1, _pdf_pages(artifact.data) + 1):
            pages.append(PreviewPage(f"{config.title}: {artifact.path}", number, 210.0, 297.0, None, artifact.data))
    board = board_summary(ctx, pages)
    kit = Kit(Path(template), plugin.name, str(getattr(config, "title", plugin.title)), pages, board,
              time.perf_counter() - started, generation)
    return kit, ctx


def _sceneless_pdfs(artifacts: Sequence[Artifact]) -> Iterator[Artifact]:
    """The leaflet PDFs (typeset without scenes), one paper each (the first one written)."""
    seen = False
    for a in artifacts:
        if a.path.endswith(".pdf") and "leaflet" in a.path and "/" not in a.path and not seen:
            seen = True
            yield a
