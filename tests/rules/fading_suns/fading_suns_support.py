"""What the Fading Suns engine tests share: the catalog, and a run whose every die must be forced."""

from __future__ import annotations

from random import Random
from typing import Any

from content import load_catalog
from rules.dice import DiceSource
from rules.fading_suns.engine import ENGINE
from rules.model import Scenario
from tests.rules.engine_support import Ran

CAT = load_catalog("fading-suns")


class NoRandom(Random):
    """Every die in these tests is forced: a random fallback is a test mistake."""

    def randint(self, a: int, b: int) -> int:
        raise AssertionError("a die was rolled without a forced face")


def run(action: dict[str, Any], attacker: dict[str, Any], defender: dict[str, Any] | None = None,
        dice: dict[str, list[int]] | None = None, rulings: dict[str, Any] | None = None) -> Ran:
    source = DiceSource(forced=dice or {}, rng=NoRandom())
    # The attack tests name the defense they want; a target otherwise makes none here (the ruling's other
    # value: by default it dodges, test_fading_suns_defense.py).
    rulings = {"unnamed_defense": "none", **(rulings or {})}
    result = ENGINE.resolve(Scenario("fading-suns", action, attacker, defender, rulings), source, CAT)
    source.check_all_used()
    return Ran.of(result)
