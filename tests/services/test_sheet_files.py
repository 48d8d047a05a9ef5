"""Sheets as files: the example sheets of every system import, export and import back unchanged; each
system's template imports as shipped and once filled in; the template lists the server's own pack."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from bot.errors import ConfirmDrop
from bot.services.sheet_file import load_sheet_file
from bot.ui import sheet_files
from bot.ui.sheet_files import export_text, template_text
from rules.sheet_spec import SheetProblems
from tests.conftest import GM_ROLE

EXAMPLES = Path(__file__).resolve().parents[2] / "content" / "examples" / "sheets"
# Every example sheet, and the system it is written for.
EXAMPLE_SYSTEMS = {"bjorn.yaml": "ars-harn", "gawain.yaml": "pendragon", "erian.yaml": "fading-suns",
                   # the first-session playground scripts' filled-in templates
                   "anselm-from-template.yaml": "ars-harn", "elaine-from-template.yaml": "pendragon",
                   "maren-from-template.yaml": "fading-suns"}
# What a player writes into each system's template: values only, every other line as shipped.
FILLED = {
    "ars-harn": {"name": "Hrolf", "str": "2", "sta": "1", "dex": "1", "qik": "0",
                 "abilities": "{Axe: 5, Shield: 3}", "weapons": "[Handaxe, Round Shield]",
                 "armour": "[Leather Vest]"},
    "pendragon": {"name": "Hrolf", "siz": "14", "str": "14", "skills": "{axe: 14}", "weapons": "[axe]",
                  "horse": "rouncy"},
    "fading-suns": {"name": "Hrolf", "str": "5", "skills": "{melee: 6}", "weapons": "[axe]", "build": "tall"},
}


def fill(template: str, values: dict[str, str]) -> str:
    for field, value in values.items():
        template, count = re.subn(rf"^(# )?{field}:.*$", f"{field}: {value}", template, count=1, flags=re.M)
        assert count == 1, field
    return template


async def _server(services: Any, manager: Any, system: str) -> None:
    await services.setup.set_system(manager, system)
    await services.setup.set_gm_role(manager, GM_ROLE)


def test_every_example_sheet_is_listed_with_its_system() -> None:
    assert sorted(p.name for p in EXAMPLES.glob("*.yaml")) == sorted(EXAMPLE_SYSTEMS)
    assert sorted(set(EXAMPLE_SYSTEMS.values())) == ["ars-harn", "fading-suns", "pendragon"]


@pytest.mark.parametrize(("filename", "system"), sorted(EXAMPLE_SYSTEMS.items()))
async def test_an_example_sheet_exports_and_imports_back_unchanged(services: Any, manager: Any, alice: Any,
                                                                   filename: str, system: str) -> None:
    await _server(services, manager, system)
    imported = await services.characters.import_sheet(alice, filename, (EXAMPLES / filename).read_bytes())
    exported = export_text(imported.name, system, imported.sheet).encode()
    assert load_sheet_file("x.yaml", exported) == imported.sheet
    again = await services.characters.import_sheet(alice, "x.yaml", exported, replace=True)
    assert again.sheet == imported.sheet


@pytest.mark.parametrize("system", sorted(FILLED))
async def test_the_template_imports_as_shipped_and_once_filled_in(services: Any, manager: Any, alice: Any,
                                                                  system: str) -> None:
    await _server(services, manager, system)
    template = template_text(await services.characters.guide(alice))
    shipped = await services.characters.import_sheet(alice, "t.yaml", template.encode())
    assert shipped.name.startswith("New ")
    filled = await services.characters.import_sheet(alice, "t.yaml", fill(template, FILLED[system]).encode())
    assert filled.name == "Hrolf"
    for field, value in FILLED[system].items():
        if value.isdigit():
            assert filled.sheet[field] == int(value), field


async def test_the_template_offers_the_servers_homebrew_weapons(services: Any, manager: Any, gm: Any,
                                                                alice: Any) -> None:
    await _server(services, manager, "ars-harn")
    assert "Moon Blade" not in template_text(await services.characters.guide(alice))
    weapons = (resources.files("content") / "ars_harn" / "weapons.yaml").read_bytes()
    await services.packs.upload(gm, "weapons.yaml", weapons + b"  Moon Blade: {skill: Sword, weight: 3, "
                                b"hm_attack: 15, hm_defence: 5, blunt: 2, edge: 7, point: 4}\n")
    assert "Moon Blade" in template_text(await services.characters.guide(alice))


async def test_the_example_knight_charges_with_his_lance_from_the_sheet_as_shipped(services: Any, manager: Any,
                                                                                  gm: Any, alice: Any) -> None:
    await _server(services, manager, "pendragon")
    await services.characters.import_sheet(alice, "gawain.yaml", (EXAMPLES / "gawain.yaml").read_bytes())
    await services.encounters.start(gm)
    await services.encounters.add(alice, "Sir Gawain")
    await services.encounters.add_npcs(gm, "saxon_warrior", 1, "Cerdic")
    report = await services.combat.attack(alice, "Cerdic 1", "lance", {"mounted": True, "charge": True},
                                          dice_text="attacker=13 defender=7 damage=5,4,3,6,2,4 defender_knockdown=3",
                                          attacker="Sir Gawain")
    assert report.outcome.damage_dice == "6d6"  # the charger's dice, not the knight's


async def test_an_upload_with_mistakes_is_refused_whole_naming_the_character_and_the_file(
        services: Any, manager: Any, alice: Any) -> None:
    await _server(services, manager, "pendragon")
    with pytest.raises(SheetProblems) as info:
        await services.characters.import_sheet(alice, "bad.yaml", b"name: Sir Bad\nsiz: 300\nskils: {}\n"
                                                                  b"dex: 10\nstr: 10\ncon: 10\napp: 10\n")
    assert info.value.who == "Sir Bad (bad.yaml)"
    assert info.value.problems == ("unknown field 'skils' (did you mean 'skills'?)",
                                   "field 'siz' must be 1 to 200 (Size), not 300")
    assert await services.characters.list(alice) == []


async def test_an_older_export_imported_again_never_heals_the_wounds_taken_since(services: Any, manager: Any,
                                                                                alice: Any, gm: Any) -> None:
    """Issue 34, N8: a player's import never removes or lowers a recorded wound or condition (it keeps them and
    says so); the GM's replaces them only once confirmed (``ConfirmDrop`` names them first)."""
    await _server(services, manager, "ars-harn")
    old = (EXAMPLES / "bjorn.yaml").read_bytes()
    await services.characters.import_sheet(alice, "bjorn.yaml", old)
    wounded = old + b"wounds: [{location: thorax, code: S3}]\nconditions: [shock]\n"
    hurt = await services.characters.import_sheet(gm, "wounded.yaml", wounded, replace=True)
    assert hurt.kept is None and len(hurt.wounds) == 1

    again = await services.characters.import_sheet(alice, "bjorn.yaml", old, replace=True)
    assert [w.code for w in again.wounds] == ["S3"] and again.sheet["conditions"] == ["shock"]
    assert again.kept is not None
    assert [(w.location, w.code) for w in again.kept.wounds] == [("Thorax", "S3")]
    assert again.kept.conditions == ("shock",)
    assert sheet_files.kept_recorded("Bjorn", again.kept) == (
        "**Bjorn** keeps what play recorded and the file lacks (Thorax S3, shock): an import never heals; only "
        "the GM can import over it.")

    with pytest.raises(ConfirmDrop) as asked:
        await services.characters.import_sheet(gm, "bjorn.yaml", old, replace=True)
    assert [w.code for w in asked.value.dropped.wounds] == ["S3"]
    assert sheet_files.confirm_drop("Bjorn", asked.value.dropped) == (
        "This file lacks what play recorded on **Bjorn**: Thorax S3, shock. Import it and drop them?")
    assert len((await services.characters.get(gm, "Bjorn")).wounds) == 1  # nothing changed before the button
    healed = await services.characters.import_sheet(gm, "bjorn.yaml", old, replace=True, drop_recorded=True)
    assert healed.wounds == () and healed.sheet["conditions"] == [] and healed.kept is None


