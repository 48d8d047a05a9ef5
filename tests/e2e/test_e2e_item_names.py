"""Autocomplete offers the pack's display names, never its ids (issue 22 §3: "great_axe 13", "right_arm"), and
what it offers is accepted as typed, in every system."""

from __future__ import annotations

import re
from typing import Any

import pytest

from emulator import Member

SNAKE = re.compile(r"[a-z]+_[a-z_]+")
SHEETS = {
    "ars-harn": {"name": "Bjorn", "stats": "str=2 sta=1 dex=1 qik=1 abilities.Sword=5"},
    "pendragon": {"name": "Bjorn", "stats": "siz=14 dex=12 str=14 con=13 app=10 skills.great_axe=15"},
    "fading-suns": {"name": "Bjorn", "stats": "str=5 dex=6 end=5 skills.melee=5"},
}


async def _offered(table: Any, command: str, options: dict[str, Any], focused: str, user: Member) -> list[str]:
    typing = await table.emu.autocomplete(command, options, focused=focused, user=user, channel=table.combat)
    names = [str(c["name"]) for c in await typing.choices()]
    assert names, f"/{command} {focused}: nothing offered"
    bad = [n for n in names if SNAKE.search(n)]
    assert not bad, f"/{command} {focused} offers internal names: {bad}"
    return names


@pytest.mark.parametrize("system", list(SHEETS))
async def test_item_and_location_autocomplete_offers_display_names_that_are_accepted(table: Any,
                                                                                    system: str) -> None:
    await table.setup(system)
    weapons = await _offered(table, "character create", {"weapons": ""}, "weapons", table.alice)
    armour = await _offered(table, "character create", {"armour": ""}, "armour", table.alice)
    if system == "pendragon":
        assert "great axe" in weapons and "reinforced chainmail" in armour, (weapons, armour)
    weapon = "great axe" if system == "pendragon" else weapons[0]
    created = await table.run("character create", {**SHEETS[system], "weapons": weapon, "armour": armour[0]},
                              user=table.alice)
    assert "Bjorn" in table.text(created)
    # the sheet's own weapons, as /attack offers them
    on_sheet = await _offered(table, "attack", {"attacker": "Bjorn", "weapon": ""}, "weapon", table.alice)
    assert weapon in on_sheet, on_sheet
    if system == "fading-suns":
        locations = await _offered(table, "attack", {"location": "ri"}, "location", table.alice)
        assert locations == ["right arm", "right leg"], locations
    await table.run("encounter start")
    await table.run("encounter add", {"character": "Bjorn"}, user=table.alice)
    await table.run("encounter npcs", {"template": "bandit" if system != "fading-suns" else "thug", "count": 1})
    options = {"target": "Bandit 1" if system != "fading-suns" else "Thug 1", "weapon": on_sheet[0]}
    if system == "fading-suns":
        options["location"] = "right arm"
    attacked = await table.run("attack", options, user=table.alice)
    assert "Bjorn attacks" in table.text(attacked), table.text(attacked)
    table.check_clean()
