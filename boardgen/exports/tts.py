"""A Tabletop Simulator save of a game's declared parts (``boardgen.kit.parts``), for playtesting online.

The save is the JSON a player drops into TTS's ``Saves`` folder (``SaveName``, ``ObjectStates``, ...), with its
pictures beside it in ``images/``:

- a deck: a ``DeckCustom`` whose face and back sheets are grids of at most 10 x 7 cards and at most 4096 px a
  side (several sheets for a big deck; identical cards share one place on a sheet; one back picture when every
  card has the same back, else a back sheet laid out like the faces);
- tokens, chips, coins, tiles, markers, badges, mats, screens, aids and printed cards: ``Custom_Tile`` (box,
  circle or hex) with both faces, or ``Custom_Token`` cut out along its outline when the part is shaped;
- the board: ``Custom_Board`` with the poster at most 4096 px a side;
- dice: ``Die_4`` ... ``Die_20`` in their colour when their faces are their numbers, else ``Custom_Dice`` with a
  strip of the printed faces (cut from the paper net) and the faces named in the description;
- standees, meeples and pawns with a fold-over face: ``Figurine_Custom`` showing that face;
- what is not printed: ``BlockRectangle`` / ``BlockSquare`` in the part's colour and count, ``Bag`` holding the
  parts the rules draw from it.

Pictures are referenced by ``base_url`` + file name (default: a ``file://`` URL of the output folder, which TTS
opens on the machine that wrote it; pass the address of an upload for others). GUIDs are the first six hex
digits of a hash of the game and the object's place in the save, so a rebuild writes the same bytes.

TTS units are about an inch; the scales below make each object about its printed size (TTS's own base sizes
are not published: they were taken as a card 2.5 x 3.5, a tile, token, die and block 1 unit across).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from boardgen.cards.dice import die_net
from boardgen.cards.model import Component
from boardgen.exports import faces
from boardgen.kit.parts import KitParts, Part
from boardgen.render.scene import rgb

MAX_SHEET_PX = 4096
MAX_COLUMNS, MAX_ROWS = 10, 7
CARDS_PER_SHEET = MAX_COLUMNS * MAX_ROWS - 1  # TTS keeps the last place of a 10 x 7 sheet for the hidden card
CARD_PX_PER_MM = 300 / 25.4
PIECE_PX_PER_MM = 300 / 25.4
MAX_PIECE_PX = 1024
MAX_MAT_PX = 2048
MAX_BOARD_PX = 4096
MM_PER_UNIT = 25.4
CARD_BASE_MM = (63.5, 88.9)
DIE_TYPES = {4: 0, 6: 1, 8: 2, 10: 3, 12: 4, 20: 5}
TILE_TYPES = {"rect": 0, "hex": 1, "round": 2}
TILE_KINDS = ("token", "chip", "coin", "tile", "marker", "badge", "mat", "screen", "aid", "card", "pawn",
              "standee", "meeple")
ROW_WIDTH_UNITS = 48.0


@dataclass(frozen=True)
class Image:
    name: str  # file name under images/
    data: bytes
    width_px: int
    height_px: int


@dataclass(frozen=True)
class SheetInfo:
    """A deck's face or back sheet as the save declares it (for checks)."""

    name: str
    columns: int
    rows: int
    card_px: tuple[int, int]


@dataclass
class TtsSave:
    save: dict[str, Any]
    images: dict[str, Image] = field(default_factory=dict)  # file name -> picture
    sheets: list[SheetInfo] = field(default_factory=list)

    def json_bytes(self) -> bytes:
        return (json.dumps(self.save, indent=2, ensure_ascii=False, sort_keys=False) + "\n").encode()


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "part"


