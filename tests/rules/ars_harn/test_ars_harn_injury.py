"""Seed 000, injuries: the injury table with the seed's bands, separate wounds and their penalty,
Shock, Kill, Bleeding, Fumble/Stumble and Amputation, all with forced dice."""

from __future__ import annotations

from typing import Any

import pytest

from rules.errors import IllegalAction
from rules.model import Resolution
from tests.rules.ars_harn.ars_harn_support import PLAIN, run, who


def hit_for(impact: int, location_roll: int, aspect: str = "blunt", aim: str = "mid",
            defender: dict[str, Any] | None = None, extra_dice: dict[str, list[int]] | None = None,
            rulings: dict[str, Any] | None = None) -> Resolution:
    """An attack whose Effective Impact is exactly ``impact`` (defender Soak 1, plain weapon)."""
    dice = {"attack": [5], "defense": [5], "location": [location_roll], **(extra_dice or {})}
    return run({"aspect": aspect, "aim": aim, "modifier": impact + 1}, who(weapons=[PLAIN]),
               defender or who("B", sta=1), dice, rulings)


# -- 9. the injury table with columns 1+, 5+, 10+, 15+, 20+ -------------------------------------


@pytest.mark.parametrize(("impact", "code"), [
    (0, None), (1, "M1"), (4, "M1"), (5, "S2"), (9, "S2"), (10, "S3"), (14, "S3"), (15, "G4"), (19, "G4"),
    (20, "G5"),
])
def test_injury_columns_go_1_5_10_15_20(impact: int, code: str | None) -> None:
    dice = {} if code is None else {"shock": [9]}
    out = hit_for(impact, 72, extra_dice=dice).outcome.to_dict()  # groin: M1 S2 S3 G4 G5
    assert out["location"] == "groin"
    assert out["effective_impact"] == impact
    assert (out["injury"] or {}).get("code") == code


def test_injury_cells_come_from_the_location_row() -> None:
    out = hit_for(20, 50, extra_dice={"kill": [9], "shock": [9]}).outcome.to_dict()  # thorax 20+: K5
    assert out["injury"]["code"] == "K5" and out["injury"]["severity"] == "kill"
    calf = hit_for(5, 93, extra_dice={"stumble": [9], "shock": [9]}).outcome.to_dict()  # calf 5-9: M1
    assert (calf["location"], calf["injury"]["code"]) == ("calf", "M1")


def test_each_wound_is_recorded_separately_and_injury_levels_add_up() -> None:
    defender = who("B", sta=1, wounds=[{"location": "thorax", "code": "M1"}])
    result = hit_for(10, 72, defender=defender, extra_dice={"shock": [9]})
    assert result.defender is not None
    wounds = result.defender["wounds"]
    assert [(w["index"], w["code"]) for w in wounds] == [(1, "M1"), (2, "S3")]
    assert result.outcome.to_dict()["injury_levels"] == 4 == result.defender["injury_levels"]


def test_total_injury_levels_are_the_penalty_on_rolls() -> None:
    hurt = who("H", dex=0, weapons=[PLAIN], wounds=[{"location": "thorax", "code": "M1"},
                                                    {"location": "abdomen", "code": "S3"}])
    out = run({}, hurt, who("B"), {"attack": [8], "defense": [9]}).outcome.to_dict()
    assert out["attack_modifiers"]["wounds"] == -4
    assert out["attack_total"] == 4


# -- 10. Shock ---------------------------------------------------------------------------------


def shock_case(die: int) -> Resolution:
    # Sta 2; Tired (-3); one bleeding G4 already; Virtue +1; heavy armour (Encumbrance 2) that must not count
    sheet = who("S", sta=2, fatigue=3, vf_modifiers={"shock": 1}, armour=["Mail Hauberk", "Plate Cuirass"],
                wounds=[{"location": "thigh", "side": "right", "code": "G4", "bleeding": True}])
    return run({"type": "inflict", "location": "thorax", "code": "S3"}, sheet, None, {"shock": [die]})


