"""The Resilience Earth template as a pydantic model: every number of the game, checked on load."""

from __future__ import annotations

import math
from typing import Literal

from pydantic import Field, model_validator

from boardgen.schema import Colour, GameTemplate, Length, TemplateModel

COMPASS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
KOPPEN_GROUPS = ("A", "B", "C", "D", "E")


class BoardSection(TemplateModel):
    width_mm: Length = 660.0
    height_mm: Length = 440.0
    margin_mm: Length = 6.0


class MapSection(TemplateModel):
    projection: str = "+proj=wintri +lon_0=150"
    frame_latitudes: tuple[float, float] = (-60.0, 90.0)
    antarctica: bool = False
    raster_mm: Length = Field(0.5, gt=0.05, le=5)
    island_min_area_km2: float = Field(25000.0, ge=0)
    target_cells: int = Field(540, ge=36, le=5000)
    land_threshold: float = Field(0.2, gt=0, le=1)
    orientation: Literal["pointy", "flat"] = "pointy"
    high_ground_elevation_m: float = 1500.0


class FieldsSection(TemplateModel):
    regions: int = Field(6, ge=1, le=6, description="first die: the region")
    per_region: int = Field(6, ge=1, le=6, description="second die: the field within the region")
    strait_hexes: int = Field(3, ge=1, le=12)
    grouping_rounds: int = Field(8, ge=0, le=100)
    balance_weight: float = Field(1.0, ge=0, le=10)
    min_cells: int = Field(3, ge=1)

    @property
    def count(self) -> int:
        return self.regions * self.per_region


class ProductionSection(TemplateModel):
    climate_points: dict[str, float] = Field(
        default_factory=lambda: {"A": 3.0, "B": 1.0, "C": 3.2, "D": 2.2, "E": 0.3})
    high_ground_penalty: float = 1.2
    level_thresholds: tuple[float, float] = (1.5, 2.4)
    settlement: tuple[int, int, int] = (1, 1, 2)
    town: tuple[int, int, int] = (2, 3, 3)
    industry: tuple[int, int, int] = (3, 4, 5)

    @model_validator(mode="after")
    def _check(self) -> ProductionSection:
        if set(self.climate_points) != set(KOPPEN_GROUPS):
            raise ValueError(f"climate_points needs exactly the Köppen groups {', '.join(KOPPEN_GROUPS)}")
        if self.level_thresholds[0] > self.level_thresholds[1]:
            raise ValueError("level_thresholds must rise")
        return self


class CostsSection(TemplateModel):
    settlement: int = Field(2, ge=0)
    travel: int = Field(2, ge=0)
    town: int = Field(3, ge=0)
    industry: int = Field(5, ge=0)
    town_stones: int = Field(1, ge=0, le=5)
    industry_stones: int = Field(2, ge=0, le=5)


BuildingKind = Literal["settlement", "town", "industry"]


def _no_building_worth() -> dict[BuildingKind, int]:
    return {"settlement": 0, "town": 0, "industry": 0}


class RulesSection(TemplateModel):
    players: int = Field(4, ge=2, le=4)
    min_players: int = Field(2, ge=2, le=4)
    max_players: int = Field(4, ge=2, le=4)
    starting_res: int = Field(3, ge=0)
    # RES more at the start for the players in turn order (first player first): makes up for picking fields
    # later; missing entries are 0
    starting_res_extra: tuple[int, ...] = ()
    starting_lq_extra: tuple[int, ...] = ()  # LQ at the start, the same way
    settlement_lq: int = Field(2, ge=0)
    sabbatical_cost: int = Field(1, ge=0)
    sabbatical_lq: int = Field(8, ge=0)
    sabbatical_limit: int = Field(0, ge=0)
    industry_lq_loss: int = Field(1, ge=0)
    # RES each building still standing counts as at the end (timer or last stone; not after a collapse):
    # the seed's houses and industries are tangible resources too
    building_res: dict[BuildingKind, int] = Field(default_factory=_no_building_worth)
    builds_per_turn: int = Field(0, ge=0)
    dismantle_refund: int = Field(0, ge=0)
    dismantled_stones: Literal["reserve", "out"] = "reserve"
    destroyed_returns_stones: bool = False
    first_end_round: int = Field(10, ge=1, le=200)
    last_end_round: int = Field(14, ge=1, le=200)
    lopsided_share: float = Field(0.8, gt=0.5, le=1.0)
    lopsided_penalty: int = Field(5, ge=0)
    lopsided_both_ways: bool = True
    toppler_score: int = -1
    validate_games: int = Field(400, ge=10, le=100000)

    @model_validator(mode="after")
    def _check(self) -> RulesSection:
        if not self.min_players <= self.players <= self.max_players:
            raise ValueError("players must lie between min_players and max_players")
        if self.first_end_round > self.last_end_round:
            raise ValueError("first_end_round must not come after last_end_round")
        return self


