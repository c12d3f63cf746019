"""Every installed game declares its kit's parts once (``GamePlugin.kit_parts``) and writes the same
``inventory.csv`` from them; the counts are the rules engine's numbers."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from boardgen.kit.parts import INVENTORY_COLUMNS, KitParts, inventory_csv, read_inventory
from boardgen.plugin import BuildContext, installed_games
from boardgen.template import load

GAMES = sorted(installed_games())


def _ctx(name: str) -> BuildContext:
    plugin = installed_games()[name]
    _game, config = load(plugin.default_template())
    return BuildContext(config, plugin)


@pytest.fixture(scope="module", params=GAMES)
def declared(request: pytest.FixtureRequest) -> tuple[BuildContext, KitParts]:
    ctx = _ctx(request.param)
    return ctx, ctx.plugin.kit_parts(ctx)


def test_parts_match_the_engine(declared: tuple[BuildContext, KitParts]) -> None:
    ctx, kit = declared
    expected = ctx.plugin.engine_part_counts(ctx)
    assert expected, f"{ctx.plugin.name} states no engine numbers to check its parts against"
    counts = {p.name: p.count for p in kit.parts}
    assert {name: counts.get(name) for name in expected} == expected


def test_printed_parts_are_drawn(declared: tuple[BuildContext, KitParts]) -> None:
    kit = declared[1]
    for p in kit.printed:
        assert len(p.pieces) == p.count and p.file, p.name
        assert all(piece.front.items for piece in p.pieces), p.name
        if p.double_sided:
            assert all(piece.back is not None for piece in p.pieces), p.name
    for p in kit.unprinted:
        assert not p.pieces and p.colour, p.name


def test_inventory_has_one_shape(declared: tuple[BuildContext, KitParts]) -> None:
    kit = declared[1]
    rows = read_inventory(inventory_csv(kit))
    assert tuple(rows[0]) == INVENTORY_COLUMNS
    assert [(r["part"], int(r["count"])) for r in rows] == [(p.name, p.count) for p in kit.parts]
    assert {r["printed"] for r in rows} <= {"yes", "no"}


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_built_kit_writes_the_declared_inventory(name: str, default_kit: Callable[[str], Path]) -> None:
    """The kit stages (everything but validation; tests/conftest.py's ``default_kit``) write inventory.csv, and
    its counts are the engine's."""
    out = default_kit(name)
    assert (out / "inventory.csv").is_file()
    assert not (out / "inventory.txt").exists() and not (out / "inventory.json").exists()
    rows = read_inventory((out / "inventory.csv").read_bytes())
    counts = {r["part"]: int(r["count"]) for r in rows}
    ctx = _ctx(name)
    expected = ctx.plugin.engine_part_counts(ctx)
    assert {n: counts.get(n) for n in expected} == expected
    assert all(r["file_pages"] for r in rows if r["printed"] == "yes")
    assert any(" p" in r["file_pages"] for r in rows), "no page numbers in the inventory"
