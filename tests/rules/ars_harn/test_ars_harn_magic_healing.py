"""Seed 000, magic and healing: damaging spells, Body Level spells, healing spells, Chirurgy
treatment on HarnMaster's table, and healing rolls over days of rest."""

from __future__ import annotations

from typing import Any

import pytest

from rules.errors import IllegalAction, RulesError
from rules.model import Resolution
from tests.rules.ars_harn.ars_harn_support import run, who

MAGUS = who("Magus", per=2, abilities={"Finesse": 4})
KNIGHT = who("Knight", sta=1, armour=["Quilt Gambeson", "Mail Hauberk"])


# -- 15. damaging spells -------------------------------------------------------------------------


def test_damaging_spell_aim_penalty_applies_to_targeting_and_uses_fire_protection() -> None:
    out = run({"type": "cast", "spell": "Pilum of Fire", "damage": 15, "damage_type": "fire", "aim": "high"},
              MAGUS, KNIGHT, {"targeting": [3], "location": [90], "shock": [9]}).outcome.to_dict()
    assert out["targeting"]["modifiers"]["aim"] == -3
    assert out["targeting"]["total"] == 3 + 2 + 4 - 3 and out["targeting"]["passed"] is True
    assert out["location"] == "thorax"
    assert out["armour"] == 4 + 1  # quilt fire 4 + mail fire 1
    assert out["soak_total"] == 6 and out["effective_impact"] == 9
    assert out["injury"]["code"] == "S2" and out["injury"]["aspect"] == "fire"


def test_missed_targeting_roll_does_no_damage() -> None:
    result = run({"type": "cast", "damage": 15, "damage_type": "fire", "aim": "high"}, MAGUS, KNIGHT,
                 {"targeting": [2]})
    targeting = result.outcome.to_dict()["targeting"]
    assert targeting["total"] == 5 and targeting["passed"] is False
    assert result.outcome.to_dict()["location"] is None and [r.label for r in result.rolls] == ["targeting"]


def test_mighty_torrent_of_water_is_blunt() -> None:
    out = run({"type": "cast", "spell": "Mighty Torrent of Water", "damage": 20, "damage_type": "blunt",
               "ease_factor": 9}, MAGUS, KNIGHT, {"targeting": [4], "location": [50], "shock": [9]}).outcome.to_dict()
    assert out["targeting"]["ease_factor"] == 9 and out["targeting"]["total"] == 10
    assert out["armour"] == 5 + 2 and out["effective_impact"] == 20 - 8


# -- 16. Body Level spells -----------------------------------------------------------------------


@pytest.mark.parametrize(("levels", "code"), [(1, "S2"), (2, "S3"), (3, "G4"), (4, "K5"), (6, "K5")])
def test_body_levels_become_s2_s3_g4_k5_at_the_thorax(levels: int, code: str) -> None:
    dice = {"shock": [9]}
    if code == "K5":
        dice["kill"] = [9]
    target = who("T", sta=2)
    out = run({"type": "cast", "body_levels": levels}, MAGUS, target, dice).outcome.to_dict()
    assert out["injury"]["code"] == code and out["location"] == "thorax"
    assert out["injury"]["bleeding"] is False
    if code == "K5":
        assert out["kill"]["ease_factor"] == 10


def test_body_level_spell_may_strike_another_part_and_bleed_if_the_spell_says() -> None:
    out = run({"type": "cast", "body_levels": 3, "location": "skull", "bleeding": True}, MAGUS, who("T", sta=5),
              {"shock": [9]}).outcome.to_dict()
    assert (out["location"], out["injury"]["code"], out["injury"]["bleeding"]) == ("skull", "G4", True)


def test_cast_needs_damage_or_body_levels() -> None:
    with pytest.raises(RulesError, match="either 'damage'"):
        run({"type": "cast"}, MAGUS, KNIGHT)


# -- 17. healing ---------------------------------------------------------------------------------

WOUNDED = who("W", sta=1, wounds=[
    {"location": "thorax", "code": "M1"},
    {"location": "abdomen", "code": "S3", "aspect": "edge"},
    {"location": "thigh", "side": "left", "code": "G4", "aspect": "edge", "bleeding": True},
], unusable_limbs=["left_leg"])


def test_healing_spell_removes_a_wound_of_s3_or_less() -> None:
    result = run({"type": "heal", "method": "spell", "wound": 2}, MAGUS, WOUNDED)
    assert result.defender is not None
    assert [w["index"] for w in result.defender["wounds"]] == [1, 3]
    assert result.outcome.to_dict()["steps"] == [{"wound": 2, "before": "S3", "after": None}]


def test_healing_spell_turns_g4_or_worse_into_s2_and_stops_bleeding() -> None:
    result = run({"type": "heal", "method": "spell"}, MAGUS, WOUNDED)  # the worst wound by default
    assert result.defender is not None
    third = result.defender["wounds"][2]
    assert (third["index"], third["code"], third["bleeding"]) == (3, "S2", False)
    assert result.defender["unusable_limbs"] == []
    assert result.defender["injury_levels"] == 1 + 3 + 2


def test_each_body_level_healed_is_one_step() -> None:
    result = run({"type": "heal", "method": "spell", "wound": 3, "body_levels": 2}, MAGUS, WOUNDED)
    assert result.outcome.to_dict()["steps"] == [{"wound": 3, "before": "G4", "after": "S2"},
                                       {"wound": 3, "before": "S2", "after": None}]


def chirurgy(die: int, healer: dict[str, Any], botch: list[int] | None = None,
             rulings: dict[str, Any] | None = None) -> Resolution:
    dice = {"chirurgy": [die], **({"chirurgy.botch": botch} if botch else {})}
    return run({"type": "heal", "method": "chirurgy", "wound": 2}, healer, WOUNDED, dice,
               {"treatment_bonus": False} if rulings is None else rulings)


