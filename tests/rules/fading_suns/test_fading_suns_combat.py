"""Goal rolls (characteristic + skill, victory chart), defenses, fumbled attacks, thrown and aimed attacks."""

from __future__ import annotations

from typing import Any

import pytest

from rules.errors import IllegalAction, RulesError
from rules.fading_suns.engine import ENGINE
from tests.rules.fading_suns.fading_suns_support import CAT, run


def fighter(dex: int = 5, melee: int = 5, **fields: Any) -> dict[str, Any]:
    return {"name": "Fighter", "dex": dex, "skills": {"melee": melee}, "weapons": ["broadsword"], **fields}


# A big unarmoured target (Size 10): a broadsword hit is a major or grievous chest wound, whose one
# effect roll (forced to 1: a success) leaves it standing.
BIG = {"name": "Ox", "size": 10, "end": 5}


def test_goal_is_characteristic_plus_skill_plus_modifiers() -> None:
    res = run({"type": "attack", "modifiers": -2}, fighter(6, 4), BIG, {"attack": [20]},
              {"fumble_on_critical_failure": False})
    assert res.outcome["goal"] == 8
    assert res.outcome["modifiers"] == {"dex": 6, "melee": 4, "modifiers": -2}
    res = run({"type": "attack", "modifiers": {"dark": -3, "high ground": 1}}, fighter(6, 4), BIG, {"attack": [15]})
    assert res.outcome["goal"] == 8


def test_weapon_goal_modifier_counts() -> None:
    shooter = {"name": "S", "dex": 5, "skills": {"shoot": 5}, "weapons": ["laser pistol"]}
    res = run({"type": "attack"}, shooter, BIG, {"attack": [15]})
    assert res.outcome["goal"] == 11
    assert res.outcome["modifiers"]["weapon"] == 1


@pytest.mark.parametrize(
    ("roll", "points"),
    [(1, 1), (2, 1), (3, 1), (5, 1), (6, 2), (8, 2), (9, 3), (11, 3), (12, 4), (14, 4), (15, 5), (17, 5), (18, 6)],
)
def test_victory_points_come_from_the_chart_and_add_to_the_weapon_base(roll: int, points: int) -> None:
    # goal 20 (Dex 10 + Melee 10): every face up to 18 succeeds without a critical
    res = run({"type": "attack"}, fighter(10, 10), BIG, {"attack": [roll], "location": [12], "effect": [1]})
    assert res.outcome["success"] is True and res.outcome["critical"] is False
    assert res.outcome["victory_points"] == points
    assert res.outcome["damage"] == 6 + points  # broadsword base 6, no armour


def test_a_roll_equal_to_the_goal_is_critical_and_doubles_victory_points() -> None:
    res = run({"type": "attack"}, fighter(5, 5), BIG, {"attack": [10], "location": [12], "effect": [1]})
    assert res.outcome["result"] == "critical"
    assert res.outcome["critical"] is True
    assert res.outcome["victory_points"] == 6
    assert res.outcome["damage"] == 12


def test_a_roll_over_the_goal_misses_and_rolls_no_location() -> None:
    res = run({"type": "attack"}, fighter(5, 5), BIG, {"attack": [11]})
    assert res.outcome["result"] == "failure"
    assert res.outcome["hit"] is False
    assert res.outcome["location"] is None and res.outcome["damage"] is None
    assert [r.label for r in res.rolls] == ["attack"]


def test_nineteen_always_fails_even_against_goal_twenty() -> None:
    res = run({"type": "attack"}, fighter(10, 10), BIG, {"attack": [19]})
    assert res.outcome["goal"] == 20
    assert res.outcome["result"] == "failure" and res.outcome["hit"] is False


def test_goal_over_twenty_still_tops_out_at_six_points_on_eighteen() -> None:
    res = run({"type": "attack", "modifiers": 5}, fighter(10, 10), BIG,
              {"attack": [18], "location": [12], "effect": [1]})
    assert res.outcome["goal"] == 25
    assert res.outcome["victory_points"] == 6


