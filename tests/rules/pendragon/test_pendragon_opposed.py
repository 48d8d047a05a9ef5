"""Seed 001, opposed resolution: the result matrix, ties, fumbles, criticals, natural 1s."""

from __future__ import annotations

import pytest

from rules.dice import DiceSource
from rules.errors import IllegalAction
from rules.model import Scenario
from rules.pendragon.engine import ENGINE
from tests.rules.pendragon.pendragon_support import CAT, QUIET, run, sheet

# Attacker sword 15, defender sword 12: faces giving each result.
A = {"critical": 15, "success": 10, "failure": 17, "fumble": 20}
D = {"critical": 12, "success": 8, "failure": 16, "fumble": 20}
MATRIX = [
    ("critical", "critical", "none", True), ("critical", "success", "attacker", False),
    ("critical", "failure", "attacker", False), ("critical", "fumble", "attacker", False),
    ("success", "critical", "defender", False), ("success", "success", "attacker", False),
    ("success", "failure", "attacker", False), ("success", "fumble", "attacker", False),
    ("failure", "critical", "defender", False), ("failure", "success", "defender", False),
    ("failure", "failure", "none", False), ("failure", "fumble", "none", False),
    ("fumble", "critical", "defender", False), ("fumble", "success", "defender", False),
    ("fumble", "failure", "none", False), ("fumble", "fumble", "none", False),
]


@pytest.mark.parametrize(("a", "d", "winner", "tie"), MATRIX)
def test_opposed_result_matrix_every_cell(a: str, d: str, winner: str, tie: bool) -> None:
    defender = sheet("Foe", skills={"sword": 12})
    dice: dict[str, list[int]] = {"attacker": [A[a]], "defender": [D[d]]}
    if winner != "none":  # each side's damage has its own label: the winner's is rolled
        dice["damage" if winner == "attacker" else "defender_damage"] = [1, 1, 1, 1, 1]
    out = run(sheet(), defender, {"type": "attack", "weapon": "sword", "defender_weapon": "sword"}, dice,
              QUIET).outcome
    assert out["attacker_roll"]["result"] == a
    assert out["defender_roll"]["result"] == d
    assert (out["winner"], out["tie"]) == (winner, tie)
    if winner != "none":
        assert out["loser"] == ("defender" if winner == "attacker" else "attacker")
        crit = (a if winner == "attacker" else d) == "critical"
        assert out["damage_rolled"] == (10 if crit else 5)
    else:
        assert out["damage_rolled"] is None and out["loser"] == "none"


def test_both_succeed_higher_roll_wins_for_the_defender_too() -> None:
    out = run(sheet(), sheet("Foe", skills={"sword": 12}), {"type": "attack"},
              {"attacker": [5], "defender": [11], "defender_damage": [1, 1, 1, 1, 1]}, QUIET).outcome
    assert out["winner"] == "defender" and out["loser"] == "attacker"


def test_both_fail_nobody_is_hurt_and_no_dice_for_damage() -> None:
    result = run(sheet(), sheet("Foe"), None, {"attacker": [18], "defender": [19]})
    assert result.outcome["winner"] == "none"
    assert [r.label for r in result.rolls] == ["attacker", "defender"]
    assert result.attacker["wounds"] == [] and result.defender["wounds"] == []


def test_same_successful_number_is_a_tie_with_no_damage() -> None:
    out = run(sheet(), sheet("Foe"), None, {"attacker": [9], "defender": [9]}).outcome
    assert out["tie"] is True and out["winner"] == "none" and out["damage_rolled"] is None


def test_tie_sword_breaks_the_defenders_axe() -> None:
    result = run(sheet(), sheet("Foe"), {"type": "attack", "weapon": "sword", "defender_weapon": "axe"},
                 {"attacker": [9], "defender": [9]})
    assert result.outcome["weapon_broken"] == "defender"
    assert result.defender["broken_weapons"] == ["axe"] and result.defender["must_rearm"] is True
    assert result.attacker["broken_weapons"] == []


def test_tie_sword_breaks_the_attackers_axe_the_other_way_round() -> None:
    result = run(sheet(), sheet("Foe"), {"type": "attack", "weapon": "axe", "defender_weapon": "sword"},
                 {"attacker": [9], "defender": [9]})
    assert result.outcome["weapon_broken"] == "attacker"
    assert result.attacker["broken_weapons"] == ["axe"] and result.attacker["must_rearm"] is True


def test_tie_sword_against_sword_breaks_nothing() -> None:
    result = run(sheet(), sheet("Foe"), None, {"attacker": [9], "defender": [9]})
    assert result.outcome["weapon_broken"] is None and result.defender["broken_weapons"] == []


