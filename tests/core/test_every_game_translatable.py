"""Adding a language to any game takes only a ``.po`` file: every installed game's kit, built with a
pseudo-translation catalog made here from ``scripts/extract_messages.py``'s template (every letter of every
``msgstr`` swapped for an accented look-alike, placeholders and tags kept), prints no plain-English word in any
PDF. A word the catalog does not reach (a string the code forgot to mark, or one the extractor does not collect)
prints in plain ASCII and fails the test, named with its file.

A translation too wide for a fixed box (a reference card's line, a token's label) is a build error naming the
text and the language, never a cut-off line.

Allowed: words of the template's own text (names it chooses, which a template in another language writes in
its own words) and the short list ``ALLOWED`` below (units, the tool's name, file kinds, the paper size Letter).
"""

from __future__ import annotations

import gettext
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml
from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

import boardgen.i18n as i18n
from boardgen.build import run_stages
from boardgen.errors import LayoutError
from boardgen.plugin import BuildContext, installed_games
from boardgen.template import load

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
from extract_messages import extracted  # noqa: E402

PSEUDO_LANGUAGE = "eo"
"""A language Babel knows and no game ships a catalog for: the catalog here stands in for a translator's."""
LOOK_ALIKE = str.maketrans("aeiouyAEIOUYcnszCNSZ", "áéíóúýÁÉÍÓÚÝçñšžÇÑŠŽ")
ALLOWED = frozenset({
    "mm", "cm", "pt", "boardgen", "letter", "ana", "ben", "pdf", "svg", "png", "csv", "http", "https", "www",
    "org", "com",
})
"""Units, the tool's name, file kinds, the paper size Letter and the sample turns' players (Ana, Ben): the same
in every language."""
_KEEP = re.compile(r"(\{[^{}]*\}|<[^<>]*>|%\([^)]*\)[a-z]|%[sd]|&[a-z#0-9]+;)")
_WORD = re.compile(r"[^\W\d_]+")


def pseudo(text: str) -> str:
    """``text`` with every letter swapped for its accented look-alike, placeholders, tags and entities kept."""
    return "".join(part if _KEEP.fullmatch(part) else part.translate(LOOK_ALIKE) for part in _KEEP.split(text))


def pseudo_catalog(package: str, path: Path) -> None:
    package_dir = i18n.catalog_path(package, "en").parents[3]
    template = extracted(package_dir)
    catalog = Catalog(locale=Locale.parse(PSEUDO_LANGUAGE), project="boardgen", domain=i18n.CATALOG_DOMAIN,
                      charset="utf-8")
    catalog.update(template)
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, str):
            message.string = pseudo(message.id)
        else:
            forms = [str(form) for form in message.id]
            message.string = tuple(pseudo(forms[min(n, 1)]) for n in range(catalog.num_plurals))
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as fh:
        write_po(fh, catalog)


def _values(data: object) -> list[str]:
    """The string values of a YAML document (its keys are no printed words)."""
    if isinstance(data, dict):
        return [v for value in data.values() for v in _values(value)]
    if isinstance(data, list):
        return [v for value in data for v in _values(value)]
    return [data] if isinstance(data, str) else []


def template_words(source: Path) -> set[str]:
    """The words a template (and the files it extends) writes itself: its names and titles."""
    words: set[str] = set()
    seen: set[Path] = set()
    todo = [source]
    while todo:
        path = todo.pop()
        if path in seen or not path.is_file():
            continue
        seen.add(path)
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        words |= {w.lower() for value in _values(data) for w in _WORD.findall(value)}
        if isinstance(data, dict) and isinstance(data.get("extends"), str):
            todo.append(ROOT / "templates" / f"{data['extends']}.yaml")
        for extra in path.parent.glob(f"{path.stem}/**/*"):
            if extra.is_file() and extra.suffix in {".csv", ".yaml", ".yml", ".md", ".txt"}:
                words |= {w.lower() for w in _WORD.findall(extra.read_text(encoding="utf-8"))}
    return words


