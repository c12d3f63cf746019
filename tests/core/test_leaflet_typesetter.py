"""The shared leaflet typesetter (``boardgen.kit.leaflet``): the fit loop, its one-line error, the print
standard of what it sets (nothing under 6 pt at print scale, marks clear of the edge, unique subset tags,
page boxes), the same panels on A4 and Letter, the back matter on the back cover, pictures and tables."""

from __future__ import annotations

import re
import subprocess
from dataclasses import replace
from pathlib import Path

import pikepdf
import pytest
from reportlab.graphics.shapes import Drawing, Rect, String

from boardgen.errors import DataError
from boardgen.kit.leaflet import (
    BODY_SIZES_PT,
    COLUMNS,
    FLOOR_BODY_PT,
    HALF_FOLD,
    TRI_FOLD,
    Block,
    Fold,
    Leaflet,
    Picture,
    Table,
    leaflet_layout,
    panel_geometry,
    styles,
)
from boardgen.render.imposition import A4, LETTER
from boardgen.render.pdf_probe import smallest_text
from boardgen.render.print_checks import EDGE_CLEAR_MM, pdf_findings
from boardgen.render.typeset import MIN_TEXT_PT, FitError

SOURCE = "templates/example.yaml"
WORDS = ("Each player takes a pawn and three chips; the youngest starts, and play goes to the left. On your turn "
         "roll the die, move that many spaces and do what the space says. ")


def _drawing(width: float) -> Drawing:
    d = Drawing(width, 50)
    d.add(Rect(1, 1, width - 2, 48, strokeWidth=0.5, fillColor=None))
    d.add(String(6, 20, "a board", fontSize=8))
    return d


