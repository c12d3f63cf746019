"""Decks from data rows: sizes by name, quantities, text that fits its box (measured), errors naming the card,
sheets on A4 and Letter (duplex, gutter-fold), the same bytes every time."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest
from pydantic import Field

from boardgen.cards.deck import (
    CARD_SIZES,
    Deck,
    DeckSpec,
    card_front,
    card_size,
    deck_artifacts,
    deck_components,
    deck_sheets,
    fit_text,
    front_boxes,
    load_rows,
)
from boardgen.cards.icons import ICONS, draw_icon
from boardgen.errors import ConfigError, LayoutError
from boardgen.render.cairo_backend import text_width_mm
from boardgen.render.imposition import A4, LETTER
from boardgen.render.scene import Font, Group, Rect, Scene, Text
from boardgen.schema import GameTemplate, validate_template

ROWS: list[dict[str, Any]] = [
    {"title": "Seed Fund", "value": "3", "subtitle": "Business", "footer": "base game", "quantity": 2,
     "text": "Pay 2 {coin} to start a venture. Gain 1 {heart} for every neighbour who joins."},
    {"title": "Green Roof", "text": "Plant a {leaf} on a square you own.\nRoll the {die}: on 5 or 6 gain a {star}.",
     "colour": "#3a7d44"},
    {"title": "Long", "count": "3", "colour": "#c0392b",
     "text": " ".join(["Every player moves one space {arrow} and pays the bank a small fee in coins."] * 8)},
    {"title": "Skipped", "quantity": 0, "text": "never printed"},
]


def make_deck(size: str = "poker", **kw: object) -> Deck:
    return Deck.from_rows("Business Cards", ROWS, size, **kw)  # type: ignore[arg-type]


def test_sizes_by_name_and_in_mm_or_inches() -> None:
    assert card_size("poker") == (63.5, 88.9)
    assert card_size("bridge") == (57.15, 88.9)
    assert card_size("business") == pytest.approx((50.8, 88.9))
    assert card_size("mini") == (44.0, 63.5)
    assert card_size("tarot") == (70.0, 120.0)
    assert card_size("poker-landscape") == (88.9, 63.5)
    assert card_size("2x3.5in") == pytest.approx((50.8, 88.9))
    assert card_size("60x90") == (60.0, 90.0)
    assert card_size((41, 63)) == (41.0, 63.0)
    with pytest.raises(ValueError, match="unknown card size"):
        card_size("jumbo")
    assert set(CARD_SIZES) >= {"poker", "bridge", "mini", "business", "tarot", "square"}


def test_quantity_expands_rows_and_zero_leaves_a_row_out() -> None:
    deck = make_deck()
    cards = deck.cards()
    assert [c.field("title") for c in cards] == ["Seed Fund"] * 2 + ["Green Roof"] + ["Long"] * 3
    assert [c.copy for c in cards] == [1, 2, 1, 1, 2, 3]
    assert len(deck_components(deck).components) == 6


def test_rows_from_csv_and_yaml(tmp_path: Path) -> None:
    (tmp_path / "d.csv").write_text("title,text,quantity\nA,one {coin},2\nB,two,\n", encoding="utf-8")
    (tmp_path / "d.yaml").write_text("- {title: A, text: one, count: 2}\n- {title: B, text: two}\n", encoding="utf-8")
    for name in ("d.csv", "d.yaml"):
        rows = load_rows(name, base=tmp_path)
        deck = Deck("x", rows)
        assert [c.field("title") for c in deck.cards()] == ["A", "A", "B"]


def _body_ops(scene: Scene) -> list[Text]:
    return [op for op in scene.walk() if isinstance(op, Text) and op.name == "card-body"]


@pytest.mark.parametrize("size", ["poker", "bridge", "mini", "business", "tarot", "square"])
def test_every_text_fits_its_box_measured(size: str) -> None:
    deck = make_deck(size) if size != "mini" else Deck.from_rows("Mini", ROWS[:2], size)
    w, h = deck.size_mm
    for card in deck.cards():
        scene = card_front(deck, card)
        boxes = front_boxes(w, h, deck.layout, bool(card.field("value")), bool(card.field("subtitle")),
                            bool(card.field("footer")))
        body = _body_ops(scene)
        assert body, card
        for op in body:
            width = text_width_mm(op.text, op.font)
            assert op.x >= boxes.body.x - 1e-6 and op.x + width <= boxes.body.right + 1e-6, (size, op.text)
            assert op.y - op.font.size_mm * 0.8 >= boxes.body.y - 1e-6  # ascent inside the box
            assert op.y + op.font.size_mm * 0.25 <= boxes.body.bottom + 1e-6  # descent inside the box
            assert op.font.size_pt >= deck.layout.min_body_pt
        # every word of the text is drawn (nothing dropped)
        drawn = " ".join(op.text for op in body).split()
        expected = [w for w in card.field("text").replace("\n", " ").split()]
        assert len(drawn) >= len(expected) - card.field("text").count("{") - 1
        titles = [op for op in scene.walk() if isinstance(op, Text) and op.name == "card-title"]
        assert all(text_width_mm(t.text, t.font) <= boxes.title.width + 1e-6 for t in titles)


def test_long_text_shrinks_but_not_below_the_minimum() -> None:
    deck = make_deck()
    short, long_ = deck.cards()[0], deck.cards()[3]
    s_size = {op.font.size_pt for op in _body_ops(card_front(deck, short))}
    l_size = {op.font.size_pt for op in _body_ops(card_front(deck, long_))}
    assert s_size == {deck.layout.body_pt}
    assert len(l_size) == 1 and deck.layout.min_body_pt <= l_size.pop() < deck.layout.body_pt


def test_too_long_text_raises_naming_the_card() -> None:
    rows = [{"title": "Fine", "text": "ok"}, {"title": "Essay", "text": "word " * 400}]
    deck = Deck.from_rows("Events", rows, "mini")
    with pytest.raises(LayoutError, match=r"deck 'Events': card 2 'Essay' \(row 2\): body text does not fit"):
        deck_components(deck)


def test_unknown_icon_and_bad_colour_are_named() -> None:
    with pytest.raises(LayoutError, match=r"card 1 'X'.*unknown icon \{rocket\}"):
        deck_components(Deck.from_rows("D", [{"title": "X", "text": "go {rocket}"}]))
    with pytest.raises(LayoutError, match=r"colour 'red'"):
        deck_components(Deck.from_rows("D", [{"title": "X", "text": "go", "colour": "red"}]))


def test_icons_are_drawn_inline_in_their_own_colour() -> None:
    deck = make_deck()
    scene = card_front(deck, deck.cards()[0])
    icons = [op.name for op in scene.walk() if isinstance(op, Group) and op.name.startswith("icon:")]
    assert icons == ["icon:coin", "icon:heart"]
    for name in ("coin", "heart", "leaf", "die", "star", "arrow"):
        assert name in ICONS and draw_icon(name, 0, 0, 3.0)


def test_fit_text_returns_none_when_a_word_is_wider_than_the_box() -> None:
    assert fit_text("Supercalifragilistic", Rect(0, 0, 5, 50), Font(size_pt=9), 6.0) is None
    fit = fit_text("a b c", Rect(0, 0, 50, 50), Font(size_pt=9), 6.0)
    assert fit is not None and fit.size_pt == 9 and len(fit.lines) == 1


@pytest.mark.parametrize("paper", [A4, LETTER])
def test_poker_deck_duplex_eight_a_sheet_with_mirrored_backs(paper) -> None:
    deck = Deck.from_rows("D", [{"title": "T", "text": "x", "quantity": 16}])
    laid = deck_sheets(deck, paper, "duplex")
    assert laid.per_sheet == 8 and laid.front_sheets == 2 and len(laid.pages) == 4
    front, back = laid.pages[0], laid.pages[1]
    assert front.width_mm > front.height_mm  # landscape holds the most
    fronts = [op for op in front.scene.items if isinstance(op, Group) and op.name == "item:card"]
    backs = [op for op in back.scene.items if isinstance(op, Group) and op.name == "item:card-back"]
    assert len(fronts) == len(backs) == 8
    xs_front = sorted(round(g.transform.e, 3) for g in fronts)  # type: ignore[union-attr]
    xs_back = sorted(round(front.width_mm - g.transform.e - 63.5, 3) for g in backs)  # type: ignore[union-attr]
    assert xs_front == xs_back  # each back at its front's mirrored place
    assert back.scene.count("registration-mark") == 1


@pytest.mark.parametrize("paper", [A4, LETTER])
def test_gutter_fold_puts_backs_on_the_other_half(paper) -> None:
    deck = make_deck()
    laid = deck_sheets(deck, paper, "gutter")
    page = laid.pages[0]
    fold = page.width_mm / 2
    fronts = [g for g in page.scene.items if isinstance(g, Group) and g.name == "item:card"]
    backs = [g for g in page.scene.items if isinstance(g, Group) and g.name == "item:card-back"]
    assert fronts and len(fronts) == len(backs)
    assert all(g.transform.e < fold for g in fronts)  # type: ignore[union-attr]
    assert all(g.transform.e > fold for g in backs)  # type: ignore[union-attr]
    assert page.scene.count("fold-line") == 1
    assert len(laid.pages) == laid.front_sheets  # one-sided: no back pages
    assert sum(len(cs.cuts) for cs in laid.cut_sheets) == 6


def test_deck_pdfs_are_deterministic() -> None:
    a = deck_artifacts(make_deck(), "cards/business")
    b = deck_artifacts(make_deck(), "cards/business")
    assert [x.path for x in a] == ["cards/business-a4.pdf", "cards/business-letter.pdf"]
    assert [hashlib.sha256(x.data).hexdigest() for x in a] == [hashlib.sha256(x.data).hexdigest() for x in b]
    assert all(x.data.startswith(b"%PDF") and x.pages == 2 for x in a)
    cuts = deck_artifacts(make_deck(), "cards/business", papers=(A4,), cut_files=True)
    assert [x.path for x in cuts] == ["cards/business-a4.pdf", "cards/business-cut-a4.svg"]
    svg = cuts[1].data.decode()
    assert svg[svg.index('<g id="cut"'):svg.index('<g id="score"')].count("<path") == 6  # one outline a card


def test_deck_spec_from_a_template(tmp_path: Path) -> None:
    (tmp_path / "cards.csv").write_text("name,effect,quantity\nA,Gain {coin},2\n", encoding="utf-8")
    spec = DeckSpec.model_validate({"name": "Events", "file": "cards.csv", "size": "bridge", "gap": 2,
                                    "layout": {"title": "name", "body": "effect"}})
    deck = spec.deck(tmp_path)
    assert deck.size_mm == (57.15, 88.9) and deck.gap_mm == 2.0 and len(deck.cards()) == 2
    assert [op.text for op in card_front(deck, deck.cards()[0]).walk() if isinstance(op, Text)
            and op.name == "card-title"] == ["A"]
    with pytest.raises(ValueError, match="one of the two"):
        DeckSpec.model_validate({"name": "E"})
    with pytest.raises(ValueError, match="unknown card size"):
        DeckSpec.model_validate({"name": "E", "rows": [], "size": "huge"})


class _Game(GameTemplate):
    decks: tuple[DeckSpec, ...] = ()  # template models hold tuples (a template is read strictly, its lists as tuples)


def test_deck_errors_name_the_template_key() -> None:
    base = {"game": "x", "edition": "e", "title": "T"}
    with pytest.raises(ConfigError, match=r"t\.yaml: decks\[0\]\.colour: .*got 'blue'"):
        validate_template(_Game, {**base, "decks": [{"name": "D", "rows": [], "colour": "blue"}]}, "t.yaml")
    game = validate_template(_Game, {**base, "decks": [{"name": "D", "rows": [{"title": "a"}]}]}, "t.yaml")
    assert game.decks[0].deck().cards()[0].field("title") == "a"
