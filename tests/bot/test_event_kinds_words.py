"""Events of every kind already in a database read back and show exactly as they did: their /log line and their
Details, for the GM, a player and the channel (``tests/bot/event_kinds_support.py`` says what the fixtures hold)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.bot.event_kinds_support import SYSTEMS, expected_words, stored, words_of, write_words

EVENTS = [(system, event) for system in SYSTEMS for event in stored(system)]
EXPECTED = {} if write_words() else expected_words()

# every kind the bot stores, with the commands that store them (bot/services: record_event, insert_event)
KINDS = {"start", "join", "add_npcs", "leave", "initiative", "order", "delay", "next_turn", "end", "undo", "roll",
         "edit", "treatment_offer", "attack", "gm_decide", "recover", "ready"}


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_fixtures_hold_every_kind_in_each_system(system: str) -> None:
    kinds = {event["kind"] for event in stored(system)}
    assert kinds >= KINDS
    if system == "ars-harn":
        assert "declare" in kinds
    if system == "fading-suns":
        assert "defense_prompt" in kinds


@pytest.mark.parametrize(("system", "event"), EVENTS, ids=[f"{s}:{e['source']}" for s, e in EVENTS])
def test_a_stored_event_shows_as_it_did(system: str, event: dict[str, Any]) -> None:
    if not EXPECTED:
        pytest.skip("words rewritten (GRIEVOUS_WRITE_WORDS)")
    assert words_of(event) == EXPECTED[system][event["source"]]
