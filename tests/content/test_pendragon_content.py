"""The Pendragon pack loads, holds the research tables, and names file, entry and field on errors."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from content import ContentError, load_catalog, load_pack_documents
from content.pendragon.schema import build
from rules.pendragon.catalog import PendragonCatalog
from rules.pendragon.engine import ENGINE


def docs() -> dict[str, Any]:
    return copy.deepcopy(load_pack_documents("pendragon"))


def test_default_pack_loads() -> None:
    catalog = load_catalog("pendragon")
    assert isinstance(catalog, PendragonCatalog)
    assert "sword" in catalog.weapon_names() and "full_plate" in catalog.armour_names()


def test_armour_table_matches_the_research() -> None:
    armour = load_catalog("pendragon").armour
    assert {n: (a.points, a.dex_mod) for n, a in armour.items()} == {
        "knightly_clothing": (0, 0), "heavy_cloth": (1, 0), "padded": (2, 0), "leather": (4, -5),
        "hard_leather": (6, -5), "cuirboilli": (8, -5), "chainmail": (10, -10), "reinforced_chainmail": (12, -10),
        "partial_plate": (14, -10), "full_plate": (16, -12), "gothic_plate": (18, -15), "shield": (6, 0),
        "large_shield": (8, -5)}
    assert {n for n, a in armour.items() if a.mail} == {"chainmail", "reinforced_chainmail"}


def test_horses_and_weapon_specials() -> None:
    c = load_catalog("pendragon")
    assert {n: h.damage_dice for n, h in c.horses.items()} == {"charger": 6, "courser": 5, "rouncy": 4}
    assert c.weapon("sword").sword and c.weapon("sword").fumble == "drop"
    assert c.weapon("flail").ignores_shield and c.weapon("warflail").natural_1_hits_self
    assert c.weapon("Great Sword").dice_mod == 1 and c.unarmed == "brawl"


def test_every_npc_template_is_a_valid_sheet() -> None:
    c = load_catalog("pendragon")
    assert 4 <= len(c.npc_templates()) <= 6
    for name, sheet in c.npc_templates().items():
        assert ENGINE.validate_sheet(sheet, c) == sheet, name


def test_bad_weapon_field_names_file_entry_and_field() -> None:
    d = docs()
    d["weapons.yaml"]["weapons"]["sword"]["hands"] = 3
    with pytest.raises(ContentError) as err:
        build(d)
    assert str(err.value).startswith("pendragon/weapons.yaml: entry 'sword': field 'hands'")


def test_unknown_field_is_a_mistake() -> None:
    d = docs()
    d["armour.yaml"]["armour"]["chainmail"]["weight"] = 20
    with pytest.raises(ContentError, match=re.escape("armour.yaml: entry 'chainmail': field 'weight'")):
        build(d)


def test_every_file_needs_a_source_note() -> None:
    d = docs()
    del d["horses.yaml"]["source"]
    with pytest.raises(ContentError, match=re.escape("horses.yaml: field 'source'")):
        build(d)


def test_missing_file_is_named() -> None:
    d = docs()
    del d["healing.yaml"]
    with pytest.raises(ContentError, match=re.escape("healing.yaml")):
        build(d)


def test_stat_loss_table_needs_six_faces() -> None:
    d = docs()
    del d["combat.yaml"]["stat_loss"]["table"][6]
    with pytest.raises(ContentError, match=re.escape("combat.yaml: entry 'stat_loss': field 'table'")):
        build(d)


def test_bad_npc_names_the_entry_and_the_sheet_field() -> None:
    d = docs()
    d["npcs.yaml"]["npcs"]["bandit"]["dex"] = "quick"
    message = "npcs.yaml: entry 'bandit': sheet: field 'dex' must be a whole number"
    with pytest.raises(ContentError, match=re.escape(message)):
        build(d)


def test_unarmed_weapon_must_exist() -> None:
    d = docs()
    d["weapons.yaml"]["unarmed"] = "fists"
    with pytest.raises(ContentError, match=re.escape("unarmed")):
        build(d)
