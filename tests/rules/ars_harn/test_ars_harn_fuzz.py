"""Junk sheets, actions and rulings: only RulesError subclasses may come out, never a traceback."""

from __future__ import annotations

from random import Random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from content import load_catalog
from rules.ars_harn.engine import ACTION_OPTIONS, ENGINE
from rules.dice import DiceSource
from rules.errors import RulesError
from rules.model import Resolution, Scenario

CAT = load_catalog("ars-harn")


def _resolved_or_refused(attacker: Any, defender: Any, action: Any, rulings: Any, seed: int) -> Resolution | None:
    """The exchange resolved (its record built whole), or None where the engine refused it with a RulesError:
    anything else raised fails the test."""
    scenario = Scenario("ars-harn", action, attacker, defender, rulings)
    try:
        result = ENGINE.resolve(scenario, DiceSource(rng=Random(seed)), CAT)
    except RulesError:
        return None
    result.to_dict()
    return result


scalars = st.one_of(st.none(), st.booleans(), st.integers(-50, 50), st.text(max_size=6),
                    st.sampled_from(["Broadsword", "thorax", "hand", "edge", "high", "left", "S3", "spell",
                                     "chirurgy", "pick_up", "death", "Fist", "shock", "prone"]))
junk = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                     st.dictionaries(st.text(max_size=5), inner, max_size=3)),
                    max_leaves=8)

FIELDS = ["name", "str", "sta", "dex", "qik", "size", "per", "int", "abilities", "vf_modifiers", "weapons",
          "armour", "held", "dropped", "wounds", "fatigue", "conditions", "saved_points", "tactical_advantage",
          "pending_rolls", "pending_decision", "unusable_limbs", "severed", "initiative"]

BASE = {"name": "N", "str": 1, "sta": 1, "dex": 1, "qik": 1, "weapons": ["Broadsword", "Round Shield"],
        "abilities": {"Sword": 3, "Finesse": 2, "Chirurgy": 2}, "armour": ["Mail Hauberk"],
        "wounds": [{"location": "thorax", "code": "S3"}]}


@st.composite
def sheets(draw: Any) -> Any:
    if draw(st.booleans()):
        return draw(junk)
    sheet: dict[str, Any] = dict(BASE)
    for key in draw(st.lists(st.sampled_from(FIELDS), max_size=3)):
        sheet[key] = draw(junk)
    return sheet


@st.composite
def actions(draw: Any) -> Any:
    kind = draw(st.sampled_from([*ACTION_OPTIONS, "nonsense"]))
    action: dict[str, Any] = {"type": kind}
    options = ACTION_OPTIONS.get(kind, ())
    if options:
        for key in draw(st.lists(st.sampled_from(options), max_size=4)):
            action[key] = draw(junk)
    return action if draw(st.integers(0, 9)) else draw(junk)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sheets(), sheets(), actions(), st.one_of(st.just({}), st.dictionaries(
    st.sampled_from(["auto_rolls", "combat_botch_dice", "amputation_when", "bogus"]), scalars, max_size=2)),
    st.integers(0, 2**32))
def test_junk_in_gives_only_rules_errors(attacker: Any, defender: Any, action: Any, rulings: Any,
                                         seed: int) -> None:
    _resolved_or_refused(attacker, defender, action, rulings, seed)


@settings(max_examples=200, deadline=None)
@given(sheets())
def test_junk_sheets_give_only_sheet_errors(sheet: Any) -> None:
    try:
        clean = ENGINE.validate_sheet(sheet, CAT)
    except RulesError:
        return
    assert ENGINE.validate_sheet(clean, CAT) == clean
    ENGINE.summarize(clean, CAT)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["attack", "cast"]), st.integers(0, 2**32))
def test_valid_exchanges_keep_sheets_valid(kind: str, seed: int) -> None:
    action: dict[str, Any] = {"type": kind}
    if kind == "cast":
        action.update(damage=20, damage_type="fire")
    scenario = Scenario("ars-harn", action, BASE, BASE, {})
    result = ENGINE.resolve(scenario, DiceSource(rng=Random(seed)), CAT)
    assert result.defender is not None
    assert ENGINE.validate_sheet(result.defender, CAT) == result.defender


