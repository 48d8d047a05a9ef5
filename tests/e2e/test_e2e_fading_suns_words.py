"""Fading Suns in its own words through Discord (issue 22): an NPC's secret totals stay out of a player's attack
message, a critical failure says what it cost, and a location is one name however it is typed."""

from __future__ import annotations

import re
from typing import Any


async def make_fight(table: Any) -> None:
    await table.setup("fading-suns")
    await table.run("character create", {"name": "Erian", "stats": "dex=6 end=5 skills.melee=5 skills.dodge=4",
                                         "weapons": "broadsword", "armour": "leather jerkin"}, user=table.alice)
    await table.run("encounter start")
    await table.run("encounter add", {"character": "Erian"}, user=table.alice)
    await table.run("encounter npcs", {"template": "thug", "count": 1})


async def test_under_secret_rolls_a_players_attack_leaves_out_the_npcs_defence_total(table: Any) -> None:
    await make_fight(table)
    open_roll = await table.run("attack", {"target": "Thug 1", "dice": "attack=5 defense=2"}, user=table.alice)
    assert "5 vs 11: success, 1 VP · dodge 2 vs 7" in open_roll.embeds[0]["description"]
    await table.run("setup secret-rolls", {"on": True}, user=table.manager)
    # the thug's dodge is now the GM's roll: Alice typing its face is refused in one line, and nothing is rolled
    before = len(table.public())
    refused = await (await table.send("attack", {"target": "Thug 1", "dice": "attack=5 defense=2"},
                                      user=table.alice)).message()
    assert refused.ephemeral and refused.content.startswith(
        "\u26a0\ufe0f dice: defense=2 would be Thug 1's roll, which the GM makes behind the screen"), refused.content
    assert len(table.public()) == before
    # Alice types her own die; the bot rolls the thug's dodge (the table's seed)
    hidden = await table.run("attack", {"target": "Thug 1", "dice": "attack=5"}, user=table.alice)
    shown = hidden.embeds[0]["description"]
    # the GM sees every die
    behind = table.text(await table.details(hidden, user=table.gm))
    dodge = re.search(r"Thug 1 dodges: (\d+) vs goal 7: \*\*(\w[\w ]*)\*\*", behind)
    assert dodge and "defense d20" in behind, behind
    assert "5 vs 11: success, 1 VP" in shown  # Erian's own roll
    assert f"dodge {dodge[1]}" not in shown and "vs 7" not in shown  # the thug's dodge stays behind the screen
    # Erian's player may look at the Details: her own dice and goal, what the dodge did, not its numbers
    seen = table.text(await table.details(hidden, user=table.alice))
    assert "attack d20 [5] = **5** vs goal 11" in seen and "fading" not in seen
    assert f"Thug 1 dodges: **{dodge[2]}**" in seen and "defense d20" not in seen and "vs goal 7" not in seen
    # the GM types a hit for Erian (the thug's dodge and effect dice are his to type)
    hit = await table.run("attack", {"attacker": "Erian", "target": "Thug 1",
                                     "dice": "attack=5 defense=19 location=12 defender_effect=19"}, user=table.gm)
    # the damage Erian dealt, not the thug's armour that took 4 off it (its sheet is the GM's)
    assert "5 vs 11: success, 1 VP · damage 7" in hit.embeds[0]["description"]
    assert "armour 4" not in hit.embeds[0]["description"]
    table.check_clean()


async def test_a_critical_failure_whose_fumble_roll_passes_costs_nothing(table: Any) -> None:
    await make_fight(table)
    kept = table.text(await table.run("attack", {"target": "Thug 1", "dice": "attack=20 fumble=2"},
                                      user=table.alice))
    assert "**Critical failure**: Erian's attack fails." in kept and "goes badly wrong" not in kept
    assert "FUMBLE passed: Erian keeps hold of the broadsword" in kept
    dropped = table.text(await table.run("attack", {"target": "Thug 1", "dice": "attack=20 fumble=19"},
                                         user=table.alice))
    assert "**Critical failure**: Erian's attack goes badly wrong." in dropped
    assert "Erian drops the broadsword" in dropped
    table.check_clean()
