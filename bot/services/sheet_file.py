"""Sheets from uploads and options: safe YAML/JSON, bounded shape, dotted stat paths, item names."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping, Sequence
from itertools import chain
from typing import Any

from bot import text_safety
from bot.errors import NotFound, UserError
from content.input_guard import SHEET, check_text, option_value, parse_document
from rules.sheet_spec import name_key  # how a typed name is matched: one rule for sheets and options

# The guard bounds an upload; a sheet the engine has filled in (or edited field by field) is checked
# against the same bounds before it is stored.
MAX_NODES = SHEET.max_nodes
MAX_DEPTH = SHEET.max_depth
MAX_NAME = text_safety.MAX_NAME


def load_sheet_file(filename: str, data: bytes) -> dict[str, Any]:
    """A sheet from an upload (YAML or JSON, through the input guard); the shape checked, not yet the rules."""
    sheet = parse_document(data, filename, SHEET)
    if not isinstance(sheet, dict):
        raise UserError(f"{filename}: a sheet is a mapping of fields (name, stats, weapons, armour)")
    check_shape(sheet, filename)
    return sheet


def check_shape(value: Any, source: str) -> None:
    """Refuse trees that expand past MAX_NODES or nest past MAX_DEPTH; keys must be text. The first mistake in
    reading order is the one named.

    Every engine result goes through here (twice an attack): the walk is a loop over a stack, plain values
    are known by their exact type, and a field's path is spelled out only for the error that names it (each
    node carries its parent's trail, ``(trail, key)``). A dict or list holding only plain values under text
    keys (a wound, a list of conditions), or a list of such dicts (the wounds), is counted whole, at C speed,
    without a step for each value: nothing in it can be a mistake but the count, and that error names no field."""
    budget = MAX_NODES
    # (node, depth, trail, whether its key is a mapping's: it must be text), pushed last first
    stack: list[tuple[Any, int, _Trail, bool]] = [(value, 0, None, False)]
    while stack:
        node, depth, trail, keyed = stack.pop()
        if keyed and trail is not None and not isinstance(trail[1], str):
            raise UserError(f"{source}: field '{_path(trail[0]) or '.'}' has a key that is not text: {trail[1]!r}")
        budget -= 1
        if budget < 0:
            raise UserError(f"{source}: the sheet is too large (over {MAX_NODES} values)")
        if depth > MAX_DEPTH:
            raise UserError(f"{source}: field '{_path(trail)}' is nested too deeply")
        kind = type(node)
        if kind in _PLAIN:
            continue
        if depth < MAX_DEPTH and (values := _flat(node, kind, depth + 1 < MAX_DEPTH)) is not None:
            budget -= values  # all within MAX_DEPTH: nothing in it can be a mistake but the count
            if budget < 0:
                raise UserError(f"{source}: the sheet is too large (over {MAX_NODES} values)")
        else:
            stack.extend(_children(node, kind, depth, trail, source))


def _children(node: Any, kind: type, depth: int, trail: _Trail,
              source: str) -> Iterable[tuple[Any, int, _Trail, bool]]:
    """A mapping's or a list's items as check_shape stacks them (last first), none for a plain value; a
    UserError for anything else."""
    if kind is dict or isinstance(node, Mapping):
        return ((item, depth + 1, (trail, key), True) for key, item in reversed(node.items()))
    if isinstance(node, list):
        return ((node[index], depth + 1, (trail, index), False) for index in range(len(node) - 1, -1, -1))
    if not (node is None or isinstance(node, str | int | float | bool)):
        raise UserError(f"{source}: field '{_path(trail)}' holds a {type(node).__name__}, not plain data")
    return ()


_PLAIN = frozenset({str, int, float, bool, type(None)})
_TEXT = frozenset({str})
_Trail = tuple[Any, Any] | None  # (the parent's trail, this key or list index); None at the top


def _flat(node: Any, kind: type, two_deep: bool) -> int | None:
    """How many values are in a dict of plain values under text keys, a list of plain values, or (``two_deep``) a
    list of such dicts (the wounds); None for anything else. Exact types only (no subclass), each pass at C speed."""
    if kind is dict:
        if _PLAIN.issuperset(map(type, node.values())) and _TEXT.issuperset(map(type, node)):
            return len(node)
    elif kind is list:
        if _PLAIN.issuperset(map(type, node)):
            return len(node)
        if two_deep and _DICT.issuperset(map(type, node)) \
                and _PLAIN.issuperset(map(type, chain.from_iterable(map(dict.values, node)))) \
                and _TEXT.issuperset(map(type, chain.from_iterable(node))):
            return len(node) + sum(map(len, node))
    return None


_DICT = frozenset({dict})


def _path(trail: _Trail) -> str:
    """``wounds[2].location`` for the trail of that field."""
    parts: list[str | int] = []
    while trail is not None:
        trail, key = trail
        parts.append(key)
    path = ""
    for key in reversed(parts):
        path = f"{path}[{key}]" if isinstance(key, int) else (f"{path}.{key}" if path else key)
    return path


def clean_name(name: str) -> str:
    """A character's name as it is stored (the policy is bot/text_safety.py's)."""
    return text_safety.clean_name(check_text(str(name), "name"))


def coerce_value(value: int | str | float | bool, what: str = "value") -> Any:
    """Typed option values pass through; text goes through the input guard, and becomes a number if it
    spells a whole one."""
    if isinstance(value, str):
        return option_value(value, what, 100)
    return value


_TRUE = frozenset({"true", "yes", "on"})
_FALSE = frozenset({"false", "no", "off"})
_EMPTY_LIST = frozenset({"", "[]", "none", "nothing"})


def typed_for(current: Any, value: int | str | float | bool, what: str = "value") -> Any:
    """``value`` as the field it replaces holds it: true/false (or yes/no, on/off) for a flag, a list for a
    list (``Dane Axe, Shortbow``, ``[1, 2]``; ``none`` or ``[]`` empties it); otherwise as ``coerce_value``.
    A field the sheet does not have yet takes true/false as a flag too."""
    if not isinstance(value, str):
        return value
    text = check_text(value, what, 100).strip()
    word = text.casefold()
    if isinstance(current, bool) or (current is None and word in _TRUE | _FALSE):
        if word in _TRUE:
            return True
        if word in _FALSE:
            return False
        raise UserError(f"{what} is true or false (yes or no), not '{text}'")
    if isinstance(current, list) or (current is None and text.startswith("[") and text.endswith("]")):
        inner = text[1:-1] if text.startswith("[") and text.endswith("]") else text
        if inner.strip().casefold() in _EMPTY_LIST:
            return []
        return [option_value(item, what, 100) for item in inner.split(",") if item.strip()]
    return coerce_value(text, what)


def get_path(sheet: Mapping[str, Any], path: str) -> Any:
    """The value at dotted ``path`` (None where the sheet has no such field)."""
    node: Any = sheet
    for part in (part.strip() for part in path.split(".")):
        if not isinstance(node, Mapping):
            return None
        node = node.get(part)
    return node


def set_path(sheet: dict[str, Any], path: str, value: Any) -> None:
    """``sheet["abilities"]["Single Weapon"] = value`` for ``abilities.Single Weapon``."""
    parts = [part.strip() for part in path.split(".")]
    if not all(parts):
        raise UserError(f"'{path}' is not a field name")
    node = sheet
    for part in parts[:-1]:
        child = node.get(part)
        if child is None:
            child = node[part] = {}
        if not isinstance(child, dict):
            raise UserError(f"field '{part}' is not a group of fields")
        node = child
    node[parts[-1]] = value


def item_label(entry: Any) -> str:
    """A weapon or armour entry's name: a content name, or an inline piece's ``name``."""
    if isinstance(entry, Mapping):
        return str(entry.get("name", ""))
    return str(entry)


def shown_name(key: str) -> str:
    """A pack entry as players read it: a pack that keys its entries by id (Pendragon's ``great_axe``, Fading
    Suns' ``right_arm``) shows them with spaces (``great axe``); a display name stays as it is. ``name_key``
    matches either back to the entry."""
    return " ".join(key.replace("_", " ").split())


def canonical(name: str, known: Sequence[str], kind: str, shown: Mapping[str, str] | None = None) -> str:
    """The content pack's entry (key) for ``name``, matched by ``name_key`` against the keys and the names the
    pack shows for them (``shown``: key -> display name); unknown names list close matches by display name."""
    wanted = name_key(name)
    shown = shown or {}
    for candidate in known:
        if name_key(candidate) == wanted or name_key(shown.get(candidate, candidate)) == wanted:
            return candidate
    by_key = {name_key(shown.get(candidate, candidate)): shown.get(candidate, candidate) for candidate in known}
    close = [by_key[k] for k in difflib.get_close_matches(wanted, list(by_key), n=3, cutoff=0.5)]
    close += [label for k, label in by_key.items() if wanted and k.startswith(wanted) and label not in close]
    hint = f" (did you mean {', '.join(close[:3])}?)" if close else ""
    raise NotFound(f"unknown {kind} '{name}'{hint}")


def matching(names: Sequence[str], prefix: str, limit: int = 25) -> list[str]:
    """Autocomplete: the names holding what was typed (matched as ``name_key`` does), those it starts first."""
    key = name_key(prefix)
    hits = [name for name in names if key in name_key(name)]
    return sorted(hits, key=lambda n: (not name_key(n).startswith(key), n.casefold()))[:limit]
