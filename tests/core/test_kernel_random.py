"""The compiled Mersenne Twister (boardgen.play.kernel_random) draws exactly what CPython's random.Random draws."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

kr = pytest.importorskip("boardgen.play.kernel_random")

seeds = st.integers(min_value=-(2**63) + 1, max_value=2**63 - 1)
SETTINGS = settings(max_examples=60, deadline=None)


def _pair(seed: int) -> tuple[np.ndarray, random.Random]:
    state = kr.new_state()
    kr.seed(state, seed)
    return state, random.Random(seed)


@SETTINGS
@given(seeds)
def test_seeding_gives_cpythons_state(seed: int) -> None:
    state, rng = _pair(seed)
    assert state.tolist() == kr.state_of(rng).tolist()


@SETTINGS
@given(st.integers(min_value=0, max_value=2**200))
def test_seeding_by_key_words_takes_any_int(seed: int) -> None:
    state = kr.new_state()
    kr.seed_key(state, kr.key_words(seed))
    assert state.tolist() == kr.state_of(random.Random(seed)).tolist()


@SETTINGS
@given(seeds, st.integers(min_value=1, max_value=1500))
def test_random_across_twists(seed: int, count: int) -> None:
    state, rng = _pair(seed)
    assert [kr.random(state) for _ in range(count)] == [rng.random() for _ in range(count)]
    assert state.tolist() == kr.state_of(rng).tolist()


@SETTINGS
@given(seeds, st.lists(st.integers(min_value=0, max_value=63), min_size=1, max_size=40))
def test_getrandbits(seed: int, ks: list[int]) -> None:
    state, rng = _pair(seed)
    assert [kr.getrandbits(state, k) for k in ks] == [rng.getrandbits(k) for k in ks]


@SETTINGS
@given(seeds, st.lists(st.integers(min_value=1, max_value=2**62), min_size=1, max_size=40))
def test_randbelow_randrange_randint_choice(seed: int, ns: list[int]) -> None:
    state, rng = _pair(seed)
    assert [kr.randbelow(state, n) for n in ns] == [rng._randbelow(n) for n in ns]  # type: ignore[attr-defined]
    assert [kr.randrange(state, -3, n) for n in ns] == [rng.randrange(-3, n) for n in ns]
    assert [kr.randint(state, 5, 5 + n) for n in ns] == [rng.randint(5, 5 + n) for n in ns]
    small = [n % 1000 + 1 for n in ns]
    assert [kr.choice_index(state, n) for n in small] == [rng.choice(range(n)) for n in small]
    assert [kr.random_index(state, n) for n in small] == [int(rng.random() * n) for n in small]
    assert kr.uniform(state, -2.5, 7.0) == rng.uniform(-2.5, 7.0)


@SETTINGS
@given(seeds, st.integers(min_value=0, max_value=300))
def test_shuffle(seed: int, n: int) -> None:
    state, rng = _pair(seed)
    items = np.arange(n, dtype=np.int64) * 3
    expected = list(items.tolist())
    kr.shuffle(state, items)
    rng.shuffle(expected)
    assert items.tolist() == expected


@SETTINGS
@given(seeds, st.integers(min_value=1, max_value=2000), st.data())
def test_sample_both_ways(seed: int, n: int, data: st.DataObject) -> None:
    """Small populations are pooled, large ones redrawn: both branches, against random.sample."""
    k = data.draw(st.integers(min_value=0, max_value=min(n, 300)))
    state, rng = _pair(seed)
    out = np.full(max(k, 1), -1, dtype=np.int64)
    kr.sample_indices(state, n, k, out, np.zeros(n, dtype=np.int64))
    assert out[:k].tolist() == rng.sample(range(n), k)
    assert state.tolist() == kr.state_of(rng).tolist()


@SETTINGS
@given(seeds, st.lists(st.integers(min_value=0, max_value=50), min_size=1, max_size=12), st.integers(1, 30))
def test_choices_with_and_without_weights(seed: int, weights: list[int], k: int) -> None:
    if sum(weights) == 0:
        weights[0] = 1
    state, rng = _pair(seed)
    out = np.zeros(k, dtype=np.int64)
    kr.choices_indices(state, len(weights), k, out)
    assert out.tolist() == rng.choices(range(len(weights)), k=k)
    kr.choices_weighted(state, np.cumsum(np.array(weights, dtype=np.float64)), k, out)
    assert out.tolist() == rng.choices(range(len(weights)), weights=weights, k=k)


@SETTINGS
@given(seeds, st.lists(st.integers(min_value=0, max_value=9), min_size=1, max_size=60))
def test_sample_chance_matches_the_api_sampler(seed: int, quantities: list[int]) -> None:
    from boardgen.play.api import sample_chance

    if sum(quantities) == 0:
        quantities[0] = 1
    total = sum(quantities)
    outcomes = [(i, q / total) for i, q in enumerate(quantities) if q]

    class Node:
        def chance_outcomes(self) -> list[tuple[int, float]]:
            return outcomes

    state, rng = _pair(seed)
    probabilities = np.array([p for _, p in outcomes])
    for _ in range(20):
        assert outcomes[kr.sample_chance(state, probabilities, len(outcomes))][0] == sample_chance(Node(), rng)  # type: ignore[arg-type]
    n = len(quantities)
    uniform = [(i, 1.0 / n) for i in range(n)]
    outcomes = uniform
    for _ in range(20):
        assert kr.sample_uniform_chance(state, n) == sample_chance(Node(), rng)  # type: ignore[arg-type]


def test_a_python_generator_continues_in_the_kernel_and_back() -> None:
    rng = random.Random(99)
    rng.random()
    state = kr.state_of(rng)
    assert kr.random(state) == rng.random()
    back = kr.to_python(state)
    assert back.random() == rng.random()


@SETTINGS
@given(st.integers(min_value=0, max_value=2**63 - 1), st.integers(min_value=0, max_value=5000),
       st.integers(min_value=1, max_value=7))
def test_kernel_seeds_are_the_simulation_seeds(seed: int, start: int, players: int) -> None:
    """The helpers kernels seed their generators with derive them as simulate and play_one do."""
    from boardgen.play.kernels import game_seeds, generator_seeds
    from boardgen.play.simulate import derive_seed

    games = game_seeds(seed, start, start + 3)
    assert games == [derive_seed(seed, "game", i) for i in range(start, start + 3)]
    rows = generator_seeds(games, players)
    assert rows.tolist() == [[derive_seed(g, "chance"), *(derive_seed(g, "seat", p) for p in range(players))]
                             for g in games]


@SETTINGS
@given(st.lists(seeds, min_size=1, max_size=9))
def test_seeding_rows_at_once_is_seeding_each(values: list[int]) -> None:
    states = kr.new_states(len(values) + 1)
    kr.seed_rows(states, np.array(values, dtype=np.int64), len(values))
    for row, seed in zip(states, values, strict=False):
        assert row.tolist() == kr.state_of(random.Random(seed)).tolist()
    assert not states[len(values)].any()  # rows past count untouched


@SETTINGS
@given(st.lists(seeds, min_size=1, max_size=30), st.integers(min_value=1, max_value=4),
       st.integers(min_value=1, max_value=5))
def test_games_streams_seeded_by_block_draw_as_cpython(values: list[int], streams: int, block_games: int) -> None:
    """seed_block / game_streams: each game's generators, seeded a block of games at a time and twisted already,
    give the words CPython's generator seeded alike gives (past the first twist too)."""
    games = len(values) // streams or 1
    table = np.array((values * streams)[:games * streams], dtype=np.int64).reshape(games, streams)
    states, scratch = kr.new_block(streams, block_games)
    for g in range(games):
        row = kr.game_streams(states, scratch, table, g)
        for j in range(streams):
            python = random.Random(int(table[g, j]))
            state = states[row + j].copy()
            assert [kr.genrand(state) for _ in range(700)] == [python.getrandbits(32) for _ in range(700)]
