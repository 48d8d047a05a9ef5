"""Hit location by d20 (both columns), final damage against Size, each location's wound effects, penalties."""

from __future__ import annotations

import pytest

from rules.model import Resolution
from tests.rules.fading_suns.fading_suns_support import run

MELEE = {**{f: "right_leg" for f in range(1, 5)}, **{f: "left_leg" for f in range(5, 9)},
         **{f: "abdomen" for f in range(9, 12)}, 12: "chest", **{f: "right_arm" for f in range(13, 16)},
         **{f: "left_arm" for f in range(16, 19)}, 19: "head", 20: "head"}
MISSILE = {**{f: "right_leg" for f in range(1, 4)}, **{f: "left_leg" for f in range(4, 7)},
           **{f: "abdomen" for f in range(7, 11)}, **{f: "chest" for f in range(11, 16)},
           16: "right_arm", 17: "right_arm", 18: "left_arm", 19: "left_arm", 20: "head"}


@pytest.mark.parametrize(("face", "location"), sorted(MELEE.items()))
def test_melee_and_hand_hit_location_column(face: int, location: str) -> None:
    res = run({"type": "injure", "damage": 0, "column": "melee"}, {"name": "A"}, dice={"location": [face]})
    assert res.outcome["location"] == location


@pytest.mark.parametrize(("face", "location"), sorted(MISSILE.items()))
def test_missile_hit_location_column(face: int, location: str) -> None:
    res = run({"type": "injure", "damage": 0, "column": "missile"}, {"name": "A"}, dice={"location": [face]})
    assert res.outcome["location"] == location


def test_an_attack_uses_the_column_of_its_mode() -> None:
    shooter = {"name": "S", "dex": 5, "skills": {"shoot": 5}, "weapons": ["derringer"]}
    target = {"name": "T", "size": 10}
    res = run({"type": "attack"}, shooter, target, {"attack": [3], "location": [12]})
    assert res.outcome["column"] == "missile" and res.outcome["location"] == "chest"
    res = run({"type": "attack"}, shooter, target, {"attack": [3], "location": [7]})
    assert res.outcome["location"] == "abdomen"  # 7 is the left leg in melee
    brawler = {"name": "B", "dex": 5, "skills": {"fight": 5}, "weapons": []}
    res = run({"type": "attack"}, brawler, target, {"attack": [3], "location": [7]})
    assert res.outcome["column"] == "melee" and res.outcome["location"] == "left_leg"


# -- final damage against Size ------------------------------------------------------------------------

def hurt(size: int, damage: int, location: str = "right_leg") -> Resolution:
    """A GM-applied injury with the rolls queued, so only the severity matters."""
    return run({"type": "injure", "damage": damage, "location": location}, {"name": "V", "size": size},
               rulings={"auto_rolls": False})


@pytest.mark.parametrize(
    ("size", "damage", "severity"),
    [
        (5, 0, None), (5, 1, "minor"), (5, 2, "minor"),             # below half Size (2.5)
        (5, 3, "major"), (5, 4, "major"),                           # from half Size
        (5, 5, "grievous"), (5, 10, "grievous"),                    # from Size to exactly twice Size
        (5, 11, "crippled"),                                        # above twice Size
        (4, 1, "minor"), (4, 2, "major"),                           # exactly half Size is major
        (4, 3, "major"), (4, 4, "grievous"),                        # exactly Size is grievous
        (4, 8, "grievous"), (4, 9, "crippled"),                     # exactly twice Size is still grievous
        (10, 4, "minor"), (10, 5, "major"), (10, 9, "major"), (10, 10, "grievous"), (10, 20, "grievous"),
        (10, 21, "crippled"),
        (1, 1, "grievous"), (1, 2, "grievous"), (1, 3, "crippled"),  # Size 1: one point is already Size
        (2, 1, "major"),
    ],
)
def test_severity_from_final_damage_against_size_at_half_one_and_twice_size(size: int, damage: int,
                                                                            severity: str | None) -> None:
    res = hurt(size, damage)
    assert res.outcome["severity"] == severity
    assert (res.outcome["wound"] is None) == (severity is None)


