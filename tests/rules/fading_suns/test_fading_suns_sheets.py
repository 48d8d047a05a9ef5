"""Sheets: validation with one-line errors, normalisation, the summary, the engine contract, junk input."""

from __future__ import annotations

import copy
import json
from random import Random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from content import load_catalog
from rules.dice import DiceSource
from rules.errors import RulesError, SheetError, UnknownEntry
from rules.fading_suns.engine import ENGINE
from rules.model import Scenario
from tests.rules.fading_suns.fading_suns_support import Ran

CAT = load_catalog("fading-suns")


def resolve(action: Any, attacker: Any, defender: Any = None, dice: Any = None, rules: Any = None) -> Any:
    source = DiceSource(forced=dice or {}, rng=Random(7))
    result = ENGINE.resolve(Scenario("fading-suns", action, attacker, defender, rules or {}), source, CAT)
    return Ran.of(result)


# -- validation ------------------------------------------------------------------------------------

def test_a_minimal_sheet_is_filled_with_defaults() -> None:
    sheet = ENGINE.validate_sheet({"name": "Erian"}, CAT)
    assert sheet["str"] == 3 and sheet["dex"] == 3 and sheet["end"] == 3 and sheet["ego"] == 3
    assert (sheet["size"], sheet["build"]) == (5, "average")
    assert sheet["skills"]["melee"] == 3 and sheet["skills"]["dodge"] == 3
    assert (sheet["weapons"], sheet["armour"], sheet["shield"]) == ([], [], None)
    assert (sheet["wounds"], sheet["conditions"], sheet["dropped"], sheet["pending"]) == ([], [], [], [])
    assert sheet["pending_decision"] is None
    assert ENGINE.validate_sheet(sheet, CAT) == sheet  # normalising twice changes nothing


def test_content_names_stay_names_and_inline_entries_are_written_out_in_full() -> None:
    sheet = ENGINE.validate_sheet({"name": "A", "weapons": ["rapier", {"name": "rapier", "goal": 1}],
                                   "armour": ["plate helm", {"material": "leather", "covers": ["arms"]}],
                                   "shield": "dueling"}, CAT)
    assert sheet["weapons"][0] == "rapier"
    assert sheet["weapons"][1] == {"name": "rapier", "damage": 5, "type": "pierce", "modes": ["melee"],
                                   "skill": "melee", "characteristic": "dex", "goal": 1, "init": 0, "weight": 1.0}
    assert sheet["armour"][1] == {"name": "leather", "covers": ["right_arm", "left_arm"], "slash": 4, "pierce": 3,
                                  "impact": 3, "energy": 1, "suit_weight": 8.0}
    assert sheet["shield"] == "dueling"


def test_armor_is_accepted_for_armour() -> None:
    assert ENGINE.validate_sheet({"name": "A", "armor": ["plate helm"]}, CAT)["armour"] == ["plate helm"]


def test_unknown_fields_are_refused_all_at_once() -> None:
    with pytest.raises(SheetError) as info:
        ENGINE.validate_sheet({"name": "A", "player": "Ann", "skils": {}}, CAT)
    assert str(info.value) == ("sheet: 2 fields to fix: unknown field 'player' (did you mean 'notes'?); "
                               "unknown field 'skils' (did you mean 'skills'?)")


