"""Print-on-demand images: every profile's pictures have its exact pixel size with the bleed filled by the art
(a sample of parts), the manifest counts every piece, a template adds its own profile, and a bad one is a
one-line error."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np
import pytest

from boardgen.cards.deck import Deck, deck_components
from boardgen.cli import main
from boardgen.errors import ConfigError
from boardgen.exports.pod import builtin_profiles, pod_images, profile_pixels, resolve_profiles
from boardgen.kit.parts import KitParts, Part, deck_part
from boardgen.plugin import BuildContext, installed_games
from boardgen.render.scene import rgb
from boardgen.template import load

COLOUR = "#8a2f5d"


def deck(size: str, n: int = 3) -> Part:
    rows = [{"title": f"Card {i}", "text": "A line of rules.", "quantity": 1} for i in range(n)]
    cards = Deck.from_rows(f"{size} deck", rows, size, colour=COLOUR, pattern="plain")
    return deck_part(f"{size} deck", deck_components(cards), "cards-{paper}.pdf")


def test_builtin_profiles_give_the_game_crafters_pixels() -> None:
    p = builtin_profiles()
    assert p["poker"].total_px(63.5, 88.9) == (825, 1125)
    assert p["bridge"].total_px(57.15, 88.9) == (750, 1125)
    assert p["business"].total_px(88.9, 50.8) == (1125, 675)
    assert p["square-token"].total_px(25.4, 25.4) == (375, 375)
    assert p["round-token"].total_px(19.05, 19.05) == (300, 300)


@pytest.mark.parametrize(("profile", "size"), [("poker", "poker"), ("bridge", "bridge"), ("business", "business")])
def test_card_profiles_exact_size_and_bleed(profile: str, size: str) -> None:
    part = deck(size)
    result = pod_images(KitParts("test", "Test", (part,)), [builtin_profiles()[profile]])
    files = {a.path: a.data for a in result.artifacts}
    manifest = list(csv.DictReader(io.StringIO(files["manifest.csv"].decode())))
    assert sum(int(r["quantity"]) for r in manifest if r["side"] == "front") == part.count
    assert sum(int(r["quantity"]) for r in manifest if r["side"] == "back") == part.count
    prof = builtin_profiles()[profile]
    back = next(r for r in manifest if r["side"] == "back")
    expected = prof.total_px(prof.trim_in[0] * 25.4, prof.trim_in[1] * 25.4)  # type: ignore[index]
    assert (int(back["width_px"]), int(back["height_px"])) == expected
    pixels = profile_pixels(prof, part.pieces[0] if profile != "business" else _turned(part), "back")
    assert pixels.shape[1::-1] == expected
    # the whole bleed (37.5 px) is the back's colour, up to the picture's edge: no white frame
    colour = np.array([round(c * 255) for c in rgb(COLOUR)])
    ring = np.concatenate([pixels[:37].reshape(-1, 3), pixels[-37:].reshape(-1, 3),
                           pixels[:, :37].reshape(-1, 3), pixels[:, -37:].reshape(-1, 3)])
    assert np.abs(ring.astype(int) - colour).max() <= 2
    names = sorted(n for n in files if n.endswith(".png"))
    assert names[0].startswith(f"{profile}/01-") and names[-1].endswith("back.png")


def _turned(part: Part):  # type: ignore[no-untyped-def]
    from boardgen.cards.deck import turned

    return turned(part.pieces[0])


def test_business_cards_are_turned_to_the_profile() -> None:
    assert builtin_profiles()["business"].takes(deck("business")) == "turn"
    assert "not the profile" in builtin_profiles()["poker"].takes(deck("business"))


def test_token_profiles_on_a_game() -> None:
    plugin = installed_games()["piecepack"]
    _game, config = load(plugin.default_template())
    kit = plugin.kit_parts(BuildContext(config, plugin))
    result = pod_images(kit, resolve_profiles(["round-token", "square-token"], config))
    rows = list(csv.DictReader(io.StringIO(result.artifacts[-1].data.decode())))
    coins = [r for r in rows if r["profile"] == "round-token" and r["side"] == "front"]
    tiles = [r for r in rows if r["profile"] == "square-token" and r["side"] == "front"]
    assert sum(int(r["quantity"]) for r in coins) == 24 and sum(int(r["quantity"]) for r in tiles) == 24
    spec = config.piecepack
    coin_px = round((spec.coin_diameter_mm / 25.4 + 0.25) * 300)
    assert {(int(r["width_px"]), int(r["height_px"])) for r in coins} == {(coin_px, coin_px)}


def test_template_profile_and_bad_profiles(tmp_path: Path) -> None:
    plugin = installed_games()["philanthropist"]
    _game, config = load(plugin.default_template())
    (profile,) = resolve_profiles(["business-2x3"], config)
    assert profile.total_px(50.8, 76.2) == (675, 975)
    with pytest.raises(ConfigError, match="unknown print-on-demand profile 'nope'"):
        resolve_profiles(["nope"], config)
    bad = tmp_path / "bad.yaml"
    text = plugin.default_template().read_text().replace("bleed_in: 0.125\n      safe_in", "bleed_in: 2\n      safe_in")
    bad.write_text(text.replace("file: philanthropist/", f"file: {plugin.default_template().parent}/philanthropist/"))
    with pytest.raises(SystemExit) as done:
        main(["export", "pod", "-q", "--template", str(bad), "--profile", "business-2x3", "--out", str(tmp_path)])
    assert done.value.code == 2


def test_pod_command_writes_images_and_manifest(tmp_path: Path) -> None:
    template = installed_games()["piecepack"].default_template()
    with pytest.raises(SystemExit) as done:
        main(["export", "pod", "-q", "--template", str(template), "--profile", "round-token",
              "--out", str(tmp_path / "pod")])
    assert done.value.code == 0
    manifest = (tmp_path / "pod" / "manifest.csv").read_text().splitlines()
    assert manifest[0].startswith("profile,part,file,side,quantity")
    for line in manifest[1:]:
        assert (tmp_path / "pod" / line.split(",")[2]).is_file()
