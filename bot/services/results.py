"""What services return: frozen plain data (never ORM rows), ready for the embeds."""

from __future__ import annotations

import copy
import functools
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from bot.services.event_records import ActionEvent, EventRecord, StoredRoll, read_event
from bot.services.projection import project, project_encounter
from bot.services.viewer import GM_SCREEN, TABLE_SCREEN, Seat, Viewer
from bot.systems.pictures import WoundPicture
from rules.model import READY, SheetSummary, TurnReadiness, Wound
from rules.outcome import Outcome

if TYPE_CHECKING:
    from bot.db.models import Event, PendingDecision

RollsMode = Literal["auto", "gm"]
TurnsMode = Literal["enforce", "warn", "off"]
ItemKind = Literal["weapon", "armour"]


@dataclass(frozen=True)
class SetupView:
    """A server's /setup as seen from one channel."""

    guild_id: int
    channel_id: int
    guild_system: str  # the server's system (the default when none was chosen)
    channel_system: str | None  # this channel's override, if any
    system: str  # what applies in this channel
    gm_role_id: int | None
    rolls: RollsMode  # "auto": the bot rolls shock/kill; "gm": they wait for the GM
    rulings: dict[str, str | int | bool]  # the effective rulings of ``system`` (engine defaults + overrides)
    overridden: tuple[str, ...] = ()  # ruling names the server changed from the default
    turns: TurnsMode = "warn"  # players acting out of turn: refused, warned, or let be
    secret_rolls: bool = False  # NPC rolls: players see only what their characters would
    gm_channel_id: int | None = None  # where the full secret rolls go (None: privately to the GM)


@dataclass(frozen=True)
class PackFileView:
    """One homebrew file a server uploaded: it replaces the default pack's file of that name."""

    filename: str
    uploaded_by: int
    updated_at: datetime
    size: int  # bytes


@dataclass(frozen=True)
class PackView:
    """A server's content pack for one system: its homebrew files and what the pack now holds."""

    system: str
    files: tuple[PackFileView, ...]  # empty: the default pack only
    weapons: int
    armour: int
    npcs: int
    changed: str | None = None  # the file just uploaded or reset
    merged: bool = False  # the upload's entries were merged into the file (not a whole file replacing it)
    added: tuple[str, ...] = ()  # entries the upload added
    updated: tuple[str, ...] = ()  # entries the upload changed


@dataclass(frozen=True)
class CharacterBrief:
    """One line of a character list."""

    id: int
    name: str
    system: str
    owner_id: int
    npc: bool


@dataclass(frozen=True)
class RecordedState:
    """Wounds and conditions play recorded on a character that an imported sheet does not have (issue 34, N8)."""

    wounds: tuple[Wound, ...] = ()
    conditions: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.wounds or self.conditions)


@dataclass(frozen=True)
class SheetEdit:
    """What a create, an import or an edit did to a sheet: the facts of the one line the channel reads. What the
    channel may not read of the sheet (an NPC's figures and gear under secret rolls) is left out here (``screened``)."""

    kind: str  # created, imported, replaced, stat, condition, added, removed
    screened: bool = False  # the channel is behind the GM's screen for this sheet: no field, value or item named
    field: str | None = None  # the stat set, the condition, the item added or removed
    value: Any = None  # the stat's new value; a condition's: True set, False cleared
    item_kind: str | None = None  # weapon or armour
    source: str | None = None  # the file an import read
    changed: bool = True  # False: the sheet already read so (a condition already set)
    sheet_private: bool = False  # the whole sheet is worth sending to the one who made the change, privately


@dataclass(frozen=True)
class CharacterView:
    """A whole character: the stored sheet, the engine's summary (None if its engine is missing)."""

    id: int
    name: str
    system: str
    owner_id: int
    npc: bool
    sheet: dict[str, Any]
    summary: SheetSummary | None
    version: int
    picture: WoundPicture | None = None  # what the body diagram draws (None: no diagram for this sheet)
    behind_screen: bool = False  # an NPC's sheet under secret rolls, as a player sees it: name, condition, wounds
    kept: RecordedState | None = None  # a player's import: the recorded wounds and conditions it left in place
    edit: SheetEdit | None = None  # a create, import or edit: what it changed (the channel's one line)
    private: bool = False  # it holds what the channel may not read (the GM's NPC): answer its asker alone
    owner_name: str | None = None  # the owner's display name when they made it (None: not kept)

    @property
    def wounds(self) -> tuple[Wound, ...]:
        return self.summary.wounds if self.summary else ()


