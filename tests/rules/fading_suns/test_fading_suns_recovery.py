"""Rest, treatment (heal), recovering from conditions, GM-applied injuries and initiative."""

from __future__ import annotations

from typing import Any

import pytest

from rules.errors import IllegalAction, RulesError, UnknownEntry
from tests.rules.fading_suns.fading_suns_support import run


def wound(location: str, severity: str, **more: Any) -> dict[str, Any]:
    return {"location": location, "severity": severity, **more}


def patient(*wounds: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"name": "P", "wounds": list(wounds), **fields}


def after_rest(sheet: dict[str, Any], days: int) -> list[tuple[str, bool, int]]:
    res = run({"type": "rest", "days": days}, sheet)
    assert res.attacker is not None
    return [(w["severity"], w["treated"], w["progress"]) for w in res.attacker["wounds"]]


# -- rest -------------------------------------------------------------------------------------------

def test_a_minor_wound_heals_after_three_days_of_rest() -> None:
    assert after_rest(patient(wound("chest", "minor")), 2) == [("minor", False, 2)]
    assert after_rest(patient(wound("chest", "minor")), 3) == []


def test_a_wound_steps_down_one_severity_each_time_its_healing_time_passes() -> None:
    sheet = patient(wound("chest", "major"))
    assert after_rest(sheet, 9) == [("major", False, 9)]
    assert after_rest(sheet, 10) == [("minor", False, 0)]
    assert after_rest(sheet, 12) == [("minor", False, 2)]
    assert after_rest(sheet, 13) == []
    assert after_rest(patient(wound("chest", "grievous")), 21) == [("major", False, 0)]


def test_treated_wounds_heal_faster() -> None:
    assert after_rest(patient(wound("chest", "grievous", treated=True)), 14) == [("major", True, 0)]
    assert after_rest(patient(wound("chest", "minor", treated=True)), 2) == []


def test_a_crippled_location_does_not_mend_untreated_but_does_once_treated() -> None:
    assert after_rest(patient(wound("left_leg", "crippled")), 100) == [("crippled", False, 0)]
    assert after_rest(patient(wound("left_leg", "crippled", treated=True)), 28) == [("grievous", True, 0)]


def test_rest_reports_what_healed_and_the_penalties_left() -> None:
    res = run({"type": "rest", "days": 10}, patient(wound("chest", "major"), wound("head", "minor")))
    assert res.outcome["healed"] == [{"wound": 1, "from": "major", "to": "minor", "day": 10},
                                     {"wound": 2, "from": "minor", "to": None, "day": 3}]
    assert res.outcome["penalties"] == {"goal": -1, "initiative": 0}


def test_rest_says_on_which_day_each_step_came_counting_healing_already_done() -> None:
    """Issue 22 §4: a month's rest listed its steps with no day marks."""
    res = run({"type": "rest", "days": 30}, patient(wound("chest", "grievous", progress=5)))
    # grievous 21 days (16 left), major 10 more, minor 3 more
    assert [(s["to"], s["day"]) for s in res.outcome["healed"]] == [("major", 16), ("minor", 26), (None, 29)]


def test_rest_ends_stun_unconsciousness_and_lying_prone() -> None:
    res = run({"type": "rest"}, patient(conditions=["prone", "stunned", "unconscious"]))
    assert res.outcome["days"] == 1
    assert res.outcome["conditions_cleared"] == ["prone", "stunned", "unconscious"]
    assert res.attacker is not None and res.attacker["conditions"] == []


@pytest.mark.parametrize("condition", ["dead", "dying"])
def test_the_dead_and_dying_do_not_rest(condition: str) -> None:
    with pytest.raises(IllegalAction, match=condition):
        run({"type": "rest"}, patient(conditions=[condition]))


def test_rest_days_must_be_sensible() -> None:
    with pytest.raises(RulesError, match="days must be a whole number from 1 to 3650"):
        run({"type": "rest", "days": 0}, patient())


