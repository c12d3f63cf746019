"""The Resilience Earth template as a pydantic model: every number of the game, checked on load."""

from __future__ import annotations

import math
from typing import Annotated, ClassVar, Literal

from pydantic import Field, model_validator

from boardgen.cards.deck import CardSize
from boardgen.schema import (
    Colour,
    CrossKeyError,
    GameTemplate,
    Length,
    PieceCount,
    PrintableText,
    TemplateModel,
    TokenSupply,
    players_model,
    simulate_model,
)

COMPASS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
KOPPEN_GROUPS = ("A", "B", "C", "D", "E")
MAX_RES = 1000
"""Any RES or LQ amount a template sets (costs, starting amounts, rewards): the box holds a few hundred."""
Points = Annotated[float, Field(ge=0, le=100)]
Yield = Annotated[int, Field(ge=0, le=100)]


class BoardSection(TemplateModel):
    width_mm: Length = Field(660.0, ge=200.0, le=2000.0, description="the board's width")
    height_mm: Length = Field(440.0, ge=150.0, le=2000.0, description="the board's height")
    margin_mm: Length = Field(6.0, ge=0.0, le=50.0)


class MapSection(TemplateModel):
    projection: str = Field("+proj=wintri +lon_0=150", max_length=300)
    frame_latitudes: tuple[Annotated[float, Field(ge=-90, le=90)], Annotated[float, Field(ge=-90, le=90)]] = (
        -60.0, 90.0)
    antarctica: bool = False
    raster_mm: Length = Field(0.5, gt=0.05, le=5)
    island_min_area_km2: float = Field(25000.0, ge=0, le=1e7)
    target_cells: int = Field(540, ge=36, le=5000)
    land_threshold: float = Field(0.2, gt=0, le=1)
    orientation: Literal["pointy", "flat"] = "pointy"
    high_ground_elevation_m: float = Field(1500.0, ge=0, le=9000)


class FieldsSection(TemplateModel):
    regions: int = Field(6, ge=1, le=6, description="first die: the region")
    per_region: int = Field(6, ge=1, le=6, description="second die: the field within the region")
    strait_hexes: int = Field(3, ge=1, le=12)
    grouping_rounds: int = Field(8, ge=0, le=100)
    balance_weight: float = Field(1.0, ge=0, le=10)
    min_cells: int = Field(3, ge=1, le=50)

    @property
    def count(self) -> int:
        return self.regions * self.per_region


class ProductionSection(TemplateModel):
    climate_points: dict[str, Points] = Field(
        default_factory=lambda: {"A": 3.0, "B": 1.0, "C": 3.2, "D": 2.2, "E": 0.3}, max_length=5)
    high_ground_penalty: Points = 1.2
    level_thresholds: tuple[Points, Points] = (1.5, 2.4)
    settlement: tuple[Yield, Yield, Yield] = (1, 1, 2)
    town: tuple[Yield, Yield, Yield] = (2, 3, 3)
    industry: tuple[Yield, Yield, Yield] = (3, 4, 5)

    @model_validator(mode="after")
    def _check(self) -> ProductionSection:
        if set(self.climate_points) != set(KOPPEN_GROUPS):
            raise ValueError(f"climate_points needs exactly the Köppen groups {', '.join(KOPPEN_GROUPS)}")
        if self.level_thresholds[0] > self.level_thresholds[1]:
            raise ValueError("level_thresholds must rise")
        return self


class CostsSection(TemplateModel):
    settlement: int = Field(2, ge=0, le=MAX_RES)
    travel: int = Field(2, ge=0, le=MAX_RES)
    town: int = Field(3, ge=0, le=MAX_RES)
    industry: int = Field(5, ge=0, le=MAX_RES)
    town_stones: int = Field(1, ge=0, le=5)
    industry_stones: int = Field(2, ge=0, le=5)


BuildingKind = Literal["settlement", "town", "industry"]


def _no_building_worth() -> dict[BuildingKind, int]:
    return {"settlement": 0, "town": 0, "industry": 0}


