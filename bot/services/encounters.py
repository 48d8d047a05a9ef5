"""Encounters, one per channel: start, join, NPCs, initiative and declarations, turns, status, end."""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db import repositories as repo
from bot.db.models import Character, Combatant, Encounter
from bot.errors import NotInEncounter, UserError
from bot.services import access, initiative_faces
from bot.services.actions import record_event, require_combatant, touch
from bot.services.actor import Actor
from bot.services.characters import load_character
from bot.services.encounter_cache import LENT, OWNER, EncounterCache, Entry, attach
from bot.services.event_kinds import (
    AddNpcsEvent,
    DeclareEvent,
    DelayEvent,
    EndEvent,
    InitiativeEvent,
    InitiativeResult,
    JoinEvent,
    LeaveEvent,
    NextTurnEvent,
    OrderEvent,
    PassedTurn,
    StartEvent,
)
from bot.services.results import SPENT, EncounterView, FightEnded, InitiativeRoll, NpcsCleared, SkippedTurn
from bot.services.rulings import channel_system, scenario_rulings
from bot.services.runtime import Runtime
from bot.services.sheet_file import canonical, clean_name, matching
from bot.services.snapshots import encounter_view, ordered_combatants, readiness
from bot.services.undo_record import ChangeRecorder
from bot.system_commands import require_in_system
from bot.systems import system_title
from rules.dice import DiceSource
from rules.errors import ForcedFaceError, RulesError
from rules.model import Catalog, Engine, InitiativeScore, Scenario

MAX_NPCS = 25
MAX_COMBATANTS = 50


async def active_encounter(session: AsyncSession, actor: Actor, *, for_update: bool = True) -> Encounter:
    """The channel's encounter with its combatants and characters. A command that writes takes it from the
    runtime's encounter cache when it is there, and hands it on there (bot/services/encounter_cache.py)."""
    encounter = await channel_encounter(session, actor.guild_id, actor.channel_id, for_update=for_update)
    if encounter is None:
        raise NotInEncounter("there is no encounter in this channel: start one with /encounter start")
    return encounter


async def channel_encounter(session: AsyncSession, guild_id: int, channel_id: int, *,
                            for_update: bool = True) -> Encounter | None:
    """``active_encounter`` of a channel that may have none (a GM's press on a decision of an ended fight)."""
    lending: tuple[EncounterCache, list[Entry]] | None = session.info.get(LENT) if for_update else None
    if lending is not None:
        cache, lent = lending
        own = session.info.get(OWNER)
        if isinstance(own, Entry) and own.channel_id == channel_id and own.encounter.active:
            return own.encounter  # this command has it out already (/pending-roll, then the roll it makes)
        entry = cache.take(channel_id)
        if entry is not None and ("guild", guild_id) in entry.keys and attach(session, entry):
            lent.append(entry)
            return entry.encounter
        if entry is not None:
            cache.release(entry)
    encounter = await repo.active_encounter(session, channel_id, for_update=for_update)
    if encounter is not None and lending is not None:
        await _lend(session, encounter)
    return encounter


async def _lend(session: AsyncSession, encounter: Encounter) -> None:
    """Make ``encounter`` (loaded or made by this command, flushed) the command's entry in the encounter cache,
    there for the next command once this one commits."""
    lending: tuple[EncounterCache, list[Entry]] | None = session.info.get(LENT)
    if lending is None:
        return
    cache, lent = lending
    entry = Entry.of(encounter, await repo.guild_settings(session, encounter.guild_id))
    cache.lend(entry)
    lent.append(entry)
    session.info[OWNER] = entry


def template_name(key: str, sheet: Any) -> str:
    """An NPC template's name as the pack shows it ("Man-at-arms", "Vorox Warrior"): its sheet's name, else its
    key in words."""
    name = sheet.get("name") if isinstance(sheet, dict) or hasattr(sheet, "get") else None
    return name.strip() if isinstance(name, str) and name.strip() else key.replace("_", " ").replace("-", " ").title()


def _names(text: str) -> list[str]:
    """The names of an order, as typed: separated by commas or semicolons."""
    return [part.strip() for part in text.replace(";", ",").split(",") if part.strip()][:MAX_COMBATANTS + 1]


