"""BETTER Life (seed 002): five organisations (University, Industry, NGO, Municipality, Citizens) race round a
track of typed spaces from 2020 to 2030 and, at each End of Year, bid IP in secret for a policy of the EU
Biodiversity Strategy for 2030. Everyone loses if biodiversity loss reaches its limit or the policy meter ends
short; otherwise the most Victory Points win.

Parts: ``model`` (the template), ``cards`` (the four decks from CSV rows), ``engine`` (the rules on the shared
API), ``bots`` (four attitudes to the commons), ``report`` (findings), ``board`` (the track board and how the
kit prints it), ``kit`` (decks, mats, tokens, dice, screens, zips), ``leaflet`` (the rules in our words), ``kernel``
and ``fast`` (the same rules and bots compiled with numba, which ``kernel_batch`` plays big batches with).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from boardgen.plugin import BuildContext, CompiledKernel, GamePlugin

if TYPE_CHECKING:
    from boardgen.kit.board import BoardDeclaration

TEMPLATE = Path(__file__).resolve().parents[3] / "templates" / "better-life.yaml"


class BetterLife(GamePlugin):
    name = "better-life"
    fast = CompiledKernel("boardgen.games.better_life.rules.fast")  # optional: the rules API plays without it
    title = "BETTER Life"
    summary = "policy race 2020-2030 with sealed IP votes on EU Biodiversity Strategy targets (seed 002)"
    stages = (
        ("board", "boardgen.kit.stages:board_stage"),
        ("sections", "boardgen.kit.stages:sections_stage"),
        ("components", "boardgen.games.better_life.kit:components_stage"),
        ("validate", "boardgen.play.runner:validate_stage"),
    )
    default_bots = ("fair-share", "meter-reader", "target-seeker", "free-rider", "fair-share")
    everyone_can_lose = True  # seat fairness over the games someone won
    length_unit = "rounds"
    length_metrics: ClassVar[Mapping[str, str]] = {"turns": "player turns"}

    def default_template(self) -> Path:
        from importlib.resources import files

        try:
            bundled = Path(str(files("boardgen.templates").joinpath("better-life.yaml")))
            if bundled.is_file():
                return bundled
        except ModuleNotFoundError:
            pass
        return TEMPLATE

    def template_model(self) -> type | None:
        from boardgen.games.better_life.schema import BetterLifeTemplate

        return BetterLifeTemplate

    def load_config(self, data: dict[str, Any], source: str, template_sha256: str) -> Any:
        from boardgen.games.better_life.cards import load_decks
        from boardgen.games.better_life.schema import BetterLifeTemplate
        from boardgen.schema import validate_template

        config = validate_template(BetterLifeTemplate, data, source, template_sha256)
        cards = {c.id: c for c in load_decks(config.decks, source).actions}  # a bad deck file fails now, as one line
        for i, role in enumerate(config.roles):
            card = cards.get(role.card)
            if card is None or card.kind != "role":
                from boardgen.errors import ConfigError

                raise ConfigError(source, f"roles[{i}].card", f"{role.card!r} is no role card of the action "
                                  "deck file")
        return config

    def data_files(self, config: Any) -> Mapping[str, Path]:
        from boardgen.games.better_life.cards import resolve

        return {f"decks.{k}": resolve(getattr(config.decks, k), config.source, f"decks.{k}")
                for k in ("action", "event", "policy", "target")}

    def decks(self, ctx: BuildContext) -> Any:
        from boardgen.games.better_life.cards import load_decks
        from boardgen.i18n import translator

        return ctx.value("decks", lambda: load_decks(ctx.config.decks, ctx.config.source,
                                                     translator(ctx.config, self)))

    def build_board(self, ctx: BuildContext) -> Any:
        from boardgen.games.better_life.board import track_board

        return track_board(ctx.config)

    def board_print(self, ctx: BuildContext) -> BoardDeclaration:
        from boardgen.games.better_life.board import board_declaration

        return board_declaration(ctx)

    # -- play in the browser (boardgen serve)
    def board_marks(self, ctx: BuildContext, observation: Mapping[str, Any]) -> list[tuple[str, str]]:
        ids = [s.id for s in self.board_graph(ctx).spaces]  # Start, then the track in order
        return [(ids[pos], f"P{seat + 1}") for seat, pos in enumerate(observation.get("positions", ()))
                if isinstance(pos, int) and 0 <= pos < len(ids)]

    def chance_is_public(self, state: Any, action: int) -> bool:
        # dice, roles, the policy of the year, events and the market are on the table; a target card and an
        # action card drawn into a hand are seen by their holder only
        pending: list[Any] = list(getattr(state, "pending", None) or [])
        return bool(pending) and pending[0][0] in ("roll", "role", "policy", "event", "market")

    def new_game(self, ctx: BuildContext, players: int) -> Any:
        from boardgen.games.better_life.rules.engine import BetterLifeGame

        return BetterLifeGame(ctx.config, self.decks(ctx))

    def bots(self) -> Mapping[str, Any]:
        from boardgen.games.better_life.rules.bots import all_bots

        return all_bots()

    def space_needs(self, ctx: BuildContext) -> Sequence[Any]:
        from boardgen.layout.spaces import SpaceNeed

        k = ctx.config.kit
        return [SpaceNeed("track space", k.space_mm, k.space_mm, "a pawn", k.pawn_mm, k.pawn_mm, piece_round=True)]

    def rule_findings(self, ctx: BuildContext, summary: Mapping[str, Any]) -> list[Any]:
        from boardgen.games.better_life.rules.report import rule_findings

        return rule_findings(ctx, summary)

    def report_plots(self, ctx: BuildContext, summary: Mapping[str, Any], records: Sequence[Any]) -> dict[str, bytes]:
        from boardgen.games.better_life.rules.report import plots

        return plots(self.title, ctx, summary, records)

    def kit_parts(self, ctx: BuildContext) -> Any:
        from boardgen.games.better_life.kit import kit_parts

        return kit_parts(ctx)

    def engine_part_counts(self, ctx: BuildContext) -> dict[str, int]:
        from boardgen.games.better_life.kit import engine_part_counts

        return engine_part_counts(ctx)


plugin = BetterLife()