class RulesSection(TemplateModel):
    starting_res: int = Field(3, ge=0, le=MAX_RES)
    # RES more at the start for the players in turn order (first player first): makes up for picking fields
    # later; missing entries are 0
    starting_res_extra: tuple[Annotated[int, Field(ge=0, le=MAX_RES)], ...] = Field((), max_length=4)
    starting_lq_extra: tuple[Annotated[int, Field(ge=0, le=MAX_RES)], ...] = Field(
        (), max_length=4, description="LQ at the start, the same way")
    settlement_lq: int = Field(2, ge=0, le=MAX_RES)
    sabbatical_cost: int = Field(1, ge=0, le=MAX_RES)
    sabbatical_lq: int = Field(8, ge=0, le=MAX_RES)
    sabbatical_limit: int = Field(0, ge=0, le=100)
    industry_lq_loss: int = Field(1, ge=0, le=MAX_RES)
    # RES each building still standing counts as at the end (timer or last stone; not after a collapse):
    # the seed's houses and industries are tangible resources too
    building_res: dict[BuildingKind, Annotated[int, Field(ge=0, le=MAX_RES)]] = Field(
        default_factory=_no_building_worth, max_length=3)
    builds_per_turn: int = Field(0, ge=0, le=100)
    dismantle_refund: int = Field(0, ge=0, le=MAX_RES)
    dismantled_stones: Literal["reserve", "out"] = "reserve"
    destroyed_returns_stones: bool = False
    first_end_round: int = Field(10, ge=1, le=200)
    last_end_round: int = Field(14, ge=1, le=200)
    lopsided_share: float = Field(0.8, gt=0.5, le=1.0)
    lopsided_penalty: int = Field(5, ge=0, le=MAX_RES)
    lopsided_both_ways: bool = True
    toppler_score: int = Field(-1, ge=-MAX_RES, le=MAX_RES)

    @model_validator(mode="after")
    def _check(self) -> RulesSection:
        if self.first_end_round > self.last_end_round:
            raise ValueError("first_end_round must not come after last_end_round")
        return self


TOWER_RING_MM = 2.0
"""The white band round the tower base, inside the countdown spaces."""


class TowerSection(TemplateModel):
    countdown_stacks: tuple[Annotated[int, Field(ge=1, le=20)], ...] = Field(
        (5, 4, 4, 3, 3, 3, 2, 2, 2, 1, 1, 1), min_length=1, max_length=24,
        description="stones in each countdown stack, emptied in this order")
    collapse_ceiling: float = Field(0.5, ge=0, le=1)
    # midpoint <= 200 stones and spread >= 0.5 keep the logistic's exponent within 400 (exp overflows past 709)
    collapse_midpoint: float = Field(24.0, ge=0, le=200, description="tower height (stones) of half the ceiling")
    collapse_spread: float = Field(3.0, ge=0.5, le=100, description="how gradually the toppling chance rises")
    lon: float = Field(-165.0, ge=-180, le=180)
    lat: float = Field(2.0, ge=-60, le=80)
    base_diameter_mm: Length = Field(66.0, ge=20.0, le=200.0)  # holds the 45 x 45 mm square of crossed blocks
    stack_ring_mm: Length = Field(59.5, ge=20.0, le=300.0)  # from the base's centre to each countdown space's centre
    stack_margin_mm: Length = Field(1.0, ge=0.0, le=10.0)  # room round a stack of blocks lying flat on its space
    block_length_mm: Length = Field(45.0, ge=10.0, le=200.0)
    block_width_mm: Length = Field(15.0, ge=5.0, le=100.0)
    blocks_per_layer: int = Field(2, ge=1, le=4)

    @model_validator(mode="after")
    def _check(self) -> TowerSection:
        if self.stones > 200:
            raise ValueError(f"countdown_stacks hold {self.stones} stones; expected at most 200")
        if self.block_width_mm > self.block_length_mm:
            raise ValueError("block_width must not exceed block_length")
        length, width = self.stack_space_mm
        inner = self.stack_ring_mm - length / 2  # the inner ends of the countdown spaces
        if inner < self.base_diameter_mm / 2 + TOWER_RING_MM + 1.0:
            raise ValueError(f"stack_ring: the countdown spaces ({length:g} mm long, pointing at the tower) reach "
                             f"into the tower base; give stack_ring at least "
                             f"{self.base_diameter_mm / 2 + TOWER_RING_MM + 1.0 + length / 2:g}mm")
        if 2 * math.pi * inner / len(self.countdown_stacks) < width + 1.0:
            need = (width + 1.0) * len(self.countdown_stacks) / (2 * math.pi) + length / 2
            raise ValueError(f"stack_ring: {len(self.countdown_stacks)} countdown spaces {width:g} mm wide overlap "
                             f"on a ring of {self.stack_ring_mm:g} mm; give stack_ring at least {need:.0f}mm")
        return self

    @property
    def stack_space_mm(self) -> tuple[float, float]:
        """A countdown space: a stack of blocks lying flat with ``stack_margin_mm`` round it (length, width),
        its length pointing at the tower."""
        return (self.block_length_mm + 2 * self.stack_margin_mm, self.block_width_mm + 2 * self.stack_margin_mm)

    @property
    def stones(self) -> int:
        return sum(self.countdown_stacks)

    @property
    def block_text(self) -> str:
        return (f"{self.block_length_mm:g} x {self.block_width_mm:g} x {self.block_width_mm:g} mm wooden blocks, "
                f"{self.blocks_per_layer} to a layer, each layer across the one below")


