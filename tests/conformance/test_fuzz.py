"""Fuzz: mutated shipped templates through template loading and checks (what every command does first).

Every mutation (tests/fuzz_templates.py) must give a valid template or one BoardgenError line that names a
key (or a line of the file), within a time bound, never a traceback. ``pytest -m slow`` adds a campaign of
whole runs over every installed game in subprocesses with time and memory limits (scripts/fuzz_campaign.py does
the same at any size and prints the table of outcomes).
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardgen.errors import BoardgenError, ConfigError
from boardgen.template import load

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fuzz_templates import mutate, shipped_texts

TEXTS = shipped_texts()
LOAD_SECONDS = 5.0  # loading and checking a template is milliseconds; anything near this is a hang


def load_mutated(name: str, seed: int) -> tuple[str, BaseException | None, float]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_text(mutate(TEXTS[name], random.Random(seed), Path(folder)), encoding="utf-8",
                        errors="surrogatepass")
        started = time.perf_counter()
        try:
            load(path)
        except BoardgenError as exc:
            return str(exc), exc, time.perf_counter() - started
        return "", None, time.perf_counter() - started


@settings(max_examples=100, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(TEXTS)), seed=st.integers(0, 2**32 - 1))
def test_a_mutated_template_loads_or_fails_with_one_line_naming_a_key(name: str, seed: int) -> None:
    message, error, seconds = load_mutated(name, seed)  # any other exception fails the test
    assert seconds < LOAD_SECONDS, (name, seed, seconds)
    if error is not None:
        assert "\n" not in message and len(message) <= 1000, (seed, message[:200])
        if isinstance(error, ConfigError):
            assert error.key, (seed, message)


def test_the_mutations_reach_every_class() -> None:
    """The generator really produces bombs, deep nesting, tags, extends trouble and plain wrong values."""
    outcomes: dict[str, int] = {}
    for seed in range(120):
        message, _, _ = load_mutated("global-wellbeing.yaml", seed)
        for word in ("aliases are expanded", "nested more than", "extends", "not valid YAML", "expected"):
            if word in message:
                outcomes[word] = outcomes.get(word, 0) + 1
                break
        else:
            outcomes["ok" if not message else "other"] = outcomes.get("ok" if not message else "other", 0) + 1
    assert all(outcomes.get(k, 0) > 0 for k in ("aliases are expanded", "nested more than", "extends",
                                                 "not valid YAML", "expected", "ok")), outcomes


@pytest.mark.slow
def test_campaign_over_every_game(tmp_path: Path) -> None:
    """Whole ``boardgen validate`` runs (``build`` for the piecepack) of mutated templates and hostile data files
    of every installed game, with 60 s and 2 GB limits: every run accepted or one line naming a file and key."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
    from fuzz_campaign import campaign

    counts, failures, _ = campaign(count=30, folder=tmp_path, seed=24, jobs=2)
    for game, c in counts.items():
        assert sum(c.values()) == 30 and set(c) <= {"ok", "clean", "refused"}, (game, c, failures)
