"""The BETTER Life kit as printed: cut files, leaflet fonts, printed texts."""

from __future__ import annotations

import io
import math
import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import pikepdf
import pytest

from boardgen.cards.deck import Deck, card_front, deck_sheets
from boardgen.cards.kitfiles import PaperKit
from boardgen.cards.sheets import lay_out
from boardgen.games.better_life.board import KIND_ICONS, board_scene, track_board
from boardgen.games.better_life.cards import Decks, load_decks
from boardgen.games.better_life.kit import (
    aid_text,
    band_range,
    component_sets,
    decks_for_print,
    ip_tokens,
    role_mat,
    voting_screen,
)
from boardgen.games.better_life.leaflet import leaflet_content, leaflet_pdf
from boardgen.games.better_life.rules.report import rule_findings
from boardgen.games.better_life.schema import BetterLifeTemplate
from boardgen.kit.cut_edition import cut_sheet_svgs
from boardgen.render.imposition import A4, LETTER, Paper
from boardgen.render.scene import RectOp, Text
from boardgen.template import load

TEMPLATE = Path(__file__).resolve().parents[3] / "templates" / "better-life.yaml"


@pytest.fixture(scope="module")
def loaded() -> tuple[BetterLifeTemplate, Decks]:
    _plugin, config = load(TEMPLATE)
    return config, load_decks(config.decks, config.source)


def test_token_cut_lines_are_circles_of_the_token_size(loaded: tuple[BetterLifeTemplate, Decks]) -> None:
    """A placed part's arc keeps its radius: the cut file held pie wedges up to 190 mm across before."""
    config, _decks = loaded
    laid = lay_out(ip_tokens(config), A4, "tokens", "duplex")
    arcs = [c for sheet in laid.cut_sheets for path in sheet.cuts for c in path if c[0] in ("A", "AN")]
    assert len(arcs) == sum(config.ip.denominations.values())
    r = config.kit.token_mm / 2
    for _a, cx, cy, radius, a0, a1 in arcs:
        assert radius == pytest.approx(r)
        assert (a0, a1) == (0.0, pytest.approx(2 * math.pi))
        assert r <= cx <= A4.width_mm - r and r <= cy <= A4.height_mm - r
    for sheet in laid.cut_sheets:  # each circle starts on its own rim
        for path in sheet.cuts:
            (_m, x, y), (_a, cx, cy, radius, *_rest) = path[0], path[1]
            assert math.hypot(x - cx, y - cy) == pytest.approx(radius)


def _fonts(res: pikepdf.Dictionary, out: list[pikepdf.Dictionary]) -> None:
    for font in (res.get("/Font") or {}).values():
        out.append(font)
    for xobj in (res.get("/XObject") or {}).values():
        if "/Resources" in xobj:
            _fonts(xobj.Resources, out)


def _embedded(font: pikepdf.Dictionary) -> bool:
    descs = [font.get("/FontDescriptor")] + [d.get("/FontDescriptor") for d in font.get("/DescendantFonts", [])]
    return any(d is not None and any(k in d for k in ("/FontFile", "/FontFile2", "/FontFile3")) for d in descs)


@pytest.mark.parametrize("paper", [A4, LETTER])
def test_leaflet_embeds_every_font(loaded: tuple[BetterLifeTemplate, Decks], paper: Paper) -> None:
    """reportlab's default Helvetica was listed, unembedded, in every panel: a print shop's preflight fails."""
    config, decks = loaded
    data, sides = leaflet_pdf(config, decks, paper, track_board(config))
    fonts: list[pikepdf.Dictionary] = []
    pdf = pikepdf.open(io.BytesIO(data))
    for page in pdf.pages:
        _fonts(page.Resources, fonts)
    assert sides == 2 and fonts
    names = {str(f.BaseFont) for f in fonts}
    assert not any("Helvetica" in n for n in names), names
    assert all(_embedded(f) for f in fonts)


def test_fund_and_payout_spaces_look_different(loaded: tuple[BetterLifeTemplate, Decks]) -> None:
    """Both Fund spaces drew the same jar; now an arrow points into it (pay) or out of it (payout)."""
    config, _decks = loaded
    assert KIND_ICONS["fund"] != KIND_ICONS["payout"]
    scene, _avoid = board_scene(config, track_board(config))
    names = Counter(op.name for op in scene.walk())
    assert names["icon-fund-in"] == config.track.spaces.count("fund") == 2
    assert names["icon-fund-out"] == config.track.spaces.count("payout") == 1


def _card_texts(deck: Deck) -> list[Text]:
    return [op for card in deck.cards() for op in card_front(deck, card).walk() if isinstance(op, Text)]


