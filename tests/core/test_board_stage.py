"""The one board stage every game with a printed board names (``boardgen.kit.stages:board_stage`` and
``sections_stage``): it writes the board files from the plug-in's declaration (``GamePlugin.board_print``),
with one preview rule for every game, the declared data files beside them, and nothing for a game or template
without a printed board."""

from __future__ import annotations

import io
from types import SimpleNamespace
from typing import Any

import pikepdf
import pytest
from PIL import Image

from boardgen.kit.board import (
    PREVIEW_DPI,
    SECTIONS_PREVIEW_DPI,
    BoardData,
    BoardDeclaration,
    GridBoard,
)
from boardgen.kit.stages import board_stage, sections_stage
from boardgen.layout.spaces import SpaceStyle, render, square_grid
from boardgen.plugin import BuildContext, GamePlugin
from boardgen.render.imposition import COMPACT_STYLE

WIDTH_MM, HEIGHT_MM, SQUARE_MM = 320.0, 200.0, 40.0


class _Declared(GamePlugin):
    """A plug-in that declares a small checkered board and one data file."""

    name = "board-stage-test"

    def board_print(self, ctx: BuildContext) -> BoardDeclaration:
        grid = square_grid(8, 5, SQUARE_MM, kinds=lambda c, r: "dark" if (c + r) % 2 else "light")
        scene = render(grid, {"dark": SpaceStyle(fill="#b7c9a8"), "light": SpaceStyle(fill="#f4f1e8")})
        keep = tuple(s.bounds_mm for s in grid.spaces)
        board = GridBoard("Test Board", WIDTH_MM, HEIGHT_MM, scene, keep_whole=keep)
        data = BoardData("squares.json", lambda: b"[]\n", "squares")
        return BoardDeclaration(board, about="40 squares", data=(data,))


def _ctx(plugin: GamePlugin, lines: list[str] | None = None) -> BuildContext:
    config = SimpleNamespace(source="<test>", game=plugin.name, title="Test Board")
    return BuildContext(config, plugin, progress=(lines.append if lines is not None else lambda m: None))


@pytest.fixture(scope="module")
def made() -> dict[str, Any]:
    lines: list[str] = []
    ctx = _ctx(_Declared(), lines)
    board = board_stage(ctx)
    sections = sections_stage(ctx)
    return {"board": {a.path: a for a in board}, "sections": {a.path: a for a in sections}, "lines": lines}


def test_the_board_stage_writes_the_posters_the_preview_and_the_declared_data(made: dict[str, Any]) -> None:
    board = made["board"]
    assert list(board) == ["board-poster.pdf", "board-poster-rgb.pdf", "preview/board.png", "squares.json"]
    assert board["squares.json"].data == b"[]\n"
    pdf = pikepdf.open(io.BytesIO(board["board-poster.pdf"].data))
    assert "/OutputIntents" in pdf.Root and len(pdf.pages) == 1
    # the one preview rule: the poster's page (trim and bleed) at PREVIEW_DPI
    bleed = COMPACT_STYLE.bleed_mm
    with Image.open(io.BytesIO(board["preview/board.png"].data)) as png:
        assert png.size == (round((WIDTH_MM + 2 * bleed) / 25.4 * PREVIEW_DPI),
                            round((HEIGHT_MM + 2 * bleed) / 25.4 * PREVIEW_DPI))
    assert made["lines"][0] == "board: 320 x 200 mm, 40 squares"


def test_the_sections_stage_writes_the_sheets_the_cut_files_and_the_pulled_apart_preview(made: dict[str, Any]) -> None:
    sections = made["sections"]
    sheets = pikepdf.open(io.BytesIO(sections["board-sections-a4.pdf"].data))
    n = len(sheets.pages)
    assert n >= 2 and sections["board-sections-letter.pdf"].pages == n
    assert sorted(p for p in sections if p.startswith("cut/")) == sorted(
        f"cut/board-section-{i}-{paper}.svg" for i in range(1, n + 1) for paper in ("a4", "letter"))
    assert {"board-cut.svg", "preview/sections.png"} <= set(sections)
    with Image.open(io.BytesIO(sections["preview/sections.png"].data)) as png:
        assert png.size[0] > WIDTH_MM / 25.4 * SECTIONS_PREVIEW_DPI  # the pieces drawn apart: wider than the board
    assert made["lines"][1] == f"board: {n} jigsaw sections on A4, Letter"


def test_a_game_without_a_printed_board_gets_no_board_files() -> None:
    class Plain(GamePlugin):
        name = "no-board-test"

    ctx = _ctx(Plain())
    assert board_stage(ctx) == [] and sections_stage(ctx) == []
