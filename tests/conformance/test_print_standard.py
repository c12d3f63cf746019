"""The print standard on every installed game: each game's default template is built once per session (all
stages but the simulated validation) and its kit folder checked by ``boardgen.render.print_checks``, the same
checks ``boardgen validate --kit`` reports. Each test names one rule of the standard."""

from __future__ import annotations

import io
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pikepdf
import pytest
from PIL import Image

from boardgen.errors import LayoutError
from boardgen.play.report import Finding
from boardgen.plugin import BuildContext, installed_games
from boardgen.render.board_print import plan_cut, seam_positions, spaces_cut
from boardgen.render.cairo_backend import Page
from boardgen.render.imposition import A4, PRINT_CUT_MARKS, Paper, duplex_readme_lines, flip_edge
from boardgen.render.print_checks import (
    EDGE_CLEAR_MM,
    SheetPage,
    cut_outlines,
    duplex_findings,
    kit_files,
    kit_findings,
    sheet_pages,
    stated_edges,
)
from boardgen.render.scene import Rect, Scene
from boardgen.template import load

GAMES = sorted(installed_games())
_BUILT: dict[str, tuple[Path, list[Finding]]] = {}


KitFolder = Callable[[str], Path]


@pytest.fixture(scope="session")
def kit_root(default_kit: KitFolder) -> KitFolder:
    return default_kit


def built(game: str, kit: KitFolder) -> tuple[Path, list[Finding]]:
    """The game's default kit (tests/conftest.py's ``default_kit``, built once per session) and its print
    findings."""
    if game not in _BUILT:
        out = kit(game)
        _BUILT[game] = (out, kit_findings(kit_files(out)))
    return _BUILT[game]


def _rule(game: str, root: KitFolder, *rules: str) -> list[str]:
    return [f"{f.rule} {f.where}: {f.message}" for f in built(game, root)[1] if f.rule in rules]


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_font_subsets_have_tags_of_their_own(game: str, kit_root: KitFolder) -> None:
    assert _rule(game, kit_root, "font-subset-tags") == []


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_nothing_printed_under_6pt_or_thinner_than_a_quarter_point(game: str, kit_root: KitFolder) -> None:
    assert _rule(game, kit_root, "text-size", "line-width") == []


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_every_page_has_trim_and_bleed_boxes(game: str, kit_root: KitFolder) -> None:
    assert _rule(game, kit_root, "page-boxes") == []


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_marks_keep_5mm_from_the_paper_edge(game: str, kit_root: KitFolder) -> None:
    assert _rule(game, kit_root, "edge-clearance") == []


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_each_back_lands_behind_its_front_for_the_readme_flip_edge(game: str, kit_root: KitFolder) -> None:
    out, findings = built(game, kit_root)
    assert [f for f in findings if f.rule.startswith("duplex")] == []
    # and there is something to check: every file with back pages is named in a README with its edge
    files = kit_files(out)
    edges: dict[str, str] = {}
    for name, data in files.items():
        if name.endswith("README.txt"):
            edges.update(stated_edges(data.decode()))
    for name in files:
        if not name.endswith(".pdf"):
            continue
        with pikepdf.open(out / name) as pdf:
            sides = [str(p.obj.get("/PieceInfo", {}).get("/boardgen", {}).get("/Private", {}).get("/Side", ""))
                     for p in pdf.pages]
        if "/back" in sides and any(n.endswith("README.txt") for n in files):
            assert name in edges or Path(name).name in edges, f"{name} has backs; no README states its flip edge"


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_no_sheet_is_mostly_empty_unless_last_of_its_set(game: str, kit_root: KitFolder) -> None:
    assert _rule(game, kit_root, "sheet-fill") == []


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_cut_files_are_the_size_of_a_sheet(game: str, kit_root: KitFolder) -> None:
    assert _rule(game, kit_root, "cut-file-size", "cut-outlines") == []


