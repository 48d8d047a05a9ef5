"""The characters each event names, stored with it (bot/services/event_names.py): what the web page's log
filtered by a character reads, so the rows must be what reading each stored event would find."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from bot.db.models import Event, EventName
from bot.services.event_names import skeletons
from bot.services.event_records import read_event
from bot.services.results import DefensePrompt, TreatmentOffer
from bot.text_safety import skeleton
from tests.conftest import GM_ROLE

HERO = {"dex": 6, "wits": 5, "skills.melee": 5, "skills.remedy": 5, "skills.dodge": 4}


async def stored(services: Any) -> tuple[set[tuple[int, str, int, int]], set[tuple[int, str, int, int]], set[str]]:
    """(the event_names rows, the rows reading every stored event gives, the kinds that name someone)."""
    async with services.db.sessions() as session:
        rows = {(n.event_id, n.skeleton, n.guild_id, n.channel_id) for n in await session.scalars(select(EventName))}
        events = (await session.scalars(select(Event))).all()
    read = {(e.id, name, e.guild_id, e.channel_id) for e in events for name in skeletons(read_event(e.kind, e.payload))}
    return rows, read, {e.kind for e in events if read_event(e.kind, e.payload).named}


async def test_every_kind_of_event_that_names_characters_stores_their_names_with_it(
        services: Any, manager: Any, alice: Any, gm: Any) -> None:
    """Through the commands: the ORM's events (record_event: a join, NPCs added, an offer, a defence prompt, an
    edit, a turn ended, a leave) and an action's Core insert (insert_event: attacks, a treatment)."""
    await services.setup.set_system(manager, "fading-suns")
    await services.setup.set_gm_role(manager, GM_ROLE)
    await services.characters.create(alice, "Hero", HERO, ["broadsword"], [])
    await services.encounters.start(gm)
    await services.encounters.add(alice, "Hero")
    await services.encounters.add_npcs(gm, "thug", 2)
    await services.combat.attack(alice, "Thug 1", "broadsword", dice_text="attack=7 location=12 defender_effect=1")
    offer = await services.injuries.heal(alice, "Thug 1", "remedy", {"healer": "Hero"})  # not hers: an offer
    assert isinstance(offer, TreatmentOffer)
    await services.injuries.answer_offer(gm, offer.event_id, True)  # rewrites the offer's payload: same names
    asked = await services.combat.attack(gm, "Hero", "knife", attacker="Thug 2", dice_text="attack=3 location=12")
    assert isinstance(asked, DefensePrompt)
    await services.combat.answer_defense(alice, asked.event_id, "parry")  # rewrites the prompt's payload too
    await services.characters.edit_stat(gm, "Thug 2", "dex", 5)
    await services.encounters.roll_initiative(gm)
    await services.encounters.next_turn(gm)
    await services.encounters.remove(gm, "Thug 2")
    await services.records.roll(alice, "2d6")  # names nobody: no row
    await services.records.undo(gm)

    rows, read, kinds = await stored(services)
    assert rows == read
    assert {"join", "add_npcs", "attack", "treatment_offer", "defense_prompt", "edit", "next_turn", "leave"} <= kinds
    assert {name for _, name, _, _ in rows} == {skeleton(n) for n in ("Hero", "Thug 1", "Thug 2")}
