"""Grievous when things go wrong around it: a restart mid-encounter, a gateway drop mid-burst, many channels
at once, and users' mistakes. The real GrievousBot on a SQLite file, through the loopback Discord emulator; the
`table` fixture fails a test on any refusal Discord would have made, any interaction not answered exactly once,
and any error the bot logged.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from emulator import Channel, InteractionHandle, Message, Refusal

KILL_BLOW = {"target": "Bandit 1", "weapon": "Broadsword", "aspect": "edge", "aim": "mid", "modifier": 8,
             "dice": "attack=9 defense=2 location=50 defender_kill=2 defender_shock=8"}


async def ars_table(table: Any, *npcs: str) -> None:
    """ars-harn: Alice's Bjorn, Bob's Brun and bandits in an encounter in #combat."""
    await table.setup("ars-harn")
    await table.run("character create", {"name": "Bjorn", "stats": "str=2 sta=1 dex=1 qik=1 abilities.Sword=5",
                                         "weapons": "Broadsword", "armour": "Leather Cap"}, user=table.alice)
    await table.run("character create", {"name": "Brun", "stats": "str=1 sta=1 dex=1 qik=0 abilities.Club=4",
                                         "weapons": "Mace"}, user=table.bob)
    await table.run("encounter start")
    await table.run("encounter add", {"character": "Bjorn"}, user=table.alice)
    await table.run("encounter add", {"character": "Brun"}, user=table.bob)
    for prefix in npcs:
        await table.run("encounter npcs", {"template": "bandit", "count": 2, "name_prefix": prefix})


async def count_events(table: Any, kind: str, channel: Channel | None = None) -> int:
    return int(await table.count_rows("SELECT count(*) FROM events WHERE kind = :kind AND channel_id = :channel",
                                      kind=kind, channel=(channel or table.combat).id))


async def test_a_restart_mid_encounter_keeps_the_state_and_the_gm_buttons(table: Any) -> None:
    await ars_table(table, "Bandit")
    tracker = await table.tracker()
    kill = await table.run("attack", KILL_BLOW, user=table.alice)
    kill_details = await table.details(kill)
    assert "**K5**" in table.value(kill_details, "Injury") and len(table.buttons(kill)) == 2
    await table.wait_tracker(lambda t: "1 wound" in t)
    first_process = table.bot

    # A new process, built as `grievous run` builds it, on the same database file; it does not sync.
    await table.stop()
    assert first_process.is_closed() and not table.emu.connected
    await table.start(from_url=True, sync=False)
    assert table.bot is not first_process and table.emu.identify_count == 2

    status = await table.run("encounter status", user=table.bob)
    shown = table.text(status)
    assert status.ephemeral and "Round 1" in shown
    assert "Bjorn" in shown and "Brun" in shown and "Bandit 1" in shown and "1 wound" in shown
    injuries = await table.run("injuries", {"character": "Bandit 1"})
    assert "Thorax: **K5**" in table.text(injuries) and "awaiting GM decision" in table.text(injuries)

    # The button the first process posted is handled by the second, and the pinned tracker is still edited.
    pressed = await table.emu.click(kill, table.buttons(kill)[0], user=table.gm)
    [result] = await pressed.followups()
    assert "**Bandit 1** dies." in table.text(result)
    await table.emu.wait_until(lambda: not table.buttons(kill) or None, what="the buttons to go")
    assert (await table.wait_tracker(lambda t: "dead" in t)).id == tracker.id

    after = await table.run("attack", {"target": "Bandit 2", "dice": "attack=5 defense=3 location=85 defender_shock=8 "
                                                                     "stumble=8"}, user=table.alice)
    assert "Bjorn attacks Bandit 2" in table.text(after)
    log = table.text(await table.run("log", {"limit": 25}))
    assert "Bjorn attacks Bandit 1" in log and "The GM decides: **Bandit 1**" in log
    assert "Bjorn attacks Bandit 2" in log
    assert len(table.emu.pins(table.combat)) == 1


