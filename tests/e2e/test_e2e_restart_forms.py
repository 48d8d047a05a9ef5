"""Buttons and forms reaching a freshly started bot: the GM's value form (the Dice and Damage buttons) opened
before a restart and submitted after it, opened after it, submitted twice, by a player, or forged; and the
delete prompt of a bot that restarted. Each is answered (the work done, or one line), never "This
interaction failed"."""

from __future__ import annotations

from typing import Any

from emulator import InteractionHandle, Message

WAITING = "\u23f3 Waiting for the GM"
SHOCK = {"target": "Bandit 1", "weapon": "Broadsword", "aspect": "edge", "aim": "high",
         "dice": "attack=9 defense=3 location=12"}


async def shock_waits(table: Any) -> Message:
    """ars-harn, rolls by the GM: Bjorn's blow leaves Bandit 1's shock roll waiting, with Roll / Dice buttons."""
    await table.bjorn_against_bandits(settings={"setup rolls": {"mode": "gm"}})
    hit = await table.run("attack", SHOCK, user=table.alice)
    assert f"{WAITING}: Bandit 1's shock roll" in table.text(hit)
    return hit


async def restart(table: Any) -> None:
    """Stopped once nothing is under way (the attack's tracker edit follows its answer), started again."""
    await table.emu.wait_until(lambda: not table.bot.flights.active or None, what="the bot to be idle")
    await table.trackers_idle()
    await table.stop()
    await table.start(seed=2, sync=False)


async def taken(table: Any, submitted: InteractionHandle, hit: Message) -> Message:
    """The submit was acknowledged as an update of the button's message, the roll posted, the buttons gone."""
    assert (await submitted.response()).type == 7
    [result] = await submitted.followups()
    assert not result.ephemeral and "rolls for shock" in result.embeds[0]["title"], table.text(result)
    await table.emu.wait_until(lambda: not table.buttons(hit) or None, what="the buttons to go")
    assert "Waiting for the GM" not in table.text(hit) and "The GM decided" not in table.text(hit)
    return result


async def one_line(handle: InteractionHandle) -> str:
    """The one private line the bot answered with: its first response, or after a deferred update a follow-up."""
    first = await handle.response()
    message = (await handle.followups())[0] if first.type in (6, 7) else await handle.message()
    assert message.ephemeral and not message.embeds and "\n" not in message.content, message
    return str(message.content)


async def test_a_value_form_opened_before_a_restart_is_taken_after_it(table: Any) -> None:
    hit = await shock_waits(table)
    [dice] = [b for b in table.buttons(hit) if b.endswith(":dice")]
    opened = await table.emu.click(hit, dice, user=table.gm)
    assert (await opened.modal())["custom_id"].startswith("grv:gmv:")
    await restart(table)
    submitted = await table.emu.submit_modal(opened, {"value": "shock=9"}, user=table.gm)
    await taken(table, submitted, hit)

    # the same form sent again (a second tab, a double submit): the decision is taken, one line
    again = await table.emu.submit_modal(opened, {"value": "shock=9"}, user=table.gm)
    assert "no longer" in await one_line(again) or "already" in await one_line(again)


async def test_the_dice_button_opens_its_form_on_a_freshly_started_bot(table: Any) -> None:
    hit = await shock_waits(table)
    await restart(table)
    [dice] = [b for b in table.buttons(hit) if b.endswith(":dice")]
    opened = await table.emu.click(hit, dice, user=table.gm)
    submitted = await table.emu.submit_modal(opened, {"value": "9"}, user=table.gm)
    await taken(table, submitted, hit)


async def test_a_value_form_submitted_by_a_player_or_forged_is_refused_in_one_line(table: Any) -> None:
    hit = await shock_waits(table)
    [dice] = [b for b in table.buttons(hit) if b.endswith(":dice")]
    opened = await table.emu.click(hit, dice, user=table.gm)
    await opened.modal()
    await restart(table)

    # a player submits the GM's form (a forged submit: Discord only shows it to the GM): refused, nothing done
    by_alice = await table.emu.submit_modal(opened, {"value": "shock=9"}, user=table.alice)
    assert "Only the GM" in await one_line(by_alice)
    assert table.buttons(hit)

    # a form id no decision can have, or a choice that takes no value: one line each
    modal = await opened.modal()
    made = modal["custom_id"]
    for forged in ("grv:gmv:99999999999999999999999:dice", "grv:gmv:1:death", "grv:gmv:7"):
        modal["custom_id"] = forged
        handle = await table.emu.submit_modal(opened, {"value": "9"}, user=table.gm)
        assert "not one Grievous made" in await one_line(handle) or "no longer" in await one_line(handle), forged

    modal["custom_id"] = made

    # the GM's own submit still works after all that
    submitted = await table.emu.submit_modal(opened, {"value": "9"}, user=table.gm)
    await taken(table, submitted, hit)


async def test_a_dice_form_submitted_without_its_button_message_gets_the_forged_line(table: Any) -> None:
    """A GM value form with a real decision's id, submitted from no message (made by hand, as from a command):
    the line every forged id gets, the decision left open, and no answer Discord would refuse."""
    hit = await shock_waits(table)
    [dice] = [b for b in table.buttons(hit) if b.endswith(":dice")]
    opened = await table.emu.click(hit, dice, user=table.gm)
    modal = await opened.modal()
    data = {"custom_id": modal["custom_id"],
            "components": [{"type": 1, "components": [{"type": 4, "custom_id": "value", "value": "shock=9"}]}]}
    # Opened by the press (a submit always comes from an opened modal: its metadata names the press), but
    # carrying no message.
    handle = table.emu._dispatch_interaction(type=5, user=table.gm, channel=opened.channel, data=data,
                                             name=modal["custom_id"], message=None, opened_by=opened)
    assert "not one Grievous made" in await one_line(handle)
    assert any(b.endswith(":dice") for b in table.buttons(hit))  # still waiting for the GM

    submitted = await table.emu.submit_modal(opened, {"value": "shock=9"}, user=table.gm)
    await taken(table, submitted, hit)


async def test_a_delete_prompt_from_before_a_restart_says_it_expired(table: Any) -> None:
    await table.setup("ars-harn")
    await table.run("character create", {"name": "Bjorn", "stats": "str=2 sta=1 dex=1 qik=1"}, user=table.alice)
    asked = await table.send("character delete", {"name": "Bjorn"}, user=table.alice)
    prompt = await asked.message()
    [yes] = [i for i in prompt.custom_ids if i.endswith(":yes")]
    await restart(table)
    pressed = await table.emu.click(prompt, yes, user=table.alice)
    assert "expired" in await one_line(pressed)
    kept = await table.run("injuries", {"character": "Bjorn"}, user=table.alice)
    assert "Bjorn" in table.text(kept)
