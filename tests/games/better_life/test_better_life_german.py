"""The German BETTER Life (templates/better-life-de.yaml): its leaflet and cards print no English, a card row's own
``text_de`` column wins over the catalog, the German kits' README and inventory headings are German (BETTER Life
and Resilience Earth, built whole), and a kit whose title and cards are Japanese builds with every glyph
printed (the fallback font, embedded and subset)."""

from __future__ import annotations

import csv
import io
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml

from boardgen.i18n import printing_in, translator
from boardgen.plugin import BuildContext
from boardgen.render.imposition import A4, LETTER
from boardgen.render.typeset import MIN_TEXT_PT
from boardgen.template import load

ROOT = Path(__file__).resolve().parents[3]
GERMAN = ROOT / "templates" / "better-life-de.yaml"
ENGLISH_WORDS = ("the", "and", "you", "your", "player", "players", "card", "cards", "vote", "votes", "round",
                 "reserve", "fund", "loss", "policy", "policies", "event", "events", "roll", "take", "pay", "with",
                 "of", "to", "from", "each", "every", "when", "print", "page", "pages", "sheet", "front", "back")
"""English words that are no German words: none may print in the German kit."""
KIT_ENGLISH_WORDS = (*ENGLISH_WORDS, "bring", "box", "else", "what", "files", "leaflet", "rules", "two", "ways", "one",
                     "only", "shop", "section", "sections", "outline", "crop", "marks", "glue", "fold", "tape", "board",
                     "edge", "flip", "not", "printed", "pp", "size", "sides", "part", "parts", "scissors", "knife",
                     "ruler", "stones", "discs", "pawn", "pawns", "screen", "screens", "mat", "mats", "below", "single",
                     "double", "sided", "by")
"""The README's and inventory's English words (the kit's own vocabulary besides the cards')."""
KEPT_NAMES = re.compile(r"[\w./-]+\.(?:pdf|svg|csv|zip|txt|json|png)\b|'[a-z]+'|Print-then-Cut|Design Space|README")
"""What a German README prints as it is: file names, the SVG layers' names, a cutting machine's own words."""


def english_words(text: str, vocabulary: tuple[str, ...] = ENGLISH_WORDS) -> list[str]:
    words = set(re.findall(r"[a-z]+", text.lower()))
    return sorted(words & set(vocabulary))


def kit_english_words(text: str) -> list[str]:
    """The English words of a kit's README or inventory text, file names and layer names apart."""
    return english_words(KEPT_NAMES.sub(" ", text), KIT_ENGLISH_WORDS)


def inventory_words(inventory: str) -> str:
    """The printed words of ``inventory.csv``: part names and file pages (``kind`` and ``printed`` are keys for
    programs, the same in every language)."""
    rows = list(csv.reader(io.StringIO(inventory)))
    return " ".join([*rows[0], *(f"{r[0]} {r[5]}" for r in rows[1:] if r)])


def test_the_kit_word_check_finds_english_and_keeps_file_names() -> None:
    assert kit_english_words("components-a4.pdf, page by page:") == ["by", "page"]
    assert kit_english_words("What else to bring:") == ["bring", "else", "to", "what"]
    assert kit_english_words("cut/components-a4-page-NN.svg  Ebene 'cut', 'score' und 'guides'") == []
    assert kit_english_words("Ladet die Ebene in Design Space, lasst es seinen Print-then-Cut-Rahmen setzen") == []
    assert inventory_words("part,kind,count,size_mm,sides,file_pages,printed\nd6,die,2,9,6,components-a4.pdf "
                           "pp. 1-2,yes\n").split() == ["part", "kind", "count", "size_mm", "sides", "file_pages",
                                                       "printed", "d6", "components-a4.pdf", "pp.", "1-2"]


def _pdf_text(pdf: Path) -> str:
    """The PDF's words in reading order (not ``-layout``, which runs the lines of panels side by side into each
    other)."""
    return subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True,
                          timeout=60).stdout


def _pdf_fonts(pdf: Path) -> list[tuple[str, str, str]]:
    lines = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True,
                           timeout=60).stdout.splitlines()[2:]
    return [(line.split()[0], line.split()[-5], line.split()[-4]) for line in lines]


@pytest.fixture(scope="module")
def german() -> BuildContext:
    plugin, config = load(GERMAN)
    assert config.language == "de" and config.edition == "better-life-de"
    return BuildContext(config, plugin)


def test_the_german_leaflet_prints_no_english(german: BuildContext, tmp_path: Path) -> None:
    from boardgen.games.better_life.leaflet import leaflet_pdf
    from boardgen.render.pdf_probe import smallest_text

    decks = german.plugin.decks(german)  # type: ignore[attr-defined]
    for paper in (A4, LETTER):
        data, sides = leaflet_pdf(german.config, decks, paper, german.board)
        assert sides == 2  # one folded sheet, as in English
        pdf = tmp_path / f"leaflet-{paper.slug}.pdf"
        pdf.write_bytes(data)
        text = _pdf_text(pdf)
        for word in ("Vorbereitung", "Jahresende", "Biodiversitätsfonds", "Siegpunkte", "Notfallplan", "W6"):
            assert word in text, word
        assert english_words(text) == []
        assert smallest_text(data).size_pt >= MIN_TEXT_PT


