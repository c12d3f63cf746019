"""The data-only game (``game: custom``): the shipped example builds a whole kit with its pictures, the same
template builds the same bytes twice, and bad input (pictures, layouts, rows, texts too long for their box) is
one line naming the file and the key, or the card."""

from __future__ import annotations

import io
import shutil
from pathlib import Path
from typing import Any

import pikepdf
import pytest
import yaml

from boardgen.build import build
from boardgen.cli import main
from boardgen.errors import ConfigError, LayoutError
from boardgen.plugin import installed_games
from boardgen.render.images import MAX_PICTURE_BYTES, read_picture, sniff
from boardgen.template import load

EXAMPLE = Path(__file__).resolve().parents[3] / "templates" / "custom-meadow.yaml"


def copy_example(tmp_path: Path, change: Any = None) -> Path:
    """The example and its data folder copied to ``tmp_path``; ``change(data, folder)`` edits the template."""
    shutil.copytree(EXAMPLE.parent / "custom-meadow", tmp_path / "custom-meadow")
    data = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    if change is not None:
        change(data, tmp_path / "custom-meadow")
    path = tmp_path / "game.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def refusal(path: Path) -> str:
    with pytest.raises(ConfigError) as info:
        load(path)
    message = str(info.value)
    assert "\n" not in message and len(message) < 600
    return message


def test_the_example_is_an_installed_game_with_no_rules() -> None:
    plugin = installed_games()["custom"]
    assert not plugin.has_rules
    _plugin, config = load(EXAMPLE)
    assert config.game == "custom" and config.title == "Pollinator Meadow"


def test_a_missing_picture_names_the_key(tmp_path: Path) -> None:
    path = copy_example(tmp_path, lambda d, f: d["images"].update(bee="custom-meadow/wasp.svg"))
    message = refusal(path)
    assert message.startswith(f"{path}: images.bee: ") and "not found" in message


def test_a_picture_too_large_is_refused_before_it_is_read(tmp_path: Path) -> None:
    def grow(d: dict[str, Any], folder: Path) -> None:
        with (folder / "daisy.png").open("ab") as fh:
            fh.write(b"\0" * MAX_PICTURE_BYTES)

    message = refusal(copy_example(tmp_path, grow))
    assert "images.daisy" in message and f"expected at most {MAX_PICTURE_BYTES:,}" in message


def test_a_png_that_is_really_text_is_refused(tmp_path: Path) -> None:
    path = copy_example(tmp_path, lambda d, f: (f / "poppy.png").write_text("just some words, not a picture\n"))
    message = refusal(path)
    assert message.startswith(f"{path}: images.poppy: ") and "named as PNG" in message
    assert "not a picture" not in message  # nothing of the file is quoted