@pytest.mark.parametrize(
    ("sheet", "message"),
    [
        ({"name": "A", "dex": "x"}, "sheet: field 'dex' must be a whole number (Dexterity, 1 to 20), not 'x'"),
        ({"name": "A", "dex": 0}, "sheet: field 'dex' must be 1 to 20 (Dexterity), not 0"),
        ({"dex": 5}, "sheet: field 'name' is missing: Name, 1 to 100 characters"),
        ({"name": "A", "strength": 5}, "sheet: unknown field 'strength' (did you mean 'str'?)"),
        ({"name": "A", "wepons": []}, "sheet: unknown field 'wepons' (did you mean 'weapons'?)"),
        ({"name": "A", "build": "huge"},
         "sheet: field 'build' must be one of dwarf, short, average, tall, giant (Build), not 'huge'"),
        ({"name": "A", "skills": {"melee": -1}}, "sheet: field 'skills.melee' must be a whole number 0 to 20, not -1"),
        ({"name": "A", "weapons": "sword"}, "sheet: field 'weapons' must be a list"),
        ({"name": "A", "weapons": [{"name": "x", "damage": 3}]}, "sheet: weapons[1]: field 'type' is missing"),
        ({"name": "A", "weapons": [{"name": "x", "damage": 3, "type": "fire"}]},
         "sheet: weapons[1]: field 'type' must be one of slash, pierce, impact, energy, not 'fire'"),
        ({"name": "A", "gear_kg": -1}, "sheet: field 'gear_kg' must be 0 to 100000 (Other gear (kg)), not -1"),
        ({"name": "A", "gear_kg": float("nan")}, "sheet: field 'gear_kg' must be a number (Other gear (kg), 0 to"),
        ({"name": "A", "conditions": ["asleep"]}, "sheet: field 'conditions' must hold only prone, stunned"),
        ({"name": "A", "dropped": ["axe"]}, "sheet: field 'dropped' must name weapons on the sheet, not 'axe'"),
        ({"name": "A", "wounds": [{"location": "chest", "severity": "bad"}]},
         "sheet: wounds[1]: field 'severity' must be one of minor, major, grievous, crippled"),
        ({"name": "A", "wounds": [{"index": 1, "location": "chest", "severity": "minor"},
                                  {"index": 1, "location": "head", "severity": "minor"}]},
         "sheet: wounds[2]: field 'index' 1 is used by another wound"),
        ({"name": "A", "shield": {"name": "odd", "min": 5}}, "sheet: shield: field 'max' is missing"),
        ({"name": "A", "pending": [{"kind": "effect"}]}, "sheet: pending[1]: field 'column' is missing"),
        ("just text", "sheet must be a mapping"),
    ],
)
def test_each_sheet_problem_is_one_line_naming_the_field(sheet: Any, message: str) -> None:
    with pytest.raises(SheetError) as info:
        ENGINE.validate_sheet(sheet, CAT)
    assert str(info.value).startswith(message)
    assert "\n" not in str(info.value)


def test_unknown_content_names_suggest_close_ones() -> None:
    with pytest.raises(SheetError, match="unknown weapon 'broadsord' \\(did you mean 'broadsword'"):
        ENGINE.validate_sheet({"name": "A", "weapons": ["broadsord"]}, CAT)
    with pytest.raises(SheetError, match="unknown armour 'plate helmet' \\(did you mean 'plate helm'"):
        ENGINE.validate_sheet({"name": "A", "armour": ["plate helmet"]}, CAT)
    with pytest.raises(UnknownEntry, match="unknown location 'chset'"):
        ENGINE.validate_sheet({"name": "A", "armour": [{"material": "plate", "covers": ["chset"]}]}, CAT)


def test_resolve_names_the_side_whose_sheet_is_wrong() -> None:
    with pytest.raises(SheetError, match=r"^defender: field 'end' must be a whole number"):
        resolve({"type": "attack"}, {"name": "A"}, {"name": "D", "end": "tough"})
    with pytest.raises(SheetError, match=r"^defender: the sheet is missing"):
        resolve({"type": "attack"}, {"name": "A"})


# -- summary -----------------------------------------------------------------------------------------

