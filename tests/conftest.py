"""Shared fixtures: the real default board, and each installed game's default kit, are built once per test session
(once for all pytest-xdist workers: the first worker to need a kit builds it under a file lock, the others read
its folder)."""

from __future__ import annotations

import fcntl
import sys
from collections.abc import Callable, Iterator
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


def _shared_root(factory: pytest.TempPathFactory) -> Path:
    """A folder every xdist worker of this run sees (the run's base temp folder; one process: its own)."""
    base = factory.getbasetemp()
    return base.parent if base.name.startswith("popen-gw") else base


@pytest.fixture(scope="session")
def default_kit(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """``default_kit(game)``: the folder of the game's default template built with every stage but the simulated
    validation, once per session for all workers. Read it; a test that changes a kit copies it first."""
    from boardgen.build import build
    from boardgen.template import load

    root = _shared_root(tmp_path_factory) / "default-kits"
    root.mkdir(exist_ok=True)
    made: dict[str, Path] = {}

    def kit(game: str) -> Path:
        if game not in made:
            done = root / f"{game}.built"
            with (root / f"{game}.lock").open("w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                if not done.exists():
                    plugin = installed_games()[game]
                    _plugin, config = load(plugin.default_template())
                    out, _ctx = build(config, root / game, only={s[0] for s in plugin.stages if s[0] != "validate"})
                    done.write_text(str(out))
                made[game] = Path(done.read_text())
        return made[game]

    return kit
