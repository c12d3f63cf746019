"""Every game whose board is the geographic hex map (its ``geo.map_spec``) gets the map's commands (`info`,
`cells`, `sections`) and the board cache: a second build of its map reads it back instead of building it."""

from __future__ import annotations

import csv
import io
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from boardgen import cache
from boardgen.cli import cli
from boardgen.geomap.model import MapSpec
from boardgen.plugin import BuildContext, GamePlugin, installed_games
from boardgen.template import load


def _map_games() -> list[tuple[str, GamePlugin, Any]]:
    games = []
    for name, plugin in installed_games().items():
        try:
            template = plugin.default_template()
        except NotImplementedError:  # a set of parts with no template of its own
            continue
        _plugin, config = load(template)
        if plugin.geo is not None and plugin.geo.map_spec(config) is not None:
            games.append((name, plugin, config))
    return games


MAP_GAMES = _map_games()


def test_the_flagship_and_resilience_earth_have_a_map() -> None:
    assert {"global-wellbeing", "resilience-earth"} <= {name for name, *_ in MAP_GAMES}
    for _name, plugin, config in MAP_GAMES:
        spec = plugin.geo.map_spec(config)
        assert isinstance(spec, MapSpec) and spec.source == config.source
        assert spec.classification.koppen_to_zone and set(spec.classification.koppen_to_zone.values()) <= \
            set(spec.zones)


@pytest.mark.parametrize("name", [name for name, *_ in MAP_GAMES])
def test_info_cells_and_sections_work_for_every_map_game(name: str, tmp_path: Path) -> None:
    _name, plugin, config = next(g for g in MAP_GAMES if g[0] == name)
    template = str(plugin.default_template())
    runner = CliRunner()
    info = runner.invoke(cli, ["info", "-t", template])
    assert info.exit_code == 0, info.output
    spec = plugin.geo.map_spec(config)
    assert f"projection {spec.map.projection}" in info.output
    land = next(line for line in info.output.splitlines() if line.startswith("land cells"))
    cells = int(land.split()[2])
    out = tmp_path / "cells.csv"
    exported = runner.invoke(cli, ["cells", "-t", template, "-f", "csv", "-o", str(out)])
    assert exported.exit_code == 0, exported.output
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    assert len(rows) == cells and {r["zone"] for r in rows} <= set(spec.zones)
    sections = runner.invoke(cli, ["sections", "-t", template])
    assert sections.exit_code == 0, sections.output
    assert len(sections.output.splitlines()) > 2


def test_the_map_commands_refuse_a_game_without_a_map() -> None:
    plugin = installed_games()["philanthropist"]
    for command in ("info", "sections", "cells"):
        result = subprocess.run([sys.executable, "-m", "boardgen.cli", command, "-t", str(plugin.default_template())],
                                capture_output=True, text=True, check=False)
        assert result.returncode == 2, result.stderr
        assert result.stderr.count("\n") == 1 and "has no geographic hex map" in result.stderr


def test_resilience_earth_map_warm_rebuild_reads_the_board_cache(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from boardgen.geomap import build

    monkeypatch.setenv("BOARDGEN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("BOARDGEN_NO_CACHE", raising=False)
    plugin = installed_games()["resilience-earth"]
    _plugin, config = load(plugin.default_template())
    calls = []
    real_build = build.build_board

    def counted(spec: Any) -> Any:
        calls.append(spec)
        return real_build(spec)

    monkeypatch.setattr(build, "build_board", counted)
    hits = cache.HITS["board"]
    first = plugin.build_board(BuildContext(config, plugin))  # a cold cache: the map is built and stored
    assert len(calls) == 1 and cache.HITS["board"] == hits
    again = plugin.build_board(BuildContext(config, plugin))  # a rebuild: the map is read back
    assert len(calls) == 1 and cache.HITS["board"] == hits + 1
    assert again.board.cells == first.board.cells and again.fields == first.fields
    assert again.board.config is config and first.board.config is config  # the map names this edition