def test_summary_shows_size_mass_cap_encumbrance_and_wounds() -> None:
    sheet = {"name": "Erian", "str": 4, "end": 6, "build": "tall", "weapons": ["broadsword"],
             "armour": ["plate helm", "leather jerkin"], "gear_kg": 1.7,
             "wounds": [{"location": "left_arm", "severity": "major", "treated": True, "progress": 2}],
             "conditions": ["prone"], "dropped": ["broadsword"]}
    summary = ENGINE.summarize(sheet, CAT)
    stats = dict(summary.stats)
    assert (stats["Size"], stats["Mass cap"], stats["ENC"]) == ("6 (tall)", "150 kg", "16 kg")
    assert (stats["Carried"], stats["Load"], stats["Load penalty"]) == ("6.5 kg", "41% of ENC", "0")
    assert (stats["Wound goal penalty"], stats["Initiative penalty"], stats["Effect roll goal"]) == ("-4", "-1", "12")
    equipment = dict(summary.equipment)
    assert equipment["broadsword"] == "6 slash, melee, dropped"
    assert equipment["plate helm"] == "S10 P9 I8 E4; Head"  # each piece once, with what it covers
    assert equipment["leather jerkin"] == "S4 P3 I3 E1; Abdomen, Chest"
    [w] = summary.wounds
    assert (w.index, w.location, w.severity, w.penalty, w.note) == (1, "Left Arm", "major", -4,
                                                                     "-1 init, treated, 2 days healed")
    assert summary.condition == "prone, broadsword dropped"


# -- the contract ------------------------------------------------------------------------------------

def test_engine_declares_its_labels_actions_and_rulings() -> None:
    assert ENGINE.system_id == "fading-suns"
    assert {"attack", "defense", "location", "effect", "stumble", "fumble"} <= ENGINE.roll_labels
    assert ENGINE.actions == {"attack", "initiative", "effect", "gm_decide", "heal", "rest", "recover", "injure",
                              "unequip", "end_fight", "condition"}
    for ruling in ENGINE.rulings:
        assert 0 < len(ruling.description) <= 100
        assert not ruling.choices or ruling.default in ruling.choices


def test_unknown_rulings_and_bad_values_are_refused_by_name() -> None:
    with pytest.raises(RulesError, match="unknown ruling 'auto_roll'"):
        resolve({"type": "rest"}, {"name": "A"}, rules={"auto_roll": False})
    with pytest.raises(RulesError, match="ruling 'damage_mode' must be one of fixed, rolled, not 'dice'"):
        resolve({"type": "rest"}, {"name": "A"}, rules={"damage_mode": "dice"})
    with pytest.raises(RulesError, match="ruling 'auto_rolls' must be true or false"):
        resolve({"type": "rest"}, {"name": "A"}, rules={"auto_rolls": "no"})


def test_unknown_action_types_and_options_are_refused() -> None:
    with pytest.raises(RulesError, match="action: type must be one of attack"):
        resolve({"type": "cast"}, {"name": "A"})
    with pytest.raises(RulesError, match="unknown option 'wepon' for attack"):
        resolve({"type": "attack", "wepon": "x"}, {"name": "A"}, {"name": "B"})


def test_resolve_leaves_the_input_sheets_alone_and_returns_json() -> None:
    attacker = {"name": "A", "dex": 8, "skills": {"melee": 8}, "weapons": ["axe"]}
    defender = {"name": "D", "wounds": [{"location": "chest", "severity": "minor"}]}
    before = copy.deepcopy((attacker, defender))
    source = DiceSource(forced={"attack": [9], "location": [19], "effect": [20]})
    source.dice("location", 1, 20)  # a roll from before this action
    res = ENGINE.resolve(Scenario("fading-suns", {"type": "attack"}, attacker, defender,
                                  {"unnamed_defense": "none"}), source, CAT)
    assert (attacker, defender) == before
    assert [r.label for r in res.rolls] == ["attack", "location", "effect"]
    json.dumps(res.to_dict())
    assert res.defender is not None and len(res.defender["wounds"]) == 2


def test_the_npc_templates_are_valid_sheets() -> None:
    npcs = CAT.npc_templates()
    assert 4 <= len(npcs) <= 6
    for sheet in npcs.values():
        assert ENGINE.validate_sheet(sheet, CAT) == sheet


# -- junk never escapes as anything but a RulesError --------------------------------------------------

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=True),
                    st.text(max_size=8), st.sampled_from(["broadsword", "chest", "stun", "melee", "dodge", "all"]))
junk = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                     st.dictionaries(st.text(max_size=6), inner, max_size=4)),
                    max_leaves=12)
FIELDS = ["name", "str", "dex", "end", "wits", "size", "build", "skills", "weapons", "armour", "shield", "gear_kg",
          "shield_hits_used", "wounds", "conditions", "dropped", "pending", "pending_decision"]
