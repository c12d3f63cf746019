"""The Philanthropist's template and card rows: good values load, each bad one is one line with exit code 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from boardgen.errors import ConfigError
from boardgen.games.philanthropist.schema import Card, deck_stats, load_cards, parse_cards
from boardgen.template import load

ROOT = Path(__file__).resolve().parents[3]
TEMPLATE = ROOT / "templates" / "philanthropist.yaml"
CARDS = ROOT / "templates" / "philanthropist" / "business-cards.csv"


def test_default_template_numbers() -> None:
    plugin, t = load(TEMPLATE)
    assert plugin.name == "philanthropist"
    assert t.board.size_mm == pytest.approx(609.6)
    assert t.board.square_mm == pytest.approx((609.6 - 2 * 19.05) / 16)
    assert [(k.name, k.cost, k.count) for k in t.meeples.kinds] == [
        ("black", 1, 16), ("blue", 2, 10), ("green", 3, 10), ("yellow", 4, 10), ("red", 5, 5)]
    assert t.action_die.faces == ("move", "move", "payday", "move", "move", "card")
    assert t.rules.payday_multiplier == 2 and t.rules.move_income == 1
    assert t.cards.width_mm == pytest.approx(50.8) and t.cards.height_mm == pytest.approx(76.2)
    assert TEMPLATE.read_text().startswith("# yaml-language-server: $schema=philanthropist.schema")


def test_the_committed_schema_is_current() -> None:
    from boardgen.plugin import get_game

    committed = json.loads((ROOT / "templates" / "philanthropist.schema.json").read_text())
    assert committed == get_game("philanthropist").json_schema()


def test_thirty_cards_with_their_effects() -> None:
    _plugin, t = load(TEMPLATE)
    cards = load_cards(t)
    assert sum(c.quantity for c in cards) == 30
    titles = {c.title: c for c in cards}
    assert titles["Bonus"].effect == "gain 6" and titles["Bankruptcy"].effect == "lose all"


def test_deck_value() -> None:
    _plugin, t = load(TEMPLATE)
    mean0, _ = deck_stats(load_cards(t), 0)
    mean5, sd5 = deck_stats(load_cards(t), 5)
    assert mean0 == pytest.approx(65 / 30)  # with nothing to lose, only the gains count
    assert 0.5 < mean5 < 2.0 and sd5 > 2.5


def test_card_apply() -> None:
    assert Card("x", "Take 6 cubes.", "gain 6", 1).apply(2) == 8
    assert Card("x", "Pay 3 cubes.", "lose 3", 1).apply(2) == 0
    assert Card("x", "Return half of your cubes.", "lose half", 1).apply(7) == 3
    assert Card("x", "Return all of your cubes.", "lose all", 1).apply(7) == 0


def _write(tmp_path: Path, change: dict) -> Path:
    data = yaml.safe_load(TEMPLATE.read_text())
    data["cards"]["file"] = str(CARDS)
    for dotted, value in change.items():
        target = data
        keys = dotted.split(".")
        for k in keys[:-1]:
            target = target[int(k)] if isinstance(target, list) else target[k]
        if isinstance(target, list):
            target[int(keys[-1])] = value
        else:
            target[keys[-1]] = value
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


@pytest.mark.parametrize(("change", "key", "words"), [
    ({"players.seats.1.colour": "green"}, "players.seats[1].colour", 'expected a colour "#rrggbb" (got \'green\')'),
    ({"meeples.kinds.0.count": 15}, "meeples", "add up to 50 meeples but total says 51"),
    ({"board.squares": 24}, "", "too small: a square must hold a meeple standee and an avatar chip"),
    ({"rules.tie_breaks": "cubes"}, "rules.tie_breaks", "did you mean 'tie_break'"),
    ({"players.seats.2.shape": "square"}, "players", "its own shape"),
    ({"simulate.bots": ["collecter"]}, "simulate.bots[0]", "unknown bot 'collecter'; did you mean 'collector'?"),
    ({"simulate.bots": ["planner", "mcts"]}, "simulate.bots[1]", "too slow for the template's validation games"),
])
def test_bad_templates_are_one_line(tmp_path: Path, change: dict, key: str, words: str) -> None:
    with pytest.raises(ConfigError) as info:
        load(_write(tmp_path, change))
    message = str(info.value)
    assert "\n" not in message and words in message
    assert f": {key}: " in message if key else True


def test_card_rows_with_problems(tmp_path: Path) -> None:
    header = "title,text,effect,quantity\n"
    with pytest.raises(ConfigError, match="row 2: card 'Gift' has no effect"):
        parse_cards(header + "Gift,Take 2 cubes.,,30\n", "c.csv", 30)
    with pytest.raises(ConfigError, match="'gain double' is not one of"):
        parse_cards(header + "Gift,Double your cubes.,gain double,30\n", "c.csv", 30)
    with pytest.raises(ConfigError, match=r"rows hold 29 cards but cards\.count says 30"):
        parse_cards(header + "Gift,Take 2 cubes.,gain 2,29\n", "c.csv", 30)


def test_a_card_row_in_another_language_is_read_from_its_effect_not_its_wording() -> None:
    """A German row says "Nimm 6 Würfel", not "6 cubes": the loader reads the effect column, and the card's value
    disc and foot are printed from that effect."""
    from boardgen.games.philanthropist.parts import effect_banner, effect_value

    header = "title,text,effect,quantity\n"
    rows = ("Prämie,Deine Jahresprämie ist da. Nimm 6 Würfel von der Bank.,gain 6,20\n"
            "Flaute,Die Märkte brechen ein. Gib die Hälfte deiner Würfel ab.,lose half,10\n")
    bonus, slump = parse_cards(header + rows, "karten.csv", 30)
    assert (bonus.effect, bonus.quantity, bonus.apply(3)) == ("gain 6", 20, 9)
    assert (slump.effect, slump.apply(7)) == ("lose half", 3)
    assert effect_value(bonus) == effect_value(Card("Bonus", "Take 6 cubes.", "gain 6", 1))
    assert effect_banner(bonus) == effect_banner(Card("Bonus", "Take 6 cubes.", "gain 6", 1))


def test_cli_exit_code_2_and_one_line(tmp_path: Path) -> None:
    path = _write(tmp_path, {"meeples.kinds.4.count": 4})
    run = subprocess.run([sys.executable, "-m", "boardgen.cli", "validate", "--template", str(path), "-n", "0"],
                         capture_output=True, text=True, cwd=ROOT, timeout=120,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert run.returncode == 2
    lines = [x for x in run.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and "meeples" in lines[0] and "total says 51" in lines[0]


def test_a_card_file_without_an_effect_fails_the_template(tmp_path: Path) -> None:
    bad = tmp_path / "cards.csv"
    bad.write_text(CARDS.read_text().replace("lose all,1", ",1"))
    path = _write(tmp_path, {"cards.file": str(bad)})
    with pytest.raises(ConfigError, match="'Bankruptcy' has no effect"):
        load(path)
