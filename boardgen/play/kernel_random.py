"""CPython's ``random.Random`` (MT19937) as numba-compiled functions over a flat state array, bit for bit.

A compiled game kernel plays the same games as the rules API only if it draws the same numbers: the API path
seeds ``random.Random(int)`` for chance and for each seat's bot, and the bots and ``sample_chance`` call
``random()``, ``choice`` and friends. Every function here does what CPython 3 does, word for word, on a state
array of ``STATE_WORDS`` int64 (the 624 words of the twister, then the position of the next word, the layout of
``random.getstate()[1]``), so ``state_of(random.Random(s))`` and ``seed(new_state(), s)`` hold the same numbers.

- ``seed(st, n)``: ``random.Random(n)`` for an int64 ``n`` (CPython keys the twister with the 32-bit words of
  ``abs(n)``); ``seed_key(st, words)`` for any int's words (``key_words``); ``seed_rows(states, seeds, count)``
  seeds several generators at once (a game's chance and seats), faster than one by one; ``seed_block`` and
  ``game_streams`` seed the generators of a block of games side by side, twisted already, faster still;
- ``genrand(st)`` (one tempered 32-bit word), ``random(st)``, ``getrandbits(st, k)`` for k <= 63, ``uniform``;
- ``randbelow(st, n)`` is CPython's ``_randbelow`` (``getrandbits(n.bit_length())`` until below n), which
  ``randrange``, ``randint``, ``choice`` (``choice_index``), ``shuffle`` and ``sample`` (``sample_indices``) use;
- ``choices_indices`` / ``choices_weighted``: ``random.choices`` without and with (cumulative) weights, which use
  ``floor(random() * n)`` and ``bisect_right`` instead;
- ``random_index(st, n)``: ``int(random() * n)``, how boardgen's bots pick among n options;
- ``sample_chance(st, probabilities, n)``: ``boardgen.play.api.sample_chance`` over the first n probabilities
  (the same float sums in the same order), and ``sample_uniform_chance(st, n)`` for n outcomes of ``1.0 / n``.

Functions that return several values write them into an array the caller passes (nothing here allocates), and
return indices rather than elements, so the caller maps them onto its own arrays. Import this module through a
kernel (which names this file in its ``boardgen.play.kernels.compiled`` sources) or directly, as the tests do.
"""

from __future__ import annotations

import math
import random as _py_random

import numpy as np

from boardgen.play.kernels import compiled as _compiled

MT_N = 624
MT_M = 397
POS = MT_N  # the state's last word: the position of the next word to temper (MT_N: twist first)
STATE_WORDS = MT_N + 1
MASK32 = 0xFFFFFFFF

_jit = _compiled(__file__)
_flat = _compiled(__file__, refcounts=False)  # functions that make no array: no reference counts


def _init_genrand_base() -> np.ndarray:
    """MT19937's ``init_genrand(19650218)``, where ``init_by_array`` starts whatever the key."""
    mt = np.zeros(MT_N, dtype=np.int64)
    mt[0] = 19650218
    for i in range(1, MT_N):
        prev = int(mt[i - 1])
        mt[i] = (1812433253 * (prev ^ (prev >> 30)) + i) & MASK32
    return mt


BASE = _init_genrand_base()


def new_state() -> np.ndarray:
    """An unseeded state (all zeros: seed it before drawing)."""
    return np.zeros(STATE_WORDS, dtype=np.int64)


def new_states(count: int) -> np.ndarray:
    """``count`` unseeded states, one per row (row g is generator g: pass ``states[g]``)."""
    return np.zeros((count, STATE_WORDS), dtype=np.int64)


def key_words(n: int) -> np.ndarray:
    """The key CPython seeds ``random.Random(n)`` with: the 32-bit words of ``abs(n)``, least significant first
    (``[0]`` for 0)."""
    n = abs(int(n))
    words = []
    while True:
        words.append(n & MASK32)
        n >>= 32
        if not n:
            break
    return np.array(words, dtype=np.int64)


def state_of(rng: _py_random.Random) -> np.ndarray:
    """The state array of a Python generator (``getstate()``), to continue its stream in a kernel."""
    return np.array(rng.getstate()[1], dtype=np.int64)


def to_python(st: np.ndarray) -> _py_random.Random:
    """A Python generator in the state ``st`` is in (for tests and for handing a stream back)."""
    rng = _py_random.Random()
    rng.setstate((3, tuple(int(x) for x in st), None))
    return rng


@_flat
def ready(n: int) -> int:
    """n + 1, compiled: the first compiled call in a process sets numba's typing and code generation up (some
    0.2-0.4 s, even from the disk cache), and ``boardgen.play.kernels.KernelLoader`` pays it with this call as
    it loads a kernel, so that the kernel's own first call does not."""
    return n + 1


# ---------------------------------------------------------------------------------------------- seeding