sheets = st.one_of(junk, st.dictionaries(st.sampled_from(FIELDS), junk, max_size=6).map(lambda d: {"name": "J", **d}),
                   st.sampled_from(list(CAT.npc_templates().values())))
OPTIONS = ["type", "weapon", "mode", "aim", "modifiers", "defense", "defense_weapon", "defense_modifiers", "pending",
           "column", "choice", "who", "skill", "wound", "days", "condition", "damage", "damage_type", "location",
           "armour", "defender_weapon", "defender_modifiers"]
actions = st.one_of(
    junk,
    st.dictionaries(st.sampled_from(OPTIONS), junk, max_size=3).map(lambda d: {"type": "attack", **d}),
    st.builds(lambda t, d: {**d, "type": t}, st.sampled_from(sorted(ENGINE.actions)),
              st.dictionaries(st.sampled_from(OPTIONS[1:]), junk, max_size=3)),
)
rules = st.one_of(st.just({}), st.dictionaries(st.sampled_from([s.name for s in ENGINE.rulings] + ["x"]), junk,
                                               max_size=2))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(action=actions, attacker=sheets, defender=sheets, rules=rules, seed=st.integers(0, 1000))
def test_junk_sheets_and_actions_only_ever_raise_rules_errors(action: Any, attacker: Any, defender: Any,
                                                              rules: Any, seed: int) -> None:
    source = DiceSource(rng=Random(seed))
    try:
        res = ENGINE.resolve(Scenario("fading-suns", action, attacker, defender, rules), source, CAT)
    except RulesError as exc:
        assert "\n" not in str(exc)
        return
    json.dumps(res.to_dict())


@settings(max_examples=300, deadline=None)
@given(sheet=sheets)
def test_junk_sheets_only_ever_raise_sheet_errors_in_validation_and_summary(sheet: Any) -> None:
    try:
        ENGINE.validate_sheet(sheet, CAT)
        ENGINE.summarize(sheet, CAT)
    except RulesError as exc:
        assert "\n" not in str(exc)


def test_a_line_break_typed_into_a_name_stays_out_of_the_error_line() -> None:
    with pytest.raises(SheetError) as info:
        ENGINE.validate_sheet({"name": "A", "weapons": ["axe\nhead"]}, CAT)
    assert "\n" not in str(info.value) and "axe\\nhead" in str(info.value)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 10**6), a=st.sampled_from(sorted(CAT.npc_templates())),
       d=st.sampled_from(sorted(CAT.npc_templates())), defense=st.sampled_from([None, "dodge", "parry"]),
       rules=st.fixed_dictionaries({"auto_rolls": st.booleans(), "damage_mode": st.sampled_from(["fixed", "rolled"]),
                                    "energy_shields": st.booleans(), "gm_confirms_death": st.booleans()}))
def test_random_fights_between_npcs_keep_the_sheets_valid(seed: int, a: str, d: str, defense: str | None,
                                                          rules: dict[str, Any]) -> None:
    npcs = CAT.npc_templates()
    attacker, defender = dict(npcs[a]), dict(npcs[d])
    for _turn in range(4):
        try:
            res = resolve({"type": "attack", "defense": defense}, attacker, defender, rules=rules)
        except RulesError:
            return
        attacker, defender = res.defender, res.attacker
        assert ENGINE.validate_sheet(attacker, CAT) == attacker
        assert ENGINE.validate_sheet(defender, CAT) == defender
        json.dumps(res.to_dict())


def test_an_option_given_as_null_takes_its_default() -> None:
    """Found by the fuzz test above: ``mode: null`` ended in a bare AssertionError; it is the weapon's first
    mode, as if left out."""
    source = DiceSource(forced={"attack": [20]})
    res = ENGINE.resolve(Scenario("fading-suns", {"type": "attack", "mode": None}, {"name": "A"}, {"name": "B"}, {}),
                         source, CAT)
    assert res.outcome.mode == "melee" and res.outcome.attack_roll.success is False
