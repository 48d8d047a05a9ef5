"""Spells that wound: damaging spells (aim, Targeting, location, Effective Impact) and Body Levels."""

from __future__ import annotations

from dataclasses import replace

from rules.ars_harn.catalog import AIMS, DAMAGE_TYPES
from rules.ars_harn.character import Character
from rules.ars_harn.combat import combat_roll, land
from rules.ars_harn.context import Ctx
from rules.ars_harn.injury import NewInjury, inflict
from rules.ars_harn.options import Options
from rules.ars_harn.outcomes import Blow, CastOutcome, Check
from rules.ars_harn.totals import common_penalty
from rules.errors import IllegalAction, RulesError

CAST_OPTIONS = ("spell", "damage", "damage_type", "aim", "ease_factor", "modifier", "body_levels", "location",
                "side", "bleeding")


def cast(ctx: Ctx, action: Options, caster: Character, target: Character
         ) -> tuple[CastOutcome, Character, Character]:
    why = caster.incapable()
    if why is not None:
        raise IllegalAction(f"{caster.name} cannot cast while {why}")
    if target.has("dead"):
        raise IllegalAction(f"{target.name} is already dead")
    spell = action.text("spell", None)
    if action.has("body_levels") == action.has("damage"):
        raise RulesError("action 'cast': give either 'damage' (a damaging spell) or 'body_levels'")
    if action.has("body_levels"):
        out, target = body_levels(ctx, action, target)
    else:
        out, target = damaging(ctx, action, caster, target)
    out = replace(out, spell=spell, injury_levels=target.injury_levels, conditions=target.conditions)
    return out, caster, target


def damaging(ctx: Ctx, action: Options, caster: Character, target: Character) -> tuple[CastOutcome, Character]:
    """Seed: aim declared with its penalty before Targeting; on success, location and Effective Impact."""
    for key in ("location", "side", "bleeding"):
        if action.has(key):
            raise RulesError(f"action 'cast': option '{key}' is only for Body Level spells")
    damage = action.integer("damage", 0, low=0, high=500)
    damage_type = action.choice("damage_type", DAMAGE_TYPES, None)
    if damage_type is None:
        raise RulesError("action 'cast': a damaging spell needs 'damage_type' (blunt, edge, point or fire)")
    aim = action.choice("aim", AIMS, "mid") or "mid"
    ease = action.integer("ease_factor", ctx.rulings.targeting_ease_factor, low=0, high=100)
    parts = {"per": caster.char("per"), "finesse": caster.ability("Finesse"), "aim": ctx.catalog.aim_modifiers[aim],
             **common_penalty(caster, ctx.catalog), "virtues_flaws": caster.vf_mod("targeting"),
             "modifier": action.integer("modifier", 0)}
    total, die, botched = combat_roll(ctx, "targeting", parts)
    passed = total >= ease and not botched
    out = CastOutcome(kind="damage", aspect=damage_type, aim=aim, declared_aim=aim, hit=passed,
                      targeting=Check(total=total, ease_factor=ease, passed=passed, botched=botched, die=die.total,
                                      modifiers=parts))
    if passed:
        blow, wounding, target = land(ctx, target, damage, damage_type, aim, "spell")
        out = replace(out, blow=replace(blow, damage_base=0), wounding=wounding)
    return out, target


def body_levels(ctx: Ctx, action: Options, target: Character) -> tuple[CastOutcome, Character]:
    """Seed: a thorax strike unless another part makes more sense; 1 = S2, 2 = S3, 3 = G4, 4+ = K5."""
    for key in ("damage", "aim", "ease_factor", "modifier"):
        if action.has(key):
            raise RulesError(f"action 'cast': option '{key}' is only for damaging spells")
    count = action.integer("body_levels", 1, low=1, high=100)
    numbers = ctx.catalog.numbers
    eligible = [wound for levels, wound in numbers.body_level_wounds if count >= levels]
    code = eligible[-1] if eligible else None
    name = action.text("location", None)
    location = ctx.catalog.location(name) if name else ctx.catalog.location(numbers.body_level_location)
    side = action.side(location)
    damage_type = action.choice("damage_type", DAMAGE_TYPES, "blunt") or "blunt"
    out = CastOutcome(kind="body_levels", body_levels=count, aspect=damage_type, hit=True,
                      blow=Blow(location=location.key, side=side))
    if code is None:
        return out, target
    new = NewInjury(location=location, side=side, aspect=damage_type, code=code, source="spell",
                    bleeding=action.flag("bleeding", False))
    target, wounding = inflict(ctx, target, new, "defender")
    return replace(out, wounding=wounding), target