async def test_an_import_that_only_adds_keeps_nothing_and_asks_nothing(services: Any, manager: Any,
                                                                        alice: Any) -> None:
    await _server(services, manager, "pendragon")
    sheet = (EXAMPLES / "gawain.yaml").read_bytes()
    first = await services.characters.import_sheet(alice, "gawain.yaml", sheet)
    again = await services.characters.import_sheet(alice, "gawain.yaml", sheet, replace=True)
    assert again.kept is None and again.sheet == first.sheet


async def test_names_spelled_another_way_import_in_every_system(services: Any, manager: Any, alice: Any) -> None:
    # issue 34, F1 and P7: case, spaces, underscores and hyphens do not matter, in fields, choices and pack names
    await _server(services, manager, "fading-suns")
    vasska = await services.characters.import_sheet(alice, "vasska.yaml", (
        b"name: Vasska\nSTR: 5\ndex: 6\nbuild: Tall\nskills: {Melee: 6}\nweapons: [Rapier, Main-Gauche]\n"
        b"shield: Dueling\narmour: [Leather Jerkin]\n"))
    assert (vasska.sheet["build"], vasska.sheet["weapons"], vasska.sheet["shield"], vasska.sheet["str"]) == (
        "tall", ["rapier", "main gauche"], "dueling", 5)
    await services.setup.set_system(manager, "pendragon")
    brunor = await services.characters.import_sheet(alice, "brunor.yaml", (
        b"name: Sir Brunor\nSIZ: 14\nstr: 13\nDex: 12\ncon: 14\napp: 10\nskills: {Sword: 15}\nweapons: [Sword]\n"
        b"armour: [chain mail]\n"))
    assert (brunor.sheet["siz"], brunor.sheet["armour"]) == (14, ["chainmail"])


async def test_a_score_written_as_a_field_is_pointed_to_its_place(services: Any, manager: Any, alice: Any) -> None:
    # issue 34, P7: "Sword" at the top of a sheet is refused once, with the way to skills.sword
    await _server(services, manager, "pendragon")
    with pytest.raises(SheetProblems) as refused:
        await services.characters.import_sheet(alice, "kay.yaml", b"name: Sir Kay\nSIZ: 14\nSword: 15\nstr: 13\n"
                                                                  b"dex: 12\ncon: 14\napp: 10\n")
    assert refused.value.problems == ("unknown field 'Sword' (did you mean 'skills.sword'?)",)
