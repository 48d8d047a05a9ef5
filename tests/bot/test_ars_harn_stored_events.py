"""Events stored before the typed outcomes (issue 19) still render, in the words they had: the ars-harn
fixtures (``tests/bot/stored_events_support.py`` says what they hold and how a change of wording is made)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.ui.outcomes import describe
from tests.bot.stored_events_support import check_renders_as_it_did, stored_events

EVENTS = stored_events("ars-harn")


def test_every_action_the_engine_has_is_in_the_fixtures() -> None:
    from rules.ars_harn.engine import ACTION_OPTIONS

    kinds = {str(e["payload"]["outcome"].get("action")) for e in EVENTS}
    assert kinds == set(ACTION_OPTIONS)


@pytest.mark.parametrize("event", EVENTS, ids=[e["source"] for e in EVENTS])
def test_a_stored_event_renders_as_it_did(event: dict[str, Any]) -> None:
    check_renders_as_it_did("ars-harn", event)


def test_an_attack_on_a_secret_npc_shows_a_player_no_total_of_the_npcs() -> None:
    """Issue 22 §1: under secret rolls the NPC's Defense Total and its wound's rolls are the GM's; a player's
    Details keep the attacker's own total and what the NPC's rolls did."""
    from rules.registry import read_outcome

    attacks = [e for e in EVENTS if e["payload"]["outcome"].get("action") == "attack"
               and e["payload"]["outcome"].get("defense_total") is not None]
    assert attacks
    for event in attacks:
        stored = event["payload"]["outcome"]
        hidden = read_outcome("ars-harn", stored).hiding_target()
        words = describe("ars-harn", hidden.to_dict(), ("Bjorn", "Bandit 1"))
        fields = dict((name, value) for name, value, _ in words.fields)
        assert "against a defence the GM keeps secret" in fields["Attack"]
        assert f"**{stored['attack_total']}**" in fields["Attack"]
        for name in ("Shock", "Kill roll", "Fumble", "Stumble", "Amputation"):
            assert " vs " not in fields.get(name, ""), (event["source"], fields)
