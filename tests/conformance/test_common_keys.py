"""Common keys for common things: every game with rules reads ``players: {min, usual, max}`` and
``simulate: {bots, games, validate_games}`` at the same place, a sweep varies them with the same spelling for
every game, and the old spellings of the shipped templates still load, to the same config, with one line on
stderr naming the file and the old and new keys."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from boardgen.errors import ConfigError
from boardgen.play.sweep import Plan, load_variant, parse_vary, variant_grid
from boardgen.plugin import installed_games
from boardgen.schema import Players, Simulate
from boardgen.template import load

ROOT = Path(__file__).resolve().parents[2]
OLD = ROOT / "tests" / "data" / "templates" / "old-spelling"
GAMES = installed_games()
RULED = sorted(name for name, plugin in GAMES.items() if plugin.has_rules)


@pytest.mark.parametrize("old", sorted(OLD.glob("*.yaml")), ids=lambda p: p.stem)
def test_old_spelling_loads_to_the_same_config_with_one_line(old: Path, capfd: pytest.CaptureFixture[str]) -> None:
    import boardgen.schema

    boardgen.schema._told.discard(str(old))
    plugin_new, new = load(ROOT / "templates" / old.name)
    capfd.readouterr()
    plugin_old, first = load(old)
    _, again = load(old)  # the same file read twice in one process: told once
    err = capfd.readouterr().err
    assert plugin_old is plugin_new
    assert first.model_dump() == new.model_dump() == again.model_dump()
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith(f"{old}: old keys still read, please rewrite: ")
    for old_key, new_key in type(new).moved_keys.items():
        found = yaml.safe_load(old.read_text(encoding="utf-8"))
        for part in old_key.split("."):
            found = found.get(part) if isinstance(found, dict) else None
        if found is not None:
            assert f"{old_key} -> {new_key}" in lines[0]


@pytest.mark.parametrize("name", RULED)
def test_every_game_with_rules_has_the_common_sections(name: str) -> None:
    plugin = GAMES[name]
    _, config = load(plugin.default_template())
    assert isinstance(config.players, Players) and isinstance(config.simulate, Simulate)
    assert plugin.player_range(config) == (config.players.min, config.players.usual, config.players.max)
    assert plugin.validate_games(config) == config.simulate.validate_games
    assert "players" in plugin.json_schema()["properties"] and "simulate" in plugin.json_schema()["properties"]
    assert plugin.template_bots_key == "simulate.bots"


@pytest.mark.parametrize("name", RULED)
def test_players_out_of_order_is_one_line_naming_players(name: str, tmp_path: Path) -> None:
    plugin = GAMES[name]
    low, _usual, high = plugin.player_range(load(plugin.default_template())[1])
    path = tmp_path / "t.yaml"
    path.write_text(f"extends: {plugin.default_template()}\nplayers: {{min: {high}, usual: {low}, max: {high}}}\n",
                    encoding="utf-8")
    if low == high:  # a game with one count (BETTER Life's five roles): the limit itself is the check
        path.write_text(f"extends: {plugin.default_template()}\nplayers: {{usual: {high + 1}}}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load(path)
    assert str(caught.value).startswith(f"{path}: players")


def _plan(name: str, varies: list[str]) -> Plan:
    plugin = GAMES[name]
    path = plugin.default_template()
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    _, config = load(path)
    grid = variant_grid([parse_vary(v) for v in varies], None, 1)
    return Plan(name, path.name, "", data, str(path), tuple(grid), 4, plugin.player_range(config)[1],
                plugin.default_bots, 1, True, 4, players_varied=True)


@pytest.mark.parametrize("name", RULED)
def test_sweep_varies_the_common_keys_with_one_spelling(name: str) -> None:
    """``--vary players.usual=...`` and ``--vary simulate.validate_games=...``: the same keys for every game,
    each variant seated with its own usual count."""
    plugin = GAMES[name]
    low, _usual, high = plugin.player_range(load(plugin.default_template())[1])
    counts = sorted({low, high})
    plan = _plan(name, [f"players.usual={','.join(map(str, counts))}", "simulate.validate_games=10,20"])
    assert len(plan.variants) == 2 * len(counts)
    from boardgen.plugin import BuildContext

    for v, overrides in enumerate(plan.variants):
        got_plugin, config = load_variant(plan, v)
        assert config.players.usual == overrides["players.usual"]
        assert got_plugin.validate_games(config) == overrides["simulate.validate_games"]
        assert plan.seats(BuildContext(config, got_plugin)) == overrides["players.usual"]
