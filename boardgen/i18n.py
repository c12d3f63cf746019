"""Language editions: the template's ``edition: {name: ..., language: ...}`` and the message catalogs every
game's printed words come from.

A template names its language with a BCP 47 tag (``de``, ``pt-BR``, ``zh-Hant``), checked with Babel. English
(``en``, the default) is the language the code is written in and needs no catalog. Any other language reads the
game's catalog ``boardgen/games/<package>/locale/<lang>/LC_MESSAGES/boardgen.po`` (compiled in memory at run
time with Babel, so a translator edits the ``.po`` file and nothing else; ``scripts/extract_messages.py``
collects the marked strings of the code into it). ``translator(config, game)`` gives the ``gettext`` and
``ngettext`` functions the leaflets, cards and kit READMEs use.
"""

from __future__ import annotations

import gettext as _gettext
import importlib
import io
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from boardgen.errors import ConfigError, DataError, LayoutError

DEFAULT_LANGUAGE = "en"
CATALOG_DOMAIN = "boardgen"
_EDITION_KEYS = ("name", "language")
SHARED_SOURCES = (
    "render/imposition.py", "kit/cut_edition.py", "kit/parts.py", "cards/dice.py", "cards/deck.py",
    "render/board_print.py", "cards/sheets.py", "kit/assembler.py", "kit/readme.py", "kit/board.py")
"""The shared modules (paths under ``boardgen/``) whose printed words every game's kit uses (README lines for
double-sided and print-then-cut files, inventory headings and part shapes, paper dice): their words go into
every game's catalog, so one ``.po`` file holds all the words a game's kit prints."""
TEXT_COLUMNS = ("title", "text", "goal", "subtitle")
"""The printed columns of a game's card rows: ``scripts/extract_messages.py`` collects the bundled rows' words
into the catalogs, and a row may carry its own translation in a column ``<column>_<language>`` (``text_de``)."""


def N_(message: str) -> str:  # noqa: N802 - the name xgettext and Babel know
    """Marks a word the code prints after a lookup (a card name from the template): extracted, not translated
    here."""
    return message


def parse_language(tag: object, source: str, key: str = "edition.language") -> str:
    """``tag`` as a normalised BCP 47 tag (``pt_br`` -> ``pt-BR``); a tag Babel does not know is a one-line
    ConfigError naming ``key``."""
    from babel import Locale, UnknownLocaleError

    if not isinstance(tag, str) or not 1 <= len(tag) <= 35 or not tag.replace("-", "").replace("_", "").isalnum():
        raise ConfigError(source, key, f"expected a BCP 47 language tag such as 'de' or 'pt-BR', got {tag!r:.60}")
    try:
        locale = Locale.parse(tag.replace("_", "-"), sep="-")
    except (ValueError, UnknownLocaleError):
        raise ConfigError(source, key, "expected a BCP 47 language tag Babel knows, such as 'de' or 'pt-BR', "
                          f"got {tag!r}") from None
    parts = [locale.language, locale.script, locale.territory, locale.variant]
    return "-".join(p for p in parts if p)


def normalise_edition(data: dict[str, Any], source: str) -> dict[str, Any]:
    """A template mapping with ``edition: {name: N, language: L}`` written as the keys every game's model reads:
    ``edition: N`` (default: ``<game>-<language>``, or the game's name in English) and ``language: L``. A plain
    ``edition: N`` stays as it is (English)."""
    if "language" in data:
        raise ConfigError(source, "language", "unknown key; the language goes under the edition: "
                          "`edition: {language: de}`")
    edition = data.get("edition")
    if not isinstance(edition, dict):
        return data
    unknown = [k for k in edition if k not in _EDITION_KEYS]
    if unknown:
        raise ConfigError(source, f"edition.{unknown[0]}", f"unknown key; expected one of {', '.join(_EDITION_KEYS)}")
    language = parse_language(edition.get("language", DEFAULT_LANGUAGE), source)
    if "game" in data:
        game = data["game"]
    else:
        from boardgen.plugin import default_game

        game = default_game(source)
    name = edition.get("name", str(game) if language == DEFAULT_LANGUAGE else f"{game}-{language.lower()}")
    out = dict(data)
    out["edition"] = name
    if language != DEFAULT_LANGUAGE:
        out["language"] = language
    return out


def game_package(game: Any) -> str:
    """The Python package of a game plug-in (``boardgen.games.<name>``)."""
    module = type(game).__module__
    return module.rsplit(".", 1)[0] if not hasattr(importlib.import_module(module), "__path__") else module


def catalog_path(package: str, language: str) -> Path:
    """Where the catalog of ``language`` for the game in ``package`` lives (it may not exist)."""
    root = Path(importlib.import_module(package).__file__ or "").parent
    return root / "locale" / language.replace("-", "_") / "LC_MESSAGES" / f"{CATALOG_DOMAIN}.po"


def _catalog_candidates(package: str, language: str) -> list[Path]:
    """The catalogs tried for ``language``, most specific first: ``de-CH`` -> de_CH, then de."""
    parts = language.split("-")
    return [catalog_path(package, "-".join(parts[:n])) for n in range(len(parts), 0, -1)]


