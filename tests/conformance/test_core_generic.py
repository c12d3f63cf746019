"""The core knows no game: no module outside ``boardgen/games/`` names an installed game or imports a game's
package. A game reaches the core only through its plug-in (``boardgen.plugin.GamePlugin``)."""

from __future__ import annotations

import re
from pathlib import Path

from boardgen.plugin import installed_games

PACKAGE = Path(__file__).resolve().parents[2] / "boardgen"
CORE_SUFFIXES = (".py", ".js", ".html", ".css")

ALLOWED: set[str] = set()
"""Core files still allowed to name a game (none)."""

ORDINARY_WORDS = ("custom",)
"""One-word game names that are ordinary words in the core (a custom paper size, Tabletop Simulator's
``CustomDeck``): not searched for as words; an import of their package still is (``GAME_IMPORT``)."""

GAME_IMPORT = re.compile(r"^\s*(?:from|import)\s+boardgen\.games\.\w+|import_module\(\s*[\"']boardgen\.games\.\w+",
                         re.MULTILINE)


def game_names_pattern() -> re.Pattern[str]:
    """Every installed game as a template names it, as its package is named and by its title's words, with any
    separator between the words ("global-wellbeing", "global_wellbeing", "Global Wellbeing")."""
    words: set[tuple[str, ...]] = set()
    for name, plugin in installed_games().items():
        words.add(tuple(re.split(r"[-_ ]+", name)))
        words.add(tuple(re.split(r"[-_ ]+", type(plugin).__module__.split(".")[2])))
        title = [w for w in re.split(r"[^A-Za-z]+", plugin.title) if w and w.lower() not in ("the", "game")]
        if title:
            words.add(tuple(title))
    words -= {(w,) for w in ORDINARY_WORDS}
    alternatives = sorted((r"[-_ .]?".join(re.escape(w) for w in ws) for ws in words), key=len, reverse=True)
    return re.compile(r"\b(?:" + "|".join(alternatives) + r")\b", re.IGNORECASE)


def core_files() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*") if p.suffix in CORE_SUFFIXES and p.is_file()
                  and "games" not in p.relative_to(PACKAGE).parts[:1] and "__pycache__" not in p.parts)


def _hits(pattern: re.Pattern[str]) -> list[str]:
    hits = []
    for path in core_files():
        relative = path.relative_to(PACKAGE).as_posix()
        if relative in ALLOWED:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for match in pattern.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            hits.append(f"boardgen/{relative}:{line}: {match.group(0)!r}")
    return hits


def test_the_pattern_knows_every_installed_game() -> None:
    pattern = game_names_pattern()
    for name, plugin in installed_games().items():
        if name in ORDINARY_WORDS:
            assert not pattern.search(name) and GAME_IMPORT.search(f"from {type(plugin).__module__} import x")
            continue
        assert pattern.search(name) and pattern.search(name.replace("-", "_")), name
        assert pattern.search(type(plugin).__module__), name
    assert pattern.search("the Global Wellbeing board") and not pattern.search("a global map of wellbeing")


def test_no_core_module_names_a_game() -> None:
    hits = _hits(game_names_pattern())
    assert not hits, "core files naming a game:\n" + "\n".join(hits)


def test_no_core_module_imports_a_game() -> None:
    hits = _hits(GAME_IMPORT)
    assert not hits, "core files importing a game's module:\n" + "\n".join(hits)


def test_the_check_sees_core_files() -> None:
    files = {p.relative_to(PACKAGE).as_posix() for p in core_files()}
    assert {"plugin.py", "build.py", "geomap/build.py", "geomap/commands.py", "serve/static/app.js"} <= files
    assert not any(f.startswith("games/") for f in files)
    assert all((PACKAGE / f).is_file() for f in ALLOWED)  # an allowed file that is gone: drop it from the list


def test_a_template_without_a_game_key_is_the_one_game_that_claims_them() -> None:
    from boardgen.plugin import default_game

    claimed = [name for name, plugin in installed_games().items() if plugin.default_game]
    assert len(claimed) == 1 and default_game() == claimed[0]


def test_every_games_manifest_has_the_same_keys_and_its_own_libraries() -> None:
    import json

    from boardgen.build import CORE_LIBRARIES, manifest_artifact
    from boardgen.plugin import BuildContext
    from boardgen.template import load

    for name, plugin in installed_games().items():
        try:
            template = plugin.default_template()
        except NotImplementedError:  # a set of parts with no template of its own
            continue
        _plugin, config = load(template)
        manifest = json.loads(manifest_artifact(BuildContext(config, plugin)).data)
        assert list(manifest)[:8] == ["game", "edition", "title", "boardgen", "template", "data", "versions",
                                      "outputs"], name
        assert manifest["game"] == name
        assert list(manifest["versions"]) == ["python", *CORE_LIBRARIES, *plugin.libraries, "cairo"], name
        geographic = plugin.geo is not None and plugin.geo.map_spec(config) is not None
        assert ("pyproj" in manifest["versions"]) == geographic, name  # the map's projection library, only there
