"""Between blows and between sessions: pending GM rolls, GM decisions, treatment, rest and recovery."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from rules.errors import IllegalAction, RulesError, UnknownEntry
from rules.fading_suns.catalog import FadingSunsCatalog
from rules.fading_suns.character import Character, WoundState
from rules.fading_suns.context import Ctx
from rules.fading_suns.goals import Goal, goal_roll, parse_modifiers, penalties, report, situational
from rules.fading_suns.injury import SideLog, aftermath, pending_note, resolve_pending, run_check, run_effect
from rules.fading_suns.outcomes import (
    EffectOutcome,
    GmDecideOutcome,
    HealOutcome,
    HealStep,
    RecoverOutcome,
    RestOutcome,
    UnequipOutcome,
    WoundNote,
)

RECOVERABLE = ("stunned", "prone", "unconscious", "disarmed")
MAX_DAYS = 3650


def _int_option(action: Mapping[str, Any], key: str, low: int, high: int, default: int | None = None) -> int:
    value = action.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RulesError(f"action: {key} must be a whole number from {low} to {high}, not {value!r}")
    return value


def effect(ctx: Ctx, char: Character, action: Mapping[str, Any]) -> tuple[EffectOutcome, Character]:
    """A roll the GM makes: the sheet's next pending roll (or the one with id ``pending``), or an ad-hoc
    roll named by ``column`` (an effect-table column, stumble or fumble)."""
    if char.has("dead"):
        raise IllegalAction(f"attacker ({char.name}) is dead")
    after = SideLog("attacker")
    column = action.get("column")
    chosen = None
    if column is not None:
        columns = tuple(c for c, _ in ctx.catalog.effect_columns)
        checks = tuple(c.name for c in ctx.catalog.checks)
        if column not in columns + checks:
            raise RulesError(f"action: column must be one of {', '.join(columns + checks)}, not {column!r}")
        if column in checks:
            char = run_check(ctx, char, str(column), None, after, "wound")
        else:
            char = run_effect(ctx, char, str(column), None, after)
    else:
        if not char.pending:
            raise IllegalAction(f"attacker ({char.name}) has no pending roll")
        wanted = action.get("pending")
        if wanted is None:
            chosen = char.pending[0]
        else:
            pid = _int_option(action, "pending", 1, 100_000)
            chosen = next((p for p in char.pending if p.id == pid), None)
            if chosen is None:
                ids = ", ".join(str(p.id) for p in char.pending)
                raise UnknownEntry(f"attacker ({char.name}) has no pending roll {pid} (pending: {ids})")
        char = resolve_pending(ctx, char, chosen, after)
    # the roll's checks whatever called for them (a fumbled attack's FUMBLE too); the rolls the sheet still owes
    record = aftermath(ctx, [after], after, char)
    stumble = next((c for c in after.checks if c.check == "stumble"), None)
    fumble = next((c for c in after.checks if c.check == "fumble"), None)
    record = dataclasses.replace(record, stumble_roll=stumble, fumble_roll=fumble,
                                 pending_rolls=tuple(pending_note(p) for p in char.pending))
    outcome = EffectOutcome(character=char.name, resolved=None if chosen is None else pending_note(chosen),
                            after=record)
    return outcome, char


def gm_decide(ctx: Ctx, char: Character, action: Mapping[str, Any], who: str) -> tuple[GmDecideOutcome, Character]:
    """Apply the GM's choice to the sheet's pending decision (death: death or unconsciousness)."""
    decision = char.decision
    if decision is None:
        raise IllegalAction(f"{who} ({char.name}) has no decision waiting for the GM")
    choice = action.get("choice")
    if choice not in decision.options:
        raise RulesError(f"action: choice must be one of {', '.join(decision.options)}, not {choice!r}")
    if choice == "death":
        char = char.with_conditions(("dead",), ("dying",))
    else:
        char = char.with_conditions(("unconscious", "prone"), ("dying",))
    char = dataclasses.replace(char, decision=None)
    outcome = GmDecideOutcome(who=who, character=char.name, decision=decision.kind, choice=str(choice),
                              wound=decision.wound, conditions=char.conditions, penalties=penalties(char, ctx.catalog))
    return outcome, char


def _step_down(ctx: Ctx, wound: WoundState) -> WoundState | None:
    names = ctx.catalog.severity_names()
    at = names.index(wound.severity)
    if at == 0:
        return None
    return dataclasses.replace(wound, severity=names[at - 1])


def heal_days(ctx: Ctx, wound: WoundState) -> int | None:
    return heal_days_in(ctx.catalog, wound)


def heal_days_in(catalog: FadingSunsCatalog, wound: WoundState) -> int | None:
    """The days of rest ``wound`` needs to step down a severity (None: it does not heal by rest)."""
    severity = catalog.severity(wound.severity)
    return severity.treated_heal_days if wound.treated else severity.heal_days


def rest(ctx: Ctx, char: Character, action: Mapping[str, Any]) -> tuple[RestOutcome, Character]:
    """Days of rest: each wound gains the days; when they reach its severity's healing time it steps down
    one severity (a minor wound heals). Rest also ends stun, unconsciousness and lying prone."""
    if char.has("dead") or char.has("dying"):
        raise IllegalAction(f"attacker ({char.name}) is {'dead' if char.has('dead') else 'dying'}")
    days = _int_option(action, "days", 1, MAX_DAYS, 1)
    healed: list[HealStep] = []
    wounds: list[WoundState] = []
    for wound in char.wounds:
        current: WoundState | None = dataclasses.replace(wound, progress=wound.progress + days)
        while current is not None:
            needed = heal_days(ctx, current)
            if needed is None or current.progress < needed:
                break
            after = _step_down(ctx, dataclasses.replace(current, progress=current.progress - needed))
            healed.append(HealStep(wound=wound.index, from_=current.severity,
                                   to=None if after is None else after.severity,
                                   day=days - (current.progress - needed)))
            current = after
        if current is not None:
            if heal_days(ctx, current) is None:
                current = dataclasses.replace(current, progress=0)
            wounds.append(current)
    before = char.conditions
    char = dataclasses.replace(char, wounds=tuple(wounds)).with_conditions((), ("stunned", "unconscious", "prone"))
    outcome = RestOutcome(character=char.name, days=days, healed=tuple(healed),
                          wounds=tuple(WoundNote(**w.to_dict()) for w in char.wounds),
                          conditions_cleared=tuple(c for c in before if c not in char.conditions),
                          penalties=penalties(char, ctx.catalog))
    return outcome, char


def _worst_untreated(ctx: Ctx, patient: Character) -> WoundState | None:
    names = ctx.catalog.severity_names()
    untreated = [w for w in patient.wounds if not w.treated]
    if not untreated:
        return None
    return max(untreated, key=lambda w: (names.index(w.severity), -w.index))


def heal(ctx: Ctx, healer: Character, patient: Character | None,
         action: Mapping[str, Any]) -> tuple[HealOutcome, Character, Character | None]:
    """A healer (the attacker) treats one wound of the patient (the defender; none: the healer's own) with a
    goal roll of Wits + the healing skill. Success marks it treated (it heals faster, and a crippled wound
    can mend at all) and credits days per victory point; a critical failure loses its healing progress."""
    healing = ctx.catalog.healing
    for condition in ("dead", "dying", "unconscious", "stunned"):
        if healer.has(condition):
            raise IllegalAction(f"attacker ({healer.name}) is {condition} and cannot treat wounds")
    self_treatment = patient is None
    target = healer if patient is None else patient
    if target.has("dead"):
        raise IllegalAction(f"defender ({target.name}) is dead")
    skill = action.get("skill", healing.default_skill)
    treats = healing.treats(skill) if isinstance(skill, str) else None
    if treats is None:
        known = ", ".join(name for name, _ in healing.skills)
        raise RulesError(f"action: skill must be one of {known}, not {skill!r}")
    if action.get("wound") is None:
        wound = _worst_untreated(ctx, target)
        if wound is None:
            raise IllegalAction(f"{target.name} has no untreated wound")
    else:
        index = _int_option(action, "wound", 1, 100_000)
        found = target.wound(index)
        if found is None:
            raise UnknownEntry(f"{target.name} has no wound {index}")
        wound = found
    if wound.treated:
        raise IllegalAction(f"{target.name}'s wound {wound.index} has already been treated")
    if wound.severity not in treats:
        raise IllegalAction(f"{skill} cannot treat a {wound.severity} wound")
    modifiers = parse_modifiers(action.get("modifiers"), "modifiers")
    goal = Goal(((healing.characteristic, healer.char(healing.characteristic)),
                 (skill, healer.skill(skill, ctx.catalog)))).plus(
        ("modifiers", modifiers), ("self_treatment", healing.self_treatment if self_treatment else 0),
        *situational(healer, ctx.catalog, ctx.rulings, "heal", (healing.characteristic, skill)),
    )
    roll = goal_roll(ctx.dice, "heal", goal, ctx.catalog)
    rep = report(roll, goal)
    updated = wound
    credited = 0
    if rep.success:
        credited = rep.victory_points * healing.days_per_victory_point
        updated = dataclasses.replace(wound, treated=True, progress=wound.progress + credited)
    elif roll.result == "critical_failure":
        updated = dataclasses.replace(wound, progress=0)
    target = dataclasses.replace(target, wounds=tuple(updated if w.index == wound.index else w
                                                      for w in target.wounds))
    outcome = HealOutcome(healer=healer.name, patient=target.name, skill=skill, wound=wound.index,
                          severity=wound.severity, heal_roll=rep, treated=updated.treated, days_credited=credited,
                          progress=updated.progress, penalties=penalties(target, ctx.catalog))
    if patient is None:
        return outcome, target, None
    return outcome, healer, target


def recover(ctx: Ctx, char: Character, action: Mapping[str, Any]) -> tuple[RecoverOutcome, Character]:
    """Book-keeping between turns: shake off a stun, stand up, come round, or pick up dropped weapons."""
    condition = action.get("condition")
    if condition not in RECOVERABLE:
        raise RulesError(f"action: condition must be one of {', '.join(RECOVERABLE)}, not {condition!r}")
    if char.has("dead") or char.has("dying"):
        raise IllegalAction(f"attacker ({char.name}) is {'dead' if char.has('dead') else 'dying'}")
    picked: list[str] = []
    if condition == "disarmed":
        weapon = action.get("weapon")
        if weapon is None:
            picked = list(char.dropped)
            char = dataclasses.replace(char, dropped=())
        else:
            if weapon not in char.dropped:
                raise IllegalAction(f"attacker ({char.name}) has not dropped {weapon!r}")
            rest_of = list(char.dropped)
            rest_of.remove(weapon)
            picked = [str(weapon)]
            char = dataclasses.replace(char, dropped=tuple(rest_of))
        cleared = []
    else:
        if condition == "prone" and char.has("unconscious"):
            raise IllegalAction(f"attacker ({char.name}) is unconscious and cannot stand")
        cleared = [condition] if char.has(condition) else []
        char = char.with_conditions((), (condition,))
    outcome = RecoverOutcome(character=char.name, condition=str(condition), cleared=tuple(cleared),
                             picked_up=tuple(picked), conditions=char.conditions,
                             penalties=penalties(char, ctx.catalog))
    return outcome, char


def unequip(ctx: Ctx, char: Character, action: Mapping[str, Any]) -> tuple[UnequipOutcome, Character]:
    """An owner's edit: a weapon or armour piece taken off the sheet; weapons on the ground stay only as many
    as the sheet still carries of that name."""
    kind, item = action.get("kind"), action.get("item")
    if kind not in ("weapon", "armour") or not isinstance(item, str) or not item.strip():
        raise RulesError("action: unequip needs kind (weapon or armour) and item (a name on the sheet)")
    wanted = item.strip().casefold()
    if kind == "armour":
        names = [piece.name for piece in char.armour]
        index = next((i for i, name in enumerate(names) if name.casefold() == wanted), None)
        if index is None:
            raise IllegalAction(f"attacker ({char.name}) wears no {item!r} (wears: {', '.join(names) or 'nothing'})")
        char = dataclasses.replace(char, armour=char.armour[:index] + char.armour[index + 1:],
                                   armour_entries=char.armour_entries[:index] + char.armour_entries[index + 1:])
        return UnequipOutcome(kind=kind, removed=names[index]), char
    names = [weapon.name for weapon in char.weapons]
    index = next((i for i, name in enumerate(names) if name.casefold() == wanted), None)
    if index is None:
        raise IllegalAction(f"attacker ({char.name}) carries no {item!r} (carries: {', '.join(names) or 'nothing'})")
    name = names[index]
    dropped = list(char.dropped)
    if dropped.count(name) > names.count(name) - 1:
        dropped.remove(name)
    char = dataclasses.replace(char, weapons=char.weapons[:index] + char.weapons[index + 1:],
                               weapon_entries=char.weapon_entries[:index] + char.weapon_entries[index + 1:],
                               dropped=tuple(dropped))
    return UnequipOutcome(kind=kind, removed=name), char
