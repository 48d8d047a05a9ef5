"""Every Pendragon rule builds its action's typed record itself (rules/pendragon/outcomes.py RECORDS): no record
is read back from a mapping while an action resolves, so mypy checks every field the rules write."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from rules.dice import DiceSource
from rules.model import Scenario
from rules.pendragon.engine import ACTIONS, ENGINE
from rules.pendragon.outcomes import RECORDS, PendragonOutcome
from tests.rules.pendragon.pendragon_support import CAT, sheet

# one action of each type, on a sheet it can act on
EACH: dict[str, tuple[dict[str, Any], dict[str, Any], dict[str, Any] | None]] = {
    "attack": ({"type": "attack", "notable": True}, sheet("A"), sheet("D")),
    "rearm": ({"type": "rearm"}, sheet("A", must_rearm=True, dropped_weapons=["sword"]), None),
    "stand": ({"type": "stand"}, sheet("A", prone=True), None),
    "first_aid": ({"type": "first_aid", "skill": 15}, sheet("A", wounds=[{"amount": 5}]), None),
    "chirurgery": ({"type": "chirurgery", "skill": 15},
                   sheet("A", wounds=[{"amount": 16, "major": True}], chirurgery_needed=True), None),
    "rest": ({"type": "rest", "weeks": 2}, sheet("A", wounds=[{"amount": 5}]), None),
    "fall": ({"type": "fall"}, sheet("A", unconscious=True, mounted=True, horse="charger"), None),
    "knockdown": ({"type": "knockdown", "damage": 20}, sheet("A"), None),
    "major_wound": ({"type": "major_wound"}, sheet("A", wounds=[{"amount": 16, "major": True}]), None),
    "gm_decide": ({"type": "gm_decide", "kind": "damage", "amount": 18}, sheet("A"), None),
    "initiative": ({"type": "initiative"}, sheet("A"), sheet("D")),
    "unequip": ({"type": "unequip", "kind": "weapon", "item": "axe"}, sheet("A"), None),
    "end_fight": ({"type": "end_fight"}, sheet("A", prone=True, dropped_weapons=["sword"]), None),
    "condition": ({"type": "condition", "add": ["prone"]}, sheet("A"), None),
}


def test_every_action_is_listed() -> None:
    assert set(EACH) == set(ACTIONS) == set(RECORDS)


@pytest.mark.parametrize("kind", sorted(EACH))
def test_each_rule_builds_its_record_without_reading_a_mapping(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(cls: type, data: Any) -> Any:
        raise AssertionError(f"{cls.__name__} read from a mapping while {kind} resolved")

    monkeypatch.setattr(PendragonOutcome, "from_dict", classmethod(refused))
    action, attacker, defender = EACH[kind]
    for seed in range(5):
        scenario = Scenario("pendragon", action, attacker, defender, {})
        record = ENGINE.resolve(scenario, DiceSource(rng=Random(seed)), CAT).outcome
        assert type(record) is RECORDS[kind] and record.action == kind
