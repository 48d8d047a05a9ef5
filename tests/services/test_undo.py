"""/undo takes back only what the action changed (issue 11, part 2), on SQLite and PostgreSQL.

The issue's case: Bjorn is wounded in the thorax in #fight-1, then in the abdomen in #fight-2, Alice
edits Bjorn's skill, and the GM undoes the #fight-1 attack. Only the thorax wound may go: the
abdomen wound and the edit stay, and the log (which events stand) matches the sheets.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
import yaml
from sqlalchemy import select

from bot.db.models import Character, Event
from bot.errors import UndoBlocked
from bot.services import Actor
from bot.services.changes import AddItem, ItemKey, RemoveItem
from bot.services.undo_record import UndoRecord, read_record

FIGHT_1, FIGHT_2, TAVERN = 2001, 2002, 2003

# Per system: the NPC template the foes and Bjorn are made from, faces that wound Bjorn at two places
# (found with the engines; the tests below check the wounds they make), the skill Alice edits, the
# treatment /heal applies (with the healer's template and faces that succeed).
SYSTEMS: dict[str, dict[str, Any]] = {
    "ars-harn": {"template": "bandit", "hits": ("attack=9 defense=2 location=51", "attack=9 defense=2 location=66"),
                 "where": ("thorax", "abdomen"), "skill": ("abilities.Sword", 3, 6),
                 "heal": ("chirurgy", "bandit", "chirurgy=7")},
    "pendragon": {"template": "bandit", "hits": ("attacker=8 defender=15 damage=3,3,2",
                                                 "attacker=8 defender=15 damage=2,2,2"),
                  "where": (None, None), "skill": ("skills.club", 10, 14),
                  "heal": ("first_aid", "knight", "first_aid=5")},
    # the dodge die typed (rolled at the table): the attack does not wait for Bjorn's player to choose
    "fading-suns": {"template": "thug", "hits": ("attack=7 defense=19 location=12 damage=6,6,6,6",
                                                 "attack=7 defense=19 location=3 damage=2,2,2,2"),
                    "where": ("chest", "right_leg"), "skill": ("skills.melee", 4, 6),
                    "heal": ("first_aid", "physician", "heal=3")},
}


def at(actor: Actor, channel: int) -> Actor:
    return replace(actor, channel_id=channel)


def dig(sheet: dict[str, Any], dotted: str) -> Any:
    node: Any = sheet
    for part in dotted.split("."):
        node = node[part]
    return node


async def events(services: Any) -> list[Event]:
    async with services.db.sessions() as session:
        return list((await session.scalars(select(Event).order_by(Event.id))).all())


async def assert_log_matches_sheets(services: Any) -> None:
    """Each character's wounds are exactly those added, and not taken away, by the events that stand."""
    wanted: dict[int, set[int]] = {}
    for event in await events(services):
        if event.undone or not event.before or "format" not in event.before:
            continue
        record = read_record(event.before)
        assert isinstance(record, UndoRecord)
        for character_id, ops in record.sheets.items():
            keys = wanted.setdefault(character_id, set())
            for op in ops:
                if isinstance(op, AddItem | RemoveItem) and op.path == ("wounds",) and op.key is not None:
                    (keys.add if isinstance(op, AddItem) else keys.discard)(op.key.value)
    async with services.db.sessions() as session:
        sheets = {c.id: c.sheet for c in (await session.scalars(select(Character))).all()}
    for character_id, keys in wanted.items():
        assert {w["index"] for w in sheets[character_id].get("wounds", [])} == keys, character_id


async def two_fights(services: Any, manager: Actor, gm: Actor, alice: Actor, system: str) -> Any:
    """Bjorn (Alice's) in #fight-1 against Foe 1 and in #fight-2 against Foe 2."""
    await services.setup.set_system(manager, system)
    await services.setup.set_gm_role(manager, gm.role_ids[0])
    template = SYSTEMS[system]["template"] if system in SYSTEMS else "bandit"
    sheet = dict(services.runtime.catalogs.catalog(system).npc_templates()[template], name="Bjorn")
    if system in SYSTEMS:
        path, value, _ = SYSTEMS[system]["skill"]
        parent, leaf = path.rsplit(".", 1)
        sheet[parent] = {**sheet.get(parent, {}), leaf: value}
    await services.characters.import_sheet(alice, "bjorn.yaml", yaml.safe_dump(sheet).encode())
    for n, channel in enumerate((FIGHT_1, FIGHT_2), start=1):
        await services.encounters.start(at(gm, channel))
        await services.encounters.add_npcs(at(gm, channel), template, 1, name_prefix=f"Foe {n}")
        await services.encounters.add(at(alice, channel), "Bjorn")
    return services


