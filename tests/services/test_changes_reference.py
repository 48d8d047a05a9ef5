"""``changes.diff`` takes shortcuts (issue 23: a hit's diff walked every wound on the target, field by field); the
ops it finds must be the ones the straightforward walk finds, to the byte, since they are what /undo stores and
later inverts. The reference below is that walk as it was (bot/services/changes.py at 21ab5bc). Compared on
random documents (bools beside ints, floats, int subclasses, reordered keys, subtrees shared between before and
after) and on seeded random fights through every engine, each step's sheets going into the next."""

from __future__ import annotations

import copy
import math
from collections.abc import Mapping, Sequence
from random import Random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.db import json_text
from bot.services.changes import (
    IDENTITY_FIELDS,
    MISSING,
    AddItem,
    ItemKey,
    Op,
    Path,
    RemoveItem,
    SetValue,
    Shift,
    diff,
    op_json,
)
from content import load_catalog
from rules import registry
from rules.dice import DiceSource
from rules.errors import RulesError
from rules.model import Scenario
from tests.rules.engine_support import fresh_sheets, random_action

# -- the reference: the walk without shortcuts --------------------------------------------------------------


def reference(before: Mapping[str, Any], after: Mapping[str, Any], *, counters: bool = False,
              atomic_lists: bool = False) -> list[Op]:
    ops: list[Op] = []
    _ref_dict((), before, after, ops, counters, atomic_lists)
    return ops


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if a is MISSING or b is MISSING:
        return a is b
    return (type(a) is type(b) and a == b) or (_is_number(a) and _is_number(b) and a == b)


def _ref_dict(path: Path, before: Mapping[str, Any], after: Mapping[str, Any], ops: list[Op], counters: bool,
              atomic: bool) -> None:
    for key in [*before, *(k for k in after if k not in before)]:
        _ref_value((*path, key), before.get(key, MISSING), after.get(key, MISSING), ops, counters, atomic)


def _ref_value(path: Path, old: Any, new: Any, ops: list[Op], counters: bool, atomic: bool) -> None:
    if _same(old, new) if not isinstance(old, dict | list) else old == new and type(old) is type(new):
        return
    if isinstance(old, Mapping) and isinstance(new, Mapping):
        _ref_dict(path, old, new, ops, counters, atomic)
    elif isinstance(old, list) and isinstance(new, list) and not atomic:
        _ref_list(path, old, new, ops)
    elif counters and len(path) == 1 and _is_int(old) and _is_int(new):
        ops.append(Shift(path, new - old))
    else:
        ops.append(SetValue(path, old, new))


def _keyed_by(items: Sequence[Any], name: str) -> bool:
    if not all(isinstance(item, Mapping) and _is_int(item.get(name)) for item in items):
        return False
    return len({item[name] for item in items}) == len(items)


def _ref_list(path: Path, old: list[Any], new: list[Any], ops: list[Op]) -> None:
    name = next((n for n in IDENTITY_FIELDS if _keyed_by(old, n) and _keyed_by(new, n) and (old or new)), None)
    if name is None:
        unmatched = list(range(len(old)))
        added = []
        last = -1
        for position, item in enumerate(new):
            match = next((i for i in unmatched if i > last and _same(old[i], item)), None)
            if match is None:
                added.append(position)
            else:
                unmatched.remove(match)
                last = match
        ops.extend(RemoveItem(path, None, old[i], i) for i in reversed(unmatched))
        ops.extend(AddItem(path, None, new[j], j) for j in added)
        return
    old_at = {item[name]: i for i, item in enumerate(old)}
    new_at = {item[name]: j for j, item in enumerate(new)}
    ops.extend(RemoveItem(path, ItemKey(name, key), old[i], i)
               for key, i in sorted(old_at.items(), key=lambda kv: -kv[1]) if key not in new_at)
    ops.extend(AddItem(path, ItemKey(name, key), new[j], j) for key, j in new_at.items() if key not in old_at)
    for key, i in old_at.items():
        if key in new_at:
            before, after = old[i], new[new_at[key]]
            for field in [*before, *(f for f in after if f not in before)]:
                was, now = before.get(field, MISSING), after.get(field, MISSING)
                if not _same(was, now):
                    ops.append(SetValue((*path, ItemKey(name, key), field), was, now))


def assert_same_ops(before: Mapping[str, Any], after: Mapping[str, Any], **flags: bool) -> list[Op]:
    """The same ops, to the type of every value (``Op`` equality takes ``True`` for ``1``), stored as the same text."""
    ops, expected = diff(before, after, **flags), reference(before, after, **flags)
    assert repr(ops) == repr(expected)
    assert json_text.dumps([op_json(op) for op in ops]) == json_text.dumps([op_json(op) for op in expected])
    return ops


