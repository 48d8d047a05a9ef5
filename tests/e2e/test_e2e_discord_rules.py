"""Discord's own rules, as strict in the emulator as on Discord (issue 21, docs/emulator.md), met by the bot:
pinning needs Pin Messages, embed-only posts need Embed Links, a refusal is told once and not asked again,
a GM decision does not show the hit picture twice, and threads and forum posts play like channels."""

from __future__ import annotations

from typing import Any

from emulator import permissions as perms
from emulator.permissions import Overwrite

NPCS = {"template": "bandit", "count": 1}


def lines_to(table: Any, handle: Any) -> list[str]:
    return [m.content for m in handle.followup_messages if m.ephemeral]


async def fighters(table: Any, channel: Any = None) -> None:
    await table.run("character create", {"name": "Bjorn", "stats": "str=2 sta=1 dex=1 qik=1 abilities.Sword=5",
                                         "weapons": "Broadsword"}, user=table.alice, channel=channel)
    await table.run("encounter start", channel=channel)
    await table.run("encounter npcs", NPCS, channel=channel)


async def test_with_only_the_documented_permissions_the_tracker_is_posted_and_pinned(table: Any) -> None:
    """The bot's role is what the README asks for (emulator DEFAULT_BOT), and @everyone gives nothing: the
    tracker is posted and pinned (Pin Messages, not Manage Messages, pins since 2026-02-23)."""
    table.world.guild.everyone.permissions = 0
    await table.setup("ars-harn")
    await fighters(table)
    await table.wait_tracker(lambda text: "Bandit 1" in text)
    table.check_clean()


async def test_without_pin_messages_the_gm_is_told_once_and_the_pin_is_not_retried(table: Any) -> None:
    """Manage Messages alone (the README's old advice) no longer pins: the GM is told in one line naming Pin
    Messages, once, and the bot does not ask Discord again."""
    bot_role = next(r for r in table.world.guild.roles.values() if r.managed)
    bot_role.permissions = (bot_role.permissions & ~perms.PIN_MESSAGES) | perms.MANAGE_MESSAGES
    await table.setup("ars-harn")
    start = await table.send("encounter start")
    await start.message()
    await table.emu.wait_until(lambda: start.followup_messages or None, what="the GM to be told")
    [told] = lines_to(table, start)
    assert "**Pin Messages**" in told and "\n" not in told
    assert not table.emu.pins(table.combat) and table.public()  # posted, not pinned
    await table.run("encounter end")
    again = await table.send("encounter start")
    await again.message()
    assert not lines_to(table, again)  # told once
    assert table.emu.refusals == []  # never asked: app_permissions said no
    table.check_clean()


async def test_without_embed_links_the_tracker_is_not_sent_and_the_gm_is_told(table: Any) -> None:
    """An embed-only channel message without Embed Links is refused by Discord; the bot does not try it, and
    says which permission is missing. Embed Links denied in the channel only."""
    bot_role = next(r for r in table.world.guild.roles.values() if r.managed)
    table.combat.overwrites.append(Overwrite(bot_role.id, 0, deny=perms.EMBED_LINKS))
    table.combat.overwrites.append(Overwrite(table.world.guild.id, 0, deny=perms.EMBED_LINKS))
    await table.setup("ars-harn")
    start = await table.send("encounter start")
    await start.message()
    await table.emu.wait_until(lambda: start.followup_messages or None, what="the GM to be told")
    [told] = lines_to(table, start)
    assert "**Embed Links**" in told
    assert not table.emu.bot_messages(table.combat) or all(m.ephemeral or m.interaction_id
                                                          for m in table.emu.bot_messages(table.combat))
    await table.run("encounter npcs", NPCS)  # a later change: no new refusal, nothing told again
    table.check_clean()


