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


def test_ars_harn_a_wound_says_the_days_of_rest_to_its_next_healing_roll() -> None:
    """Seed (ars-harn healing): each wound gets a healing roll at the end of every 5 days of rest; 7 days rested
    leave 3 to the next roll."""
    catalog = load_catalog("ars-harn")
    sheet = {"name": "Bjorn", "str": 1, "sta": 1, "dex": 1, "qik": 1, "abilities": {"Sword": 5},
             "wounds": [{"location": "thigh", "side": "left", "aspect": "edge", "code": "S2"}], "rest_days": 7}
    [wound] = get_engine("ars-harn").summarize(sheet, catalog).wounds
    assert catalog.numbers.healing_interval_days == 5 and wound.next_healing == 3


def test_fading_suns_a_wound_says_the_days_of_rest_to_its_next_step_down() -> None:
    """A wound steps down after its severity's healing days (fewer treated); days already rested count, and a
    crippled location that was never treated does not mend by rest."""
    catalog = load_catalog("fading-suns")
    base = {"name": "Erian", "str": 5, "dex": 6, "end": 5, "wits": 5, "skills": {"melee": 5}}
    wounds = [{"location": "chest", "severity": "major", "progress": 4},
              {"location": "chest", "severity": "major", "progress": 4, "treated": True},
              {"location": "right_leg", "severity": "crippled"}]
    summary = get_engine("fading-suns").summarize({**base, "wounds": wounds}, catalog)
    major = catalog.severity("major")
    assert [w.next_healing for w in summary.wounds] == [major.heal_days - 4, major.treated_heal_days - 4, None]


def test_pendragon_a_wound_says_the_weeks_of_rest_until_it_is_healed_oldest_first() -> None:
    """Seed (Pendragon healing, rule 12): natural healing at the Healing Rate per week, oldest wound first; while
    chirurgery is needed, rest heals nothing (it deteriorates), so no week is promised."""
    catalog = load_catalog("pendragon")
    knight = {"name": "Sir Elyan", "siz": 15, "dex": 12, "str": 13, "con": 14, "app": 10,
              "skills": {"sword": 15}, "weapons": ["sword"],
              "healing_rate": 3, "wounds": [{"amount": 4}, {"amount": 2}, {"amount": 3}]}
    engine = get_engine("pendragon")
    summary = engine.summarize(engine.validate_sheet(knight, catalog), catalog)
    # 4 hit points take 2 weeks at 3 a week; the second wound's 2 are healed in that second week; the third's 3
    # need a third week
    assert [w.next_healing for w in summary.wounds] == [14, 14, 21]
    needing = engine.summarize(engine.validate_sheet({**knight, "chirurgery_needed": True}, catalog), catalog)
    assert [w.next_healing for w in needing.wounds] == [None, None, None]
