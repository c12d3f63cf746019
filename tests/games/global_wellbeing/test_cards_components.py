"""Components: every count, value and label from the template shows up in what is drawn; sheets, kits, leaflet."""

from __future__ import annotations

import copy
import hashlib
import io
import math
import subprocess
import zipfile
from functools import lru_cache
from pathlib import Path

import pikepdf
import pytest
import yaml
from shapely.geometry import MultiPolygon, Point, box

from boardgen.build import BuildContext
from boardgen.cards.dice import die_component, die_net, polyhedron
from boardgen.cards.kitfiles import deterministic_zip
from boardgen.cards.shapes import hex_inner_diameter_mm, piece_size_mm, player_shape
from boardgen.cards.sheets import lay_out, path_polygon
from boardgen.errors import ConfigError
from boardgen.games.global_wellbeing.kit import build_components, component_sets, kit_files
from boardgen.games.global_wellbeing.leaflet import leaflet_pdf, leaflet_text
from boardgen.games.global_wellbeing.schema import Config, config_from_mapping, default_template_path
from boardgen.games.global_wellbeing.tables import climate_table_card, turn_counter_card
from boardgen.games.global_wellbeing.tokens import badges, chips, player_pieces, standee_geometry
from boardgen.geomap.hexgrid import Hex, HexLayout, orientation_named
from boardgen.geomap.model import Board, Cell
from boardgen.render.imposition import A4, LETTER
from boardgen.render.scene import Scene, Text
from boardgen.schema import DICE_SIDES

HEX_MM = 9.65
PT = 72 / 25.4


@lru_cache(maxsize=1)
def _template_data() -> dict:
    return yaml.safe_load(default_template_path().read_text())


def make_config(**changes: dict) -> Config:
    """The default template with some sections changed, e.g. make_config(rules={"turns": 16})."""
    data = copy.deepcopy(_template_data())
    for section, values in changes.items():
        data[section].update(values)
    return config_from_mapping(data, "test.yaml")


def tiny_board(config: Config) -> Board:
    layout = HexLayout(orientation_named("pointy"), HEX_MM, (330.0, 220.0))
    zones = list(config.zones)
    cells = []
    hexes = [Hex(q, r) for r in range(-3, 4) for q in range(-4, 5)]
    for i, h in enumerate(hexes):
        x, y = layout.hex_to_point(h)
        zone = zones[i % len(zones)]
        cells.append(Cell(label=f"C{i}", hex=h, column=h.q, row=h.r, center_mm=(x, y), land_share=1.0, zone=zone,
                          zone_shares={zone: 1.0}, koppen_shares={}, high_ground_share=0.0, mean_elevation_m=0.0,
                          zone_reason="plurality", neighbours=()))
    land = MultiPolygon([Point(330, 220).buffer(90)])
    return Board(config, layout, tuple(cells), land, box(0, 0, 660, 440), 1.0)


def _drawn(pages, name: str) -> int:
    return sum(p.scene.count(name) for p in pages)


def _texts(scene: Scene) -> list[str]:
    return [op.text for op in scene.walk() if isinstance(op, Text)]


# ------------------------------------------------------------------------------------------ counts


@pytest.mark.parametrize("bank", [150, 77])
def test_chips_drawn_equal_the_template_count(bank: int) -> None:
    config = make_config(rules={"bank_chips": bank})
    cset = chips(config)
    assert len(cset.components) == bank
    laid = lay_out(cset, A4, "t")
    assert _drawn(laid.pages, "chip") == bank  # fronts
    assert _drawn(laid.pages, "chip-back") == bank  # and both faces are printed
    assert len(laid.pages) == 2 * laid.front_sheets  # duplex: a back after every front


def test_badges_one_per_zone_per_player_with_template_values() -> None:
    config = make_config(zones={"Polar": {**_template_data()["zones"]["Polar"], "badge_value": 3}})
    laid = lay_out(badges(config), LETTER, "t")
    assert _drawn(laid.pages, "badge") == len(config.zones) * config.players.max
    values = [op.text for p in laid.pages for op in p.scene.walk() if getattr(op, "name", "") == "badge-value"]
    assert values.count("+3") == config.players.max
    assert values.count("+2") == (len(config.zones) - 1) * config.players.max


