"""Issue 18 §1: every lasting state has a way out in its system's terms (/recover, /ready), between fights
too, and /encounter end ends what lasts only for a fight. SQLite and PostgreSQL, real engines and content."""

from __future__ import annotations

from typing import Any

import pytest

from bot.errors import UserError
from bot.services import Actor
from bot.ui.way_out_words import way_out_headline
from rules.errors import IllegalAction
from tests.conftest import CHANNEL, GM_ROLE, GUILD

WULF = {"str": 2, "sta": 1, "dex": 1, "qik": 0, "abilities.Axe": 5, "abilities.Sword": 4}
KNIGHT = {"siz": 14, "dex": 12, "str": 13, "con": 14, "app": 11, "skills.sword": 16, "skills.lance": 15,
          "skills.horsemanship": 14}


async def _server(services: Any, manager: Any, system: str) -> None:
    await services.setup.set_system(manager, system)
    await services.setup.set_gm_role(manager, GM_ROLE)


async def _sheet(services: Any, name: str) -> dict[str, Any]:
    """The character's sheet as stored now (what the action wrote)."""
    gm = Actor(GUILD, CHANNEL, 2, "Gemma", (GM_ROLE,))
    sheet: dict[str, Any] = (await services.characters.get(gm, name)).sheet
    return sheet


async def _fight(services: Any, gm: Any, *names: str) -> None:
    await services.encounters.start(gm)
    for name in names:
        await services.encounters.add(gm, name)


async def test_ars_harn_prone_costs_the_round_or_a_tactical_advantage_and_ends_with_the_fight(
        services: Any, manager: Any, alice: Any, gm: Any) -> None:
    await _server(services, manager, "ars-harn")
    await services.characters.create(alice, "Wulf", WULF, ["Handaxe", "Broadsword"], [])
    await services.characters.edit_stat(alice, "Wulf", "conditions", "prone")
    await _fight(services, gm, "Wulf")
    assert await services.combat.way_out_names(alice, "Wulf", False) == ["prone"]
    report = await services.combat.recover(alice, "Wulf", condition="prone")
    assert report.way_out.cost == "action" and (await _sheet(services, "Wulf"))["conditions"] == []
    assert "Wulf** gets up (that is their action this round)." in way_out_headline("ars-harn", "Wulf",
                                                                                    report.way_out)
    await services.characters.edit_stat(alice, "Wulf", "conditions", "prone")
    await services.characters.edit_stat(alice, "Wulf", "tactical_advantage", "true")
    report = await services.combat.recover(alice, "Wulf", condition="prone")
    assert report.way_out.cost == "advantage" and (await _sheet(services, "Wulf"))["tactical_advantage"] is False
    # prone again, and a weapon on the ground: the fight's end ends both
    await services.characters.edit_stat(alice, "Wulf", "conditions", "prone")
    await services.characters.edit_stat(alice, "Wulf", "held.right", "1")
    await services.characters.edit_stat(alice, "Wulf", "dropped", "0")
    ended = await services.encounters.end(gm)
    assert [(e.name, e.ended, e.gathered) for e in ended.fight_ended] == [("Wulf", ("prone",), ("Handaxe",))]
    sheet = (await services.characters.get(alice, "Wulf")).sheet
    assert sheet["conditions"] == [] and sheet["dropped"] == []


async def test_ars_harn_a_weapon_is_readied_in_a_fight_and_between_fights(services: Any, manager: Any,
                                                                           alice: Any, gm: Any) -> None:
    await _server(services, manager, "ars-harn")
    await services.characters.create(alice, "Wulf", WULF, ["Handaxe", "Broadsword"], [])
    await services.characters.edit_stat(alice, "Wulf", "held.right", "1")
    await services.characters.edit_stat(alice, "Wulf", "dropped", "0")
    # between fights: free
    assert await services.combat.way_out_names(alice, "Wulf", True) == ["Handaxe"]
    report = await services.combat.recover(alice, "Wulf", weapon="handaxe")
    assert report.way_out.cost == "free" and (await _sheet(services, "Wulf"))["held"]["right"] == 0
    await _fight(services, gm, "Wulf")
    report = await services.combat.recover(alice, "Wulf", weapon="Broadsword")
    assert report.way_out.condition == "not_in_hand" and report.way_out.cost == "action"
    assert report.encounter is not None


async def test_ars_harn_a_one_armed_grog_readies_a_weapon_in_his_other_hand(services: Any, manager: Any,
                                                                             alice: Any, gm: Any) -> None:
    """Issue 34, A3: an arrow left Wulf's right arm unusable; /ready puts the Handaxe in the hand he has."""
    await _server(services, manager, "ars-harn")
    await services.characters.create(alice, "Wulf", WULF, ["Handaxe", "Broadsword"], [])
    await services.characters.edit_stat(alice, "Wulf", "unusable_limbs", "right_arm")
    await _fight(services, gm, "Wulf")
    with pytest.raises(IllegalAction, match=r"right arm is unusable: ready the Broadsword in the left hand "
                                            r"instead \(hand: off\)"):
        await services.combat.recover(alice, "Wulf", weapon="Broadsword", hand="main")
    await services.combat.recover(alice, "Wulf", weapon="Broadsword")
    assert (await _sheet(services, "Wulf"))["held"] == {"right": 0, "left": 1}


