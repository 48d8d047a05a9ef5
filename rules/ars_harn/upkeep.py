"""Actions on one character's state: shock and kill rolls, GM decisions, Tactical Advantage,
standing up, readying a weapon, fatigue, conditions and GM-inflicted wounds."""

from __future__ import annotations

from dataclasses import replace

from rules.ars_harn.arms import arm_usable, find_on_sheet, ready, unequip
from rules.ars_harn.catalog import DAMAGE_TYPES
from rules.ars_harn.character import CONDITIONS, HAND_ROLES, HANDS, Character
from rules.ars_harn.context import Ctx
from rules.ars_harn.injury import NewInjury, check, inflict, roll_kill, roll_shock
from rules.ars_harn.options import Options
from rules.ars_harn.outcomes import (
    AdvantageOutcome,
    ConditionOutcome,
    FatigueOutcome,
    GmDecisionOutcome,
    Held,
    InflictOutcome,
    KillOutcome,
    ReadyOutcome,
    ShockOutcome,
    UnequipOutcome,
)
from rules.ars_harn.totals import common_penalty, encumbrance
from rules.errors import IllegalAction, RulesError

ADVANTAGE_USES = ("pick_up", "switch", "stand_up", "fast_cast")


def shock(ctx: Ctx, action: Options, c: Character) -> tuple[ShockOutcome, Character]:
    """A Shock roll owed (auto_rolls off) or a later round's re-roll to snap out of shock."""
    pending = any(p.get("kind") == "shock" for p in c.pending_rolls)
    if not pending and not c.has("shock"):
        raise IllegalAction(f"{c.name} is not in shock and owes no Shock roll")
    if c.has("dead"):
        raise IllegalAction(f"{c.name} is dead")
    was_in_shock = c.has("shock")
    c, result = roll_shock(ctx, c)
    if result.passed and was_in_shock:
        c = c.with_condition("shock", False)
    return ShockOutcome(shock=result, in_shock=c.has("shock"), conditions=c.conditions,
                        injury_levels=c.injury_levels), c


def kill(ctx: Ctx, action: Options, c: Character, who: str) -> tuple[KillOutcome, Character]:
    owed = next((p for p in c.pending_rolls if p.get("kind") == "kill"), None)
    if owed is None:
        raise IllegalAction(f"{c.name} owes no Kill roll")
    c, result, decision = roll_kill(ctx, c, int(owed["wound"]), int(owed["ease_factor"]), who)
    if not result.passed:
        c = replace(c, pending_rolls=tuple(p for p in c.pending_rolls if p.get("kind") != "shock"))
    return KillOutcome(kill=result, gm_decision=decision, conditions=c.conditions, injury_levels=c.injury_levels), c


def gm_decide(ctx: Ctx, action: Options, c: Character) -> tuple[GmDecisionOutcome, Character]:
    decision = action.choice("decision", ("death", "incapacitation"), None)
    if decision is None:
        raise RulesError("action 'gm_decide': option 'decision' must be death or incapacitation")
    if c.pending_decision is None:
        raise IllegalAction(f"no decision is pending for {c.name}")
    c = replace(c, pending_decision=None)
    if decision == "death":
        # dead, not also incapacitated (the failed Kill roll set that while the GM decided)
        c = replace(c.with_condition("incapacitated", False).with_condition("dead"), pending_rolls=())
    else:
        c = c.with_condition("incapacitated")
    return GmDecisionOutcome(decision=decision, conditions=c.conditions), c


def use_advantage(ctx: Ctx, action: Options, c: Character) -> tuple[AdvantageOutcome, Character]:
    """Seed: pick up a weapon, switch weapons, stand up or fast-cast; never a second attack."""
    use = action.choice("use", (*ADVANTAGE_USES, "attack"), None)
    if use is None:
        raise RulesError(f"action 'tactical_advantage': option 'use' must be one of {', '.join(ADVANTAGE_USES)}")
    if use == "attack":
        raise IllegalAction("a Tactical Advantage may never be used for a second attack")
    if not c.tactical_advantage:
        raise IllegalAction(f"{c.name} has no Tactical Advantage to use")
    why = c.incapable()
    if why is not None:
        raise IllegalAction(f"{c.name} cannot act while {why}")
    weapon = None
    if use in ("pick_up", "switch"):
        c, weapon = take_weapon(action, c, picking_up=use == "pick_up")
    elif use == "stand_up":
        if not c.has("prone"):
            raise IllegalAction(f"{c.name} is not prone")
        c = c.with_condition("prone", False)
    # fast_cast: the spell itself is a separate 'cast' action, reacted to normally
    c = replace(c, tactical_advantage=False)
    return AdvantageOutcome(use=use, weapon=weapon, fast_cast=use == "fast_cast", conditions=c.conditions,
                            held=Held(*c.held)), c


def take_weapon(action: Options, c: Character, picking_up: bool | None) -> tuple[Character, str]:
    spec = action.name_or_index("weapon")
    if spec is None:
        raise RulesError(f"action '{action.type}': option 'weapon' is needed")
    index = find_on_sheet(c, spec)
    if index is None:
        raise IllegalAction(f"{c.name} does not carry a weapon '{spec}'")
    on_ground = index in c.dropped
    if picking_up is True and not on_ground:
        raise IllegalAction(f"{c.name}'s {c.weapons[index].name} is not on the ground")
    if picking_up is False and on_ground:
        raise IllegalAction(f"{c.name}'s {c.weapons[index].name} is on the ground: pick it up instead")
    hand = hand_option(action, c)
    c = replace(c, dropped=tuple(i for i in c.dropped if i != index))
    held = ready(c, index, hand)
    return replace(c, held=held), c.weapons[index].name