def test_pieces_per_player_and_shapes_fit_inside_a_hex() -> None:
    config = make_config(rules={"pieces_per_player": 12})
    size = piece_size_mm(config.components.piece_size_mm, HEX_MM, config.source)
    inner_r = hex_inner_diameter_mm(HEX_MM) / 2
    for shape in config.components.player_shapes:
        poly = player_shape(shape, 0.0, 0.0, size)
        far = max(math.hypot(x, y) for x, y in poly.exterior.coords)
        assert far <= inner_r, (shape, far, inner_r)
    width, base = standee_geometry(size, config.components.standee_height_mm)
    assert math.hypot(width, 2 * base) <= 2 * inner_r  # the folded standee's footprint
    sets = {s.kind: s for s in player_pieces(config, size)}
    for kind in ("token", "standee"):
        parts = sets[kind].components
        assert len(parts) == 12 * config.players.max
        labels = {t for p in parts for t in _texts(p.front) if t.startswith("P") and len(t) <= 3}
        assert labels == {f"P{i}" for i in range(1, config.players.max + 1)}


def test_piece_size_that_does_not_fit_the_hex_is_a_config_error() -> None:
    config = make_config(components={"piece_size": "16mm"})
    with pytest.raises(ConfigError, match=r"components\.piece_size"):
        piece_size_mm(config.components.piece_size_mm, HEX_MM, config.source)


def test_climate_table_card_from_template() -> None:
    config = make_config()
    card = climate_table_card(config)
    names = [op.name for op in card.front.walk()]
    for zone_name, z in config.zones.items():
        for value in range(z.minimum_index, z.die + 1):
            assert f"value:{zone_name}:{value}" in names
        assert f"value:{zone_name}:{z.die + 1}" not in names
    assert card.front.count("table-start") == len(config.zones)
    dice = [op.text for op in card.front.walk() if getattr(op, "name", "") == "die-name"]
    assert dice == [f"d{z.die}" for z in config.zones.values()]


@pytest.mark.parametrize(("turns", "every", "tipping"), [(20, 5, 10), (16, 4, 8), (12, 1, 6)])
def test_turn_counter_marks(turns: int, every: int, tipping: int) -> None:
    config = make_config(rules={"turns": turns, "stewardship_every": every, "tipping_point_every": tipping,
                                "start_year": 2030, "years_per_turn": 20})
    card = turn_counter_card(config)
    names = [op.name for op in card.front.walk()]
    assert [n for n in names if n.startswith("turn:")] == [f"turn:{t}" for t in range(1, turns + 1)]
    assert card.front.count("stewardship-mark") == turns // every
    assert card.front.count("tipping-mark") == turns // tipping
    assert card.front.count("setup-box") == 1
    years = {op.name: op.text for op in card.front.walk() if getattr(op, "name", "").startswith("year:")}
    assert years["year:1"] == "2030" and years[f"year:{turns}"] == str(2030 + (turns - 1) * 20)


# ------------------------------------------------------------------------------------------ dice


@pytest.mark.parametrize("sides", DICE_SIDES)
def test_dice_nets(sides: int) -> None:
    p = polyhedron(sides)
    assert len(p.faces) == sides
    assert len(p.vertices) - sum(len(f) for f in p.faces) // 2 + len(p.faces) == 2  # Euler
    net = die_net(sides)
    assert len(net.tree_edges) == sides - 1
    if sides != 4:
        assert sorted(net.numbers) == list(range(1, sides + 1))
    part = die_component(sides, make_config().components.dice_size_mm)
    outline = path_polygon(part.outline)
    assert outline.is_valid and outline.geom_type == "Polygon"
    numbers = part.front.count("die-number")
    assert numbers == (12 if sides == 4 else sides)
    if sides == 10:
        assert all(len(f) == 4 for f in p.faces)  # kites: a pentagonal trapezohedron


def test_d6_opposite_faces_add_to_seven() -> None:
    p, net = polyhedron(6), die_net(6)
    for f, face in enumerate(p.faces):
        opposite = next(g for g, other in enumerate(p.faces) if not set(face) & set(other))
        assert net.numbers[f] + net.numbers[opposite] == 7


# ------------------------------------------------------------------------------------------ sheets and files


