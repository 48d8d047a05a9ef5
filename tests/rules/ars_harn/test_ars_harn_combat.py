"""Seed 000, combat: aspects, Damage/Soak Base, declarations, separate rolls, Tactical Advantage,
excess points and damage. Every test forces the dice and checks exact numbers."""

from __future__ import annotations

from typing import Any

import pytest

from rules.errors import IllegalAction, RulesError
from tests.rules.ars_harn.ars_harn_support import CAT, PLAIN, run, who


def bjorn(**extra: Any) -> dict[str, Any]:
    return who("Bjorn", **{"str": 2, "dex": 1, "abilities": {"Sword": 5}, "weapons": ["Broadsword"], **extra})


def aldo(**extra: Any) -> dict[str, Any]:
    return who("Aldo", **{"sta": 1, "qik": 1, "abilities": {"Sword": 3}, "weapons": ["Shortsword"], **extra})


# -- 1. aspects --------------------------------------------------------------------------------


def test_every_weapon_has_blunt_edge_and_point_damage_from_the_weapon_table() -> None:
    sword = CAT.weapon("Broadsword")
    assert (sword.damage["blunt"], sword.damage["edge"], sword.damage["point"]) == (3, 5, 3)
    mace = CAT.weapon("Mace")
    assert mace.aspects() == ("blunt",)


def test_an_aspect_the_weapon_lacks_is_refused() -> None:
    with pytest.raises(IllegalAction, match="Mace has no Edge aspect"):
        run({"type": "attack", "aspect": "edge"}, who(weapons=["Mace"]), who("B"))


def test_aspect_damage_depends_on_the_aspect_declared() -> None:
    dice = {"attack": [7], "defense": [3], "location": [50], "shock": [9]}
    edge = run({"aspect": "edge"}, bjorn(), aldo(), dice).outcome.to_dict()
    point = run({"aspect": "point"}, bjorn(), aldo(), dice).outcome.to_dict()
    # AT 7+1+5+3 = 16, DT 3+1+3+1 = 8, excess 8, Damage Base 2: edge 2+8+5, point 2+8+3
    assert (edge["damage_total"], point["damage_total"]) == (15, 13)


def test_weapon_ars_values_follow_the_documented_mapping() -> None:
    sword = CAT.weapon("Broadsword")  # HM3 A15 D10, skill Sword
    assert (sword.init, sword.atk, sword.dfn) == (2, 3, 2)
    shortsword = CAT.weapon("Shortsword")  # A10 D5, init given per weapon
    assert (shortsword.init, shortsword.atk, shortsword.dfn) == (1, 2, 1)


# -- 3. Damage Base and Soak Base ----------------------------------------------------------------


def test_damage_base_is_strength_plus_size_in_melee() -> None:
    attacker = who(str=3, size=1, weapons=[PLAIN])
    out = run({"aspect": "edge"}, attacker, who("B"), {"attack": [9], "defense": [4], "location": [50],
                                                       "shock": [9]}).outcome.to_dict()
    assert out["damage_base"] == 4
    assert out["damage_total"] == 4 + 5  # excess 5, Plain edge 0


def test_missile_damage_base_is_zero() -> None:
    archer = who(str=3, size=1, abilities={"Bow": 0}, weapons=["Shortbow"])
    out = run({"aspect": "point"}, archer, who("B"), {"attack": [9], "defense": [4], "location": [50],
                                                      "shock": [9]}).outcome.to_dict()
    # AT 9 + Atk 3 = 12, DT 4: excess 8; Damage Base 0; short range impact 6
    assert out["damage_base"] == 0
    assert out["damage_total"] == 0 + 8 + 6


def test_missile_impact_follows_the_range_band() -> None:
    archer = who(abilities={"Bow": 0}, weapons=["Longbow"])
    out = run({"range": "long"}, archer, who("B"), {"attack": [9], "defense": [4], "location": [50],
                                                    "shock": [9]}).outcome.to_dict()
    assert out["damage_total"] == 0 + 9 + 6  # Longbow Atk 4: AT 13 - DT 4; long range impact 6


