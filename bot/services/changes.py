"""What one action changed in a JSON document (a sheet, an encounter's state), as a list of ops, and
how to take exactly those changes back out of the document as it is now.

``diff(before, after)`` walks both documents. Dicts are compared key by key; a list whose items are
mappings carrying a unique integer ``index`` or ``id`` (the wounds and queued rolls of every engine)
is compared item by item by that key, so "the wound this action added" is found again whatever was
added or removed around it since; any other list is a multiset of values (conditions, dropped
weapons). Inside an identified item each field is one value.

``take_back(current, ops)`` inverts the ops on ``current`` and refuses (``Blocked``) where the
document no longer holds what the action left: a field changed again, a wound treated or gone.
Counters (``counters=True`` in ``diff``: whole numbers at the top of a sheet, such as hit points,
fatigue and injury levels, that later actions move up and down) are shifted back by the action's own
amount instead, so two actions on one counter undo in any order. Nested numbers (which weapon a hand
holds, a skill) are values: set back only while they hold what the action left.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import chain, repeat
from typing import Any, Literal

IDENTITY_FIELDS = ("index", "id")  # the keys that name an item of a list for good (wounds, queued rolls)


class _Missing:
    """A key that is absent (before it was added, after it was removed)."""

    _instance: _Missing | None = None

    def __new__(cls) -> _Missing:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


@dataclass(frozen=True)
class ItemKey:
    """One item of a list, named by its identity field: ``wounds[index=2]``."""

    field: str
    value: int


Segment = str | ItemKey
Path = tuple[Segment, ...]


@dataclass(frozen=True)
class SetValue:
    """A value set: ``old`` or ``new`` is MISSING when the key was added or removed."""

    path: Path
    old: Any
    new: Any


@dataclass(frozen=True)
class Shift:
    """A counter moved by ``by``."""

    path: Path
    by: int


@dataclass(frozen=True)
class AddItem:
    """``value`` put into the list at ``path`` (at position ``at``); ``key`` names it, if the list has one."""

    path: Path
    key: ItemKey | None
    value: Any
    at: int


@dataclass(frozen=True)
class RemoveItem:
    """``value`` taken out of the list at ``path``, from position ``at`` of the list before."""

    path: Path
    key: ItemKey | None
    value: Any
    at: int


Op = SetValue | Shift | AddItem | RemoveItem
Reason = Literal["changed", "gone", "back"]


class Blocked(Exception):
    """The current document no longer holds what ``op`` left (``reason``: changed since, gone, back again)."""

    def __init__(self, op: Op, reason: Reason) -> None:
        super().__init__(f"{reason}: {op}")
        self.op = op
        self.reason = reason


# -- diff --------------------------------------------------------------------------------------------------


def diff(before: Mapping[str, Any], after: Mapping[str, Any], *, counters: bool = False,
         atomic_lists: bool = False) -> list[Op]:
    """The ops that turn ``before`` into ``after``. ``counters``: top-level whole numbers are counters (Shift);
    ``atomic_lists``: every list is one value (an encounter's turn order)."""
    ops: list[Op] = []
    _diff_dict((), before, after, ops, counters, atomic_lists)
    return ops


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def same(a: Any, b: Any) -> bool:
    """Equal as JSON values: ``True`` is not ``1``, ``1`` is ``1.0``."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if a is MISSING or b is MISSING:
        return a is b
    return (type(a) is type(b) and a == b) or (_is_number(a) and _is_number(b) and a == b)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _diff_dict(path: Path, before: Mapping[str, Any], after: Mapping[str, Any], ops: list[Op], counters: bool,
               atomic: bool) -> None:
    for key in [*before, *(k for k in after if k not in before)]:
        _diff_value((*path, key), before.get(key, MISSING), after.get(key, MISSING), ops, counters, atomic)


def _diff_value(path: Path, old: Any, new: Any, ops: list[Op], counters: bool, atomic: bool) -> None:
    # Containers that compare equal are taken as unchanged (a True turned 1 deep inside one is not a
    # change any engine makes); comparing them with ``same`` cost more than the whole rest of the diff.
    # One container shared by both documents is equal to itself, and is not walked at all.
    if old is new and type(old) in _CONTAINERS:
        return
    if same(old, new) if not isinstance(old, dict | list) else old == new and type(old) is type(new):
        return
    if isinstance(old, Mapping) and isinstance(new, Mapping):
        _diff_dict(path, old, new, ops, counters, atomic)
    elif isinstance(old, list) and isinstance(new, list) and not atomic:
        _diff_list(path, old, new, ops)
    elif counters and len(path) == 1 and _is_int(old) and _is_int(new):
        ops.append(Shift(path, new - old))
    else:
        ops.append(SetValue(path, old, new))


def identity_field(*lists: Sequence[Any]) -> str | None:
    """The field that names every item of these lists (each a mapping with a unique whole number in it)."""
    for name in IDENTITY_FIELDS:
        if all(_keyed_by(items, name) for items in lists) and any(lists):
            return name
    return None


def _keyed_by(items: Sequence[Any], name: str) -> bool:
    return _keys_by(items, name) is not None


def _keys_by(items: Sequence[Any], name: str) -> list[int] | None:
    """Each item's ``name`` in order, if every item is a mapping holding a unique whole number there."""
    # The usual case at C speed (plain dicts, plain ints: a sheet read from JSON or written by an engine);
    # anything else (a bool, an int subclass, another mapping) is judged one item at a time.
    if _DICT.issuperset(map(type, items)):
        keys: list[Any] = list(map(dict.get, items, repeat(name)))
        if not (_INT.issuperset(map(type, keys)) or all(_is_int(key) for key in keys)):
            return None
    elif all(isinstance(item, Mapping) and _is_int(item.get(name)) for item in items):
        keys = [item[name] for item in items]
    else:
        return None
    return keys if len(set(keys)) == len(keys) else None


def _flat_same(olds: list[Any], news: list[Any]) -> bool:
    """Whether each item of ``olds`` is ``same`` as the item of ``news`` at its position, shown at C speed: plain
    values of one type each (no container, no float, so no NaN), or plain dicts whose fields are in the same order,
    each holding such a value in both; and equal. False says only "not shown": then they are compared one by one.
    """
    if olds != news:
        return False
    kinds = list(map(type, olds))
    if kinds != list(map(type, news)):
        return False
    if _FLAT.issuperset(kinds):
        return True
    if not _DICT.issuperset(kinds) or list(chain.from_iterable(olds)) != list(chain.from_iterable(news)):
        return False  # not all dicts, or some pair's fields in another order
    kinds = list(map(type, chain.from_iterable(map(dict.values, olds))))
    return kinds == list(map(type, chain.from_iterable(map(dict.values, news)))) and _FLAT.issuperset(kinds)


_CONTAINERS = frozenset({dict, list})
_DICT = frozenset({dict})
_INT = frozenset({int})
_FLAT = frozenset({str, int, bool, type(None)})  # ``same`` is ``==`` for two values of one of these types


def _diff_list(path: Path, old: list[Any], new: list[Any], ops: list[Op]) -> None:
    # Removals go first, from the highest position down, so that taking them back (ops run in reverse)
    # puts each item back in front of the ones that followed it.
    name, old_keys, new_keys = _identity(old, new)
    if name is None:
        # Match items in order (the earliest equal one after the last match), so that putting back the
        # unmatched ones at their old positions rebuilds the old list exactly, order included. Where the lists
        # begin alike (a roll owed added at the end: an ars-harn target owes a kill roll for each wound, where the
        # GM rolls them), that is each item of the common part matched with itself, shown at C speed.
        common = min(len(old), len(new))
        start = common if common and _flat_same(old[:common], new[:common]) else 0
        unmatched = list(range(start, len(old)))
        added = []
        last = start - 1
        for position in range(start, len(new)):
            item = new[position]
            match = next((i for i in unmatched if i > last and same(old[i], item)), None)
            if match is None:
                added.append(position)
            else:
                unmatched.remove(match)
                last = match
        ops.extend(RemoveItem(path, None, old[i], i) for i in reversed(unmatched))
        ops.extend(AddItem(path, None, new[j], j) for j in added)
        return
    # Every step below is a pass at C speed over the items, unless some item was removed or changed: a hit adds a
    # wound and leaves the others alone, so its diff does not walk them in Python.
    old_at = dict(zip(old_keys, range(len(old_keys)), strict=True))
    new_at = dict(zip(new_keys, range(len(new_keys)), strict=True))
    gone = old_at.keys() - new_at.keys()
    ops.extend(RemoveItem(path, ItemKey(name, old_keys[i]), old[i], i)
               for i in sorted(map(old_at.__getitem__, gone), reverse=True))
    ops.extend(AddItem(path, ItemKey(name, new_keys[j]), new[j], j)
               for j in sorted(map(new_at.__getitem__, new_at.keys() - old_at.keys())))
    kept = [key for key in old_keys if key not in gone] if gone else old_keys  # in the old list's order
    olds = list(map(old.__getitem__, map(old_at.__getitem__, kept))) if gone else old
    news = list(map(new.__getitem__, map(new_at.__getitem__, kept)))
    if _flat_same(olds, news):  # the items the action left alone: in a hit, every wound but the new one
        return
    for key, before, after in zip(kept, olds, news, strict=True):
        if _flat_same([before], [after]):
            continue
        for field in [*before, *(f for f in after if f not in before)]:
            was, now = before.get(field, MISSING), after.get(field, MISSING)
            if not same(was, now):
                ops.append(SetValue((*path, ItemKey(name, key), field), was, now))


def _identity(old: list[Any], new: list[Any]) -> tuple[str | None, list[int], list[int]]:
    """``identity_field(old, new)`` with each list's keys in order, read once."""
    if old or new:
        for name in IDENTITY_FIELDS:
            old_keys = _keys_by(old, name)
            if old_keys is None:
                continue
            new_keys = _keys_by(new, name)
            if new_keys is not None:
                return name, old_keys, new_keys
    return None, [], []


# -- taking back ---------------------------------------------------------------------------------------------


def take_back(current: Mapping[str, Any], ops: Sequence[Op]) -> dict[str, Any]:
    """``current`` without the changes ``ops`` made (a new document; ``current`` is left alone).

    Raises Blocked at the first op whose result is no longer there as the action left it.
    """
    doc: dict[str, Any] = _copy(current)
    for op in reversed(ops):
        _invert(doc, op)
    return doc


def _copy(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def _find(items: list[Any], key: ItemKey) -> int | None:
    return next((i for i, item in enumerate(items)
                 if isinstance(item, Mapping) and same(item.get(key.field), key.value)), None)


def _resolve(doc: Any, path: Path, op: Op) -> Any:
    """The container at ``path``; Blocked ("gone") if any step of it is no longer there."""
    node = doc
    for segment in path:
        if isinstance(segment, ItemKey):
            position = _find(node, segment) if isinstance(node, list) else None
            if position is None:
                raise Blocked(op, "gone")
            node = node[position]
        elif isinstance(node, dict) and segment in node:
            node = node[segment]
        else:
            raise Blocked(op, "gone")
    return node


def _invert(doc: dict[str, Any], op: Op) -> None:
    if isinstance(op, SetValue | Shift):
        _invert_value(doc, op)
        return
    items = _resolve(doc, op.path, op)
    if not isinstance(items, list):
        raise Blocked(op, "gone")
    if isinstance(op, AddItem):
        del items[_added_at(items, op)]
    else:
        if op.key is not None and _find(items, op.key) is not None:
            raise Blocked(op, "back")
        items.insert(min(op.at, len(items)), _copy(op.value))


def _invert_value(doc: dict[str, Any], op: SetValue | Shift) -> None:
    """A field's value as it was before ``op``: shifted back, or set back (or taken out, where it was missing)."""
    parent = _resolve(doc, op.path[:-1], op)
    field = op.path[-1]
    if not isinstance(parent, dict) or not isinstance(field, str):
        raise Blocked(op, "gone")
    value = parent.get(field, MISSING)
    if isinstance(op, Shift):
        if not _is_int(value):
            raise Blocked(op, "changed")
        parent[field] = value - op.by
    elif not same(value, op.new):
        raise Blocked(op, "changed" if value is not MISSING else "gone")
    elif op.old is MISSING:
        del parent[field]
    else:
        parent[field] = _copy(op.old)


def _added_at(items: list[Any], op: AddItem) -> int:
    """Where the item ``op`` added is now: by its key, or else the equal item at its position (or the last)."""
    if op.key is not None:
        position = _find(items, op.key)
        if position is None:
            raise Blocked(op, "gone")
        if not same(items[position], op.value):
            raise Blocked(op, "changed")
        return position
    equal = [i for i, item in enumerate(items) if same(item, op.value)]
    if not equal:
        raise Blocked(op, "gone")
    return op.at if op.at in equal else equal[-1]


# -- stored form ---------------------------------------------------------------------------------------------


def _path_json(path: Path) -> list[Any]:
    return [{segment.field: segment.value} if isinstance(segment, ItemKey) else segment for segment in path]


def _path_from(data: Any) -> Path:
    out: list[Segment] = []
    for segment in data:
        if isinstance(segment, Mapping):
            ((field, value),) = segment.items()
            out.append(ItemKey(str(field), int(value)))
        else:
            out.append(str(segment))
    return tuple(out)


def op_json(op: Op) -> dict[str, Any]:
    """One op as stored in the event (MISSING values are left out)."""
    out: dict[str, Any] = {"path": _path_json(op.path)}
    if isinstance(op, SetValue):
        out["op"] = "set"
        if op.old is not MISSING:
            out["old"] = op.old
        if op.new is not MISSING:
            out["new"] = op.new
    elif isinstance(op, Shift):
        out.update(op="shift", by=op.by)
    else:
        out.update(op="add" if isinstance(op, AddItem) else "remove", value=op.value, at=op.at)
        if op.key is not None:
            out["key"] = {op.key.field: op.key.value}
    return out


def op_from(data: Mapping[str, Any]) -> Op:
    path = _path_from(data["path"])
    kind = data["op"]
    if kind == "set":
        return SetValue(path, data.get("old", MISSING), data.get("new", MISSING))
    if kind == "shift":
        return Shift(path, int(data["by"]))
    key = None
    if data.get("key"):
        ((field, value),) = data["key"].items()
        key = ItemKey(str(field), int(value))
    if kind == "add":
        return AddItem(path, key, data["value"], int(data["at"]))
    if kind == "remove":
        return RemoveItem(path, key, data["value"], int(data["at"]))
    raise ValueError(f"unknown change op {kind!r}")


def touches(op: Op, other: Op) -> bool:
    """Whether two ops reach the same value: one's path (with its item, for list ops) leads into the other's."""
    a, b = _reach(op), _reach(other)
    shorter = min(len(a), len(b))
    return a[:shorter] == b[:shorter]


def _reach(op: Op) -> Path:
    if isinstance(op, AddItem | RemoveItem):
        # An unnamed item is the whole list's business; a named one only its own.
        return (*op.path, op.key) if op.key is not None else op.path
    return op.path