# -- heal -------------------------------------------------------------------------------------------

HEALER = {"name": "Doc", "wits": 5, "skills": {"remedy": 5, "physick": 4}}


def test_a_successful_treatment_marks_the_worst_wound_treated_and_credits_a_day_per_victory_point() -> None:
    hurt = patient(wound("chest", "minor"), wound("abdomen", "grievous"), wound("head", "major"))
    res = run({"type": "heal"}, HEALER, hurt, {"heal": [6]})
    assert (res.outcome["goal"], res.outcome["victory_points"]) == (10, 2)
    assert (res.outcome["wound"], res.outcome["severity"], res.outcome["treated"]) == (2, "grievous", True)
    assert res.outcome["days_credited"] == 2
    assert res.defender is not None
    assert res.defender["wounds"][1] == {"index": 2, "location": "abdomen", "severity": "grievous", "damage": 0,
                                         "type": None, "treated": True, "progress": 2}


def test_a_failed_treatment_changes_nothing_and_a_critical_failure_loses_the_healing_progress() -> None:
    hurt = patient(wound("chest", "major", progress=4))
    res = run({"type": "heal"}, HEALER, hurt, {"heal": [15]})
    assert res.defender is not None and res.defender["wounds"][0]["progress"] == 4
    assert res.defender["wounds"][0]["treated"] is False
    res = run({"type": "heal"}, HEALER, hurt, {"heal": [20]})
    assert res.defender is not None and res.defender["wounds"][0]["progress"] == 0


def test_remedy_cannot_treat_a_crippled_location_but_physick_can() -> None:
    hurt = patient(wound("left_arm", "crippled"))
    with pytest.raises(IllegalAction, match="remedy cannot treat a crippled wound"):
        run({"type": "heal"}, HEALER, hurt)
    res = run({"type": "heal", "skill": "physick"}, HEALER, hurt, {"heal": [9]})
    assert res.outcome["goal"] == 9 and res.outcome["treated"] is True


def test_a_wound_is_treated_once() -> None:
    hurt = patient(wound("chest", "major", treated=True))
    with pytest.raises(IllegalAction, match="already been treated"):
        run({"type": "heal", "wound": 1}, HEALER, hurt)
    with pytest.raises(IllegalAction, match="no untreated wound"):
        run({"type": "heal"}, HEALER, hurt)
    with pytest.raises(UnknownEntry, match="no wound 7"):
        run({"type": "heal", "wound": 7}, HEALER, hurt)


def test_treating_ones_own_wound_is_harder() -> None:
    res = run({"type": "heal"}, {**HEALER, "wounds": [wound("right_leg", "minor")]}, None, {"heal": [3]})
    # Wits 5 + Remedy 5 - 4 self - 1 for the healer's own minor wound
    assert res.outcome["goal"] == 5
    assert res.outcome["modifiers"] == {"wits": 5, "remedy": 5, "self_treatment": -4, "wounds": -1}
    assert res.attacker is not None and res.attacker["wounds"][0]["treated"] is True
    assert res.defender is None


def test_a_stunned_healer_cannot_treat() -> None:
    with pytest.raises(IllegalAction, match="stunned"):
        run({"type": "heal"}, {**HEALER, "conditions": ["stunned"]}, patient(wound("chest", "minor")))


# -- recover ----------------------------------------------------------------------------------------

def test_recover_shakes_off_a_stun_or_stands_up() -> None:
    res = run({"type": "recover", "condition": "stunned"}, patient(conditions=["prone", "stunned"]))
    assert res.outcome["cleared"] == ["stunned"]
    assert res.attacker is not None and res.attacker["conditions"] == ["prone"]
    res = run({"type": "recover", "condition": "prone"}, res.attacker)
    assert res.attacker is not None and res.attacker["conditions"] == []