# -- the case, on the fake engine and on each real one ----------------------------------------------


async def test_undo_keeps_the_other_fights_wound_and_the_owners_edit(services: Any, manager: Actor, gm: Actor,
                                                                     alice: Actor) -> None:
    await two_fights(services, manager, gm, alice, "fake")
    await services.characters.edit_stat(at(alice, TAVERN), "Bjorn", "abilities.Sword", 5)
    first = await services.combat.attack(at(gm, FIGHT_1), "Bjorn", attacker="Foe 1 1",
                                         dice_text="attack=5 location=40")
    await services.combat.attack(at(gm, FIGHT_2), "Bjorn", attacker="Foe 2 1", dice_text="attack=6 location=60")
    await services.combat.attack(at(gm, FIGHT_1), "Foe 1 1", attacker="Bjorn", dice_text="attack=7 location=20")
    await services.characters.edit_stat(at(alice, TAVERN), "Bjorn", "abilities.Sword", 6)
    await services.encounters.next_turn(at(gm, FIGHT_1))

    assert (await services.records.undo(at(gm, FIGHT_1))).kind == "next_turn"
    assert (await services.records.undo(at(gm, FIGHT_1))).kind == "attack"  # Bjorn's blow on Foe 1
    undone = await services.records.undo(at(gm, FIGHT_1))
    assert (undone.kind, undone.id) == ("attack", first.event_id)

    bjorn = (await services.characters.get(gm, "Bjorn")).sheet
    assert [(w["location"], w["code"]) for w in bjorn["wounds"]] == [(60, "W6")]
    assert bjorn["abilities"] == {"Sword": 6}
    assert (await services.characters.get(gm, "Foe 1 1")).sheet["wounds"] == []
    standing = {e.id: e.undone for e in await events(services) if e.kind == "attack"}
    assert standing == {first.event_id: True, first.event_id + 1: False, first.event_id + 2: True}
    await assert_log_matches_sheets(services)


@pytest.mark.parametrize("system", list(SYSTEMS))
async def test_undo_in_each_system(services: Any, manager: Actor, gm: Actor, alice: Actor, system: str) -> None:
    case = SYSTEMS[system]
    await two_fights(services, manager, gm, alice, system)
    start = (await services.characters.get(gm, "Bjorn")).sheet
    first = await services.combat.attack(at(gm, FIGHT_1), "Bjorn", attacker="Foe 1 1", dice_text=case["hits"][0])
    second = await services.combat.attack(at(gm, FIGHT_2), "Bjorn", attacker="Foe 2 1", dice_text=case["hits"][1])
    stat, _, edited = case["skill"]
    await services.characters.edit_stat(at(alice, TAVERN), "Bjorn", stat, edited)
    wounded = (await services.characters.get(gm, "Bjorn")).sheet
    assert len(wounded["wounds"]) == 2, wounded["wounds"]
    if case["where"][0]:
        assert [w["location"] for w in wounded["wounds"]] == list(case["where"])
    kept = wounded["wounds"][1]

    undone = await services.records.undo(at(gm, FIGHT_1))
    assert undone.id == first.event_id

    bjorn = (await services.characters.get(gm, "Bjorn")).sheet
    assert bjorn["wounds"] == [kept]
    assert dig(bjorn, stat) == edited
    if system == "pendragon":  # hit points: the second wound's loss only
        assert bjorn["current_hp"] == start["current_hp"] - kept["amount"]
    assert {e.id for e in await events(services) if e.undone} == {first.event_id}
    assert second.event_id not in {e.id for e in await events(services) if e.undone}
    await assert_log_matches_sheets(services)


