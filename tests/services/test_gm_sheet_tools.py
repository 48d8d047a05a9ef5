"""Issue 18, "the GM can't mend a sheet" and "the GM's work is safe": set-stat takes flags and lists, removing
an item never moves another item's state, and /encounter clear-npcs never deletes a hand-made NPC."""

from __future__ import annotations

from typing import Any

import pytest

from bot.errors import UserError
from rules.errors import RulesError
from tests.conftest import GM_ROLE

KNIGHT = {"siz": 14, "dex": 12, "str": 13, "con": 14, "app": 11, "skills.sword": 16, "skills.lance": 15}
WULF = {"str": 2, "sta": 1, "dex": 1, "qik": 0, "abilities.Axe": 5, "abilities.Sword": 4}


async def _server(services: Any, manager: Any, system: str) -> None:
    await services.setup.set_system(manager, system)
    await services.setup.set_gm_role(manager, GM_ROLE)


async def test_set_stat_takes_false_for_a_flag_and_a_list_for_a_list(services: Any, manager: Any, gm: Any) -> None:
    await _server(services, manager, "pendragon")
    await services.characters.create(gm, "Sir Bedwyr", KNIGHT, ["sword", "lance"], [])
    await services.characters.edit_stat(gm, "Sir Bedwyr", "prone", "true")
    view = await services.characters.edit_stat(gm, "Sir Bedwyr", "prone", "false")
    assert view.sheet["prone"] is False
    view = await services.characters.edit_stat(gm, "Sir Bedwyr", "must_rearm", "yes")
    assert view.sheet["must_rearm"] is True
    view = await services.characters.edit_stat(gm, "Sir Bedwyr", "broken_weapons", "lance, sword")
    assert view.sheet["broken_weapons"] == ["lance", "sword"]
    view = await services.characters.edit_stat(gm, "Sir Bedwyr", "broken_weapons", "none")
    assert view.sheet["broken_weapons"] == []
    with pytest.raises(UserError, match="prone is true or false"):
        await services.characters.edit_stat(gm, "Sir Bedwyr", "prone", "maybe")


async def test_removing_a_weapon_leaves_the_others_dropped_and_held_marks_where_they_were(
        services: Any, manager: Any, alice: Any) -> None:
    await _server(services, manager, "ars-harn")
    await services.characters.create(alice, "Wulf", WULF, ["Dagger", "Battleaxe", "Broadsword"], [])
    # the Battleaxe (second) is on the ground, the Broadsword (third) in hand
    await services.characters.edit_stat(alice, "Wulf", "dropped", "1")
    await services.characters.edit_stat(alice, "Wulf", "held.right", "2")
    view = await services.characters.remove_item(alice, "Wulf", "weapon", "Dagger")
    assert view.sheet["weapons"] == ["Battleaxe", "Broadsword"]
    assert view.sheet["dropped"] == [0]  # still the Battleaxe, not the Broadsword
    assert view.sheet["held"]["right"] == 1  # still the Broadsword
    view = await services.characters.remove_item(alice, "Wulf", "weapon", "Battleaxe")
    assert view.sheet["dropped"] == [] and view.sheet["held"]["right"] == 0


async def test_a_pendragon_lance_removed_and_added_again_is_whole(services: Any, manager: Any, gm: Any) -> None:
    await _server(services, manager, "pendragon")
    await services.characters.create(gm, "Sir Bedwyr", KNIGHT, ["sword", "lance"], [])
    await services.characters.edit_stat(gm, "Sir Bedwyr", "broken_weapons", "lance")
    await services.characters.remove_item(gm, "Sir Bedwyr", "weapon", "lance")
    view = await services.characters.add_item(gm, "Sir Bedwyr", "weapon", "lance")
    assert view.sheet["broken_weapons"] == []


async def test_fading_suns_removing_a_dropped_weapon_is_not_refused(services: Any, manager: Any, gm: Any) -> None:
    await _server(services, manager, "fading-suns")
    await services.characters.create(gm, "Erian", {"dex": 6, "skills.melee": 5}, ["broadsword", "rapier"], [])
    await services.characters.edit_stat(gm, "Erian", "dropped", "broadsword")
    view = await services.characters.remove_item(gm, "Erian", "weapon", "broadsword")
    assert view.sheet["dropped"] == [] and view.sheet["weapons"] == ["rapier"]


async def test_clear_npcs_never_deletes_an_npc_made_by_hand(services: Any, manager: Any, gm: Any) -> None:
    await _server(services, manager, "ars-harn")
    await services.characters.create(gm, "Mordred", WULF, ["Battleaxe"], [], npc=True)
    await services.encounters.start(gm)
    await services.encounters.add(gm, "Mordred")
    await services.encounters.add_npcs(gm, "bandit", 2)
    await services.encounters.end(gm, keep_npcs=True)
    cleared = await services.encounters.clear_npcs(gm)
    assert cleared.deleted == ("Bandit 1", "Bandit 2")
    assert cleared.hand_made == ("Mordred",)
    assert [c.name for c in await services.characters.list(gm)] == ["Mordred"]


@pytest.mark.parametrize(("system", "sheet", "weapons", "condition", "read"), [
    ("ars-harn", WULF, ["Handaxe"], "prone", lambda s: "prone" in s["conditions"]),
    ("pendragon", KNIGHT, ["sword"], "out of fight", lambda s: s["out_of_fight"]),
    ("fading-suns", {"dex": 6, "skills.melee": 5}, ["broadsword"], "stunned", lambda s: "stunned" in s["conditions"]),
])
async def test_a_gm_sets_and_clears_a_condition_and_undo_takes_it_back(
        services: Any, manager: Any, alice: Any, gm: Any, system: str, sheet: dict[str, Any], weapons: list[str],
        condition: str, read: Any) -> None:
    await _server(services, manager, system)
    await services.characters.create(alice, "Hero", sheet, weapons, [])
    await services.encounters.start(gm)
    await services.encounters.add(alice, "Hero")
    view = await services.characters.set_condition(gm, "Hero", condition, True)
    assert read(view.sheet)
    undone = await services.records.undo(gm)
    assert undone.kind == "edit"
    assert not read((await services.characters.get(alice, "Hero")).sheet)
    await services.characters.set_condition(gm, "Hero", condition, True)
    view = await services.characters.set_condition(gm, "Hero", condition, False)
    assert not read(view.sheet)
    with pytest.raises(UserError, match="GM"):
        await services.characters.set_condition(alice, "Hero", condition, True)


@pytest.mark.parametrize(("system", "sheet", "weapons", "allowed"), [
    ("ars-harn", WULF, ["Handaxe"], "conditions: shock, prone, unconscious, incapacitated, dead"),
    ("pendragon", KNIGHT, ["sword"], "conditions: prone, mounted, unconscious"),
    ("fading-suns", {"dex": 6}, ["broadsword"], "conditions: prone, stunned, unconscious, dying, dead"),
])
async def test_a_condition_the_system_does_not_have_is_one_line_naming_those_it_has(
        services: Any, manager: Any, gm: Any, system: str, sheet: dict[str, Any], weapons: list[str],
        allowed: str) -> None:
    await _server(services, manager, system)
    await services.characters.create(gm, "Hero", sheet, weapons, [])
    before = (await services.characters.get(gm, "Hero")).sheet
    with pytest.raises(RulesError, match=f"'bewitched' is not an? .* condition \\({allowed}"):
        await services.characters.set_condition(gm, "Hero", "bewitched", True)
    assert (await services.characters.get(gm, "Hero")).sheet == before
