"""Dice by side (issue 31, issue 34 P6): a face forced for one side's roll of a label both sides may roll (a
knockdown, a shock roll, a wound's effect roll) goes to that side's roll only, never to the other side's; a
label forced without a side reads as it always did (the engine tests' forced dice). Each engine names the
labels that are always one side's (``label_sides``)."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from content import load_catalog
from rules.ars_harn.engine import ENGINE as ARS_HARN
from rules.dice import DiceSource
from rules.fading_suns.engine import ENGINE as FADING_SUNS
from rules.model import Engine, Scenario
from rules.pendragon.engine import ENGINE as PENDRAGON
from tests.rules.pendragon.pendragon_support import sheet as knight


def _resolve(engine: Engine, action: dict[str, Any], attacker: dict[str, Any], defender: dict[str, Any],
             forced: dict[str, list[int]], rulings: dict[str, Any] | None = None) -> tuple[Any, DiceSource]:
    dice = DiceSource(forced=forced, rng=Random(3))
    scenario = Scenario(engine.system_id, action, attacker, defender, rulings or {})
    return engine.resolve(scenario, dice, load_catalog(engine.system_id)).outcome.to_dict(), dice


def test_a_sided_face_goes_only_to_that_sides_roll_and_a_plain_one_to_whoever_rolls() -> None:
    dice = DiceSource(forced={"defender:knockdown": [4], "attacker:knockdown": [17], "fall": [2]}, rng=Random(1))
    with dice.rolling_for("defender"):
        assert dice.face("knockdown", 20) == 4
        assert dice.face("fall", 20) == 2  # no side given: the roll of whoever makes it
    assert dice.side == "attacker"  # the acting character's again
    assert dice.unused() == {"attacker:knockdown": [17]}
    assert dice.never_rolled() == ["attacker:knockdown"]


@pytest.mark.parametrize("engine", [ARS_HARN, PENDRAGON, FADING_SUNS])
def test_each_engine_names_its_one_sided_labels_among_its_labels(engine: Engine) -> None:
    assert set(engine.label_sides) <= engine.roll_labels
    assert set(engine.label_sides.values()) == {"attacker", "defender"}


# Pendragon seed 001, the loser's phase: damage over the loser's SIZ calls for the loser's knockdown roll.
WIN = {"attacker": [10], "defender": [19], "damage": [4, 3, 3, 3, 3]}  # 16 damage on SIZ 15
FOE = knight("Foe", skills={"sword": 12}, weapons=["sword"])


def test_pendragon_knockdown_typed_for_the_defender_is_the_defenders_roll() -> None:
    out, dice = _resolve(PENDRAGON, {"type": "attack"}, knight(), FOE, {**WIN, "defender:knockdown": [5]})
    assert out["loser"] == "defender" and out["knockdown"]["total"] == 5 and dice.unused() == {}


def test_pendragon_knockdown_the_attacker_typed_for_himself_never_knocks_down_the_one_he_hits() -> None:
    """The GM typed his bandit's blow with a knockdown of 20 in mind for the knight's fall: a bare knockdown is the
    attacker's own, so the 20 stays unused and the defender's knockdown is rolled."""
    out, dice = _resolve(PENDRAGON, {"type": "attack"}, knight(), FOE, {**WIN, "attacker:knockdown": [20]})
    assert out["loser"] == "defender" and out["knockdown"]["face"] == 8  # rolled (Random(3)), not the 20
    assert dice.unused() == {"attacker:knockdown": [20]}


def test_pendragon_a_counterblow_knocks_down_the_attacker_with_the_attackers_face() -> None:
    lost = {"attacker": [19], "defender": [10], "defender_damage": [4, 3, 3, 3, 3]}
    out, dice = _resolve(PENDRAGON, {"type": "attack"}, knight(), knight("Foe", skills={"sword": 15}),
                         {**lost, "attacker:knockdown": [5], "defender:knockdown": [20]})
    assert out["loser"] == "attacker" and out["knockdown"]["total"] == 5
    assert dice.unused() == {"defender:knockdown": [20]}


# ars-harn seed: a blow that wounds calls for the defender's Shock roll.
def _ars_hit(forced: dict[str, list[int]]) -> tuple[Any, DiceSource]:
    plain = {"name": "Plain", "skill": "Sword", "blunt": 0, "edge": 0, "point": 0}
    attacker = {"name": "A", "str": 0, "sta": 0, "dex": 0, "qik": 0, "weapons": [plain]}
    defender = {"name": "B", "str": 0, "sta": 1, "dex": 0, "qik": 0}
    return _resolve(ARS_HARN, {"aspect": "blunt", "aim": "mid", "modifier": 6},
                    attacker, defender, {"attack": [5], "defense": [5], "location": [72], **forced})


def test_ars_harn_shock_typed_for_the_defender_is_the_defenders_and_the_attackers_own_is_unused() -> None:
    out, dice = _ars_hit({"defender:shock": [9], "attacker:shock": [1]})
    assert out["shock"]["die"] == 9
    assert dice.unused() == {"attacker:shock": [1]}


# Fading Suns: a wound's effect roll is the wounded side's.
def test_fading_suns_effect_typed_for_the_defender_is_the_defenders_roll() -> None:
    fighter = {"name": "Duelist", "dex": 10, "skills": {"melee": 10}, "weapons": ["broadsword"]}
    ox = {"name": "Ox", "size": 10, "end": 5}
    out, dice = _resolve(FADING_SUNS, {"type": "attack"}, fighter, ox,
                         {"attack": [10], "location": [12], "defender:effect": [1], "attacker:effect": [18]},
                         {"unnamed_defense": "none"})
    assert out["hit"] is True
    assert dice.unused() == {"attacker:effect": [18]}
