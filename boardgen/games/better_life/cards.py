"""The four decks of BETTER Life read from data rows (CSV files named by the template's ``decks`` keys): the
action deck (role cards and regular action cards), the event deck, the policies and the policy targets.

The engine and the printer read these same rows. A row that the engine could not play (an unknown effect, a
card with no effect, a policy target naming an unknown policy) is a one-line ConfigError naming the file, the row
and the column.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from boardgen.errors import ConfigError
from boardgen.i18n import Translator, english, localised_cell
from boardgen.yaml_reader import short_repr

DATA_DIR = Path(__file__).with_name("data")

ACTION_EFFECTS = ("gain-ip", "roll-bonus", "take-each", "take-fund", "draw-action", "cancel-event", "restore")
EVENT_EFFECTS = ("loss", "heal", "all-lose-ip", "all-gain-ip", "gain-ip", "lose-ip", "pay-fund", "skip", "back",
                 "draw-action", "reward-generous", "shame-idle")
TIMINGS = ("start", "event")


@dataclass(frozen=True)
class ActionCard:
    id: str
    title: str
    kind: str  # "role" or "action"
    timing: str  # "start" (before you roll) or "event" (when you draw an event)
    effect: str
    amount: int
    quantity: int
    text: str


@dataclass(frozen=True)
class EventCard:
    id: str
    title: str
    effect: str
    amount: int
    buy_off: int  # 0: cannot be bought off; else the IP the drawer may pay to the box to cancel it
    quantity: int
    text: str


@dataclass(frozen=True)
class Policy:
    id: str
    title: str
    goal: str  # the strategy's target, in our words
    section: str  # section of COM(2020) 380 that states it
    text: str  # flavour line on the card


@dataclass(frozen=True)
class Target:
    id: str
    primary: str
    secondary: str
    tertiary: str
    quantity: int

    @property
    def ranked(self) -> tuple[str, str, str]:
        return (self.primary, self.secondary, self.tertiary)


@dataclass(frozen=True)
class Decks:
    actions: tuple[ActionCard, ...]  # one row per card design (quantity apart)
    events: tuple[EventCard, ...]
    policies: tuple[Policy, ...]
    targets: tuple[Target, ...]
    sources: dict[str, Path]

    def action(self, card_id: str) -> ActionCard:
        for c in self.actions:
            if c.id == card_id:
                return c
        raise KeyError(card_id)

    @property
    def regular_actions(self) -> tuple[ActionCard, ...]:
        return tuple(c for c in self.actions if c.kind == "action")

    def action_copies(self) -> tuple[ActionCard, ...]:
        """The regular action deck, one entry per printed card."""
        return tuple(c for c in self.regular_actions for _ in range(c.quantity))

    def event_copies(self) -> tuple[EventCard, ...]:
        return tuple(c for c in self.events for _ in range(c.quantity))

    def target_copies(self) -> tuple[Target, ...]:
        return tuple(t for t in self.targets for _ in range(t.quantity))

    def policy_index(self, policy_id: str) -> int:
        return [p.id for p in self.policies].index(policy_id)


def resolve(name: str, template_source: str, key: str = "decks") -> Path:
    """A deck file: relative to the template's folder first, then the game's bundled ``data`` folder (and
    inside the folder it is found in: boardgen.datafiles.locate)."""
    from boardgen.datafiles import locate

    return locate(name, template_source, key, (DATA_DIR,), "deck file")


def _rows(path: Path, key: str, source: str, columns: tuple[str, ...]) -> list[tuple[int, dict[str, str]]]:
    from boardgen.datafiles import read_csv

    _header, rows = read_csv(path, source, key, "deck file", columns)
    if not rows:
        raise ConfigError(str(path), "", "the deck has no rows")
    return rows


def _int(path: Path, line: int, row: dict[str, str], column: str, low: int, high: int) -> int:
    value = row.get(column, "")
    try:
        number = int(value)
    except ValueError:
        raise ConfigError(str(path), f"line {line}.{column}",
                          f"expected a whole number, got {short_repr(value, 30)}") from None
    if not low <= number <= high:
        raise ConfigError(str(path), f"line {line}.{column}", f"expected {low} to {high}, got {number}")
    return number


def _text(path: Path, line: int, row: dict[str, str], column: str, limit: int = 240,
          tr: Translator | None = None) -> str:
    value = localised_cell(row, column, tr) if tr is not None else row.get(column, "")
    if not value:
        raise ConfigError(str(path), f"line {line}.{column}", "empty; every card needs this")
    if len(value) > limit:
        raise ConfigError(str(path), f"line {line}.{column}", f"{len(value)} characters; at most {limit} fit")
    return value


def _choice(path: Path, line: int, row: dict[str, str], column: str, options: tuple[str, ...]) -> str:
    value = row.get(column, "")
    if not value:
        raise ConfigError(str(path), f"line {line}.{column}", f"a card with no {column}; expected one of "
                          f"{', '.join(options)}")
    if value not in options:
        raise ConfigError(str(path), f"line {line}.{column}",
                          f"unknown {column} {short_repr(value, 30)}; expected one of {', '.join(options)}")
    return value


def _unique(path: Path, ids: list[tuple[int, str]]) -> None:
    seen: set[str] = set()
    for line, card_id in ids:
        if card_id in seen:
            raise ConfigError(str(path), f"line {line}.id", f"id {card_id!r} used twice")
        seen.add(card_id)


def load_decks(names: object, source: str, tr: Translator | None = None) -> Decks:
    """The four decks named by the template's ``decks`` section (``names`` has attributes action, event,
    policy, target), their printed words (title, text, goal) in ``tr``'s language (``localised_cell``: a
    ``text_de`` column of the row, else the game's catalog, else the row's English)."""
    tr = tr or english()
    paths = {k: resolve(getattr(names, k), source, f"decks.{k}") for k in ("action", "event", "policy", "target")}
    p = paths["action"]
    actions = []
    for line, row in _rows(p, "decks.action", source,
                           ("id", "title", "kind", "timing", "effect", "amount", "quantity", "text")):
        actions.append(ActionCard(_text(p, line, row, "id", 40), _text(p, line, row, "title", 40, tr),
                                  _choice(p, line, row, "kind", ("role", "action")),
                                  _choice(p, line, row, "timing", TIMINGS),
                                  _choice(p, line, row, "effect", ACTION_EFFECTS),
                                  _int(p, line, row, "amount", 1, 10), _int(p, line, row, "quantity", 1, 30),
                                  _text(p, line, row, "text", tr=tr)))
        card = actions[-1]
        if (card.effect == "cancel-event") != (card.timing == "event"):
            raise ConfigError(str(p), f"line {line}.timing", "cancel-event cards are played when an event is "
                              "drawn (timing event), all others before the roll (timing start)")
    _unique(p, [(i + 2, c.id) for i, c in enumerate(actions)])
    if not any(c.kind == "action" for c in actions):
        raise ConfigError(str(p), "", "no regular action cards (kind action)")
    p = paths["event"]
    events = []
    for line, row in _rows(p, "decks.event", source, ("id", "title", "effect", "amount", "buy_off", "quantity",
                                                      "text")):
        events.append(EventCard(_text(p, line, row, "id", 40), _text(p, line, row, "title", 40, tr),
                                _choice(p, line, row, "effect", EVENT_EFFECTS), _int(p, line, row, "amount", 1, 10),
                                _int(p, line, row, "buy_off", 0, 20), _int(p, line, row, "quantity", 1, 30),
                                _text(p, line, row, "text", tr=tr)))
    _unique(p, [(i + 2, c.id) for i, c in enumerate(events)])
    p = paths["policy"]
    policies = []
    for line, row in _rows(p, "decks.policy", source, ("id", "title", "goal", "section", "text")):
        policies.append(Policy(_text(p, line, row, "id", 40), _text(p, line, row, "title", 40, tr),
                               _text(p, line, row, "goal", tr=tr), _text(p, line, row, "section", 12),
                               _text(p, line, row, "text", tr=tr)))
    _unique(p, [(i + 2, c.id) for i, c in enumerate(policies)])
    known = [x.id for x in policies]
    p = paths["target"]
    targets = []
    for line, row in _rows(p, "decks.target", source, ("id", "primary", "secondary", "tertiary", "quantity")):
        ranked = []
        for column in ("primary", "secondary", "tertiary"):
            value = _text(p, line, row, column, 40)
            if value not in known:
                raise ConfigError(str(p), f"line {line}.{column}",
                                  f"unknown policy {short_repr(value, 30)}; the policies are {', '.join(known)}")
            ranked.append(value)
        if len(set(ranked)) != 3:
            raise ConfigError(str(p), f"line {line}", "a target card names three different policies")
        targets.append(Target(_text(p, line, row, "id", 40), ranked[0], ranked[1], ranked[2],
                              _int(p, line, row, "quantity", 1, 30)))
    _unique(p, [(i + 2, c.id) for i, c in enumerate(targets)])
    return Decks(tuple(actions), tuple(events), tuple(policies), tuple(targets), paths)