@_flat
def seed_key(st: np.ndarray, key: np.ndarray) -> None:
    """CPython's ``init_by_array(key)`` (``key``: 32-bit words, at least one)."""
    for i in range(MT_N):
        st[i] = BASE[i]
    length = key.shape[0]
    i = 1
    j = 0
    k = MT_N if length < MT_N else length
    while k > 0:
        prev = st[i - 1]
        st[i] = ((st[i] ^ ((prev ^ (prev >> 30)) * 1664525)) + key[j] + j) & MASK32
        i += 1
        j += 1
        if i >= MT_N:
            st[0] = st[MT_N - 1]
            i = 1
        if j >= length:
            j = 0
        k -= 1
    k = MT_N - 1
    while k > 0:
        prev = st[i - 1]
        st[i] = ((st[i] ^ ((prev ^ (prev >> 30)) * 1566083941)) - i) & MASK32
        i += 1
        if i >= MT_N:
            st[0] = st[MT_N - 1]
            i = 1
        k -= 1
    st[0] = 0x80000000
    st[POS] = MT_N


@_jit
def seed(st: np.ndarray, n: int) -> None:
    """``random.Random(n)`` (``random.seed(n)``) for an int64 ``n`` other than -2**63."""
    a = -n if n < 0 else n
    key = np.empty(2, dtype=np.int64)
    key[0] = a & MASK32
    key[1] = a >> 32
    seed_key(st, key[:1] if key[1] == 0 else key)


@_jit
def seed_rows(states: np.ndarray, seeds: np.ndarray, count: int) -> None:
    """``seed(states[r], seeds[r])`` for every r < count, the rows in lock step: seeding is a chain of dependent
    steps, and several independent chains interleaved run a few times faster than one after another."""
    key0 = np.empty(count, dtype=np.int64)
    key1 = np.empty(count, dtype=np.int64)
    lengths = np.empty(count, dtype=np.int64)
    j = np.zeros(count, dtype=np.int64)
    for r in range(count):
        a = -seeds[r] if seeds[r] < 0 else seeds[r]
        key0[r] = a & MASK32
        key1[r] = a >> 32
        lengths[r] = 1 if key1[r] == 0 else 2
        for i in range(MT_N):
            states[r, i] = BASE[i]
    i = 1
    for _ in range(MT_N):  # max(MT_N, key length) steps: keys of an int64 have one or two words
        for r in range(count):
            prev = states[r, i - 1]
            key = key0[r] if j[r] == 0 else key1[r]
            states[r, i] = ((states[r, i] ^ ((prev ^ (prev >> 30)) * 1664525)) + key + j[r]) & MASK32
            j[r] = j[r] + 1 if j[r] + 1 < lengths[r] else 0
        i += 1
        if i >= MT_N:
            for r in range(count):
                states[r, 0] = states[r, MT_N - 1]
            i = 1
    for _ in range(MT_N - 1):
        for r in range(count):
            prev = states[r, i - 1]
            states[r, i] = ((states[r, i] ^ ((prev ^ (prev >> 30)) * 1566083941)) - i) & MASK32
        i += 1
        if i >= MT_N:
            for r in range(count):
                states[r, 0] = states[r, MT_N - 1]
            i = 1
    for r in range(count):
        states[r, 0] = 0x80000000
        states[r, POS] = MT_N


BLOCK_GAMES = 16  # games whose generators ``game_streams`` seeds at once


@_jit
def new_block(streams: int, games: int) -> tuple[np.ndarray, np.ndarray]:
    """(states, scratch) for ``seed_block`` and ``game_streams``: room for the ``streams`` generators of
    ``games`` games, one state per row, and the scratch they are seeded in."""
    return (np.zeros((games * streams, STATE_WORDS), dtype=np.int64),
            np.zeros((MT_N + 2, games * streams), dtype=np.int64))