def hand_option(action: Options, c: Character) -> str:
    """Option 'hand': right or left, main or off (the main hand is the right: docs/rules/ars-harn.md); not
    given, the main hand while its arm is usable, else the off hand."""
    hand = action.choice("hand", (*HANDS, *HAND_ROLES), None)
    if hand is not None:
        return HAND_ROLES.get(hand, hand)
    return next((h for h in HANDS if arm_usable(c, h)), HANDS[0])


def ready_weapon(ctx: Ctx, action: Options, c: Character) -> tuple[ReadyOutcome, Character]:
    """A round's action: draw, switch to, or pick up a weapon (the Tactical Advantage does it for free);
    ``free``: between fights, when it costs nothing."""
    why = c.incapable()
    if why is not None and not (action.flag("free", False) and why == "in shock"):
        raise IllegalAction(f"{c.name} cannot act while {why}")
    c, name = take_weapon(action, c, picking_up=None)
    return ReadyOutcome(weapon=name, held=Held(*c.held)), c


def fatigue(ctx: Ctx, action: Options, c: Character) -> tuple[FatigueOutcome, Character]:
    """Lose or regain fatigue levels as the GM says, or make a Fatigue roll (failure: one level)."""
    last = len(ctx.catalog.numbers.fatigue_levels) - 1
    result = None
    change = action.integer("change", 0, low=-last, high=last)
    if action.flag("roll", False):
        if action.has("change"):
            raise RulesError("action 'fatigue': give 'change' or 'roll', not both")
        ease = action.integer("ease_factor", ctx.catalog.numbers.ease_factors["fatigue"], low=0, high=100)
        parts = {"sta": c.char("sta"), **common_penalty(c, ctx.catalog), "bleeding": -c.bleeding_wounds,
                 "encumbrance": -encumbrance(c, ctx.catalog), "virtues_flaws": c.vf_mod("fatigue"),
                 "modifier": action.integer("modifier", 0)}
        result = check(ctx, "fatigue", sum(parts.values()), ease, parts)
        change = 0 if result.passed else 1
    elif action.has("ease_factor") or action.has("modifier"):
        raise RulesError("action 'fatigue': 'ease_factor' and 'modifier' go with 'roll: true'")
    level = max(0, min(last, c.fatigue + change))
    c = replace(c, fatigue=level)
    c = c.with_condition("unconscious", level == last) if (level == last or c.has("unconscious")) else c
    name = ctx.catalog.fatigue_level(level).name
    return FatigueOutcome(fatigue_roll=result, change=change, fatigue=level, fatigue_level=name,
                          conditions=c.conditions), c


def set_conditions(ctx: Ctx, action: Options, c: Character) -> tuple[ConditionOutcome, Character]:
    """The GM's word: add or remove conditions (shock, prone, unconscious, incapacitated, dead)."""
    for key in ("add", "remove"):
        value = action.action.get(key)
        items = [] if value is None else [value] if isinstance(value, str) else value
        if not isinstance(items, list):
            raise RulesError(f"action 'condition': option '{key}' must be a condition or a list of them")
        for item in items:
            if item not in CONDITIONS:
                raise IllegalAction(f"'{item}' is not an ars-harn condition (conditions: {', '.join(CONDITIONS)})")
            c = c.with_condition(item, key == "add")
    if not c.has("incapacitated") and not c.has("dead"):
        c = replace(c, pending_decision=None)
    return ConditionOutcome(conditions=c.conditions), c


def gm_wound(ctx: Ctx, action: Options, c: Character, who: str) -> tuple[InflictOutcome, Character]:
    """The GM inflicts a wound by code (S3) or by Effective Impact at a location (the table's result)."""
    if c.has("dead"):
        raise IllegalAction(f"{c.name} is dead")
    name = action.text("location", None)
    if name is None:
        raise RulesError("action 'inflict': option 'location' is needed")
    location = ctx.catalog.location(name)
    side = action.side(location)
    aspect = action.choice("aspect", DAMAGE_TYPES, "blunt") or "blunt"
    code_text = action.text("code", None)
    band = None
    if code_text is not None:
        if action.has("effective_impact"):
            raise RulesError("action 'inflict': give 'code' or 'effective_impact', not both")
        code = code_text.upper()
        if len(code) != 2 or code[0] not in "MSGK" or code[1] not in "12345":
            raise RulesError(f"action 'inflict': option 'code' must be like M1, S3, G4 or K5, not '{code_text}'")
    else:
        impact = action.integer("effective_impact", 0, low=0, high=1000)
        found = ctx.catalog.injury_code(location, impact)
        if found is None:
            return InflictOutcome(effective_impact=impact, injury_levels=c.injury_levels), c
        code, band = found, ctx.catalog.band_index(impact)
    bleeding = action.action.get("bleeding")
    if bleeding is not None and not isinstance(bleeding, bool):
        raise RulesError("action 'inflict': option 'bleeding' must be true or false")
    new = NewInjury(location=location, side=side, aspect=aspect, code=code, source="gm", band=band,
                    bleeding=bleeding)
    c, wounding = inflict(ctx, c, new, who)
    return InflictOutcome(location=location.key, side=side, wounding=wounding, injury_levels=c.injury_levels,
                          conditions=c.conditions), c


def unequip_item(ctx: Ctx, action: Options, c: Character) -> tuple[UnequipOutcome, Character]:
    """An owner's edit: a weapon or armour piece taken off the sheet (the others keep their state)."""
    kind = action.choice("kind", ("weapon", "armour"), None)
    item = action.text("item", None)
    if kind is None or item is None:
        raise RulesError("action 'unequip' needs 'kind' (weapon or armour) and 'item'")
    c, removed = unequip(c, kind, item)
    return UnequipOutcome(kind=kind, removed=removed), c
