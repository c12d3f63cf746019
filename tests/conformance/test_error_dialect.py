"""Every game's template errors speak one dialect: ``FILE: dotted.key: what was expected (got X)``, a "did you
mean" for an unknown key, plain words (never pydantic's "Input should be ..."), and exit code 2 from the CLI."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from boardgen import cli
from boardgen.errors import ConfigError
from boardgen.plugin import installed_games
from boardgen.template import load
from boardgen.yaml_reader import read_template_file

GAMES = sorted(installed_games())
PYDANTIC_WORDS = ("Input should", "validation error", "Value error", "String should", "Tuple should", "[type=")


def sections(game: str) -> list[tuple[str, str, dict[str, Any]]]:
    """(section, key, its JSON Schema) for every key one level down in the game's schema."""
    schema = installed_games()[game].json_schema()
    defs = schema.get("$defs", {})
    out = []
    for section, prop in schema["properties"].items():
        target = defs.get(prop.get("$ref", "").split("/")[-1], {}) if "$ref" in prop else {}
        for key, sub in target.get("properties", {}).items():
            out.append((section, key, sub))
    return out


def write(tmp_path: Path, game: str, change: Any) -> Path:
    data, _ = read_template_file(installed_games()[game].default_template())
    data = copy.deepcopy(data)
    change(data)
    path = tmp_path / "t.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def refused(path: Path) -> str:
    with pytest.raises(ConfigError) as info:
        load(path)
    message = str(info.value)
    assert "\n" not in message
    assert not any(words in message for words in PYDANTIC_WORDS), message
    return message


@pytest.mark.parametrize("game", GAMES)
def test_an_unknown_key_says_did_you_mean(game: str, tmp_path: Path) -> None:
    section, key, _ = next((s, k, p) for s, k, p in sections(game) if len(k) > 4)
    path = write(tmp_path, game, lambda d: d.setdefault(section, {}).__setitem__(key[:-1] + "z", 1))
    assert refused(path) == f"{path}: {section}.{key[:-1]}z: unknown key; did you mean {key!r}?"


@pytest.mark.parametrize("game", GAMES)
def test_a_wrong_type_says_what_was_expected_and_what_it_got(game: str, tmp_path: Path) -> None:
    found = [(s, k) for s, k, p in sections(game) if p.get("type") == "integer"]
    if not found:
        pytest.skip(f"{game} has no whole-number key in a section")
    section, key = found[0]
    path = write(tmp_path, game, lambda d: d.setdefault(section, {}).__setitem__(key, "many"))
    assert refused(path) == f"{path}: {section}.{key}: expected a whole number (got 'many')"


@pytest.mark.parametrize("game", GAMES)
def test_a_number_past_its_limits_states_them(game: str, tmp_path: Path) -> None:
    found = [(s, k, p) for s, k, p in sections(game) if p.get("type") == "integer" and "maximum" in p]
    if not found:
        pytest.skip(f"{game} has no bounded whole-number key in a section")
    section, key, prop = found[0]
    path = write(tmp_path, game, lambda d: d.setdefault(section, {}).__setitem__(key, 10**9))
    message = refused(path)
    assert re.fullmatch(rf"{re.escape(str(path))}: {section}\.{key}: expected (between \S+ and|at most) "
                        rf"{prop['maximum']:,} \(got 1,000,000,000\)", message), message


@pytest.mark.parametrize("game", GAMES)
def test_the_cli_gives_one_line_and_exit_2(game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, game, lambda d: d.__setitem__("titel", "x"))
    with pytest.raises(SystemExit) as info:
        cli.main(["validate", "--template", str(path), "--games", "0"])
    assert info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "titel: unknown key; did you mean 'title'?" in err[0], err