def test_soak_base_is_stamina_plus_size() -> None:
    out = run({"aspect": "edge"}, who(weapons=[PLAIN]), who("B", sta=2, size=1),
              {"attack": [9], "defense": [4], "location": [50]}).outcome.to_dict()
    assert out["soak_base"] == 3
    assert out["soak_total"] == 3


# -- 4. declarations: aspect and aim -------------------------------------------------------------


@pytest.mark.parametrize(("aim", "bonus"), [("high", -3), ("mid", 0), ("low", -3)])
def test_high_and_low_aim_are_minus_three_to_attack(aim: str, bonus: int) -> None:
    out = run({"aim": aim}, bjorn(), aldo(), {"attack": [5], "defense": [9]}).outcome.to_dict()
    assert out["attack_total"] == 5 + 1 + 5 + 3 + bonus
    assert out["attack_modifiers"]["aim"] == bonus


def test_aim_does_not_change_defense_or_initiative() -> None:
    high = run({"aim": "high"}, bjorn(), aldo(), {"attack": [2], "defense": [9]}).outcome.to_dict()
    mid = run({"aim": "mid"}, bjorn(), aldo(), {"attack": [2], "defense": [9]}).outcome.to_dict()
    assert high["defense_total"] == mid["defense_total"] == 9 + 1 + 3 + 1
    init = run({"type": "initiative"}, bjorn(), None, {"initiative": [5]})
    assert init.outcome.to_dict()["attacker"]["total"] == 5 + 0 + 2  # Qik 0 + Broadsword Init 2
    with pytest.raises(RulesError, match="unknown option 'aim'"):
        run({"type": "initiative", "aim": "high"}, bjorn(), None)


def test_aim_selects_the_strike_table_column() -> None:
    dice = {"attack": [9], "defense": [2], "location": [20], "shock": [9]}
    high = run({"aim": "high", "aspect": "blunt"}, bjorn(), aldo(), dice).outcome.to_dict()
    low = run({"aim": "low", "aspect": "blunt"}, bjorn(), aldo(), dice).outcome.to_dict()
    assert high["location"] == "face"  # High 16-30
    assert low["location"] == "abdomen"  # Low 20-29


def test_touch_range_brawler_may_change_aim_before_rolling() -> None:
    out = run({"weapon": "Fist", "aim": "high", "brawl_aim": "mid"}, bjorn(), aldo(),
              {"attack": [5], "defense": [9]}).outcome.to_dict()
    assert out["declared_aim"] == "high"
    assert out["aim"] == "mid"
    assert out["attack_modifiers"]["aim"] == 0


def test_changing_aim_is_only_for_a_brawling_attack() -> None:
    with pytest.raises(IllegalAction, match="Brawling"):
        run({"aim": "high", "brawl_aim": "mid"}, bjorn(), aldo())


# -- 5. separate Attack and Defense rolls --------------------------------------------------------


def test_attack_and_defense_are_separate_stress_rolls() -> None:
    result = run({}, bjorn(), aldo(), {"attack": [1, 4], "defense": [6]})
    out = result.outcome.to_dict()
    assert out["attack_total"] == 8 + 9  # 1 then 4: doubled
    assert out["defense_total"] == 6 + 5
    assert [r.label for r in result.rolls][:2] == ["attack", "defense"]


def test_a_botched_attack_roll_counts_as_zero() -> None:
    out = run({}, bjorn(), aldo(), {"attack": [0], "attack.botch": [0], "defense": [0], "defense.botch": [3]}
              ).outcome.to_dict()
    assert out["attack_botched"] is True
    assert out["attack_total"] == 0
    assert out["defense_total"] == 5  # a zero without a botch is just a 0 on the die
    assert out["hit"] is False


