"""Discord's deadline under its rate limits: every interaction is answered within 3 s of the press, before
any channel REST (issue 21, finding 2). The emulator has Discord's per-channel buckets on (5 message writes
per 5 s per channel, assumed), not the quick test windows; the tracker's edits wait on that bucket, the answers
must not. Each test runs again with realistic latency (`[realistic]`)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytestmark = [pytest.mark.discord_rates, pytest.mark.latency]
DEADLINE = 3.0


def answered_after(handle: Any) -> float:
    """Seconds from the press (the emulator's dispatch) to the first response Discord accepted."""
    assert handle.callback_count == 1, f"{handle.name} was not answered once"
    return float(handle.events[0].at - handle.created_at)


async def test_quick_npcs_in_a_busy_channel_are_each_answered_in_time_and_added_once(table: Any) -> None:
    await table.setup("ars-harn")
    await table.run("encounter start")
    handles = []
    for _ in range(7):  # the GM adds bandits one after another, as fast as the answers come
        handle = await table.send("encounter npcs", {"template": "bandit", "count": 1})
        await handle.message(within=10.0)
        handles.append(handle)
    late = [round(answered_after(h), 2) for h in handles if answered_after(h) > DEADLINE]
    assert not late, f"answered after Discord's deadline: {late}"
    assert await table.count_rows("SELECT count(*) FROM combatants") == 7  # each added exactly once
    assert table.emu.rate_limits.limited == [] or all("/channels/" in r for r in table.emu.rate_limits.limited)
    await table.wait_tracker(lambda t: "Bandit 7" in t, what="the tracker to catch up")


async def test_a_burst_of_turns_and_attacks_answers_every_one_in_time(table: Any) -> None:
    await table.setup("ars-harn")
    await table.run("encounter start")
    await table.run("encounter npcs", {"template": "bandit", "count": 3})
    sent = [await table.send("encounter next") for _ in range(6)]  # all at once, before any answer
    await asyncio.gather(*(h.message(within=15.0) for h in sent))
    late = [round(answered_after(h), 2) for h in sent if answered_after(h) > DEADLINE]
    assert not late, f"answered after Discord's deadline: {late}"


async def test_a_bot_stopped_right_after_an_answer_still_brings_the_tracker_up_to_date(table: Any) -> None:
    """The tracker's edit follows the answer, in the command's own handling: stopping the bot then (SIGTERM: drain,
    then close) lets it land, under latency too, instead of cutting it off mid-request."""
    await table.setup("ars-harn")
    await table.run("encounter start")
    await table.tracker()
    await table.run("encounter npcs", {"template": "bandit", "count": 1})
    await table.stop()
    [tracker] = table.emu.pins(table.combat)
    assert "Bandit 1" in table.text(tracker)
