"""The GM screen: one event as one viewer may read it (docs/architecture.md, "The GM screen").

``project(record, viewer)`` returns the same record class with every field the viewer may not see left out or
``Hidden``. It is the one door between what happened and what a viewer reads: the services project before they
hand a result to bot/ui, so the wording code only ever gets what its reader may see.

What is secret is said once: in each outcome record's ``hiding_target`` / ``hiding_actor`` (the rules know which
side a field belongs to) and, for a record about one character, in the system profile's ``secret_fields``
(bot/systems/). Who is looking is ``viewer_of`` (bot/services/viewer.py).
"""

from __future__ import annotations

from dataclasses import MISSING, fields, replace
from typing import TYPE_CHECKING, TypeVar

from bot.services.event_records import HIDDEN, ActionEvent, EditEvent, EventRecord, RollEvent
from bot.services.viewer import Viewer
from bot.systems import PROFILES
from bot.systems.pictures import HitPointWounds
from rules.model import Wound
from rules.outcome import Outcome, Record

if TYPE_CHECKING:
    from bot.services.results import CharacterView, EncounterView, EventView
    from bot.systems.pictures import WoundPicture

E = TypeVar("E", bound=EventRecord)
R = TypeVar("R", bound=Record)


def project(record: E, viewer: Viewer) -> E:
    """``record`` as ``viewer`` may read it: the same class, the secrets left out."""
    if isinstance(record, ActionEvent):
        return _action(record, viewer)  # type: ignore[return-value]
    if isinstance(record, RollEvent):
        return _roll(record, viewer)  # type: ignore[return-value]
    if isinstance(record, EditEvent):
        return _edit(record, viewer)  # type: ignore[return-value]
    return record


def projected(event: EventView, viewer: Viewer) -> EventView:
    """``event`` as ``viewer`` may read it: its typed record projected."""
    return replace(event, record=project(event.record, viewer))


def _action(event: ActionEvent, viewer: Viewer) -> ActionEvent:
    if viewer.behind_screen(event.secret):  # an NPC acted: what it did, not its dice or its sheet
        return replace(event, outcome=hide_actor(event.system, event.outcome), rolls=HIDDEN, typed_dice=HIDDEN,
                       unused_dice={})
    if viewer.behind_screen(event.target_secret):  # on an NPC: the actor's own dice, what the NPC's did
        outcome = hide_target(event.system, event.outcome)
        labels = outcome.target_roll_labels
        return replace(event, outcome=outcome, rolls=tuple(r for r in event.shown_rolls if r.root not in labels))
    return event


def hide_target(system: str, outcome: Outcome) -> Outcome:
    """An outcome with its target's figures left out (the rules' ``hiding_target``)."""
    return outcome.hiding_target()


def hide_actor(system: str, outcome: Outcome) -> Outcome:
    """An outcome with its actor's figures left out: the rules' ``hiding_actor``, and for a record about the
    actor alone (a GM decision, a roll the GM owed, a treatment) every field the system's profile names secret."""
    hidden = outcome.hiding_actor()
    if hidden is outcome and _one_character(outcome):
        profile = PROFILES.get(system)
        if profile is not None:
            hidden = _without(outcome, profile.secret_fields)
    return hidden


def _one_character(outcome: Outcome) -> bool:
    """A record of one character's own action (not an exchange between two, which hides by side itself)."""
    return type(outcome).hiding_target is Outcome.hiding_target and type(outcome).hiding_actor is Outcome.hiding_actor


def _without(record: R, secret: frozenset[str]) -> R:
    """``record`` with each field named in ``secret`` back at its default (None, empty or zero: left out), nested
    records too."""
    changes: dict[str, object] = {}
    for f in fields(record):
        if not f.init:
            continue
        value = getattr(record, f.name)
        if f.name in secret:
            default = f.default_factory() if f.default_factory is not MISSING else f.default
            if value != default:
                changes[f.name] = default
        elif isinstance(value, Record):
            inner = _without(value, secret)
            if inner is not value:
                changes[f.name] = inner
    return replace(record, **changes) if changes else record


def _roll(event: RollEvent, viewer: Viewer) -> RollEvent:
    if event.secret and not viewer.is_gm:  # that it happened, not what it showed
        return RollEvent(rolls=HIDDEN, secret=True)
    return event


def _edit(event: EditEvent, viewer: Viewer) -> EditEvent:
    if not viewer.behind_screen(bool(event.npc)):
        return event
    # an NPC's sheet: that it changed, and a condition (which the table sees); never a figure, skill or item
    return replace(event, stat=HIDDEN if event.stat is not None else None, value=None,
                   added=HIDDEN if event.added is not None else None,
                   removed=HIDDEN if event.removed is not None else None, kind=None,
                   imported=HIDDEN if event.imported is not None else None)


def project_encounter(view: EncounterView, viewer: Viewer) -> EncounterView:
    """An encounter as ``viewer`` may read it (the tracker, initiative): an NPC behind the screen keeps its place
    in the order, its condition and its wounds; its initiative, the faces it rolled and its wound penalty are
    left out."""
    if not viewer.behind_screen(True):
        return view
    npcs = {c.name for c in view.combatants if c.npc}
    if not npcs:
        return view
    return replace(view, combatants=tuple(replace(c, initiative=None, penalty=0) if c.npc else c
                                          for c in view.combatants),
                   initiative_rolls=tuple(r for r in view.initiative_rolls if r.name not in npcs))


def project_character(view: CharacterView, viewer: Viewer) -> CharacterView:
    """A character as ``viewer`` may read it (/character show, /injuries, the party, the web page): whole, or an
    NPC behind the screen as the player's character would see it: its name, its condition and its wounds in
    words (where, how bad, bleeding), never a figure (stats, gear, hit points, injury levels, penalties, the
    days its healing takes) nor a picture that draws them."""
    if not viewer.behind_screen(view.npc):
        return view
    summary = None if view.summary is None else replace(
        view.summary, stats=(), equipment=(), wounds=tuple(wound_in_words(w) for w in view.summary.wounds))
    return replace(view, sheet={"name": view.name}, summary=summary, picture=_picture_in_words(view.picture),
                   behind_screen=True)


def wound_in_words(wound: Wound) -> Wound:
    """A wound with its figures left out (zero, empty, None): its levels (Pendragon's hit points), its penalty, the
    days to its next healing, and any part of its note that holds a figure ("-1 init")."""
    note = ", ".join(part.strip() for part in wound.note.split(",") if part.strip() and
                     not any(ch.isdigit() for ch in part))
    return replace(wound, levels=0, penalty=0, note=note, next_healing=None)


def _picture_in_words(picture: WoundPicture | None) -> WoundPicture | None:
    """A body diagram shows where the wounds are and their codes, as the wound lines do; Pendragon's hit-point bar
    is figures (the hit points, each wound's, the thresholds), so a viewer behind the screen gets none."""
    return None if isinstance(picture, HitPointWounds) else picture


def answered_privately(view: CharacterView, viewer: Viewer, table: Viewer) -> CharacterView:
    """``view`` (projected for ``viewer``) marked ``private`` when it holds what the channel may not read (the GM's
    look at an NPC under secret rolls): the answer then goes to its asker alone, never to the channel."""
    return replace(view, private=table.behind_screen(view.npc) and not viewer.behind_screen(view.npc))
