"""Every service path on the fake engine, on each backend."""

from __future__ import annotations

from typing import Any

import pytest

from bot.errors import Conflict, NotFound, NotInEncounter, UserError
from bot.services.event_records import ActionEvent

GM_ROLE = 3000


async def test_settings_show_and_change(services: Any, manager: Any, gm: Any) -> None:
    view = await services.setup.show(manager)
    assert (view.system, view.rolls, view.gm_role_id, view.channel_system) == ("ars-harn", "auto", None, None)
    await services.setup.set_system(manager, "fake")
    view = await services.setup.set_ruling(manager, "hit_on", "5")
    assert view.rulings == {"auto_rolls": True, "hit_on": 5, "style": "plain"}
    assert view.overridden == ("hit_on",)
    view = await services.setup.set_ruling(manager, "STYLE", "Grim")
    assert view.rulings["style"] == "grim"
    view = await services.setup.set_ruling(manager, "auto_rolls", "off")
    assert view.rulings["auto_rolls"] is False
    view = await services.setup.set_ruling(manager, "hit_on", "3")  # back to the default: stored no more
    assert view.overridden == ("auto_rolls", "style")
    assert [s.name for s in await services.setup.ruling_names(manager)] == ["auto_rolls", "hit_on", "style"]
    assert (await services.setup.set_rolls(manager, "gm")).rolls == "gm"
    assert (await services.setup.set_gm_role(manager, GM_ROLE)).gm_role_id == GM_ROLE
    assert (await services.setup.viewer(gm)).is_gm and (await services.setup.viewer(manager)).is_gm
    view = await services.setup.set_system(manager, "ars-harn", channel_only=True)
    assert (view.guild_system, view.channel_system, view.system) == ("fake", "ars-harn", "ars-harn")
    view = await services.setup.clear_channel_system(manager)
    assert (view.system, view.channel_system) == ("fake", None)


@pytest.mark.parametrize(("name", "value", "message"), [
    ("hit_on", "three", "whole number"), ("auto_rolls", "maybe", "true or false"),
    ("style", "baroque", "one of plain, grim"), ("nonsense", "1", "has no ruling 'nonsense'"),
])
async def test_bad_rulings_are_refused(services: Any, manager: Any, name: str, value: str, message: str) -> None:
    await services.setup.set_system(manager, "fake")
    with pytest.raises(UserError, match=message):
        await services.setup.set_ruling(manager, name, value)
    assert (await services.setup.show(manager)).overridden == ()


async def test_unknown_system_and_rolls_mode(services: Any, manager: Any) -> None:
    with pytest.raises(UserError, match="unknown or unavailable system 'dnd'"):
        await services.setup.set_system(manager, "dnd")
    with pytest.raises(UserError, match="rolls is one of auto, gm"):
        await services.setup.set_rolls(manager, "sometimes")


async def test_characters_lifecycle(services: Any, manager: Any, alice: Any, gm: Any) -> None:
    await services.setup.set_system(manager, "fake")
    await services.setup.set_gm_role(manager, GM_ROLE)
    made = await services.characters.create(alice, "  Aldo   the Bold ", {"str": "12", "notes.home": "Kaldor"},
                                            ["sword"], ["mail shirt"])
    assert made.name == "Aldo the Bold"
    assert made.sheet == {"name": "Aldo the Bold", "str": 12, "notes": {"home": "Kaldor"}, "weapons": ["Sword"],
                          "armour": ["Mail Shirt"], "wounds": []}
    assert (made.owner_id, made.npc, made.system, made.summary.name) == (alice.user_id, False, "fake", "Aldo the Bold")
    got = await services.characters.get(alice, "aldo THE bold")
    assert got.id == made.id and got.version == 1
    view = await services.characters.edit_stat(alice, "Aldo the Bold", "str", 14)
    assert view.sheet["str"] == 14 and view.version == 2
    view = await services.characters.add_item(alice, "Aldo the Bold", "weapon", "CLUB")
    assert view.sheet["weapons"] == ["Sword", "Club"]
    view = await services.characters.remove_item(alice, "Aldo the Bold", "weapon", "sword")
    assert view.sheet["weapons"] == ["Club"]
    view = await services.characters.remove_item(alice, "Aldo the Bold", "armour", "Mail Shirt")
    assert view.sheet["armour"] == []
    npc = await services.characters.create(gm, "Ogre", {"str": 20}, [], [], npc=True)
    assert npc.npc and npc.owner_id == gm.user_id
    assert [c.name for c in await services.characters.list(alice)] == ["Aldo the Bold", "Ogre"]
    assert [c.name for c in await services.characters.list(alice, mine=True)] == ["Aldo the Bold"]
    assert await services.characters.names(alice, "og") == ["Ogre"]
    assert await services.characters.item_names(alice, "weapon", "s") == ["Spear", "Sword"]
    assert await services.characters.item_names(alice, "armour", "") == ["Leather Cap", "Mail Shirt"]
    assert await services.characters.sheet_items(alice, "Aldo the Bold", "weapon") == ["Club"]
    gone = await services.characters.delete(alice, "Aldo the Bold")
    assert gone.name == "Aldo the Bold"
    with pytest.raises(NotFound):
        await services.characters.get(alice, "Aldo the Bold")


