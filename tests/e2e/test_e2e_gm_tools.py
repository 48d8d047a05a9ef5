"""The GM's table tools through Discord: turn order kept (or not), the GM's /attack never acting as a player's
character, NPCs that belong to their encounter, and a delete refused before its prompt."""

from __future__ import annotations

from typing import Any

import pytest

# Each flow runs again with realistic latency (50 ms REST, 40 ms gateway) and Discord's buckets: [realistic].
pytestmark = pytest.mark.latency


async def make_fight(table: Any) -> None:
    """Bjorn (Alice) and Brun (Bob) against one bandit, who acts first, then Brun, then Bjorn."""
    await table.setup("ars-harn")
    await table.run("character create", {"name": "Bjorn", "stats": "str=2 sta=1 dex=1 qik=1 abilities.Sword=5",
                                         "weapons": "Broadsword"}, user=table.alice)
    await table.run("character create", {"name": "Brun", "stats": "str=1 sta=1 dex=1 qik=0 abilities.Club=4",
                                         "weapons": "Mace"}, user=table.bob)
    await table.run("encounter start")
    await table.run("encounter add", {"character": "Bjorn"}, user=table.alice)
    await table.run("encounter add", {"character": "Brun"}, user=table.bob)
    await table.run("encounter npcs", {"template": "bandit", "count": 1})
    order = await table.run("encounter initiative", {"dice": "Bjorn=2; Brun=8; Bandit 1=9"})
    shown = table.text(order)
    assert shown.index("Bandit 1") < shown.index("Brun") < shown.index("Bjorn")


MISS = "attack=2 defense=9"


async def test_turns_warn_by_default_enforce_when_set_and_the_gm_acts_for_the_npc_whose_turn_it_is(
        table: Any) -> None:
    await make_fight(table)
    # warn (the default): Bjorn may swing on the bandit's turn, and the result says so
    early = await table.run("attack", {"target": "Bandit 1", "dice": MISS}, user=table.alice)
    assert "Out of turn: it is Bandit 1's turn." in early.embeds[0]["description"]

    await table.run("setup turns", {"mode": "enforce"}, user=table.manager)
    line = await table.line("attack", {"target": "Bandit 1", "dice": MISS}, user=table.alice)
    assert "it is Bandit 1's turn, not Bjorn's: wait for /encounter next" in line, line

    # the GM's /attack with no attacker is the NPC whose turn it is
    npc = await table.run("attack", {"target": "Bjorn", "dice": MISS})
    assert npc.embeds[0]["title"] == "Bandit 1 attacks Bjorn" and "Out of turn" not in table.text(npc)
    await table.run("encounter next")
    # ... and never a player's character: on Brun's turn the GM must say who acts
    line = await table.line("attack", {"target": "Bjorn", "dice": MISS})
    assert "it is Brun's turn, a player's character: name who acts, e.g. \"Bandit 1\"" in line, line
    # the GM may still act for the NPC out of turn
    npc = await table.run("attack", {"target": "Bjorn", "attacker": "Bandit 1", "dice": MISS})
    assert npc.embeds[0]["title"] == "Bandit 1 attacks Bjorn"
    # Brun acts on his turn, with no warning
    brun = await table.run("attack", {"target": "Bandit 1", "dice": MISS}, user=table.bob)
    assert brun.embeds[0]["title"] == "Brun attacks Bandit 1" and "Out of turn" not in table.text(brun)

    await table.run("setup turns", {"mode": "off"}, user=table.manager)
    late = await table.run("attack", {"target": "Bandit 1", "dice": MISS}, user=table.alice)
    assert late.embeds[0]["title"] == "Bjorn attacks Bandit 1" and "Out of turn" not in table.text(late)
    shown = await table.run("setup show", user=table.manager)
    assert "anyone acts any time" in table.text(shown)
    table.check_clean()


