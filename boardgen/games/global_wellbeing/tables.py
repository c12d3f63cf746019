"""The two reference cards: the bio-productivity index table and the turn counter, from the template."""

from __future__ import annotations

import math
from functools import reduce

from boardgen.cards.model import Component, ComponentSet
from boardgen.games.global_wellbeing.board_art import TABLE
from boardgen.games.global_wellbeing.schema import Config
from boardgen.games.global_wellbeing.tokens import marker_size_mm
from boardgen.i18n import DEFAULT_LANGUAGE, current
from boardgen.render.cairo_backend import fit_font_or_fail, text_width_mm
from boardgen.render.scene import (
    Font,
    Op,
    Rect,
    RectOp,
    Scene,
    Style,
    Text,
    ink_on,
    rect_path,
)
from boardgen.render.symbols import zone_symbol

INK = "#1a1a1a"
GRID = Style(stroke=INK, stroke_width_mm=0.25)
START_ORANGE = "#f7a440"
UNUSED = "#e6e6e6"
CARD_PAD_MM = 5.0
MAX_CARD_MM = (180.0, 236.0)
"""The largest card that fits the printable area of both A4 and US Letter (with the sheet's marks)."""
STEWARD_COLOUR = "#cfe8c6"
TIPPING_COLOUR = "#f6c1b5"


def _text(x: float, y: float, text: str, size_pt: float, *, bold: bool = False, align: str = "left",
          colour: str = INK, baseline: str = "alphabetic", max_width_mm: float | None = None,
          name: str = "", where: str = "a reference card") -> Text:
    """A line of a reference card; one with ``max_width_mm`` shrinks to fit, and a line too wide even at the
    smallest size is a LayoutError naming the card, the text and the edition's language (never cut off)."""
    font = Font(size_pt=size_pt, bold=bold)
    if max_width_mm is not None:
        language = current().language
        font = fit_font_or_fail(text, font, max_width_mm,
                                where if language == DEFAULT_LANGUAGE else f"{where} (language {language})")
    return Text(x, y, text, font, colour, align=align, baseline=baseline, name=name)  # type: ignore[arg-type]


def _card_frame(width: float, height: float) -> list[Op]:
    return [RectOp(Rect(-3, -3, width + 6, height + 6), Style(fill="#ffffff")),
            RectOp(Rect(0, 0, width, height), Style(fill="#fbf8f0"), name="card"),
            RectOp(Rect(1.5, 1.5, width - 3, height - 3), Style(stroke=INK, stroke_width_mm=0.35))]


# ------------------------------------------------------------------------------------------ climate table


def table_rows(config: Config) -> list[int]:
    """Index values from the top row down: the largest die to the smallest minimum."""
    top = max(z.die for z in config.zones.values())
    bottom = min(z.minimum_index for z in config.zones.values())
    return list(range(top, bottom - 1, -1))


def climate_table_card(config: Config) -> Component:
    zones = config.zones
    _marker_w, marker_h = marker_size_mm()
    col_w = max(22.0, max(text_width_mm(n, Font(size_pt=6.5, bold=True)) for n in zones) + 3.0)
    col_w = min(col_w, (MAX_CARD_MM[0] - 2 * CARD_PAD_MM) / len(zones))
    rows = table_rows(config)
    title_h, header_h, footer_h = 15.0, 16.0, 9.0
    room = MAX_CARD_MM[1] - 2 * CARD_PAD_MM - title_h - header_h - footer_h
    # the board's box height, so one set of markers fits both tables; a d20 zone makes a long table: cells shrink
    cell_h = min(max(TABLE.row_mm, marker_h + 1.6), room / len(rows))
    width = 2 * CARD_PAD_MM + len(zones) * col_w
    height = 2 * CARD_PAD_MM + title_h + header_h + len(rows) * cell_h + footer_h
    ops: list[Op] = _card_frame(width, height)
    x0, y0 = CARD_PAD_MM, CARD_PAD_MM
    _ = current().gettext
    where = "the bio-productivity index card"
    ops.append(_text(width / 2, y0 + 4.5, _("Bio-productivity index"), 11, bold=True, align="center"))
    ops.append(_text(width / 2, y0 + 10.0, _("Start values are shaded orange: put each zone's marker in its orange "
                                             "box, beside the number."), 6.3, align="center",
                     max_width_mm=width - 12, where=where))
    ops.append(_text(width / 2, y0 + 13.0, _("Stewardship and tipping-point rolls move a marker one box up or "
                                             "down. (The board has the same table.)"), 6.3, align="center",
                     max_width_mm=width - 12, where=where))
    top = y0 + title_h
    for i, (name, zone) in enumerate(zones.items()):
        cx = x0 + i * col_w
        ink = ink_on(zone.colour)
        ops.append(RectOp(Rect(cx, top, col_w, header_h), Style(fill=zone.colour, stroke=INK, stroke_width_mm=0.25),
                          name="table-header"))
        ops.append(zone_symbol(zone.symbol, cx + col_w / 2, top + 6.0, 7.0, ink, detail=zone.colour))
        ops.append(_text(cx + col_w / 2, top + header_h - 2.2, name, 6.5, bold=True, align="center", colour=ink,
                         max_width_mm=col_w - 1.5, where=where))
        for j, value in enumerate(rows):
            cell = Rect(cx, top + header_h + j * cell_h, col_w, cell_h)
            in_range = zone.minimum_index <= value <= zone.die
            is_start = value == zone.start_index
            colour = START_ORANGE if is_start else ("#ffffff" if in_range else UNUSED)
            ops.append(RectOp(cell, Style(fill=colour, stroke=INK, stroke_width_mm=0.25),
                              name="table-start" if is_start else ("table-cell" if in_range else "table-unused")))
            if in_range:
                ops.append(_text(cell.x + 2.0, cell.y + cell_h / 2, str(value), 8.5, bold=is_start,
                                 baseline="middle", name=f"value:{name}:{value}"))
        footer = Rect(cx, top + header_h + len(rows) * cell_h, col_w, footer_h)
        ops.append(RectOp(footer, Style(fill="#ffffff", stroke=INK, stroke_width_mm=0.25)))
        ops.append(_text(footer.x + col_w / 2, footer.y + 4.0, f"d{zone.die}", 9, bold=True, align="center",
                         baseline="middle", name="die-name"))
        ops.append(_text(footer.x + col_w / 2, footer.y + 7.3, _("{n}-sided die").format(n=zone.die), 6.0,
                         align="center",
                         baseline="middle"))
    return Component("table-card", "bio-productivity index table", width, height, Scene(tuple(ops)),
                     rect_path(Rect(0, 0, width, height)))


