"""BETTER Life's compiled path: batches of games played by ``kernel`` (numba), the same games as the rules API
plays for the same seeds (``runner.api_batch``), returned as ``OutcomeColumns``.

``kernel_batch`` is what the plug-in's hook calls: None (the API plays) when a bot has no compiled form
(``greedy``, ``mcts``), when ``BOARDGEN_ENGINE=reference``, or in auto mode while the games asked for in this
process are too few to pay for loading numba and the kernel (``LOAD_COST_GAMES``). ``warm_kernel`` compiles the
kernel into boardgen's cache (scripts/setup.sh runs it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from boardgen.games.better_life.cards import ACTION_EFFECTS, EVENT_EFFECTS
from boardgen.games.better_life.rules.engine import (
    ACCEPT_EVENT,
    BID_BASE,
    BUY_OFF,
    CANCEL_EVENT,
    DISCARD_BASE,
    PICK_BASE,
    PLAY_BASE,
    PLAY_ROLE,
    ROLL,
    RULE_EVENTS,
    BetterLifeGame,
)
from boardgen.play.columns import OutcomeColumns
from boardgen.play.kernels import KernelLoader, game_seeds, generator_seeds, lineup_indices

KERNEL_BOTS = ("random", "free-rider", "fair-share", "target-seeker", "meter-reader")  # kernel.BOT_KINDS
# Importing numba and loading the cached kernel takes about 0.45 s of CPU, some 120 games of the API path with the
# default bots (250 games/s); compiling it the first time about 17 s, some 4,000 games.
LOAD_COST_GAMES = 120
COMPILE_COST_GAMES = 4000
LOADER = KernelLoader("boardgen.games.better_life.rules.kernel", LOAD_COST_GAMES, COMPILE_COST_GAMES)
ACTIONS = (ROLL, PLAY_ROLE, ACCEPT_EVENT, CANCEL_EVENT, BUY_OFF, PLAY_BASE, PICK_BASE, DISCARD_BASE, BID_BASE)
SPACE_KINDS = ("start", "end-of-year", "role", "skip", "ip", "plus-one", "bonus", "empty", "fund", "payout", "event")


def unsupported(game: BetterLifeGame, bots: Sequence[str]) -> str:
    """Why the kernel cannot play these games ("" when it can)."""
    unknown = [b for b in bots if b not in KERNEL_BOTS]
    if unknown:
        return f"bot {unknown[0]!r} has no compiled form"
    r = game.rules
    if game.info.num_players != 5 or len(r.role_keys) != 5:
        return "not five players in five roles"
    if len(r.decks.policies) < r.config.rounds:
        return "fewer policies than rounds"
    if any(len(set(t.ranked)) != 3 for t in r.decks.targets):
        return "a policy target card naming a policy twice"
    if any(s.split(":", 1)[0] not in SPACE_KINDS for s in r.track):
        return "a track space the kernel does not know"
    return ""


def metric_names(game: BetterLifeGame) -> tuple[str, ...]:
    """``outcome().metrics`` in the order the kernel writes them."""
    r = game.rules
    fixed = ("everyone_loses", "lost_to_loss_meter", "lost_to_policy_meter", "policy_meter_end", "loss_meter_end",
             "vp_spread", "vp_top", "turns", "pool_mean", "votes_success", "votes_semi", "votes_weak")
    roles = tuple(name for key in r.role_keys for name in (f"win_{key}", f"vp_{key}"))
    return (*fixed, *roles, *(f"passed_{p.id}" for p in r.decks.policies))


def _layout(kernel: Any, game: BetterLifeGame) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """(prm, L, T, size of S): the template's numbers, the offsets of the state's arrays and of the tables, and
    the tables."""
    r = game.rules
    c = r.config
    n = 5
    designs, events, targets = len(r.actions), len(r.events), len(r.decks.targets)
    policies = len(r.decks.policies)
    v = c.votes
    s = c.scoring
    values = {
        "designs": designs, "events": events, "targets": targets, "policies": policies, "roles": len(r.role_keys),
        "end": r.end,
        "die_sides": c.die_sides, "hand_limit": c.hand_limit, "start_hand": c.start_hand, "market": c.market,
        "ip_start": c.ip.start, "box": c.ip.box, "bid_cap": r.bid_cap, "loss_limit": c.meters.loss_limit,
        "policy_goal": c.meters.policy_goal, "policy_max": c.meters.policy_max, "rounds": c.rounds,
        "ip_per_vp": s.ip_per_vp, "own_role_ip": c.spaces.own_role_ip, "other_role_fee": c.spaces.other_role_fee,
        "ip_space": c.spaces.ip_space, "plus_one": c.spaces.plus_one, "fund_fee": c.spaces.fund_fee,
        "empty_fund_payout": c.spaces.empty_fund_payout, "buy_off": int(c.event_buy_off),
        "semi_min": v[1].min_ip, "success_min": v[2].min_ip,
        "band_policy_0": v[0].policy, "band_policy_1": v[1].policy, "band_policy_2": v[2].policy,
        "band_loss_0": v[0].loss, "band_loss_1": v[1].loss, "band_loss_2": v[2].loss,
        "vp_primary_success": s.primary.success, "vp_primary_semi": s.primary.semi,
        "vp_secondary_success": s.secondary.success, "vp_secondary_semi": s.secondary.semi,
        "vp_tertiary_success": s.tertiary.success, "vp_tertiary_semi": s.tertiary.semi,
    }
    prm = np.array([values[name] for name in kernel.PARAMS], dtype=np.int64)
    sizes = {"role": n, "target": n, "ip": n, "pos": n, "skip": n, "plus": n, "role_used": n, "hand_n": n,
             "hand": n * designs, "apile": designs, "adisc": designs, "epile": events, "edisc": events,
             "tpile": targets, "pleft": policies, "result": policies,
             "fin": n, "market": max(c.market, 1), "pq_kind": kernel.QUEUE, "pq_arg": kernel.QUEUE, "last_bids": n,
             "min_bid": n, "counts": len(r.event_names)}
    offsets = []
    at = kernel.SCALARS
    for name in kernel.S_ARRAYS:
        offsets.append(at)
        at += sizes[name]
    size = at
    policy_index = {p.id: i for i, p in enumerate(r.decks.policies)}
    rank = np.full((targets, policies), -1, dtype=np.int64)
    for t, target in enumerate(r.decks.targets):
        for k, policy_id in enumerate(target.ranked):
            if rank[t, policy_index[policy_id]] < 0:
                rank[t, policy_index[policy_id]] = k
    track_kind = [SPACE_KINDS.index(sp.split(":", 1)[0]) for sp in r.track]
    track_arg = [r.role_keys.index(sp[5:]) if sp.startswith("role:") else 0 for sp in r.track]
    tables = {
        "finish_ip": list(c.finish_ip), "track_kind": track_kind, "track_arg": track_arg,
        "act_effect": [ACTION_EFFECTS.index(a.effect) for a in r.actions], "act_amount": [a.amount for a in r.actions],
        "act_timing": [0 if a.timing == "start" else 1 for a in r.actions], "act_count": list(r.action_counts),
        "role_effect": [ACTION_EFFECTS.index(a.effect) for a in r.role_cards],
        "role_amount": [a.amount for a in r.role_cards],
        "ev_effect": [EVENT_EFFECTS.index(e.effect) for e in r.events], "ev_amount": [e.amount for e in r.events],
        "ev_buyoff": [e.buy_off for e in r.events], "ev_count": list(r.event_counts),
        "tgt_count": list(r.target_counts), "tgt_rank": rank.ravel().tolist(),
    }
    flat: list[int] = []
    for name in kernel.T_TABLES:
        offsets.append(len(flat))
        flat += [int(x) for x in tables[name]]
    return prm, np.array(offsets, dtype=np.int64), np.array(flat or [0], dtype=np.int64), size


def _check(kernel: Any) -> None:
    same = (kernel.ACTION_EFFECTS == ACTION_EFFECTS and kernel.EVENT_EFFECTS == EVENT_EFFECTS
            and kernel.RULE_EVENTS == RULE_EVENTS and kernel.SPACE_KINDS == SPACE_KINDS
            and (kernel.ROLL, kernel.PLAY_ROLE, kernel.ACCEPT_EVENT, kernel.CANCEL_EVENT, kernel.BUY_OFF,
                 kernel.PLAY_BASE, kernel.PICK_BASE, kernel.DISCARD_BASE, kernel.BID_BASE) == ACTIONS)
    if not same:
        raise RuntimeError("better_life.kernel is out of step with the engine's effects, events or actions")


def play_columns(game: BetterLifeGame, lineups: Sequence[Sequence[str]], seeds: Sequence[int]) -> OutcomeColumns:
    """Games ``seeds[i]`` (each a game's seed, as ``play_one`` takes it) with the bots ``lineups[i]`` seat by
    seat, through the kernel (loaded if it is not)."""
    bots = tuple(sorted({b for line in lineups for b in line}))
    seats = np.array([[bots.index(b) for b in line] for line in lineups], dtype=np.int64).reshape(len(seeds), 5)
    return play_seats(game, bots, seats, seeds)


def play_seats(game: BetterLifeGame, bots: Sequence[str], seats: np.ndarray, seeds: Sequence[int]) -> OutcomeColumns:
    """Games ``seeds[i]`` with the bot ``bots[seats[i, p]]`` in seat p, through the kernel (loaded if it is
    not)."""
    kernel = LOADER.load()
    if kernel is None:
        raise RuntimeError(LOADER.failed)
    _check(kernel)
    players = 5
    n = len(seeds)
    used = sorted({int(j) for j in np.unique(seats)}) if n else []
    names = tuple(sorted({bots[j] for j in used}))
    kinds = np.array([kernel.BOT_KINDS.index(b) for b in bots], dtype=np.int64)[seats].reshape(n, players)
    gen_seeds = generator_seeds(seeds, players)
    metric_keys = metric_names(game)
    event_keys = game.rules.event_names
    scores = np.zeros((n, players), dtype=np.float64)
    winners = np.zeros((n, players), dtype=np.bool_)
    length = np.zeros(n, dtype=np.int64)
    metrics = np.zeros((n, len(metric_keys)), dtype=np.float64)
    events = np.zeros((n, len(event_keys)), dtype=np.int64)
    prm, offsets, tables, size = _layout(kernel, game)
    kernel.play_games(prm, offsets, tables, size, kinds, gen_seeds, scores, winners, length, metrics, events)
    LOADER.mark_compiled()
    code = np.array([names.index(b) if b in names else 0 for b in bots], dtype=np.int8)
    return OutcomeColumns(names, np.array(seeds, dtype=np.int64), code[seats].reshape(n, players),
                          scores, winners, length, {k: metrics[:, i].copy() for i, k in enumerate(metric_keys)},
                          {k: events[:, i].copy() for i, k in enumerate(event_keys)})


def kernel_batch(game: BetterLifeGame, bots: Sequence[str], seed: int, start: int, stop: int,
                 rotate: bool) -> OutcomeColumns | None:
    """Games ``start`` to ``stop`` of a simulation seeded ``seed`` (as ``play_batch`` seeds them), or None when
    the API path should play them."""
    if stop <= start or unsupported(game, bots) or not LOADER.wanted(stop - start):
        return None
    return play_seats(game, bots, lineup_indices(len(bots), 5, start, stop, rotate), game_seeds(seed, start, stop))


def warm_kernel() -> bool:
    """Compile the kernel into its disk cache now (or load it); False when numba is not installed."""
    from boardgen.plugin import BuildContext, get_game
    from boardgen.template import load

    plugin = get_game("better-life")
    if LOADER.load() is None:
        return False
    _plugin, config = load(plugin.default_template())
    game = plugin.new_game(BuildContext(config, plugin), 5)
    assert isinstance(game, BetterLifeGame)
    play_columns(game, [KERNEL_BOTS], [1])
    return LOADER.cached()


__all__ = ["KERNEL_BOTS", "LOADER", "kernel_batch", "metric_names", "play_columns", "play_seats", "unsupported",
           "warm_kernel"]
