"""The JSON Schema a game ships (what an editor checks a template against) and the game's loader give the same
verdict on every shipped template, every YAML example of the README and docs, and every bad fixture: a template
the schema accepts loads, and one it refuses is refused by the loader. Both see the template as the loader reads
it: ``extends`` merged (and kept as a key, which every schema allows), the edition as written."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from boardgen.errors import BoardgenError, ConfigError
from boardgen.i18n import normalise_edition
from boardgen.plugin import default_game, installed_games
from boardgen.yaml_reader import read_template_file, templates_dir

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "data" / "templates"
GAMES = sorted(installed_games())

CROSS_KEY_ONLY = {
    # limits that join keys; the schema states them in a description and by their absolute bounds
    "bad-knob-depth", "bad-start-index", "bad-tiny-hexes", "bad-unknown-zone", "raster-fine", "raster-huge-board",
    "better-life-finish-ip-beyond-box", "resilience-earth-countdown-many-stones", "resilience-earth-target-cells-36",
    # a projection pyproj refuses or that is plain longitude/latitude
    "bad-projection", "bad-projection-lonlat",
    # files, and bots (checked against the game's bots when the template loads)
    "better-life-deck-climbs-out", "philanthropist-card-file-climbs-out", "philanthropist-card-file-environ",
    "better-life-unknown-bot", "philanthropist-unknown-bot", "philanthropist-mcts-bot",
    # a length or card size written with a unit ("-22mm", "5000x5000"): the schema checks its spelling, the loader
    # its size after converting to mm
    "resilience-earth-card-size-5000", "resilience-earth-card-size-word", "resilience-earth-dice-size-negative",
    "resilience-earth-marker-5m",
}
"""Fixtures the loader refuses for what JSON Schema cannot say: limits across keys (a knob against the section the
board is cut into, a raster against the board's size, a zone named elsewhere), files and bots, and a projection
pyproj refuses."""


def template_files() -> list[Path]:
    shipped = sorted(templates_dir().glob("*.yaml"))
    bad = sorted(FIXTURES.glob("bad-*.yaml")) + sorted((FIXTURES / "hostile").glob("*.yaml"))
    return shipped + bad


def doc_examples() -> list[tuple[str, str]]:
    """(name, text) of each ```yaml block of the README and docs that is a whole template (names an installed
    game, an edition or a template it extends)."""
    out = []
    for doc in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]:
        blocks = re.findall(r"```yaml\n(.*?)```", doc.read_text(encoding="utf-8"), flags=re.S)
        for i, block in enumerate(blocks):
            game = re.search(r"^game:\s*([\w-]+)", block, flags=re.M)
            if game and game.group(1) not in GAMES:
                continue  # a game the doc invents (writing-a-game.md)
            if re.search(r"^(game|edition|extends):", block, flags=re.M):
                out.append((f"{doc.name}#{i}", block))
    return out


def loader_verdict(path: Path) -> tuple[str, Any, Any]:
    """("ok" or the loader's message, the mapping as the schema sees it, the game's plug-in); the mapping is None
    when the file is refused before any game reads it (not YAML, an alias bomb, a broken ``extends``)."""
    from boardgen.plugin import get_game
    from boardgen.template import load

    try:
        data, _ = read_template_file(path)
        raw_extends = _extends_of(path)
        if not isinstance(data, dict):
            return "not a mapping", None, None
        seen = dict(data)
        if raw_extends is not None:
            seen["extends"] = raw_extends
        normalise_edition(dict(data), str(path))
        plugin = get_game(data.get("game") or default_game(), str(path))
    except BoardgenError as exc:
        return str(exc), None, None
    try:
        load(path)
    except ConfigError as exc:
        return str(exc), seen, plugin
    return "ok", seen, plugin


def _extends_of(path: Path) -> Any:
    from boardgen.yaml_reader import read_yaml

    data, _ = read_yaml(path)
    return data.get("extends") if isinstance(data, dict) else None


def schema_verdict(plugin: Any, data: dict[str, Any]) -> str:
    schema = plugin.json_schema()
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(data), key=lambda e: list(e.path))
    return "ok" if not errors else f"{'.'.join(map(str, errors[0].path))}: {errors[0].message[:200]}"


@pytest.mark.parametrize("game", GAMES)
def test_every_shipped_schema_is_what_the_game_publishes(game: str) -> None:
    plugin = installed_games()[game]
    first = plugin.default_template().read_text(encoding="utf-8").splitlines()[0]
    shipped = templates_dir() / first.split("=", 1)[1]
    assert json.loads(shipped.read_text(encoding="utf-8")) == plugin.json_schema()
    schema = plugin.json_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert "extends" in schema["properties"]
    forms = schema["properties"]["edition"]["anyOf"]
    assert any(f.get("type") == "object" and set(f["properties"]) == {"name", "language"} for f in forms)


@pytest.mark.parametrize("path", template_files(), ids=lambda p: p.stem)
def test_the_schema_and_the_loader_agree_on_a_template_file(path: Path) -> None:
    verdict, data, plugin = loader_verdict(path)
    if data is None:
        return  # refused by the reader before any game's model saw it (the schema never sees such a file either)
    by_schema = schema_verdict(plugin, data)
    if verdict != "ok" and by_schema == "ok" and path.stem in CROSS_KEY_ONLY:
        return
    assert (verdict == "ok") == (by_schema == "ok"), f"loader: {verdict}\nschema: {by_schema}"


@pytest.mark.parametrize("name,text", doc_examples(), ids=[n for n, _ in doc_examples()])
def test_the_schema_and_the_loader_agree_on_the_docs_examples(name: str, text: str, tmp_path: Path) -> None:
    path = templates_dir() / f".doc-example-{tmp_path.name}.yaml"  # beside the shipped ones, as a user's would be
    path.write_text(text, encoding="utf-8")
    try:
        verdict, data, plugin = loader_verdict(path)
    finally:
        path.unlink()
    assert data is not None, verdict
    by_schema = schema_verdict(plugin, data)
    assert verdict == "ok", verdict
    assert by_schema == "ok", by_schema


@pytest.mark.parametrize("game", GAMES)
def test_a_number_both_refuse(game: str) -> None:
    """A value past a limit (10**9 where at most a few hundred is meant, 0 turns) is refused by both."""
    plugin = installed_games()[game]
    data, _ = read_template_file(plugin.default_template())
    schema = plugin.json_schema()
    validator = jsonschema.Draft202012Validator(schema)
    data = copy.deepcopy(data)
    data["seed"] = -1
    assert list(validator.iter_errors(data))
    with pytest.raises(ConfigError, match=r"seed: expected (between 0 and|at least 0)"):
        plugin.load_config(normalise_edition(dict(data), "t.yaml"), "t.yaml", "")


@pytest.mark.parametrize("game,changes,key", [
    ("global-wellbeing", {"rules": {"turns": 0}}, "rules.turns"),
    ("global-wellbeing", {"zones": {"Polar": {"die": 7}}}, "zones.Polar.die"),
    ("better-life", {"die_sides": 7}, "die_sides"),
])
def test_a_value_both_refuse(game: str, changes: dict[str, Any], key: str) -> None:
    from boardgen.yaml_reader import deep_merge

    plugin = installed_games()[game]
    data, _ = read_template_file(plugin.default_template())
    data = deep_merge(copy.deepcopy(data), changes)
    assert schema_verdict(plugin, data) != "ok"
    with pytest.raises(ConfigError, match=rf"t\.yaml: {re.escape(key)}: "):
        plugin.load_config(normalise_edition(dict(data), "t.yaml"), "t.yaml", "")


@pytest.mark.parametrize("game", GAMES)
def test_a_number_written_as_text_is_refused_by_both(game: str) -> None:
    """The loader is as strict as the schema's types: "16" is no whole number, true is no number."""
    plugin = installed_games()[game]
    schema = plugin.json_schema()
    defs = schema.get("$defs", {})
    data, _ = read_template_file(plugin.default_template())
    for section, prop in schema["properties"].items():
        target = defs.get(prop.get("$ref", "").split("/")[-1], {}) if "$ref" in prop else {}
        numbers = [k for k, s in target.get("properties", {}).items() if s.get("type") == "integer"
                   and isinstance(data.get(section), dict) and k in data[section]]
        if numbers:
            break
    else:
        pytest.skip(f"{game} writes no whole number in a section")
    changed = copy.deepcopy(data)
    changed[section][numbers[0]] = str(changed[section][numbers[0]])
    assert schema_verdict(plugin, changed) != "ok"
    with pytest.raises(ConfigError, match=rf"{section}\.{numbers[0]}: expected a whole number \(got '"):
        plugin.load_config(normalise_edition(dict(changed), "t.yaml"), "t.yaml", "")