def test_if_both_fighters_roll_the_same_number_and_both_are_successful_a_tie_occurs_even_two_criticals() -> None:
    # Seed: "If both fighters roll the same number and both are successful, then a tie occurs ... the sword
    # breaks the other weapon." Criticals are successes: sword 15 and axe 15 both roll 15.
    result = run(sheet(), sheet("Foe"), {"type": "attack", "defender_weapon": "axe"},
                 {"attacker": [15], "defender": [15]})
    assert result.outcome["tie"] is True and result.outcome["weapon_broken"] == "defender"
    assert result.defender["broken_weapons"] == ["axe"] and result.defender["must_rearm"] is True


def test_both_critical_on_different_numbers_is_a_tie_that_breaks_nothing_by_default() -> None:
    # "unless both fighters rolled criticals, in which case their attacks are resolved as a tie": sword 25
    # rolls 15 (20, a critical), the axe 15 rolls 15 (a critical): not the same number.
    out = run(sheet(skills={"sword": 25}), sheet("Foe"), {"type": "attack", "defender_weapon": "axe"},
              {"attacker": [15], "defender": [15]}).outcome
    assert (out["attacker_roll"]["total"], out["defender_roll"]["total"]) == (20, 15)
    assert out["tie"] is True and out["weapon_broken"] is None


def test_both_critical_on_different_numbers_breaks_the_axe_under_the_house_setting() -> None:
    out = run(sheet(skills={"sword": 25}), sheet("Foe"), {"type": "attack", "defender_weapon": "axe"},
              {"attacker": [15], "defender": [15]}, {"sword_breaks_on_double_critical": True}).outcome
    assert out["weapon_broken"] == "defender"


def test_skill_over_20_adds_the_excess_and_a_total_of_20_is_critical() -> None:
    out = run(sheet(skills={"sword": 25}), sheet("Foe"), None,
              {"attacker": [15], "defender": [14], "damage": [1, 1, 1, 1, 1]}, QUIET).outcome
    assert out["attacker_roll"]["total"] == 20 and out["attacker_roll"]["result"] == "critical"
    assert out["winner"] == "attacker" and out["damage_rolled"] == 10


def test_skill_over_20_success_compares_the_raised_total() -> None:
    out = run(sheet(skills={"sword": 23}), sheet("Foe"), None,
              {"attacker": [10], "defender": [12], "damage": [1, 1, 1, 1, 1]}, QUIET).outcome
    assert out["attacker_roll"]["total"] == 13 and out["attacker_roll"]["result"] == "success"
    assert out["winner"] == "attacker"


def test_skill_over_20_same_number_means_the_compared_total_and_a_critical_beats_a_success() -> None:
    # Seed: "If both fighters roll the same number and both are successful, then a tie occurs"; "a critical
    # success" wins. Sword 25 rolls 13: compared 18, a success; sword 18 rolls 18: a critical -> it wins.
    out = run(sheet(skills={"sword": 25}), sheet("Foe", skills={"sword": 18}), None,
              {"attacker": [13], "defender": [18], "defender_damage": [1, 1, 1, 1, 1]}, QUIET).outcome
    assert (out["attacker_roll"]["total"], out["attacker_roll"]["result"]) == (18, "success")
    assert (out["defender_roll"]["total"], out["defender_roll"]["result"]) == (18, "critical")
    assert out["winner"] == "defender" and out["tie"] is False and out["damage_rolled"] == 10
    # the same compared 18 against a plain success (sword 19 rolls 18) is the same number: a tie
    tie = run(sheet(skills={"sword": 25}), sheet("Foe", skills={"sword": 19}), None,
              {"attacker": [13], "defender": [18]}, QUIET).outcome
    assert (tie["defender_roll"]["total"], tie["defender_roll"]["result"]) == (18, "success")
    assert tie["tie"] is True and tie["winner"] == "none" and tie["damage_rolled"] is None


def test_skill_over_20_cannot_fumble_a_natural_20() -> None:
    out = run(sheet(skills={"sword": 23}), sheet("Foe"), None,
              {"attacker": [20], "defender": [16], "damage": [1, 1, 1, 1, 1]}, QUIET).outcome
    assert out["attacker_roll"]["result"] == "critical" and out["weapon_dropped"] is None


def test_fumble_drops_a_sword_and_the_attack_is_refused_until_rearmed() -> None:
    result = run(sheet(), sheet("Foe"), None, {"attacker": [20], "defender": [16]})
    assert result.outcome["weapon_dropped"] == "attacker" and result.outcome["weapon_broken"] is None
    assert result.attacker["dropped_weapons"] == ["sword"] and result.attacker["must_rearm"] is True
    with pytest.raises(IllegalAction, match="re-arm"):
        run(result.attacker, result.defender, None, {})
    rearmed = run(result.attacker, None, {"type": "rearm"}, {})
    assert rearmed.attacker["must_rearm"] is False and rearmed.attacker["wielding"] == "sword"
    assert rearmed.attacker["dropped_weapons"] == []