async def test_npcs_go_with_their_encounter_unless_kept_and_numbering_starts_again(table: Any) -> None:
    await table.setup("ars-harn")
    await table.run("encounter start")
    await table.run("encounter npcs", {"template": "bandit", "count": 2})
    ended = await table.run("encounter end")
    assert "Its NPCs are gone: Bandit 1, Bandit 2." in ended.content
    assert await table.count_rows("SELECT count(*) FROM characters") == 0

    await table.run("encounter start")
    joined = await table.run("encounter npcs", {"template": "bandit", "count": 2})
    # the tracker follows the answer
    await table.wait_tracker(lambda t: "Bandit 1" in t and "Bandit 2" in t, what=joined.content)
    kept = await table.run("encounter end", {"keep_npcs": True})
    assert "Its NPCs stay: Bandit 1, Bandit 2." in kept.content
    listed = await table.run("character list")
    assert "Bandit 1" in table.text(listed) and "Bandit 2" in table.text(listed)

    await table.run("encounter start")
    await table.run("encounter npcs", {"template": "bandit", "count": 1})
    await table.wait_tracker(lambda t: "Bandit 3" in t, what="the next free number")
    # the kept bandits are in no encounter: the GM clears them in bulk; Bandit 3 is in the fight and stays
    cleared = await table.run("encounter clear-npcs")
    assert cleared.ephemeral and "Deleted 2 NPCs: Bandit 1, Bandit 2." in cleared.content
    assert await table.count_rows("SELECT count(*) FROM characters") == 1
    line = await table.line("encounter clear-npcs", user=table.alice)
    assert "only the GM" in line
    table.check_clean()


async def test_deleting_a_character_in_an_encounter_is_refused_before_the_prompt(table: Any) -> None:
    await make_fight(table)
    before = len(table.public())
    handle = await table.send("character delete", {"name": "Bjorn"}, user=table.alice)
    line = await table.private_line(handle, table.combat, before)
    assert "Bjorn is in an encounter: remove them from it first" in line
    assert not (await handle.message()).custom_ids  # no Delete/Cancel prompt to press
    table.check_clean()


HIT_BJORN = "attack=1,9 defense=1 location=50 defender_shock=9"


async def test_secret_npc_rolls_show_players_only_the_result_and_the_gm_every_die(table: Any) -> None:
    await make_fight(table)
    await table.run("setup secret-rolls", {"on": True}, user=table.manager)
    handle = await table.send("attack", {"target": "Bjorn", "dice": HIT_BJORN})
    public = await handle.message()
    assert not public.ephemeral and "thorax" in public.embeds[0]["description"]
    assert " vs " not in public.embeds[0]["description"]  # the bandit's totals stay behind the screen
    [private] = await handle.followups()
    assert private.ephemeral and "Dice" in table.text(private) and "attack stress [1, 9]" in table.text(private)
    # Alice may not look behind the screen; the GM may, even later
    pressed = await table.emu.click(public, next(i for i in public.custom_ids if i.startswith("grv:details:")),
                                    user=table.alice)
    assert "the GM keeps this NPC's rolls secret" in (await pressed.message()).content
    assert "Dice" in table.text(await table.details(public, user=table.gm))
    # a player's own attack is not secret, but the bandit's Defense Total is (issue 22: it was "12 vs 13");
    # Alice types her own die only: the bandit's is the GM's, which the bot rolls (the table's seed)
    bjorn = await table.run("attack", {"target": "Bandit 1", "dice": "attack=2"}, user=table.alice)
    assert ": attack " in bjorn.embeds[0]["description"] and " vs " not in bjorn.embeds[0]["description"]
    # behind her Details button Alice sees her own dice and total, and the bandit's Defense only as secret
    behind = table.text(await table.details(bjorn, user=table.alice))
    assert "attack stress [2]" in behind and "defense stress" not in behind, behind
    assert "against a defence the GM keeps secret" in behind and "Bandit 1" in behind
    assert "defense stress [" in table.text(await table.details(bjorn, user=table.gm))

    # with a GM channel, the full rolls go there instead
    await table.run("setup secret-rolls", {"on": True, "gm_channel": table.world.general}, user=table.manager)
    before = len(table.public(table.world.general))
    await table.run("attack", {"target": "Bjorn", "attacker": "Bandit 1", "dice": "attack=2 defense=9"})
    screen = await table.emu.wait_until(lambda: table.public(table.world.general)[before:] or None,
                                        what="the full rolls in the GM channel")
    assert "Dice" in table.text(screen[0]) and "Bandit 1 attacks Bjorn" in table.text(screen[0])

    # /roll secret: only the roller sees it (and the GM channel); the players' log says only that it happened
    rolled = await table.run("roll", {"expression": "3d6", "dice": "6,6,6", "secret": True})
    assert rolled.ephemeral and "Total **18**" in table.text(rolled)
    await table.emu.wait_until(lambda: any("3d6" in table.text(m) for m in table.public(table.world.general))
                               or None, what="the secret roll in the GM channel")
    assert not any("3d6" in table.text(m) for m in table.public())
    log = table.text(await table.run("log", user=table.alice))
    assert "rolled in secret" in log and "= 18" not in log
    assert "= 18" in table.text(await table.run("log"))
    table.check_clean()


