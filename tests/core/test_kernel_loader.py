"""boardgen.play.kernels.KernelLoader.preload: a build's worker loads a game's compiled kernel ahead of the
validation only when the validation would load it anyway, and only from the disk cache (never compiling)."""

from __future__ import annotations

import pytest

from boardgen.play.kernels import ENGINE_ENV, KernelLoader


class _Counted(KernelLoader):
    """A loader whose kernel "loads" by counting, with the disk cache holding it or not."""

    def __init__(self, in_cache: bool) -> None:
        super().__init__("boardgen.play.kernel_random", load_cost_games=300, compile_cost_games=20_000)
        self.in_cache = in_cache
        self.loads = 0

    def cached(self) -> bool:
        return self.in_cache

    def load(self):  # type: ignore[no-untyped-def]
        self.loads += 1
        self.module = object()  # type: ignore[assignment]
        return self.module


@pytest.mark.parametrize(("engine", "in_cache", "games", "loads"), [
    ("", True, 300, 1),  # auto: as many games as loading costs
    ("", True, 299, 0),  # auto: too few games to pay for it
    ("", False, 10_000, 0),  # not compiled yet: never compiled ahead
    ("kernel", True, 1, 1),  # kernel: always, from the cache
    ("reference", True, 10_000, 0),  # reference: never
])
def test_a_kernel_is_loaded_ahead_only_when_the_games_would_load_it(
        monkeypatch: pytest.MonkeyPatch, engine: str, in_cache: bool, games: int, loads: int) -> None:
    monkeypatch.setenv(ENGINE_ENV, engine)
    loader = _Counted(in_cache)
    loader.preload(games)
    loader.preload(games)
    assert loader.loads == loads
    if loads:
        assert loader.wanted(1)  # once loaded, every batch goes through it


def test_the_flagship_preloads_its_own_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """``FastPath.preload`` reaches the loader of the module ``warmer`` names (the flagship's rules.fast)."""
    from boardgen.games.global_wellbeing.rules import fast
    from boardgen.plugin import get_game

    asked: list[float] = []
    monkeypatch.setattr(fast.LOADER, "preload", asked.append)
    get_game("global-wellbeing").fast.preload(500)
    assert asked == [500]


def test_the_flagships_validation_loads_its_kernel_ahead(monkeypatch: pytest.MonkeyPatch) -> None:
    """A build's worker loads the flagship's kernel while the board is made: its validation's games (with the
    self-play ones) are counted at no less than loading costs."""
    from boardgen.games.global_wellbeing.rules import fast
    from boardgen.play.runner import prepare_validation
    from boardgen.plugin import BuildContext
    from boardgen.template import load

    asked: list[float] = []
    monkeypatch.setattr(fast.LOADER, "preload", asked.append)
    plugin, config = load(None)
    prepare_validation(BuildContext(config, plugin))
    assert asked == [2 * plugin.validate_games(config)]
    assert asked[0] >= fast.LOADER.load_cost_games