def test_botch_dice_number_is_a_setting() -> None:
    result = run({}, bjorn(), aldo(), {"attack": [0], "attack.botch": [3, 0], "defense": [5]},
                 {"combat_botch_dice": 2})
    assert result.outcome.to_dict()["attack_botched"] is True
    assert result.rolls[1].faces == (3, 0)


def test_wound_penalties_and_fatigue_apply_to_attack_and_defense() -> None:
    hurt = [{"location": "thorax", "code": "S3"}, {"location": "hand", "side": "left", "code": "M1"}]
    out = run({}, bjorn(wounds=hurt, fatigue=3), aldo(wounds=hurt, fatigue=2),
              {"attack": [5], "defense": [5]}).outcome.to_dict()
    assert out["attack_total"] == 5 + 9 - 4 - 3  # M1 + S3 = four levels; Tired -3
    assert out["defense_total"] == 5 + 5 - 4 - 1  # Weary -1


def test_a_defender_in_shock_makes_no_defense_roll() -> None:
    result = run({}, bjorn(), aldo(conditions=["shock"]), {"attack": [3], "location": [50], "shock": [9]})
    assert result.outcome.to_dict()["defense_rolled"] is False
    assert result.outcome.to_dict()["defense_total"] == 0
    assert "defense" not in [r.label for r in result.rolls]


def test_a_character_in_shock_cannot_attack() -> None:
    with pytest.raises(IllegalAction, match="shock"):
        run({}, bjorn(conditions=["shock"]), aldo())


def test_defense_uses_the_best_held_weapon_or_the_sum_by_setting() -> None:
    defender = who("Shielded", qik=1, abilities={"Sword": 3, "Shield": 2}, weapons=["Broadsword", "Kite Shield"])
    best = run({}, bjorn(), defender, {"attack": [2], "defense": [4]}).outcome.to_dict()
    # Sword 3 + Dfn 2 = 5 against Shield 2 + Dfn 5 = 7: the shield
    assert best["defense_total"] == 4 + 1 + 2 + 5
    summed = run({}, bjorn(), defender, {"attack": [2], "defense": [4]}, {"defense_weapons": "sum"}).outcome.to_dict()
    assert summed["defense_total"] == 4 + 1 + 3 + 2 + 5


# -- 6. Tactical Advantage -----------------------------------------------------------------------


def test_tactical_advantage_when_defense_excess_doubles_attack_total() -> None:
    # The seed's own example, exactly: AT = 2 + 9 - 1 = 10 (modifier -1); DT = die 20 (1, 1, 5: 5 doubled
    # twice) + Qik 6 + Sword 3 + Dfn 1 = 30 -> excess 20 = 2 x 10, the boundary itself
    result = run({"modifier": -1}, bjorn(), aldo(qik=6), {"attack": [2], "defense": [1, 1, 5]})
    out = result.outcome.to_dict()
    assert (out["attack_total"], out["defense_total"]) == (10, 30)
    assert out["defense_total"] - out["attack_total"] == 2 * out["attack_total"]
    assert out["tactical_advantage"] is True
    assert result.defender is not None and result.defender["tactical_advantage"] is True


