"""The rules leaflet: a landscape sheet folded in half (two panels a side), typeset with reportlab platypus.

Every number comes from the template (``leaflet_text`` builds the words, ``leaflet_pdf`` sets them), so a
changed rule changes the leaflet. Rules of the complex game sit in yellow boxes that the simpler game skips.
DejaVu Sans is registered from the system's font files so the PDF embeds it; ``invariant=1`` keeps the bytes
the same from build to build.
"""

from __future__ import annotations

import io
import re
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    Image,
    KeepTogether,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from boardgen.config import Config
from boardgen.errors import DataError
from boardgen.render.imposition import Paper

YELLOW = colors.HexColor("#fff2a8")
INK = colors.HexColor("#1a1a1a")
FONT = "DejaVuSans"
_FACES = {"": "DejaVu Sans", "-Bold": "DejaVu Sans:bold", "-Oblique": "DejaVu Sans:oblique",
          "-BoldOblique": "DejaVu Sans:bold:oblique"}
_FALLBACK_DIR = Path("/usr/share/fonts/truetype/dejavu")


@lru_cache(maxsize=1)
def register_fonts() -> str:
    """Register DejaVu Sans (4 faces) with reportlab from fontconfig's files; returns the family name."""
    paths: dict[str, str] = {}
    for suffix, pattern in _FACES.items():
        path = ""
        try:
            path = subprocess.run(["fc-match", "-f", "%{file}", pattern], capture_output=True, text=True,
                                  check=True, timeout=10).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            path = ""
        if not path.endswith(".ttf") or "DejaVuSans" not in Path(path).name:
            candidate = _FALLBACK_DIR / f"DejaVuSans{suffix}.ttf"
            path = str(candidate) if candidate.is_file() else ""
        if not path:
            raise DataError(f"font DejaVu Sans{suffix} not found (install fonts-dejavu-core)")
        paths[suffix] = path
    for suffix, path in paths.items():
        pdfmetrics.registerFont(TTFont(FONT + suffix, path))
    pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=FONT + "-Bold", italic=FONT + "-Oblique",
                                  boldItalic=FONT + "-BoldOblique")
    return FONT


# ------------------------------------------------------------------------------------------ the words


@dataclass(frozen=True)
class Block:
    """A piece of the leaflet: a heading, paragraphs, an optional table; ``complex`` blocks are shaded."""

    heading: str
    paragraphs: tuple[str, ...] = ()
    complex: bool = False
    table: tuple[tuple[str, ...], ...] = ()
    table_colours: tuple[str, ...] = ()  # first-column swatch colours for the zone key
    image: str = ""  # "map": the board picture goes here


