"""The template of a data-only game (``game: custom``): every part of the kit as data, read and checked on load.

Keys (docs/custom-games.md explains each with the shipped example, templates/custom-meadow.yaml):

- ``images``: name -> a PNG, JPEG or SVG file beside the template (``boardgen.render.images`` reads them);
- ``decks``: id -> a deck whose rows come from a CSV or YAML file (or inline ``rows``), with a card ``front``
  and ``back`` laid out as fields in boxes (text from a column or literal, a picture by name or from a
  column, a filled box), fonts, sizes, alignment and colours;
- ``tokens``, ``dice``, ``standees``: each kind's count, size, shape, colours, text and picture;
- ``board``: a size, a background colour or picture, and a graph of spaces (position, shape, label, kind,
  picture) joined by ``connections``, drawn in each kind's style;
- ``leaflet``: a Markdown file of rules; ``players``: how many play.

Everything a template says is checked here or when the config is loaded (``load_parts``): a picture that is
missing, too big or not what its name says, a row naming an unknown picture, a column the layout needs that
the file lacks, a number out of its stated range, a text that cannot fit its box at 6 pt.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, field_validator, model_validator

from boardgen.cards.deck import CardSize, card_size
from boardgen.schema import (
    Colour,
    CrossKeyError,
    DieSides,
    GameTemplate,
    Length,
    PieceCount,
    PrintableText,
    TemplateModel,
    players_model,
)

MAX_IMAGES = 64
MAX_FIELDS = 30
MAX_SPACES = 400
Name = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$",
                            description="a name: letters, digits, - and _")]
BoxMm = Annotated[float, Field(ge=0, le=1000)]
Box = Annotated[tuple[BoxMm, BoxMm, BoxMm, BoxMm], Field(description="[x, y, width, height] in mm from the part's "
                                                                      "top-left corner (trim)")]
PointSize = Annotated[float, Field(ge=6, le=72, description="type size in pt (6 pt is the smallest printed)")]
Align = Literal["left", "center", "right"]
VAlign = Literal["top", "middle", "bottom"]
Fit = Literal["contain", "cover", "stretch"]
Column = Annotated[str, Field(min_length=1, max_length=40, description="a column of the deck's rows")]


class FieldSpec(TemplateModel):
    """One thing on a card face: a box that holds a text (``column`` or ``text``), a picture (``image`` or
    ``image_column``) or only a fill. Texts are wrapped and shrunk to fit, never below ``min_size``."""

    box: Box
    column: Column | None = None
    text: PrintableText | None = Field(None, max_length=400)
    image: Name | None = None
    image_column: Column | None = None
    fit: Fit = "contain"
    size: PointSize = 9.0
    min_size: PointSize = 6.0
    bold: bool = False
    italic: bool = False
    align: Align = "center"
    valign: VAlign = "middle"
    colour: Colour = "#1a1a1a"
    fill: Colour | None = None
    fill_column: Column | None = Field(None, description="a column holding the box's fill colour '#rrggbb'")
    radius_mm: float = Field(0.0, ge=0, le=50, description="round corners of the fill (mm)")
    padding_mm: float = Field(0.0, ge=0, le=20, description="room between the box's edge and its text (mm)")

    @model_validator(mode="after")
    def _one_content(self) -> FieldSpec:
        contents = [k for k in ("column", "text", "image", "image_column") if getattr(self, k) is not None]
        if len(contents) > 1:
            raise ValueError(f"a field holds one thing; it names {' and '.join(contents)}")
        if not contents and self.fill is None and self.fill_column is None:
            raise ValueError("a field needs a column, text, image, image_column, or at least a fill")
        if self.min_size > self.size:
            raise CrossKeyError("min_size", f"min_size {self.min_size:g} is above size {self.size:g}")
        return self

    def columns(self) -> list[str]:
        return [c for c in (self.column, self.image_column, self.fill_column) if c]


class FaceSpec(TemplateModel):
    """A card face: its background colour (or a column holding one) and its fields, painted in order."""

    background: Colour = "#ffffff"
    background_column: Column | None = None
    fields: tuple[FieldSpec, ...] = Field((), max_length=MAX_FIELDS)


class DeckSpec(TemplateModel):
    """A deck: cards from rows (a CSV or YAML ``file`` beside the template, or inline ``rows``), a
    ``quantity`` column for copies, a card size and the two faces."""

    name: PrintableText = Field(min_length=1, max_length=60)
    file: str | None = Field(None, max_length=1024)
    rows: tuple[dict[str, Any], ...] | None = Field(None, max_length=500)
    size: CardSize = "poker"
    front: FaceSpec
    back: FaceSpec = Field(default_factory=lambda: FaceSpec.model_validate({"background": "#2f5d8a"}))
    numbers: dict[Column, tuple[Annotated[int, Field(ge=-1000, le=1000)], Annotated[int, Field(ge=-1000, le=1000)]]] \
        = Field(default_factory=dict, max_length=20, description="columns that hold whole numbers: [lowest, highest]")
    notes: tuple[Column, ...] = Field((), max_length=20, description="columns the file may hold that are not printed")

    @model_validator(mode="after")
    def _check(self) -> DeckSpec:
        if (self.rows is None) == (self.file is None):
            raise ValueError("give the deck's cards as file: (a CSV or YAML file) or as rows: [...], one of the two")
        w, h = card_size(self.size)
        for side in ("front", "back"):
            for i, f in enumerate(getattr(self, side).fields):
                x, y, bw, bh = f.box
                if bw <= 0 or bh <= 0 or x + bw > w + 1e-6 or y + bh > h + 1e-6:
                    raise CrossKeyError(f"{side}.fields[{i}].box", f"the box [{x:g}, {y:g}, {bw:g}, {bh:g}] is not "
                                        f"inside the {w:g} x {h:g} mm card")
        return self

    def columns(self) -> list[str]:
        """The columns the faces read (every one must be in the file)."""
        out = [c for face in (self.front, self.back) for f in face.fields for c in f.columns()]
        out += [c for c in (self.front.background_column, self.back.background_column) if c]
        return list(dict.fromkeys(out))


class BackSpec(TemplateModel):
    """A token's back: its colour, and a text or picture (none: the front's picture and text again)."""

    colour: Colour | None = None
    text: PrintableText | None = Field(None, max_length=40)
    image: Name | None = None


class TokenSpec(TemplateModel):
    """``count`` alike tokens: a shape, a size, a colour, a picture and a short text; ``back`` makes them
    double-sided."""

    name: PrintableText = Field(min_length=1, max_length=40)
    count: PieceCount
    shape: Literal["round", "square", "hex", "rect"] = "round"
    width_mm: Length = Field(20.0, ge=10, le=120)
    height_mm: Length | None = Field(None, ge=10, le=120, description="rect only (default: the width)")
    colour: Colour = "#f4f1e8"
    border: Colour = "#1a1a1a"
    text: PrintableText = Field("", max_length=40)
    text_size: PointSize = 8.0
    image: Name | None = None
    back: BackSpec | None = None


class DieFace(TemplateModel):
    text: PrintableText = Field("", max_length=12)
    image: Name | None = None


class DieSpec(TemplateModel):
    """A paper die to fold: its faces in order (face 1 first) as text or a picture."""

    name: PrintableText = Field(min_length=1, max_length=40)
    sides: DieSides = 6
    count: int = Field(1, ge=1, le=12)
    size_mm: Length = Field(16.0, ge=12, le=40, description="the die's size corner to corner")
    colour: Colour = "#ffffff"
    faces: tuple[str | DieFace, ...] = Field((), max_length=20, description="one per side, face 1 first; a text, or "
                                            "{image: name}; none: the numbers")

    @model_validator(mode="after")
    def _faces(self) -> DieSpec:
        if self.faces and len(self.faces) != self.sides:
            raise CrossKeyError("faces", f"{len(self.faces)} faces for a die of {self.sides} sides")
        if self.faces and self.sides == 4:
            raise CrossKeyError("faces", "a d4 shows numbers at its corners; give faces for 6, 8, 10, 12 or 20 sides")
        return self

    def face_list(self) -> list[DieFace]:
        return [DieFace(text=f) if isinstance(f, str) else f for f in self.faces]


class StandeeSpec(TemplateModel):
    """Fold-over standees: a strip of foot | back | front | foot, folded into a tent that stands."""

    name: PrintableText = Field(min_length=1, max_length=40)
    count: PieceCount
    width_mm: Length = Field(25.0, ge=12, le=80)
    height_mm: Length = Field(35.0, ge=15, le=100, description="the upright face")
    base_mm: Length = Field(12.0, ge=8, le=30, description="each foot's depth")
    colour: Colour = "#f4f1e8"
    text: PrintableText = Field("", max_length=30)
    image: Name | None = None


class SpaceKind(TemplateModel):
    """How spaces of one kind look."""

    fill: Colour = "#f4f1e8"
    stroke: Colour = "#1a1a1a"
    stroke_width_mm: float = Field(0.35, ge=0.1, le=3)
    label: Literal["corner", "center", "top", "none"] = "center"
    label_size: PointSize = 8.0
    name: PrintableText = Field("", max_length=30, description="printed in every space of the kind (a cue besides "
                                "colour)")


class SpaceSpec(TemplateModel):
    """One space of the board: where (centre, mm from the board's top-left), its shape and size, a label, a
    kind (its look) and an optional picture."""

    id: Name
    label: PrintableText = Field("", max_length=30)
    kind: Name = "space"
    x_mm: Length = Field(ge=0, le=1000)
    y_mm: Length = Field(ge=0, le=1000)
    shape: Literal["circle", "square", "hex", "rect"] = "circle"
    size_mm: Length = Field(30.0, ge=10, le=300, description="width (circle and hex: across)")
    height_mm: Length | None = Field(None, ge=10, le=300, description="rect only (default: the size)")
    image: Name | None = None


class PlacedPicture(TemplateModel):
    """A picture placed on the board in a box (under the paths and spaces)."""

    image: Name
    box: Box
    fit: Fit = "contain"


class BoardSpec(TemplateModel):
    """A board: a size, a background, an optional picture over it, and a graph of spaces (or none: a picture)."""

    width_mm: Length = Field(ge=100, le=1000)
    height_mm: Length = Field(ge=100, le=1000)
    background: Colour = "#ffffff"
    image: Name | None = None
    image_fit: Fit = "cover"
    pictures: tuple[PlacedPicture, ...] = Field((), max_length=200, description="pictures placed on the board")
    kinds: dict[Name, SpaceKind] = Field(default_factory=dict, max_length=20)
    spaces: tuple[SpaceSpec, ...] = Field((), max_length=MAX_SPACES)
    connections: tuple[tuple[Name, Name], ...] = Field((), max_length=2000)
    path_colour: Colour = "#6b5b3e"
    path_width_mm: float = Field(1.5, ge=0.25, le=10)
    title: PrintableText = Field("", max_length=80, description="printed along the board's top edge")

    @model_validator(mode="after")
    def _graph(self) -> BoardSpec:
        ids = [s.id for s in self.spaces]
        for i, s in enumerate(self.spaces):
            if ids.index(s.id) != i:
                raise CrossKeyError(f"spaces[{i}].id", f"space id {s.id!r} is used twice")
            w = s.size_mm
            h = s.height_mm if s.shape == "rect" and s.height_mm else s.size_mm
            if s.x_mm - w / 2 < 0 or s.x_mm + w / 2 > self.width_mm or s.y_mm - h / 2 < 0 or \
                    s.y_mm + h / 2 > self.height_mm:
                raise CrossKeyError(f"spaces[{i}]", f"space {s.id!r} ({w:g} x {h:g} mm at {s.x_mm:g}, {s.y_mm:g}) "
                                    f"is not inside the {self.width_mm:g} x {self.height_mm:g} mm board")
            if self.kinds and s.kind not in self.kinds:
                raise CrossKeyError(f"spaces[{i}].kind", f"unknown kind {s.kind!r}; expected one of "
                                    f"{', '.join(self.kinds)}")
        for i, pic in enumerate(self.pictures):
            x, y, w, h = pic.box
            if w <= 0 or h <= 0 or x + w > self.width_mm + 1e-6 or y + h > self.height_mm + 1e-6:
                raise CrossKeyError(f"pictures[{i}].box", f"the box [{x:g}, {y:g}, {w:g}, {h:g}] is not inside the "
                                    f"{self.width_mm:g} x {self.height_mm:g} mm board")
        known = set(ids)
        for i, (a, b) in enumerate(self.connections):
            for end in (a, b):
                if end not in known:
                    raise CrossKeyError(f"connections[{i}]", f"no space {end!r}")
            if a == b:
                raise CrossKeyError(f"connections[{i}]", f"space {a!r} joined to itself")
        return self


class LeafletSpec(TemplateModel):
    file: str = Field(min_length=1, max_length=1024, description="a Markdown file beside the template")


class PlayersSpec(players_model("CustomPlayers", 1, 12, (2, 3, 4))):  # type: ignore[misc]
    """Fewest, usual and most players (the usual count is what validate and simulate seat)."""


class CustomTemplate(GameTemplate):
    """A game made of data alone: its parts, pictures and rules leaflet."""

    players: PlayersSpec = Field(
        default_factory=lambda: PlayersSpec.model_validate({}))
    images: dict[Name, str] = Field(default_factory=dict, max_length=MAX_IMAGES,
                                    description="name -> a PNG, JPEG or SVG file beside the template")
    decks: dict[Name, DeckSpec] = Field(default_factory=dict, max_length=12)
    tokens: tuple[TokenSpec, ...] = Field((), max_length=20)
    dice: tuple[DieSpec, ...] = Field((), max_length=8)
    standees: tuple[StandeeSpec, ...] = Field((), max_length=12)
    board: BoardSpec | None = None
    leaflet: LeafletSpec
    notes: tuple[PrintableText, ...] = Field((), max_length=10, description="what else to bring (a bag, ...)")

    @field_validator("images")
    @classmethod
    def _paths(cls, value: dict[str, str]) -> dict[str, str]:
        for name, path in value.items():
            if not path or len(path) > 1024:
                raise ValueError(f"image {name!r}: expected a file path beside the template")
        return value

    @model_validator(mode="after")
    def _names(self) -> CustomTemplate:
        known = set(self.images)

        def check(name: str | None, key: str) -> None:
            if name is not None and name not in known:
                raise CrossKeyError(key, f"no image named {name!r} under images: (known: "
                                    f"{', '.join(sorted(known)) or 'none'})")

        for deck_id, deck in self.decks.items():
            for side in ("front", "back"):
                for i, f in enumerate(getattr(deck, side).fields):
                    check(f.image, f"decks.{deck_id}.{side}.fields[{i}].image")
        for i, t in enumerate(self.tokens):
            check(t.image, f"tokens[{i}].image")
            check(t.back.image if t.back else None, f"tokens[{i}].back.image")
        for i, d in enumerate(self.dice):
            for k, face in enumerate(d.face_list()):
                check(face.image, f"dice[{i}].faces[{k}].image")
        for i, s in enumerate(self.standees):
            check(s.image, f"standees[{i}].image")
        if self.board is not None:
            check(self.board.image, "board.image")
            for i, pic in enumerate(self.board.pictures):
                check(pic.image, f"board.pictures[{i}].image")
            for i, sp in enumerate(self.board.spaces):
                check(sp.image, f"board.spaces[{i}].image")
        names = [t.name for t in self.tokens] + [d.name for d in self.dice] + [s.name for s in self.standees] + \
            [d.name for d in self.decks.values()]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise CrossKeyError("tokens", f"two parts are named {twice[0]!r}; each part needs a name of its own")
        if not (self.decks or self.tokens or self.dice or self.standees or self.board):
            raise ValueError("the template lists no parts: give decks, tokens, dice, standees or a board")
        return self