TOWER_RING_MM = 2.0
"""The white band round the tower base, inside the countdown spaces."""


class TowerSection(TemplateModel):
    countdown_stacks: tuple[int, ...] = (5, 4, 4, 3, 3, 3, 2, 2, 2, 1, 1, 1)
    collapse_ceiling: float = Field(0.5, ge=0, le=1)
    collapse_midpoint: float = 24.0
    collapse_spread: float = Field(3.0, gt=0)
    lon: float = Field(-165.0, ge=-180, le=180)
    lat: float = Field(2.0, ge=-60, le=80)
    base_diameter_mm: Length = 66.0  # holds the 45 x 45 mm square of crossed layers of blocks
    stack_ring_mm: Length = 59.5  # from the base's centre to each countdown space's centre
    stack_margin_mm: Length = Field(1.0, le=10.0)  # room round a stack of blocks lying flat on its space
    block_length_mm: Length = 45.0
    block_width_mm: Length = 15.0
    blocks_per_layer: int = Field(2, ge=1, le=4)

    @model_validator(mode="after")
    def _check(self) -> TowerSection:
        if not self.countdown_stacks or min(self.countdown_stacks) < 1 or len(self.countdown_stacks) > 24:
            raise ValueError("countdown_stacks: 1 to 24 stacks of at least one stone")
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
    name: str = Field(min_length=1, max_length=40)
    effect: Literal["blocked", "destroyed"]
    rounds: int = Field(ge=0, le=50, description="0: for the rest of the game")
    reach: tuple[Compass, ...] = ()


class ComponentsSection(TemplateModel):
    player_colours: tuple[Colour, ...] = ("#e69f00", "#56b4e9", "#009e73", "#cc79a7")
    player_shapes: tuple[Literal["circle", "square", "triangle", "diamond", "hexagon", "pentagon"], ...] = (
        "circle", "square", "triangle", "diamond")
    per_colour: dict[str, int] = Field(
        default_factory=lambda: {"settlement": 14, "town": 10, "industry": 7})
    res_tokens: dict[int, int] = Field(default_factory=lambda: {1: 60, 5: 24, 10: 12})
    lq_tokens: dict[int, int] = Field(default_factory=lambda: {1: 54, 5: 20, 10: 10})
    token_size_mm: Length = 16.0
    marker_size_mm: Length = 22.0
    card_size: str = "poker"
    dice_size_mm: Length = 34.0


class ResilienceTemplate(GameTemplate):
    """A Resilience Earth edition."""

    game: Literal["resilience-earth"] = "resilience-earth"
    board: BoardSection
    map: MapSection
    fields: FieldsSection
    production: ProductionSection
    costs: CostsSection
    rules: RulesSection
    tower: TowerSection
    markers: MarkersSection
    events: tuple[EventCard, ...] = Field(min_length=1, max_length=60)
    components: ComponentsSection

    @model_validator(mode="after")
    def _check(self) -> ResilienceTemplate:
        c = self.components
        if set(c.per_colour) != {"settlement", "town", "industry"}:
            raise ValueError("components.per_colour needs exactly settlement, town and industry")
        if len(c.player_colours) < self.rules.max_players or len(c.player_shapes) < self.rules.max_players:
            raise ValueError("components: one colour and one shape per player (max_players)")
        return self