async def test_a_kill_decision_lapses_when_healing_removes_its_cause(table: Any) -> None:
    await make_fight(table)
    # Bjorn's K5 to the bandit's thorax, and the kill roll fails: the GM must choose
    kill = await table.run("attack", {"target": "Bandit 1", "weapon": "Broadsword", "aspect": "edge", "aim": "mid",
                                      "modifier": 8, "dice": "attack=9 defense=2 location=50 defender_kill=2"},
                           user=table.alice)
    assert sorted(table.buttons(kill)) == ["grv:gm:1:death", "grv:gm:1:incapacitation"]
    # the tracker holds the fight's state; what waits on the GM is on the hit, with its buttons (issue 34, N5)
    await table.wait_tracker(lambda t: "incapacitated" in t, what="the tracker to show the blow")
    # a healing spell of five Body Levels takes the K5 wound away: nothing is left to decide
    healed = await table.run("heal", {"character": "Bandit 1", "method": "spell", "body_levels": 5})
    assert "Bandit 1 has 0 injury levels" in table.text(healed), table.text(healed)
    await table.emu.wait_until(lambda: not table.buttons(kill) or None, what="the death buttons to go")
    assert "a later result made it needless" in table.text(kill)
    await table.trackers_idle()
    assert table.emu.state.messages[kill.id].custom_ids == [f"grv:details:{kill.custom_ids[-1].rsplit(':', 1)[1]}"]
    assert await table.count_rows("SELECT count(*) FROM characters WHERE name = 'Bandit 1'") == 1
    table.check_clean()


async def test_the_healers_owner_treats_and_the_patients_owner_accepts(table: Any) -> None:
    """Bob owns the chirurgeon Erik; Alice owns the wounded Bjorn."""
    await make_fight(table)
    await table.run("character create", {"name": "Erik", "stats": "str=0 sta=0 dex=1 qik=0 abilities.Chirurgy=6"},
                    user=table.bob)
    await table.run("attack", {"target": "Bjorn", "dice": HIT_BJORN})  # the bandit wounds Bjorn's thorax
    # Alice may not roll Erik's Chirurgy without Bob
    line = await table.line("heal", {"character": "Bjorn", "method": "chirurgy", "healer": "Erik"}, user=table.alice)
    assert "Erik is not yours: only its owner or the GM can treat with Erik's skill" in line, line
    # Bob may offer it; nothing happens until Alice accepts
    handle = await table.send("heal", {"character": "Bjorn", "method": "chirurgy", "healer": "Erik",
                                       "dice": "chirurgy=7"}, user=table.bob)
    offer = await handle.message()
    assert not offer.ephemeral and "**Erik** offers **Bjorn** chirurgy" in offer.content
    assert f"<@{table.alice.id}>: accept?" in offer.content
    accept, decline = offer.custom_ids
    # Bob cannot accept for Alice
    pressed = await table.emu.click(offer, accept, user=table.bob)
    # the press is answered first (a deferred update), so the refusal is a private follow-up
    [refused] = await pressed.followups()
    assert "Bjorn is not yours" in refused.content and refused.ephemeral
    pressed = await table.emu.click(offer, decline, user=table.alice)
    await pressed.response()
    await table.emu.wait_until(lambda: "declined by" in table.emu.state.messages[offer.id].content or None,
                               what="the offer to be declined")
    assert not table.emu.state.messages[offer.id].custom_ids
    assert await table.count_rows("SELECT count(*) FROM events WHERE kind = 'heal'") == 0

    # offered again and accepted: the treatment is made with Erik's skill, as offered
    offer = await (await table.send("heal", {"character": "Bjorn", "method": "chirurgy", "healer": "Erik",
                                             "dice": "chirurgy=7"}, user=table.bob)).message()
    pressed = await table.emu.click(offer, offer.custom_ids[0], user=table.alice)
    [treated] = await pressed.followups()
    assert "Erik treats Bjorn" in table.text(treated) and "chirurgy" in table.text(treated).lower()
    assert "accepted by" in table.emu.state.messages[offer.id].content
    assert await table.count_rows("SELECT count(*) FROM events WHERE kind = 'heal'") == 1
    again = await table.emu.click(offer, offer.custom_ids[0], user=table.alice) if offer.custom_ids else None
    if again is not None:  # the buttons are gone from Discord's copy, but an old client may still press
        assert "already accepted" in (await again.message()).content
    # the GM may treat anyone with anyone's skill, at once
    direct = await table.run("heal", {"character": "Bjorn", "method": "spell", "healer": "Erik", "body_levels": 1})
    assert "Erik treats Bjorn" in table.text(direct)
    table.check_clean()


