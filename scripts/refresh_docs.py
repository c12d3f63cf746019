#!/usr/bin/env python
"""Regenerate every simulated figure quoted in the docs, so none goes stale.

    PYTHONPATH=. python scripts/refresh_docs.py          # rewrite docs/examples/*.txt and the marked blocks
    PYTHONPATH=. python scripts/refresh_docs.py --check  # exit 1 if anything would change

Writes ``docs/examples/simulate.txt`` (the summary lines of ``boardgen simulate --games 2000 --players 6 --bots
greedy,planner,random --seed 2026``, without the timing line, which depends on the machine) and
``docs/examples/validate.txt`` (``boardgen validate`` on the default template), and ``docs/examples/inputs.txt``:
a fingerprint of everything the figures depend on (the template, the rules code, the map data), so a test can
tell cheaply that the figures may have drifted. In README.md and docs/*.md, any block between
``<!-- refresh-docs: simulate -->`` (or ``validate``) and ``<!-- /refresh-docs -->`` is replaced by a console
block with the command and its output.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "docs" / "examples"
SIMULATE_ARGS = {"games": 2000, "players": 6, "bots": ("greedy", "planner", "random"), "seed": 2026}
SIMULATE_COMMAND = "boardgen simulate --games 2000 --players 6 --bots greedy,planner,random --seed 2026"
VALIDATE_COMMAND = "boardgen validate"
FINGERPRINTED = ("templates/global-wellbeing.yaml", "boardgen/games/global_wellbeing/rules",
                 "boardgen/geomap", "boardgen/layout", "boardgen/games/global_wellbeing/schema.py", "naturalearth")
_BLOCK = re.compile(r"(<!-- refresh-docs: (simulate|validate) -->\n)(.*?)(<!-- /refresh-docs -->)", re.S)


def fingerprint() -> str:
    """sha256 over the files the figures depend on (paths and bytes, sorted)."""
    digest = hashlib.sha256()
    for name in FINGERPRINTED:
        path = REPO / name
        files = sorted(p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts) \
            if path.is_dir() else [path]
        for f in files:
            digest.update(str(f.relative_to(REPO)).encode() + b"\0" + f.read_bytes())
    return digest.hexdigest()


def simulate_text() -> str:
    from boardgen.build import BuildContext
    from boardgen.games.global_wellbeing.schema import load_template

    config = load_template()
    ctx = BuildContext(config)
    a = SIMULATE_ARGS
    _data, _plots, lines = ctx.plugin.simulate_report(ctx, a["games"], a["players"], a["bots"], a["seed"], 1, True,
                                                      None)
    head = f"{a['games']} games, {a['players']} players, bots {','.join(a['bots'])}, seed {a['seed']}"
    return "\n".join([head, *lines]) + "\n"


def validate_text() -> str:
    from boardgen.build import BuildContext
    from boardgen.games.global_wellbeing.schema import load_template

    ctx = BuildContext(load_template())
    return ctx.plugin.validate(ctx).text()


def outputs() -> dict[Path, str]:
    sim, val = simulate_text(), validate_text()
    files = {EXAMPLES / "simulate.txt": f"$ {SIMULATE_COMMAND}\n{sim}",
             EXAMPLES / "validate.txt": f"$ {VALIDATE_COMMAND}\n{val}",
             EXAMPLES / "inputs.txt": f"fingerprint {fingerprint()}\n"}
    blocks = {"simulate": files[EXAMPLES / "simulate.txt"], "validate": files[EXAMPLES / "validate.txt"]}
    for doc in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]:
        text = doc.read_text()
        new = _BLOCK.sub(lambda m: f"{m.group(1)}```console\n{blocks[m.group(2)]}```\n{m.group(4)}", text)
        if new != text:
            files[doc] = new
    return files


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", action="store_true", help="report drift, write nothing")
    args = ap.parse_args()
    stale = []
    for path, text in outputs().items():
        if not path.exists() or path.read_text() != text:
            stale.append(path.relative_to(REPO))
            if not args.check:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text)
    for p in stale:
        print(("stale: " if args.check else "wrote ") + str(p))
    return 1 if (args.check and stale) else 0


if __name__ == "__main__":
    sys.exit(main())
