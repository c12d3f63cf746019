"""Games as plug-ins: a game defined only inside tests/ is found through the entry-point route, built,
simulated and validated by the core's generic commands; the registry, `games`, `new` and `schema` commands."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from boardgen.cli import cli
from boardgen.play.api import CHANCE, TERMINAL, IllegalActionError
from boardgen.play.bots import GENERIC_BOTS, play_with_bots
from boardgen.plugin import BuildContext, installed_games


def test_entry_point_game_is_listed(tiny_installed: Path) -> None:
    result = CliRunner().invoke(cli, ["games"])
    assert result.exit_code == 0
    assert "tiny-stones" in result.output and "global-wellbeing" in result.output


def test_entry_point_game_builds_simulates_validates(tiny_installed: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "out"
    result = runner.invoke(cli, ["build", "-q", "--template", str(tiny_installed), "--out", str(out)])
    assert result.exit_code == 0, result.output
    manifest = json.loads((out / "tiny-stones" / "manifest.json").read_text())
    assert manifest["game"] == "tiny-stones"
    assert set(manifest["outputs"]) == {"board.pdf", "report/validation.json", "report/validation.txt"}
    assert (out / "tiny-stones" / "board.pdf").read_bytes().startswith(b"%PDF")

    result = runner.invoke(cli, ["simulate", "-q", "--template", str(tiny_installed), "--games", "60",
                                 "--bots", "greedy,random", "--out", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads((out / "tiny-stones" / "report" / "results.json").read_text())
    summary = data["summary"]
    assert summary["games"] == 60
    # greedy plays the winning strategy (leave a multiple of 4): it beats random far more often than not
    assert summary["win_rate_by_bot"]["greedy"]["rate"] > 0.8
    assert (out / "tiny-stones" / "report" / "win-rate-by-seat.png").read_bytes().startswith(b"\x89PNG")

    result = runner.invoke(cli, ["validate", "-q", "--template", str(tiny_installed), "--games", "20", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["simulation"]["games"] == 20


def test_simulation_does_not_depend_on_jobs(tiny_installed: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    outs = []
    for jobs in ("1", "2"):
        out = tmp_path / jobs
        result = runner.invoke(cli, ["simulate", "-q", "--template", str(tiny_installed), "--games", "80",
                                     "--jobs", jobs, "--out", str(out)])
        assert result.exit_code == 0, result.output
        outs.append((out / "tiny-stones" / "report" / "results.json").read_bytes())
    assert outs[0] == outs[1]


def test_bad_template_for_plugin_game_is_one_line(tiny_installed: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(tiny_installed.read_text().replace("max_take: 3", "max_tkae: 3"))
    import subprocess

    result = subprocess.run([sys.executable, "-m", "boardgen.cli", "build", "--template", str(bad), "--out",
                             str(tmp_path / "o")], capture_output=True, text=True, timeout=60,
                            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr
    assert "rules.max_tkae: unknown key; did you mean 'max_take'?" in lines[0]
    assert not (tmp_path / "o").exists()


def test_unknown_game_names_the_key(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: global-welbeing\nedition: x\ntitle: X\n")
    from boardgen.errors import ConfigError
    from boardgen.template import load

    with pytest.raises(ConfigError, match=r"game: unknown game 'global-welbeing'; did you mean 'global-wellbeing'"):
        load(bad)


def test_chosen_chance_and_illegal_actions(tiny_installed: Path) -> None:
    import tiny_stones

    game = tiny_stones.StonesGame(tiny_stones.StonesRules(stones=5, max_take=3))
    state = game.new_initial_state()
    assert state.current_player() == CHANCE
    state.apply_action(1)  # force: seat 2 starts
    assert state.current_player() == 1
    with pytest.raises(IllegalActionError):
        state.apply_action(4)
    state.apply_action(1)  # seat 2 leaves 4: seat 1 now loses against perfect play
    state.apply_action(3)
    state.apply_action(1)
    assert state.current_player() == TERMINAL and state.returns() == [-1.0, 1.0]
    assert state.history() == [1, 1, 3, 1]


def test_generic_bots_finish_any_game(tiny_installed: Path) -> None:
    import random

    import tiny_stones

    game = tiny_stones.StonesGame(tiny_stones.StonesRules())
    for name, factory in GENERIC_BOTS.items():
        bots = [factory(game, seat, random.Random(seat)) for seat in range(2)]
        state = play_with_bots(game.new_initial_state(), bots, random.Random(1))
        assert state.is_terminal(), name


def test_new_writes_a_template_that_loads(tmp_path: Path) -> None:
    target = tmp_path / "mine.yaml"
    result = CliRunner().invoke(cli, ["new", "global-wellbeing", str(target)])
    assert result.exit_code == 0, result.output
    first = target.read_text().splitlines()[0]
    assert first.startswith("# yaml-language-server: $schema=file://") and first.endswith(".schema.json")
    from boardgen.template import load

    plugin, config = load(target)
    assert plugin.name == "global-wellbeing" and config.edition == "global-wellbeing"
    again = CliRunner().invoke(cli, ["new", "global-wellbeing", str(target)])
    assert again.exit_code != 0  # no silent overwrite


def test_shipped_schemas_match_the_games() -> None:
    """Every shipped template names a schema file beside it, and that file is what `boardgen schema` prints."""
    from boardgen.yaml_reader import templates_dir

    for name, plugin in installed_games().items():
        template = plugin.default_template()
        first = template.read_text().splitlines()[0]
        assert first.startswith("# yaml-language-server: $schema="), name
        schema_file = template.parent / first.split("=", 1)[1]
        assert json.loads(schema_file.read_text()) == plugin.json_schema(), name
        assert template.parent == templates_dir()


def test_a_forked_stage_keeps_its_place_and_reports_errors(tiny_installed: Path, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A stage run in a worker process gives the same artifacts, in the same order, as run inline; a user
    error in it is still a one-line BoardgenError."""
    import tiny_stones

    from boardgen.build import run_stages
    from boardgen.errors import BoardgenError
    from boardgen.plugin import BuildContext
    from boardgen.template import load

    plugin, config = load(tiny_installed)
    stages = (("board", "tiny_stones:board_stage", "parallel"),
              ("validate", "boardgen.play.runner:validate_stage", "parallel"))
    monkeypatch.setattr(tiny_stones.TinyStones, "stages", stages)
    forked = [(a.path, a.data) for a in run_stages(BuildContext(config, plugin))]
    monkeypatch.setenv("BOARDGEN_SERIAL_STAGES", "1")
    inline = [(a.path, a.data) for a in run_stages(BuildContext(config, plugin))]
    assert forked == inline and forked[0][0] == "board.pdf"

    monkeypatch.delenv("BOARDGEN_SERIAL_STAGES")

    def broken(ctx: BuildContext) -> list:  # type: ignore[type-arg]
        raise BoardgenError("tiny.yaml: rules.stones: no room for the pile")

    monkeypatch.setattr(tiny_stones, "board_stage", broken)
    with pytest.raises(BoardgenError, match=r"rules\.stones: no room for the pile"):
        run_stages(BuildContext(config, plugin))


