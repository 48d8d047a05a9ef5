"""The outcome contract between an engine and whatever reads what it did (services, describers, odds).

Every engine action returns one record: a frozen dataclass deriving from ``Outcome``, defined beside the engine
that writes it (``rules/<system>/outcomes.py``). A record travels as a JSON-like mapping: ``to_dict`` writes the
shape events store, ``from_dict`` reads it back, tolerantly, so an event stored by older code still renders
(docs/decisions/typed-outcomes.md says how to add one and what the tolerance is).

A stored payload that no record reads comes back as an ``UnknownOutcome``, kept whole.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, field, fields
from functools import partial
from typing import Any, Self, get_args, get_origin

_BAD = object()  # a stored value that does not fit its field: the field keeps its default


# Field metadata: ``field(default_factory=GoalRoll, metadata=FLAT)`` stores a nested record flat (its keys sit
# beside the parent's: a goal roll inside an attack); ``field(default="", metadata=stored_as("from"))`` stores a
# field under another key than its name (``from``, which Python keeps for itself); ``OMIT_NONE``: the key is
# left out while the field is None (a key the old shape had only sometimes); ``OMIT_EMPTY``: left out while it is
# false or empty (a flag or a mapping the old shape wrote only when set).
FLAT: Mapping[str, Any] = {"flat": True}
OMIT_NONE: Mapping[str, Any] = {"omit_none": True}
OMIT_EMPTY: Mapping[str, Any] = {"omit_empty": True}


def stored_as(key: str) -> Mapping[str, Any]:
    return {"key": key}


@dataclass(frozen=True)
class Record:
    """A frozen dataclass that is stored as a mapping.

    ``to_dict``: each field under its name (``stored_as``: another key), in declaration order; nested records,
    tuples and dicts as mappings and lists. ``from_dict`` is tolerant: unknown keys are ignored, a missing key
    or a value of the wrong type leaves the field at its default. So every field has a default."""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, key, flat, omit_none, omit_empty in _plan(type(self)):
            value = _dump(getattr(self, name))
            if (value is None and omit_none) or (omit_empty and not value):
                continue
            if flat:
                out.update(value)
            else:
                out[key] = value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        if not isinstance(data, Mapping):
            return cls()
        kwargs: dict[str, Any] = {}
        for name, key, load in _reader(cls):
            raw = data if key is None else data.get(key, MISSING)
            if raw is MISSING:
                continue
            value = load(raw)
            if value is not _BAD:
                kwargs[name] = value
        return cls(**kwargs)


@dataclass(frozen=True)
class DecisionRequest(Record):
    """A decision an action leaves for the GM: its kind (``death``, ``kill``...), whose (``attacker`` or
    ``defender``) and the choices the GM's buttons offer."""

    kind: str = ""
    who: str = "attacker"
    options: tuple[str, ...] = ()


@dataclass(frozen=True)
class FightEnd(Record):
    """What the ``end_fight`` action ended on one sheet: states that last a fight, weapons gathered; and ``kept``,
    states of the fight that outlast it and must be said (ars-harn's shock, issue 34, A4)."""

    ended: tuple[str, ...] = ()
    gathered: tuple[str, ...] = ()
    kept: tuple[str, ...] = ()


@dataclass(frozen=True)
class Outcome(Record):
    """What one engine action did. ``action`` names it (stored first, as the registry reads it back).

    The facts every system's outcome shares are properties here, so the services read them the same way in
    all three; a record overrides those that concern it."""

    action: str = ""

    @property
    def gm_decisions(self) -> tuple[DecisionRequest, ...]:
        """The decisions the action left for the GM, most urgent first (none by default)."""
        return ()

    @property
    def fight_end(self) -> FightEnd | None:
        """For ``end_fight``: what ended (None for every other action)."""
        return None

    @property
    def target_roll_labels(self) -> frozenset[str]:
        """The dice labels of the rolls the target made (an ars-harn Defense, Shock, Kill roll ...)."""
        return frozenset()

    def hiding_target(self) -> Self:
        """The outcome as the actor's side may read it where the target's rolls are secret (an NPC's, under
        ``/setup secret-rolls``): the target's totals left out, what they did kept. By default nothing is hidden."""
        return self

    def hiding_actor(self) -> Self:
        """The outcome as the table may read it where the actor's rolls are secret (a GM's NPC under
        ``/setup secret-rolls``): what its sheet took off a blow it suffered, and what it has left, left out.
        Its dice never reach a public line; this hides what the record says of its sheet. By default nothing."""
        return self


