"""Issue 31: under secret rolls a player learns an NPC exists when it is seated in an encounter in a channel
they can see (the tracker names it there); character-name autocomplete offers no other NPC to a player."""

from __future__ import annotations

from typing import Any

from tests.conftest import GM_ROLE

WULF = {"str": 2, "sta": 1, "dex": 1, "qik": 0, "abilities.Axe": 5}


async def test_a_player_is_offered_only_the_npcs_seated_in_this_channels_fight(services: Any, manager: Any,
                                                                             gm: Any, alice: Any) -> None:
    await services.setup.set_system(manager, "ars-harn")
    await services.setup.set_gm_role(manager, GM_ROLE)
    await services.characters.create(alice, "Wulf", WULF, ["Battleaxe"], [])
    await services.characters.create(gm, "Black Guard 1", WULF, ["Battleaxe"], [], npc=True)
    await services.characters.create(gm, "Black Guard 2", WULF, ["Battleaxe"], [], npc=True)
    assert "Black Guard 1" in await services.characters.names(alice, "")  # secret rolls off: no secret
    await services.setup.set_secret_rolls(manager, True)
    assert await services.characters.names(alice, "") == ["Wulf"]
    assert await services.characters.names(gm, "Black") == ["Black Guard 1", "Black Guard 2"]
    await services.encounters.start(gm)
    await services.encounters.add(gm, "Black Guard 2")
    assert await services.characters.names(alice, "") == ["Black Guard 2", "Wulf"]
