"""Where compiled (numba) kernels keep their machine code, and the decorator that compiles a kernel's functions.

A kernel module decorates its functions with ``compiled(__file__, *other_sources)``: numba compiles each on first
call and keeps the machine code on disk (``cache=True``) in a folder of boardgen's cache (``BOARDGEN_CACHE_DIR``
or the user cache directory) under ``numba/``, named after the kernel's source files and numba's version. A kernel
that calls another module's compiled functions (``boardgen.play.kernel_random``) names that module's file too:
numba inlines the callee into the caller's cached code but checks only the caller's own file for changes, so the
folder name is what keeps a changed callee from meeting stale code. ``NUMBA_CACHE_DIR`` overrides the folder.

Which path plays a game's batch is chosen by ``BOARDGEN_ENGINE`` (every game's kernel reads the same
variable): ``reference`` (the rules API, always), ``kernel`` (the kernel whenever it plays the game) or
``auto``/unset: the kernel once enough games have been asked for in this process to pay for loading it
(:class:`KernelLoader`).

Importing this module does not import numba; ``compiled`` and ``KernelLoader.load`` do.
"""

from __future__ import annotations

import functools
import os
import sys
import time
from collections.abc import Callable, Sequence
from hashlib import sha256
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])
ENGINE_ENV = "BOARDGEN_ENGINE"
ENGINES = ("auto", "kernel", "reference")


_LOADING_S = [0.0]


def loading_s() -> float:
    """Seconds (wall) this process has spent loading compiled kernels: importing numba and a kernel module, its
    machine code read from the disk cache, numba set up. `boardgen simulate` counts it as start-up, like the
    imports, and reports it beside the games' rate rather than in it."""
    return _LOADING_S[0]


def engine_setting() -> str:
    """``BOARDGEN_ENGINE``: auto (unset), kernel or reference."""
    value = os.environ.get(ENGINE_ENV, "").strip().lower() or "auto"
    if value not in ENGINES:
        raise ValueError(f"{ENGINE_ENV}={value!r}: expected one of {', '.join(ENGINES)}")
    return value


@functools.cache
def _numba_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("numba")
    except PackageNotFoundError:
        return "none"


def numba_cache_dir(*sources: str | Path) -> Path:
    """The folder numba caches the kernel made of ``sources`` in (``NUMBA_CACHE_DIR`` if set)."""
    override = os.environ.get("NUMBA_CACHE_DIR")
    if override:
        return Path(override)
    from boardgen.cache import cache_dir

    digest = sha256()
    for source in sources:
        path = Path(source)
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    first = Path(sources[0]) if sources else Path("kernel")
    game_dir = first.parent.parent if first.parent.name == "rules" else first.parent  # a game's rules/ folder
    name = f"{game_dir.name}-{first.stem}"  # the game package and "kernel"
    return cache_dir() / "numba" / f"{name}-{digest.hexdigest()[:16]}-numba{_numba_version()}"


def compiled(*sources: str | Path, refcounts: bool = True, **options: Any) -> Callable[[F], F]:
    """A decorator: ``numba.njit(cache=True, **options)`` with the machine code cached in
    ``numba_cache_dir(*sources)`` (numba reads its cache folder as a function is decorated, so it is set for that
    moment only and other kernels keep theirs).

    ``refcounts=False`` compiles without numba's reference counting of arrays (its ``_nrt`` option), for the
    small functions a kernel calls thousands of times a game over arrays its caller owns: numba otherwise counts
    a reference up and down, atomically, for every array argument of every call that LLVM does not inline,
    which was a quarter of one game's kernel time. Such a function must not make an array (``np.zeros`` ...);
    numba refuses to compile one that does."""
    import numba

    folder = str(numba_cache_dir(*sources))
    if not refcounts:
        options["_nrt"] = False

    def decorate(function: F) -> F:
        before = numba.config.CACHE_DIR  # type: ignore[attr-defined]
        numba.config.CACHE_DIR = folder  # type: ignore[attr-defined]
        try:
            return numba.njit(cache=True, **options)(function)  # type: ignore[no-any-return]
        finally:
            numba.config.CACHE_DIR = before  # type: ignore[attr-defined]

    return decorate


def game_seeds(seed: int, start: int, stop: int) -> list[int]:
    """``derive_seed(seed, "game", i)`` for i in start..stop: each game's seed as ``simulate`` derives it."""
    head = f"{seed}:game:".encode()
    return [int.from_bytes(sha256(head + str(i).encode()).digest()[:8], "big") >> 1 for i in range(start, stop)]


def generator_seeds(seeds: Sequence[int], players: int) -> Any:
    """(games, 1 + players) int64: the seeds of each game's generators as ``play_one`` derives them, column 0
    ``derive_seed(s, "chance")`` and column 1 + p ``derive_seed(s, "seat", p)`` (a kernel seeds
    ``kernel_random`` states with them)."""
    import numpy as np

    tails = [b":chance", *(b":seat:%d" % p for p in range(players))]
    flat = [int.from_bytes(sha256(head + tail).digest()[:8], "big") >> 1
            for head in (str(s).encode() for s in seeds) for tail in tails]
    return np.array(flat, dtype=np.int64).reshape(len(seeds), players + 1)


