"""Every interaction answered (or deferred) within Discord's 3 s of its creation and before any other REST
call: the handlers the issue-21 audit found doing slow work first. Each test failed before its fix: the
emulator refuses a late first response (404/10062), which fails the test at teardown.

- the Details button read the event with no defer budget;
- the Dice button waited on the GM check however long the database took (a form cannot be deferred);
- /character show, /injuries (one or the party) and /odds drew their picture after the defer budget;
- /setup system sent the server's commands (a REST write) before it answered;
- /setup show and /setup check read one thing after another: now side by side.
"""

from __future__ import annotations

import asyncio
import sys
import time
from typing import Any

import pytest

from bot.ui import diagram
from emulator import Message
from tests.e2e.slow_support import slow_reads

SLOW = 3.5  # seconds: past Discord's 3
WAITING = "\u23f3 Waiting for the GM"
SHOCK = {"target": "Bandit 1", "weapon": "Broadsword", "aspect": "edge", "aim": "high",
         "dice": "attack=9 defense=3 location=12"}


async def a_blow(table: Any, *, rolls: str = "auto") -> Message:
    """ars-harn: Bjorn wounds Bandit 1 (with ``rolls`` gm, its shock roll waits for the GM's buttons)."""
    await table.bjorn_against_bandits(settings={"setup rolls": {"mode": "gm"}} if rolls == "gm" else None)
    hit = await table.run("attack", SHOCK, user=table.alice)
    await table.trackers_idle()
    return hit


async def test_the_details_button_answers_in_time_on_a_slow_database(table: Any) -> None:
    hit = await a_blow(table)
    restore = slow_reads(table, SLOW)
    try:
        shown = await table.details(hit)  # deferred (privately) in time, then the embed of every die
    finally:
        restore()
    assert "Bandit 1" in table.text(shown)


async def test_the_dice_button_opens_its_form_in_time_on_a_slow_database(table: Any) -> None:
    hit = await a_blow(table, rolls="gm")
    assert f"{WAITING}: Bandit 1's shock roll" in table.text(hit)
    [dice] = [b for b in table.buttons(hit) if b.endswith(":dice")]
    restore = slow_reads(table, SLOW)
    try:
        by_gm = await table.emu.click(hit, dice, user=table.gm)
        await by_gm.modal()
        # past the budget the form opens unchecked; its submit is checked: a player's is refused
        by_alice = await table.emu.click(hit, dice, user=table.alice)
        await by_alice.modal()
    finally:
        restore()
    refused = await table.emu.submit_modal(by_alice, {"value": "9"}, user=table.alice)
    assert (await refused.response()).type == 4 and "Only the GM" in (await refused.message()).content
    submitted = await table.emu.submit_modal(by_gm, {"value": "9"}, user=table.gm)
    assert (await submitted.response()).type == 7  # decided in time: the answer updates the message
    [result] = await submitted.followups()
    assert "rolls for shock" in result.embeds[0]["title"]


@pytest.mark.parametrize(("command", "options"), [
    ("character show", {"name": "Bandit 1"}),
    ("injuries", {"character": "Bandit 1"}),
    ("injuries", {"party": True}),
    ("odds", {"target": "Bandit 1", "attacker": "Bjorn", "weapon": "Broadsword", "aspect": "edge"}),
])
async def test_a_slow_drawing_is_answered_in_time(table: Any, monkeypatch: pytest.MonkeyPatch, command: str,
                                                  options: dict[str, Any]) -> None:
    await a_blow(table)  # the party view draws the player characters: Bjorn

    def slowly(draw: Any) -> Any:
        def drawn(*args: Any, **kwargs: Any) -> Any:
            time.sleep(SLOW)  # in the drawing's own thread, as a busy thread pool would hold it
            return draw(*args, **kwargs)
        return drawn

    monkeypatch.setattr(diagram, "render", slowly(diagram.render))
    monkeypatch.setattr(diagram, "party", slowly(diagram.party))
    odds_cog = sys.modules["bot.cogs.odds"]  # as the bot loaded it (discord.py loads an extension anew)
    monkeypatch.setattr(odds_cog, "odds_chart", slowly(odds_cog.odds_chart))
    handle = await table.send(command, options, user=table.gm)
    shown = await handle.message(within=2 * SLOW)
    assert shown.embeds and not shown.content.startswith("\u26a0"), shown
    assert (await handle.response()).type == 5  # "thinking" in time, then the answer


async def test_setup_system_answers_before_it_sends_the_servers_commands(table: Any) -> None:
    before = len(table.emu.command_writes)
    handle = await table.send("setup system", {"system": "pendragon"}, user=table.manager)
    answer = await handle.message()
    assert "Done" in table.text(answer)
    writes = [w for w in table.emu.command_writes[before:] if w.guild_id == table.world.guild.id]
    assert writes, "the server's commands were not sent"
    first = await handle.response()
    assert first.at < writes[0].at, "the server's commands were sent before the interaction was answered"


async def test_setup_show_and_check_read_side_by_side(table: Any) -> None:
    """Under the latency of a real connection, each answers in time, its independent reads running at once."""
    await table.setup("ars-harn")
    runner = table.bot.services.runtime.transactions
    read = runner.read
    running, most = 0, 0

    async def counted(work: Any) -> Any:
        nonlocal running, most
        running += 1
        most = max(most, running)
        try:
            await asyncio.sleep(0.2)
            return await read(work)
        finally:
            running -= 1

    runner.read = counted
    table.emu.rest_latency, table.emu.gateway_latency = 0.05, 0.04  # a real connection, one way
    try:
        for command in ("setup show", "setup check"):
            most = 0
            shown = await table.run(command, user=table.manager)
            assert shown.ephemeral and shown.embeds
            assert most == 2, f"/{command} read one thing after another ({most} at once)"
        # the answer is seen here 50 ms before the bot hears it was taken: let that arrive
        await table.emu.wait_until(lambda: not table.bot.flights.active or None, what="the answers to land")
    finally:
        runner.read = read
        table.emu.rest_latency = table.emu.gateway_latency = 0.0
