"""Seed 001 winner's phase: damage dice by weapon, and the skill modifiers (mounted, charge, prone...)."""

from __future__ import annotations

from typing import Any

import pytest

from rules.dice import DiceSource
from rules.errors import IllegalAction
from rules.model import Scenario
from rules.pendragon.engine import ENGINE as PENDRAGON
from rules.pendragon.outcomes import RestOutcome
from tests.rules.pendragon.pendragon_support import CAT, QUIET, run, sheet

WIN = {"attacker": [10], "defender": [16]}
FOE = {"name": "Foe", "siz": 30, "dex": 10, "str": 10, "con": 30, "app": 10,
       "skills": {"sword": 12, "great_spear": 12, "lance": 12, "horsemanship": 10},
       "weapons": ["sword", "great_spear", "lance"], "armour": ["full_plate"]}


def dice_for(out_count: int) -> dict[str, list[int]]:
    return {**WIN, "damage": [1] * out_count}


def foe(**over: Any) -> dict[str, Any]:
    return {**FOE, **over}


@pytest.mark.parametrize(("weapon", "defender", "expected"), [
    ("sword", {}, "5d6"),
    ("dagger", {}, "4d6"),
    ("great_sword", {}, "6d6"),
    ("axe", {"armour": ["full_plate", "shield"]}, "6d6"),
    ("axe", {}, "5d6"),
    ("great_axe", {"armour": ["full_plate", "shield"]}, "7d6"),
    ("great_axe", {}, "6d6"),
    ("mace", {"armour": ["chainmail"]}, "6d6"),
    ("mace", {"armour": ["leather"]}, "5d6"),
    ("flail", {"armour": ["reinforced_chainmail"]}, "6d6"),
    ("warflail", {"armour": ["chainmail"]}, "7d6"),
    ("morning_star", {"armour": ["chainmail"]}, "7d6"),
    ("club", {}, "4d6"),
    ("javelin", {}, "3d6"),
    ("bow", {}, "3d6"),
    ("heavy_crossbow", {}, "1d6+16"),
    ("light_crossbow", {}, "1d6+10"),
    ("brawl", {}, "2d6"),
])
def test_winner_rolls_damage_dice_adjusted_by_the_weapon(weapon: str, defender: dict[str, Any], expected: str) -> None:
    attacker = sheet(skills={weapon: 15, "brawling": 15, "crossbow": 15}, weapons=[weapon] if weapon != "brawl" else [],
                     armour=["chainmail"])
    count = int(expected.split("d")[0])
    # an exchange even for a missile (unopposed at range is their default): both roll, the attacker wins
    out = run(attacker, foe(**defender), {"type": "attack", "weapon": weapon, "defender_weapon": "sword",
                                          "unopposed": False}, dice_for(count), QUIET).outcome
    assert out["damage_dice"] == expected
    bonus = int(expected.split("+")[1]) if "+" in expected else 0
    assert out["damage_rolled"] == count + bonus


def test_dagger_never_drops_below_one_die() -> None:
    weak = sheet(siz=3, str=3, weapons=["dagger"])  # Damage (3+3)/6 = 1d6, dagger -1d6 -> 1d6
    out = run(weak, foe(), {"type": "attack", "weapon": "dagger"}, dice_for(1), QUIET).outcome
    assert out["damage_dice"] == "1d6"


def test_brawling_halves_damage_less_one_die_rounding_half_up() -> None:
    # Damage (12+12)/6 = 4d6; less 1d6 = 3d6; halved = 1.5 -> 2d6
    out = run(sheet(siz=12, str=12, weapons=[]), foe(), {"type": "attack", "weapon": "brawl"},
              dice_for(2), QUIET).outcome
    assert out["damage_dice"] == "2d6"


def test_lance_charge_deals_the_horses_damage_with_both_plus_fives() -> None:
    knight = sheet(weapons=["lance"], horse="charger", mounted=True)
    out = run(knight, foe(), {"type": "attack", "weapon": "lance", "charge": True}, dice_for(6), QUIET).outcome
    assert out["damage_dice"] == "6d6" and out["damage_notes"] == ["horse_damage"]
    assert out["attacker_roll"]["modifiers"] == [["mounted", 5], ["charge", 5]]
    assert out["attacker_roll"]["target"] == 25