# -- random documents ------------------------------------------------------------------------------------------


class Count(int):
    """An int subclass (no engine writes one; a keyed list's fast path must not take it for a plain int)."""


scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from([0.0, 1.0, 2.5, -1.0]),
                    st.sampled_from(["a", "b", ""]), st.builds(Count, st.integers(0, 3)))
plain = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                      st.dictionaries(st.sampled_from("xyz"), inner, max_size=3)),
                     max_leaves=6)
fields = st.sampled_from(["location", "levels", "treated", "note", "side"])


@st.composite
def items(draw: st.DrawFn, name: str, key: Any) -> dict[str, Any]:
    item = {name: key, **draw(st.dictionaries(fields, plain, max_size=4))}
    if draw(st.booleans()):  # the identity field last, not first
        item[name] = item.pop(name)
    return item


@st.composite
def keyed(draw: st.DrawFn) -> list[Any]:
    """A list of wounds (``index``) or rolls (``id``), now and then with a duplicate, a bool or a plain value in it."""
    name = draw(st.sampled_from(["index", "id"]))
    keys = draw(st.lists(st.integers(0, 6), unique=True, max_size=6))
    out: list[Any] = [draw(items(name, key)) for key in keys]
    odd = draw(st.integers(0, 9))
    if odd == 0 and out:
        out.append(draw(items(name, out[0][name])))  # a duplicate number: a plain list
    elif odd == 1:
        out.append(draw(items(name, draw(st.sampled_from([True, Count(9), 1.0])))))
    elif odd == 2:
        out.append(draw(scalars))
    return out


@st.composite
def documents(draw: st.DrawFn) -> dict[str, Any]:
    doc: dict[str, Any] = draw(st.dictionaries(st.sampled_from(["hp", "str", "notes", "held", "abilities"]), plain,
                                               max_size=4))
    doc["wounds"] = draw(keyed())
    if draw(st.booleans()):
        doc["pending_rolls"] = draw(keyed())
    if draw(st.booleans()):  # rolls owed with no number of their own (ars-harn's kill rolls): a plain list
        doc["owed"] = draw(st.lists(unnamed, max_size=5))
    return doc


unnamed = st.one_of(st.fixed_dictionaries({"kind": st.sampled_from(["shock", "kill"])},
                                          optional={"wound": st.integers(1, 3), "ease_factor": scalars}), scalars)


def _retyped(value: Any, draw: st.DrawFn) -> Any:
    """The same value as ``==`` sees it, its type changed where one can be: True and 1, 1 and 1.0, 1 and Count(1)."""
    if isinstance(value, bool):
        return draw(st.sampled_from([value, int(value), float(value)]))
    if isinstance(value, int):
        return draw(st.sampled_from([value, float(value), Count(value)] + ([bool(value)] if value in (0, 1) else [])))
    if isinstance(value, float) and value.is_integer():
        return draw(st.sampled_from([value, int(value)]))
    return value


@st.composite
def changed(draw: st.DrawFn, before: dict[str, Any]) -> dict[str, Any]:
    """What an action might leave: most parts shared with ``before`` or equal copies of them, some retyped,
    reordered, added, dropped or replaced."""
    after: dict[str, Any] = {}
    for key, value in before.items():
        how = draw(st.sampled_from([0, 5, 6, 1, 2, 3, 4, 5, 6]))
        if how == 0:
            after[key] = value  # the same object
        elif how == 1:
            after[key] = copy.deepcopy(value)
        elif how == 2:
            after[key] = draw(plain)
        elif how == 3 and isinstance(value, list):
            after[key] = [_changed_item(item, draw) for item in value]
            if draw(st.booleans()):
                after[key] = after[key][::-1]
        elif how == 4:
            continue  # dropped
        elif how == 6 and isinstance(value, list):  # cut short, then some items added (equal ones, now and then)
            kept = value[:draw(st.integers(0, len(value)))]
            after[key] = [*(_changed_item(item, draw) for item in kept),
                          *draw(st.lists(st.one_of(unnamed, st.sampled_from(value or [None])), max_size=3))]
        else:
            after[key] = _retyped(value, draw)
    if draw(st.booleans()) and isinstance(after.get("wounds", []), list):
        after["wounds"] = [*after.get("wounds", []), *draw(keyed())]  # more wounds (or an odd item)
    return after