class EncounterService:
    def __init__(self, runtime: Runtime) -> None:
        self._rt = runtime

    async def start(self, actor: Actor) -> EncounterView:
        """Start the channel's encounter in the channel's system (anyone may)."""

        async def work(session: AsyncSession) -> EncounterView:
            if await repo.active_encounter(session, actor.channel_id) is not None:
                raise UserError("this channel already has an encounter: /encounter end it first")
            now = self._rt.clock()
            encounter = Encounter(guild_id=actor.guild_id, channel_id=actor.channel_id, active=True,
                                  system=await channel_system(session, actor),
                                  round=1, turn=0, order=[], combatants=[], created_at=now, updated_at=now)
            session.add(encounter)
            await session.flush()
            await _lend(session, encounter)  # the first /encounter npcs or add finds it in memory
            record_event(self._rt, session, actor, "start", StartEvent(encounter.system), None, encounter)
            return await self._saved(session, encounter)

        return await self._rt.transact(actor.channel_id, work)

    async def add(self, actor: Actor, character_name: str) -> EncounterView:
        """Add a character (its owner or the GM); it must play the encounter's system."""

        async def work(session: AsyncSession) -> EncounterView:
            encounter = await active_encounter(session, actor)
            character = await load_character(session, actor, character_name)
            await access.require_control(session, actor, character, "add them to the encounter")
            changes = ChangeRecorder.of([], encounter)
            self._join(encounter, character)
            record_event(self._rt, session, actor, "join", JoinEvent((character.name,)), changes.record().to_json(),
                         encounter)
            return replace(await self._saved(session, encounter), joined=(character.name,))

        return await self._rt.transact(actor.channel_id, work)

    async def add_npcs(self, actor: Actor, template: str, count: int = 1,
                       name_prefix: str | None = None) -> EncounterView:
        """GM: create ``count`` NPCs from a content template ("Bandit 1".."Bandit 5") and add them."""
        if not 1 <= count <= MAX_NPCS:
            raise UserError(f"count is 1 to {MAX_NPCS}")

        async def work(session: AsyncSession) -> EncounterView:
            await access.require_gm(session, actor, "add NPCs")
            encounter = await active_encounter(session, actor)
            engine = self._rt.engine(encounter.system)
            catalog = await self._rt.catalogs.catalog_for(session, actor.guild_id, encounter.system)
            templates = catalog.npc_templates()
            key = canonical(template, list(templates), "NPC template",
                            {k: template_name(k, sheet) for k, sheet in templates.items()})
            prefix = clean_name(name_prefix or template_name(key, templates[key]))
            names = await self._free_names(session, actor, prefix, count)
            changes = ChangeRecorder.of([], encounter)
            now = self._rt.clock()
            created = []
            for name in names:
                sheet = copy.deepcopy(dict(templates[key]))
                sheet["name"] = name
                row = Character(guild_id=actor.guild_id, name=name, name_key=repo.name_key(name),
                                owner_id=actor.user_id, npc=True, system=encounter.system,
                                sheet=engine.validate_sheet(sheet, catalog), encounter_id=encounter.id,
                                created_at=now, updated_at=now)
                session.add(row)
                created.append(row)
            await session.flush()
            for row in created:
                self._join(encounter, row)
            shown = template_name(key, templates[key])
            record_event(self._rt, session, actor, "add_npcs",
                         AddNpcsEvent(names=tuple(names), template=key, template_name=shown),
                         changes.record(created=[row.id for row in created]).to_json(), encounter)
            return replace(await self._saved(session, encounter), npcs_added=tuple(names), npc_kind=shown)

        return await self._rt.transact(actor.channel_id, work)

    async def remove(self, actor: Actor, name: str) -> EncounterView:
        """Take a character out of the encounter (its owner or the GM)."""

        async def work(session: AsyncSession) -> EncounterView:
            encounter = await active_encounter(session, actor)
            combatant = require_combatant(encounter, name)
            await access.require_control(session, actor, combatant.character, "remove them")
            changes = ChangeRecorder.of([], encounter)
            current = self._current_id(encounter)
            encounter.combatants.remove(combatant)
            await session.delete(combatant)
            encounter.order = [cid for cid in encounter.order if cid != combatant.character_id]
            if current is not None and current != combatant.character_id and current in encounter.order:
                encounter.turn = encounter.order.index(current)
            elif encounter.order:
                encounter.turn %= len(encounter.order)
            else:
                encounter.turn = 0
            record_event(self._rt, session, actor, "leave", LeaveEvent((combatant.character.name,)),
                         changes.record().to_json(), encounter)
            made_here = combatant.character.npc and combatant.character.encounter_id == encounter.id
            return replace(await self._saved(session, encounter),
                           npcs_left=(combatant.character.name,) if made_here else ())

        return await self._rt.transact(actor.channel_id, work)

    async def roll_initiative(self, actor: Actor, dice_text: str | None = None) -> EncounterView:
        """GM: the engine's "initiative" action for every combatant, then turn order by its score (ties: the
        engine's tie-break, then the order so far). Systems that roll no initiative keep the order they have.

        Typed faces say whose they are (``Wulf=9; Archer 1=1,4``), or run in the listed order
        (``initiative=9,1,4``); either way the reply says which went to whom, and faces that do not fit
        (too few, too many, a name not in the fight) are one line that changes nothing (bot/services/initiative.py).
        """

        async def work(session: AsyncSession) -> EncounterView:
            await access.require_gm(session, actor, "roll initiative")
            encounter = await active_encounter(session, actor)
            engine = self._rt.engine(encounter.system)
            combatants = ordered_combatants(encounter)
            typed = initiative_faces.parse([c.character.name for c in combatants], dice_text)
            if "initiative" not in engine.actions or not combatants:
                if typed.given:
                    raise UserError(f"{system_title(encounter.system)} rolls no initiative: no faces to type. "
                                    "Set the order with /encounter order")
                encounter.turn = 0
                touch(self._rt, encounter)
                return await self._saved(session, encounter)
            catalog = await self._rt.catalogs.catalog_for(session, actor.guild_id, encounter.system)
            rulings = scenario_rulings(engine, await repo.guild_settings(session, actor.guild_id))
            changes = ChangeRecorder.of([c.character for c in combatants], encounter)
            shared = typed.positional_source(self._rt.rng())
            scores: dict[int, InitiativeScore | None] = {}
            results: list[InitiativeRoll] = []
            for combatant in combatants:
                dice = shared or typed.source_for(combatant.character.name, self._rt.rng())
                scores[combatant.character_id], roll = _roll_initiative_of(
                    combatant, engine, dice, typed, positional=shared is not None, system=encounter.system,
                    catalog=catalog, rulings=rulings)
                results.append(roll)
            if shared is not None:
                typed.check_positional_used(shared)
            if any(score is not None for score in scores.values()):
                encounter.order = _by_initiative(combatants, scores)
            encounter.turn = 0
            skipped, stalled = await self._pass_over(session, encounter)
            record_event(self._rt, session, actor, "initiative",
                         InitiativeEvent(tuple(InitiativeResult(r.name, r.total, tuple(r.faces), r.typed)
                                               for r in results)),
                         changes.record().to_json(), encounter)
            return replace(await self._saved(session, encounter), initiative_rolls=tuple(results),
                           skipped=skipped, stalled=stalled)

        return await self._rt.transact(actor.channel_id, work)

    async def declare(self, actor: Actor, name: str, aspect: str | None = None, aim: str | None = None,
                      target: str | None = None) -> EncounterView:
        """Ars-harn movement phase: record a combatant's declared aspect, aim and target for this round.

        /attack uses them when its own aspect or aim is left empty; they clear when the round ends.
        """

        async def work(session: AsyncSession) -> EncounterView:
            encounter = await active_encounter(session, actor)
            require_in_system("encounter declare", encounter.system)
            combatant = require_combatant(encounter, name)
            await access.require_control(session, actor, combatant.character, "declare for them")
            declaration: dict[str, Any] = {}
            if target is not None:
                declaration["target"] = require_combatant(encounter, target).character.name
            for key, value in (("aspect", aspect), ("aim", aim)):
                if value is not None:
                    declaration[key] = value.strip().lower()
            changes = ChangeRecorder.of([], encounter)
            combatant.declaration = {**combatant.declaration, **declaration}
            touch(self._rt, encounter)
            record_event(self._rt, session, actor, "declare",
                         DeclareEvent(combatant.character.name, aspect=declaration.get("aspect"),
                                      aim=declaration.get("aim"), target=declaration.get("target")),
                         changes.record().to_json(), encounter)
            return await self._saved(session, encounter)

        return await self._rt.transact(actor.channel_id, work)

    async def next_turn(self, actor: Actor) -> EncounterView:
        """Move to the next combatant who can act (a new round after the last): the GM, or whoever's turn it
        was. Those the engine says cannot act are passed over, one line each; a turn lost to a condition
        that the loss pays off (a Fading Suns stun) ends that condition."""

        async def work(session: AsyncSession) -> EncounterView:
            encounter = await active_encounter(session, actor)
            if not encounter.combatants:
                raise UserError("nobody is in the encounter yet: /encounter add someone first")
            current = ordered_combatants(encounter)[encounter.turn % len(encounter.combatants)]
            await access.require_control(session, actor, current.character, "end their turn")
            changes = ChangeRecorder.of([c.character for c in encounter.combatants], encounter)
            ended, ended_round = current.character.name, encounter.round  # the turn that ends, for /log
            self._advance(encounter)
            skipped, stalled = await self._pass_over(session, encounter)
            touch(self._rt, encounter)
            record_event(self._rt, session, actor, "next_turn",
                         NextTurnEvent(round=encounter.round, turn=encounter.turn, ended=ended,
                                       ended_round=ended_round, skipped=_skipped(skipped)),
                         changes.record().to_json(), encounter)
            return replace(await self._saved(session, encounter), skipped=skipped, stalled=stalled)

        return await self._rt.transact(actor.channel_id, work)

    @staticmethod
    def _advance(encounter: Encounter) -> None:
        """One turn on; past the last, a new round (the round's declarations end)."""
        encounter.turn = encounter.turn % max(1, len(encounter.combatants)) + 1
        if encounter.turn >= len(encounter.combatants):
            encounter.turn = 0
            encounter.round += 1
            for combatant in encounter.combatants:
                combatant.declaration = {}

    async def _pass_over(self, session: AsyncSession, encounter: Encounter) -> tuple[tuple[SkippedTurn, ...], bool]:
        """From the current turn on, pass over everyone the engine says cannot take a turn. Returns the turns
        passed over, and whether nobody could act (then the turn rests where it started)."""
        if not encounter.combatants:
            return (), False
        engine = self._rt.engine(encounter.system)
        catalog = await self._rt.catalogs.catalog_for(session, encounter.guild_id, encounter.system)
        rulings = scenario_rulings(engine, await repo.guild_settings(session, encounter.guild_id))
        skipped: list[SkippedTurn] = []
        for _ in range(len(encounter.combatants)):
            combatant = ordered_combatants(encounter)[encounter.turn % len(encounter.combatants)]
            character = combatant.character
            ready = readiness(self._rt, character.system, character.sheet, catalog, rulings)
            if not ready.skipped:
                return tuple(skipped), False
            recovered = False
            if ready.ends_when_skipped:
                character.sheet = engine.lose_turn(copy.deepcopy(character.sheet), catalog)
                recovered = True
            skipped.append(SkippedTurn(character.name, ready.words, recovered))
            self._advance(encounter)
        return tuple(skipped), True

    async def set_order(self, actor: Actor, character: str | None = None, *, position: int | None = None,
                        before: str | None = None, after: str | None = None,
                        names: str | None = None) -> EncounterView:
        """GM: change the turn order in any system. ``names`` ("Wulf, Archer 1"): those first, in that order,
        the rest after them as they were; or move one ``character`` to ``position`` (1 = first), or just
        ``before`` or ``after`` another. Whoever's turn it is keeps it, unless nobody has acted this round yet:
        then the round starts at the new first (passing over who cannot act). Initiative scores stay as rolled."""
        moves = sum(x is not None for x in (position, before, after))
        if names is not None and (character is not None or moves):
            raise UserError("order: give names (the whole order), or one character with position, before or after")
        if names is None and (character is None or moves != 1):
            raise UserError("order: name the character to move and one of position, before or after "
                            "(or give names: the order, e.g. \"Wulf, Archer 1\")")

        async def work(session: AsyncSession) -> EncounterView:
            await access.require_gm(session, actor, "change the turn order")
            encounter = await active_encounter(session, actor)
            changes = ChangeRecorder.of([], encounter)
            ordered = [c.character_id for c in ordered_combatants(encounter)]
            current = self._current_id(encounter)
            if names is not None:
                new, moved = _named_first(encounter, ordered, names)
            else:
                assert character is not None
                new, moved = _moved(encounter, ordered, character, position=position, before=before, after=after)
            unbegun = self._round_unbegun(encounter)
            encounter.order = new
            skipped: tuple[SkippedTurn, ...] = ()
            stalled = False
            if unbegun:
                changes = ChangeRecorder.of([c.character for c in encounter.combatants], encounter)
                encounter.turn = 0
                skipped, stalled = await self._pass_over(session, encounter)
            elif current is not None:
                encounter.turn = new.index(current)
            touch(self._rt, encounter)
            record_event(self._rt, session, actor, "order", OrderEvent(tuple(moved)), changes.record().to_json(),
                         encounter)
            return replace(await self._saved(session, encounter), moved=tuple(moved), round_restarted=unbegun,
                           skipped=skipped, stalled=stalled)

        return await self._rt.transact(actor.channel_id, work)

    async def delay(self, actor: Actor, after: str | None = None) -> EncounterView:
        """Whoever's turn it is holds it (that combatant's player, or the GM): they move to just after
        ``after`` (someone still to act this round), or to the end of the round, and keep that place in
        the order from then on. The turn passes to the next who can act."""

        async def work(session: AsyncSession) -> EncounterView:
            encounter = await active_encounter(session, actor)
            if not encounter.combatants:
                raise UserError("nobody is in the encounter yet: /encounter add someone first")
            ordered = ordered_combatants(encounter)
            turn = encounter.turn % len(ordered)
            current = ordered[turn]
            await access.require_control(session, actor, current.character, "delay their turn")
            later = ordered[turn + 1:]
            if not later:
                raise UserError(f"{current.character.name} is the last to act this round: nothing to wait for. "
                                "/encounter next ends the turn")
            if after is None:
                target = later[-1]
            else:
                target = require_combatant(encounter, after)
                if target not in later:
                    allowed = ", ".join(c.character.name for c in later)
                    raise UserError(f"delay: {current.character.name} can wait only for someone still to act this "
                                    f"round ({allowed})")
            changes = ChangeRecorder.of([c.character for c in encounter.combatants], encounter)
            ids = [c.character_id for c in ordered if c is not current]
            index = ids.index(target.character_id) + 1
            encounter.order = [*ids[:index], current.character_id, *ids[index:]]
            encounter.turn = turn  # the next in line now stands where the delayer stood
            skipped, stalled = await self._pass_over(session, encounter)
            touch(self._rt, encounter)
            record_event(self._rt, session, actor, "delay",
                         DelayEvent(current.character.name, target.character.name, _skipped(skipped)),
                         changes.record().to_json(), encounter)
            return replace(await self._saved(session, encounter), moved=(current.character.name,),
                           delayed_after=target.character.name, skipped=skipped, stalled=stalled)

        return await self._rt.transact(actor.channel_id, work)

    async def status(self, actor: Actor) -> EncounterView:
        """Round, turn order, whose turn, each combatant's condition and wounds."""

        async def work(session: AsyncSession) -> EncounterView:
            encounter = await active_encounter(session, actor, for_update=False)
            return encounter_view(self._rt, encounter,
                                  await self._rt.catalogs.catalog_for(session, encounter.guild_id, encounter.system),
                                  await _secret_npcs(session, encounter.guild_id))

        return await self._rt.read(work)

    async def end(self, actor: Actor, keep_npcs: bool = False) -> EncounterView:
        """GM: end the encounter (its log stays; characters keep their wounds). The NPCs made for it
        (/encounter npcs) go with it, those that left it before its end too unless another encounter holds them
        (issue 34, N4: they stayed on the server for good), unless ``keep_npcs``: then they stay as the server's
        characters. The answer names each (/encounter remove said it at the time)."""

        async def work(session: AsyncSession) -> EncounterView:
            await access.require_gm(session, actor, "end the encounter")
            encounter = await active_encounter(session, actor)
            encounter.active = False
            touch(self._rt, encounter)
            ended = await self._end_fight(session, encounter)
            made_here = [c.character for c in encounter.combatants if c.character.encounter_id == encounter.id]
            seated = {c.character_id for c in encounter.combatants}
            left = [row for row in await repo.npcs_made_for(session, encounter.id)
                    if row.id not in seated and not await repo.active_encounters_of(session, row.id)]
            made_here += left
            # kept NPCs still name the encounter that made them: /encounter clear-npcs may clear them later
            removed = [] if keep_npcs else [character.name for character in made_here]
            record_event(self._rt, session, actor, "end", EndEvent(encounter.round, tuple(removed)),
                         None, encounter)
            view = await self._saved(session, encounter)
            for character in made_here:
                if not keep_npcs:
                    await session.delete(character)
            await session.flush()
            return replace(view, npcs_removed=tuple(removed), npcs_kept=tuple(
                c.name for c in made_here) if keep_npcs else (), npcs_left=tuple(c.name for c in left),
                fight_ended=tuple(e for e in ended if e.name not in removed))

        return await self._rt.transact(actor.channel_id, work)

    async def clear_npcs(self, actor: Actor) -> NpcsCleared:
        """GM: delete the NPCs that encounters made from templates (/encounter npcs, then kept) and that are in
        no active encounter. An NPC the GM made by hand (/character create npc:true, an import) is never
        deleted here: the answer names them, for /character delete."""

        async def work(session: AsyncSession) -> NpcsCleared:
            await access.require_gm(session, actor, "clear the NPCs")
            gone, hand_made = [], []
            for row in await repo.characters(session, actor.guild_id):
                if not row.npc or await repo.active_encounters_of(session, row.id):
                    continue
                if row.encounter_id is None:
                    hand_made.append(row.name)
                else:
                    gone.append(row.name)
                    await session.delete(row)
            await session.flush()
            return NpcsCleared(tuple(gone), tuple(hand_made))

        return await self._rt.transact(actor.channel_id, work)

    async def set_tracker_message(self, actor: Actor, message_id: int | None,
                                  encounter_id: int | None = None) -> EncounterView | None:
        """Remember the pinned tracker message so the cog edits it instead of posting anew. With
        ``encounter_id``, only while that encounter is the channel's active one (None otherwise): the tracker
        is posted after the answer, and a quick /encounter end and start may come first; the next
        encounter must not take the old one's tracker."""

        async def work(session: AsyncSession) -> EncounterView | None:
            if encounter_id is not None:
                try:
                    encounter = await active_encounter(session, actor)
                except NotInEncounter:
                    return None
                if encounter.id != encounter_id:
                    return None
            else:
                encounter = await active_encounter(session, actor)
            encounter.tracker_message_id = message_id
            return await self._saved(session, encounter)

        return await self._rt.transact(actor.channel_id, work)

    async def combatant_names(self, actor: Actor, prefix: str = "") -> list[str]:
        """Up to 25 names in the channel's encounter (autocomplete for targets): from memory when the
        encounter is held there (every keystroke would otherwise load every combatant's sheet)."""
        cache = self._rt.transactions.encounters
        held = cache.peek(actor.channel_id) if cache is not None else None
        if held is not None and ("guild", actor.guild_id) in held.keys:
            return matching([c.character.name for c in ordered_combatants(held.encounter)], prefix)

        async def work(session: AsyncSession) -> list[str]:
            encounter = await repo.active_encounter(session, actor.channel_id)
            if encounter is None:
                return []
            return matching([c.character.name for c in ordered_combatants(encounter)], prefix)

        return await self._rt.read(work)

    async def template_names(self, actor: Actor, prefix: str = "") -> list[str]:
        """Up to 25 NPC template names of the channel's system (autocomplete)."""

        async def work(session: AsyncSession) -> list[str]:
            system = await channel_system(session, actor)
            try:
                catalog = await self._rt.catalogs.catalog_for(session, actor.guild_id, system)
                return matching([template_name(k, sheet) for k, sheet in catalog.npc_templates().items()], prefix)
            except RulesError:  # a broken pack: no suggestions (BuildNeeded must pass, to be built)
                return []

        return await self._rt.read(work)

    # -- shared ---------------------------------------------------------------------------------

    def _join(self, encounter: Encounter, character: Character) -> None:
        if character.system != encounter.system:
            raise UserError(f"{character.name} plays {character.system}, but this encounter is {encounter.system}")
        if any(c.character_id == character.id for c in encounter.combatants):
            raise UserError(f"{character.name} is already in the encounter")
        if len(encounter.combatants) >= MAX_COMBATANTS:
            raise UserError(f"an encounter holds at most {MAX_COMBATANTS} combatants")
        combatant = Combatant(character_id=character.id, character=character, declaration={})
        encounter.combatants.append(combatant)
        encounter.order = [*encounter.order, character.id]
        touch(self._rt, encounter)

    async def _end_fight(self, session: AsyncSession, encounter: Encounter) -> list[FightEnded]:
        """Each combatant's sheet after its system's "end_fight" action: what lasts only for a fight ends
        (docs/rules/<system>.md, "Ways out"). Nothing is rolled."""
        engine = self._rt.engine(encounter.system)
        if "end_fight" not in engine.actions:
            return []
        catalog = await self._rt.catalogs.catalog_for(session, encounter.guild_id, encounter.system)
        rulings = scenario_rulings(engine, await repo.guild_settings(session, encounter.guild_id))
        out = []
        for combatant in ordered_combatants(encounter):
            character = combatant.character
            resolution = engine.resolve(Scenario(encounter.system, {"type": "end_fight"},
                                                 copy.deepcopy(character.sheet), None, rulings),
                                        DiceSource({}, rng=self._rt.rng()), catalog)
            fight_end = resolution.outcome.fight_end
            if resolution.attacker is not None and resolution.attacker != character.sheet:
                character.sheet = dict(resolution.attacker)
                character.updated_at = self._rt.clock()
            if fight_end is not None and (fight_end.ended or fight_end.gathered or fight_end.kept):
                out.append(FightEnded(character.name, fight_end.ended, fight_end.gathered, fight_end.kept))
        return out

    @staticmethod
    def _round_unbegun(encounter: Encounter) -> bool:
        """Nobody has acted this round: still its first turn, and no action spent (issue 34, N3)."""
        return bool(encounter.order) and encounter.turn == 0 and not any(
            isinstance(c.declaration.get(SPENT), str) for c in encounter.combatants)

    @staticmethod
    def _current_id(encounter: Encounter) -> int | None:
        if not encounter.order:
            return None
        return int(encounter.order[encounter.turn % len(encounter.order)])

    async def _free_names(self, session: AsyncSession, actor: Actor, prefix: str, count: int) -> list[str]:
        """``prefix 1``.. ``prefix N``, skipping numbers already taken in the server."""
        names: list[str] = []
        number = 1
        while len(names) < count:
            batch = [f"{prefix} {n}" for n in range(number, number + count * 2)]
            taken = await repo.taken_name_keys(session, actor.guild_id, [repo.name_key(n) for n in batch])
            names += [n for n in batch if repo.name_key(n) not in taken][: count - len(names)]
            number += count * 2
        return names

    async def _saved(self, session: AsyncSession, encounter: Encounter) -> EncounterView:
        touch(self._rt, encounter)
        await session.flush()
        return encounter_view(self._rt, encounter,
                              await self._rt.catalogs.catalog_for(session, encounter.guild_id, encounter.system),
                              await _secret_npcs(session, encounter.guild_id))