@_flat
def seed_block(states: np.ndarray, seeds: np.ndarray, first: int, games: int, scratch: np.ndarray) -> None:
    """Seed one generator per seed of rows ``first .. first + games`` of ``seeds`` (games x streams), row by row,
    into ``states`` from row 0: each ``seed(state, seed)`` and twisted already (the twist its first draw would
    do: the same numbers follow). The generators are worked on side by side, word i of every generator next to
    each other in ``scratch`` (MT_N + 2 rows), so that the compiler runs the long chains of seeding and the
    twist on vectors of generators: several times faster than ``seed_rows``."""
    t = scratch
    streams = seeds.shape[1]
    count = games * streams
    for r in range(count):  # init_by_array adds key[k % length] + k % length at step k; rows MT_N and
        n = seeds[first + r // streams, r % streams]  # MT_N + 1 hold what even and odd steps add (the key
        a = -n if n < 0 else n  # of an int64 has one word or two)
        t[MT_N, r] = a & MASK32
        t[MT_N + 1, r] = (a & MASK32) if a >> 32 == 0 else (a >> 32) + 1
    for i in range(MT_N):
        cur, word = t[i], BASE[i]
        for r in range(count):
            cur[r] = word
    for k in range(MT_N):
        i = k + 1 if k + 1 < MT_N else k + 2 - MT_N  # the step after the wrap works on word 1 again
        if i == 1 and k > 0:
            for r in range(count):
                t[0, r] = t[MT_N - 1, r]
        cur, before, add = t[i], t[i - 1], t[MT_N + k % 2]  # rows of the scratch, for the vectoriser
        for r in range(count):
            prev = before[r]
            cur[r] = ((cur[r] ^ ((prev ^ (prev >> 30)) * 1664525)) + add[r]) & MASK32
    i = 2
    for _ in range(MT_N - 1):
        cur, before = t[i], t[i - 1]
        for r in range(count):
            prev = before[r]
            cur[r] = ((cur[r] ^ ((prev ^ (prev >> 30)) * 1566083941)) - i) & MASK32
        i += 1
        if i >= MT_N:
            for r in range(count):
                t[0, r] = t[MT_N - 1, r]
            i = 1
    for r in range(count):
        t[0, r] = 0x80000000
    for kk in range(MT_N):  # _twist
        nxt = kk + 1 if kk + 1 < MT_N else 0
        m = kk + MT_M if kk + MT_M < MT_N else kk + MT_M - MT_N
        cur, after, far = t[kk], t[nxt], t[m]
        for r in range(count):
            y = (cur[r] & 0x80000000) | (after[r] & 0x7FFFFFFF)
            cur[r] = far[r] ^ (y >> 1) ^ ((-(y & 1)) & 0x9908B0DF)
    for i in range(MT_N):
        cur = t[i]
        for r in range(count):
            states[r, i] = cur[r]
    for r in range(count):
        states[r, POS] = 0


@_flat
def game_streams(states: np.ndarray, scratch: np.ndarray, seeds: np.ndarray, g: int) -> int:
    """The row of ``states`` (from ``new_block``) where game g's generators start, seeded from ``seeds[g]``
    (games x streams; generator j of the game is row + j): games are played in order from 0, and the first
    game of each block of ``states.shape[0] // streams`` seeds the whole block (``seed_block``)."""
    streams = seeds.shape[1]
    per = states.shape[0] // streams
    at = g % per
    if at == 0:
        seed_block(states, seeds, g, min(per, seeds.shape[0] - g), scratch)
    return at * streams


# ---------------------------------------------------------------------------------------------- words


@_flat
def _twist(st: np.ndarray) -> None:
    for kk in range(MT_N):
        y = (st[kk] & 0x80000000) | (st[kk + 1 if kk + 1 < MT_N else 0] & 0x7FFFFFFF)
        m = kk + MT_M if kk + MT_M < MT_N else kk + MT_M - MT_N
        v = st[m] ^ (y >> 1)
        if y & 1:
            v ^= 0x9908B0DF
        st[kk] = v
    st[POS] = 0


@_flat
def genrand(st: np.ndarray) -> int:
    """The next tempered 32-bit word (CPython's ``genrand_uint32``)."""
    if st[POS] >= MT_N:
        _twist(st)
    v = st[st[POS]]
    st[POS] += 1
    v ^= v >> 11
    v ^= (v << 7) & 0x9D2C5680
    v ^= (v << 15) & 0xEFC60000
    v ^= v >> 18
    return v


@_flat
def random(st: np.ndarray) -> float:
    """``random.random()``: 53 bits from two words (27 + 26)."""
    a = genrand(st) >> 5
    b = genrand(st) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


@_flat
def getrandbits(st: np.ndarray, k: int) -> int:
    """``random.getrandbits(k)`` for 0 <= k <= 63: 32-bit words least significant first, the last one's low
    bits dropped."""
    if k <= 32:
        return genrand(st) >> (32 - k) if k > 0 else 0
    low = genrand(st)
    return low | ((genrand(st) >> (64 - k)) << 32)


@_flat
def bit_length(n: int) -> int:
    """``int.bit_length`` of n >= 0."""
    k = 0
    while n:
        n >>= 1
        k += 1
    return k


@_flat
def randbelow(st: np.ndarray, n: int) -> int:
    """CPython's ``Random._randbelow(n)`` for 0 < n < 2**63: ``getrandbits(n.bit_length())`` until below n."""
    k = bit_length(n)
    r = getrandbits(st, k)
    while r >= n:
        r = getrandbits(st, k)
    return r


@_flat
def randrange(st: np.ndarray, start: int, stop: int) -> int:
    """``random.randrange(start, stop)`` (stop > start)."""
    return start + randbelow(st, stop - start)


@_flat
def randint(st: np.ndarray, a: int, b: int) -> int:
    """``random.randint(a, b)`` (b >= a)."""
    return a + randbelow(st, b - a + 1)


@_flat
def uniform(st: np.ndarray, a: float, b: float) -> float:
    """``random.uniform(a, b)``."""
    return a + (b - a) * random(st)


@_flat
def choice_index(st: np.ndarray, n: int) -> int:
    """The index ``random.choice`` takes from a sequence of n > 0 items."""
    return randbelow(st, n)


@_flat
def random_index(st: np.ndarray, n: int) -> int:
    """``int(random() * n)``: how boardgen's bots pick one of n options."""
    return int(random(st) * n)


# ---------------------------------------------------------------------------------------------- sequences


@_flat
def shuffle(st: np.ndarray, items: np.ndarray) -> None:
    """``random.shuffle(items)`` in place (any 1-D array)."""
    for i in range(items.shape[0] - 1, 0, -1):
        j = randbelow(st, i + 1)
        x = items[i]
        items[i] = items[j]
        items[j] = x


@_flat
def sample_indices(st: np.ndarray, n: int, k: int, out: np.ndarray, scratch: np.ndarray) -> None:
    """``random.sample(range(n), k)`` into ``out[:k]`` (the indices ``sample`` picks from a population of n);
    ``scratch``: n int64 the function may overwrite. CPython pools the population when it is small and
    otherwise redraws indices already taken; both ways are followed."""
    setsize = 21
    if k > 5:
        setsize += 4 ** int(math.ceil(math.log(k * 3) / math.log(4.0)))  # noqa: RUF046  (numba: an int)
    if n <= setsize:
        for i in range(n):
            scratch[i] = i
        for i in range(k):
            j = randbelow(st, n - i)
            out[i] = scratch[j]
            scratch[j] = scratch[n - i - 1]
    else:
        for i in range(n):
            scratch[i] = 0
        for i in range(k):
            j = randbelow(st, n)
            while scratch[j]:
                j = randbelow(st, n)
            scratch[j] = 1
            out[i] = j


@_flat
def choices_indices(st: np.ndarray, n: int, k: int, out: np.ndarray) -> None:
    """``random.choices(range(n), k=k)`` into ``out[:k]``: ``floor(random() * n)`` each."""
    nf = float(n)
    for i in range(k):
        out[i] = int(math.floor(random(st) * nf))  # noqa: RUF046


@_flat
def bisect_right(a: np.ndarray, x: float, lo: int, hi: int) -> int:
    """``bisect.bisect_right(a, x, lo, hi)``."""
    while lo < hi:
        mid = (lo + hi) // 2
        if x < a[mid]:
            hi = mid
        else:
            lo = mid + 1
    return lo


@_flat
def choices_weighted(st: np.ndarray, cum_weights: np.ndarray, k: int, out: np.ndarray) -> None:
    """``random.choices(range(n), cum_weights=cum_weights, k=k)`` into ``out[:k]`` (n = len(cum_weights));
    for ``weights=w`` pass the running sums of w as Python adds them (``itertools.accumulate``), which for
    integer weights below 2**53 are exact as floats."""
    n = cum_weights.shape[0]
    total = cum_weights[n - 1] + 0.0
    for i in range(k):
        out[i] = bisect_right(cum_weights, random(st) * total, 0, n - 1)


# ---------------------------------------------------------------------------------------------- chance nodes


@_flat
def sample_chance(st: np.ndarray, probabilities: np.ndarray, n: int) -> int:
    """``boardgen.play.api.sample_chance``: the index of the outcome whose running sum of probabilities first
    exceeds ``random()`` (the last when rounding leaves the sum below it)."""
    r = random(st)
    acc = 0.0
    for i in range(n):
        acc += probabilities[i]
        if r < acc:
            return i
    return n - 1


@_flat
def sample_uniform_chance(st: np.ndarray, n: int) -> int:
    """``sample_chance`` over n outcomes of probability ``1.0 / n`` each (the sum of n of them can miss 1 by
    rounding, so this is not always ``int(random() * n)``)."""
    r = random(st)
    p = 1.0 / n
    acc = 0.0
    for i in range(n):
        acc += p
        if r < acc:
            return i
    return n - 1


__all__ = [
    "BASE", "BLOCK_GAMES", "MT_N", "POS", "STATE_WORDS", "bisect_right", "bit_length", "choice_index",
    "choices_indices", "choices_weighted", "game_streams", "genrand", "getrandbits", "key_words", "new_block",
    "new_state", "new_states", "randbelow", "randint", "random", "random_index", "randrange", "ready",
    "sample_chance", "sample_indices", "sample_uniform_chance", "seed", "seed_block", "seed_key", "seed_rows",
    "shuffle", "state_of", "to_python", "uniform"
]  # fmt: skip
