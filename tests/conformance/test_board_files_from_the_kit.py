"""Every game's board files come from the shared board machinery: no installed game's package makes an
artifact named like a board file (the posters, the section sheets, the board-sized cut file and the per-section
cut files) or calls the functions that write them; ``boardgen.kit.board`` writes them from what the game declares
(the shared printer, ``render.board_print``, makes a rectangular board's sheets, ``geomap.jigsaw`` a map's), in
the two board stages every game with a printed board names (``boardgen.kit.stages:board_stage`` and
``sections_stage``), and a game declares its board through one plug-in hook (``GamePlugin.board_print``)."""

from __future__ import annotations

import ast
import importlib
import sys
from pathlib import Path

import pytest

from boardgen.build import BuildContext
from boardgen.io import Artifact
from boardgen.plugin import GamePlugin, installed_games

BOARD_NAMES = ("board-poster", "board-sections-", "board-cut.svg", "cut/board-section-")
"""The kit's board file names (``boardgen.kit.shape``), as the start of an artifact's path."""
SHARED = ("boardgen.kit.", "boardgen.render.board_print")
"""The modules that may make them."""
BOARD_WRITERS = frozenset({"print_board", "print_sections", "board_poster_files", "board_section_files",
                           "map_section_files", "poster_files", "section_cut_svgs"})
"""The functions that write board files: only the shared board stages call them."""
SHARED_STAGES = ("boardgen.kit.stages:board_stage", "boardgen.kit.stages:sections_stage")


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


def _board_writer_calls(path: Path) -> list[str]:
    """Calls in ``path`` of a function that writes board files, as "file:line name"."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Call):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if called in BOARD_WRITERS:
                found.append(f"{path.name}:{node.lineno} {called}")
    return found


@pytest.mark.parametrize("game", sorted(installed_games()))
def test_every_game_with_a_printed_board_names_the_shared_board_stages(game: str) -> None:
    """A game that declares a printed board (overrides ``board_print``) lists both shared board stages, and a game
    that lists them declares its board; no other stage of a game is named like a board stage."""
    plugin = installed_games()[game]
    declares = type(plugin).board_print is not GamePlugin.board_print
    specs = {name: spec for name, spec, *_ in plugin.stages}
    named = [spec for spec in specs.values() if spec in SHARED_STAGES]
    assert sorted(named) == (sorted(SHARED_STAGES) if declares else []), (game, specs)
    assert all(specs.get(name, spec) == spec for name, spec in zip(("board", "sections"), SHARED_STAGES,
                                                                   strict=True)), specs


@pytest.mark.parametrize("game", sorted(installed_games()))
def test_no_game_module_calls_the_board_file_writers(game: str) -> None:
    made = [hit for f in _game_files(game) for hit in _board_writer_calls(f)]
    assert made == [], f"{game} writes board files in a stage of its own (name the shared board stages): {made}"


def test_the_scan_finds_a_board_writer_called_by_hand(tmp_path: Path) -> None:
    module = tmp_path / "kit.py"
    module.write_text('from boardgen.kit import board\n'
                      'def board_stage(ctx):\n'
                      '    return board.board_poster_files(ctx.board) + print_sections(ctx.board)\n')
    assert sorted(hit.split(" ", 1)[1] for hit in _board_writer_calls(module)) == [
        "board_poster_files", "print_sections"]


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


@pytest.mark.parametrize("game", ["global-wellbeing", pytest.param("resilience-earth", marks=pytest.mark.slow)])
def test_the_board_files_are_made_by_the_shared_board_machinery(
        game: str, default_ctx: BuildContext, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game's board files traced as its stages run (the flagship's map; Resilience Earth's grid board with its
    data file): every board file is made in ``boardgen.kit`` (or the shared printer), none in the game's
    package."""
    from boardgen.template import load

    plugin = installed_games()[game]
    ctx = default_ctx if game == "global-wellbeing" else BuildContext(load(plugin.default_template())[1], plugin)
    made_by: dict[str, str] = {}
    original = Artifact.__init__

    def tracing(self: Artifact, *args: object, **kwargs: object) -> None:
        original(self, *args, **kwargs)  # type: ignore[arg-type]
        made_by[self.path] = sys._getframe(1).f_globals["__name__"]

    monkeypatch.setattr(Artifact, "__init__", tracing)
    stages = {name: spec for name, spec, *_ in plugin.stages}
    for name in ("board", "sections"):
        module, _, function = stages[name].partition(":")
        getattr(importlib.import_module(module), function)(ctx)
    board = {path: module for path, module in made_by.items() if path.startswith(BOARD_NAMES)}
    assert {"board-poster.pdf", "board-poster-rgb.pdf", "board-sections-a4.pdf", "board-sections-letter.pdf",
            "board-cut.svg", "cut/board-section-1-a4.svg", "cut/board-section-2-letter.svg"} <= set(board)
    assert {path: module for path, module in board.items() if not module.startswith(SHARED)} == {}