async def _secret_npcs(session: AsyncSession, guild_id: int) -> bool:
    """Does the server keep NPC rolls secret (its tracker then leaves out the NPCs' initiative)?"""
    settings = await repo.guild_settings(session, guild_id)
    return bool(settings is not None and settings.secret_rolls)


def _skipped(skipped: tuple[SkippedTurn, ...] | list[SkippedTurn]) -> tuple[PassedTurn, ...]:
    """The turns passed over, as their event stores them."""
    return tuple(PassedTurn(s.name, s.words) for s in skipped)


def _roll_initiative_of(combatant: Combatant, engine: Engine, dice: DiceSource, typed: initiative_faces.TypedFaces, *,
                        positional: bool, system: str, catalog: Catalog,
                        rulings: dict[str, Any]) -> tuple[InitiativeScore | None, InitiativeRoll]:
    """The engine's "initiative" action for one combatant, with ``dice`` (typed faces, or the shared ones typed
    in the listed order when ``positional``): its score, and the roll as the reply tells it. Sets the combatant's
    initiative, and its sheet where the action changed it."""
    name = combatant.character.name
    first = len(dice.rolls)
    try:
        resolution = engine.resolve(Scenario(system, {"type": "initiative"},
                                             copy.deepcopy(combatant.character.sheet), None, rulings),
                                    dice, catalog)
    except ForcedFaceError as exc:
        raise UserError(typed.ran_out(name, str(exc))) from exc
    if not positional:
        typed.check_used(name, dice)
    score = engine.initiative_score(resolution.outcome)
    combatant.initiative = score.total if score is not None else None
    if resolution.attacker is not None:
        combatant.character.sheet = dict(resolution.attacker)
    faces = tuple(f for roll in dice.rolls[first:] for f in roll.faces)
    return score, InitiativeRoll(name, combatant.initiative, faces, typed.given and (positional or typed.names(name)))


