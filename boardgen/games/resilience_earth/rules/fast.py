"""Resilience Earth's batches through its compiled kernel (``kernel``): when to use it, the game's numbers,
patterns and seeds as the kernel's arrays, and its results as ``OutcomeColumns``.

``kernel_batch`` answers None (the rules API plays) for bots the kernel does not play (greedy, mcts), for rules
it does not (a limit of builds per turn, with which a policy bot may answer an action the API refuses) and for
batches too small to pay for loading numba; this module imports neither numba nor the kernel until a batch is
played.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from boardgen.play.columns import OutcomeColumns
from boardgen.play.kernels import KernelLoader, batch_seeds

KERNEL_BOTS = ("random", "grower", "steward", "keeper", "sabbatical", "mixed")  # kernel.BOT_KINDS
LOAD_COST_GAMES = 60.0  # loading the cached kernel (about 0.6 s), in API games (about 100 a second)
COMPILE_COST_GAMES = 6000.0  # compiling it (about a minute)


LOADER = KernelLoader("boardgen.games.resilience_earth.rules.kernel", LOAD_COST_GAMES, COMPILE_COST_GAMES)
"""Loads the kernel once the games asked for in this process are worth it (``simulate --games 1`` never
imports numba); ``BOARDGEN_ENGINE`` forces either path."""



def bot_table() -> np.ndarray:
    """Each kernel bot kind's knobs, read from the policy bots' classes (row 0, random, is unused)."""
    from boardgen.games.resilience_earth.rules import kernel as k
    from boardgen.games.resilience_earth.rules.bots import OWN_BOTS

    table = np.zeros((len(k.BOT_KINDS), 8), dtype=np.float64)
    for i, name in enumerate(k.BOT_KINDS):
        if name == "random":
            continue
        cls: Any = OWN_BOTS[name]
        table[i] = (cls.build_below, cls.dismantle_at, 1.0 if cls.industries else 0.0, 1.0 if cls.towns else 0.0,
                    cls.max_fields, cls.sabbatical_when_production_below, 1.0 if cls.sabbatical_when_lopsided else 0.0,
                    1.0 if cls.drops_poor_fields else 0.0)
    return table


def game_arrays(game: Any) -> dict[str, Any]:
    """The kernel's arrays of a ``ResilienceGame``."""
    from boardgen.games.resilience_earth.rules import kernel as k
    from boardgen.games.resilience_earth.rules.engine import INDUSTRY, RULE_EVENTS, SETTLEMENT, TOWN

    assert tuple(RULE_EVENTS) == k.RULE_EVENTS, "the kernel counts other rules than the engine"
    rules, costs, facts = game.rules, game.costs, game.facts
    P, F = game.players, game.F  # noqa: N806
    gi = np.zeros(k.G_INTS, dtype=np.int64)
    values = {
        k.G_F: F, k.G_P: P, k.G_STACKS: len(game.tower.countdown_stacks), k.G_CARDS: len(game.cards),
        k.G_SETTLE: costs.settlement, k.G_TRAVEL: costs.travel, k.G_TOWN_COST: costs.town,
        k.G_INDUSTRY_COST: costs.industry, k.G_TOWN_STONES: costs.town_stones,
        k.G_INDUSTRY_STONES: costs.industry_stones, k.G_SETTLEMENT_LQ: rules.settlement_lq,
        k.G_SAB_COST: rules.sabbatical_cost, k.G_SAB_LQ: rules.sabbatical_lq, k.G_SAB_LIMIT: rules.sabbatical_limit,
        k.G_LQ_LOSS: rules.industry_lq_loss, k.G_BUILDS_PER_TURN: rules.builds_per_turn,
        k.G_REFUND: rules.dismantle_refund, k.G_TO_RESERVE: 1 if rules.dismantled_stones == "reserve" else 0,
        k.G_DESTROYED_RETURNS: 1 if rules.destroyed_returns_stones else 0, k.G_FIRST_END: rules.first_end_round,
        k.G_LAST_END: rules.last_end_round, k.G_LOP_PENALTY: rules.lopsided_penalty,
        k.G_LOP_BOTH: 1 if rules.lopsided_both_ways else 0, k.G_TOPPLER_SCORE: rules.toppler_score,
        k.G_MARKERS: game.config.markers.count, k.G_HAZARD_LEN: len(game.hazard),
    }
    for key, value in values.items():
        gi[key] = value
    for kind, name in ((SETTLEMENT, "settlement"), (TOWN, "town"), (INDUSTRY, "industry")):
        gi[k.G_WORTH + kind] = rules.building_res.get(name, 0)
        gi[k.G_SUPPLY + kind] = game.supply[kind]
        for level in range(3):
            gi[k.G_YIELD + (kind - 1) * 3 + level] = game.yields[kind][level]
    for p in range(P):
        extra = tuple(rules.starting_res_extra)
        gi[k.G_START_RES + p] = rules.starting_res + (extra[p] if p < len(extra) else 0)
        extra = tuple(rules.starting_lq_extra)
        gi[k.G_START_LQ + p] = extra[p] if p < len(extra) else 0
    width = max(1, max(len(n) for n in facts.neighbours))
    nbr = np.full((F, width), -1, dtype=np.int64)
    for f, ns in enumerate(facts.neighbours):
        nbr[f, :len(ns)] = ns
    index_of = np.full(100, -1, dtype=np.int64)
    for number, i in game.index.items():
        if 0 <= number < 100:
            index_of[number] = i
    cards = len(game.cards)
    longest = max(1, max(len(c) for per_card in game.cover for c in per_card))
    cover = np.zeros((cards, F, longest), dtype=np.int64)
    cover_len = np.zeros((cards, F), dtype=np.int64)
    for c, per_card in enumerate(game.cover):
        for t, fields in enumerate(per_card):
            cover[c, t, :len(fields)] = fields
            cover_len[c, t] = len(fields)
    effect = np.array([k.BLOCKED if c.effect == "blocked" else k.DESTROYED for c in game.cards], dtype=np.int64)
    rounds = np.array([c.rounds for c in game.cards], dtype=np.int64)
    return {"gi": gi, "gf": np.array([rules.lopsided_share]), "nbr": nbr,
            "levels": np.array(facts.levels, dtype=np.int64), "hazard": np.array(game.hazard, dtype=np.float64),
            "stacks": np.array(game.tower.countdown_stacks, dtype=np.int64), "index_of": index_of, "cover": cover,
            "cover_len": cover_len, "effect": effect, "rounds": rounds}


