"""Language editions: the template's ``edition: {language: TAG}`` for every game, the message catalogs, the
German Resilience Earth leaflet (German words, every glyph in its font, nothing under 6 pt), a title in a
script with no Latin letters, and the one-line errors for an unknown tag, a missing catalog, a missing glyph
and words that cannot fit."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from boardgen.errors import ConfigError, DataError
from boardgen.i18n import catalog_path, find_catalog, game_package, normalise_edition, parse_language, translator
from boardgen.plugin import BuildContext, get_game, installed_games
from boardgen.render.imposition import A4, LETTER, Paper
from boardgen.render.typeset import MIN_TEXT_PT, FitError, missing_glyphs, register_fonts
from boardgen.template import load, read_template

ROOT = Path(__file__).resolve().parents[2]
GERMAN = ROOT / "templates" / "resilience-earth-de.yaml"


def _extending(tmp_path: Path, base: Path, **keys: object) -> Path:
    path = tmp_path / f"{base.stem}-edition.yaml"
    path.write_text(yaml.safe_dump({"extends": str(base), **keys}, allow_unicode=True), encoding="utf-8")
    return path


@pytest.mark.parametrize("tag, shown", [("de", "de"), ("de-CH", "de-CH"), ("pt_br", "pt-BR"),
                                        ("zh-Hant-TW", "zh-Hant-TW"), ("ja", "ja"), ("el", "el")])
def test_language_tags_are_read_with_babel(tag: str, shown: str) -> None:
    assert parse_language(tag, "t.yaml") == shown


@pytest.mark.parametrize("tag", ["xx-yy-zz", "english", "", "de/../../etc", 7, "a" * 80])
def test_an_unknown_language_tag_is_a_one_line_error_naming_the_key(tag: object) -> None:
    with pytest.raises(ConfigError) as err:
        normalise_edition({"game": "resilience-earth", "edition": {"language": tag}}, "t.yaml")
    assert "edition.language" in str(err.value) and "\n" not in str(err.value)


def test_edition_keys_and_the_default_name() -> None:
    data = normalise_edition({"game": "better-life", "edition": {"language": "de"}}, "t.yaml")
    assert data["edition"] == "better-life-de" and data["language"] == "de"
    assert normalise_edition({"game": "x", "edition": "mine"}, "t.yaml") == {"game": "x", "edition": "mine"}
    with pytest.raises(ConfigError, match=r"edition\.lang"):
        normalise_edition({"game": "x", "edition": {"lang": "de"}}, "t.yaml")
    with pytest.raises(ConfigError, match="language"):
        normalise_edition({"game": "x", "language": "de"}, "t.yaml")


@pytest.mark.parametrize("game", installed_games())
def test_every_game_reads_the_edition_language(game: str, tmp_path: Path) -> None:
    """English written out is the plain template; a language with no catalog is a one-line error naming the
    file a translator adds."""
    plugin = get_game(game)
    base = plugin.default_template()
    _, plain = load(base)
    _, english = load(_extending(tmp_path, base, edition={"name": plain.edition, "language": "en"}))
    assert english.edition == plain.edition and english.language == "en" == plain.language
    assert english.title == plain.title
    package = game_package(plugin)
    if find_catalog(package, "fy") is None:
        with pytest.raises(ConfigError) as err:
            load(_extending(tmp_path, base, edition={"language": "fy"}))  # West Frisian: no game has it
        message = str(err.value)
        assert "edition.language" in message and "locale/fy/LC_MESSAGES/boardgen.po" in message


def test_the_cli_refuses_a_bad_tag_in_one_line(tmp_path: Path) -> None:
    template = _extending(tmp_path, ROOT / "templates" / "resilience-earth.yaml", edition={"language": "zz-!!"})
    run = subprocess.run([sys.executable, "-m", "boardgen.cli", "validate", "-t", str(template)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and "edition.language" in run.stderr and "Traceback" not in run.stderr


GERMAN_EDITIONS = ["resilience-earth", "better-life"]


@pytest.mark.parametrize("game", GERMAN_EDITIONS)
def test_the_german_catalog_holds_every_printed_word(game: str) -> None:
    """Every string the game's code and the shared kit modules mark, and every printed column of its bundled
    card rows, is in the German catalog, translated and not fuzzy (run scripts/extract_messages.py GAME after
    changing a printed word)."""
    from babel.messages.pofile import read_po

    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from extract_messages import extracted
    finally:
        sys.path.pop(0)
    package = game_package(get_game(game))
    path = catalog_path(package, "de")
    with path.open("rb") as fh:
        catalog = read_po(fh)
    wanted = extracted(path.parents[3])
    for message in wanted:
        if not message.id:
            continue
        have = catalog.get(message.id, context=message.context)
        assert have is not None, f"not in {path.name}: {message.id!r}"
        strings = have.string if isinstance(have.string, tuple) else (have.string,)
        assert all(strings) and not have.fuzzy, f"untranslated: {message.id!r}"


def test_the_shipped_card_names_are_marked_for_translation() -> None:
    from boardgen.games.resilience_earth.kit import EVENT_NAMES

    data, _, _ = read_template(ROOT / "templates" / "resilience-earth.yaml")
    assert {e["name"] for e in data["events"]} <= set(EVENT_NAMES)


# ------------------------------------------------------------------------------------------ the German leaflet


@pytest.fixture(scope="module")
def german() -> BuildContext:
    plugin, config = load(GERMAN)
    assert config.language == "de" and config.edition == "resilience-earth-de"
    return BuildContext(config, plugin)


def _pdf_fonts(pdf: Path) -> list[tuple[str, str, str]]:
    """(name, embedded, subset) of every font ``pdffonts`` lists."""
    lines = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True,
                           timeout=60).stdout.splitlines()[2:]
    out = []
    for line in lines:
        fields = line.split()
        out.append((fields[0], fields[-5], fields[-4]))
    return out


def _pdf_text(data: bytes, tmp_path: Path) -> str:
    pdf = tmp_path / "leaflet.pdf"
    pdf.write_bytes(data)
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True,
                          timeout=60).stdout


def test_the_german_leaflet_is_german_fitted_and_whole(german: BuildContext, tmp_path: Path) -> None:
    import pikepdf

    from boardgen.games.resilience_earth.leaflet import leaflet_pdf
    from boardgen.render.pdf_probe import smallest_text
    from boardgen.render.print_checks import font_findings

    for paper in (A4, LETTER):
        data, pages = leaflet_pdf(german, paper)
        assert pages == 2
        text = _pdf_text(data, tmp_path)
        for word in ("Spielende", "Vorbereitung", "Klimaturm", "Siedlung", "Lebensqualität", "würfle"):
            assert word in text, word
        for english in ("Setting up", "Your turn", "The end"):
            assert english not in text
        assert smallest_text(data).size_pt >= MIN_TEXT_PT
        with pikepdf.open(tmp_path / "leaflet.pdf") as pdf:
            assert font_findings("leaflet", pdf) == []  # every font embedded and subset


def test_the_german_cards_and_readme(german: BuildContext) -> None:
    from boardgen.games.resilience_earth.kit import components_stage, event_text  # noqa: F401

    tr = translator(german.config, german.plugin)
    card = german.config.events[1]
    subtitle, body = event_text(card, tr)
    assert subtitle.startswith("BLOCKIERT") and "Runden" in subtitle and "Deckt" in body
    assert tr.gettext(card.name) == "Dürre"
    assert tr.percent(0.8) == "80\u00a0%"


# ------------------------------------------------------------------------------------------ glyphs and fitting


def _titled(ctx: BuildContext, title: str) -> BuildContext:
    config = ctx.config.model_copy(update={"title": title})
    out = BuildContext(config, ctx.plugin)
    out.computed.update(ctx.computed)
    return out


def test_a_title_with_no_latin_letters_prints_every_glyph(german: BuildContext, tmp_path: Path) -> None:
    """Greek (DejaVu Sans has it): the leaflet builds and the title is in its text."""
    from boardgen.games.resilience_earth.leaflet import leaflet_pdf

    title = "Ανθεκτική Γη"
    assert missing_glyphs(title, register_fonts()) == []
    data, pages = leaflet_pdf(_titled(german, title), A4)
    assert pages == 2 and title in _pdf_text(data, tmp_path)


NO_FONT_HAS = "ᱚᱞ ᱪᱤᱠᱤ"
"""Ol Chiki: neither DejaVu Sans nor the fallback font has it."""


def test_a_glyph_no_font_has_is_a_clean_error_naming_the_text(german: BuildContext) -> None:
    from boardgen.games.resilience_earth.leaflet import leaflet_pdf

    with pytest.raises(DataError) as err:
        leaflet_pdf(_titled(german, NO_FONT_HAS), A4)
    message = str(err.value)
    assert "U+1C5A" in message and NO_FONT_HAS[:4] in message and "\n" not in message


def test_a_japanese_title_prints_in_the_fallback_font(german: BuildContext, tmp_path: Path) -> None:
    """DejaVu Sans has no Japanese: the leaflet sets it in the fallback font, embedded and subset."""
    from boardgen.games.resilience_earth.leaflet import leaflet_pdf
    from boardgen.render.typeset import FALLBACK_FONT

    title = "レジリエンス・アース"
    assert missing_glyphs(title, register_fonts()) == []
    data, pages = leaflet_pdf(_titled(german, title), A4)
    assert pages == 2 and title in _pdf_text(data, tmp_path)
    fonts = _pdf_fonts(tmp_path / "leaflet.pdf")
    assert any(FALLBACK_FONT in name and emb == sub == "yes" for name, emb, sub in fonts), fonts


def test_words_that_cannot_fit_are_an_error_naming_the_panel_and_language(german: BuildContext) -> None:
    from boardgen.games.resilience_earth.leaflet import leaflet_pdf

    with pytest.raises(FitError) as err:
        leaflet_pdf(german, Paper("postcard", 105.0, 148.0))
    message = str(err.value)
    assert "language de" in message and "panel" in message and "\n" not in message


def test_every_pdf_part_checks_its_glyphs(tmp_path: Path) -> None:
    """Cards, boards and tokens (drawn with cairo): a Greek card prints, a Japanese one prints in the fallback
    font (embedded and subset), one in a script no font has is a clean error naming the text and the sheet."""
    from boardgen.render.cairo_backend import Page, render_pdf
    from boardgen.render.pdf_probe import marks
    from boardgen.render.scene import Font, Scene, Text

    def page(text: str) -> Page:
        return Page(63.0, 88.0, Scene((Text(10.0, 20.0, text, Font(size_pt=9.0, bold=True)),)))

    data = render_pdf([page("Καύσωνας: 2 γύροι")], title="Greek deck")
    assert any(m.kind == "text" for m in marks(data))
    japanese = tmp_path / "japanese.pdf"
    japanese.write_bytes(render_pdf([page("熱波: 2 ラウンド")], title="Japanese deck"))
    assert "熱波: 2 ラウンド" in subprocess.run(["pdftotext", str(japanese), "-"], capture_output=True, text=True,
                                             check=True, timeout=60).stdout
    fonts = _pdf_fonts(japanese)
    assert len(fonts) == 2 and all(emb == sub == "yes" for _name, emb, sub in fonts), fonts
    with pytest.raises(DataError) as err:
        render_pdf([page(NO_FONT_HAS)], title="Ol Chiki deck")
    message = str(err.value)
    assert "Ol Chiki deck" in message and NO_FONT_HAS in message and "U+1C5A" in message and "\n" not in message


def test_a_card_that_cannot_fit_names_the_language(german: BuildContext) -> None:
    from boardgen.errors import LayoutError
    from boardgen.i18n import in_language

    with pytest.raises(LayoutError, match=r"card 3 of deck 'Climate events'.*\(edition language de\)"), \
            in_language(german.config):
        raise LayoutError("card 3 of deck 'Climate events': body text does not fit its box")


@pytest.mark.parametrize("pattern", ["DejaVu Sans", "DejaVu Sans:bold", "DejaVu Sans:italic",
                                     "DejaVu Sans:bold:italic", "DejaVu Sans Condensed"])
def test_a_scenes_font_has_the_characters_of_its_files_cmap(pattern: str) -> None:
    """The characters a scene's text is checked against (fontconfig's charset of the matched font) are those the
    font file maps to a glyph, as reportlab reads its cmap."""
    from reportlab.pdfbase.ttfonts import TTFontFile

    from boardgen.render.typeset import font_codepoints, font_file

    cmap = frozenset(TTFontFile(font_file(pattern)).charToGlyph)
    assert len(cmap) > 5000 and font_codepoints(pattern) == cmap


def test_every_leaflet_font_refuses_a_glyph_it_lacks() -> None:
    """The DejaVu faces every game's leaflet registers (typeset.register_fonts): Greek, German and (through the
    fallback font) Japanese print, a word no font has is a clean error naming the text."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    font = register_fonts()
    canvas = Canvas(io.BytesIO())
    for face in (font, font + "-Bold"):
        canvas.setFont(face, 9)
        canvas.drawString(10, 10, "Ανθεκτική Γη – Klimaturm, Würfel, 熱波")
        with pytest.raises(DataError, match=r"U\+1C5A.*ᱚᱞ"):
            canvas.drawString(10, 20, NO_FONT_HAS)


def test_the_german_decks_keep_their_kinds(german: BuildContext) -> None:
    """A deck's sheet kind decides how it is laid out: translated deck names must not change it (the German
    event cards went from nine a sheet to four when their kind followed the German name)."""
    from boardgen.games.resilience_earth.kit import CARD_KINDS, event_deck

    deck, cards = event_deck(german.config)
    assert deck.name == "Klimaereignisse" and cards.kind == CARD_KINDS[0]
