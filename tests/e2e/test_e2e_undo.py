"""/undo through Discord takes back only what the action changed (issue 11): Bjorn is wounded in the thorax
in #combat, then in the abdomen in #general, Alice raises his Sword, and the GM undoes the #combat attack.
The abdomen wound and the edit stay; the log shows the attack struck through and the edit."""

from __future__ import annotations

import re
from typing import Any

import pytest
from sqlalchemy import select

from bot.db.engine import Database
from bot.db.models import Character

# Each flow runs again with realistic latency (50 ms REST, 40 ms gateway) and Discord's buckets: [realistic].
pytestmark = pytest.mark.latency


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


async def stored_sheet(table: Any, name: str) -> dict[str, Any]:
    database = Database.from_url(table.db_url)
    try:
        async with database.sessions() as session:
            return dict((await session.scalars(select(Character.sheet).where(Character.name == name))).one())
    finally:
        await database.dispose()


async def test_undo_in_one_fight_keeps_the_other_fights_wound_and_the_edit(table: Any) -> None:
    fight_1, fight_2 = table.combat, table.world.general
    await table.setup("ars-harn")
    await table.run("character create", {"name": "Bjorn", "stats": "str=1 sta=1 dex=0 qik=1 abilities.Sword=5",
                                         "weapons": "Shortsword"}, user=table.alice)
    for channel in (fight_1, fight_2):
        await table.run("encounter start", channel=channel)
        await table.run("encounter add", {"character": "Bjorn"}, user=table.alice, channel=channel)
        await table.run("encounter npcs", {"template": "bandit", "name_prefix": f"Foe {channel.name}"},
                        channel=channel)

    hit = {"target": "Bjorn", "aspect": "edge", "aim": "mid"}
    thorax = await table.run("attack", {**hit, "attacker": "Foe combat 1", "dice": "attack=9 defense=2 location=51"},
                             channel=fight_1)
    assert "thorax" in thorax.embeds[0]["description"], table.text(thorax)
    abdomen = await table.run("attack", {**hit, "attacker": "Foe general 1",
                                         "dice": "attack=9 defense=2 location=66"}, channel=fight_2)
    assert "abdomen" in abdomen.embeds[0]["description"], table.text(abdomen)
    await table.run("character set-stat", {"name": "Bjorn", "stat": "abilities.Sword", "value": "6"},
                    user=table.alice, channel=fight_2)

    undone = await table.run("undo", channel=fight_1)
    assert "Undone" in table.text(undone) and "Foe combat 1 attacks Bjorn" in table.text(undone), table.text(undone)

    shown = table.text(await table.run("injuries", {"character": "Bjorn"}, channel=fight_1))
    assert "Wounds (1)" in shown and "Abdomen" in shown and "Thorax" not in shown, shown
    sheet = await stored_sheet(table, "Bjorn")
    assert sheet["abilities"]["Sword"] == 6 and [w["location"] for w in sheet["wounds"]] == ["abdomen"]
    log_1 = table.text(await table.run("log", channel=fight_1))
    assert "~~" in log_1 and "Foe combat 1" in log_1.split("~~")[1], log_1
    log_2 = table.text(await table.run("log", channel=fight_2))
    assert "~~" not in log_2 and "Alice edits Bjorn: abilities.Sword = 6" in log_2, log_2

    # The abdomen wound is treated in #combat. /undo in #general takes back the edit (the last thing there);
    # then the attack cannot be undone under the treatment, and says why, changing nothing.
    treated = await table.run("heal", {"character": "Bjorn", "method": "chirurgy", "healer": "Foe combat 1",
                                       "dice": "chirurgy=7"}, channel=fight_1)
    assert not treated.ephemeral
    heal_id = re.search(r"`#(\d+)`", table.text(await table.run("log", channel=fight_1)))
    assert heal_id is not None
    edit = await table.run("undo", channel=fight_2)
    assert "Alice edits Bjorn: abilities.Sword = 6" in table.text(edit), table.text(edit)
    sheet = await stored_sheet(table, "Bjorn")
    assert sheet["abilities"]["Sword"] == 5
    refused = await table.line("undo", channel=fight_2)
    # the line is plain text (its '#' escaped, shown as '#'), the channel's mention alone markup
    assert refused.endswith(f"Bjorn's abdomen wound was treated later (event \\#{heal_id[1]} in <#{fight_1.id}>): "
                            "undo that first"), refused
    assert await stored_sheet(table, "Bjorn") == sheet


async def test_undo_marks_the_undone_message_taken_back(table: Any) -> None:
    """Issue 22 §2: after /undo, the message of the action taken back says so (a phone scrolling up reads no
    death that never happened): first the GM's death verdict, then the blow that asked for it."""
    await table.bjorn_against_bandits(bjorn_joins_first=True)
    blow = await table.run("attack", {"target": "Bandit 1", "weapon": "Broadsword", "aspect": "edge", "aim": "mid",
                                      "modifier": 8, "dice": "attack=9 defense=2 location=50 defender_kill=2"},
                           user=table.alice)
    pressed = await table.emu.click(blow, "grv:gm:1:death", user=table.gm)
    [verdict] = await pressed.followups()
    assert "dies" in table.text(verdict), table.text(verdict)

    await table.run("undo")
    marked = await table.emu.wait_until(
        lambda: table.emu.state.messages[verdict.id].embeds[0]["title"].startswith("\u21a9\ufe0f Taken back") or None,
        what="the death verdict marked taken back")
    shown = table.emu.state.messages[verdict.id]
    assert "~~" in shown.embeds[0]["description"], shown.embeds[0]
    assert marked and not table.emu.state.messages[blow.id].embeds[0]["title"].startswith("\u21a9")

    await table.run("undo")  # the blow itself: its message is marked, and its death buttons leave it
    await table.emu.wait_until(
        lambda: table.emu.state.messages[blow.id].embeds[0]["title"].startswith("\u21a9\ufe0f Taken back") or None,
        what="the blow marked taken back")
    assert "Bjorn attacks Bandit 1" in table.emu.state.messages[blow.id].embeds[0]["title"]
    assert not table.buttons(table.emu.state.messages[blow.id])
    table.check_clean()