def _leaflet(paragraphs: int, fold: Fold = HALF_FOLD, **kw: object) -> Leaflet:
    """A leaflet of ``paragraphs`` paragraphs in blocks of three, with a table, a picture, a shaded block and
    small print."""
    blocks = [Block(paragraphs=(WORDS,), picture=Picture(_drawing, 0.8)),
              Block("Spaces", ("What each space does:",),
                    table=Table((("Space", "Count", "What happens"), ("Market", "4", "Buy one card."),
                                 ("Storm", "2", "Lose a chip.")), (2, 1, 4), bold_first_column=True)),
              Block("Trading", (WORDS,), box="shaded"),
              Block("Sources", ("Our own words.",), small=True)]
    blocks += [Block(f"Rule {i}", (WORDS * 2,) * 3) for i in range(paragraphs // 3)]
    defaults: dict[str, object] = {"back": (Block("A turn in short", ("Roll, move, do.",), box="framed"),),
                                   "fold": fold}
    return Leaflet("An Example Game", tuple(blocks), SOURCE, **{**defaults, **kw})  # type: ignore[arg-type]


def test_longer_words_get_a_smaller_body_size() -> None:
    sizes = [leaflet_layout(_leaflet(n), A4)[1].body_pt for n in (3, 24, 30, 36)]
    assert sizes[0] == BODY_SIZES_PT[0]
    assert sizes == sorted(sizes, reverse=True) and sizes[-1] < sizes[0]
    assert all(s in BODY_SIZES_PT for s in sizes)


def test_the_fewest_sheets_first_then_nested_sheets() -> None:
    one = leaflet_layout(_leaflet(6), A4)[1]
    assert one.sheets == 1 and one.sheet_sides == 2 and one.printed_panels == 4
    two = leaflet_layout(_leaflet(48), A4)[1]
    assert two.sheets == 2 and two.sheet_sides == 4 and two.printed_panels == 8 and 4 < two.panels <= 8


def test_nothing_fits_is_one_line_naming_the_template_paper_and_block() -> None:
    with pytest.raises(FitError) as info:
        leaflet_layout(_leaflet(60, sheets=(1,)), A4)
    message = str(info.value)
    assert isinstance(info.value, DataError) and "\n" not in message
    assert message.startswith(f"{SOURCE}: leaflet (A4, language en): ")
    assert f"even at {min(BODY_SIZES_PT):g} pt" in message and "shorten" in message
    assert "in the block 'Rule " in message  # the block that runs past the last panel


def test_words_far_too_long_are_refused_without_setting_them() -> None:
    """Megabytes of text (a data-only game's Markdown) are not set at every size: the estimate of what the
    panels hold names the block, and nothing past it is typeset."""
    blocks = tuple(Block(f"Part {i}", (WORDS * 50,) * 20) for i in range(200))  # about 2 MB
    with pytest.raises(FitError) as info:
        leaflet_layout(Leaflet("Huge", blocks, SOURCE, sheets=(1, 2)), A4)
    message = str(info.value)
    assert "\n" not in message and "do not fit 2 sheets (half fold, 8 panels) even at 7 pt" in message
    assert "in about the block 'Part 0'" in message


def test_a_table_too_wide_for_any_size_names_its_block() -> None:
    wide = Block("Costs", table=Table((("Word" * 30, "x"), ("a", "b"))))
    with pytest.raises(FitError, match=r"templates/example.yaml: leaflet \(A4.*the block 'Costs'"):
        leaflet_layout(Leaflet("T", (wide,), SOURCE), A4)


def test_body_sizes_under_the_floor_are_refused() -> None:
    assert FLOOR_BODY_PT - 1.0 >= MIN_TEXT_PT  # the small print at the floor is still 6 pt
    assert styles(FLOOR_BODY_PT).smallest_pt >= MIN_TEXT_PT
    with pytest.raises(ValueError, match="at least 7 pt"):
        Leaflet("T", (), SOURCE, body_sizes_pt=(9.0, 6.5))


@pytest.mark.parametrize("fold", [HALF_FOLD, TRI_FOLD, COLUMNS], ids=lambda f: f.name)
def test_what_it_sets_meets_the_print_standard(fold: Fold) -> None:
    """At the smallest size allowed: no text under 6 pt at print scale (pictures and decor included), no
    line under 0.25 pt, nothing within 5 mm of the paper edge, unique subset tags, page boxes."""
    for paper in (A4, LETTER):
        data, layout = leaflet_layout(_leaflet(6, fold, body_sizes_pt=(FLOOR_BODY_PT,)), paper)
        assert layout.body_pt == FLOOR_BODY_PT
        assert pdf_findings(f"leaflet-{paper.slug}.pdf", data) == []
        assert smallest_text(data).size_pt >= MIN_TEXT_PT - 0.005


def test_fold_marks_keep_clear_of_the_edge_and_sit_on_the_folds() -> None:
    from boardgen.render.pdf_probe import marks

    data, _layout = leaflet_layout(_leaflet(3, TRI_FOLD), A4)
    sheet = A4.landscape()
    pt = 72 / 25.4
    fold_x = [k * sheet.width_mm / 3 * pt for k in (1, 2)]
    for page, expected in ((1, {(0, "top"), (1, "top"), (1, "bottom")}),  # the ruler's note passes fold 1's foot
                           (2, {(0, "top"), (0, "bottom"), (1, "top"), (1, "bottom")})):
        found = set()
        for m in marks(data):
            if m.kind != "stroke" or m.bounds is None or m.page != page or m.size_pt != 0.4 \
                    or abs(m.bounds[0] - m.bounds[2]) >= 0.01:
                continue
            at = [k for k, x in enumerate(fold_x) if abs(m.bounds[0] - x) < 0.1]
            if not at:
                continue
            assert min(m.bounds[1], sheet.height_mm * pt - m.bounds[3]) >= EDGE_CLEAR_MM * pt - 0.01
            found.add((at[0], "bottom" if m.bounds[1] < sheet.height_mm * pt / 2 else "top"))
        assert found == expected, page


@pytest.mark.parametrize("fold", [HALF_FOLD, TRI_FOLD, COLUMNS], ids=lambda f: f.name)
def test_a4_and_letter_have_the_same_panels(fold: Fold) -> None:
    assert panel_geometry(fold, A4).fold.per_sheet == panel_geometry(fold, LETTER).fold.per_sheet
    for n in (6, 48):
        a4, letter = (leaflet_layout(_leaflet(n, fold, sheets=(1, 2, 3, 4)), p)[1] for p in (A4, LETTER))
        assert (a4.sheets, a4.printed_panels, a4.sheet_sides) == (letter.sheets, letter.printed_panels,
                                                                   letter.sheet_sides)


def test_a4_and_letter_agree_even_when_one_paper_alone_would_need_fewer_pages() -> None:
    """A text between the two papers' capacities takes the larger count on both."""
    found = False
    for n in range(75, 84, 3):
        alone = [leaflet_layout(replace(_leaflet(n, COLUMNS, sheets=(3, 4)), papers=(p,)), p)[1].sheets
                 for p in (A4, LETTER)]
        if alone[0] != alone[1]:
            both = [leaflet_layout(_leaflet(n, COLUMNS, sheets=(3, 4)), p)[1].sheets for p in (A4, LETTER)]
            assert both == [max(alone)] * 2
            found = True
            break
    assert found, "no length between the papers' capacities was found"


def _panel_text(path: Path, page: int, panel: int, across: int, sheet_w_mm: float, sheet_h_mm: float) -> str:
    pt = 72 / 25.4
    w = sheet_w_mm * pt / across
    return subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), "-r", "72", "-x", str(int(panel * w)),
                           "-y", "0", "-W", str(int(w)), "-H", str(int(sheet_h_mm * pt)), str(path), "-"],
                          capture_output=True, text=True, check=True).stdout


