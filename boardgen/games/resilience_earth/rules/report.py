"""Resilience Earth's own checks: the field map (36 connected fields on land, sizes, compactness) and the
simulated games (collapse share, endings, LQ spread, the lopsided penalty)."""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from typing import Any

from boardgen.play.report import Finding


def field_stats(fm: Any) -> dict[str, float]:
    sizes = [len(f.cells) for f in fm.fields]
    pp = [f.compactness for f in fm.fields]
    return {"fields": len(sizes), "cells": sum(sizes), "min_cells": min(sizes), "max_cells": max(sizes),
            "mean_cells": statistics.mean(sizes), "pp_mean": statistics.mean(pp), "pp_min": min(pp),
            "strait_fields": sum(1 for f in fm.fields if not f.land_connected)}


def board_findings(ctx: Any) -> list[Finding]:
    fm = ctx.board
    cfg = ctx.config
    out: list[Finding] = []
    want = cfg.fields.regions * cfg.fields.per_region
    if len(fm.fields) != want:
        out.append(Finding("field-count", "error", "fields", f"{len(fm.fields)} fields, expected {want}"))
    for f in fm.fields:
        if len(f.cells) < cfg.fields.min_cells:
            out.append(Finding("field-size", "error", f"field {f.number}",
                               f"{len(f.cells)} hex cells, fewer than fields.min_cells ({cfg.fields.min_cells})"))
        if not f.neighbours:
            out.append(Finding("field-isolated", "error", f"field {f.number}", "borders no other field"))
    t = cfg.tower
    length, width = t.stack_space_mm
    reach = math.hypot(t.stack_ring_mm + length / 2, width / 2) + fm.board.layout.size_mm
    cx, cy = fm.tower_mm
    under = [c.label for c in fm.board.cells
             if (c.center_mm[0] - cx) ** 2 + (c.center_mm[1] - cy) ** 2 < reach**2]
    if under:
        out.append(Finding("tower-on-land", "error", "tower.lon/lat",
                           f"the tower and its countdown ring cover land cells {', '.join(under[:5])}; move the "
                           "tower into open sea"))
    s = field_stats(fm)
    out.append(Finding("field-sizes", "info", "fields",
                       f"{s['fields']} fields of {s['min_cells']}-{s['max_cells']} hex cells (mean "
                       f"{s['mean_cells']:.1f}); Polsby-Popper compactness mean {s['pp_mean']:.2f}, min "
                       f"{s['pp_min']:.2f}; {s['strait_fields']} held together by a strait link"))
    levels = {lv: sum(1 for f in fm.fields if f.level == lv) for lv in (1, 2, 3)}
    out.append(Finding("field-levels", "info", "production",
                       f"levels 1/2/3: {levels[1]}/{levels[2]}/{levels[3]} fields"))
    if cfg.markers.count < max(len(c.reach) + 7 for c in cfg.events):
        out.append(Finding("markers", "info", "markers", "one event can need more markers than the box holds"))
    return out


def rule_findings(ctx: Any, summary: Mapping[str, Any]) -> list[Finding]:
    out: list[Finding] = []
    m = summary.get("metrics", {})
    n = summary.get("games", 0)
    if not n:
        return out
    collapse = m.get("collapse", {}).get("mean", 0.0)
    timer = m.get("ended_by_timer", {}).get("mean", 0.0)
    stones = m.get("ended_by_stones", {}).get("mean", 0.0)
    out.append(Finding("endings", "info", "end of game",
                       f"the tower fell in {collapse:.1%} of {n} games; the timer ended {timer:.1%}; "
                       f"the last stone {stones:.1%}"))
    if collapse > 0.6:
        out.append(Finding("collapse-share", "warning", "tower",
                           f"the tower falls in {collapse:.1%} of games: the collapse curve may be too steep"))
    if collapse == 0.0:
        out.append(Finding("collapse-share", "warning", "tower", "the tower never fell: the risk plays no part"))
    if "lq_spread" in m:
        out.append(Finding("lq-spread", "info", "life quality",
                           f"LQ spread between the best and worst player: mean {m['lq_spread']['mean']:.1f}"))
    if "lopsided_players" in m:
        out.append(Finding("lopsided", "info", "scoring",
                           f"players losing the 80:20 penalty per game: mean {m['lopsided_players']['mean']:.2f}"))
    return out


def ending_of(outcome: Any) -> str:
    m = outcome.metrics
    return "tower fell" if m["collapse"] else "timer" if m["ended_by_timer"] else "last stone"


def _ending_wins(columns: Any, endings: Sequence[str]) -> tuple[list[str], dict[str, dict[str, float]],
                                                                  dict[str, int]]:
    """(bots, wins per ending and bot, games per ending) from the games' columns: the same numbers as adding
    1/k for each of a game's k winners game by game, seat by seat (the sums are taken in that order)."""
    import numpy as np

    m = columns.metrics
    ending = np.where(m["collapse"] != 0, 0, np.where(m["ended_by_timer"] != 0, 1, 2))
    winners = columns.winners.astype(np.bool_)
    k = winners.sum(axis=1)
    credit = np.where(winners, 1.0 / np.maximum(k, 1)[:, None], 0.0)
    used = sorted({int(j) for j in np.unique(columns.lineups)}) if columns.games else []
    bots = sorted({columns.bot_names[j] for j in used})
    wins = {e: dict.fromkeys(bots, 0.0) for e in endings}
    counts = {e: int((ending == i).sum()) for i, e in enumerate(endings)}
    for i, e in enumerate(endings):
        for bot in bots:
            codes = [j for j in used if columns.bot_names[j] == bot]
            mask = (ending == i)[:, None] & np.isin(columns.lineups, codes)
            values = np.where(mask, credit, 0.0).ravel()
            wins[e][bot] = float(np.add.accumulate(values)[-1]) if values.size else 0.0
    return bots, wins, counts


def plots(title: str, summary: Mapping[str, Any], records: Sequence[Any]) -> dict[str, bytes]:
    """The generic plots plus one of Resilience Earth's own: how games end, and which bot wins each ending."""
    from boardgen.play.plots import generic_plots
    from boardgen.render.charts import BarSeries, grouped_bar_chart

    out = generic_plots(title, summary, records)
    endings = ("tower fell", "timer", "last stone")
    columns = getattr(records, "columns", None)  # a RecordView: the games straight from its columns
    if columns is not None:
        bots, wins, counts = _ending_wins(columns, endings)
    else:
        bots = sorted({b for r in records for b in r.bots})
        wins = {e: dict.fromkeys(bots, 0.0) for e in endings}
        counts = dict.fromkeys(endings, 0)
        for r in records:
            e = ending_of(r.outcome)
            counts[e] += 1
            for w in r.outcome.winners:
                wins[e][r.bots[w]] += 1.0 / len(r.outcome.winners)
    n = max(1, len(records))
    colours = ("#e69f00", "#56b4e9", "#009e73", "#cc79a7", "#0072b2", "#d55e00", "#999999")
    series = [BarSeries(bot, [wins[e][bot] / n for e in endings], colours[k % len(colours)])
              for k, bot in enumerate(bots)]
    chart = grouped_bar_chart([f"{e}\n({counts[e] / n:.0%} of games)" for e in endings], series,
                              title=f"{title}: endings and their winners ({len(records)} games)",
                              y_label="share of all games won")
    out["endings.png"] = chart.png()
    return out
