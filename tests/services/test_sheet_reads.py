"""The engine's reads of a sheet are remembered by the sheet's content (bot/services/sheet_reads.py): asked
once for a sheet as it is, asked again the moment anything in it changes, whatever changed it (even in place),
or when the catalog or the rulings are not the same ones."""

from __future__ import annotations

from typing import Any

from bot.services.sheet_reads import SheetReads


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
    assert read({"wounds": sheet["wounds"], "name": "Bandit 1"}, catalog) == 2  # key order does not matter
    assert len(asked) == 4


def test_it_holds_at_most_its_size_and_forgets_the_least_recent() -> None:
    reads = SheetReads(size=2)
    catalog = Catalog()
    for n in range(3):
        reads.get("summary", "fake", {"n": n}, catalog, None, lambda: "read")
    assert len(reads) == 2
    assert reads.get("summary", "fake", {"n": 0}, catalog, None, lambda: "asked again") == "asked again"


def test_what_is_not_json_is_not_remembered() -> None:
    reads, asked = SheetReads(), []
    sheet: dict[Any, Any] = {1: "a", "b": 2}  # keys of mixed types cannot be sorted
    for _ in range(2):
        reads.get("summary", "fake", sheet, Catalog(), None, lambda: asked.append(1))
    assert len(asked) == 2 and len(reads) == 0
