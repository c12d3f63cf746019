"""The vocabulary of a kit's parts, declared once per game and read by everything that lists, prints or
exports them: the inventory (``inventory.csv``), the Tabletop Simulator save and the print-on-demand images.

A game's plug-in declares its kit with ``GamePlugin.kit_parts(ctx)``, a small function in the game's package
that reuses the game's own drawn parts (``boardgen.cards.model.Component``: front and back ``Scene``s in mm)
and adds what is not printed (wooden blocks, cubes, a bag). Part kinds follow the component vocabulary of
``docs``/DESIGN.md: board, deck, token/chip/coin/tile/marker, die, standee/meeple/pawn, mats, screens, aids, and
the unprinted block, cube and bag.

Nothing here lays out sheets or reads files: the inventory's "file/pages" column is filled from the page spans
a kit stage already computed (``page_spans``).
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from boardgen.cards.model import Component, ComponentSet
from boardgen.i18n import N_, Translator, current, printing_in
from boardgen.kit.kinds import KINDS, SHAPES, UNPRINTED_KINDS
from boardgen.render.scene import Rect, rect_path

INVENTORY_COLUMNS = ("part", "kind", "count", "size_mm", "sides", "file_pages", "printed")
INVENTORY_HEADINGS = (N_("part"), N_("kind"), N_("count"), N_("size_mm"), N_("sides"), N_("file_pages"),
                      N_("printed"))
"""The heading row as printed in the edition's language; ``read_inventory`` reads the columns by position."""
SHAPE_WORDS = {"round": N_("round"), "hex": N_("hex")}
PRINTED_WORDS = {True: N_("yes"), False: N_("no")}
"""The ``printed`` column's values, in the edition's language (``read_inventory`` callers compare English)."""


class PartError(ValueError):
    """A part declaration that contradicts itself (a count that is not the number of drawn pieces, ...)."""


@dataclass(frozen=True)
class Part:
    """One line of the box: ``count`` pieces of one kind that look alike (or one deck of cards)."""

    name: str  # as the inventory and the README say it: "1-cube token", "Action cards", "tower stone"
    kind: str  # one of KINDS
    count: int  # pieces in the box (a deck: its cards)
    width_mm: float  # the finished piece (a paper die: its edge, not its net)
    height_mm: float
    depth_mm: float = 0.0  # blocks and cubes; 0 for flat parts
    shape: str = "rect"  # rect | round | hex | shaped (cut on its own outline)
    printed: bool = True
    pieces: tuple[Component, ...] = ()  # printed: one drawn piece per piece in the box (front, back)
    sides: int = 1  # printed faces per piece (2: front and back); a die: its number of faces
    faces: tuple[str, ...] = ()  # a die's faces by the number its paper net gives them (1, 2, ...), as printed
    colour: str = ""  # an unprinted part's colour, or a die's body colour ("#rrggbb")
    file: str = ""  # the kit file that prints it; "{paper}" stands for a4 / letter
    sheet_kind: str = ""  # the kinds (comma-separated) of the ComponentSets whose sheets carry it in ``file``
    bag: str = ""  # the name of the bag the rules draw it from
    deck: str = ""  # a deck's name (its cards share one back)
    face_area_mm: Rect | None = None  # the part of a piece's front that shows it standing (fold-over standees)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise PartError(f"part {self.name!r}: unknown kind {self.kind!r} (one of {', '.join(KINDS)})")
        if self.shape not in SHAPES:
            raise PartError(f"part {self.name!r}: unknown shape {self.shape!r} (one of {', '.join(SHAPES)})")
        if self.count < 0:
            raise PartError(f"part {self.name!r}: count {self.count} is below 0")
        if self.printed and len(self.pieces) != self.count:
            raise PartError(f"part {self.name!r}: {self.count} in the box but {len(self.pieces)} drawn")
        if not self.printed and self.kind not in UNPRINTED_KINDS:
            raise PartError(f"part {self.name!r}: a {self.kind} must be printed")
        if self.kind == "die" and self.sides not in (4, 6, 8, 10, 12, 20):
            raise PartError(f"part {self.name!r}: a die of {self.sides} sides (4, 6, 8, 10, 12 or 20)")
        if self.faces and len(self.faces) != self.sides:
            raise PartError(f"part {self.name!r}: {len(self.faces)} faces for {self.sides} sides")

    @property
    def double_sided(self) -> bool:
        return self.kind != "die" and self.sides == 2

    @property
    def size_text(self) -> str:
        """'63.5 x 88.9' (mm, width x height; blocks and cubes with their depth)."""
        dims = [self.width_mm, self.height_mm] + ([self.depth_mm] if self.depth_mm else [])
        return " x ".join(f"{round(d, 1):g}" for d in dims)

    @property
    def described(self) -> str:
        """'16 x 16 mm, round' / '45 x 15 x 15 mm, not printed': the size as a README says it."""
        return self.describe()

    def describe(self, tr: Translator | None = None) -> str:
        """``described`` in the edition's words (``boardgen.i18n``)."""
        tr = tr or current()
        _ = tr.gettext
        dims = [self.width_mm, self.height_mm] + ([self.depth_mm] if self.depth_mm else [])
        size = " x ".join(tr.number(round(d, 1)) for d in dims)  # the README's words: "63,5 x 88,9" in German
        words = [f"{size} mm"] + ([_(SHAPE_WORDS[self.shape])] if self.shape in ("round", "hex") else [])
        return ", ".join(words + ([] if self.printed else [_("not printed")]))

    @property
    def numbered_faces(self) -> bool:
        """A die whose faces are its numbers 1..sides (any plain die stands in for it)."""
        return self.kind == "die" and (not self.faces or self.faces == tuple(str(i) for i in range(1, self.sides + 1)))