class MarkersSection(TemplateModel):
    count: int = Field(21, ge=1, le=200)


Compass = Literal["N", "NE", "E", "SE", "S", "SW", "W", "NW", "all"]


class EventCard(TemplateModel):
    name: PrintableText = Field(min_length=1, max_length=40)
    effect: Literal["blocked", "destroyed"]
    rounds: int = Field(ge=0, le=50, description="0: for the rest of the game")
    reach: tuple[Compass, ...] = Field((), max_length=8, description="compass steps from the field the dice name "
                                      "(a step repeated goes one field further); all: every bordering field")


class ComponentsSection(TemplateModel):
    player_colours: tuple[Colour, ...] = Field(("#e69f00", "#56b4e9", "#009e73", "#cc79a7"), max_length=8)
    player_shapes: tuple[Literal["circle", "square", "triangle", "diamond", "hexagon", "pentagon"], ...] = Field(
        ("circle", "square", "triangle", "diamond"), max_length=8)
    per_colour: dict[str, PieceCount] = Field(
        default_factory=lambda: {"settlement": 14, "town": 10, "industry": 7}, max_length=3,
        description="pieces of each building per player colour")
    res_tokens: TokenSupply = Field(default_factory=lambda: {1: 60, 5: 24, 10: 12})
    lq_tokens: TokenSupply = Field(default_factory=lambda: {1: 54, 5: 20, 10: 10})
    token_size_mm: Length = Field(16.0, ge=8.0, le=40.0)
    marker_size_mm: Length = Field(22.0, ge=10.0, le=60.0)
    card_size: CardSize = "poker"
    dice_size_mm: Length = Field(34.0, ge=10.0, le=60.0, description="edge of a paper die")


class ResiliencePlayers(players_model("ResiliencePlayers", 2, 4, (2, 4, 4))):  # type: ignore[misc]
    """Fewest, usual and most players (the usual count is what validate and simulate seat)."""


class ResilienceSimulate(simulate_model("ResilienceSimulate", 400, least_validate_games=10)):  # type: ignore[misc]
    """What validate and simulate play when the command line does not say."""


class ResilienceTemplate(GameTemplate):
    """A Resilience Earth edition."""

    game: Literal["resilience-earth"] = "resilience-earth"
    board: BoardSection
    map: MapSection
    fields: FieldsSection
    production: ProductionSection
    costs: CostsSection
    players: ResiliencePlayers = Field(
        default_factory=lambda: ResiliencePlayers.model_validate({}))
    simulate: ResilienceSimulate = Field(
        default_factory=lambda: ResilienceSimulate.model_validate({}))
    rules: RulesSection
    tower: TowerSection
    markers: MarkersSection
    events: tuple[EventCard, ...] = Field(min_length=1, max_length=60)
    components: ComponentsSection

    moved_keys: ClassVar[dict[str, str]] = {
        "rules.min_players": "players.min", "rules.players": "players.usual", "rules.max_players": "players.max",
        "rules.validate_games": "simulate.validate_games"}

    @model_validator(mode="after")
    def _check(self) -> ResilienceTemplate:
        c = self.components
        if set(c.per_colour) != {"settlement", "town", "industry"}:
            raise CrossKeyError("components.per_colour", "expected exactly settlement, town and industry")
        if len(c.player_colours) < self.players.max or len(c.player_shapes) < self.players.max:
            raise ValueError("components: one colour and one shape per player (players.max)")
        if self.map.target_cells < 3 * self.fields.count:
            raise CrossKeyError("map.target_cells", f"{self.map.target_cells} cells are too few for "
                                f"{self.fields.count} fields (regions x per_region); expected at least 3 a field "
                                f"({3 * self.fields.count})")
        return self
