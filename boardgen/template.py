"""Read any template: YAML (with ``extends``), find the game it names, and let that game validate it."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from boardgen.errors import ConfigError
from boardgen.i18n import check_catalog, normalise_edition
from boardgen.plugin import GamePlugin, check_template_bots, default_game, get_game
from boardgen.yaml_reader import read_template_file


def read_template(path: str | Path | None) -> tuple[dict[str, Any], str, str]:
    """(merged mapping, source, sha256 of the template bytes and every template it extends)."""
    template_path = Path(path) if path is not None else get_game(default_game()).default_template()
    data, raw = read_template_file(template_path)
    source = str(template_path)
    if not isinstance(data, dict):
        raise ConfigError(source, "(top level)", "expected a YAML mapping of template keys")
    data = normalise_edition(data, source)
    return data, source, hashlib.sha256(raw).hexdigest()


def load(path: str | Path | None = None) -> tuple[GamePlugin, Any]:
    """The game a template names and the template validated by it; ``None`` is the default game's own template
    (``boardgen.plugin.default_game``)."""
    data, source, sha = read_template(path)
    name = data.get("game") if "game" in data else default_game(source)
    if not isinstance(name, str):
        raise ConfigError(source, "game", f"expected a game name such as {default_game(source)!r}, got {name!r}")
    plugin = get_game(name, source)
    config = plugin.load_config(data, source, sha)
    check_template_bots(plugin, config)
    check_catalog(config, plugin)
    return plugin, config
