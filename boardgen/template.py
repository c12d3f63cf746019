"""Read any template: YAML (with ``extends``), find the game it names, and let that game validate it."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from boardgen.errors import ConfigError
from boardgen.i18n import check_catalog, normalise_edition
from boardgen.plugin import DEFAULT_GAME, GamePlugin, check_template_bots, get_game
from boardgen.yaml_reader import read_template_file, templates_dir


def read_template(path: str | Path | None) -> tuple[dict[str, Any], str, str]:
    """(merged mapping, source, sha256 of the template bytes and every template it extends)."""
    template_path = Path(path) if path is not None else templates_dir() / f"{DEFAULT_GAME}.yaml"
    data, raw = read_template_file(template_path)
    source = str(template_path)
    if not isinstance(data, dict):
        raise ConfigError(source, "(top level)", "expected a YAML mapping of template keys")
    data = normalise_edition(data, source)
    return data, source, hashlib.sha256(raw).hexdigest()


def load(path: str | Path | None = None) -> tuple[GamePlugin, Any]:
    """The game a template names and the template validated by it; ``None`` is the bundled flagship."""
    data, source, sha = read_template(path)
    name = data.get("game", DEFAULT_GAME)
    if not isinstance(name, str):
        raise ConfigError(source, "game", f"expected a game name such as {DEFAULT_GAME!r}, got {name!r}")
    plugin = get_game(name, source)
    config = plugin.load_config(data, source, sha)
    check_template_bots(plugin, config)
    check_catalog(config, plugin)
    return plugin, config


def load_map_template(path: str | Path | None = None) -> Any:
    """A template whose game is played on the geographic hex map (the commands ``cells``, ``info`` and
    ``sections`` read that map); any other game is a one-line error."""
    from boardgen.config import Config

    plugin, config = load(path)
    if not isinstance(config, Config):
        raise ConfigError(config.source, "game", f"{plugin.name!r} has no geographic hex map for this command "
                          "(see `boardgen build` and `boardgen validate`)")
    return config