def test_the_cover_is_the_outside_right_and_the_back_matter_the_back_cover(tmp_path: Path) -> None:
    data, layout = leaflet_layout(_leaflet(3), A4)
    assert layout.sheets == 1 and layout.panels < 4  # the text leaves a panel: the back matter gets it alone
    path = tmp_path / "leaflet.pdf"
    path.write_bytes(data)
    sheet = A4.landscape()
    cover = _panel_text(path, 1, 1, 2, sheet.width_mm, sheet.height_mm)
    back = _panel_text(path, 1, 0, 2, sheet.width_mm, sheet.height_mm)
    assert "An Example Game" in cover and "A turn in short" not in cover
    assert "A turn in short" in back and "Rule 0" not in back
    assert "Print at 100%: this bar must measure 100 mm. Double-sided, flip on the short edge." in back
    assert back.split()[-1] == "4" and cover.split()[-1] == "1"  # the panel numbers, clear of the ruler's note
    inside = _panel_text(path, 2, 0, 2, sheet.width_mm, sheet.height_mm)
    assert "move that many spaces" in inside and "2" in inside.split()  # the text runs on to page 2, numbered


def test_the_same_bytes_every_time_and_pictures_stay_vectors(tmp_path: Path) -> None:
    data = leaflet_layout(_leaflet(6), LETTER)[0]
    assert data == leaflet_layout(_leaflet(6), LETTER)[0]
    path = tmp_path / "leaflet.pdf"
    path.write_bytes(data)
    images = subprocess.run(["pdfimages", "-list", str(path)], capture_output=True, text=True, check=True).stdout
    assert len(images.splitlines()) <= 2  # the header alone: the drawing is vectors
    with pikepdf.open(path) as pdf:
        assert all(p.obj.TrimBox == p.obj.MediaBox for p in pdf.pages)


def test_a_character_no_font_has_is_one_line_naming_the_template() -> None:
    with pytest.raises(DataError, match=r"^templates/example.yaml: leaflet \(A4, language en\): the font"):
        leaflet_layout(Leaflet("T", (Block("Rules", ("\U0001d11e clef",)),), SOURCE), A4)


def test_the_words_after_a_table_stand_off_it_as_from_a_paragraph(tmp_path: Path) -> None:
    """A paragraph (or a box) after a table keeps the paragraphs' space: its words sit farther from the table's
    last row than the rows sit from each other (they touched the table's rule, BETTER Life's scoring table)."""
    table = Table((("Space", "Count"), ("Market", "4"), ("Stormy", "2")))
    leaflet = Leaflet("T", (Block("Spaces", ("Lead in words:",), table=table, after=("Afterwards the words go on.",)),),
                      SOURCE, fold=COLUMNS, sheets=(1,))
    path = tmp_path / "leaflet.pdf"
    path.write_bytes(leaflet_layout(leaflet, A4)[0])
    boxes = subprocess.run(["pdftotext", "-bbox", str(path), "-"], capture_output=True, text=True, check=True).stdout
    word = re.compile(r'yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]+)<')
    y = {m[3]: (float(m[1]), float(m[2])) for m in word.finditer(boxes)}
    between_rows = y["Market"][0] - y["Space"][1]
    after_table = y["Afterwards"][0] - y["Stormy"][1]
    assert after_table >= between_rows + 0.5  # was 3.5 pt against 4.9 between the rows


