"""An action that was stored is never invisible: when its answer cannot reach the user, the bot posts the
result in the channel as a normal message, marked late, exactly once; so nobody sends it again.

- Killed between commit and answer (the emulator holds the interaction callback, then SIGKILL): the
  restarted `grievous run` posts each stored attack and /undo late, once, and nothing is left unanswered.
- A 429 on the callback whose retry_after outlasts Discord's 3 s: the answer fails with 10062, and the
  running bot posts the attack late in the channel at once.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from sqlalchemy import text

from bot.db.engine import Database
from bot.ui import late_embeds
from emulator import Channel, Emulator, Message, profiles
from emulator.harness import running_emulator
from emulator.testing import World, build_world
from tests.e2e.process_support import (
    DEADLINE,
    answered,
    attack_rows,
    grievous,
    message_text,
    problems_in_log,
    raid,
    run,
    seat_ars_harn,
    settled,
    unanswered_events,
)

HIT = "attack=9 defense=2 location=50 defender_shock=9 defender_kill=9 defender_fumble=9 defender_stumble=9"


async def prepare(emu: Emulator, world: World) -> None:
    await seat_ars_harn(emu, world.manager, world.gm_role, world.combat)
    await raid(emu, world.gm, world.combat, raider="Raider", bandit="Bandit", bandits=3)


def attack(i: int) -> dict[str, object]:
    return {"target": f"Bandit {i}", "attacker": "Raider 1", "aspect": "edge", "dice": HIT}


def late_posts(emu: Emulator, channel: Channel, text: str) -> list[Message]:
    return [m for m in emu.messages(channel, include_ephemeral=False)
            if late_embeds.LATE in message_text(m) and text in message_text(m)]


def shown(emu: Emulator, channel: Channel, text: str) -> list[Message]:
    return [m for m in emu.messages(channel, include_ephemeral=False) if text in message_text(m)]


async def events_stored(db_url: str, guild: int, target: str) -> int:
    events, _wounds = await attack_rows(db_url)
    return events[(guild, target)]


async def stored(db_url: str, guild: int, target: str) -> None:
    """Waits (up to DEADLINE) until an attack on `target` is stored: its answer may be held, not its commit."""
    for _ in range(int(DEADLINE / 0.1)):
        if await events_stored(db_url, guild, target):
            return
        await asyncio.sleep(0.1)


async def test_killed_between_commit_and_answer_the_restarted_bot_posts_the_attack_and_the_undo_late_once(
        empty_db_url: str, tmp_path: Path, discord_profile: str) -> None:
    async with running_emulator(**profiles.options(discord_profile), interaction_deadline=DEADLINE) as emu:
        world = build_world(emu)
        guild = world.guild.id
        bot = grievous(emu, empty_db_url, tmp_path, "grievous", sync=True)
        restarted = grievous(emu, empty_db_url, tmp_path, "grievous-restarted")
        try:
            await bot.start()
            await emu.wait_for_commands("attack", "encounter", guild=world.guild, within=DEADLINE)
            await prepare(emu, world)
            await run(emu, "attack", attack(1), user=world.gm, channel=world.combat)  # answered: what /undo takes

            # The next two answers never reach Discord: the attack on Bandit 2, then the /undo.
            emu.callback_faults = ["hold", "hold"]
            held = await emu.slash("attack", attack(2), user=world.gm, channel=world.combat)
            await stored(empty_db_url, guild, "Bandit 2")
            undo = await emu.slash("undo", {}, user=world.gm, channel=world.combat)
            await emu.wait_until(lambda: not emu.callback_faults, DEADLINE, "the /undo's answer held")
            await settled(empty_db_url, 2)  # its transaction commits before the answer is tried
            bot.kill()
            assert await bot.wait() == -9
            assert not answered(held) and not answered(undo)
            assert await events_stored(empty_db_url, guild, "Bandit 2") == 1
            assert await unanswered_events(empty_db_url) == 2, "the attack and the undo: stored, not answered"
            assert late_posts(emu, world.combat, "Raider 1 attacks Bandit 2") == []

            await restarted.start()
            await emu.wait_until(lambda: late_posts(emu, world.combat, "Raider 1 attacks Bandit 2")
                                 and late_posts(emu, world.combat, "takes back an action"), DEADLINE, "late posts")
            assert await settled(empty_db_url) == 0
            await asyncio.sleep(0.5)  # a repeat, if there were one, would come now
            assert len(shown(emu, world.combat, "Raider 1 attacks Bandit 2")) == 1
            assert len(late_posts(emu, world.combat, "takes back an action")) == 1
            assert len(shown(emu, world.combat, "Raider 1 attacks Bandit 1")) == 1  # answered: not again
            [post] = late_posts(emu, world.combat, "Raider 1 attacks Bandit 2")
            assert "do not send it again" in message_text(post)
            assert any(c.startswith("grv:details:") for c in post.custom_ids)
            await restarted.stop()
            assert problems_in_log(restarted.log()) == []
            assert emu.internal_errors == []
        finally:
            bot.kill()
            restarted.kill()


async def test_a_429_on_the_answer_past_the_deadline_posts_the_attack_late_at_once(
        empty_db_url: str, tmp_path: Path, discord_profile: str) -> None:
    async with running_emulator(**profiles.options(discord_profile), interaction_deadline=3.0) as emu:
        world = build_world(emu)
        bot = grievous(emu, empty_db_url, tmp_path, "grievous", sync=True)
        try:
            await bot.start()
            await emu.wait_for_commands("attack", "encounter", guild=world.guild, within=DEADLINE)
            await prepare(emu, world)
            emu.callback_retry_after = 3.5  # discord.py waits this long and tries again: Discord's 3 s are gone
            emu.callback_faults = ["429"]
            refused = await emu.slash("attack", attack(3), user=world.gm, channel=world.combat)
            await emu.wait_until(lambda: late_posts(emu, world.combat, "Raider 1 attacks Bandit 3"), DEADLINE,
                                 "the late post")
            assert not answered(refused)
            assert await settled(empty_db_url) == 0
            assert len(shown(emu, world.combat, "Raider 1 attacks Bandit 3")) == 1
            assert await events_stored(empty_db_url, world.guild.id, "Bandit 3") == 1
            await bot.stop()
            assert "posted late" in bot.log()
            assert problems_in_log(bot.log()) == []
        finally:
            bot.kill()


KILL_BLOW = {"target": "Keeper 1", "weapon": "Broadsword", "aspect": "edge", "aim": "mid", "modifier": 8,
             "dice": "attack=9 defense=2 location=50 defender_kill=2 defender_shock=8"}


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def test_a_late_post_after_a_restart_carries_the_gm_buttons_and_a_press_resolves_it(
        empty_db_url: str, tmp_path: Path) -> None:
    """Killed between commit and answer on an attack whose kill roll awaits the GM: the restarted bot's late
    post has the GM's buttons (and Details), the new process routes a press, and it settles the decision."""
    async with running_emulator(interaction_deadline=DEADLINE) as emu:
        world = build_world(emu)
        bot = grievous(emu, empty_db_url, tmp_path, "grievous", sync=True)
        restarted = grievous(emu, empty_db_url, tmp_path, "grievous-restarted")
        try:
            await bot.start()
            await emu.wait_for_commands("attack", "encounter", guild=world.guild, within=DEADLINE)
            await prepare(emu, world)
            await run(emu, "character create", {"name": "Bjorn", "stats": "str=2 sta=1 dex=1 qik=1 abilities.Sword=5",
                                                "weapons": "Broadsword"}, user=world.alice, channel=world.combat)
            await run(emu, "encounter add", {"character": "Bjorn"}, user=world.alice, channel=world.combat)
            await run(emu, "encounter npcs", {"template": "bandit", "count": 1, "name_prefix": "Keeper"},
                      user=world.gm, channel=world.combat)
            assert await settled(empty_db_url) == 0  # the answers so far marked

            emu.callback_faults = ["hold"]
            held = await emu.slash("attack", KILL_BLOW, user=world.alice, channel=world.combat)
            await emu.wait_until(lambda: not emu.callback_faults, DEADLINE, "the attack's answer held")
            await stored(empty_db_url, world.guild.id, "Keeper 1")
            bot.kill()
            assert await bot.wait() == -9
            assert not answered(held)
            assert await unanswered_events(empty_db_url) == 1

            await restarted.start()
            await emu.wait_until(lambda: late_posts(emu, world.combat, "Bjorn attacks Keeper 1"), DEADLINE,
                                 "the late post")
            [post] = late_posts(emu, world.combat, "Bjorn attacks Keeper 1")
            gm_buttons = sorted(c for c in post.custom_ids if c.startswith("grv:gm:"))
            assert [b.rsplit(":", 1)[1] for b in gm_buttons] == ["death", "incapacitation"], post.custom_ids
            assert any(c.startswith("grv:details:") for c in post.custom_ids)
            assert await settled(empty_db_url) == 0

            [death] = [b for b in gm_buttons if b.endswith(":death")]
            pressed = await emu.click(post, death, user=world.gm)
            [result] = await pressed.followups(within=DEADLINE)
            assert "dies" in message_text(result)
            def now() -> Message:
                return emu.state.message(world.combat.id, post.id)

            await emu.wait_until(lambda: not any(c.startswith("grv:gm:") for c in now().custom_ids), DEADLINE,
                                 "the GM's buttons taken off the late post")
            assert any(c.startswith("grv:details:") for c in now().custom_ids)
            assert "The GM decided" not in message_text(now())  # said once, by the result below (issue 34, N14)
            await restarted.stop()
            assert problems_in_log(restarted.log()) == []
            assert emu.internal_errors == []
        finally:
            bot.kill()
            restarted.kill()


