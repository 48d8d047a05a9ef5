"""Sheets from uploads and options: safe YAML/JSON, bounded shape, dotted stat paths, item names."""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from typing import Any

from bot import text_safety
from bot.errors import NotFound, UserError
from content.guard import SHEET, check_text, option_value, parse_document

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
    """Refuse trees that expand past MAX_NODES or nest past MAX_DEPTH; keys must be text."""
    budget = [MAX_NODES]

    def walk(node: Any, depth: int, path: str) -> None:
        budget[0] -= 1
        if budget[0] < 0:
            raise UserError(f"{source}: the sheet is too large (over {MAX_NODES} values)")
        if depth > MAX_DEPTH:
            raise UserError(f"{source}: field '{path}' is nested too deeply")
        if isinstance(node, Mapping):
            for key, item in node.items():
                if not isinstance(key, str):
                    raise UserError(f"{source}: field '{path or '.'}' has a key that is not text: {key!r}")
                walk(item, depth + 1, f"{path}.{key}" if path else key)
        elif isinstance(node, list):
            for index, item in enumerate(node):
                walk(item, depth + 1, f"{path}[{index}]")
        elif not (node is None or isinstance(node, str | int | float | bool)):
            raise UserError(f"{source}: field '{path}' holds a {type(node).__name__}, not plain data")

    walk(value, 0, "")


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


def canonical(name: str, known: Sequence[str], kind: str) -> str:
    """The content pack's spelling of ``name``; unknown names list close matches."""
    wanted = name.strip().casefold()
    for candidate in known:
        if candidate.casefold() == wanted:
            return candidate
    close = difflib.get_close_matches(name.strip(), list(known), n=3, cutoff=0.5)
    hint = f" (did you mean {', '.join(close)}?)" if close else ""
    raise NotFound(f"unknown {kind} '{name}'{hint}")


def matching(names: Sequence[str], prefix: str, limit: int = 25) -> list[str]:
    key = prefix.strip().casefold()
    hits = [name for name in names if key in name.casefold()]
    return sorted(hits, key=lambda n: (not n.casefold().startswith(key), n.casefold()))[:limit]