@pytest.mark.parametrize("system", list(SYSTEMS))
async def test_undo_refused_while_a_later_treatment_stands_on_the_wound(services: Any, manager: Actor, gm: Actor,
                                                                        alice: Actor, system: str) -> None:
    case = SYSTEMS[system]
    await two_fights(services, manager, gm, alice, system)
    attack = await services.combat.attack(at(gm, FIGHT_2), "Bjorn", attacker="Foe 2 1", dice_text=case["hits"][0])
    before_heal = (await services.characters.get(gm, "Bjorn")).sheet
    method, healer, faces = case["heal"]
    medic = dict(services.runtime.catalogs.catalog(system).npc_templates()[healer], name="Medic")
    await services.characters.import_sheet(gm, "medic.yaml", yaml.safe_dump(medic).encode(), npc=True)
    heal = await services.injuries.heal(at(gm, FIGHT_1), "Bjorn", method, {"wound": 1, "healer": "Medic"}, faces)
    treated = (await services.characters.get(gm, "Bjorn")).sheet
    assert treated["wounds"] != before_heal["wounds"]

    where = f"{case['where'][0]} wound" if case["where"][0] else "wound #1"
    with pytest.raises(UndoBlocked) as refused:
        await services.records.undo(at(gm, FIGHT_2))
    assert str(refused.value) == (f"Bjorn's {where} was treated later (event #{heal.event_id} in <#{FIGHT_1}>): "
                                  "undo that first")
    assert (await services.characters.get(gm, "Bjorn")).sheet == treated  # nothing changed
    assert not any(e.undone for e in await events(services))

    assert (await services.records.undo(at(gm, FIGHT_1))).id == heal.event_id  # the heal, then the attack
    assert (await services.characters.get(gm, "Bjorn")).sheet == before_heal
    assert (await services.records.undo(at(gm, FIGHT_2))).id == attack.event_id
    bjorn = (await services.characters.get(gm, "Bjorn")).sheet
    assert bjorn["wounds"] == []
    await assert_log_matches_sheets(services)


async def test_undo_of_an_owners_edit(services: Any, manager: Actor, gm: Actor, alice: Actor) -> None:
    await two_fights(services, manager, gm, alice, "ars-harn")
    await services.combat.attack(at(gm, FIGHT_2), "Bjorn", attacker="Foe 2 1", dice_text=SYSTEMS["ars-harn"]["hits"][0])
    await services.characters.edit_stat(at(alice, FIGHT_1), "Bjorn", "abilities.Sword", 6)
    await services.characters.add_item(at(alice, FIGHT_1), "Bjorn", "weapon", "hatchet")
    log = await services.records.log(at(alice, FIGHT_1), limit=2)
    assert [(e.kind, getattr(e.record, "stat", None), getattr(e.record, "added", None)) for e in log] == [
        ("edit", None, "Hatchet"), ("edit", "abilities.Sword", None)]

    assert getattr((await services.records.undo(at(gm, FIGHT_1))).record, "added", None) == "Hatchet"
    assert getattr((await services.records.undo(at(gm, FIGHT_1))).record, "stat", None) == "abilities.Sword"
    bjorn = (await services.characters.get(gm, "Bjorn")).sheet
    assert bjorn["abilities"]["Sword"] == 3 and "Hatchet" not in bjorn["weapons"]
    assert [w["location"] for w in bjorn["wounds"]] == ["thorax"]  # #fight-2's attack stays


async def test_undo_of_an_edit_refused_when_edited_again(services: Any, manager: Actor, gm: Actor,
                                                         alice: Actor) -> None:
    await two_fights(services, manager, gm, alice, "ars-harn")
    await services.characters.edit_stat(at(alice, FIGHT_1), "Bjorn", "abilities.Sword", 6)
    again = await services.characters.edit_stat(at(alice, TAVERN), "Bjorn", "abilities.Sword", 7)
    first = next(e for e in await events(services) if e.kind == "edit")
    with pytest.raises(UndoBlocked) as refused:
        await services.records.undo(at(gm, FIGHT_1))
    later = [e for e in await events(services) if e.kind == "edit"][1]
    assert str(refused.value) == (f"Bjorn's abilities.Sword was edited later (event #{later.id} in <#{TAVERN}>, "
                                  f"outside an encounter): event #{first.id} can no longer be undone")
    assert again.sheet["abilities"]["Sword"] == 7
    assert (await services.characters.get(gm, "Bjorn")).sheet["abilities"]["Sword"] == 7


