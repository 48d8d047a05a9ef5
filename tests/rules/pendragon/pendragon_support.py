"""What the Pendragon engine tests share: the catalog, a typical knight's sheet, and a forced-dice run."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from content import load_catalog
from rules.dice import DiceSource, Roll
from rules.model import Resolution, Scenario, Sheet
from rules.outcome import Outcome
from rules.pendragon.engine import ENGINE

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


def run(attacker: dict[str, Any], defender: dict[str, Any] | None, action: dict[str, Any] | None = None,
        dice: dict[str, list[int]] | None = None, rulings: dict[str, Any] | None = None,
        npcs: frozenset[str] = frozenset()) -> Ran:
    source = DiceSource(forced=dice or {})
    scenario = Scenario("pendragon", action or {"type": "attack"}, attacker, defender, rulings or {}, npcs)
    result = ENGINE.resolve(scenario, source, CAT)
    assert source.unused() == {}, f"forced faces left over: {source.unused()}"
    return Ran.of(result)
