"""The Philanthropist's template (pydantic) and its business-card rows.

Every number of the game lives in the template (``templates/philanthropist.yaml``); the card rows live in a CSV
file the template names (``cards.file``), read by the printer and the engine alike. A card's effect is a small
phrase (``gain 6``, ``lose 3``, ``lose half``, ``lose all``) and its printed text must say the same thing: the
loader checks that the text names the effect's number of cubes (or "half" / "all"), so the printed card and the
simulated card can never disagree.
"""

from __future__ import annotations

import csv
import io
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, model_validator

from boardgen.errors import ConfigError
from boardgen.schema import (
    Colour,
    GameTemplate,
    Length,
    PrintableText,
    TemplateModel,
    TokenSupply,
    players_model,
    simulate_model,
)
from boardgen.yaml_reader import short_repr

SHAPES = ("circle", "square", "triangle", "diamond", "hexagon", "pentagon", "star", "octagon")
ACTIONS = ("move", "payday", "card")


class BoardSpec(TemplateModel):
    size_mm: Length = Field(default=609.6, ge=200.0, le=1500.0, description="the whole board, edge to edge (24in)")
    border_mm: Length = Field(default=19.05, ge=5.0, le=80.0, description="the frame around the grid (title, die key)")
    squares: int = Field(default=16, ge=6, le=40, description="squares along each side of the grid")
    light: Colour = "#f4efe3"
    dark: Colour = "#e6dcc6"
    frame: Colour = "#2f4858"

    @property
    def grid_mm(self) -> float:
        return self.size_mm - 2 * self.border_mm

    @property
    def square_mm(self) -> float:
        return self.grid_mm / self.squares


class PlayerSpec(TemplateModel):
    name: PrintableText = Field(min_length=1, max_length=16)
    colour: Colour
    shape: Literal["circle", "square", "triangle", "diamond", "hexagon", "pentagon", "star", "octagon"]


class PlayersSpec(players_model("PhilanthropistPlayers", 2, 4, (2, 4, 4))):  # type: ignore[misc]
    """The common ``players: {min, usual, max}`` and the four seats' avatars."""


    seats: tuple[PlayerSpec, ...] = Field(min_length=4, max_length=4, description="avatar colours and shapes, in "
                                          "the order of the corners: top left, top right, bottom right, "
                                          "bottom left")

    @model_validator(mode="after")
    def _avatars(self) -> PlayersSpec:
        if len({s.colour.lower() for s in self.seats}) != len(self.seats):
            raise ValueError("every avatar needs its own colour")
        if len({s.shape for s in self.seats}) != len(self.seats):
            raise ValueError("every avatar needs its own shape (a cue besides colour)")
        return self


class MeepleKind(TemplateModel):
    name: PrintableText = Field(min_length=1, max_length=12)
    colour: Colour
    cost: int = Field(ge=1, le=12, description="cubes paid to collect one")
    count: int = Field(ge=0, le=60)


class MeeplesSpec(TemplateModel):
    total: int = Field(default=51, ge=1, le=400,
                       description="meeples in the box; must equal the sum of the kinds' counts")
    kinds: tuple[MeepleKind, ...] = Field(min_length=1, max_length=8)
    standee_width_mm: Length = Field(default=20.0, ge=8.0, le=60.0)
    standee_height_mm: Length = Field(default=30.0, ge=10.0, le=80.0)
    base_depth_mm: Length = Field(default=12.0, ge=5.0, le=40.0, description="the foot folded out at each end")
    spread_blocks: int = Field(default=4, ge=1, le=10,
                               description="setup spreads meeples evenly over blocks x blocks areas")

    @model_validator(mode="after")
    def _counts(self) -> MeeplesSpec:
        names = [k.name for k in self.kinds]
        if len(set(names)) != len(names):
            raise ValueError(f"meeple kinds need distinct names, got {names}")
        counted = sum(k.count for k in self.kinds)
        if counted != self.total:
            raise ValueError(f"the kinds' counts add up to {counted} meeples but total says {self.total}")
        return self


class DieSpec(TemplateModel):
    colour: Colour = "#2e7d6b"
    faces: tuple[Literal["move", "payday", "card"], ...] = Field(
        default=("move", "move", "payday", "move", "move", "card"), min_length=6, max_length=6,
        description="the action of each face of the coloured die, 1 to 6")
    size_mm: Length = Field(default=22.0, ge=12.0, le=40.0, description="edge of the paper die cube")


