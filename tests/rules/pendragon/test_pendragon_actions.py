"""GM decisions, re-arming, standing, rulings, and checking sheets."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from rules.errors import IllegalAction, RulesError, SheetError
from rules.pendragon.engine import ENGINE
from tests.rules.pendragon.pendragon_support import CAT, QUIET, run, sheet


def test_gm_decides_death_for_the_dying() -> None:
    dying = sheet(wounds=[{"amount": 30}], dying=True, unconscious=True,
                  pending_decisions=[{"kind": "dying", "options": ["death", "survival"]}])
    result = run(dying, None, {"type": "gm_decide", "kind": "dying", "decision": "death"})
    assert result.attacker["dead"] is True and result.attacker["dying"] is False
    assert result.attacker["pending_decisions"] == []
    with pytest.raises(IllegalAction, match="dead"):
        run(sheet(), result.attacker, None, {})


def test_death_drops_the_rolls_still_waiting_for_the_gm() -> None:
    dying = sheet(wounds=[{"amount": 30}], dying=True, unconscious=True,
                  pending_decisions=[{"kind": "dying", "options": ["death", "survival"]}],
                  pending_rolls=[{"kind": "major_wound", "wound": 1}])
    result = run(dying, None, {"type": "gm_decide", "kind": "dying", "decision": "death"})
    assert result.attacker["dead"] is True and result.attacker["pending_rolls"] == []


def test_gm_decides_survival_brings_the_dying_to_one_hit_point() -> None:
    dying = sheet(wounds=[{"amount": 31}], dying=True, unconscious=True,
                  pending_decisions=[{"kind": "dying", "options": ["death", "survival"]}])
    result = run(dying, None, {"type": "gm_decide", "kind": "dying", "decision": "survival"})
    assert result.attacker["current_hp"] == 1 and result.attacker["dying"] is False


def test_gm_decision_without_a_pending_one_is_refused() -> None:
    with pytest.raises(IllegalAction, match="pending"):
        run(sheet(), None, {"type": "gm_decide", "kind": "dying", "decision": "death"})


def test_gm_gives_gentle_fall_damage() -> None:
    s = sheet(pending_decisions=[{"kind": "fall_damage", "options": ["none", "damage"]}], prone=True)
    result = run(s, None, {"type": "gm_decide", "kind": "fall_damage", "decision": "damage", "amount": 2})
    assert result.attacker["wounds"][0]["amount"] == 2 and result.attacker["wounds"][0]["source"] == "fall"


def test_gm_denies_an_experience_check() -> None:
    s = sheet(pending_decisions=[{"kind": "experience_check", "skill": "sword", "options": ["approve", "deny"]}])
    result = run(s, None, {"type": "gm_decide", "kind": "experience_check", "decision": "deny"})
    assert result.attacker["experience_checks"] == [] and result.attacker["pending_decisions"] == []


def test_gm_wakes_and_rejoins_and_applies_damage() -> None:
    s = sheet(unconscious=True, out_of_fight=True, wounds=[{"amount": 3}])
    woken = run(s, None, {"type": "gm_decide", "kind": "wake"}).attacker
    assert woken["unconscious"] is False
    back = run(woken, None, {"type": "gm_decide", "kind": "rejoin"}).attacker
    assert back["out_of_fight"] is False
    hurt = run(back, None, {"type": "gm_decide", "kind": "damage", "amount": 2, "wound": 1}).attacker
    assert hurt["wounds"][0]["remaining"] == 5


def test_gm_decide_names_a_bad_kind() -> None:
    with pytest.raises(RulesError, match="kind"):
        run(sheet(), None, {"type": "gm_decide", "kind": "banquet"})


def test_stand_up_and_remount() -> None:
    s = sheet(prone=True, horse="courser")
    out = run(s, None, {"type": "stand", "mount": True}).attacker
    assert out["prone"] is False and out["mounted"] is True


def test_rearm_with_another_weapon_leaves_the_dropped_one_on_the_ground() -> None:
    s = sheet(must_rearm=True, dropped_weapons=["sword"])
    out = run(s, None, {"type": "rearm", "weapon": "axe"}).attacker
    assert out["wielding"] == "axe" and out["dropped_weapons"] == ["sword"] and out["must_rearm"] is False


def test_unknown_setting_and_bad_value_are_named() -> None:
    with pytest.raises(RulesError, match="knockdown_rule"):
        run(sheet(), sheet("Foe"), None, {}, {"knockdown_rule": "x"})
    with pytest.raises(RulesError, match="knockdown_trigger"):
        run(sheet(), sheet("Foe"), None, {}, {"knockdown_trigger": "sometimes"})
    with pytest.raises(RulesError, match="auto_rolls"):
        run(sheet(), sheet("Foe"), None, {}, {"auto_rolls": "yes"})


def test_unknown_action_and_option_are_named() -> None:
    with pytest.raises(RulesError, match="joust"):
        run(sheet(), sheet("Foe"), {"type": "joust"})
    with pytest.raises(RulesError, match="weapn"):
        run(sheet(), sheet("Foe"), {"type": "attack", "weapn": "sword"})


def test_rulings_have_short_descriptions_and_valid_defaults() -> None:
    for ruling in ENGINE.rulings:
        assert len(ruling.description) <= 100
        assert not ruling.choices or ruling.default in ruling.choices


def test_every_roll_label_used_is_declared() -> None:
    result = run(sheet(), sheet("Foe", armour=[], mounted=True, skills={"sword": 12, "horsemanship": 5}), None,
                 {"attacker": [10], "defender": [19], "damage": [6, 6, 6, 6, 6], "fall_damage": [1]}, {})
    assert {r.label for r in result.rolls} <= ENGINE.roll_labels


def test_input_sheets_are_never_mutated() -> None:
    a, d = sheet(), sheet("Foe", armour=[])
    before = copy.deepcopy((a, d))
    run(a, d, None, {"attacker": [10], "defender": [19], "damage": [6, 6, 6, 6, 6]}, QUIET)
    assert (a, d) == before


def test_validate_sheet_fills_state_defaults() -> None:
    out = ENGINE.validate_sheet({"name": "Ywain", "siz": 12, "dex": 12, "str": 12, "con": 12, "app": 12}, CAT)
    assert out["wounds"] == [] and out["current_hp"] == 24 and out["dead"] is False
    assert out["weapons"] == [] and out["pending_decisions"] == []


def test_a_typo_in_a_field_name_is_refused_with_the_field_meant() -> None:
    with pytest.raises(SheetError) as err:
        ENGINE.validate_sheet(sheet(skils={"sword": 15}, player="Ann"), CAT)
    assert str(err.value) == ("sheet: 2 fields to fix: unknown field 'skils' (did you mean 'skills'?); "
                              "unknown field 'player' (did you mean 'notes'?)")


@pytest.mark.parametrize(("patch", "message"), [
    ({"dex": "x"}, "sheet: field 'dex' must be a whole number (Dexterity, 1 to 200), not 'x'"),
    ({"dex": None}, "sheet: field 'dex' is missing: Dexterity, 1 to 200"),
    ({"siz": 0}, "sheet: field 'siz' must be 1 to 200 (Size), not 0"),
    ({"skills": {"sword": -1}}, "sheet: field 'skills.sword' must be a whole number 0 to 100, not -1"),
    ({"skills": ["sword"]}, "sheet: field 'skills' must be a list of name: number pairs (Skills), not ['sword']"),
    ({"weapons": "sword"}, "sheet: field 'weapons' must be a list, like [axe, bow]"),
    ({"weapons": [3]}, "sheet: field 'weapons': 3 is not a name"),
    ({"wounds": [{"amount": "lots"}]}, "sheet: wound #1: field 'amount' must be a whole number, not 'lots'"),
    ({"armour": ["shield", "large_shield"]}, "sheet: field 'armour' lists more than one shield"),
    ({"mounted": "yes"}, "sheet: field 'mounted' must be true or false, not 'yes'"),
    ({"wielding": "lance"}, "sheet: field 'wielding' names 'lance', which is not in 'weapons'"),
])
def test_validate_sheet_reports_one_line_naming_the_field(patch: dict[str, Any], message: str) -> None:
    s = sheet()
    s.update(patch)
    if patch.get("dex", 0) is None:
        del s["dex"]
    with pytest.raises(SheetError) as err:
        ENGINE.validate_sheet(s, CAT)
    assert str(err.value) == message


def test_unknown_weapon_suggests_close_names() -> None:
    with pytest.raises(SheetError, match=r"field 'weapons': unknown weapon 'swrod' \(did you mean sword"):
        ENGINE.validate_sheet(sheet(weapons=["swrod"]), CAT)


def test_inline_weapon_like_a_pack_weapon() -> None:
    s = sheet(weapons=[{"name": "Excalibur", "like": "sword", "dice_mod": 1}], skills={"sword": 20})
    out = ENGINE.validate_sheet(s, CAT)
    assert out["weapons"][0]["name"] == "excalibur" and out["weapons"][0]["sword"] is True
    result = run(s, sheet("Foe"), {"type": "attack", "weapon": "Excalibur"},
                 {"attacker": [10], "defender": [19], "damage": [1] * 6}, QUIET)
    assert result.outcome["damage_dice"] == "6d6"


def test_inline_armour_and_horse() -> None:
    s = sheet(armour=[{"name": "hide", "points": 3}], horse={"name": "Llamrei", "damage_dice": 7})
    out = ENGINE.validate_sheet(s, CAT)
    assert out["armour"] == [{"name": "hide", "points": 3, "dex_mod": 0, "heavy": False, "mail": False,
                              "shield": False}]
    assert out["horse"] == {"name": "llamrei", "damage_dice": 7}


def test_summary_lists_wounds_and_condition() -> None:
    summary = ENGINE.summarize(sheet(wounds=[{"amount": 15, "major": True}], prone=True), CAT)
    assert summary.name == "Knight" and summary.condition == "prone"
    assert summary.wounds[0].code == "major" and summary.wounds[0].levels == 15
    assert ("sword", "15") in summary.equipment and ("Armour", "10+6") in summary.stats


def test_a_knight_on_foot_defends_with_the_first_weapon_he_can_use_not_his_lance() -> None:
    """A ruling (docs/rules/pendragon.md): with no weapon named, a fighter on foot passes over a lance on the
    sheet ("A lance is only used on horseback") and takes up the next weapon; named, the lance is refused."""
    gawain = sheet("Sir Gawain", weapons=["lance", "sword"])
    result = run(sheet("Bandit"), gawain, {"type": "attack", "weapon": "sword"},
                 {"attacker": [3], "defender": [5]}, QUIET)
    assert result.outcome["defender_roll"]["weapon"] == "sword"
    with pytest.raises(IllegalAction, match="lance on horseback"):
        run(sheet("Bandit"), gawain, {"type": "attack", "weapon": "sword", "defender_weapon": "lance"},
            {"attacker": [3], "defender": [5]}, QUIET)


GM_ROLLS = {"auto_rolls": False}


def test_death_or_survival_is_asked_only_after_the_rolls_that_can_change_hit_points() -> None:
    """Issue 18, the bear's blow: the GM was offered Death/Survival beside the waiting major wound roll, chose
    Survival (1 hit point), then rolled the major wound, whose lost CON left the knight dying and asked again.
    The major wound roll comes first; death or survival is asked once it is made."""
    foe = sheet("Foe", wounds=[{"amount": 20}])  # 9 hit points left
    blow = run(sheet(), foe, None, {"attacker": [10], "defender": [16], "damage": [6] * 5}, GM_ROLLS)
    assert blow.defender["dying"] is True and [r["kind"] for r in blow.defender["pending_rolls"]] == ["major_wound"]
    assert [d["kind"] for d in blow.outcome["gm_decisions"]] == []
    with pytest.raises(IllegalAction, match="no pending 'dying' decision"):
        run(blow.defender, None, {"type": "gm_decide", "kind": "dying", "decision": "survival"}, rulings=GM_ROLLS)
    rolled = run(blow.defender, None, {"type": "major_wound"}, {"stat_loss": [4]}, GM_ROLLS)  # loses a CON
    assert [d["kind"] for d in rolled.outcome["gm_decisions"]] == ["dying"]
    saved = run(rolled.attacker, None, {"type": "gm_decide", "kind": "dying", "decision": "survival"},
                rulings=GM_ROLLS)
    assert saved.attacker["current_hp"] == 1 and saved.attacker["dying"] is False
    assert saved.attacker["pending_decisions"] == [] and saved.attacker["pending_rolls"] == []


def test_death_or_survival_waits_for_the_gms_word_on_a_gentle_fall() -> None:
    """A dying rider who falls gently: the GM says what the fall cost first (it could undo a Survival)."""
    rider = sheet("Foe", wounds=[{"amount": 20}], mounted=True, horse="charger",
                  skills={"sword": 8, "horsemanship": 14})
    blow = run(sheet(), rider, None, {"attacker": [10], "defender": [19], "damage": [4, 4, 4, 4, 3], "knockdown": [5],
                                            "fall": [1]},
               QUIET)
    assert blow.defender["dying"] is True
    assert [d["kind"] for d in blow.outcome["gm_decisions"]] == ["fall_damage"]
    landed = run(blow.defender, None, {"type": "gm_decide", "kind": "fall_damage", "decision": "damage", "amount": 2})
    assert [d["kind"] for d in landed.outcome["gm_decisions"]] == ["dying"]


def test_survival_from_a_mortal_wound_is_at_one_hit_point_after_its_statistics_lost() -> None:
    """The three Statistics Lost rolls of a mortal wound may take SIZ or CON: he still lives at 1 hit point."""
    dying = sheet(wounds=[{"amount": 40, "mortal": True}], dying=True, unconscious=True, mortal=True,
                  pending_decisions=[{"kind": "dying", "options": ["death", "survival"]}])
    result = run(dying, None, {"type": "gm_decide", "kind": "dying", "decision": "survival"}, {"stat_loss": [1, 4, 4]})
    assert result.attacker["current_hp"] == 1 and result.attacker["dying"] is False


def test_a_knockdown_roll_left_for_the_gm_is_dropped_when_the_wound_lays_him_on_the_ground() -> None:
    """On foot, a knockdown only lays him down; a wound that leaves him unconscious has done it: the roll is not
    asked for (it would roll nothing), and with nothing owed death or survival is asked at once."""
    foe = sheet("Foe", wounds=[{"amount": 20}])
    blow = run(sheet(), foe, None, {"attacker": [10], "defender": [16], "damage": [4, 4, 4, 4, 3]}, GM_ROLLS)
    assert blow.defender["pending_rolls"] == [] and blow.outcome["knockdown"] is None
    assert blow.defender["prone"] is True
    assert [d["kind"] for d in blow.outcome["gm_decisions"]] == ["dying"]
    standing = run(sheet(), sheet("Foe"), None, {"attacker": [10], "defender": [16], "damage": [4, 4, 4, 4, 3]},
                   GM_ROLLS)  # 9 of 29 hit points: still up, the roll waits
    assert [r["kind"] for r in standing.defender["pending_rolls"]] == ["knockdown"]