def _corner_text(path: Path, page: int, x_mm: float, sheet_h_mm: float) -> list[str]:
    """The words of the strip 9 mm tall at the foot of ``page``, 50 mm wide from ``x_mm``."""
    pt = 72 / 25.4
    return subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), "-r", "72", "-x", str(int(x_mm * pt)),
                           "-y", str(int((sheet_h_mm - 9) * pt)), "-W", str(int(50 * pt)), "-H", str(int(9 * pt)),
                           str(path), "-"], capture_output=True, text=True, check=True).stdout.split()


def test_unfolded_pages_are_numbered_as_pages(tmp_path: Path) -> None:
    """Pages read one after another carry page numbers (1, 2) at the foot of the right column, not column
    numbers; a lone page carries none (a one-page leaflet was numbered "2": its first column's number gave way
    to the ruler)."""
    for paragraphs, pages_allowed, numbers in ((0, (1,), [[]]), (18, (2,), [["1"], ["2"]])):
        data, layout = leaflet_layout(_leaflet(paragraphs, COLUMNS, sheets=pages_allowed, back=()), A4)
        assert layout.sheet_sides == len(numbers)
        path = tmp_path / "leaflet.pdf"
        path.write_bytes(data)
        pages = range(1, layout.sheet_sides + 1)
        assert [_corner_text(path, page, A4.width_mm - 50, A4.height_mm) for page in pages] == numbers
        assert all(_corner_text(path, page, 50, A4.height_mm) == [] for page in pages[1:])  # no column number


def test_a_scene_picture_leaves_out_the_words_too_small_to_read_at_its_width() -> None:
    from boardgen.kit.leaflet import scene_picture
    from boardgen.render.scene import Font, Scene, Text, group, scale

    board = Scene.of(Text(10, 10, "big", Font("DejaVu Sans", 60.0)), Text(10, 30, "small", Font("DejaVu Sans", 12.0)),
                     group([Text(10, 50, "scaled", Font("DejaVu Sans", 30.0))], transform=scale(0.5)))
    # 600 mm drawn 100 mm wide: a 60 pt word prints at 10 pt, a 12 pt one at 2 pt, a 30 pt one halved at 2.5 pt
    assert board.without_text_under(6.0 * 25.4 / 72 * 6.0).texts() == ["big"]
    image = scene_picture(board, 600.0, 400.0).make(100.0 * 72 / 25.4)
    assert abs(image.drawWidth - 100.0 * 72 / 25.4) < 1e-6 and abs(image.drawHeight - 400.0 / 6 * 72 / 25.4) < 1e-6


def _tall_picture(asked: list[float], min_share: float | None) -> Picture:
    """A picture as tall as it is wide, recording the widths it is drawn at."""
    def make(width: float) -> Drawing:
        asked.append(width)
        d = Drawing(width, width)
        d.add(Rect(1, 1, width - 2, width - 2, strokeWidth=0.5, fillColor=None))
        return d

    return Picture(make, 0.9, min_share)


def _picture_leaflet(paragraphs: int, picture: Picture) -> Leaflet:
    leaflet = _leaflet(paragraphs)
    first = replace(leaflet.blocks[0], picture=picture)
    return replace(leaflet, blocks=(first, *leaflet.blocks[1:]))


def test_a_picture_that_may_shrink_keeps_the_words_on_fewer_sheets() -> None:
    width = panel_geometry(HALF_FOLD, A4).text_width_mm * 72 / 25.4
    fixed: list[float] = []
    shrunk: list[float] = []
    two = leaflet_layout(_picture_leaflet(36, _tall_picture(fixed, None)), A4)[1]
    one = leaflet_layout(_picture_leaflet(36, _tall_picture(shrunk, 0.4)), A4)[1]
    assert two.sheets == 2  # at full width the picture pushes the words onto a second sheet
    assert one.sheets == 1 and one.body_pt == min(BODY_SIZES_PT)  # the text at its smallest, then the picture
    assert round(0.4 * width, 3) <= round(shrunk[-1], 3) < round(0.9 * width, 3) == round(max(fixed), 3)


