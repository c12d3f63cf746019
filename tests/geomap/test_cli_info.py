"""`boardgen info` prints islands as labelled lon/lat with a place name; cells.csv's 0-based column and
row against the 1-based labels are documented (and hold)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from click.testing import CliRunner

from boardgen.cli import cli
from boardgen.export import cells_csv
from boardgen.geomap.hexgrid import column_letters
from boardgen.geomap.projection.places import format_lonlat, island_name

REPO = Path(__file__).resolve().parents[2]


def test_island_names_and_labelled_coordinates() -> None:
    assert format_lonlat(175.6, -37.8) == "lon 175.6, lat -37.8"
    assert island_name(175.6, -37.8) == "North Island, New Zealand"
    assert island_name(-70.6, 18.8) == "Hispaniola"
    assert island_name(-30.0, 0.0) is None  # open Atlantic


def test_info_prints_lon_lat_and_names() -> None:
    result = CliRunner().invoke(cli, ["info"])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if " km2 at " in line]
    assert lines and all("at lon " in line and ", lat " in line for line in lines)
    assert any("AJ24" in line and "lon 175.6, lat -37.8  (North Island, New Zealand)" in line for line in lines)


def test_cells_csv_column_and_row_are_zero_based(default_board) -> None:
    rows = list(csv.DictReader(io.StringIO(cells_csv(default_board).decode())))
    assert rows
    for row in rows:
        assert row["label"] == f"{column_letters(int(row['column']))}{int(row['row']) + 1}"  # column 0 is A
    doc = (REPO / "docs" / "cells.md").read_text()
    assert "**0-based**" in doc and "**1-based**" in doc and "`O5` has column 14, row 4" in doc
