"""Global Warming's template, leaflet, table sheet, bots and kit: numbers from the template, one-line errors,
the same bytes twice."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from boardgen.errors import ConfigError
from boardgen.games.global_warming import plugin
from boardgen.games.global_warming.kit import kit_stage, table_sheet
from boardgen.games.global_warming.leaflet import (
    island_drawing,
    leaflet_pdf,
    leaflet_text,
    line_drawing,
    variants_drawing,
)
from boardgen.games.global_warming.rules.bots import CautiousBot, danger
from boardgen.games.global_warming.rules.engine import PAWN_BASE, VALUE_UP, GlobalWarmingGame
from boardgen.games.global_warming.schema import GlobalWarmingTemplate, RulesSpec
from boardgen.plugin import BuildContext
from boardgen.render.imposition import A4, LETTER
from boardgen.schema import validate_template

TEMPLATE = Path(__file__).resolve().parents[3] / "templates" / "global-warming.yaml"


def _data() -> dict:
    return yaml.safe_load(TEMPLATE.read_text())


def _config(players: dict[str, int] | None = None, **rules: object) -> GlobalWarmingTemplate:
    data = _data()
    data["players"].update(players or {})
    data["rules"].update(rules)
    return validate_template(GlobalWarmingTemplate, data, "gw.yaml")


def test_template_loads_and_every_key_is_set() -> None:
    config = plugin.load_config(_data(), str(TEMPLATE), "")
    assert config.game == "global-warming" and config.rules.line_length == 3
    assert config.piecepack.tile_size_mm == pytest.approx(50.8)
    assert plugin.player_range(config) == (2, 4, 4)
    # the template writes every field of the model (so the numbers live in the template, not in code)
    for section in ("rules", "bots", "piecepack", "print"):
        written = set(_data()[section])
        model = type(getattr(config, section))
        expected = {info.alias or name for name, info in model.model_fields.items()}
        assert written == expected, (section, expected - written)


@pytest.mark.parametrize("change,key", [
    ({"rules": {"line_lenght": 3}}, "rules.line_lenght"),
    ({"players": {"usual": 5}}, "players.usual"),
    ({"rules": {"setup": "spiral"}}, "rules.setup"),
    ({"rules": {"action_order": [0, 5, 4, 3, 2, 2]}}, "rules"),
    ({"piecepack": {"tile_size": "9in"}}, "piecepack.tile_size"),
])
def test_bad_templates_are_one_line_errors(change: dict, key: str) -> None:
    data = _data()
    for section, values in change.items():
        data[section].update(values)
    with pytest.raises(ConfigError) as err:
        validate_template(GlobalWarmingTemplate, data, "gw.yaml")
    text = str(err.value)
    assert "\n" not in text and text.startswith(f"gw.yaml: {key}")


def test_bad_template_exits_2(tmp_path: Path) -> None:
    from boardgen.cli import main

    data = _data()
    data["rules"]["line_lenght"] = 2
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(data))
    with pytest.raises(SystemExit) as code:
        main(["validate", "-t", str(bad), "-n", "1", "-q"])
    assert code.value.code == 2


def test_leaflet_states_the_template_numbers() -> None:
    text = leaflet_text(_config(line_length=4, action_order=[0, 1, 2, 3, 4, 5], sea_margin=2,
                                 players={"min": 3}))
    assert "draw four coins" in text
    assert "null, ace, 2, 3, 4, 5" in text
    assert "at most 2 places beyond" in text
    assert "For 3 to 4 players" in text
    default = leaflet_text(_config())
    assert "three coins" in default and "null, 5, 4, 3, 2, ace" in default
    assert "Mark Biggar, Aron Wall and Gloria Wall" in default


@pytest.mark.parametrize("paper", [A4, LETTER])
def test_leaflet_is_one_sheet(paper) -> None:
    data, pages = leaflet_pdf(_config(), paper)
    assert pages == 2 and data.startswith(b"%PDF")
    assert leaflet_pdf(_config(), paper)[0] == data


def test_table_sheet_has_three_plans_and_the_coin_mat() -> None:
    page = table_sheet(_config(), A4)
    assert page.width_mm == 210.0
    text = repr(page.scene)
    assert text.count("Basic island") == 1 and "Variant: corner neighbours out" in text
    assert text.count("sinks in") == 2


def test_inventory_lists_24_tiles_24_coins_4_pawns_4_dice() -> None:
    from boardgen.games.global_warming.kit import kit_parts
    from boardgen.kit.readme import box_lines, bring_lines
    from boardgen.plugin import BuildContext

    declared = kit_parts(BuildContext(_config()))
    counts = {kind: sum(p.count for p in declared.of_kind(kind)) for kind in ("tile", "coin", "pawn", "die", "bag")}
    assert counts == {"tile": 24, "coin": 24, "pawn": 4, "die": 4, "bag": 1}
    assert "  1 x coin bag (120 x 160 mm, not printed)" in bring_lines(declared)
    assert "    6 x tile of Suns (50.8 x 50.8 mm)" in box_lines(declared)


def test_cautious_bot_steps_off_the_tile_about_to_sink() -> None:
    game = GlobalWarmingGame(RulesSpec(), 2)
    s = game.new_initial_state()
    for t in range(24):
        s.apply_action(t)
    s.apply_action(6)  # seat 0 on tile 6 (null of suit 1)
    s.apply_action(23)
    for coin in (6, 13, 20):  # the first coin shows the null value: one of 4 nulls, tile 6 among them
        s.apply_action(2 * coin + VALUE_UP)
    d = danger(s)
    assert d[6] == pytest.approx(1.0 / 4) and d[0] == pytest.approx(1.0 / 4) and d[5] == 0.0
    s.apply_actions([2, 1])  # seat 0 acts first with two steps
    bot = CautiousBot(game, 0, random.Random(0))
    while s.current_player() == 0:
        action = bot.step(s)
        assert PAWN_BASE <= action < PAWN_BASE + 8
        s.apply_action(action)
    assert d[s.pawn_tile[0]] == 0.0  # its own pawn ends on a tile no line coin can name


def test_plugin_simulates_through_the_api() -> None:
    from boardgen.play.simulate import simulate, summary

    ctx = BuildContext(_config(), plugin)
    game = plugin.new_game(ctx, 3)
    sim = simulate(game, plugin.bots(), 8, ["cautious", "random", "random"], 7)
    summ = summary(sim)
    assert summ["games"] == 8 and summ["ties"]["games"] == 0 and summ["nobody_won"]["games"] == 0
    assert sum(s["wins"] for s in summ["win_rate_by_seat"]) == pytest.approx(8)
    assert 1 <= summ["length"]["min"] <= summ["length"]["max"] <= 24


def test_kit_stages_make_the_same_bytes_twice() -> None:
    data = _data()
    data["print"] = {"papers": ["a4"], "backs": "duplex", "also_fold": False}
    config = validate_template(GlobalWarmingTemplate, data, "gw.yaml")

    def run() -> dict[str, bytes]:
        ctx = BuildContext(config, plugin)
        ctx.artifacts.extend(kit_stage(ctx))
        return {a.path: a.data for a in ctx.artifacts}

    first, second = run(), run()
    assert first == second
    assert {"components-a4.pdf", "leaflet-a4.pdf", "kit-a4.zip", "inventory.csv",
            "rules.txt", "cut/components-a4.pdf", "cut/components-a4-page-01.svg"} <= set(first)
    assert not any(n.startswith("components-") and n.endswith(".svg") for n in first)  # no stacked cut files
    import io
    import zipfile

    names = set(zipfile.ZipFile(io.BytesIO(first["kit-a4.zip"])).namelist())
    assert {"components-a4.pdf", "leaflet-a4.pdf", "README.txt", "inventory.csv", "cut/components-a4.pdf",
            "cut/components-a4-page-01.svg"} <= names


@pytest.mark.slow
def test_whole_build_twice_is_byte_identical(tmp_path: Path) -> None:
    from boardgen.build import build

    data = _data()
    data["simulate"]["validate_games"] = 20
    config = validate_template(GlobalWarmingTemplate, data, str(TEMPLATE))
    out = []
    for k in (1, 2):
        build(config, tmp_path / str(k))
        folder = tmp_path / str(k) / config.edition
        out.append({p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
                    if p.is_file()})
    assert out[0] == out[1]
    names = set(out[0])
    for paper in ("a4", "letter"):
        assert {f"components-{paper}.pdf", f"components-fold-{paper}.pdf", f"leaflet-{paper}.pdf",
                f"kit-{paper}.zip", f"cut/components-{paper}.pdf"} <= names


@pytest.mark.parametrize("drawing", [line_drawing, island_drawing, variants_drawing])
def test_leaflet_pictures_end_at_their_captions(drawing) -> None:
    """No blank strip under a picture: its lowest mark (the caption) sits at its bottom (the coin line had
    7 mm of nothing under its labels, its height counted 11 mm where 11 pt was meant)."""
    d = drawing(_config(), 250.0)
    assert d.getBounds()[1] <= 2.0 and d.getBounds()[3] <= d.height
