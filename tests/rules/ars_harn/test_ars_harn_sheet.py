"""Seed 000 load and Ars Magica initiative/fatigue/encumbrance; sheet validation, rulings, summary."""

from __future__ import annotations

from typing import Any

import pytest

from rules.ars_harn.engine import ENGINE
from rules.errors import IllegalAction, RulesError, SheetError, UnknownEntry
from tests.rules.ars_harn.ars_harn_support import CAT, run, who


def stat(sheet: dict[str, Any], label: str) -> str:
    return dict(ENGINE.summarize(sheet, CAT).stats)[label]


# -- 2. armour weight: 10 lb = Load 1, Load feeds Encumbrance -------------------------------------


def test_ten_pounds_of_harnmaster_weight_is_one_load() -> None:
    sheet = who(armour=["Mail Hauberk"])  # 33 lb
    assert stat(sheet, "Load") == "3.3"
    assert stat(sheet, "Burden") == "2"  # ArM5: Load 3 reaches Burden 2
    assert stat(sheet, "Encumbrance") == "2"
    assert stat({**sheet, "str": 1}, "Encumbrance") == "1"
    assert stat({**sheet, "weapons": ["Broadsword"]}, "Load") == "3.6"


def test_layered_armour_adds_protection_and_weight() -> None:
    sheet = who(armour=["Quilt Gambeson", "Mail Hauberk"])  # 19.8 + 33 lb
    assert stat(sheet, "Load") == "5.28"
    out = run({"aspect": "blunt"}, who("X", weapons=[{"name": "P", "skill": "Sword", "blunt": 0}]), sheet,
              {"attack": [9], "defense": [2], "location": [50]}).outcome.to_dict()
    assert out["armour"] == 5 + 2
    assert out["effective_impact"] == 7 - 7


def test_inline_armour_and_weapons_are_accepted() -> None:
    sheet = who(weapons=[{"name": "Hook", "skill": "Axe", "edge": 3, "atk": 1}],
                armour=[{"name": "Bone plates", "material": "kurbul", "locations": ["Thorax", "upper arm"],
                         "weight": 4}])
    clean = ENGINE.validate_sheet(sheet, CAT)
    assert clean["armour"][0]["locations"] == ["thorax", "upper_arm"]
    assert clean["armour"][0]["edge"] == 5
    assert clean["weapons"][0]["blunt"] is None


def test_armour_design_as_per_harnmaster_inline_piece_weighs_its_coverage_units_times_material_weight() -> None:
    # Seed: "Armor design is as per the Harnmaster rules, with 10 pounds ... = Load 1". A mail byrnie made
    # inline: upper arm 1.5 + shoulder 1 + thorax 3.75 + abdomen 2.25 + hip 1.5 + groin 1 = 11 units x 2 lb
    byrnie = {"name": "Own byrnie", "material": "mail",
              "locations": ["upper_arm", "shoulder", "thorax", "abdomen", "hip", "groin"]}
    clean = ENGINE.validate_sheet(who(armour=[byrnie]), CAT)
    assert clean["armour"][0]["weight"] == 22.0  # the content's Mail Byrnie weighs the same
    assert stat(who(armour=[byrnie]), "Load") == "2.2"
    sheet = who(qik=2, weapons=["Broadsword"], armour=[byrnie])
    result = run({"type": "initiative"}, sheet, None, {"initiative": [6]})
    assert result.outcome.to_dict()["attacker"]["total"] == 6 + 2 + 2 - 1  # Load 2.2: Burden 1, Encumbrance 1
    given = ENGINE.validate_sheet(who(armour=[{**byrnie, "weight": 5}]), CAT)
    assert given["armour"][0]["weight"] == 5.0  # a weight on the sheet wins
    custom = ENGINE.validate_sheet(who(armour=[{"name": "Hide", "edge": 2, "locations": ["thorax"]}]), CAT)
    assert custom["armour"][0]["weight"] == 0.0  # no material: no pounds per unit to go by


# -- 18. Initiative, fatigue levels, Encumbrance (Ars Magica) ------------------------------------