def _stamp_stage(ctx: BuildContext) -> list:  # type: ignore[type-arg]
    """A stage that keeps a value for later stages and says which process it ran in."""
    from boardgen.io import Artifact

    ctx.keep("stamp", f"kept by {ctx.config.title}")
    return [Artifact("stamp.txt", b"stamp", "a stamp")]


def _read_stamp_stage(ctx: BuildContext) -> list:  # type: ignore[type-arg]
    from boardgen.io import Artifact

    return [Artifact("read.txt", ctx.computed["stamp"].encode(), "what the stamp stage kept")]


def test_parallel_stages_keep_their_order_values_and_errors(tiny_installed: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A group of "parallel" stages gives the same artifacts, in the listed order, as run one after another;
    what a stage kept reaches the stages after the group from whichever process ran it; a user error in a
    parallel stage is raised as the same kind of error, whichever process ran it."""
    import tiny_stones

    from boardgen.build import run_stages
    from boardgen.errors import LayoutError
    from boardgen.plugin import BuildContext
    from boardgen.template import load

    plugin, config = load(tiny_installed)
    monkeypatch.setattr(tiny_stones, "stamp_stage", _stamp_stage, raising=False)
    monkeypatch.setattr(tiny_stones, "read_stamp_stage", _read_stamp_stage, raising=False)
    stages = (("validate", "boardgen.play.runner:validate_stage", "parallel"),
              ("board", "tiny_stones:board_stage", "parallel"),
              ("stamp", "tiny_stones:stamp_stage", "parallel"),
              ("read", "tiny_stones:read_stamp_stage"))
    monkeypatch.setattr(tiny_stones.TinyStones, "stages", stages)
    ctx = BuildContext(config, plugin)
    in_parallel = [(a.path, a.data) for a in run_stages(ctx)]
    assert list(ctx.timings_s) == ["validate", "board", "stamp", "read"]
    monkeypatch.setenv("BOARDGEN_SERIAL_STAGES", "1")
    inline = [(a.path, a.data) for a in run_stages(BuildContext(config, plugin))]
    assert in_parallel == inline
    assert [path for path, _data in in_parallel][-3:] == ["board.pdf", "stamp.txt", "read.txt"]
    assert in_parallel[-1][1] == f"kept by {config.title}".encode()

    monkeypatch.delenv("BOARDGEN_SERIAL_STAGES")

    def broken(ctx: BuildContext) -> list:  # type: ignore[type-arg]
        raise LayoutError("tiny.yaml: rules.stones: no room for the pile")

    monkeypatch.setattr(tiny_stones, "board_stage", broken)
    with pytest.raises(LayoutError, match=r"rules\.stones: no room for the pile"):
        run_stages(BuildContext(config, plugin))


def _slow_stage(ctx: BuildContext) -> list:  # type: ignore[type-arg]
    import time

    time.sleep(0.4)
    return []


def _refusing_stage(ctx: BuildContext) -> list:  # type: ignore[type-arg]
    from boardgen.errors import LayoutError

    raise LayoutError("tiny.yaml: rules.stones: no room for the pile")


def test_a_refusal_in_a_worker_stops_the_group_at_once(tiny_installed: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """When a worker's stage refuses the build, no further stage starts and the workers are ended: the error
    comes at once, not after every stage left in the group."""
    import time

    import tiny_stones

    from boardgen.build import run_stages
    from boardgen.errors import LayoutError
    from boardgen.template import load

    plugin, config = load(tiny_installed)
    monkeypatch.setattr(tiny_stones, "slow_stage", _slow_stage, raising=False)
    monkeypatch.setattr(tiny_stones, "refusing_stage", _refusing_stage, raising=False)
    stages = (("slow", "tiny_stones:slow_stage", "parallel"), ("refuse", "tiny_stones:refusing_stage", "parallel"),
              *((f"slow-{k}", "tiny_stones:slow_stage", "parallel") for k in range(6)))
    monkeypatch.setattr(tiny_stones.TinyStones, "stages", stages)
    started = time.perf_counter()
    with pytest.raises(LayoutError, match=r"rules\.stones: no room for the pile"):
        run_stages(BuildContext(config, plugin))
    assert time.perf_counter() - started < 1.6  # all seven slow stages would take 2.8 s in one process


def test_out_of_range_actions_raise_illegal_action_error_in_every_game() -> None:
    """An action number no node offers (negative, past the action or chance range) is an IllegalActionError
    in every installed game, at chance and player nodes alike, never a look-up error from reading it."""
    import random

    from boardgen.play.api import CHANCE, SIMULTANEOUS, TERMINAL, IllegalActionError, sample_chance
    from boardgen.template import load

    for name, plugin in installed_games().items():
        if not plugin.has_rules:
            continue
        _plugin, config = load(plugin.default_template())
        ctx = BuildContext(config, plugin)
        game = plugin.new_game(ctx, plugin.player_range(config)[1])
        info = game.info
        state = game.new_initial_state(1)
        rng = random.Random(5)
        seen: set[int] = set()
        for _ in range(3000):
            player = state.current_player()
            if player == TERMINAL or len(seen) == 2:
                break
            kind = CHANCE if player == CHANCE else 0
            if player != SIMULTANEOUS and kind not in seen:
                seen.add(kind)
                for bad in (-1, info.num_distinct_actions, info.max_chance_outcomes + 7, 10**6):
                    if bad in state.legal_actions():
                        continue
                    with pytest.raises(IllegalActionError):
                        state.apply_action(bad)
            if player == CHANCE:
                state.apply_action(sample_chance(state, rng))
            elif player == SIMULTANEOUS:
                state.apply_actions([state.legal_actions(p)[0] for p in range(info.num_players)])
            else:
                options = state.legal_actions()
                state.apply_action(options[int(rng.random() * len(options))])
        assert CHANCE in seen, name  # (a game may decide only at simultaneous nodes)
