"""Injuries across sessions: list wounds, treat them, and rest for days (each system's healing rules)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db import repositories as repo
from bot.db.models import Character, Event
from bot.errors import Conflict, NotFound, UserError
from bot.services import access
from bot.services.actions import ActionCall, clean_options, record_event, refuse_if_illegal, require_action, run_action
from bot.services.actor import Actor
from bot.services.characters import load_character, shown_to
from bot.services.event_kinds import Answered, TreatmentOfferEvent
from bot.services.results import ActionReport, CharacterView, PartyView, TreatmentOffer
from bot.services.rulings import channel_system
from bot.services.runtime import Runtime
from bot.services.snapshots import character_view, ordered_combatants, readiness
from bot.system_commands import require_in_system
from bot.systems import profile_of

MAX_REST_DAYS = 365

# /heal's neutral treatment names (each profile's ``treatments`` says what each is in its engine), and the other
# names a player may type for them.
METHOD_ALIASES = {"first aid": "first_aid", "firstaid": "first_aid", "remedy": "first_aid", "chirurgery": "chirurgy",
                  "surgery": "chirurgy", "physick": "chirurgy", "physician": "chirurgy", "healing_spell": "spell",
                  "healing spell": "spell", "heal:chirurgy": "chirurgy", "heal:spell": "spell"}
Methods = tuple[str, list[str]]  # ``list`` is a method name in the class below


def treatment_methods(system: str) -> list[str]:
    """The neutral treatment names a system supports, in the order /heal offers them."""
    profile = profile_of(system)
    return list(profile.treatments) if profile is not None else []


def neutral_method(method: str) -> str:
    key = method.strip().casefold().replace("-", "_")
    return METHOD_ALIASES.get(key, METHOD_ALIASES.get(key.replace("_", " "), key))


# a healer in one of these states (TurnReadiness reasons) cannot treat anyone
_CANNOT_TREAT = frozenset({"dead", "dying", "unconscious", "incapacitated"})

class InjuryService:
    def __init__(self, runtime: Runtime) -> None:
        self._rt = runtime

    async def list(self, actor: Actor, character: str | None = None) -> CharacterView:
        """The character with its wounds (``view.wounds``: location, code, levels, bleeding, penalty).

        With no name: the caller's own character, if they have one, or the one of theirs in this
        channel's encounter; otherwise a line asking which.
        """

        async def work(session: AsyncSession) -> CharacterView:
            row = await load_character(session, actor, character) if character else \
                await self._callers_character(session, actor)
            return await shown_to(self._rt, session, actor, row)

        return await self._rt.read(work)

    async def party(self, actor: Actor) -> PartyView:
        """The player characters of this channel's encounter, or of the whole server when there is none (or
        it holds only NPCs): the GM's view of everyone's wounds between sessions."""

        async def work(session: AsyncSession) -> PartyView:
            encounter = await repo.active_encounter(session, actor.channel_id)
            rows = [c.character for c in ordered_combatants(encounter) if not c.character.npc] \
                if encounter is not None else []
            where = "encounter"
            if not rows:  # no encounter here, or only NPCs in it: the server's player characters
                rows = sorted((r for r in await repo.characters(session, actor.guild_id) if not r.npc),
                              key=lambda r: r.name.casefold())
                where = "server"
            if not rows:
                raise NotFound("this server has no player characters yet: /character create makes one")
            return PartyView(where, tuple([await shown_to(self._rt, session, actor, r) for r in rows]))

        return await self._rt.read(work)

    async def methods(self, actor: Actor) -> Methods:
        """The channel's system and the treatments /heal offers there (neutral names, for autocomplete)."""

        async def work(session: AsyncSession) -> Methods:
            system = await channel_system(session, actor)
            return system, treatment_methods(system)

        return await self._rt.read(work)

    async def heal(self, actor: Actor, character: str, method: str, options: Mapping[str, Any] | None = None,
                   dice_text: str | None = None) -> ActionReport | TreatmentOffer:
        """Treatment of ``character`` by a neutral ``method`` (first_aid, chirurgy, spell; chirurgery, surgery,
        physick and remedy are aliases), mapped to the patient's system's engine action.

        ``options``: ``healer`` (a character name: their skill is used), ``wound`` (index), ``modifier``,
        ``body_levels`` (a healing spell). Works outside encounters; inside one it is logged there and /undo
        can take it back.

        Who decides: the healer's owner (or the GM) treats with the healer's skill; nobody else may use it.
        With no healer, the patient's owner (or the GM). When the caller does not control the patient, the
        treatment is an offer that the patient's owner (the GM for an NPC) accepts or declines
        (``answer_offer``).
        """
        opts = clean_options(options)
        healer_name = opts.pop("healer", None)

        async def work(session: AsyncSession) -> ActionReport | TreatmentOffer:
            patient = await load_character(session, actor, character, for_update=True)
            require_in_system("heal", patient.system, opts)
            action_type, _action = self._treatment(patient.system, method, opts)
            require_action(self._rt.engine(patient.system), action_type)
            healer = await self._healer(session, actor, patient, healer_name)
            if healer is None:
                await access.require_control(session, actor, patient, "treat them")
            else:
                await access.require_control(session, actor, healer, f"treat with {healer.name}'s skill")
                await self._require_awake(session, healer)
                if not await access.controls(session, actor, patient):
                    await self._require_wounded(session, patient)
                    # what Accept would be refused (a patient who needs no chirurgery, a wound treated already)
                    # is refused now, to the one offering, and no offer is posted (issue 34)
                    await refuse_if_illegal(self._rt, session, actor,
                                            self._call(patient, healer, method, opts, dice_text))
                    offer = TreatmentOfferEvent(
                        patient_id=patient.id, patient=patient.name, healer_id=healer.id, healer=healer.name,
                        method=neutral_method(method), system=patient.system, dice=dice_text, options=opts)
                    event = record_event(self._rt, session, actor, "treatment_offer", offer, None, None)
                    await session.flush()
                    return TreatmentOffer(event_id=event.id, healer=healer.name, patient=patient.name,
                                          method=neutral_method(method), system=patient.system,
                                          owner_id=patient.owner_id, npc=patient.npc)
            return await self._treat(session, actor, patient, healer, method, opts, dice_text)

        return await self._rt.transact(actor.channel_id, work)

    async def answer_offer(self, actor: Actor, event_id: int,
                           accept: bool) -> tuple[TreatmentOffer, ActionReport | None]:
        """The patient's owner (or the GM) accepts or declines a treatment offered with /heal: accepted, the
        treatment is made now with the healer's skill, as offered; either way the offer is closed."""
        if not 0 < event_id < 2**63:
            raise NotFound("that offer no longer exists")

        async def work(session: AsyncSession) -> tuple[TreatmentOffer, ActionReport | None]:
            event = await session.get(Event, event_id, with_for_update=True)
            if event is None or event.guild_id != actor.guild_id or event.kind != "treatment_offer":
                raise NotFound("that offer no longer exists")
            offer = TreatmentOfferEvent.from_dict(event.payload)
            if offer.answered.answer:
                raise Conflict(f"that offer was already {offer.answered.answer}")
            patient = (await session.get(Character, offer.patient_id, with_for_update=True)
                       if offer.patient_id is not None else None)
            healer = (await session.get(Character, offer.healer_id, with_for_update=True)
                      if offer.healer_id is not None else None)
            if patient is None or healer is None:
                raise NotFound("the healer or the patient no longer exists")
            await access.require_control(session, actor, patient, "answer for them")
            answered = Answered("accepted" if accept else "declined", actor.user_id)
            event.payload = replace(offer, answered=answered).to_dict()
            view = TreatmentOffer(event_id=event.id, healer=healer.name, patient=patient.name,
                                  method=offer.method, system=patient.system, owner_id=patient.owner_id,
                                  npc=patient.npc)
            if not accept:
                return view, None
            report = await self._treat(session, actor, patient, healer, offer.method, dict(offer.options),
                                       offer.dice)
            return view, report

        return await self._rt.transact(actor.channel_id, work)

    async def _treat(self, session: AsyncSession, actor: Actor, patient: Character, healer: Character | None,
                     method: str, opts: dict[str, Any], dice_text: str | None) -> ActionReport:
        encounter = await repo.active_encounter(session, actor.channel_id, for_update=True)
        return await run_action(self._rt, session, actor, self._call(patient, healer, method, opts, dice_text),
                                encounter)

    def _call(self, patient: Character, healer: Character | None, method: str, opts: dict[str, Any],
              dice_text: str | None) -> ActionCall:
        """The engine action a treatment is: who acts on whom is the system's (Pendragon's patient acts)."""
        action_type, action = self._treatment(patient.system, method, opts)
        profile = profile_of(patient.system)
        if profile is not None and profile.patient_acts:
            return ActionCall(action_type, action, patient, healer, dice_text)
        return ActionCall(action_type, action, healer or patient, patient if healer else None, dice_text)

    async def rest(self, actor: Actor, character: str, days: int, dice_text: str | None = None) -> ActionReport:
        """``days`` of rest: the engine's "rest" action runs the healing rolls (Pendragon: by the week). Owner or GM."""
        if not 1 <= days <= MAX_REST_DAYS:
            raise UserError(f"days is 1 to {MAX_REST_DAYS}")

        async def work(session: AsyncSession) -> ActionReport:
            row = await load_character(session, actor, character, for_update=True)
            await access.require_control(session, actor, row, "let them rest")
            require_action(self._rt.engine(row.system), "rest")
            profile = profile_of(row.system)
            if profile is not None and days < profile.rest_days:
                raise UserError(profile.rest_refusal)
            # Pendragon counts the whole weeks in the days, and says what the days left over did
            action: dict[str, Any] = {"type": "rest", "days": days}
            encounter = await repo.active_encounter(session, actor.channel_id, for_update=True)
            return await run_action(self._rt, session, actor, ActionCall("rest", action, row, None, dice_text),
                                    encounter)

        return await self._rt.transact(actor.channel_id, work)

    @staticmethod
    def _treatment(system: str, method: str, options: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """The engine action for a neutral treatment name, with the command's options as that engine names them."""
        profile = profile_of(system)
        if profile is None:  # an engine without a profile: the method is its action's own name
            return method.strip().lower(), {"type": method.strip().lower(), **options}
        offered = profile.treatments
        key = neutral_method(method)
        if key not in offered:
            names = ", ".join(offered) or "none"
            raise UserError(f"{system} has no '{method.strip()}' treatment; it has: {names}")
        action_type, fixed = offered[key].action, offered[key].options
        if options.get("body_levels") is not None and key != "spell":
            raise UserError("body_levels is for a healing spell (method: spell)")
        action: dict[str, Any] = {"type": action_type, **fixed}
        for name, value in options.items():
            action[profile.modifier_option if name == "modifier" else name] = value
        return action_type, action

    async def _require_awake(self, session: AsyncSession, healer: Character) -> None:
        """A healer who is unconscious, dying, incapacitated or dead treats nobody (issue 34, N7)."""
        catalog = await self._rt.catalogs.catalog_for(session, healer.guild_id, healer.system)
        ready = readiness(self._rt, healer.system, healer.sheet, catalog)
        if ready.reason in _CANNOT_TREAT:
            raise UserError(f"{healer.name} {ready.words or 'is ' + ready.reason}: they cannot treat anyone now")

    async def _require_wounded(self, session: AsyncSession, patient: Character) -> None:
        """No offer of treatment to a character with no wound (issue 34, N7)."""
        catalog = await self._rt.catalogs.catalog_for(session, patient.guild_id, patient.system)
        if not character_view(self._rt, patient, catalog).wounds:
            raise UserError(f"{patient.name} has no wound to treat")

    @staticmethod
    async def _healer(session: AsyncSession, actor: Actor, patient: Character, name: str | None) -> Character | None:
        if not name:
            return None
        healer = await load_character(session, actor, str(name), for_update=True)
        if healer.id == patient.id:
            return None
        if healer.system != patient.system:
            raise UserError(f"{healer.name} plays {healer.system}, {patient.name} {patient.system}")
        return healer

    async def _callers_character(self, session: AsyncSession, actor: Actor) -> Character:
        mine = [row for row in await repo.characters(session, actor.guild_id, actor.user_id) if not row.npc]
        if len(mine) == 1:
            return mine[0]
        encounter = await repo.active_encounter(session, actor.channel_id)
        if encounter is not None:
            here = [c.character for c in encounter.combatants
                    if c.character.owner_id == actor.user_id and not c.character.npc]
            if len(here) == 1:
                return here[0]
        if not mine:
            raise NotFound("you have no character here: name one, e.g. /injuries character:Bjorn")
        raise UserError(f"you have {len(mine)} characters: say which, e.g. /injuries character:{mine[0].name}")
