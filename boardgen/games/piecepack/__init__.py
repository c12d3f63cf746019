"""The printable piecepack as a package and plug-in of its own (``game: piecepack``); any piecepack game
(Global Warming) prints its pieces through it.

- ``schema``: the piecepack's template (suits, ranks, sizes, papers and backs);
- ``drawing``: the pieces as scenes (tiles, coins, pawns, dice nets, suit symbols);
- ``kit``: its sheets, declared parts and README words, and its own kit through the shared assembler;
- ``leaflet``: a page on what it holds and how to make it.

It has no rules of its own: ``boardgen build --template templates/piecepack.yaml`` writes the kit; simulate and
validate have nothing to play.
"""

from __future__ import annotations

from typing import Any

from boardgen.errors import ConfigError
from boardgen.plugin import BuildContext, GamePlugin


class Piecepack(GamePlugin):
    name = "piecepack"
    title = "Piecepack"
    summary = "the public-domain piecepack: 24 tiles, 24 two-sided coins, 4 pawns, 4 dice, to print"
    stages = (("kit", "boardgen.games.piecepack.kit:kit_stage"),)
    has_rules = False
    template_file = "piecepack.yaml"
    model_path = "boardgen.games.piecepack.schema:PiecepackTemplate"


    def build_board(self, ctx: BuildContext) -> Any:
        return None

    def player_range(self, config: Any) -> tuple[int, int, int]:
        return 1, 1, 1

    def new_game(self, ctx: BuildContext, players: int) -> Any:
        raise ConfigError(ctx.config.source, "game", "the piecepack is a set of pieces, not a game: build it, "
                          "or simulate a piecepack game such as global-warming")

    def validate_games(self, config: Any) -> int:
        return 0

    def kit_parts(self, ctx: BuildContext) -> Any:
        from boardgen.games.piecepack.kit import kit_parts

        return kit_parts(ctx)

    def engine_part_counts(self, ctx: BuildContext) -> dict[str, int]:
        from boardgen.games.piecepack.kit import engine_part_counts

        return engine_part_counts(ctx)


plugin = Piecepack()
