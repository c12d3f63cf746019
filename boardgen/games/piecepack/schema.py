"""The piecepack's template (``game: piecepack``) as a pydantic model: its suits, ranks and piece sizes
(``PiecepackSpec``, which any piecepack game's template holds under ``piecepack:``) and the papers and backs to
print (``PrintSpec``)."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field

from boardgen.schema import Colour, GameTemplate, Length, Papers, PrintableText, TemplateModel

SuitSymbol = Literal["sun", "moon", "crown", "arms"]


class Suit(TemplateModel):
    name: PrintableText = Field(min_length=1, max_length=20, description="the suit's name, plural (Suns)")
    colour: Colour = Field(description="the suit colour: symbols, dice, pawns")
    symbol: SuitSymbol = Field(description="which vector symbol draws the suit")


def _default_suits() -> tuple[Suit, ...]:
    # piecepackr's default suit colours (colour-blind-safe variants of red, black, green and blue)
    return (Suit(name="Suns", colour="#d55e00", symbol="sun"),
            Suit(name="Moons", colour="#000000", symbol="moon"),
            Suit(name="Crowns", colour="#009e73", symbol="crown"),
            Suit(name="Arms", colour="#0072b2", symbol="arms"))


class PiecepackSpec(TemplateModel):
    """The piecepack's pieces: 4 suits x 6 ranks of tiles and coins, a pawn and a die per suit."""

    suits: tuple[Suit, ...] = Field(default_factory=_default_suits, min_length=4, max_length=4)
    ranks: tuple[Annotated[str, Field(max_length=3)], ...] = Field(("", "A", "2", "3", "4", "5"), min_length=6,
                                                                    max_length=6,
                                   description="rank symbols null, ace, 2-5 (null is blank by default)")
    rank_names: tuple[Annotated[str, Field(min_length=1, max_length=12)], ...] = Field(
        ("null", "ace", "2", "3", "4", "5"), min_length=6, max_length=6)
    tile_size_mm: Length = Field(50.8, ge=25.0, le=80.0, description="tile side (2in)")
    coin_diameter_mm: Length = Field(19.05, ge=12.0, le=40.0, description="coin diameter (3/4in)")
    die_size_mm: Length = Field(15.875, ge=10.0, le=30.0, description="die edge (5/8in)")
    pawn_width_mm: Length = Field(15.875, ge=10.0, le=30.0, description="pawn standee width (5/8in)")
    pawn_height_mm: Length = Field(25.4, ge=15.0, le=50.0, description="pawn standee body height (1in)")
    background: Colour = "#fffdf5"
    tile_back: Colour = Field("#e9e4d4", description="tile back ground colour")
    grid_colour: Colour = Field("#8a7f66", description="the 2x2 grid on tile backs")
    neutral_colour: Colour = Field("#333333", description="coin values (the value side shows no suit)")
    grid_width_mm: Length = Field(0.8, ge=0.1, le=3.0)
    invert_suited: bool = Field(False, description="suited sides (tile faces, coin suit sides) on the suit "
                                "colour with light symbols, like piecepackr's invert_colors.suited")


class PrintSpec(TemplateModel):
    backs: Literal["duplex", "fold"] = Field("duplex", description="duplex pages or fold-over pairs")
    also_fold: bool = Field(True, description="also write fold-over sheets for single-sided printers")


PRINT_MOVES = {"print.papers": "papers"}
"""The papers were ``print.papers`` before every game wrote them as ``papers`` (``GameTemplate.moved_keys``)."""


class PiecepackTemplate(GameTemplate):
    """The piecepack alone: a set of parts, not a game, so it has no ``players`` and no ``simulate``."""

    papers: Papers = ("a4", "letter")
    piecepack: PiecepackSpec = Field(default_factory=lambda: PiecepackSpec.model_validate({}))
    print: PrintSpec = Field(default_factory=lambda: PrintSpec.model_validate({}))

    moved_keys: ClassVar[dict[str, str]] = PRINT_MOVES
