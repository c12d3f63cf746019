"""Zone colours stay distinguishable for colour-blind players (Machado 2009 simulation, CIEDE2000)."""

from __future__ import annotations

import numpy as np
import pytest

from boardgen.games.global_wellbeing.schema import load_template
from boardgen.render.palette_check import (
    MIN_DELTA_E,
    check_palette,
    ciede2000,
    palette_report,
    simulate,
    srgb_to_lab,
)


def test_ciede2000_matches_sharma_reference_pairs():
    # Sharma, Wu & Dalal (2005) test data, pairs 1, 7 and 17
    assert ciede2000((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert ciede2000((50, 0, 0), (50, -1, 2)) == pytest.approx(2.3669, abs=1e-4)
    assert ciede2000((50, 2.5, 0), (56, -27, -3)) == pytest.approx(31.9030, abs=1e-4)


def test_simulation_keeps_grey_and_merges_red_green():
    assert simulate("#808080", "deuteranopia") == pytest.approx(simulate("#808080", "normal"), abs=0.01)
    red, green = srgb_to_lab(simulate("#d62728", "protanopia")), srgb_to_lab(simulate("#2ca02c", "protanopia"))
    assert ciede2000(red, green) < ciede2000(srgb_to_lab(np.array([0.84, 0.15, 0.16])),
                                             srgb_to_lab(np.array([0.17, 0.63, 0.17])))


def test_template_zone_colours_are_distinguishable_under_every_simulated_vision():
    config = load_template()
    colours = {name: zone.colour for name, zone in config.zones.items()}
    report = {pair.vision: pair for pair in check_palette(colours)}
    assert set(report) == {"normal", "protanopia", "deuteranopia", "tritanopia"}
    minimum = min(pair.delta_e for pair in report.values())
    # the minimum reached with the default template (colours re-tuned for greyscale prints):
    # Temperate/Mountains under tritanopia
    assert minimum >= MIN_DELTA_E == 15.0
    assert minimum == pytest.approx(17.3, abs=0.1)
    assert (report["tritanopia"].first, report["tritanopia"].second) == ("Temperate", "Mountains")


def test_polar_stands_out_from_the_ocean():
    from boardgen.games.global_wellbeing.board_art import OCEAN

    config = load_template()
    report = palette_report({"Polar": config.zones["Polar"].colour, "ocean": OCEAN})
    assert min(p.delta_e for p in report) >= MIN_DELTA_E


def test_the_seed_palette_fails_the_check():
    seed_like = {"Polar": "#a9d8f0", "Tropical": "#ef8fc0", "Temperate": "#4fa845"}
    with pytest.raises(ValueError, match="Polar and Tropical look alike under protanopia"):
        check_palette(seed_like)
