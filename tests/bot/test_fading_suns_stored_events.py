"""Events stored before the typed outcomes (issue 19) still render, in the words they had: the fading-suns
fixtures (``tests/bot/stored_events_support.py`` says what they hold and how a change of wording is made)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.bot.stored_events_support import check_renders_as_it_did, stored_events

EVENTS = stored_events("fading-suns")


def test_every_action_the_engine_has_is_in_the_fixtures() -> None:
    from rules.fading_suns.engine import ACTION_OPTIONS

    kinds = {str(e["payload"]["outcome"].get("action")) for e in EVENTS}
    assert kinds == set(ACTION_OPTIONS)


@pytest.mark.parametrize("event", EVENTS, ids=[e["source"] for e in EVENTS])
def test_a_stored_event_renders_as_it_did(event: dict[str, Any]) -> None:
    check_renders_as_it_did("fading-suns", event)


@pytest.mark.parametrize("event", EVENTS, ids=[e["source"] for e in EVENTS])
def test_a_stored_outcome_reads_back_as_its_record_and_writes_the_same_shape(event: dict[str, Any]) -> None:
    """The typed record holds every key an event stored, in the stored order: reading a payload and writing it
    again gives the same JSON, so nothing an old event kept is lost to the records."""
    from rules.fading_suns.outcomes import RECORDS

    stored = event["payload"]["outcome"]
    record = RECORDS[stored["action"]].from_dict(stored)
    assert json.dumps(record.to_dict()) == json.dumps(stored)
