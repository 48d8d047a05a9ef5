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
from rules.parse_memo import ParseMemo

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