def _outline_box(d: bytes) -> tuple[float, float, float, float]:
    """The box around an outline's points (an arc's end points only: a circle's arcs end on the circle)."""
    tokens = re.findall(rb"[MLZA]|-?\d+(?:\.\d+)?(?:e-?\d+)?", d)
    points: list[tuple[float, float]] = []
    k = 0
    while k < len(tokens):
        op = tokens[k]
        k += 1
        if op in (b"M", b"L"):
            points.append((float(tokens[k]), float(tokens[k + 1])))
            k += 2
        elif op == b"A":
            points.append((float(tokens[k + 5]), float(tokens[k + 6])))
            k += 7
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_every_kit_has_the_print_then_cut_edition(game: str, kit_root: KitFolder, tmp_path: Path) -> None:
    """cut/components-{a4,letter}.pdf with one sheet-sized SVG per marked front page: the marks printed on the
    page where the SVG's guides put them (at least 5 mm from the paper edge), each outline on one printed part
    of that page and each part under one outline, all clear of the marks' band; a front page with no SVG is
    one the README sends to be cut by hand."""
    out, _findings = built(game, kit_root)
    readmes = [n for n in kit_files(out) if n.endswith("README.txt")]
    assert not [p.name for p in out.glob("*.svg") if p.name != "board-cut.svg"]  # no stacked cut files
    for slug in ("a4", "letter"):
        data = (out / f"cut/components-{slug}.pdf").read_bytes()
        with pikepdf.open(io.BytesIO(data)) as pdf:
            pages = sheet_pages(pdf)
        readme = kit_files(out)[next(n for n in readmes if f"kit-{slug}" in n)].decode()
        by_hand = {n for m in re.finditer(r"pages? (\d+)(?:-(\d+))?: [^\n]*cut by hand", readme)
                   for n in range(int(m.group(1)), int(m.group(2) or m.group(1)) + 1)}
        svgs = {int(p.stem.rsplit("-", 1)[1]): p.read_bytes()
                for p in (out / "cut").glob(f"components-{slug}-page-*.svg")}
        fronts = [p for p in pages if p.side != "back" and p.pieces]
        assert svgs and set(svgs) == {p.number for p in fronts} - by_hand
        (tmp_path / "cut.pdf").write_bytes(data)
        subprocess.run(["pdftoppm", "-r", "100", "-gray", "-png", str(tmp_path / "cut.pdf"), str(tmp_path / slug)],
                       check=True)
        for number, svg in sorted(svgs.items()):
            page = pages[number - 1]
            marks = PRINT_CUT_MARKS.rects(Paper(slug, page.width_mm, page.height_mm))
            gaps = [min(r.x, r.y, page.width_mm - r.right, page.height_mm - r.bottom) for r in marks]
            assert min(gaps) >= EDGE_CLEAR_MM
            guides = svg[svg.index(b'<g id="guides"'):svg.index(b'<g id="cut"')]
            drawn = [_outline_box(d) for d in re.findall(rb' d="([^"]*)"', guides)]
            for r in marks:
                assert any(max(abs(a - b) for a, b in zip(box, (r.x, r.y, r.right, r.bottom), strict=True)) < 0.01
                           for box in drawn), (number, r)
            png = tmp_path / f"{slug}-{number:0{len(str(len(pages)))}d}.png"
            im = Image.open(png).convert("L")
            px = 100 / 25.4
            for r in marks:  # inked inside every mark, white 1 mm outside it
                cx, cy = r.center
                assert im.getpixel((int(cx * px), int(cy * px))) < 100, (game, slug, number, r)
                assert im.getpixel((int((r.right + 1) * px), int(cy * px))) > 200, (game, slug, number, r)
            band = PRINT_CUT_MARKS.band_mm
            parts = [b for n, b in page.pieces if not n.endswith("-back")]
            hits = [0] * len(parts)
            for d in cut_outlines(svg):
                x0, y0, x1, y1 = _outline_box(d)
                assert band <= x0 and x1 <= page.width_mm - band and band <= y0 and y1 <= page.height_mm - band
                # on its part: its middle inside the part's trim and no point more than 1 mm beyond it (a
                # triangle token's apex stands 0.3 mm over its trim; the print's bleed covers that)
                cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
                inside = [k for k, b in enumerate(parts) if b[0] < cx < b[2] and b[1] < cy < b[3]
                          and b[0] - 1 <= x0 and x1 <= b[2] + 1 and b[1] - 1 <= y0 and y1 <= b[3] + 1]
                assert inside, (game, slug, number, (x0, y0, x1, y1))
                hits[inside[0]] += 1
            assert hits == [1] * len(parts), (game, slug, number)


