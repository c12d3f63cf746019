"""Templates the build cannot print: one-line errors with exit code 2, not tracebacks."""

from __future__ import annotations

import re

import pytest

from boardgen.cards.shapes import MIN_PIECE_MM, piece_size_mm
from boardgen.cli import main
from boardgen.errors import ConfigError
from boardgen.games.global_wellbeing.schema import load_template, template_with
from boardgen.geomap import build as mapbuild


def test_tiny_hexes_are_refused_before_pieces_shrink_to_nothing() -> None:
    """hexes.target_cells 5000 gave 2.15 mm hexes and 2.5 mm tokens, then an IndexError in cards/model.py."""
    config = load_template()
    with pytest.raises(ConfigError, match=r"hexes: the board's 2\.15mm hexes leave room for 2\.5mm pieces"):
        piece_size_mm(config.components.piece_size_mm, 2.15, config.source)
    assert piece_size_mm(config.components.piece_size_mm, 9.8, config.source) >= MIN_PIECE_MM


def test_automatic_hex_size_obeys_the_hex_limit(monkeypatch, tmp_path, capsys) -> None:
    """The automatic size gets the same limit as an explicit hexes.size (20,000 hexes); here the limit is
    lowered so the default map trips it without a slow search for 5000 cells."""
    monkeypatch.setattr(mapbuild, "MAX_HEXES_ON_BOARD", 1000)
    with pytest.raises(SystemExit) as exit_info:
        main(["--no-cache", "build", "-o", str(tmp_path)])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if "error" in line]
    assert len(lines) == 1 and re.search(r"hexes.target_cells: 300 cells need 9\.\d\dmm hexes", lines[0])
    assert "at most 1,000" in lines[0] and "Traceback" not in err
    most = int(lines[0].split("hexes.target_cells: ")[-1].split(" or fewer")[0])
    board = mapbuild.build_board(template_with({"hexes": {"target_cells": most}}))  # the named target builds
    assert board.stats["hex_size_mm"] ** 2 * 1.5 * 3**0.5 * 1000 >= 660 * 440
