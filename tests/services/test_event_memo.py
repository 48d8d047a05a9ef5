"""The log's memo of events as each viewer reads them (bot/services/event_memo.py): the same answer as reading
afresh, kept under the payload's content and the viewer; what it keeps is the frozen record, never a mapping."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from typing import Any

from bot.db.models import Event
from bot.services.event_kinds import UnknownEvent
from bot.services.event_memo import EventMemo
from bot.services.event_records import EventRecord, read_event
from bot.services.results import EventView
from bot.services.viewer import Seat, Viewer

GM, PLAYER = Viewer(Seat.GM, True, 1), Viewer(Seat.PLAYER, True, 2)


def row(payload: dict[str, Any], *, id: int = 7, undone: bool = False, kind: str = "mystery") -> Event:
    return Event(id=id, guild_id=1, channel_id=2, encounter_id=3, user_id=4, user_name="Alice", kind=kind,
                 payload=payload, undone=undone, created_at=datetime(2026, 12, 7, tzinfo=UTC), interaction_id=None,
                 message_id=None)


class Reader:
    """Stands in for the projection: counts its calls, and marks what it read with the viewer's seat."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, event: Event, viewer: Viewer) -> EventView:
        self.calls += 1
        return EventView(id=event.id, kind=event.kind, channel_id=event.channel_id, encounter_id=event.encounter_id,
                         user_id=event.user_id, user_name=event.user_name,
                         record=UnknownEvent({**event.payload, "seen_by": viewer.seat.name}),
                         created_at=event.created_at, undone=event.undone)


def seen(view: EventView) -> dict[str, Any]:
    assert isinstance(view.record, UnknownEvent)
    return view.record.stored


def test_the_same_payload_for_the_same_viewer_is_read_once_and_answers_alike() -> None:
    memo, read = EventMemo(), Reader()
    first = memo.view(row({"expression": "3d6", "total": 11}), GM, None, lambda: read(row({"expression": "3d6",
                                                                                        "total": 11}), GM))
    again = memo.view(row({"total": 11, "expression": "3d6"}, undone=True, id=9), GM, None,
                      lambda: read(row({}), GM))
    assert read.calls == 1 and (memo.hits, memo.misses) == (1, 1)
    assert seen(again) == seen(first) == {"expression": "3d6", "total": 11, "seen_by": "GM"}
    assert (again.id, again.undone) == (9, True)  # the row's own columns, never the kept ones


def test_another_viewer_or_a_changed_payload_is_read_afresh() -> None:
    memo, read = EventMemo(), Reader()
    offer = {"offer": "treat", "answer": None}
    memo.view(row(offer), GM, None, lambda: read(row(offer), GM))
    player = memo.view(row(offer), PLAYER, None, lambda: read(row(offer), PLAYER))
    answered = {**offer, "answer": "accepted"}
    changed = memo.view(row(answered), GM, None, lambda: read(row(answered), GM))
    npc_edit = memo.view(row(offer), GM, True, lambda: read(row(offer), GM))
    assert read.calls == 4
    assert seen(player)["seen_by"] == "PLAYER" and seen(changed)["answer"] == "accepted"
    assert seen(npc_edit)["seen_by"] == "GM"


def test_what_is_kept_is_the_frozen_record_and_the_memo_is_bounded() -> None:
    memo, read = EventMemo(size=2), Reader()
    payload = {"rolls": [{"label": "attack", "faces": [7]}]}
    first = memo.view(row(payload), GM, None, lambda: read(row(payload), GM))
    second = memo.view(row(payload), GM, None, lambda: read(row(payload), GM))
    assert second.record is first.record and read.calls == 1
    try:
        first.record.stored = {}  # type: ignore[misc]
    except dataclasses.FrozenInstanceError:
        pass
    else:
        raise AssertionError("a kept record must be frozen")
    for n in range(3):
        memo.view(row({"n": n}), GM, None, lambda n=n: read(row({"n": n}), GM))
    assert len(memo) == 2


def test_a_payloads_record_is_read_once_for_every_viewer_until_its_text_or_kind_changes() -> None:
    memo = EventMemo(size=2)
    roll = {"expression": "3d6", "total": 11, "result": None}
    reads: list[str] = []

    def record(event: Event) -> EventRecord:
        def read() -> EventRecord:
            reads.append(event.kind)
            return read_event(event.kind, event.payload)
        return memo.record(event, memo.digest(event), read)

    first = record(row(roll, kind="roll"))
    same = row({"result": None, "total": 11, "expression": "3d6"}, kind="roll", id=9)  # another row, the same text
    assert record(same) is first and reads == ["roll"]
    assert first == read_event("roll", roll)
    assert record(row({**roll, "total": 12}, kind="roll")).total == 12  # type: ignore[union-attr]
    assert isinstance(record(row(roll, kind="mystery")), UnknownEvent)
    assert record(row(roll, kind="roll")) is not first and reads == ["roll", "roll", "mystery", "roll"]  # bounded