@dataclass(frozen=True)
class PartyView:
    """The player characters of an encounter (``where`` "encounter") or of the server ("server")."""

    where: str
    characters: tuple[CharacterView, ...]


SPENT = "spent"  # a combatant's declaration: what its action this round went on (bot/services/actions.py)


@dataclass(frozen=True)
class CombatantView:
    character_id: int
    name: str
    owner_id: int
    npc: bool
    initiative: int | None
    condition: str  # engine summary's condition line ("" when unknown)
    wounds: tuple[Wound, ...]
    penalty: int  # total wound penalty (sum of the wounds' penalties)
    declaration: dict[str, Any]  # ars-harn movement-phase declaration: aspect, aim, target
    readiness: TurnReadiness = READY  # whether they can act on their turn, and why not (the engine's word)

    @property
    def acted(self) -> bool:
        """Their action this round is spent (on anything: an attack, getting up, readying a weapon)."""
        return isinstance(self.declaration.get(SPENT), str)


@dataclass(frozen=True)
class SkippedTurn:
    """A turn /encounter next passed over: who, why (the engine's words), and whether losing it ended that."""

    name: str
    words: str
    recovered: bool = False


@dataclass(frozen=True)
class InitiativeRoll:
    """One combatant's initiative as /encounter initiative made it: its score, the faces its roll used,
    and whether they were typed (else rolled by the bot)."""

    name: str
    total: int | None
    faces: tuple[int, ...]
    typed: bool


@dataclass(frozen=True)
class NpcsCleared:
    """/encounter clear-npcs: the template NPCs deleted, and the hand-made ones it left alone."""

    deleted: tuple[str, ...]
    hand_made: tuple[str, ...] = ()


@dataclass(frozen=True)
class EncounterView:
    id: int
    guild_id: int
    channel_id: int
    system: str
    round: int
    turn: int  # index into ``combatants`` (which is in turn order)
    active: bool
    combatants: tuple[CombatantView, ...]
    tracker_message_id: int | None
    version: int
    npcs_removed: tuple[str, ...] = ()  # /encounter end: the NPCs made for it, now gone
    npcs_kept: tuple[str, ...] = ()  # /encounter end keep_npcs: the NPCs made for it that stay
    # /encounter end: those of the two above that had left it before its end; /encounter remove: the NPC made for
    # it that just left (it goes with the encounter's end, unless kept)
    npcs_left: tuple[str, ...] = ()
    fight_ended: tuple[FightEnded, ...] = ()  # /encounter end: the fight's states it ended, per sheet
    skipped: tuple[SkippedTurn, ...] = ()  # the turns this command passed over (nobody who can act: all)
    stalled: bool = False  # every combatant was passed over: nobody in the fight can act
    initiative_rolls: tuple[InitiativeRoll, ...] = ()  # /encounter initiative: who got which faces
    moved: tuple[str, ...] = ()  # /encounter order or delay: who was moved
    round_restarted: bool = False  # /encounter order before anyone acted this round: the turn went to the new first
    npcs_added: tuple[str, ...] = ()  # /encounter npcs: the NPCs made
    joined: tuple[str, ...] = ()  # /encounter add: who joined, as their sheet spells the name
    npc_kind: str | None = None  # /encounter npcs: their template's name as the pack shows it ("Man-at-arms")
    delayed_after: str | None = None  # /encounter delay: whom the delayer now acts after
    secret_npcs: bool = False  # the server keeps NPC rolls secret: the NPCs' initiative is the GM's to see

    @functools.cached_property
    def public(self) -> EncounterView:
        """The encounter as the channel may read it (bot/services/projection.py): what the tracker words."""
        return project_encounter(self, Viewer(Seat.TABLE, secret_rolls=self.secret_npcs))

    @property
    def current(self) -> CombatantView | None:
        """Whose turn it is (None when nobody is in the encounter)."""
        if not self.combatants:
            return None
        return self.combatants[self.turn % len(self.combatants)]


