"""A late post into a thread that is locked to the bot (bot/ui/late.py, issue 34): settled once, like a channel
that refuses the bot, not tried again for as long as the bot runs."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord

from bot.services.event_records import read_event
from bot.services.results import EventView
from bot.ui.late import post_late


class _Answers:
    async def open_decisions(self, event_ids: list[int]) -> dict[int, Any]:
        return {}

    async def gm_parts(self, event_ids: list[int]) -> dict[int, Any]:
        return {}


class _Refusing:
    def __init__(self, code: int) -> None:
        self.code, self.sends = code, 0

    async def send(self, **_: Any) -> Any:
        self.sends += 1
        raise discord.HTTPException(SimpleNamespace(status=400, reason="Bad Request"),
                                    {"code": self.code, "message": "Thread is locked"})


def _bot(channel: _Refusing) -> Any:
    return SimpleNamespace(services=SimpleNamespace(runtime=SimpleNamespace(answers=_Answers())),
                           get_partial_messageable=lambda channel_id: channel)


async def test_a_late_post_a_locked_thread_refuses_is_settled_not_retried() -> None:
    for code in (160005, 50083):  # locked; archived and locked (a send unarchives an archived one)
        thread = _Refusing(code)
        event = EventView(id=7, kind="join", channel_id=42, encounter_id=1, user_id=1, user_name="gm",
                          record=read_event("join", {"names": ["Bandit 1"]}))
        assert await post_late(_bot(thread), [event]) == {7: None}
        assert thread.sends == 1

    transient = _Refusing(50035)  # anything else is tried again later
    assert await post_late(_bot(transient), [event]) == {}