async def test_a_gateway_drop_in_a_burst_loses_nothing_and_answers_each_once(table: Any) -> None:
    await ars_table(table, "Bandit")
    rolls_before, attacks_before = await count_events(table, "roll"), await count_events(table, "attack")
    handles: list[InteractionHandle] = []

    async def wave(size: int) -> None:
        for n in range(size):
            if n % 2:
                handles.append(await table.send("roll", {"expression": "3d6+2", "dice": "1,2,3"},
                                                user=table.bob if n % 4 == 1 else table.alice))
            else:  # Bandit 1 swings at Bjorn and misses, every time
                handles.append(await table.send("attack", {"target": "Bjorn", "attacker": "Bandit 1",
                                                           "aspect": "edge", "dice": "attack=2 defense=8"}))

    await wave(10)
    async with table.emu.disconnected():
        await wave(10)  # queued while the bot is away, replayed on RESUME
        await asyncio.sleep(0.05)
        assert not table.emu.connected and all(h.delivered == 0 for h in handles[10:])
    await wave(10)

    answers = await asyncio.gather(*(h.message(15.0) for h in handles))
    assert table.emu.resume_count == 1 and table.emu.identify_count == 1
    assert all(h.delivered == 1 and h.callback_count == 1 for h in handles)
    assert all(not m.ephemeral for m in answers), [m.content for m in answers if m.ephemeral]
    rolls = [m for m in answers if m.embeds and "3d6+2" in table.text(m)]
    assert len(rolls) == 15 and all("**8**" in table.text(m) for m in rolls)
    assert sum("Bandit 1 attacks Bjorn" in table.text(m) for m in answers) == 15
    assert await count_events(table, "roll") - rolls_before == 15
    assert await count_events(table, "attack") - attacks_before == 15
    log = table.text(await table.run("log", {"limit": 25}))
    assert log.count("Bandit 1 attacks Bjorn") + log.count("3d6+2") == 25


CHANNELS = 12


async def test_many_channels_each_with_its_own_encounter(table: Any) -> None:
    await table.setup("ars-harn")
    channels = [table.emu.add_channel(table.world.guild, f"fight-{n}") for n in range(CHANNELS)]
    await table.emu.wait_until(lambda: all(table.bot.get_channel(c.id) for c in channels) or None,
                               what="the bot to see the new channels")

    async def open_fight(n: int, channel: Channel) -> None:
        await table.run("encounter start", channel=channel)
        await table.run("encounter npcs", {"template": "bandit", "count": 2, "name_prefix": f"C{n} Bandit"},
                        channel=channel)

    await asyncio.gather(*(open_fight(n, c) for n, c in enumerate(channels)))

    # Everyone attacks at once: in each channel a hit (thorax or abdomen by channel) then a miss.
    locations = {n: ("thorax", 50) if n % 2 else ("abdomen", 65) for n in range(CHANNELS)}
    handles: list[tuple[int, InteractionHandle]] = []
    for n, channel in enumerate(channels):
        hit = (f"attack=9 defense=2 location={locations[n][1]} "
               "defender_shock=9 defender_kill=9 defender_fumble=9 defender_stumble=9")
        for dice in (hit, "attack=2 defense=9"):
            handles.append((n, await table.send("attack", {"target": f"C{n} Bandit 2", "attacker": f"C{n} Bandit 1",
                                                           "aspect": "edge", "dice": dice}, channel=channel)))
    answers: list[Message] = await asyncio.gather(*(h.message(15.0) for _, h in handles))
    for (n, _), answer in zip(handles, answers, strict=True):
        assert answer.channel_id == channels[n].id and f"C{n} Bandit 1 attacks C{n} Bandit 2" in table.text(answer)

    trackers = set()
    for n, channel in enumerate(channels):
        injuries = table.text(await table.run("injuries", {"character": f"C{n} Bandit 2"}, channel=channel))
        assert "Wounds (1)" in injuries and locations[n][0].title() in injuries, injuries
        tracker = await table.wait_tracker(lambda t, n=n: f"C{n} Bandit 2" in t and "1 wound" in t, channel)
        assert f"C{(n + 1) % CHANNELS} Bandit" not in table.text(tracker)
        trackers.add(tracker.id)
        assert await count_events(table, "attack", channel) == 2
    assert len(trackers) == CHANNELS
    assert await table.count_rows("SELECT count(*) FROM encounters WHERE active") == CHANNELS


