"""The Global Wellbeing Game's template as pydantic models: the geographic map's sections (boardgen/geomap/spec.py)
plus the game's rules and printed parts. Every limit is a constraint of a model, so ``boardgen schema`` and an
editor show it; the limits that join keys are model validators naming the key they blame.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal

from pydantic import AfterValidator, Field, StrictBool, StrictInt, StrictStr, model_validator

from boardgen.geomap.spec import (
    Auto,
    BoardConfig,
    ClassificationConfig,
    HexConfig,
    MapConfig,
    OverrideConfig,
    SectionsConfig,
    ZoneConfig,
    check_map_spec,
)
from boardgen.schema import (
    ONE_LINE_SCHEMA,
    Colour,
    CrossKeyError,
    DieSides,
    GameTemplate,
    Length,
    OneLine,
    PrintableText,
    TemplateModel,
    json_schema,
    players_model,
    simulate_model,
    validate_template,
)
from boardgen.yaml_reader import read_template_file, templates_dir

PLAYER_SHAPES: tuple[str, ...] = ("circle", "square", "triangle", "diamond", "hexagon", "pentagon", "star", "octagon")
PIECE_FORMS: tuple[str, ...] = ("tokens", "standees")
MAX_PLAYERS = 6
MAX_VALIDATE_GAMES = 5_000
"""Games behind the build's validation report: about 15 s at the flagship's ~330 games/s."""


def _count(default: int, low: int, high: int, description: str = "") -> Any:
    """A whole number of the rules with its limits (far beyond any real game: they keep a typo from running for
    hours or printing a ream of chips)."""
    return Field(default, ge=low, le=high, description=description or None)


class RulesConfig(TemplateModel):
    variant: Literal["simple", "complex"] = "complex"
    starting_chips: StrictInt = _count(10, 0, 1000)
    pieces_per_player: StrictInt = _count(30, 1, 500, "pieces printed per player, at least setup_rounds")
    setup_rounds: StrictInt = _count(10, 1, 100)
    turns: StrictInt = _count(20, 1, 500)
    harvest_divisor: StrictInt = _count(30, 1, 10_000)
    stewardship_every: StrictInt = _count(5, 1, 500)
    tipping_point_every: StrictInt = _count(10, 1, 500)
    tipping_point_die: DieSides = 20
    badge_threshold: StrictInt = _count(8, 1, 1000)
    badges_can_be_lost: StrictBool = False
    bank_chips: StrictInt = _count(150, 0, 2000, "chips in the box, at least players.max x starting_chips")
    years_per_turn: StrictInt = _count(25, 1, 1000)
    start_year: StrictInt = _count(2025, -9999, 9999)
    # decisions where the seed is ambiguous (see the README's Rules section)
    end_of_turn_order: Literal["stewardship-first", "tipping-first"] = "stewardship-first"
    harvest_capped_by_bank: StrictBool = True  # harvest pays at most what the bank holds (bank_chips in the box)
    investments_per_turn: StrictInt = _count(1, 0, 100, "new pieces a player may buy in step (c)")
    move_optional: StrictBool = True  # step (a): a player may leave all pieces where they are
    move_next_to_other_pieces: StrictBool = True  # a moved piece lands next to another own piece
    pieces_limited: StrictBool = True  # a player with no unplayed pieces left cannot invest (chips are kept)
    simple_harvest: StrictBool = False  # simple variant: still harvest chips and buy pieces (false: move only)
    first_player_rotates: StrictBool = False  # the first seat passes left after every turn

    @model_validator(mode="after")
    def _between(self) -> RulesConfig:
        if self.pieces_per_player < self.setup_rounds:
            raise CrossKeyError("pieces_per_player", f"expected at least setup_rounds ({self.setup_rounds}) pieces "
                                "per player")
        return self


class WellbeingPlayers(players_model("WellbeingPlayers", 1, MAX_PLAYERS, (2, 6, 6))):  # type: ignore[misc]
    """Fewest, usual and most players (the usual count is what validate and simulate seat)."""


class WellbeingSimulate(simulate_model("WellbeingSimulate", 200, MAX_VALIDATE_GAMES)):  # type: ignore[misc]
    """What validate and simulate play when the command line does not say."""


def _lower(colours: tuple[str, ...]) -> tuple[str, ...]:
    """One spelling of a colour ("#E69F00" is "#e69f00")."""
    return tuple(c.lower() for c in colours)


class ComponentsConfig(TemplateModel):
    """The printed parts besides the board (boardgen/cards/). Chips printed = rules.bank_chips (the whole supply)."""

    chip_diameter_mm: Length = Field(22.0, ge=10.0, le=60.0)
    piece_size_mm: Auto[Length] = Field(None, ge=5.0, le=40.0, description="token width, inside the board's hexes; "
                                        "auto: 78% of the board hex's inner diameter")
    piece_forms: tuple[Literal[PIECE_FORMS], ...] = Field(  # type: ignore[valid-type]
        ("tokens", "standees"), min_length=1, max_length=2)
    standee_height_mm: Length = Field(20.0, ge=5.0, le=60.0, description="one face of a fold-over standee")
    badge_size_mm: Length = Field(30.0, ge=5.0, le=60.0, description="across the badge's hexagon, corner to corner")
    chip_shape: Literal["round", "square"] = "square"  # square chips: touching squares, cut with straight cuts
    player_colours: Annotated[tuple[Colour, ...], Field(min_length=1, max_length=len(PLAYER_SHAPES)),
                              AfterValidator(_lower)] = Field(
        ("#e69f00", "#56b4e9", "#009e73", "#0072b2", "#d55e00", "#cc79a7"),
        description="different colours, at least players.max")
    player_shapes: tuple[Literal[PLAYER_SHAPES], ...] = Field(  # type: ignore[valid-type]
        ("circle", "square", "triangle", "diamond", "hexagon", "pentagon"), min_length=1,
        max_length=len(PLAYER_SHAPES), description="different shapes, at least players.max")
    double_sided: Literal["duplex", "fold"] = "duplex"  # backs on mirrored pages, or beside the front with a fold
    dice: StrictBool = True  # print paper dice nets (d4 d6 d8 d10 d12 d20)
    dice_size_mm: Length = Field(34.0, ge=15.0, le=70.0, description="each die's corner-to-corner diameter")

    @model_validator(mode="after")
    def _distinct(self) -> ComponentsConfig:
        if len(set(self.player_colours)) != len(self.player_colours):
            raise CrossKeyError("player_colours", "expected every player colour to differ")
        return self


ZoneKey = Annotated[StrictStr, Field(min_length=1, max_length=120, json_schema_extra=ONE_LINE_SCHEMA), OneLine]


class Config(GameTemplate):
    """A Global Wellbeing Game template."""

    game: Literal["global-wellbeing"] = Field("global-wellbeing", description="which game plug-in builds this "
                                              "template")
    edition: StrictStr = Field(pattern=r"^[a-z0-9][a-z0-9-]{0,63}$", description="lower-case letters, digits and "
                               "hyphens (at most 64, used as a folder name)")
    title: Annotated[PrintableText, OneLine] = Field(min_length=1, max_length=120, json_schema_extra=ONE_LINE_SCHEMA,
                                                    description="one line, printed on the board and cards")
    seed: StrictInt = Field(2026, ge=0, lt=2**63, description="seeds every random choice boardgen makes")
    zones: dict[ZoneKey, ZoneConfig] = Field(min_length=2, max_length=8, description="2 to 8 game zones in table "
                                             "order")
    board: BoardConfig = Field(default_factory=BoardConfig)
    map: MapConfig = Field(default_factory=MapConfig)
    hexes: HexConfig = Field(default_factory=HexConfig)
    classification: ClassificationConfig = Field(default_factory=ClassificationConfig)
    overrides: OverrideConfig = Field(default_factory=OverrideConfig)
    sections: SectionsConfig = Field(default_factory=SectionsConfig)
    components: ComponentsConfig = Field(default_factory=ComponentsConfig)
    players: WellbeingPlayers = Field(
        default_factory=lambda: WellbeingPlayers.model_validate({}))
    rules: RulesConfig = Field(default_factory=RulesConfig)
    simulate: WellbeingSimulate = Field(
        default_factory=lambda: WellbeingSimulate.model_validate({}))

    moved_keys: ClassVar[dict[str, str]] = {
        "rules.min_players": "players.min", "rules.players": "players.usual", "rules.max_players": "players.max",
        "rules.validate_games": "simulate.validate_games"}

    @property
    def zone_names(self) -> tuple[str, ...]:
        return tuple(self.zones)

    @model_validator(mode="after")
    def _across(self) -> Config:
        check_map_spec(self.board, self.map, self.hexes, self.sections, self.zones, self.classification,
                       self.overrides)
        k, r, most = self.components, self.rules, self.players.max
        if k.piece_size_mm is not None and self.hexes.size_mm is not None:
            inner_mm = self.hexes.size_mm * 3**0.5
            if k.piece_size_mm > inner_mm * 0.95:
                raise CrossKeyError("components.piece_size", f"a {k.piece_size_mm:g}mm piece does not sit inside a "
                                    f"{self.hexes.size_mm:g}mm hex (inner diameter {inner_mm:.1f}mm); expected at most "
                                    f"{inner_mm * 0.95:.1f}mm")
        if r.bank_chips < most * r.starting_chips:
            raise CrossKeyError("rules.bank_chips", "expected at least players.max x rules.starting_chips "
                                f"({most * r.starting_chips}) chips in the box")
        if len(k.player_colours) < most:
            raise CrossKeyError("components.player_colours", f"expected at least {most} colours "
                                f"(players.max), got {len(k.player_colours)}")
        if len(k.player_shapes) < most or len(set(k.player_shapes)) != len(k.player_shapes):
            raise CrossKeyError("components.player_shapes", f"expected at least {most} different shapes")
        return self


def default_template_path() -> Path:
    return templates_dir() / "global-wellbeing.yaml"


def config_from_mapping(data: Any, source: str = "<template>", template_sha256: str = "") -> Config:
    """A template mapping (``extends`` already merged) validated as the flagship's Config."""
    return validate_template(Config, data, source, template_sha256)


def load_template(path: str | Path | None = None) -> Config:
    """Read and validate a template; ``None`` is the bundled Global Wellbeing Game."""
    import hashlib

    from boardgen.i18n import normalise_edition

    template_path = Path(path) if path is not None else default_template_path()
    data, raw = read_template_file(template_path)
    if isinstance(data, dict):
        data = normalise_edition(data, str(template_path))
    return config_from_mapping(data, str(template_path), hashlib.sha256(raw).hexdigest())


def template_with(changes: Mapping[str, Any], path: str | Path | None = None) -> Config:
    """The template at ``path`` (the bundled Global Wellbeing Game by default) with ``changes`` merged over it
    as a template that ``extends:`` it would merge them; messages name that template's file."""
    import hashlib

    from boardgen.yaml_reader import deep_merge

    template_path = Path(path) if path is not None else default_template_path()
    data, raw = read_template_file(template_path)
    merged = deep_merge(data, dict(changes))
    return config_from_mapping(merged, str(template_path), hashlib.sha256(raw).hexdigest())


def flagship_json_schema() -> dict[str, Any]:
    return json_schema(Config, "boardgen template: The Global Wellbeing Game")
