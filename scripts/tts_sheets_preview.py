#!/usr/bin/env python
"""A small picture of what `boardgen export tts` writes for one game: its deck sheets, board and pieces as
Tabletop Simulator loads them, side by side (no TTS client runs here, so the README shows this render).

    PYTHONPATH=. python scripts/tts_sheets_preview.py [--game resilience-earth] [--out docs/img/tts-sheets.png]

It exports the game's save into a temporary folder, reads the save back, and lays out every picture the save
references (decks' face and back sheets first, then the board, then one picture per piece kind), each labelled
with its object kind and size in pixels.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from urllib.parse import unquote, urlparse

from PIL import Image, ImageDraw, ImageFont

from boardgen.cli import cli
from boardgen.exports.tts import image_urls
from boardgen.plugin import installed_games

REPO = Path(__file__).resolve().parent.parent
WIDTH = 1400
ROW_HEIGHT = 300


def _local(url: str) -> Path:
    return Path(unquote(urlparse(url).path))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="resilience-earth", choices=sorted(installed_games()))
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "img" / "tts-sheets.png")
    args = parser.parse_args()
    template = installed_games()[args.game].default_template()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "tts"
        cli.main(["export", "tts", "-q", "--template", str(template), "--out", str(out)], standalone_mode=False)
        save = json.loads(next(out.glob("*.json")).read_text())
        states = save["ObjectStates"]
        pictures: list[tuple[str, Path]] = []
        for obj in states:
            for sheet in obj.get("CustomDeck", {}).values():
                grid = f'{sheet["NumWidth"]} x {sheet["NumHeight"]}'
                pictures.append((f'{obj["Nickname"]}: faces, {grid}', _local(sheet["FaceURL"])))
                pictures.append((f'{obj["Nickname"]}: back', _local(sheet["BackURL"])))
        seen = {p for _, p in pictures}
        for obj in states:
            for url in image_urls([obj]):
                path = _local(url)
                if path not in seen and obj["Name"] != "DeckCustom":
                    seen.add(path)
                    pictures.append((f'{obj["Name"]}: {obj["Nickname"]}', path))
        canvas = Image.new("RGB", (WIDTH, ROW_HEIGHT * 3 + 40), "#e8e4dc")
        draw = ImageDraw.Draw(canvas)
        font = ImageFont.load_default()
        x, y = 10, 10
        for label, path in pictures:
            with Image.open(path) as img:
                img = img.convert("RGBA")
                width, height = img.size
                label = f"{label} ({width} x {height})"
                scale = min((ROW_HEIGHT - 30) / height, 600 / width)
                thumb = img.resize((max(1, round(width * scale)), max(1, round(height * scale))), Image.LANCZOS)
            if x + thumb.width > WIDTH - 10:
                x, y = 10, y + ROW_HEIGHT
            if y + ROW_HEIGHT > canvas.height:
                break
            canvas.paste(thumb, (x, y + 18), thumb)
            draw.text((x, y + 2), label[:70], fill="#1a1a1a", font=font)
            x += max(thumb.width, int(draw.textlength(label[:70], font=font))) + 16
        args.out.parent.mkdir(parents=True, exist_ok=True)
        canvas.convert("P", palette=Image.ADAPTIVE, colors=128).save(args.out, optimize=True)
    print(f"wrote {args.out} ({args.out.stat().st_size:,} bytes) from {len(pictures)} pictures of {args.game}")


if __name__ == "__main__":
    main()
