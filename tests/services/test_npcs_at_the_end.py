"""Issue 34, N4: the NPCs an encounter made that left it mid-fight stayed on the server for good. They now go with
its end as the others do, named in its answer, and stay with keep_npcs; an NPC made by hand, or one another running
encounter holds, is never deleted there."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.ui import encounter_embeds
from tests.conftest import GM_ROLE

MORDRED = {"str": 2, "sta": 1, "dex": 1, "qik": 0, "abilities.Axe": 5}


async def _fight(services: Any, manager: Any, gm: Any) -> None:
    await services.setup.set_system(manager, "ars-harn")
    await services.setup.set_gm_role(manager, GM_ROLE)
    await services.characters.create(gm, "Mordred", MORDRED, ["Battleaxe"], [], npc=True)
    await services.encounters.start(gm)
    await services.encounters.add(gm, "Mordred")
    await services.encounters.add_npcs(gm, "bandit", 3)


async def _names(services: Any, gm: Any) -> list[str]:
    return [c.name for c in await services.characters.list(gm)]


async def test_an_npc_that_left_mid_fight_goes_with_the_end_and_is_named(services: Any, manager: Any,
                                                                        gm: Any) -> None:
    await _fight(services, manager, gm)
    fled = await services.encounters.remove(gm, "Bandit 2")
    assert fled.npcs_left == ("Bandit 2",)
    assert encounter_embeds.left("Bandit 2", fled) == (
        "**Bandit 2** left the encounter. They go with it at `/encounter end` (`keep_npcs:true` keeps them).")
    mordred = await services.encounters.remove(gm, "Mordred")  # made by hand: nothing to say, it stays
    assert encounter_embeds.left("Mordred", mordred) == "**Mordred** left the encounter."
    ended = await services.encounters.end(gm)
    assert ended.npcs_removed == ("Bandit 1", "Bandit 3", "Bandit 2") and ended.npcs_left == ("Bandit 2",)
    assert "Its NPCs are gone: Bandit 1, Bandit 3, Bandit 2 (had left)." in encounter_embeds.encounter_ended(ended)
    assert await _names(services, gm) == ["Mordred"]


async def test_keep_npcs_keeps_those_that_left_too(services: Any, manager: Any, gm: Any) -> None:
    await _fight(services, manager, gm)
    await services.encounters.remove(gm, "Bandit 3")
    ended = await services.encounters.end(gm, keep_npcs=True)
    assert "Its NPCs stay: Bandit 1, Bandit 2, Bandit 3 (had left)." in encounter_embeds.encounter_ended(ended)
    assert await _names(services, gm) == ["Bandit 1", "Bandit 2", "Bandit 3", "Mordred"]


async def test_an_npc_another_running_encounter_holds_stays(services: Any, manager: Any, gm: Any) -> None:
    await _fight(services, manager, gm)
    await services.encounters.remove(gm, "Bandit 1")
    elsewhere = replace(gm, channel_id=gm.channel_id + 1)
    await services.encounters.start(elsewhere)
    await services.encounters.add(elsewhere, "Bandit 1")  # the bandit ran into the next scene
    ended = await services.encounters.end(gm)
    assert ended.npcs_removed == ("Bandit 2", "Bandit 3") and ended.npcs_left == ()
    assert await _names(services, gm) == ["Bandit 1", "Mordred"]