def test_the_german_leaflet_states_the_template_numbers(german: BuildContext, tmp_path: Path) -> None:
    """A fluent reader's check against the engine's numbers, kept: payouts, vote bands, scoring, the goal."""
    from boardgen.games.better_life.leaflet import leaflet_pdf

    c = german.config
    data, _sides = leaflet_pdf(c, german.plugin.decks(german), A4, german.board)  # type: ignore[attr-defined]
    (tmp_path / "l.pdf").write_bytes(data)
    text = " ".join(_pdf_text(tmp_path / "l.pdf").split())
    pays = ", ".join(f"Platz {i + 1} {x} EP" for i, x in enumerate(c.finish_ip))
    assert pays in text
    assert f"wenn die Verlustleiste {c.meters.loss_limit} erreicht" in text
    assert f"nicht mindestens {c.meters.policy_goal}" in text
    assert f"1 SP für je {c.scoring.ip_per_vp} EP" in text
    assert f"dazu {c.ip.start} EP, {c.start_hand} Aktionskarten" in text
    assert f"Du darfst {c.hand_limit} Aktionskarten halten" in text
    v = c.votes
    assert f"0 bis {v[1].min_ip - 1} EP Fehlschlag +{v[0].policy} +{v[0].loss}" in text
    assert f"ab {v[2].min_ip} EP Erfolg +{v[2].policy} {v[2].loss}" in text


def test_the_german_cards_print_no_english(german: BuildContext, tmp_path: Path) -> None:
    from boardgen.cards.deck import deck_sheets
    from boardgen.games.better_life.kit import decks_for_print
    from boardgen.render.cairo_backend import render_pdf

    tr = translator(german.config)
    decks = decks_for_print(german.config, german.plugin.decks(german))  # type: ignore[attr-defined]
    with printing_in(tr):  # as every build stage runs: the sheets' headings and ruler in the edition's words
        pages = [p for d in decks for p in deck_sheets(d, A4, "duplex", tr=tr).pages]
    pdf = tmp_path / "cards.pdf"
    pdf.write_bytes(render_pdf(pages, title="Karten"))
    text = _pdf_text(pdf)
    for word in ("Rückenwind", "Notfallplan", "Waldbrandsommer", "Freikaufen", "Zielkarte", "Ein Zug in Kürze"):
        assert word in text, word
    assert english_words(text) == []


