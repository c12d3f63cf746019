"""The kit assembler in stages (``boardgen.kit.stages``) makes the same files, byte for byte, as the assembler in
one stage (``assemble_kit``), with the leaflet set beside the components or in a stage of its own; the zip stage
packs the board's files and leaves the cut edition's lines out when its stage did not run."""

from __future__ import annotations

import io
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest

from boardgen.build import BuildContext
from boardgen.kit.assembler import KitSpec, assemble_kit
from boardgen.kit.stages import PaperLeaflet, components_files, kit_stage_files, leaflet_files, zip_files
from boardgen.render.imposition import Paper
from boardgen.template import load

EXAMPLE = Path(__file__).resolve().parents[2] / "templates" / "custom-meadow.yaml"


@pytest.fixture(scope="module")
def ctx_and_spec() -> tuple[BuildContext, KitSpec]:
    from boardgen.games.custom.kit import kit_spec
    from boardgen.kit.stages import board_stage, sections_stage

    plugin, config = load(EXAMPLE)
    ctx = BuildContext(config, plugin)
    ctx.artifacts.extend(board_stage(ctx) + sections_stage(ctx))
    return ctx, kit_spec(ctx)


def _files(made: list) -> dict[str, bytes]:  # type: ignore[type-arg]
    return {a.path: a.data for a in made}


@pytest.mark.slow
def test_the_stages_make_the_assemblers_files(ctx_and_spec: tuple[BuildContext, KitSpec]) -> None:
    ctx, spec = ctx_and_spec
    one = _files(assemble_kit(replace(ctx, artifacts=list(ctx.artifacts)), spec))
    staged = _files(kit_stage_files(ctx, spec))
    assert one.keys() == staged.keys() and "kit-a4.zip" in one
    assert [p for p in one if one[p] != staged[p]] == []

    own = spec.leaflet

    def leaflet(paper: Paper) -> tuple[bytes, int]:
        return own(paper, None)  # type: ignore[arg-type]  # the custom leaflet does not read the components

    alone = replace(spec, leaflet=PaperLeaflet(leaflet))
    run = replace(ctx, artifacts=list(ctx.artifacts))
    first = components_files(run, alone)
    assert not any(a.path.startswith("leaflet-") for a in first)  # the leaflet waits for its own stage
    assert _files(kit_stage_files(ctx, alone)) == staged


def test_the_zip_stage_packs_the_board_and_says_nothing_of_a_cut_edition_never_made(
        ctx_and_spec: tuple[BuildContext, KitSpec]) -> None:
    ctx, spec = ctx_and_spec
    fresh = {k: v for k, v in ctx.computed.items() if not k.startswith("kit-")}  # nothing kept by earlier stages
    run = replace(ctx, artifacts=list(ctx.artifacts), computed=fresh, kept=set())
    for stage in (components_files, leaflet_files):
        run.artifacts.extend(stage(run, spec))
    zips = {a.path: a for a in zip_files(run, spec)}
    assert set(zips) == {"kit-a4.zip", "kit-letter.zip"}
    members = zipfile.ZipFile(io.BytesIO(zips["kit-a4.zip"].data))
    names = members.namelist()
    assert {"board-poster.pdf", "board-sections-a4.pdf", "components-a4.pdf", "leaflet-a4.pdf",
            "inventory.csv"} <= set(names)
    assert "board-sections-letter.pdf" not in names and not any(n.startswith("cut/components") for n in names)
    readme = members.read("README.txt").decode()
    assert "For a cutting machine" not in readme and "components-a4.pdf, page by page:" in readme
