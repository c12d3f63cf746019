#!/usr/bin/env python
"""Draw the picture grid of docs/map-tweaks.md: the Global Wellbeing board with one map key changed at a time.

    PYTHONPATH=. python scripts/map_tweak_previews.py            # rewrite docs/images/map-tweaks/*.png and the page
    PYTHONPATH=. python scripts/map_tweak_previews.py --only robinson,flat

Each tweak is the bundled template with a few keys merged over it (``config.template_with``), laid out the way a
build lays it out (the legend's fallbacks, ``sections: auto``), and drawn as the exploded view of its jigsaw
pieces, downscaled to a small palette PNG (well under 150 KB). The page's table of facts (cells, hex size, grid,
paper, where the legend went) is written between the ``<!-- map-tweaks -->`` markers of docs/map-tweaks.md.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
IMAGES = REPO / "docs" / "images" / "map-tweaks"
PAGE = REPO / "docs" / "map-tweaks.md"
MAX_PNG_BYTES = 150_000
WIDTH_PX = 520

TWEAKS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("default", "the template as shipped", {}),
    ("cells-150", "hexes.target_cells: 150", {"hexes": {"target_cells": 150}}),
    ("cells-600", "hexes.target_cells: 600", {"hexes": {"target_cells": 600}}),
    ("flat", "hexes.orientation: flat", {"hexes": {"orientation": "flat"}}),
    ("robinson", "map.projection: +proj=robin", {"map": {"projection": "+proj=robin"}}),
    ("equal-earth", "map.projection: +proj=eqearth", {"map": {"projection": "+proj=eqearth"}}),
    ("pacific", "map.projection: +proj=wintri +lon_0=150", {"map": {"projection": "+proj=wintri +lon_0=150"}}),
    ("antarctica", "map.antarctica: true, frame_latitudes: [-90, 90]",
     {"map": {"antarctica": True, "frame_latitudes": [-90, 90]}}),
    ("board-50x35", "board: 50 x 35 cm", {"board": {"width": "50cm", "height": "35cm"}}),
    ("board-A1", "board: A1 (841 x 594 mm)", {"board": {"width": "841mm", "height": "594mm"}}),
)


def preview(changes: dict[str, Any]) -> tuple[bytes, dict[str, str]]:
    """(small PNG of the exploded pieces, facts for the table)."""
    from PIL import Image

    from boardgen.games.global_wellbeing.board_art import make_art, simplified_coast
    from boardgen.games.global_wellbeing.board_layout import legend_for, panelled_board, section_page_sizes_mm
    from boardgen.games.global_wellbeing.kit import art_board
    from boardgen.games.global_wellbeing.schema import template_with
    from boardgen.geomap.jigsaw import piece_marks, section_scenes
    from boardgen.layout.sections import cut_sections
    from boardgen.render.board_print import exploded_page
    from boardgen.render.cairo_backend import render_png

    config = template_with(changes)
    board = panelled_board(config)
    layout = cut_sections(board, section_page_sizes_mm())
    legend = legend_for(board, layout)
    art = make_art(board, layout, legend, simplified_coast(board))
    declared = art_board(art)
    marks = piece_marks(board, layout, art.coast_mm, [b.polygon for b in legend])
    page = exploded_page(declared.width_mm, declared.height_mm, layout, section_scenes(declared, marks))
    dpi = WIDTH_PX / (page.width_mm / 25.4)
    image = Image.open(io.BytesIO(render_png(page, dpi=dpi * 1.5))).convert("RGB")
    image = image.resize((WIDTH_PX, round(image.height * WIDTH_PX / image.width)), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    image.quantize(colors=96, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(
        out, "PNG", optimize=True)
    strip = board.config.board.panel_strip_mm
    first = layout.sections[0].outline_mm
    table = next(b for b in legend if b.name == "bio-productivity table")
    full_height = make_full_table_height(board, layout)
    if strip:
        where = f"panel strip {strip:g} mm"
    elif any(not first.contains(b.polygon) for b in legend):
        where = "table on section 1, title or key nearby"
    elif abs(table.height_mm - full_height) > 1e-6:
        where = "open sea, scaled down"
    else:
        where = "open sea, full size"
    page_w, page_h = layout.page_mm or (0.0, 0.0)
    facts = {"cells": str(len(board.cells)), "hex": f"{board.layout.size_mm:g} mm",
             "grid": f"{layout.columns} x {layout.rows}", "paper": "portrait" if page_h > page_w else "landscape",
             "legend": where}
    return out.getvalue(), facts


def make_full_table_height(board: Any, layout: Any) -> float:
    from boardgen.games.global_wellbeing.board_art import legend_specs

    return float(legend_specs(board, layout.sections[0].bounds_mm)[0].shapes_mm[0][1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="comma-separated tweak names (default: all)")
    args = parser.parse_args(argv)
    only = set(filter(None, args.only.split(",")))
    IMAGES.mkdir(parents=True, exist_ok=True)
    rows = []
    for name, caption, changes in TWEAKS:
        if only and name not in only:
            continue
        started = time.perf_counter()
        data, facts = preview(changes)
        if len(data) > MAX_PNG_BYTES:
            print(f"{name}: {len(data):,} bytes is over {MAX_PNG_BYTES:,}", file=sys.stderr)
            return 1
        (IMAGES / f"{name}.png").write_bytes(data)
        print(f"{name}: {len(data) / 1000:.0f} KB, {facts}, {time.perf_counter() - started:.1f} s")
        rows.append((name, caption, facts))
    if not only:
        table = ["| tweak | land cells | hex | sections (columns x rows) | paper | legend |",
                 "| --- | --- | --- | --- | --- | --- |"]
        table += [f"| `{caption}` | {f['cells']} | {f['hex']} | {f['grid']} | {f['paper']} | {f['legend']} |"
                  for _name, caption, f in rows]
        pictures = [f"![{caption}](images/map-tweaks/{name}.png)<br>`{caption}`: {f['cells']} cells, "
                    f"{f['grid']} sections, legend: {f['legend']}" for name, caption, f in rows]
        pairs = [pictures[i:i + 2] + [""] * (2 - len(pictures[i:i + 2])) for i in range(0, len(pictures), 2)]
        grid = "\n".join(["| | |", "| --- | --- |", *(f"| {a} | {b} |" for a, b in pairs)])
        text = PAGE.read_text(encoding="utf-8")
        block = "<!-- map-tweaks -->\n" + "\n".join(table) + "\n\n" + grid + "\n<!-- /map-tweaks -->"
        PAGE.write_text(re.sub(r"<!-- map-tweaks -->.*?<!-- /map-tweaks -->", lambda _: block, text, flags=re.S),
                        encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