def test_tactical_advantage_against_an_attack_total_of_zero_or_less_needs_a_real_defense() -> None:
    # "excess points in Defense Total doubles his opponent's Attack Total": a botched AT of 0 doubled is 0,
    # so any defence that wins earns it (DT 40) ...
    botched = run({}, bjorn(), aldo(), {"attack": [0], "attack.botch": [0], "defense": [1, 1, 1, 5]}).outcome.to_dict()
    assert (botched["attack_total"], botched["defense_total"]) == (0, 45)
    assert botched["tactical_advantage"] is True
    # ... and a negative AT (heavy wounds: 3 + 9 - 15 = -3) against DT 2 + 5 = 7 as well
    hurt = [{"location": "thorax", "code": "K5"}, {"location": "abdomen", "code": "K5"},
            {"location": "thigh", "side": "left", "code": "K5"}]
    weak = run({}, bjorn(wounds=hurt), aldo(), {"attack": [3], "defense": [2]}).outcome.to_dict()
    assert (weak["attack_total"], weak["defense_total"]) == (-3, 7)
    assert weak["tactical_advantage"] is True
    # but a defender who made no Defense roll (in shock: DT 0) or botched it has not defended
    shocked = run({}, bjorn(wounds=hurt), aldo(conditions=["shock"]), {"attack": [3]})
    assert (shocked.outcome.to_dict()["attack_total"], shocked.outcome.to_dict()["defense_total"]) == (-3, 0)
    assert shocked.outcome.to_dict()["tactical_advantage"] is False
    assert shocked.defender is not None and shocked.defender["tactical_advantage"] is False
    fumbled = run({}, bjorn(wounds=hurt), aldo(), {"attack": [3], "defense": [0], "defense.botch": [0]})
    fumbled = fumbled.outcome.to_dict()
    assert (fumbled["defense_total"], fumbled["defense_botched"]) == (0, True)
    assert fumbled["tactical_advantage"] is False


@pytest.mark.parametrize(("defense_mod", "earned"), [(20, True), (19, False)])
def test_tactical_advantage_boundary_is_exactly_double(defense_mod: int, earned: bool) -> None:
    # AT 10; DT = 5 + 5 + mod: 30 earns it (excess 20), 29 does not (excess 19)
    out = run({"modifier": -1, "defense_modifier": defense_mod}, bjorn(), aldo(),
              {"attack": [2], "defense": [5]}).outcome.to_dict()
    assert out["defense_total"] == 10 + defense_mod
    assert out["tactical_advantage"] is earned


def test_tactical_advantage_total_doubles_setting() -> None:
    out = run({"modifier": -1, "defense_modifier": 10}, bjorn(), aldo(), {"attack": [2], "defense": [5]},
              {"tactical_advantage": "total_doubles"}).outcome.to_dict()
    assert out["defense_total"] == 20
    assert out["tactical_advantage"] is True


def test_tactical_advantage_may_pick_up_a_weapon_but_never_attack() -> None:
    sheet = aldo(tactical_advantage=True, dropped=[0], held={"right": None, "left": None})
    result = run({"type": "tactical_advantage", "use": "pick_up", "weapon": "Shortsword"}, sheet)
    assert result.attacker is not None
    assert result.attacker["held"] == {"right": 0, "left": None}
    assert result.attacker["dropped"] == []
    assert result.attacker["tactical_advantage"] is False
    with pytest.raises(IllegalAction, match="second attack"):
        run({"type": "tactical_advantage", "use": "attack"}, aldo(tactical_advantage=True))


def test_tactical_advantage_stand_up_and_fast_cast() -> None:
    stood = run({"type": "tactical_advantage", "use": "stand_up"}, aldo(tactical_advantage=True,
                                                                        conditions=["prone"]))
    assert stood.attacker is not None and stood.attacker["conditions"] == []
    cast = run({"type": "tactical_advantage", "use": "fast_cast"}, aldo(tactical_advantage=True))
    assert cast.outcome.to_dict()["fast_cast"] is True
    with pytest.raises(IllegalAction, match="no Tactical Advantage"):
        run({"type": "tactical_advantage", "use": "stand_up"}, aldo(conditions=["prone"]))


# -- 7. excess points ----------------------------------------------------------------------------


def test_excess_may_be_saved_for_the_next_round_instead_of_damage() -> None:
    result = run({"save_excess": True}, bjorn(), aldo(), {"attack": [7], "defense": [3]})
    out = result.outcome.to_dict()
    assert out["excess"] == 8 and out["excess_saved"] is True
    assert out["damage_total"] is None and out["injury"] is None
    assert result.attacker is not None and result.attacker["saved_points"] == 8


