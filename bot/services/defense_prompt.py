"""The target's player chooses the defence (Fading Suns, ruling ``ask_defense``; issue 18).

An /attack on a player's character whose defence nobody named (not the attack, not the sheet's ``defense``,
no ``defense`` face typed) waits: the bot asks the target's player with buttons (dodge, parry, none), and
the attack is made when they (or the GM) answer, or when the time runs out, with the ``unnamed_defense``
ruling then; the answer says which. The waiting attack is an event (``defense_prompt``) holding the declared
action, so the buttons still work after a restart (the timer itself does not outlive the process).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db import repositories as repo
from bot.db.models import Character, Encounter, Event
from bot.errors import Conflict, NotFound, UserError
from bot.services import access
from bot.services.actions import ActionCall, combatant_named, dice_sides, record_event
from bot.services.actor import Actor
from bot.services.dice_option import side_dice
from bot.services.event_kinds import Answered, DefensePromptEvent
from bot.services.results import DefensePrompt
from bot.services.rulings import effective_rulings, scenario_rulings, stored_rulings
from bot.services.runtime import Runtime
from rules.dice import DiceSource
from rules.errors import RulesError
from rules.model import Catalog, Engine, Scenario

RULING = "ask_defense"
KIND = "defense_prompt"
NONE = "none"
TIMEOUT = "timeout"
SECONDS = 60.0  # how long an attack waits for the defender's player (Runtime.defense_prompt_seconds)


async def prompt_for(rt: Runtime, session: AsyncSession, actor: Actor, encounter: Encounter,
                     call: ActionCall) -> DefensePrompt | None:
    """A prompt to the target's player instead of the attack, or None: make the attack now."""
    engine = rt.engine(encounter.system)
    target = call.target
    if (call.kind != "attack" or target is None or target.npc or target.owner_id == actor.user_id
            or call.action.get("defense") is not None or target.sheet.get("defense") is not None
            or not any(s.name == RULING for s in engine.rulings)):
        return None
    guild = await repo.guild_settings(session, actor.guild_id)
    rulings = effective_rulings(engine, stored_rulings(guild, engine.system_id))
    forced = side_dice(call.dice_text, engine.roll_labels, engine.label_sides, dice_sides(actor, guild, call))
    if not rulings.get(RULING) or "defense" in forced:
        return None  # the ruling is off, or the defence die was rolled at the table (the ruling's defence then)
    catalog = await rt.catalogs.catalog_for(session, actor.guild_id, encounter.system)
    in_force = scenario_rulings(engine, guild)
    if not engine.turn_readiness(target.sheet, catalog, in_force).can_act:
        return None  # stunned, unconscious ...: no defence to choose
    tried = _tried(engine, catalog, call, forced, in_force)
    if tried is None:
        return None  # the attack is refused (a stunned attacker, a weapon not in hand): it says why itself
    if "attack" in forced and tried.get("defense_from") is None:
        return None  # the attack roll typed misses: nothing to defend against
    waiting = DefensePromptEvent(
        attacker_id=call.actor_character.id, attacker=call.actor_character.name, target_id=target.id,
        target=target.name, action=dict(call.action), dice=call.dice_text, out_of_turn=call.out_of_turn,
        encounter_id=encounter.id, asked_by=actor.user_id, asked_by_name=actor.user_name,
        fallback=str(rulings.get("unnamed_defense") or NONE))
    event = record_event(rt, session, actor, KIND, waiting, None, None)
    await session.flush()
    return view_of(rt, event, catalog, target)


def _tried(engine: Engine, catalog: Catalog, call: ActionCall, forced: Mapping[str, list[int]],
           rulings: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The attack's outcome as the engine would make it with the faces typed (the rest thrown away), or None
    when the engine refuses it: asking for a defence first would only delay that one line."""
    assert call.target is not None
    scenario = Scenario(system=engine.system_id, action=dict(call.action),
                        attacker=copy.deepcopy(call.actor_character.sheet), defender=copy.deepcopy(call.target.sheet),
                        rulings=dict(rulings))
    try:
        outcome = engine.resolve(scenario, DiceSource(forced, rng=random.Random(0)), catalog).to_dict()["outcome"]
    except RulesError:
        return None
    return outcome if isinstance(outcome, Mapping) else {}


def view_of(rt: Runtime, event: Event, catalog: Catalog, target: Character) -> DefensePrompt:
    waiting = DefensePromptEvent.from_dict(event.payload)
    choices = (*catalog.defense_names(), NONE)
    return DefensePrompt(event_id=event.id, attacker=waiting.attacker, target=target.name, weapon=waiting.weapon,
                         owner_id=target.owner_id, choices=choices, seconds=rt.defense_prompt_seconds,
                         fallback=waiting.fallback or NONE)


async def waiting_attack(rt: Runtime, session: AsyncSession, actor: Actor, event_id: int, choice: str | None
                         ) -> tuple[DefensePrompt, ActionCall, Actor, str]:
    """The attack a prompt holds, with the defence chosen (``choice`` None: the time ran out), as the one who
    declared it makes it; the prompt is closed. Returns the prompt, the call, that actor and who settled it."""
    if not 0 < event_id < 2**63:
        raise NotFound("that attack no longer waits")
    event = await session.get(Event, event_id, with_for_update=True)
    if event is None or event.guild_id != actor.guild_id or event.kind != KIND:
        raise NotFound("that attack no longer waits")
    waiting = DefensePromptEvent.from_dict(event.payload)
    answer = waiting.answered.answer
    if answer:
        done = "the time ran out" if answer == TIMEOUT else f"the defence was {answer}"
        raise Conflict(f"that attack was already made ({done})")
    attacker = (await session.get(Character, waiting.attacker_id, with_for_update=True)
                if waiting.attacker_id is not None else None)
    target = (await session.get(Character, waiting.target_id, with_for_update=True)
              if waiting.target_id is not None else None)
    encounter = await repo.active_encounter(session, event.channel_id, for_update=True)
    if (attacker is None or target is None or encounter is None or encounter.id != waiting.encounter_id
            or combatant_named(encounter, attacker.name) is None or combatant_named(encounter, target.name) is None):
        event.payload = replace(waiting, answered=Answered("void")).to_dict()
        raise NotFound("that attack no longer waits: the fight, or one of them, is gone")
    catalog = await rt.catalogs.catalog_for(session, actor.guild_id, encounter.system)
    prompt = view_of(rt, event, catalog, target)
    action = dict(waiting.action)
    if choice is None:
        by = TIMEOUT
    else:
        if choice not in prompt.choices:
            raise UserError(f"choose one of: {', '.join(prompt.choices)}")
        await access.require_control(session, actor, target, "choose their defence")
        by = "player" if target.owner_id == actor.user_id else "gm"
        action["defense"] = choice
    event.payload = replace(waiting, answered=Answered(TIMEOUT if choice is None else choice,
                                                       actor.user_id)).to_dict()
    declared = Actor(guild_id=event.guild_id, channel_id=event.channel_id, user_id=waiting.asked_by or 0,
                     user_name=waiting.asked_by_name or "?", interaction_id=actor.interaction_id)
    attacking = combatant_named(encounter, attacker.name)
    # the attack spends the attacker's action for the round when it is made
    call = ActionCall("attack", action, attacker, target, waiting.dice, out_of_turn=waiting.out_of_turn,
                      spends=(attacking, "attack") if attacking is not None else None)
    return prompt, call, declared, by
