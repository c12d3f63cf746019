"""The cache of built boards: used only when every input matches, rebuilt when corrupt or stale, and never a
reason for an output byte to differ."""

from __future__ import annotations

import dataclasses
import pickle
from pathlib import Path
from typing import Any

import pytest

from boardgen import cache
from boardgen.games.global_wellbeing.schema import Config
from boardgen.geomap import cache as geocache


@pytest.fixture()
def cache_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("BOARDGEN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("BOARDGEN_NO_CACHE", raising=False)
    return tmp_path / "cache"


def test_cached_value_is_used_only_for_its_key(cache_folder: Path) -> None:
    made = []

    def make() -> dict[str, int]:
        made.append(1)
        return {"value": len(made)}

    assert cache.cached("thing", "k" * 64, make) == {"value": 1}
    assert cache.cached("thing", "k" * 64, make) == {"value": 1} and len(made) == 1  # a hit
    assert cache.cached("thing", "j" * 64, make) == {"value": 2}  # another key: made afresh


def test_corrupt_or_foreign_entries_are_rebuilt(cache_folder: Path) -> None:
    key = "a" * 64
    cache.cached("thing", key, lambda: 1)
    entry = cache_folder / f"thing-{key[:32]}.pickle"
    entry.write_bytes(b"\x80\x04garbage")
    assert cache.cached("thing", key, lambda: 2) == 2
    # an entry whose stored key differs (a prefix collision, a tampered file) is not trusted
    entry.write_bytes(pickle.dumps({"kind": "thing", "key": "a" * 32 + "b" * 32, "value": 99}))
    assert cache.cached("thing", key, lambda: 3) == 3
    assert not list(cache_folder.glob("*.tmp")) and not list(cache_folder.glob(".*.tmp"))


def test_cache_off(cache_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOARDGEN_NO_CACHE", "1")
    assert cache.cached("thing", "c" * 64, lambda: 5) == 5
    assert not cache_folder.exists()


def test_writable_says_whether_other_processes_can_read_what_is_made(cache_folder: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A parallel build forks its workers before the board is made only when they can read it from here."""
    import os

    assert cache.writable()  # the folder does not exist yet: its parent can hold it
    cache_folder.mkdir()
    assert cache.writable()
    monkeypatch.setenv("BOARDGEN_NO_CACHE", "1")
    assert not cache.writable()
    monkeypatch.delenv("BOARDGEN_NO_CACHE")
    asked: list[str] = []

    def read_only(path: object, mode: int) -> bool:
        asked.append(str(path))
        return False

    monkeypatch.setattr(os, "access", read_only)  # a read-only folder (the tests may run as root)
    assert not cache.writable()
    assert asked == [str(cache_folder)]


def test_board_key_follows_the_map_not_the_rules(default_config: Config) -> None:
    key = geocache.board_key(default_config)
    other_rules = default_config.model_copy(update={"rules": default_config.rules.model_copy(update={"turns": 7})})
    assert geocache.board_key(other_rules) == key
    # nor the printed parts, the title, the edition or the seed: the map code never reads them
    other_print = default_config.model_copy(
        update={
            "title": "Another",
            "edition": "another",
            "seed": 7,
            "components": default_config.components.model_copy(update={"chip_diameter_mm": 25.0}),
        }
    )
    assert geocache.board_key(other_print) == key
    other_map = default_config.model_copy(
        update={"hexes": default_config.hexes.model_copy(update={"target_cells": 290})}
    )
    assert geocache.board_key(other_map) != key


def test_cached_board_equals_a_fresh_one(cache_folder: Path, default_config: Config, default_board) -> None:  # type: ignore[no-untyped-def]
    first = geocache.cached_board(default_config)  # built (the session's board was built without this cache)
    second = geocache.cached_board(default_config)  # read back from disk
    assert second is not first
    for board in (first, second):
        assert board.cells == default_board.cells
        assert board.layout == default_board.layout
        assert board.land_mm.equals(default_board.land_mm)
        assert board.config == default_config


def _copy_sources(to: Path) -> None:
    for pattern in (*cache.SOURCE_GLOBS, "games/global_wellbeing/*.py"):
        for path in cache.PACKAGE_ROOT.glob(pattern):
            target = to / path.relative_to(cache.PACKAGE_ROOT)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(path.read_bytes())


def test_source_fingerprint_follows_the_map_code(tmp_path: Path) -> None:
    _copy_sources(tmp_path / "a")
    before = cache.source_fingerprint(tmp_path / "a")
    assert len(before) == 64 and before == cache.source_fingerprint(cache.PACKAGE_ROOT)
    _copy_sources(tmp_path / "b")
    lattice = tmp_path / "b" / "geomap" / "lattice.py"
    lattice.write_text(lattice.read_text() + "\n# an edit\n")
    assert cache.source_fingerprint(tmp_path / "b") != before  # an edited map module: a new key
    _copy_sources(tmp_path / "c")
    leaflet = tmp_path / "c" / "games" / "global_wellbeing" / "leaflet.py"
    leaflet.write_text(leaflet.read_text() + "\n# an edit\n")
    assert cache.source_fingerprint(tmp_path / "c") == before  # the leaflet does not make the board


def test_board_key_covers_boardgen_source(default_config: Config, monkeypatch: pytest.MonkeyPatch) -> None:
    key = geocache.board_key(default_config)
    monkeypatch.setattr(cache, "source_fingerprint", lambda root=cache.PACKAGE_ROOT: "0" * 64)
    assert geocache.board_key(default_config) != key


def test_cached_sections_are_the_cut(cache_folder: Path, default_board: Any) -> None:
    from boardgen.games.global_wellbeing.board_layout import max_section_size_mm
    from boardgen.layout.sections import cut_sections

    made = cut_sections(default_board, max_section_size_mm())
    stored = geocache.cached_sections(default_board, max_section_size_mm())  # made and stored
    again = geocache.cached_sections(default_board, max_section_size_mm())  # read back
    assert len(list(cache_folder.glob("sections-*.pickle"))) == 1
    for got in (stored, again):
        assert [s.outline_mm.wkb for s in got.sections] == [s.outline_mm.wkb for s in made.sections]
        assert [s.cells for s in got.sections] == [s.cells for s in made.sections]
        assert [k.outline_mm.wkb for k in got.knobs] == [k.outline_mm.wkb for k in made.knobs]


def test_geometries_keep_their_precision_grid(cache_folder: Path) -> None:
    import shapely

    # a gridded outline (as the section cutter makes them): GEOS buffers it on its grid, which WKB drops
    outline = shapely.set_precision(shapely.Point(0.123456, 0.654321).buffer(10.0, quad_segs=5), 1e-4)
    stored = cache.cached("thing", "g" * 64, lambda: {"outline": outline})["outline"]
    again = cache.cached("thing", "g" * 64, lambda: {"outline": None})["outline"]
    assert again is not None and again is not stored  # read back from the file
    assert shapely.get_precision(again) == 1e-4 and again.wkb == outline.wkb
    assert shapely.buffer(again, 3.0).wkb == shapely.buffer(outline, 3.0).wkb


def test_decoded_data_follows_the_file(cache_folder: Path, tmp_path: Path) -> None:
    path = tmp_path / "data.txt"
    path.write_text("one")
    reads: list[str] = []

    def load(p: Path) -> str:
        reads.append(p.read_text())
        return reads[-1]

    assert cache.cached_data("thing", path, load) == "one" and cache.cached_data("thing", path, load) == "one"
    assert reads == ["one"]  # the second came from the cache
    path.write_text("two")
    assert cache.cached_data("thing", path, load) == "two" and reads == ["one", "two"]  # new bytes: decoded again
    with pytest.raises(FileNotFoundError):  # a missing file is the reader's to report
        cache.cached_data("thing", tmp_path / "missing.txt", load)


def test_a_variant_of_decoded_data_is_kept_beside_it_and_follows_the_file(cache_folder: Path, tmp_path: Path) -> None:
    """A form of the data derived from the file alone (the land without Antarctica) is kept under its own key:
    read back while the file is unchanged, made again when it changes, never taken for the decoded file."""
    path = tmp_path / "data.txt"
    path.write_text("one")
    made: list[str] = []

    def upper(p: Path) -> str:
        made.append(p.read_text().upper())
        return made[-1]

    assert cache.cached_data("thing", path, upper, variant="upper") == "ONE"
    assert cache.cached_data("thing", path, upper, variant="upper") == "ONE" and made == ["ONE"]
    assert cache.cached_data("thing", path, lambda p: p.read_text()) == "one"  # the plain decoding is its own
    path.write_text("two")
    assert cache.cached_data("thing", path, upper, variant="upper") == "TWO" and made == ["ONE", "TWO"]


def test_cached_legend_and_marks_are_the_planned_ones(cache_folder: Path, default_config: Config) -> None:
    from boardgen.games.global_wellbeing import kit
    from boardgen.games.global_wellbeing.board_art import make_art
    from boardgen.geomap.jigsaw import piece_marks
    from boardgen.plugin import BuildContext

    def planned() -> tuple[Any, Any]:
        ctx = BuildContext(default_config)
        art = kit.build_board_art(ctx)
        return art.legend, kit.board_marks(art)

    fresh_ctx = BuildContext(default_config)
    fresh_art = make_art(fresh_ctx.board, kit.board_sections(fresh_ctx))
    fresh_marks = piece_marks(fresh_art.board, fresh_art.sections, fresh_art.coast_mm,
                              [b.polygon for b in fresh_art.legend])
    for legend, marks in (planned(), planned()):  # made and stored, then read back
        assert legend == fresh_art.legend
        assert [(m.section, m.kind, m.text, m.centre_mm, m.footprint.wkb) for m in marks] == [
            (m.section, m.kind, m.text, m.centre_mm, m.footprint.wkb) for m in fresh_marks
        ]
    assert len(list(cache_folder.glob("legend-*.pickle"))) == 1
    assert len(list(cache_folder.glob("section-marks-*.pickle"))) == 1


def test_legend_key_follows_the_art_code(tmp_path: Path) -> None:
    sources = ("games/global_wellbeing/board_art.py",)
    original = (cache.PACKAGE_ROOT / sources[0]).read_text()
    for name, text in (("a", original), ("b", original + "\n# an edit\n")):
        (tmp_path / name / sources[0]).parent.mkdir(parents=True)
        (tmp_path / name / sources[0]).write_text(text)
    before = cache.source_fingerprint(tmp_path / "a", sources)
    assert before == cache.source_fingerprint(cache.PACKAGE_ROOT, sources)
    assert cache.source_fingerprint(tmp_path / "b", sources) != before  # an edited art module: a new key


def test_values_made_from_a_board_follow_the_templates_sections(default_board: Any) -> None:
    """The board's key is its map alone; a cut and what sits on it also follow the template's sections keys."""
    config = default_board.config
    other = dataclasses.replace(default_board, config=config.model_copy(
        update={"sections": config.sections.model_copy(update={"knob_depth_mm": 13.0})}))
    assert geocache.board_key(other.config) == geocache.board_key(config)
    assert geocache._derived_inputs(other, "x") != geocache._derived_inputs(default_board, "x")
