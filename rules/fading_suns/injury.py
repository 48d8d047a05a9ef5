"""Wounds: final damage against Size, each location's effects, effect rolls against 2xEND, STUMBLE/FUMBLE."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from rules.errors import no_room_for_a_wound
from rules.fading_suns.catalog import CHECK_ROLLS, Location, Weapon
from rules.fading_suns.character import MAX_LIST, Character, Decision, PendingRoll, WoundState
from rules.fading_suns.context import Ctx
from rules.fading_suns.goals import Goal, goal_roll, penalties, report, situational
from rules.fading_suns.outcomes import Aftermath, Check, DeathDecision, EffectRoll, GoalRoll, PendingNote

DEATH_OPTIONS = ("death", "unconscious")


@dataclass
class SideLog:
    """What befell one character (``who``: attacker or defender) during an action, gathered as the rules run;
    ``aftermath`` makes the outcome's record of it."""

    who: str
    hand: str | None = None  # the weapon this action uses, which a FUMBLE concerns; None: the first in hand
    effect_roll: EffectRoll | None = None
    effect: str = "none"
    checks: list[Check] = field(default_factory=list)
    conditions_added: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    pending: list[PendingNote] = field(default_factory=list)
    decision: DeathDecision | None = None

    def note_conditions(self, before: Character, after: Character) -> None:
        for condition in after.conditions:
            if condition not in before.conditions and condition not in self.conditions_added:
                self.conditions_added.append(condition)


def aftermath(ctx: Ctx, sides: list[SideLog], target: SideLog, target_char: Character) -> Aftermath:
    """Every side's log as the outcome's record; the effect and wound checks are the target's."""
    wound_checks = [c for c in target.checks if c.cause == "wound"]
    decisions = [a.decision for a in (target, *sides) if a.decision is not None]
    return Aftermath(
        effect_roll=target.effect_roll,
        effect=target.effect,
        stumble_roll=next((c for c in wound_checks if c.check == "stumble"), None),
        fumble_roll=next((c for c in wound_checks if c.check == "fumble"), None),
        checks=tuple(c for a in sides for c in a.checks),
        conditions={a.who: tuple(a.conditions_added) for a in sides},
        dropped={a.who: tuple(a.dropped) for a in sides},
        pending_rolls=tuple(p for a in sides for p in a.pending),
        gm_decision=decisions[0] if decisions else None,
        penalties=penalties(target_char, ctx.catalog),
    )


def pending_note(pending: PendingRoll, who: str | None = None) -> PendingNote:
    return PendingNote(id=pending.id, kind=pending.kind, column=pending.column, wound=pending.wound,
                       cause=pending.cause, weapon=pending.weapon, who=who)


def in_hand(char: Character, after: SideLog) -> Weapon | None:
    """The weapon a FUMBLE concerns: the one the action uses if the sheet holds it still, else none;
    outside an armed action, the first weapon still in hand."""
    ready = char.ready_weapons()
    if after.hand is None:
        return ready[0] if ready else None
    return next((w for w in ready if w.name == after.hand), None)


def apply_consequences(char: Character, consequences: tuple[str, ...], after: SideLog) -> Character:
    """prone / stunned / unconscious (which also lays one prone) / drop_weapon (the weapon in hand)."""
    before = char
    for consequence in consequences:
        if consequence == "drop_weapon":
            weapon = in_hand(char, after)
            if weapon is not None:
                char = dataclasses.replace(char, dropped=(*char.dropped, weapon.name))
                after.dropped.append(weapon.name)
        elif consequence == "unconscious":
            char = char.with_conditions(("unconscious", "prone"))
        else:
            char = char.with_conditions((consequence,))
    after.note_conditions(before, char)
    return char


def apply_effect(ctx: Ctx, char: Character, effect: str, wound: int | None, after: SideLog) -> Character:
    """An effect-table result on the sheet: stun, unconsciousness, or death (or dying, for the GM to decide)."""
    before = char
    if effect == "stun":
        char = char.with_conditions(("stunned",))
    elif effect == "unconscious":
        char = char.with_conditions(("unconscious", "prone"))
    elif effect == "death":
        if ctx.rulings.gm_confirms_death:
            char = char.with_conditions(("dying",))
            decision = Decision("death", DEATH_OPTIONS, wound)
            char = dataclasses.replace(char, decision=decision)
            after.decision = DeathDecision(kind="death", who=after.who, options=DEATH_OPTIONS, wound=wound)
        else:
            char = char.with_conditions(("dead",), ("dying",))
    after.effect = effect
    after.note_conditions(before, char)
    return char


def effect_goal(ctx: Ctx, char: Character) -> Goal:
    """Effect rolls are made against 2 x END (wound penalties only with effect_roll_penalties)."""
    cat = ctx.catalog
    name = f"{cat.effect_characteristic} x{cat.effect_times}"
    return Goal(((name, char.char(cat.effect_characteristic) * cat.effect_times),)).plus(
        *situational(char, cat, ctx.rulings, "effect")
    )