def test_fumble_breaks_any_other_weapon() -> None:
    result = run(sheet(), sheet("Foe"), {"type": "attack", "weapon": "axe"}, {"attacker": [20], "defender": [16]})
    assert result.outcome["weapon_broken"] == "attacker" and result.attacker["broken_weapons"] == ["axe"]
    with pytest.raises(IllegalAction):
        run(result.attacker, None, {"type": "rearm", "weapon": "axe"}, {})
    fresh = run(result.attacker, None, {"type": "rearm", "weapon": "axe", "replace": True}, {})
    assert fresh.attacker["broken_weapons"] == [] and fresh.outcome["replaced"] is True


def test_both_fumble_both_lose_their_weapons() -> None:
    out = run(sheet(), sheet("Foe"), {"type": "attack", "defender_weapon": "axe"},
              {"attacker": [20], "defender": [20]}).outcome
    assert out["weapon_dropped"] == "attacker" and out["weapon_broken"] == "defender"


def test_disarmed_defender_does_not_roll_and_the_attacker_rolls_alone() -> None:
    foe = sheet("Foe", must_rearm=True, dropped_weapons=["sword"])
    result = run(sheet(), foe, None, {"attacker": [10], "damage": [1, 1, 1, 1, 1]})
    assert result.outcome["unopposed"] is True and result.outcome["defender_roll"] is None
    assert result.outcome["winner"] == "attacker"


def test_disarmed_defender_may_brawl_instead() -> None:
    foe = sheet("Foe", must_rearm=True, dropped_weapons=["sword"])
    out = run(sheet(), foe, {"type": "attack", "defender_weapon": "brawl"},
              {"attacker": [10], "defender": [5], "damage": [1, 1, 1, 1, 1]}).outcome
    assert out["defender_roll"]["skill"] == "brawling" and out["winner"] == "attacker"


def test_critical_deals_double_damage_for_the_winner() -> None:
    foe = sheet("Foe", siz=18, con=18)
    result = run(sheet(), foe, None, {"attacker": [15], "defender": [16], "damage": [1, 1, 2, 2, 2]})
    out = result.outcome
    assert out["critical"] is True and out["damage_roll_total"] == 8 and out["damage_rolled"] == 16
    assert out["armor"] == 10 and out["damage_taken"] == 6 and out["hit_points"] == 30


def test_critical_double_dice_setting_rolls_twice_the_dice() -> None:
    foe = sheet("Foe", siz=18, con=18)
    out = run(sheet(), foe, None, {"attacker": [15], "defender": [16], "damage": [1] * 10},
              {"critical_damage": "double_dice"}).outcome
    assert out["damage_dice"] == "10d6" and out["damage_rolled"] == 10


def test_critical_win_asks_the_gm_for_an_experience_check() -> None:
    result = run(sheet(), sheet("Foe"), None, {"attacker": [15], "defender": [16], "damage": [1, 1, 1, 1, 1]})
    decision = result.outcome["gm_decisions"][0]
    assert decision == {"kind": "experience_check", "skill": "sword", "options": ["approve", "deny"],
                        "who": "attacker"}
    approved = run(result.attacker, None, {"type": "gm_decide", "kind": "experience_check", "decision": "approve"})
    assert approved.attacker["experience_checks"] == ["sword"] and approved.attacker["pending_decisions"] == []


def test_notable_success_also_asks_for_an_experience_check() -> None:
    out = run(sheet(), sheet("Foe"), {"type": "attack", "notable": True},
              {"attacker": [10], "defender": [16], "damage": [1, 1, 1, 1, 1]}).outcome
    assert out["experience_check"] == {"who": "attacker", "skill": "sword"}


def test_only_a_player_knight_earns_an_experience_check_not_a_beast_or_an_npc() -> None:
    """Before: "Bear 1's notable success earns an experience check". A check is spent in the Winter Phase, which
    the GM's NPCs (beasts and knights alike) do not reach: they leave with their encounter."""
    bear = sheet("Bear 1")
    for side, winner_dice in (("attacker", {"attacker": [15], "defender": [16], "damage": [1] * 5}),
                              ("defender", {"attacker": [16], "defender": [15], "defender_damage": [1] * 5})):
        attacker, defender = (bear, sheet("Sir Hugo")) if side == "attacker" else (sheet("Sir Hugo"), bear)
        out = run(attacker, defender, {"type": "attack", "notable": True, "defender_notable": True}, winner_dice,
                  npcs=frozenset({side})).outcome
        assert out["experience_check"] is None and out["gm_decisions"] == []
    # the player knight he fights still earns his
    out = run(sheet("Sir Hugo"), bear, None, {"attacker": [15], "defender": [16], "damage": [1, 1, 1, 1, 1]},
              npcs=frozenset({"defender"})).outcome
    assert out["experience_check"] == {"who": "attacker", "skill": "sword"}