@dataclass(frozen=True)
class PendingDecisionView:
    """A GM decision waiting for a button press (``id`` goes into the button's custom_id)."""

    id: int
    kind: str  # e.g. "kill", "dying"; "roll:shock" for a roll the GM makes (bot/services/pending_rolls.py)
    who: str  # the character's name
    options: tuple[str, ...]
    choice: str | None = None  # set once decided
    decided_by: int | None = None
    channel_id: int = 0
    message_id: int | None = None  # the message in ``channel_id`` that carries its buttons, once posted

    @property
    def roll(self) -> str | None:
        """For a roll the GM makes (kind ``roll:shock``, ``roll:effect:3``): the roll (``shock``); else None."""
        if not self.kind.startswith("roll:"):
            return None
        return self.kind.split(":")[1]


@dataclass(frozen=True)
class WayOutView:
    """A state a character can leave (/recover, /ready): the engine's ``rules.model.WayOut`` for the embeds."""

    condition: str  # prone, unhorsed, shock, unconscious, dropped, broken, not_in_hand ...
    cost: str  # action, advantage, roll, free, gm
    weapon: str | None = None
    in_fight: bool = True


@dataclass(frozen=True)
class FightEnded:
    """What /encounter end ended on one sheet: states that last only for a fight, weapons picked up."""

    name: str
    ended: tuple[str, ...]
    gathered: tuple[str, ...]
    kept: tuple[str, ...] = ()  # states of the fight that outlast it (ars-harn's shock)


@dataclass(frozen=True)
class ActionReport:
    """The result of one engine action (attack, cast, heal, rest, gm_decide, shock ...)."""

    action: str  # the event's kind (usually the action type)
    # the action as stored, whole, as it happened: who acted on whom, its rolls, the engine's outcome record, the
    # dice typed and left unused, its secrecy. What ``public`` and ``for_gm`` project.
    event: ActionEvent
    pending: tuple[PendingDecisionView, ...]
    encounter: EncounterView | None
    event_id: int
    decided: PendingDecisionView | None = None  # for decide(): the decision as now recorded
    moot: tuple[PendingDecisionView, ...] = ()  # rolls the GM no longer needs to make (e.g. shock after death)
    # An attack that wounded (or that armour stopped at a location): the target's body, the new wound marked.
    target_picture: WoundPicture | None = None
    out_of_turn: str | None = None  # whose turn it was, when the actor acted out of it (turns: warn)
    gm_channel_id: int | None = None  # where its full rolls go (None: privately to the GM who made them)
    way_out: WayOutView | None = None  # /recover and /ready: the state ended and what it cost
    defense_asked: DefenseAnswer | None = None  # an attack that waited for the target's player to choose a defence
    spent_before: str | None = None  # the actor had spent this round's action already, on this (turns: warn)

    @property
    def system(self) -> str:
        return self.event.system

    @property
    def actor_name(self) -> str:
        """The acting character (attacker, caster, healed, decided-for)."""
        return self.event.actor

    @property
    def target_name(self) -> str | None:
        return self.event.target

    @property
    def outcome(self) -> Outcome:
        """The engine's outcome record, whole."""
        return self.event.outcome

    @property
    def secret(self) -> bool:
        """An NPC's action on a server with secret rolls: players see only the result."""
        return self.event.secret

    @property
    def target_secret(self) -> bool:
        """A player's action on an NPC there: the NPC's totals stay out of public lines."""
        return self.event.target_secret

    @property
    def by_gm(self) -> bool:
        """An NPC's secret action is the GM's (who alone acts for NPCs): the GM channel's copy may come to whoever
        acted, privately, when that channel is down."""
        return self.secret

    @property
    def hides(self) -> bool:
        """The channel's line leaves something out that the GM should get (in the GM channel, or privately): dice,
        or a figure of the outcome."""
        dice_kept = bool(self.event.shown_rolls) and not self.public.shown_rolls
        return dice_kept or self.public.outcome != self.event.outcome

    @functools.cached_property
    def public(self) -> ActionEvent:
        """The action as the channel may read it (bot/services/projection.py): what its public message words.
        Its ``secret`` flags were set by the server's secret rolls, so the channel is read with them on."""
        return project(self.event, TABLE_SCREEN)

    @functools.cached_property
    def for_gm(self) -> ActionEvent:
        """The action as the GM reads it (its GM-channel post, the GM's private copy, the owner's DM): whole, but
        through the projection like every other output."""
        return project(self.event, GM_SCREEN)


