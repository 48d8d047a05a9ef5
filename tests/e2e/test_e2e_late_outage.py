"""Answers that fail by the dozen while the bot keeps running: every stored action is posted late, once, in
its own channel, without waiting for a restart (bot/ui/late.py). The real GrievousBot in this process, on
SQLite and on PostgreSQL, through the emulator's gateway outage and its 429 on callbacks.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from random import Random

import pytest
from sqlalchemy import text

from bot.app import GrievousBot
from bot.db.engine import Database
from bot.services import Services
from bot.ui import late_embeds
from bot.ui.late import recover
from emulator import Channel, Emulator, InteractionHandle, Message, profiles
from emulator.harness import RunningBot, running_emulator, start_bot
from emulator.testing import World, build_world
from tests.e2e.process_support import (
    DEADLINE,
    answered,
    attack_rows,
    message_text,
    raid,
    run,
    seat_ars_harn,
    settled,
    unanswered_events,
)

pytestmark = pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])

HIT = "attack=9 defense=2 location=50 defender_shock=9 defender_kill=9 defender_fumble=9 defender_stumble=9"
CHANNELS = 4
PER_CHANNEL = 3


@dataclass
class Fight:
    emu: Emulator
    world: World
    channels: list[Channel]
    runner: RunningBot[GrievousBot]

    @property
    def bot(self) -> GrievousBot:
        return self.runner.client


@pytest.fixture
async def fight(empty_db_url: str, discord_profile: str) -> AsyncIterator[Fight]:
    """Four channels, each with an encounter: Raider 1 and Bandits 1-3."""
    async with running_emulator(**profiles.options(discord_profile), interaction_deadline=3.0) as emu:
        world = build_world(emu)
        database = Database.from_url(empty_db_url)
        counter = iter(range(10**9))
        services = Services(database, rng=lambda: Random(1_000_003 + next(counter)))
        client = GrievousBot(services=services, sync_commands=True)
        runner = await start_bot(emu, client)
        try:
            await emu.wait_for_commands("character", "setup")
            await seat_ars_harn(emu, world.manager, world.gm_role, world.combat)
            await emu.wait_for_commands("attack", "encounter", guild=world.guild, within=DEADLINE)
            channels = [world.combat] + [emu.add_channel(world.guild, f"fight-{n}") for n in range(1, CHANNELS)]
            for c, channel in enumerate(channels):
                await raid(emu, world.gm, channel, raider=f"Raider{c}", bandit=f"Bandit{c}", bandits=PER_CHANNEL)
            yield Fight(emu, world, channels, runner)
        finally:
            await client.drain()
            await runner.stop()
            await database.dispose()
        assert emu.unhandled == []


def attack(fight: Fight, channel: Channel, i: int) -> dict[str, object]:
    c = fight.channels.index(channel)
    return {"target": f"Bandit{c} {i}", "attacker": f"Raider{c} 1", "aspect": "edge", "dice": HIT}


async def send_attack(fight: Fight, channel: Channel, i: int) -> InteractionHandle:
    return await fight.emu.slash("attack", attack(fight, channel, i), user=fight.world.gm, channel=channel)


def blow(c: int, i: int) -> str:
    return f"Raider{c} 1 attacks Bandit{c} {i}"


def late_posts(emu: Emulator, channel: Channel) -> list[Message]:
    return [m for m in emu.messages(channel, include_ephemeral=False) if late_embeds.LATE in message_text(m)]


def shown(emu: Emulator, channel: Channel, text: str) -> list[Message]:
    return [m for m in emu.messages(channel, include_ephemeral=False) if text in message_text(m)]


async def all_posted(fight: Fight, handles: list[InteractionHandle], db_url: str) -> None:
    """Every attack shown once in its channel (its answer or its late post), and nothing left unanswered, while
    the bot keeps running; then no post comes twice."""
    emu = fight.emu

    def every_one_shown() -> bool:
        return all(shown(emu, channel, blow(c, i))
                   for c, channel in enumerate(fight.channels) for i in range(1, PER_CHANNEL + 1))

    await emu.wait_until(every_one_shown, DEADLINE, "every stored attack shown in its channel")
    assert await settled(db_url) == 0
    await asyncio.sleep(0.5)  # a repeat, if there were one, would come now
    for c, channel in enumerate(fight.channels):
        for i in range(1, PER_CHANNEL + 1):
            assert len(shown(emu, channel, blow(c, i))) == 1, (channel.name, i)
    late = sum(len(late_posts(emu, channel)) for channel in fight.channels)
    assert late == sum(not answered(h) for h in handles)


async def all_posted_in(fight: Fight, blows: list[str], db_url: str) -> None:
    """Each of ``blows`` shown once in the first channel, and nothing left unanswered."""
    emu, channel = fight.emu, fight.channels[0]
    await emu.wait_until(lambda: all(shown(emu, channel, b) for b in blows), DEADLINE, "the late posts")
    assert await settled(db_url) == 0
    await asyncio.sleep(0.5)  # a repeat, if there were one, would come now
    assert all(len(shown(emu, channel, b)) == 1 for b in blows)


async def test_a_gateway_outage_past_the_deadline_posts_every_stored_attack_late_while_running(
        fight: Fight, empty_db_url: str) -> None:
    """12 attacks, 3 in each of 4 channels, queued through a 4 s outage: each answer is too late (10062), each
    attack stored, and each posted late at once, not only one a channel."""
    emu = fight.emu
    handles: list[InteractionHandle] = []
    async with emu.disconnected():
        for i in range(1, PER_CHANNEL + 1):
            for channel in fight.channels:
                handles.append(await send_attack(fight, channel, i))
        await asyncio.sleep(3.5)  # Discord's 3 s run out while the bot is away
    await all_posted(fight, handles, empty_db_url)
    assert not any(answered(h) for h in handles)


async def test_429s_on_the_callbacks_and_a_gateway_drop_post_every_stored_attack_late_while_running(
        fight: Fight, empty_db_url: str) -> None:
    emu = fight.emu
    emu.callback_retry_after = 3.5  # discord.py waits this long and tries again: Discord's 3 s are gone
    emu.callback_faults = ["429"] * (CHANNELS * PER_CHANNEL // 2)
    handles: list[InteractionHandle] = []
    for channel in fight.channels:
        handles.append(await send_attack(fight, channel, 1))
    async with emu.disconnected():
        for i in range(2, PER_CHANNEL + 1):
            for channel in fight.channels:
                handles.append(await send_attack(fight, channel, i))
        await asyncio.sleep(3.5)
    await all_posted(fight, handles, empty_db_url)


async def test_a_429_on_the_answer_of_an_applied_attack_never_says_try_again(
        fight: Fight, empty_db_url: str) -> None:
    """Cloudflare's 429 on the callback (discord.py raises it at once): the attack was stored, so the player is
    told it was applied and posted, not to try again; the late post shows it once."""
    emu = fight.emu
    channel = fight.channels[0]
    emu.callback_faults = ["cloudflare"]
    handle = await send_attack(fight, channel, 1)
    line = message_text(await handle.message(DEADLINE))
    assert "try again" not in line.lower(), line
    assert "your action was applied" in line and "Do not send it again" in line
    await all_posted_in(fight, [blow(0, 1)], empty_db_url)

    emu.callback_faults = ["cloudflare"]  # a command that stores nothing: "try again" is right
    handle = await emu.slash("encounter status", {}, user=fight.world.gm, channel=channel)
    assert "try again" in message_text(await handle.message(DEADLINE))


async def forget_attack_marks(db_url: str) -> int:
    """The state a crash between each answer and its mark leaves: the attacks shown, neither marked nor their
    message ids written."""
    database = Database.from_url(db_url)
    try:
        async with database.engine.begin() as connection:
            changed = await connection.execute(text(
                "UPDATE events SET answered = false, message_id = NULL WHERE kind = 'attack'"))
            return int(changed.rowcount)
    finally:
        await database.dispose()


async def test_recovery_reads_the_whole_channel_from_each_event_on_and_posts_no_answer_again(
        fight: Fight, empty_db_url: str) -> None:
    """Two answered attacks 150 messages of table talk apart, both marks lost: the look back reads every page
    from the first event's own snowflake, finds both answers, and posts neither again (it read 100 messages)."""
    emu, channel = fight.emu, fight.channels[0]
    await run(emu, "attack", attack(fight, channel, 1), user=fight.world.gm, channel=channel)
    for n in range(150):
        emu.state.create_message(channel, fight.world.alice.user, {"content": f"table talk {n}"})
    await run(emu, "attack", attack(fight, channel, 2), user=fight.world.gm, channel=channel)
    await settled(empty_db_url)
    assert await forget_attack_marks(empty_db_url) == 2
    before = len(emu.messages(channel, include_ephemeral=False))
    assert await recover(fight.bot, datetime.now(UTC)) == 0
    assert await unanswered_events(empty_db_url) == 0
    assert len(emu.messages(channel, include_ephemeral=False)) == before
    assert late_posts(emu, channel) == []


