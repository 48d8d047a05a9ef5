"""A sheet's names spelled another way, made the pack's own before an engine reads the sheet (issue 34, F1, P7).

The docs promise that case, spaces, underscores and hyphens do not matter in a name. This is the one place that
keeps the promise for a whole sheet, in every system: a field ("SIZ" is ``siz``), a choice ("Tall" is ``tall``),
a pack name in a list or on its own ("Rapier", "chain mail", "Dueling"), and a score's name where the rules or
the pack name it ("Dodge" is ``dodge``). A name that matches nothing is left as written, for the sheet's check
to name with its close matches; a field already given under its own name is not overwritten.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.sheet_spec import ItemSource, SheetField, SheetSpec, name_key


def normalised(sheet: Mapping[str, Any], spec: SheetSpec, pack: ItemSource) -> dict[str, Any]:
    """``sheet`` with each name spelled as the pack and the sheet spec spell it."""
    fields = {name_key(name): name for name in (*spec.names(), *spec.aliases)}
    out: dict[str, Any] = {}
    for key, value in sheet.items():
        if isinstance(key, str) and key not in fields.values():
            own = fields.get(name_key(key))
            if own is not None and own not in sheet and own not in out:
                key = own
        out[key] = value
    for key, value in out.items():
        field = spec.aliases.get(key, key) if isinstance(key, str) else None
        if field in spec.names():
            out[key] = _value(spec.field_named(field), value, pack)
    return out


def _value(field: SheetField, value: Any, pack: ItemSource) -> Any:
    if field.kind == "choice":
        return _named(value, field.choices)
    if field.kind == "items" and isinstance(value, list):
        names = pack.sheet_names(field.items)
        return [_named(entry, names) for entry in value]
    if field.kind == "item":
        return _named(value, pack.sheet_names(field.items))
    if field.kind == "scores" and isinstance(value, Mapping):
        names = (*field.names, *(pack.sheet_names(field.items) if field.items else ()))
        if not names:
            return value
        renamed = {_named(entry, names): score for entry, score in value.items()}
        return renamed if len(renamed) == len(value) else value  # two spellings of one name: the check says so
    return value


def _named(value: Any, names: Sequence[str]) -> Any:
    """The one of ``names`` that ``value`` spells another way, else ``value`` unchanged."""
    if not isinstance(value, str) or value in names:
        return value
    wanted = name_key(value)
    found = [name for name in names if name_key(name) == wanted]
    return found[0] if len(found) == 1 else value