async def forget_marks(db_url: str, kind: str) -> int:
    """The state a crash between an answer (or a late post) and its mark leaves: the events shown, not marked."""
    database = Database.from_url(db_url)
    try:
        async with database.engine.begin() as connection:
            changed = await connection.execute(text("UPDATE events SET answered = false WHERE kind = :kind"),
                                               {"kind": kind})
            return int(changed.rowcount)
    finally:
        await database.dispose()


async def test_an_action_shown_but_not_marked_before_a_crash_is_not_posted_again(
        empty_db_url: str, tmp_path: Path) -> None:
    """Two /undo (no Details button to find them by): one answered, one posted late after a crash; then each
    mark lost, as a crash between a message and its mark leaves it. The next start finds both in the channel
    (the answer by its interaction, the late post by its event) and posts neither again."""
    async with running_emulator(interaction_deadline=DEADLINE) as emu:
        world = build_world(emu)
        bot = grievous(emu, empty_db_url, tmp_path, "grievous", sync=True)
        second = grievous(emu, empty_db_url, tmp_path, "grievous-second")
        third = grievous(emu, empty_db_url, tmp_path, "grievous-third")
        try:
            await bot.start()
            await emu.wait_for_commands("attack", "encounter", guild=world.guild, within=DEADLINE)
            await prepare(emu, world)
            await run(emu, "attack", attack(1), user=world.gm, channel=world.combat)
            await run(emu, "undo", {}, user=world.gm, channel=world.combat)  # answered
            await run(emu, "attack", attack(2), user=world.gm, channel=world.combat)
            assert await settled(empty_db_url) == 0
            emu.callback_faults = ["hold"]
            held = await emu.slash("undo", {}, user=world.gm, channel=world.combat)
            await emu.wait_until(lambda: not emu.callback_faults, DEADLINE, "the /undo's answer held")
            await settled(empty_db_url, 1)  # its transaction commits before the answer is tried
            bot.kill()
            assert await bot.wait() == -9
            assert not answered(held)

            await second.start()
            await emu.wait_until(lambda: late_posts(emu, world.combat, "takes back an action"), DEADLINE, "late post")
            assert await settled(empty_db_url) == 0
            await second.stop()
            assert len(shown(emu, world.combat, "Undone")) == 1  # the answer
            assert len(late_posts(emu, world.combat, "takes back an action")) == 1
            posted = len(emu.messages(world.combat, include_ephemeral=False))

            assert await forget_marks(empty_db_url, "undo") == 2
            await third.start()
            await emu.wait_until(lambda: "after the restart" in third.log(), DEADLINE, "the restart's look back")
            assert await settled(empty_db_url) == 0
            await asyncio.sleep(0.5)  # a repeat, if there were one, would come now
            assert len(emu.messages(world.combat, include_ephemeral=False)) == posted, "posted again"
            assert "0 posted late, 2 had been answered" in third.log()
            await third.stop()
            assert problems_in_log(third.log()) == []
        finally:
            bot.kill()
            second.kill()
            third.kill()