@dataclass(frozen=True)
class KitParts:
    """Everything in one game's box, in the order a player unpacks it."""

    game: str
    title: str
    parts: tuple[Part, ...]
    notes: tuple[str, ...] = field(default=())  # what else to bring, said once

    def __post_init__(self) -> None:
        names = [p.name for p in self.parts]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise PartError(f"{self.game}: parts declared twice: {', '.join(twice)}")

    def count(self, name: str) -> int:
        for p in self.parts:
            if p.name == name:
                return p.count
        raise KeyError(name)

    def of_kind(self, *kinds: str) -> list[Part]:
        return [p for p in self.parts if p.kind in kinds]

    @property
    def printed(self) -> list[Part]:
        return [p for p in self.parts if p.printed]

    @property
    def unprinted(self) -> list[Part]:
        return [p for p in self.parts if not p.printed]


# ------------------------------------------------------------------------------------------ declaring parts


def default_name(piece: Component) -> str:
    """A piece's part name: its label without a trailing copy number ("P3 token #12" -> "P3 token")."""
    return re.sub(r"\s*#?\d+$", "", piece.label) if piece.kind != "die" else piece.label


KIND_OF = {"table-card": "card", "turn-counter": "card", "turn-marker": "marker", "screen": "screen",
           "building": "token", "avatar": "chip"}


def parts_from_sets(sets: Iterable[ComponentSet], file: str, *, name: Callable[[Component], str] = default_name,
                    kinds: Mapping[str, str] | None = None, shapes: Mapping[str, str] | None = None,
                    skip: Callable[[Component], bool] = lambda c: False) -> list[Part]:
    """Parts from drawn component sets: pieces with the same name, kind, size and sidedness make one part, in
    the order they are first met. ``kinds`` maps a component kind to a part kind (default ``KIND_OF`` or the
    kind itself); ``shapes`` a part name to its shape (default: round when the outline is a circle)."""
    kinds = {**KIND_OF, **(kinds or {})}
    groups: dict[tuple[str, str, float, float, bool], list[tuple[Component, str]]] = {}
    for s in sets:
        for c in s.components:
            if skip(c):
                continue
            # a piece has a printed back only where its set is laid out with backs
            key = (name(c), c.kind, round(c.width_mm, 2), round(c.height_mm, 2), c.back is not None and s.double_sided)
            groups.setdefault(key, []).append((c, s.kind))
    out: list[Part] = []
    for (part_name, kind, _w, _h, two), members in groups.items():
        first = members[0][0]
        sheet_kind = ",".join(dict.fromkeys(k for _, k in members))
        part_kind = kinds.get(kind, kind)
        shape = (shapes or {}).get(part_name) or outline_shape(first)
        sides = die_sides(first) if part_kind == "die" else (2 if two else 1)
        face = standee_face(first) if part_kind in ("standee", "meeple", "pawn") else None
        out.append(Part(part_name, part_kind, len(members), first.width_mm, first.height_mm, shape=shape,
                        pieces=tuple(c for c, _ in members), sides=sides, file=file, sheet_kind=sheet_kind,
                        face_area_mm=face))
    return out


def die_sides(piece: Component) -> int:
    """A paper die's sides from its label ("d10"); 6 when the label names none."""
    m = re.search(r"\bd(4|6|8|10|12|20)\b", piece.label)
    return int(m.group(1)) if m else 6


def outline_shape(piece: Component) -> str:
    """rect when the cut outline is the piece's box, round when it is a circle (an arc, or a polygon of a
    circle's area), hex for a six-cornered outline, else shaped."""
    from boardgen.cards.sheets import path_polygon

    w, h = piece.width_mm, piece.height_mm
    if not piece.outline or tuple(piece.outline) == tuple(rect_path(Rect(0.0, 0.0, w, h))):
        return "rect"
    if any(cmd[0] in ("A", "C") for cmd in piece.outline) and abs(w - h) < 1e-6:
        return "round"
    try:
        poly = path_polygon(piece.outline)
    except (ValueError, IndexError):
        return "shaped"
    corners = len(poly.exterior.coords) - 1 if poly.geom_type == "Polygon" else 0
    if abs(w - h) < 0.01 * w and corners > 12 and abs(poly.area / (math.pi * w * h / 4) - 1) < 0.02:
        return "round"
    if corners == 4 and abs(poly.area / (w * h) - 1) < 0.01:
        return "rect"
    if corners == 6:
        return "hex"
    return "shaped"