class RulesSpec(TemplateModel):
    start_cubes: int = Field(default=3, ge=0, le=50, description="cubes each player starts with (the seed gives none)")
    move_income: int = Field(default=1, ge=0, le=10, description="cubes after a move that collects nobody")
    income_when_collecting: bool = Field(default=False, description="a move that collects still earns its income")
    payday_multiplier: int = Field(default=2, ge=1, le=10, description="payday pays this many times the white die")
    avatars_may_share: bool = Field(default=True, description="two avatars may stand on one square")
    stop_on_unpaid_meeple: bool = Field(default=True, description="a move may end on a meeple you do not collect")
    tie_break: Literal["donated", "cubes", "shared"] = Field(
        default="donated",
        description="equal meeples: most cubes donated wins (donated), most cubes left (cubes), or a shared win")
    catch_up_cubes: int = Field(default=1, ge=0, le=10, description="each player after the first starts with this many "
                                "more cubes than the one before (offsets the first player's head start)")
    middle_corner_cubes: int = Field(default=2, ge=0, le=10,
                                     description="with 3 players, extra starting cubes for the player whose corner "
                                     "lies between the other two (both rivals start next to them)")
    turn_limit: dict[Annotated[int, Field(ge=2, le=4)], Annotated[int, Field(ge=5, le=1000)]] = Field(
                                       default_factory=lambda: {2: 100, 3: 70, 4: 55}, max_length=3,
                                       description="rounds after which the game ends anyway, by player count")
    first_player: Literal["random", "first-seat"] = Field(
        default="random", description="who starts: drawn at random, or the first seat")


class CubesSpec(TemplateModel):
    supply: TokenSupply = Field(description="cube tokens by value, e.g. {1: 60, 5: 24}")
    token_mm: Length = Field(default=16.0, ge=8.0, le=30.0)
    colour: Colour = "#d9a441"

    @model_validator(mode="after")
    def _supply(self) -> CubesSpec:
        if 1 not in self.supply:
            raise ValueError("the supply needs tokens worth 1 cube (to make change)")
        if any(v < 1 or n < 0 for v, n in self.supply.items()):
            raise ValueError("token values must be at least 1 and counts not negative")
        return self

    @property
    def total(self) -> int:
        return sum(v * n for v, n in self.supply.items())


class CardsSpec(TemplateModel):
    file: str = Field(default="philanthropist/business-cards.csv", description="CSV with title,text,effect,quantity "
                      "(beside the template or in boardgen's templates folder)")
    width_mm: Length = Field(default=50.8, ge=30.0, le=130.0)
    height_mm: Length = Field(default=76.2, ge=40.0, le=180.0)
    back_colour: Colour = "#2f4858"
    count: int = Field(default=30, ge=1, le=200,
                       description="cards in the deck (the rows' quantities must add up to it)")


class KitSpec(TemplateModel):
    avatar_chip_mm: Length = Field(default=24.0, ge=10.0, le=60.0, description="diameter of an avatar chip")
    spare_meeples: int = Field(default=0, ge=0, le=10, description="extra standees of each kind")


class SimSpec(simulate_model("PhilanthropistSimulate", 300)):  # type: ignore[misc]
    """What validate and simulate play when the command line does not say."""


class PhilanthropistTemplate(GameTemplate):
    board: BoardSpec = BoardSpec()
    players: PlayersSpec
    meeples: MeeplesSpec
    action_die: DieSpec = DieSpec()
    rules: RulesSpec = RulesSpec()
    cubes: CubesSpec
    cards: CardsSpec = CardsSpec()
    kit: KitSpec = KitSpec()
    simulate: SimSpec = Field(default_factory=lambda: SimSpec.model_validate({}))

    @model_validator(mode="after")
    def _fits(self) -> PhilanthropistTemplate:
        sq = self.board.square_mm
        need = max(self.kit.avatar_chip_mm, self.meeples.standee_width_mm, 2 * self.meeples.base_depth_mm) + 4.0
        if sq < need:
            raise ValueError(f"{self.board.squares} squares of {sq:.1f} mm are too small: a square must hold a "
                             f"meeple standee and an avatar chip ({need:.1f} mm)")
        free = self.board.squares ** 2 - 4
        if self.meeples.total > free:
            raise ValueError(f"{self.meeples.total} meeples do not fit on {free} free squares (one a square)")
        for players in range(self.players.min, self.players.max + 1):
            if not 5 <= self.rules.turn_limit.get(players, 0) <= 1000:
                raise ValueError(f"rules.turn_limit needs 5 to 1000 rounds for {players} players")
        if "move" not in self.action_die.faces:
            raise ValueError("the action die needs at least one move face")
        return self

    @property
    def board_cost(self) -> int:
        return sum(k.cost * k.count for k in self.meeples.kinds)


# ------------------------------------------------------------------------------------------------ cards

_EFFECT = re.compile(r"^(gain|lose) (\d+|half|all)$")


