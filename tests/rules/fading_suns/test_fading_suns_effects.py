"""Wound-effect rolls against 2xEND (every cell of the table), rolls left to the GM, GM decisions."""

from __future__ import annotations

import pytest

from rules.errors import IllegalAction, RulesError, UnknownEntry
from tests.rules.fading_suns.fading_suns_support import run

VICTIM = {"name": "V", "end": 5}  # effect goal 2 x END = 10
FACE = {"critical": 10, "success": 4, "failure": 15, "critical_failure": 20}
TABLE = {
    "stun": {"critical": "none", "success": "none", "failure": "stun", "critical_failure": "unconscious"},
    "stun_uncon": {"critical": "none", "success": "stun", "failure": "unconscious", "critical_failure": "death"},
    "uncon_death": {"critical": "stun", "success": "unconscious", "failure": "death", "critical_failure": "death"},
    "death": {"critical": "unconscious", "success": "death", "failure": "death", "critical_failure": "death"},
}
CONDITIONS = {"none": [], "stun": ["stunned"], "unconscious": ["prone", "unconscious"], "death": ["dead"]}
CELLS = [(column, result, effect) for column, row in TABLE.items() for result, effect in row.items()]


@pytest.mark.parametrize(("column", "result", "effect"), CELLS)
def test_every_cell_of_the_wound_effect_table_against_twice_endurance(column: str, result: str, effect: str) -> None:
    res = run({"type": "effect", "column": column}, VICTIM, dice={"effect": [FACE[result]]})
    roll = res.outcome["effect_roll"]
    assert (roll["goal"], roll["result"], roll["column"]) == (10, result, column)
    assert res.outcome["effect"] == effect
    assert res.attacker is not None and res.attacker["conditions"] == CONDITIONS[effect]


def test_effect_roll_goal_is_twice_endurance_where_nineteen_fails_and_twenty_is_a_critical_failure() -> None:
    tough = {"name": "T", "end": 10}
    res = run({"type": "effect", "column": "stun"}, tough, dice={"effect": [19]})
    assert (res.outcome["effect_roll"]["goal"], res.outcome["effect_roll"]["result"]) == (20, "failure")
    res = run({"type": "effect", "column": "stun"}, tough, dice={"effect": [20]})
    assert res.outcome["effect_roll"]["result"] == "critical_failure" and res.outcome["effect"] == "unconscious"
    res = run({"type": "effect", "column": "stun"}, tough, dice={"effect": [18]})
    assert res.outcome["effect_roll"]["result"] == "success"


def test_wound_penalties_do_not_lower_the_effect_roll_unless_the_setting_says_so() -> None:
    hurt = {**VICTIM, "wounds": [{"location": "chest", "severity": "major"}]}
    res = run({"type": "effect", "column": "stun"}, hurt, dice={"effect": [8]})
    assert res.outcome["effect_roll"]["goal"] == 10
    res = run({"type": "effect", "column": "stun"}, hurt, dice={"effect": [8]},
              rulings={"effect_roll_penalties": True})
    assert res.outcome["effect_roll"]["goal"] == 6 and res.outcome["effect"] == "stun"


def test_an_attack_rolls_the_wounds_effect_at_once() -> None:
    attacker = {"name": "A", "dex": 5, "skills": {"melee": 5}, "weapons": ["knife"]}
    # knife 3 + 1 VP = 4: a major head wound (Size 5), a STUN/UNCON roll; 15 fails: unconscious
    res = run({"type": "attack"}, attacker, VICTIM, {"attack": [4], "location": [20], "effect": [15]})
    assert (res.outcome["location"], res.outcome["severity"], res.outcome["wound_roll"]) == ("head", "major",
                                                                                            "stun_uncon")
    assert res.outcome["effect_roll"]["goal"] == 10
    assert res.outcome["effect"] == "unconscious"
    assert res.outcome["conditions"]["defender"] == ["prone", "unconscious"]
    assert res.defender is not None and res.defender["conditions"] == ["prone", "unconscious"]


def test_no_effect_roll_for_a_minor_limb_wound() -> None:
    attacker = {"name": "A", "dex": 5, "skills": {"fight": 5}, "weapons": ["fist"]}
    res = run({"type": "attack"}, attacker, {"name": "V", "size": 7}, {"attack": [1], "location": [13]})
    assert res.outcome["severity"] == "minor"
    assert (res.outcome["effect_roll"], res.outcome["effect"]) == (None, "none")


# -- rolls left to the GM (auto_rolls off) -------------------------------------------------------------

ATTACKER = {"name": "A", "dex": 5, "skills": {"melee": 5}, "weapons": ["knife"]}


def test_with_auto_rolls_off_the_attack_queues_the_effect_roll_on_the_sheet() -> None:
    res = run({"type": "attack"}, ATTACKER, VICTIM, {"attack": [4], "location": [20]}, {"auto_rolls": False})
    assert res.outcome["effect"] == "pending" and res.outcome["effect_roll"] is None
    assert res.outcome["pending_rolls"] == [{"id": 1, "kind": "effect", "column": "stun_uncon", "wound": 1,
                                             "cause": "wound", "who": "defender"}]
    assert res.defender is not None
    assert res.defender["pending"] == [{"id": 1, "kind": "effect", "column": "stun_uncon", "wound": 1,
                                        "cause": "wound"}]
    assert res.defender["conditions"] == []


def test_the_effect_action_makes_the_pending_roll_and_clears_it() -> None:
    first = run({"type": "attack"}, ATTACKER, VICTIM, {"attack": [4], "location": [20]}, {"auto_rolls": False})
    assert first.defender is not None
    res = run({"type": "effect"}, first.defender, dice={"effect": [4]}, rulings={"auto_rolls": False})
    assert res.outcome["resolved"]["column"] == "stun_uncon"
    assert (res.outcome["effect_roll"]["result"], res.outcome["effect"]) == ("success", "stun")
    assert res.attacker is not None
    assert res.attacker["pending"] == [] and res.attacker["conditions"] == ["stunned"]


