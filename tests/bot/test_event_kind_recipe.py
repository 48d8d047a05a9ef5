"""docs/architecture.md, "Adding an event kind", followed step by step for a throwaway kind: a record, stored by a
service through record_event, worded for /log and for Details by functions found by its type (issue 38)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import discord
import pytest

from bot.services import Actor
from bot.services.actions import record_event
from bot.services.event_kinds import KINDS, LoggedEvent
from bot.services.results import EventView
from bot.text_safety import plain
from bot.ui import event_lines, record_embeds


@dataclass(frozen=True)
class ToastEvent(LoggedEvent):
    """1. The record: every field has a default (an old or odd payload still reads)."""

    who: str = "?"
    to: str = "?"
    has_details: ClassVar[bool] = True


@pytest.fixture
def toast_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(KINDS, "toast", ToastEvent)  # 1. named in KINDS
    monkeypatch.setattr(event_lines, "_WORDS", dict(event_lines._WORDS))
    monkeypatch.setattr(event_lines, "_DETAILS", dict(event_lines._DETAILS))

    @event_lines.words(ToastEvent)  # 3. its /log line
    def _toast(record: ToastEvent, event: EventView) -> str:
        return f"{plain(record.who)} raises a toast to {plain(record.to)}"

    @event_lines.details(ToastEvent)  # 4. its Details
    def _toast_details(event: EventView) -> discord.Embed:
        record = event.record
        assert isinstance(record, ToastEvent)
        return discord.Embed(title=f"\U0001f942 {plain(record.who)}", description=f"To {plain(record.to)}")


async def test_a_new_kind_shows_in_the_log_and_in_details(services: Any, toast_kind: None) -> None:
    actor = Actor(guild_id=1000, channel_id=2000, user_id=7, user_name="Alice")

    async def work(session: Any) -> int:  # 2. a service stores the record
        row = record_event(services.runtime, session, actor, "toast", ToastEvent("Bjorn", "the *king*"), None, None)
        await session.flush()
        return int(row.id)

    event_id = await services.runtime.transact(actor.channel_id, work)
    [logged] = await services.records.log(actor)
    assert isinstance(logged.record, ToastEvent)
    assert record_embeds.event_line(logged).endswith("Bjorn raises a toast to the \\*king\\*")
    shown = event_lines.details_of(await services.records.event(actor, event_id))
    assert (shown.title, shown.description) == ("\U0001f942 Bjorn", "To the \\*king\\*")