async def test_the_emulator_refuses_what_discord_refuses(table: Any) -> None:
    """Implicit denies (no Send Messages: no Embed Links either), and embeds dropped beside content."""
    import aiohttp

    bot_role = next(r for r in table.world.guild.roles.values() if r.managed)
    bot_role.permissions &= ~perms.SEND_MESSAGES
    table.world.guild.everyone.permissions &= ~perms.SEND_MESSAGES
    assert not table.emu.state.permissions_in(table.combat, table.emu.bot.id) & perms.EMBED_LINKS
    bot_role.permissions |= perms.SEND_MESSAGES
    table.combat.overwrites.append(Overwrite(table.world.guild.id, 0, deny=perms.EMBED_LINKS))
    table.combat.overwrites.append(Overwrite(bot_role.id, 0, deny=perms.EMBED_LINKS))
    url = f"{table.emu.api_base}/channels/{table.combat.id}/messages"
    headers = {"Authorization": f"Bot {table.emu.token}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        async with session.post(url, json={"embeds": [{"title": "x"}]}) as reply:
            assert reply.status == 403 and (await reply.json())["code"] == 50013
        async with session.post(url, json={"content": "hi", "embeds": [{"title": "x"}]}) as reply:
            assert reply.status == 200 and (await reply.json())["embeds"] == []
    table.emu.clear_refusals()


async def test_after_the_gm_decides_the_hit_picture_is_shown_once(table: Any) -> None:
    """The attack's thumbnail is its own hit.png (attachment://). The decided message's edit keeps it so;
    an edit carrying the CDN address would make Discord show the file again below the embed."""
    await table.setup("ars-harn")
    await table.run("setup rolls", {"mode": "gm"}, user=table.manager)
    await fighters(table)
    await table.run("encounter add", {"character": "Bjorn"}, user=table.alice)
    hit = await table.run("attack", {"target": "Bandit 1", "weapon": "Broadsword", "aspect": "edge", "aim": "high",
                                     "dice": "attack=9 defense=3 location=12"}, user=table.alice)
    assert hit.attachments and hit.embeds[0].get("thumbnail"), "the hit comes with its picture"
    assert hit.files_outside_embeds() == []
    pressed = await table.emu.click(hit, next(b for b in table.buttons(hit) if b.endswith(":roll")), user=table.gm)
    await pressed.followups()
    await table.emu.wait_until(lambda: not table.buttons(hit) or None, what="the buttons to go")
    assert "Waiting for the GM" not in table.text(hit)  # the result is the new message (issue 34, N14)
    assert hit.files_shown_twice() == [] and hit.files_outside_embeds() == []
    table.check_clean()


async def test_a_thread_follows_its_channels_system_and_runs_an_encounter(table: Any) -> None:
    """/setup system channel_only in #combat: a thread of #combat plays that system too, and its encounter's
    tracker is posted and pinned in the thread (interactions from it carry the thread's id)."""
    await table.setup("ars-harn")
    await table.run("setup system", {"system": "pendragon", "channel_only": True}, user=table.manager)
    scene = table.emu.add_thread(table.combat, "The ambush", owner=table.gm)
    shown = await table.run("setup show", user=table.manager, channel=scene)
    assert "Pendragon" in table.text(shown)
    await table.run("encounter start", channel=scene)
    await table.run("encounter npcs", {"template": "bandit", "count": 1}, channel=scene)
    tracker = await table.wait_tracker(lambda text: "Bandit 1" in text, scene)
    assert tracker.channel_id == scene.id
    assert not table.emu.pins(table.combat)
    table.check_clean()


async def test_an_encounter_runs_in_a_forum_post(table: Any) -> None:
    forum = table.emu.add_channel(table.world.guild, "scenes", type=15)
    post = table.emu.add_thread(forum, "Session 3", owner=table.gm)
    await table.setup("ars-harn")
    await fighters(table, post)
    await table.wait_tracker(lambda text: "Bandit 1" in text, post)
    table.check_clean()


async def test_a_private_thread_the_bot_is_not_in_is_told_not_tried(table: Any) -> None:
    secret = table.emu.add_thread(table.combat, "GM only", owner=table.gm, private=True)
    await table.setup("ars-harn")
    start = await table.send("encounter start", channel=secret)
    answer = await start.message()
    assert not answer.content.startswith("\u26a0"), answer.content
    await table.emu.wait_until(lambda: start.followup_messages or None, what="the GM to be told")
    [told] = lines_to(table, start)
    assert "private thread" in told and "add me" in told
    assert not table.emu.bot_messages(secret) or all(m.interaction_id for m in table.emu.bot_messages(secret))
    table.check_clean()


async def test_setup_system_says_when_the_servers_commands_could_not_be_updated(table: Any) -> None:
    """Discord's 200 command creates a day (30034): /setup system still sets the system, and says the commands
    did not change, and why; /setup check says so too."""
    from datetime import UTC, datetime

    await table.run("setup system", {"system": "pendragon"}, user=table.manager)
    table.emu.command_creates[(table.world.guild.id, datetime.now(UTC).date().isoformat())] = 200
    before = table.emu.command_names(table.world.guild)
    answer = await table.run("setup system", {"system": "ars-harn"}, user=table.manager)  # its own commands
    said = table.text(answer)
    assert "Done" in said and "commands could not be updated" in said and "200 new commands a day" in said
    assert table.emu.command_names(table.world.guild) == before
    check = await table.run("setup check", user=table.manager)
    assert "200 new commands a day" in table.value(check, "Commands")
    table.emu.clear_refusals()  # the 30034 was the point
    table.check_clean()


async def test_setup_check_names_what_the_bot_lacks_here_and_in_the_gm_channel(table: Any) -> None:
    bot_role = next(r for r in table.world.guild.roles.values() if r.managed)
    await table.setup("ars-harn")
    await table.run("setup secret-rolls", {"on": True, "gm_channel": table.world.general}, user=table.manager)
    check = await table.run("setup check", user=table.manager)
    assert check.ephemeral and "Everything is in order" in table.text(check)
    assert "up to date" in table.value(check, "Commands")
    table.emu.set_overwrites(table.combat, [Overwrite(bot_role.id, 0, deny=perms.PIN_MESSAGES)])
    table.emu.set_overwrites(table.world.general, [Overwrite(bot_role.id, 0, deny=perms.EMBED_LINKS)])
    check = await table.run("setup check", user=table.manager)
    here = table.value(check, "Here")  # the channel's mention in the value, where Discord shows it as a name
    assert here.startswith(f"In <#{table.combat.id}>:")
    assert "\u274c Pin the encounter tracker (**Pin Messages**)" in here and "\u2705" in here
    assert not [f["name"] for e in check.embeds for f in e.get("fields", []) if "<#" in f["name"]]  # shown raw there
    gm = table.value(check, "GM channel")
    assert "\u274c" in gm and "Embed Links" in gm and "Pin Messages" not in gm  # it only takes secret rolls
    changes = table.value(check, "What to change")
    assert "**Pin Messages**" in changes and "**Embed Links**" in changes
    table.check_clean()


async def test_setup_is_for_server_managers(table: Any) -> None:
    [setup] = [c for c in table.emu.commands() if c["name"] == "setup"]
    assert str(setup["default_member_permissions"]) == "32" and setup.get("contexts") == [0]


async def test_a_player_who_meets_a_missing_permission_is_not_told_the_next_gm_is(table: Any) -> None:
    """Embed Links taken away mid-fight: Alice's attack (its answer is an interaction response, which needs no
    Embed Links) leaves the tracker alone and tells her nothing she could change; the GM's next command says it."""
    await table.setup("ars-harn")
    await fighters(table)
    await table.run("encounter add", {"character": "Bjorn"}, user=table.alice)
    await table.wait_tracker(lambda text: "Bjorn" in text)
    bot_role = next(r for r in table.world.guild.roles.values() if r.managed)
    table.emu.set_overwrites(table.combat, [Overwrite(bot_role.id, 0, deny=perms.EMBED_LINKS),
                                            Overwrite(table.world.guild.id, 0, deny=perms.EMBED_LINKS)])
    attack = await table.send("attack", {"target": "Bandit 1", "weapon": "Broadsword", "aspect": "edge",
                                         "aim": "high", "dice": "attack=9 defense=3 location=12 defender_shock=2"},
                              user=table.alice)
    assert (await attack.message()).embeds
    npcs = await table.send("encounter npcs", NPCS)
    await npcs.message()
    await table.emu.wait_until(lambda: npcs.followup_messages or None, what="the GM to be told")
    assert not lines_to(table, attack)
    [told] = lines_to(table, npcs)
    assert "**Embed Links**" in told
    table.check_clean()


async def test_a_thread_archived_mid_fight_is_reopened_and_a_locked_one_gets_the_gm_one_line(table: Any) -> None:
    """Issue 34: the scene's thread archives after its hour of quiet while a GM decision waits; the GM's press
    brings the tracker up to date, the bot unarchiving the thread first (no refused edit). Then the GM (with
    Manage Threads) locks it: the bot, without Manage Threads, cannot update the tracker there, and the GM is
    told so in one line, once, with no request Discord would refuse."""
    await table.setup("ars-harn")
    await table.run("setup rolls", {"mode": "gm"}, user=table.manager)
    scene = table.emu.add_thread(table.combat, "The ambush", owner=table.gm, auto_archive_duration=60)
    await fighters(table, scene)
    await table.run("encounter add", {"character": "Bjorn"}, user=table.alice, channel=scene)
    hit = await table.run("attack", {"target": "Bandit 1", "weapon": "Broadsword", "aspect": "edge", "aim": "high",
                                     "dice": "attack=9 defense=3 location=12"}, user=table.alice, channel=scene)
    await table.trackers_idle()
    before = table.text(await table.tracker(scene))

    assert table.emu.advance_clock(61 * 60) == [scene]
    pressed = await table.emu.click(hit, next(b for b in table.buttons(hit) if b.endswith(":roll")), user=table.gm)
    await pressed.followups()
    await table.wait_tracker(lambda text: text != before, scene, "the tracker to show the GM's roll")
    await table.channel_edit(lambda: not table.buttons(hit), "the GM's buttons to go")
    await table.trackers_idle()
    assert not scene.archived
    table.check_clean()  # the bot unarchived before editing: Discord refused nothing

    gm_role = table.world.gm_role
    gm_role.permissions |= perms.MANAGE_THREADS
    table.emu.set_thread(scene, locked=True)
    await table.emu.wait_until(lambda: getattr(table.bot.get_channel(scene.id), "locked", False) or None,
                               what="the bot to see the thread locked")
    told = []
    for _ in range(2):
        turn = await table.send("encounter next", channel=scene)
        await turn.message()
        await table.trackers_idle()
        told += lines_to(table, turn)
    assert len(told) == 1 and "is locked" in told[0] and "\n" not in told[0], told
    table.check_clean()  # the bot knew the thread locked (THREAD_UPDATE): it asked Discord nothing there
