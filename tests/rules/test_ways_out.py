"""Issue 18 §1, in the engines: each system lists the lasting states a character is in with what ends each and
at what cost (``Engine.ways_out``), and its ``end_fight`` ends what lasts only for a fight."""

from __future__ import annotations

from typing import Any

from content import load_catalog
from rules import registry
from rules.dice import DiceSource
from rules.model import Scenario


def _sheet(system: str, **state: Any) -> dict[str, Any]:
    base: dict[str, dict[str, Any]] = {
        "ars-harn": {"name": "Wulf", "str": 1, "sta": 1, "dex": 1, "qik": 0, "abilities": {"Axe": 5},
                     "weapons": ["Handaxe", "Dagger"], "held": {"right": 0, "left": None}},
        "pendragon": {"name": "Sir Bors", "siz": 14, "dex": 12, "str": 13, "con": 14, "app": 11,
                      "skills": {"sword": 16, "lance": 15}, "weapons": ["sword", "lance"], "horse": "charger"},
        "fading-suns": {"name": "Erian", "dex": 6, "skills": {"melee": 5}, "weapons": ["broadsword"]},
    }
    return registry.get_engine(system).validate_sheet({**base[system], **state}, load_catalog(system))


def _ways(system: str, in_fight: bool = True, **state: Any) -> list[tuple[str, str, str | None]]:
    engine = registry.get_engine(system)
    return [(w.condition, w.cost, w.weapon)
            for w in engine.ways_out(_sheet(system, **state), load_catalog(system), in_fight)]


def _end_fight(system: str, **state: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    engine = registry.get_engine(system)
    done = engine.resolve(Scenario(system, {"type": "end_fight"}, _sheet(system, **state)), DiceSource({}),
                          load_catalog(system))
    assert done.attacker is not None
    return done.outcome.to_dict(), dict(done.attacker)  # the outcome as events store it


def test_ars_harn_a_tactical_advantage_may_get_up_from_a_prone_position_for_free() -> None:
    assert _ways("ars-harn", conditions=["prone"]) == [("prone", "action", None), ("not_in_hand", "action", "Dagger")]
    assert _ways("ars-harn", conditions=["prone"], tactical_advantage=True)[0] == ("prone", "advantage", None)
    assert _ways("ars-harn", False, conditions=["prone"])[0] == ("prone", "free", None)
    assert _ways("ars-harn", conditions=["shock", "unconscious"])[:2] == [("shock", "roll", None),
                                                                         ("unconscious", "gm", None)]
    assert _ways("ars-harn", conditions=["dead"]) == []


def test_ars_harn_pick_up_a_dropped_weapon_and_prone_end_with_the_fight() -> None:
    state = {"conditions": ["prone"], "dropped": [1], "tactical_advantage": True, "saved_points": 4}
    assert ("dropped", "advantage", "Dagger") in _ways("ars-harn", **state)
    outcome, after = _end_fight("ars-harn", **state)
    assert outcome["ended"] == ["prone"] and outcome["gathered"] == ["Dagger"]
    assert after["conditions"] == [] and after["dropped"] == [] and after["tactical_advantage"] is False
    assert after["saved_points"] == 0


def test_pendragon_standing_or_remounting_takes_the_round_and_a_broken_weapon_is_replaced() -> None:
    assert _ways("pendragon", prone=True) == [("prone", "action", None), ("unhorsed", "action", None)]
    assert _ways("pendragon", mounted=True, broken_weapons=["lance"], must_rearm=True) == [
        ("broken", "action", "lance"), ("not_in_hand", "action", "sword")]
    assert _ways("pendragon", mounted=True, unconscious=True, out_of_fight=True) == [
        ("unconscious", "gm", None), ("out_of_fight", "gm", None)]
    outcome, after = _end_fight("pendragon", prone=True, out_of_fight=True, dropped_weapons=["sword"],
                                must_rearm=True, wielding=None)
    assert outcome["ended"] == ["prone", "out_of_fight"] and outcome["gathered"] == ["sword"]
    assert after["prone"] is False and after["must_rearm"] is False and after["wielding"] == "sword"


def test_pendragon_a_knight_down_beside_his_horse_reads_both_ways_up() -> None:
    """Issue 34 (the reader's 5): "Sir Gawain is knocked down", the tracker "prone", and the way up was
    /recover condition:unhorsed, a word the tracker never said. Both are named now, and each is a way out."""
    summary = registry.get_engine("pendragon").summarize(_sheet("pendragon", prone=True), load_catalog("pendragon"))
    assert summary.condition == "prone, unhorsed"
    assert [c for c, _, _ in _ways("pendragon", prone=True)] == ["prone", "unhorsed"]
    on_foot = registry.get_engine("pendragon").summarize(_sheet("pendragon"), load_catalog("pendragon"))
    assert on_foot.condition == "ready"  # on his feet, on foot by choice: nothing to say


def test_fading_suns_prone_and_disarmed_cost_the_turn_and_a_stun_ends_with_the_fight() -> None:
    assert _ways("fading-suns", conditions=["prone", "stunned"], dropped=["broadsword"]) == [
        ("prone", "action", None), ("stunned", "gm", None), ("dropped", "action", "broadsword")]
    assert _ways("fading-suns", conditions=["unconscious", "prone"]) == [("unconscious", "gm", None)]
    outcome, after = _end_fight("fading-suns", conditions=["prone", "stunned"], dropped=["broadsword"])
    assert outcome["ended"] == ["prone", "stunned"] and after["conditions"] == [] and after["dropped"] == []


def test_pendragon_an_unconscious_knight_does_not_get_up_when_the_fight_ends() -> None:
    """Issue 34, P4: "Sir Brunor gets up" was said of a knight lying unconscious at 1 hit point."""
    for down in ("unconscious", "dying"):
        outcome, after = _end_fight("pendragon", **{"prone": True, "unconscious": True, down: True})
        assert outcome["ended"] == [] and after["prone"] is True and after["unconscious"] is True


def test_ars_harn_the_unconscious_and_the_incapacitated_stay_down_when_the_fight_ends() -> None:
    for down in ("unconscious", "incapacitated"):
        outcome, after = _end_fight("ars-harn", conditions=["prone", down])
        assert outcome["ended"] == [] and "prone" in after["conditions"]