async def test_import_sheet_and_replace(services: Any, manager: Any, alice: Any) -> None:
    await services.setup.set_system(manager, "fake")
    data = b"name: Cara\nstr: 9\nweapons: [Spear]\n"
    view = await services.characters.import_sheet(alice, "cara.yaml", data)
    assert view.sheet["weapons"] == ["Spear"] and view.sheet["str"] == 9
    with pytest.raises(UserError, match="already exists"):
        await services.characters.import_sheet(alice, "cara.yaml", data)
    view = await services.characters.import_sheet(alice, "cara.json", b'{"name": "Cara", "str": 15}', replace=True)
    assert view.sheet["str"] == 15 and view.version == 2


async def test_encounter_flow(table: Any, alice: Any, bob: Any, gm: Any) -> None:
    services = table
    view = await services.encounters.status(alice)
    assert [c.name for c in view.combatants] == ["Aldo", "Brun"] and view.current.name == "Aldo"
    view = await services.encounters.add_npcs(gm, "bandit", 3)
    assert [c.name for c in view.combatants][2:] == ["Bandit 1", "Bandit 2", "Bandit 3"]
    view = await services.encounters.add_npcs(gm, "Bandit", 2)
    assert [c.name for c in view.combatants][5:] == ["Bandit 4", "Bandit 5"]
    assert all(c.npc for c in view.combatants[2:])
    view = await services.encounters.roll_initiative(gm, "initiative=9,1,5,2,3,4,6")
    by_name = {c.name: c.initiative for c in view.combatants}
    assert by_name == {"Aldo": 21, "Brun": 12, "Bandit 1": 13, "Bandit 2": 10, "Bandit 3": 11, "Bandit 4": 12,
                       "Bandit 5": 14}
    assert [c.name for c in view.combatants][:3] == ["Aldo", "Bandit 5", "Bandit 1"]
    view = await services.encounters.remove(gm, "bandit 2")
    assert "Bandit 2" not in [c.name for c in view.combatants]
    view = await services.encounters.declare(alice, "Aldo", aspect="Point", aim="high", target="Brun")
    assert view.combatants[0].declaration == {"aspect": "point", "aim": "high", "target": "Brun"}
    view = await services.encounters.next_turn(alice)
    assert (view.round, view.current.name) == (1, "Bandit 5")
    for _ in range(len(view.combatants) - 1):
        view = await services.encounters.next_turn(gm)
    assert (view.round, view.current.name) == (2, "Aldo")
    assert view.combatants[0].declaration == {}  # declarations last one round
    view = await services.encounters.set_tracker_message(alice, 987654321012345678)
    assert view.tracker_message_id == 987654321012345678
    assert await services.encounters.combatant_names(alice, "ban") == ["Bandit 1", "Bandit 3", "Bandit 4",
                                                                      "Bandit 5"]
    assert await services.encounters.template_names(alice) == ["Bandit", "Knight"]  # as the pack names them
    ended = await services.encounters.end(gm)
    assert not ended.active
    with pytest.raises(NotInEncounter):
        await services.encounters.status(alice)
    assert (await services.encounters.start(bob)).round == 1  # a new encounter in the same channel


async def test_attack_records_wound_event_and_view(table: Any, alice: Any) -> None:
    report = await table.combat.attack(alice, "brun", "sword", {"aspect": "point"}, "attack=7 location=55")
    assert (report.system, report.action, report.actor_name, report.target_name) == ("fake", "attack", "Aldo", "Brun")
    assert report.outcome.to_dict()["wound"] == {"index": 1, "location": 55, "code": "W7", "by": "Aldo"}
    assert [r.label for r in report.event.shown_rolls] == ["attack", "location"]
    assert report.pending == () and report.event.unused_dice == {}
    brun = next(c for c in report.encounter.combatants if c.name == "Brun")
    assert [w.code for w in brun.wounds] == ["W7"] and brun.penalty == 1
    log = await table.records.log(alice)
    assert log[0].id == report.event_id and log[0].kind == "attack"
    assert isinstance(log[0].record, ActionEvent) and log[0].record.outcome.to_dict()["wound"]["code"] == "W7"


async def test_attack_uses_declaration_and_reports_unused_dice(table: Any, alice: Any) -> None:
    await table.encounters.declare(alice, "Aldo", aspect="point")
    report = await table.combat.attack(alice, "Brun", dice_text="attack=5,6 location=10")
    assert report.outcome.aspect == "point"
    assert report.event.unused_dice == {"attacker:attack": (6,)}  # a typed face left over, with whose roll it was for


