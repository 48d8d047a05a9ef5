"""A sheet is parsed once for its content and catalog (rules/parse_memo.py): parsed again the moment anything in
it changes (even in place, even True for 1), under another catalog, and never kept when it is wrong or not plain
data; what the memo gives is what a parse gives."""

from __future__ import annotations

import copy
from types import MappingProxyType
from typing import Any

import pytest

from content import load_catalog
from rules.ars_harn import character
from rules.ars_harn.engine import ENGINE
from rules.errors import SheetError
from rules.fading_suns import character as fading_suns_character
from rules.parse_memo import ParseMemo
from rules.pendragon import character as pendragon_character

CAT = load_catalog("ars-harn")


class Catalog:
    pass


def test_a_sheet_is_parsed_once_for_its_content_and_again_when_it_changes() -> None:
    memo: ParseMemo[int] = ParseMemo()
    parsed: list[Any] = []

    def parse(sheet: Any, catalog: object) -> int:
        def once() -> int:
            parsed.append(copy.deepcopy(dict(sheet)))
            return len(parsed)
        return memo.get(sheet, catalog, once)

    catalog = Catalog()
    sheet: dict[str, Any] = {"name": "Bandit 1", "wounds": [{"index": 1, "bleeding": True}]}
    assert parse(sheet, catalog) == parse(copy.deepcopy(sheet), catalog) == 1
    sheet["wounds"][0]["bleeding"] = 1  # in place, and equal to True in Python
    assert parse(sheet, catalog) == 2
    assert parse(sheet, Catalog()) == 3
    assert parse(MappingProxyType(sheet), catalog) == 4 and parse(MappingProxyType(sheet), catalog) == 5
    assert len(memo) == 3


def test_it_keeps_at_most_its_size() -> None:
    memo: ParseMemo[str] = ParseMemo(size=2)
    catalog = Catalog()
    for n in range(3):
        memo.get({"n": n}, catalog, lambda: "parsed")
    assert len(memo) == 2
    assert memo.get({"n": 0}, catalog, lambda: "again") == "again"


def test_a_wrong_sheet_is_refused_every_time_naming_who_asked() -> None:
    sheet = {"name": "N", "str": "strong"}
    for who in ("attacker", "defender"):
        with pytest.raises(SheetError, match=f"^{who}: "):
            character.parse_character(sheet, who, CAT)


def test_the_engine_remembers_what_it_parsed_and_gives_what_a_parse_gives() -> None:
    sheet = ENGINE.validate_sheet({"name": "Bjorn", "weapons": ["Broadsword"], "str": 2, "sta": 1, "dex": 1, "qik": 0,
                                   "wounds": [{"location": "thorax", "code": "S3"}]}, CAT)
    hits = character._PARSED.hits
    first = character.parse_character(sheet, "sheet", CAT)
    again = character.parse_character(copy.deepcopy(sheet), "attacker", CAT)
    assert again is first and character._PARSED.hits == hits + 1
    assert character._parse_character(sheet, "sheet", CAT) == first


# -- Pendragon and Fading Suns: the same memo, at each engine's parse entry point ------------------------------

PENDRAGON = load_catalog("pendragon")
FADING_SUNS = load_catalog("fading-suns")


def _template(catalog: Any, name: str) -> dict[str, Any]:
    return copy.deepcopy(dict(catalog.npc_templates()[name]))


def test_pendragon_remembers_what_it_parsed_naming_whoever_asks() -> None:
    sheet = pendragon_character.character_to_sheet(
        pendragon_character.parse_character(_template(PENDRAGON, "knight"), PENDRAGON), 0)
    first = pendragon_character.parse_character(sheet, PENDRAGON, "attacker")
    hits = pendragon_character._PARSED.hits
    again = pendragon_character.parse_character(copy.deepcopy(sheet), PENDRAGON, "attacker")
    assert again is first and pendragon_character._PARSED.hits == hits + 1
    assert first == pendragon_character._parse_character(sheet, PENDRAGON, "attacker")
    # the same parse for another side: its own name in what it says later (a skill it lacks)
    defender = pendragon_character.parse_character(sheet, PENDRAGON, "defender")
    assert defender.who == "defender" and first.who == "attacker"
    assert defender == pendragon_character._parse_character(sheet, PENDRAGON, "defender")
    with pytest.raises(SheetError, match=r"^defender: field 'skills' has no 'juggling'"):
        defender.skill("juggling")


