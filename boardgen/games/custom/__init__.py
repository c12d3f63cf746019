"""A game made of data alone (``game: custom``): a template lists the parts, and boardgen prints them as a
whole kit to the same standard as the five games, with no Python: decks from CSV or YAML rows with a card
layout given as fields in boxes, tokens, paper dice, standees, a board as a graph of spaces or a picture, a
leaflet from Markdown, and PNG, JPEG or SVG pictures on any of them.

It has no rules engine (like the piecepack): ``boardgen build`` writes the kit; simulate and validate have no
game to play. ``model`` is the template, ``parts`` draws the parts, ``kit`` the build stages and ``leaflet`` the
rules leaflet; docs/custom-games.md explains every key with the shipped example (templates/custom-meadow.yaml).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boardgen.errors import ConfigError
from boardgen.plugin import BuildContext, GamePlugin

if TYPE_CHECKING:
    from boardgen.kit.board import BoardDeclaration


class CustomGame(GamePlugin):
    name = "custom"
    title = "A game from data"
    summary = "any card, token, dice and board game described as data: decks, layouts, pictures, a board graph"
    stages = (
        ("board", "boardgen.kit.stages:board_stage"),
        ("sections", "boardgen.kit.stages:sections_stage"),
        ("components", "boardgen.games.custom.kit:components_stage"),
    )
    has_rules = False
    template_file = "custom-meadow.yaml"
    model_path = "boardgen.games.custom.schema:CustomTemplate"

    def load_config(self, data: dict[str, Any], source: str, template_sha256: str) -> Any:
        from boardgen.games.custom.kit import all_sets
        from boardgen.games.custom.parts import board_scene, load_data

        config = super().load_config(data, source, template_sha256)
        loaded = load_data(config)  # a missing picture or a bad row is a template error, found before building
        ctx = BuildContext(config, self)
        ctx.computed["data"] = loaded
        all_sets(ctx)  # every card, token, die and standee drawn once: a text that cannot fit is found now
        if config.board is not None:
            board_scene(config, loaded.pictures)
        return config

    def data_files(self, config: Any) -> Mapping[str, Path]:
        from boardgen.games.custom.parts import load_data

        return load_data(config).files

    def build_board(self, ctx: BuildContext) -> Any:
        from boardgen.games.custom.kit import data
        from boardgen.games.custom.parts import board_scene

        if ctx.config.board is None:
            return None
        return board_scene(ctx.config, data(ctx).pictures)

    def board_print(self, ctx: BuildContext) -> BoardDeclaration | None:
        from boardgen.games.custom.kit import board_declaration

        return board_declaration(ctx)

    def board_graph(self, ctx: BuildContext) -> Any:
        from boardgen.games.custom.parts import board_graph

        return ctx.value("board_graph", lambda: board_graph(ctx.config))

    def new_game(self, ctx: BuildContext, players: int) -> Any:
        raise ConfigError(ctx.config.source, "game", "a game from data has no rules engine: build its kit; the "
                          "rules are its leaflet's")

    def kit_parts(self, ctx: BuildContext) -> Any:
        from boardgen.games.custom.kit import kit_parts

        return kit_parts(ctx)

    def engine_part_counts(self, ctx: BuildContext) -> dict[str, int]:
        from boardgen.games.custom.kit import engine_part_counts

        return engine_part_counts(ctx)

    def space_needs(self, ctx: BuildContext) -> Sequence[Any]:
        """Each space with the largest standee or token that stands on a board (standees' feet folded out)."""
        from boardgen.layout.spaces import SpaceNeed

        t = ctx.config
        if t.board is None:
            return []
        pieces = [(f"a {s.name}", s.width_mm, 2 * s.base_mm, False) for s in t.standees]
        if not pieces:
            return []
        name, length, width, _ = max(pieces, key=lambda p: p[1] * p[2])
        out = []
        for sp in t.board.spaces:
            h = (sp.height_mm or sp.size_mm) if sp.shape == "rect" else sp.size_mm
            out.append(SpaceNeed(f"space {sp.id}", sp.size_mm, h, name, length, width, round=sp.shape == "circle"))
        return out


plugin = CustomGame()