def test_a_twenty_is_a_critical_failure_and_the_attacker_rolls_fumble() -> None:
    # FUMBLE: Dex 5 + Melee 5 = 10; a failure drops the weapon
    res = run({"type": "attack"}, fighter(5, 5), BIG, {"attack": [20], "fumble": [14]})
    assert res.outcome["result"] == "critical_failure"
    check = res.outcome["checks"][0]
    assert (check["who"], check["check"], check["cause"], check["goal"], check["result"]) == \
        ("attacker", "fumble", "attack", 10, "failure")
    assert res.outcome["dropped"]["attacker"] == ["broadsword"]
    assert res.attacker is not None and res.attacker["dropped"] == ["broadsword"]


def test_a_fumbled_weapon_cannot_attack_until_recovered() -> None:
    res = run({"type": "attack"}, fighter(), BIG, {"attack": [20], "fumble": [14]})
    assert res.attacker is not None
    with pytest.raises(IllegalAction, match="dropped the broadsword"):
        run({"type": "attack", "weapon": "broadsword"}, res.attacker, BIG)
    # with no weapon named, the attacker falls back on a fist
    unarmed = run({"type": "attack"}, res.attacker, BIG, {"attack": [15]})
    assert unarmed.outcome["weapon"] == "fist"
    picked = run({"type": "recover", "condition": "disarmed"}, res.attacker)
    assert picked.outcome["picked_up"] == ["broadsword"]
    assert picked.attacker is not None and picked.attacker["dropped"] == []


def test_a_fumble_roll_that_succeeds_keeps_the_weapon() -> None:
    res = run({"type": "attack"}, fighter(), BIG, {"attack": [20], "fumble": [4]})
    assert res.outcome["checks"][0]["result"] == "success"
    assert res.outcome["dropped"]["attacker"] == []


def test_a_critical_failure_on_the_fumble_roll_also_knocks_the_attacker_prone() -> None:
    res = run({"type": "attack"}, fighter(), BIG, {"attack": [20], "fumble": [20]})
    assert res.outcome["dropped"]["attacker"] == ["broadsword"]
    assert res.outcome["conditions"]["attacker"] == ["prone"]


def test_a_fumble_drops_the_weapon_used_not_the_first_on_the_sheet() -> None:
    res = run({"type": "attack", "weapon": "knife"}, fighter(weapons=["broadsword", "knife"]), BIG,
              {"attack": [20], "fumble": [14]})
    assert res.outcome["checks"][0]["modifiers"] == {"dex": 5, "melee": 5}
    assert res.attacker is not None and res.attacker["dropped"] == ["knife"]


def test_a_fumbled_unarmed_attack_has_nothing_to_drop() -> None:
    res = run({"type": "attack", "weapon": "fist"}, fighter(), BIG, {"attack": [20]})
    assert res.outcome["checks"][0]["note"] == "nothing in hand"
    assert res.attacker is not None and res.attacker["dropped"] == []


def test_a_fumbled_throw_drops_the_thrown_weapon_once() -> None:
    thrower = fighter(weapons=["broadsword", "knife"])
    res = run({"type": "attack", "weapon": "knife", "mode": "missile"}, thrower, BIG, {"attack": [20], "fumble": [15]})
    assert res.attacker is not None and res.attacker["dropped"] == ["knife"]
    assert ENGINE.validate_sheet(res.attacker, CAT) == res.attacker


def test_no_fumble_roll_when_the_setting_is_off() -> None:
    res = run({"type": "attack"}, fighter(), BIG, {"attack": [20]}, {"fumble_on_critical_failure": False})
    assert res.outcome["checks"] == []


# -- defenses -------------------------------------------------------------------------------------

def dodger(dodge: int = 5, **fields: Any) -> dict[str, Any]:
    return {"name": "Dodger", "size": 10, "dex": 5, "skills": {"dodge": dodge, "melee": 5},
            "weapons": ["rapier"], **fields}