def test_initiative_is_qik_plus_weapon_init_minus_encumbrance_plus_stress_die() -> None:
    sheet = who(qik=2, weapons=["Broadsword"], armour=["Mail Hauberk"], wounds=[{"location": "thorax",
                                                                                  "code": "M1"}])
    result = run({"type": "initiative"}, sheet, who("B", qik=1), {"initiative": [6, 3]})
    assert result.outcome.to_dict()["attacker"]["total"] == 6 + 2 + 2 - 2 - 1
    assert result.outcome.to_dict()["defender"]["total"] == 3 + 1
    assert result.attacker is not None and result.attacker["initiative"] == 7


def test_fatigue_levels_give_ars_magica_penalties() -> None:
    penalties = [level.penalty for level in CAT.numbers.fatigue_levels]
    assert penalties == [0, 0, -1, -3, -5, 0]
    tired = run({"type": "fatigue", "change": 5}, who())
    assert tired.outcome.to_dict()["fatigue_level"] == "unconscious"
    assert tired.attacker is not None and tired.attacker["conditions"] == ["unconscious"]


def test_failed_fatigue_roll_costs_a_level() -> None:
    result = run({"type": "fatigue", "roll": True}, who(sta=1), None, {"fatigue": [4]})
    assert result.outcome.to_dict()["fatigue_roll"]["passed"] is False and result.outcome.to_dict()["fatigue"] == 1


def test_encumbrance_on_physical_rolls_is_a_ruling() -> None:
    heavy = who("H", weapons=["Broadsword"], armour=["Mail Hauberk"])
    plain = run({}, heavy, who("B"), {"attack": [5], "defense": [9]}).outcome.to_dict()
    assert plain["attack_modifiers"]["encumbrance"] == 0
    physical = run({}, heavy, who("B"), {"attack": [5], "defense": [9]},
                   {"encumbrance_on": "initiative_and_physical"}).outcome.to_dict()
    assert physical["attack_modifiers"]["encumbrance"] == -2


# -- sheets --------------------------------------------------------------------------------------


def test_validate_sheet_fills_defaults() -> None:
    clean = ENGINE.validate_sheet({"name": "Min", "str": 0, "sta": 0, "dex": 0, "qik": 0,
                                   "weapons": ["Broadsword", "Round Shield"]}, CAT)
    assert clean["size"] == 0 and clean["wounds"] == [] and clean["held"] == {"right": 0, "left": 1}
    assert clean["conditions"] == [] and clean["pending_decision"] is None


@pytest.mark.parametrize(("sheet", "message"), [
    ({"name": "X", "str": "x", "sta": 0, "dex": 0, "qik": 0}, "sheet: field 'str' must be a whole number"),
    ({"name": "X", "sta": 0, "dex": 0, "qik": 0}, "sheet: field 'str' is missing"),
    ({"name": "X", "str": 0, "sta": 0, "dex": 0, "qik": 0, "stamina": 2}, "did you mean 'sta'"),
    ({"name": "X", "str": 0, "sta": 0, "dex": 0, "qik": 0, "wounds": [{"location": "thorax", "code": "Q9"}]},
     "field 'code' must be like"),
    ({"name": "X", "str": 0, "sta": 0, "dex": 0, "qik": 0, "conditions": ["asleep"]}, "field 'conditions'"),
    ({"name": "X", "str": 0, "sta": 0, "dex": 0, "qik": 0, "weapons": ["Mace"], "held": {"right": 3}},
     "field 'held.right'"),
])
def test_bad_sheets_give_one_line_naming_the_field(sheet: dict[str, Any], message: str) -> None:
    with pytest.raises(SheetError, match=message) as info:
        ENGINE.validate_sheet(sheet, CAT)
    assert "\n" not in str(info.value)


