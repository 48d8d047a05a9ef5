"""Seed 001 loser's phase: knockdown, shield, wound, major wound, unconscious, dying, falls."""

from __future__ import annotations

from typing import Any

from rules.model import Resolution
from tests.rules.pendragon.pendragon_support import QUIET, run, sheet

WIN = {"attacker": [10], "defender": [19]}  # sword 15 succeeds; the foe fails even mounted (12+5)


def foe(**over: Any) -> dict[str, Any]:
    # SIZ 15 (Knockdown 15), CON 14 (Major Wound 14), HP 29, Unconscious 7
    base = sheet("Foe", skills={"sword": 12, "horsemanship": 14}, weapons=["sword"])
    base.update(over)
    return base


def hit(damage: list[int], defender: dict[str, Any], rulings: dict[str, Any] | None = None,
        extra: dict[str, list[int]] | None = None, action: dict[str, Any] | None = None,
        rolls: dict[str, list[int]] | None = None) -> Resolution:
    dice = {**(rolls or WIN), "damage": damage, **(extra or {})}
    rules = rulings if rulings is not None else QUIET
    return run(sheet(), defender, {"type": "attack", **(action or {})}, dice, rules)


def test_knockdown_not_rolled_below_siz() -> None:
    out = hit([2, 3, 3, 3, 3], foe()).outcome
    assert out["damage_rolled"] == 14 and out["knockdown"] is None and out["damage_taken"] == 4


def test_knockdown_not_rolled_at_siz_when_it_must_exceed() -> None:
    out = hit([3, 3, 3, 3, 3], foe()).outcome
    assert out["damage_rolled"] == 15 and out["knockdown"] is None


def test_knockdown_rolled_at_siz_under_equals_setting() -> None:
    out = hit([3, 3, 3, 3, 3], foe(), {**QUIET, "knockdown_trigger": "equals_or_exceeds"}, {"knockdown": [1]}).outcome
    assert out["knockdown"]["target"] == 2 and out["knockdown"]["passed"] is True


def test_knockdown_above_siz_dex_roll_with_armour_penalty_fails_prone() -> None:
    result = hit([4, 3, 3, 3, 3], foe(), extra={"knockdown": [5]})
    kd = result.outcome["knockdown"]
    assert kd["total"] == 5 and kd["target"] == 12 - 10 and kd["passed"] is False and kd["skill"] == "dex"
    assert result.defender["prone"] is True and result.defender["mounted"] is False


def test_knockdown_without_armour_dex_penalty_uses_plain_dex() -> None:
    out = hit([4, 3, 3, 3, 3], foe(), {**QUIET, "armour_dex_penalty": False}, {"knockdown": [5]}).outcome
    assert out["knockdown"]["target"] == 12 and out["knockdown"]["passed"] is True


def test_knockdown_mounted_rolls_horsemanship_and_a_fall_hurts() -> None:
    result = hit([4, 3, 3, 3, 3], foe(mounted=True), extra={"knockdown": [16], "fall_damage": [4]})
    kd = result.outcome["knockdown"]
    assert kd["skill"] == "horsemanship" and kd["target"] == 14 and kd["fall_damage"] == 4
    d = result.defender
    assert d["mounted"] is False and d["prone"] is True
    # the knockdown comes first in the loser's phase, so its fall is wound 1
    assert [(w["amount"], w["source"]) for w in d["wounds"]] == [(4, "fall"), (6, "sword")]
    assert d["current_hp"] == 29 - 6 - 4


def test_knockdown_at_twice_siz_is_automatic() -> None:
    result = hit([6, 6, 6, 6, 6], foe())
    kd = result.outcome["knockdown"]
    assert kd["automatic"] is True and kd["passed"] is False and kd["total"] is None
    assert result.defender["prone"] is True
    assert [r.label for r in result.rolls] == ["attacker", "defender", "damage"]


def test_knockdown_at_twice_siz_is_rolled_without_the_automatic_rule() -> None:
    out = hit([6, 6, 6, 6, 6], foe(), {**QUIET, "knockdown_automatic_at_double": False}, {"knockdown": [1]}).outcome
    assert out["knockdown"]["automatic"] is False and out["knockdown"]["passed"] is True


def test_shield_applies_when_the_losers_own_roll_succeeded() -> None:
    result = hit([2, 3, 3, 3, 3], foe(), rolls={"attacker": [10], "defender": [8]})
    out = result.outcome
    assert out["winner"] == "attacker" and out["shield_applied"] is True
    assert out["armor"] == 16 and out["damage_taken"] == 0 and result.defender["wounds"] == []