def test_dodge_victory_points_come_off_the_attack_and_the_rest_add_to_damage() -> None:
    # attack 9: 3 VP; dodge 6 (goal 10): 2 VP; 1 VP is left
    res = run({"type": "attack", "defense": "dodge"}, fighter(), dodger(),
              {"attack": [9], "defense": [6], "location": [12], "effect": [1]})
    assert res.outcome["defense"]["kind"] == "dodge"
    assert res.outcome["defense"]["goal"] == 10
    assert res.outcome["defense"]["victory_points"] == 2
    assert res.outcome["net_victory_points"] == 1
    assert res.outcome["damage"] == 7


def test_a_dodge_that_takes_every_victory_point_turns_the_attack_aside() -> None:
    res = run({"type": "attack", "defense": "dodge"}, fighter(), dodger(), {"attack": [9], "defense": [9]})
    assert res.outcome["defended"] is True and res.outcome["hit"] is False
    assert res.outcome["net_victory_points"] == 0
    assert res.outcome["location"] is None


def test_a_failed_dodge_takes_nothing_off() -> None:
    res = run({"type": "attack", "defense": "dodge"}, fighter(), dodger(),
              {"attack": [9], "defense": [12], "location": [12], "effect": [1]})
    assert res.outcome["defense"]["success"] is False
    assert res.outcome["damage"] == 9


def test_no_defense_roll_when_the_attack_misses() -> None:
    res = run({"type": "attack", "defense": "dodge"}, fighter(), dodger(), {"attack": [15]})
    assert res.outcome["defense"] is None


def test_a_dodge_critical_failure_calls_for_a_stumble_roll() -> None:
    res = run({"type": "attack", "defense": "dodge"}, fighter(), dodger(),
              {"attack": [9], "defense": [20], "stumble": [15], "location": [12], "effect": [5]})
    check = res.outcome["checks"][0]
    assert (check["who"], check["check"], check["cause"], check["result"]) == \
        ("defender", "stumble", "defense", "failure")
    assert res.outcome["conditions"]["defender"] == ["prone"]
    assert res.outcome["stumble_roll"] is None  # that field is for a wound's STUMBLE


def test_parry_uses_the_parrying_weapons_skill_and_goal() -> None:
    res = run({"type": "attack", "defense": "parry", "defense_modifiers": 1}, fighter(), dodger(),
              {"attack": [9], "defense": [3], "location": [12], "effect": [1]})
    assert res.outcome["defense"]["weapon"] == "rapier"
    assert res.outcome["defense"]["goal"] == 11
    assert res.outcome["net_victory_points"] == 2


def test_a_parry_critical_failure_fumbles_the_parrying_weapon() -> None:
    res = run({"type": "attack", "defense": "parry", "defense_weapon": "main gauche"}, fighter(),
              dodger(weapons=["rapier", "main gauche"]), {"attack": [9], "defense": [20], "fumble": [16],
                                                           "location": [12], "effect": [1]})
    check = res.outcome["checks"][0]
    assert (check["who"], check["check"], check["cause"], check["result"]) == ("defender", "fumble", "defense",
                                                                               "failure")
    assert res.defender is not None and res.defender["dropped"] == ["main gauche"]


def test_parry_against_a_missile_attack_is_not_allowed() -> None:
    shooter = {"name": "S", "dex": 5, "skills": {"shoot": 5}, "weapons": ["heavy revolver"]}
    with pytest.raises(IllegalAction, match="cannot parry a missile attack"):
        run({"type": "attack", "defense": "parry"}, shooter, dodger(), {"attack": [9]})


def test_a_stunned_defender_cannot_dodge() -> None:
    with pytest.raises(IllegalAction, match="stunned"):
        run({"type": "attack", "defense": "dodge"}, fighter(), dodger(conditions=["stunned"]), {"attack": [9]})


# -- who may act ----------------------------------------------------------------------------------

@pytest.mark.parametrize("condition", ["stunned", "unconscious", "dying", "dead"])
def test_an_attacker_who_is_down_cannot_attack(condition: str) -> None:
    with pytest.raises(IllegalAction, match=condition):
        run({"type": "attack"}, fighter(conditions=[condition]), BIG)


