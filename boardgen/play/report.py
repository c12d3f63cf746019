"""Findings and reports shared by every game's `validate`: a finding is (rule, severity, where, message)."""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass
from typing import Any, Literal

Severity = Literal["error", "warning", "info"]
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")


@dataclass(frozen=True)
class Finding:
    rule: str
    severity: Severity
    where: str
    message: str


@dataclass
class Report:
    edition: str
    findings: list[Finding]
    simulation: dict[str, Any] | None

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity == "error")

    def counts(self) -> dict[str, int]:
        return {s: sum(1 for f in self.findings if f.severity == s) for s in SEVERITIES}

    def sorted(self) -> Report:
        order = {s: i for i, s in enumerate(SEVERITIES)}
        return Report(self.edition, sorted(self.findings, key=lambda f: order[f.severity]), self.simulation)

    def to_json(self) -> dict[str, Any]:
        return {
            "edition": self.edition,
            "counts": self.counts(),
            "findings": [asdict(f) for f in self.findings],
            "simulation": self.simulation,
        }

    def json_bytes(self) -> bytes:
        return (json.dumps(self.to_json(), indent=2, ensure_ascii=False) + "\n").encode()

    def text(self) -> str:
        lines = [f"{f.severity.upper():<7} {f.rule:<24} {f.where}: {f.message}" for f in self.findings]
        c = self.counts()
        lines.append(f"{c['error']} errors, {c['warning']} warnings, {c['info']} notes")
        return "\n".join(lines) + "\n"


def wilson_interval(successes: float, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval for a proportion (successes may be fractional: shared wins)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def results_bytes(document: dict[str, Any]) -> bytes:
    """A ``boardgen simulate`` results document as the bytes of results.json."""
    return (json.dumps(document, indent=1, ensure_ascii=False) + "\n").encode()