def test_shock_roll_is_stamina_against_total_injury_levels_with_fatigue_and_bleeding() -> None:
    out = shock_case(8).outcome.to_dict()
    assert out["shock"]["ease_factor"] == 7  # G4 + S3
    assert out["shock"]["modifiers"] == {"sta": 2, "fatigue": -3, "bleeding": -1, "virtues_flaws": 1}
    assert out["shock"]["total"] == 7 and out["shock"]["passed"] is True
    assert "encumbrance" not in out["shock"]["modifiers"]


def test_failed_shock_roll_puts_the_character_in_shock() -> None:
    result = shock_case(7)
    assert result.outcome.to_dict()["shock"]["total"] == 6 and result.outcome.to_dict()["shock"]["passed"] is False
    assert result.attacker is not None and "shock" in result.attacker["conditions"]


def test_every_new_injury_calls_for_a_shock_roll() -> None:
    result = hit_for(1, 72, extra_dice={"shock": [0], "shock.botch": [0]})
    assert result.outcome.to_dict()["shock"]["botched"] is True and result.outcome.to_dict()["shock"]["passed"] is False
    assert result.defender is not None and result.defender["conditions"] == ["shock"]


def test_a_character_in_shock_may_reroll_each_round() -> None:
    sheet = who("S", sta=1, conditions=["shock"], wounds=[{"location": "thorax", "code": "S3"}])
    still = run({"type": "shock"}, sheet, None, {"shock": [1, 0]})  # 1 then 0: 20 + 1 against 3
    assert still.outcome.to_dict()["shock"]["total"] == 21
    assert still.attacker is not None and still.attacker["conditions"] == []
    fail = run({"type": "shock"}, sheet, None, {"shock": [0], "shock.botch": [4]})
    assert fail.attacker is not None and fail.attacker["conditions"] == ["shock"]
    with pytest.raises(IllegalAction, match="not in shock"):
        run({"type": "shock"}, who("S"))


def test_with_auto_rolls_off_shock_waits_for_the_gm() -> None:
    result = hit_for(10, 72, rulings={"auto_rolls": False})
    assert result.outcome.to_dict()["shock"] is None
    assert result.outcome.to_dict()["pending"] == [{"kind": "shock"}]
    assert result.defender is not None and result.defender["pending_rolls"] == [{"kind": "shock"}]
    later = run({"type": "shock"}, result.defender, None, {"shock": [2]})
    assert later.outcome.to_dict()["shock"]["total"] == 3 and later.outcome.to_dict()["shock"]["passed"] is True
    assert later.attacker is not None and later.attacker["pending_rolls"] == []


# -- 11. Kill ----------------------------------------------------------------------------------


def kill_hit(die: int, rulings: dict[str, Any] | None = None, shock: bool = True) -> Resolution:
    defender = who("K", sta=2, fatigue=4, vf_modifiers={"kill": 1},
                   wounds=[{"location": "abdomen", "code": "S3"}])
    dice: dict[str, list[int]] = {"attack": [5], "defense": [5], "location": [3], "kill": [die]}
    if shock:
        dice["shock"] = [9]
    # DT 5 - 3 (wounds) - 5 (Dazed) = -3; AT 5 + 9 = 14: excess 17, Soak 2 -> EI 15 at the skull: K4
    return run({"aspect": "blunt", "modifier": 9}, who(weapons=[PLAIN]), defender, dice, rulings)


def test_kill_roll_is_stamina_and_virtues_only_against_twice_the_kill_rating() -> None:
    out = kill_hit(5).outcome.to_dict()
    assert out["injury"]["code"] == "K4"
    assert out["kill"]["ease_factor"] == 8
    assert out["kill"]["modifiers"] == {"sta": 2, "virtues_flaws": 1}
    assert out["kill"]["total"] == 8 and out["kill"]["passed"] is True
    assert out["shock"] is not None  # survived: the Shock roll follows
    assert out["gm_decision"] is None


