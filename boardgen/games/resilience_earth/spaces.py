"""The field map as a graph of spaces (``boardgen.layout.spaces.BoardGraph``): what the live preview shows for each
field and where play in the browser puts "settle 23" and the like."""

from __future__ import annotations

from typing import Any

from boardgen.games.resilience_earth.fieldmap import FieldMap


def fields_graph(fm: FieldMap) -> Any:
    """The fields as a ``boardgen.layout.spaces.BoardGraph``: id and label the field's number, kind its level,
    outline the largest piece of its hexes' union, and the engine's facts (region, climate shares, high ground,
    points, cells) as data. The live preview and play in the browser read it."""
    from boardgen.layout.spaces import BoardGraph, Space

    spaces = []
    for f in fm.fields:
        geom = fm.outlines[f.number]
        biggest = max(getattr(geom, "geoms", [geom]), key=lambda p: p.area)
        outline = tuple((round(x, 3), round(y, 3)) for x, y in list(biggest.exterior.coords)[:-1])
        data = {"region": f.region, "level": f.level, "points": round(f.points, 3),
                "climate": {k: v for k, v in f.climate.items() if v}, "high_ground": round(f.high_ground, 3),
                "cells": list(f.cells), "land_connected": f.land_connected}
        spaces.append(Space(f.label, f.label, f"level {f.level}", f.centre_mm,
                            tuple(str(n) for n in f.neighbours), data, outline))
    config = fm.board.config
    return BoardGraph(tuple(spaces), config.board.width_mm, config.board.height_mm)