def test_unknown_weapon_names_close_matches() -> None:
    with pytest.raises(SheetError, match=r"field 'weapons': unknown weapon 'Broadsord' \(did you mean Broadsword"):
        ENGINE.validate_sheet(who(weapons=["Broadsord"]), CAT)
    with pytest.raises(UnknownEntry, match="unknown location"):
        ENGINE.validate_sheet(who(wounds=[{"location": "tail", "code": "M1"}]), CAT)


def test_input_sheets_are_never_mutated() -> None:
    sheet = who(weapons=["Broadsword"], abilities={"Sword": 5})
    before = repr(sheet)
    run({}, sheet, who("B"), {"attack": [7], "defense": [3], "location": [50], "shock": [9]})
    assert repr(sheet) == before


def test_every_npc_template_is_a_valid_sheet() -> None:
    npcs = CAT.npc_templates()
    assert 4 <= len(npcs) <= 6
    for sheet in npcs.values():
        assert ENGINE.validate_sheet(sheet, CAT) == sheet


def test_summary_lists_wounds_and_conditions() -> None:
    summary = ENGINE.summarize(who(wounds=[{"location": "hand", "side": "left", "code": "G4", "bleeding": True}],
                                   conditions=["prone"], tactical_advantage=True), CAT)
    wound = summary.wounds[0]
    assert (wound.location, wound.code, wound.severity, wound.levels, wound.bleeding, wound.penalty) == \
        ("left Hand", "G4", "grievous", 4, True, -4)
    assert summary.condition == "prone, tactical advantage"
    assert dict(summary.stats)["Injury Levels"] == "4"


# -- rulings and actions --------------------------------------------------------------------------


def test_every_setting_has_a_short_description_and_a_valid_default() -> None:
    for ruling in ENGINE.rulings:
        assert len(ruling.description) <= 100
        assert not ruling.choices or ruling.default in ruling.choices


@pytest.mark.parametrize(("rulings", "message"), [
    ({"no_such": 1}, "unknown ruling 'no_such'"),
    ({"auto_rolls": "yes"}, "ruling 'auto_rolls' must be true or false"),
    ({"combat_botch_dice": 11}, "ruling 'combat_botch_dice' must be a whole number from 0 to 10"),
    ({"amputation_when": "never"}, "ruling 'amputation_when' must be one of"),
])
def test_bad_rulings_are_refused_by_name(rulings: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        run({}, who(weapons=["Dagger"]), who("B"), rulings=rulings)


def test_unknown_action_and_option_are_refused() -> None:
    with pytest.raises(RulesError, match="unknown action type 'dance'"):
        run({"type": "dance"}, who())
    with pytest.raises(RulesError, match=r"unknown option 'aimm'.*did you mean 'aim'"):
        run({"aimm": "high"}, who(weapons=["Dagger"]), who("B"))


def test_recover_stands_up_from_prone() -> None:
    result = run({"type": "recover"}, who(conditions=["prone"]))
    assert result.attacker is not None and result.attacker["conditions"] == []
    with pytest.raises(IllegalAction, match="not prone"):
        run({"type": "recover"}, who())


def test_one_character_actions_take_the_attacker_or_the_defender() -> None:
    lone = run({"type": "recover"}, None, who("D", conditions=["prone"]))
    assert lone.defender is not None and lone.defender["conditions"] == []
    chosen = run({"type": "recover", "who": "defender"}, who("A"), who("D", conditions=["prone"]))
    assert chosen.defender is not None and chosen.defender["conditions"] == []
    assert chosen.outcome.to_dict()["who"] == "defender"


def test_gm_condition_action() -> None:
    result = run({"type": "condition", "add": ["unconscious"], "remove": "prone"}, who(conditions=["prone"]))
    assert result.attacker is not None and result.attacker["conditions"] == ["unconscious"]


def test_roll_labels_and_actions() -> None:
    assert {"initiative", "attack", "defense", "location", "shock", "kill", "fumble", "stumble", "amputation",
            "targeting", "chirurgy", "healing"} <= ENGINE.roll_labels
    assert {"attack", "cast", "initiative", "shock", "kill", "gm_decide", "heal", "rest",
            "tactical_advantage", "recover"} <= ENGINE.actions
