"""The data files a template names (card CSVs, deck files) go through boardgen.datafiles for every installed game:
each hostile kind of file (tests/fuzz_templates.py: mutate_data) is one line naming the file or the template
key, fast, with no file contents in it; a build whose validation finds errors writes no kit without --force."""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

from boardgen.errors import BoardgenError, ConfigError
from boardgen.plugin import installed_games
from boardgen.template import load

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fuzz_templates import DATA_MUTATIONS, mutate_data


def _data_keys() -> list[tuple[str, str]]:
    out = []
    for name, plugin in sorted(installed_games().items()):
        _plugin, config = load(plugin.default_template())
        out += [(name, key) for key, path in sorted(plugin.data_files(config).items())
                if path.suffix.lower() == ".csv"]
    return out


DATA_KEYS = _data_keys()
# kinds a file can be that must be refused (the rest may be a valid deck after the change)
REFUSED = ("latin-1", "utf-16", "nul", "noncharacter", "huge-field", "huge-file", "many-rows", "no-header",
           "missing-column", "stray-comma", "empty", "binary", "duplicate-column", "huge-number", "negative-number",
           "word-for-number", "fifo", "dev-zero-link", "proc-environ", "proc-link", "folder", "parent-path",
           "missing")
EXPECTED = {
    "latin-1": "expected UTF-8 text", "utf-16": "expected UTF-8 text", "nul": "control character",
    "noncharacter": "Unicode noncharacter", "huge-field": "characters", "huge-file": "expected at most 2,000,000",
    "many-rows": "more than 5,000 rows", "fifo": "is not a regular file", "dev-zero-link": "leads outside",
    "proc-environ": "lies outside the template's folder", "proc-link": "leads outside", "folder": "not a regular file",
    "parent-path": "leads outside", "missing": "not found", "empty": "", "binary": "", "no-header": "",
    "missing-column": "", "stray-comma": "", "duplicate-column": "", "huge-number": "", "negative-number": "",
    "word-for-number": "",
}


def _set(data: dict[str, Any], dotted: str, value: Any) -> None:
    parts = dotted.split(".")
    for part in parts[:-1]:
        data = data.setdefault(part, {})
    data[parts[-1]] = value


def _template_with(tmp_path: Path, game: str, key: str, kind: str) -> Path:
    plugin = installed_games()[game]
    _plugin, config = load(plugin.default_template())
    original = plugin.data_files(config)[key]
    value, _ = mutate_data(key.replace(".", "-"), original, random.Random(7), tmp_path, kind)
    data = yaml.safe_load(plugin.default_template().read_text(encoding="utf-8"))
    _set(data, key, value)
    path = tmp_path / "hostile.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


@pytest.mark.parametrize("kind", REFUSED)
@pytest.mark.parametrize(("game", "key"), DATA_KEYS, ids=[f"{g}-{k}" for g, k in DATA_KEYS])
def test_a_hostile_data_file_is_one_line_naming_file_and_key(tmp_path: Path, game: str, key: str,
                                                              kind: str) -> None:
    plugin = installed_games()[game]
    original = plugin.data_files(load(plugin.default_template())[1])[key]
    if kind.endswith("number") and not any(cell.strip().isdigit() for line in original.read_text().splitlines()[1:]
                                           for cell in line.split(",")):
        pytest.skip("the file has no number column")
    path = _template_with(tmp_path, game, key, kind)
    started = time.perf_counter()
    with pytest.raises(ConfigError) as info:
        load(path)
    assert time.perf_counter() - started < 10
    message = str(info.value)
    assert "\n" not in message and len(message) < 600
    assert "PATH=" not in message and "root:" not in message  # nothing of /proc/self/environ or /etc/passwd
    assert info.value.key, message
    assert message.startswith((f"{path}: {key}: ", str(tmp_path))), message
    assert EXPECTED[kind] in message


def test_every_game_with_card_rows_is_covered() -> None:
    assert {g for g, _ in DATA_KEYS} >= {"philanthropist", "better-life"}
    assert set(REFUSED) <= set(DATA_MUTATIONS)


