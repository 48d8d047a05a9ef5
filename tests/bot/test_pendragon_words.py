"""Issue 22's Pendragon wording, each item as a sentence, read from the stored fixtures (events the code of
2026-12-02 stored, tests/bot/fixtures/pendragon_events.json): each failed on the describer before the typed one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot.services.event_records import StoredRoll
from bot.ui.outcomes import describe
from bot.ui.outcomes.common import roll_line, rolls_value
from rules.registry import read_outcome

EVENTS = {e["source"]: e["payload"] for e in json.loads(
    (Path(__file__).parent / "fixtures" / "pendragon_events.json").read_text(encoding="utf-8"))["events"]}


def words(source: str, *, hidden: bool = False) -> Any:
    payload = EVENTS[source]
    outcome = read_outcome("pendragon", payload["outcome"])
    return describe("pendragon", outcome.hiding_target() if hidden else outcome,
                    (payload["actor"], payload["target"] or payload["actor"]))


def _line(roll: dict[str, object]) -> str:
    return roll_line(StoredRoll.from_dict(roll))


def test_a_players_attack_on_a_secret_npc_leaves_the_npcs_total_out_of_the_public_line() -> None:
    # issue 22 §1: "10 critical vs 11 success" under /setup secret-rolls on:true
    said = words("pendragon_events.txt #7")
    assert said.numbers == "18 critical vs 12 success · critical: damage 30 doubled − armour 16"  # the GM's
    assert said.own_numbers == "18 critical · critical: damage 30 doubled − armour 16"


def test_a_players_details_on_a_secret_npc_say_what_its_roll_did_without_its_numbers() -> None:
    fields = dict((name, value) for name, value, _ in words("pendragon_events.txt #7", hidden=True).fields)
    assert fields["Knight 1 (sword)"] == "**success**"
    assert fields["Sir Gawain (sword)"] == "18 vs 18: **critical**"


def test_a_lance_broken_on_a_charge_is_said_once() -> None:
    # issue 22 §4: "Sir Bréhus's lance breaks / a lance breaks"
    said = words("playground-ways-out-pendragon.txt #11")
    assert [line for line in said.brief or [] if "lance" in line] == ["Sir Gawain's lance breaks"]
    assert [name for name, _, _ in said.fields if name in ("Weapon broken", "Lance")] == ["Weapon broken"]


def test_a_knockdown_left_for_the_gm_is_not_said_above_the_gms_wait() -> None:
    # issue 22 §4: "knockdown roll waits for the GM" above "⏳ Waiting for the GM: Sir Bedwyr's knockdown roll…"
    said = words("engine: attack, gm rolls knockdown")
    assert said.brief == ["Sir Bedwyr: 25 hit points left"]
    assert ("Knockdown", "Sir Bedwyr rolls DEX against the blow: waiting for the GM", True) in said.fields


def test_actions_between_blows_are_said_in_words_not_as_a_field_listing() -> None:
    # issue 22 §3: "Details: In shock: yes" is no game's word; these said "Sir Bedwyr acts." over a field dump
    assert words("engine: stand, mount").headline == "**Sir Bedwyr** gets up and mounts again."
    assert words("engine: unequip weapon").headline == "**Sir Bedwyr** puts the axe away."
    assert words("engine: end fight").headline == "The fight is over for **Sir Bedwyr**: gets up, picks up the sword."
    assert words("engine: condition").headline == "**Sir Bedwyr** is now prone."
    assert words("playground-ways-out-pendragon.txt #20").headline == \
        "**Sir Gawain** replaces the broken lance and re-arms with it."
    for source in EVENTS:
        assert all(name != "Details" for name, _, _ in words(source).fields), source


def test_a_chirurgery_that_made_the_wound_worse_says_by_how_much() -> None:
    said = words("engine: chirurgery fumbled")
    assert ("Worsened", "Sir Bedwyr loses **6** hit points: the wound deteriorates", True) in said.fields


def test_a_roll_whose_total_differs_from_its_face_shows_what_was_added() -> None:
    """Issue 31: before, 'major_wound d20 [18] = 20 vs 30': a die and a total that disagree with no modifier
    shown (a target over 20 adds its excess, capped at 20)."""
    over = StoredRoll.from_dict({"label": "major_wound", "kind": "d20 pendragon", "faces": [18], "total": 20,
                                 "target": 30, "result": "critical"})
    assert roll_line(over) == "major wound d20 [18] + 2 = **20** vs 30: critical"
    plain_roll = StoredRoll.from_dict({"label": "attacker", "kind": "d20 pendragon", "faces": [14], "total": 14,
                                       "target": 16})
    assert "[14] = **14**" in rolls_value([plain_roll, over])
    assert _line({"label": "damage", "kind": "5d6", "faces": [4, 4, 3, 3, 2], "total": 16}).endswith("= **16**")
    assert _line({"label": "k", "kind": "1d10", "faces": [0], "total": 10}).endswith("[0] = **10**")  # 0 reads 10