class _Writer:
    def __init__(self, kit: KitParts, base_url: str) -> None:
        self.kit = kit
        self.base_url = base_url
        self.images: dict[str, Image] = {}
        self.by_digest: dict[str, str] = {}
        self.sheets: list[SheetInfo] = []
        self.guids: set[str] = set()
        self.deck_key = 0
        self.x = 0.0
        self.z = 0.0
        self.row_depth = 0.0

    # -- pictures and ids
    def image(self, stem: str, data: bytes, width_px: int, height_px: int) -> str:
        """The URL of a picture with these bytes (stored once, whatever the stem of later copies)."""
        key = faces.digest(data)
        if key not in self.by_digest:
            name = f"{stem}.png"
            n = 2
            while name in self.images:
                name, n = f"{stem}-{n}.png", n + 1
            self.images[name] = Image(name, data, width_px, height_px)
            self.by_digest[key] = name
        return self.base_url + "images/" + self.by_digest[key]

    def guid(self, where: str) -> str:
        n = 0
        while True:
            g = hashlib.sha256(f"{self.kit.game}:{where}:{n}".encode()).hexdigest()[:6]
            if g not in self.guids:
                self.guids.add(g)
                return g
            n += 1

    # -- placement: parts in rows in front of the board
    def place(self, width_mm: float, depth_mm: float) -> tuple[float, float]:
        w, d = width_mm / MM_PER_UNIT + 1.0, depth_mm / MM_PER_UNIT + 1.0
        if self.x + w > ROW_WIDTH_UNITS and self.x > 0:
            self.x, self.z, self.row_depth = 0.0, self.z - self.row_depth, 0.0
        at = (round(self.x + w / 2 - ROW_WIDTH_UNITS / 2, 3), round(self.z - d / 2, 3))
        self.x += w
        self.row_depth = max(self.row_depth, d)
        return at


def _colour(hex_colour: str) -> dict[str, float]:
    r, g, b = rgb(hex_colour or "#ffffff")
    return {"r": round(r, 4), "g": round(g, 4), "b": round(b, 4)}


def _object(w: _Writer, name: str, where: str, nickname: str, pos: tuple[float, float, float],
            scale: tuple[float, float, float] = (1.0, 1.0, 1.0), colour: str = "#ffffff", description: str = "",
            rot_z: float = 0.0, **extra: Any) -> dict[str, Any]:
    x, y, z = pos
    sx, sy, sz = scale
    out: dict[str, Any] = {
        "GUID": w.guid(where), "Name": name,
        "Transform": {"posX": x, "posY": y, "posZ": z, "rotX": 0.0, "rotY": 180.0, "rotZ": rot_z,
                      "scaleX": round(sx, 4), "scaleY": round(sy, 4), "scaleZ": round(sz, 4)},
        "Nickname": nickname, "Description": description, "GMNotes": "", "ColorDiffuse": _colour(colour),
        "Locked": False, "Grid": True, "Snap": True, "IgnoreFoW": False, "Autoraise": True, "Sticky": True,
        "Tooltip": True, "GridProjection": False, "HideWhenFaceDown": False, "Hands": False,
        "LuaScript": "", "LuaScriptState": "", "XmlUI": "",
    }
    out.update(extra)
    return out


# ------------------------------------------------------------------------------------------ decks


def deck_grid(n_faces: int) -> tuple[int, int]:
    """(columns, rows) of one sheet holding ``n_faces`` (at most ``CARDS_PER_SHEET``) card pictures."""
    columns = min(MAX_COLUMNS, max(2, n_faces))
    rows = min(MAX_ROWS, max(2, math.ceil(n_faces / columns)))
    return columns, rows


def card_px(width_mm: float, height_mm: float, columns: int, rows: int) -> tuple[int, int]:
    """One card's pixels on a sheet of ``columns`` x ``rows``: 300 dpi, shrunk so the sheet is at most
    ``MAX_SHEET_PX`` a side."""
    scale = min(CARD_PX_PER_MM, MAX_SHEET_PX / (columns * width_mm), MAX_SHEET_PX / (rows * height_mm))
    return max(1, math.floor(width_mm * scale)), max(1, math.floor(height_mm * scale))


def _sheet(pictures: list[Any], columns: int, rows: int, cw: int, ch: int) -> bytes:
    import numpy as np

    sheet = np.full((rows * ch, columns * cw, 3), 255, dtype=np.uint8)
    for i, px in enumerate(pictures):
        r, c = divmod(i, columns)
        sheet[r * ch:(r + 1) * ch, c * cw:(c + 1) * cw] = px
    return faces.png(sheet)