def test_the_dead_cannot_be_attacked() -> None:
    with pytest.raises(IllegalAction, match="already dead"):
        run({"type": "attack"}, fighter(), {**BIG, "conditions": ["dead"]})


def test_a_prone_attacker_is_at_minus_two() -> None:
    res = run({"type": "attack"}, fighter(conditions=["prone"]), BIG, {"attack": [15]})
    assert res.outcome["goal"] == 8 and res.outcome["modifiers"]["prone"] == -2


# -- weapons, modes, aim --------------------------------------------------------------------------

def test_a_thrown_knife_uses_the_missile_column_and_leaves_the_hand() -> None:
    thrower = {"name": "T", "dex": 5, "skills": {"melee": 5}, "weapons": ["knife"]}
    res = run({"type": "attack", "mode": "missile"}, thrower, BIG, {"attack": [3], "location": [11]})
    assert res.outcome["damage"] == 4 and res.outcome["severity"] == "minor"
    assert res.outcome["column"] == "missile"
    assert res.outcome["location"] == "chest"  # 11 is chest on the missile column, abdomen in melee
    assert res.attacker is not None and res.attacker["dropped"] == ["knife"]


def test_a_weapon_without_that_mode_is_refused() -> None:
    with pytest.raises(RulesError, match="mode must be one of melee"):
        run({"type": "attack", "mode": "missile"}, fighter(), BIG)


def test_weapon_may_be_named_by_number() -> None:
    two = fighter(weapons=["broadsword", "knife"])
    res = run({"type": "attack", "weapon": 2}, two, BIG, {"attack": [15]})
    assert res.outcome["weapon"] == "knife"


@pytest.mark.parametrize("typed", ["right_arm", "right arm", "Right Arm", "RIGHT-ARM", "R.Arm", " r.arm "])
def test_a_location_is_matched_however_it_is_typed_and_named_as_the_pack_names_it(typed: str) -> None:
    """Issue 22: one location had three spellings (the option right_arm, the result "right arm", the sheet
    "R.Arm"): case, spaces, hyphens and the sheet's short label all name it, and the outcome keeps its key."""
    res = run({"type": "attack", "aim": typed}, fighter(10, 10), BIG, {"attack": [9]})
    assert res.outcome["location"] == "right_arm" and res.outcome["aimed"] is True


def test_an_unknown_location_offers_the_names_players_read() -> None:
    with pytest.raises(RulesError, match="did you mean 'right arm'"):
        run({"type": "attack", "aim": "rigth arm"}, fighter(10, 10), BIG)


def test_an_aimed_attack_takes_the_called_shot_modifier_and_rolls_no_location() -> None:
    res = run({"type": "attack", "aim": "head"}, fighter(10, 10), BIG, {"attack": [9], "effect": [1]})
    assert res.outcome["goal"] == 14 and res.outcome["modifiers"]["aim"] == -6
    assert res.outcome["location"] == "head" and res.outcome["aimed"] is True
    assert "location" not in [r.label for r in res.rolls]


def test_wound_penalties_accumulate_on_the_attack_goal() -> None:
    hurt = fighter(wounds=[{"location": "chest", "severity": "minor"}, {"location": "head", "severity": "major"}])
    res = run({"type": "attack"}, hurt, BIG, {"attack": [15]})
    assert res.outcome["modifiers"]["wounds"] == -5 and res.outcome["goal"] == 5


def test_by_location_wound_penalties_spare_the_attack_from_a_leg_wound() -> None:
    hurt = fighter(wounds=[{"location": "left_leg", "severity": "grievous"}])
    res = run({"type": "attack"}, hurt, BIG, {"attack": [15]}, {"wound_penalties": "by_location"})
    assert res.outcome["goal"] == 10
    res = run({"type": "attack"}, hurt, BIG, {"attack": [15]})
    assert res.outcome["goal"] == 2
