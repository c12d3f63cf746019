"""The build's parallel stages on worker processes (``boardgen.play.pool.run_tasks``): the kit does not depend on
how many processes made it, and a stage that fails in a worker fails the build the way it would in one process
(a refusal: one line, exit code 2, no kit; a bug: a RuntimeError carrying the worker's traceback)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from boardgen.build import build, run_stages
from boardgen.io import MANIFEST
from boardgen.plugin import BuildContext
from boardgen.template import load

# The worker takes stages from the front of the list and this process from the end: the refusing stage comes
# first, and this process's own stage waits until the refusal has happened, so the worker is the one refusing.
WORKER_STAGES = (("refuse", "tiny_stones:refusing_stage", "parallel"),
                 ("board", "tiny_stones:board_stage", "parallel"),
                 ("validate", "boardgen.play.runner:validate_stage", "parallel"),
                 ("wait", "tiny_stones:waiting_stage", "parallel"))
REFUSED_MARKER = "BOARDGEN_TEST_REFUSED_MARKER"


def _refusing_stage(ctx: BuildContext) -> list:  # type: ignore[type-arg]
    from boardgen.errors import LayoutError

    where = "this process" if os.getpid() == ctx.computed["test-pid"] else "a worker"
    Path(os.environ[REFUSED_MARKER]).touch()
    raise LayoutError(f"tiny.yaml: rules.stones: no room for the pile (refused in {where})")


def _waiting_stage(ctx: BuildContext) -> list:  # type: ignore[type-arg]
    marker = Path(os.environ[REFUSED_MARKER])
    deadline = time.monotonic() + 60.0
    while not marker.exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    return []


def _crashing_stage(ctx: BuildContext) -> list:  # type: ignore[type-arg]
    return [{}["no such key"]]


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _tiny_with_stages(monkeypatch: pytest.MonkeyPatch, stages: tuple[tuple[str, ...], ...]) -> None:
    import tiny_stones

    monkeypatch.setattr(tiny_stones, "refusing_stage", _refusing_stage, raising=False)
    monkeypatch.setattr(tiny_stones, "crashing_stage", _crashing_stage, raising=False)
    monkeypatch.setattr(tiny_stones, "waiting_stage", _waiting_stage, raising=False)
    monkeypatch.setattr(tiny_stones.TinyStones, "stages", stages)


def test_a_refusal_in_a_worker_exits_2_with_one_line_and_writes_no_kit(
        tiny_installed: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from boardgen.cli import main
    from boardgen.play.pool import fork_available

    if not fork_available():
        pytest.skip("no forked workers on this platform: the stages run in this process")
    _tiny_with_stages(monkeypatch, WORKER_STAGES)
    monkeypatch.setenv(REFUSED_MARKER, str(tmp_path / "refused"))
    monkeypatch.setattr(BuildContext, "__post_init__", _remember_pid(BuildContext.__post_init__))
    out = tmp_path / "out"
    with pytest.raises(SystemExit) as exit_info:
        main(["build", "-t", str(tiny_installed), "-o", str(out), "-q", "--jobs", "2"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert "rules.stones: no room for the pile (refused in a worker)" in err[0]
    assert not out.exists() or not any(out.rglob(MANIFEST))


def _remember_pid(post_init):  # type: ignore[no-untyped-def]
    def remembering(self: BuildContext) -> None:
        post_init(self)
        self.computed["test-pid"] = os.getpid()

    return remembering


def test_a_crash_in_a_worker_is_a_runtime_error_with_its_traceback(
        tiny_installed: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _tiny_with_stages(monkeypatch, (("board", "tiny_stones:board_stage", "parallel"),
                                    ("crash", "tiny_stones:crashing_stage", "parallel")))
    plugin, config = load(tiny_installed)
    with pytest.raises(RuntimeError, match=r"(?s)a stage failed in its process.*KeyError: 'no such key'"):
        run_stages(BuildContext(config, plugin), jobs=2)


def test_any_jobs_and_serial_stages_give_the_same_kit_tiny_stones(
        tiny_installed: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tiny Stones with three parallel stages (one keeping a value for the stage after the group)."""
    import tiny_stones

    monkeypatch.setattr(tiny_stones, "stamp_stage", _stamp_stage, raising=False)
    monkeypatch.setattr(tiny_stones, "read_stamp_stage", _read_stamp_stage, raising=False)
    _tiny_with_stages(monkeypatch, (("validate", "boardgen.play.runner:validate_stage", "parallel"),
                                    ("stamp", "tiny_stones:stamp_stage", "parallel"),
                                    ("board", "tiny_stones:board_stage", "parallel"),
                                    ("read", "tiny_stones:read_stamp_stage")))
    _plugin, config = load(tiny_installed)
    kits = {}
    for jobs in (1, 2, 3):
        out_dir, ctx = build(config, tmp_path / f"jobs-{jobs}", jobs=jobs)
        assert list(ctx.timings_s) == ["validate", "stamp", "board", "read"]
        kits[jobs] = _files(out_dir)
    monkeypatch.setenv("BOARDGEN_SERIAL_STAGES", "1")
    out_dir, _ctx = build(config, tmp_path / "serial")
    assert kits[1] == kits[2] == kits[3] == _files(out_dir)
    assert kits[2]["read.txt"] == b"kept by Tiny Stones"


def _stamp_stage(ctx: BuildContext) -> list:  # type: ignore[type-arg]
    from boardgen.io import Artifact

    ctx.keep("stamp", f"kept by {ctx.config.title}")
    return [Artifact("stamp.txt", b"stamp", "a stamp")]