async def test_mistakes_are_one_private_line_and_change_nothing(table: Any) -> None:
    await ars_table(table, "Bandit")
    kill = await table.run("attack", KILL_BLOW, user=table.alice)
    events = await table.count_rows("SELECT count(*) FROM events")

    # A player presses the GM's button: one private line, the decision still waits.
    before = len(table.public())
    pressed = await table.emu.click(kill, table.buttons(kill)[0], user=table.bob)
    assert "GM" in await table.private_line(pressed, table.combat, before)
    assert len(table.buttons(kill)) == 2
    assert await table.count_rows("SELECT count(*) FROM pending_decisions WHERE choice IS NULL") == 1

    # Attacking with someone else's character, or for an NPC.
    line = await table.line("attack", {"target": "Bandit 2", "attacker": "Brun"}, user=table.alice)
    assert "Brun is not yours" in line
    assert "NPC" in await table.line("attack", {"target": "Bjorn", "attacker": "Bandit 2"}, user=table.bob)
    # Dice text the bot cannot read, and a label the system does not have.
    assert "dice: cannot read" in await table.line("attack", {"target": "Bandit 2", "dice": "attack=seven"},
                                                   user=table.alice)
    assert "unknown label 'zap'" in await table.line("attack", {"target": "Bandit 2", "dice": "zap=3"},
                                                     user=table.alice)
    # Unknown target and weapon; GM-only commands from a player; attacking outside an encounter.
    assert "not in this encounter" in await table.line("attack", {"target": "Nobody"}, user=table.alice)
    assert "no weapon 'Axe'" in await table.line("attack", {"target": "Bandit 2", "weapon": "Axe"},
                                                 user=table.alice)
    for command in ("undo", "encounter end", "encounter initiative"):
        assert "GM" in await table.line(command, user=table.bob), command
    outside = await table.line("attack", {"target": "Bandit 2"}, user=table.alice, channel=table.world.general)
    assert "no encounter in this channel" in outside

    assert await table.count_rows("SELECT count(*) FROM events") == events
    assert await table.count_rows("SELECT count(*) FROM pending_decisions WHERE choice IS NULL") == 1
    # The GM still can.
    pressed = await table.emu.click(kill, table.buttons(kill)[1], user=table.gm)
    [result] = await pressed.followups()
    assert "is **incapacitated**" in table.text(result)


async def test_long_names_and_a_crowded_encounter_stay_within_discord_limits(table: Any) -> None:
    """The longest names Discord lets through, 20 NPCs and a full log: every embed must still be accepted."""
    await table.setup("ars-harn")
    hero = "Sir " + "Bjorn" * 15  # 79 characters (the engines allow 80)
    await table.run("character create", {"name": hero, "stats": "str=2 sta=1 dex=1 qik=1 abilities.Sword=5",
                                         "weapons": "Broadsword"}, user=table.alice)
    await table.run("encounter start")
    await table.run("encounter add", {"character": hero}, user=table.alice)
    prefix = "Bandit of the " + "Long" * 11 + "er"  # 60, the most name_prefix takes
    await table.run("encounter npcs", {"template": "bandit", "count": 20, "name_prefix": prefix})
    for n in range(1, 13):
        answer = await table.run("attack", {"target": f"{prefix} {n}", "attacker": hero, "aspect": "edge",
                                            "dice": f"attack=9 defense=2 location={40 + n} "
                                                    "defender_shock=9 defender_kill=9 defender_fumble=9"})
        assert answer.embeds and not answer.ephemeral
    await table.run("encounter initiative")
    for command, options in (("log", {"limit": 25}), ("encounter status", {}),
                             ("injuries", {"character": f"{prefix} 1"}), ("character show", {"name": hero})):
        shown = await table.run(command, options)
        assert shown.embeds, command
    await table.wait_tracker(lambda t: f"{prefix} 20" in t or "more" in t)
    assert table.emu.refusals == []


async def test_the_safety_net_catches_what_discord_would_refuse(table: Any) -> None:
    """`check_clean`, which every test's teardown runs, fails on a refusal and on an unanswered interaction."""
    table.emu.refusals.append(Refusal("POST", "/interactions/1/x/callback", 400, 50035, "Invalid Form Body"))
    with pytest.raises(AssertionError, match="Invalid Form Body"):
        table.check_clean()
    table.emu.clear_refusals()
    async with table.emu.disconnected(wait_reconnected=False):
        pending = await table.send("help")
        with pytest.raises(AssertionError, match="not answered exactly once"):
            table.check_clean()
    await table.emu.wait_connected()
    await pending.message()
    table.check_clean()