async def test_kill_decision_is_decided_once_and_survives_a_restart(table: Any, alice: Any, gm: Any,
                                                                     make_services: Any) -> None:
    report = await table.combat.attack(alice, "Brun", "Sword", dice_text="attack=0 location=40")
    (pending,) = report.pending
    assert (pending.kind, pending.who, pending.options) == ("kill", "Brun", ("death", "incapacitation"))
    restarted = make_services()
    decided = await restarted.combat.decide(gm, pending.id, "Death")
    assert decided.decided is not None and decided.decided.choice == "death"
    assert (await restarted.characters.get(gm, "Brun")).sheet["kill"] == "death"
    with pytest.raises(Conflict, match="already decided"):
        await restarted.combat.decide(gm, pending.id, "incapacitation")
    with pytest.raises(NotFound):
        await restarted.combat.decide(gm, 999_999, "death")


async def test_bad_choice_for_a_decision(table: Any, alice: Any, gm: Any) -> None:
    report = await table.combat.attack(alice, "Brun", dice_text="attack=0 location=40")
    with pytest.raises(UserError, match="choose one of death, incapacitation"):
        await table.combat.decide(gm, report.pending[0].id, "exile")


async def test_gm_rolls_mode_makes_the_engine_wait(table: Any, alice: Any, manager: Any) -> None:
    await table.setup.set_rolls(manager, "gm")
    report = await table.combat.attack(alice, "Brun", dice_text="attack=5 location=40")
    assert [p.kind for p in report.pending] == ["shock"]


async def test_cast_and_act(table: Any, alice: Any) -> None:
    report = await table.combat.cast(alice, "Brun", {"aspect": "blunt"}, "attack=8 location=3")
    assert report.action == "cast" and report.outcome.to_dict()["wound"]["code"] == "W8"
    report = await table.combat.act(alice, "shock", "Aldo")
    assert report.outcome.shock == "steady"
    with pytest.raises(UserError, match="use /attack"):
        await table.combat.act(alice, "attack", "Aldo")
    with pytest.raises(UserError, match="no 'dance' action"):
        await table.combat.act(alice, "dance", "Aldo")


async def test_injuries_heal_and_rest(table: Any, alice: Any) -> None:
    for faces in ("attack=5 location=1", "attack=6 location=2", "attack=7 location=3"):
        await table.combat.attack(alice, "Brun", dice_text=faces)
    bob_view = await table.injuries.list(alice, "Brun")
    assert [w.code for w in bob_view.wounds] == ["W5", "W6", "W7"]
    from bot.services import Actor

    bob = Actor(alice.guild_id, alice.channel_id, 12, "Bob")
    await table.injuries.heal(bob, "Brun", "heal", {}, "healing=3")
    assert len((await table.characters.get(bob, "Brun")).sheet["wounds"]) == 2
    await table.injuries.rest(bob, "Brun", 2)
    assert (await table.characters.get(bob, "Brun")).sheet["wounds"] == []
    with pytest.raises(UserError, match="days is 1 to 365"):
        await table.injuries.rest(bob, "Brun", 0)


async def test_roll_log_and_undo(table: Any, alice: Any, gm: Any) -> None:
    rolled = await table.records.roll(alice, "stress+5 vs 9", "1,1,4")
    assert (rolled.total, rolled.result) == (21, "success")
    await table.combat.attack(alice, "Brun", dice_text="attack=5 location=1")
    await table.combat.attack(alice, "Brun", dice_text="attack=6 location=2")
    await table.encounters.next_turn(alice)
    undone = await table.records.undo(gm)  # the turn
    assert undone.kind == "next_turn" and undone.undone
    assert (await table.encounters.status(alice)).current.name == "Aldo"
    undone = await table.records.undo(gm)  # the second attack
    assert undone.kind == "attack"
    assert [w.code for w in (await table.injuries.list(alice, "Brun")).wounds] == ["W5"]
    kinds = [e.kind for e in await table.records.log(alice, limit=50)]
    assert kinds[:3] == ["undo", "undo", "next_turn"] and "roll" in kinds


async def test_undo_takes_back_a_decision_and_npcs(table: Any, alice: Any, gm: Any) -> None:
    report = await table.combat.attack(alice, "Brun", dice_text="attack=0 location=40")
    pending = report.pending[0]
    await table.combat.decide(gm, pending.id, "death")
    await table.records.undo(gm)  # the decision: open again, sheet restored
    assert "kill" not in (await table.characters.get(gm, "Brun")).sheet
    await table.combat.decide(gm, pending.id, "incapacitation")
    await table.records.undo(gm)
    await table.records.undo(gm)  # the attack itself: its decision is cancelled
    with pytest.raises(Conflict, match="taken back"):
        await table.combat.decide(gm, pending.id, "death")
    await table.encounters.add_npcs(gm, "knight", 2)
    await table.records.undo(gm)
    assert await table.characters.names(gm, "knight") == []
    assert [c.name for c in (await table.encounters.status(gm)).combatants] == ["Aldo", "Brun"]


async def test_nothing_to_undo(table: Any, gm: Any) -> None:
    await table.records.undo(gm)  # Brun joining
    await table.records.undo(gm)  # Aldo joining
    with pytest.raises(NotFound, match="nothing to undo"):
        await table.records.undo(gm)