def test_armour_is_subtracted_before_comparing_with_size() -> None:
    res = run({"type": "injure", "damage": 7, "location": "head", "damage_type": "slash"},
              {"name": "V", "armour": ["plate helm"]})
    assert (res.outcome["armor"], res.outcome["damage"], res.outcome["severity"]) == (10, 0, None)


# -- each location's effects --------------------------------------------------------------------------

DAMAGE_FOR = {"minor": 1, "major": 3, "grievous": 5, "crippled": 11}  # against Size 5
EFFECTS = {
    # the seed's leg row
    "right_leg": {"minor": ("none", []), "major": ("stumble", []), "grievous": ("stun", []),
                  "crippled": ("stun_uncon", ["prone"])},
    "left_leg": {"minor": ("none", []), "major": ("stumble", []), "grievous": ("stun", []),
                 "crippled": ("stun_uncon", ["prone"])},
    # our design in its spirit
    "right_arm": {"minor": ("none", []), "major": ("fumble", []), "grievous": ("stun", []),
                  "crippled": ("stun_uncon", [])},
    "left_arm": {"minor": ("none", []), "major": ("fumble", []), "grievous": ("stun", []),
                 "crippled": ("stun_uncon", [])},
    # the torso's grievous wound rolls STUN only: the seed's STUN/UNCON needs damage "greater than size"
    "abdomen": {"minor": ("none", []), "major": ("stun", []), "grievous": ("stun", []),
                "crippled": ("uncon_death", ["prone"])},
    "chest": {"minor": ("none", []), "major": ("stun", []), "grievous": ("stun", []),
              "crippled": ("death", ["prone"])},
    "head": {"minor": ("stun", []), "major": ("stun_uncon", []), "grievous": ("uncon_death", []),
             "crippled": ("death", ["prone"])},
}
CELLS = [(loc, sev, *EFFECTS[loc][sev]) for loc in EFFECTS for sev in DAMAGE_FOR]


@pytest.mark.parametrize(("location", "severity", "roll", "conditions"), CELLS)
def test_each_location_and_severity_calls_for_its_effect_roll(location: str, severity: str, roll: str,
                                                              conditions: list[str]) -> None:
    res = hurt(5, DAMAGE_FOR[severity], location)
    assert res.outcome["severity"] == severity
    assert res.outcome["wound_roll"] == roll
    assert res.outcome["conditions"]["attacker"] == conditions
    pending = res.outcome["pending_rolls"]
    if roll == "none":
        assert pending == []
    elif roll in ("stumble", "fumble"):
        assert [(p["kind"], p["column"]) for p in pending] == [(roll, None)]
    else:
        assert [(p["kind"], p["column"]) for p in pending] == [("effect", roll)]


def test_it_takes_damage_greater_than_size_for_most_locations_to_incur_a_stun_uncon_roll() -> None:
    # Seed: "it takes damage greater than size for most locations to incur a Stun/Uncon. roll (the exception
    # being the head)". Size 5: no location but the head rolls STUN/UNCON or worse up to 2 x Size.
    mild = {"none", "stumble", "fumble", "stun"}
    for location in ("right_leg", "left_leg", "abdomen", "chest", "right_arm", "left_arm"):
        for damage in range(1, 11):
            assert hurt(5, damage, location).outcome["wound_roll"] in mild, (location, damage)
    assert hurt(5, 11, "abdomen").outcome["wound_roll"] == "uncon_death"
    assert hurt(5, 3, "head").outcome["wound_roll"] == "stun_uncon"
    # damage exactly Size to the chest, effect roll 10 against 2 x END 6 fails: STUN column -> stunned only
    res = run({"type": "injure", "damage": 5, "location": "chest"}, {"name": "V", "size": 5}, dice={"effect": [10]})
    assert (res.outcome["severity"], res.outcome["wound_roll"]) == ("grievous", "stun")
    assert (res.outcome["effect_roll"]["goal"], res.outcome["effect_roll"]["result"]) == (6, "failure")
    assert res.outcome["effect"] == "stun"
    assert res.attacker is not None and res.attacker["conditions"] == ["stunned"]


def test_the_head_reaches_a_stun_uncon_roll_below_size_where_a_leg_needs_more_than_twice_size() -> None:
    assert hurt(5, 3, "head").outcome["wound_roll"] == "stun_uncon"
    assert hurt(5, 3, "right_leg").outcome["wound_roll"] == "stumble"
    assert hurt(5, 11, "right_leg").outcome["wound_roll"] == "stun_uncon"


