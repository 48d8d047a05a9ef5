"""Final damage = weapon base + victory points - armour for the damage type; shields; rolled effect dice."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rules.fading_suns.fading_suns_support import run

QUEUE = {"auto_rolls": False}  # wound-effect rolls wait for the GM, so only the damage matters here


def swordsman(weapon: Any = "broadsword") -> dict[str, Any]:
    return {"name": "A", "dex": 10, "skills": {"melee": 10, "shoot": 10}, "weapons": [weapon]}


TEST_ARMOUR = {"name": "test suit", "covers": ["all"], "slash": 1, "pierce": 2, "impact": 3, "energy": 4}


@pytest.mark.parametrize(("damage_type", "armour", "damage"),
                         [("slash", 1, 8), ("pierce", 2, 7), ("impact", 3, 6), ("energy", 4, 5)])
def test_final_damage_is_weapon_base_plus_victory_points_minus_armour_for_the_weapons_type(
        damage_type: str, armour: int, damage: int) -> None:
    weapon = {"name": "test blade", "damage": 6, "type": damage_type, "skill": "melee"}
    target = {"name": "D", "size": 10, "armour": [TEST_ARMOUR]}
    res = run({"type": "attack"}, swordsman(weapon), target, {"attack": [9], "location": [12]}, QUEUE)
    assert (res.outcome["base"], res.outcome["bonus"], res.outcome["armor"]) == (6, 3, armour)
    assert res.outcome["damage_type"] == damage_type
    assert res.outcome["damage"] == damage


def test_each_location_has_its_own_armour() -> None:
    target = {"name": "D", "size": 10, "armour": ["plate helm", "leather jerkin"]}
    head = run({"type": "attack"}, swordsman(), target, {"attack": [9], "location": [19]}, QUEUE)
    chest = run({"type": "attack"}, swordsman(), target, {"attack": [9], "location": [12]}, QUEUE)
    leg = run({"type": "attack"}, swordsman(), target, {"attack": [9], "location": [1]}, QUEUE)
    assert (head.outcome["armor"], head.outcome["damage"]) == (10, 0)
    assert (chest.outcome["armor"], chest.outcome["damage"]) == (4, 5)
    assert (leg.outcome["armor"], leg.outcome["damage"]) == (0, 9)
    assert head.outcome["severity"] is None and head.outcome["wound"] is None


def test_layered_pieces_count_the_best_rating_or_with_the_setting_their_sum() -> None:
    target = {"name": "D", "size": 10, "armour": ["chain hauberk", "padded clothing"]}
    best = run({"type": "attack"}, swordsman(), target, {"attack": [18], "location": [12]}, QUEUE)
    assert (best.outcome["armor"], best.outcome["damage"]) == (8, 4)
    summed = run({"type": "attack"}, swordsman(), target, {"attack": [18], "location": [12]},
                 {**QUEUE, "armour_layers": "sum"})
    assert (summed.outcome["armor"], summed.outcome["damage"]) == (9, 3)
    assert summed.outcome["armor_pieces"] == ["chain hauberk", "padded clothing"]


def test_a_weapon_that_ignores_armour_meets_none() -> None:
    target = {"name": "D", "size": 10, "armour": ["plate armour"]}
    res = run({"type": "attack"}, swordsman("wireblade"), target, {"attack": [9], "location": [12]}, QUEUE)
    assert (res.outcome["armor"], res.outcome["damage"]) == (0, 11)


def test_with_victory_dice_the_bonus_is_the_charts_dice_not_its_points() -> None:
    target = {"name": "D", "size": 10}
    two = run({"type": "attack"}, swordsman(), target, {"attack": [2], "location": [12]},
              {**QUEUE, "victory_bonus": "dice"})
    assert (two.outcome["victory_points"], two.outcome["bonus"], two.outcome["damage"]) == (1, 0, 6)
    three = run({"type": "attack"}, swordsman(), target, {"attack": [3], "location": [12]},
                {**QUEUE, "victory_bonus": "dice"})
    assert (three.outcome["bonus"], three.outcome["damage"]) == (1, 7)


def test_rolled_damage_counts_effect_dice_showing_one_to_four_for_weapon_and_armour() -> None:
    target = {"name": "D", "size": 10, "armour": ["leather jerkin"]}
    res = run({"type": "attack"}, swordsman(), target,
              {"attack": [9], "location": [12], "damage": [1, 2, 3, 4, 5, 6, 1, 1, 6], "armor": [4, 5, 6, 1]},
              {**QUEUE, "damage_mode": "rolled"})
    assert res.outcome["damage_before_armor"] == 6   # 9 dice (6 base + 3 VP), six show 1-4
    assert (res.outcome["armor_rating"], res.outcome["armor"]) == (4, 2)
    assert res.outcome["damage"] == 4
    assert [r.label for r in res.rolls] == ["attack", "location", "damage", "armor"]


# -- energy shields ---------------------------------------------------------------------------------

SHIELDED = {"name": "D", "size": 10, "shield": "standard"}  # activates at 5, stops up to 10, 10 hits


def test_energy_shields_are_on_by_default_and_a_ruling_turns_them_off() -> None:
    res = run({"type": "attack"}, swordsman(), SHIELDED, {"attack": [9], "location": [12]}, QUEUE)
    assert res.outcome["shield"] is not None and res.outcome["shield"]["activated"]
    res = run({"type": "attack"}, swordsman(), SHIELDED, {"attack": [9], "location": [12]},
              {**QUEUE, "energy_shields": False})
    assert res.outcome["shield"] is None and res.outcome["damage"] == 9


def test_a_spent_shield_recharges_when_the_fight_ends() -> None:
    res = run({"type": "end_fight"}, {**SHIELDED, "shield_hits_used": 3})
    assert "shield_spent" in res.outcome["ended"] and res.attacker["shield_hits_used"] == 0  # type: ignore[index]


def test_a_shield_stops_a_blow_that_reaches_its_threshold_and_uses_a_hit() -> None:
    res = run({"type": "attack"}, swordsman(), SHIELDED, {"attack": [9], "location": [12]},
              {**QUEUE, "energy_shields": True})
    assert res.outcome["shield"] == {"name": "standard", "activated": True, "absorbed": 9, "hits_left": 9}
    assert res.outcome["damage"] == 0 and res.outcome["severity"] is None
    assert res.defender is not None and res.defender["shield_hits_used"] == 1


def test_a_shield_stops_at_most_its_maximum() -> None:
    res = run({"type": "attack", "modifiers": -2}, swordsman(), SHIELDED, {"attack": [18], "location": [19]},
              {**QUEUE, "energy_shields": True})  # critical on goal 18: 6 + 12 = 18
    assert res.outcome["shield"]["absorbed"] == 10
    assert res.outcome["damage"] == 8


def test_a_blow_under_the_threshold_passes_the_shield() -> None:
    res = run({"type": "attack"}, swordsman("fist"), SHIELDED, {"attack": [2], "location": [12]},
              {**QUEUE, "energy_shields": True})  # fist 2 + 1 = 3 < 5
    assert res.outcome["shield"]["activated"] is False and res.outcome["damage"] == 3


def test_a_spent_shield_stops_nothing() -> None:
    spent = {**SHIELDED, "shield_hits_used": 10}
    res = run({"type": "attack"}, swordsman(), spent, {"attack": [9], "location": [12]},
              {**QUEUE, "energy_shields": True})
    assert res.outcome["shield"]["activated"] is False and res.outcome["damage"] == 9


def test_a_shield_works_before_armour() -> None:
    target = {**SHIELDED, "shield": {"name": "weak", "min": 3, "max": 4, "hits": 3}, "armour": ["leather jerkin"]}
    res = run({"type": "attack"}, swordsman(), target, {"attack": [9], "location": [12]},
              {**QUEUE, "energy_shields": True})
    assert res.outcome["shield"]["absorbed"] == 4
    assert res.outcome["damage"] == 9 - 4 - 4
