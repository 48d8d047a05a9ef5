"""The change sets /undo inverts (bot/services/changes.py): diff, take back, refuse, store."""

from __future__ import annotations

import copy
from typing import Any
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.services import changes
from bot.services.changes import (
    MISSING,
    AddItem,
    Blocked,
    ItemKey,
    RemoveItem,
    SetValue,
    Shift,
    diff,
    op_from,
    op_json,
    same,
    take_back,
    touches,
)

THORAX = {"index": 1, "location": "thorax", "treated": False}
ABDOMEN = {"index": 2, "location": "abdomen", "treated": False}


def test_a_wound_added_is_taken_back_by_its_index_whatever_came_around_it() -> None:
    ops = diff({"wounds": [], "hp": 10}, {"wounds": [THORAX], "hp": 7}, counters=True)
    assert ops == [AddItem(("wounds",), ItemKey("index", 1), THORAX, 0), Shift(("hp",), -3)]
    now = {"wounds": [{"index": 0, "location": "head"}, THORAX, ABDOMEN], "hp": 2}
    assert take_back(now, ops) == {"wounds": [{"index": 0, "location": "head"}, ABDOMEN], "hp": 5}
    assert now["wounds"] == [{"index": 0, "location": "head"}, THORAX, ABDOMEN]  # left alone


def test_only_top_level_numbers_are_counters() -> None:
    ops = diff({"fatigue": 1, "held": {"right": 0}}, {"fatigue": 2, "held": {"right": 1}}, counters=True)
    assert ops == [Shift(("fatigue",), 1), SetValue(("held", "right"), 0, 1)]
    with pytest.raises(Blocked):  # the hand was changed again: which weapon it held is no counter
        take_back({"fatigue": 3, "held": {"right": 2}}, ops)
    assert take_back({"fatigue": 3, "held": {"right": 1}}, ops) == {"fatigue": 2, "held": {"right": 0}}


def test_a_field_set_goes_back_only_while_it_holds_the_value_the_action_gave_it() -> None:
    ops = diff({"abilities": {"Sword": 5}}, {"abilities": {"Sword": 6}})
    assert ops == [SetValue(("abilities", "Sword"), 5, 6)]
    assert take_back({"abilities": {"Sword": 6}, "str": 2}, ops) == {"abilities": {"Sword": 5}, "str": 2}
    with pytest.raises(Blocked) as blocked:
        take_back({"abilities": {"Sword": 7}}, ops)
    assert blocked.value.reason == "changed"


def test_a_wound_treated_or_healed_since_blocks_taking_it_back() -> None:
    ops = diff({"wounds": []}, {"wounds": [THORAX]})
    with pytest.raises(Blocked) as treated:
        take_back({"wounds": [{**THORAX, "treated": True}]}, ops)
    assert treated.value.reason == "changed"
    with pytest.raises(Blocked) as healed:
        take_back({"wounds": []}, ops)
    assert healed.value.reason == "gone"


def test_a_treatment_taken_back_needs_the_wound_as_it_left_it() -> None:
    ops = diff({"wounds": [THORAX]}, {"wounds": [{**THORAX, "treated": True}]})
    assert ops == [SetValue(("wounds", ItemKey("index", 1), "treated"), False, True)]
    assert take_back({"wounds": [{**THORAX, "treated": True}, ABDOMEN]}, ops) == {"wounds": [THORAX, ABDOMEN]}
    with pytest.raises(Blocked):
        take_back({"wounds": [ABDOMEN]}, ops)


def test_a_healed_wound_comes_back_where_it_was_unless_its_number_is_back() -> None:
    ops = diff({"wounds": [THORAX, ABDOMEN]}, {"wounds": [ABDOMEN]})
    assert take_back({"wounds": [ABDOMEN]}, ops) == {"wounds": [THORAX, ABDOMEN]}
    with pytest.raises(Blocked) as back:
        take_back({"wounds": [{"index": 1, "location": "head"}, ABDOMEN]}, ops)
    assert back.value.reason == "back"


def test_plain_lists_are_multisets_in_order() -> None:
    ops = diff({"conditions": ["prone"]}, {"conditions": ["prone", "shock"]})
    assert ops == [AddItem(("conditions",), None, "shock", 1)]
    assert take_back({"conditions": ["shock", "prone"]}, ops) == {"conditions": ["prone"]}
    with pytest.raises(Blocked):
        take_back({"conditions": ["prone"]}, ops)


def test_keys_added_and_removed() -> None:
    ops = diff({"a": 1, "gone": "x"}, {"a": 1, "new": {"b": 2}})
    assert ops == [SetValue(("gone",), "x", MISSING), SetValue(("new",), MISSING, {"b": 2})]
    assert take_back({"a": 1, "new": {"b": 2}}, ops) == {"a": 1, "gone": "x"}


def test_true_is_not_one() -> None:
    assert diff({"flag": True}, {"flag": 1}) == [SetValue(("flag",), True, 1)]


def test_ops_are_stored_as_json_and_read_back() -> None:
    ops = [SetValue(("a", ItemKey("id", 3), "b"), MISSING, [1]), Shift(("hp",), -4),
           AddItem(("wounds",), ItemKey("index", 2), ABDOMEN, 1), RemoveItem(("conditions",), None, "shock", 0)]
    assert [op_from(op_json(op)) for op in ops] == ops


