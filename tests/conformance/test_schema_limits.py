"""Every number a template of an installed game holds has its limits in the game's JSON Schema (what an editor
shows), and every list and map has a size limit; a value past a limit is one line that states the limit."""

from __future__ import annotations

from typing import Any

import pytest

from boardgen.errors import ConfigError
from boardgen.plugin import installed_games
from boardgen.schema import validate_template

GAMES = sorted(installed_games())


def unbounded(node: Any, path: str, defs: dict[str, Any], seen: tuple[str, ...] = (), bounded: bool = False
              ) -> list[str]:
    """Dotted keys of the schema ``node`` whose number has no minimum or maximum, or whose list or map has no
    size limit."""
    out: list[str] = []
    if not isinstance(node, dict):
        return out
    if "$ref" in node:
        name = node["$ref"].split("/")[-1]
        return [] if name in seen else unbounded(defs[name], path, defs, (*seen, name))
    keys = set(node)
    bounded = bounded or bool({"minimum", "exclusiveMinimum"} & keys and {"maximum", "exclusiveMaximum"} & keys)
    if node.get("anyOf"):  # limits on the value as a whole, or on each branch (an optional number)
        return list(dict.fromkeys(k for branch in node["anyOf"] for k in unbounded(branch, path, defs, seen, bounded)))
    if node.get("type") in ("integer", "number") and not bounded:
        out.append(path)
    if node.get("type") == "array" and "maxItems" not in node:
        out.append(f"{path} (a list)")
    if isinstance(node.get("additionalProperties"), dict) and "maxProperties" not in node:
        out.append(f"{path} (a map)")
    if isinstance(node.get("items"), dict):
        out += unbounded(node["items"], f"{path}[]", defs, seen)
    for item in node.get("prefixItems", []):
        out += unbounded(item, f"{path}[]", defs, seen)
    if isinstance(node.get("additionalProperties"), dict):
        out += unbounded(node["additionalProperties"], f"{path}.*", defs, seen)
    for key, sub in node.get("properties", {}).items():
        out += unbounded(sub, f"{path}.{key}" if path else key, defs, seen)
    return out


@pytest.mark.parametrize("game", GAMES)
def test_every_number_list_and_map_has_its_limits_in_the_schema(game: str) -> None:
    schema = installed_games()[game].json_schema()
    assert unbounded(schema, "", schema.get("$defs", {})) == []


@pytest.mark.parametrize("game", GAMES)
def test_a_number_past_its_limit_says_the_limit(game: str) -> None:
    """For each bounded integer at the top of a section, 10**9 is refused with a message stating the maximum."""
    plugin = installed_games()[game]
    model = plugin.template_model()
    assert model is not None
    import yaml

    base = yaml.safe_load(plugin.default_template().read_text(encoding="utf-8"))
    schema = plugin.json_schema()
    defs = schema.get("$defs", {})
    checked = 0
    for section, prop in schema["properties"].items():
        target = defs.get(prop.get("$ref", "").split("/")[-1], {}) if "$ref" in prop else {}
        for key, sub in target.get("properties", {}).items():
            if sub.get("type") != "integer" or "maximum" not in sub:
                continue
            data = yaml.safe_load(yaml.safe_dump(base))
            data.setdefault(section, {})[key] = 10**9
            with pytest.raises(ConfigError) as info:
                validate_template(model, data, "t.yaml")
            message = str(info.value)
            assert message.startswith(f"t.yaml: {section}.{key}: "), message
            assert f"{sub['maximum']:,} (got 1,000,000,000)" in message, message
            checked += 1
    assert checked >= 3 or not plugin.has_rules  # the piecepack holds lengths and colours only


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("char", ["\ufffe", "\U0010ffff", "\ufdd0", "\x00"])
def test_a_title_with_a_noncharacter_is_refused_even_when_built_in_code(game: str, char: str) -> None:
    """The template reader refuses such text in any file; a template built in code (a sweep variant) too."""
    import yaml

    plugin = installed_games()[game]
    model = plugin.template_model()
    assert model is not None
    data = yaml.safe_load(plugin.default_template().read_text(encoding="utf-8"))
    data["title"] = f"A {char} title"
    with pytest.raises(ConfigError, match=rf"t\.yaml: title: text holds the .* U\+{ord(char):04X}; expected printable"):
        validate_template(model, data, "t.yaml")
