"""Fading Suns, the defender's side chooses the defence (issue 18): the GM's thug attacks Alice's Erian, whose
sheet names none. The attack waits with buttons for Alice (pinged); Bob's press is refused in one line; hers
makes the attack and the result says who chose; no answer in time makes it with the table's rule, and says so."""

from __future__ import annotations

import asyncio
from typing import Any

from emulator import Message

PREFIX = "grv:defense:"


def defense_buttons(message: Message) -> list[str]:
    return [custom_id for custom_id in message.custom_ids if custom_id.startswith(PREFIX)]


async def test_the_target_s_player_chooses_the_defence_or_the_table_s_rule_stands(table: Any) -> None:
    await table.setup("fading-suns")
    for name, user in (("Erian", table.alice), ("Tomas", table.bob)):
        await table.run("character create", {"name": name, "stats": "dex=6 skills.dodge=4 skills.melee=5",
                                             "weapons": "broadsword"}, user=user)
    await table.run("encounter start")
    for user, name in ((table.alice, "Erian"), (table.bob, "Tomas")):
        await table.run("encounter add", {"character": name}, user=user)
    await table.run("encounter npcs", {"template": "thug", "count": 1})

    asked = await table.run("attack", {"target": "Erian", "attacker": "Thug 1", "weapon": "knife",
                                       "dice": "attack=3 location=12"})
    assert f"<@{table.alice.id}>, how does Erian defend?" in asked.content and not asked.embeds
    buttons = defense_buttons(asked)
    assert [b.rsplit(":", 1)[1] for b in buttons] == ["dodge", "parry", "none"]

    refused = await table.emu.click(asked, buttons[1], user=table.bob)
    [line] = await refused.followups()
    assert line.ephemeral and "Erian is not yours" in line.content

    pressed = await table.emu.click(asked, buttons[1], user=table.alice)
    assert (await pressed.response()).type == 6
    [result] = await pressed.followups()
    assert not result.ephemeral and "Thug 1 attacks Erian" in table.text(result)
    assert "Erian's player chose a parry." in table.text(result)
    closed = next(m for m in table.public() if m.id == asked.id)
    assert "a parry, chosen by" in closed.content and not defense_buttons(closed)

    # nobody answers: the table's rule (unnamed_defense: a dodge) when the time runs out
    table.bot.services.runtime.defense_prompt_seconds = 0.3
    asked = await table.run("attack", {"target": "Tomas", "attacker": "Thug 1", "weapon": "knife",
                                       "dice": "attack=3 location=12"})
    assert f"<@{table.bob.id}>, how does Tomas defend?" in asked.content
    for _ in range(400):  # up to 20 s on a busy machine
        made = [m for m in table.public() if "Thug 1 attacks Tomas" in table.text(m)]
        if made:
            break
        await asyncio.sleep(0.05)
    assert made and "No answer for Tomas in 0 s: a dodge, the table's rule" in table.text(made[0])
    closed = next(m for m in table.public() if m.id == asked.id)
    assert "no answer in 0 s, so a dodge" in closed.content and not defense_buttons(closed)
