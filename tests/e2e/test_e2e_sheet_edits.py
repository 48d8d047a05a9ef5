"""Edits answer with the change (issue 31, leaks 3 and 5): under /setup secret-rolls on:true, the GM's
/character create npc:true, condition, set-stat and add-item on an NPC answer in the channel with one line that
names no figure of its sheet; the whole sheet reaches the GM privately. A player's own edits say what changed
in one line too. Each NPC's sheet shows words or a figure that appear nowhere else, so a sheet in the channel
fails."""

from __future__ import annotations

from typing import Any

import pytest

from emulator import Message

# system: the NPC's stats, its weapon, what its sheet shows and nothing else does, a condition the GM sets and
# that condition's line
NPCS = {
    "ars-harn": ("str=2 sta=1 dex=1 qik=1 abilities.Spear=6", "Spear", "Soak Base", "unconscious",
                 "Black Guard 1 is now unconscious"),
    "pendragon": ("siz=14 dex=12 str=13 con=14 app=11 skills.spear=27 traits.valorous=19", "spear", "27",
                  "out_of_fight", "Black Guard 1 yields: out of the fight"),
    "fading-suns": ("dex=6 end=5 skills.melee=17", "spear", "Effect roll goal", "stunned",
                    "Black Guard 1 is now stunned"),
}
# a player's own character, and the weapon they add
PLAYERS = {
    "ars-harn": ("str=2 sta=1 dex=1 qik=1 abilities.Sword=5", "Dagger"),
    "pendragon": ("siz=14 dex=12 str=14 con=13 app=10 skills.sword=15", "dagger"),
    "fading-suns": ("dex=6 end=5 skills.melee=5", "knife"),
}


def _said(table: Any, messages: list[Message]) -> str:
    return "\n".join(m.content + "\n" + table.text(m) for m in messages)


async def _line(table: Any, command: str, options: dict[str, Any], *, user: Any = None) -> tuple[str, Any]:
    """The one public line a command answers with, and its interaction (for what it sent privately)."""
    before = len(table.public())
    handle = await table.send(command, options, user=user or table.gm)
    line = await handle.message()
    assert not line.ephemeral and not line.embeds and "\n" not in line.content, line
    await table.trackers_idle()
    assert len(table.public()) == before + 1, "more than one line in the channel"
    return line.content, handle


@pytest.mark.parametrize("system", list(NPCS))
async def test_the_gms_edits_of_a_secret_npc_answer_in_one_line_and_its_sheet_goes_to_the_gm_only(
        table: Any, system: str) -> None:
    stats, weapon, planted, condition, condition_line = NPCS[system]
    await table.setup(system)
    await table.run("setup secret-rolls", {"on": True}, user=table.manager)

    # leak 5: the new NPC joins the roster in one line; its sheet (the 27) reaches the GM alone
    line, handle = await _line(table, "character create", {"name": "Black Guard 1", "stats": stats,
                                                           "weapons": weapon, "npc": True})
    assert line == "Black Guard 1 joins the roster (NPC)"
    private = await handle.wait_for(lambda: next(iter(handle.followup_messages), None), "the GM's sheet")
    assert private.ephemeral and planted in table.text(private)

    # leak 3: a condition, a stat and a weapon, each one line with no figure
    line, handle = await _line(table, "character condition", {"name": "Black Guard 1", "condition": condition,
                                                              "on": True})
    assert line == condition_line and not handle.followup_messages
    skill = next(pair for pair in stats.split() if pair.startswith(("abilities.", "skills."))).split("=")[0]
    line, _ = await _line(table, "character set-stat", {"name": "Black Guard 1", "stat": skill, "value": "18"})
    assert line == "The GM changed Black Guard 1's sheet (behind the screen)"
    line, _ = await _line(table, "character add-item", {"name": "Black Guard 1", "kind": "weapon",
                                                        "item": PLAYERS[system][1]})
    assert line == "The GM changed Black Guard 1's gear (behind the screen)"

    said = _said(table, table.public())
    assert planted not in said and "18" not in said and "Hit Points" not in said, said


@pytest.mark.parametrize("system", list(PLAYERS))
async def test_a_players_edits_of_their_own_character_say_what_changed(table: Any, system: str) -> None:
    stats, weapon = PLAYERS[system]
    await table.setup(system)
    line, _ = await _line(table, "character create", {"name": "Sir Elyan", "stats": stats}, user=table.alice)
    assert line == "Sir Elyan joins the roster"
    line, _ = await _line(table, "character add-item", {"name": "Sir Elyan", "kind": "weapon", "item": weapon},
                          user=table.alice)
    assert line == f"Sir Elyan now carries a {weapon}"
    line, _ = await _line(table, "character remove-item", {"name": "Sir Elyan", "kind": "weapon", "item": weapon},
                          user=table.alice)
    assert line == f"Sir Elyan no longer carries the {weapon}"
    line, handle = await _line(table, "character set-stat", {"name": "Sir Elyan", "stat": "dex", "value": "7"},
                               user=table.alice)
    assert line == "Sir Elyan's dex is now 7"
    private = await handle.wait_for(lambda: next(iter(handle.followup_messages), None), "the owner's sheet")
    assert private.ephemeral and private.embeds[0]["title"] == "Sir Elyan"
