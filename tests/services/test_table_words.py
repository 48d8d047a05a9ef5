"""Issue 34, N12, N13 and F3: what the bot says back names characters as their sheets do, and a refusal says
what was refused."""

from __future__ import annotations

from typing import Any

import pytest

from bot.errors import PermissionDenied
from bot.ui.encounter_embeds import joined, npcs_joined
from tests.conftest import GM_ROLE

WULF = {"str": 2, "sta": 1, "dex": 1, "qik": 0, "abilities.Axe": 5}


async def test_a_join_and_a_refused_rest_name_the_character_as_stored(services: Any, manager: Any, gm: Any,
                                                                      alice: Any, bob: Any) -> None:
    await services.setup.set_system(manager, "ars-harn")
    await services.setup.set_gm_role(manager, GM_ROLE)
    await services.characters.create(alice, "Sir Brunor", WULF, ["Battleaxe"], [])
    await services.encounters.start(gm)
    view = await services.encounters.add(alice, "sir brunor")  # N13: typed in lower case
    assert joined(list(view.joined)) == "**Sir Brunor** joined the encounter."
    with pytest.raises(PermissionDenied, match=r"only its owner or the GM can let them rest$"):  # N12
        await services.injuries.rest(bob, "Sir Brunor", 7)


async def test_npcs_named_apart_from_their_template_are_named(services: Any, manager: Any, gm: Any) -> None:
    await services.setup.set_system(manager, "fading-suns")
    await services.setup.set_gm_role(manager, GM_ROLE)
    await services.encounters.start(gm)
    view = await services.encounters.add_npcs(gm, "duellist", 1, "Baron Vasska")
    assert view.npcs_added == ("Baron Vasska 1",)
    kind = view.npc_kind
    assert npcs_joined(kind, 1, view.npcs_added) == f"**Baron Vasska 1** ({kind}) joined the encounter."
    # named after their template: counted, as before
    assert npcs_joined("Bandit", 2, ("Bandit 1", "Bandit 2")) == "2 \u00d7 **Bandit** joined the encounter."
    # one NPC named after its template reads as a character's join does (not "1 × Thug")
    assert npcs_joined("Thug", 1, ("Thug 1",)) == "**Thug 1** joined the encounter."


async def test_shock_that_outlasts_the_fight_is_said_when_it_ends(services: Any, manager: Any, gm: Any) -> None:
    # issue 34, A4: ars-harn shock lasted into the next session without a word
    from bot.ui.encounter_embeds import encounter_ended
    await services.setup.set_system(manager, "ars-harn")
    await services.setup.set_gm_role(manager, GM_ROLE)
    await services.characters.import_sheet(gm, "wulf.yaml", b"name: Wulf\nstr: 2\nsta: 1\ndex: 1\nqik: 0\n"
                                                            b"abilities: {Axe: 5}\nconditions: [shock]\n")
    await services.encounters.start(gm)
    await services.encounters.add(gm, "Wulf")
    ended = await services.encounters.end(gm)
    assert ("Wulf is still in shock: `/recover condition:shock` rolls to snap out of it, and a rest ends it."
            in encounter_ended(ended))
