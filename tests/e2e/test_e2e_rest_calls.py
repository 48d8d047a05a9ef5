"""The REST calls one command makes, counted at the emulator (issue 23: what an attack costs beside the no-op).

Each call is a request the bot process builds, sends, waits on and reads; the floor for an action is its answer
and, when the encounter's tracker shows something new, one edit of it."""

from __future__ import annotations

from typing import Any

import pytest

from emulator import Message
from tests.e2e.conftest import embed_text

ANSWER = "POST /interactions/{interaction_id}/{token}/callback"
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
FOLLOWUP = "POST /webhooks/{application_id}/{token}"
BJORN = {"name": "Bjorn", "stats": "str=2 sta=1 dex=1 qik=1 abilities.Sword=5", "weapons": "Broadsword"}
BLOW = {"target": "Bandit 1", "weapon": "Broadsword", "aspect": "edge", "aim": "high"}
MISS = "attack=2 defense=9"
HIT = "attack=9 defense=3 location=12"

# Each runs again with realistic latency (50 ms REST, 40 ms gateway) and Discord's buckets: [realistic].
pytestmark = pytest.mark.latency


async def idle(table: Any) -> None:
    """Nothing of the last command still under way (its flight ends after its tracker edit)."""
    await table.emu.wait_until(lambda: not table.bot.flights.active or None, 10.0, "the bot to be idle")
    await table.trackers_idle()


async def counted(table: Any, command: str, options: dict[str, Any], **kw: Any) -> tuple[Message, list[str]]:
    """Run the command: its answer, and every REST call it made (its tracker edit and the rest included)."""
    await idle(table)
    start = len(table.emu.requests)
    message = await table.run(command, options, **kw)
    await idle(table)
    return message, table.emu.requests[start:]


async def fight(table: Any, *, gm_rolls: bool = False) -> None:
    await table.setup("ars-harn")
    if gm_rolls:
        await table.run("setup rolls", {"mode": "gm"}, user=table.manager)
    await table.run("character create", BJORN, user=table.alice)
    await table.run("encounter start")
    await table.run("encounter npcs", {"template": "bandit", "count": 1})
    await table.run("encounter add", {"character": "Bjorn"}, user=table.alice)


async def test_an_attack_that_changes_nothing_on_the_tracker_leaves_it_alone(table: Any) -> None:
    await fight(table)
    _, first = await counted(table, "attack", {**BLOW, "dice": MISS}, user=table.alice)
    assert first == [ANSWER, EDIT], first  # the attacker's declaration shows on the tracker
    shown = embed_text(await table.tracker())
    missed, again = await counted(table, "attack", {**BLOW, "dice": MISS}, user=table.alice)
    assert "miss" in embed_text(missed).lower()
    assert embed_text(await table.tracker()) == shown
    assert again == [ANSWER], again  # nothing new to show: no edit
    _, hit = await counted(table, "attack", {**BLOW, "dice": HIT}, user=table.alice)
    assert hit == [ANSWER, EDIT], hit
    assert "1 wound" in embed_text(await table.tracker())



async def pressed(table: Any, message: Message, suffix: str, typed: str | None = None) -> tuple[Message, list[str]]:
    """The GM presses the button of ``message`` ending in ``suffix`` (typing ``typed`` in its form): the result
    posted, and every REST call from the press on (the form's own answer included)."""
    await idle(table)
    start = len(table.emu.requests)
    [button] = [b for b in table.buttons(message) if b.endswith(suffix)]
    handle = await table.emu.click(message, button, user=table.gm)
    if typed is not None:
        handle = await table.emu.submit_modal(handle, {"value": typed}, user=table.gm)
    assert (await handle.response()).type == 7  # the answer is the edit of the pressed message
    [result] = await handle.followups()
    await idle(table)
    return result, table.emu.requests[start:]


async def test_a_gm_press_is_answered_by_the_edit_of_its_message(table: Any) -> None:
    await fight(table, gm_rolls=True)
    hit = await table.run("attack", {**BLOW, "dice": HIT}, user=table.alice)
    shock, calls = await pressed(table, hit, ":roll")
    assert "rolls for shock" in shock.embeds[0]["title"]
    assert not table.buttons(hit) and "The GM decided" in embed_text(hit)
    # one callback takes the buttons off (not a defer, then an edit of @original); the result; the tracker
    assert calls == [ANSWER, FOLLOWUP, EDIT], calls
