"""Hostile templates: every class the fuzzer found, in every installed game, is a fixture in
tests/data/templates/hostile/ with the one line it must give (``<game>-<kind>.yaml`` for the games other than the
flagship). Loading is checked in-process (fast); fixtures marked ``# level: map``, ``cells`` or ``components``
(the flagship) or ``stages`` (any game: every build stage but validate) also run that far. Plus files that are
not templates, the CLI's last line of defence and its option bounds."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from boardgen import cli
from boardgen.errors import BoardgenError, ConfigError
from boardgen.template import load
from boardgen.yaml_reader import MAX_TEMPLATE_BYTES

HOSTILE = Path(__file__).resolve().parents[1] / "data" / "templates" / "hostile"
FIXTURES = sorted(p for p in HOSTILE.glob("*.yaml") if p.read_text(errors="replace").startswith("# expect: "))
REPO = Path(__file__).resolve().parents[2]


def header(path: Path) -> tuple[str, str]:
    lines = path.read_text(errors="replace").splitlines()
    expect = lines[0].removeprefix("# expect: ")
    level = lines[1].removeprefix("# level: ") if lines[1].startswith("# level: ") else "load"
    return expect, level


def run_to(path: Path, level: str) -> None:
    plugin, config = load(path)
    if level == "load":
        return
    if level == "stages":  # every build stage of the game but its validation (which plays hundreds of games)
        from boardgen.build import run_stages
        from boardgen.plugin import BuildContext

        ctx = BuildContext(config, plugin)
        artifacts = run_stages(ctx, {stage[0] for stage in plugin.stages} - {"validate"})
        assert artifacts and all(a.data for a in artifacts)
        return
    from boardgen.geomap.build import build_board

    board = build_board(config)
    if level == "cells":
        from boardgen.export import cells_geojson

        assert cells_geojson(board).startswith(b"{")
    if level == "components":
        from boardgen.cards.shapes import piece_size_mm

        piece_size_mm(config.components.piece_size_mm, board.layout.size_mm, config.source)


@pytest.mark.parametrize("template", FIXTURES, ids=lambda p: p.stem)
def test_a_hostile_template_is_one_line_naming_the_key_and_fast(template: Path) -> None:
    expect, level = header(template)
    started = time.perf_counter()
    if expect == "ok":
        run_to(template, level)
        return
    with pytest.raises(BoardgenError) as info:
        run_to(template, level)
    message = str(info.value)
    assert time.perf_counter() - started < 20
    assert "\n" not in message and len(message) < 1000, message[:300]
    assert expect in message
    if isinstance(info.value, ConfigError):
        assert info.value.key, "the message names a key or a line"


def test_fixture_corpus_covers_the_issue_classes() -> None:
    names = {p.stem for p in FIXTURES}
    assert len(names) >= 60
    from boardgen.plugin import installed_games

    for game in installed_games():  # every game has fixtures, a title with a noncharacter among them
        assert game == "global-wellbeing" or f"{game}-title-noncharacter" in names or game == "piecepack", game
    for needed in ("alias-bomb-title", "deep-list", "extends-chain", "lone-surrogate", "map-projection-utm",
                   "raster-huge-board", "validate-games-huge", "duplicate-key"):
        assert needed in names


def test_files_that_are_not_templates(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_bytes(b"# " + b"x" * MAX_TEMPLATE_BYTES + b"\n")
    with pytest.raises(ConfigError, match=f"expected at most {MAX_TEMPLATE_BYTES:,}"):
        load(big)
    with pytest.raises(ConfigError, match="is not a regular file"):
        load("/dev/zero")
    with pytest.raises(ConfigError, match="is not a regular file"):
        load(tmp_path)
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    result: list[BaseException] = []

    def read() -> None:
        try:
            load(fifo)
        except BaseException as exc:
            result.append(exc)

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    thread.join(5)
    assert not thread.is_alive(), "a FIFO as template hangs"
    assert isinstance(result[0], ConfigError) and "is not a regular file" in str(result[0])


def _main(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    with pytest.raises(SystemExit) as info:
        cli.main(argv)
    code = info.value.code
    return int(code) if isinstance(code, int) else 1, capsys.readouterr().err.splitlines()


@pytest.mark.parametrize("error", [RuntimeError("boom\nsecond line"), RecursionError("deep"), MemoryError(),
                                   OSError(28, "No space left on device")])
def test_any_unexpected_error_is_one_line_exit_2(error: BaseException, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    def explode(*args: object, **kwargs: object) -> None:
        raise error

    monkeypatch.setattr("boardgen.commands.build.load", explode)
    monkeypatch.delenv("BOARDGEN_DEBUG", raising=False)
    code, lines = _main(["build"], capsys)
    assert code == 2 and len(lines) == 1 and lines[0].startswith("boardgen: error: ")
    monkeypatch.setenv("BOARDGEN_DEBUG", "1")
    with pytest.raises(type(error)):
        cli.main(["build"])


@pytest.mark.parametrize("argv", [["simulate", "--jobs", "0"], ["simulate", "--games", "-1"],
                                  ["simulate", "--games", str(10**30)], ["validate", "--seed", str(10**30)],
                                  ["validate", "--games", "2000000"], ["build", "--bogus"]])
def test_cli_options_out_of_range_are_one_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = _main(argv, capsys)
    assert code == 2 and len(lines) == 1 and lines[0].startswith("boardgen: error: ")


def test_cells_refuses_to_replace_a_device_or_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "out.csv"
    os.mkfifo(fifo)
    result = subprocess.run([sys.executable, "-m", "boardgen.cli", "cells", "-f", "csv", "-o", str(fifo)],
                            capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=120)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "is not a regular file" in result.stderr
    assert not fifo.is_file()


def test_tiny_samples_do_not_break_the_plots() -> None:
    from boardgen.play.plots import generic_plots

    summary = {"win_rate_by_seat": [{"seat": 1, "rate": 0.4, "ci95": [0.40001, 0.8]},
                                    {"seat": 2, "rate": 0.6, "ci95": [0.2, 0.59999]}],
               "expected_seat_rate": 0.5, "games": 5}
    plots = generic_plots("t", summary, [])
    assert all(png.startswith(b"\x89PNG") for png in plots.values())


def test_the_automatic_piece_size_has_the_same_floor_as_an_explicit_one(default_config: object) -> None:
    from boardgen.cards.shapes import MIN_PIECE_MM, piece_size_mm

    assert piece_size_mm(default_config.components.piece_size_mm, 10.0, default_config.source) >= MIN_PIECE_MM  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match=r"hexes: the board's 2.85mm hexes leave room for 3.5mm pieces"):
        piece_size_mm(default_config.components.piece_size_mm, 2.85, default_config.source)
