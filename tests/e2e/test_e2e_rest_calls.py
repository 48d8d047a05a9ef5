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
READ = "GET /channels/{channel_id}/messages/{message_id}"
BLOW = {"target": "Bandit 1", "weapon": "Broadsword", "aspect": "edge", "aim": "high"}
MISS = "attack=2 defense=9"
HIT = "attack=9 defense=3 location=12"

# Each runs again with realistic latency (50 ms REST, 40 ms gateway) and Discord's buckets: [realistic].
pytestmark = pytest.mark.latency


async def counted(table: Any, command: str, options: dict[str, Any], **kw: Any) -> tuple[Message, list[str]]:
    """Run the command: its answer, and every REST call it made (its tracker edit and the rest included)."""
    await table.idle()
    start = len(table.emu.requests)
    message = await table.run(command, options, **kw)
    await table.idle()
    return message, table.emu.requests[start:]


async def fight(table: Any, *, gm_rolls: bool = False) -> None:
    await table.bjorn_against_bandits(settings={"setup rolls": {"mode": "gm"}} if gm_rolls else None)


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
    await table.idle()
    start = len(table.emu.requests)
    [button] = [b for b in table.buttons(message) if b.endswith(suffix)]
    handle = await table.emu.click(message, button, user=table.gm)
    if typed is not None:
        handle = await table.emu.submit_modal(handle, {"value": typed}, user=table.gm)
    assert (await handle.response()).type == 7  # the answer is the edit of the pressed message
    [result] = await handle.followups()
    await table.idle()
    return result, table.emu.requests[start:]


async def test_a_gm_press_is_answered_by_the_edit_of_its_message(table: Any) -> None:
    await fight(table, gm_rolls=True)
    hit = await table.run("attack", {**BLOW, "dice": HIT}, user=table.alice)
    await table.idle()
    before = embed_text(await table.tracker())
    shock, calls = await pressed(table, hit, ":roll")
    assert "rolls for shock" in shock.embeds[0]["title"]
    assert not table.buttons(hit) and "Waiting for the GM" not in embed_text(hit)
    # one callback takes the buttons off (not a defer, then an edit of @original); the result; the tracker, when
    # it shows something new (a roll owed is the hit's to say, not the tracker's: a passed shock changes nothing)
    changed = embed_text(await table.tracker()) != before
    assert calls == [ANSWER, FOLLOWUP, *([EDIT] if changed else [])], calls


@pytest.mark.parametrize("restarted", [False, True], ids=["remembered", "restarted"])
async def test_the_buttons_a_decision_made_moot_leave_without_a_read_of_their_message(table: Any,
                                                                                     restarted: bool) -> None:
    await fight(table, gm_rolls=True)
    hit = await table.run("attack", {**BLOW, "dice": HIT}, user=table.alice)
    assert sorted(table.buttons(hit)) == ["grv:gm:1:dice", "grv:gm:1:roll"]  # Bandit 1's shock roll
    kill = await table.run("attack", {**BLOW, "aim": "mid", "modifier": 8, "dice": "attack=9 defense=2 location=50"},
                           user=table.alice)
    assert sorted(table.buttons(kill)) == ["grv:gm:2:dice", "grv:gm:2:roll"]  # the kill roll
    if restarted:  # a new process knows nothing of what the last one sent: it reads the message first
        await table.idle()
        await table.stop()
        await table.start(seed=2, sync=False)
    failed, calls = await pressed(table, kill, "2:dice", "kill=2")
    assert sorted(table.buttons(failed)) == ["grv:gm:3:death", "grv:gm:3:incapacitation"]
    # the failed kill roll makes the first attack's shock roll moot: its buttons leave that message, and it
    # says so, from what the bot sent there (no GET of the message first)
    assert not table.buttons(hit) and "Details" in str(hit.components)
    assert "shock roll" in embed_text(hit) and "no longer" in embed_text(hit).lower(), embed_text(hit)
    # the form, the press, the result, the moot buttons off, the tracker
    assert calls == [ANSWER, ANSWER, FOLLOWUP, *([READ] if restarted else []), EDIT, EDIT], calls