@dataclass(frozen=True)
class UnknownOutcome(Outcome):
    """A stored outcome no record type reads: an action its engine no longer has, a system not installed, a
    payload from before the records that names no action. ``read_outcome`` gives it for those; nothing is lost:
    ``stored`` keeps the payload as it was (``to_dict`` gives it back whole), and the bot words it from its keys
    (bot/ui/outcomes: the name acts, and the fields it holds). No engine returns one."""

    stored: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.stored)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        stored = dict(data) if isinstance(data, Mapping) else {}
        return cls(action=str(stored.get("action") or ""), stored=stored)


# -- the tolerant reader's type walk ------------------------------------------------------------------

_HINTS: dict[type, dict[str, Any]] = {}
# each record type's fields as to_dict writes them: name, stored key, flat, omitted while None, omitted while
# empty (read once a type)
_PLANS: dict[type, tuple[tuple[str, str, bool, bool, bool], ...]] = {}


def _plan(cls: type) -> tuple[tuple[str, str, bool, bool, bool], ...]:
    plan = _PLANS.get(cls)
    if plan is None:
        plan = _PLANS[cls] = tuple((f.name, f.metadata.get("key", f.name), bool(f.metadata.get("flat")),
                                    bool(f.metadata.get("omit_none")), bool(f.metadata.get("omit_empty")))
                                   for f in fields(cls))
    return plan


def _hints(cls: type) -> dict[str, Any]:
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    return hints


Load = Callable[[Any], Any]  # a stored value -> the field's value, or _BAD
# each record type's fields as from_dict reads them: name, stored key (None: flat, the parent's mapping) and the
# field type's loader (read once a type: walking the type hints at every read was most of a log page's CPU)
_READERS: dict[type, tuple[tuple[str, str | None, Load], ...]] = {}
_LOADERS: dict[Any, Load] = {}


def _reader(cls: type) -> tuple[tuple[str, str | None, Load], ...]:
    reader = _READERS.get(cls)
    if reader is None:
        hints = _hints(cls)
        reader = _READERS[cls] = tuple((f.name, None if f.metadata.get("flat") else f.metadata.get("key", f.name),
                                        _loader(hints[f.name])) for f in fields(cls) if f.init)
    return reader


def _loader(tp: Any) -> Load:
    """``_load`` of ``tp`` as a function of the stored value alone: the type walked once, not at every value. A
    type the reader does not know fails as ``_load`` does, when a value reaches it."""
    try:
        found = _LOADERS.get(tp)
    except TypeError:  # an unhashable annotation: walked at every value
        return partial(_load, tp)
    if found is None:
        try:
            found = _compiled(tp)
        except Exception:  # an annotation the walk cannot take apart: _load meets it, when a value reaches it
            found = partial(_load, tp)
        _LOADERS[tp] = found
    return found


def _dump(value: Any) -> Any:
    if isinstance(value, Record):
        return value.to_dict()
    if isinstance(value, tuple | list):
        return [_dump(v) for v in value]
    if isinstance(value, dict):
        return {k: _dump(v) for k, v in value.items()}
    return value


_SCALARS: dict[type, tuple[type, ...]] = {int: (int,), float: (int, float), str: (str,), bool: (bool,)}