def test_card_text_sizes_readable_at_print_scale(loaded: tuple[BetterLifeTemplate, Decks]) -> None:
    """Body text >= 7 pt on every card; no rule (an event's buy-off price) hides in a 5 pt footer."""
    config, decks = loaded
    printed = decks_for_print(config, decks)
    for deck in printed:
        sizes = {op.name: op.font.size_pt for op in _card_texts(deck)}
        assert all(op.font.size_pt >= 7.0 for op in _card_texts(deck) if op.name == "card-body"), deck.name
        assert all(op.font.size_pt >= 6.5 for op in _card_texts(deck) if op.name == "card-footer"), sizes
    events = next(d for d in printed if d.name == "Event cards")
    for e in decks.events:
        row = next(r for r in events.rows if r["title"] == e.title)
        assert (f"pay {e.buy_off} IP" in row["text"]) == bool(e.buy_off and config.event_buy_off)


def test_printed_vote_bands_are_ranges(loaded: tuple[BetterLifeTemplate, Decks]) -> None:
    """The role mat said '0+ IP weak; 6+ IP semi': every printed band now reads 0-5, 6-9, 10+."""
    config, decks = loaded
    assert [band_range(config, i) for i in range(3)] == ["0-5", "6-9", "10+"]
    mat = role_mat(config, decks, 0, 63.0, 88.0)
    words = " ".join(op.text for op in mat.front.walk() if isinstance(op, Text))
    assert "0-5 IP weak" in words and "6-9 IP semi" in words and not re.search(r"(?<!\d)0\+ IP", words)
    aid = aid_text(config)
    assert "0-5 weak (loss +1)" in aid and "10+ success (policy +3, loss -1)" in aid
    assert "7/3, 4/2, 2/1 VP" in aid and "1 VP per 3 IP" in aid


def test_target_cards_rank_their_policies(loaded: tuple[BetterLifeTemplate, Decks]) -> None:
    config, decks = loaded
    targets = next(d for d in decks_for_print(config, decks) if d.name == "Policy Target cards")
    titles = {p.id: p.title for p in decks.policies}
    for t, row in zip(decks.targets, targets.rows, strict=True):
        lines = row["text"].split("\n")
        assert lines[0] == "{star}{star}{star} " + titles[t.primary]
        assert lines[1] == "primary: 7 VP, semi 3 VP"
        assert lines[2] == "{star}{star} " + titles[t.secondary] and lines[4] == "{star} " + titles[t.tertiary]


def test_reputation_events_say_what_happens_before_the_first_vote(loaded: tuple[BetterLifeTemplate, Decks]) -> None:
    _config, decks = loaded
    for e in decks.events:
        if e.effect in ("reward-generous", "shame-idle"):
            assert "Before the first vote" in e.text


def test_leaflet_answers_the_questions_players_asked(loaded: tuple[BetterLifeTemplate, Decks]) -> None:
    """Where do voted policies go (scoring needs their result), can the Loss meter go negative, may players
    trade, how to track the once-a-round role card, and the bids two events look back at."""
    config, decks = loaded
    words = " ".join(leaflet_content(config, decks, track_board(config)).text().split())
    assert "in a row for its result (success, semi, weak)" in words
    assert "never goes below 0" in words
    assert "IP and cards change hands only as the rules say" in words
    assert "turn it sideways" in words
    assert "Remember who gave the most and who gave nothing" in words
    assert "Add 1 VP for every 3 IP" in words


def test_cut_files_are_the_size_of_each_sheet_landscape_mats_included(
        loaded: tuple[BetterLifeTemplate, Decks]) -> None:
    """The mats are laid on landscape sheets, the tokens on portrait ones: each sheet's cut file is the size of
    that sheet, and every mat's outline lies on it (a stacked file once framed the mats as portrait sheets and
    their cuts ran into the next frame)."""
    config, decks = loaded
    sets = {s.kind: s for s in component_sets(config, decks)}
    laid = [lay_out(sets["mat"], LETTER.landscape(), "mats", "duplex"),
            lay_out(sets["token"], LETTER, "tokens", "duplex")]
    kit = PaperKit(LETTER, tuple(laid), tuple(p for lo in laid for p in lo.pages), b"")
    svgs = cut_sheet_svgs(kit)
    assert len(svgs) == sum(len(lo.cut_sheets) for lo in laid)
    sizes = []
    for _number, svg in svgs:
        root = ET.fromstring(svg)
        sizes.append((float(root.get("width", "0").removesuffix("mm")),
                      float(root.get("height", "0").removesuffix("mm"))))
    mats = len(laid[0].cut_sheets)
    assert sizes[:mats] == [(pytest.approx(LETTER.height_mm), pytest.approx(LETTER.width_mm))] * mats
    assert sizes[mats:] == [(pytest.approx(LETTER.width_mm), pytest.approx(LETTER.height_mm))] * (len(sizes) - mats)
    for sheet in laid[0].cut_sheets:  # every mat's cut lies inside its landscape sheet
        xs = [c[1] for path in sheet.cuts for c in path if c[0] in ("M", "L")]
        assert max(xs) <= LETTER.height_mm and min(xs) >= 0
    assert max(xs) > LETTER.width_mm  # ... and wider than a portrait sheet