def test_plain_success_asks_for_no_experience_check() -> None:
    out = run(sheet(), sheet("Foe"), None, {"attacker": [10], "defender": [16], "damage": [1, 1, 1, 1, 1]}).outcome
    assert out["experience_check"] is None and out["gm_decisions"] == []


def test_flail_natural_1_hits_its_wielder_by_default() -> None:
    result = run(sheet(), sheet("Foe"), {"type": "attack", "weapon": "flail"},
                 {"attacker": [1], "defender": [16], "damage": [3, 3, 3, 3, 3, 3]})
    out = result.outcome
    assert out["attacker_roll"]["natural_1"] is True and out["attacker_roll"]["result"] == "failure"
    assert out["winner"] == "none"
    # own 5d6 +1d6 against own chainmail; no shield, armour 10
    assert out["self_hit"]["damage_dice"] == "6d6" and out["self_hit"]["damage_taken"] == 8
    assert result.attacker["current_hp"] == 21 and result.attacker["wounds"][0]["source"] == "own flail"


def test_flail_natural_1_as_a_fumble_breaks_the_flail() -> None:
    result = run(sheet(), sheet("Foe"), {"type": "attack", "weapon": "flail"}, {"attacker": [1], "defender": [16]},
                 {"flail_natural_1": "fumble"})
    assert result.outcome["attacker_roll"]["result"] == "fumble"
    assert result.attacker["broken_weapons"] == ["flail"]


def test_flail_natural_1_ignored_is_a_plain_success() -> None:
    out = run(sheet(), sheet("Foe"), {"type": "attack", "weapon": "flail"},
              {"attacker": [1], "defender": [16], "damage": [1] * 6}, {"flail_natural_1": "ignore"}).outcome
    assert out["winner"] == "attacker" and out["self_hit"] is None


def test_sword_natural_1_is_nothing_special() -> None:
    out = run(sheet(), sheet("Foe"), None, {"attacker": [1], "defender": [16], "damage": [1] * 5}).outcome
    assert out["winner"] == "attacker" and out["self_hit"] is None


def test_pendragon_has_no_initiative_roll() -> None:
    result = run(sheet(), sheet("Foe"), {"type": "initiative"}, {})
    assert result.rolls == () and result.outcome["initiative"] == "simultaneous"


def test_typed_damage_belongs_to_the_side_that_typed_it() -> None:
    """Issue 18: Alice typed attacker=7 defender=11 damage=5,5,4,2 for her own blow; the man-at-arms won and her
    faces became his damage. Each side's damage has its own label (``damage`` the attacker's, ``defender_damage``
    the defender's): her faces stay unused and his damage is rolled."""
    source = DiceSource(forced={"attacker": [7], "defender": [11], "damage": [5, 5, 4, 2]})
    defender = sheet("Foe", skills={"sword": 12})
    out = ENGINE.resolve(Scenario("pendragon", {"type": "attack"}, sheet(), defender, QUIET), source,
                         CAT).outcome.to_dict()
    assert out["winner"] == "defender"
    assert source.unused() == {"damage": [5, 5, 4, 2]}
    assert [r.label for r in source.rolls][:3] == ["attacker", "defender", "defender_damage"]  # a knockdown may follow
    # the defender's own faces, typed under his label, are his blow
    own = run(sheet(), defender, None, {"attacker": [7], "defender": [11], "defender_damage": [6, 6, 6, 6, 6]},
              QUIET).outcome
    assert own["winner"] == "defender" and own["damage_rolled"] == 30
    # and the attacker's, when he wins, are his
    won = run(sheet(), defender, None, {"attacker": [11], "defender": [7], "damage": [5, 5, 4, 2, 1]}, QUIET).outcome
    assert won["winner"] == "attacker" and won["damage_rolled"] == 17


def test_a_flails_blow_to_its_wielder_rolls_under_the_wielders_damage_label() -> None:
    """The defender's flail hits its wielder on a natural 1 (he is the one who rolls it): defender_damage."""
    flailer = sheet("Foe", skills={"flail": 12}, weapons=["flail"])
    source = DiceSource(forced={"attacker": [17], "defender": [1], "defender_damage": [1] * 6})
    out = ENGINE.resolve(Scenario("pendragon", {"type": "attack", "defender_weapon": "flail"}, sheet(), flailer,
                                  QUIET), source, CAT).outcome.to_dict()
    assert out["self_hit"]["who"] == "defender" and out["self_hit"]["damage_rolled"] == 6
    assert source.unused() == {}
