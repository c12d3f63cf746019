"""The BETTER Life board: the track of typed spaces as a loop round the edge (Start in the top-left corner, End
of Year just below it, so a round is one lap), and inside it the year track, the Policy meter, the Biodiversity
Loss meter, the card places (policy of the year, event pile, event discards) and the Biodiversity Fund, the
communal IP pool and the IP reserve. The engine and the art read the same ``BoardGraph``
(``boardgen.layout.spaces.track``); ``board_declaration`` declares the board for the kit's shared board stages
(``boardgen.kit.board``), whose seams run between the spaces.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING

from boardgen.cards.deck import card_size, draw_text, fit_text
from boardgen.cards.icons import ICONS, draw_icon, register_icon
from boardgen.errors import LayoutError
from boardgen.games.better_life.schema import BetterLifeTemplate
from boardgen.i18n import DEFAULT_LANGUAGE, N_, Translator, current, in_language, translator
from boardgen.layout.spaces import BoardGraph, SpaceStyle, render, track
from boardgen.plugin import BuildContext
from boardgen.render.cairo_backend import Page, fit_font, text_width_mm
from boardgen.render.scene import (
    Circle,
    Font,
    Group,
    Op,
    Path,
    Polygon,
    Rect,
    RectOp,
    Scene,
    Style,
    Text,
    ink_on,
    mix,
)

if TYPE_CHECKING:
    from boardgen.kit.board import BoardDeclaration

MARGIN_MM = 12.0
INK = "#1a1a1a"
GREEN = "#2e7d32"
RED = "#c62828"
PAPER = "#fbf8ef"
COIN = "#e0a91b"
KIND_NAMES = {"start": N_("Start"), "skip": N_("Skip turn"), "ip": N_("+1 IP"), "plus-one": N_("Next roll +1"),
              "bonus": N_("Roll again"), "empty": N_("Empty"), "fund": N_("Pay the Fund"),
              "payout": N_("Fund payout"), "event": N_("Event"), "end-of-year": N_("End of Year")}
ROLE_NAMES = (N_("University"), N_("Industry"), N_("NGO"), N_("Municipality"), N_("Citizens"))
"""The shipped template's role names, in the catalogs; a role the template names itself prints its own name."""
BAND_NAMES = {"weak": N_("weak"), "semi": N_("semi"), "success": N_("success")}


def role_name(name: str, tr: Translator) -> str:
    """A role's printed name in ``tr``'s language (the template's own name when the catalog does not know it)."""
    return tr.gettext(name)


def band_name(name: str, tr: Translator) -> str:
    """A vote band's printed name: weak, semi, success."""
    return tr.gettext(BAND_NAMES.get(name, name))
KIND_FILLS = {"start": "#cfe8cf", "skip": "#e0e0e0", "ip": "#fff3c4", "plus-one": "#dbeafe", "bonus": "#e9d5ff",
              "empty": "#f4f1e8", "fund": "#c8e6c9", "payout": "#a5d6a7", "event": "#ffcc80",
              "end-of-year": "#90caf9"}
KIND_ICONS = {"start": "bl-flag", "skip": "bl-skip", "ip": "coin", "plus-one": "bl-plus", "bonus": "die",
              "empty": "", "fund": "bl-fund", "payout": "bl-fund-out", "event": "bl-event", "end-of-year": "bl-flag"}


# ------------------------------------------------------------------------------------------ icons


def _skip(x: float, y: float, s: float, colour: str) -> list[Op]:
    w = s * 0.22
    return [RectOp(Rect(x + s * 0.2, y + s * 0.15, w, s * 0.7), Style(fill=colour), "icon-skip"),
            RectOp(Rect(x + s * 0.58, y + s * 0.15, w, s * 0.7), Style(fill=colour), "icon-skip")]


def _plus(x: float, y: float, s: float, colour: str) -> list[Op]:
    t = s * 0.2
    return [RectOp(Rect(x + (s - t) / 2, y + s * 0.12, t, s * 0.76), Style(fill=colour), "icon-plus"),
            RectOp(Rect(x + s * 0.12, y + (s - t) / 2, s * 0.76, t), Style(fill=colour), "icon-plus")]