def run_effect(ctx: Ctx, char: Character, column: str, wound: int | None, after: SideLog) -> Character:
    goal = effect_goal(ctx, char)
    roll = goal_roll(ctx.dice, "effect", goal, ctx.catalog)
    assert roll.result is not None
    effect = ctx.catalog.effect(column, roll.result)
    after.effect_roll = EffectRoll(roll=report(roll, goal), column=column, wound=wound, effect=effect)
    return apply_effect(ctx, char, effect, wound, after)


def check_goal(ctx: Ctx, char: Character, name: str, after: SideLog) -> Goal | None:
    """A STUMBLE or FUMBLE goal; None for a FUMBLE with nothing in hand to drop."""
    check = ctx.catalog.check(name)
    skill = check.skill
    if skill == "weapon":
        weapon = in_hand(char, after)
        if weapon is None:
            return None
        skill = weapon.skill
    goal = Goal(((check.characteristic, char.char(check.characteristic)), (skill, char.skill(skill, ctx.catalog))))
    return goal.plus(*situational(char, ctx.catalog, ctx.rulings, name, (check.characteristic, skill)))


def run_check(ctx: Ctx, char: Character, name: str, wound: int | None, after: SideLog, cause: str) -> Character:
    """A STUMBLE or FUMBLE roll, rolled under its own label; ``cause`` says what called for it."""
    goal = check_goal(ctx, char, name, after)
    if goal is None:
        after.checks.append(Check(who=after.who, check=name, cause=cause, wound=wound, roll=GoalRoll(),
                                  note="nothing in hand"))
        return char
    roll = goal_roll(ctx.dice, name, goal, ctx.catalog)
    assert roll.result is not None
    consequences = ctx.catalog.check(name).consequences(roll.result)
    after.checks.append(Check(who=after.who, check=name, cause=cause, wound=wound, roll=report(roll, goal),
                              consequences=tuple(consequences)))
    return apply_consequences(char, consequences, after)


def wound_roll(ctx: Ctx, char: Character, kind: str, wound: int | None, after: SideLog,
               cause: str = "wound") -> Character:
    """The roll a wound (or a fumbled attack) calls for: made now, or queued for the GM when auto_rolls is off."""
    if kind == "none":
        return char
    if not ctx.rulings.auto_rolls:
        pending = PendingRoll(
            id=char.next_pending_id(),
            kind=kind if kind in CHECK_ROLLS else "effect",
            column=None if kind in CHECK_ROLLS else kind,
            wound=wound,
            cause=cause,
            weapon=after.hand if kind == "fumble" else None,
        )
        after.pending.append(pending_note(pending, after.who))
        if kind not in CHECK_ROLLS:
            after.effect = "pending"
        return dataclasses.replace(char, pending=(*char.pending, pending))
    with ctx.dice.rolling_for(after.who):  # the wounded (or fumbling) side's roll: its own typed faces
        if kind in CHECK_ROLLS:
            return run_check(ctx, char, kind, wound, after, cause)
        return run_effect(ctx, char, kind, wound, after)


def classify(ctx: Ctx, damage: int, size: int) -> str | None:
    severity = ctx.catalog.classify(damage, size)
    return None if severity is None else severity.name


def apply_hit(ctx: Ctx, char: Character, location: Location, damage: int, damage_type: str | None,
              after: SideLog) -> tuple[Character, WoundState | None]:
    """Final damage against the target's Size at one location: the wound, its automatic effects, its roll."""
    severity = classify(ctx, damage, char.size)
    if severity is None:
        return char, None
    if len(char.wounds) >= MAX_LIST:
        raise no_room_for_a_wound(char.name, MAX_LIST)
    wound = WoundState(index=char.next_wound_index(), location=location.name, severity=severity,
                       damage=damage, type=damage_type)
    char = dataclasses.replace(char, wounds=(*char.wounds, wound))
    effect = location.wound_effect(severity)
    char = apply_consequences(char, effect.conditions, after)
    char = wound_roll(ctx, char, effect.roll, wound.index, after)
    return char, wound


def resolve_pending(ctx: Ctx, char: Character, pending: PendingRoll, after: SideLog) -> Character:
    """Make a queued roll now (whatever auto_rolls says) and take it off the sheet."""
    char = dataclasses.replace(char, pending=tuple(p for p in char.pending if p.id != pending.id))
    if pending.weapon is not None:
        after.hand = pending.weapon
    if pending.kind == "effect":
        assert pending.column is not None
        return run_effect(ctx, char, pending.column, pending.wound, after)
    return run_check(ctx, char, pending.kind, pending.wound, after, pending.cause)
