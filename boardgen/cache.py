"""An on-disk cache of built boards (with their jigsaw cuts, legend placements and section marks, and the decoded
data files), so `info`, `cells`, `sections`, `simulate` and a rebuild skip the map when nothing it depends on
changed.

An entry is keyed by a sha256 of everything the board depends on: the template's values that shape the map
(the whole validated config minus the rules), the sha256 of each source data file, boardgen's version, a
fingerprint of boardgen's own source (the .py files of the modules a board and its cut are made by, so a
developer who edits the map code never gets a stale board) and the versions of the libraries that compute it
(numpy, shapely, pyproj/PROJ). The entry stores its key and is used only when the key matches; a corrupt,
foreign or stale entry is rebuilt, never trusted. Entries are written atomically (temporary file, then
rename), so two processes building at once each leave a whole file.

The folder is the user's cache directory (``platformdirs``), or ``BOARDGEN_CACHE_DIR``; ``BOARDGEN_NO_CACHE=1``
or a command's ``--no-cache`` turns the cache off.
"""

from __future__ import annotations

import copyreg
import functools
import hashlib
import os
import pickle
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from boardgen import __version__

T = TypeVar("T")
FORMAT = 2  # bump when the pickled types change shape (2: geometries keep their precision grid)
MAX_ENTRIES = 64  # oldest entries beyond this are removed after a write



def read_only_mapping(items: dict[Any, Any]) -> types.MappingProxyType[Any, Any]:
    return types.MappingProxyType(items)


# frozen configs and boards hold read-only mappings; pickle them as the dicts they wrap
copyreg.pickle(types.MappingProxyType, lambda m: (read_only_mapping, (dict(m),)))


def geometry_on_grid(wkb: bytes, grid_size: float) -> Any:
    """A geometry from its WKB with its precision grid (``shapely.get_precision``) set again: WKB, and so
    shapely's own pickle, drops the grid, and GEOS uses it (a buffer of a gridded outline differs)."""
    import shapely

    geometry = shapely.from_wkb(wkb)
    # pointwise: the coordinates are on the grid already, so they and the structure stay exactly as they were
    return shapely.set_precision(geometry, grid_size, mode="pointwise") if grid_size else geometry


def _geometry_reducer(geometry: Any) -> tuple[Callable[..., Any], tuple[bytes, float]]:
    import shapely

    return geometry_on_grid, (shapely.to_wkb(geometry), float(shapely.get_precision(geometry)))


def dumps(value: Any) -> bytes:
    """``pickle.dumps`` with shapely geometries pickled with their precision grid."""
    import io

    import shapely.geometry as geometries

    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    table = dict(copyreg.dispatch_table)
    for kind in (geometries.Point, geometries.LineString, geometries.LinearRing, geometries.Polygon,
                 geometries.MultiPoint, geometries.MultiLineString, geometries.MultiPolygon,
                 geometries.GeometryCollection):
        table[kind] = _geometry_reducer
    pickler.dispatch_table = table
    pickler.dump(value)
    return out.getvalue()


def enabled() -> bool:
    return os.environ.get("BOARDGEN_NO_CACHE", "") not in ("1", "true", "yes")


def cache_dir() -> Path:
    override = os.environ.get("BOARDGEN_CACHE_DIR")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_cache_dir("boardgen", appauthor=False))


def library_versions() -> str:
    import numpy
    import pyproj
    import shapely

    return f"numpy {numpy.__version__}, shapely {shapely.__version__}, pyproj {pyproj.__version__}, " \
           f"proj {pyproj.proj_version_str}"


SOURCE_GLOBS = ("*.py", "layout/*.py", "projection/*.py")
"""The package's files a cached board or cut is made by (relative to boardgen/): the core modules (config,
mapbuild, model, ...), the lattice, zones and section cutting, the projection and data readers."""


PACKAGE_ROOT = Path(__file__).resolve().parent


@functools.lru_cache(maxsize=8)
def source_fingerprint(root: Path = PACKAGE_ROOT, globs: tuple[str, ...] = SOURCE_GLOBS) -> str:
    """A sha256 over the path and bytes of the ``globs`` files under ``root`` (about 1 ms, once a process)."""
    digest = hashlib.sha256()
    for path in sorted(p for pattern in globs for p in root.glob(pattern)):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def make_key(kind: str, inputs: str, data_sha256: dict[str, str], sources: tuple[str, ...] = ()) -> str:
    """``sources``: more of the package's files (relative to boardgen/) the value is made by, beyond SOURCE_GLOBS."""
    more = [f"more source {source_fingerprint(PACKAGE_ROOT, sources)}"] if sources else []
    text = "\n".join([f"boardgen cache format {FORMAT}", kind, __version__, f"source {source_fingerprint()}", *more,
                      library_versions(), inputs, *(f"{name} {sha}" for name, sha in sorted(data_sha256.items()))])
    return hashlib.sha256(text.encode()).hexdigest()


