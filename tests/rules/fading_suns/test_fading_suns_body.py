"""Seed 002: Size as a characteristic, encumbrance STR^2 with its breaks, partial armour weights."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from rules.errors import SheetError
from rules.fading_suns.body import carried_kg, enc_kg, load_modifier, mass_cap
from rules.fading_suns.character import parse
from rules.fading_suns.engine import ENGINE
from rules.fading_suns.rulings import Rulings
from tests.rules.fading_suns.fading_suns_support import CAT, run


def stat(sheet: dict[str, Any], label: str) -> str:
    return dict(ENGINE.summarize(sheet, CAT).stats)[label]


# -- Size -----------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("size", "cap"),
    [(1, Fraction(1600, 81)), (2, Fraction(800, 27)), (3, Fraction(400, 9)), (4, Fraction(200, 3)),
     (5, Fraction(100)), (6, Fraction(150)), (7, Fraction(225)), (8, Fraction(675, 2)),
     (9, Fraction(2025, 4)), (10, Fraction(6075, 8))],
)
def test_size_five_is_100_kg_and_each_point_is_one_and_a_half_times_the_last(size: int, cap: Fraction) -> None:
    assert mass_cap(size, CAT) == cap


def test_mass_cap_is_shown_in_the_summary() -> None:
    assert stat({"name": "A"}, "Mass cap") == "100 kg"
    assert stat({"name": "B", "size": 7}, "Mass cap") == "225 kg"
    assert stat({"name": "C", "size": 3}, "Mass cap") == "44.44 kg"


@pytest.mark.parametrize(("build", "size"), [("dwarf", 3), ("short", 4), ("average", 5), ("tall", 6), ("giant", 7)])
def test_short_tall_are_minus_plus_one_and_dwarf_giant_minus_plus_two(build: str, size: int) -> None:
    char = parse({"name": "H", "build": build}, CAT)
    assert char.size == size
    assert stat({"name": "H", "build": build}, "Size").startswith(str(size))


def test_size_range_is_one_to_ten() -> None:
    assert parse({"name": "A", "size": 1}, CAT).size == 1
    assert parse({"name": "A", "size": 10}, CAT).size == 10
    with pytest.raises(SheetError, match="'size' must be 1 to 10"):
        parse({"name": "A", "size": 11}, CAT)
    with pytest.raises(SheetError, match="'size' must be 1 to 10"):
        parse({"name": "A", "size": 0}, CAT)
    with pytest.raises(SheetError, match="outside 1-10"):
        parse({"name": "A", "size": 9, "build": "giant"}, CAT)


# -- Encumbrance ------------------------------------------------------------------------------------

def test_encumbrance_is_str_squared_in_kg() -> None:
    assert enc_kg(parse({"name": "A", "str": 4}, CAT), CAT) == 16
    assert enc_kg(parse({"name": "A", "str": 7}, CAT), CAT) == 49
    assert stat({"name": "A", "str": 6}, "ENC") == "36 kg"


@pytest.mark.parametrize(
    ("carried", "modifier"),
    [
        (Fraction(0), 0),
        (Fraction(4), 0),                # exactly 1/4 ENC: no modifier
        (Fraction(799, 100), 0),         # just under 1/2
        (Fraction(8), -2),               # exactly 1/2 ENC
        (Fraction(1599, 100), -2),
        (Fraction(16), -4),              # exactly 1 ENC
        (Fraction(3199, 100), -4),
        (Fraction(32), -6),              # 2x
        (Fraction(4799, 100), -6),
        (Fraction(48), -9),              # 3x
        (Fraction(6399, 100), -9),
        (Fraction(64), -14),             # 4x
        (Fraction(7999, 100), -14),
        (Fraction(80), -20),             # 5x
        (Fraction(200), -20),            # past 5x the last break holds
    ],
)
def test_encumbrance_breaks_at_their_edges(carried: Fraction, modifier: int) -> None:
    assert load_modifier(carried, Fraction(16), CAT) == modifier


def attacker(**fields: Any) -> dict[str, Any]:
    return {"name": "Porter", "str": 4, "dex": 5, "skills": {"fight": 5}, "weapons": ["fist"], **fields}


DEFENDER = {"name": "Target", "end": 5}


def test_load_penalty_lowers_the_attack_goal() -> None:
    # fist weighs nothing; STR 4 -> ENC 16; 8 kg of gear is 1/2 ENC: -2 to the goal of 10
    res = run({"type": "attack"}, attacker(gear_kg=8), DEFENDER, {"attack": [15]})
    assert res.outcome["goal"] == 8
    assert res.outcome["modifiers"]["encumbrance"] == -2
    res = run({"type": "attack"}, attacker(gear_kg=7.99), DEFENDER, {"attack": [15]})
    assert res.outcome["goal"] == 10


def test_load_penalty_lowers_the_dodge_goal_but_not_the_effect_roll() -> None:
    heavy = {"name": "Mule", "str": 4, "dex": 5, "end": 5, "skills": {"dodge": 5}, "gear_kg": 16}
    res = run({"type": "attack", "defense": "dodge"}, attacker(), heavy,
              {"attack": [3], "defense": [19], "location": [19], "effect": [20]})
    assert res.outcome["defense"]["goal"] == 6  # 5 + 5 - 4 (1x ENC)
    assert res.outcome["effect_roll"]["goal"] == 10  # 2 x END, no load penalty


def test_load_penalty_reaches_the_stumble_roll() -> None:
    heavy = {"name": "Mule", "str": 4, "dex": 5, "end": 5, "skills": {"vigor": 5}, "gear_kg": 32}
    # knife 3 + 1 VP = 4 against Size 5: a major leg wound, which calls for a STUMBLE roll
    res = run({"type": "attack"}, {"name": "A", "dex": 8, "skills": {"melee": 8}, "weapons": ["knife"]}, heavy,
              {"attack": [3], "location": [1], "stumble": [1]})
    assert res.outcome["severity"] == "major"
    # Dex 5 + Vigor 5, -6 for 2x ENC, -4 for the major wound just taken
    assert res.outcome["stumble_roll"]["modifiers"] == {"dex": 5, "vigor": 5, "wounds": -4, "encumbrance": -6}
    assert res.outcome["stumble_roll"]["goal"] == 0


# -- Partial armour -----------------------------------------------------------------------------------

def carried(armour: list[Any], **rules: Any) -> Fraction:
    return carried_kg(parse({"name": "A", "armour": armour}, CAT), CAT, Rulings(**rules))


def test_each_location_contributes_its_share_of_the_armour_weight() -> None:
    plate = 24  # plate's full-suit weight in armour.yaml
    assert carried([{"material": "plate", "covers": ["head"]}]) == Fraction(plate * 10, 100)
    assert carried([{"material": "plate", "covers": ["chest"]}]) == Fraction(plate * 20, 100)
    assert carried([{"material": "plate", "covers": ["abdomen"]}]) == Fraction(plate * 10, 100)
    assert carried([{"material": "plate", "covers": ["right_leg"]}]) == Fraction(plate * 20, 100)
    assert carried([{"material": "plate", "covers": ["left_leg"]}]) == Fraction(plate * 20, 100)
    assert carried([{"material": "plate", "covers": ["right_arm"]}]) == Fraction(plate * 15, 100)
    assert carried([{"material": "plate", "covers": ["left_arm"]}]) == Fraction(plate * 15, 100)


def test_plate_helm_with_leather_jerkin_weighs_a_tenth_of_plate_and_three_tenths_of_leather() -> None:
    assert carried(["plate helm"]) == Fraction(24, 10)
    assert carried(["leather jerkin"]) == Fraction(8 * 30, 100)
    assert carried(["plate helm", "leather jerkin"]) == Fraction(48, 10)
    assert stat({"name": "A", "armour": ["plate helm", "leather jerkin"]}, "Carried") == "4.8 kg"


def test_the_seed_shares_add_to_110_percent_so_a_full_suit_weighs_110_percent_by_default() -> None:
    assert carried(["plate armour"]) == Fraction(264, 10)
    assert carried(["plate armour"], armour_share_basis="normalised") == 24
    assert carried(["plate helm"], armour_share_basis="normalised") == Fraction(24 * 10, 110)


def test_half_plate_is_fs_half_plate_six_dice_not_plate() -> None:
    # docs/rules/fading-suns.md, rule 6b: FS 2e's half plate is 6, -1 Dex (plate is 10). Broadsword 6 + 3 VP
    # (9 against goal 13) = 9 on the chest, less half plate's slash 6 = 3 against Size 5: a major wound
    # (plate's 10 would stop it)
    attacker = {"name": "A", "dex": 7, "skills": {"melee": 6}, "weapons": ["broadsword"]}
    res = run({"type": "attack"}, attacker, {"name": "D", "str": 10, "armour": ["half plate"]},
              {"attack": [9], "location": [12], "effect": [4]})
    assert (res.outcome["roll"], res.outcome["goal"], res.outcome["bonus"]) == (9, 13, 3)
    assert (res.outcome["armor"], res.outcome["armor_pieces"]) == (6, ["half plate"])
    assert (res.outcome["damage"], res.outcome["severity"]) == (3, "major")
    assert dict(CAT.armour["half plate"].ratings) == {"slash": 6, "pierce": 5, "impact": 5, "energy": 2}
    assert CAT.armour["half plate"].covers == ("abdomen", "chest", "right_arm", "left_arm")


# -- FS armour Dex/Vigor penalties (docs/rules/fading-suns.md, rule 6c; ruling armour_penalties) ------------

KNIGHT = {"name": "K", "str": 10, "dex": 7, "skills": {"melee": 6, "vigor": 7, "dodge": 5},
          "weapons": ["broadsword"]}
LEG_WOUND = {"type": "injure", "damage": 3, "location": "right_leg", "armour": False}  # major: STUMBLE


def stumble_goal(armour: list[Any], **rulings: Any) -> tuple[int, dict[str, int]]:
    res = run(LEG_WOUND, {**KNIGHT, "armour": armour}, dice={"stumble": [5]}, rulings=rulings)
    roll = res.outcome["stumble_roll"]
    return roll["goal"], roll["modifiers"]


def test_fs_armour_dex_and_vigor_penalties_reach_the_goals_built_on_dex_or_vigor() -> None:
    # Chain mail (all seven locations): FS -1 Dex / -2 Vigor. STR 10: ENC 100 kg, so no load penalty.
    knight = {**KNIGHT, "armour": ["chain mail"]}
    foe = {"name": "F", "str": 10, "dex": 7, "skills": {"dodge": 5}, "armour": ["chain mail"]}
    res = run({"type": "attack", "defense": "dodge"}, knight, foe, {"attack": [3], "defense": [10]})
    assert res.outcome["goal"] == 7 + 6 - 1 and res.outcome["modifiers"]["armour_dex"] == -1
    assert res.outcome["defense"]["goal"] == 7 + 5 - 1 and res.outcome["defense"]["modifiers"]["armour_dex"] == -1
    # STUMBLE is Dex + Vigor: both penalties, after the major wound's -4
    assert stumble_goal(["chain mail"]) == (7 + 7 - 4 - 1 - 2, {"dex": 7, "vigor": 7, "wounds": -4,
                                                                 "armour_dex": -1, "armour_vigor": -2})
    # Wound-effect rolls (2 x END) and initiative are untouched
    hit = run({"type": "injure", "damage": 5, "location": "chest", "armour": False}, knight, dice={"effect": [4]})
    assert hit.outcome["effect_roll"]["goal"] == 6
    order = run({"type": "initiative"}, knight, foe).outcome["initiative"]
    assert order["attacker"]["score"] == 7 + 6 and order["attacker"]["parts"] == {"dex": 7, "melee": 6}


def test_partial_armour_gives_its_share_of_the_fs_penalty_rounded() -> None:
    assert stumble_goal(["plate helm"])[0] == 10  # plate -2/-2 x 10/110: nothing
    assert stumble_goal(["half plate"])[0] == 10 - 1  # -1 Dex x 60/110 = -0.55: -1; no Vigor penalty
    assert stumble_goal(["chain hauberk"])[0] == 10 - 1 - 1  # -1 and -2 x 60/110: -0.55 -> -1, -1.09 -> -1
    assert stumble_goal([{"material": "chain", "covers": ["torso"]}])[0] == 10 - 1  # x 30/110: 0 Dex, -1 Vigor
    assert stumble_goal(["plate armour"])[0] == 10 - 2 - 2
    powered = {"name": "powered ceramsteel", "material": "ceramsteel", "dex_penalty": 0, "vigor_penalty": 0}
    assert stumble_goal([powered])[0] == 10  # FS: no penalty when powered
    assert stumble_goal([{"material": "ceramsteel"}])[0] == 10 - 5 - 5


def test_armour_penalties_setting_full_or_none() -> None:
    assert stumble_goal(["plate helm"], armour_penalties="full")[0] == 10 - 2 - 2
    assert stumble_goal(["chain mail"], armour_penalties="none") == (10, {"dex": 7, "vigor": 7, "wounds": -4})


def test_armour_weight_can_scale_with_size() -> None:
    big = parse({"name": "A", "size": 7, "armour": ["plate helm"]}, CAT)
    assert carried_kg(big, CAT, Rulings()) == Fraction(24, 10)
    assert carried_kg(big, CAT, Rulings(armour_scales_with_size=True)) == Fraction(24, 10) * Fraction(9, 4)


def test_carried_weight_counts_weapons_in_hand_shield_and_gear_but_not_dropped_weapons() -> None:
    sheet = {"name": "A", "weapons": ["broadsword", "knife"], "shield": "battle", "gear_kg": 3}
    assert carried_kg(parse(sheet, CAT), CAT, Rulings()) == Fraction(15 + 3 + 20 + 30, 10)
    dropped = {**sheet, "dropped": ["broadsword"]}
    assert carried_kg(parse(dropped, CAT), CAT, Rulings()) == Fraction(3 + 20 + 30, 10)


def test_inline_armour_weight_given_outright_is_used_as_is() -> None:
    assert carried([{"name": "odd helm", "covers": ["head"], "slash": 3, "weight": 1.25}]) == Fraction(5, 4)
