"""Built geographic maps on disk (``boardgen.cache``), with the values made from them (a jigsaw cut, a legend's
placement, the pieces' marks), so `info`, `cells`, `sections`, `simulate` and a rebuild of any game with a
geographic board skip the map when nothing it depends on changed.

A board's key is its ``MapSpec`` (without the template's file name), the sha256 of each data file it reads,
boardgen's version and source and the libraries' versions: a designer's edit to a game's rules or printed parts
reads the board back; an edit to the map, hexes, zones or board builds it again.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

from boardgen.cache import cached, make_key
from boardgen.geomap.model import Board, MapSpec

T = TypeVar("T")


def board_key(template: Any) -> str:
    """The cache key of the map of ``template`` (a ``MapSpec`` or a template holding its sections)."""
    from boardgen.geomap.build import DATA_KEYS, data_file
    from boardgen.io import sha256_file

    spec = MapSpec.of(template)
    data = {key: sha256_file(data_file(spec, key)) for key in DATA_KEYS}
    return make_key("board", repr(dataclasses.replace(spec, source="")), data)


def cached_board(template: Any) -> Board:
    """The built map of ``template`` (a ``MapSpec``, or a game's template holding its sections; the board keeps
    it as its ``config``), from the cache when its inputs are unchanged."""
    spec = MapSpec.of(template)

    def build() -> Board:
        from boardgen.geomap.build import build_board  # only on a miss: a cached board needs none of its imports

        return build_board(spec)

    board: Board = cached("board", board_key(spec), build)
    # the cached board was built from a spec with the same map but maybe another template, source or hash
    if board.config is template and board.spec == spec:
        return board
    return dataclasses.replace(board, config=template, spec=spec)


def _derived_inputs(board: Board, inputs: str) -> str:
    """The key text of a value made from ``board``: the board's key, the game's ``sections`` settings when its
    template has them (the cut and what sits on it follow them) and the caller's ``inputs``."""
    return f"{board_key(board.map_spec)} {getattr(board.config, 'sections', None)!r} {inputs}"


def cached_sections(board: Board, max_section_mm: tuple[float, float] | tuple[tuple[float, float], ...] | None) -> Any:
    """The board's jigsaw cut (layout/sections.py), from the cache when the board's inputs are unchanged: the
    cut depends only on the board, the template's sections settings and the page size."""
    from boardgen.layout.sections import cut_sections

    key = make_key("sections", _derived_inputs(board, repr(max_section_mm)), {})
    return cached("sections", key, lambda: cut_sections(board, max_section_mm))


def cached_for_board(kind: str, board: Board, inputs: str, make: Callable[[], T], sources: tuple[str, ...] = ()) -> T:
    """A value made from the board (the legend's placement, the jigsaw pieces' marks), cached beside it: its key
    is the board's, plus ``inputs`` (a text naming everything else the value depends on, e.g. measured text
    widths) and the ``sources`` files that make it."""
    return cached(kind, make_key(kind, _derived_inputs(board, inputs), {}, sources), make)