def test_saved_points_add_to_the_next_attack_total() -> None:
    out = run({}, bjorn(saved_points=6, saved_rounds=1), aldo(), {"attack": [2], "defense": [9]}).outcome.to_dict()
    assert out["attack_total"] == 2 + 9 + 6
    assert out["saved_points_used"] == 6
    assert out["saved_points"] == 0


def test_saved_points_on_damage_total_setting() -> None:
    out = run({"aspect": "blunt"}, bjorn(saved_points=6, saved_rounds=1), aldo(),
              {"attack": [7], "defense": [3], "location": [50], "shock": [9]},
              {"saved_points_use": "damage_total"}).outcome.to_dict()
    assert out["attack_total"] == 16
    assert out["damage_total"] == 2 + 8 + 3 + 6


def test_points_saved_over_more_than_one_round_are_capped_at_three_times_weapon_skill() -> None:
    # Sword 5: cap 15. Carried 6 (inside the Attack Total) + the rest: AT 7+9+6 = 22, DT 8: excess 14
    under = run({"save_excess": True}, bjorn(saved_points=6, saved_rounds=1), aldo(),
                {"attack": [7], "defense": [3]})
    assert under.outcome.to_dict()["excess"] == 14 and under.outcome.to_dict()["saved_points"] == 14
    assert under.outcome.to_dict()["saved_points_capped"] is False
    over = run({"save_excess": True}, bjorn(saved_points=10, saved_rounds=1), aldo(),
               {"attack": [7], "defense": [3]})
    assert over.outcome.to_dict()["excess"] == 18
    assert over.outcome.to_dict()["saved_points"] == 15 and over.outcome.to_dict()["saved_points_capped"] is True
    assert over.attacker is not None and over.attacker["saved_rounds"] == 2


def test_points_saved_for_more_than_one_round_are_capped_even_when_held_then_spent() -> None:
    # Seed: "If points have been saved for more than one round, they may not exceed triple the attacker's
    # weapon skill". Sword 5: cap 15. Round 1 saves 23 (one round: not capped).
    first = run({"save_excess": True, "modifier": 15}, bjorn(), aldo(), {"attack": [7], "defense": [3]})
    assert first.outcome.to_dict()["excess"] == 23 and first.attacker is not None
    assert (first.attacker["saved_points"], first.attacker["saved_rounds"]) == (23, 1)
    # Round 2 holds them (use_saved: false) and misses: now saved over more than one round -> 15
    held = run({"use_saved": False}, first.attacker, aldo(), {"attack": [2], "defense": [9]})
    assert (held.outcome.to_dict()["attack_total"], held.outcome.to_dict()["defense_total"]) == (11, 14)
    assert held.outcome.to_dict()["saved_points_used"] == 0 and held.outcome.to_dict()["saved_points"] == 15
    assert held.outcome.to_dict()["saved_points_capped"] is True and held.outcome.to_dict()["saved_points_cap"] == 15
    assert held.attacker is not None
    assert (held.attacker["saved_points"], held.attacker["saved_rounds"]) == (15, 2)
    # Round 3 spends them: AT 2 + 9 + 15 = 26 (not 34), a miss against DT 40 + 5
    spent = run({}, held.attacker, aldo(), {"attack": [2], "defense": [1, 1, 1, 5]}).outcome.to_dict()
    assert spent["attack_total"] == 26 and spent["saved_points_used"] == 15
    assert spent["saved_points"] == 0
    # A sheet already holding 23 points saved two rounds spends only 15
    old = run({}, bjorn(saved_points=23, saved_rounds=2), aldo(), {"attack": [2], "defense": [1, 1, 1, 5]})
    assert old.outcome.to_dict()["attack_total"] == 26 and old.outcome.to_dict()["saved_points_capped"] is True