def test_a_crippled_arm_drops_the_weapon_in_hand() -> None:
    res = run({"type": "injure", "damage": 11, "location": "right_arm"}, {"name": "V", "weapons": ["broadsword"]},
              rulings={"auto_rolls": False})
    assert res.outcome["dropped"]["attacker"] == ["broadsword"]
    assert res.attacker is not None and res.attacker["dropped"] == ["broadsword"]


def test_a_major_arm_wound_fumble_roll_drops_the_weapon_on_failure() -> None:
    sheet = {"name": "V", "dex": 5, "skills": {"melee": 5}, "weapons": ["broadsword"]}
    res = run({"type": "injure", "damage": 3, "location": "left_arm"}, sheet, dice={"fumble": [7]})
    # Dex 5 + Melee 5 - 4 for the major wound just taken = 6; 7 fails
    assert res.outcome["fumble_roll"]["goal"] == 6
    assert res.outcome["fumble_roll"]["result"] == "failure"
    assert res.outcome["dropped"]["attacker"] == ["broadsword"]


def test_a_fumble_roll_with_nothing_in_hand_is_not_rolled() -> None:
    res = run({"type": "injure", "damage": 3, "location": "left_arm"}, {"name": "V"})
    assert res.outcome["fumble_roll"]["roll"] is None
    assert res.outcome["fumble_roll"]["note"] == "nothing in hand"


@pytest.mark.parametrize(("face", "result", "conditions"),
                         [(5, "success", []), (10, "critical", []), (11, "failure", ["prone"]),
                          (20, "critical_failure", ["prone"])])
def test_a_major_leg_wound_stumble_roll_against_dex_plus_vigor(face: int, result: str,
                                                               conditions: list[str]) -> None:
    sheet = {"name": "V", "dex": 7, "skills": {"vigor": 7}, "weapons": ["knife"]}
    res = run({"type": "injure", "damage": 3, "location": "right_leg"}, sheet, dice={"stumble": [face]})
    assert res.outcome["stumble_roll"]["goal"] == 10  # 7 + 7 - 4
    assert res.outcome["stumble_roll"]["result"] == result
    assert res.outcome["conditions"]["attacker"] == conditions
    assert res.outcome["dropped"]["attacker"] == (["knife"] if result == "critical_failure" else [])


# -- penalties -------------------------------------------------------------------------------------

@pytest.mark.parametrize(("severity", "goal", "initiative"),
                         [("minor", -1, 0), ("major", -4, -1), ("grievous", -8, -3), ("crippled", -8, -3)])
def test_wound_penalties_by_severity(severity: str, goal: int, initiative: int) -> None:
    res = hurt(5, DAMAGE_FOR[severity], "chest")
    assert res.outcome["penalties"] == {"goal": goal, "initiative": initiative}


def test_wound_penalties_accumulate_over_wounds() -> None:
    first = hurt(5, 1, "chest")
    assert first.attacker is not None
    queue = {"auto_rolls": False}
    second = run({"type": "injure", "damage": 3, "location": "abdomen"}, first.attacker, rulings=queue)
    assert second.attacker is not None
    third = run({"type": "injure", "damage": 6, "location": "left_leg"}, second.attacker, rulings=queue)
    assert third.outcome["penalties"] == {"goal": -13, "initiative": -4}
    assert third.attacker is not None
    assert [(w["index"], w["location"], w["severity"]) for w in third.attacker["wounds"]] == \
        [(1, "chest", "minor"), (2, "abdomen", "major"), (3, "left_leg", "grievous")]


def test_the_defenders_penalties_after_an_attack_are_in_the_outcome() -> None:
    attacker = {"name": "A", "dex": 5, "skills": {"melee": 5}, "weapons": ["knife"]}
    defender = {"name": "D", "wounds": [{"location": "chest", "severity": "minor"}]}
    res = run({"type": "attack"}, attacker, defender, {"attack": [4], "location": [1], "stumble": [1]})
    assert res.outcome["severity"] == "major"
    assert res.outcome["penalties"] == {"goal": -5, "initiative": -1}