@dataclass(frozen=True)
class DefensePrompt:
    """/attack on a player's character whose defence nobody named (Fading Suns, ruling ask_defense): the attack
    waits for the target's player (or the GM) to choose, or for the time to run out (then the unnamed_defense
    ruling)."""

    event_id: int  # the prompt's event, in its buttons
    attacker: str
    target: str
    weapon: str | None
    owner_id: int  # the target's player, who is asked
    choices: tuple[str, ...]  # the engine's defence names, and "none"
    seconds: float  # how long the attack waits
    fallback: str  # what the ruling makes of no answer (dodge, none)


@dataclass(frozen=True)
class DefenseAnswer:
    """How a waiting attack's defence was settled: ``by`` "player" (or "gm") chose ``defense``, or "timeout"."""

    by: str
    defense: str | None
    target: str
    seconds: float
    fallback: str  # the unnamed_defense ruling's defence (what no answer made)


@dataclass(frozen=True)
class TreatmentOffer:
    """/heal with someone else's patient: the treatment waits for the patient's owner (or the GM) to accept."""

    event_id: int  # the offer's event, in the Accept and Decline buttons
    healer: str
    patient: str
    method: str  # the neutral treatment name (first_aid, chirurgy, spell)
    system: str
    owner_id: int  # who may accept: the patient's owner (the GM for an NPC)
    npc: bool


@dataclass(frozen=True)
class RollView:
    expression: str
    total: int
    result: str | None  # "success", "critical", "botch" ... or None for a plain sum
    rolls: tuple[StoredRoll, ...]
    unused_dice: dict[str, list[int]]
    event_id: int
    modifier: int = 0  # the constant the expression adds to the dice (3d6+2: 2)
    secret: bool = False  # /roll secret: shown only to whoever rolled (and in the GM channel, if set)
    gm_channel_id: int | None = None
    by_gm: bool = False  # a secret roll by the GM: the GM channel's copy may come to the roller privately


@dataclass(frozen=True)
class EventView:
    """One entry of a channel's log (the before-state for undo is never exposed)."""

    id: int
    kind: str
    channel_id: int
    encounter_id: int | None
    user_id: int
    user_name: str
    # what happened: the stored payload read once as its typed record (bot/services/event_records.py), projected
    # for whoever reads this view (bot/services/projection.py); whole in the services' own reads
    record: EventRecord
    created_at: datetime | None = None
    undone: bool = False
    message_id: int | None = None  # the public message that shows it in its channel, when known
    # For /undo: the open decisions the undone event had asked for (now closed), and those it had settled or
    # made moot (open again: their buttons go on the undo's message).
    closed: tuple[PendingDecisionView, ...] = ()
    reopened: tuple[PendingDecisionView, ...] = ()
    interaction_id: int | None = None  # the Discord interaction that made it (its answer carries this id)


def event_view(row: Event) -> EventView:
    """A stored event as the services hand it on: its payload read as its record (from a copy, so that the record
    shares nothing with the row)."""
    return view_around(row, read_event(row.kind, copy.deepcopy(row.payload)))


def view_around(row: Event, record: EventRecord) -> EventView:
    """``row`` as a view holding ``record`` (read from its payload, or kept for the same payload): every column
    but the payload is the row's."""
    return EventView(id=row.id, kind=row.kind, channel_id=row.channel_id, encounter_id=row.encounter_id,
                     user_id=row.user_id, user_name=row.user_name, record=record, created_at=row.created_at,
                     undone=row.undone, message_id=row.message_id, interaction_id=row.interaction_id)


def pending_view(row: PendingDecision) -> PendingDecisionView:
    return PendingDecisionView(id=row.id, kind=row.kind, who=row.who, options=tuple(str(o) for o in row.options),
                               choice=row.choice, decided_by=row.decided_by, channel_id=row.channel_id,
                               message_id=row.message_id)
