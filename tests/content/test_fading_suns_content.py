"""The fading-suns pack: every entry loads, tables are whole, and a broken file names file, entry, field."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from content import load_catalog, load_pack_documents, victory_chart
from content.errors import ContentError
from content.fading_suns.schema import build
from rules.fading_suns.catalog import DAMAGE_TYPES, FadingSunsCatalog

EXAMPLES = sorted((Path(__file__).parents[2] / "content" / "examples").glob("fading-suns-*.yaml"))


def docs() -> dict[str, Any]:
    return copy.deepcopy(load_pack_documents("fading-suns"))


def test_the_default_pack_loads() -> None:
    cat = load_catalog("fading-suns")
    assert isinstance(cat, FadingSunsCatalog)
    assert len(cat.weapon_names()) >= 30 and len(cat.armour_names()) >= 15
    assert "broadsword" in cat.weapon_names() and "plate helm" in cat.armour_names()
    assert 4 <= len(cat.npc_templates()) <= 6


def test_every_file_names_its_source() -> None:
    for name, doc in load_pack_documents("fading-suns").items():
        if name != "victory_chart.yaml":  # the lead's file keeps its source in comments
            assert isinstance(doc.get("source"), str) and doc["source"], name


def test_the_engine_uses_the_same_victory_chart_as_the_dice_roller() -> None:
    assert load_catalog("fading-suns").chart == victory_chart()


def test_every_weapon_deals_one_of_the_four_damage_types_and_every_piece_has_four_ratings() -> None:
    cat = load_catalog("fading-suns")
    for weapon in cat.weapons.values():
        assert weapon.type in DAMAGE_TYPES
    for piece in cat.armour.values():
        assert [t for t, _ in piece.ratings] == list(DAMAGE_TYPES)
        assert piece.covers


def test_both_location_columns_cover_every_d20_face_once() -> None:
    cat = load_catalog("fading-suns")
    for column in ("melee", "missile"):
        for face in range(1, 21):
            assert sum(loc.covers_face(column, face) for loc in cat.locations) == 1


def test_the_armour_shares_are_the_seeds() -> None:
    cat = load_catalog("fading-suns")
    assert {loc.name: loc.armour_share for loc in cat.locations} == {
        "right_leg": 20, "left_leg": 20, "abdomen": 10, "chest": 20, "right_arm": 15, "left_arm": 15, "head": 10}


def test_every_location_has_an_effect_for_every_severity() -> None:
    cat = load_catalog("fading-suns")
    for loc in cat.locations:
        assert {sev for sev, _ in loc.wounds} == set(cat.severity_names())


def broken(file: str, change: Any) -> str:
    pack = docs()
    change(pack[file])
    with pytest.raises(ContentError) as info:
        build(pack)
    return str(info.value)


def test_a_bad_weapon_names_file_entry_and_field() -> None:
    message = broken("weapons.yaml", lambda d: d["weapons"]["knife"].update(type="fire"))
    assert message.startswith("fading-suns/weapons.yaml: entry 'knife': field 'type'")
    message = broken("weapons.yaml", lambda d: d["weapons"]["knife"].update(damage="lots"))
    assert message.startswith("fading-suns/weapons.yaml: entry 'knife': field 'damage'")


def test_a_bad_armour_piece_names_its_material() -> None:
    message = broken("armour.yaml", lambda d: d["armour"]["plate helm"].update(material="mithril"))
    assert message.startswith("fading-suns/armour.yaml: entry 'plate helm': field 'material'")
    message = broken("armour.yaml", lambda d: d["armour"]["plate helm"].update(covers=["tail"]))
    assert message.startswith("fading-suns/armour.yaml: entry 'plate helm': field 'covers'")


def test_overlapping_or_missing_location_faces_are_caught() -> None:
    message = broken("locations.yaml", lambda d: d["locations"]["chest"].update(melee=[11, 12]))
    assert "face 11" in message and "locations.yaml" in message
    message = broken("locations.yaml", lambda d: d["locations"]["left_arm"].update(missile=[18, 18]))
    assert "field 'missile': no location for d20 faces [19]" in message


def test_a_location_without_an_effect_for_a_severity_is_caught() -> None:
    message = broken("locations.yaml", lambda d: d["locations"]["head"]["wounds"].pop("crippled"))
    assert message.startswith("fading-suns/locations.yaml: entry 'head': field 'wounds'")


def test_an_effect_column_missing_a_result_is_caught() -> None:
    message = broken("injuries.yaml", lambda d: d["effect_rolls"]["columns"]["stun"].pop("critical"))
    assert "effect_rolls.stun" in message


def test_a_wound_roll_naming_no_column_is_caught() -> None:
    message = broken("locations.yaml", lambda d: d["locations"]["head"]["wounds"]["minor"].update(roll="faint"))
    assert "entry 'head': field 'wounds.minor.roll'" in message


def test_a_gap_in_the_victory_chart_is_caught() -> None:
    message = broken("victory_chart.yaml", lambda d: d["bands"].pop(2))
    assert message.startswith("fading-suns/victory_chart.yaml: field 'bands'")


def test_an_invalid_npc_names_its_entry() -> None:
    message = broken("npcs.yaml", lambda d: d["npcs"]["thug"].update(dex="quick"))
    assert message.startswith("fading-suns/npcs.yaml: entry 'thug'")
    assert "field 'dex' must be a whole number" in message


def test_unknown_fields_in_a_pack_file_are_refused() -> None:
    message = broken("shields.yaml", lambda d: d["shields"]["standard"].update(colour="blue"))
    assert message.startswith("fading-suns/shields.yaml: entry 'standard': field 'colour'")


def test_there_are_at_least_three_example_scenarios() -> None:
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_each_example_runs_through_the_scenario_runner(path: Path) -> None:
    runner = pytest.importorskip("bot.scenario_runner")
    out = runner.resolve_text(path.read_bytes(), str(path))
    assert out["system"] == "fading-suns"
    assert out["outcome"]["action"]