def test_shield_does_not_apply_when_the_loser_failed() -> None:
    out = hit([2, 3, 3, 3, 3], foe()).outcome
    assert out["shield_applied"] is False and out["armor"] == 10 and out["damage_taken"] == 4


def test_shield_not_used_when_the_loser_sets_it_aside() -> None:
    out = hit([2, 3, 3, 3, 3], foe(), rolls={"attacker": [10], "defender": [8]},
              action={"defender_shield": False}).outcome
    assert out["shield_applied"] is False and out["armor"] == 10


def test_flail_ignores_the_shield() -> None:
    out = run(sheet(), foe(), {"type": "attack", "weapon": "flail"},
              {"attacker": [10], "defender": [8], "damage": [1, 1, 3, 3, 3, 3]}, QUIET).outcome
    assert out["damage_dice"] == "6d6" and out["shield_applied"] is False and out["damage_taken"] == 4


def test_large_shield_adds_eight() -> None:
    out = hit([2, 3, 3, 3, 3], foe(armour=["chainmail", "large_shield"]), rolls={"attacker": [10], "defender": [8]}
              ).outcome
    assert out["armor"] == 18


def test_wound_is_recorded_and_subtracted_from_hit_points() -> None:
    result = hit([2, 3, 3, 3, 3], foe())
    assert result.defender["wounds"] == [{"index": 1, "amount": 4, "remaining": 4, "major": False,
                                          "mortal": False, "first_aid": False, "source": "sword"}]
    assert result.outcome["hit_points"] == 25 and result.defender["current_hp"] == 25


def test_major_wound_at_exactly_con_with_its_effects() -> None:
    result = hit([2, 3, 3, 3, 3], foe(armour=[]), rulings={},
                 extra={"major_wound": [10], "valorous": [12], "stat_loss": [6]})
    out = result.outcome
    assert out["damage_taken"] == 14 and out["major_wound"] is True
    effects = out["major_wound_effects"]
    assert effects["conscious_roll"]["target"] == 15 and effects["conscious_roll"]["result"] == "success"
    assert effects["valorous_roll"]["target"] == 10 and effects["valorous_roll"]["result"] == "failure"
    assert effects["stat_lost"] is None
    d = result.defender
    assert d["wounds"][0]["major"] is True and d["chirurgery_needed"] is True
    assert d["out_of_fight"] is True and d["unconscious"] is False


def test_wound_one_under_con_is_not_major() -> None:
    out = hit([1, 3, 3, 3, 3], foe(armour=[]), rulings={}).outcome
    assert out["damage_taken"] == 13 and out["major_wound"] is False


def test_major_wound_must_exceed_con_under_that_setting() -> None:
    out = hit([2, 3, 3, 3, 3], foe(armour=[]), rulings={"major_wound_threshold": "exceeds"}).outcome
    assert out["damage_taken"] == 14 and out["major_wound"] is False


def test_major_wound_failed_hit_point_roll_falls_unconscious_and_loses_a_stat() -> None:
    result = hit([2, 3, 3, 3, 3], foe(armour=[]), rulings={}, extra={"major_wound": [18], "stat_loss": [2]})
    d = result.defender
    assert result.outcome["unconscious"] is True and d["unconscious"] is True and d["prone"] is True
    assert d["dex"] == 11 and d["stats_lost"] == [{"stat": "dex", "amount": 1, "wound": 1}]


def test_major_wound_always_unconscious_setting_rolls_nothing_for_it() -> None:
    result = hit([2, 3, 3, 3, 3], foe(armour=[]), rulings={"major_wound_unconscious": "always", "stat_loss": False})
    assert result.defender["unconscious"] is True
    assert [r.label for r in result.rolls] == ["attacker", "defender", "damage"]


def test_unconscious_not_at_the_threshold_itself() -> None:
    result = hit([1, 1, 1, 2, 2], foe(armour=[], wounds=[{"amount": 15}]))
    assert result.outcome["hit_points"] == 7 and result.outcome["unconscious"] is False


def test_unconscious_just_below_the_threshold() -> None:
    result = hit([1, 1, 2, 2, 2], foe(armour=[], wounds=[{"amount": 15}]))
    d = result.defender
    assert result.outcome["hit_points"] == 6 and result.outcome["unconscious"] is True
    assert d["unconscious"] is True and d["chirurgery_needed"] is True and d["dying"] is False


def test_zero_hit_points_is_dying_and_asks_the_gm() -> None:
    result = hit([1, 1, 1, 1, 1], foe(armour=[], wounds=[{"amount": 24}]))
    assert result.outcome["hit_points"] == 0 and result.outcome["dying"] is True
    assert result.outcome["gm_decisions"][0] == {"kind": "dying", "options": ["death", "survival"],
                                             "deadline": "midnight", "who": "defender"}
    assert result.defender["dying"] is True