def test_k5_kill_roll_ease_factor_is_ten() -> None:
    out = hit_for(20, 50, extra_dice={"kill": [9], "shock": [9]}).outcome.to_dict()
    assert out["kill"]["ease_factor"] == 10


def test_failed_kill_roll_asks_the_storyguide_death_or_incapacitation() -> None:
    result = kill_hit(4, shock=False)
    out = result.outcome.to_dict()
    assert out["kill"]["total"] == 7 and out["kill"]["passed"] is False
    assert out["gm_decision"] == {"kind": "kill", "who": "defender", "options": ["death", "incapacitation"],
                                  "wound": 2}
    assert out["shock"] is None
    assert result.defender is not None
    assert result.defender["pending_decision"]["kind"] == "kill"
    dead = run({"type": "gm_decide", "decision": "death"}, None, result.defender)
    assert dead.defender is not None and "dead" in dead.defender["conditions"]
    assert dead.defender["pending_decision"] is None
    spared = run({"type": "gm_decide", "decision": "incapacitation", "who": "defender"}, None, result.defender)
    assert spared.defender is not None and spared.defender["conditions"] == ["incapacitated"]


def test_a_character_the_gm_lets_die_is_dead_not_also_incapacitated() -> None:
    result = kill_hit(4, shock=False)
    assert result.defender is not None and result.defender["conditions"] == ["incapacitated"]
    dead = run({"type": "gm_decide", "decision": "death"}, None, result.defender)
    assert dead.defender is not None and dead.defender["conditions"] == ["dead"]
    assert dead.outcome.to_dict()["conditions"] == ["dead"]


def test_kill_failure_setting_can_decide_without_the_gm() -> None:
    result = kill_hit(4, {"kill_failure": "death"}, shock=False)
    assert result.outcome.to_dict()["gm_decision"] is None
    assert result.defender is not None and "dead" in result.defender["conditions"]


def test_with_auto_rolls_off_the_kill_roll_waits_for_the_gm() -> None:
    defender = who("K", sta=2)
    result = run({"aspect": "blunt", "modifier": 17}, who(weapons=[PLAIN]), defender,
                 {"attack": [5], "defense": [5], "location": [3]}, {"auto_rolls": False})
    assert result.outcome.to_dict()["kill"] is None
    assert result.outcome.to_dict()["pending"] == [{"kind": "kill", "wound": 1, "ease_factor": 8}, {"kind": "shock"}]
    assert result.defender is not None
    later = run({"type": "kill"}, result.defender, None, {"kill": [6]})
    assert later.outcome.to_dict()["kill"]["passed"] is True
    assert later.attacker is not None and later.attacker["pending_rolls"] == [{"kind": "shock"}]


# -- 12. Bleeding; Grievous limb injuries --------------------------------------------------------


def test_grievous_injuries_bleed_and_lesser_ones_do_not() -> None:
    g4 = hit_for(15, 72, extra_dice={"shock": [9]}).outcome.to_dict()
    s3 = hit_for(14, 72, extra_dice={"shock": [9]}).outcome.to_dict()
    assert g4["injury"]["bleeding"] is True
    assert s3["injury"]["bleeding"] is False


def test_bleeding_setting_harn_spares_fire() -> None:
    result = run({"type": "inflict", "location": "thorax", "code": "G4", "aspect": "fire"}, who(sta=5), None,
                 {"shock": [9]}, {"bleeding_rule": "harn"})
    assert result.outcome.to_dict()["injury"]["bleeding"] is False


