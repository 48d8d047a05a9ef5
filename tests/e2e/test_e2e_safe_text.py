"""Issue 24 through Discord: names with markup are refused at entry in one private line; a character
stored before the entry rules, named with a masked link, bold, a spoiler and @everyone, is shown as plain
text in every message the bot sends about it (the attack, the tracker, /log, the party view,
autocomplete); another user's press of a delete prompt is answered "not yours"."""

from __future__ import annotations

from typing import Any

from sqlalchemy import text as sql

from bot.db import repositories as repo
from tests.e2e.test_e2e_gm_tools import make_fight
from tests.text_safety_checks import check_echoed, check_label, wrapped

APPLICATION_COMMAND, MESSAGE_COMPONENT = 2, 3
LEGACY = wrapped("[Free Nitro](https://discord-gift.example/claim) **Bold** ||x|| @everyone <@&1> \u202e")


def _strings(message: Any) -> str:
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.get("title", ""), embed.get("description", "")]
        parts += [f"{f['name']}\n{f['value']}" for f in embed.get("fields", [])]
    return "\n".join(parts)


async def test_a_name_with_a_masked_link_is_refused_at_entry(table: Any) -> None:
    await table.setup("ars-harn")
    for name in ("[Free Nitro](https://discord-gift.example/claim)", "@everyone", "# Big Knight", "B\u200bjorn"):
        line = await table.line("character create", {"name": name}, user=table.alice)
        assert line.startswith("\u26a0\ufe0f a character's name") and "a name holds letters, digits" in line
    assert await table.count_rows("SELECT count(*) FROM characters") == 0


async def test_a_stored_hostile_name_is_plain_text_in_every_message_about_it(table: Any) -> None:
    await make_fight(table)
    async with table.bot.db.sessions() as session, session.begin():
        await session.execute(sql("UPDATE characters SET name = :name, name_key = :key WHERE name = 'Bjorn'"),
                              {"name": LEGACY, "key": repo.name_key(LEGACY)})
    if table.bot.services.runtime.transactions.encounters is not None:  # the rename was made behind the bot's back
        table.bot.services.runtime.transactions.encounters.clear()
    attack = await table.run("attack", {"attacker": "Bandit 1", "target": LEGACY,
                                        "dice": "attack=1,9 defense=1 location=50 defender_shock=9"})
    check_echoed(_strings(attack), expected=1)
    tracker = await table.wait_tracker(lambda shown: "\u01a9" in shown)
    check_echoed(_strings(tracker))
    check_echoed(_strings(await table.run("log")))
    check_echoed(_strings(await table.run("injuries", {"character": LEGACY}, user=table.alice)))
    check_echoed(_strings(await table.run("character show", {"name": LEGACY}, user=table.bob)))
    typing = await table.emu.autocomplete("attack", {"target": "Free"}, focused="target", user=table.bob,
                                          channel=table.combat)
    choices = await typing.choices()
    assert choices, "autocomplete offered the stored name"
    for choice in choices:
        check_label(choice["name"])
    table.check_clean()


async def test_another_users_press_of_a_delete_prompt_is_answered_not_yours(table: Any) -> None:
    await table.setup("ars-harn")
    await table.run("character create", {"name": "Bjorn", "stats": "str=2 sta=1 dex=1 qik=1"}, user=table.alice)
    handle = await table.send("character delete", {"name": "Bjorn"}, user=table.alice)
    prompt = await handle.message()
    delete = prompt.custom_ids[0]
    # Bob cannot see Alice's private prompt; a client may still send its button's id
    forged = table.emu._dispatch_interaction(type=MESSAGE_COMPONENT, user=table.bob, channel=table.combat,
                                             data={"component_type": 2, "custom_id": delete}, name=delete,
                                             message=prompt)
    line = await table.private_line(forged, table.combat, len(table.public()))
    assert line == "\u26a0\ufe0f This prompt belongs to someone else."
    # the same button on another message of the bot's (Discord delivers a press only for a button the
    # message holds: an old or corrupted message), pressed by Bob: before, no view matched it and Discord
    # showed "This interaction failed"
    button = {"type": 2, "style": 4, "label": "Delete", "custom_id": delete}
    posted = table.emu.state.create_message(table.combat, table.emu.bot, {
        "content": "A prompt", "components": [{"type": 1, "components": [button]}]})
    elsewhere = await table.emu.click(posted, delete, user=table.bob)
    line = await table.private_line(elsewhere, table.combat, len(table.public()))
    assert line == "\u26a0\ufe0f This prompt belongs to someone else."
    assert await table.count_rows("SELECT count(*) FROM characters") == 1
    # Alice's own press deletes; a second press of the answered prompt says it expired
    await table.emu.click(prompt, delete, user=table.alice)
    await table.emu.wait_until(lambda: "was deleted" in table.emu.state.message(prompt.channel_id, prompt.id).content
                               or None, what="the prompt edited to say Bjorn was deleted")
    assert await table.count_rows("SELECT count(*) FROM characters") == 0
    again = await table.emu.click(posted, delete, user=table.alice)
    assert await table.private_line(again, table.combat, len(table.public())) == (
        "\u26a0\ufe0f This prompt has expired; run the command again.")


async def test_a_wrong_typed_option_value_is_one_line_and_stores_nothing(table: Any) -> None:
    """Issue 24: ``secret:"true"`` (text where Discord's boolean belongs) got the internal-error apology, after
    /roll had stored the roll."""
    from tests.e2e.test_e2e_hostile_input import APPLICATION_COMMAND as COMMAND
    from tests.e2e.test_e2e_hostile_input import command_id, one_line, raw

    await table.setup("ars-harn")
    events = await table.count_rows("SELECT count(*) FROM events")
    for option in ({"type": 5, "name": "secret", "value": "true"},  # the type says boolean, the value is text
                   {"type": 3, "name": "secret", "value": "true"}):  # a client's old command: text
        handle = raw(table, COMMAND, {"id": command_id(table, "roll"), "name": "roll", "type": 1, "options": [
            {"type": 3, "name": "expression", "value": "3d6"}, option]})
        line = await one_line(table, handle)
        assert "went wrong" not in line and "secret" in line, line
    assert await table.count_rows("SELECT count(*) FROM events") == events


async def test_secret_rolls_refuse_a_gm_channel_the_bot_cannot_post_in(table: Any) -> None:
    """Issue 24: ``/setup secret-rolls gm_channel:`` took a channel the bot cannot post in and said "Done"."""
    from emulator import Overwrite
    from emulator.permissions import SEND_MESSAGES

    await table.setup("ars-harn")
    quiet = table.emu.add_channel(table.world.guild, "gm-only",
                                  overwrites=[Overwrite(table.emu.bot.id, 1, deny=SEND_MESSAGES)])
    await table.emu.wait_until(lambda: table.bot.get_channel(quiet.id), what="the bot to see the new channel")
    line = await table.line("setup secret-rolls", {"on": True, "gm_channel": quiet}, user=table.manager)
    assert line == (f"\u26a0\ufe0f I cannot post in <#{quiet.id}>: give me Send Messages there, or choose another "
                    "channel; nothing changed.")
    assert await table.count_rows("SELECT count(*) FROM guild_settings WHERE gm_channel_id IS NOT NULL") == 0
    done = await table.run("setup secret-rolls", {"on": True, "gm_channel": table.world.general}, user=table.manager)
    assert "Done" in table.text(done)
