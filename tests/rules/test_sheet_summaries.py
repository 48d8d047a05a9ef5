"""What the tracker and /character show of a sheet: a dropped weapon is not "ok", armour is listed once."""

from __future__ import annotations

from content import load_catalog
from rules.registry import get_engine


def test_ars_harn_a_dropped_weapon_shows_in_the_condition() -> None:
    sheet = {"name": "Bjorn", "str": 1, "sta": 1, "dex": 1, "qik": 1, "abilities": {"Sword": 5},
             "weapons": ["Broadsword"], "dropped": [0]}
    summary = get_engine("ars-harn").summarize(sheet, load_catalog("ars-harn"))
    assert summary.condition == "Broadsword dropped"


def test_fading_suns_each_armour_piece_is_listed_once_with_what_it_covers() -> None:
    catalog = load_catalog("fading-suns")
    sheet = {"name": "Erian", "str": 5, "dex": 6, "end": 5, "wits": 5, "skills": {"melee": 5},
             "weapons": ["broadsword"], "armour": ["synthsilk"], "dropped": ["broadsword"]}
    summary = get_engine("fading-suns").summarize(sheet, catalog)
    pieces = [(name, value) for name, value in summary.equipment if "synthsilk" in f"{name} {value}".lower()]
    assert len(pieces) == 1, summary.equipment
    name, value = pieces[0]
    assert name.lower() == "synthsilk" and "S4 P4 I3 E3;" in value and "," in value  # several locations, once
    assert "broadsword dropped" in summary.condition
