"""Rules 1 and 12: derived statistics, First Aid, Chirurgery, natural healing."""

from __future__ import annotations

from typing import Any

import pytest

from rules.errors import IllegalAction, RulesError, RulingForbids
from rules.pendragon.engine import ENGINE
from tests.rules.pendragon.pendragon_support import CAT, QUIET, run, sheet


def stats(s: dict[str, Any]) -> dict[str, str]:
    return dict(ENGINE.summarize(s, CAT).stats)


def test_derived_statistics_of_a_typical_knight() -> None:
    st = stats(sheet())
    assert st["Damage"] == "5d6"  # (13 + 15) / 6 = 4.67
    assert st["Hit Points"] == "29/29"  # SIZ + CON
    assert st["Unconscious"] == "7"  # 29 / 4 = 7.25
    assert st["Major Wound"] == "14"  # CON
    assert st["Knockdown"] == "15"  # SIZ
    assert st["Healing Rate"] == "3"  # (13 + 14) / 10 = 2.7
    assert st["Move"] == "3"  # (13 + 12) / 10 = 2.5, half up


@pytest.mark.parametrize(("siz", "str_", "dice"), [(15, 12, "5d6"), (14, 12, "4d6"), (1, 1, "1d6")])
def test_damage_dice_round_half_up_with_a_minimum_of_one(siz: int, str_: int, dice: str) -> None:
    assert stats(sheet(siz=siz, str=str_))["Damage"] == dice


def test_unconscious_value_rounds_half_up() -> None:
    assert stats(sheet(siz=15, con=15))["Unconscious"] == "8"  # 30 / 4 = 7.5


@pytest.mark.parametrize(("str_", "con", "rate"), [(10, 5, "2"), (4, 4, "1"), (1, 1, "1")])
def test_healing_rate_rounds_half_up_minimum_one(str_: int, con: int, rate: str) -> None:
    assert stats(sheet(str=str_, con=con))["Healing Rate"] == rate


def test_a_sheet_may_override_every_derived_statistic() -> None:
    st = stats(sheet(damage_dice=7, hit_points=40, unconscious_value=5, major_wound_value=20, knockdown_value=25,
                     healing_rate=6, move=9))
    assert (st["Damage"], st["Hit Points"], st["Unconscious"], st["Major Wound"], st["Knockdown"],
            st["Healing Rate"], st["Move"]) == ("7d6", "40/40", "5", "20", "25", "6", "9")


def test_damage_override_is_what_the_winner_rolls() -> None:
    out = run(sheet(damage_dice=2), sheet("Foe"), None, {"attacker": [10], "defender": [19], "damage": [1, 1]},
              QUIET).outcome
    assert out["damage_dice"] == "2d6"


HEALER = sheet("Healer", skills={"first_aid": 12, "chirurgery": 14})


def patient(**over: Any) -> dict[str, Any]:
    return sheet("Patient", **over)


def test_first_aid_success_heals_1d3_once_per_wound() -> None:
    result = run(patient(wounds=[{"amount": 6}]), HEALER, {"type": "first_aid"}, {"first_aid": [5], "healing": [2]})
    assert result.outcome["healed"] == 2 and result.attacker["current_hp"] == 25
    assert result.attacker["wounds"][0]["remaining"] == 4 and result.attacker["wounds"][0]["first_aid"] is True
    assert result.defender["name"] == "Healer"
    with pytest.raises(IllegalAction, match="once per wound"):
        run(result.attacker, HEALER, {"type": "first_aid", "wound": 1}, {})
    with pytest.raises(IllegalAction):
        run(result.attacker, HEALER, {"type": "first_aid"}, {})


def test_first_aid_cannot_be_used_on_oneself_unless_the_setting_allows_it() -> None:
    # docs/rules/pendragon.md, rule 12a: First Aid cannot be used on oneself
    own = patient(wounds=[{"amount": 6}], skills={"first_aid": 12})
    with pytest.raises(IllegalAction, match="cannot give First Aid to themself"):
        run(own, own, {"type": "first_aid"}, {})
    allowed = run(own, own, {"type": "first_aid"}, {"first_aid": [5], "healing": [2]}, {"first_aid_on_self": True})
    assert allowed.outcome["healed"] == 2 and allowed.attacker["wounds"][0]["remaining"] == 4


def test_first_aid_with_no_healer_is_the_patient_on_themself_and_names_the_ruling() -> None:
    # issue 34, P3: no healer and no skill is the patient treating themself; the refusal names the ruling
    own = patient(wounds=[{"amount": 6}], skills={"first_aid": 12})
    with pytest.raises(RulingForbids) as refused:
        run(own, None, {"type": "first_aid"}, {})
    assert refused.value.ruling == "first_aid_on_self"
    allowed = run(own, None, {"type": "first_aid"}, {"first_aid": [12], "healing": [2]}, {"first_aid_on_self": True})
    assert allowed.outcome["roll"]["target"] == 12 and allowed.outcome["healed"] == 2
    # the GM who gives a skill treats as an unnamed healer: no ruling applies
    given = run(own, None, {"type": "first_aid", "skill": 10}, {"first_aid": [15]})
    assert given.outcome["roll"]["target"] == 10


