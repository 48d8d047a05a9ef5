"""What the Pendragon engine tests share: the catalog, a typical knight's sheet, and a forced-dice run."""

from __future__ import annotations

from typing import Any

from content import load_catalog
from rules.dice import DiceSource
from rules.model import Scenario
from rules.pendragon.engine import ENGINE
from tests.rules.engine_support import Ran

CAT = load_catalog("pendragon")
QUIET = {"major_wound_unconscious": "never", "valorous_roll": False, "stat_loss": False}


def sheet(name: str = "Knight", **over: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "name": name, "siz": 15, "dex": 12, "str": 13, "con": 14, "app": 10,
        "skills": {"sword": 15, "axe": 15, "flail": 15, "warflail": 15, "lance": 15, "dagger": 15,
                   "horsemanship": 14, "brawling": 10},
        "weapons": ["sword", "axe", "flail", "dagger"], "armour": ["chainmail", "shield"],
    }
    base.update(over)
    return base


def run(attacker: dict[str, Any], defender: dict[str, Any] | None, action: dict[str, Any] | None = None,
        dice: dict[str, list[int]] | None = None, rulings: dict[str, Any] | None = None,
        npcs: frozenset[str] = frozenset()) -> Ran:
    source = DiceSource(forced=dice or {})
    scenario = Scenario("pendragon", action or {"type": "attack"}, attacker, defender, rulings or {}, npcs)
    result = ENGINE.resolve(scenario, source, CAT)
    assert source.unused() == {}, f"forced faces left over: {source.unused()}"
    return Ran.of(result)
