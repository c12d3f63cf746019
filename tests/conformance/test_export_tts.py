"""`boardgen export tts` for every installed game: the save parses, every picture it names exists with the
declared grid and size (decks: at most 10 x 7 cards, at most 4096 px a side), its objects count what
inventory.csv lists, and a rebuild writes the same bytes."""

from __future__ import annotations

import json
import struct
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from boardgen.cli import main
from boardgen.exports.tts import count_objects, image_urls
from boardgen.kit.parts import inventory_csv, read_inventory
from boardgen.plugin import BuildContext, installed_games
from boardgen.template import load

FAST = {"piecepack"}
GAMES = [pytest.param(n, marks=() if n in FAST else pytest.mark.slow) for n in sorted(installed_games())]


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">II", head[16:24])


def export(template: Path, out: Path, *extra: str) -> None:
    with pytest.raises(SystemExit) as done:
        main(["export", "tts", "-q", "--template", str(template), "--out", str(out), *extra])
    assert done.value.code == 0


def local_path(url: str, folder: Path) -> Path:
    parsed = urlparse(url)
    return Path(unquote(parsed.path)) if parsed.scheme == "file" else folder / url


@pytest.mark.parametrize("name", GAMES)
def test_tts_save_holds_every_part(name: str, tmp_path: Path) -> None:
    plugin = installed_games()[name]
    template = plugin.default_template()
    out = tmp_path / "tts"
    export(template, out)
    saves = sorted(out.glob("*.json"))
    assert len(saves) == 1
    save = json.loads(saves[0].read_text())
    assert save["SaveName"] and isinstance(save["ObjectStates"], list)
    states = save["ObjectStates"]

    for url in image_urls(states):
        assert local_path(url, out).is_file(), url
    decks = [o for o in states if o["Name"] == "DeckCustom"] + [
        o for bag in states if bag["Name"] == "Bag" for o in bag["ContainedObjects"] if o["Name"] == "DeckCustom"]
    for deck in decks:
        assert len(deck["DeckIDs"]) == len(deck["ContainedObjects"])
        for key, sheet in deck["CustomDeck"].items():
            columns, rows = sheet["NumWidth"], sheet["NumHeight"]
            assert 1 <= columns <= 10 and 1 <= rows <= 7
            width, height = png_size(local_path(sheet["FaceURL"], out))
            assert width <= 4096 and height <= 4096 and width % columns == 0 and height % rows == 0
            if sheet["UniqueBack"]:
                assert png_size(local_path(sheet["BackURL"], out)) == (width, height)
            else:
                assert png_size(local_path(sheet["BackURL"], out)) in ((width // columns, height // rows),
                                                                         (width, height))
            used = [i % 100 for i in deck["DeckIDs"] if i // 100 == int(key)]
            assert used and max(used) < columns * rows - (1 if columns * rows == 70 else 0)

    _game, config = load(template)
    ctx = BuildContext(config, plugin)
    rows = read_inventory(inventory_csv(plugin.kit_parts(ctx)))
    assert count_objects(states) == {r["part"]: int(r["count"]) for r in rows}
    guids = []

    def walk(objs: list[dict]) -> None:  # type: ignore[type-arg]
        for o in objs:
            guids.append(o["GUID"])
            walk(o.get("ContainedObjects", []))

    walk(states)
    assert len(guids) == len(set(guids))

    before = {p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    export(template, out)
    after = {p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    assert before == after


def test_base_url_names_the_upload(tmp_path: Path) -> None:
    template = installed_games()["piecepack"].default_template()
    export(template, tmp_path / "tts", "--base-url", "https://example.org/pp")
    save = json.loads(next((tmp_path / "tts").glob("*.json")).read_text())
    urls = image_urls(save["ObjectStates"])
    assert urls and all(u.startswith("https://example.org/pp/images/") for u in urls)
    for u in urls:
        assert (tmp_path / "tts" / u.removeprefix("https://example.org/pp/")).is_file()


def test_a_big_deck_takes_several_sheets_of_at_most_10_by_7() -> None:
    from boardgen.cards.deck import Deck, deck_components
    from boardgen.exports.tts import CARDS_PER_SHEET, tts_save
    from boardgen.kit.parts import KitParts, deck_part

    rows = [{"title": f"Card {i}", "text": f"Rule number {i}.", "quantity": 2 if i < 5 else 1} for i in range(75)]
    cards = deck_components(Deck.from_rows("Big deck", rows, "poker"))
    save = tts_save(KitParts("test", "Test", (deck_part("Big deck", cards, "cards-{paper}.pdf"),)))
    (deck,) = save.save["ObjectStates"]
    assert len(deck["ContainedObjects"]) == 80 and len(deck["CustomDeck"]) == 2
    assert [s.columns * s.rows for s in save.sheets] == [70, 70]
    per_sheet = {key: sum(1 for i in set(deck["DeckIDs"]) if i // 100 == int(key)) for key in deck["CustomDeck"]}
    assert sorted(per_sheet.values()) == [75 - CARDS_PER_SHEET, CARDS_PER_SHEET]  # copies share a place
    for info in save.sheets:
        image = save.images[info.name]
        assert image.width_px == info.columns * info.card_px[0] <= 4096
        assert image.height_px == info.rows * info.card_px[1] <= 4096


def test_a_game_without_declared_parts_is_a_one_line_error(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    plugin = installed_games()["piecepack"]

    def undeclared(ctx: object) -> object:
        raise NotImplementedError("piecepack declares no kit parts")

    monkeypatch.setattr(plugin, "kit_parts", undeclared)
    with pytest.raises(SystemExit) as done:
        main(["export", "tts", "--template", str(plugin.default_template()), "--out", str(tmp_path / "x")])
    assert done.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "declares no kit parts" in err[0]
    assert not (tmp_path / "x").exists()