def test_each_bleeding_wound_is_minus_one_to_fatigue_rolls() -> None:
    sheet = who("F", sta=2, wounds=[{"location": "thigh", "side": "left", "code": "G4", "bleeding": True},
                                    {"location": "groin", "code": "G4", "bleeding": True}])
    out = run({"type": "fatigue", "roll": True}, sheet, None, {"fatigue": [9]}).outcome.to_dict()
    assert out["fatigue_roll"]["modifiers"]["bleeding"] == -2
    assert out["fatigue_roll"]["total"] == 9 + 2 - 8 - 2


def test_grievous_arm_injury_makes_the_limb_unusable_and_is_an_automatic_fumble() -> None:
    defender = who("B", sta=1, weapons=["Knife"])  # Knife Dfn 0: the Defense Total stays the die
    result = hit_for(20, 38, defender=defender, extra_dice={"shock": [9]})  # forearm, even: right; 20+: G4
    out = result.outcome.to_dict()
    assert (out["location"], out["side"], out["injury"]["code"]) == ("forearm", "right", "G4")
    assert out["fumble"] == {"total": None, "ease_factor": 6, "passed": False, "botched": False,
                             "automatic": True, "die": None}
    assert out["dropped"] == "Knife"
    assert result.defender is not None
    assert result.defender["unusable_limbs"] == ["right_arm"]
    assert result.defender["held"] == {"right": None, "left": None} and result.defender["dropped"] == [0]


def test_grievous_leg_injury_is_an_automatic_stumble() -> None:
    result = run({"type": "inflict", "location": "thigh", "side": "left", "code": "G4"}, who(sta=5), None,
                 {"shock": [9]})
    assert result.outcome.to_dict()["stumble"]["automatic"] is True
    assert result.attacker is not None
    assert result.attacker["conditions"] == ["prone"] and result.attacker["unusable_limbs"] == ["left_leg"]


def test_an_unusable_arm_cannot_wield_a_weapon() -> None:
    sheet = who("U", weapons=["Broadsword"], held={"right": 0}, unusable_limbs=["right_arm"])
    with pytest.raises(IllegalAction, match="arm is unusable"):
        run({"weapon": "Broadsword"}, sheet, who("B"))


# -- 13. Fumble / Stumble rolls ------------------------------------------------------------------


def fumble_case(die: int, rulings: dict[str, Any] | None = None) -> Resolution:
    # M1 to the right hand. Dex 2; an S2 already: with the new M1, -3; Weary -1. Ease Factor 6.
    sheet = who("F", sta=5, dex=2, fatigue=2, weapons=["Dagger"], wounds=[{"location": "thorax", "code": "S2"}])
    dice = {"shock": [9]}
    if die >= 0:
        dice["fumble"] = [die]
    return run({"type": "inflict", "location": "hand", "side": "right", "code": "M1"}, sheet, None, dice,
               rulings)


def test_fumble_roll_is_dex_against_6_with_the_new_injury_included() -> None:
    out = fumble_case(8).outcome.to_dict()
    assert out["fumble"]["modifiers"]["wounds"] == -3
    assert out["fumble"]["total"] == 6 and out["fumble"]["passed"] is True
    assert out["dropped"] is None


def test_failed_fumble_roll_drops_what_that_hand_holds() -> None:
    result = fumble_case(7)
    assert result.outcome.to_dict()["fumble"]["total"] == 5 and result.outcome.to_dict()["fumble"]["passed"] is False
    assert result.outcome.to_dict()["dropped"] == "Dagger"
    assert result.attacker is not None and result.attacker["dropped"] == [0]


def test_failed_stumble_roll_falls_prone() -> None:
    result = run({"type": "inflict", "location": "foot", "side": "left", "code": "S2"}, who(sta=5), None,
                 {"stumble": [3], "shock": [9]})
    assert result.outcome.to_dict()["stumble"]["total"] == 1 and result.outcome.to_dict()["stumble"]["passed"] is False
    assert result.attacker is not None and result.attacker["conditions"] == ["prone"]


def test_fumble_roll_setting_serious_or_worse_skips_minor_wounds() -> None:
    out = fumble_case(-1, {"fumble_roll_when": "serious_or_worse"}).outcome.to_dict()
    assert out["fumble"] is None