def deck_object(w: _Writer, part: Part, index: int, pos: tuple[float, float, float]) -> dict[str, Any]:
    stem = slug(part.name)
    # distinct fronts (identical cards share one place on the sheet), in deck order
    fronts: dict[str, tuple[Component, Any]] = {}
    card_face: list[str] = []
    first = part.pieces[0]
    columns, rows = deck_grid(min(CARDS_PER_SHEET, len(part.pieces)))
    cw, ch = card_px(first.width_mm, first.height_mm, columns, rows)
    for piece in part.pieces:
        px = faces.pixels(piece, "front", cw, ch)
        key = faces.digest(px.tobytes())
        if key not in fronts:
            fronts[key] = (piece, px)
        card_face.append(key)
    keys = list(fronts)
    columns, rows = deck_grid(min(CARDS_PER_SHEET, len(keys)))
    cw, ch = card_px(first.width_mm, first.height_mm, columns, rows)
    backs_differ = first.back is not None and any(fronts[k][0].back != first.back for k in keys)
    custom: dict[str, dict[str, Any]] = {}
    place: dict[str, int] = {}
    for s, start in enumerate(range(0, len(keys), CARDS_PER_SHEET)):
        chunk = keys[start:start + CARDS_PER_SHEET]
        w.deck_key += 1
        face_px = [faces.pixels(fronts[k][0], "front", cw, ch) for k in chunk]
        face_url = w.image(f"{stem}-faces-{s + 1}", _sheet(face_px, columns, rows, cw, ch), columns * cw, rows * ch)
        w.sheets.append(SheetInfo(face_url.rsplit("/", 1)[-1], columns, rows, (cw, ch)))
        if first.back is None:
            back_url = face_url
            unique = False
        elif backs_differ:
            back_px = [faces.pixels(fronts[k][0], "back", cw, ch) for k in chunk]
            back_url = w.image(f"{stem}-backs-{s + 1}", _sheet(back_px, columns, rows, cw, ch), columns * cw,
                               rows * ch)
            w.sheets.append(SheetInfo(back_url.rsplit("/", 1)[-1], columns, rows, (cw, ch)))
            unique = True
        else:
            back_url = w.image(f"{stem}-back", faces.png(faces.pixels(first, "back", cw, ch)), cw, ch)
            unique = False
        custom[str(w.deck_key)] = {"FaceURL": face_url, "BackURL": back_url, "NumWidth": columns,
                                   "NumHeight": rows, "BackIsHidden": True, "UniqueBack": unique, "Type": 0}
        for i, k in enumerate(chunk):
            place[k] = w.deck_key * 100 + i
    scale = (first.width_mm / CARD_BASE_MM[0], 1.0, first.height_mm / CARD_BASE_MM[1])
    cards = []
    for n, k in enumerate(card_face):
        card_id = place[k]
        deck_id = str(card_id // 100)
        cards.append(_object(w, "Card", f"deck:{index}:card:{n}", part.name, pos, scale, rot_z=180.0,
                             CardID=card_id, SidewaysCard=first.width_mm > first.height_mm, Hands=True,
                             HideWhenFaceDown=True, CustomDeck={deck_id: custom[deck_id]}))
    return _object(w, "DeckCustom", f"deck:{index}", part.name, pos, scale, rot_z=180.0,
                   description=f"{part.count} cards", Hands=False, HideWhenFaceDown=True,
                   SidewaysCard=first.width_mm > first.height_mm, DeckIDs=[c["CardID"] for c in cards],
                   CustomDeck=custom, ContainedObjects=cards)


# ------------------------------------------------------------------------------------------ pieces


def _piece_images(w: _Writer, part: Part, piece: Component, n: int) -> tuple[str, str, bool]:
    """(front URL, back URL or "", cut out): the pictures of one piece."""
    stem = f"{slug(part.name)}-{n + 1}"
    limit = MAX_MAT_PX if part.kind in ("mat", "screen", "card", "aid") else MAX_PIECE_PX
    area = part.face_area_mm
    width, height = (area.width, area.height) if area else (piece.width_mm, piece.height_mm)
    pw, ph = faces.box_px(width, height, PIECE_PX_PER_MM, limit)
    cutout = part.shape == "shaped" and area is None
    front = faces.pixels(piece, "front", pw, ph, area)
    data = faces.png_cutout(front, faces.outline_alpha(piece, pw, ph)) if cutout else faces.png(front)
    front_url = w.image(f"{stem}-front", data, pw, ph)
    back_url = ""
    if piece.back is not None and area is None:
        back = faces.pixels(piece, "back", pw, ph)
        data = faces.png_cutout(back, faces.outline_alpha(piece, pw, ph)) if cutout else faces.png(back)
        back_url = w.image(f"{stem}-back", data, pw, ph)
    return front_url, back_url, cutout


def piece_objects(w: _Writer, part: Part, index: int, pos: tuple[float, float]) -> list[dict[str, Any]]:
    """One TTS object per piece, in stacks of at most ten."""
    out = []
    for n, piece in enumerate(part.pieces):
        front, back, cutout = _piece_images(w, part, piece, n)
        stack, level = divmod(n, 10)
        x = pos[0] + (stack % 5) * (part.width_mm / MM_PER_UNIT + 0.3)
        z = pos[1] - (stack // 5) * (part.height_mm / MM_PER_UNIT + 0.3)
        y = round(1.0 + 0.25 * level, 3)
        where = f"part:{index}:{n}"
        if part.face_area_mm is not None:
            area = part.face_area_mm
            s = area.width / MM_PER_UNIT
            out.append(_object(w, "Figurine_Custom", where, part.name, (x, y, z), (s, s, s),
                               CustomImage={"ImageURL": front, "ImageSecondaryURL": front, "ImageScalar": 1.0,
                                            "WidthScale": 0.0}))
        elif cutout:
            s = max(part.width_mm, part.height_mm) / MM_PER_UNIT
            out.append(_object(w, "Custom_Token", where, part.name, (x, y, z), (s, 1.0, s),
                               CustomImage={"ImageURL": front, "ImageSecondaryURL": back, "ImageScalar": 1.0,
                                            "WidthScale": 0.0,
                                            "CustomToken": {"Thickness": 0.2, "MergeDistancePixels": 15.0,
                                                            "StandUp": False, "Stackable": False}}))
        else:
            sx, sz = part.width_mm / MM_PER_UNIT, part.height_mm / MM_PER_UNIT
            out.append(_object(w, "Custom_Tile", where, part.name, (x, y, z), (sx, 1.0, sz),
                               CustomImage={"ImageURL": front, "ImageSecondaryURL": back, "ImageScalar": 1.0,
                                            "WidthScale": 0.0,
                                            "CustomTile": {"Type": TILE_TYPES.get(part.shape, 0),
                                                           "Thickness": 0.1, "Stackable": False,
                                                           "Stretch": True}}))
    return out


def die_objects(w: _Writer, part: Part, index: int, pos: tuple[float, float]) -> list[dict[str, Any]]:
    s = max(part.width_mm, 12.0) / 16.0
    out = []
    for n in range(part.count):
        where = f"die:{index}:{n}"
        at = (pos[0] + n * 1.2, 1.5, pos[1])
        if part.numbered_faces:
            out.append(_object(w, f"Die_{part.sides}", where, part.name, at, (s, s, s), part.colour or "#ffffff",
                               description=f"d{part.sides}"))
            continue
        piece = part.pieces[n] if part.pieces else None
        boxes = faces.die_face_boxes(piece) if piece is not None else []
        if len(boxes) == part.sides:  # the net's faces in the order of the numbers they stand for
            numbers = die_net(part.sides).numbers
            boxes = [b for _n, b in sorted(zip(numbers, boxes, strict=True), key=lambda nb: nb[0])]
        url = ""
        if piece is not None and boxes:
            side = 128
            import numpy as np

            strip = np.concatenate([faces.pixels(piece, "front", side, side, b) for b in boxes], axis=1)
            url = w.image(f"{slug(part.name)}-faces", faces.png(strip), side * len(boxes), side)
        named = ", ".join(f"{i + 1}: {f}" for i, f in enumerate(part.faces))
        out.append(_object(w, "Custom_Dice", where, part.name, at, (s, s, s), part.colour or "#ffffff",
                           description=f"d{part.sides}; faces {named}",
                           CustomImage={"ImageURL": url, "ImageSecondaryURL": "", "ImageScalar": 1.0,
                                        "WidthScale": 0.0, "CustomDice": {"Type": DIE_TYPES[part.sides]}}))
    return out


def block_objects(w: _Writer, part: Part, index: int, pos: tuple[float, float]) -> list[dict[str, Any]]:
    name = "BlockSquare" if part.kind == "cube" or part.width_mm == part.height_mm else "BlockRectangle"
    depth = part.depth_mm or part.height_mm
    scale = (part.width_mm / MM_PER_UNIT, depth / MM_PER_UNIT, part.height_mm / MM_PER_UNIT)
    if name == "BlockRectangle":  # TTS's rectangle block is two squares long
        scale = (scale[0] / 2, scale[1], scale[2])
    out = []
    for n in range(part.count):
        row, col = divmod(n, 4)
        at = (pos[0] + col * (part.width_mm / MM_PER_UNIT + 0.2), 1.0 + 0.1 * row, pos[1])
        out.append(_object(w, name, f"block:{index}:{n}", part.name, at, scale, part.colour,
                           description=f"not printed: {part.size_text} mm"))
    return out


# ------------------------------------------------------------------------------------------ the save


def tts_save(kit: KitParts, base_url: str = "", save_name: str | None = None,
             progress: Callable[[str], None] = lambda message: None) -> TtsSave:
    """The save of every declared part, and the pictures it references (``base_url`` + ``images/`` + name)."""
    w = _Writer(kit, base_url)
    objects: list[dict[str, Any]] = []
    bags: dict[str, list[dict[str, Any]]] = {p.name: [] for p in kit.parts if p.kind == "bag"}
    board_depth = 0.0
    for index, part in enumerate(kit.parts):
        made: list[dict[str, Any]]
        if part.kind == "board":
            piece = part.pieces[0]
            pw, ph = faces.box_px(piece.width_mm, piece.height_mm, PIECE_PX_PER_MM, MAX_BOARD_PX)
            url = w.image(f"{slug(part.name)}", faces.png(faces.pixels(piece, "front", pw, ph)), pw, ph)
            s = piece.width_mm / MM_PER_UNIT / 2.0
            made = [_object(w, "Custom_Board", f"board:{index}", part.name, (0.0, 1.0, 0.0), (s, 1.0, s),
                            Locked=True, CustomImage={"ImageURL": url, "ImageSecondaryURL": "", "ImageScalar": 1.0,
                                                      "WidthScale": 0.0})]
            board_depth = piece.height_mm / MM_PER_UNIT
            w.z = -board_depth / 2 - 2.0
        elif part.kind == "bag":
            continue
        else:
            x, z = w.place(part.width_mm * (5 if part.count > 10 else min(part.count, 5)), part.height_mm * 2)
            if part.kind == "deck":
                made = [deck_object(w, part, index, (x, 1.5, z))]
            elif part.kind == "die":
                made = die_objects(w, part, index, (x, z))
            elif not part.printed:
                made = block_objects(w, part, index, (x, z))
            else:
                made = piece_objects(w, part, index, (x, z))
        if part.bag and part.bag in bags:
            bags[part.bag].extend(made)
        else:
            objects.extend(made)
        progress(f"tts: {part.name} ({part.count})")
    for index, bag in enumerate(p for p in kit.parts if p.kind == "bag"):
        x, z = w.place(bag.width_mm, bag.height_mm)
        objects.append(_object(w, "Bag", f"bag:{index}", bag.name, (x, 1.5, z), (1.0, 1.0, 1.0), bag.colour,
                               description=f"holds {len(bags[bag.name])} pieces the rules draw from it",
                               ContainedObjects=bags[bag.name]))
    save = {
        "SaveName": save_name or kit.title, "GameMode": kit.title, "Date": "", "VersionNumber": "",
        "GameType": "", "GameComplexity": "", "Tags": [], "Gravity": 0.5, "PlayArea": 0.5,
        "Table": "Table_RPG", "Sky": "Sky_Museum",
        "Note": f"{kit.title}: every part of the print-and-play kit, made by boardgen. "
                + " ".join(f"Also bring {n}." for n in kit.notes),
        "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": objects, "TabStates": {},
    }
    return TtsSave(save, dict(sorted(w.images.items())), w.sheets)


def count_objects(states: list[dict[str, Any]]) -> dict[str, int]:
    """{nickname: pieces} of a save's objects: a deck counts its cards, a bag itself and what it holds."""
    counts: dict[str, int] = {}
    for obj in states:
        if obj["Name"] == "DeckCustom":
            counts[obj["Nickname"]] = counts.get(obj["Nickname"], 0) + len(obj["ContainedObjects"])
            continue
        counts[obj["Nickname"]] = counts.get(obj["Nickname"], 0) + 1
        if obj["Name"] == "Bag":
            for name, n in count_objects(obj["ContainedObjects"]).items():
                counts[name] = counts.get(name, 0) + n
    return counts


def image_urls(states: list[dict[str, Any]]) -> list[str]:
    """Every picture address a save's objects reference."""
    out: list[str] = []
    for obj in states:
        for deck in obj.get("CustomDeck", {}).values():
            out += [deck["FaceURL"], deck["BackURL"]]
        image = obj.get("CustomImage")
        if image:
            out += [u for u in (image.get("ImageURL", ""), image.get("ImageSecondaryURL", "")) if u]
        out += image_urls(obj.get("ContainedObjects", []))
    return out


__all__ = ["Image", "SheetInfo", "TtsSave", "count_objects", "deck_grid", "image_urls", "tts_save"]