def _read_stamp_stage(ctx: BuildContext) -> list:  # type: ignore[type-arg]
    from boardgen.io import Artifact

    return [Artifact("read.txt", ctx.computed["stamp"].encode(), "what the stamp stage kept")]


@pytest.mark.slow
def test_any_jobs_and_serial_stages_give_the_same_kit_global_wellbeing(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The flagship's seven parallel stages on two workers and in one process: the same manifest and files. The
    two-worker build starts from an empty board cache, so its workers fork before the map is made: the map is
    made once, by this process, and the workers read it back."""
    from boardgen.geomap import build as map_build

    monkeypatch.setenv("BOARDGEN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("BOARDGEN_NO_CACHE", raising=False)
    made = tmp_path / "maps-made.txt"
    real_build = map_build.build_board

    def counted(spec: object) -> object:
        with made.open("a") as log:  # a file: the forked workers' calls count too
            log.write(f"{os.getpid()}\n")
        return real_build(spec)

    monkeypatch.setattr(map_build, "build_board", counted)
    _plugin, config = load(None)
    out_dir, _ctx = build(config, tmp_path / "two", jobs=2)
    assert made.read_text().split() == [str(os.getpid())]
    on_two = _files(out_dir)
    monkeypatch.setenv("BOARDGEN_SERIAL_STAGES", "1")
    out_dir, _ctx = build(config, tmp_path / "serial")
    assert on_two == _files(out_dir)
    assert MANIFEST in on_two


def test_the_collector_thresholds_are_raised_only_while_a_build_runs() -> None:
    """The raised thresholds are undone after the build, after a failed one too, and a process that turned
    automatic collection off keeps it off."""
    import gc

    from boardgen.build import BUILD_GC_THRESHOLDS, fewer_collections

    before = gc.get_threshold()
    with fewer_collections():
        assert gc.get_threshold() == BUILD_GC_THRESHOLDS
    assert gc.get_threshold() == before
    with pytest.raises(ValueError), fewer_collections():
        raise ValueError("a stage failed")
    assert gc.get_threshold() == before
    try:
        gc.set_threshold(0)
        with fewer_collections():
            assert gc.get_threshold()[0] == 0
    finally:
        gc.set_threshold(*before)


def test_workers_fork_before_the_board_only_when_the_cache_passes_a_map_on(
        tiny_installed: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The flagship's workers start before its map is made (they read it from the board cache); a game whose board
    is not a cached map, a map the cache holds already (a rebuild), a build with the cache off, or a board already
    made keep the workers forked after it."""
    from boardgen.build import _workers_start_early

    monkeypatch.setenv("BOARDGEN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("BOARDGEN_NO_CACHE", raising=False)
    plugin, config = load(None)
    assert _workers_start_early(BuildContext(config, plugin))
    made = BuildContext(config, plugin)
    made.computed["board"] = object()
    assert not _workers_start_early(made)
    tiny_plugin, tiny_config = load(tiny_installed)
    assert not _workers_start_early(BuildContext(tiny_config, tiny_plugin))
    monkeypatch.setenv("BOARDGEN_NO_CACHE", "1")
    assert not _workers_start_early(BuildContext(config, plugin))
    monkeypatch.delenv("BOARDGEN_NO_CACHE")
    monkeypatch.setattr(plugin.geo, "board_cached", lambda config: True)  # a rebuild: the map is in the cache
    assert not _workers_start_early(BuildContext(config, plugin))


def test_the_flagships_map_is_cached_once_a_build_has_made_it(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """``board_cached`` follows ``panelled_board``: its choice of panel strip and the map that choice names."""
    monkeypatch.setenv("BOARDGEN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("BOARDGEN_NO_CACHE", raising=False)
    plugin, config = load(None)
    assert not plugin.geo.board_cached(config)
    BuildContext(config, plugin).board  # noqa: B018
    assert plugin.geo.board_cached(config)


@pytest.mark.slow
def test_a_map_beside_a_panel_strip_is_cached_once_a_build_has_made_it(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A 60 x 40 cm board leaves the table no room in open sea: its map is made beside a panel strip, and that
    map (not the template's own, which is never made) is what the cache must hold."""
    from boardgen.games.global_wellbeing.schema import template_with

    monkeypatch.setenv("BOARDGEN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("BOARDGEN_NO_CACHE", raising=False)
    plugin, _config = load(None)
    config = template_with({"board": {"width": "60cm", "height": "40cm"}})
    assert not plugin.geo.board_cached(config)
    board = BuildContext(config, plugin).board
    assert board.config.board.panel_strip_mm is not None
    assert plugin.geo.board_cached(config)


def test_a_workers_warm_up_loads_the_validations_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """The warm-up of the worker handed the validation first asks the game for its kernel ahead; another
    stage's warm-up, or an index past the group, asks for nothing."""
    from boardgen import build as build_module
    from boardgen.plugin import FastPath

    asked: list[float] = []
    monkeypatch.setattr(FastPath, "preload", lambda self, games: asked.append(games))
    plugin, config = load(None)
    group = [tuple(entry) for entry in plugin.stages if "parallel" in entry[2:]]
    monkeypatch.setattr(build_module, "_GROUP", (BuildContext(config, plugin), group))
    build_module._warm_up_worker(1)
    build_module._warm_up_worker(len(group))
    assert asked == []
    build_module._warm_up_worker(0)
    assert group[0][1] == "boardgen.play.runner:validate_stage"
    assert asked == [2 * plugin.validate_games(config)]
