"""Traffic the spec check (tests/spec/, on in every e2e test) had never seen the bot send (issue 37): autocomplete
answers at Discord's 25-choice limit, and the bot answering, pinning its tracker and posting late inside a
thread and a forum post. The bot uses no select menu. Each test passes only if Discord's spec accepts every
request and the emulator's every answer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.ui import late_embeds
from emulator import Channel, Emulator, Message, profiles
from emulator.harness import running_emulator
from emulator.models import GUILD_FORUM
from emulator.testing import build_world
from tests.e2e.process_support import DEADLINE, grievous, message_text, problems_in_log, raid, seat_ars_harn

HIT = "attack=9 defense=2 location=50 shock=9 kill=9 fumble=9 stumble=9"
STATS = "str=2 sta=1 dex=1 qik=1"


async def test_autocomplete_answers_at_most_25_choices_with_names_and_values_discord_takes(table: Any) -> None:
    await table.setup("ars-harn")
    for n in range(30):
        await table.run("character create", {"name": f"Hero {n:02d}", "stats": STATS}, user=table.alice)
    typing = await table.emu.autocomplete("character show", {"name": ""}, focused="name", user=table.alice,
                                          channel=table.combat)
    choices = await typing.choices()
    assert len(choices) == 25  # application-commands.mdx: at most 25 choices; the spec check holds the rest
    assert all(1 <= len(str(c["name"])) <= 100 and len(str(c["value"])) <= 100 for c in choices), choices
    narrowed = await table.emu.autocomplete("character show", {"name": "Hero 2"}, focused="name",
                                            user=table.alice, channel=table.combat)
    assert {c["name"] for c in await narrowed.choices()} >= {f"Hero 2{n}" for n in range(10)}
    weapons = await table.emu.autocomplete("character create", {"weapons": ""}, focused="weapons",
                                           user=table.alice, channel=table.combat)
    assert 0 < len(await weapons.choices()) <= 25
    table.check_clean()


def _late_posts(emu: Emulator, place: Channel, text: str) -> list[Message]:
    return [m for m in emu.messages(place, include_ephemeral=False)
            if late_embeds.LATE in message_text(m) and text in message_text(m)]


async def test_in_a_thread_and_a_forum_post_the_bot_answers_pins_its_tracker_and_posts_late(
        empty_db_url: str, tmp_path: Path, discord_profile: str) -> None:
    """The bot as `grievous run` runs it (its own process), so a late post's warning is its log's, as in
    test_e2e_late.py: a 429 on the answer whose retry_after outlasts Discord's 3 s posts the attack late, in the
    thread or the post it was typed in."""
    async with running_emulator(**profiles.options(discord_profile), interaction_deadline=3.0) as emu:
        world = build_world(emu)
        forum = emu.add_channel(world.guild, "scenes", type=GUILD_FORUM)
        places = [emu.add_thread(world.combat, "The ambush", owner=world.gm),
                  emu.add_thread(forum, "Session 3", owner=world.gm)]
        bot = grievous(emu, empty_db_url, tmp_path, "grievous", sync=True)
        try:
            await bot.start()
            await emu.wait_for_commands("attack", "encounter", guild=world.guild, within=DEADLINE)
            await seat_ars_harn(emu, world.manager, world.gm_role, world.combat)
            for n, place in enumerate(places, start=1):  # NPCs are numbered across the server: Raider n, Bandit n
                await raid(emu, world.gm, place, raider="Raider", bandit="Bandit", bandits=1)
                pinned = await emu.wait_until(lambda place=place, n=n: [m for m in emu.pins(place)
                                                                   if f"Bandit {n}" in message_text(m)] or None,
                                              DEADLINE, "the tracker pinned in the thread")
                assert len(pinned) == 1 and pinned[0].channel_id == place.id
                emu.callback_retry_after = 3.5
                emu.callback_faults = ["429"]
                await emu.slash("attack", {"target": f"Bandit {n}", "attacker": f"Raider {n}", "aspect": "edge",
                                           "dice": HIT}, user=world.gm, channel=place)
                await emu.wait_until(lambda place=place, n=n: _late_posts(emu, place, f"Raider {n} attacks Bandit {n}"),
                                     DEADLINE, "the late post in the thread")
            assert not emu.pins(world.combat) and not _late_posts(emu, world.combat, "attacks")
            await bot.stop()
            assert "posted late" in bot.log()
            assert problems_in_log(bot.log()) == []
        finally:
            bot.kill()