@pytest.mark.parametrize("game", GAMES)
def test_board_spaces_hold_their_pieces(game: str) -> None:
    plugin = installed_games()[game]
    _plugin, config = load(plugin.default_template())
    too_small = [n.finding_text() for n in plugin.space_needs(BuildContext(config, plugin)) if not n.fits]
    assert too_small == []


@pytest.mark.parametrize("game", ["philanthropist", "better-life", "resilience-earth"])
def test_section_seams_run_through_no_play_space(game: str) -> None:
    plugin = installed_games()[game]
    _plugin, config = load(plugin.default_template())
    ctx = BuildContext(config, plugin)
    if game == "philanthropist":
        from boardgen.games.philanthropist.board import board_graph

        size = (config.board.size_mm, config.board.size_mm)
        keep = [s.bounds_mm for s in board_graph(config).spaces]
    elif game == "better-life":
        size = (ctx.board.width_mm, ctx.board.height_mm)
        keep = [s.bounds_mm for s in ctx.board.graph.spaces]
    else:
        from boardgen.games.resilience_earth.board import marked_areas

        size = (config.board.width_mm, config.board.height_mm)
        keep = marked_areas(ctx)
    cut, _landscape = plan_cut(*size, keep_whole=keep)
    assert spaces_cut(cut, keep) == []
    assert cut.fit.unique  # the one-way-fit proof still holds
    even, _ = plan_cut(*size)
    assert spaces_cut(even, keep) != []  # the even cut would have split some: the check has teeth


def test_seams_move_to_the_nearest_gap_between_spaces() -> None:
    squares = [(10.0 + 36.0 * k, 46.0 + 36.0 * k) for k in range(16)]  # a 16-square row with a 10 mm border
    assert seam_positions(596.0, 3, squares) == [190.0, 406.0]
    with pytest.raises(LayoutError):
        seam_positions(100.0, 2, [(0.0, 100.0)])


# ------------------------------------------------------------------------------------------ the checks


def _page(side: str, pieces: list[tuple[str, tuple[float, float, float, float]]], number: int,
          landscape: bool = False) -> SheetPage:
    w, h = (297.0, 210.0) if landscape else (210.0, 297.0)
    return SheetPage(number, w, h, side, "cards", tuple(pieces))


@pytest.mark.parametrize("landscape", [False, True])
def test_duplex_check_finds_backs_flipped_on_the_wrong_edge(landscape: bool) -> None:
    w, h = (297.0, 210.0) if landscape else (210.0, 297.0)
    front = _page("front", [("item:a", (10.0, 20.0, 60.0, 90.0)), ("item:b", (10.0, 100.0, 60.0, 170.0))], 1,
                  landscape)
    mirrored = [("item:a-back", (w - 60.0, 20.0, w - 10.0, 90.0)), ("item:b-back", (w - 60.0, 100.0, w - 10.0, 170.0))]
    back = _page("back", mirrored, 2, landscape)
    right = flip_edge(w, h)
    wrong = "long" if right == "short" else "short"
    assert duplex_findings("f.pdf", [front, back], right) == []
    found = duplex_findings("f.pdf", [front, back], wrong)
    assert {f.rule for f in found} == {"duplex-edge", "duplex-backs"}
    swapped = _page("back", [("item:b-back", mirrored[0][1]), ("item:a-back", mirrored[1][1])], 2, landscape)
    assert [f.message for f in duplex_findings("f.pdf", [front, swapped], right)] == [
        "2 of 2 parts get no back or the wrong back when flipped on the " + right + " edge"]