# -- 14. Amputation ------------------------------------------------------------------------------


def amputation_case(die: int, extra: dict[str, list[int]] | None = None) -> Resolution:
    # Edge, EI 20 at the right forearm: G4 at an amputation location. Size 1; wounds/fatigue ignored.
    sheet = who("P", sta=5, size=1, fatigue=3, weapons=["Dagger"], wounds=[{"location": "thorax", "code": "S3"}])
    return run({"type": "inflict", "location": "forearm", "side": "right", "effective_impact": 20,
                "aspect": "edge"}, sheet, None, {"amputation": [die], "shock": [9], **(extra or {})})


def test_amputation_roll_is_size_against_3_without_wound_or_fatigue_penalties() -> None:
    out = amputation_case(2).outcome.to_dict()
    assert out["amputation"]["modifiers"] == {"size": 1, "virtues_flaws": 0}
    assert out["amputation"]["total"] == 3 and out["amputation"]["passed"] is True
    assert out["injury"]["code"] == "G4" and out["injury"]["amputated"] is False


def test_failed_amputation_roll_severs_the_part_g5_bleeding_automatic_fumble() -> None:
    result = amputation_case(0, {"amputation.botch": [5]})
    out = result.outcome.to_dict()
    assert out["amputation"]["passed"] is False
    assert out["injury"]["code"] == "G5" and out["injury"]["bleeding"] is True and out["injury"]["amputated"]
    assert out["fumble"]["automatic"] is True and out["dropped"] == "Dagger"
    assert result.attacker is not None and result.attacker["severed"] == ["right_forearm"]


def test_amputation_is_only_for_edge_by_default_and_other_readings_are_settings() -> None:
    blunt = {"type": "inflict", "location": "forearm", "side": "right", "effective_impact": 20, "aspect": "blunt"}
    assert run(blunt, who(sta=5), None, {"shock": [9]}).outcome.to_dict()["amputation"] is None
    top = run(blunt, who(sta=5), None, {"amputation": [5], "shock": [9]}, {"amputation_when": "top_band"})
    assert top.outcome.to_dict()["amputation"]["passed"] is True
    elbow = {"type": "inflict", "location": "elbow", "side": "left", "effective_impact": 15, "aspect": "blunt"}
    unasked = run(elbow, who(sta=5), None, {"shock": [9]}, {"amputation_when": "top_band"})
    assert unasked.outcome.to_dict()["amputation"] is None
    anyway = run(elbow, who(sta=5), None, {"amputation": [5], "shock": [9]}, {"amputation_when": "grievous_any"})
    assert anyway.outcome.to_dict()["amputation"]["passed"] is True


def test_amputated_kill_result_becomes_g5_with_no_kill_roll() -> None:
    thigh = {"type": "inflict", "location": "thigh", "side": "left", "effective_impact": 20, "aspect": "edge"}
    out = run(thigh, who(sta=5), None, {"amputation": [0, ], "amputation.botch": [1], "shock": [9]}).outcome.to_dict()
    assert out["injury"]["code"] == "G5" and out["kill"] is None and out["stumble"]["automatic"] is True


def test_severing_the_neck_kills() -> None:
    neck = {"type": "inflict", "location": "neck", "effective_impact": 15, "aspect": "edge"}
    result = run(neck, who(sta=5), None, {"amputation": [2]})
    assert result.outcome.to_dict()["severed_kills"] is True
    assert result.attacker is not None and "dead" in result.attacker["conditions"]


def test_amputation_through_an_attack() -> None:
    result = hit_for(20, 37, aspect="edge", extra_dice={"amputation": [2], "shock": [9]})  # left forearm
    assert result.outcome.to_dict()["amputation"]["passed"] is False
    assert result.defender is not None and result.defender["severed"] == ["left_forearm"]