async def attacks_on(db_url: str, target: str) -> int:
    events, _wounds = await attack_rows(db_url)
    return sum(n for (_guild, name), n in events.items() if name == target)


async def test_a_players_retry_of_an_applied_attack_is_one_line_and_a_real_second_attack_is_not_refused(
        fight: Fight, empty_db_url: str) -> None:
    """The attack's answer fails (Cloudflare's 429) and it is posted late; the player sends it again: one line
    saying when it was applied, no second wound. An attack whose answer the player saw, sent again, is a
    real second attack: stored."""
    emu, channel = fight.emu, fight.channels[0]
    emu.callback_faults = ["cloudflare"]
    await (await send_attack(fight, channel, 1)).message(DEADLINE)
    await all_posted_in(fight, [blow(0, 1)], empty_db_url)
    retry = await send_attack(fight, channel, 1)
    line = message_text(await retry.message(DEADLINE))
    assert retry.original is not None and retry.original.ephemeral
    assert re.fullmatch(r"\u26a0\ufe0f Your attack on Bandit0 1 was applied at <t:\d+:t>; see above\.", line), line
    assert await attacks_on(empty_db_url, "Bandit0 1") == 1
    assert len(shown(emu, channel, blow(0, 1))) == 1

    other = {**attack(fight, channel, 1), "aspect": "point"}  # another declaration: not a retry
    assert blow(0, 1) in message_text(await run(emu, "attack", other, user=fight.world.gm, channel=channel))
    assert await attacks_on(empty_db_url, "Bandit0 1") == 2

    for _ in range(2):  # answered and seen, then the same again: two blows
        assert blow(0, 2) in message_text(await run(emu, "attack", attack(fight, channel, 2), user=fight.world.gm,
                                                    channel=channel))
    assert await attacks_on(empty_db_url, "Bandit0 2") == 2


