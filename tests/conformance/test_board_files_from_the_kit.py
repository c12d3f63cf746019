"""Every game's board files come from the shared board machinery: no installed game's package makes an
artifact named like a board file (the posters, the section sheets, the board-sized cut file and the per-section
cut files); ``boardgen.kit.board`` writes them from what the game declares (the shared printer,
``render.board_print``, makes a rectangular board's sheets, ``geomap.jigsaw`` a map's)."""

from __future__ import annotations

import ast
import importlib
import sys
from pathlib import Path

import pytest

from boardgen.build import BuildContext
from boardgen.io import Artifact
from boardgen.plugin import installed_games

BOARD_NAMES = ("board-poster", "board-sections-", "board-cut.svg", "cut/board-section-")
"""The kit's board file names (``boardgen.kit.shape``), as the start of an artifact's path."""
SHARED = ("boardgen.kit.", "boardgen.render.board_print")
"""The modules that may make them."""


def _game_files(name: str) -> list[Path]:
    """The game's own modules: its plug-in's package (every .py below it) or its single module file."""
    module = importlib.import_module(type(installed_games()[name]).__module__)
    path = Path(module.__file__ or "")
    return sorted(path.parent.rglob("*.py")) if path.name == "__init__.py" else [path]


def _literal_start(node: ast.expr) -> str | None:
    """The text an artifact path expression starts with, when it starts with literal text."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr) and node.values:
        return _literal_start(node.values[0])  # type: ignore[arg-type]
    return None


def _board_artifacts(path: Path) -> list[str]:
    """``Artifact(...)`` calls in ``path`` whose path is a board file name, as "file:line name"."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if called != "Artifact":
            continue
        args = [*node.args[:1], *(k.value for k in node.keywords if k.arg == "path")]
        for arg in args:
            start = _literal_start(arg)
            if start is not None and start.startswith(BOARD_NAMES):
                found.append(f"{path.name}:{node.lineno} {start}")
    return found


@pytest.mark.parametrize("game", sorted(installed_games()))
def test_no_game_package_names_a_board_file_itself(game: str) -> None:
    files = _game_files(game)
    assert files
    made = [hit for f in files for hit in _board_artifacts(f)]
    assert made == [], f"{game} writes board files itself (declare the board for boardgen.kit.board): {made}"


def test_the_scan_finds_a_board_file_made_by_hand(tmp_path: Path) -> None:
    module = tmp_path / "board.py"
    module.write_text('from boardgen.io import Artifact\n'
                      'def stage(slug):\n'
                      '    return [Artifact("board-poster.pdf", b""),\n'
                      '            io.Artifact(f"cut/board-section-1-{slug}.svg", b""),\n'
                      '            Artifact(path="board-cut.svg", data=b""), Artifact("preview/board.png", b"")]\n')
    assert [hit.split(" ", 1)[1] for hit in _board_artifacts(module)] == [
        "board-poster.pdf", "cut/board-section-1-", "board-cut.svg"]


def test_the_flagships_board_files_are_made_by_the_shared_board_machinery(
        default_ctx: BuildContext, monkeypatch: pytest.MonkeyPatch) -> None:
    """The flagship's map board (it once had a board stage of its own) traced as its stages run: every board
    file is made in ``boardgen.kit`` (or the shared printer), none in the game's package."""
    from boardgen.games.global_wellbeing import GlobalWellbeing

    made_by: dict[str, str] = {}
    original = Artifact.__init__

    def tracing(self: Artifact, *args: object, **kwargs: object) -> None:
        original(self, *args, **kwargs)  # type: ignore[arg-type]
        made_by[self.path] = sys._getframe(1).f_globals["__name__"]

    monkeypatch.setattr(Artifact, "__init__", tracing)
    stages = {name: spec for name, spec, *_ in GlobalWellbeing.stages}
    for name in ("board", "sections"):
        module, _, function = stages[name].partition(":")
        getattr(importlib.import_module(module), function)(default_ctx)
    board = {path: module for path, module in made_by.items() if path.startswith(BOARD_NAMES)}
    assert {"board-poster.pdf", "board-poster-rgb.pdf", "board-sections-a4.pdf", "board-sections-letter.pdf",
            "board-cut.svg", "cut/board-section-1-a4.svg", "cut/board-section-9-letter.svg"} <= set(board)
    assert {path: module for path, module in board.items() if not module.startswith(SHARED)} == {}