@pytest.fixture(scope="module")
def kits() -> dict[str, object]:
    config = make_config()
    sets = component_sets(config, HEX_MM)
    return {paper.slug: build_components(config, sets, paper) for paper in (A4, LETTER)}


def test_component_pdfs_have_paper_boxes_and_embedded_fonts(kits, tmp_path: Path) -> None:
    for slug, paper in (("a4", A4), ("letter", LETTER)):
        kit = kits[slug]
        expected_pages = sum(len(lo.pages) for lo in kit.laid)
        with pikepdf.open(io.BytesIO(kit.pdf)) as pdf:
            assert len(pdf.pages) == expected_pages
            for page in pdf.pages:
                media = [float(v) / PT for v in page.obj.MediaBox]
                assert media == pytest.approx([0, 0, paper.width_mm, paper.height_mm], abs=0.1)
                trim = [float(v) / PT for v in page.obj.TrimBox]
                bleed = [float(v) / PT for v in page.obj.BleedBox]
                assert bleed[0] <= trim[0] and bleed[2] >= trim[2]
                assert trim[0] >= 6 and trim[2] <= paper.width_mm - 6  # nothing in the unprintable edge
        path = tmp_path / f"c-{slug}.pdf"
        path.write_bytes(kit.pdf)
        fonts = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout
        rows = fonts.splitlines()[2:]
        assert rows and all(r.split()[-5] == "yes" for r in rows)


def test_fold_mode_prints_no_back_pages() -> None:
    config = make_config(components={"double_sided": "fold"})
    laid = lay_out(chips(config), A4, "t", mode="fold")
    assert len(laid.pages) == laid.front_sheets
    assert _drawn(laid.pages, "fold-line") == config.rules.bank_chips
    assert _drawn(laid.pages, "chip-back") == config.rules.bank_chips


def test_leaflet_follows_the_rule_numbers(tmp_path: Path) -> None:
    base = make_config()
    changed = make_config(rules={"stewardship_every": 4, "harvest_divisor": 25, "badge_threshold": 7,
                                 "turns": 16, "setup_rounds": 9, "tipping_point_every": 8})

    def text_of(config: Config) -> str:
        data, pages = leaflet_pdf(config, A4)
        assert pages >= 2
        path = tmp_path / "leaflet.pdf"
        path.write_bytes(data)
        return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True,
                              check=True).stdout

    before, after = text_of(base), text_of(changed)
    assert "every 5th turn" in before and "every 4th turn" in after
    assert "template" not in before.lower()  # no design notes in the players' rules
    assert "by 30" in " ".join(before.split()) and "by 25" in " ".join(after.split())
    assert "8 or more" in before and "7 or more" in after
    assert "after turn 20" in before and "after turn 16" in after
    assert "9 rounds" in " ".join(after.split())
    for name, z in base.zones.items():
        assert name in before and f"d{z.die}" in before
    # the worked example is computed from the template's numbers
    assert leaflet_text(base) != leaflet_text(changed)
    assert leaflet_pdf(base, A4)[0] == leaflet_pdf(base, A4)[0]
    data, pages = leaflet_pdf(base, LETTER)
    with pikepdf.open(io.BytesIO(data)) as pdf:
        assert len(pdf.pages) == pages == 2  # one sheet folded into a four-page booklet
        for page in pdf.pages:
            for key in ("/MediaBox", "/TrimBox", "/BleedBox"):
                box_mm = [float(v) / PT for v in page.obj[key]]
                assert box_mm == pytest.approx([0, 0, LETTER.height_mm, LETTER.width_mm], abs=0.1)


def test_deterministic_zip() -> None:
    a = deterministic_zip([("b.txt", b"2"), ("a.txt", b"1")])
    assert a == deterministic_zip([("a.txt", b"1"), ("b.txt", b"2")])
    with zipfile.ZipFile(io.BytesIO(a)) as zf:
        assert zf.namelist() == ["a.txt", "b.txt"]
        assert zf.getinfo("a.txt").date_time == (2026, 1, 1, 0, 0, 0)
    # text is deflated, PDFs (compressed inside already) are stored; both read back as they were
    text, pdf = b"the same words again and again " * 50, b"%PDF-1.7 " + bytes(range(256)) * 8
    with zipfile.ZipFile(io.BytesIO(deterministic_zip([("README.txt", text), ("kit.pdf", pdf)]))) as zf:
        assert zf.getinfo("README.txt").compress_type == zipfile.ZIP_DEFLATED
        assert zf.getinfo("kit.pdf").compress_type == zipfile.ZIP_STORED
        assert zf.read("README.txt") == text and zf.read("kit.pdf") == pdf


