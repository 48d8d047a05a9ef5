"""Beasts in ars-harn (issue 34, A2; docs/rules/ars-harn.md rule 21): a natural weapon (a wolf's Bite) is part of
the body: never held, so never dropped by a fumble, and struck with when nothing is in hand."""

from __future__ import annotations

from typing import Any

import pytest

from content import load_catalog
from rules.ars_harn.engine import ENGINE
from rules.errors import SheetError
from tests.rules.ars_harn.ars_harn_support import CAT, PLAIN, run, who

BITE = {"name": "Bite", "skill": "Brawling", "atk": 2, "edge": 3, "point": 4, "natural": "head"}


def wolf(**extra: Any) -> dict[str, Any]:
    return who("Wolf 1", sta=1, weapons=[BITE], **extra)


def test_a_wolf_hit_in_the_foreleg_keeps_its_bite() -> None:
    # forearm, even: right; 20+: G4, an automatic fumble, which drops nothing a beast holds in its jaws
    dice = {"attack": [5], "defense": [5], "location": [38], "shock": [9]}
    result = run({"aspect": "blunt", "modifier": 21}, who(weapons=[PLAIN]), wolf(), dice)
    out = result.outcome.to_dict()
    assert out["fumble"]["passed"] is False and out["dropped"] is None
    assert result.defender is not None and result.defender["dropped"] == []


def test_a_wolf_strikes_with_its_bite_when_nothing_is_in_hand() -> None:
    result = run({}, wolf(), who("B"), {"attack": [5], "defense": [9]})
    assert result.outcome.to_dict()["weapon"] == "Bite"
    assert result.attacker is not None and result.attacker["held"] == {"right": None, "left": None}


def test_a_natural_weapon_is_a_limb_of_the_body_named() -> None:
    with pytest.raises(SheetError, match="field 'natural' must be one of arm, leg, head"):
        run({}, who("W", weapons=[{**BITE, "natural": "tail"}]), who("B"), {"attack": [5], "defense": [9]})


def test_the_packs_wolf_bites_with_a_natural_weapon() -> None:
    [bite] = load_catalog("ars-harn").npc_templates()["wolf"]["weapons"]
    assert bite["natural"] == "head"


def test_a_wolfs_sheet_shows_its_bite_as_part_of_it_not_carried() -> None:
    """The wolf's sheet read 'Bite E3 P4; carried', like a sword; a natural weapon (the pack's ``natural`` flag) is
    worded by its damage alone, and said unusable only when the limb it needs is."""
    template = load_catalog("ars-harn").npc_templates()["wolf"]
    assert dict(ENGINE.summarize({**template, "name": "Wolf 1"}, CAT).equipment)["Bite"] == "E3 P4"
    claws = {**BITE, "name": "Claws", "natural": "arm"}
    lame = who("Bear 1", weapons=[claws, PLAIN], unusable_limbs=["left_arm", "right_arm"])
    equipment = dict(ENGINE.summarize(lame, CAT).equipment)
    assert equipment["Claws"] == "E3 P4; unusable" and equipment["Plain"] == "B0 E0 P0; right hand"


# -- a body the pack names: its strike table and its parts' words (ruling 21) ----------------------------------


def test_a_wolfs_severed_forepaw_is_worded_for_its_body_and_its_bite_stays() -> None:
    # "Wolf 1's right hand is severed / Wolf 1 drops the Bite", then the tracker's "right arm unusable" (issue 34,
    # A2). Mid aim 40: the hand on the human table, even: right; an edge at 20+ with the amputation roll failed
    dice = {"attack": [5], "defense": [5], "location": [40], "amputation": [0], "amputation.botch": [5],
            "shock": [9]}
    result = run({"aspect": "edge", "modifier": 21}, who(weapons=[PLAIN]), wolf(body="quadruped"), dice)
    out = result.outcome
    assert out.to_dict()["severed"] == "right forepaw" and out.to_dict()["dropped"] is None
    assert out.to_dict()["part"] == "forepaw" and out.to_dict()["location"] == "hand"
    assert result.defender is not None and result.defender["severed"] == ["right_hand"]  # the table's key, kept
    summary = ENGINE.summarize(result.defender, CAT)
    assert "right foreleg unusable" in summary.condition and "arm" not in summary.condition
    assert [w.location for w in summary.wounds] == ["right forepaw"]
    from bot.ui.outcomes import describe
    words = describe("ars-harn", out, ("Bjorn", "Wolf 1"))
    said = "\n".join([words.headline, *(words.brief or [])])
    assert "Wolf 1's **right forepaw** is severed" in said and "hand" not in said and "drops" not in said
    details = dict((name, value) for name, value, _ in words.fields)
    assert details["Fumble"] == "fails with no roll: the foreleg is useless"


def test_a_human_sheet_words_its_parts_as_the_table_does() -> None:
    dice = {"attack": [5], "defense": [5], "location": [40], "amputation": [0], "amputation.botch": [5],
            "shock": [9]}
    result = run({"aspect": "edge", "modifier": 21}, who(weapons=[PLAIN]), who("B", sta=1), dice)
    assert result.outcome.to_dict()["severed"] == "right_hand" and "part" not in result.outcome.to_dict()
    assert result.defender is not None and "body" not in result.defender


def test_a_sheet_names_a_body_the_pack_holds() -> None:
    with pytest.raises(SheetError, match="field 'body' must be one of human, quadruped, not 'centaur'"):
        run({}, wolf(body="centaur"), who("B"), {"attack": [5], "defense": [9]})


def test_the_packs_wolf_names_its_body_and_the_body_its_strike_table() -> None:
    catalog = load_catalog("ars-harn")
    assert catalog.npc_templates()["wolf"]["body"] == "quadruped"
    # ruling 21: the research's only table is the human one, so the quadruped rolls on it
    assert catalog.body("quadruped").strike_table == "human" and list(catalog.strike_tables) == ["human"]
    assert catalog.strike("mid", 40, "quadruped") == catalog.strike("mid", 40)


def _locations_with(extra: dict[str, Any]) -> dict[str, Any]:
    from content.loader import load_pack_documents
    return {**load_pack_documents("ars-harn")["locations.yaml"], **extra}


@pytest.mark.parametrize(("extra", "message"), [
    ({"bodies": {"quadruped": {"strike_table": "quadruped"}}}, "unknown 'quadruped': human"),
    ({"bodies": {"wyrm": {"strike_table": "human", "parts": {"tail": "tail"}}}}, "is not a location"),
    ({"bodies": {"human": {"strike_table": "human"}}}, "is the body a sheet has when it names none"),
])
def test_a_pack_body_names_a_strike_table_and_parts_the_file_holds(extra: dict[str, Any], message: str) -> None:
    from content.ars_harn.schema import _locations
    from content.errors import ContentError
    with pytest.raises(ContentError, match=message):
        _locations(_locations_with(extra))


def test_a_pack_may_add_a_strike_table_a_body_names() -> None:
    from content.ars_harn.schema import _locations
    doc = _locations_with({})
    every_roll_the_thorax = {aim: [{"location": "thorax", "low": 1, "high": 100}] for aim in ("high", "mid", "low")}
    _, _, tables, bodies = _locations({**doc, "strike_tables": {"barrel": every_roll_the_thorax},
                                       "bodies": {"barrel": {"strike_table": "barrel"}}})
    assert bodies["barrel"].strike_table == "barrel" and tables["barrel"]["mid"][0].location == "thorax"
