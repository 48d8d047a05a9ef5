"""The rules' defaults, said out loud (issue 18 section 3): /attack's options in each system."""

from __future__ import annotations

from typing import Any

import pytest

from bot.ui import embeds
from rules.errors import RulesError
from tests.conftest import GM_ROLE


async def _fight(services: Any, manager: Any, alice: Any, gm: Any, system: str, sheet: dict[str, Any],
                 weapons: list[str], template: str) -> None:
    await services.settings.set_system(manager, system)
    await services.settings.set_gm_role(manager, GM_ROLE)
    await services.characters.create(alice, "Hero", sheet, weapons, [])
    await services.encounters.start(gm)
    await services.encounters.add(alice, "Hero")
    await services.encounters.add_npcs(gm, template, 1)


PENDRAGON_BOWMAN = {"siz": 12, "dex": 14, "str": 11, "con": 12, "app": 10, "skills.bow": 14}


async def test_a_pendragon_bowman_shoots_unopposed_by_default(services: Any, manager: Any, alice: Any,
                                                               gm: Any) -> None:
    await _fight(services, manager, alice, gm, "pendragon", PENDRAGON_BOWMAN, ["bow"], "knight")
    report = await services.combat.attack(alice, "Knight 1", "bow", dice_text="attacker=9 damage=3,3,3")
    assert report.outcome["unopposed"] and report.outcome["unopposed_why"] == "missile"
    assert report.outcome["winner"] == "attacker"
    assert "could not fight back (a missile, unopposed at range)" in embeds.action(report).description


async def test_a_pendragon_bowman_in_reach_fights_an_exchange_when_asked(services: Any, manager: Any, alice: Any,
                                                                          gm: Any) -> None:
    await _fight(services, manager, alice, gm, "pendragon", PENDRAGON_BOWMAN, ["bow"], "knight")
    report = await services.combat.attack(alice, "Knight 1", "bow", {"unopposed": False},
                                          dice_text="attacker=9 defender=12 damage=3,3,3,3,3,3")
    assert report.outcome["defender_roll"] is not None and report.outcome["winner"] == "defender"


async def test_an_ars_harn_missile_takes_its_range_band(services: Any, manager: Any, alice: Any, gm: Any) -> None:
    await _fight(services, manager, alice, gm, "ars-harn", {"str": 0, "sta": 0, "dex": 2, "qik": 1,
                                                            "abilities.Bow": 5}, ["Longbow"], "bandit")
    near = await services.combat.attack(alice, "Bandit 1", "Longbow", {"range": "short"},
                                        dice_text="attack=9 defense=2 location=50 shock=9")
    far = await services.combat.attack(alice, "Bandit 1", "Longbow", {"range": "extreme"},
                                       dice_text="attack=9 defense=2 location=50 shock=9")
    assert (near.outcome["range"], far.outcome["range"]) == ("short", "extreme")
    def impact(report: Any) -> int:  # damage less the excess: the weapon's impact at that range, and Strength
        return int(report.outcome["damage_total"] - report.outcome["excess"])

    assert impact(near) - impact(far) == 6 - 3  # the pack's Longbow: short 8 ... extreme 5
    with pytest.raises(RulesError, match="only for missile weapons"):
        await services.combat.attack(gm, "Hero", "Shortsword", {"range": "long"}, attacker="Bandit 1",
                                     dice_text="attack=9 defense=2 location=50")


async def test_a_fading_suns_knife_can_be_thrown(services: Any, manager: Any, alice: Any, gm: Any) -> None:
    await _fight(services, manager, alice, gm, "fading-suns", {"dex": 6, "skills.melee": 5}, ["knife"], "thug")
    report = await services.combat.attack(alice, "Thug 1", "knife", {"throw": True}, dice_text="attack=3 location=12")
    assert report.outcome["mode"] == "missile"
    hero = await services.characters.get(alice, "Hero")
    assert hero.sheet["dropped"] == ["knife"]  # thrown: it left the hand
