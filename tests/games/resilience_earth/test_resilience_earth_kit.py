"""Resilience Earth's printed parts: the counts the box promises, event cards that show their pattern, sheets."""

from __future__ import annotations

from pathlib import Path

import yaml

from boardgen.games.resilience_earth.kit import (
    build_kit,
    component_sets,
    event_deck,
    kit_parts,
    pattern_ops,
)
from boardgen.games.resilience_earth.schema import ResilienceTemplate
from boardgen.render.imposition import A4, LETTER
from boardgen.render.scene import Rect, Scene
from boardgen.schema import validate_template

TEMPLATE = Path(__file__).resolve().parents[3] / "templates" / "resilience-earth.yaml"


def config() -> ResilienceTemplate:
    return validate_template(ResilienceTemplate, yaml.safe_load(TEMPLATE.read_text()), str(TEMPLATE))


def test_inventory_matches_the_seed() -> None:
    from boardgen.plugin import BuildContext

    cfg = config()
    sets = component_sets(cfg, 4)
    counts = {p.name: p.count for p in kit_parts(BuildContext(cfg)).parts}
    assert counts["tower stone"] == 31
    for kind, n in (("settlement", 14), ("town", 10), ("industry", 7)):
        assert all(counts[f"P{seat} {kind}"] == n for seat in range(1, 5))
    assert sum(v for k, v in counts.items() if k.startswith("RES ")) == 96
    assert sum(v for k, v in counts.items() if k.startswith("LQ ")) == 84
    assert counts["marker"] == 21 and counts["Climate events"] == 16
    assert {s.kind: len(s.components) for s in sets} == {"climate-events": 16, "player-cards": 8, "marker": 21,
                                                          "res": 96, "lq": 84, "building": 124, "misc": 4}
    res_values = sorted(int(p.label.split()[1]) for p in next(s for s in sets if s.kind == "res").components)
    assert sum(res_values) == 60 * 1 + 24 * 5 + 12 * 10


def test_event_cards_show_their_pattern() -> None:
    cfg = config()
    _deck, cards = event_deck(cfg)
    assert len(cards.components) == 16 and cards.double_sided
    for part, card in zip(cards.components, cfg.events, strict=True):
        scene = part.front
        assert card.name in " ".join(scene.texts())
        covered = len(card.reach) if "all" not in card.reach else 8
        filled = [op for op in Scene(tuple(pattern_ops(card.reach, card.effect, Rect(0, 0, 40, 40)))).walk()
                  if getattr(op, "name", "") == "pattern-cell" and op.style.fill != "#ffffff"]
        assert len(filled) == covered
        assert scene.count("pattern-target") == 1


def test_sheets_on_both_papers() -> None:
    cfg = config()
    sets = component_sets(cfg, 4)
    for paper in (A4, LETTER):
        kit = build_kit(cfg, sets, paper)
        by_kind = {lo.kind: lo for lo in kit.laid}
        assert by_kind["climate-events"].front_sheets == 2  # 8 poker cards a sheet, duplex
        assert by_kind["player-cards"].front_sheets == 1
        assert len(by_kind["marker"].pages) == 2  # BLOCKED fronts, DESTROYED backs
        assert kit.pdf.startswith(b"%PDF") and len(kit.pages) <= 14


def _grid_field_map() -> object:
    """A stand-in for the field map (6 x 6 grid of fields): what the leaflet's words read of it."""
    from types import SimpleNamespace

    fields = []
    for r in range(6):
        for c in range(6):
            nb = [(r + dr + 1) * 10 + c + dc + 1 for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                  if 0 <= r + dr < 6 and 0 <= c + dc < 6]
            fields.append(SimpleNamespace(number=(r + 1) * 10 + c + 1, neighbours=tuple(sorted(nb)),
                                          level=1 + (r * 6 + c) % 3, centre_mm=(c * 10.0, r * 10.0)))
    return SimpleNamespace(fields=tuple(fields))


def test_leaflet_and_settlement_map_state_the_rules_with_the_templates_numbers() -> None:
    from types import SimpleNamespace

    from boardgen.games.resilience_earth.kit import aid_decks
    from boardgen.games.resilience_earth.leaflet import leaflet_content

    data = yaml.safe_load(TEMPLATE.read_text())
    data["components"]["per_colour"] = {"settlement": 13, "town": 9, "industry": 6}
    data["costs"].update({"settlement": 3, "industry_stones": 3})
    cfg = validate_template(ResilienceTemplate, data, str(TEMPLATE))
    text = " ".join(leaflet_content(SimpleNamespace(config=cfg, board=_grid_field_map())).text().split())
    assert "You have 13 settlements, 9 towns and 6 industries of your colour" in text
    assert "built only while the stones it needs are still left" in text
    assert "an industry's 3 stones all go on before the event of a space its first stone emptied" in text
    assert "When the last space is emptied its event is still played; then, if the tower stands, the game ends" in text
    assert "LQ never drops below 0" in text
    assert "your first settlement goes anywhere for 3)" in text
    card = aid_decks(cfg, 2)[0].components[-1]
    words = " ".join(card.front.texts())
    assert "first settlement goes anywhere for 3 RES" in " ".join(words.split())
