"""Junk sheets, actions and rulings: only RulesError subclasses may come out, never a traceback."""

from __future__ import annotations

from random import Random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from content import load_catalog
from rules.dice import DiceSource
from rules.errors import RulesError
from rules.model import Scenario
from rules.pendragon.character import FLAGS, OVERRIDES
from rules.pendragon.engine import ENGINE

CAT = load_catalog("pendragon")

scalars = st.one_of(st.none(), st.booleans(), st.integers(-50, 60), st.integers(), st.text(max_size=8),
                    st.sampled_from(["sword", "lance", "chainmail", "shield", "charger", "attack", "brawl",
                                     "knockdown", "major_wound", "fall", "dying", "experience_check"]))
junk = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                     st.dictionaries(st.text(max_size=6), inner, max_size=4)),
                    max_leaves=12)
FIELDS = ["name", "siz", "dex", "str", "con", "app", "skills", "traits", "weapons", "armour", "horse",
          "wounds", "wounds_taken", "wielding", "dropped_weapons", "broken_weapons", "experience_checks",
          "pending_decisions", "pending_rolls", "stats_lost", "armour_bonus", *OVERRIDES, *FLAGS]
OPTIONS = ["weapon", "defender_weapon", "shield", "defender_shield", "mounted", "defender_mounted", "charge",
           "defender_charge", "modifier", "situation", "tactic", "on_wall", "notable", "unopposed", "wound",
           "skill", "weeks", "kind", "decision", "amount", "damage", "replace", "mount"]


def base_sheet() -> dict[str, Any]:
    return {"name": "K", "siz": 15, "dex": 12, "str": 13, "con": 14, "app": 10,
            "skills": {"sword": 15, "lance": 15, "horsemanship": 14, "brawling": 5, "first_aid": 10,
                       "chirurgery": 10, "flail": 12},
            "weapons": ["sword", "lance", "flail"], "armour": ["chainmail", "shield"], "horse": "charger"}


@st.composite
def sheets(draw: st.DrawFn) -> Any:
    if draw(st.booleans()):
        return draw(junk)
    sheet = base_sheet()
    for field in draw(st.lists(st.sampled_from(FIELDS), max_size=4)):
        sheet[field] = draw(junk)
    for flag in draw(st.lists(st.sampled_from(FLAGS), max_size=3)):
        sheet[flag] = draw(st.booleans())
    if draw(st.booleans()):
        sheet["wounds"] = draw(st.lists(st.fixed_dictionaries({"amount": st.integers(0, 40)},
                                                              optional={"major": st.booleans()}), max_size=3))
    return sheet


@st.composite
def actions(draw: st.DrawFn) -> Any:
    if draw(st.integers(0, 9)) == 0:
        return draw(junk)
    action: dict[str, Any] = {"type": draw(st.sampled_from([*sorted(ENGINE.actions), "bogus"]))}
    for option in draw(st.lists(st.sampled_from(OPTIONS), max_size=4)):
        action[option] = draw(st.one_of(junk, st.booleans(), st.integers(0, 5)))
    return action


settings_st = st.one_of(st.just({}), st.dictionaries(
    st.sampled_from([s.name for s in ENGINE.rulings] + ["nope"]),
    st.one_of(st.booleans(), st.sampled_from(["exceeds", "roll", "hits_self", "odd_roll", "x"])), max_size=3), junk)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(attacker=sheets(), defender=st.one_of(st.none(), sheets()), action=actions(), rules=settings_st,
       seed=st.integers(0, 1000))
def test_junk_input_raises_only_rules_errors(attacker: Any, defender: Any, action: Any, rules: Any, seed: int) -> None:
    scenario = Scenario("pendragon", action, attacker, defender, rules)
    try:
        result = ENGINE.resolve(scenario, DiceSource(rng=Random(seed)), CAT)
    except RulesError:
        return
    import json

    json.dumps(result.to_dict())  # everything that comes back is JSON-serialisable


@settings(max_examples=300, deadline=None)
@given(sheet=sheets())
def test_junk_sheets_fail_validation_with_rules_errors_only(sheet: Any) -> None:
    try:
        ENGINE.validate_sheet(sheet, CAT)
        ENGINE.summarize(sheet, CAT)
    except RulesError as exc:
        assert "\n" not in str(exc)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 10**6), kind=st.sampled_from(["attack", "attack", "first_aid", "chirurgery", "rest"]))
def test_random_fights_keep_sheets_valid(seed: int, kind: str) -> None:
    """Whatever the dice do, the sheets that come back validate again (the bot stores them as they are)."""
    rng = Random(seed)
    a, d = base_sheet(), base_sheet()
    for _ in range(6):
        action: dict[str, Any] = {"type": kind}
        if kind in ("first_aid", "chirurgery"):
            action["skill"] = 12
        try:
            result = ENGINE.resolve(Scenario("pendragon", action, a, d, {}), DiceSource(rng=rng), CAT)
        except RulesError:
            break
        a = ENGINE.validate_sheet(result.attacker, CAT)
        if result.defender is not None:
            d = ENGINE.validate_sheet(result.defender, CAT)
