"""Components as data: what one printed part looks like (front, back, cut outline) before it goes on a sheet.

Item coordinates are mm with the origin at the top-left of the part's trim box (its bounding box), y down.
Art may paint up to the sheet's bleed beyond the trim. ``outline`` is the cut line (closed sub-paths);
``folds`` are score/fold lines. Both go into the cut SVG on their own layers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from shapely.geometry import LineString, MultiPolygon, Polygon
from shapely.geometry.base import BaseGeometry

from boardgen.render.scene import PathCommand, Scene


@dataclass(frozen=True)
class Component:
    kind: str  # "chip", "token", "standee", "badge", "marker", "turn-marker", "table-card", "turn-counter", "die"
    label: str  # "P3 #12", "Polar", "d10", ...
    width_mm: float
    height_mm: float
    front: Scene
    outline: tuple[PathCommand, ...]
    back: Scene | None = None
    folds: tuple[tuple[tuple[float, float], ...], ...] = ()  # polylines to score and fold
    marks: bool = True  # crop marks at its trim box (rectangular parts); shaped parts are cut on their line


@dataclass(frozen=True)
class ComponentSet:
    """Parts of one kind that share sheets: e.g. all 150 chips."""

    kind: str
    title: str  # sheet title, e.g. "Chips (1 billion each)"
    components: tuple[Component, ...]
    double_sided: bool = False  # the parts have backs (duplex pages or fold-over pairs)
    uniform: bool = True  # all parts the same size: grid packing; else shelf packing
    gap_mm: float | None = None  # space between parts; None: twice the sheet bleed (each keeps a full bleed)
    row_starts: tuple[int, ...] = ()  # shelf packing: parts (by index) that begin a new row
    stagger: bool = False  # grid packing in staggered rows (round parts: about 15% more on a sheet)
    outer_bleed: bool = False  # parts packed closer than two bleeds keep the full bleed on sides facing no part
    label: str = ""  # what a sheet heading calls the set (a deck: its name); "": its kind, in the edition's words


def geometry_path(geom: BaseGeometry) -> tuple[PathCommand, ...]:
    """Closed sub-paths for a (Multi)Polygon's rings, or an open path for a LineString."""
    commands: list[PathCommand] = []
    if isinstance(geom, LineString):
        coords = list(geom.coords)
        commands.append(("M", *coords[0]))
        commands.extend(("L", *c) for c in coords[1:])
        return tuple(commands)
    polygons: Sequence[Polygon] = list(geom.geoms) if isinstance(geom, MultiPolygon) else [geom]  # type: ignore[assignment]
    for poly in polygons:
        for ring in (poly.exterior, *poly.interiors):
            coords = list(ring.coords)[:-1]
            commands.append(("M", round(coords[0][0], 4), round(coords[0][1], 4)))
            commands.extend(("L", round(x, 4), round(y, 4)) for x, y in coords[1:])
            commands.append(("Z",))
    return tuple(commands)
