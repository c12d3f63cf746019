"""Print-on-demand images: one PNG per distinct face and back of every part a shop profile takes, at the shop's
size, resolution, bleed and safe area, with ``manifest.csv`` of quantities.

Profiles are data (``pod_profiles.yaml`` beside this module, and a template's ``export.pod_profiles``). A profile
with a fixed trim size (poker, bridge, business cards) takes the parts of that size (turned a quarter if they
are laid the other way); one without (square and round tokens) takes the parts of its kinds and shapes at their
own size. The art of every part paints 3 mm of bleed; a shop bleed wider than that is filled by repeating the
outermost pixels. Files are named ``<profile>/<NN>-<part>/<NNN>-front.png`` (``-back.png``; a deck's shared back
``back.png``) so an uploader that sorts by name takes them in deck order.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

import yaml

from boardgen.cards.deck import turned
from boardgen.cards.model import Component
from boardgen.errors import ConfigError
from boardgen.exports import faces
from boardgen.io import Artifact
from boardgen.kit.parts import SHAPES, KitParts, Part
from boardgen.render.imposition import DEFAULT_STYLE
from boardgen.render.scene import Rect

ART_BLEED_MM = DEFAULT_STYLE.bleed_mm
"""How far every part's art paints beyond its trim."""
SIZE_TOLERANCE_MM = 1.0
MANIFEST_COLUMNS = ("profile", "part", "file", "side", "quantity", "width_px", "height_px", "bleed_px", "safe_px")


@dataclass(frozen=True)
class PodProfile:
    name: str
    shop: str
    kinds: tuple[str, ...]
    shapes: tuple[str, ...] = SHAPES
    trim_in: tuple[float, float] | None = None
    bleed_in: float = 0.125
    safe_in: float = 0.125
    dpi: int = 300

    def __post_init__(self) -> None:
        if self.dpi < 72 or self.dpi > 1200:
            raise ValueError(f"dpi {self.dpi} outside 72-1200")
        if self.bleed_in < 0 or self.bleed_in > 0.5 or self.safe_in < 0 or self.safe_in > 0.5:
            raise ValueError("bleed and safe must be 0 to 0.5 in")
        if self.trim_in is not None and (min(self.trim_in) <= 0.2 or max(self.trim_in) > 30):
            raise ValueError("trim must be 0.2 to 30 in a side")
        unknown = sorted(set(self.shapes) - set(SHAPES))
        if unknown:
            raise ValueError(f"unknown shapes {', '.join(unknown)} (one of {', '.join(SHAPES)})")

    def trim_px(self, width_mm: float, height_mm: float) -> tuple[int, int]:
        if self.trim_in is not None:
            return round(self.trim_in[0] * self.dpi), round(self.trim_in[1] * self.dpi)
        return round(width_mm / 25.4 * self.dpi), round(height_mm / 25.4 * self.dpi)

    def total_px(self, width_mm: float, height_mm: float) -> tuple[int, int]:
        """The picture's pixels: the trim plus the bleed on every side."""
        tw, th = self.trim_px(width_mm, height_mm)
        bleed = 2 * self.bleed_in * self.dpi
        return round(tw + bleed), round(th + bleed)

    @property
    def bleed_px(self) -> float:
        return self.bleed_in * self.dpi

    @property
    def safe_px(self) -> float:
        return self.safe_in * self.dpi

    def takes(self, part: Part) -> str:
        """"" when the profile prints ``part`` as it is, "turn" when turned a quarter, else why not."""
        if part.kind not in self.kinds:
            return f"{part.kind} is not a kind this profile prints ({', '.join(self.kinds)})"
        if part.shape not in self.shapes:
            return f"a {part.shape} part is not a shape this profile prints ({', '.join(self.shapes)})"
        if self.trim_in is None:
            return ""
        tw, th = (v * 25.4 for v in self.trim_in)
        w, h = part.width_mm, part.height_mm
        if abs(w - tw) <= SIZE_TOLERANCE_MM and abs(h - th) <= SIZE_TOLERANCE_MM:
            return ""
        if abs(h - tw) <= SIZE_TOLERANCE_MM and abs(w - th) <= SIZE_TOLERANCE_MM:
            return "turn"
        return f"{part.size_text} mm is not the profile's {self.trim_in[0]:g} x {self.trim_in[1]:g} in"