async def test_a_secret_npc_attack_posted_late_keeps_its_dice_from_the_table_and_gives_them_to_the_gm_channel(
        fight: Fight, empty_db_url: str) -> None:
    """Secret rolls on, with a GM channel: an NPC's attack whose answer failed is posted late in the channel
    without its dice (projected for the table), and its whole roll goes to the GM channel, as a live answer's."""
    emu, channel = fight.emu, fight.channels[0]
    screen = emu.add_channel(fight.world.guild, "gm-screen")
    await run(emu, "setup secret-rolls", {"on": True, "gm_channel": screen}, user=fight.world.manager, channel=channel)
    emu.callback_faults = ["cloudflare"]
    await (await send_attack(fight, channel, 1)).message(DEADLINE)
    await all_posted_in(fight, [blow(0, 1)], empty_db_url)
    [post] = late_posts(emu, channel)
    assert "Dice" not in message_text(post) and " vs " not in message_text(post), message_text(post)

    def gm_part() -> list[Message]:
        return [m for m in emu.messages(screen) if late_embeds.LATE in message_text(m)]

    await emu.wait_until(gm_part, DEADLINE, "the GM's part in the GM channel")
    await asyncio.sleep(0.3)
    [whole] = gm_part()
    assert blow(0, 1) in message_text(whole) and "Dice" in message_text(whole), message_text(whole)


async def test_a_secret_npc_attack_posted_late_without_a_gm_channel_gives_its_dice_to_the_owner_by_dm(
        fight: Fight, empty_db_url: str) -> None:
    """Secret rolls on, no GM channel: a live answer shows the GM who acted the NPC's dice privately; a late post
    answers nobody, so the whole roll goes to the server's owner by DM, and the channel's post holds no figure."""
    emu, channel = fight.emu, fight.channels[0]
    await run(emu, "setup secret-rolls", {"on": True}, user=fight.world.manager, channel=channel)
    emu.callback_faults = ["cloudflare"]
    await (await send_attack(fight, channel, 1)).message(DEADLINE)
    await all_posted_in(fight, [blow(0, 1)], empty_db_url)
    [post] = late_posts(emu, channel)
    assert "Dice" not in message_text(post) and " vs " not in message_text(post), message_text(post)

    dm = emu.state.dm_channel(emu.state.owner)
    await emu.wait_until(lambda: emu.state.history(dm) or None, DEADLINE, "the GM's part by DM to the owner")
    await asyncio.sleep(0.3)
    [whole] = emu.state.history(dm)
    text = message_text(whole)
    assert blow(0, 1) in text and "Dice" in text and late_embeds.LATE in text, text
    assert "has no GM channel" in whole.content and fight.world.guild.name in whole.content, whole.content
