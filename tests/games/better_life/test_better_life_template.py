"""The BETTER Life template and deck files: bad ones are one-line errors with exit code 2; the shipped template,
its JSON Schema and `boardgen new` agree; `simulate`/`validate` run through the generic commands."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from boardgen.cli import main
from boardgen.games.better_life.cards import DATA_DIR
from boardgen.plugin import get_game
from boardgen.template import load

ROOT = Path(__file__).resolve().parents[3]
TEMPLATE = ROOT / "templates" / "better-life.yaml"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    out, err = capsys.readouterr()
    return int(exc.value.code or 0), out, err


def write_template(tmp_path: Path, change: dict[str, object] | None = None) -> Path:
    data = yaml.safe_load(TEMPLATE.read_text(encoding="utf-8"))
    data.update(change or {})
    path = tmp_path / "bl.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def test_shipped_template_loads_with_every_number() -> None:
    plugin, config = load(TEMPLATE)
    assert plugin.name == "better-life"
    assert config.rounds == 5 and config.finish_ip == (4, 3, 3, 2, 2) and config.hand_limit == 4
    assert [b.min_ip for b in config.votes] == [0, 6, 10]
    assert config.track.spaces[-1] == "end-of-year" and len(config.track.spaces) == 27
    assert sum(v * n for v, n in config.ip.denominations.items()) == config.ip.box == 160


def test_schema_file_is_current() -> None:
    committed = json.loads((ROOT / "templates" / "better-life.schema.json").read_text(encoding="utf-8"))
    assert committed == get_game("better-life").json_schema()
    assert TEMPLATE.read_text(encoding="utf-8").startswith(
        "# yaml-language-server: $schema=better-life.schema.json")


@pytest.mark.parametrize(("change", "key", "words"), [
    ({"track": {"spaces": ["ip", "role:university", "role:industry", "role:ngo", "role:municipality",
                           "role:citizens", "event"]}}, "track.spaces", "no end-of-year"),
    ({"track": {"spaces": ["end-of-year", "ip", "role:university", "role:industry", "role:ngo",
                           "role:municipality", "role:citizens"]}}, "track.spaces", "last space"),
    ({"track": {"spaces": ["ip", "role:mayor", "role:industry", "role:ngo", "role:municipality",
                           "role:citizens", "role:university", "end-of-year"]}}, "", "names no role"),
    ({"finish_ip": [4, 3, 3, 2]}, "", "4 payouts for 5 players"),
    ({"votes": [{"name": "weak", "min_ip": 0, "policy": 0, "loss": 1},
                {"name": "semi", "min_ip": 12, "policy": 1, "loss": 0},
                {"name": "success", "min_ip": 10, "policy": 3, "loss": -1}]}, "", "from 0 IP upwards"),
    ({"ip": {"start": 5, "box": 100, "denominations": {1: 60, 5: 20}}}, "ip", "worth 160 IP"),
    ({"hand_limt": 4}, "hand_limt", "did you mean 'hand_limit'"),
])
def test_bad_templates_are_one_line_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           change: dict[str, object], key: str, words: str) -> None:
    path = write_template(tmp_path, change)
    code, _out, err = run(["validate", "--template", str(path), "--games", "0"], capsys)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert str(path) in lines[0] and words in lines[0]
    if key:
        assert f": {key}" in lines[0]


def _deck_dir(tmp_path: Path) -> Path:
    for f in DATA_DIR.glob("*.csv"):
        shutil.copy(f, tmp_path / f.name)
    return tmp_path


@pytest.mark.parametrize(("file", "old", "new", "where", "words"), [
    ("policy-targets.csv", "t01,protect-30,", "t01,protect-31,", "line 2.primary", "unknown policy 'protect-31'"),
    ("action-cards.csv", "tailwind,Tailwind,action,start,roll-bonus,", "tailwind,Tailwind,action,start,,",
     "line 7.effect", "a card with no effect"),
    ("event-cards.csv", "wildfire,Wildfire Summer,loss,", "wildfire,Wildfire Summer,flood,", "line 2.effect",
     "unknown effect 'flood'"),
    ("event-cards.csv", "drought,Drought,all-lose-ip,1,0,2,", "drought,Drought,all-lose-ip,1,0,two,",
     "line 5.quantity", "expected a whole number"),
])
def test_bad_deck_rows_are_one_line_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str], file: str,
                                           old: str, new: str, where: str, words: str) -> None:
    folder = _deck_dir(tmp_path)
    deck = folder / file
    text = deck.read_text(encoding="utf-8")
    assert old in text
    deck.write_text(text.replace(old, new, 1), encoding="utf-8")
    path = write_template(tmp_path)
    code, _out, err = run(["validate", "--template", str(path), "--games", "0"], capsys)
    assert code == 2
    line = err.strip()
    assert "\n" not in line and str(deck) in line and where in line and words in line


def test_role_card_must_be_a_role_card(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = yaml.safe_load(TEMPLATE.read_text(encoding="utf-8"))
    data["roles"][0]["card"] = "tailwind"
    path = tmp_path / "bl.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    code, _out, err = run(["validate", "--template", str(path), "--games", "0"], capsys)
    assert code == 2 and "roles[0].card" in err and "no role card" in err


def test_new_writes_a_template_that_loads(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "mine.yaml"
    code, _o, _e = run(["new", "better-life", str(out)], capsys)
    assert code == 0
    plugin, config = load(out)  # the deck files come from the game's data folder
    assert plugin.name == "better-life" and config.title == "BETTER Life"


def test_simulate_and_validate_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(["simulate", "--template", str(TEMPLATE), "--games", "30", "--quiet", "--out",
                           str(tmp_path), "--bots", "fair-share,free-rider"], capsys)
    assert code == 0 and "win rate by seat" in out
    results = json.loads((tmp_path / "better-life" / "report" / "results.json").read_text(encoding="utf-8"))
    summary = results["summary"]
    assert summary["games"] == 30 and "everyone_loses" in summary["metrics"]
    assert (tmp_path / "better-life" / "report" / "policy-meter-end.png").is_file()
    code, out, _err = run(["validate", "--template", str(TEMPLATE), "--games", "20"], capsys)
    assert code == 0 and "everyone-loses" in out and "role-win-rate" in out
