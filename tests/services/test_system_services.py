"""Service behaviour the three systems share through neutral names: /heal methods, /rearm, /rest, the
delete check before its prompt, and /injuries without a name (SQLite, real engines and content)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.errors import NotFound, UserError
from tests.conftest import GM_ROLE


async def _table(services: Any, manager: Any, alice: Any, gm: Any, system: str, sheet: dict[str, Any],
                 weapons: list[str], armour: list[str] | None = None) -> None:
    await services.setup.set_system(manager, system)
    await services.setup.set_gm_role(manager, GM_ROLE)
    await services.characters.create(alice, "Hero", sheet, weapons, armour or [])
    await services.encounters.start(gm)
    await services.encounters.add(alice, "Hero")


async def test_heal_offers_each_systems_treatments_and_refuses_others_in_one_line(
        services: Any, manager: Any, alice: Any, gm: Any) -> None:
    await _table(services, manager, alice, gm, "fading-suns", {"dex": 6, "wits": 5, "skills.melee": 5,
                                                               "skills.remedy": 5}, ["broadsword"])
    assert await services.injuries.methods(alice) == ("fading-suns", ["first_aid", "chirurgy"])
    await services.encounters.add_npcs(gm, "thug", 1)
    await services.combat.attack(alice, "Thug 1", "broadsword", dice_text="attack=7 location=12 defender_effect=1")
    healed = await services.injuries.heal(gm, "Thug 1", "remedy", {"healer": "Hero", "modifier": 1}, "heal=3")
    assert healed.action == "heal" and (healed.actor_name, healed.target_name) == ("Hero", "Thug 1")
    assert healed.outcome.skill == "remedy" and healed.outcome.treated is True
    with pytest.raises(UserError, match="fading-suns has no 'spell' treatment; it has: first_aid, chirurgy"):
        await services.injuries.heal(gm, "Thug 1", "spell", {})
    with pytest.raises(UserError, match=r"^/heal has no body_levels option in Fading Suns$"):
        await services.injuries.heal(gm, "Thug 1", "physick", {"body_levels": 2})


async def test_pendragon_first_aid_by_a_healer_and_rest_by_the_week(services: Any, manager: Any, alice: Any,
                                                                     gm: Any) -> None:
    await _table(services, manager, alice, gm, "pendragon", {"siz": 14, "dex": 12, "str": 13, "con": 14, "app": 11,
                                                             "skills.sword": 16, "skills.first_aid": 12},
                 ["sword"], ["chainmail"])
    assert (await services.injuries.methods(alice))[1] == ["first_aid", "chirurgy"]
    await services.encounters.add_npcs(gm, "bandit", 1)
    await services.combat.attack(alice, "Bandit 1", "sword", dice_text="attacker=14 defender=15 damage=2,2,1,1,1")
    report = await services.injuries.heal(gm, "Bandit 1", "first_aid", {"healer": "Hero"}, "first_aid=5 healing=2")
    assert (report.action, report.actor_name, report.target_name) == ("first_aid", "Bandit 1", "Hero")
    assert report.outcome.healed == 2
    with pytest.raises(UserError, match="Pendragon heals by the week"):
        await services.injuries.rest(gm, "Bandit 1", 3)
    rested = await services.injuries.rest(gm, "Bandit 1", 15)
    assert rested.outcome.weeks == 2
    with pytest.raises(UserError, match="pendragon has no 'spell' treatment"):
        await services.injuries.heal(gm, "Bandit 1", "spell", {})


async def test_no_treatment_is_offered_for_nothing_nor_by_someone_unconscious(services: Any, manager: Any,
                                                                              alice: Any, bob: Any, gm: Any) -> None:
    """Issue 34, N7: "Sister Ilse offers Kaz Ortega remedy" to an unhurt Kaz; an unconscious healer's offer."""
    await _table(services, manager, alice, gm, "fading-suns", {"dex": 6, "wits": 5, "skills.melee": 5,
                                                               "skills.remedy": 5}, ["broadsword"])
    await services.characters.create(bob, "Kaz Ortega", {"dex": 5, "skills.melee": 4}, ["broadsword"], [])
    with pytest.raises(UserError, match=r"^Kaz Ortega has no wound to treat$"):
        await services.injuries.heal(alice, "Kaz Ortega", "remedy", {"healer": "Hero"})
    await services.characters.edit_stat(gm, "Hero", "conditions", "unconscious")
    with pytest.raises(UserError, match=r"^Hero is unconscious: they cannot treat anyone now$"):
        await services.injuries.heal(alice, "Kaz Ortega", "remedy", {"healer": "Hero"})


