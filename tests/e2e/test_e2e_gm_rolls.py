"""Rolls the GM makes (`/setup rolls mode:gm`), one fight per system through the real bot and the emulator: the
attack embed waits for the GM with Roll / Dice buttons only the GM can press, they work after a restart, the
Dice button opens a form for the faces, and what the roll leads to comes with its own buttons."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from emulator import Message
from emulator.models import walk_components

# Each flow runs again with realistic latency (50 ms REST, 40 ms gateway) and Discord's buckets: [realistic].
pytestmark = pytest.mark.latency

WAITING = "\u23f3 Waiting for the GM"
GM_ROLLS = {"setup rolls": {"mode": "gm"}}  # as gm_mode sets it, for the ars-harn fights


async def gm_mode(table: Any, system: str) -> None:
    await table.setup(system)
    rolls = await table.run("setup rolls", {"mode": "gm"}, user=table.manager)
    assert rolls.ephemeral


async def press(table: Any, message: Message, suffix: str, typed: str | None = None) -> Message:
    """The GM presses the button of `message` ending in `suffix` (filling in the form with `typed`): the result."""
    [button] = [b for b in table.buttons(message) if b.endswith(suffix)]
    pressed = await table.emu.click(message, button, user=table.gm)
    if typed is not None:
        pressed = await table.emu.submit_modal(pressed, {"value": typed}, user=table.gm)
    assert (await pressed.response()).type == 7  # the answer is the update of the message with the buttons
    [result] = await pressed.followups()
    assert not result.ephemeral, table.text(result)
    return result


async def test_ars_harn_shock_then_kill_roll_made_by_the_gm(table: Any) -> None:
    await table.bjorn_against_bandits(settings=GM_ROLLS)
    hit = await table.run("attack", {"target": "Bandit 1", "weapon": "Broadsword", "aspect": "edge", "aim": "high",
                                     "dice": "attack=9 defense=3 location=12"}, user=table.alice)
    assert f"{WAITING}: Bandit 1's shock roll" in table.text(hit)
    assert sorted(table.buttons(hit)) == ["grv:gm:1:dice", "grv:gm:1:roll"]

    # a player cannot press them; they still work after a restart
    pressed = await table.emu.click(hit, "grv:gm:1:roll", user=table.alice)
    assert "Only the GM" in (await pressed.message()).content
    await table.stop()
    await table.start(seed=2, sync=False)
    shock = await press(table, hit, ":roll")
    assert "rolls for shock" in shock.embeds[0]["title"] and "shock roll" in table.text(shock)
    await table.emu.wait_until(lambda: not table.buttons(hit) or None, what="the buttons to go")
    assert "The GM decided" not in table.text(hit) and WAITING not in table.text(hit)  # said below, once

    # a K5: kill and shock wait; the GM types the kill die: it fails, and death or incapacitation follows
    kill_hit = await table.run("attack", {"target": "Bandit 1", "weapon": "Broadsword", "aspect": "edge",
                                          "aim": "mid", "modifier": 8, "dice": "attack=9 defense=2 location=50"},
                               user=table.alice)
    assert "Bandit 1's kill roll" in table.value(kill_hit, WAITING)
    failed = await press(table, kill_hit, "2:dice", "kill=2")
    failed_details = await table.details(failed)
    assert "failed" in table.value(failed_details, "Kill roll")
    assert sorted(table.buttons(failed)) == ["grv:gm:4:death", "grv:gm:4:incapacitation"]
    # the shock roll is moot now: its buttons left the attack too
    await table.emu.wait_until(lambda: not table.buttons(kill_hit) or None, what="the moot shock buttons to go")
    await press(table, failed, ":death")
    injuries = await table.run("injuries", {"character": "Bandit 1"})
    assert injuries.embeds[0]["description"].startswith("dead")


def hold_the_answer_log(table: Any, monkeypatch: pytest.MonkeyPatch) -> tuple[asyncio.Event, asyncio.Event]:
    """The bot's answer log writes nothing (which message carries which decisions, the answered marks) until the
    second event is set; the first is set once the bot has an answer's message id and asks for that write. A
    command's own transaction (in its channel) goes on."""
    runner, combat = table.bot.services.runtime.transactions, table.bot.services.combat
    noted, held = asyncio.Event(), asyncio.Event()
    transact, set_decision_message = runner.transact, combat.set_decision_message

    async def held_transact(channel_id: int | None, work: Any) -> Any:
        if channel_id is None:
            await held.wait()
        return await transact(channel_id, work)

    async def noting(*args: Any) -> None:
        noted.set()
        await set_decision_message(*args)

    monkeypatch.setattr(runner, "transact", held_transact)
    monkeypatch.setattr(combat, "set_decision_message", noting)
    return noted, held