def _load(tp: Any, raw: Any) -> Any:
    """``raw`` as a value of type ``tp``, or ``_BAD``."""
    if tp is Any:
        return raw
    origin = get_origin(tp)
    if origin is types.UnionType or origin is typing.Union:
        if raw is None:
            return None if type(None) in get_args(tp) else _BAD
        for arm in get_args(tp):
            if arm is not type(None) and (value := _load(arm, raw)) is not _BAD:
                return value
        return _BAD
    if origin is tuple:
        if not isinstance(raw, list | tuple):
            return _BAD
        args = get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            items = (_load(args[0], item) for item in raw)
            return tuple(item for item in items if item is not _BAD)
        if len(args) != len(raw):
            return _BAD
        loaded = tuple(_load(arg, item) for arg, item in zip(args, raw, strict=True))
        return _BAD if _BAD in loaded else loaded
    if origin is dict:
        if not isinstance(raw, Mapping):
            return _BAD
        key_type, value_type = get_args(tp)
        out = {}
        for key, item in raw.items():
            value = _load(value_type, item)
            if _load(key_type, key) is not _BAD and value is not _BAD:
                out[key] = value
        return out
    if isinstance(tp, type) and issubclass(tp, Record):
        return tp.from_dict(raw) if isinstance(raw, Mapping) else _BAD
    if tp is type(None):
        return None if raw is None else _BAD
    if isinstance(tp, type) and tp in _SCALARS:
        if isinstance(raw, bool) and tp is not bool:
            return _BAD
        return raw if isinstance(raw, _SCALARS[tp]) else _BAD
    raise TypeError(f"a record field of type {tp!r}: the tolerant reader does not know it")


def _compiled(tp: Any) -> Load:
    """What ``_load(tp, raw)`` does, each branch's type work done here once (the same checks in the same order)."""
    if tp is Any:
        return lambda raw: raw
    origin = get_origin(tp)
    if origin is types.UnionType or origin is typing.Union:
        none_ok = type(None) in get_args(tp)
        arms = tuple(_loader(arm) for arm in get_args(tp) if arm is not type(None))

        def union(raw: Any) -> Any:
            if raw is None:
                return None if none_ok else _BAD
            for arm in arms:
                if (value := arm(raw)) is not _BAD:
                    return value
            return _BAD
        return union
    if origin is tuple:
        args = get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            item_load = _loader(args[0])

            def items(raw: Any) -> Any:
                if not isinstance(raw, list | tuple):
                    return _BAD
                return tuple(item for item in map(item_load, raw) if item is not _BAD)
            return items
        loads = tuple(_loader(arg) for arg in args)

        def fixed(raw: Any) -> Any:
            if not isinstance(raw, list | tuple):
                return _BAD
            if len(loads) != len(raw):
                return _BAD
            loaded = tuple(load(item) for load, item in zip(loads, raw, strict=True))
            return _BAD if _BAD in loaded else loaded
        return fixed
    if origin is dict and len(get_args(tp)) == 2:
        key_load, value_load = (_loader(arg) for arg in get_args(tp))

        def mapping(raw: Any) -> Any:
            if not isinstance(raw, Mapping):
                return _BAD
            out = {}
            for key, item in raw.items():
                value = value_load(item)
                if key_load(key) is not _BAD and value is not _BAD:
                    out[key] = value
            return out
        return mapping
    if origin is dict:  # as _load: a dict type without its two arguments fails on a mapping
        return partial(_load, tp)
    if isinstance(tp, type) and issubclass(tp, Record):
        record: type[Record] = tp
        return lambda raw: record.from_dict(raw) if isinstance(raw, Mapping) else _BAD
    if tp is type(None):
        return lambda raw: None if raw is None else _BAD
    if isinstance(tp, type) and tp in _SCALARS:
        accepted = _SCALARS[tp]
        if tp is bool:
            return lambda raw: raw if isinstance(raw, accepted) else _BAD
        return lambda raw: _BAD if isinstance(raw, bool) else raw if isinstance(raw, accepted) else _BAD
    return partial(_load, tp)  # the reader does not know it: _load raises when a value reaches it


def defaults_complete(cls: type[Record]) -> list[str]:
    """The fields of ``cls`` without a default (a record must be buildable from an empty mapping)."""
    return [f.name for f in fields(cls) if f.init and f.default is MISSING and f.default_factory is MISSING]