# ------------------------------------------------------------------------------------------ turn counter


def turn_columns(config: Config) -> int:
    r = config.rules
    cols = r.stewardship_every if 3 <= r.stewardship_every <= 6 else 5
    return max(1, min(cols, r.turns))


def turn_year(config: Config, turn: int) -> int:
    r = config.rules
    return r.start_year + (turn - 1) * r.years_per_turn


TURN_TITLE_MM, TURN_SETUP_MM, TURN_LEGEND_MM, TURN_GAP_MM = 15.0, 14.0, 13.0, 2.0


def turn_grid(config: Config) -> tuple[int, int, float, float]:
    """(columns, rows, box width, box height) of the turn counter's boxes."""
    r = config.rules
    cols = turn_columns(config)
    rows = math.ceil(r.turns / cols)
    box_w, box_h, gap = 27.0, 25.0, TURN_GAP_MM
    room = MAX_CARD_MM[1] - 2 * CARD_PAD_MM - TURN_TITLE_MM - TURN_SETUP_MM - gap - TURN_LEGEND_MM
    if rows * (box_h + gap) - gap > room:  # a long game: ten boxes a row, shorter boxes
        cols = min(10, r.turns)
        rows = math.ceil(r.turns / cols)
        box_w = (MAX_CARD_MM[0] - 2 * CARD_PAD_MM - (cols - 1) * gap) / cols
        box_h = min(box_h, (room + gap) / rows - gap)
    return cols, rows, box_w, box_h


