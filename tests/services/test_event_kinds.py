"""Every stored event reads back as its typed record (bot/services/event_kinds.py, event_records.py), and the
record writes the payload it was read from: nothing an event already in a database kept is lost."""

from __future__ import annotations

from typing import Any

import pytest

from bot.services.event_kinds import KINDS, NextTurnEvent, PassedTurn, UnknownEvent, read_logged
from bot.services.event_records import ActionEvent, EditEvent, RollEvent, read_event
from tests.bot.event_kinds_support import SYSTEMS, stored

EVENTS = [event for system in SYSTEMS for event in stored(system)]


@pytest.mark.parametrize("event", EVENTS, ids=[e["source"] for e in EVENTS])
def test_a_stored_event_reads_as_its_record_and_writes_the_same_payload(event: dict[str, Any]) -> None:
    record = read_event(event["kind"], event["payload"])
    expected = {"roll": RollEvent, "edit": EditEvent}.get(event["kind"]) or (
        ActionEvent if "outcome" in event["payload"] else KINDS[event["kind"]])
    assert type(record) is expected
    if not isinstance(record, ActionEvent):  # an action's outcome and rolls have tests of their own
        assert record.to_dict() == event["payload"]


def test_a_kind_no_record_reads_is_kept_whole() -> None:
    payload = {"what": ["a", 1], "note": "kept"}
    record = read_logged("a_kind_gone_since", payload)
    assert isinstance(record, UnknownEvent)
    assert record.to_dict() == payload


def test_a_payload_of_the_wrong_shape_reads_as_the_kinds_defaults() -> None:
    record = read_event("next_turn", {"round": "two", "skipped": [{"name": 3}, "x"], "ended": None})
    assert record == NextTurnEvent(skipped=(PassedTurn(),))