def play(game: Any, bots: Sequence[str], seed: int, start: int, stop: int, rotate: bool) -> OutcomeColumns:
    """Games ``start`` to ``stop`` as ``runner.api_batch`` seeds them, played by the kernel."""
    k = LOADER.load()
    if k is None:
        raise RuntimeError(LOADER.failed)

    players = game.players
    a = game_arrays(game)
    names = tuple(KERNEL_BOTS)
    count = stop - start
    kinds, seeds, keys = batch_seeds(names, bots, players, seed, start, stop, rotate)
    out_i = np.zeros((count, 24), dtype=np.int64)
    counts = np.zeros((count, k.N_COUNTS), dtype=np.int64)
    w = k.work(players, a["index_of"], a["cover"], a["cover_len"], a["effect"], a["rounds"])
    k.play_games(a["gi"], a["gf"], a["nbr"], a["levels"], a["hazard"], a["stacks"], bot_table(), kinds, keys, w,
                 out_i, counts)
    LOADER.mark_compiled()
    return columns(game, names, seeds, kinds, out_i, counts)


def columns(game: Any, names: tuple[str, ...], seeds: np.ndarray, kinds: np.ndarray, out_i: np.ndarray,
            counts: np.ndarray) -> OutcomeColumns:
    """``ResilienceState.outcome`` of each game from the kernel's numbers."""
    from boardgen.games.resilience_earth.rules import kernel as k

    rules = game.rules
    players = kinds.shape[1]
    ended, toppler = out_i[:, 1], out_i[:, 2]
    res, lq = out_i[:, 4:4 + players], out_i[:, 8:8 + players]
    tangible, lop = out_i[:, 12:12 + players], out_i[:, 16:16 + players]
    collapse = ended == k.ENDED_COLLAPSE
    standing = (tangible + lq - rules.lopsided_penalty * lop).astype(np.float64)
    fallen = lq.astype(np.float64)
    seat = np.arange(players)
    is_toppler = seat[None, :] == toppler[:, None]
    fallen[is_toppler] = float(rules.toppler_score)
    scores = np.where(collapse[:, None], fallen, standing)
    eligible = ~is_toppler
    best = np.where(eligible, scores, -np.inf).max(axis=1)
    winners = eligible & (scores == best[:, None])
    ev = {name: counts[:, i].copy() for i, name in enumerate(k.RULE_EVENTS) if name in game.rule_events}
    all_counts = {name: counts[:, i] for i, name in enumerate(k.RULE_EVENTS)}
    metrics = {
        "collapse": collapse.astype(np.float64),
        "ended_by_timer": (ended == k.ENDED_TIMER).astype(np.float64),
        "ended_by_stones": (ended == k.ENDED_STONES).astype(np.float64),
        "tower_height": out_i[:, 3].astype(np.float64),
        "events": (all_counts["event blocked"] + all_counts["event destroyed"]).astype(np.float64),
        "lq_spread": (lq.max(axis=1) - lq.min(axis=1)).astype(np.float64),
        "mean_lq": lq.sum(axis=1) / players,
        "mean_res": res.sum(axis=1) / players,
        "lopsided_players": lop.sum(axis=1).astype(np.float64),
        "dismantles": (all_counts["dismantle settlement"] + all_counts["dismantle town"]
                       + all_counts["dismantle industry"]).astype(np.float64),
        "sabbaticals": all_counts["sabbatical"].astype(np.float64),
        "fields_settled": out_i[:, 20].astype(np.float64),
    }
    return OutcomeColumns(names, seeds, kinds.astype(np.int8), scores, winners, out_i[:, 0].copy(), metrics,
                          dict(sorted(ev.items())))