def test_which_later_ops_stand_on_an_op() -> None:
    added = AddItem(("wounds",), ItemKey("index", 1), THORAX, 0)
    assert touches(added, SetValue(("wounds", ItemKey("index", 1), "treated"), False, True))
    assert not touches(added, AddItem(("wounds",), ItemKey("index", 2), ABDOMEN, 1))
    assert touches(SetValue(("abilities", "Sword"), 5, 6), SetValue(("abilities",), {}, {"Sword": 7}))
    assert not touches(SetValue(("abilities", "Sword"), 5, 6), SetValue(("abilities", "Axe"), 1, 2))


# -- property: an action's changes taken back straight after it give the sheet before it -------------------

scalars = st.one_of(st.none(), st.booleans(), st.integers(-50, 50), st.sampled_from(["a", "b", "shock", ""]))
plain = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                      st.dictionaries(st.sampled_from("xyz"), inner, max_size=3)),
                     max_leaves=8)
keys = st.sampled_from(["str", "hp", "notes", "abilities", "held", "conditions", "dropped"])


@st.composite
def sheets(draw: st.DrawFn) -> dict[str, Any]:
    sheet: dict[str, Any] = draw(st.dictionaries(keys, plain, max_size=5))
    count = draw(st.integers(0, 4))
    sheet["wounds"] = [{"index": i + 1, "location": draw(st.sampled_from(["head", "thorax"])),
                        "levels": draw(st.integers(0, 5))} for i in range(count)]
    return sheet


@st.composite
def actions(draw: st.DrawFn, sheet: dict[str, Any]) -> dict[str, Any]:
    """What an action might do: wounds added, healed or changed, fields set, added or dropped, lists grown."""
    after = copy.deepcopy(sheet)
    wounds = after["wounds"]
    for _ in range(draw(st.integers(0, 2))):
        top = max((w["index"] for w in wounds), default=0)
        wounds.append({"index": top + 1, "location": "abdomen", "levels": draw(st.integers(1, 5))})
    if wounds and draw(st.booleans()):
        del wounds[draw(st.integers(0, len(wounds) - 1))]
    if wounds and draw(st.booleans()):
        wounds[draw(st.integers(0, len(wounds) - 1))]["treated"] = True
    for key in draw(st.lists(keys, max_size=3)):
        choice = draw(st.integers(0, 2))
        if choice == 0:
            after[key] = draw(plain)
        elif choice == 1:
            after.pop(key, None)
        elif isinstance(after.get(key), list):
            items = after[key]
            if items and draw(st.booleans()):
                del items[draw(st.integers(0, len(items) - 1))]
            items.append(draw(scalars))
    return after


@settings(max_examples=150, derandomize=True, deadline=None)
@given(st.data())
def test_taking_back_an_action_straight_after_it_gives_the_sheet_before(data: st.DataObject) -> None:
    before = data.draw(sheets())
    after = data.draw(actions(before))
    for counters in (False, True):
        ops = diff(before, after, counters=counters)
        assert take_back(after, ops) == before
        assert take_back(after, [op_from(op_json(op)) for op in ops]) == before


def test_a_wound_added_is_found_without_comparing_the_others_field_by_field() -> None:
    """Issue 23: a hit's diff compared every wound already on the target, field by field (12 ``same`` calls a
    wound). The wounds it left alone are now shown unchanged in passes at C speed: the count does not grow."""

    def calls(wounds: int) -> int:
        def sheet(n: int) -> dict[str, Any]:
            return {"name": "Bandit", "injury_levels": 2 * n, "conditions": ["shock"] if n > 1 else [],
                    "wounds": [{"index": i, "location": "skull", "side": None, "levels": 2, "bleeding": False,
                                "treated": False} for i in range(1, n + 1)]}
        counted = {"same": 0}

        def counting(a: Any, b: Any) -> bool:
            counted["same"] += 1
            return same(a, b)

        with patch.object(changes, "same", counting):
            ops = diff(sheet(wounds), sheet(wounds + 1), counters=True)  # fresh dicts, as an engine writes them
        assert [type(op) for op in ops] == [Shift, AddItem] + ([AddItem] if wounds == 1 else [])
        return counted["same"]

    assert calls(56) == calls(2)


def test_a_roll_owed_added_to_a_plain_list_is_found_without_comparing_the_others() -> None:
    """An ars-harn target owes a kill roll for each wound where the GM rolls them: a list with no number in its
    items. Its common beginning is matched at C speed, so the ``same`` calls do not grow with it either."""

    def calls(owed: int) -> int:
        def sheet(n: int) -> dict[str, Any]:
            return {"pending_rolls": [{"kind": "shock"}, *({"kind": "kill", "wound": i, "ease_factor": 8}
                                                            for i in range(1, n + 1))]}
        counted = {"same": 0}

        def counting(a: Any, b: Any) -> bool:
            counted["same"] += 1
            return same(a, b)

        with patch.object(changes, "same", counting):
            ops = diff(sheet(owed), sheet(owed + 1))
        assert ops == [AddItem(("pending_rolls",), None, {"kind": "kill", "wound": owed + 1, "ease_factor": 8},
                               owed + 1)]
        return counted["same"]

    assert calls(60) == calls(1)