def test_duplex_check_refuses_a_file_of_two_orientations() -> None:
    front = _page("front", [("item:a", (10.0, 20.0, 60.0, 90.0))], 1)
    back = _page("back", [("item:a-back", (150.0, 20.0, 200.0, 90.0))], 2)
    other = _page("single", [], 3, landscape=True)
    assert [f.rule for f in duplex_findings("f.pdf", [front, back, other], "long")] == ["duplex-orientation"]


def test_readme_lines_state_the_edge_the_pages_need() -> None:
    portrait = Page(A4.width_mm, A4.height_mm, Scene(), side="back", pieces=(("item:a", Rect(0, 0, 1, 1)),))
    landscape = Page(A4.height_mm, A4.width_mm, Scene(), side="back")
    lines = duplex_readme_lines([("p.pdf", [portrait]), ("l.pdf", [landscape]), ("s.pdf", [Page(1, 2, Scene())])])
    assert stated_edges("\n".join(lines)) == {"p.pdf": "long", "l.pdf": "short"}
    with pytest.raises(ValueError, match="portrait and landscape"):
        duplex_readme_lines([("m.pdf", [portrait, landscape])])


@pytest.mark.slow
def test_validate_reports_the_print_checks_of_a_built_kit(kit_root: KitFolder) -> None:
    from click.testing import CliRunner

    from boardgen.cli import cli

    out, findings = built("better-life", kit_root)
    template = installed_games()["better-life"].default_template()
    result = CliRunner().invoke(cli, ["validate", "-t", str(template), "-n", "0", "--json", "--kit", str(out)],
                                catch_exceptions=False)
    assert result.exit_code == (1 if any(f.severity == "error" for f in findings) else 0), result.output
    import json

    rules = {f["rule"] for f in json.loads(result.output)["findings"]}
    assert {f.rule for f in findings} <= rules  # the same findings the conformance tests read
    broken = out.parent / "broken"
    broken.mkdir(exist_ok=True)
    with pikepdf.open(out / "leaflet-a4.pdf") as pdf:
        for page in pdf.pages:
            del page.obj["/TrimBox"]
        pdf.save(broken / "leaflet-a4.pdf")
    result = CliRunner().invoke(cli, ["validate", "-t", str(template), "-n", "0", "--kit", str(broken)])
    assert result.exit_code == 1 and "page-boxes" in result.output


def test_a_space_larger_than_a_page_still_gets_a_cut() -> None:
    """Spaces no page can hold whole do not stop the build: the seams go to their even places."""
    huge = Rect(100.0, 50.0, 400.0, 300.0)
    cut, _landscape = plan_cut(600.0, 400.0, keep_whole=[huge])
    assert cut.fit.unique and spaces_cut(cut, [huge]) == [0]


# ------------------------------------------------------------------------------------------ the kit's shape


def _zips(out: Path) -> dict[str, dict[str, bytes]]:
    import zipfile

    kits = {}
    for path in sorted(out.glob("kit-*.zip")):
        with zipfile.ZipFile(path) as z:
            kits[path.stem.removeprefix("kit-")] = {n: z.read(n) for n in z.namelist()}
    return kits