def lineup_indices(bots: int, players: int, start: int, stop: int, rotate: bool) -> Any:
    """(games, players) int64: which of ``bots`` line-up entries sits in each seat of games ``start .. stop``, as
    ``boardgen.play.simulate.lineup`` seats them (the list repeated to fill the seats, shifted by the game)."""
    import numpy as np

    games = np.arange(start, stop, dtype=np.int64)
    shift = games % bots if rotate else np.zeros_like(games)
    return (np.arange(players, dtype=np.int64)[None, :] + shift[:, None]) % bots


def batch_seeds(kinds_of: Sequence[str], bots: Sequence[str], players: int, seed: int, start: int, stop: int,
                rotate: bool) -> tuple[Any, Any, Any]:
    """Games ``start .. stop`` of a simulation as a kernel plays them: (the bot in each seat as an index into
    ``kinds_of``, each game's seed, its generators' seeds), all as ``simulate`` line them up and seed them."""
    import numpy as np

    codes = np.array([kinds_of.index(b) for b in bots], dtype=np.int64)
    kinds = codes[lineup_indices(len(bots), players, start, stop, rotate)]
    seeds = game_seeds(seed, start, stop)
    return kinds, np.array(seeds, dtype=np.int64), generator_seeds(seeds, players)


_BLAS_MODULE = "scipy.linalg.cython_blas"


def import_arraymath_without_blas() -> None:
    """Import numba's array maths (which loading the kernel needs) with its BLAS probe answered "absent".
    The probe imports scipy.linalg when scipy is installed (open_spiel brings it), 0.4 s of a 0.9 s kernel
    load; no kernel does linear algebra. The probe runs once, at that module's import, so the block is
    lifted straight after: later imports of scipy.linalg work as usual."""
    if _BLAS_MODULE in sys.modules:
        return
    sys.modules[_BLAS_MODULE] = None  # type: ignore[assignment]  # None in sys.modules: "import halted"
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        del sys.modules[_BLAS_MODULE]


def kernel_sources(module: str) -> tuple[Path, Path]:
    """The files a game's kernel is compiled from: its own module and the random streams it compiles in (found,
    not imported: importing them imports numba)."""
    import importlib.util

    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        raise ImportError(f"no kernel module {module}")
    return Path(spec.origin).resolve(), Path(__file__).resolve().with_name("kernel_random.py")


class KernelLoader:
    """A game's compiled kernel module, imported (its machine code loaded from the disk cache, or compiled) the
    first time a batch goes through it. ``wanted(games)`` says whether the next ``games`` games should: in auto
    mode only once the games asked for in this process cost the API path more than loading the kernel
    (``load_cost_games`` API games when the cache holds it, ``compile_cost_games`` when it must compile), so that
    ``simulate --games 1`` never pays for numba."""

    def __init__(self, module: str, load_cost_games: float, compile_cost_games: float) -> None:
        self.module_name = module
        self.sources = kernel_sources(module)
        self.load_cost_games = load_cost_games
        self.compile_cost_games = compile_cost_games
        self.module: ModuleType | None = None
        self.failed = ""
        self.asked = 0.0

    def _marker(self) -> Path:
        return numba_cache_dir(*self.sources) / "compiled"

    def cached(self) -> bool:
        """Whether a run has compiled the kernel into its cache folder before."""
        try:
            return self._marker().is_file()
        except OSError:
            return False

    def mark_compiled(self) -> None:
        marker = self._marker()
        if marker.is_file():
            return
        try:
            marker.parent.mkdir(parents=True, exist_ok=True)
            marker.write_text(f"numba has compiled {self.module_name} into this folder\n")
        except OSError:
            pass  # a read-only cache: every run compiles; auto mode keeps to the API for small runs

    def load(self) -> ModuleType | None:
        """The kernel module, or None when numba cannot be imported (the reason in ``failed``)."""
        if self.module is not None or self.failed:
            return self.module
        started = time.perf_counter()
        try:
            import importlib

            import_arraymath_without_blas()
            self.module = importlib.import_module(self.module_name)
            from boardgen.play import kernel_random

            kernel_random.ready(1)
        except ImportError as error:
            self.failed = f"numba is not available ({type(error).__name__}: {error})"
        finally:
            _LOADING_S[0] += time.perf_counter() - started
        return self.module

    def preload(self, games: float) -> None:
        """Load the kernel now when a run of ``games`` games (in API-game equivalents) would load it anyway: a
        build's worker does this while the board is still being made. Only from the disk cache: it never compiles
        here, and in reference mode, for no games, or where numba is missing, it does nothing."""
        setting = engine_setting()
        if setting == "reference" or games <= 0 or self.module is not None or self.failed or not self.cached():
            return
        if setting == "auto" and games < self.load_cost_games:
            return
        self.load()

    def wanted(self, games: float) -> bool:
        """Whether ``games`` more games (in API-game equivalents) go through the kernel."""
        setting = engine_setting()
        if setting == "reference":
            return False
        if setting == "auto" and self.module is None:
            self.asked += games
            if self.asked < (self.load_cost_games if self.cached() else self.compile_cost_games):
                return False
        if self.load() is None:
            if setting == "kernel":
                raise RuntimeError(f"{ENGINE_ENV}=kernel, but {self.failed}")
            return False
        return True


__all__ = ["ENGINES", "ENGINE_ENV", "KernelLoader", "compiled", "engine_setting", "game_seeds", "generator_seeds",
           "import_arraymath_without_blas", "lineup_indices", "loading_s", "numba_cache_dir"]
