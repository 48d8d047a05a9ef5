"""The discord.py work one attack's answer and tracker edit do, counted (issue 23: build what is sent once, and
nothing nobody reads). What is sent is held byte for byte by test_e2e_payloads.py; this holds what is built."""

from __future__ import annotations

from typing import Any

import discord
import pytest

BLOW = {"target": "Bandit 1", "weapon": "Broadsword", "aspect": "edge", "aim": "high"}
HIT = "attack=9 defense=3 location=12"
ANSWER = "POST /interactions/{interaction_id}/{token}/callback"
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"


class Built:
    """How many of each discord.py object the bot builds meanwhile."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count: dict[str, int] = {}
        for name, cls in (("Message", discord.Message), ("View", discord.ui.View)):
            monkeypatch.setattr(cls, "__init__", self._counting(name, cls.__init__))

    def _counting(self, name: str, init: Any) -> Any:
        def counted(this: Any, *args: Any, **kwargs: Any) -> None:
            self.count[name] = self.count.get(name, 0) + 1
            init(this, *args, **kwargs)
        return counted


async def test_a_hit_builds_one_view_and_reads_no_message_from_the_tracker_edit(table: Any,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    await table.bjorn_against_bandits()
    await table.run("attack", {**BLOW, "dice": "attack=2 defense=9"}, user=table.alice)
    await table.idle()
    built, start = Built(monkeypatch), len(table.emu.requests)
    hit = await table.run("attack", {**BLOW, "dice": HIT}, user=table.alice)
    await table.idle()
    assert table.emu.requests[start:] == [ANSWER, EDIT]
    assert "1 wound" in table.text(await table.tracker()) and hit.attachments  # shown as before
    # the answer's View (its Details button) once, not an empty one first; the only Message read is the one
    # discord.py makes of the answer (the edit's answer, the whole tracker message, is not read: 2 -> 1)
    assert built.count == {"View": 1, "Message": 1}, built.count
