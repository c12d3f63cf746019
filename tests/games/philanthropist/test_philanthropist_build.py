"""The Philanthropist end to end: validate's findings, and a whole build that is byte-identical twice."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from boardgen.build import build
from boardgen.plugin import BuildContext
from boardgen.template import load

ROOT = Path(__file__).resolve().parents[3]
TEMPLATE = ROOT / "templates" / "philanthropist.yaml"


def test_validate_reports_the_games_own_findings() -> None:
    plugin, config = load(TEMPLATE)
    report = plugin.validate(BuildContext(config, plugin), games=24, players=3)
    rules = {f.rule for f in report.findings}
    assert {"deck-value", "square-size", "cube-supply", "turn-limit", "card-decided", "seat-spread", "ties",
            "game-length"} <= rules
    shared = {(f.rule, f.where): f.message for f in report.findings}
    # the first player is drawn at random: the shared seat check judges the turn positions too
    assert shared[("seat-spread", "all turn positions")].startswith("largest distance of a turn position's win rate")
    assert "before the tie-break (equal meeples: most cubes donated wins)" in shared[("ties", "scoring")]
    assert shared[("game-length", "game")].startswith("games last ") and " rounds on average" in \
        shared[("game-length", "game")]
    assert report.errors == 0
    again = plugin.validate(BuildContext(config, plugin), games=24, players=3)
    assert again.to_json() == report.to_json()  # seeded: the same games every time
    assert report.simulation is not None and report.simulation["games"] == 24
    assert report.simulation["metrics"]["meeples_left"]["max"] == 0  # every game ended by its own end


@pytest.mark.slow
def test_the_kit_builds_byte_identically_twice(tmp_path: Path) -> None:
    digests = []
    for k in range(2):
        _plugin, config = load(TEMPLATE)
        out_dir, _ctx = build(config, tmp_path / f"b{k}", lambda message: None)
        files = sorted(p for p in Path(out_dir).rglob("*") if p.is_file())
        digests.append({str(p.relative_to(out_dir)): hashlib.sha256(p.read_bytes()).hexdigest() for p in files})
    assert digests[0] == digests[1]
    names = set(digests[0])
    assert {"kit-a4.zip", "kit-letter.zip", "board-poster.pdf", "board-sections-a4.pdf", "board-sections-letter.pdf",
            "components-a4.pdf", "components-letter.pdf", "leaflet-a4.pdf", "leaflet-letter.pdf",
            "inventory.csv"} <= names


def test_openspiel_random_sim_test() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from boardgen.play.openspiel import to_pyspiel

    plugin, config = load(TEMPLATE)
    for players in (2, 3):
        game = to_pyspiel(plugin.new_game(BuildContext(config, plugin), players))
        pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)
