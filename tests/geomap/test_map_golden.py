"""Golden file of the default map: every cell's label, zone and neighbours.

A change to the data, the projection, the lattice or the classifier that moves a single cell fails here, so
map changes are always deliberate. After an intended change, regenerate and review the diff:

    BOARDGEN_UPDATE_GOLDEN=1 python -m pytest tests/geomap/test_map_golden.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from boardgen.geomap.model import Board

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden" / "default-map.json"


def summary(board: Board) -> dict:
    return {
        "hex_size_mm": board.layout.size_mm,
        "zone_counts": board.zone_counts(),
        "islands_kept": [island.label for island in board.islands_kept],
        "cells": {c.label: f"{c.zone} <{c.zone_reason}> " + " ".join(c.neighbours) for c in board.cells},
    }


def test_default_map_matches_the_golden_file(default_board: Board) -> None:
    current = summary(default_board)
    if os.environ.get("BOARDGEN_UPDATE_GOLDEN"):
        GOLDEN.write_text(json.dumps(current, indent=1, ensure_ascii=False) + "\n")
    golden = json.loads(GOLDEN.read_text())
    changed = sorted(label for label in set(golden["cells"]) | set(current["cells"])
                     if golden["cells"].get(label) != current["cells"].get(label))
    assert not changed, f"{len(changed)} cells differ from {GOLDEN.name}, e.g. {changed[:8]} (see module docstring)"
    assert current == golden