def _run_stage() -> dict[str, object]:
    config = make_config()
    ctx = BuildContext(config)
    ctx.computed["board"] = tiny_board(config)
    return {a.path: a for a in kit_files(ctx)}


@pytest.fixture(scope="module")
def stage_output() -> dict[str, object]:
    return _run_stage()


def test_stage_builds_every_file_the_same_twice(stage_output) -> None:
    first = {path: hashlib.sha256(a.data).hexdigest() for path, a in stage_output.items()}
    for name in ("components-a4.pdf", "components-letter.pdf", "leaflet-a4.pdf", "leaflet-letter.pdf",
                 "cut/components-a4.pdf", "cut/components-a4-page-01.svg", "kit-a4.zip", "kit-letter.zip",
                 "preview/components-a4-01.png"):
        assert name in first
    assert first == {path: hashlib.sha256(a.data).hexdigest() for path, a in _run_stage().items()}


def test_cut_svg_layers_and_kit_contents(stage_output) -> None:
    out = stage_output
    svg = out["cut/components-a4-page-01.svg"].data.decode()
    for layer_id in ("guides", "cut"):
        assert f'<g id="{layer_id}"' in svg
    with zipfile.ZipFile(io.BytesIO(out["kit-a4.zip"].data)) as zf:
        names = zf.namelist()
        assert names == sorted(names)
        assert {"README.txt", "components-a4.pdf", "leaflet-a4.pdf", "cut/components-a4.pdf",
                "cut/components-a4-page-01.svg"} <= set(names)
        readme = zf.read("README.txt").decode()
        assert "100%" in readme and "DOUBLE-SIDED" in readme


def test_extreme_templates_still_fit_both_papers() -> None:
    zones = copy.deepcopy(_template_data()["zones"])
    zones["Temperate"]["die"] = 20
    zones["Ocean Rim"] = {"colour": "#123456", "symbol": "wave", "die": 20, "minimum_index": 1, "start_index": 9}
    zones["Islands"] = {"colour": "#abcdef", "symbol": "dot", "die": 8, "minimum_index": 2, "start_index": 2}
    config = make_config(zones=zones, rules={"turns": 60, "stewardship_every": 7, "bank_chips": 300},
                         components={"dice_size": "70mm", "badge_size": "40mm", "chip_diameter": "30mm",
                                     "standee_height": "35mm"})
    assert len(config.zones) == 8
    for paper in (A4, LETTER):
        for cset in component_sets(config, 12.0):
            laid = lay_out(cset, paper, "t")
            assert laid.pages
    card = turn_counter_card(config)
    assert card.height_mm <= 236 and card.width_mm <= 180
    numbers = [op for op in card.front.walk() if getattr(op, "name", "").startswith("turn:")]
    assert numbers[-1].name == "turn:60"
    assert min(op.font.size_pt for op in numbers) >= 6  # every box keeps a readable number


def _min_line_width_mm(items, scale: float = 1.0) -> float:
    """The thinnest stroke on the page, in page mm (group transforms applied)."""
    from boardgen.render.scene import Group

    thinnest = math.inf
    for op in items:
        if isinstance(op, Group):
            k = scale
            if op.transform is not None:
                t = op.transform
                k *= math.sqrt(abs(t.a * t.d - t.b * t.c))
            thinnest = min(thinnest, _min_line_width_mm(op.items, k))
        elif getattr(op, "style", None) is not None and op.style.stroke is not None:
            thinnest = min(thinnest, op.style.stroke_width_mm * scale)
    return thinnest


def test_every_page_has_a_ruler_and_no_hairline_below_a_quarter_point(kits) -> None:
    from boardgen.render.scene import HAIRLINE_MM

    for kit in kits.values():
        for page in kit.pages:
            assert page.scene.count("scale-ruler") == 1
            assert _min_line_width_mm(page.scene.items) >= HAIRLINE_MM * 0.999, page.label
