"""What the ars-harn engine tests share: the catalog, a plain weapon, a blank sheet, and a forced-dice run."""

from __future__ import annotations

from typing import Any

from content import load_catalog
from rules.ars_harn.engine import ENGINE
from rules.dice import DiceSource
from rules.model import Resolution, Scenario

CAT = load_catalog("ars-harn")

# A plain test weapon: no modifiers, so the totals are the dice and the sheet.
PLAIN = {"name": "Plain", "skill": "Sword", "blunt": 0, "edge": 0, "point": 0}


def run(action: dict[str, Any], attacker: dict[str, Any] | None = None, defender: dict[str, Any] | None = None,
        dice: dict[str, list[int]] | None = None, rulings: dict[str, Any] | None = None) -> Resolution:
    source = DiceSource(forced=dice or {})
    result = ENGINE.resolve(Scenario("ars-harn", action, attacker, defender, rulings or {}), source, CAT)
    source.check_all_used()
    return result


def who(name: str = "A", **extra: Any) -> dict[str, Any]:
    return {"name": name, "str": 0, "sta": 0, "dex": 0, "qik": 0, **extra}
