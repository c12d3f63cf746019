"""Zone assignment rules on small synthetic inputs, and per-hex statistics on a synthetic raster."""

from __future__ import annotations

import numpy as np

from boardgen.geomap.hexgrid import POINTY, HexLayout
from boardgen.geomap.lattice import LandRaster, hex_keys, hex_stats, land_hexes, search_hex_size
from boardgen.geomap.spec import ClassificationConfig
from boardgen.geomap.zones import CellClimate, assign_zones

ZONES = ["Polar", "Temperate", "Arid", "Tropical", "Mediterranean", "Mountains"]
RULES = ClassificationConfig(minimum_cells=2, priority_share=1.0)


def climate(label: str, high: float = 0.0, **shares: float) -> CellClimate:
    full = dict.fromkeys(ZONES, 0.0)
    full.update(shares)
    return CellClimate(label, full, high)


def test_rules_apply_in_order_high_ground_priority_plurality() -> None:
    cells = [
        climate("A1", high=0.5, Arid=1.0),
        climate("A2", high=0.1, Mediterranean=0.3, Arid=0.7),
        climate("A3", Mediterranean=0.2, Arid=0.8),
        climate("A4", Temperate=0.5, Polar=0.5),  # tie: the earlier zone in the template wins
    ]
    result = assign_zones(cells, ZONES, ClassificationConfig(minimum_cells=0), {})
    assert result.zones == {"A1": "Mountains", "A2": "Mediterranean", "A3": "Arid", "A4": "Polar"}
    assert result.reasons == {"A1": "high-ground", "A2": "priority", "A3": "plurality", "A4": "plurality"}


def test_overrides_win_and_are_never_moved_by_the_top_up() -> None:
    cells = [climate("B1", Tropical=1.0, Mediterranean=0.0), climate("B2", Arid=0.9, Mediterranean=0.1)]
    result = assign_zones(cells, ZONES, ClassificationConfig(minimum_cells=1), {"B1": "Arid"})
    assert result.zones["B1"] == "Arid" and result.reasons["B1"] == "override"


def test_a_short_zone_is_topped_up_from_the_best_candidates_and_reported() -> None:
    cells = [climate(f"T{i}", Temperate=1.0 - i / 20, Mediterranean=i / 20) for i in range(8)]
    result = assign_zones(cells, ZONES, RULES, {})
    med = sorted(label for label, zone in result.zones.items() if zone == "Mediterranean")
    assert med == ["T6", "T7"]  # the two best Mediterranean shares
    assert any("Mediterranean: topped up" in note for note in result.notes)
    assert any("Polar: only 0 cells" in note for note in result.notes)


def test_the_top_up_never_drains_another_zone_below_its_minimum() -> None:
    cells = [climate("C1", Arid=0.6, Tropical=0.4), climate("C2", Arid=0.6, Tropical=0.4), climate("C3", Tropical=1)]
    result = assign_zones(cells, ZONES, ClassificationConfig(minimum_cells=2, priority_share=1.0), {})
    counts = {z: list(result.zones.values()).count(z) for z in ZONES}
    assert counts["Arid"] == 2 and counts["Tropical"] == 1


def synthetic_raster(step_mm: float = 0.5) -> LandRaster:
    """A 40 x 30 mm rectangle of land on a 100 x 100 mm board."""
    xs, ys = np.meshgrid(np.arange(20, 60, step_mm) + step_mm / 2, np.arange(30, 60, step_mm) + step_mm / 2)
    return LandRaster(step_mm, xs.ravel(), ys.ravel(), np.zeros(xs.size, dtype=np.int32))


def test_land_share_per_hex_matches_the_covered_area() -> None:
    raster = synthetic_raster()
    layout = HexLayout(POINTY, 5.0, (50.0, 50.0))
    keys, shares = land_hexes(layout, raster, threshold=0.0001)
    covered_mm2 = (shares * layout.area_mm2).sum()
    assert abs(covered_mm2 - 40 * 30) < 0.02 * 1200  # pixel counts, capped at a full hex
    assert shares.max() <= 1.0
    full, _ = land_hexes(layout, raster, threshold=0.999)
    assert 0 < len(full) < len(keys)


def test_hex_stats_count_koppen_classes_and_high_ground() -> None:
    raster = synthetic_raster()
    layout = HexLayout(POINTY, 50.0, (40.0, 45.0))  # one hex covers the whole rectangle
    pixel_keys = hex_keys(layout, raster.x_mm, raster.y_mm)
    keys = np.unique(pixel_keys)
    assert len(keys) == 1
    koppen = np.where(raster.x_mm < 30, 12, 7).astype(np.uint8)  # a quarter Csa, the rest BWh
    elevation = np.where(raster.y_mm < 36, 2000.0, 100.0)  # a fifth high ground
    stats = hex_stats(keys, pixel_keys, koppen, elevation, elevation >= 1500)
    assert stats.land_px[0] == 80 * 60
    assert stats.koppen_px[0, 12] == 20 * 60 and stats.koppen_px[0, 7] == 60 * 60
    assert stats.high_px[0] == 80 * 12


def test_size_search_finds_the_count_closest_to_the_target() -> None:
    raster = synthetic_raster()
    size_mm, count, _ = search_hex_size(POINTY, (50.0, 50.0), raster, 0.2, 20)
    assert abs(count - 20) <= 2
    assert len(land_hexes(HexLayout(POINTY, size_mm, (50.0, 50.0)), raster, 0.2)[0]) == count