def profile_from_data(name: str, data: Mapping[str, Any]) -> PodProfile:
    known = {"shop", "kinds", "shapes", "trim_in", "bleed_in", "safe_in", "dpi"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValueError(f"unknown keys {', '.join(unknown)} (expected {', '.join(sorted(known))})")
    trim = data.get("trim_in")
    return PodProfile(name, str(data.get("shop") or name), tuple(data["kinds"]),
                      tuple(data.get("shapes", SHAPES)), None if trim is None else (float(trim[0]), float(trim[1])),
                      float(data.get("bleed_in", 0.125)), float(data.get("safe_in", 0.125)), int(data.get("dpi", 300)))


@cache
def builtin_profiles() -> dict[str, PodProfile]:
    text = resources.files("boardgen.exports").joinpath("pod_profiles.yaml").read_text(encoding="utf-8")
    return {name: profile_from_data(name, data) for name, data in yaml.safe_load(text).items()}


PROFILE_KEYS = ("shop", "kinds", "shapes", "trim_in", "bleed_in", "safe_in", "dpi")


def template_profiles(config: Any) -> dict[str, PodProfile]:
    """The profiles a template defines under ``export.pod_profiles`` (their keys checked by its schema)."""
    export = getattr(config, "export", None)
    found = getattr(export, "pod_profiles", None) or {}
    out = {}
    for name, spec in found.items():
        try:
            out[name] = profile_from_data(name, {k: getattr(spec, k) for k in PROFILE_KEYS})
        except (ValueError, TypeError) as exc:
            raise ConfigError(getattr(config, "source", "<template>"), f"export.pod_profiles.{name}",
                              str(exc)) from None
    return out


def resolve_profiles(names: Iterable[str], config: Any) -> list[PodProfile]:
    known = {**builtin_profiles(), **template_profiles(config)}
    out = []
    for name in names:
        if name not in known:
            raise ConfigError(getattr(config, "source", "<template>"), "--profile",
                              f"unknown print-on-demand profile {name!r} (known: {', '.join(sorted(known))})")
        out.append(known[name])
    return out


# ------------------------------------------------------------------------------------------ images


def profile_pixels(profile: PodProfile, piece: Component, side: str) -> Any:
    """``piece``'s ``side`` at the profile's pixels: its trim stretched to the trim pixels (the same scale both
    ways within the size tolerance), the bleed around it."""
    tw, th = profile.trim_px(piece.width_mm, piece.height_mm)
    width, height = profile.total_px(piece.width_mm, piece.height_mm)
    sx, sy = tw / piece.width_mm, th / piece.height_mm
    area = Rect(-(width - tw) / 2 / sx, -(height - th) / 2 / sy, width / sx, height / sy)
    rgb = faces.pixels(piece, side, width, height, area)
    missing = math.ceil(profile.bleed_px - ART_BLEED_MM * min(sx, sy))  # shop bleed beyond the art's
    if missing > 0:
        rgb = faces.extend_edges(rgb[missing:-missing, missing:-missing], missing)
    return rgb


@dataclass
class PodResult:
    artifacts: list[Artifact] = field(default_factory=list)
    rows: list[tuple[Any, ...]] = field(default_factory=list)
    parts: int = 0
    skipped: list[str] = field(default_factory=list)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "part"


def pod_images(kit: KitParts, profiles: Iterable[PodProfile],
               progress: Callable[[str], None] = lambda message: None) -> PodResult:
    """Every image of every part each profile takes, and ``manifest.csv``."""
    result = PodResult()
    for profile in profiles:
        number = 0
        for part in kit.printed:
            why = profile.takes(part)
            if why not in ("", "turn"):
                if profile.trim_in is not None and part.kind in profile.kinds:
                    result.skipped.append(f"{profile.name}: {part.name} ({why})")
                continue
            number += 1
            result.parts += 1
            folder = f"{profile.name}/{number:02d}-{_slug(part.name)}"
            pieces = [turned(p) for p in part.pieces] if why == "turn" else list(part.pieces)
            _part_images(result, profile, part, folder, pieces)
            progress(f"pod {profile.name}: {part.name}")
        if number == 0:
            result.skipped.append(f"{profile.name}: no part of this game fits the profile")
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(MANIFEST_COLUMNS)
    w.writerows(result.rows)
    result.artifacts.append(Artifact("manifest.csv", buf.getvalue().encode(), "every image and how many to print"))
    return result


def _part_images(result: PodResult, profile: PodProfile, part: Part, folder: str, pieces: list[Component]) -> None:
    fronts: dict[str, list[Any]] = {}  # digest -> [file, quantity, width, height]
    backs: dict[str, list[Any]] = {}
    shared_back = all(p.back is not None and p.back == pieces[0].back for p in pieces)
    for piece in pieces:
        sides = [("front", fronts)] + ([("back", backs)] if piece.back is not None else [])
        for side, seen in sides:
            rgb = profile_pixels(profile, piece, side)
            data = faces.png(rgb)
            key = faces.digest(data)
            if key in seen:
                seen[key][1] += 1
                continue
            if side == "back" and shared_back:
                name = f"{folder}/back.png"
            else:
                name = f"{folder}/{len(seen) + 1:03d}-{side}.png"
            seen[key] = [name, 1, rgb.shape[1], rgb.shape[0]]
            result.artifacts.append(Artifact(name, data, f"{part.name}, {side}"))
    for side, seen in (("front", fronts), ("back", backs)):
        for name, quantity, width, height in seen.values():
            result.rows.append((profile.name, part.name, name, side, quantity, width, height,
                                f"{profile.bleed_px:g}", f"{profile.safe_px:g}"))