def test_spear_charge_uses_the_lance_skill_and_the_horse() -> None:
    rider = sheet(skills={"spear": 8, "lance": 15}, weapons=["spear"], horse="rouncy", mounted=True)
    out = run(rider, foe(), {"type": "attack", "weapon": "spear", "charge": True}, dice_for(4), QUIET).outcome
    assert out["attacker_roll"]["skill"] == "lance" and out["damage_dice"] == "4d6"


def test_charge_against_a_lance_gets_no_charge_bonus() -> None:
    knight = sheet(weapons=["lance"], horse="charger", mounted=True)
    out = run(knight, foe(mounted=True), {"type": "attack", "weapon": "lance", "charge": True,
                                          "defender_weapon": "lance"}, dice_for(6), QUIET).outcome
    assert out["attacker_roll"]["modifiers"] == []


def test_mounted_against_foot_is_plus_five() -> None:
    out = run(sheet(mounted=True), foe(), None, dice_for(5), QUIET).outcome
    assert out["attacker_roll"]["modifiers"] == [["mounted", 5]] and out["attacker_roll"]["target"] == 20
    assert out["defender_roll"]["modifiers"] == []


def test_footman_penalty_setting_gives_the_footman_minus_five() -> None:
    out = run(sheet(mounted=True), foe(), None, dice_for(5), {**QUIET, "footman_penalty": True}).outcome
    assert out["defender_roll"]["modifiers"] == [["footman", -5]]


def test_great_spear_on_foot_cancels_the_horsemans_bonuses() -> None:
    knight = sheet(weapons=["lance"], horse="charger", mounted=True)
    out = run(knight, foe(), {"type": "attack", "weapon": "lance", "charge": True, "defender_weapon": "great_spear"},
              dice_for(6), QUIET).outcome
    assert out["attacker_roll"]["modifiers"] == [] and out["defender_roll"]["modifiers"] == []


def test_great_spear_bonus_reading_gives_the_footman_plus_five() -> None:
    out = run(sheet(mounted=True), foe(), {"type": "attack", "defender_weapon": "great_spear"},
              {**WIN, "defender_damage": [1] * 8}, {**QUIET, "great_spear_vs_horse": "bonus"}).outcome
    assert out["attacker_roll"]["modifiers"] == [["mounted", 5]]
    assert out["defender_roll"]["modifiers"] == [["great_spear", 5]]
    assert out["winner"] == "defender"  # 16 under his 17 beats the knight's 10: his own great spear's 8d6


def test_prone_fighter_minus_five_and_his_foe_plus_five() -> None:
    out = run(sheet(prone=True), foe(), None, {"attacker": [10], "defender": [16]}, QUIET).outcome
    assert out["attacker_roll"]["modifiers"] == [["prone", -5]]
    assert out["defender_roll"]["modifiers"] == [["foe_prone", 5]]


def test_defend_tactic_is_plus_ten_and_deals_no_damage() -> None:
    result = run(sheet(), foe(), {"type": "attack", "tactic": "defend"}, WIN, QUIET)
    assert result.outcome["attacker_roll"]["target"] == 25 and result.outcome["winner"] == "attacker"
    assert result.outcome["damage_rolled"] is None and result.defender["wounds"] == []


def test_situations_and_free_modifiers_add_up() -> None:
    out = run(sheet(), foe(), {"type": "attack", "situation": ["fog_or_dark", "high_ground"], "modifier": 2},
              {"attacker": [10], "defender": [16]}, QUIET).outcome
    assert out["attacker_roll"]["target"] == 15 - 10 + 5 + 2


def test_unopposed_attack_rolls_only_the_attacker() -> None:
    result = run(sheet(), foe(), {"type": "attack", "unopposed": True}, {"attacker": [10], "damage": [1] * 5}, QUIET)
    assert [r.label for r in result.rolls] == ["attacker", "damage"] and result.outcome["winner"] == "attacker"