async def test_an_old_snapshot_event_is_undone_only_while_nothing_later_touched_its_characters(
        services: Any, manager: Actor, gm: Actor, alice: Actor) -> None:
    """Events logged before undo records kept whole sheets: /undo restores them only when that loses nothing."""
    await two_fights(services, manager, gm, alice, "fake")
    first = await services.combat.attack(at(gm, FIGHT_1), "Bjorn", attacker="Foe 1 1",
                                         dice_text="attack=5 location=40")
    async with services.db.transaction() as session:  # as the old code stored it
        event = await session.get(Event, first.event_id)
        bjorn = (await session.scalars(select(Character).where(Character.name == "Bjorn"))).one()
        foe = (await session.scalars(select(Character).where(Character.name == "Foe 1 1"))).one()
        event.before = {"characters": {str(bjorn.id): {**bjorn.sheet, "wounds": []}, str(foe.id): foe.sheet},
                        "encounter": None}
    later = await services.combat.attack(at(gm, FIGHT_2), "Bjorn", attacker="Foe 2 1",
                                         dice_text="attack=6 location=60")
    with pytest.raises(UndoBlocked, match=f"Bjorn changed later \\(event #{later.event_id}\\)"):
        await services.records.undo(at(gm, FIGHT_1))
    assert len((await services.characters.get(gm, "Bjorn")).sheet["wounds"]) == 2
    await services.records.undo(at(gm, FIGHT_2))
    await services.records.undo(at(gm, FIGHT_1))
    assert (await services.characters.get(gm, "Bjorn")).sheet["wounds"] == []


def test_wound_identity_is_its_index() -> None:
    from bot.services.changes import diff, take_back

    thorax = {"index": 1, "location": "thorax"}
    abdomen = {"index": 2, "location": "abdomen"}
    ops = diff({"wounds": [], "hp": 10}, {"wounds": [thorax], "hp": 7}, counters=True)
    assert [type(op).__name__ for op in ops] == ["AddItem", "Shift"]
    assert ops[0] == AddItem(("wounds",), ItemKey("index", 1), thorax, 0)
    later = {"wounds": [{"index": 0, "location": "head"}, thorax, abdomen], "hp": 2}
    assert take_back(later, ops) == {"wounds": [{"index": 0, "location": "head"}, abdomen], "hp": 5}


async def test_undo_of_a_rest_puts_back_the_wound_it_healed_in_its_place(services: Any, manager: Actor, gm: Actor,
                                                                         alice: Actor) -> None:
    await two_fights(services, manager, gm, alice, "fake")
    for location in (40, 60):
        await services.combat.attack(at(gm, FIGHT_1), "Bjorn", attacker="Foe 1 1",
                                     dice_text=f"attack=5 location={location}")
    wounded = (await services.characters.get(gm, "Bjorn")).sheet["wounds"]
    rest = await services.injuries.rest(at(alice, FIGHT_1), "Bjorn", 1, "healing=3")
    assert [w["location"] for w in (await services.characters.get(gm, "Bjorn")).sheet["wounds"]] == [40]
    await services.characters.edit_stat(at(alice, FIGHT_2), "Bjorn", "str", 12)

    assert (await services.records.undo(at(gm, FIGHT_1))).id == rest.event_id
    bjorn = (await services.characters.get(gm, "Bjorn")).sheet
    assert bjorn["wounds"] == wounded and bjorn["str"] == 12
    await assert_log_matches_sheets(services)


async def test_a_healed_wounds_number_taken_by_a_new_wound_blocks_undoing_the_heal(
        services: Any, manager: Actor, gm: Actor, alice: Actor) -> None:
    """The fake engine numbers a new wound after the count of wounds, as Fading Suns does after the highest."""
    await two_fights(services, manager, gm, alice, "fake")
    await services.combat.attack(at(gm, FIGHT_1), "Bjorn", attacker="Foe 1 1", dice_text="attack=5 location=40")
    await services.injuries.rest(at(alice, FIGHT_1), "Bjorn", 1, "healing=3")
    hit = await services.combat.attack(at(gm, FIGHT_2), "Bjorn", attacker="Foe 2 1", dice_text="attack=7 location=80")
    with pytest.raises(UndoBlocked) as refused:
        await services.records.undo(at(gm, FIGHT_1))
    assert str(refused.value) == (f"Bjorn's wound #1 was given to a new wound later (event #{hit.event_id} in "
                                  f"<#{FIGHT_2}>): undo that first")
