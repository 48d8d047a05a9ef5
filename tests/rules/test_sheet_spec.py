"""Each system's sheet description (content/<system>/sheet.yaml) checks a sheet's top level in one pass:
every missing or wrong field in one answer, with its meaning and range; unknown fields refused, with the
field meant."""

from __future__ import annotations

from typing import Any

import pytest

from content import load_catalog
from rules.registry import get_engine
from rules.sheet_spec import SheetProblems

SYSTEMS = ("ars-harn", "pendragon", "fading-suns")


def problems(system: str, sheet: dict[str, Any]) -> tuple[str, ...]:
    with pytest.raises(SheetProblems) as info:
        get_engine(system).validate_sheet(sheet, load_catalog(system))
    assert "\n" not in str(info.value)
    return info.value.problems


def test_ars_harn_a_name_alone_reports_all_four_required_characteristics_at_once() -> None:
    assert problems("ars-harn", {"name": "Hrolf"}) == (
        "field 'str' is missing: Strength, -10 to 10",
        "field 'sta' is missing: Stamina, -10 to 10",
        "field 'dex' is missing: Dexterity, -10 to 10",
        "field 'qik' is missing: Quickness, -10 to 10",
    )


def test_pendragon_a_name_alone_reports_all_five_stats_at_once() -> None:
    assert problems("pendragon", {"name": "Hrolf"}) == tuple(
        f"field '{stat}' is missing: {label}, 1 to 200"
        for stat, label in (("siz", "Size"), ("dex", "Dexterity"), ("str", "Strength"), ("con", "Constitution"),
                            ("app", "Appearance")))


def test_fading_suns_a_name_alone_is_a_whole_sheet_of_defaults() -> None:
    sheet = get_engine("fading-suns").validate_sheet({"name": "Hrolf"}, load_catalog("fading-suns"))
    assert sheet["dex"] == 3 and sheet["size"] == 5 and sheet["build"] == "average"


def test_wrong_kinds_ranges_and_pack_names_come_together_with_the_missing_ones() -> None:
    assert problems("ars-harn", {"name": "Hrolf", "str": "big", "sta": 12, "dex": 1, "weapons": ["Brodsword"],
                                 "abilities": {"Sword": 40}}) == (
        "field 'str' must be a whole number (Strength, -10 to 10), not 'big'",
        "field 'sta' must be -10 to 10 (Stamina), not 12",
        "field 'qik' is missing: Quickness, -10 to 10",
        "field 'abilities.Sword' must be a whole number 0 to 30, not 40",
        "field 'weapons': unknown weapon 'Brodsword' (did you mean Broadsword, Shortsword, Battlesword?)",
    )


@pytest.mark.parametrize(("system", "typo", "meant"), [
    ("ars-harn", "abilites", "abilities"), ("pendragon", "skils", "skills"), ("fading-suns", "skils", "skills")])
def test_an_unknown_key_is_refused_with_the_field_meant(system: str, typo: str, meant: str) -> None:
    catalog = load_catalog(system)
    sheet = {f.name: f.default for f in catalog.sheet.player_fields() if f.default is not None}
    sheet[typo] = {"sword": 3}
    assert problems(system, sheet) == (f"unknown field '{typo}' (did you mean '{meant}'?)",)


def test_ars_harn_spelt_out_characteristics_point_to_the_short_names() -> None:
    assert problems("ars-harn", {"name": "Hrolf", "strength": 2, "str": 2, "sta": 0, "dex": 0, "qik": 0}) == (
        "unknown field 'strength' (did you mean 'str'?)",)


def test_a_name_nothing_resembles_gets_no_guess() -> None:
    sheet = {"name": "A", "glory": 1000}
    assert problems("fading-suns", sheet) == ("unknown field 'glory'",)


@pytest.mark.parametrize("system", SYSTEMS)
def test_free_text_has_a_home_in_every_system(system: str) -> None:
    catalog = load_catalog(system)
    sheet = {f.name: f.default for f in catalog.sheet.player_fields() if f.default is not None}
    assert problems(system, {**sheet, "player": "Ann"}) == ("unknown field 'player' (did you mean 'notes'?)",)
    kept = get_engine(system).validate_sheet({**sheet, "notes": "Player: Ann. Owes the abbot a horse."}, catalog)
    assert kept["notes"] == "Player: Ann. Owes the abbot a horse."


def test_a_field_and_its_alias_together_are_refused() -> None:
    assert problems("fading-suns", {"name": "A", "armor": [], "armour": []}) == (
        "give field 'armour' once, not also as 'armor'",)


def test_a_pendragon_horse_must_be_one_of_the_packs() -> None:
    sheet = {"name": "Gawain", "siz": 14, "dex": 12, "str": 14, "con": 14, "app": 12, "horse": "chargr"}
    assert problems("pendragon", sheet) == ("field 'horse': unknown horse 'chargr' (did you mean charger?)",)
