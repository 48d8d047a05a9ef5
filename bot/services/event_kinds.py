"""The stored events that are not an engine action, a /roll or an edit (bot/services/event_records.py holds
those): the encounter's own events, a treatment offer, a defence prompt; one typed record per kind.

Each is a ``rules.outcome.Record`` on the same machinery as the outcomes: ``to_dict`` writes the payload the
``events`` table keeps, ``from_dict`` reads one back tolerantly (a key missing or of the wrong type leaves its
field at the default; keys no field names are ignored). ``KINDS`` finds a kind's record; a kind it does not
know reads as an ``UnknownEvent``, which keeps the stored payload whole.

To add a kind: a record here deriving from ``LoggedEvent``, named in ``KINDS``; the service stores
``record.to_dict()`` through ``record_event``; bot/ui/event_lines.py words it (docs/architecture.md, "Adding an
event kind").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from rules.outcome import FLAT, OMIT_NONE, Record


@dataclass(frozen=True)
class LoggedEvent(Record):
    """A stored event's record (an engine action's, bot/services/event_records.py's ``ActionEvent``, is the one
    that is not: it holds an outcome). ``has_details``: the Details button shows it (an action's does; these have
    only their log line)."""

    has_details: ClassVar[bool] = False

    @property
    def named(self) -> tuple[str, ...]:
        """The characters the event names (the web page's log filtered by a character finds it by them)."""
        return ()


@dataclass(frozen=True)
class StartEvent(LoggedEvent):
    """``/encounter start``: the encounter's system."""

    system: str = ""


@dataclass(frozen=True)
class JoinEvent(LoggedEvent):
    """``/encounter add`` (``join``): who joined."""

    names: tuple[str, ...] = ()

    @property
    def named(self) -> tuple[str, ...]:
        return self.names


@dataclass(frozen=True)
class AddNpcsEvent(JoinEvent):
    """``/encounter npcs`` (``add_npcs``): the NPCs made from a template, and which."""

    template: str = ""
    template_name: str = ""


@dataclass(frozen=True)
class LeaveEvent(LoggedEvent):
    """``/encounter remove`` (``leave``): who left."""

    names: tuple[str, ...] = ()

    @property
    def named(self) -> tuple[str, ...]:
        return self.names


@dataclass(frozen=True)
class InitiativeResult(Record):
    """One combatant's initiative: its total (None where the system rolls none), its faces, typed or not."""

    name: str = "?"
    initiative: int | None = None
    faces: tuple[int, ...] = ()
    typed: bool = False


@dataclass(frozen=True)
class InitiativeEvent(LoggedEvent):
    """``/encounter initiative``: the turn order's results."""

    results: tuple[InitiativeResult, ...] = ()


@dataclass(frozen=True)
class DeclareEvent(LoggedEvent):
    """``/encounter declare`` (ars-harn's movement phase): who declares what, against whom."""

    name: str = "?"
    aspect: str | None = field(default=None, metadata=OMIT_NONE)
    aim: str | None = field(default=None, metadata=OMIT_NONE)
    target: str | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True)
class PassedTurn(Record):
    """A turn passed over, and why (``is stunned``)."""

    name: str = "?"
    why: str = ""


@dataclass(frozen=True)
class NextTurnEvent(LoggedEvent):
    """``/encounter next``: the round and turn it moved to, whose turn ended in which round (None: stored before
    it said), and the turns it passed over."""

    round: int | None = None
    turn: int | None = None
    ended: str | None = field(default=None, metadata=OMIT_NONE)
    ended_round: int | None = field(default=None, metadata=OMIT_NONE)
    skipped: tuple[PassedTurn, ...] = ()

    @property
    def named(self) -> tuple[str, ...]:
        return (self.ended,) if self.ended else ()


@dataclass(frozen=True)
class OrderEvent(LoggedEvent):
    """``/encounter order``: who moved."""

    moved: tuple[str, ...] = ()


@dataclass(frozen=True)
class DelayEvent(LoggedEvent):
    """``/encounter delay``: who holds their turn, to act after whom; the turns passed over then."""

    name: str = "?"
    after: str = "?"
    skipped: tuple[PassedTurn, ...] = ()


@dataclass(frozen=True)
class EndEvent(LoggedEvent):
    """``/encounter end``: the round it ended in, the NPCs it removed."""

    round: int | None = None
    npcs_removed: tuple[str, ...] = ()


@dataclass(frozen=True)
class UndoEvent(LoggedEvent):
    """``/undo``: the event taken back, and its kind."""

    undone_event: int | None = None
    undone_kind: str = ""


@dataclass(frozen=True)
class Answered(Record):
    """What settled a waiting event: the answer (``accepted``, a defence, ``timeout``, ``void``) and who gave it
    (None: nobody yet)."""

    answer: str | None = field(default=None, metadata=OMIT_NONE)
    answered_by: int | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True)
class TreatmentOfferEvent(LoggedEvent):
    """A healer's offer of treatment, waiting for the patient's side to accept: the /heal it holds."""

    patient_id: int | None = None
    patient: str = "?"
    healer_id: int | None = None
    healer: str = "?"
    method: str = ""
    system: str = ""
    dice: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    answered: Answered = field(default_factory=Answered, metadata=FLAT)

    @property
    def named(self) -> tuple[str, ...]:
        return self.patient, self.healer


@dataclass(frozen=True)
class DefensePromptEvent(LoggedEvent):
    """An attack waiting for its target's player to choose the defence (bot/services/defense_prompt.py): the
    declared action, who asked, and the ruling's defence if the time runs out."""

    attacker_id: int | None = None
    attacker: str = "?"
    target_id: int | None = None
    target: str = "?"
    action: dict[str, Any] = field(default_factory=dict)
    dice: str | None = None
    out_of_turn: str | None = None
    encounter_id: int | None = None
    asked_by: int | None = None
    asked_by_name: str = "?"
    fallback: str = "none"
    answered: Answered = field(default_factory=Answered, metadata=FLAT)

    @property
    def action_type(self) -> str | None:
        return action_type(self.action)

    @property
    def named(self) -> tuple[str, ...]:
        return (self.target,)

    @property
    def weapon(self) -> str | None:
        """The weapon the waiting attack names (None: the attacker's default)."""
        weapon = self.action.get("weapon")
        return weapon if isinstance(weapon, str) else None


@dataclass(frozen=True)
class UnknownEvent(LoggedEvent):
    """A stored event of a kind no record reads (a kind the bot no longer stores): kept whole, as the outcomes'
    ``UnknownOutcome`` is; its log line is its kind's title."""

    stored: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.stored)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        return cls(stored=dict(data) if isinstance(data, Mapping) else {})


def action_type(action: Mapping[str, Any]) -> str | None:
    """The type of an engine action as a payload stored it (``attack``), or None if it names none."""
    kind = action.get("type")
    return str(kind) if kind else None


KINDS: dict[str, type[LoggedEvent]] = {
    "start": StartEvent, "join": JoinEvent, "add_npcs": AddNpcsEvent, "leave": LeaveEvent,
    "initiative": InitiativeEvent, "declare": DeclareEvent, "next_turn": NextTurnEvent, "order": OrderEvent,
    "delay": DelayEvent, "end": EndEvent, "undo": UndoEvent, "treatment_offer": TreatmentOfferEvent,
    "defense_prompt": DefensePromptEvent,
}


def read_logged(kind: str, payload: Mapping[str, Any]) -> LoggedEvent:
    """The typed record of a stored event of ``kind`` (an ``UnknownEvent`` for a kind ``KINDS`` does not name)."""
    return KINDS.get(kind, UnknownEvent).from_dict(payload)
