"""Shared fixtures: the real default board is built once per test session."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from boardgen.build import BuildContext
from boardgen.games.global_wellbeing.schema import Config, load_template
from boardgen.geomap.model import Board
from boardgen.plugin import installed_games


@pytest.fixture(scope="session")
def default_config() -> Config:
    return load_template()


@pytest.fixture(scope="session")
def default_board(default_config: Config) -> Board:
    from boardgen.geomap.build import build_board

    return build_board(default_config)


@pytest.fixture(scope="session")
def default_ctx(default_config: Config, default_board: Board) -> BuildContext:
    """A build context for the default template whose board is the session's ``default_board``."""
    context = BuildContext(default_config)
    context.computed["board"] = default_board
    return context


@pytest.fixture(scope="session")
def board_outputs(default_ctx: BuildContext) -> dict[str, bytes]:
    """The flagship's board and sections stages' files for the default template (built once per session)."""
    from boardgen.kit.stages import board_stage, sections_stage

    return {a.path: a.data for stage in (board_stage, sections_stage) for a in stage(default_ctx)}


@pytest.fixture(scope="session")
def board_art(default_ctx: BuildContext, board_outputs: dict[str, bytes]):
    from boardgen.games.global_wellbeing.kit import build_board_art

    return build_board_art(default_ctx)


@pytest.fixture(scope="session")
def components_outputs(default_ctx: BuildContext) -> dict[str, bytes]:
    """The flagship's components stage files (parts, leaflet, cut files, kits) for the default template."""
    from boardgen.games.global_wellbeing.kit import kit_files

    return {a.path: a.data for a in kit_files(default_ctx)}


TINY_DIR = Path(__file__).resolve().parent / "tinygame"


@pytest.fixture()
def tiny_installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Tiny Stones (tests/tinygame) installed the way a designer's package would be, a dist-info with an entry
    point; yields its template."""
    dist = tmp_path / "site" / "tiny_stones-0.1.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: tiny-stones\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[boardgen.games]\ntiny-stones = tiny_stones:plugin\n")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.syspath_prepend(str(TINY_DIR))
    installed_games.cache_clear()
    yield TINY_DIR / "tiny-stones.yaml"
    installed_games.cache_clear()
    sys.modules.pop("tiny_stones", None)