def find_catalog(package: str, language: str) -> Path | None:
    return next((p for p in _catalog_candidates(package, language) if p.is_file()), None)


@lru_cache(maxsize=32)
def _compiled(path: Path, mtime_ns: int) -> _gettext.GNUTranslations:
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with path.open("rb") as fh:
        catalog = read_po(fh)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    return _gettext.GNUTranslations(buf)


@dataclass(frozen=True)
class Translator:
    """The printed words of one game in one language."""

    language: str
    translations: _gettext.NullTranslations

    def gettext(self, message: str) -> str:
        return self.translations.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.translations.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        return self.translations.pgettext(context, message)

    def number(self, value: float, decimals: int | None = None) -> str:
        """``value`` as the language writes a number ("0.5" in English, "0,5" in German); ``decimals`` fixed,
        else as short as ``:g`` gives it."""
        plain = f"{value:g}" if decimals is None else f"{value:.{decimals}f}"
        if self.language == DEFAULT_LANGUAGE:
            return plain
        from babel import Locale
        from babel.numbers import format_decimal

        shown = decimals if decimals is not None else len(plain.split(".")[1]) if "." in plain else 0
        pattern = "0." + "0" * shown if shown else "0"
        return format_decimal(float(plain), pattern, locale=Locale.parse(self.language, sep="-"))

    def percent(self, value: float, decimals: int = 0) -> str:
        """``value`` as a percentage the language writes it ("12.5%" in English, "12,5 %" in German)."""
        if self.language == DEFAULT_LANGUAGE:
            return f"{value:.{decimals}%}"
        from babel import Locale
        from babel.numbers import format_percent

        locale = Locale.parse(self.language, sep="-")
        pattern = str(locale.percent_formats[None].pattern).split(";")[0]
        if decimals:
            pattern = pattern.replace("0", "0." + "0" * decimals, 1) if "." not in pattern else pattern
        return format_percent(value, pattern, locale=locale)


def english() -> Translator:
    """The code's own words (no catalog)."""
    return Translator(DEFAULT_LANGUAGE, _gettext.NullTranslations())


_PRINTING: ContextVar[Translator | None] = ContextVar("boardgen_edition_words", default=None)


def current() -> Translator:
    """The words of the edition being built (``printing_in``), else English: what the shared machinery deep
    in a build (sheet headings, the ruler's caption, README lines) prints when no translator is passed."""
    return _PRINTING.get() or english()


@contextmanager
def printing_in(tr: Translator) -> Iterator[None]:
    """Within the block, ``current()`` is ``tr`` (the build runs every stage of a kit in it)."""
    token = _PRINTING.set(tr)
    try:
        yield
    finally:
        _PRINTING.reset(token)


def check_catalog(config: Any, game: Any) -> None:
    """A language other than English needs the game's catalog: a one-line ConfigError naming the file to add."""
    language = getattr(config, "language", DEFAULT_LANGUAGE)
    if language == DEFAULT_LANGUAGE:
        return
    package = game_package(game)
    if find_catalog(package, language) is None:
        where = catalog_path(package, language.split("-")[0])
        shown = where.relative_to(Path(importlib.import_module("boardgen").__file__ or "").parent.parent)
        raise ConfigError(getattr(config, "source", "<template>"), "edition.language",
                          f"{game.name} has no {language!r} edition yet; expected a catalog {shown} "
                          "(docs/languages.md shows how to add one)")


def translator(config: Any, game: Any = None) -> Translator:
    """gettext/ngettext of ``game``'s printed words in the template's language (English: the code's own);
    ``game`` None: the game the config names."""
    language = getattr(config, "language", DEFAULT_LANGUAGE)
    if language == DEFAULT_LANGUAGE:
        return Translator(language, _gettext.NullTranslations())
    if game is None:
        from boardgen.plugin import get_game

        game = get_game(config.game, getattr(config, "source", "<template>"))
    check_catalog(config, game)
    path = find_catalog(game_package(game), language)
    assert path is not None
    return Translator(language, _compiled(path, path.stat().st_mtime_ns))


def localised_cell(row: dict[str, str], column: str, tr: Translator) -> str:
    """A card row's printed ``column`` in the translator's language: the row's own column ``text_de-CH`` /
    ``text_de`` if it has one, else the catalog's translation of the English cell, else the English cell."""
    english = row.get(column, "")
    if tr.language == DEFAULT_LANGUAGE:
        return english
    parts = tr.language.split("-")
    for n in range(len(parts), 0, -1):
        own = row.get(f"{column}_{'-'.join(parts[:n])}", "")
        if own:
            return own
    return tr.gettext(english) if english else english


@contextmanager
def in_language(config: Any) -> Iterator[None]:
    """Text that does not fit (a card's LayoutError, a FitError) in a non-English edition names the language
    too, so the translator knows which catalog's words to shorten."""
    language = getattr(config, "language", DEFAULT_LANGUAGE)
    try:
        yield
    except (LayoutError, DataError) as exc:
        if language == DEFAULT_LANGUAGE or isinstance(exc, ConfigError) or f"language {language}" in str(exc):
            raise
        raise type(exc)(f"{exc} (edition language {language})") from None
