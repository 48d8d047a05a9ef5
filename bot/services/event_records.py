"""The stored events the GM screen reads, as typed records: an engine action (a GM decision is one: its kind is
``gm_decide``), a /roll, and an edit of a sheet.

Each is a ``rules.outcome.Record``, read from the payload the ``events`` table has always kept
(``read_event``), tolerantly: a key missing or of the wrong type leaves its field at the default, and keys no
field names are ignored here (the stored payload is never rewritten). The projection (bot/services/projection.py)
takes one of these and gives back the same class with what the viewer may not see left out or ``Hidden``.
The other kinds (start, join, next_turn, a treatment offer, a defence prompt ...) have their records in
bot/services/event_kinds.py, and ``read_event`` reads every kind.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Self

from bot.services.event_kinds import LoggedEvent, action_type, read_logged
from rules.dice import Roll
from rules.outcome import OMIT_EMPTY, OMIT_NONE, Outcome, Record, UnknownOutcome
from rules.registry import read_outcome


@dataclass(frozen=True)
class Hidden(Record):
    """A value the viewer may not see: it exists, and is not shown (a secret NPC's dice)."""

    hidden: bool = True


HIDDEN = Hidden()


@dataclass(frozen=True)
class StoredRoll(Record):
    """One roll of an action, as ``rules.dice.Roll.to_dict`` stored it (the keys it leaves out stay out)."""

    label: str = "?"
    kind: str = ""
    faces: tuple[int, ...] = ()
    total: int | None = None
    flags: tuple[str, ...] = ()
    target: int | None = field(default=None, metadata=OMIT_NONE)
    result: str | None = field(default=None, metadata=OMIT_NONE)
    victory_points: int | None = field(default=None, metadata=OMIT_NONE)
    victory_dice: int | None = field(default=None, metadata=OMIT_NONE)
    botches: int = 0

    @classmethod
    def of(cls, roll: Roll) -> StoredRoll:
        """The engine's roll as it is stored (and as the words read it)."""
        return cls(label=roll.label, kind=roll.kind, faces=tuple(roll.faces), total=roll.total, flags=tuple(roll.flags),
                   target=roll.target, result=roll.result, victory_points=roll.victory_points,
                   victory_dice=roll.victory_dice, botches=roll.botches)

    @property
    def root(self) -> str:
        """The label without its sub-roll (``healing`` of ``healing.botch``)."""
        return self.label.split(".")[0]

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        for empty in ("flags", "botches"):  # as Roll.to_dict: only when there are some
            if not out[empty]:
                del out[empty]
        return out


@dataclass(frozen=True)
class WayOut(Record):
    """What a /recover or /ready ended (a condition, or a weapon out of hand) and what it cost."""

    condition: str = ""
    cost: str = ""
    weapon: str | None = None


@dataclass(frozen=True)
class ActionEvent(Record):
    """An engine action (attack, treatment, a roll the GM owed, a GM decision ...): who did it to whom, its
    dice and its outcome record. ``secret``: the actor is an NPC on a server that keeps NPC rolls secret;
    ``target_secret``: the target is (and the actor is not)."""

    system: str = ""
    action: dict[str, Any] = field(default_factory=dict)  # the engine action as called (its type and options)
    actor: str = "?"
    target: str | None = None
    rolls: tuple[StoredRoll, ...] | Hidden = ()
    outcome: Outcome = field(default_factory=UnknownOutcome)
    unused_dice: dict[str, tuple[int, ...]] = field(default_factory=dict)
    typed_dice: dict[str, tuple[int, ...]] | Hidden = field(default_factory=dict, metadata=OMIT_EMPTY)
    secret: bool = field(default=False, metadata=OMIT_EMPTY)
    target_secret: bool = field(default=False, metadata=OMIT_EMPTY)
    # the GM decision (or owed roll) this action settled, and its kind (``kill``, ``roll:shock``)
    decision_id: int | None = field(default=None, metadata=OMIT_NONE)
    kind: str | None = field(default=None, metadata=OMIT_NONE)
    way_out: WayOut | None = field(default=None, metadata=OMIT_NONE)  # /recover and /ready

    has_details: ClassVar[bool] = True

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        event = super().from_dict(data)
        if not isinstance(data, Mapping):
            return event
        stored = data.get("outcome")
        event = replace(event, outcome=read_outcome(event.system, stored if isinstance(stored, Mapping) else {}))
        # older events named the two ``actor_name`` and ``target_name``
        old = {name: data[key] for name, key in (("actor", "actor_name"), ("target", "target_name"))
               if not data.get(name) and isinstance(data.get(key), str) and data[key]}
        return replace(event, **old) if old else event

    @property
    def named(self) -> tuple[str, ...]:
        """The characters the event names: its actor and its target."""
        return (self.actor, self.target) if self.target else (self.actor,)

    @property
    def action_type(self) -> str | None:
        """The engine action's type (``attack``, ``kill_roll``), or None if the payload names none."""
        return action_type(self.action)

    @property
    def shown_rolls(self) -> tuple[StoredRoll, ...]:
        """The rolls the viewer may read (none where they are hidden)."""
        return () if isinstance(self.rolls, Hidden) else self.rolls

    @property
    def shown_typed_dice(self) -> dict[str, tuple[int, ...]]:
        """The faces the dice option gave, by label, that the viewer may read (none where they are hidden)."""
        return {} if isinstance(self.typed_dice, Hidden) else self.typed_dice


@dataclass(frozen=True)
class RollEvent(LoggedEvent):
    """A free-form /roll. ``secret``: rolled for the GM alone (its expression, dice and total are the GM's: a
    projection leaves them out)."""

    expression: str | None = field(default=None, metadata=OMIT_NONE)
    total: int | None = field(default=None, metadata=OMIT_NONE)
    result: str | None = None  # a test's word (``success``), None for a bare total
    rolls: tuple[StoredRoll, ...] | Hidden = ()
    secret: bool = field(default=False, metadata=OMIT_EMPTY)


@dataclass(frozen=True)
class EditEvent(LoggedEvent):
    """An edit of one sheet (/character set-stat, add-item, remove-item, condition, import). ``npc``: the sheet
    is an NPC's (None: stored before the edit said so; the reader then looks the name up)."""

    character: str = "?"
    stat: str | Hidden | None = field(default=None, metadata=OMIT_NONE)
    value: Any = field(default=None, metadata=OMIT_NONE)
    added: str | Hidden | None = field(default=None, metadata=OMIT_NONE)
    removed: str | Hidden | None = field(default=None, metadata=OMIT_NONE)
    kind: str | None = field(default=None, metadata=OMIT_NONE)  # weapon, armour ... of an added or removed item
    condition: str | None = field(default=None, metadata=OMIT_NONE)
    set: bool | None = field(default=None, metadata=OMIT_NONE)
    imported: str | Hidden | None = field(default=None, metadata=OMIT_NONE)
    kept_recorded: bool = field(default=False, metadata=OMIT_EMPTY)  # an import over a sheet kept its wounds
    npc: bool | None = field(default=None, metadata=OMIT_NONE)

    @property
    def named(self) -> tuple[str, ...]:
        return (self.character,)


EventRecord = ActionEvent | RollEvent | EditEvent | LoggedEvent


def read_event(kind: str, payload: Mapping[str, Any]) -> EventRecord:
    """The typed record of a stored event of any kind: an engine action's (whatever its kind: it holds an
    outcome), a /roll's, an edit's, or bot/services/event_kinds.py's for the others."""
    if kind == "roll":
        return RollEvent.from_dict(payload)
    if kind == "edit":
        return EditEvent.from_dict(payload)
    if isinstance(payload, Mapping) and "outcome" in payload:
        return ActionEvent.from_dict(payload)
    return read_logged(kind, payload)