def _event(x: float, y: float, s: float, colour: str) -> list[Op]:
    tri = ((x + s / 2, y + s * 0.06), (x + s * 0.97, y + s * 0.9), (x + s * 0.03, y + s * 0.9))
    ink = "#1a1a1a"
    return [Polygon(tri, Style(fill=colour, stroke=ink, stroke_width_mm=max(0.1, s * 0.05), line_join="round"),
                    name="icon-event"),
            RectOp(Rect(x + s * 0.455, y + s * 0.34, s * 0.09, s * 0.3), Style(fill=ink), "icon-event"),
            Circle(x + s / 2, y + s * 0.76, s * 0.055, Style(fill=ink), "icon-event")]


def _flag(x: float, y: float, s: float, colour: str) -> list[Op]:
    return [RectOp(Rect(x + s * 0.2, y + s * 0.08, s * 0.07, s * 0.86), Style(fill=colour), "icon-flag"),
            Polygon(((x + s * 0.27, y + s * 0.1), (x + s * 0.88, y + s * 0.28), (x + s * 0.27, y + s * 0.48)),
                    Style(fill=colour), name="icon-flag")]


def _jar(x: float, y: float, s: float, colour: str) -> list[Op]:
    jar = (("M", x + s * 0.22, y + s * 0.34), ("L", x + s * 0.78, y + s * 0.34), ("L", x + s * 0.72, y + s * 0.96),
           ("L", x + s * 0.28, y + s * 0.96), ("Z",))
    return [Path(jar, Style(fill="#ffffff", stroke=colour, stroke_width_mm=max(0.1, s * 0.06), line_join="round"),
                 "icon-fund"), *draw_icon("leaf", x + s * 0.33, y + s * 0.5, s * 0.34, GREEN)]


def _fund_in(x: float, y: float, s: float, colour: str) -> list[Op]:
    """Pay the Fund: a gold arrow pointing down into the Fund's jar."""
    arrow = ((x + s * 0.26, y + s * 0.0), (x + s * 0.74, y + s * 0.0), (x + s * 0.5, y + s * 0.3))
    edge = Style(fill=COIN, stroke=colour, stroke_width_mm=max(0.08, s * 0.03), line_join="round")
    return [*_jar(x, y, s, colour), Polygon(arrow, edge, name="icon-fund-in")]


def _fund_out(x: float, y: float, s: float, colour: str) -> list[Op]:
    """Fund payout: a gold arrow pointing up out of the Fund's jar."""
    arrow = ((x + s * 0.26, y + s * 0.3), (x + s * 0.74, y + s * 0.3), (x + s * 0.5, y + s * 0.0))
    edge = Style(fill=COIN, stroke=colour, stroke_width_mm=max(0.08, s * 0.03), line_join="round")
    return [*_jar(x, y, s, colour), Polygon(arrow, edge, name="icon-fund-out")]


def register_icons() -> None:
    if "bl-skip" not in ICONS:
        register_icon("bl-skip", _skip)
        register_icon("bl-plus", _plus)
        register_icon("bl-event", _event, "#ffb300")
        register_icon("bl-flag", _flag)
        register_icon("bl-fund", _fund_in)
        register_icon("bl-fund-out", _fund_out)


# ------------------------------------------------------------------------------------------ layout


@dataclass(frozen=True)
class TrackBoard:
    graph: BoardGraph
    width_mm: float
    height_mm: float
    inner: Rect  # the room inside the loop

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(s.kind for s in self.graph.spaces)


