"""A view's own copy of a sheet (bot/services/snapshots.py ``copied``): equal to the row's, never the same objects,
and a deep copy where JSON would change it."""

from __future__ import annotations

from bot.services.snapshots import copied


def test_a_copy_is_equal_and_shares_nothing() -> None:
    sheet = {"name": "Bjorn", "wounds": [{"location": "Skull", "level": 3, "notes": ["bleeding"]}], "str": 2.5}
    again = copied(sheet)
    assert again == sheet
    again["wounds"][0]["notes"].append("infected")
    assert sheet["wounds"][0]["notes"] == ["bleeding"]


def test_what_json_would_change_is_deep_copied() -> None:
    sheet = {"dice": (1, 2), 3: "a key that is not text"}
    again = copied(sheet)
    assert again == sheet and again["dice"] == (1, 2) and again is not sheet