def test_fading_suns_remembers_what_it_parsed() -> None:
    sheet = fading_suns_character.validate_sheet(_template(FADING_SUNS, "soldier"), FADING_SUNS)
    first = fading_suns_character.parse(sheet, FADING_SUNS, "attacker")
    hits = fading_suns_character._PARSED.hits
    again = fading_suns_character.parse(copy.deepcopy(sheet), FADING_SUNS, "defender")
    assert again is first and fading_suns_character._PARSED.hits == hits + 1
    assert first == fading_suns_character._parse(sheet, FADING_SUNS, "attacker")


def test_a_pendragon_sheet_changed_in_place_is_parsed_again() -> None:
    sheet = pendragon_character.character_to_sheet(
        pendragon_character.parse_character(_template(PENDRAGON, "bandit"), PENDRAGON), 0)
    sheet["pending_decisions"] = [{"kind": "dying", "options": ["death", "survival"]}]
    before = pendragon_character.parse_character(sheet, PENDRAGON)
    sheet["pending_decisions"][0]["options"].append("prayer")  # inside, in place
    after = pendragon_character.parse_character(sheet, PENDRAGON)
    assert after.pending_decisions[0]["options"] == ["death", "survival", "prayer"]
    assert before.pending_decisions[0]["options"] == ["death", "survival"]  # it shares nothing with the sheet
    sheet["prone"] = 1  # equal to True in Python, but not a flag
    with pytest.raises(SheetError):
        pendragon_character.parse_character(sheet, PENDRAGON)
    # nor with the sheet written from it: a change there does not reach the next parse of that content
    written = pendragon_character.character_to_sheet(before, 0)
    written["pending_decisions"][0]["options"].clear()
    assert pendragon_character.parse_character(pendragon_character.character_to_sheet(before, 0), PENDRAGON
                                               ).pending_decisions[0]["options"] == ["death", "survival"]


def test_a_fading_suns_sheet_changed_in_place_is_parsed_again() -> None:
    sheet = fading_suns_character.validate_sheet(_template(FADING_SUNS, "soldier"), FADING_SUNS)
    before = fading_suns_character.parse(sheet, FADING_SUNS)
    sheet["wounds"] = [{"index": 1, "location": _first_location(), "severity": _first_severity(), "damage": 2}]
    after = fading_suns_character.parse(sheet, FADING_SUNS)
    assert before.wounds == () and len(after.wounds) == 1
    sheet["wounds"][0]["damage"] = 3  # inside, in place
    assert fading_suns_character.parse(sheet, FADING_SUNS).wounds[0].damage == 3
    # an inline weapon written out is the sheet's own: a change there does not reach the next parse
    inline = {"name": "Stick", "damage": 2, "type": "impact", "modes": ["melee"], "skill": "melee",
              "characteristic": "dex"}
    armed = fading_suns_character.parse({**fading_suns_character.validate_sheet(
        _template(FADING_SUNS, "soldier"), FADING_SUNS), "weapons": [inline]}, FADING_SUNS)
    written = armed.to_dict()
    written["weapons"][0]["modes"].append("thrown")
    assert armed.to_dict()["weapons"][0]["modes"] == ["melee"]


def _first_location() -> str:
    return sorted(FADING_SUNS.location_names())[0]


def _first_severity() -> str:
    return sorted(FADING_SUNS.severity_names())[0]


@pytest.mark.parametrize(("parse", "catalog"), [
    (lambda sheet, who: pendragon_character.parse_character(sheet, PENDRAGON, who), PENDRAGON),
    (lambda sheet, who: fading_suns_character.parse(sheet, FADING_SUNS, who), FADING_SUNS)])
def test_a_wrong_sheet_is_refused_every_time_naming_who_asked_in_every_system(parse: Any, catalog: Any) -> None:
    sheet = {"name": "N", "strength": "strong", "str": "strong"}
    for who in ("attacker", "defender"):
        with pytest.raises(SheetError, match=f"^{who}: "):
            parse(sheet, who)