async def test_under_secret_rolls_undo_and_the_log_tell_an_attack_as_the_players_saw_it(table: Any) -> None:
    await make_fight(table)
    await table.run("setup secret-rolls", {"on": True}, user=table.manager)
    await table.run("attack", {"target": "Bjorn", "dice": HIT_BJORN})
    log = table.text(await table.run("log", user=table.alice))
    assert "Bandit 1 attacks Bjorn" in log and "rolled in secret" not in log, log
    assert " vs " not in log  # the bandit's totals stay behind the screen
    undone = table.text(await table.run("undo"))
    assert "Bandit 1 attacks Bjorn" in undone and "rolled in secret" not in undone, undone
    table.check_clean()


async def test_under_secret_rolls_an_npcs_sheet_is_the_gms_to_export(table: Any) -> None:
    await make_fight(table)
    open_sheet = await table.run("character export", {"name": "Bandit 1"}, user=table.alice)
    assert open_sheet.attachments  # without secret rolls, anyone may read it
    await table.run("setup secret-rolls", {"on": True}, user=table.manager)
    line = await table.line("character export", {"name": "Bandit 1"}, user=table.alice)
    assert "the GM keeps Bandit 1's sheet behind the screen" in line and "/injuries" in line, line
    wounds = await table.run("injuries", {"character": "Bandit 1"}, user=table.alice)
    assert "Bandit 1" in table.text(wounds)
    gm_copy = await table.run("character export", {"name": "Bandit 1"})
    assert gm_copy.attachments and b"weapons" in gm_copy.attachments[0].data
    mine = await table.run("character export", {"name": "Bjorn"}, user=table.alice)
    assert mine.attachments
    table.check_clean()


async def test_a_gm_channel_that_is_gone_loses_no_secret_dice_and_the_gm_is_told_once(table: Any) -> None:
    """Issue 22 §1: the GM channel deleted under secret rolls: the dice reach the GM privately (here when
    the GM acted, by DM to the server's owner when a player did), and the GM is told once why."""
    await make_fight(table)
    screen = table.emu.add_channel(table.world.guild, "gm-screen")
    await table.run("setup secret-rolls", {"on": True, "gm_channel": screen}, user=table.manager)
    table.emu.delete_channel(screen)
    await table.emu.wait_until(lambda: table.bot.get_channel(screen.id) is None or None,
                               what="the bot to see the GM channel go")

    handle = await table.send("attack", {"target": "Bjorn", "dice": HIT_BJORN})
    public = await handle.message()
    assert " vs " not in public.embeds[0]["description"]
    [private] = await handle.followups()
    assert private.ephemeral and "attack stress [1, 9]" in table.text(private)
    assert "The GM channel" in private.content and "is not working" in private.content, private.content

    again = await table.send("attack", {"target": "Bjorn", "attacker": "Bandit 1", "dice": MISS})
    await again.message()
    [second] = await again.followups()
    assert "Dice" in table.text(second) and not second.content  # told once

    # a player's secret roll: the GM channel cannot take it, so the server's owner gets it by DM
    rolled = await table.run("roll", {"expression": "3d6", "dice": "6,6,6", "secret": True}, user=table.alice)
    assert rolled.ephemeral
    dm = table.emu.state.dm_channel(table.emu.state.owner)
    [sent] = await table.emu.wait_until(lambda: table.emu.state.history(dm) or None, what="the roll by DM")
    assert "3d6" in table.text(sent) and "Test Guild" in sent.content, sent.content
    table.check_clean()
