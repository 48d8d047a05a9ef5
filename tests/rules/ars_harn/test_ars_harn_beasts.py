"""Beasts in ars-harn (issue 34, A2; docs/rules/ars-harn.md rule 21): a natural weapon (a wolf's Bite) is part of
the body: never held, so never dropped by a fumble, and struck with when nothing is in hand."""

from __future__ import annotations

from typing import Any

import pytest

from content import load_catalog
from rules.errors import SheetError
from tests.rules.ars_harn.ars_harn_support import PLAIN, run, who

BITE = {"name": "Bite", "skill": "Brawling", "atk": 2, "edge": 3, "point": 4, "natural": "head"}


def wolf(**extra: Any) -> dict[str, Any]:
    return who("Wolf 1", sta=1, weapons=[BITE], **extra)


def test_a_wolf_hit_in_the_foreleg_keeps_its_bite() -> None:
    # forearm, even: right; 20+: G4, an automatic fumble, which drops nothing a beast holds in its jaws
    dice = {"attack": [5], "defense": [5], "location": [38], "shock": [9]}
    result = run({"aspect": "blunt", "modifier": 21}, who(weapons=[PLAIN]), wolf(), dice)
    out = result.outcome.to_dict()
    assert out["fumble"]["passed"] is False and out["dropped"] is None
    assert result.defender is not None and result.defender["dropped"] == []


def test_a_wolf_strikes_with_its_bite_when_nothing_is_in_hand() -> None:
    result = run({}, wolf(), who("B"), {"attack": [5], "defense": [9]})
    assert result.outcome.to_dict()["weapon"] == "Bite"
    assert result.attacker is not None and result.attacker["held"] == {"right": None, "left": None}


def test_a_natural_weapon_is_a_limb_of_the_body_named() -> None:
    with pytest.raises(SheetError, match="field 'natural' must be one of arm, leg, head"):
        run({}, who("W", weapons=[{**BITE, "natural": "tail"}]), who("B"), {"attack": [5], "defense": [9]})


def test_the_packs_wolf_bites_with_a_natural_weapon() -> None:
    [bite] = load_catalog("ars-harn").npc_templates()["wolf"]["weapons"]
    assert bite["natural"] == "head"
