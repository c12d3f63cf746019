"""The boardgen CLI: bad templates, determinism, the map outputs and the manifest."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from boardgen.build import build
from boardgen.games.global_wellbeing.schema import load_template

BAD_TEMPLATES = sorted((Path(__file__).resolve().parents[1] / "data" / "templates").glob("bad-*.yaml"))


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "boardgen.cli", *args], capture_output=True, text=True, cwd=cwd,
                          check=False)


def expected_message(template: Path) -> str:
    first = template.read_text().splitlines()[0]
    assert first.startswith("# expect: ")
    return first.removeprefix("# expect: ")


@pytest.mark.parametrize("template", BAD_TEMPLATES, ids=lambda p: p.stem)
def test_a_bad_template_is_one_line_exit_2_and_leaves_build_untouched(template: Path, tmp_path: Path) -> None:
    out = tmp_path / "build"
    (out / "global-wellbeing").mkdir(parents=True)
    keep = out / "global-wellbeing" / "cells.csv"
    keep.write_text("an earlier build\n")
    result = run_cli("build", "--template", str(template), "--out", str(out), "--quiet")
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr
    assert lines[0].startswith(f"boardgen: error: {template}: ")
    assert expected_message(template) in lines[0]
    assert keep.read_text() == "an earlier build\n"
    assert sorted(p.name for p in (out / "global-wellbeing").iterdir()) == ["cells.csv"]


def test_a_missing_template_names_the_file(tmp_path: Path) -> None:
    result = run_cli("info", "--template", str(tmp_path / "none.yaml"))
    assert result.returncode == 2
    assert result.stderr.strip() == f"boardgen: error: {tmp_path / 'none.yaml'}: template file not found"


def test_map_outputs_are_byte_identical_between_builds(tmp_path: Path) -> None:
    config = load_template()
    first, _ = build(config, tmp_path / "a", only={"map"})
    second, _ = build(config, tmp_path / "b", only={"map"})
    names = sorted(p.relative_to(first).as_posix() for p in first.rglob("*") if p.is_file())
    assert {"cells.geojson", "cells.csv", "adjacency.json", "preview/map.png", "manifest.json"} <= set(names)
    for name in names:
        assert hashlib.sha256((first / name).read_bytes()).digest() == hashlib.sha256(
            (second / name).read_bytes()).digest(), name


def test_manifest_lists_every_output_with_its_hash(tmp_path: Path) -> None:
    out_dir, _ = build(load_template(), tmp_path, only={"map"})
    manifest = json.loads((out_dir / "manifest.json").read_text())
    assert manifest["template"]["sha256"] and set(manifest["data"]) == {
        "land-50m.json", "koppen-5m.png", "elevation-5m.png"}
    for name, entry in manifest["outputs"].items():
        assert hashlib.sha256((out_dir / name).read_bytes()).hexdigest() == entry["sha256"]


def test_template_from_another_directory_and_extends(tmp_path: Path) -> None:
    template = tmp_path / "mine.yaml"
    template.write_text("extends: global-wellbeing\nedition: my-edition\nhexes:\n  size: 12mm\n"
                        "  cell_count_range: [150, 320]\n")
    result = run_cli("info", "--template", str(template), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "size 12 mm" in result.stdout and "(my-edition)" in result.stdout
    # the same size against the automatic band (target_cells 300 +- 3%): info says so and exits 1
    template.write_text("extends: global-wellbeing\nedition: my-edition\nhexes:\n  size: 12mm\n")
    result = run_cli("info", "--template", str(template), cwd=tmp_path)
    assert result.returncode == 1 and "OUTSIDE 291-309" in result.stdout


def test_cells_command_exports_csv_and_geojson(tmp_path: Path) -> None:
    result = run_cli("cells", "--format", "csv")
    assert result.returncode == 0 and result.stdout.startswith("label,q,r,")
    target = tmp_path / "cells.geojson"
    result = run_cli("cells", "--format", "geojson", "--output", str(target))
    assert result.returncode == 0
    assert json.loads(target.read_text())["type"] == "FeatureCollection"


def test_overrides_change_the_map(tmp_path: Path) -> None:
    from boardgen.geomap.build import build_board

    base = build_board(load_template())
    arid = next(c for c in base.cells if c.zone == "Arid")
    sea_label = "O13"  # the mid-Atlantic
    assert sea_label not in base.labels
    template = tmp_path / "tweaked.yaml"
    template.write_text(
        "extends: global-wellbeing\n"
        f"overrides:\n  zones: {{{arid.label}: Mountains, {sea_label}: Tropical}}\n"
        f"  remove_cells: [{base.cells[0].label}]\n"
        f"  add_cells: [{sea_label}]\n"
    )
    tweaked = build_board(load_template(template))
    assert tweaked.cell(arid.label).zone == "Mountains" and tweaked.cell(arid.label).zone_reason == "override"
    assert base.cells[0].label not in tweaked.labels and sea_label in tweaked.labels
    assert tweaked.cell(sea_label).zone == "Tropical"
    assert len(tweaked.cells) == len(base.cells)


def test_adding_a_cell_outside_the_globe_is_an_error(tmp_path: Path) -> None:
    from boardgen.errors import ConfigError
    from boardgen.geomap.build import build_board

    template = tmp_path / "corner.yaml"
    template.write_text("extends: global-wellbeing\noverrides:\n  add_cells: [A1]\n")
    with pytest.raises(ConfigError, match=r"overrides.add_cells\[0\]: A1 lies outside the map's frame"):
        build_board(load_template(template))


def test_a_sea_cell_added_far_from_land_needs_a_zone(tmp_path: Path) -> None:
    from boardgen.errors import ConfigError
    from boardgen.geomap.build import build_board

    template = tmp_path / "atlantic.yaml"
    template.write_text("extends: global-wellbeing\noverrides:\n  add_cells: [O13]\n")
    with pytest.raises(ConfigError, match=r"add_cells\[0\]: O13 has no land climate .* give it a zone"):
        build_board(load_template(template))


def test_outputs_a_rebuild_no_longer_makes_are_removed_and_others_kept(tmp_path: Path) -> None:
    out_dir, _ = build(load_template(), tmp_path, only={"map"})
    stale = out_dir / "preview" / "old-page.png"
    stale.write_bytes(b"made by an earlier build")
    manifest = json.loads((out_dir / "manifest.json").read_text())
    manifest["outputs"]["preview/old-page.png"] = {"sha256": "0" * 64, "bytes": 24}
    (out_dir / "manifest.json").write_text(json.dumps(manifest))
    own = out_dir / "report" / "results.json"  # e.g. from boardgen simulate: never in the build's manifest
    own.parent.mkdir()
    own.write_text("{}")
    build(load_template(), tmp_path, only={"map"})
    assert not stale.exists() and own.exists()
    assert (out_dir / "cells.csv").stat().st_mode & 0o777 == 0o666 & ~_umask()
    assert not list(out_dir.rglob("*.tmp"))


def _umask() -> int:
    import os

    current = os.umask(0)
    os.umask(current)
    return current
