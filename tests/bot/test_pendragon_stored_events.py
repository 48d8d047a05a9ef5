"""Events stored before the typed outcomes (issue 19) still render, in the words they had: the pendragon
fixtures (``tests/bot/stored_events_support.py`` says what they hold and how a change of wording is made)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.bot.stored_events_support import check_renders_as_it_did, stored_events

EVENTS = stored_events("pendragon")


def test_every_action_the_engine_has_is_in_the_fixtures() -> None:
    from rules.pendragon.engine import ACTIONS

    kinds = {str(e["payload"]["outcome"].get("action")) for e in EVENTS}
    assert kinds == set(ACTIONS)


@pytest.mark.parametrize("event", EVENTS, ids=[e["source"] for e in EVENTS])
def test_a_stored_event_renders_as_it_did(event: dict[str, Any]) -> None:
    check_renders_as_it_did("pendragon", event)


@pytest.mark.parametrize("event", EVENTS, ids=[e["source"] for e in EVENTS])
def test_a_stored_outcome_reads_back_as_its_record_and_writes_the_same_shape(event: dict[str, Any]) -> None:
    """The typed record holds every key an event stored: reading a payload and writing it again gives the same
    mapping, so nothing an old event kept is lost to the records. Only ``gm_decision`` (the first of
    ``gm_decisions``, written twice before the records) is no longer written."""
    from rules.pendragon.outcomes import RECORDS

    stored = dict(event["payload"]["outcome"])
    record = RECORDS[stored["action"]].from_dict(stored)
    first = stored.pop("gm_decision")
    assert first == (stored["gm_decisions"][0] if stored["gm_decisions"] else None)
    assert record.to_dict() == stored