def test_one_hit_point_is_unconscious_but_not_dying() -> None:
    out = hit([1, 1, 1, 1, 1], foe(armour=[], wounds=[{"amount": 23}])).outcome
    assert out["hit_points"] == 1 and out["dying"] is False and out["unconscious"] is True


def test_a_single_wound_of_all_hit_points_is_mortal() -> None:
    result = hit([6, 6, 6, 6, 6], foe(armour=[]))
    assert result.defender["wounds"][0]["mortal"] is True and result.defender["mortal"] is True
    assert result.outcome["gm_decisions"][0]["deadline"] == "hour"


def test_unconscious_on_horseback_dex_roll_success_is_a_gentle_fall() -> None:
    result = hit([1, 1, 2, 2, 2], foe(armour=[], wounds=[{"amount": 15}], mounted=True), extra={"fall": [5]})
    assert result.outcome["fall"]["passed"] is True and result.outcome["fall"]["target"] == 12
    assert result.defender["mounted"] is False and result.defender["prone"] is True
    assert result.outcome["gm_decisions"][0] == {"kind": "fall_damage", "options": ["none", "damage"],
                                                 "who": "defender"}
    assert result.defender["current_hp"] == 6


def test_unconscious_on_horseback_failed_dex_roll_is_a_knockdown() -> None:
    result = hit([1, 1, 2, 2, 2], foe(armour=[], wounds=[{"amount": 15}], mounted=True),
                 extra={"fall": [15], "fall_damage": [3]})
    assert result.outcome["fall"]["passed"] is False and result.outcome["fall"]["fall_damage"] == 3
    assert result.defender["current_hp"] == 3 and "fell_from_horse" in result.outcome["events"]["defender"]


def test_unconscious_on_a_wall_also_rolls_dex() -> None:
    result = hit([1, 1, 2, 2, 2], foe(armour=[], wounds=[{"amount": 15}]), extra={"fall": [5]},
                 action={"defender_on_wall": True})
    assert result.outcome["fall"]["passed"] is True


def test_unconscious_on_foot_rolls_no_fall() -> None:
    result = hit([1, 1, 2, 2, 2], foe(armour=[], wounds=[{"amount": 15}]))
    assert result.outcome["fall"] is None


def test_no_second_fall_roll_after_a_knockdown_unhorsed_him() -> None:
    result = hit([4, 3, 3, 3, 3], foe(armour=[], wounds=[{"amount": 10}], mounted=True),
                 extra={"knockdown": [18], "fall_damage": [2]})
    assert result.outcome["unconscious"] is True and result.outcome["fall"] is None
    assert result.defender["current_hp"] == 29 - 10 - 16 - 2


def test_auto_rolls_off_leaves_the_knockdown_waiting_on_the_sheet() -> None:
    result = hit([4, 3, 3, 3, 3], foe(), {**QUIET, "auto_rolls": False})
    assert result.outcome["knockdown"]["pending"] is True
    assert result.outcome["pending_rolls"] == [{"kind": "knockdown", "damage": 16, "mounted": False,
                                                "who": "defender"}]
    later = run(result.defender, None, {"type": "knockdown"}, {"knockdown": [1]}, QUIET)
    assert later.outcome["knockdown"]["passed"] is True and later.attacker["pending_rolls"] == []


def test_auto_rolls_off_leaves_the_major_wound_rolls_waiting() -> None:
    result = hit([2, 3, 3, 3, 3], foe(armour=[]), {"auto_rolls": False})
    assert result.defender["pending_rolls"] == [{"kind": "major_wound", "wound": 1}]
    later = run(result.defender, None, {"type": "major_wound"}, {"major_wound": [19], "stat_loss": [6]})
    assert later.attacker["unconscious"] is True and later.attacker["pending_rolls"] == []


def test_fall_action_rolls_for_an_unconscious_rider() -> None:
    rider = foe(unconscious=True, mounted=True, wounds=[{"amount": 23}])
    result = run(rider, None, {"type": "fall"}, {"fall": [15], "fall_damage": [1]})
    assert result.outcome["fall"]["passed"] is False and result.attacker["current_hp"] == 5
    assert result.defender is None


def test_a_fighter_already_on_the_ground_makes_no_knockdown_roll() -> None:
    """Issue 18: "knockdown rolls were still asked while he lay there"; one who is down cannot be knocked down."""
    result = hit([4, 3, 3, 3, 3], foe(prone=True))
    assert result.outcome["knockdown"] is None
    assert result.defender["prone"] is True and result.defender["current_hp"] == 29 - 6
    assert "knockdown" not in {roll.label for roll in result.rolls}
