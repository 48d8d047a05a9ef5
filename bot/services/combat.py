"""Combat in the channel's encounter: attacks, spells, other engine actions, and GM decisions."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db import repositories as repo
from bot.db.models import Character, Combatant, Encounter, PendingDecision
from bot.errors import Conflict, NotFound, NotInEncounter, UserError
from bot.services import access, defense_prompt, ways_out
from bot.services.access import viewer_in
from bot.services.actions import (
    ActionCall,
    clean_options,
    combatant_named,
    require_action,
    require_combatant,
    run_action,
    spent_words,
)
from bot.services.actor import Actor
from bot.services.characters import load_character
from bot.services.decision_messages import MessageButtons, Pressed, buttons_on
from bot.services.encounters import active_encounter, channel_encounter
from bot.services.pending_rolls import (
    DICE,
    MOOT,
    ROLL,
    is_roll_kind,
    open_roll_decisions,
    parse_kind,
    roll_action,
    sync_roll_decisions,
)
from bot.services.results import SPENT, ActionReport, DefenseAnswer, DefensePrompt, WayOutView
from bot.services.rulings import turns_mode
from bot.services.runtime import Runtime
from bot.services.sheet_file import canonical, item_label, matching
from bot.services.snapshots import ordered_combatants
from bot.system_commands import require_in_system
from bot.systems import profile_of
from content.input_guard import check_text
from rules.errors import RulesError
from rules.sheet_spec import name_key

# Choices that need a value the GM types (a modal on the button): the choice -> the engine option it fills.
VALUE_CHOICES: dict[tuple[str, str], str] = {("fall_damage", "damage"): "amount", ("damage", "damage"): "amount"}


def decision_value(kind: str, choice: str, value: str | None) -> dict[str, Any]:
    """The engine options for what the GM typed with ``choice`` (e.g. the amount of a fall's damage)."""
    option = VALUE_CHOICES.get((kind, choice))
    if option is None:
        return {}
    text = check_text(value or "", option, 200).strip()
    if not re.fullmatch(r"[0-9]{1,4}", text) or int(text) > 1000:
        raise UserError(f"give the {option} as a whole number from 0 to 1000, not '{text or 'nothing'}'")
    return {option: int(text)}


def gm_decide_action(system: str, kind: str, choice: str) -> dict[str, Any]:
    """The engine's "gm_decide" action for a pending decision of ``kind`` answered with ``choice``."""
    # how the engine names the GM's choice (its profile); an engine without one takes {"kind", "choice"}
    profile = profile_of(system)
    names = profile.decide_options if profile is not None else ("kind", "choice")
    action: dict[str, Any] = {"type": "gm_decide"}
    if "kind" in names:
        action["kind"] = kind
    action["decision" if "decision" in names else "choice"] = choice
    return action


def engine_attack_options(system: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """/attack's options as the engine names them (its profile's ``attack_option_names``)."""
    profile = profile_of(system)
    renamed = profile.attack_option_names if profile is not None else {}
    switches = profile.attack_switches if profile is not None else {}
    out = {renamed.get(key, key): value for key, value in options.items() if key not in switches}
    for key, (option, on, off) in switches.items():  # Fading Suns' throw: its missile mode
        if key in options:
            out[option] = on if options[key] else off
    return out


def engine_action(system: str, action_name: str) -> tuple[str, dict[str, Any]]:
    """The engine's action type and fixed options for a command's neutral ``action_name``."""
    profile = profile_of(system)
    action, options = profile.command_actions.get(action_name, (action_name, {})) if profile is not None else \
        (action_name, {})
    return action, dict(options)


# The slash command of an action act() runs, where the two names differ (bot/system_commands.py).
_COMMAND_OF = {"tactical_advantage": "advantage"}

# Actions with their own service method (act() refuses them so each keeps its checks).
_OWN_METHODS = {"attack": "/attack", "cast": "/cast", "gm_decide": "the GM's buttons", "initiative": "/initiative"}


class CombatService:
    def __init__(self, runtime: Runtime) -> None:
        self._rt = runtime

    async def attack(self, actor: Actor, target: str, weapon: str | None = None,
                     options: Mapping[str, Any] | None = None, dice_text: str | None = None,
                     attacker: str | None = None) -> ActionReport | DefensePrompt:
        """One attack in the channel's encounter, or (Fading Suns, a player's character whose defence nobody named)
        a prompt to its player first (``answer_defense`` makes the attack).

        ``options`` are the system's (aspect, aim, modifier, save_excess, location ...), passed to the
        engine's "attack" action; empty aspect/aim fall back to the attacker's declaration.
        ``attacker`` defaults to the character whose turn it is if the caller controls it, else the
        caller's only character in the encounter. ``weapon`` must be on the attacker's sheet.
        """

        async def work(session: AsyncSession) -> ActionReport | DefensePrompt:
            encounter = await active_encounter(session, actor)
            call = await self.declare(session, actor, encounter, "attack", target, weapon, options, attacker,
                                      dice_text=dice_text)
            prompt = await defense_prompt.prompt_for(self._rt, session, actor, encounter, call)
            if prompt is not None:  # the target's player chooses the defence first
                return prompt
            return await run_action(self._rt, session, actor, call, encounter)

        return await self._rt.transact(actor.channel_id, work)

    async def answer_defense(self, actor: Actor, event_id: int, choice: str | None
                             ) -> tuple[DefensePrompt, ActionReport]:
        """The defence a waiting attack's target makes, chosen by its player or the GM (``choice`` None: the time
        ran out, and the ``unnamed_defense`` ruling stands): the attack is made now, as it was declared."""

        async def work(session: AsyncSession) -> tuple[DefensePrompt, ActionReport]:
            prompt, call, declared, by = await defense_prompt.waiting_attack(self._rt, session, actor, event_id,
                                                                             choice)
            encounter = await active_encounter(session, declared)
            asked = DefenseAnswer(by=by, defense=choice, target=prompt.target, seconds=prompt.seconds,
                                  fallback=prompt.fallback)
            return prompt, await run_action(self._rt, session, declared, replace(call, defense_asked=asked), encounter)

        return await self._rt.transact(actor.channel_id, work)

    async def declare(self, session: AsyncSession, actor: Actor, encounter: Encounter, kind: str, target: str,
                      weapon: str | None, options: Mapping[str, Any] | None, acting: str | None, *,
                      turns: bool = True, dice_text: str | None = None) -> ActionCall:
        """The engine action ``kind`` ("attack" or "cast") as /attack and /cast declare it, and as /odds asks
        about it: who acts (the caller must control them), on whom, with the attacker's declared aspect and aim,
        rolled with the faces in ``dice_text``. ``turns``: keep the server's turn order (/odds only asks, so it
        does not)."""
        require_in_system(kind, encounter.system, clean_options(options) if kind == "attack" else ())
        if kind == "cast":
            require_action(self._rt.engine(encounter.system), "cast")
            casting, out_of_turn = await self._acting(session, actor, encounter, acting, "cast for them", turns)
            defending = require_combatant(encounter, target)
            call = ActionCall("cast", {"type": "cast", **clean_options(options)}, casting.character,
                              defending.character, dice_text, out_of_turn=out_of_turn)
            return await self._spending(session, actor, call, casting, "cast") if turns else call
        attacking, out_of_turn = await self._acting(session, actor, encounter, acting, "attack with them", turns)
        defending = require_combatant(encounter, target)
        if defending.character_id == attacking.character_id:
            raise UserError(f"{attacking.character.name} cannot attack themselves")
        if turns and (options or {}).get("defense") is not None and \
                not await access.controls(session, actor, defending.character):
            # the defender's side chooses its defence (docs/rules/fading-suns.md), not the one attacking it
            who = "the GM" if defending.character.npc else "its player or the GM"
            raise UserError(f"{defending.character.name}'s defence is {who}'s to choose; left out, it is the "
                            "sheet's 'defense' (a dodge if the sheet names none)")
        action: dict[str, Any] = {"type": "attack"}
        for key in ("aspect", "aim"):
            if key in attacking.declaration:
                action[key] = attacking.declaration[key]
        chosen = clean_options(options)
        if isinstance(chosen.get("location"), str):  # a called location, however it is spelled
            chosen["location"] = await self._location(session, actor, encounter.system, chosen["location"])
        action.update(engine_attack_options(encounter.system, chosen))
        if weapon is not None:
            action["weapon"] = self._weapon(attacking.character, weapon)
        call = ActionCall("attack", action, attacking.character, defending.character, dice_text,
                          out_of_turn=out_of_turn)
        return await self._spending(session, actor, call, attacking, "attack") if turns else call

    async def _location(self, session: AsyncSession, actor: Actor, system: str, typed: str) -> str:
        """The pack's location for a typed one: its name ("right_arm") or its label ("R.Arm"), however spelled
        ("right arm", "Right_Arm"); a location the pack does not have is left to the engine to refuse."""
        catalog = await self._rt.catalogs.catalog_for(session, actor.guild_id, system)
        labels = catalog.location_labels()
        if not labels:  # a system whose attacks call no location
            return typed
        return canonical(typed, list(labels), "hit location", labels)

    async def cast(self, actor: Actor, target: str, options: Mapping[str, Any] | None = None,
                   dice_text: str | None = None, caster: str | None = None) -> ActionReport:
        """A spell on a target in the encounter (ars-harn damage and Body Level spells): the "cast" action."""

        async def work(session: AsyncSession) -> ActionReport:
            encounter = await active_encounter(session, actor)
            call = await self.declare(session, actor, encounter, "cast", target, None, options, caster,
                                      dice_text=dice_text)
            return await run_action(self._rt, session, actor, call, encounter)

        return await self._rt.transact(actor.channel_id, work)

    async def act(self, actor: Actor, action_type: str, character: str, options: Mapping[str, Any] | None = None,
                  dice_text: str | None = None) -> ActionReport:
        """Any other engine action for a character in the encounter (shock re-roll, rearm, stand up,
        tactical advantage ...). ``options["target"]``, if given, names the other character."""

        async def work(session: AsyncSession) -> ActionReport:
            encounter = await active_encounter(session, actor)
            action_name = action_type.strip().lower()
            if action_name in _OWN_METHODS:
                raise UserError(f"use {_OWN_METHODS[action_name]} for '{action_name}'")
            require_in_system(_COMMAND_OF.get(action_name, action_name), encounter.system)
            engine_type, fixed = engine_action(encounter.system, action_name)
            require_action(self._rt.engine(encounter.system), engine_type)
            acting, out_of_turn = await self._acting(session, actor, encounter, character, "act for them")
            opts = clean_options(options)
            target_name = opts.pop("target", None)
            target = require_combatant(encounter, str(target_name)).character if target_name else None
            if opts.get("weapon") is not None:
                opts["weapon"] = self._weapon(acting.character, str(opts["weapon"]))
            call = ActionCall(action_name, {"type": engine_type, **fixed, **opts}, acting.character, target, dice_text,
                              out_of_turn=out_of_turn)
            return await run_action(self._rt, session, actor, call, encounter)

        return await self._rt.transact(actor.channel_id, work)

    async def recover(self, actor: Actor, character: str, condition: str | None = None, weapon: str | None = None,
                      dice_text: str | None = None, hand: str | None = None) -> ActionReport:
        """/recover (``condition``) and /ready (``weapon``): end one of the character's lasting states the way
        its system says (``Engine.ways_out``). In this channel's fight when the character is in it (the turn
        order holds as for /attack); else between fights, where most ways out cost nothing. A way out that is
        the GM's call (waking the unconscious ...) is the GM's only."""

        async def work(session: AsyncSession) -> ActionReport:
            try:
                encounter: Encounter | None = await active_encounter(session, actor)
            except NotInEncounter:
                encounter = None
            combatant = combatant_named(encounter, character) if encounter is not None else None
            out_of_turn = None
            if encounter is not None and combatant is not None:
                combatant, out_of_turn = await self._acting(session, actor, encounter, character, "act for them")
                row = combatant.character
            else:
                encounter = None
                row = await load_character(session, actor, character, for_update=True)
                await access.require_control(session, actor, row, "act for them")
            if hand is not None:
                require_in_system("ready", row.system, ["hand"])
            engine = self._rt.engine(row.system)
            catalog = await self._rt.catalogs.catalog_for(session, actor.guild_id, row.system)
            ways = engine.ways_out(row.sheet, catalog, encounter is not None)
            way = (ways_out.pick_condition(row.name, ways, condition) if condition is not None
                   else ways_out.pick_weapon(row.name, ways, weapon))
            if way.gm_only:
                await access.require_gm(session, actor, f"end {row.name}'s {way.condition.replace('_', ' ')}")
            kind = "ready" if way.weapon is not None else "recover"
            action = dict(way.action) if hand is None else {**way.action, "hand": hand}
            call = ActionCall(kind, action, row, None, dice_text,
                              out_of_turn=out_of_turn,
                              way_out=WayOutView(way.condition, way.cost, way.weapon, encounter is not None))
            if combatant is not None and encounter is not None and way.cost == "action":  # it takes the round
                call = await self._spending(session, actor, call, combatant, f"{kind}:{way.weapon or way.condition}")
            return await run_action(self._rt, session, actor, call, encounter)

        return await self._rt.transact(actor.channel_id, work)

    async def way_out_names(self, actor: Actor, character: str, weapons: bool, prefix: str = "") -> list[str]:
        """What /recover (the states) or /ready (the weapons) can offer ``character`` now (autocomplete)."""

        async def work(session: AsyncSession) -> list[str]:
            row = await repo.character_by_name(session, actor.guild_id, character)
            if row is None or await access.behind_screen(session, actor, row):  # an NPC's sheet is the GM's
                return []
            encounter = await repo.active_encounter(session, actor.channel_id)
            in_fight = encounter is not None and any(c.character_id == row.id for c in encounter.combatants)
            try:
                ways = self._rt.engine(row.system).ways_out(
                    row.sheet, await self._rt.catalogs.catalog_for(session, actor.guild_id, row.system), in_fight)
            except RulesError:
                return []
            names = ways_out.weapons(ways) if weapons else [c.replace("_", " ") for c in ways_out.conditions(ways)]
            return matching(names, prefix)

        return await self._rt.read(work)

    async def decide(self, actor: Actor, decision_id: int, choice: str, value: str | None = None) -> ActionReport:
        """GM only: apply a pending decision (the engine's "gm_decide" action, or for a roll the GM makes, the
        roll's action); never twice. ``value`` is what the GM typed: the faces for a roll's ``dice`` choice,
        the amount for a ``damage`` choice."""
        return (await self.press(actor, decision_id, choice, value)).report

    async def press(self, actor: Actor, decision_id: int, choice: str, value: str | None = None,
                    message_id: int | None = None) -> Pressed:
        """A GM button pressed (or its form submitted) on ``message_id``: the decision applied as ``decide`` says,
        and the buttons that message carries now (the database's record, read in the same transaction).

        A press is checked here, once: the presser's viewer is made in this transaction (``require_gm``), before
        the decision is read. Its buttons are only ever posted in its own channel (the press's), whose lock this
        takes; an id from another channel (a forged press) is no decision here.

        A press can come before the database knows what its message carries: the answer is sent, then the answer
        log writes which message holds its decisions. The press first waits for that write when this process
        noted it (``AnswerLog.placed``: the process that posted a server's answers gets its presses); a message
        still not placed (no decision row names it: the note was lost in a crash, or the write failed) gets no
        buttons from here (``Pressed.left`` None), and the press leaves its buttons as they are. Read as
        carrying nothing, it would lose the buttons of decisions still open on it; left alone, the pressed
        decision's own buttons stay there, and pressing one again says it is already decided."""
        if message_id is not None:
            await self._rt.answers.placed(actor.guild_id, actor.channel_id, message_id)

        async def work(session: AsyncSession) -> Pressed:
            await access.require_gm(session, actor, "make this decision")
            decision = await repo.decision(session, decision_id, for_update=True)
            if decision is None or (decision.guild_id, decision.channel_id) != (actor.guild_id, actor.channel_id):
                raise NotFound("that decision no longer exists")
            report = await self._apply(session, actor, decision, choice, value)
            if message_id is None:
                return Pressed(report)
            left = await buttons_on(session, actor.guild_id, actor.channel_id, [message_id])
            return Pressed(report, left.get(message_id))

        return await self._rt.transact(actor.channel_id, work)

    async def buttons_on(self, actor: Actor, channel_id: int,
                         message_ids: Collection[int]) -> dict[int, MessageButtons]:
        """The buttons each of these messages in ``channel_id`` (of the caller's server) carries, as the database
        records them (bot/services/decision_messages.py): to take settled ones off."""
        return await self._rt.read(lambda session: buttons_on(session, actor.guild_id, channel_id, message_ids))

    async def check_gm(self, actor: Actor) -> None:
        """NotGM unless ``actor`` is the GM: the check of a press that opens a form and writes nothing (its submit
        is ``decide``, checked again as any press is: the role may have been taken away meanwhile)."""
        await self._rt.read(lambda session: access.require_gm(session, actor, "make this decision"))

    async def pending_roll(self, actor: Actor, character: str, which: str | None = None,
                           dice_text: str | None = None) -> ActionReport:
        """GM only: make a roll the engine left waiting for the GM (``/setup rolls mode:gm``) for a character in
        the encounter: ``which`` (shock, kill, knockdown, major_wound, fall, effect, stumble, fumble; default the
        oldest owed), with the faces in ``dice_text`` if the GM rolled at the table."""

        async def work(session: AsyncSession) -> ActionReport:
            await access.require_gm(session, actor, "make the rolls that wait for the GM")
            encounter = await active_encounter(session, actor)
            rolling = require_combatant(encounter, character).character
            _, stale = await sync_roll_decisions(self._rt, session, actor, [rolling], None)
            waiting = await open_roll_decisions(session, rolling.id)
            names = ", ".join(dict.fromkeys(parse_kind(d.kind).roll for d in waiting))
            wanted = which.strip().lower() if which else None
            decision = next((d for d in waiting if wanted is None or parse_kind(d.kind).roll == wanted), None)
            if decision is None:
                owes = f"owes only: {names}" if names else "owes no roll"
                raise UserError(f"{rolling.name} {owes}" + (f", not a {wanted} roll" if wanted and names else ""))
            return await self._apply(session, actor, decision, DICE if dice_text else ROLL, dice_text, stale)

        return await self._rt.transact(actor.channel_id, work)

    async def set_decision_message(self, actor: Actor, decision_ids: Iterable[int], message_id: int) -> None:
        """Remember the message in the caller's channel that carries these decisions' buttons, so that when
        one is settled some other way (/pending-roll, a later action, /undo) its buttons can be taken off.
        Written by the answer log, in one transaction with the answer's own message id (bot/services/answers.py)."""
        await self._rt.answers.decisions_on(actor.guild_id, actor.channel_id, message_id, decision_ids)

    async def _apply(self, session: AsyncSession, actor: Actor, decision: PendingDecision, choice: str,
                     value: str | None, moot_before: Sequence[PendingDecision] = ()) -> ActionReport:
        """``decision`` settled with ``choice``; ``moot_before``: rolls found moot on the way (the report says so)."""
        if decision.cancelled:
            raise Conflict("that decision was taken back with /undo")
        if decision.choice == MOOT:
            raise Conflict(f"{decision.who} no longer owes that roll" if is_roll_kind(decision.kind)
                           else f"that decision about {decision.who} is no longer needed")
        if decision.choice is not None:
            raise Conflict(f"already decided: {decision.who} \u2014 {decision.choice}")
        wanted = choice.strip().casefold()
        picked = next((str(o) for o in decision.options if str(o).casefold() == wanted), None)
        if picked is None:
            raise UserError(f"choose one of {', '.join(map(str, decision.options))}, not '{choice}'")
        # The decision's encounter from memory when it is there (its character with it), as an attack takes it.
        encounter = await channel_encounter(session, actor.guild_id, decision.channel_id)
        fighting = next((c.character for c in encounter.combatants if c.character_id == decision.character_id),
                        None) if encounter is not None else None
        character = fighting or await session.get(Character, decision.character_id, with_for_update=True)
        if character is None:
            raise NotFound(f"{decision.who} no longer exists")
        decision.choice = picked
        decision.decided_by = actor.user_id
        if is_roll_kind(decision.kind):
            if picked == DICE and not (value or "").strip():
                raise UserError("type the faces you rolled, e.g. shock=7")
            owed = parse_kind(decision.kind)
            action = roll_action(character.system, owed)
            call = ActionCall(str(action["type"]), action, character, None, value if picked == DICE else None,
                              dice_label=owed.roll, decided=decision, moot_before=moot_before)
        else:
            action = gm_decide_action(character.system, decision.kind, picked)
            action.update(decision_value(decision.kind, picked, value))
            call = ActionCall("gm_decide", action, character, None, None, decided=decision,
                              moot_before=moot_before)
        return await run_action(self._rt, session, self._in_channel(actor, decision.channel_id), call, encounter)

    # -- shared ---------------------------------------------------------------------------------

    async def _acting(self, session: AsyncSession, actor: Actor, encounter: Encounter, name: str | None,
                      doing: str, turns: bool = True) -> tuple[Combatant, str | None]:
        """The combatant who acts, and the name of the one whose turn it is when that is someone else (and the
        server only warns). Named: the caller must control it. Not named: the caller's character whose turn it
        is; for the GM, the NPC whose turn it is (never a player's character: then the GM must say who);
        for a player, their only character here. Out of turn, a player is refused where the server enforces
        turns (``/setup turns``); the GM, who runs the NPCs and the turn order, never is."""
        combatants = ordered_combatants(encounter)
        if not combatants:
            raise NotInEncounter("nobody is in the encounter yet: /encounter add someone first")
        gm = (await viewer_in(session, actor)).is_gm
        current: Combatant = combatants[encounter.turn % len(combatants)]
        if name:
            combatant = require_combatant(encounter, name)
            await access.require_control(session, actor, combatant.character, doing)
        elif gm:
            yours = current.character.owner_id == actor.user_id and not current.character.npc
            if not (current.character.npc or yours):
                npcs = [c.character.name for c in combatants if c.character.npc]
                example = f', e.g. "{npcs[0]}"' if npcs else ""
                raise UserError(f"it is {current.character.name}'s turn, a player's character: "
                                f"name who acts{example}")
            combatant = current
        elif current.character.owner_id == actor.user_id and not current.character.npc:
            combatant = current
        else:
            mine = [c for c in combatants if c.character.owner_id == actor.user_id and not c.character.npc]
            if not mine:
                raise NotInEncounter("you have no character in this encounter: /encounter add yours first")
            if len(mine) > 1:
                raise UserError("you have several characters here: say which one acts")
            combatant = mine[0]
        if combatant is current or gm or not turns:
            return combatant, None
        mode = turns_mode(await repo.guild_settings(session, actor.guild_id))
        if mode == "enforce":
            raise UserError(f"it is {current.character.name}'s turn, not {combatant.character.name}'s: "
                            "wait for /encounter next")
        return combatant, current.character.name if mode == "warn" else None

    async def _spending(self, session: AsyncSession, actor: Actor, call: ActionCall, combatant: Combatant,
                        what: str) -> ActionCall:
        """``call`` as one that spends ``combatant``'s action for the round on ``what``. Spent already this
        round (standing up, then readying a weapon): a player is refused where the server enforces turns; else
        the answer says so (the GM, who may rule otherwise, is never refused)."""
        before = combatant.declaration.get(SPENT)
        call = replace(call, spends=(combatant, what))
        if not isinstance(before, str):
            return call
        mode = turns_mode(await repo.guild_settings(session, actor.guild_id))
        if mode == "off":
            return call
        if mode == "enforce" and not (await viewer_in(session, actor)).is_gm:
            raise UserError(f"{combatant.character.name} has spent this round's action already "
                            f"({spent_words(before)}): wait for the next round")
        return replace(call, spent_before=before)

    @staticmethod
    def _weapon(character: Character, weapon: str) -> str:
        entries = character.sheet.get("weapons")
        labels = [item_label(e) for e in entries] if isinstance(entries, list) else []
        for label in labels:
            if name_key(label) == name_key(weapon):
                return label
        raise NotFound(f"{character.name} has no weapon '{weapon}' (has: {', '.join(labels) or 'none'})")

    @staticmethod
    def _in_channel(actor: Actor, channel_id: int) -> Actor:
        if actor.channel_id == channel_id:
            return actor
        return replace(actor, channel_id=channel_id)