def _clipped(word: str, allowed: set[str]) -> bool:
    """A piece of an allowed word (a board section page cuts the template's title and names at its edge)."""
    return len(word) >= 4 and any(word.lower() in a for a in allowed if len(a) > len(word))


def english_left(text: str, allowed: set[str]) -> Counter[str]:
    """Plain-ASCII words of three letters or more that are neither allowed nor the template's own."""
    found: Counter[str] = Counter()
    for word in _WORD.findall(text):
        if len(word) >= 3 and word.isascii() and word.lower() not in allowed and not _clipped(word, allowed):
            found[word] += 1
    return found


GAMES = sorted(installed_games())


def _default_template(name: str) -> Path | None:
    try:
        return installed_games()[name].default_template()
    except NotImplementedError:
        return None


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_every_printed_word_comes_from_the_catalog(name: str, tmp_path: Path, monkeypatch: Any) -> None:
    source = _default_template(name)
    if source is None or not source.is_file():
        pytest.skip(f"{name} names no default template")
    plugin = installed_games()[name]
    package = i18n.game_package(plugin)
    po = tmp_path / "locale" / f"{package.rsplit('.', 1)[-1]}.po"
    pseudo_catalog(package, po)
    monkeypatch.setattr(i18n, "find_catalog", lambda _package, _language: po)
    edition = tmp_path / f"{name}-{PSEUDO_LANGUAGE}.yaml"
    edition.write_text(yaml.safe_dump({"extends": str(source),
                                       "edition": {"language": PSEUDO_LANGUAGE}}), encoding="utf-8")
    plugin, config = load(edition)
    assert config.language == PSEUDO_LANGUAGE
    ctx = BuildContext(config, plugin)
    artifacts = run_stages(ctx)
    allowed = set(ALLOWED) | template_words(source)
    leaks: dict[str, Counter[str]] = {}
    for artifact in artifacts:
        if not str(artifact.path).endswith(".pdf"):
            continue
        pdf = tmp_path / "out" / artifact.path
        pdf.parent.mkdir(parents=True, exist_ok=True)
        pdf.write_bytes(artifact.data)
        text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True,
                              timeout=120).stdout
        left = english_left(text, allowed)
        if left:
            leaks[str(artifact.path)] = left
    shown = "; ".join(f"{path}: {' '.join(w for w, _n in words.most_common(25))}" for path, words in leaks.items())
    assert not leaks, f"{name}: English words escape the catalog: {shown}"


class _Long(gettext.NullTranslations):
    """Every word four times as long: a translation far too wide for any fixed box."""

    def gettext(self, message: str) -> str:
        return " ".join([message] * 4)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return " ".join([msgid1 if n == 1 else msgid2] * 4)


def test_a_translation_too_wide_for_its_box_names_the_text_and_language() -> None:
    from boardgen.games.global_wellbeing.tables import turn_counter_card
    from boardgen.games.global_wellbeing.tokens import _label

    _plugin, config = load(ROOT / "templates" / "global-wellbeing.yaml")
    with i18n.printing_in(i18n.Translator("de", _Long())):
        with pytest.raises(LayoutError, match=r"turn counter \(language de\).*One turn is a generation"):
            turn_counter_card(config)
        with pytest.raises(LayoutError, match=r"language de.*BADGE"):
            _label(0.0, 0.0, i18n.current().gettext("BADGE"), 8.0, 6.0, "#000000")


def test_a_translation_too_wide_for_the_table_sheet_names_the_text_and_language() -> None:
    from boardgen.games.global_warming.kit import table_sheet
    from boardgen.render.imposition import A4

    _plugin, config = load(ROOT / "templates" / "global-warming.yaml")
    english = table_sheet(config, A4)
    with i18n.printing_in(i18n.Translator("de", _Long())), pytest.raises(
            LayoutError, match=r"table sheet \(language de\).*Variant: edge neighbours out"):
        table_sheet(config, A4)
    assert english.width_mm == A4.width_mm
