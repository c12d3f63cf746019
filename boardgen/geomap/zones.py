"""Game zones for cells, from their Köppen–Geiger shares and high-ground share.

Rules, in order (every threshold from the template's ``classification`` section):
1. a template override names the zone;
2. high ground: share of the cell's land at or above ``high_ground_elevation_m`` >= ``high_ground_share``;
3. priority zone (Mediterranean by default): its Köppen share >= ``priority_share`` — plurality alone
   gives the Mediterranean climate too few cells for the game's eight-piece badge;
4. otherwise the zone with the largest share (ties: the earlier zone in the template);
5. top-up: a zone left under ``minimum_cells`` takes the cells with the largest share of it from zones that
   can spare them (never overrides, never below another zone's minimum), and each move is reported.
"""

from __future__ import annotations

import types
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from boardgen.geomap.spec import ClassificationConfig

CLIMATE_ZONES = ("Polar", "Temperate", "Arid", "Tropical", "Mediterranean", "Mountains")
"""The climate zones a map is classified into when its template names none, in table order (ties of the
plurality rule go to the earlier zone)."""
KOPPEN_TO_CLIMATE_ZONE: Mapping[str, str] = types.MappingProxyType({
    **dict.fromkeys(("Af", "Am", "As", "Aw"), "Tropical"),
    **dict.fromkeys(("BSh", "BSk", "BWh", "BWk"), "Arid"),
    **dict.fromkeys(("Cfa", "Cfb", "Cfc"), "Temperate"),
    **dict.fromkeys(("Csa", "Csb", "Csc"), "Mediterranean"),
    **dict.fromkeys(("Cwa", "Cwb", "Cwc", "Dfa", "Dfb"), "Temperate"),
    **dict.fromkeys(("Dfc", "Dfd"), "Polar"),
    **dict.fromkeys(("Dsa", "Dsb"), "Temperate"),
    **dict.fromkeys(("Dsc", "Dsd"), "Polar"),
    **dict.fromkeys(("Dwa", "Dwb"), "Temperate"),
    **dict.fromkeys(("Dwc", "Dwd", "EF", "ET"), "Polar"),
})
"""Every Köppen-Geiger class's climate zone: the A, B and C groups by their letters (the dry-summer Cs climates
Mediterranean), the D group's warm and cold summers Temperate and Polar, E Polar."""


def climate_classification(**changes: Any) -> ClassificationConfig:
    """The classification into ``CLIMATE_ZONES``: Mountains where 40% of a cell's land stands at least 1500 m
    high (ice caps excepted), Mediterranean where a fifth of it has a dry-summer climate, else the zone with the
    largest share; ``changes`` override any of its values (e.g. ``minimum_cells=0``)."""
    values: dict[str, Any] = {"koppen_to_zone": KOPPEN_TO_CLIMATE_ZONE, "high_ground_zone": "Mountains",
                              "high_ground_elevation_m": 1500.0, "high_ground_share": 0.4,
                              "high_ground_excludes": ("EF",), "priority_zone": "Mediterranean",
                              "priority_share": 0.2, "minimum_cells": 10}
    return ClassificationConfig(**{**values, **changes})


@dataclass(frozen=True)
class CellClimate:
    label: str
    zone_shares: Mapping[str, float]  # Köppen-derived game-zone shares of the cell's land (sum 1)
    high_ground_share: float


@dataclass(frozen=True)
class ZoneAssignment:
    zones: dict[str, str]  # label -> zone
    reasons: dict[str, str]  # label -> rule that decided
    notes: tuple[str, ...]


def affinity(cell: CellClimate, zone: str, rules: ClassificationConfig) -> float:
    """How well a cell suits a zone: the high-ground share for the high-ground zone, else its climate share."""
    if zone == rules.high_ground_zone:
        return cell.high_ground_share
    return cell.zone_shares.get(zone, 0.0)


def assign_zones(cells: Sequence[CellClimate], zone_names: Sequence[str], rules: ClassificationConfig,
                 overrides: Mapping[str, str]) -> ZoneAssignment:
    zones: dict[str, str] = {}
    reasons: dict[str, str] = {}
    notes: list[str] = []
    for cell in cells:
        if cell.label in overrides:
            zones[cell.label], reasons[cell.label] = overrides[cell.label], "override"
        elif cell.high_ground_share >= rules.high_ground_share:
            zones[cell.label], reasons[cell.label] = rules.high_ground_zone, "high-ground"
        elif cell.zone_shares.get(rules.priority_zone, 0.0) >= rules.priority_share:
            zones[cell.label], reasons[cell.label] = rules.priority_zone, "priority"
        else:
            best = max(zone_names, key=lambda z: (cell.zone_shares.get(z, 0.0), -zone_names.index(z)))
            zones[cell.label], reasons[cell.label] = best, "plurality"

    def counts() -> dict[str, int]:
        tally = dict.fromkeys(zone_names, 0)
        for zone in zones.values():
            tally[zone] += 1
        return tally

    minimum = rules.minimum_cells
    by_label = {c.label: c for c in cells}
    for zone in zone_names:
        tally = counts()
        short = minimum - tally[zone]
        if short <= 0:
            continue
        candidates = sorted(
            (c for c in cells
             if zones[c.label] != zone and reasons[c.label] != "override" and affinity(c, zone, rules) > 0),
            key=lambda c: (-affinity(c, zone, rules), c.label),
        )
        moved = []
        for cell in candidates:
            if short <= 0:
                break
            source = zones[cell.label]
            if tally[source] - 1 < minimum:
                continue
            tally[source] -= 1
            tally[zone] += 1
            zones[cell.label], reasons[cell.label] = zone, "minimum"
            moved.append(f"{cell.label} ({source}, {affinity(by_label[cell.label], zone, rules):.0%})")
            short -= 1
        if moved:
            notes.append(f"{zone}: topped up to {tally[zone]} cells (minimum {minimum}) with " + ", ".join(moved))
        if short > 0:
            notes.append(f"{zone}: only {tally[zone]} cells, {short} short of the minimum {minimum}; "
                         "no further cell has any share of it")
    return ZoneAssignment(zones, reasons, tuple(notes))
