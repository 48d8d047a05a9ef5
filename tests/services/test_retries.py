"""A retry is the same declaration (bot/services/retries.py): after an attack whose answer failed, the same
attack again is refused with one line, but one with other typed dice is a new declaration and is applied."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from bot.services.retries import AlreadyApplied
from tests.conftest import GM_ROLE

HIT = "attack=9 defense=2 location=50 defender_shock=9 defender_kill=9 defender_fumble=9 defender_stumble=9"
OTHER_HIT = "attack=9 defense=2 location=66 defender_shock=9 defender_kill=9 defender_fumble=9 defender_stumble=9"


async def _wounds(services: Any, gm: Any) -> int:
    return len((await services.characters.get(gm, "Bandit 2")).sheet.get("wounds", []))


async def _attack(services: Any, gm: Any, interaction_id: int, dice_text: str) -> Any:
    return await services.combat.attack(dataclasses.replace(gm, interaction_id=interaction_id), "Bandit 2",
                                        options={"aspect": "edge"}, attacker="Bandit 1", dice_text=dice_text)


async def test_a_retry_matches_its_typed_dice_and_other_dice_are_a_new_attack(
        services: Any, manager: Any, gm: Any) -> None:
    await services.setup.set_system(manager, "ars-harn")
    await services.setup.set_gm_role(manager, GM_ROLE)
    await services.encounters.start(gm)
    await services.encounters.add_npcs(gm, "bandit", 2)
    await _attack(services, gm, 5001, HIT)
    services.runtime.answers.failed(5001)  # its answer never reached the GM
    assert await _wounds(services, gm) == 1

    # the same declaration with the same faces (typed in another order): the same attack, refused
    with pytest.raises(AlreadyApplied, match=r"^Your attack on Bandit 2 was applied at "):
        await _attack(services, gm, 5002, " ".join(reversed(HIT.split())))
    assert await _wounds(services, gm) == 1

    # other typed dice: a new declaration, applied
    await _attack(services, gm, 5003, OTHER_HIT)
    assert await _wounds(services, gm) == 2
