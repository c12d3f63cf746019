"""Collect a game's printed words into its message catalogs: the strings its code marks with ``_()`` / ``n_()``
/ ``N_()``, the marked strings of the shared kit modules (``boardgen.i18n.SHARED_SOURCES``: README lines,
inventory headings, dice), and the printed columns (``TEXT_COLUMNS``) of the card rows the game bundles in its
``data/`` folder.

    python scripts/extract_messages.py resilience-earth            # update every catalog of the game
    python scripts/extract_messages.py resilience-earth --init fr  # start the French catalog
    python scripts/extract_messages.py philanthropist --pot build/philanthropist.pot  # the template alone

Each catalog is ``boardgen/games/<package>/locale/<lang>/LC_MESSAGES/boardgen.po``: new strings are added
empty, strings the code no longer has are kept as obsolete (``#~``) entries, changed ones are marked fuzzy (a
fuzzy entry prints in English until a translator checks it). docs/languages.md shows the whole round.
"""

from __future__ import annotations

import argparse
import ast
import csv
import sys
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir, extract_from_file
from babel.messages.pofile import read_po, write_po

from boardgen.i18n import CATALOG_DOMAIN, SHARED_SOURCES, TEXT_COLUMNS, catalog_path, game_package, parse_language
from boardgen.plugin import get_game

KEYWORDS = {**DEFAULT_KEYWORDS, "n_": (1, 2), "N_": None}


def imported_sources(package_dir: Path) -> list[str]:
    """The modules outside the game's own package (paths under ``boardgen/``) its code imports: the shared ones and
    another game's it builds on (Global Warming draws the piecepack's parts). Their marked words print in the
    game's kit (the piecepack's sheet headings, a map's legend), so they go into its catalog."""
    found: set[str] = set()
    boardgen_dir = package_dir.parents[1]
    for path in sorted(package_dir.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([node.module] if isinstance(node, ast.ImportFrom) and node.module and not node.level else
                     [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            for name in names:
                parts = name.split(".")
                if parts[0] != "boardgen" or parts[1:3] == ["games", package_dir.name]:
                    continue
                module = boardgen_dir.joinpath(*parts[1:]).with_suffix(".py")
                if module.is_file():
                    found.add(module.relative_to(boardgen_dir).as_posix())
    return sorted(found - set(SHARED_SOURCES))


def extracted(package_dir: Path) -> Catalog:
    """Every printed word of the game: the marked strings of its code and of the shared kit modules, and the
    printed columns of its bundled card rows, with the files and lines they come from."""
    template = Catalog(project="boardgen", domain=CATALOG_DOMAIN, charset="utf-8")
    for filename, lineno, message, comments, context in extract_from_dir(
            package_dir, method_map=[("**.py", "python")], keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)):
        template.add(message, None, [(str(Path(package_dir.name) / filename), lineno)],
                     auto_comments=comments, context=context)
    boardgen_dir = Path(__file__).resolve().parent.parent / "boardgen"
    for shared in (*SHARED_SOURCES, *imported_sources(package_dir)):
        for lineno, message, comments, context in extract_from_file(
                "python", boardgen_dir / shared, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)):
            template.add(message, None, [(f"boardgen/{shared}", lineno)], auto_comments=comments, context=context)
    for path in sorted((package_dir / "data").glob("*.csv")):
        with path.open(encoding="utf-8", newline="") as fh:
            rows = csv.DictReader(fh)
            for number, row in enumerate(rows, start=2):
                for column in TEXT_COLUMNS:
                    if (row.get(column) or "").strip():
                        template.add(row[column].strip(), None, [(f"{package_dir.name}/data/{path.name}", number)],
                                     auto_comments=[f"card row column {column!r}"])
    return template


def prefill_shared(catalog: Catalog, language: str, path: Path) -> int:
    """The shared kit words (README lines, sheet headings, inventory headings) of a new catalog, taken from
    other games' catalogs in the same language (they are the same sentences): how many were filled."""
    games_dir = path.parents[4]
    sources = [p for p in sorted(games_dir.glob(f"*/locale/{language.replace('-', '_')}/LC_MESSAGES/"
                                                 f"{CATALOG_DOMAIN}.po")) if p != path]
    filled = 0
    for source in sources:
        with source.open("rb") as fh:
            known = read_po(fh)
        for message in catalog:
            if not message.id or (message.string and all(message.string)):
                continue
            if not any(str(file).startswith("boardgen/") for file, _line in message.locations):
                continue  # only the shared modules' words: a game's own words are its translator's
            have = known.get(message.id, context=message.context)
            if have is not None and have.string and not have.fuzzy:
                message.string = have.string
                filled += 1
    return filled


def write_catalog(path: Path, catalog: Catalog) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as fh:
        write_po(fh, catalog, width=110, sort_output=False, omit_header=False, include_lineno=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", help="the game as templates name it (resilience-earth)")
    parser.add_argument("--init", metavar="LANG", help="start a catalog for this BCP 47 language tag")
    parser.add_argument("--pot", metavar="PATH", type=Path,
                        help="write the game's catalog template (every printed word, no translations) to PATH")
    args = parser.parse_args(argv)
    game = get_game(args.game, "<command line>")
    package = game_package(game)
    package_dir = catalog_path(package, "en").parents[3]
    template = extracted(package_dir)
    if args.pot:
        write_catalog(args.pot, template)
        print(f"{args.pot}: {sum(1 for m in template if m.id)} messages")
        return 0
    if args.init:
        language = parse_language(args.init, "<command line>", "--init")
        path = catalog_path(package, language)
        if path.exists():
            print(f"{path} exists; run without --init to update it", file=sys.stderr)
            return 2
        catalog = Catalog(locale=Locale.parse(language, sep="-"), project="boardgen", domain=CATALOG_DOMAIN,
                          charset="utf-8")
        catalog.update(template)
        shared = prefill_shared(catalog, language, path)
        write_catalog(path, catalog)
        print(f"{path}: {len(catalog) - shared} messages to translate"
              + (f" ({shared} shared kit words taken from the game catalogs already in {language})" if shared else ""))
        return 0
    locale_dir = package_dir / "locale"
    for path in sorted(locale_dir.glob(f"*/LC_MESSAGES/{CATALOG_DOMAIN}.po")):
        with path.open("rb") as fh:
            catalog = read_po(fh)
        catalog.update(template, update_header_comment=False, update_creation_date=False)
        write_catalog(path, catalog)
        missing = sum(1 for m in catalog if m.id and not m.string)
        fuzzy = sum(1 for m in catalog if m.id and m.fuzzy)
        print(f"{path}: {len(catalog)} messages, {missing} untranslated, {fuzzy} fuzzy")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
