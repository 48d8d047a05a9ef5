"""The engine's reads of a sheet are remembered by the sheet's content (bot/services/sheet_reads.py): asked
once for a sheet as it is, asked again the moment anything in it changes, whatever changed it (even in place),
or when the catalog or the rulings are not the same ones."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from bot.services.sheet_reads import SheetReads, sheet_key


class Catalog:
    pass


def test_a_sheet_as_it_is_is_read_once_and_a_changed_one_again() -> None:
    reads, asked = SheetReads(), []

    def read(sheet: dict[str, Any], catalog: object, settings: dict[str, Any] | None = None) -> Any:
        def ask() -> int:
            asked.append(dict(sheet))
            return len(asked)

        return reads.get("summary", "ars-harn", sheet, catalog, settings, ask)

    catalog = Catalog()
    sheet: dict[str, Any] = {"name": "Bandit 1", "wounds": [{"location": "head", "index": 1}]}
    assert read(sheet, catalog) == read(dict(sheet), catalog) == 1  # an equal sheet, another object
    sheet["wounds"].append({"location": "thorax", "index": 2})  # changed in place, as no code should
    assert read(sheet, catalog) == 2
    assert read(sheet, Catalog()) == 3  # a rebuilt pack
    assert read(sheet, catalog, {"stun_lasts": "1"}) == 4  # other rulings
    assert read({"name": "Bandit 1", "wounds": list(sheet["wounds"])}, catalog) == 2  # equal, built again
    assert read({"wounds": sheet["wounds"], "name": "Bandit 1"}, catalog) == 5  # keys in another order: asked
    assert read(sheet, catalog, None) == 2 and read(sheet, catalog, {}) == 6  # no rulings is not empty rulings
    assert read({"name": "Bandit 1", "wounds": [{"location": "head", "index": True}]}, catalog) == 7  # True is not 1
    assert read({"name": "Bandit 1", "wounds": [{"location": "head", "index": 1.0}]}, catalog) == 8  # nor 1.0
    assert len(asked) == 8


def test_a_key_given_by_the_caller_is_the_sheets_own() -> None:
    reads = SheetReads()
    catalog = Catalog()
    sheet = {"name": "Bandit 1", "conditions": ["prone"]}
    assert reads.get("summary", "fake", sheet, catalog, None, lambda: "summary", key=sheet_key(sheet)) == "summary"
    assert reads.get("summary", "fake", dict(sheet), catalog, None, lambda: "asked again") == "summary"
    assert sheet_key(sheet) != sheet_key({"name": "Bandit 1", "conditions": ["shock"]})


def test_it_holds_at_most_its_size_and_forgets_the_least_recent() -> None:
    reads = SheetReads(size=2)
    catalog = Catalog()
    for n in range(3):
        reads.get("summary", "fake", {"n": n}, catalog, None, lambda: "read")
    assert len(reads) == 2
    assert reads.get("summary", "fake", {"n": 0}, catalog, None, lambda: "asked again") == "asked again"


def test_what_is_not_plain_data_is_not_remembered() -> None:
    reads, asked = SheetReads(), []
    catalog = Catalog()
    for sheet in ({"name": "a", "held": Catalog()}, MappingProxyType({"name": "a"})):  # an object; not a dict
        for _ in range(2):
            reads.get("summary", "fake", sheet, catalog, None, lambda: asked.append(1))
    assert len(asked) == 4 and len(reads) == 0