@pytest.mark.parametrize(("attacker", "action", "message"), [
    (sheet(weapons=["lance"]), {"weapon": "lance"}, "horseback"),
    (sheet(weapons=["great_sword"], mounted=True), {"weapon": "great_sword"}, "two-handed"),
    (sheet(weapons=["great_sword"]), {"weapon": "great_sword", "shield": True}, "no hand"),
    (sheet(weapons=["lance"], mounted=True), {"weapon": "lance", "charge": True}, "no horse"),
    (sheet(mounted=True), {"charge": True}, "lance or spear"),
    (sheet(unconscious=True), {}, "unconscious"),
    (sheet(out_of_fight=True), {}, "left the fight"),
    (sheet(broken_weapons=["axe"]), {"weapon": "axe"}, "broken"),
])
def test_illegal_attacks_are_refused(attacker: dict[str, Any], action: dict[str, Any], message: str) -> None:
    with pytest.raises(IllegalAction, match=message):
        run(attacker, foe(), {"type": "attack", **action}, {})


def test_two_handed_on_horseback_allowed_by_setting() -> None:
    out = run(sheet(skills={"great_sword": 15}, weapons=["great_sword"], mounted=True), foe(),
              {"type": "attack", "weapon": "great_sword"},
              dice_for(6), {**QUIET, "two_handed_mounted": True}).outcome
    assert out["damage_dice"] == "6d6"


def test_lance_breaks_on_odd_damage_after_a_charge() -> None:
    knight = sheet(weapons=["lance", "sword"], horse="charger", mounted=True)
    result = run(knight, foe(), {"type": "attack", "weapon": "lance", "charge": True},
                 {**WIN, "damage": [1, 1, 1, 1, 1, 2]}, QUIET)
    assert result.outcome["damage_roll_total"] == 7 and result.outcome["lance_broken"] == "attacker"
    assert result.attacker["broken_weapons"] == ["lance"] and result.attacker["must_rearm"] is True


def test_lance_holds_on_even_damage() -> None:
    knight = sheet(weapons=["lance"], horse="charger", mounted=True)
    out = run(knight, foe(), {"type": "attack", "weapon": "lance", "charge": True}, dice_for(6), QUIET).outcome
    assert out["lance_broken"] is None


def test_lance_odd_roll_reading_breaks_on_an_odd_d20() -> None:
    knight = sheet(weapons=["lance"], horse="charger", mounted=True)
    out = run(knight, foe(), {"type": "attack", "weapon": "lance", "charge": True},
              {"attacker": [11], "defender": [16], "damage": [1] * 6}, {**QUIET, "lance_breaks": "odd_roll"}).outcome
    assert out["lance_broken"] == "attacker"


def test_a_charge_without_a_horse_names_the_field_and_the_packs_horses() -> None:
    rider = sheet(weapons=["lance"], mounted=True)
    with pytest.raises(IllegalAction, match=r"attacker has no horse on the sheet for a charge: set its field "
                                            r"'horse' \(the pack has charger, courser, rouncy\)"):
        run(rider, foe(), {"type": "attack", "weapon": "lance", "charge": True}, dice_for(6), QUIET)


def test_a_missile_attack_is_unopposed_at_range_by_default() -> None:
    bowman = sheet(weapons=["bow"], skills={"bow": 14})
    result = run(bowman, foe(), {"type": "attack", "weapon": "bow"}, {"attacker": [10], "damage": [1] * 3}, QUIET)
    assert [r.label for r in result.rolls] == ["attacker", "damage"]
    assert result.outcome["winner"] == "attacker" and result.outcome["unopposed_why"] == "missile"


def test_a_missile_attack_the_target_answers_is_an_exchange_when_asked() -> None:
    bowman = sheet(weapons=["bow"], skills={"bow": 14})
    result = run(bowman, foe(), {"type": "attack", "weapon": "bow", "unopposed": False},
                 {"attacker": [10], "defender": [11], "defender_damage": [1] * 7}, QUIET)
    assert result.outcome["defender_roll"] is not None and result.outcome["unopposed_why"] is None
    assert result.outcome["winner"] == "defender"  # the swordsman in reach cuts the bowman down


def test_rest_by_days_counts_whole_weeks_and_says_what_was_left_and_why_it_stopped() -> None:
    wounded = sheet(wounds=[{"amount": 2}])
    res = PENDRAGON.resolve(Scenario("pendragon", {"type": "rest", "days": 17}, wounded), DiceSource(), CAT)
    out = res.outcome
    assert isinstance(out, RestOutcome)
    assert (out.weeks, out.days_unused) == (2, 3)
    assert (out.weeks_counted, out.stopped) == (1, "healed")  # whole after one week: the second not needed