async def test_ready_hand_is_refused_in_one_line_where_the_system_has_no_hands(services: Any, manager: Any,
                                                                               alice: Any) -> None:
    await _server(services, manager, "pendragon")
    await services.characters.create(alice, "Sir Bedwyr", KNIGHT, ["sword"], [])
    with pytest.raises(UserError, match="/ready has no hand option in King Arthur Pendragon"):
        await services.combat.recover(alice, "Sir Bedwyr", weapon="sword", hand="off")


async def test_a_condition_the_character_does_not_have_gets_one_line_naming_what_it_can(
        services: Any, manager: Any, alice: Any, gm: Any) -> None:
    await _server(services, manager, "ars-harn")
    await services.characters.create(alice, "Wulf", WULF, ["Handaxe"], [])
    await services.characters.edit_stat(alice, "Wulf", "conditions", "prone, unconscious")
    before = (await services.characters.get(alice, "Wulf")).sheet
    with pytest.raises(UserError, match=r"^Wulf is not stunned: Wulf can recover from prone, unconscious$"):
        await services.combat.recover(alice, "Wulf", condition="stunned")
    with pytest.raises(UserError, match="only the GM"):
        await services.combat.recover(alice, "Wulf", condition="unconscious")
    assert (await services.characters.get(alice, "Wulf")).sheet == before
    await services.combat.recover(gm, "Wulf", condition="unconscious")
    assert (await _sheet(services, "Wulf"))["conditions"] == ["prone"]


async def test_pendragon_stands_remounts_and_replaces_a_broken_lance_between_fights(
        services: Any, manager: Any, alice: Any, gm: Any) -> None:
    await _server(services, manager, "pendragon")
    await services.characters.create(alice, "Sir Bedwyr", {**KNIGHT, "horse": "charger"}, ["sword", "lance"], [])
    await services.characters.edit_stat(alice, "Sir Bedwyr", "prone", "true")
    await services.characters.edit_stat(alice, "Sir Bedwyr", "broken_weapons", "lance")
    await services.characters.edit_stat(alice, "Sir Bedwyr", "must_rearm", "true")
    await _fight(services, gm, "Sir Bedwyr")
    assert await services.combat.way_out_names(alice, "Sir Bedwyr", False) == ["prone", "unhorsed"]
    report = await services.combat.recover(alice, "Sir Bedwyr", condition="unhorsed")
    sheet = await _sheet(services, "Sir Bedwyr")
    assert sheet["prone"] is False and sheet["mounted"] is True
    assert "(it takes the round)." in way_out_headline("pendragon", "Sir Bedwyr", report.way_out)
    with pytest.raises(IllegalAction, match="replaced between fights"):
        await services.combat.recover(alice, "Sir Bedwyr", weapon="lance")
    await services.encounters.end(gm)
    report = await services.combat.recover(alice, "Sir Bedwyr", weapon="lance")
    sheet = await _sheet(services, "Sir Bedwyr")
    assert sheet["broken_weapons"] == [] and sheet["must_rearm"] is False and sheet["wielding"] == "lance"


async def test_pendragon_a_knight_who_left_the_fight_is_back_when_it_ends(services: Any, manager: Any,
                                                                           alice: Any, gm: Any) -> None:
    await _server(services, manager, "pendragon")
    await services.characters.create(alice, "Sir Bedwyr", KNIGHT, ["sword"], [])
    await services.characters.edit_stat(alice, "Sir Bedwyr", "out_of_fight", "yes")
    await _fight(services, gm, "Sir Bedwyr")
    with pytest.raises(UserError, match="only the GM"):
        await services.combat.recover(alice, "Sir Bedwyr", condition="out of fight")
    ended = await services.encounters.end(gm)
    assert ended.fight_ended[0].ended == ("out_of_fight",)
    assert (await services.characters.get(alice, "Sir Bedwyr")).sheet["out_of_fight"] is False


async def test_fading_suns_stands_and_picks_up_a_dropped_weapon(services: Any, manager: Any, alice: Any,
                                                                gm: Any) -> None:
    await _server(services, manager, "fading-suns")
    await services.characters.create(alice, "Erian", {"dex": 6, "skills.melee": 5}, ["broadsword"], [])
    await services.characters.edit_stat(alice, "Erian", "conditions", "prone")
    await services.characters.edit_stat(alice, "Erian", "dropped", "broadsword")
    await _fight(services, gm, "Erian")
    report = await services.combat.recover(alice, "Erian", condition="prone")
    assert "(that is their action this turn)." in way_out_headline("fading-suns", "Erian", report.way_out)
    await services.combat.recover(alice, "Erian")  # the only weapon to ready
    assert (await _sheet(services, "Erian"))["dropped"] == []