def test_the_unconscious_cannot_stand() -> None:
    with pytest.raises(IllegalAction, match="unconscious and cannot stand"):
        run({"type": "recover", "condition": "prone"}, patient(conditions=["prone", "unconscious"]))


def test_recover_picks_up_one_named_weapon() -> None:
    sheet = patient(weapons=["knife", "broadsword"], dropped=["knife", "broadsword"])
    res = run({"type": "recover", "condition": "disarmed", "weapon": "knife"}, sheet)
    assert res.attacker is not None and res.attacker["dropped"] == ["broadsword"]
    with pytest.raises(IllegalAction, match="has not dropped 'axe'"):
        run({"type": "recover", "condition": "disarmed", "weapon": "axe"}, sheet)


def test_recover_needs_a_known_condition() -> None:
    with pytest.raises(RulesError, match="condition must be one of"):
        run({"type": "recover", "condition": "dead"}, patient())


# -- injure -----------------------------------------------------------------------------------------

def test_injure_rolls_a_location_when_none_is_named_and_subtracts_armour_for_its_type() -> None:
    sheet = {"name": "P", "end": 5, "armour": ["leather jerkin"]}
    res = run({"type": "injure", "damage": 7, "damage_type": "impact"}, sheet, dice={"location": [10], "effect": [1]})
    assert (res.outcome["location"], res.outcome["armor"], res.outcome["damage"]) == ("abdomen", 3, 4)
    assert res.outcome["severity"] == "major"
    res = run({"type": "injure", "damage": 7, "location": "abdomen", "armour": False}, sheet,
              dice={"effect": [1]})
    assert (res.outcome["armor"], res.outcome["damage"], res.outcome["severity"]) == (0, 7, "grievous")


def test_injure_needs_a_damage() -> None:
    with pytest.raises(RulesError, match="damage must be a whole number"):
        run({"type": "injure"}, patient())


# -- initiative ----------------------------------------------------------------------------------------

def side(dex: int, wits: int, weapon: str, **fields: Any) -> dict[str, Any]:
    return {"name": "S", "dex": dex, "wits": wits, "skills": {"melee": 5}, "weapons": [weapon], **fields}


def test_initiative_is_characteristic_plus_skill_plus_weapon_initiative() -> None:
    res = run({"type": "initiative"}, side(7, 3, "broadsword"), side(5, 3, "spear"))
    assert res.outcome["initiative"]["attacker"]["score"] == 12
    assert res.outcome["initiative"]["defender"]["score"] == 11
    assert res.outcome["first"] == "attacker"
    assert res.rolls == ()


def test_initiative_ties_go_to_the_higher_wits_then_both_act_at_once() -> None:
    assert run({"type": "initiative"}, side(6, 3, "broadsword"), side(5, 4, "spear")).outcome["first"] == "defender"
    assert run({"type": "initiative"}, side(6, 4, "broadsword"), side(5, 4, "spear")).outcome["first"] == \
        "simultaneous"


def test_wound_initiative_penalties_lower_the_score() -> None:
    hurt = side(7, 3, "broadsword", wounds=[wound("chest", "major"), wound("head", "grievous")])
    res = run({"type": "initiative"}, hurt, side(5, 3, "spear"))
    assert res.outcome["initiative"]["attacker"]["score"] == 8
    assert res.outcome["penalties"] == {"attacker": -4, "defender": 0}
    assert res.outcome["first"] == "defender"


def test_a_stunned_side_does_not_act() -> None:
    res = run({"type": "initiative"}, side(9, 3, "broadsword", conditions=["stunned"]), side(5, 3, "spear"))
    assert res.outcome["first"] == "defender"
    assert res.outcome["initiative"]["attacker"]["can_act"] is False


def test_initiative_for_one_character() -> None:
    res = run({"type": "initiative", "modifiers": 2}, side(5, 3, "staff"))
    assert res.outcome["initiative"]["attacker"]["score"] == 13
    assert res.outcome["initiative"]["defender"] is None and res.outcome["first"] == "attacker"
