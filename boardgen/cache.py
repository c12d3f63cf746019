"""An on-disk cache of values that take long to make (built maps, decoded data files, simulated games' findings),
so `info`, `cells`, `sections`, `simulate` and a rebuild skip the work when nothing it depends on changed. The
geographic map's own entries (the board, its cut, values placed on it) are in ``boardgen.geomap.cache``.

An entry is keyed by a sha256 of everything the value depends on: the inputs the caller names (the template's values
that shape it), the sha256 of each source data file, boardgen's version, a fingerprint of boardgen's own source (the
.py files of the modules a value is made by, so a developer who edits the code never gets a stale value) and the
versions of the libraries that compute it (numpy, shapely, pyproj/PROJ). The entry stores its key and is used only
when the key matches; a corrupt, foreign or stale entry is rebuilt, never trusted. Entries are written atomically
(temporary file, then rename), so two processes building at once each leave a whole file.

The folder is the user's cache directory (``platformdirs``), or ``BOARDGEN_CACHE_DIR``; ``BOARDGEN_NO_CACHE=1``
or a command's ``--no-cache`` turns the cache off.
"""

from __future__ import annotations

import collections
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


def writable() -> bool:
    """Whether values made now can be stored for other processes to read: the cache is on and its folder (or,
    before the first entry, the nearest folder above it that exists) can be written."""
    if not enabled():
        return False
    folder = cache_dir()
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return os.access(folder, os.W_OK)


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


SOURCE_GLOBS = ("*.py", "layout/*.py", "geomap/*.py", "geomap/projection/*.py")
"""The package's files a cached board or cut is made by (relative to boardgen/): the core modules (config,
io, ...), the section cutting, the geographic map (its builder, model, lattice, zones, projection and data
readers)."""


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


HITS: collections.Counter[str] = collections.Counter()
"""Entries read back from the cache in this process, by kind ("board", "field-facts", ...): what tests and
benchmarks check a warm rebuild by."""
MISSES: collections.Counter[str] = collections.Counter()
"""Values made (and stored) in this process because the cache held no valid entry, by kind."""


def cached(kind: str, key: str, make: Callable[[], T]) -> T:
    """``make()``'s value from the cache when an entry with exactly this key exists, else made and stored."""
    if not enabled():
        return make()
    found, stored = peek(kind, key)
    if found:
        HITS[kind] += 1
        return stored  # type: ignore[no-any-return]
    MISSES[kind] += 1
    value = make()
    _store(entry_path(kind, key), {"kind": kind, "key": key, "value": value})
    return value


def peek(kind: str, key: str) -> tuple[bool, Any]:
    """(True, the value) when the cache holds a valid entry with exactly this key, else (False, None): a corrupt,
    foreign or stale entry is not trusted. It never makes the value (``cached`` does, on a miss)."""
    if not enabled():
        return False, None
    try:
        stored = pickle.loads(entry_path(kind, key).read_bytes())
    except Exception:
        return False, None
    if isinstance(stored, dict) and stored.get("key") == key and stored.get("kind") == kind:
        return True, stored["value"]
    return False, None


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


def entry_path(kind: str, key: str) -> Path:
    return cache_dir() / f"{kind}-{key[:32]}.pickle"


def cached_data(kind: str, path: Path, load: Callable[[Path], T], variant: str = "") -> T:
    """A decoded source data file (land polygons, a Köppen or elevation grid), from the cache while the file's
    bytes are unchanged: a template edit that rebuilds the board need not decode the data again. ``variant``
    names a form of the data that ``load`` derives from the file and no template key changes (the land without
    Antarctica), kept beside the decoded file."""
    from boardgen.io import sha256_file

    try:
        data_sha256 = sha256_file(path)
    except OSError:
        return load(path)  # the reader says what is wrong with the file
    inputs = path.name if not variant else f"{path.name} {variant}"
    return cached(kind, make_key(kind, inputs, {path.name: data_sha256}), lambda: load(path))