PHYSICIAN = who("Doc", int=2, abilities={"Chirurgy": 3})


@pytest.mark.parametrize(("die", "result", "rate"), [(3, "MS", 5), (4, "CS", 6)])
def test_chirurgy_against_3_is_a_success_and_against_9_a_critical(die: int, result: str, rate: int) -> None:
    out = chirurgy(die, PHYSICIAN).outcome.to_dict()
    assert out["chirurgy"]["total"] == die + 5
    assert (out["result"], out["healing_rate"]) == (result, rate)  # Edge, Serious: surgery


def test_chirurgy_below_3_fails_and_a_botch_is_a_critical_failure() -> None:
    clumsy = who("Clumsy", int=-3, abilities={"Chirurgy": 0})
    failed = chirurgy(5, clumsy).outcome.to_dict()
    assert failed["chirurgy"]["total"] == 2 and (failed["result"], failed["healing_rate"]) == ("MF", 4)
    botched = chirurgy(0, PHYSICIAN, botch=[0]).outcome.to_dict()
    assert (botched["result"], botched["healing_rate"]) == ("CF", 3)


def test_treatment_bonus_is_harnmaster_bonus_over_ten() -> None:
    out = chirurgy(2, PHYSICIAN, rulings={}).outcome.to_dict()
    assert out["chirurgy"]["modifiers"]["treatment"] == 2  # surgery +20
    assert out["chirurgy"]["total"] == 9 and out["result"] == "CS"


def test_treatment_marks_the_wound_and_stops_bleeding_on_success() -> None:
    result = run({"type": "heal", "method": "chirurgy", "wound": 3}, PHYSICIAN, WOUNDED, {"chirurgy": [5]})
    assert result.defender is not None
    third = result.defender["wounds"][2]
    # 5 + Int 2 + Chirurgy 3 + surgery bonus 1 = 11: critical; Grievous Edge CS = HR 5
    assert third["treated"] is True and third["bleeding"] is False and third["healing_rate"] == 5
    with pytest.raises(IllegalAction, match="treated already"):
        run({"type": "heal", "method": "chirurgy", "wound": 3}, PHYSICIAN, result.defender)


def rest(die: list[int], days: int = 5, sheet: dict[str, Any] | None = None) -> Resolution:
    patient = sheet or who("R", sta=1, wounds=[{"location": "abdomen", "code": "S3", "aspect": "edge"}])
    return run({"type": "rest", "days": days}, patient, None, {"healing": die} if die else {})


@pytest.mark.parametrize(("die", "result", "after"), [([5], "MS", "S2"), ([4], "MF", "S3"),
                                                      ([1, 6], "CS", "M1")])
def test_healing_roll_every_five_days_is_sta_plus_healing_rate(die: list[int], result: str, after: str) -> None:
    out = rest(die).outcome.to_dict()
    entry = out["healing"][0]
    assert entry["healing_rate"] == 4  # untreated Serious Edge
    assert (entry["result"], entry["after"]) == (result, after)


def test_rest_days_accumulate_to_the_five_day_interval() -> None:
    first = rest([], days=4)
    assert first.outcome.to_dict()["intervals"] == 0 and first.attacker is not None
    second = run({"type": "rest", "days": 1}, first.attacker, None, {"healing": [5]})
    assert second.outcome.to_dict()["intervals"] == 1


def test_healing_rate_7_heals_without_a_roll_and_healed_wounds_go() -> None:
    sheet = who("R", wounds=[{"location": "thorax", "code": "M1", "treated": True, "healing_rate": 7}],
                conditions=["shock", "prone"], fatigue=3)
    result = rest([], sheet=sheet)
    assert result.outcome.to_dict()["healing"][0]["result"] == "automatic" and result.outcome.to_dict()["healed"] == [1]
    assert result.attacker is not None
    assert result.attacker["wounds"] == [] and result.attacker["conditions"] == [] and result.attacker["fatigue"] == 0


# -- a kill decision whose wound is healed lapses (a ruling: docs/rules/ars-harn.md) ------------------------


def _awaiting_the_gm() -> dict[str, Any]:
    """A thief whose K4 skull wound failed its kill roll: incapacitated, waiting on the GM's death-or-not."""
    guard = who("Guard", str=2, sta=1, dex=1, abilities={"Club": 4}, weapons=["Mace"])
    thief = who("Thief", dex=2, qik=2, conditions=["shock"], wounds=[{"location": "thigh", "side": "left",
                                                                      "code": "S2"}])
    hit = run({"type": "attack", "aspect": "blunt", "aim": "mid"}, guard, thief,
              {"attack": [8], "location": [4], "kill": [3]})
    thief = hit.defender  # type: ignore[assignment]
    assert thief["pending_decision"]["kind"] == "kill" and "incapacitated" in thief["conditions"]
    return thief


def test_a_kill_decision_lapses_when_healing_takes_its_wound_below_k() -> None:
    thief = _awaiting_the_gm()
    healed = run({"type": "heal", "method": "spell", "body_levels": 5}, thief).attacker
    assert healed is not None and healed["pending_decision"] is None
    assert "incapacitated" in healed["conditions"]  # the lesser outcome stands, as if the GM had chosen it


def test_a_kill_decision_stays_while_its_wound_is_still_k() -> None:
    thief = _awaiting_the_gm()
    rested = run({"type": "rest", "days": 1}, thief).attacker
    assert rested is not None and rested["pending_decision"]["kind"] == "kill"
