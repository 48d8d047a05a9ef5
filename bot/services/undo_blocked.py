"""The one line /undo refuses with when a later change stands on what it would take back (`UndoBlocked`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.db.models import Event
from bot.services.changes import AddItem, Blocked, ItemKey, RemoveItem

# What a later event of each kind did to a wound or a field ("treated later").
_VERBS = {"heal": "treated", "first_aid": "treated", "chirurgery": "treated", "rest": "healed",
          "edit": "edited"}
_REASONS = {"changed": "changed", "gone": "removed", "back": "added again"}
_LABEL_FIELDS = ("location", "kind", "name")


def blocked_line(name: str, blocked: Blocked, sheet: Mapping[str, Any], later: Event | None,
                 event: Event) -> tuple[str, tuple[str, ...]]:
    """``Bjorn's thorax wound was treated later (event #12): undo that first.``, and the markup it holds (the
    mention of the later change's channel, when it is another one: ``UserError.markup``)."""
    op = blocked.op
    verb = _REASONS[blocked.reason]
    if blocked.reason == "back" and isinstance(op, RemoveItem) and op.key is not None:
        # The healed wound's number was given to a new one: name the number, not the new wound.
        kind = _singular(str(op.path[-1]) if op.path else "item").replace("_", " ")
        thing, verb = f"{name}'s {kind} #{op.key.value}", f"given to a new {kind}"
    else:
        thing = f"{name}'s {what(blocked, sheet)}"
    if later is None:
        return f"{thing} has changed since, outside the log: event #{event.id} cannot be undone", ()
    if blocked.reason != "back":
        verb = _VERBS.get(later.kind, verb)
    markup = (f"<#{later.channel_id}>",) if later.channel_id != event.channel_id else ()
    where = f" in {markup[0]}" if markup else ""
    if later.encounter_id is None:
        return f"{thing} was {verb} later (event #{later.id}{where}, outside an encounter): " \
               f"event #{event.id} can no longer be undone", markup
    return f"{thing} was {verb} later (event #{later.id}{where}): undo that first", markup


def what(blocked: Blocked, sheet: Mapping[str, Any]) -> str:
    """The value in words: ``thorax wound``, ``shock condition``, ``abilities.Sword``."""
    op = blocked.op
    path = list(op.path)
    item: Any = op.value if isinstance(op, AddItem | RemoveItem) else None
    key = op.key if isinstance(op, AddItem | RemoveItem) else None
    for position, segment in enumerate(path):
        if isinstance(segment, ItemKey):
            key, path = segment, path[:position]
            item = _item(sheet, path, segment)
            break
    if item is None and key is None:
        return ".".join(str(s) for s in path)
    owner = ".".join(str(s) for s in path)
    kind = _singular(owner.rsplit(".", 1)[-1]).replace("_", " ")
    label = next((str(item[f]) for f in _LABEL_FIELDS if isinstance(item, Mapping) and item.get(f)), None)
    if label is None:
        label = f"#{key.value}" if key is not None else str(item)
        return f"{kind} {label}" if key is not None else f"{label} {kind}"
    return f"{label} {kind}"


def _item(sheet: Mapping[str, Any], path: list[Any], key: ItemKey) -> Any:
    node: Any = sheet
    for segment in path:
        node = node.get(segment) if isinstance(node, Mapping) else None
    if isinstance(node, list):
        return next((i for i in node if isinstance(i, Mapping) and i.get(key.field) == key.value), None)
    return None


def _singular(word: str) -> str:
    if word.endswith("ies"):
        return word[:-3] + "y"
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word