def test_first_aid_critical_heals_1d6_but_no_more_than_the_wound() -> None:
    result = run(patient(wounds=[{"amount": 3}, {"amount": 6}]), HEALER, {"type": "first_aid", "wound": 1},
                 {"first_aid": [12], "healing": [5]})
    assert result.outcome["healed"] == 3
    assert [w["index"] for w in result.attacker["wounds"]] == [2]


def test_first_aid_fumble_worsens_the_wound() -> None:
    result = run(patient(wounds=[{"amount": 6}]), HEALER, {"type": "first_aid"}, {"first_aid": [20], "healing": [3]})
    assert result.outcome["harmed"] == 3 and result.attacker["wounds"][0]["remaining"] == 9


def test_first_aid_failure_uses_up_the_attempt() -> None:
    result = run(patient(wounds=[{"amount": 6}]), HEALER, {"type": "first_aid"}, {"first_aid": [15]})
    assert result.outcome["healed"] == 0 and result.attacker["wounds"][0]["first_aid"] is True


def test_first_aid_back_to_one_hit_point_saves_the_dying() -> None:
    dying = patient(wounds=[{"amount": 29}], dying=True, unconscious=True, chirurgery_needed=True,
                    pending_decisions=[{"kind": "dying", "options": ["death", "survival"]}])
    result = run(dying, HEALER, {"type": "first_aid"}, {"first_aid": [5], "healing": [2]})
    assert result.attacker["dying"] is False and result.attacker["pending_decisions"] == []
    assert "saved" in result.outcome["events"] and result.attacker["unconscious"] is True


def test_saved_from_a_mortal_wound_rolls_statistics_lost_three_times() -> None:
    dying = patient(wounds=[{"amount": 30, "mortal": True}], dying=True, mortal=True, unconscious=True)
    result = run(dying, HEALER, {"type": "first_aid"}, {"first_aid": [12], "healing": [5], "stat_loss": [1, 6, 4]})
    a = result.attacker
    assert (a["siz"], a["con"], a["mortal"]) == (14, 13, False)


def test_chirurgery_only_for_major_wounds_and_the_unconscious() -> None:
    with pytest.raises(IllegalAction, match="chirurgery"):
        run(patient(wounds=[{"amount": 6}]), HEALER, {"type": "chirurgery"}, {})


def test_chirurgery_success_heals_the_healing_rate_and_ends_the_need() -> None:
    p = patient(wounds=[{"amount": 15, "major": True}], chirurgery_needed=True)
    result = run(p, HEALER, {"type": "chirurgery"}, {"chirurgery": [5]})
    assert result.outcome["healed"] == 3 and result.attacker["current_hp"] == 17
    assert result.attacker["chirurgery_needed"] is False


def test_chirurgery_critical_heals_twice_the_healing_rate() -> None:
    p = patient(wounds=[{"amount": 15, "major": True}], chirurgery_needed=True)
    assert run(p, HEALER, {"type": "chirurgery"}, {"chirurgery": [14]}).outcome["healed"] == 6


def test_chirurgery_failure_deteriorates_and_fumble_loses_1d6_more() -> None:
    p = patient(wounds=[{"amount": 15, "major": True}], chirurgery_needed=True)
    fail = run(p, HEALER, {"type": "chirurgery"}, {"chirurgery": [16], "healing": [2]})
    assert fail.outcome["lost"] == 2 and fail.attacker["current_hp"] == 12 and fail.attacker["chirurgery_needed"]
    fumble = run(p, HEALER, {"type": "chirurgery"}, {"chirurgery": [20], "healing": [2, 4]})
    assert fumble.outcome["lost"] == 6 and fumble.attacker["current_hp"] == 8


def test_chirurgery_wakes_the_unconscious_once_above_the_value() -> None:
    p = patient(wounds=[{"amount": 23}], unconscious=True, chirurgery_needed=True)
    result = run(p, HEALER, {"type": "chirurgery"}, {"chirurgery": [5]})
    assert result.attacker["current_hp"] == 9 and result.attacker["unconscious"] is False


def test_rest_heals_the_healing_rate_each_week_oldest_wound_first() -> None:
    result = run(patient(wounds=[{"amount": 4}, {"amount": 5}], prone=True), None, {"type": "rest", "weeks": 2})
    assert result.outcome["healed"] == 6 and result.attacker["current_hp"] == 26
    assert result.attacker["wounds"] == [{"index": 2, "amount": 5, "remaining": 3, "major": False, "mortal": False,
                                          "first_aid": False, "source": ""}]
    assert result.attacker["prone"] is False


def test_rest_stops_when_every_wound_is_healed() -> None:
    result = run(patient(wounds=[{"amount": 2}]), None, {"type": "rest", "weeks": 10})
    assert result.outcome["weeks_counted"] == 1 and result.attacker["wounds"] == []


def test_rest_without_chirurgery_when_it_is_needed_deteriorates() -> None:
    p = patient(wounds=[{"amount": 15, "major": True}], chirurgery_needed=True)
    result = run(p, None, {"type": "rest", "weeks": 2}, {"healing": [1, 3]})
    assert result.outcome["lost"] == 4 and result.attacker["current_hp"] == 10


def test_rest_weeks_are_bounded() -> None:
    with pytest.raises(RulesError, match="weeks"):
        run(patient(), None, {"type": "rest", "weeks": 1000}, {})