def cached(kind: str, key: str, make: Callable[[], T]) -> T:
    """``make()``'s value from the cache when an entry with exactly this key exists, else made and stored."""
    if not enabled():
        return make()
    path = _entry_path(kind, key)
    try:
        stored = pickle.loads(path.read_bytes())
        if isinstance(stored, dict) and stored.get("key") == key and stored.get("kind") == kind:
            return stored["value"]  # type: ignore[no-any-return]
    except FileNotFoundError:
        pass
    except Exception:
        pass
    value = make()
    _store(path, {"kind": kind, "key": key, "value": value})
    return value


def _store(path: Path, entry: dict[str, Any]) -> None:
    from boardgen.io import write_atomic

    try:
        data = dumps(entry)
        write_atomic(path, data)
        entries = sorted(path.parent.glob("*.pickle"), key=lambda p: p.stat().st_mtime)
        for old in entries[:-MAX_ENTRIES]:
            old.unlink(missing_ok=True)
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        pass  # a cache that cannot be written (read-only home, full disk) only costs time


def board_key(config: Any) -> str:
    """The cache key of a geographic board: the config without what the map never reads (the rules, the printed
    parts, the title, edition and seed), the data files, the versions. A designer's edit to the components or
    the rules reads the board back; an edit to the map, hexes, zones, board or sections builds it again."""
    from boardgen.config import ComponentsConfig, RulesConfig, resolve_data_path
    from boardgen.io import sha256_file

    # the source and the template's sha256 are private attributes: in no repr
    shaped = config.model_copy(update={"rules": RulesConfig(), "components": ComponentsConfig(), "title": "",
                                       "edition": "", "seed": 0})
    data = {key: sha256_file(resolve_data_path(config, getattr(config.map, key), f"map.{key}"))
            for key in ("land_data", "koppen_data", "elevation_data")}
    return make_key("board", repr(shaped), data)


def _entry_path(kind: str, key: str) -> Path:
    return cache_dir() / f"{kind}-{key[:32]}.pickle"


def board_cached(config: Any) -> bool:
    """Whether the cache holds an entry for this template's board (it may still prove stale when read)."""
    return enabled() and _entry_path("board", board_key(config)).is_file()


def cached_board(config: Any) -> Any:
    """The built board of a geographic template, from the cache when its inputs are unchanged."""
    import dataclasses

    def build() -> Any:
        from boardgen.mapbuild import build_board  # only on a miss: a cached board needs none of its imports

        return build_board(config)

    board = cached("board", board_key(config), build)
    # the cached board was built from a config with the same map but maybe other rules, source or hash
    return dataclasses.replace(board, config=config) if board.config != config else board


def cached_data(kind: str, path: Path, load: Callable[[Path], T]) -> T:
    """A decoded source data file (land polygons, a Köppen or elevation grid), from the cache while the file's
    bytes are unchanged: a template edit that rebuilds the board need not decode the data again."""
    from boardgen.io import sha256_file

    try:
        data_sha256 = sha256_file(path)
    except OSError:
        return load(path)  # the reader says what is wrong with the file
    return cached(kind, make_key(kind, path.name, {path.name: data_sha256}), lambda: load(path))


def cached_sections(board: Any, max_section_mm: tuple[float, float] | tuple[tuple[float, float], ...] | None) -> Any:
    """The board's jigsaw cut (layout/sections.py), from the cache when the board's inputs are unchanged: the
    cut depends only on the board (whose key covers the template's sections settings) and the page size."""
    from boardgen.layout.sections import cut_sections

    key = make_key("sections", f"{board_key(board.config)} {max_section_mm!r}", {})
    return cached("sections", key, lambda: cut_sections(board, max_section_mm))


def cached_for_board(kind: str, board: Any, inputs: str, make: Callable[[], T], sources: tuple[str, ...] = ()) -> T:
    """A value made from the board (the legend's placement, the jigsaw pieces' marks), cached beside it: its key
    is the board's, plus ``inputs`` (a text naming everything else the value depends on, e.g. measured text
    widths) and the ``sources`` files that make it."""
    return cached(kind, make_key(kind, f"{board_key(board.config)} {inputs}", {}, sources), make)
