"""What one logged event says in /log (and the web page's log, /undo's line, a late post), and what its Details
button shows: one function per event record type each, found by type as the outcome describers are
(``what_happened``, ``details_of``).

Each gets the record as the services projected it for its reader (bot/services/projection.py) and the event it
came from (its id, who made it); it words only what it is given. A record type with no function of its own
takes its nearest base class's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import discord

from bot.services.event_kinds import (
    DeclareEvent,
    DefensePromptEvent,
    DelayEvent,
    EndEvent,
    InitiativeEvent,
    JoinEvent,
    LeaveEvent,
    LoggedEvent,
    NextTurnEvent,
    OrderEvent,
    StartEvent,
    TreatmentOfferEvent,
    UndoEvent,
)
from bot.services.event_records import ActionEvent, EditEvent, EventRecord, Hidden, RollEvent
from bot.services.results import EventView
from bot.text_safety import plain
from bot.ui.action_embeds import PATIENT_ACTS, action_heading, action_title, event_details
from bot.ui.character_embeds import condition_text, treatment_label
from bot.ui.outcomes import describe

R = TypeVar("R", bound=EventRecord)
Words = Callable[[R, EventView], str]

_WORDS: dict[type, Callable[[Any, EventView], str]] = {}


def words(cls: type[R]) -> Callable[[Words[R]], Words[R]]:
    """Register the function that words records of ``cls`` in the log."""
    def register(fn: Words[R]) -> Words[R]:
        _WORDS[cls] = fn
        return fn
    return register


_DETAILS: dict[type, Callable[[EventView], discord.Embed]] = {}


def details(cls: type[EventRecord]) -> Callable[[Callable[[EventView], discord.Embed]],
                                                 Callable[[EventView], discord.Embed]]:
    """Register the function that builds the Details embed of records of ``cls`` (its ``has_details`` is True)."""
    def register(fn: Callable[[EventView], discord.Embed]) -> Callable[[EventView], discord.Embed]:
        _DETAILS[cls] = fn
        return fn
    return register


def details_of(event: EventView) -> discord.Embed:
    """The Details embed of ``event`` (as the services projected it), by its record's type."""
    record = event.record
    for cls in type(record).__mro__:
        fn = _DETAILS.get(cls)
        if fn is not None:
            return fn(event)
    raise LookupError(f"no Details for {type(record).__name__}")


details(ActionEvent)(event_details)


def what_happened(event: EventView) -> str:
    """The event in a few words, from its record (without its number and time: ``record_embeds.event_line``)."""
    record = event.record
    for cls in type(record).__mro__:
        fn = _WORDS.get(cls)
        if fn is not None:
            return fn(record, event)
    return action_heading(event.kind, plain(event.user_name), None)


# What the encounter's events say: who did it, then this.
TITLES: dict[type[LoggedEvent], str] = {
    StartEvent: "starts an encounter",
    EndEvent: "ends the encounter",
    NextTurnEvent: "ends the turn",
    InitiativeEvent: "sets the turn order",
    OrderEvent: "changes the turn order",
    DelayEvent: "delays a turn",
    DeclareEvent: "declares an attack",
    UndoEvent: "takes back an action",
}


def _titled(record: LoggedEvent, event: EventView) -> str:
    return f"{plain(event.user_name)} {TITLES[type(record)]}"


for _cls in TITLES:
    if _cls is not NextTurnEvent:
        words(_cls)(_titled)


@words(NextTurnEvent)
def _next_turn(record: NextTurnEvent, event: EventView) -> str:
    actor = plain(event.user_name)
    if record.ended:  # whose turn it was, in the round it was in (the round the turn moved to can be the next one)
        round_number = record.ended_round if record.ended_round is not None else "?"
        return f"{actor} ends {plain(record.ended)}'s turn (round {round_number})"
    what = f"{actor} {TITLES[NextTurnEvent]}"
    return what if record.round is None else f"{what} (round {record.round})"


@words(JoinEvent)
def _joined(record: JoinEvent, event: EventView) -> str:
    return f"{plain(event.user_name)}: {', '.join(plain(n) for n in record.names)} joined the encounter"


@words(LeaveEvent)
def _left(record: LeaveEvent, event: EventView) -> str:
    return f"{plain(event.user_name)}: {', '.join(plain(n) for n in record.names)} left the encounter"


@words(TreatmentOfferEvent)
def _offer(record: TreatmentOfferEvent, event: EventView) -> str:
    """A healer's offer, waiting for the patient's side to accept."""
    method = record.method or "treatment"
    how = treatment_label(record.system, method) if record.system else method.replace("_", " ")
    return f"{plain(event.user_name)}: {plain(record.healer)} offers {plain(record.patient)} {how.lower()}"


@words(DefensePromptEvent)
def _defense_prompt(record: DefensePromptEvent, event: EventView) -> str:
    """An attack waiting for its target's choice of defence: the attack it holds."""
    kind = event.kind if action_title(None, event.kind) else record.action_type or event.kind
    return action_heading(kind, plain(event.user_name), plain(record.target) if record.target else None)


@words(RollEvent)
def _roll(record: RollEvent, event: EventView) -> str:
    actor = plain(event.user_name)
    if record.expression is None:
        # a secret /roll as the players' log holds it (the projection kept only that it happened)
        return f"{actor} rolled in secret" if record.secret else action_heading(event.kind, actor, None)
    total = record.total if record.total is not None else "?"
    return f"{actor} rolled {plain(record.expression)} = {plain(total)}"


@words(EditEvent)
def _edit(record: EditEvent, event: EventView) -> str:
    return f"{plain(event.user_name)} edits {plain(record.character)}: {edit_change(record)}"


def edit_change(record: EditEvent) -> str:
    """An owner's edit in a few words: ``abilities.Sword = 6``, ``+ weapon Sword``, ``sheet from bjorn.yaml``; an
    NPC's change the projection hid from the reader (bot/services/projection.py): that it changed."""
    if any(isinstance(v, Hidden) for v in (record.stat, record.added, record.removed, record.imported)):
        return "a change the GM keeps secret"
    if record.stat is not None:
        return f"{plain(record.stat)} = {plain(record.value)}"
    if record.added is not None:
        return f"+ {plain(record.kind or 'item')} {plain(record.added)}"
    if record.removed is not None:
        return f"\u2212 {plain(record.kind or 'item')} {plain(record.removed)}"
    if record.condition is not None:
        # the words first, then made plain: plain's escape of ``_`` read 'now out\\ of\\ fight' in /log (issue 34, N6)
        return f"{'now' if record.set else 'no longer'} {condition_text(record.condition)}"
    return f"sheet from {plain(record.imported or 'a file')}"


@words(ActionEvent)
def _action(record: ActionEvent, event: EventView) -> str:
    """An engine action, as its public message said it (the services projected it so)."""
    actor = plain(record.actor if record.actor and record.actor != "?" else event.user_name)  # "?": none stored
    target = plain(record.target) if record.target else None
    kind = event.kind if action_title(record.system, event.kind) else record.action_type or event.kind
    what = action_heading(kind, actor, target, record.system)
    if not record.system:
        return what
    headline = describe(record.system, record.outcome, (actor, target or actor)).headline
    if event.kind == "gm_decide":
        return f"The GM decides: {headline}"
    # 'Bandit 1 gets first aid from Sir Owain: First aid for Bandit 1 by Sir Owain' said it twice (issue 34)
    if headline.startswith((f"**{actor}**", f"{actor} ")) or kind in PATIENT_ACTS:
        return headline
    return f"{what}: {headline}"
