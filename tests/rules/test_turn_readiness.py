"""Each engine says, as typed data, whether a character can take its turn and why not (issue 18 section 2),
and where its initiative outcome puts the character in the turn order."""

from __future__ import annotations

from typing import Any

import pytest

from content import load_catalog
from rules.dice import DiceSource
from rules.model import READY, InitiativeScore, Scenario, TurnReadiness
from rules.registry import get_engine

SHEETS: dict[str, dict[str, Any]] = {
    "ars-harn": {"name": "Wulf", "str": 1, "sta": 1, "dex": 1, "qik": 3, "abilities": {"Sword": 5},
                 "weapons": ["Broadsword"]},
    "pendragon": {"name": "Sir Cador", "siz": 14, "dex": 12, "str": 13, "con": 14, "app": 11,
                  "skills": {"sword": 16}, "weapons": ["sword"]},
    "fading-suns": {"name": "Erian", "dex": 6, "wits": 5, "skills": {"melee": 5}, "weapons": ["broadsword"]},
}


def readiness(system: str, **fields: Any) -> TurnReadiness:
    engine = get_engine(system)
    catalog = load_catalog(system)
    return engine.turn_readiness(engine.validate_sheet({**SHEETS[system], **fields}, catalog), catalog)


@pytest.mark.parametrize("system", list(SHEETS))
def test_a_hale_character_is_ready(system: str) -> None:
    assert readiness(system) == READY and READY.can_act


@pytest.mark.parametrize(("system", "fields", "reason", "words"), [
    ("ars-harn", {"conditions": ["dead"]}, "dead", "is dead"),
    ("ars-harn", {"conditions": ["unconscious"]}, "unconscious", "is unconscious"),
    ("ars-harn", {"conditions": ["incapacitated"]}, "incapacitated", "is incapacitated"),
    ("pendragon", {"dead": True}, "dead", "is dead"),
    ("pendragon", {"unconscious": True}, "unconscious", "is unconscious"),
    ("pendragon", {"out_of_fight": True}, "out_of_fight", "has left the fight (failed Valorous)"),
    ("fading-suns", {"conditions": ["dead"]}, "dead", "is dead"),
    ("fading-suns", {"conditions": ["dying"]}, "dying", "is dying"),
    ("fading-suns", {"conditions": ["unconscious"]}, "unconscious", "is unconscious"),
])
def test_the_dead_and_those_out_of_the_fight_get_no_turn(system: str, fields: dict[str, Any], reason: str,
                                                          words: str) -> None:
    ready = readiness(system, **fields)
    assert (ready.reason, ready.words, ready.skipped, ready.ends_when_skipped) == (reason, words, True, False)
    assert not ready.can_act


def test_fading_suns_stun_costs_the_next_turn_and_the_lost_turn_ends_it() -> None:
    engine, catalog = get_engine("fading-suns"), load_catalog("fading-suns")
    sheet = engine.validate_sheet({**SHEETS["fading-suns"], "conditions": ["stunned", "prone"]}, catalog)
    ready = engine.turn_readiness(sheet, catalog)
    assert (ready.reason, ready.skipped, ready.ends_when_skipped) == ("stunned", True, True)
    after = engine.lose_turn(sheet, catalog)
    assert after["conditions"] == ["prone"]  # only the stun is paid off
    assert engine.turn_readiness(after, catalog) == READY


def test_ars_harn_shock_keeps_the_turn_for_the_shock_reroll() -> None:
    ready = readiness("ars-harn", conditions=["shock"])
    assert (ready.reason, ready.skipped, ready.can_act) == ("shock", False, False)
    assert "re-roll Shock" in ready.words


@pytest.mark.parametrize("system", ["ars-harn", "pendragon"])
def test_a_lost_turn_changes_nothing_where_no_condition_ends_by_it(system: str) -> None:
    engine, catalog = get_engine(system), load_catalog(system)
    sheet = engine.validate_sheet(SHEETS[system], catalog)
    assert engine.lose_turn(sheet, catalog) == sheet


def test_ars_harn_initiative_orders_by_the_total_of_die_quickness_and_weapon() -> None:
    engine, catalog = get_engine("ars-harn"), load_catalog("ars-harn")
    resolution = engine.resolve(Scenario("ars-harn", {"type": "initiative"}, SHEETS["ars-harn"]),
                                DiceSource({"initiative": [2]}), catalog)
    score = engine.initiative_score(resolution.outcome)
    assert score is not None and score.total == resolution.attacker["initiative"]  # type: ignore[index]
    assert score.total == 2 + 3 + resolution.outcome.to_dict()["attacker"]["modifiers"]["weapon"]
    assert score.tiebreak == (3,)  # a tie goes to the higher Quickness


def test_fading_suns_initiative_score_breaks_ties_on_wits() -> None:
    engine, catalog = get_engine("fading-suns"), load_catalog("fading-suns")
    resolution = engine.resolve(Scenario("fading-suns", {"type": "initiative"}, SHEETS["fading-suns"]),
                                DiceSource(), catalog)
    score = engine.initiative_score(resolution.outcome)
    assert score == InitiativeScore(resolution.outcome.to_dict()["initiative"]["attacker"]["score"], (5,))


def test_pendragon_rolls_no_initiative() -> None:
    engine, catalog = get_engine("pendragon"), load_catalog("pendragon")
    resolution = engine.resolve(Scenario("pendragon", {"type": "initiative"}, SHEETS["pendragon"]),
                                DiceSource(), catalog)
    assert engine.initiative_score(resolution.outcome) is None


def test_a_gm_may_rule_that_a_fading_suns_stun_lasts_until_recovered() -> None:
    engine, catalog = get_engine("fading-suns"), load_catalog("fading-suns")
    sheet = engine.validate_sheet({**SHEETS["fading-suns"], "conditions": ["stunned"]}, catalog)
    ready = engine.turn_readiness(sheet, catalog, {"stun_lasts": "until_recovered"})
    assert (ready.reason, ready.skipped, ready.ends_when_skipped) == ("stunned", True, False)
