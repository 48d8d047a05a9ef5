"""One engine action inside a command's transaction, in four steps each with a typed input and output:
``prepare`` (an ``ActionCall`` -> ``Prepared``: the engine, the server's catalog, rulings and secrecy, the typed
faces, the scenario), ``resolve`` (-> ``Resolved``: the engine's ``Resolution`` and the ``ActionEvent`` that records
it), ``store`` (-> ``Stored``: the sheets, the event, the GM decisions) and ``report`` (-> ``ActionReport``).
``run_action`` runs the four."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db import repositories as repo
from bot.db.models import Character, Combatant, Encounter, Event, EventName, PendingDecision
from bot.errors import NotFound, UserError
from bot.services.actor import Actor
from bot.services.dice_option import DiceSide, side_dice, split_key
from bot.services.event_names import skeletons
from bot.services.event_records import ActionEvent, EventRecord, StoredRoll, WayOut
from bot.services.pending_rolls import lapse_decisions, sync_roll_decisions
from bot.services.results import SPENT, ActionReport, DefenseAnswer, PendingDecisionView, WayOutView
from bot.services.retries import refuse_a_retry
from bot.services.rulings import scenario_rulings
from bot.services.runtime import Runtime
from bot.services.sheet_file import check_shape
from bot.services.snapshots import encounter_view, ordered_combatants, pending_view
from bot.services.undo_record import ChangeRecorder
from bot.services.viewer import viewer_of
from bot.services.wound_state import armour_held_at, with_attack
from bot.systems.pictures import WoundPicture
from rules.dice import DiceSource
from rules.model import Catalog, Engine, Resolution, Scenario
from rules.outcome import Outcome


def _event_values(rt: Runtime, actor: Actor, kind: str, logged: EventRecord, before: dict[str, Any] | None,
                  encounter: Encounter | int | None) -> dict[str, Any]:
    encounter_id = encounter.id if isinstance(encounter, Encounter) else encounter
    return dict(guild_id=actor.guild_id, channel_id=actor.channel_id, encounter_id=encounter_id,
                user_id=actor.user_id, user_name=actor.user_name[:100], kind=kind, payload=logged.to_dict(),
                before=before,
                created_at=rt.clock(), interaction_id=actor.interaction_id, answered=actor.interaction_id is None)


def record_event(rt: Runtime, session: AsyncSession, actor: Actor, kind: str, logged: EventRecord,
                 before: dict[str, Any] | None, encounter: Encounter | int | None) -> Event:
    """Log an event: its typed record (bot/services/event_records.py, event_kinds.py), stored as ``to_dict``
    writes it. ``before`` is its undo record (bot/services/undo_record.py), None if /undo skips it.
    ``encounter``: the encounter (or its id) whose /undo may take it back. The characters it names are stored
    with it (``event_names``: the ORM's flush inserts them after the event, in one statement)."""
    event = Event(**_event_values(rt, actor, kind, logged, before, encounter))
    session.add(event)
    session.add_all([EventName(event=event, skeleton=name, guild_id=actor.guild_id, channel_id=actor.channel_id)
                     for name in skeletons(logged)])
    if actor.interaction_id is not None:
        rt.answers.recorded(actor.interaction_id)
    return event


async def insert_event(rt: Runtime, session: AsyncSession, actor: Actor, kind: str, logged: EventRecord,
                       before: dict[str, Any] | None, encounter: Encounter | None) -> int:
    """``record_event``'s row, inserted at once by a Core statement: its id (an action's event, whose ORM object
    nothing needs), and the characters it names (``event_names``)."""
    event_id = await repo.insert_event(session, _event_values(rt, actor, kind, logged, before, encounter),
                                       skeletons(logged))
    if actor.interaction_id is not None:
        rt.answers.recorded(actor.interaction_id)
    return event_id


def touch(rt: Runtime, encounter: Encounter | None) -> None:
    """Mark the encounter changed, so its version moves and a concurrent save of the old state fails."""
    if encounter is not None:
        encounter.updated_at = rt.clock()


@dataclass(frozen=True)
class ActionCall:
    """An engine action on one or two characters, as a command asks for it (a caller that knows more later builds
    a new one: ``dataclasses.replace``)."""

    kind: str  # the event kind and ActionReport.action (usually the action type)
    action: dict[str, Any]
    actor_character: Character
    target: Character | None = None
    dice_text: str | None = None
    dice_label: str | None = None  # the label bare faces in ``dice_text`` belong to (a roll the GM makes)
    out_of_turn: str | None = None  # whose turn it was, when the actor acts out of it (turns: warn)
    # the combatant whose action for the round this spends, and on what (``attack``, ``recover:prone``): kept in
    # its declaration (the round's declarations end with the round), so /undo takes it back with the action
    spends: tuple[Combatant, str] | None = None
    spent_before: str | None = None  # what the round's action already went on (turns: warn; the GM)
    # what the report says beside the engine's result, known before it runs
    way_out: WayOutView | None = None  # /recover and /ready: the state it ends and what that costs
    defense_asked: DefenseAnswer | None = None  # an attack that waited for its target's player to choose a defence
    decided: PendingDecision | None = None  # the GM's decision (or owed roll) this action settles
    moot_before: Sequence[PendingDecision] = ()  # rolls found moot before the action (/pending-roll's own check)



def spent_words(what: str) -> str:
    """``attack`` -> ``an attack``; ``recover:prone`` -> ``getting out of prone``; ``ready:sword`` -> ``readying
    the sword`` (what a round's action went on, in the line that says it was spent already)."""
    kind, _, thing = what.partition(":")
    if kind == "ready":
        return f"readying the {thing}"
    if kind == "recover":
        return f"recovering ({thing.replace('_', ' ')})"
    return {"attack": "an attack", "cast": "a spell"}.get(kind, kind.replace("_", " "))


def _check_typed_faces(dice: DiceSource, owed: str) -> None:
    for key, faces in dice.unused().items():
        label = split_key(key)[1]  # the owed roll is its character's: its faces are under that side's key
        shown = ", ".join(map(str, faces))
        if key not in dice.never_rolled():
            raise UserError(f"dice: {shown} left over for {label}: this {owed} roll takes fewer faces; "
                            "nothing was rolled")
        raise UserError(f"dice: this {owed} roll does not roll {label} ({label}={shown}): type its own faces, "
                        f"e.g. {owed}=7; nothing was rolled")


def dice_sides(actor: Actor, guild: Any, call: ActionCall) -> list[DiceSide]:
    """The sides whose dice ``actor`` may type in ``call``: the acting character's first (bare labels are its), then
    the target's, unless it is an NPC the GM keeps behind the screen from this actor."""
    sides = [DiceSide("attacker", call.actor_character.name)]
    if call.target is not None:
        viewer = viewer_of(actor, guild, call.target)
        sides.append(DiceSide("defender", call.target.name, may_type=not viewer.behind_screen(call.target.npc)))
    return sides


@dataclass(frozen=True)
class Prepared:
    """An action ready to resolve (``prepare``): the engine's scenario, the faces typed, the server's say on its
    secrecy, and what the command changes noted as it was before."""

    call: ActionCall
    engine: Engine
    catalog: Catalog  # the server's catalog for the action's system
    rulings: dict[str, Any]
    scenario: Scenario
    typed: dict[str, list[int]]  # the faces the dice option gave, by key (bot/services/dice_option.py)
    secret: bool  # an NPC acts on a server that keeps NPC rolls secret: its dice are for the GM only
    target_secret: bool  # a player's character acts on an NPC there: the NPC's totals are the GM's
    gm_channel_id: int | None  # where a secret action's full rolls go
    secret_rolls: bool  # the server keeps NPC rolls secret (the encounter's view says so)
    touched: tuple[Character, ...]  # the actor's character, and the target's
    changes: ChangeRecorder  # the undo record's before-state
    wounds_before: frozenset[int]  # the target's wounds' numbers (its picture marks the new ones)

    @property
    def system(self) -> str:
        return self.call.actor_character.system


@dataclass(frozen=True)
class Resolved:
    """What the engine did (``resolve``): its ``Resolution`` (both sheets after) and the event that stores it."""

    prepared: Prepared
    resolution: Resolution
    event: ActionEvent  # the rolls as ``StoredRoll``s, the outcome record, the dice typed and left unused


@dataclass(frozen=True)
class Stored:
    """What ``store`` wrote besides the sheets: the event's id, the GM decisions it asked for and the rolls now
    owed, and the rolls it made moot."""

    event_id: int
    pending: tuple[PendingDecisionView, ...]  # as asked for (before the action's moot rolls were closed)
    moot: tuple[PendingDecision, ...]


async def run_action(rt: Runtime, session: AsyncSession, actor: Actor, call: ActionCall,
                     encounter: Encounter | None) -> ActionReport:
    """One engine action inside the command's transaction: prepared, resolved, stored, reported."""
    prepared = await prepare(rt, session, actor, call, encounter)
    resolved = resolve(rt, prepared)
    stored = await store(rt, session, actor, resolved, encounter)
    return await report(rt, session, resolved, stored, encounter)


async def prepare(rt: Runtime, session: AsyncSession, actor: Actor, call: ActionCall,
                  encounter: Encounter | None) -> Prepared:
    """The engine, the server's catalog, rulings and secrecy, the typed faces (a retry of an action whose answer
    failed is refused here), and the scenario the engine is given."""
    system = call.actor_character.system
    engine = rt.engine(system)
    catalog = await rt.catalogs.catalog_for(session, actor.guild_id, system)
    guild = await repo.guild_settings(session, actor.guild_id)
    typed = side_dice(call.dice_text, engine.roll_labels, engine.label_sides, dice_sides(actor, guild, call),
                      call.dice_label)
    await refuse_a_retry(rt, session, actor, call, typed)  # a player's retry of an action whose answer failed
    rulings = scenario_rulings(engine, guild)
    secret_rolls = bool(guild is not None and guild.secret_rolls)
    secret = secret_rolls and call.actor_character.npc
    touched = (call.actor_character,) + ((call.target,) if call.target is not None else ())
    # The rows' sheets go in as they are: engines never change the sheets they are given (held by
    # tests/rules/test_engine_purity.py), and a row's sheet is replaced, never changed in place (ChangeRecorder).
    return Prepared(
        call=call, engine=engine, catalog=catalog, rulings=rulings, scenario=_scenario(call, rulings), typed=typed,
        secret=secret,
        target_secret=secret_rolls and call.target is not None and call.target.npc and not secret,
        gm_channel_id=guild.gm_channel_id if secret and guild is not None else None, secret_rolls=secret_rolls,
        touched=touched, changes=ChangeRecorder.of(touched, encounter),
        wounds_before=frozenset(_wound_indexes(call.target.sheet) if call.target is not None else ()))


def resolve(rt: Runtime, prepared: Prepared) -> Resolved:
    """The engine's resolution, with the typed faces and the bot's dice, and the event that records it."""
    call = prepared.call
    dice = DiceSource(prepared.typed, rng=rt.rng())
    resolution = prepared.engine.resolve(prepared.scenario, dice, prepared.catalog)
    if call.dice_label is not None and prepared.typed:
        # The GM typed the faces of the roll they owe: a face this roll does not use (shock=99 on a kill roll)
        # is refused, rather than rolled for and reported as the table's dice. Nothing is stored.
        _check_typed_faces(dice, call.dice_label)
    event = ActionEvent(
        system=prepared.system, action=dict(call.action), actor=call.actor_character.name,
        target=call.target.name if call.target is not None else None,
        rolls=tuple(StoredRoll.of(roll) for roll in resolution.rolls), outcome=resolution.outcome,
        unused_dice={key: tuple(faces) for key, faces in dice.unused().items()},
        typed_dice={key: tuple(faces) for key, faces in prepared.typed.items()}, secret=prepared.secret,
        target_secret=prepared.target_secret,
        decision_id=call.decided.id if call.decided is not None else None,
        kind=call.decided.kind if call.decided is not None else None,
        way_out=(WayOut(call.way_out.condition, call.way_out.cost, call.way_out.weapon)
                 if call.way_out is not None else None))
    return Resolved(prepared, resolution, event)


async def store(rt: Runtime, session: AsyncSession, actor: Actor, resolved: Resolved,
                encounter: Encounter | None) -> Stored:
    """The sheets after, the round's action spent, the event (its undo record), the GM decisions the outcome
    asks for, the rolls now owed and those made moot."""
    prepared, call = resolved.prepared, resolved.prepared.call
    if call.spends is not None:
        combatant, what = call.spends
        if combatant.declaration.get(SPENT) != what:  # the same again (a second attack this round) writes nothing,
            combatant.declaration = {**combatant.declaration, SPENT: what}  # and an equal dict still costs the flush
    now = rt.clock()
    writes: list[repo.VersionedWrite] = []
    for row, sheet in ((call.actor_character, resolved.resolution.attacker),
                       (call.target, resolved.resolution.defender)):
        if row is not None and sheet is not None:
            after = dict(sheet)
            check_shape(after, f"{prepared.system} engine result")
            writes.append((row, {"sheet": after, "updated_at": now} if after != row.sheet else {"updated_at": now}))
    if encounter is not None:  # its version moves, so a concurrent save of the old state fails (``touch``)
        writes.append((encounter, {"updated_at": rt.clock()}))
    await _save(rt, session, writes)

    record = prepared.changes.record()
    event_id = await insert_event(rt, session, actor, call.kind, resolved.event, record.to_json(), encounter)
    before = prepared.changes.sheets_before()
    # What is left goes in one flush (the decisions, a declaration): the open rolls are read without flushing
    # first (sync_roll_decisions counts in what is not flushed yet).
    asked = _pending_from(rt, actor, event_id, resolved.resolution.outcome, call)
    session.add_all(asked)
    with session.no_autoflush:
        rolls, moot = await sync_roll_decisions(rt, session, actor, prepared.touched, event_id, before)
    await repo.flush(session)
    pending = tuple(pending_view(row) for row in (*asked, *rolls))
    # Only where a character waited on a GM decision before: it reads them after the flush, as it sees the ones
    # just asked for (and their changes go in the transaction's last flush).
    moot += await lapse_decisions(session, prepared.touched, before, asked)
    if moot:  # /undo opens them again, as the sheets go back to owing their rolls
        await repo.set_event_before(session, event_id,
                                    replace(record, open_decisions=tuple(row.id for row in moot)).to_json())
    return Stored(event_id, pending, tuple(moot))


async def report(rt: Runtime, session: AsyncSession, resolved: Resolved, stored: Stored,
                 encounter: Encounter | None) -> ActionReport:
    """The report of the action: the event as stored, the decisions waiting, the encounter as it is now, the
    target's body, and what the command knew before it ran (the way out, whose turn it was ...)."""
    prepared, call = resolved.prepared, resolved.prepared.call
    view = None
    if encounter is not None:
        catalog = await rt.catalogs.catalog_for(session, encounter.guild_id, encounter.system)
        view = encounter_view(rt, encounter, catalog, secret_npcs=prepared.secret_rolls)
    return ActionReport(
        action=call.kind, event=resolved.event, pending=stored.pending,
        encounter=view, event_id=stored.event_id,
        moot=tuple(pending_view(row) for row in (*call.moot_before, *stored.moot)),
        gm_channel_id=prepared.gm_channel_id,
        target_picture=_target_picture(rt, resolved),
        spent_before=call.spent_before, out_of_turn=call.out_of_turn, way_out=call.way_out,
        defense_asked=call.defense_asked, decided=pending_view(call.decided) if call.decided is not None else None,
    )


async def refuse_if_illegal(rt: Runtime, session: AsyncSession, actor: Actor, call: ActionCall) -> None:
    """Resolve ``call`` with dice of its own and keep nothing: the engine's refusal (an IllegalAction, the line a
    user gets) if it would refuse the action now. For what waits on someone else's yes (a treatment offer), so an
    offer the engine would refuse is refused when made, not when accepted. Engines never change the sheets they
    are given, and these dice are not the runtime's, so a seeded table's rolls stay as they were."""
    engine = rt.engine(call.actor_character.system)
    catalog = await rt.catalogs.catalog_for(session, actor.guild_id, call.actor_character.system)
    guild = await repo.guild_settings(session, actor.guild_id)
    engine.resolve(_scenario(call, scenario_rulings(engine, guild)), DiceSource({}, rng=random.Random(0)), catalog)


def _scenario(call: ActionCall, rulings: Mapping[str, Any]) -> Scenario:
    """What the engine is given for ``call``: the rows' sheets as they are, and which sides are NPCs."""
    return Scenario(system=call.actor_character.system, action=dict(call.action), attacker=call.actor_character.sheet,
                    defender=call.target.sheet if call.target is not None else None,
                    rulings=rulings, npcs=frozenset(side for side, row in (
                        ("attacker", call.actor_character), ("defender", call.target)) if row is not None and row.npc))


def _wound_indexes(sheet: Mapping[str, Any]) -> set[int]:
    """The numbers of the wounds a stored sheet holds (every engine numbers its wounds ``index``)."""
    wounds = sheet.get("wounds")
    if not isinstance(wounds, list):
        return set()
    return {w["index"] for w in wounds if isinstance(w, Mapping) and isinstance(w.get("index"), int)}


def _target_picture(rt: Runtime, resolved: Resolved) -> WoundPicture | None:
    """The target's body after an attack, when the attack left a mark on it (a wound, or armour that held)."""
    prepared, call, outcome = resolved.prepared, resolved.prepared.call, resolved.event.outcome
    after = resolved.resolution.defender
    if call.kind not in ("attack", "cast") or call.target is None or after is None:
        return None
    if not _wound_indexes(after) - prepared.wounds_before and armour_held_at(prepared.system, outcome) is None:
        return None  # a miss, or nothing new on the body: no picture to draw (nor a sheet to read for one)
    picture = rt.wound_picture(prepared.system, after, prepared.catalog, prepared.rulings)
    return with_attack(picture, prepared.wounds_before, outcome) if picture is not None else None


async def _save(rt: Runtime, session: AsyncSession, writes: list[repo.VersionedWrite]) -> None:
    """Each write's values stored in its row: by Core statements where the row is stored and loaded (the ORM's
    flush of a hit cost more than its statements), else set on it for the flush."""
    core = [(row, values) for row, values in writes if repo.is_stored(row)]
    for row, values in writes:
        if all(row is not stored for stored, _ in core):
            for name, value in values.items():
                setattr(row, name, value)
    if core:
        await repo.write_versioned(session, core)
        rt.db.written(session.sync_session, [row for row, _ in core])


def _pending_from(rt: Runtime, actor: Actor, event_id: int, outcome: Outcome,
                  call: ActionCall) -> list[PendingDecision]:
    """A PendingDecision for each decision the engine asked for (``Outcome.gm_decisions``), not yet added."""
    rows = []
    for request in outcome.gm_decisions:
        character = call.target if request.who == "defender" and call.target is not None else call.actor_character
        rows.append(PendingDecision(guild_id=actor.guild_id, channel_id=actor.channel_id, event_id=event_id,
                                    character_id=character.id, kind=request.kind[:32], who=character.name,
                                    options=list(request.options), created_at=rt.clock()))
    return rows


def combatant_named(encounter: Encounter, name: str) -> Combatant | None:
    key = repo.name_key(name)
    return next((c for c in encounter.combatants if c.character.name_key == key), None)


def require_combatant(encounter: Encounter, name: str) -> Combatant:
    """The combatant called ``name``; NotFound lists who is in the encounter."""
    combatant = combatant_named(encounter, name)
    if combatant is None:
        names = ", ".join(c.character.name for c in ordered_combatants(encounter)) or "nobody"
        raise NotFound(f"'{name}' is not in this encounter (in it: {names})")
    return combatant


def require_action(engine: Engine, action_type: str) -> None:
    if action_type not in engine.actions:
        known = ", ".join(sorted(engine.actions))
        raise UserError(f"{engine.system_id} has no '{action_type}' action (actions: {known})")


def clean_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """A command's options without those left out: a cog passes each option as Discord gave it, None for one the
    user did not set, and the service keeps only the ones set (the one place that reads None so)."""
    return {key: value for key, value in (options or {}).items() if value is not None}