@pytest.mark.parametrize(("system", "sheet", "weapon", "fumble", "engine_action"), [
    ("ars-harn", {"str": 1, "sta": 1, "dex": 1, "qik": 0, "abilities.Sword": 5}, "Broadsword", None, "ready"),
    ("pendragon", {"siz": 14, "dex": 12, "str": 13, "con": 14, "app": 11, "skills.sword": 16}, "sword",
     ("bandit", "attacker=20 defender=15"), "rearm"),
    ("fading-suns", {"dex": 6, "skills.melee": 5}, "broadsword", ("thug", "attack=20 fumble=20"), "recover"),
])
async def test_rearm_works_in_every_system(services: Any, manager: Any, alice: Any, gm: Any, system: str,
                                          sheet: dict[str, Any], weapon: str, fumble: tuple[str, str] | None,
                                          engine_action: str) -> None:
    await _table(services, manager, alice, gm, system, sheet, [weapon])
    if fumble is not None:  # a fumbled attack drops the weapon first
        template, dice = fumble
        await services.encounters.add_npcs(gm, template, 1)
        await services.combat.attack(alice, f"{template.title()} 1", weapon, dice_text=dice)
    report = await services.combat.act(alice, "rearm", "Hero", {"weapon": weapon.upper()})
    assert report.action == "rearm"
    assert report.outcome.action == engine_action


async def test_delete_check_refuses_a_non_owner_before_any_prompt(services: Any, manager: Any, alice: Any,
                                                                   bob: Any, gm: Any) -> None:
    await services.setup.set_gm_role(manager, GM_ROLE)
    await services.characters.create(alice, "Aldo", {"str": 1, "sta": 1, "dex": 1, "qik": 0})
    with pytest.raises(UserError, match="not yours"):
        await services.characters.check_can_delete(bob, "Aldo")
    assert (await services.characters.check_can_delete(alice, "aldo")).name == "Aldo"
    assert (await services.characters.check_can_delete(gm, "Aldo")).name == "Aldo"
    with pytest.raises(NotFound):
        await services.characters.check_can_delete(alice, "Nobody")


async def test_injuries_without_a_name_picks_the_callers_character(services: Any, manager: Any, alice: Any,
                                                                    bob: Any, gm: Any) -> None:
    with pytest.raises(NotFound, match="you have no character here"):
        await services.injuries.list(alice)
    await _table(services, manager, alice, gm, "ars-harn", {"str": 1, "sta": 1, "dex": 1, "qik": 0}, [])
    assert (await services.injuries.list(alice)).name == "Hero"
    await services.characters.create(alice, "Second", {"str": 1, "sta": 1, "dex": 1, "qik": 0})
    assert (await services.injuries.list(alice)).name == "Hero"  # the one in this channel's encounter
    await services.encounters.add(alice, "Second")
    with pytest.raises(UserError, match="you have 2 characters: say which"):
        await services.injuries.list(alice)


# Per system: Hero's sheet and weapon, the NPC Hero wounds with the faces, the treatment the GM gives first (None:
# none), and the refusal the same treatment offered by Hero's player now gets.
REFUSED_OFFERS = {
    "pendragon": ({"siz": 14, "dex": 12, "str": 13, "con": 14, "app": 11, "skills.sword": 16,
                   "skills.chirurgery": 12}, "sword", "bandit", "attacker=14 defender=15 damage=2,2,1,1,1", None,
                  "chirurgery", r"^Bandit 1 needs no chirurgery \(only major wounds and the unconscious do\)$"),
    "ars-harn": ({"str": 1, "sta": 1, "dex": 1, "qik": 0, "abilities.Sword": 5, "abilities.Chirurgy": 5},
                 "Broadsword", "bandit", "attack=9 defense=2 location=51", "chirurgy=7", "chirurgery",
                 r"^Bandit 1 has no untreated wound to heal$"),
    "fading-suns": ({"dex": 6, "wits": 5, "skills.melee": 5, "skills.remedy": 5}, "broadsword", "thug",
                    "attack=7 location=12 defender_effect=1", "heal=3", "remedy",
                    r"^Thug 1 has no untreated wound$"),
}


@pytest.mark.parametrize("system", sorted(REFUSED_OFFERS))
async def test_a_treatment_the_patient_cannot_take_is_refused_when_offered_not_at_accept(
        services: Any, manager: Any, alice: Any, gm: Any, system: str) -> None:
    """Issue 34: a chirurgery offered for a patient who needed none was posted, and refused only at Accept ("the
    patient needs no chirurgery"). What Accept would refuse is refused to the one offering, and no offer is made."""
    from sqlalchemy import func, select

    from bot.db.models import Event
    from rules.errors import IllegalAction

    sheet, weapon, npc, blow, first, method, refusal = REFUSED_OFFERS[system]
    await _table(services, manager, alice, gm, system, sheet, [weapon])
    await services.encounters.add_npcs(gm, npc, 1)
    patient = f"{npc.title()} 1"
    await services.combat.attack(alice, patient, weapon, dice_text=blow)
    if first is not None:  # the GM, who controls both, treats the wound: no offer
        await services.injuries.heal(gm, patient, method, {"healer": "Hero"}, first)
    with pytest.raises(IllegalAction, match=refusal):
        await services.injuries.heal(alice, patient, method, {"healer": "Hero"})
    async with services.db.sessions() as session:
        offers = await session.scalar(select(func.count()).select_from(Event).where(Event.kind == "treatment_offer"))
    assert offers == 0