def test_a_card_row_may_carry_its_own_translation(tmp_path: Path) -> None:
    """A deck file with ``title_de`` / ``text_de`` columns prints those in the German edition (a template's own
    deck, which the catalog does not know); other rows fall back to the catalog, then to English."""
    from boardgen.games.better_life.cards import DATA_DIR, load_decks

    source = (DATA_DIR / "action-cards.csv").read_text(encoding="utf-8")
    rows = list(csv.DictReader(io.StringIO(source)))
    header = [*rows[0], "title_de", "text_de"]
    rows[5].update(title_de="Frischer Wind", text_de="Vor dem Würfeln: Zähl 2 zu diesem Wurf dazu.")
    rows[6]["text"] = "Before you roll: a text the catalog does not know."
    buf = io.StringIO()
    writer = csv.DictWriter(buf, header, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    (tmp_path / "action-cards.csv").write_text(buf.getvalue(), encoding="utf-8")
    for name in ("event-cards.csv", "policies.csv", "policy-targets.csv"):
        shutil.copy(DATA_DIR / name, tmp_path / name)
    template = tmp_path / "mine.yaml"
    template.write_text(yaml.safe_dump({"extends": str(GERMAN)}), encoding="utf-8")
    _plugin, config = load(template)
    decks = load_decks(config.decks, str(template), translator(config))
    by_id = {c.id: c for c in decks.actions}
    assert by_id[rows[5]["id"]].title == "Frischer Wind"
    assert by_id[rows[6]["id"]].title == "Kleine Förderung"  # the catalog's
    assert by_id[rows[6]["id"]].text == "Before you roll: a text the catalog does not know."  # English as written
    english = load_decks(config.decks, str(template))
    assert {c.id: c.title for c in english.actions}[rows[5]["id"]] == rows[5]["title"]


# ------------------------------------------------------------------------------------------ whole kits (slow)


def _build(template: Path, out: Path) -> Path:
    run = subprocess.run([sys.executable, "-m", "boardgen.cli", "build", "-q", "-t", str(template), "-o", str(out)],
                         capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert run.returncode == 0, run.stderr[-2000:]
    (folder,) = [p for p in out.iterdir() if p.is_dir()]
    return folder


@pytest.mark.slow
@pytest.mark.parametrize("template", ["better-life-de.yaml", "resilience-earth-de.yaml"])
def test_the_german_kits_readme_and_inventory_are_german(template: str, tmp_path: Path) -> None:
    kit = _build(ROOT / "templates" / template, tmp_path)
    heading = (kit / "inventory.csv").read_text(encoding="utf-8").splitlines()[0]
    assert heading == "Teil,Art,Anzahl,Größe_mm,Seiten,Dateiseiten,gedruckt"
    for paper in ("a4", "letter"):
        with zipfile.ZipFile(kit / f"kit-{paper}.zip") as z:
            readme = z.read("README.txt").decode("utf-8")
            assert z.read("inventory.csv").decode("utf-8").splitlines()[0] == heading
        assert "Beidseitiger Druck: die Wendekante für jede Datei" in readme
        assert "beidseitig drucken, Wenden an der" in readme
        assert "für einen Schneideplotter" in readme
        for english in ("Double-sided printing", "print double-sided", "page by page", "laid out for a cutting",
                        "cards)", "for a print shop", "jigsaw sections"):
            assert english not in readme, english
        assert kit_english_words(readme) == [], paper
    inventory = (kit / "inventory.csv").read_text(encoding="utf-8")
    parts = [line.split(",")[0] for line in inventory.splitlines()[1:]]
    assert "Spielplan" in parts and english_words(" ".join(parts)) == []
    assert kit_english_words(inventory_words(inventory)) == []
    for pdf in sorted(kit.rglob("*.pdf")):  # every sheet title, caption and heading the kit prints
        assert english_words(_pdf_text(pdf)) == [], pdf.relative_to(kit)
    # the print checks read the German README's flip edges and hold every page to 6 pt and embedded fonts
    from boardgen.render.print_checks import kit_files, kit_findings, stated_edges

    _plugin, config = load(ROOT / "templates" / template)
    files = kit_files(kit)
    tr = translator(config)
    assert stated_edges(files["kit-a4.zip/README.txt"].decode("utf-8"), tr)
    errors = [f for f in kit_findings(files, tr) if f.severity == "error"]
    assert errors == []


@pytest.mark.slow
def test_a_kit_in_japanese_prints_every_glyph(tmp_path: Path) -> None:
    """A BETTER Life kit whose title and action cards are Japanese (no Latin letters): it builds, the Japanese
    prints (text extraction returns it) in the fallback font, embedded and subset, in the leaflet, the cards and
    the board."""
    from boardgen.games.better_life.cards import DATA_DIR

    rows = list(csv.DictReader(io.StringIO((DATA_DIR / "action-cards.csv").read_text(encoding="utf-8"))))
    japanese = ["研究ネットワーク", "グリーン投資", "監視キャンペーン", "建築許可", "クラウドファンディング",
                "追い風", "小さな助成金", "連合会議", "基金申請", "リスク計画", "再生プロジェクト", "新しい協力"]
    for row, title in zip(rows, japanese, strict=True):
        row["title"] = title
        row["text"] = f"{title}：サイコロを振る前に使う。"
    buf = io.StringIO()
    writer = csv.DictWriter(buf, list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    (tmp_path / "action-cards.csv").write_text(buf.getvalue(), encoding="utf-8")
    for name in ("event-cards.csv", "policies.csv", "policy-targets.csv"):
        shutil.copy(DATA_DIR / name, tmp_path / name)
    template = tmp_path / "better-life-ja.yaml"
    template.write_text(yaml.safe_dump({"extends": str(ROOT / "templates" / "better-life.yaml"),
                                        "edition": "better-life-japanese-title", "title": "ベター・ライフ",
                                        "simulate": {"validate_games": 20}}, allow_unicode=True),
                        encoding="utf-8")
    kit = _build(template, tmp_path / "out")
    for name, words in (("leaflet-a4.pdf", ["ベター・ライフ"]), ("board-poster.pdf", ["ベター・ライフ"]),
                        ("components-a4.pdf", ["研究ネットワーク", "追い風", "リスク計画"])):  # the cards come first
        text = _pdf_text(kit / name)
        for word in words:
            assert word in text, (name, word)
        fonts = _pdf_fonts(kit / name)
        assert all(emb == sub == "yes" for _n, emb, sub in fonts), (name, fonts)
        assert len(fonts) >= 2, (name, fonts)  # DejaVu and the fallback


def test_a_board_label_too_long_for_its_place_is_an_error_naming_it_and_the_language(german: BuildContext) -> None:
    from boardgen.errors import LayoutError
    from boardgen.games.better_life.board import _fitted
    from boardgen.i18n import in_language, printing_in, translator
    from boardgen.render.scene import Font

    assert _fitted("Abstimmung (Summe im Topf)", Font(size_pt=7.0, bold=True), 42.0).size_pt >= MIN_TEXT_PT
    with pytest.raises(LayoutError) as err, in_language(german.config), printing_in(translator(german.config)):
        _fitted("Abstimmung am Jahresende (Summe im Topf)", Font(size_pt=7.0, bold=True), 30.0)
    message = str(err.value)
    assert "Abstimmung am Jahresende" in message and "(edition language de)" in message and "\n" not in message
