"""The Resilience Earth field from the real Earth (one build of the map, shared by the module's tests) and the
template's one-line errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from shapely.geometry import Point

from boardgen.errors import ConfigError
from boardgen.games.resilience_earth.fieldmap import build_field_map, partition
from boardgen.games.resilience_earth.schema import ResilienceTemplate
from boardgen.plugin import BuildContext, get_game
from boardgen.schema import validate_template

ROOT = Path(__file__).resolve().parents[3]
TEMPLATE = ROOT / "templates" / "resilience-earth.yaml"


def load(**changes: object) -> ResilienceTemplate:
    data = yaml.safe_load(TEMPLATE.read_text())
    for dotted, value in changes.items():
        section, key = dotted.split("__")
        data[section][key] = value
    return validate_template(ResilienceTemplate, data, str(TEMPLATE))


@pytest.fixture(scope="module")
def field_map():  # type: ignore[no-untyped-def]
    return build_field_map(load())


def test_36_fields_addressed_by_two_dice(field_map) -> None:  # type: ignore[no-untyped-def]
    numbers = sorted(f.number for f in field_map.fields)
    assert numbers == [r * 10 + k for r in range(1, 7) for k in range(1, 7)]
    assert len(field_map.cell_field) == len(field_map.board.cells)  # every land cell is in one field


def test_fields_are_connected_balanced_and_on_land(field_map) -> None:  # type: ignore[no-untyped-def]
    board = field_map.board
    cells = {c.label: c for c in board.cells}
    links = {(a, b) for a, b, _ in field_map.links} | {(b, a) for a, b, _ in field_map.links}
    land = board.land_mm.buffer(0)
    sizes = []
    for f in field_map.fields:
        members = set(f.cells)
        sizes.append(len(members))
        seen, todo = {f.cells[0]}, [f.cells[0]]
        while todo:  # connected through touching hexes and strait links
            here = todo.pop()
            for other in members:
                if other not in seen and (other in cells[here].neighbours or (here, other) in links):
                    seen.add(other)
                    todo.append(other)
        assert seen == members, f"field {f.number} is not connected"
        assert any(land.intersects(Point(*cells[c].center_mm).buffer(board.layout.size_mm)) for c in f.cells)
        assert 1 <= f.level <= 3 and abs(sum(f.climate.values()) - 1.0) < 0.01
        assert f.neighbours and f.number not in f.neighbours
        assert f.compactness > 0.1
    assert min(sizes) >= 0.75 * sum(sizes) / len(sizes) and max(sizes) <= 1.3 * sum(sizes) / len(sizes)
    for f in field_map.fields:  # borders are symmetric
        for n in f.neighbours:
            assert f.number in field_map.field(n).neighbours


def test_production_follows_climate(field_map) -> None:  # type: ignore[no-untyped-def]
    for f in field_map.fields:
        if f.climate["B"] + f.climate["E"] > 0.75:  # mostly desert or ice
            assert f.level == 1, f.number
        if f.climate["A"] + f.climate["C"] > 0.8 and f.high_ground < 0.2:  # warm and wet lowlands
            assert f.level == 3, f.number


def test_partition_is_seeded_and_balanced() -> None:
    import random

    import numpy as np

    # a 10 x 6 strip of cells: 6 groups of 10, each connected
    n_cols, n_rows = 10, 6
    xyz = np.array([[float(c), float(r), 0.0] for r in range(n_rows) for c in range(n_cols)]) * 0.01
    adj = [set() for _ in range(n_cols * n_rows)]
    for r in range(n_rows):
        for c in range(n_cols):
            i = r * n_cols + c
            if c + 1 < n_cols:
                adj[i].add(i + 1)
                adj[i + 1].add(i)
            if r + 1 < n_rows:
                adj[i].add(i + n_cols)
                adj[i + n_cols].add(i)
    a = partition(list(range(60)), 6, xyz, adj, random.Random(1), 8, 1.0)
    b = partition(list(range(60)), 6, xyz, adj, random.Random(1), 8, 1.0)
    assert a == b
    assert sorted(len(g) for g in a) == [10] * 6 or max(len(g) for g in a) - min(len(g) for g in a) <= 2


def test_template_errors_are_one_line_with_the_dotted_key() -> None:
    with pytest.raises(ConfigError, match=r"fields\.regions"):
        load(fields__regions=7)
    with pytest.raises(ConfigError, match=r"tower\.collapse_spread"):
        load(tower__collapse_spread=0)
    with pytest.raises(ConfigError, match=r"rules.*first_end_round"):
        load(rules__first_end_round=20)
    data = yaml.safe_load(TEMPLATE.read_text())
    data["rules"]["sabatical_cost"] = 1
    with pytest.raises(ConfigError, match="did you mean 'sabbatical_cost'"):
        validate_template(ResilienceTemplate, data, "x.yaml")


def test_cli_rejects_a_bad_template_with_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    text = TEMPLATE.read_text()
    assert "collapse_ceiling: 0.2\n" in text
    bad.write_text(text.replace("collapse_ceiling: 0.2", "collapse_ceiling: 3"))
    run = subprocess.run([sys.executable, "-m", "boardgen.cli", "validate", "--template", str(bad)],
                         capture_output=True, text=True, cwd=ROOT, timeout=120,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert run.returncode == 2
    assert "tower.collapse_ceiling" in run.stderr and len(run.stderr.strip().splitlines()) == 1


def test_plugin_is_registered_and_makes_a_game() -> None:
    plugin = get_game("resilience-earth")
    assert plugin.title == "Resilience Earth"
    assert {"grower", "steward", "sabbatical", "mixed", "random", "greedy", "mcts"} <= set(plugin.bots())
    ctx = BuildContext(load(), plugin)
    ctx.computed["board"] = None  # no map needed for the player range
    assert plugin.player_range(ctx.config) == (2, 4, 4)


def test_board_scene_leaflet_and_event_example(field_map) -> None:  # type: ignore[no-untyped-def]
    from boardgen.games.resilience_earth.board import avoid_rects, board_scene, tower_geometry
    from boardgen.games.resilience_earth.leaflet import event_example, leaflet_pdf
    from boardgen.render.imposition import A4, LETTER

    plugin = get_game("resilience-earth")
    ctx = BuildContext(load(), plugin)
    ctx.computed["board"] = field_map
    scene = board_scene(ctx)
    assert scene.count("countdown-space") == 12 and scene.count("event-space") == 12
    numbers = [int(op.text) for op in scene.walk() if getattr(op, "name", "") == "field-number"]
    assert sorted(numbers) == sorted(field_map.numbers)
    spaces = tower_geometry(ctx)["spaces"]
    assert [s[2] for s in spaces] == [5, 4, 4, 3, 3, 3, 2, 2, 2, 1, 1, 1]
    cx, cy = field_map.tower_mm
    for c in field_map.board.cells:  # the tower and its ring stand in open sea
        assert (c.center_mm[0] - cx) ** 2 + (c.center_mm[1] - cy) ** 2 > 75.0**2
    assert len(avoid_rects(ctx)) == 1 + 12 + 1 + 36
    assert "field 34 is hit" in event_example(ctx)
    for paper in (A4, LETTER):
        data, pages = leaflet_pdf(ctx, paper)
        assert pages == 2 and data.startswith(b"%PDF")