def test_kit_has_cut_files_for_the_cards(loaded: tuple[BetterLifeTemplate, Decks]) -> None:
    config, decks = loaded
    printed = decks_for_print(config, decks)
    deck = next(d for d in printed if d.name == "Policy cards")
    laid = deck_sheets(deck, A4, "duplex")
    kit = PaperKit(A4, (laid,), laid.pages, b"")
    svgs = cut_sheet_svgs(kit)
    assert [svg.decode().count('id="cut"') for _n, svg in svgs] == [1] * len(laid.cut_sheets)
    assert sum(len(s.cuts) for s in laid.cut_sheets) == len(deck.cards())


def test_meter_markers_fit_the_meter_cells(loaded: tuple[BetterLifeTemplate, Decks]) -> None:
    """The 12.8 mm markers overhung the 10-11 mm tall year and policy cells and hid their numbers."""
    config, decks = loaded
    scene, _avoid = board_scene(config, track_board(config))
    cells = [op.rect for op in scene.walk() if isinstance(op, RectOp)
             and op.name in ("year-box", "policy-box", "loss-box")]
    assert len(cells) == 6 + 16 + 6
    smallest = min(min(r.width, r.height) for r in cells)
    pawn_set = next(s for s in component_sets(config, decks) if s.kind == "pawn")
    markers = [p for p in pawn_set.components if p.kind == "marker"]
    assert len(markers) == 3
    assert all(m.width_mm <= smallest - 0.5 for m in markers), (smallest, markers[0].width_mm)


def _summary(**means: float) -> dict[str, object]:
    return {"games": 100, "bots": ["fair-share"], "players": 5, "win_rate_by_bot": {},
            "metrics": {k: {"mean": v} for k, v in means.items()}}


def test_report_says_whether_the_loss_meter_and_the_votes_matter(loaded: tuple[BetterLifeTemplate, Decks]) -> None:
    """A designer asks: does the Loss meter ever threaten, and how do the votes come out?"""
    config, _decks = loaded
    ctx = SimpleNamespace(config=config)
    quiet = _summary(everyone_loses=0.03, lost_to_policy_meter=0.03, loss_meter_end=0.24, votes_weak=0.04,
                     votes_semi=1.9, votes_success=3.06)
    idle = {f.rule: f for f in rule_findings(ctx, quiet)}  # type: ignore[arg-type]
    assert idle["loss-meter-idle"].severity == "warning" and "0.24 of 5" in idle["loss-meter-idle"].message
    assert idle["vote-results"].message == ("per game 3.06 successful, 1.90 semi-successful and 0.04 weak votes "
                                            "of 5")
    grim = _summary(everyone_loses=1.0, lost_to_loss_meter=0.36, loss_meter_end=4.3)
    live = {f.rule for f in rule_findings(ctx, grim)}  # type: ignore[arg-type]
    assert "loss-meter-idle" not in live


def test_voting_screen_name_in_the_middle_panel(loaded: tuple[BetterLifeTemplate, Decks]) -> None:
    """Zig-zag folded, the middle panel faces the other way from the outer two: the name goes in the middle
    (towards the table) so both texts face their owner (the vote bands used to face the opponents)."""
    config, _decks = loaded
    screen = voting_screen(config, 0)
    pw = screen.width_mm / 3
    ops = list(screen.front.walk())
    name = next(op for op in ops if isinstance(op, Text) and op.name == "screen-name")
    assert pw < name.x < 2 * pw and name.text == config.roles[0].name
    panel = next(op for op in ops if isinstance(op, RectOp) and op.name == "screen-name-panel")
    assert panel.rect.x == pytest.approx(pw) and panel.rect.width == pytest.approx(pw)
    how = [op for op in ops if isinstance(op, Text) and op.name == "screen-text"]
    bands = [op for op in ops if isinstance(op, Text) and op.name == "screen-bands"]
    assert how and all(op.x < pw for op in how) and bands and all(op.x > 2 * pw for op in bands)
    assert min(op.font.size_pt for op in how + bands) >= 7.0