def board_size(config: BetterLifeTemplate) -> tuple[float, float]:
    """A loop of Start + the track's spaces, ``kit.board_columns`` along the top, square spaces."""
    n = len(config.track.spaces) + 1
    s = config.kit.space_mm
    cols = config.kit.board_columns
    side = max(2, (n - 2 * cols + 1) // 2 + 2)  # cells per side column, corners included
    return cols * s + 2 * MARGIN_MM, side * s + 2 * MARGIN_MM


def track_board(config: BetterLifeTemplate) -> TrackBoard:
    w, h = board_size(config)
    kinds = ["start", *config.track.spaces]
    labels = [translator(config).gettext("Start"), *(str(i) for i in range(1, len(kinds)))]
    graph = track(kinds, w, h, "loop", margin_mm=MARGIN_MM, labels=labels)
    xs = [s.bounds_mm for s in graph.spaces]
    s = config.kit.space_mm
    inner = Rect(MARGIN_MM + s, MARGIN_MM + s, w - 2 * (MARGIN_MM + s), h - 2 * (MARGIN_MM + s))
    assert xs
    return TrackBoard(graph, w, h, inner)


def space_styles(config: BetterLifeTemplate) -> dict[str, SpaceStyle]:
    tr = translator(config)
    styles = {k: SpaceStyle(fill=KIND_FILLS[k], icon=KIND_ICONS[k], name=tr.gettext(KIND_NAMES[k]), label_pt=7.0,
                            icon_share=0.4)
              for k in KIND_NAMES}
    for role in config.roles:
        styles[f"role:{role.key}"] = SpaceStyle(fill=mix(role.colour, "#ffffff", 0.55), icon="",
                                                name=role_name(role.name, tr),
                                                label_pt=7.0)
    return styles


def _box(r: Rect, fill: str, text: str, font: Font, name: str, stroke: str = INK, width: float = 0.3) -> list[Op]:
    ops: list[Op] = [RectOp(r, Style(fill=fill, stroke=stroke, stroke_width_mm=width), name)]
    if text:
        f = fit_font(text, font, r.width - 1.5)
        ops.append(Text(r.x + r.width / 2, r.y + r.height / 2, text, f, ink_on(fill), align="center",
                        baseline="middle", name=f"{name}-text"))
    return ops


def _label(x: float, y: float, text: str, size: float = 8.0, bold: bool = True, colour: str = INK,
           align: str = "left", width: float | None = None) -> Text:
    """A board label; with ``width`` (mm) it is shrunk to fit (never under 6 pt), else a LayoutError naming it."""
    font = Font(size_pt=size, bold=bold)
    if width is not None:
        font = _fitted(text, font, width)
    return Text(x, y, text, font, colour, align=align, baseline="alphabetic",  # type: ignore[arg-type]
                name="board-label")


def _fitted(text: str, font: Font, width: float, room: float | None = None) -> Font:
    """``font`` shrunk until ``text`` fits ``width`` mm (``fit_font``); a LayoutError naming the text when even
    6 pt needs more than ``room`` mm (default ``width``, and a hair for the size's rounding): a translation too
    long for its place on the board."""
    fitted = fit_font(text, font, width)
    need = text_width_mm(text, fitted)
    if current().language == DEFAULT_LANGUAGE:  # the code's own words, drawn as every earlier board drew them
        return fitted                           # (a narrow board's longest label reaches into its margin)
    if need > (width if room is None else room) + 0.2:
        raise LayoutError(f"the board label {text!r} needs {need:.0f} mm at {fitted.size_pt:g} pt, its place is "
                          f"{width if room is None else room:.0f} mm; use shorter words")
    return fitted


def inner_art(config: BetterLifeTemplate, board: TrackBoard) -> tuple[list[Op], list[Rect]]:
    """The meters, year track and places inside the loop, and the rectangles jigsaw knobs must avoid."""
    c = config
    tr = translator(config)
    _ = tr.gettext
    r = board.inner.inset(5.0)
    ops: list[Op] = [RectOp(board.inner, Style(fill=PAPER), "inner")]
    avoid: list[Rect] = []
    y = r.y
    years_w = min(17.0, (r.width * 0.42) / (c.rounds + 1)) * (c.rounds + 1)
    head_w = r.width - years_w - 4.0
    ops.append(Text(r.x, y + 7.5, c.title, _fitted(c.title, Font(size_pt=22, bold=True), head_w), GREEN,
                    name="board-title"))
    ops.append(_label(r.x, y + 13.5, _("{start}-{end} · policies of the EU Biodiversity Strategy "
                      "for 2030").format(start=c.years.start, end=c.years.end), 7.5, False, width=head_w))
    # year track, top right
    years = [c.years.start + k * c.years.per_round for k in range(c.rounds + 1)]
    bw = min(17.0, (r.width * 0.42) / len(years))
    x0 = r.right - bw * len(years)
    ops.append(_label(x0, y + 3.0, _("Year"), 7.0))
    for k, year in enumerate(years):
        box = Rect(x0 + k * bw, y + 4.5, bw, 10.0)
        ops += _box(box, "#e3f2fd" if k else "#bbdefb", str(year), Font(size_pt=8, bold=True), "year-box")
    avoid.append(Rect(x0, y, bw * len(years), 15.0))
    y += 19.0
    # policy meter
    n = c.meters.policy_max + 1
    mw = r.width / n
    ops.append(_label(r.x, y + 3.0, _("Policy meter: reach {goal} by {end}, or everyone "
                      "loses").format(goal=c.meters.policy_goal, end=c.years.end), 7.5, width=r.width))
    for k in range(n):
        goal = k == c.meters.policy_goal
        fill = "#a5d6a7" if k >= c.meters.policy_goal else "#e8f5e9"
        box = Rect(r.x + k * mw, y + 4.5, mw, 11.0)
        ops += _box(box, fill, str(k), Font(size_pt=9, bold=goal), "policy-box", width=0.6 if goal else 0.3)
        if goal:
            ops.append(Text(box.x + mw / 2, box.bottom + 3.2, _("goal"), Font(size_pt=6.5, bold=True), GREEN,
                            align="center", name="goal-text"))
    avoid.append(Rect(r.x, y, r.width, 20.0))
    y += 21.0
    # biodiversity loss meter
    n = c.meters.loss_limit + 1
    lw = min(30.0, r.width / n)
    ops.append(_label(r.x, y + 3.0, _("Biodiversity loss: at {limit} the game ends and everyone "
                      "loses").format(limit=c.meters.loss_limit), 7.5, width=lw * n + 4.0))
    for k in range(n):
        last = k == c.meters.loss_limit
        fill = RED if last else mix("#ffcdd2", "#ffffff", 1 - k / max(1, n - 1))
        box = Rect(r.x + k * lw, y + 4.5, lw, 11.0)
        ops += _box(box, fill, _("all lose") if last else str(k), Font(size_pt=9, bold=True), "loss-box")
    avoid.append(Rect(r.x, y, lw * n, 16.0))
    # vote bands beside the loss meter
    bx = r.x + lw * n + 6.0
    lines = [_("{pool} IP: {band}, policy {policy}, loss {loss}").format(
        pool=f"{b.min_ip}{'+' if i == 2 else f'-{c.votes[i + 1].min_ip - 1}'}", band=band_name(b.name, tr),
        policy=f"{b.policy:+d}", loss=f"{b.loss:+d}") for i, b in enumerate(c.votes)]
    ops.append(_label(bx, y + 3.0, _("End of Year vote (pool total)"), 7.0, width=r.right - bx))
    for i, line in enumerate(lines):
        ops.append(_label(bx, y + 7.5 + i * 3.6, line, 6.5, False, width=r.right - bx))
    y += 21.0
    # card places and the IP areas
    cw, ch = card_size(c.kit.card)
    room = r.bottom - y - 5.0
    scale = min(1.0, room / ch)
    cw, ch = cw * scale, ch * scale
    places = ["Policy of the year", "Event pile", "Event discards"]
    shown = {"Policy of the year": _("Policy of the year"), "Event pile": _("Event pile"),
             "Event discards": _("Event discards")}
    gap = 4.0
    for k, name in enumerate(places):
        box = Rect(r.x + k * (cw + gap), y + 4.0, cw, ch)
        ops.append(_label(box.x, y + 2.8, shown[name], 7.0, width=cw))
        ops.append(RectOp(box, Style(fill="#ffffff", stroke="#8d8d8d", stroke_width_mm=0.4, dash_mm=(2.0, 1.2)),
                          "card-place"))
        icon = {"Policy of the year": "leaf", "Event pile": "bl-event", "Event discards": "bl-event"}[name]
        ops += draw_icon(icon, box.x + cw / 2 - 6, box.y + ch / 2 - 6, 12.0, "#c8c8c8")
        avoid.append(Rect(box.x, y, cw, ch + 4.0))
    ax = r.x + len(places) * (cw + gap)
    aw = r.right - ax
    # TRANSLATORS: the names of the board's areas stand in narrow boxes (about 22 mm): keep them short
    areas = [(tr.pgettext("board area", "Biodiversity Fund"), "#c8e6c9",
              _("pay in on a Fund space; a Payout space takes it all")),
             (tr.pgettext("board area", "Communal IP pool"), "#fff3c4",
              _("bids are revealed here, counted, then go to the reserve")),
             (_("IP reserve"), "#eeeeee", _("every IP no player holds"))]
    ah = (ch + 4.0 - 2 * 3.0) / 3
    for k, (name, fill, note) in enumerate(areas):
        box = Rect(ax, y + k * (ah + 3.0), aw, ah)
        ops.append(RectOp(box, Style(fill=fill, stroke=INK, stroke_width_mm=0.3), "ip-area"))
        ops.append(Text(box.x + 2.0, box.y + 4.5, name, _fitted(name, Font(size_pt=8, bold=True), aw - 4, aw - 2.5),
                        INK, name="area-title"))
        note_box = Rect(box.x + 2.0, box.y + 6.5, aw - 4.0, min(12.0, ah - 8.0))
        fit = fit_text(note, note_box, Font(size_pt=6.5), 4.5)
        if fit is not None:
            ops += draw_text(fit, note_box, "#444444", "left", "top", "area-note")
        avoid.append(Rect(box.x, box.y, aw, 10.0))
    return ops, avoid


def direction_marks(board: TrackBoard) -> list[Op]:
    """Small arrows in the gaps between spaces, pointing the way round."""
    ops: list[Op] = []
    sp = board.graph.spaces
    for a, b in itertools.pairwise(sp):
        (x0, y0), (x1, y1) = a.position_mm, b.position_mm
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        dx, dy = x1 - x0, y1 - y0
        d = max(1e-9, (dx * dx + dy * dy) ** 0.5)
        ux, uy = dx / d, dy / d
        s = 2.2
        tip = (mx + ux * s, my + uy * s)
        left = (mx - ux * s - uy * s, my - uy * s + ux * s)
        right = (mx - ux * s + uy * s, my - uy * s - ux * s)
        ops.append(Polygon((tip, left, right), Style(fill=INK), name="direction"))
    return ops


def board_scene(config: BetterLifeTemplate, board: TrackBoard) -> tuple[Scene, list[Rect]]:
    register_icons()
    scene = render(board.graph, space_styles(config), background=PAPER)
    inner, avoid = inner_art(config, board)
    # the End of Year space: the finishing rewards in small type
    end = board.graph.spaces[-1]
    box = end.bounds_mm
    pays = "/".join(str(x) for x in config.finish_ip)
    tr = translator(config)
    label = tr.gettext("{value} IP").format(value=pays)
    extra: list[Op] = [Text(box.x + box.width / 2, box.y + box.height * 0.2, label,
                            Font(size_pt=6, bold=True), INK, align="center", baseline="middle", name="finish-pay")]
    for s in board.graph.spaces:
        if s.kind.startswith("role:"):
            key = s.kind[5:]
            role = next(r for r in config.roles if r.key == key)
            b = s.bounds_mm
            extra.append(Circle(b.x + b.width / 2, b.y + b.height * 0.45, b.width * 0.2,
                                Style(fill=role.colour, stroke=INK, stroke_width_mm=0.3), "role-disc"))
            extra.append(Text(b.x + b.width / 2, b.y + b.height * 0.45, role_name(role.name, tr)[0],
                              Font(size_pt=11, bold=True),
                              ink_on(role.colour), align="center", baseline="middle", name="role-letter"))
    avoid += [s.bounds_mm.inset(-0.5) for s in board.graph.spaces if s.kind in ("start", "end-of-year")]
    return Scene((*scene.items, Group(tuple(inner), name="inner"), Group(tuple(extra), name="space-extras"),
                  Group(tuple(direction_marks(board)), name="directions"))), avoid


def board_declaration(ctx: BuildContext) -> BoardDeclaration:
    """The board as the kit prints it: seams between the spaces, no knob on a label or a corner space."""
    from boardgen.kit.board import BoardDeclaration, GridBoard

    config = ctx.config
    board: TrackBoard = ctx.board
    with in_language(config):  # a label too long for its place names the edition's language
        scene, avoid = ctx.value("board_scene", lambda: board_scene(config, board))
    spaces = {k: sum(1 for s in board.kinds if s == k) for k in sorted(set(board.kinds))}
    counts = ", ".join(f"{k} {v}" for k, v in spaces.items())
    return BoardDeclaration(GridBoard(config.title, board.width_mm, board.height_mm, scene,
                                      keep_whole=tuple(s.bounds_mm for s in board.graph.spaces), avoid=tuple(avoid)),
                            about=f"{len(board.kinds)} spaces ({counts})")


def poster_page(ctx: BuildContext) -> Page:
    from boardgen.render.imposition import single_item_page

    scene, _avoid = board_scene(ctx.config, ctx.board)
    return single_item_page(scene, ctx.board.width_mm, ctx.board.height_mm)