@dataclass(frozen=True)
class Card:
    title: str
    text: str
    effect: str  # "gain 6", "lose 3", "lose half", "lose all"
    quantity: int

    @property
    def kind(self) -> str:
        return self.effect.split()[0]

    def apply(self, cubes: int) -> int:
        """The cubes a player holds after this card (never below zero)."""
        verb, amount = self.effect.split()
        if verb == "gain":
            return cubes + int(amount)
        if amount == "all":
            return 0
        if amount == "half":
            return cubes // 2  # half returned, rounded up: the player keeps the smaller half
        return max(0, cubes - int(amount))

    @property
    def delta_nominal(self) -> float:
        """Change in cubes for a player with no floor effects (lose half/all counted as 0 here)."""
        verb, amount = self.effect.split()
        if not amount.isdigit():
            return 0.0
        return float(int(amount) if verb == "gain" else -int(amount))


def parse_cards(text: str, source: str, expected: int) -> tuple[Card, ...]:
    """Card rows from CSV text (tests and tools; a template's file is read by ``load_cards``)."""
    reader = csv.reader(io.StringIO(text))
    header = [h.strip() for h in next(reader, [])]
    rows = [(line, {h: c.strip() for h, c in zip(header, record, strict=False)})
            for line, record in enumerate(reader, start=2)]
    return cards_from_rows(header, rows, source, expected)


CARD_COLUMNS = ("title", "text", "effect", "quantity")
MAX_CARD_GAIN = 100
"""The largest "gain N" a card may give (the box holds a few hundred cubes)."""


def cards_from_rows(header: list[str], rows: list[tuple[int, dict[str, str]]], source: str,
                    expected: int) -> tuple[Card, ...]:
    """Cards from the rows of the card file; any bad row is one ConfigError naming the file and the row (a
    message quotes a card's title only when it is short, never a whole cell)."""
    missing = [c for c in CARD_COLUMNS if c not in header]
    if missing:
        raise ConfigError(source, "header", f"no column {missing[0]!r}; expected the columns "
                          f"{', '.join(CARD_COLUMNS)}")
    cards: list[Card] = []
    for row_no, row in rows:
        where = f"row {row_no}"
        title = (row.get("title") or "").strip()
        body = (row.get("text") or "").strip()
        effect = " ".join((row.get("effect") or "").lower().split())
        if not title:
            raise ConfigError(source, where, "a card needs a title")
        if len(title) > 40:
            raise ConfigError(source, where, f"a title of {len(title)} characters; expected at most 40")
        if len(body) > 400:
            raise ConfigError(source, where, f"card {title!r}: a text of {len(body)} characters; expected at "
                              "most 400")
        if not effect:
            raise ConfigError(source, where, f"card {title!r} has no effect (expected e.g. 'gain 6', 'lose 3', "
                              "'lose half', 'lose all')")
        if not _EFFECT.match(effect) or effect in ("gain half", "gain all"):
            raise ConfigError(source, where, f"card {title!r}: effect {short_repr(effect, 30)} is not one of "
                              "'gain N', 'lose N', 'lose half', 'lose all'")
        amount = effect.split()[1]
        if amount.isdigit() and (len(amount) > 4 or not 1 <= int(amount) <= MAX_CARD_GAIN):
            raise ConfigError(source, where, f"card {title!r}: effect {short_repr(effect, 30)}: expected 1 to "
                              f"{MAX_CARD_GAIN} cubes")
        try:
            quantity = int((row.get("quantity") or "").strip())
        except ValueError:
            raise ConfigError(source, where, f"card {title!r}: quantity must be a whole number") from None
        if not 1 <= quantity <= 50:
            raise ConfigError(source, where, f"card {title!r}: quantity must be 1 to 50, got {quantity}")
        cards.append(Card(title, body, effect, quantity))
    if not cards:
        raise ConfigError(source, "", "no cards")
    total = sum(c.quantity for c in cards)
    if total != expected:
        raise ConfigError(source, "quantity", f"the rows hold {total} cards but cards.count says {expected}")
    return tuple(cards)


def cards_path(config: PhilanthropistTemplate) -> Path:
    """The card file: relative to the template's folder, else in boardgen's templates folder (and inside it)."""
    from boardgen.datafiles import locate
    from boardgen.yaml_reader import templates_dir

    return locate(config.cards.file, config.source, "cards.file", (templates_dir(),), "card file")


def load_cards(config: PhilanthropistTemplate) -> tuple[Card, ...]:
    from boardgen.datafiles import read_csv

    path = cards_path(config)
    header, rows = read_csv(path, config.source, "cards.file", "card file")
    return cards_from_rows(header, rows, str(path), config.cards.count)


def deck_stats(cards: tuple[Card, ...], holding: int) -> tuple[float, float]:
    """Mean and standard deviation of the change in cubes from one draw, for a player holding ``holding``."""
    n = sum(c.quantity for c in cards)
    deltas = [(c.apply(holding) - holding, c.quantity) for c in cards]
    mean = sum(d * q for d, q in deltas) / n
    var = sum(q * (d - mean) ** 2 for d, q in deltas) / n
    return mean, math.sqrt(var)
