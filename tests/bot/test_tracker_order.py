"""The channel's tracker never shows an older state of an encounter after a newer one, even when the older state is
asked for while the newer one is being drawn (a GM presses a decision button before the attack that asked for it
has had its tracker edit: the press's state is drawn first, and the attack's must not follow it)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from bot.ui import publish


async def test_an_older_state_asked_for_while_a_newer_one_is_drawn_is_not_drawn_after_it(
        monkeypatch: Any) -> None:
    drawn: list[int] = []
    started = asyncio.Event()

    async def edit(self: Any, interaction: Any, encounter: Any) -> None:
        started.set()
        await asyncio.sleep(0.01)
        drawn.append(encounter.version)

    monkeypatch.setattr(publish._ChannelTracker, "_edit", edit)
    tracker = publish._ChannelTracker(1)
    newer = asyncio.create_task(tracker.show(object(), SimpleNamespace(id=5, version=8)))  # type: ignore[arg-type]
    await started.wait()
    older = asyncio.create_task(tracker.show(object(), SimpleNamespace(id=5, version=7)))  # type: ignore[arg-type]
    await asyncio.wait_for(asyncio.gather(newer, older), 2)
    assert drawn == [8]
    await tracker.show(object(), SimpleNamespace(id=5, version=9))  # type: ignore[arg-type]
    assert drawn == [8, 9]