def _has_board(out: Path) -> bool:
    from boardgen.kit.parts import read_inventory

    return any(r["kind"] == "board" for r in read_inventory((out / "inventory.csv").read_bytes()))


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_every_kit_has_the_file_name_shape(game: str, kit_root: KitFolder) -> None:
    """The same names in every game's kit folder and zips (``boardgen.kit.shape``): board files when the game
    declares a board, components, cut edition, leaflet, inventory, zips, nothing printed under another name."""
    from boardgen.kit.shape import folder_problems

    out, _findings = built(game, kit_root)
    board = _has_board(out)
    kits = _zips(out)
    assert sorted(kits) == ["a4", "letter"]
    assert folder_problems(out) == []
    if board:
        with pikepdf.open(out / "board-poster.pdf") as pdf:
            assert pdf.Root.OutputIntents[0].S == "/GTS_PDFX"
            assert str(pdf.docinfo["/GTS_PDFXVersion"]) == "PDF/X-4"
        for slug in kits:
            with pikepdf.open(out / f"board-sections-{slug}.pdf") as pdf:
                assert len(list(out.glob(f"cut/board-section-*-{slug}.svg"))) == len(pdf.pages)
                for number, page in enumerate(pdf.pages, start=1):
                    _section_svg_fits_its_sheet(out / f"cut/board-section-{number}-{slug}.svg", page)


def _section_svg_fits_its_sheet(svg_path: Path, page: pikepdf.Page) -> None:
    """The section's cut outline lies where its sheet prints the piece: its box is the page's TrimBox (mm)."""
    svg = svg_path.read_bytes()
    numbers = [float(x) for d in cut_outlines(svg) for x in re.findall(rb"-?\d+\.?\d*", d)]
    assert len(cut_outlines(svg)) == 1, svg_path.name
    xs, ys = numbers[0::2], numbers[1::2]
    pt = 25.4 / 72
    height = float(page.MediaBox[3]) * pt
    x0, y0, x1, y1 = (float(v) * pt for v in page.TrimBox)
    assert [round(v, 1) for v in (min(xs), min(ys), max(xs), max(ys))] == pytest.approx(
        [x0, height - y1, x1, height - y0], abs=0.15), svg_path.name
    width_mm = float(page.MediaBox[2]) * pt
    assert f'width="{width_mm:g}mm"'.encode() in svg or f'width="{round(width_mm, 1):g}mm"'.encode() in svg


def test_shape_names_a_missing_file_and_a_stray_one(tmp_path: Path) -> None:
    from boardgen.kit.shape import folder_problems, shape_findings

    (tmp_path / "inventory.csv").write_text("part,kind,count,size_mm,sides,file_pages,printed\n"
                                            "board,board,1,1,1,,yes\n")
    (tmp_path / "piecepack-a4.pdf").write_bytes(b"")
    problems = folder_problems(tmp_path)
    assert "no board-poster.pdf" in problems and "no components-letter.pdf" in problems
    assert "piecepack-a4.pdf is not a name of the kit's shape" in problems
    assert {f.rule for f in shape_findings(tmp_path)} == {"kit-shape"}


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_readme_says_what_else_to_bring_from_the_declared_parts(game: str, kit_root: KitFolder) -> None:
    """Each part the game declares as not printed (``GamePlugin.kit_parts``, printed=False) is in every README's
    'What else to bring' list and in inventory.csv as not printed; so is each of the declared tools."""
    from boardgen.kit.parts import read_inventory

    plugin = installed_games()[game]
    _plugin, config = load(plugin.default_template())
    declared = plugin.kit_parts(BuildContext(config, plugin))
    out, _findings = built(game, kit_root)
    rows = {r["part"]: r for r in read_inventory((out / "inventory.csv").read_bytes())}
    for part in declared.unprinted:
        assert rows[part.name]["printed"] == "no", part.name
    for slug, members in _zips(out).items():
        readme = members["README.txt"].decode()
        assert "What else to bring:" in readme, slug
        bring = readme.split("What else to bring:", 1)[1].split("\n\n", 1)[0]
        for part in declared.unprinted:
            assert f"{part.count} x {part.name}" in bring, (slug, part.name)
        for note in declared.notes:
            assert note in bring, (slug, note)
