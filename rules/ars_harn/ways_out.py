"""Every lasting state an ars-harn character can be put in, and what ends it (docs/rules/ars-harn.md, "Ways out").

The seed: a Tactical Advantage may "pick up a dropped weapon, switch weapons, get up from a prone position"; so
without one each takes the character's action for the round. Shock ends by the Shock re-roll "each round
thereafter". Unconsciousness and incapacitation are the GM's to end (or rest's).
"""

from __future__ import annotations

from dataclasses import replace

from rules.ars_harn.character import Character
from rules.ars_harn.context import Ctx
from rules.ars_harn.options import Options
from rules.ars_harn.outcomes import EndFightOutcome, RecoverOutcome
from rules.errors import IllegalAction
from rules.model import WayOut

RECOVERABLE = ("prone", "shock", "unconscious", "incapacitated")


def ways_out(c: Character, in_fight: bool) -> tuple[WayOut, ...]:
    if c.has("dead"):
        return ()
    out: list[WayOut] = []
    if c.has("shock"):
        out.append(WayOut("shock", {"type": "shock"}, "roll"))
    if c.has("prone"):
        if not in_fight:
            out.append(WayOut("prone", {"type": "recover", "condition": "prone", "free": True}, "free"))
        elif c.tactical_advantage:
            out.append(WayOut("prone", {"type": "tactical_advantage", "use": "stand_up"}, "advantage"))
        else:
            out.append(WayOut("prone", {"type": "recover", "condition": "prone"}, "action"))
    for condition in ("unconscious", "incapacitated"):
        if c.has(condition):
            out.append(WayOut(condition, {"type": "recover", "condition": condition}, "gm"))
    held = c.held_indices()
    for index, weapon in enumerate(c.weapons):
        if weapon.natural is not None or index in held:
            continue
        state = "dropped" if index in c.dropped else "not_in_hand"
        if not in_fight:
            out.append(WayOut(state, {"type": "ready", "weapon": index, "free": True}, "free", weapon.name))
        elif c.tactical_advantage:
            use = "pick_up" if state == "dropped" else "switch"
            out.append(WayOut(state, {"type": "tactical_advantage", "use": use, "weapon": index}, "advantage",
                              weapon.name))
        else:
            out.append(WayOut(state, {"type": "ready", "weapon": index}, "action", weapon.name))
    return tuple(out)


def recover(ctx: Ctx, action: Options, c: Character) -> tuple[RecoverOutcome, Character]:
    """Get up from prone (a round's action; ``free`` between fights), or, the GM's word, come round from
    unconsciousness (fatigue back one level from Unconscious) or incapacitation."""
    condition = action.choice("condition", RECOVERABLE, "prone") or "prone"
    if condition == "shock":
        raise IllegalAction(f"{c.name} snaps out of shock with a Shock roll (the 'shock' action)")
    if c.has("dead"):
        raise IllegalAction(f"{c.name} is dead")
    if not c.has(condition):
        raise IllegalAction(f"{c.name} is not {condition}")
    if condition == "prone" and not action.flag("free", False):
        why = c.incapable()
        if why is not None:
            raise IllegalAction(f"{c.name} cannot act while {why}")
    c = c.with_condition(condition, False)
    if condition == "unconscious":
        last = len(ctx.catalog.numbers.fatigue_levels) - 1
        c = replace(c, fatigue=min(c.fatigue, last - 1))
    if condition == "incapacitated":
        c = replace(c, pending_decision=None)
    return RecoverOutcome(condition=condition, conditions=c.conditions), c


def end_fight(ctx: Ctx, action: Options, c: Character) -> tuple[EndFightOutcome, Character]:
    """What lasts only for a fight ends with it: the fallen who are awake get up, dropped weapons are gathered
    (unless the GM rules them lost: ruling ``weapons_gathered``), and the round's bookkeeping (Tactical Advantage, saved
    points, Initiative) is cleared. Wounds, shock, fatigue and unconsciousness stay."""
    # the unconscious, the incapacitated and the dead do not get up (issue 34, P4)
    down = any(c.has(state) for state in ("unconscious", "incapacitated", "dead"))
    ended = [condition for condition in ("prone",) if c.has(condition) and not down]
    gathered = [c.weapons[i].name for i in c.dropped] if ctx.rulings.weapons_gathered else []
    c = c.with_condition("prone", c.has("prone") and down)
    c = replace(c, tactical_advantage=False, saved_points=0, saved_rounds=0, initiative=None,
                dropped=() if ctx.rulings.weapons_gathered else c.dropped)
    return EndFightOutcome(ended=tuple(ended), gathered=tuple(gathered), conditions=c.conditions), c