def _changed_item(item: Any, draw: st.DrawFn) -> Any:
    if not isinstance(item, dict):
        return _retyped(item, draw)
    how = draw(st.integers(0, 4))
    if how == 0:
        return item
    if how == 1:
        return dict(reversed(item.items()))  # the same fields, in another order
    if how == 2:
        return {key: _retyped(value, draw) for key, value in item.items()}
    if how == 3:
        return {**item, draw(fields): draw(scalars)}
    return copy.deepcopy(item)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(st.data())
def test_the_ops_are_the_straightforward_walks_to_the_byte(data: st.DataObject) -> None:
    before = data.draw(documents())
    after = data.draw(changed(before))
    for flags in ({}, {"counters": True}, {"atomic_lists": True}):
        assert_same_ops(before, after, **flags)
        assert_same_ops(after, before, **flags)


def test_a_field_retyped_in_a_wound_is_a_change_where_the_list_changed() -> None:
    """Lists (and dicts) that compare equal are unchanged, as before; in a list that changed, a wound's False that
    became 0 is still a change, as the field by field walk found it."""
    wound = {"index": 1, "location": "skull", "bleeding": False, "levels": 2}
    added = {"index": 2, "location": "thorax", "bleeding": True, "levels": 1}
    for retyped in ({**wound, "bleeding": 0}, {**wound, "levels": 2.0}, {**wound, "levels": Count(2)},
                    {"bleeding": False, "index": 1, "location": "skull", "levels": 2}, wound, dict(wound),
                    {**wound, "note": math.nan}):
        assert_same_ops({"wounds": [wound]}, {"wounds": [retyped, added]})
        assert_same_ops({"wounds": [wound, added]}, {"wounds": [retyped]})
    swapped = {"index": 3, "levels": 1, "bleeding": True}, {"index": 3, "bleeding": 1, "levels": True}  # equal
    assert_same_ops({"wounds": [swapped[0]]}, {"wounds": [swapped[1], added]})
    nan = {**wound, "note": math.nan}  # the guard lets no NaN in; were one there, it would be no same as itself
    assert_same_ops({"wounds": [nan]}, {"wounds": [nan, added]})
    kill = {"kind": "kill", "wound": 1, "ease_factor": 8}
    for owed in ([{**kill, "wound": 2}], [{**kill, "ease_factor": True}], [kill, kill], [{"kind": "shock"}, kill], []):
        assert_same_ops({"owed": [kill, {"kind": "shock"}]}, {"owed": [dict(kill), {"kind": "shock"}, *owed]})
        assert_same_ops({"owed": [kill, 1, "x"]}, {"owed": [kill, True, "x", *owed]})
        assert_same_ops({"owed": [1, "x", None]}, {"owed": [True, "x", None, *owed]})
        assert_same_ops({"owed": [kill, {"kind": "shock"}, *owed]}, {"owed": [kill, *owed]})
    for flags in ({}, {"counters": True}):
        assert_same_ops({"flag": True, "hp": 1, "str": 0, "x": 2}, {"flag": 1, "hp": 1.0, "str": False, "x": Count(2)},
                        **flags)
    assert diff({"wounds": [wound]}, {"wounds": [{**wound, "bleeding": 0}, added]}) == [
        AddItem(("wounds",), ItemKey("index", 2), added, 1),
        SetValue(("wounds", ItemKey("index", 1), "bleeding"), False, 0)]


# -- seeded fights in every engine -----------------------------------------------------------------------------


@pytest.mark.parametrize("system", registry.system_ids())
def test_every_engines_fights_give_the_straightforward_ops(system: str) -> None:
    catalog = load_catalog(system)
    engine = registry.get_engine(system)
    rng = Random(2312)
    compared = most_wounds = 0
    for _fight in range(40):
        sheets = fresh_sheets(engine, catalog, rng)
        for _step in range(rng.randint(5, 30)):
            attacker, defender = sheets
            try:
                action = random_action(rng, system, sorted(engine.actions), attacks=0.7, options=False)
                result = engine.resolve(Scenario(system, action, attacker, defender),
                                        DiceSource(rng=Random(rng.getrandbits(32))), catalog)
            except RulesError:
                continue
            for old, new in ((attacker, result.attacker), (defender, result.defender)):
                if new is not None:
                    assert_same_ops(old, new, counters=True)
                    assert_same_ops(new, old, counters=True)
                    compared += 1
            sheets = [result.attacker or attacker, result.defender or defender]
            most_wounds = max(most_wounds, *(len(s.get("wounds") or ()) for s in sheets))
            if rng.random() < 0.3:
                sheets.reverse()
    assert compared > 400 and most_wounds >= 5  # the fights got somewhere