def _by_initiative(combatants: list[Combatant], scores: dict[int, InitiativeScore | None]) -> list[int]:
    """The combatants' ids in turn order by their scores, highest first (ties: the engine's tie-break, then the
    order so far); those without a score after them, in the order so far."""
    place = {c.character_id: i for i, c in enumerate(combatants)}

    def rank(c: Combatant) -> tuple[int, tuple[int, ...], int]:
        score = scores.get(c.character_id)
        if score is None:
            return (1, (), place[c.character_id])
        return (0, tuple([-score.total, *(-t for t in score.tiebreak)]), place[c.character_id])

    return [c.character_id for c in sorted(combatants, key=rank)]


def _named_first(encounter: Encounter, ordered: list[int], names: str) -> tuple[list[int], list[str]]:
    """/encounter order names: the turn order with those named first, in that order, the rest after them as they
    were; and the names as the sheets spell them."""
    listed = [require_combatant(encounter, n).character_id for n in _names(names)]
    if not listed:
        raise UserError("order: names lists nobody: give combatants' names, separated by commas")
    if len(set(listed)) != len(listed):
        raise UserError("order: a combatant is named twice")
    new = listed + [cid for cid in ordered if cid not in listed]
    return new, [require_combatant(encounter, n).character.name for n in _names(names)]


def _moved(encounter: Encounter, ordered: list[int], character: str, *, position: int | None, before: str | None,
           after: str | None) -> tuple[list[int], list[str]]:
    """/encounter order with one character: the turn order with it moved to ``position`` (1 = first), or just
    ``before`` or ``after`` another; and its name as its sheet spells it."""
    mover = require_combatant(encounter, character)
    rest = [cid for cid in ordered if cid != mover.character_id]
    if position is not None:
        if not 1 <= position <= len(ordered):
            raise UserError(f"order: position is 1 to {len(ordered)} (the number of combatants)")
        index = position - 1
    else:
        other = require_combatant(encounter, before if before is not None else str(after))
        if other.character_id == mover.character_id:
            raise UserError(f"order: {mover.character.name} cannot move next to themself")
        index = rest.index(other.character_id) + (0 if before is not None else 1)
    return [*rest[:index], mover.character_id, *rest[index:]], [mover.character.name]