def test_a_data_path_must_stay_in_the_template_folder(tmp_path: Path) -> None:
    from boardgen.datafiles import locate

    source = str(tmp_path / "t.yaml")
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "d.csv").write_text("a\n1\n")
    assert locate("cards/d.csv", source, "k") == (tmp_path / "cards" / "d.csv").resolve()
    assert locate(str(tmp_path / "cards" / "d.csv"), source, "k") == (tmp_path / "cards" / "d.csv").resolve()
    for bad, words in (("/etc/passwd", "lies outside"), ("../x.csv", "not found"), ("cards/../../t.csv", "not found"),
                       ("", "expected the path"), ("a\x00b", "expected the path")):
        with pytest.raises(ConfigError, match=words):
            locate(bad, source, "k")
    (tmp_path.parent / "outside.csv").write_text("a\n1\n")
    with pytest.raises(ConfigError, match="leads outside"):
        locate("../outside.csv", source, "k")


def test_a_template_deck_file_stays_in_its_folder(tmp_path: Path) -> None:
    from boardgen.cards.deck import DeckSpec

    (tmp_path / "deck.csv").write_text("title,text\nA,one\n", encoding="utf-8")
    assert DeckSpec.model_validate({"name": "D", "file": "deck.csv"}).deck(tmp_path).rows == ({"title": "A",
                                                                                               "text": "one"},)
    (tmp_path / "sub").mkdir()
    with pytest.raises(ConfigError, match=r"sub: file: card file '\.\./deck\.csv' leads outside"):
        DeckSpec.model_validate({"name": "D", "file": "../deck.csv"}).deck(tmp_path / "sub")


def test_csv_reader_guarantees(tmp_path: Path) -> None:
    from boardgen.datafiles import MAX_CSV_FIELD_CHARS, read_csv

    good = tmp_path / "g.csv"
    good.write_bytes("\ufeffa,b\n1, two \n\n".encode())
    assert read_csv(good, "t.yaml", "k", columns=("a",)) == (["a", "b"], [(2, {"a": "1", "b": "two"})])
    long = tmp_path / "l.csv"
    long.write_text("a\n" + "x" * (MAX_CSV_FIELD_CHARS + 1) + "\n")
    with pytest.raises(ConfigError, match=r"l\.csv: line 2: field 1 holds 4,001 characters; expected at most 4,000"):
        read_csv(long, "t.yaml", "k")
    latin = tmp_path / "latin.csv"
    latin.write_bytes("a\nCaf\u00e9\n".encode("latin-1"))
    with pytest.raises(ConfigError, match=r"latin\.csv: line 2: byte 0xE9 at offset 5 is not UTF-8; expected UTF-8"):
        read_csv(latin, "t.yaml", "k")
    with pytest.raises(ConfigError, match=r"g\.csv: header: no column 'c'"):
        read_csv(good, "t.yaml", "k", columns=("a", "c"))


# ------------------------------------------------------------------------------------------ build refusal


def _fake_validation(errors: int) -> Any:
    from boardgen.io import Artifact

    findings = [{"rule": "seat-advantage", "severity": "error", "where": "seat 1", "message": "m"}] * errors
    return Artifact("report/validation.json", json.dumps({"findings": findings}).encode())


@pytest.mark.parametrize("game", sorted(installed_games()))
def test_a_build_with_error_findings_writes_no_kit_without_force(tmp_path: Path, game: str,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from boardgen import build as build_module
    from boardgen.io import Artifact

    def stages(ctx: Any, only: Any = None, jobs: Any = None) -> list[Artifact]:
        ctx.artifacts[:] = [Artifact("a.txt", b"x"), _fake_validation(2)]
        return ctx.artifacts

    monkeypatch.setattr(build_module, "run_stages", stages)
    _plugin, config = load(installed_games()[game].default_template())
    with pytest.raises(BoardgenError, match=r"validation found 2 error-level findings \(first: seat-advantage at "
                       r"seat 1\); no kit written .*--force"):
        build_module.build(config, tmp_path)
    assert not (tmp_path / config.edition).exists()
    out_dir, _ = build_module.build(config, tmp_path, force=True)
    assert (out_dir / "a.txt").read_bytes() == b"x"


def test_build_refusal_is_one_line_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    from boardgen import build as build_module
    from boardgen import cli
    from boardgen.io import Artifact

    def stages(ctx: Any, only: Any = None, jobs: Any = None) -> list[Artifact]:
        ctx.artifacts[:] = [_fake_validation(1)]
        return ctx.artifacts

    monkeypatch.setattr(build_module, "run_stages", stages)
    template = installed_games()["philanthropist"].default_template()
    with pytest.raises(SystemExit) as info:
        cli.main(["build", "-q", "-t", str(template), "-o", str(tmp_path)])
    lines = capsys.readouterr().err.splitlines()
    assert info.value.code == 2 and len(lines) == 1 and "1 error-level finding (first" in lines[0]
    assert not any(tmp_path.iterdir())