def board_part(name: str, scene_piece: Component, file: str = "board-poster.pdf") -> Part:
    return Part(name, "board", 1, scene_piece.width_mm, scene_piece.height_mm, pieces=(scene_piece,), file=file)


def board_piece(scene: object, width_mm: float, height_mm: float, label: str = "board") -> Component:
    """The board as one drawn piece (its scene in board mm, origin at the top-left corner)."""
    from boardgen.render.scene import Scene

    assert isinstance(scene, Scene)
    return Component("board", label, width_mm, height_mm, scene, rect_path(Rect(0.0, 0.0, width_mm, height_mm)))


def deck_part(name: str, cards: ComponentSet | Sequence[Component], file: str, sheet_kind: str = "",
              bag: str = "") -> Part:
    """A deck: its cards (each with its front and the deck's back)."""
    pieces = tuple(cards.components if isinstance(cards, ComponentSet) else cards)
    if not pieces:
        raise PartError(f"deck {name!r} has no cards")
    first = pieces[0]
    kind = sheet_kind or (cards.kind if isinstance(cards, ComponentSet) else "")
    return Part(name, "deck", len(pieces), first.width_mm, first.height_mm, pieces=pieces,
                sides=2 if first.back is not None else 1, file=file, sheet_kind=kind, deck=name, bag=bag)


def standee_face(piece: Component) -> Rect | None:
    """The upright face of a fold-over standee strip (foot | face | face | foot, three folds across it): the
    band between the second and third fold."""
    ys = sorted({round(f[0][1], 4) for f in piece.folds if len(f) == 2 and abs(f[0][1] - f[1][1]) < 1e-6})
    if len(ys) != 3:
        return None
    return Rect(0.0, ys[1], piece.width_mm, ys[2] - ys[1])


# ------------------------------------------------------------------------------------------ inventory


def _page_span(start: int, end: int) -> str:
    _ = current().gettext
    return _("p. {n}").format(n=start) if start == end else _("pp. {first}-{last}").format(first=start, last=end)


def page_spans(files: Mapping[str, Sequence[object]]) -> dict[tuple[str, str], str]:
    """{(file name, set kind): 'pp. 3-4'} from each file's laid-out sets in page order (``LaidOut``: ``kind``,
    ``pages``), so the inventory names the pages that print each part."""
    out: dict[tuple[str, str], str] = {}
    for file_name, laid in files.items():
        start = 1
        spans: dict[str, list[tuple[int, int]]] = {}
        for lo in laid:
            n = len(lo.pages)  # type: ignore[attr-defined]
            spans.setdefault(lo.kind, []).append((start, start + n - 1))  # type: ignore[attr-defined]
            start += n
        for kind, ranges in spans.items():
            out[(file_name, kind)] = ", ".join(_page_span(a, b) for a, b in ranges)
    return out


def _where(part: Part, spans: Mapping[tuple[str, str], str], papers: Sequence[str]) -> str:
    if not part.printed:
        return ""
    files = [part.file.format(paper=p) for p in papers] if "{paper}" in part.file else [part.file]
    out = []
    for f in dict.fromkeys(files):
        span = ", ".join(spans[(f, k)] for k in part.sheet_kind.split(",") if (f, k) in spans)
        out.append(f"{f} {span}".strip())
    return "; ".join(out)


def inventory_rows(kit: KitParts, spans: Mapping[tuple[str, str], str] | None = None,
                   papers: Sequence[str] = ("a4", "letter")) -> list[tuple[str, str, int, str, int, str, str]]:
    """One row per part: (part, kind, count, size_mm, sides, file_pages, printed)."""
    spans = spans or {}
    _ = current().gettext
    return [(p.name, p.kind, p.count, p.size_text, p.sides, _where(p, spans, papers), _(PRINTED_WORDS[p.printed]))
            for p in kit.parts]


def inventory_csv(kit: KitParts, spans: Mapping[tuple[str, str], str] | None = None,
                  papers: Sequence[str] = ("a4", "letter"), tr: Translator | None = None) -> bytes:
    """``inventory.csv``: the same columns for every game (``INVENTORY_COLUMNS``), the heading row in ``tr``'s
    language."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    tr = tr or current()
    w.writerow([tr.gettext(h) for h in INVENTORY_HEADINGS])
    with printing_in(tr):
        w.writerows(inventory_rows(kit, spans, papers))
    return buf.getvalue().encode()


def read_inventory(data: bytes) -> list[dict[str, str]]:
    """The rows of an ``inventory.csv`` as dicts (for tests and exports that start from a built kit)."""
    records = list(csv.reader(io.StringIO(data.decode())))
    return [dict(zip(INVENTORY_COLUMNS, r, strict=False)) for r in records[1:] if r]