async def test_pendragon_knockdown_roll_by_the_gm_and_the_pending_roll_command(
        table: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    await gm_mode(table, "pendragon")
    await table.run("character create", {"name": "Sir Owain", "stats": "siz=14 dex=12 str=13 con=14 app=11 "
                                                                       "skills.sword=16 traits.valorous=15",
                                         "weapons": "sword", "armour": "chainmail, shield"}, user=table.alice)
    await table.run("encounter start")
    await table.run("encounter add", {"character": "Sir Owain"}, user=table.alice)
    await table.run("encounter npcs", {"template": "bandit", "count": 2})
    blow = await table.run("attack", {"target": "Bandit 1", "weapon": "sword",
                                      "dice": "attacker=14 defender=15 damage=4,4,3,3,2"}, user=table.alice)
    waiting = table.value(blow, WAITING)
    assert "Bandit 1's knockdown roll" in waiting and "Bandit 1's major wound rolls" in waiting
    assert sorted(table.buttons(blow)) == ["grv:gm:1:dice", "grv:gm:1:roll", "grv:gm:2:dice", "grv:gm:2:roll"]
    # pressed after a restart, the message keeps what it carries as before it (the database's record, issue 38)
    await table.stop()
    await table.start(seed=2, sync=False)
    down = await press(table, blow, "1:dice", "13")
    assert "knocked down" in down.embeds[0]["description"]
    assert sorted(table.buttons(blow)) == ["grv:gm:2:dice", "grv:gm:2:roll"] and "Details" in str(blow.components)
    refused = await table.line("pending-roll", {"character": "Bandit 1"}, user=table.alice)
    assert "only the GM" in refused
    rolled = await table.run("pending-roll", {"character": "Bandit 1", "roll": "major_wound",
                                              "dice": "major_wound=5 valorous=12 stat_loss=6"})
    rolled_details = await table.details(rolled)
    assert "leaves the fight" in table.value(rolled_details, "Major wound")
    # the attack's major wound buttons leave it too, though no button was pressed; what was done is said once,
    # by the roll's own message (issue 34, N14)
    await table.emu.wait_until(lambda: not table.buttons(blow) or None, what="the rolled buttons to go")
    assert "major wound rolls" not in table.text(blow) and WAITING not in table.text(blow)
    assert "The GM rolled Bandit 1's **major wound rolls**" in table.text(rolled)

    # the GM presses within milliseconds of the answer, before the bot wrote which message carries its rolls: the
    # other roll keeps its buttons, and the blow its Details
    noted, held = hold_the_answer_log(table, monkeypatch)
    blow = await table.run("attack", {"target": "Bandit 2", "weapon": "sword",
                                      "dice": "attacker=14 defender=15 damage=4,4,3,3,2"}, user=table.alice)
    knockdown, major = sorted({b.rsplit(":", 1)[0] for b in table.buttons(blow)})
    await asyncio.wait_for(noted.wait(), 10)  # the answer is sent; the write of its message waits
    pressed = await table.emu.click(blow, f"{knockdown}:roll", user=table.gm)
    await asyncio.sleep(0.1)
    held.set()
    assert (await pressed.response()).type == 7
    assert sorted(table.buttons(blow)) == [f"{major}:dice", f"{major}:roll"] and "Details" in str(blow.components)


async def test_fading_suns_effect_roll_by_the_gm_leads_to_the_death_decision(table: Any) -> None:
    await gm_mode(table, "fading-suns")
    await table.run("setup ruling", {"name": "gm_confirms_death", "value": "true"}, user=table.manager)
    await table.run("character create", {"name": "Erian", "stats": "dex=6 end=5 skills.melee=5",
                                         "weapons": "broadsword"}, user=table.alice)
    await table.run("encounter start")
    await table.run("encounter add", {"character": "Erian"}, user=table.alice)
    await table.run("encounter npcs", {"template": "thug"})
    hit = await table.run("attack", {"target": "Thug 1", "weapon": "broadsword",
                                     "dice": "attack=10 location=20"}, user=table.alice)
    assert f"{WAITING}: Thug 1's wound-effect roll" in table.text(hit)
    deadly = await press(table, hit, ":dice", "20")
    assert "deadly wound" in deadly.embeds[0]["description"]
    assert "Thug 1 took a deadly wound" in table.value(deadly, WAITING)
    spared = await press(table, deadly, ":unconscious")
    assert "unconscious" in spared.embeds[0]["description"]


async def test_settled_elsewhere_or_undone_the_buttons_leave_their_message(table: Any) -> None:
    await table.bjorn_against_bandits(settings=GM_ROLLS)
    shock = {"target": "Bandit 1", "weapon": "Broadsword", "aspect": "edge", "aim": "high",
             "dice": "attack=9 defense=3 location=12"}
    kill = {"target": "Bandit 1", "weapon": "Broadsword", "aspect": "edge", "aim": "mid", "modifier": 8,
            "dice": "attack=9 defense=2 location=50"}

    # /undo of the attack that asked for a shock roll: its buttons leave the attack, which says why
    hit = await table.run("attack", shock, user=table.alice)
    assert table.buttons(hit)
    undone = await table.run("undo")
    assert "Bandit 1's shock roll: taken back with /undo" in table.text(undone) and not table.buttons(undone)
    await table.channel_edit(lambda: not table.buttons(hit), "the undone buttons to go")
    assert "Bandit 1's shock roll: taken back with /undo" in table.text(hit) and WAITING not in table.text(hit)

    # a failed kill roll makes the shock roll of an earlier attack moot: its buttons leave that attack
    hit = await table.run("attack", shock, user=table.alice)
    kill_hit = await table.run("attack", kill, user=table.alice)
    [kill_id] = {c["custom_id"].split(":")[2] for c in walk_components(kill_hit.components)
                 if c.get("custom_id", "").startswith("grv:gm:") and "kill" in c.get("label", "")}
    failed = await press(table, kill_hit, f"{kill_id}:dice", "kill=2")
    assert sorted(b.rsplit(":", 1)[1] for b in table.buttons(failed)) == ["death", "incapacitation"]
    await table.channel_edit(lambda: not table.buttons(hit), "the moot buttons to go")
    assert "Bandit 1's shock roll: a later result made it needless" in table.value(hit, "\u2716\ufe0f No longer")
    assert WAITING not in table.text(hit)

    # /undo of the failed kill roll: the death buttons leave, the kill and shock rolls wait again on the undo
    undone = await table.run("undo")
    assert "Bandit 1's kill roll" in table.value(undone, WAITING) and "shock roll" in table.value(undone, WAITING)
    assert {b.rsplit(":", 1)[1] for b in table.buttons(undone)} == {"roll", "dice"}
    await table.channel_edit(lambda: not table.buttons(failed), "the undone death buttons to go")
    assert "taken back with /undo" in table.text(failed)
    rolled = await press(table, undone, f"{kill_id}:dice", "kill=9")
    rolled_details = await table.details(rolled)
    assert "passed" in table.value(rolled_details, "Kill roll")
    assert "Bandit 1's kill roll" not in table.value(undone, WAITING)

    # the message with the shock roll's buttons was deleted: /pending-roll still makes the roll
    table.emu.state.delete_message(undone)
    rolled = await table.run("pending-roll", {"character": "Bandit 1", "roll": "shock", "dice": "9"})
    assert "rolls for shock" in rolled.embeds[0]["title"]
    # the bot remembers what it sent there, so it edits without reading first: Discord says it is unknown
    await table.emu.wait_until(lambda: table.emu.refusals or None, what="the edit of the deleted message")
    assert [(r.method, r.status, r.path.endswith(f"/messages/{undone.id}")) for r in table.emu.refusals] == [
        ("PATCH", 404, True)]
    table.emu.clear_refusals()  # Discord says the message is unknown; the bot leaves it be
