"""The BETTER Life template as a pydantic model: every number of the game (track, meters, payouts, votes,
scoring, decks, kit sizes) is a key here, so a changed template changes the engine, the board and the leaflet.

Checks that span keys (a track with exactly one End of Year, a role space for every role, vote bands that start
at 0 and rise, five finishing payouts for five players) fail as one line naming the dotted key.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field, field_validator, model_validator

from boardgen.schema import (
    Colour,
    CrossKeyError,
    DieSides,
    GameTemplate,
    Length,
    PrintableText,
    TemplateModel,
    TokenSupply,
    players_model,
    simulate_model,
)

SPACE_KINDS = ("role", "skip", "ip", "plus-one", "bonus", "empty", "fund", "payout", "event", "end-of-year")
"""Every kind of track space. ``role`` spaces name their role: ``role:university``."""

ROLE_KEYS = ("university", "industry", "ngo", "municipality", "citizens")


class Role(TemplateModel):
    key: str = Field(pattern=r"^[a-z][a-z0-9-]*$", description="short key; track spaces write role:<key>")
    name: PrintableText = Field(min_length=1, max_length=40)
    colour: Colour
    card: str = Field(pattern=r"^[a-z0-9-]+$", description="id of this role's card in the action deck file")


class Years(TemplateModel):
    start: int = Field(2020, ge=1900, le=2200)
    end: int = Field(2030, ge=1900, le=2200)
    per_round: int = Field(2, ge=1, le=10, description="years one round (one lap of the track) stands for")

    @model_validator(mode="after")
    def _span(self) -> Years:
        if self.end <= self.start or (self.end - self.start) % self.per_round:
            raise ValueError(f"end - start must be a positive multiple of per_round ({self.per_round})")
        return self

    @property
    def rounds(self) -> int:
        return (self.end - self.start) // self.per_round


class Track(TemplateModel):
    spaces: tuple[str, ...] = Field(min_length=6, max_length=80, description=(
        "the spaces after Start, in order; the last is end-of-year; kinds: " + ", ".join(SPACE_KINDS)
        + " (role spaces: role:<key>)"))

    @field_validator("spaces")
    @classmethod
    def _kinds(cls, spaces: tuple[str, ...]) -> tuple[str, ...]:
        for i, s in enumerate(spaces):
            kind = s.split(":", 1)[0]
            if kind not in SPACE_KINDS:
                raise ValueError(f"space {i + 1} {s!r}: unknown kind; expected one of {', '.join(SPACE_KINDS)}")
            if (kind == "role") != (":" in s):
                raise ValueError(f"space {i + 1} {s!r}: role spaces are written role:<key>, other kinds bare")
        ends = [i for i, s in enumerate(spaces) if s == "end-of-year"]
        if not ends:
            raise ValueError("the track has no end-of-year space (the last space must be end-of-year)")
        if ends != [len(spaces) - 1]:
            raise ValueError("end-of-year must be the last space and appear once")
        return spaces


class Band(TemplateModel):
    name: Literal["weak", "semi", "success"]
    min_ip: int = Field(ge=0, le=200, description="smallest pool total in this band")
    policy: int = Field(ge=0, le=10, description="policy meter change")
    loss: int = Field(ge=-5, le=5, description="biodiversity loss meter change")


class TargetVP(TemplateModel):
    success: int = Field(ge=0, le=50)
    semi: int = Field(ge=0, le=50)


class Scoring(TemplateModel):
    ip_per_vp: int = Field(3, ge=1, le=20, description="every this many IP left is 1 Victory Point")
    primary: TargetVP = Field(default_factory=lambda: TargetVP(success=7, semi=3))
    secondary: TargetVP = Field(default_factory=lambda: TargetVP(success=4, semi=2))
    tertiary: TargetVP = Field(default_factory=lambda: TargetVP(success=2, semi=1))


class Meters(TemplateModel):
    loss_limit: int = Field(5, ge=1, le=20, description="everyone loses as soon as biodiversity loss reaches this")
    policy_goal: int = Field(10, ge=1, le=60, description="everyone loses if the policy meter ends below this")
    policy_max: int = Field(15, ge=1, le=60, description="the last box printed on the policy meter")

    @model_validator(mode="after")
    def _goal(self) -> Meters:
        if self.policy_goal > self.policy_max:
            raise ValueError("policy_goal must not exceed policy_max")
        return self


class Spaces(TemplateModel):
    own_role_ip: int = Field(2, ge=0, le=10, description="IP from the reserve on your own role's space")
    other_role_fee: int = Field(1, ge=0, le=10, description="IP paid to the owner on another role's space")
    ip_space: int = Field(1, ge=0, le=10)
    plus_one: int = Field(1, ge=0, le=6, description="added to your next roll")
    fund_fee: int = Field(1, ge=0, le=10, description="IP paid into the Biodiversity Fund")
    empty_fund_payout: int = Field(1, ge=0, le=10, description="IP from the reserve when the fund is empty")


class IP(TemplateModel):
    start: int = Field(5, ge=0, le=50, description="IP each player takes at the start")
    box: int = Field(160, ge=10, le=1000, description="IP the box holds (1-IP and 5-IP tokens together)")
    denominations: TokenSupply = Field(default_factory=lambda: {1: 60, 5: 20},
                                       description="token value -> how many tokens of it are printed")
    max_bid: int | None = Field(None, ge=1, le=1000,
                                description="a house rule capping one sealed bid; unset (the rules as written): any "
                                            "number of the IP you hold")

    @model_validator(mode="after")
    def _box(self) -> IP:
        total = sum(v * n for v, n in self.denominations.items())
        if total != self.box:
            raise ValueError(f"the tokens in denominations are worth {total} IP, but box says {self.box}")
        if any(v <= 0 or n < 0 for v, n in self.denominations.items()):
            raise ValueError("token values must be positive and counts not negative")
        return self


class Decks(TemplateModel):
    action: str = "action-cards.csv"
    event: str = "event-cards.csv"
    policy: str = "policies.csv"
    target: str = "policy-targets.csv"


class Kit(TemplateModel):
    card: Literal["poker", "bridge", "mini", "tarot"] = "poker"
    double_sided: Literal["duplex", "gutter", "fold"] = Field(
        "duplex", description="card backs: duplex (flip on the long edge), gutter (fold each sheet), fold (pairs)")
    space_mm: Length = Field(30.0, ge=18, le=60, description="side of one track space on the board")
    board_columns: int = Field(9, ge=4, le=20, description="spaces along the top and bottom edges of the loop")
    dice_size_mm: Length = Field(18.0, ge=10, le=40)
    token_mm: Length = Field(18.0, ge=10, le=40, description="IP token diameter")
    pawn_mm: Length = Field(16.0, ge=10, le=40)
    screen_height_mm: Length = Field(70.0, ge=40, le=120, description="height of a voting screen panel")


class BetterLifePlayers(players_model("BetterLifePlayers", 5, 5, (5, 5, 5))):  # type: ignore[misc]
    """Five roles, five players."""


class BetterLifeSimulate(simulate_model("BetterLifeSimulate", 300)):  # type: ignore[misc]
    """What validate and simulate play when the command line does not say."""


class BetterLifeTemplate(GameTemplate):
    """A BETTER Life edition."""

    players: BetterLifePlayers = Field(
        default_factory=lambda: BetterLifePlayers.model_validate({}))
    roles: tuple[Role, ...] = Field(min_length=5, max_length=5)
    years: Years = Field(default_factory=lambda: Years.model_validate({}))
    track: Track
    die_sides: DieSides = 6
    hand_limit: int = Field(4, ge=1, le=10, description="action cards a player may keep (role card apart)")
    start_hand: int = Field(2, ge=0, le=10)
    finish_ip: tuple[Annotated[int, Field(ge=0, le=50)], ...] = Field(
        (4, 3, 3, 2, 2), max_length=5, description="IP for 1st, 2nd... to reach End of Year")
    market: int = Field(5, ge=0, le=10, description="face-up action cards finishers pick from, each round")
    ip: IP = Field(default_factory=lambda: IP.model_validate({}))
    meters: Meters = Field(default_factory=lambda: Meters.model_validate({}))
    votes: tuple[Band, ...] = Field(min_length=3, max_length=3)
    scoring: Scoring = Field(default_factory=lambda: Scoring.model_validate({}))
    spaces: Spaces = Field(default_factory=lambda: Spaces.model_validate({}))
    event_buy_off: bool = Field(True, description="events with a price may be bought off by the drawer")
    decks: Decks = Field(default_factory=lambda: Decks.model_validate({}))
    kit: Kit = Field(default_factory=lambda: Kit.model_validate({}))
    simulate: BetterLifeSimulate = Field(
        default_factory=lambda: BetterLifeSimulate.model_validate({}))

    moved_keys: ClassVar[dict[str, str]] = {"simulation.validate_games": "simulate.validate_games",
                                            "simulation.bots": "simulate.bots"}
    players_was_a_count: ClassVar[bool] = True  # ``players: 5``

    @model_validator(mode="after")
    def _cross(self) -> BetterLifeTemplate:
        keys = [r.key for r in self.roles]
        if len(set(keys)) != len(keys):
            raise ValueError("roles: two roles share a key")
        for i, s in enumerate(self.track.spaces):
            if s.startswith("role:") and s[5:] not in keys:
                raise ValueError(f"track.spaces[{i}]: {s!r} names no role (roles: {', '.join(keys)})")
        missing = [k for k in keys if f"role:{k}" not in self.track.spaces]
        if missing:
            raise ValueError(f"track.spaces: no space for role {missing[0]!r}")
        if len(self.finish_ip) != self.players.usual:
            raise CrossKeyError("finish_ip", f"{len(self.finish_ip)} payouts for {self.players.usual} players")
        handed = self.players.usual * self.ip.start + sum(self.finish_ip)
        if handed > self.ip.box:
            raise CrossKeyError("finish_ip", f"the start IP ({self.players.usual} x {self.ip.start}) and one round's "
                                f"finishing payouts ({sum(self.finish_ip)}) come to {handed} IP, more than the "
                                f"{self.ip.box} IP in the box (ip.box)")
        if self.market and self.market < self.players.usual:
            raise ValueError("market: fewer face-up cards than players")
        names = [b.name for b in self.votes]
        if names != ["weak", "semi", "success"] or self.votes[0].min_ip != 0 or not (
                self.votes[0].min_ip < self.votes[1].min_ip < self.votes[2].min_ip):
            raise ValueError("votes: three bands weak, semi, success, from 0 IP upwards")
        return self

    @property
    def rounds(self) -> int:
        return self.years.rounds

    def band_of(self, total: int) -> Band:
        band = self.votes[0]
        for b in self.votes:
            if total >= b.min_ip:
                band = b
        return band
