"""The cache of built boards: used only when every input matches, rebuilt when corrupt or stale, and never a
reason for an output byte to differ."""

from __future__ import annotations

import dataclasses
import pickle
from pathlib import Path

import pytest

from boardgen import cache
from boardgen.config import Config


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


def test_board_key_follows_the_map_not_the_rules(default_config: Config) -> None:
    key = cache.board_key(default_config)
    other_rules = dataclasses.replace(default_config, rules=dataclasses.replace(default_config.rules, turns=7))
    assert cache.board_key(other_rules) == key
    other_map = dataclasses.replace(default_config, hexes=dataclasses.replace(default_config.hexes, target_cells=290))
    assert cache.board_key(other_map) != key


def test_cached_board_equals_a_fresh_one(cache_folder: Path, default_config: Config, default_board) -> None:  # type: ignore[no-untyped-def]
    first = cache.cached_board(default_config)  # built (the session's board was built without this cache)
    second = cache.cached_board(default_config)  # read back from disk
    assert second is not first
    for board in (first, second):
        assert board.cells == default_board.cells
        assert board.layout == default_board.layout
        assert board.land_mm.equals(default_board.land_mm)
        assert board.config == default_config