def _zone_list(config: Config) -> list[tuple[str, object]]:
    return list(config.zones.items())


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def harvest_example(config: Config) -> tuple[list[tuple[str, int, int]], int, int]:
    """A setup-sized holding over the three richest start zones: ([(zone, pieces, index)], total, chips)."""
    r = config.rules
    zones = sorted(config.zones.items(), key=lambda kv: (-kv[1].start_index, list(config.zones).index(kv[0])))[:3]
    n = r.setup_rounds
    split = [n // 3 + (1 if i < n % 3 else 0) for i in range(3)]
    rows = [(name, k, z.start_index) for (name, z), k in zip(zones, split, strict=True) if k > 0]
    total = sum(k * idx for _, k, idx in rows)
    return rows, total, total // r.harvest_divisor


def scoring_example(config: Config) -> tuple[list[tuple[str, int, int, int, int]], int, str, str]:
    """A final position: per zone (zone, pieces, end index, badge bonus, final index), the score, and which
    zones carry badges (the example player's and one rival's)."""
    r = config.rules
    names = list(config.zones)
    own_badge = names[1 % len(names)]
    rival_badge = names[3 % len(names)]
    pattern = [2, r.badge_threshold, 3, 4, 1, 2, 3, 1]
    rows = []
    for i, name in enumerate(names):
        z = config.zones[name]
        pieces = pattern[i % len(pattern)]
        bonus = z.badge_value if name in (own_badge, rival_badge) else 0
        rows.append((name, pieces, z.start_index, bonus, z.start_index + bonus))
    score = sum(p * f for _, p, _, _, f in rows)
    return rows, score, own_badge, rival_badge


def leaflet_blocks(config: Config, component_counts: dict[str, int] | None = None) -> list[Block]:
    """The leaflet's content, in reading order, every number from ``config``."""
    r = config.rules
    zones = _zone_list(config)
    counts = component_counts or {}
    last_year = r.start_year + r.turns * r.years_per_turn
    steward_turns = [t for t in range(1, r.turns + 1) if t % r.stewardship_every == 0]
    tipping_turns = [t for t in range(1, r.turns + 1) if t % r.tipping_point_every == 0]
    start_sum = sum(z.start_index for _, z in zones)
    blocks: list[Block] = []

    blocks.append(Block(config.title, (
        "A world map game for philanthropists. Every player is one of several equally rich billionaires who "
        "wants to do the most good. Putting a piece on a land cell of the map stands for funding the ecology "
        "and the people of that place: forests in the tropics, water and farming in dry lands, and so on.",
        f"After {_plural(r.turns, 'turn')} (one turn is a generation of about {r.years_per_turn} years, so the "
        f"game runs from {r.start_year} to about {last_year}) the player who has built the most wellbeing wins. "
        "Money left over at the end is worth nothing, so invest it.",
        f"For {r.min_players} to {r.max_players} players; the game is made for {r.players}. If your group does not "
        "split well, two people can share one colour as a team.",
    )))
    key_rows = [("", "Zone", "Symbol", "Die", "Index", "Start")]
    for name, z in zones:
        key_rows.append(("", name, z.symbol, f"d{z.die}", f"{z.minimum_index}–{z.die}", str(z.start_index)))
    blocks.append(Block("The map and its zones", (
        f"The board shows about {config.hexes.target_cells} land cells in a grid of hexagons over the world's "
        "coastlines. Each cell belongs to one climate zone, shown by its colour and by a small symbol. "
        "Only one piece may stand on a cell.",
        "Every zone has a bio-productivity index: how much good an investment there does. The climate table "
        "(on the board and on its own card) tracks it with one marker per zone. Each zone has a die whose number "
        "of sides is the highest value its index can reach.",
    ), table=tuple(key_rows), table_colours=tuple(z.colour for _, z in zones), image="map"))

    contents = [
        "a world map board in nine jigsaw sections (there is only one way they fit)",
        f"{r.pieces_per_player} pieces for each of {r.max_players} players, numbered P1 to P{r.max_players}, each "
        "player with their own colour and shape",
        f"{r.bank_chips} chips worth 1 billion each",
        f"{len(zones) * r.max_players} philanthropy badges ({r.max_players} per zone)",
        f"{len(zones)} zone markers and a turn marker, the climate table card and the turn counter",
        "paper dice: d4, d6, d8, d10, d12 and d20 (or use real ones)",
    ]
    if counts:
        contents.append("sheets to print: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    blocks.append(Block("In the box", tuple("• " + c for c in contents)))
    blocks.append(Block("Complex and simple game", (
        "Rules in yellow boxes belong to the full game (chips, harvests, investments and badges). Leave them out "
        f"for a quicker game: every player simply gets {_plural(r.setup_rounds, 'piece')} for the setup phase, "
        + ("and still harvests and invests." if r.simple_harvest else "and after that only moves them.")
        + f" This edition is set up for the {r.variant} game.",
    )))

    blocks.append(Block("Setting up", (
        "Lay out the board. Put each zone's marker on its orange start box in the climate table: "
        + ", ".join(f"{n} {z.start_index}" for n, z in zones) + ". Put the turn marker on the setup box of the "
        "turn counter.",
        f"Setup phase: {_plural(r.setup_rounds, 'round')}. In each round every player, in turn order, places one "
        "of their pieces on a free cell. The first piece may go anywhere; each later one must go next to one of "
        "your own pieces if any such cell is free, and anywhere otherwise.",
    )))
    blocks.append(Block("Chips and the bank", (
        f"Each player starts with {r.starting_chips} chips (1 billion each); the other "
        f"{r.bank_chips - r.players * r.starting_chips} of the {r.bank_chips} chips are the bank when "
        f"{r.players} play. One chip buys one piece, in the setup phase too: hand the chip to the bank as you "
        "place the piece.",
        ("The bank pays harvests only while it has chips; when it runs short, a player gets what is left."
         if r.harvest_capped_by_bank else "If the bank runs out, keep count on paper."),
    ), complex=True))

    move_rule = ("Move one of your pieces (or pass)" if r.move_optional else "Move one of your pieces")
    blocks.append(Block("A turn", (
        "Players take their turns one after the other. On your turn:",
        f"<b>a) Move.</b> {move_rule} to a free cell next to another of your pieces. If no such cell is free, "
        "it may go to any free cell.",
        "The same placing rule holds all game: next to your own pieces if you can, anywhere free if you cannot. "
        "When everyone has played, move the turn marker on; stewardship and tipping points come at the end of "
        "the turns marked on the counter.",
    )))
    rows, total, chips = harvest_example(config)
    parts = " + ".join(f"{k} × {idx}" for _, k, idx in rows)
    where = ", ".join(f"{k} in {name}" for name, k, _ in rows)
    blocks.append(Block("b) Harvest, c) Invest", (
        "<b>b) Harvest.</b> Add up the current index of the zone under each of your pieces. Divide the sum by "
        f"{r.harvest_divisor} and round down: that is how many chips the bank pays you. Your pieces stay where "
        "they are.",
        f"Example: right after setup you have {r.setup_rounds} pieces, {where}. At the start values the sum is "
        f"{parts} = {total}, and {total} ÷ {r.harvest_divisor} rounded down is {chips} "
        f"{'chip' if chips == 1 else 'chips'}.",
        f"<b>c) Invest.</b> Pay one chip to the bank for each new piece you put on the board (at most "
        f"{_plural(r.investments_per_turn, 'piece')} a turn), next to one of your own pieces where possible."
        + (" With no pieces left in your supply you cannot invest; keep the chips." if r.pieces_limited else ""),
    ), complex=True))
    lost = ("You lose a badge again if you drop below that many pieces in its zone."
            if r.badges_can_be_lost else "Once won, a badge is kept to the end.")
    blocks.append(Block("Philanthropy badges", (
        f"When you have at least {r.badge_threshold} pieces in one zone, take that zone's badge. " + lost,
        "At the end, each badge raises its zone's index by the number on it ("
        + ", ".join(f"{n} +{z.badge_value}" for n, z in zones)
        + ") for everyone's score; badges of several players add up, and the index may pass its usual top value.",
    ), complex=True))

    every = "every turn" if r.stewardship_every == 1 else f"every {r.stewardship_every} turns"
    blocks.append(Block("Stewardship", (
        f"At the end of {every} (turns {', '.join(map(str, steward_turns))}) the climate changes. For each zone, "
        "roll its die: " + ", ".join(f"d{z.die} for {n}" for n, z in zones) + ".",
        "If the roll is higher than the zone's index, the index goes up one box; if lower, down one box; if "
        "equal, it stays. An index never goes above its die or below its lowest box.",
        "Why every few turns? The original rules mention both a roll after every turn and a roll after every "
        f"fifth turn. This edition rolls {every} (the template's stewardship_every), which keeps the climate "
        "moving without drowning the game in dice. Set it to 1 for a wilder climate.",
    )))
    always_low = start_sum > r.tipping_point_die
    order = ("stewardship first, then the tipping point" if r.end_of_turn_order == "stewardship-first"
             else "the tipping point first, then stewardship")
    blocks.append(Block("Tipping points", (
        f"At the end of every {r.tipping_point_every}th turn (turns {', '.join(map(str, tipping_turns))}) roll the "
        f"d{r.tipping_point_die} and compare it with the sum of all {len(zones)} indices. Higher: every index "
        "goes up one; lower: every index goes down one; equal: nothing happens. Indices already at their top "
        "or bottom stay there.",
        f"At the start the indices add up to {start_sum}"
        + (f", more than a d{r.tipping_point_die} can roll: a tipping point can only push the climate down "
           f"(or leave it) until the indices add up to {r.tipping_point_die - 1} or less." if always_low else "."),
        f"When stewardship and a tipping point fall on the same turn, do {order}.",
    )))
    score_rows, score, own_badge, rival_badge = scoring_example(config)
    table = [("Zone", "Pieces", "Index", "Badges", "Final", "Points")]
    for name, pieces, end, bonus, final in score_rows:
        table.append((name, str(pieces), str(end), f"+{bonus}" if bonus else "", str(final), str(pieces * final)))
    table.append(("Total", str(sum(p for _, p, *_ in score_rows)), "", "", "", str(score)))
    blocks.append(Block("End of the game and scoring", (
        f"The game ends after turn {r.turns} (or at a point agreed before you start). Add the badges to the "
        "indices (yellow rule). Then each player scores, for every zone, their number of pieces there times "
        "that zone's final index. Most points wins; a tie is a shared win.",
        f"Example: suppose the indices end where they started, you hold the {own_badge} badge and another player "
        f"holds the {rival_badge} badge. Both zones rise by their badge values for every player:",
    ), table=tuple(table)))
    blocks.append(Block("Timeline", (
        f"The turn counter shows the setup phase and turns 1 to {r.turns}, with the year each generation starts "
        f"({r.start_year}, {r.start_year + r.years_per_turn}, …). Stewardship turns and tipping-point turns are "
        "marked on it, so nobody forgets a roll.",
    )))
    return blocks


def leaflet_text(config: Config) -> str:
    """The leaflet's words as plain text (tests, README)."""
    out: list[str] = []
    for b in leaflet_blocks(config):
        out.append(b.heading)
        out.extend(re.sub(r"<[^>]+>", "", p) for p in b.paragraphs)
        out.extend(" | ".join(row) for row in b.table)
    return "\n".join(out)


# ------------------------------------------------------------------------------------------ typesetting


def _styles() -> dict[str, ParagraphStyle]:
    family = register_fonts()
    base = ParagraphStyle("body", fontName=family, fontSize=8.2, leading=10.6, textColor=INK, spaceAfter=3)
    return {
        "body": base,
        "title": ParagraphStyle("title", base, fontName=family + "-Bold", fontSize=17, leading=21, spaceAfter=6),
        "h": ParagraphStyle("h", base, fontName=family + "-Bold", fontSize=10.5, leading=13, spaceBefore=5,
                            spaceAfter=3),
        "cell": ParagraphStyle("cell", base, fontSize=7.2, leading=8.8, spaceAfter=0),
        "note": ParagraphStyle("note", base, fontSize=7, leading=9, textColor=colors.HexColor("#555555")),
    }


def _block_flowables(block: Block, styles: dict[str, ParagraphStyle], width: float, first: bool,
                     map_png: bytes | None, map_aspect: float) -> list[Flowable]:
    heading_style = styles["title"] if first else styles["h"]
    inner_width = width - (8 if block.complex else 0)
    heading = Paragraph(block.heading, heading_style)
    paragraphs: list[Flowable] = [Paragraph(p, styles["body"]) for p in block.paragraphs]
    picture: list[Flowable] = []
    if block.image == "map" and map_png is not None:
        img_w = inner_width * 0.86
        picture = [Image(io.BytesIO(map_png), width=img_w, height=img_w * map_aspect, hAlign="CENTER"),
                   Spacer(1, 3)]
    table: list[Flowable] = [_table(block, styles, inner_width)] if block.table else []
    items: list[Flowable] = [heading, *paragraphs, *picture, *table]
    if not block.complex:
        # a heading never ends a panel; a table stays with the paragraph that leads into it; a picture flows
        head = [KeepTogether([heading, *paragraphs[:1]])]
        if picture:
            return [*head, *paragraphs[1:], *picture, *([KeepTogether(table)] if table else [])]
        if table and len(paragraphs) > 1:
            return [*head, *paragraphs[1:-1], KeepTogether([paragraphs[-1], *table])]
        return [*head, *paragraphs[1:], *table]
    box = Table([[items]], colWidths=[width])
    box.setStyle(TableStyle([("BACKGROUND", (0, 0), (-1, -1), YELLOW), ("FONTNAME", (0, 0), (-1, -1), FONT),
                             ("LEFTPADDING", (0, 0), (-1, -1), 4),
                             ("RIGHTPADDING", (0, 0), (-1, -1), 4), ("TOPPADDING", (0, 0), (-1, -1), 1),
                             ("BOTTOMPADDING", (0, 0), (-1, -1), 3)]))
    return [box, Spacer(1, 4)]


def _table(block: Block, styles: dict[str, ParagraphStyle], width: float) -> Table:
    data = [[Paragraph(c if i else f"<b>{c}</b>", styles["cell"]) for c in row] for i, row in enumerate(block.table)]
    ncols = len(block.table[0])
    if block.table_colours:
        widths = [0.06 * width, 0.27 * width] + [0.67 * width / (ncols - 2)] * (ncols - 2)
    else:
        widths = [0.28 * width] + [0.72 * width / (ncols - 1)] * (ncols - 1)
    t = Table(data, colWidths=widths, hAlign="LEFT", repeatRows=1)
    style = [("FONTNAME", (0, 0), (-1, -1), FONT), ("GRID", (0, 0), (-1, -1), 0.4, colors.HexColor("#999999")),
             ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
             ("TOPPADDING", (0, 0), (-1, -1), 1.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
             ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#eeeeee"))]
    for i, colour in enumerate(block.table_colours, start=1):
        style.append(("BACKGROUND", (0, i), (0, i), colors.HexColor(colour)))
    t.setStyle(TableStyle(style))
    return t


def _decorate(paper: Paper, margin_mm: float, title: str):
    def on_page(canvas, doc) -> None:
        w, h = paper.width_mm * mm, paper.height_mm * mm
        canvas.saveState()
        canvas.setTrimBox((0, 0, w, h))
        canvas.setBleedBox((0, 0, w, h))
        # fold marks at the middle, top and bottom
        canvas.setLineWidth(0.3)
        canvas.setDash(2, 2)
        canvas.line(w / 2, h - 4 * mm, w / 2, h - 9 * mm)
        canvas.line(w / 2, 4 * mm, w / 2, 9 * mm)
        canvas.setDash()
        # 100 mm scale ruler, bottom left
        x0, y0 = margin_mm * mm, 9 * mm
        canvas.setLineWidth(0.3)
        canvas.line(x0, y0, x0 + 100 * mm, y0)
        for k in range(0, 101):
            tick = 2.6 if k % 10 == 0 else 1.8 if k % 5 == 0 else 1.0
            canvas.line(x0 + k * mm, y0, x0 + k * mm, y0 + tick * mm)
        canvas.setFont(FONT, 5)
        for k in (0, 50, 100):
            canvas.drawCentredString(x0 + k * mm, y0 + 3.2 * mm, str(k))
        canvas.setFont(FONT, 6)
        canvas.drawString(x0, y0 - 3 * mm, "Print at 100% / actual size: this bar must measure 100 mm (3.94 in).")
        canvas.drawRightString(w - margin_mm * mm, y0 - 3 * mm, f"{title} · rules · page {doc.page}")
        canvas.restoreState()

    return on_page


def leaflet_pdf(config: Config, paper: Paper, map_png: bytes | None = None, map_aspect: float = 2 / 3,
                component_counts: dict[str, int] | None = None) -> tuple[bytes, int]:
    """The leaflet on a landscape ``paper``, two panels a side: (pdf bytes, page count)."""
    styles = _styles()
    sheet = paper.landscape()
    margin, gutter, top, bottom = 12.0, 10.0, 11.0, 16.0
    panel_w = (sheet.width_mm - 2 * margin - 2 * gutter) / 2
    panel_h = sheet.height_mm - top - bottom
    frames = [Frame(margin * mm, bottom * mm, panel_w * mm, panel_h * mm, id="left", leftPadding=0,
                    rightPadding=0, topPadding=0, bottomPadding=0),
              Frame((sheet.width_mm / 2 + gutter) * mm, bottom * mm, panel_w * mm, panel_h * mm, id="right",
                    leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)]
    buf = io.BytesIO()
    doc = BaseDocTemplate(buf, pagesize=(sheet.width_mm * mm, sheet.height_mm * mm), invariant=1, initialFontName=FONT,
                          title=f"{config.title}: rules", author="boardgen", creator="boardgen",
                          subject=f"{config.edition} rules leaflet ({paper.name})")
    doc.addPageTemplates([PageTemplate("panels", frames, onPage=_decorate(sheet, margin, config.title))])
    story: list[Flowable] = []
    legend = Table([[Paragraph("Yellow boxes: rules of the full game. Skip them for the simpler game.",
                               styles["cell"])]], colWidths=[panel_w * mm])
    legend.setStyle(TableStyle([("BACKGROUND", (0, 0), (-1, -1), YELLOW), ("FONTNAME", (0, 0), (-1, -1), FONT)]))
    for i, block in enumerate(leaflet_blocks(config, component_counts)):
        story.extend(_block_flowables(block, styles, panel_w * mm, i == 0, map_png, map_aspect))
        if i == 0:
            story.extend([Spacer(1, 2), legend, Spacer(1, 4)])
    rl_config.useA85 = 0  # binary image streams: smaller and faster than ASCII85 (only the leaflet uses reportlab)
    doc.build(story)
    data = buf.getvalue()
    return data, doc.page


__all__: Sequence[str] = ["leaflet_blocks", "leaflet_pdf", "leaflet_text", "register_fonts"]