def unsupported(game: Any, bots: Sequence[str]) -> str:
    """Why the kernel does not play these games ('' when it does)."""
    other = [b for b in bots if b not in KERNEL_BOTS]
    if other:
        return f"bot {other[0]!r}"
    if game.rules.builds_per_turn:
        return "a limit of builds per turn"  # a policy bot may then answer with an action the API refuses
    if game.F > 36 or game.players > 4 or len(game.cards) > 60 or len(game.tower.countdown_stacks) > 24:
        return "more fields, players, cards or stacks than the kernel's arrays hold"
    return ""


def kernel_batch(game: Any, bots: Sequence[str], seed: int, start: int, stop: int,
                 rotate: bool) -> OutcomeColumns | None:
    """The games by the kernel, or None (the API plays them): ``unsupported``, or the games asked for so far are
    not worth loading it (``LOADER``)."""
    if stop <= start or unsupported(game, bots) or not LOADER.wanted(stop - start):
        return None
    return play(game, bots, seed, start, stop, rotate)


def warm_kernel() -> bool:
    """Compile the kernel into its disk cache (or load it) with a few games on a grid of fields
    (scripts/setup.sh); the kernel does not depend on the map."""
    import yaml

    from boardgen.games.resilience_earth.rules.engine import ResilienceGame
    from boardgen.games.resilience_earth.schema import ResilienceTemplate
    from boardgen.plugin import get_game
    from boardgen.schema import validate_template
    from boardgen.yaml_reader import templates_dir

    plugin = get_game("resilience-earth")
    path = templates_dir() / plugin.template_file
    config = validate_template(ResilienceTemplate, yaml.safe_load(path.read_text(encoding="utf-8")), str(path))
    facts = grid_facts()
    play(ResilienceGame(facts, config, 4), KERNEL_BOTS, 0, 0, 3, True)
    return LOADER.cached()


def grid_facts() -> Any:
    """Fields 11..66 on a 6 x 6 grid (row: first die, column: second die), levels 1, 2, 3 in turn: a field map
    without the map, for compiling the kernel and for tests."""
    from boardgen.games.resilience_earth.rules.engine import FieldFacts

    numbers, neighbours, centres = [], [], []
    for r in range(6):
        for c in range(6):
            numbers.append((r + 1) * 10 + c + 1)
            centres.append((c * 10.0, r * 10.0))
            neighbours.append(tuple(sorted((r + dr) * 6 + c + dc for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                                           if 0 <= r + dr < 6 and 0 <= c + dc < 6)))
    return FieldFacts(tuple(numbers), tuple(neighbours), tuple(1 + i % 3 for i in range(36)), tuple(centres))