def test_a_picture_that_may_shrink_keeps_its_size_when_the_words_fit() -> None:
    asked: list[float] = []
    layout = leaflet_layout(_picture_leaflet(3, _tall_picture(asked, 0.4)), A4)[1]
    width = panel_geometry(HALF_FOLD, A4).text_width_mm * 72 / 25.4
    assert layout.sheets == 1 and layout.body_pt == BODY_SIZES_PT[0]
    assert round(asked[-1], 3) == round(0.9 * width, 3)  # the words set at full size (after Letter was asked)


@pytest.mark.parametrize("min_share", [0.0, 0.95])
def test_a_picture_cannot_shrink_to_nothing_or_grow(min_share: float) -> None:
    with pytest.raises(ValueError, match=r"min_share .*: expected more than 0 and at most its share 0.9"):
        Picture(_drawing, 0.9, min_share)


def _listed_leaflet(paragraphs: int, fold: Fold) -> Leaflet:
    """``_leaflet`` with list items (bullets and numbers, repeated word for word) and a shrinkable picture."""
    base = _leaflet(paragraphs, fold)
    items = Block("Steps", tuple(f"{n}. {WORDS}" for n in (1, 2, 12)) + ("• " + WORDS,) * 3,
                  picture=Picture(_drawing, 0.9, min_share=0.5), picture_after=1)
    return replace(base, blocks=(*base.blocks[:2], items, *base.blocks[2:]))


@pytest.mark.parametrize("fold", [HALF_FOLD, TRI_FOLD, COLUMNS], ids=lambda f: f.name)
def test_a_trial_takes_the_panels_of_the_drawn_setting(fold: Fold) -> None:
    """A trial lays the words out without drawing them: the same panels (or the same overflow) and the same
    panel for every block as the drawn setting, at every size, picture shrink and room."""
    from boardgen.kit import leaflet as typesetter

    lf = _listed_leaflet(30, fold)
    geometry = panel_geometry(fold, A4)
    both = (*lf.blocks, *lf.back)
    for body_pt in (BODY_SIZES_PT[0], BODY_SIZES_PT[-1]):
        for shrink in (0.0, 1.0):
            for room in (None, 2 * fold.per_sheet):
                marks: list[dict[int, int]] = [{}, {}]
                made = [typesetter._panels(lf, both, geometry, body_pt, room, "here", True, marks[k], shrink,
                                           drawn=drawn) for k, drawn in enumerate((False, True))]
                assert (made[0] is None) == (made[1] is None)
                assert marks[0] == marks[1]
                if made[0] is not None and made[1] is not None:
                    assert made[0][1] == made[1][1] and made[0][3] == made[1][3]
                    assert made[1][0].startswith(b"%PDF") and made[0][0] == b""


@pytest.mark.parametrize("fold", [HALF_FOLD, TRI_FOLD, COLUMNS], ids=lambda f: f.name)
def test_the_fits_shortcuts_change_no_byte(fold: Fold, monkeypatch: pytest.MonkeyPatch) -> None:
    """Trials that draw nothing, pictures standing as boxes, paragraphs parsed once and not broken into lines
    twice, measured widths kept: the leaflet is the same bytes as reportlab sets it without any of them."""
    from reportlab.platypus import Frame, Paragraph

    from boardgen.kit import leaflet as typesetter
    from boardgen.render.typeset import CheckedTTFont

    quick = [leaflet_layout(_listed_leaflet(n, fold), paper) for n in (9, 30) for paper in (A4, LETTER)]
    picture = typesetter._picture
    monkeypatch.setattr(typesetter._TrialFrame, "add", Frame.add)
    monkeypatch.setattr(typesetter, "_picture", lambda p, width, shrink=0.0, trial=False: picture(p, width, shrink))
    monkeypatch.setattr(typesetter._Paragraph, "wrap", Paragraph.wrap)
    monkeypatch.setattr(typesetter._Paragraph, "_setup", Paragraph._setup)
    monkeypatch.setattr(typesetter, "_sheet", typesetter.styles)
    monkeypatch.setattr(CheckedTTFont, "stringWidth",
                        lambda font, text, size, encoding="utf8": font._measured(text, size, encoding))
    slow = [leaflet_layout(_listed_leaflet(n, fold), paper) for n in (9, 30) for paper in (A4, LETTER)]
    assert [data for data, _layout in quick] == [data for data, _layout in slow]
    assert [layout for _data, layout in quick] == [layout for _data, layout in slow]
