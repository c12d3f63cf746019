"""The benchmark scripts stay runnable: each imports cleanly and has a main() (they are not run here)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

BENCHMARKS = sorted(p for p in (Path(__file__).resolve().parents[2] / "benchmarks").glob("*.py")
                    if not p.name.startswith("_"))


@pytest.mark.parametrize("script", BENCHMARKS, ids=lambda p: p.stem)
def test_benchmark_script_imports(script: Path) -> None:
    spec = importlib.util.spec_from_file_location(f"bench_{script.stem}", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert callable(getattr(module, "main", None))


def test_there_are_benchmarks_for_every_stage() -> None:
    names = {p.stem for p in BENCHMARKS}
    assert {"bench_map", "bench_board", "bench_components", "bench_rules"} <= names


def test_the_plain_reference_game_plays_sensible_games() -> None:
    """benchmarks/reference_game.py (the speed reference) plays games like the engine's: its check passes."""
    spec = importlib.util.spec_from_file_location("reference_game", BENCHMARKS[0].parent / "reference_game.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    from boardgen.games.global_wellbeing.rules.board import hex_rectangle
    from boardgen.games.global_wellbeing.schema import load_template

    config = load_template()
    averages = module.check(hex_rectangle(16, 12, config.zones), config.rules, games=40,
                            players=config.players.usual)
    assert averages["plain_mean"] > 0 and averages["engine_mean"] > 0