def test_a_queued_stumble_is_rolled_under_its_own_label() -> None:
    first = run({"type": "attack"}, ATTACKER, VICTIM, {"attack": [4], "location": [1]}, {"auto_rolls": False})
    assert first.defender is not None
    assert [p["kind"] for p in first.defender["pending"]] == ["stumble"]
    res = run({"type": "effect"}, first.defender, dice={"stumble": [18]})
    assert res.outcome["stumble_roll"]["result"] == "failure"
    assert res.attacker is not None and res.attacker["conditions"] == ["prone"]


def test_a_queued_attack_fumble_waits_on_the_attackers_sheet() -> None:
    res = run({"type": "attack"}, ATTACKER, VICTIM, {"attack": [20]}, {"auto_rolls": False})
    assert res.attacker is not None
    assert res.attacker["pending"] == [{"id": 1, "kind": "fumble", "column": None, "wound": None, "cause": "attack",
                                        "weapon": "knife"}]
    assert res.attacker["dropped"] == []


def test_a_queued_fumble_concerns_the_weapon_that_was_used() -> None:
    two = {**ATTACKER, "weapons": ["broadsword", "knife"]}
    first = run({"type": "attack", "weapon": "knife"}, two, VICTIM, {"attack": [20]}, {"auto_rolls": False})
    assert first.attacker is not None
    res = run({"type": "effect"}, first.attacker, dice={"fumble": [18]})
    assert res.outcome["fumble_roll"]["result"] == "failure"
    assert res.attacker is not None and res.attacker["dropped"] == ["knife"]


def test_the_effect_action_picks_a_pending_roll_by_id() -> None:
    sheet = {**VICTIM, "pending": [{"id": 3, "kind": "effect", "column": "stun"},
                                   {"id": 5, "kind": "effect", "column": "death"}]}
    res = run({"type": "effect", "pending": 5}, sheet, dice={"effect": [10]})
    assert res.outcome["effect"] == "unconscious"
    assert res.attacker is not None and [p["id"] for p in res.attacker["pending"]] == [3]
    with pytest.raises(UnknownEntry, match="no pending roll 4"):
        run({"type": "effect", "pending": 4}, sheet)


def test_the_effect_action_with_nothing_pending_is_refused() -> None:
    with pytest.raises(IllegalAction, match="no pending roll"):
        run({"type": "effect"}, VICTIM)


# -- the GM decides on death ----------------------------------------------------------------------------

def test_with_gm_confirms_death_a_death_result_leaves_the_target_dying_and_asks_the_gm() -> None:
    res = run({"type": "effect", "column": "death"}, VICTIM, dice={"effect": [4]}, rulings={"gm_confirms_death": True})
    assert res.outcome["effect"] == "death"
    assert res.outcome["gm_decision"] == {"kind": "death", "who": "attacker", "options": ["death", "unconscious"],
                                          "wound": None}
    assert res.attacker is not None
    assert res.attacker["conditions"] == ["dying"]
    assert res.attacker["pending_decision"] == {"kind": "death", "options": ["death", "unconscious"], "wound": None}


def test_an_attack_that_kills_asks_the_gm_about_the_defender() -> None:
    big_blade = {"name": "A", "dex": 5, "skills": {"melee": 5}, "weapons": ["two-handed sword"]}
    res = run({"type": "attack"}, big_blade, VICTIM, {"attack": [9], "location": [12], "effect": [4]},
              {"gm_confirms_death": True})
    assert res.outcome["severity"] == "crippled"  # 8 + 3 = 11 > 2 x Size 5
    assert res.outcome["gm_decision"]["who"] == "defender" and res.outcome["gm_decision"]["wound"] == 1


@pytest.mark.parametrize(("choice", "conditions"), [("death", ["dead"]), ("unconscious", ["prone", "unconscious"])])
def test_gm_decide_applies_the_choice(choice: str, conditions: list[str]) -> None:
    first = run({"type": "effect", "column": "death"}, VICTIM, dice={"effect": [4]},
                rulings={"gm_confirms_death": True})
    assert first.attacker is not None
    res = run({"type": "gm_decide", "choice": choice}, first.attacker)
    assert res.outcome["choice"] == choice and res.outcome["gm_decision"] is None
    assert res.attacker is not None
    assert res.attacker["conditions"] == conditions and res.attacker["pending_decision"] is None


def test_gm_decide_on_the_defender_sheet() -> None:
    dying = {**VICTIM, "conditions": ["dying"],
             "pending_decision": {"kind": "death", "options": ["death", "unconscious"]}}
    res = run({"type": "gm_decide", "choice": "death", "who": "defender"}, {"name": "GM pawn"}, dying)
    assert res.defender is not None and res.defender["conditions"] == ["dead"]


def test_gm_decide_without_a_decision_or_with_a_bad_choice_is_refused() -> None:
    with pytest.raises(IllegalAction, match="no decision"):
        run({"type": "gm_decide", "choice": "death"}, VICTIM)
    dying = {**VICTIM, "conditions": ["dying"],
             "pending_decision": {"kind": "death", "options": ["death", "unconscious"]}}
    with pytest.raises(RulesError, match="choice must be one of death, unconscious"):
        run({"type": "gm_decide", "choice": "pardon"}, dying)


def test_without_the_setting_death_is_death() -> None:
    res = run({"type": "effect", "column": "death"}, VICTIM, dice={"effect": [4]})
    assert res.outcome["gm_decision"] is None
    assert res.attacker is not None and res.attacker["conditions"] == ["dead"]
