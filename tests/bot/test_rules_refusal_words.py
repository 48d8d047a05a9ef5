"""An engine's refusal that a player can act on is worded by the bot, not in the engine's terms (issue 34, P3, P5):
the ruling by its name and what it forbids, a weapon out of hand with the one command that gets another, a treatment
refused by the patient's name."""

from __future__ import annotations

from typing import Any

import pytest

from bot.tree import user_message
from rules.errors import RulesError
from tests.rules.pendragon.pendragon_support import run, sheet


def refusal(attacker: dict[str, Any], defender: dict[str, Any] | None, action: dict[str, Any]) -> str:
    with pytest.raises(RulesError) as refused:
        run(attacker, defender, action, {})
    line = user_message(refused.value)
    assert line is not None
    return line


def test_first_aid_on_oneself_names_the_ruling_and_the_way_on() -> None:
    own = sheet("Sir Brunor", wounds=[{"amount": 6}], skills={"first_aid": 12})
    expected = ("This server's rulings don't allow first aid on oneself (ruling `first_aid_on_self`): "
                "ask another character.")
    assert refusal(own, None, {"type": "first_aid"}) == expected  # no healer named: the patient himself
    assert refusal(own, own, {"type": "first_aid"}) == expected  # himself named as the healer


def test_a_broken_lance_says_which_weapon_to_ready() -> None:
    knight = sheet("Sir Elyan", weapons=["lance", "sword"], broken_weapons=["lance"], must_rearm=True,
                   mounted=True, horse="charger")
    foe = sheet("Bandit 1")
    expected = "Sir Elyan's lance is broken: /ready weapon:sword"
    # a spare lance in the fight, which the rulings keep for after it
    assert refusal(knight, None, {"type": "rearm", "weapon": "lance", "replace": True, "in_fight": True}) == expected
    assert refusal(knight, foe, {"type": "attack"}) == expected  # attacking before re-arming
    assert refusal({**knight, "must_rearm": False}, foe, {"type": "attack", "weapon": "lance"}) == expected


def test_a_dropped_sword_says_to_pick_it_up() -> None:
    knight = sheet("Sir Elyan", weapons=["sword"], dropped_weapons=["sword"], must_rearm=True)
    expected = "Sir Elyan's sword was dropped: /ready weapon:sword"
    assert refusal(knight, sheet("Bandit 1"), {"type": "attack"}) == expected


HEALER = sheet("Sir Owain", skills={"first_aid": 12, "chirurgery": 12})


def test_a_refused_treatment_names_the_patient_not_the_patient() -> None:
    """A refused treatment said "the patient needs no chirurgery" where the character's name was known."""
    unhurt, hurt, dead = sheet("Bandit 1"), sheet("Bandit 1", wounds=[{"amount": 6}]), sheet("Bandit 1", dead=True)
    assert refusal(unhurt, HEALER, {"type": "chirurgery"}) == \
        "Bandit 1 needs no chirurgery (only major wounds and the unconscious do)"
    assert refusal(hurt, HEALER, {"type": "first_aid", "wound": 3}) == "Bandit 1 has no wound \\#3"  # shows '#3'
    for action in ({"type": "first_aid"}, {"type": "chirurgery"}, {"type": "rest", "weeks": 1}):
        assert refusal(dead, HEALER, action) == "Bandit 1 is dead"


def test_a_name_in_a_refused_treatment_is_shown_as_typed_never_as_markdown_or_a_ping() -> None:
    """A name stored before names were checked at entry may hold markdown: the refusal escapes it, as every line
    that names a character does (bot/text_safety.plain)."""
    line = refusal(sheet("Sir *Owain* @everyone", dead=True), HEALER, {"type": "chirurgery"})
    assert line == "Sir \\*Owain\\* @\u200beveryone is dead"