def test_first_round_saving_is_not_capped_unless_the_setting_says_always() -> None:
    first = run({"save_excess": True, "modifier": 10}, bjorn(), aldo(), {"attack": [7], "defense": [3]})
    assert first.outcome.to_dict()["saved_points"] == 18  # over 15, but saved for one round only
    always = run({"save_excess": True, "modifier": 10}, bjorn(), aldo(), {"attack": [7], "defense": [3]},
                 {"saved_points_cap": "always"})
    assert always.outcome.to_dict()["saved_points"] == 15


# -- 8. damage, location, soak, Effective Impact --------------------------------------------------


def test_damage_total_is_damage_base_plus_excess_plus_aspect_damage() -> None:
    out = run({"aspect": "edge"}, bjorn(), aldo(), {"attack": [7], "defense": [3], "location": [50],
                                                     "shock": [9]}).outcome.to_dict()
    assert out["damage_total"] == 2 + 8 + 5


@pytest.mark.parametrize(("roll", "side"), [(17, "left"), (18, "right")])
def test_location_odd_roll_is_left_even_is_right(roll: int, side: str) -> None:
    out = run({"aspect": "blunt"}, bjorn(), aldo(), {"attack": [7], "defense": [3], "location": [roll],
                                                      "fumble": [9], "shock": [9]}).outcome.to_dict()
    assert out["location"] == "shoulder"
    assert out["side"] == side


def test_unpaired_location_has_no_side() -> None:
    out = run({}, bjorn(), aldo(), {"attack": [7], "defense": [3], "location": [3], "shock": [9]}).outcome.to_dict()
    assert out["location"] == "skull" and out["side"] is None


def test_soak_total_adds_every_armour_layer_at_the_location() -> None:
    # Quilt (edge 3) under Mail (edge 8) on the thorax; Sta 1
    defender = aldo(armour=["Quilt Gambeson", "Mail Hauberk"])
    out = run({"aspect": "edge"}, bjorn(), defender, {"attack": [7], "defense": [3], "location": [50],
                                                       "shock": [9]}).outcome.to_dict()
    assert out["armour"] == 11
    assert out["soak_total"] == 1 + 3 + 8
    assert out["effective_impact"] == 15 - 12


def test_armour_protects_only_its_locations_and_by_aspect() -> None:
    defender = aldo(armour=["Mail Coif"])  # skull and neck
    skull = run({"aspect": "blunt"}, bjorn(), defender, {"attack": [7], "defense": [3], "location": [1],
                                                          "shock": [9]}).outcome.to_dict()
    assert skull["armour"] == 2  # mail blunt 2
    thorax = run({"aspect": "blunt"}, bjorn(), defender, {"attack": [7], "defense": [3], "location": [50],
                                                           "shock": [9]}).outcome.to_dict()
    assert thorax["armour"] == 0


def test_effective_impact_is_damage_total_minus_soak_total() -> None:
    out = run({"aspect": "edge"}, bjorn(), aldo(armour=["Leather Tunic"]),
              {"attack": [7], "defense": [3], "location": [50], "shock": [9]}).outcome.to_dict()
    assert out["damage_total"] == 15 and out["soak_total"] == 1 + 4
    assert out["effective_impact"] == 10


def test_a_hit_needs_the_attack_total_to_exceed_the_defense_total() -> None:
    out = run({"modifier": -5}, bjorn(), aldo(), {"attack": [9], "defense": [8]}).outcome.to_dict()
    assert out["attack_total"] == out["defense_total"] == 13
    assert out["hit"] is False and out["excess"] == 0


def test_ready_a_weapon_then_attack_and_refuse_a_dropped_one() -> None:
    sheet = aldo(weapons=["Shortsword", "Dagger"], dropped=[0], held={"right": None, "left": None})
    with pytest.raises(IllegalAction, match="on the ground"):
        run({"weapon": "Shortsword"}, sheet, bjorn())
    with pytest.raises(IllegalAction, match="holds no usable weapon"):
        run({}, sheet, bjorn())
    readied = run({"type": "ready", "weapon": "Dagger"}, sheet)
    assert readied.attacker is not None and readied.attacker["held"] == {"right": 1, "left": None}