# Plausible values: these reach deep into every action, where junk is mostly refused at the door.
POOLS: dict[str, Any] = {
    "weapon": st.sampled_from(["Broadsword", "Round Shield", "Fist", "Kick", "Headbutt", 0, 1, 5, "Mace"]),
    "defense_weapon": st.sampled_from([0, 1, "Round Shield", "Dagger"]),
    "aspect": st.sampled_from(["blunt", "edge", "point", "fire"]),
    "aim": st.sampled_from(["high", "mid", "low"]),
    "brawl_aim": st.sampled_from(["high", "mid", "low"]),
    "range": st.sampled_from(["short", "long"]),
    "damage_type": st.sampled_from(["blunt", "edge", "point", "fire"]),
    "location": st.sampled_from(["thorax", "hand", "neck", "thigh", "foot", "forearm", "skull"]),
    "side": st.sampled_from(["left", "right"]),
    "method": st.sampled_from(["spell", "chirurgy"]),
    "use": st.sampled_from(["pick_up", "switch", "stand_up", "fast_cast", "attack"]),
    "hand": st.sampled_from(["right", "left"]),
    "decision": st.sampled_from(["death", "incapacitation"]),
    "add": st.sampled_from(["shock", "prone", "dead", ["prone", "shock"]]),
    "remove": st.sampled_from(["shock", "prone", "incapacitated"]),
    "code": st.sampled_from(["M1", "S3", "G4", "K4", "K5", "G5"]),
    "who": st.sampled_from(["attacker", "defender"]),
    "spell": st.just("Pilum of Fire"),
}
INTS = {"modifier": (-20, 40), "defense_modifier": (-20, 40), "damage": (0, 50), "ease_factor": (0, 20),
        "body_levels": (1, 6), "wound": (0, 4), "days": (1, 30), "attending_chirurgy": (0, 10),
        "change": (-3, 3), "effective_impact": (0, 30)}


@st.composite
def plausible_actions(draw: Any) -> dict[str, Any]:
    kind = draw(st.sampled_from(list(ACTION_OPTIONS)))
    action: dict[str, Any] = {"type": kind}
    for key in draw(st.lists(st.sampled_from(ACTION_OPTIONS[kind]), max_size=5, unique=True)):
        if key in POOLS:
            action[key] = draw(POOLS[key])
        elif key in INTS:
            action[key] = draw(st.integers(*INTS[key]))
        else:
            action[key] = draw(st.booleans())
    return action


@st.composite
def plausible_sheets(draw: Any) -> dict[str, Any]:
    sheet: dict[str, Any] = dict(BASE)
    sheet["conditions"] = draw(st.lists(st.sampled_from(["shock", "prone", "unconscious"]), max_size=1))
    sheet["tactical_advantage"] = draw(st.booleans())
    if draw(st.booleans()):
        sheet["dropped"] = [0]
        sheet["held"] = {"right": None, "left": 1}
    sheet["saved_points"] = draw(st.integers(0, 20))
    if draw(st.booleans()):
        sheet["pending_rolls"] = [{"kind": "kill", "wound": 1, "ease_factor": 8}, {"kind": "shock"}]
        sheet["pending_decision"] = {"kind": "kill", "wound": 1}
    return sheet


def all_settings() -> Any:
    return st.fixed_dictionaries({}, optional={
        s.name: (st.sampled_from(s.choices) if s.choices else st.booleans() if isinstance(s.default, bool)
                 else st.integers(0, 3))
        for s in ENGINE.rulings})


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plausible_sheets(), plausible_sheets(), plausible_actions(), all_settings(), st.integers(0, 2**32))
def test_plausible_actions_give_only_rules_errors_and_valid_sheets(attacker: Any, defender: Any, action: Any,
                                                                   rulings: Any, seed: int) -> None:
    result = _resolved_or_refused(attacker, defender, action, rulings, seed)
    if result is None:
        return
    for sheet in (result.attacker, result.defender):
        if sheet is not None:
            assert ENGINE.validate_sheet(sheet, CAT) == sheet