def test_a_truncated_png_does_not_decode(tmp_path: Path) -> None:
    def cut(d: dict[str, Any], folder: Path) -> None:
        raw = (folder / "clover.png").read_bytes()
        (folder / "clover.png").write_bytes(raw[: len(raw) // 2])

    assert "does not decode as PNG" in refusal(copy_example(tmp_path, cut))


def test_a_raster_of_too_many_pixels_is_refused(tmp_path: Path) -> None:
    from PIL import Image

    def huge(d: dict[str, Any], folder: Path) -> None:
        Image.new("1", (5000, 5000)).save(folder / "heather.png", optimize=True)

    assert "expected at most 16,000,000 pixels" in refusal(copy_example(tmp_path, huge))


@pytest.mark.parametrize("svg", [
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">'
    '<image xlink:href="file:///etc/passwd" width="10" height="10"/></svg>',
    '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa">]><svg xmlns="http://www.w3.org/2000/svg">&a;</svg>',
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"',
])
def test_an_svg_that_reaches_outside_or_is_broken_is_refused(tmp_path: Path, svg: str) -> None:
    message = refusal(copy_example(tmp_path, lambda d, f: (f / "sun.svg").write_text(svg)))
    assert "images.sun" in message and "passwd" not in message


def test_an_unknown_key_in_a_card_layout_is_one_line(tmp_path: Path) -> None:
    def typo(d: dict[str, Any], folder: Path) -> None:
        d["decks"]["flowers"]["front"]["fields"][1]["font_size"] = 12

    message = refusal(copy_example(tmp_path, typo))
    assert "decks.flowers.front.fields[1].font_size: unknown key" in message


def test_a_box_outside_the_card_names_the_field(tmp_path: Path) -> None:
    def wide(d: dict[str, Any], folder: Path) -> None:
        d["decks"]["flowers"]["front"]["fields"][2]["box"] = [4, 16.5, 80, 5]

    assert "decks.flowers.front.fields[2].box" in refusal(copy_example(tmp_path, wide))


def test_a_row_naming_an_unknown_picture_names_file_line_and_column(tmp_path: Path) -> None:
    def rename(d: dict[str, Any], folder: Path) -> None:
        csv = folder / "flowers.csv"
        csv.write_text(csv.read_text().replace(",poppy,", ",tulip,"))

    message = refusal(copy_example(tmp_path, rename))
    assert "flowers.csv: row 4.picture: no image named 'tulip'" in message


def test_a_column_the_layout_reads_must_be_in_the_file(tmp_path: Path) -> None:
    def drop(d: dict[str, Any], folder: Path) -> None:
        csv = folder / "flowers.csv"
        csv.write_text(csv.read_text().replace("season,", "time,", 1))

    message = refusal(copy_example(tmp_path, drop))
    assert "flowers.csv: header: " in message and "'season'" in message


def test_a_number_column_keeps_its_range(tmp_path: Path) -> None:
    def big(d: dict[str, Any], folder: Path) -> None:
        csv = folder / "flowers.csv"
        csv.write_text(csv.read_text().replace("star} 1 point at the end of the game.,3,", "star} 1 point at the "
                                               "end of the game.,30,"))

    assert "row 6.nectar: expected a whole number 0 to 9, got '30'" in refusal(copy_example(tmp_path, big))


def test_a_text_that_cannot_fit_at_6pt_is_a_build_error_naming_the_card(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    def long(d: dict[str, Any], folder: Path) -> None:
        csv = folder / "flowers.csv"
        text = csv.read_text()
        csv.write_text(text.replace("Easy to find:", "Easy to find: " + "a meadow full of daisies " * 30))

    path = copy_example(tmp_path, long)
    with pytest.raises(LayoutError) as info:
        load(path)
    message = str(info.value)
    assert "deck 'Flower cards': card 4 'Daisy' (row 2): field 6 (column text)" in message
    assert "even at 6 pt" in message
    with pytest.raises(SystemExit) as exit_info:
        main(["build", "-q", "--template", str(path), "--out", str(tmp_path / "out")])
    lines = capsys.readouterr().err.splitlines()
    assert exit_info.value.code == 2 and len(lines) == 1 and "card 4 'Daisy'" in lines[0]
    assert not (tmp_path / "out" / "pollinator-meadow").exists()


def test_a_minimum_size_under_6pt_is_refused_by_the_schema(tmp_path: Path) -> None:
    def tiny(d: dict[str, Any], folder: Path) -> None:
        d["decks"]["flowers"]["front"]["fields"][5]["min_size"] = 5

    assert "fields[5].min_size" in refusal(copy_example(tmp_path, tiny))


def test_sniffing_goes_by_the_bytes_not_the_name(tmp_path: Path) -> None:
    png = (EXAMPLE.parent / "custom-meadow" / "daisy.png").read_bytes()
    assert sniff(png) == "png" and sniff(b"\xff\xd8\xff\xe0rest") == "jpeg"
    assert sniff(b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>') == "svg"
    assert sniff(b"hello") == ""
    (tmp_path / "a.jpg").write_bytes(png)
    with pytest.raises(ConfigError, match="named as JPEG but its first bytes say a PNG file"):
        read_picture(tmp_path / "a.jpg", "t.yaml", "images.a")


@pytest.mark.slow
def test_the_example_builds_the_same_bytes_twice_with_its_pictures(tmp_path: Path) -> None:
    _plugin, config = load(EXAMPLE)
    first, _ = build(config, tmp_path / "one")
    second, _ = build(config, tmp_path / "two")
    names = sorted(p.relative_to(first).as_posix() for p in first.rglob("*") if p.is_file())
    assert names == sorted(p.relative_to(second).as_posix() for p in second.rglob("*") if p.is_file())
    for name in names:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    for name in ("board-poster.pdf", "board-poster-rgb.pdf", "board-sections-a4.pdf", "components-a4.pdf",
                 "cut/components-letter.pdf", "leaflet-a4.pdf", "inventory.csv", "kit-a4.zip", "kit-letter.zip"):
        assert name in names, name
    with pikepdf.open(first / "components-a4.pdf") as pdf:  # the flowers are on the cards as pictures
        images = [img for page in pdf.pages for img in page.get_images().values()]
        assert images and all(img.ColorSpace == pikepdf.Name.DeviceRGB for img in images)
    with pikepdf.open(io.BytesIO((first / "board-poster.pdf").read_bytes())) as pdf:
        assert "/OutputIntents" in pdf.Root
        spaces = {str(img.ColorSpace) for page in pdf.pages for img in page.get_images().values()}
        assert "/DeviceRGB" not in spaces
    inventory = (first / "inventory.csv").read_text()
    assert "Flower cards,deck,15,63.5 x 88.9,2," in inventory and "weather die,die,1,15 x 15 x 15,6" in inventory


def test_a_picture_board_inline_rows_and_a_jpeg_build_to_the_print_standard(tmp_path: Path) -> None:
    """Another shape of template: the board a JPEG picture with no spaces, a deck of inline rows with its
    own back per card, square tokens with text only, a die with its numbers."""
    from PIL import Image

    from boardgen.render.print_checks import kit_files, kit_findings

    Image.new("RGB", (300, 200), (90, 140, 60)).save(tmp_path / "field.jpg", quality=80)
    (tmp_path / "rules.md").write_text("# Tiny\n\nPlay a card.\n")
    template = {
        "game": "custom", "edition": "tiny", "title": "Tiny",
        "images": {"field": "field.jpg"},
        "decks": {"d": {"name": "Cards", "size": "mini", "rows": [
            {"t": "One", "quantity": 5}, {"t": "Two", "quantity": 4}],
            "front": {"fields": [{"column": "t", "box": [3, 3, 38, 20], "size": 14}]},
            "back": {"background": "#334455",
                     "fields": [{"column": "t", "box": [3, 3, 38, 10], "colour": "#ffffff"}]}}},
        "tokens": [{"name": "point", "count": 12, "shape": "square", "width": 15, "text": "1"}],
        "dice": [{"name": "die", "sides": 8, "size": 24}],
        "board": {"width": 300, "height": 200, "image": "field"},
        "leaflet": {"file": "rules.md"},
    }
    path = tmp_path / "tiny.yaml"
    path.write_text("# a test template\n" + yaml.safe_dump(template, sort_keys=False), encoding="utf-8")
    _plugin, config = load(path)
    out, _ = build(config, tmp_path / "out", only={"board", "components"})
    findings = [f"{f.rule} {f.where}: {f.message}" for f in kit_findings(kit_files(out))]
    assert findings == []
    with pikepdf.open(out / "board-poster.pdf") as pdf:
        assert [str(img.ColorSpace) for img in pdf.pages[0].get_images().values()] == ["/DeviceCMYK"]
    inventory = (out / "inventory.csv").read_text()
    assert "Cards,deck,9," in inventory and "point,token,12," in inventory and "die,die,1," in inventory


def test_an_svg_gradient_on_the_board_is_refused_on_load(tmp_path: Path) -> None:
    """The board's print-shop poster is CMYK: an SVG gradient there would fail the conversion mid-build."""
    gradient = ('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><defs><linearGradient id="g">'
                '<stop offset="0" stop-color="#f00"/><stop offset="1" stop-color="#00f"/></linearGradient></defs>'
                '<rect width="40" height="40" fill="url(#g)"/></svg>')
    message = refusal(copy_example(tmp_path, lambda d, f: (f / "hive.svg").write_text(gradient)))
    assert "board.spaces[0].image" in message and "gradient" in message


def test_rules_too_long_for_eight_pages_are_one_line_naming_the_section(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """The shared typesetter's fit loop: nothing fits 8 two-column pages even at its smallest size."""
    def long(d: dict[str, Any], folder: Path) -> None:
        rules = folder / "rules.md"
        rules.write_text(rules.read_text() + "\n## Variants\n\n" + ("A variant the table may agree on. " * 40
                                                                     + "\n\n") * 120)

    path = copy_example(tmp_path, long)
    with pytest.raises(SystemExit) as exit_info:
        main(["build", "-q", "--template", str(path), "--out", str(tmp_path / "out")])
    lines = capsys.readouterr().err.splitlines()
    assert exit_info.value.code == 2 and len(lines) == 1
    assert f"{path}: leaflet (A4, language en)" in lines[0]
    assert "even at 8.5 pt" in lines[0] and "in the block 'Variants'" in lines[0] and "shorten" in lines[0]