def turn_counter_card(config: Config) -> Component:
    r = config.rules
    cols, rows, box_w, box_h = turn_grid(config)
    gap = TURN_GAP_MM
    title_h, setup_h, legend_h = TURN_TITLE_MM, TURN_SETUP_MM, TURN_LEGEND_MM
    width = 2 * CARD_PAD_MM + cols * box_w + (cols - 1) * gap
    height = 2 * CARD_PAD_MM + title_h + setup_h + gap + rows * box_h + (rows - 1) * gap + legend_h
    k = min(1.0, box_w / 27.0, box_h / 25.0)  # text scale for smaller boxes
    ops: list[Op] = _card_frame(width, height)
    x0, y0 = CARD_PAD_MM, CARD_PAD_MM
    _ = current().gettext
    where = "the turn counter"
    ops.append(_text(width / 2, y0 + 4.5, _("Turn counter"), 11, bold=True, align="center"))
    ops.append(_text(width / 2, y0 + 10.0, _("One turn is a generation, about {n} years. When everyone has "
                                             "played:").format(n=r.years_per_turn), 6.3, align="center",
                     max_width_mm=width - 12, where=where))
    ops.append(_text(width / 2, y0 + 13.0, _("do any rolls marked in the marker's box, then move the turn marker "
                                             "on."), 6.3, align="center", max_width_mm=width - 12, where=where))
    setup = Rect(x0, y0 + title_h, width - 2 * CARD_PAD_MM, setup_h)
    ops.append(RectOp(setup, Style(fill="#e8eef8", stroke=INK, stroke_width_mm=0.3), name="setup-box"))
    ops.append(_text(setup.x + 3, setup.y + 5.5, _("SETUP PHASE"), 9, bold=True))
    ops.append(_text(setup.x + 3, setup.y + 10.5, _("{n} rounds: each player places one piece per round, next to "
                                                    "their own pieces where they can.").format(n=r.setup_rounds),
                     6.0, max_width_mm=setup.width - 6, where=where))
    steward_first = r.end_of_turn_order == "stewardship-first"
    grid_top = setup.bottom + gap
    for t in range(1, r.turns + 1):
        i = t - 1
        box = Rect(x0 + (i % cols) * (box_w + gap), grid_top + (i // cols) * (box_h + gap), box_w, box_h)
        steward = t % r.stewardship_every == 0
        tipping = t % r.tipping_point_every == 0
        ops.append(RectOp(box, Style(fill="#ffffff", stroke=INK, stroke_width_mm=0.3), name="turn-box"))
        ops.append(_text(box.x + 2.0 * k, box.y + 7.0 * k, str(t), 15 * k, bold=True, name=f"turn:{t}"))
        ops.append(_text(box.right - 2.0 * k, box.y + 5.0 * k, str(turn_year(config, t)), 6.5 * k, align="right",
                         name=f"year:{t}"))
        if t == r.turns:
            ops.append(_text(box.right - 2.0 * k, box.y + 9.5 * k, _("then score"), max(6.0, 5.5 * k), bold=True,
                             align="right"))
        bands: list[tuple[str, str, str]] = []
        if steward:
            bands.append((_("STEWARDSHIP"), STEWARD_COLOUR, "stewardship-mark"))
        if tipping:
            band = (_("TIPPING POINT"), TIPPING_COLOUR, "tipping-mark")
            if steward_first:
                bands.append(band)
            else:
                bands.insert(0, band)
        band_h = 5.0 * k
        for b, (label, colour, name) in enumerate(bands):
            strip = Rect(box.x + 0.6, box.bottom - 0.6 - band_h * (len(bands) - b), box_w - 1.2, band_h)
            ops.append(RectOp(strip, Style(fill=colour), name=name))
            ops.append(_text(strip.x + strip.width / 2, strip.y + band_h / 2, label, max(6.0, 5.2 * k), bold=True,
                             align="center", baseline="middle", max_width_mm=strip.width - 1.5, where=where))
    legend_y = height - CARD_PAD_MM - legend_h + 4.0
    dice = ", ".join(f"{n} d{z.die}" for n, z in config.zones.items())
    ops.append(RectOp(Rect(x0, legend_y - 2.6, 4.0, 3.2), Style(fill=STEWARD_COLOUR)))
    shared: dict[int, list[str]] = {}
    for n, z in config.zones.items():
        shared.setdefault(z.die, []).append(n)
    twice = " ".join(_("Roll the d{die} once for each of {zones}.").format(
        die=d, zones=reduce(lambda a, b: _("{a} and {b}").format(a=a, b=b), ns))
        for d, ns in shared.items() if len(ns) > 1)
    ops.append(_text(x0 + 5.5, legend_y, _("Stewardship (every {n} turns): roll each die ({dice}).").format(
        n=r.stewardship_every, dice=dice), 6.0, max_width_mm=width - 2 * CARD_PAD_MM - 6, where=where))
    ops.append(RectOp(Rect(x0, legend_y + 2.4, 4.0, 3.2), Style(fill=TIPPING_COLOUR)))
    ops.append(_text(x0 + 5.5, legend_y + 5.0, _("Tipping point (every {n} turns): roll the d{die} against the sum "
                                                 "of all the indices.").format(n=r.tipping_point_every,
                                                                               die=r.tipping_point_die), 6.0,
                     max_width_mm=width - 2 * CARD_PAD_MM - 6, where=where))
    order = (_("When both fall on one turn: stewardship first, then the tipping point.") if steward_first else
             _("When both fall on one turn: tipping point first, then stewardship."))
    ops.append(_text(x0, legend_y + 9.5, f"{order} {twice}".strip(), 6.0,
                     max_width_mm=width - 2 * CARD_PAD_MM, where=where))
    return Component("turn-counter", "turn counter", width, height, Scene(tuple(ops)),
                     rect_path(Rect(0, 0, width, height)))


def reference_cards(config: Config, markers: tuple[Component, ...] = (), turn_marker: Component | None = None
                    ) -> ComponentSet:
    """The bio-productivity index card with the zone markers under it, then the turn counter with its marker."""
    parts = (climate_table_card(config), *markers, turn_counter_card(config),
             *((turn_marker,) if turn_marker is not None else ()))
    return ComponentSet("card", current().gettext("Bio-productivity index table, markers and turn counter"),
                        parts, uniform=False,
                        row_starts=(1, 1 + len(markers)))
