"""Issue 22 §1 and §2 under secret rolls, the bullets not held elsewhere: a GM channel the bot may not post in
loses no dice (the GM gets them privately, told once why); the GM's verdict on an NPC and an NPC's rest are
logged as what happened, not "rolled in secret"."""

from __future__ import annotations

from typing import Any

import pytest

from emulator import permissions as perms
from emulator.models import Overwrite

pytestmark = pytest.mark.latency

# typed by the GM for Bjorn: under secret rolls a player may not type the bandit's defence and kill roll
FAILED_KILL = {"attacker": "Bjorn", "target": "Bandit 1", "aspect": "edge", "aim": "high",
               "dice": "attack=1,1,9 defense=2 location=6 defender_kill=2"}


async def fight(table: Any, bandits: int = 1) -> None:
    """Bjorn (Alice's) against ``bandits`` bandits."""
    await table.bjorn_against_bandits(bandits, bjorn_joins_first=True)


async def test_a_gm_channel_the_bot_may_not_post_in_loses_no_secret_dice(table: Any) -> None:
    """The GM channel is there, but the bot lost Send Messages in it: the NPC's dice reach the GM privately,
    and the GM is told once what is wrong (before: 'cannot post a secret roll in the GM channel …' logged, the
    dice lost)."""
    await fight(table)
    screen = table.emu.add_channel(table.world.guild, "gm-screen")
    await table.run("setup secret-rolls", {"on": True, "gm_channel": screen}, user=table.manager)
    bot_role = next(r for r in table.world.guild.roles.values() if r.managed)
    table.emu.set_overwrites(screen, [Overwrite(bot_role.id, 0, deny=perms.SEND_MESSAGES)])

    handle = await table.send("attack", {"attacker": "Bandit 1", "target": "Bjorn",
                                         "dice": "attack=1,9 defense=1 location=50 defender_shock=9"})
    public = await handle.message()
    assert " vs " not in table.text(public)
    [private] = await handle.followups()
    assert private.ephemeral and "Dice" in table.text(private), table.text(private)
    assert "is not working" in private.content, private.content
    assert not table.emu.state.history(screen)

    again = await table.send("attack", {"attacker": "Bandit 1", "target": "Bjorn", "dice": "attack=2 defense=9"})
    await again.message()
    [second] = await again.followups()
    assert "Dice" in table.text(second) and not second.content  # told once
    table.emu.clear_refusals()  # the refused post in the GM channel was the point
    table.check_clean()


async def test_the_gms_verdict_on_an_npc_and_its_rest_are_logged_as_what_happened(table: Any) -> None:
    """Before: 'Wolf 1 rolled in secret' for the GM's own death verdict, and for a week's rest."""
    await fight(table, bandits=2)
    await table.run("setup secret-rolls", {"on": True}, user=table.manager)
    hit = await table.run("attack", FAILED_KILL, user=table.gm)
    [death, _] = table.buttons(hit)
    await (await table.emu.click(hit, death, user=table.gm)).message()
    await table.run("attack", {**FAILED_KILL, "target": "Bandit 2", "dice": "attack=9 defense=2 location=50"},
                    user=table.gm)
    await table.run("rest", {"character": "Bandit 2", "days": 7})
    log = table.text(await table.run("log", user=table.alice))
    assert "rolled in secret" not in log, log
    assert "The GM decides: **Bandit 1** dies." in log and "**Bandit 2** rests 7 days." in log, log
    table.check_clean()
