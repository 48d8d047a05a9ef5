"""Each event's undo record: per character sheet and for the encounter, the ops its action made.

Stored in ``Event.before`` (JSON). Events stored before these records existed hold whole snapshots
instead (``LegacySnapshot``); /undo still reads them, cautiously (bot/services/records.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.db.models import Character, Encounter
from bot.services.changes import Op, diff, op_from, op_json

FORMAT = 2  # Event.before["format"]; absent in the snapshot records of old events


def encounter_state(encounter: Encounter) -> dict[str, Any]:
    """The encounter as /undo sees it: round, turn, order and each combatant's row."""
    return {
        "round": encounter.round, "turn": encounter.turn, "order": list(encounter.order),
        "combatants": {str(c.character_id): {"initiative": c.initiative, "declaration": dict(c.declaration)}
                       for c in encounter.combatants},
    }


@dataclass(frozen=True)
class UndoRecord:
    """What one action changed: ``sheets`` by character id, ``encounter`` (its state), the characters it
    ``created`` (NPCs) and the open decisions it closed (``open_decisions``: rolls it made moot)."""

    sheets: Mapping[int, tuple[Op, ...]]
    encounter: tuple[Op, ...] = ()
    created: tuple[int, ...] = ()
    open_decisions: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "sheets": {str(cid): [op_json(op) for op in ops] for cid, ops in self.sheets.items()},
            "encounter": [op_json(op) for op in self.encounter],
            "created": list(self.created), "open_decisions": list(self.open_decisions),
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> UndoRecord:
        return UndoRecord(
            sheets={int(cid): tuple(op_from(op) for op in ops) for cid, ops in (data.get("sheets") or {}).items()},
            encounter=tuple(op_from(op) for op in data.get("encounter") or ()),
            created=tuple(int(i) for i in data.get("created") or ()),
            open_decisions=tuple(int(i) for i in data.get("open_decisions") or ()),
        )


@dataclass(frozen=True)
class LegacySnapshot:
    """An old event's record: the whole sheets and encounter state from before it."""

    sheets: Mapping[int, dict[str, Any]]
    encounter: dict[str, Any] | None
    created: tuple[int, ...] = ()
    open_decisions: tuple[int, ...] = ()


def read_record(data: Mapping[str, Any]) -> UndoRecord | LegacySnapshot:
    if data.get("format") == FORMAT:
        return UndoRecord.from_json(data)
    return LegacySnapshot(
        sheets={int(cid): sheet for cid, sheet in (data.get("characters") or {}).items()},
        encounter=data.get("encounter") or None,
        created=tuple(int(i) for i in data.get("created") or ()),
        open_decisions=tuple(int(i) for i in data.get("open_decisions") or ()),
    )


def characters_in(data: Mapping[str, Any] | None) -> set[int]:
    """The characters an event's record says it changed (new records) or saved (old ones)."""
    if not data:
        return set()
    record = read_record(data)
    return set(record.sheets)


@dataclass
class ChangeRecorder:
    """Notes the sheets and encounter state before a command changes them; ``record()`` then diffs.

    Rows always get a new sheet dict when they change (a JSON column does not see changes made inside
    the old one), so holding the old dict is enough: nothing is copied on the attack path.
    ``counters``: engine actions move counters (hit points, fatigue); owner edits set values.
    """

    characters: list[Character]
    encounter: Encounter | None
    counters: bool = True
    _sheets: dict[int, dict[str, Any]] = field(init=False)
    _state: dict[str, Any] | None = field(init=False)

    def __post_init__(self) -> None:
        self._sheets = {row.id: row.sheet for row in self.characters}
        self._state = encounter_state(self.encounter) if self.encounter is not None else None

    @staticmethod
    def of(characters: Iterable[Character], encounter: Encounter | None, *, counters: bool = True) -> ChangeRecorder:
        return ChangeRecorder(list(characters), encounter, counters)

    def sheets_before(self) -> dict[str, dict[str, Any]]:
        """The sheets as they were, by character id as text."""
        return {str(cid): sheet for cid, sheet in self._sheets.items()}

    def record(self, *, created: Iterable[int] = (), open_decisions: Iterable[int] = ()) -> UndoRecord:
        sheets = {}
        for row in self.characters:
            ops = diff(self._sheets[row.id], row.sheet, counters=self.counters)
            if ops:
                sheets[row.id] = tuple(ops)
        state: tuple[Op, ...] = ()
        if self.encounter is not None and self._state is not None:
            state = tuple(diff(self._state, encounter_state(self.encounter), atomic_lists=True))
        return UndoRecord(sheets, state, tuple(created), tuple(open_decisions))
