"""The plug-in contract a game author reads: ``GamePlugin`` is mostly data; what makes a game fast sits in the
optional ``fast`` object (``FastPath``) and the geographic map's hooks in the optional ``geo`` object
(``GeoMap``); which bots sit in ``validate`` is data (``template_bots_key``), not an override."""

from __future__ import annotations

from typing import Any

import pytest

from boardgen.play import runner
from boardgen.plugin import BuildContext, FastPath, GamePlugin, GeoMap, installed_games, template_bots
from boardgen.template import load

SPEED_HOOKS = ("kernel_batch", "kernel_warmer", "game_seeds", "batch_summary", "board_key", "board_values",
               "play_batch")
MAP_HOOKS = ("geo_board", "map_spec", "map_info", "sections_report")


def test_the_plugin_holds_no_speed_or_map_hooks() -> None:
    for hook in (*SPEED_HOOKS, *MAP_HOOKS):
        assert not hasattr(GamePlugin, hook), hook
    for hook in ("kernel_batch", "warmer", "game_seeds", "batch_summary", "board_key", "board_values"):
        assert hasattr(FastPath, hook), hook
    for hook in MAP_HOOKS:
        assert hasattr(GeoMap, hook), hook


@pytest.mark.parametrize("name", sorted(installed_games()))
def test_every_game_has_its_hooks_in_the_optional_objects(name: str) -> None:
    plugin = installed_games()[name]
    assert isinstance(plugin.fast, FastPath)
    assert plugin.geo is None or isinstance(plugin.geo, GeoMap)
    for hook in (*SPEED_HOOKS, *MAP_HOOKS):
        assert not hasattr(plugin, hook), f"{name} still has {hook} on the plug-in"
    if plugin.fast.warmer:
        module, function = plugin.fast.warmer.split(":")
        assert callable(getattr(__import__(module, fromlist=[function]), function))


def _games_whose_template_lists_bots() -> list[str]:
    """The games whose default template names its bots (the others seat their own mix, ``default_bots``)."""
    names = []
    for n, p in sorted(installed_games().items()):
        if p.has_rules and p.template_bots_key and template_bots(p, load(p.default_template())[1]):
            names.append(n)
    return names


@pytest.mark.parametrize("name", _games_whose_template_lists_bots())
def test_validate_seats_the_bots_the_template_lists(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    plugin = installed_games()[name]
    _plugin, config = load(plugin.default_template())
    listed = template_bots(plugin, config)
    assert listed, f"{name}'s default template lists no bots under {plugin.template_bots_key}"
    seated: list[Any] = []

    def fake_run(_plugin: GamePlugin, _ctx: BuildContext, _games: int, _players: Any, bots: Any, *rest: Any) -> Any:
        seated.append(bots)
        raise StopIteration

    monkeypatch.setattr(runner, "run", fake_run)
    with pytest.raises(StopIteration):
        plugin.validate(BuildContext(config, plugin), 1)
    assert seated == [listed]
    with pytest.raises(StopIteration):
        plugin.validate(BuildContext(config, plugin), 1, bots=("random",))
    assert seated[-1] == ("random",)


def test_seat_checks_over_won_games_leave_out_the_games_nobody_won() -> None:
    summary = {"games": 100, "players": 2, "nobody_won": {"games": 50},
               "win_rate_by_seat": [{"seat": 1, "wins": 40}, {"seat": 2, "wins": 10}]}
    findings = runner.seat_findings_over_won_games(summary)
    assert [(f.rule, f.where) for f in findings] == [("seat-advantage", "seat 1"), ("seat-advantage", "seat 2"),
                                                     ("seat-spread", "all seats")]
    assert "wins 80.0% of the 50 games someone won" in findings[0].message
    assert findings[2].message.endswith(": 30.0%")
    assert runner.seat_findings_over_won_games({**summary, "nobody_won": {"games": 100}}) == []
