"""What the Fading Suns engine tests share: the catalog, and a run whose every die must be forced."""

from __future__ import annotations

from dataclasses import dataclass
from random import Random
from typing import Any

from content import load_catalog
from rules.dice import DiceSource, Roll
from rules.fading_suns.engine import ENGINE
from rules.model import Resolution, Scenario, Sheet
from rules.outcome import Outcome

CAT = load_catalog("fading-suns")


class NoRandom(Random):
    """Every die in these tests is forced: a random fallback is a test mistake."""

    def randint(self, a: int, b: int) -> int:
        raise AssertionError("a die was rolled without a forced face")


@dataclass(frozen=True)
class Ran:
    """An action's Resolution as these tests read it: ``outcome`` as an event stores it (the record's ``to_dict``,
    so the tests hold the stored shape too), ``record`` the typed record itself."""

    record: Outcome
    outcome: dict[str, Any]
    rolls: tuple[Roll, ...]
    attacker: Sheet | None
    defender: Sheet | None
    resolution: Resolution

    @classmethod
    def of(cls, resolution: Resolution) -> Ran:
        return cls(resolution.outcome, resolution.outcome.to_dict(), resolution.rolls, resolution.attacker,
                   resolution.defender, resolution)

    def to_dict(self) -> dict[str, Any]:
        return self.resolution.to_dict()


def run(action: dict[str, Any], attacker: dict[str, Any], defender: dict[str, Any] | None = None,
        dice: dict[str, list[int]] | None = None, rulings: dict[str, Any] | None = None) -> Ran:
    source = DiceSource(forced=dice or {}, rng=NoRandom())
    # The attack tests name the defense they want; a target otherwise makes none here (the ruling's other
    # value: by default it dodges, test_fading_suns_defense.py).
    rulings = {"unnamed_defense": "none", **(rulings or {})}
    result = ENGINE.resolve(Scenario("fading-suns", action, attacker, defender, rulings), source, CAT)
    source.check_all_used()
    return Ran.of(result)
