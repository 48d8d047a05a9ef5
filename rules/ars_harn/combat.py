"""Initiative and the melee/missile exchange: separate Attack and Defense rolls, excess, damage."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules.ars_harn import saved_points
from rules.ars_harn.arms import attack_weapon, parrying_weapons
from rules.ars_harn.catalog import AIMS, ASPECTS
from rules.ars_harn.character import HAND_ROLES, HANDS, Character
from rules.ars_harn.context import Ctx
from rules.ars_harn.injury import NewInjury, inflict
from rules.ars_harn.options import Options
from rules.ars_harn.outcomes import AttackOutcome, Blow, InitiativeRoll, Wounding
from rules.ars_harn.totals import (
    armour_at,
    common_penalty,
    damage_base,
    encumbrance,
    physical_encumbrance,
    soak_base,
)
from rules.dice import Roll
from rules.errors import IllegalAction, RulesError

ATTACK_OPTIONS = ("weapon", "aspect", "aim", "brawl_aim", "modifier", "defense_modifier", "save_excess",
                  "use_saved", "range", "defense_weapon")

def combat_roll(ctx: Ctx, label: str, parts: dict[str, int]) -> tuple[int, Roll, bool]:
    """A stress die plus ``parts``; a botched combat roll counts as 0."""
    die = ctx.dice.stress(label, ctx.rulings.combat_botch_dice)
    botched = die.botches > 0
    return (0 if botched else die.total + sum(parts.values())), die, botched


def attack(ctx: Ctx, action: Options, attacker: Character, defender: Character
           ) -> tuple[AttackOutcome, Character, Character]:
    catalog, rulings = ctx.catalog, ctx.rulings
    why = attacker.incapable()
    if why is not None:
        raise IllegalAction(f"{attacker.name} cannot attack while {why}")
    if defender.has("dead"):
        raise IllegalAction(f"{defender.name} is already dead")
    chosen = attack_weapon(attacker, action.name_or_index("weapon"), catalog)
    weapon = chosen.weapon
    aspect = action.choice("aspect", ASPECTS, None)
    if aspect is None:
        # Not declared: the aspect that hits hardest (Edge, then Point, then Blunt on a tie).
        aspect = max(weapon.aspects(), key=lambda a: (weapon.damage[a] or 0, ("blunt", "point", "edge").index(a)))
    if not weapon.has(aspect):
        raise IllegalAction(f"the {weapon.name} has no {aspect.capitalize()} aspect "
                            f"(it has {', '.join(a.capitalize() for a in weapon.aspects())})")
    declared = action.choice("aim", AIMS, "mid") or "mid"
    aim = declared
    brawl_aim = action.choice("brawl_aim", AIMS, None)
    if brawl_aim is not None:
        if weapon.skill != "Brawling":
            raise IllegalAction("only a character switching to a Brawling attack at Touch range may change aim")
        aim = brawl_aim
    missile = weapon.missile is not None
    range_band = action.choice("range", catalog.range_bands, catalog.range_bands[0] if missile else None)
    if range_band is not None and not missile:
        raise RulesError(f"action 'attack': option 'range' is only for missile weapons, not the {weapon.name}")
    modifier = action.integer("modifier", 0)
    save_excess = action.flag("save_excess", False)
    use_saved = action.flag("use_saved", True)

    saved, attacker = saved_points.draw(attacker, attacker.ability(weapon.skill), use_saved, rulings)
    parts = {"dex": attacker.char("dex"), "ability": attacker.ability(weapon.skill), "weapon": weapon.atk,
             "aim": catalog.aim_modifiers[aim], **common_penalty(attacker, catalog),
             "encumbrance": -physical_encumbrance(attacker, catalog, rulings),
             "virtues_flaws": attacker.vf_mod("attack"), "modifier": modifier, **saved.attack_parts()}
    if chosen.hand == HAND_ROLES["off"] and rulings.off_hand_penalty:
        parts["off_hand"] = -rulings.off_hand_penalty
    at, die, at_botched = combat_roll(ctx, "attack", parts)
    # the record's fields, gathered as the exchange goes and built once at the end (replace() copies them all)
    out: dict[str, Any] = dict(weapon=weapon.name, aspect=aspect, aim=aim, declared_aim=declared, range=range_band,
                               attack_total=at, attack_die=die.total, attack_botched=at_botched,
                               attack_modifiers=parts)

    dt, dt_botched = 0, False
    if defender.incapable() is None:
        dparts = defense_parts(ctx, action, defender)
        dt, ddie, dt_botched = combat_roll(ctx, "defense", dparts)
        out.update(defense_die=ddie.total, defense_modifiers=dparts, defense_rolled=True)

    hit = at > dt
    excess = at - dt if hit else 0
    out.update(defense_total=dt, defense_botched=dt_botched, hit=hit, excess=excess, **saved.record_fields())
    attacker = saved_points.spent(attacker, saved)

    if not hit:
        if earns_advantage(rulings.tactical_advantage, at, dt):
            defender = replace(defender, tactical_advantage=True)
            out.update(tactical_advantage=True, tactical_advantage_for="defender")
    elif save_excess:
        attacker, kept = saved_points.save_excess(attacker, saved, excess)
        out.update(kept)
    else:
        base = damage_base(attacker, weapon.missile is not None)
        damage = base + excess + saved.damage_bonus() + weapon.impact(aspect, range_band)
        blow, wounding, defender = land(ctx, defender, damage, aspect, aim, "weapon")
        out.update(blow=replace(blow, damage_base=base, damage_total=damage), wounding=wounding)
    record = AttackOutcome(**out, saved_points=attacker.saved_points, injury_levels=defender.injury_levels,
                           conditions=defender.conditions)
    return record, attacker, defender


def defense_parts(ctx: Ctx, action: Options, defender: Character) -> dict[str, int]:
    catalog, rulings = ctx.catalog, ctx.rulings
    weapons = parrying_weapons(defender, action.name_or_index("defense_weapon"))
    if not weapons:
        ability, dfn = defender.ability("Brawling"), 0  # empty hands: dodge
    elif rulings.defense_weapons == "sum":
        ability = max(defender.ability(w.skill) for w in weapons)
        dfn = sum(w.dfn for w in weapons)
    else:
        best = max(weapons, key=lambda w: defender.ability(w.skill) + w.dfn)
        ability, dfn = defender.ability(best.skill), best.dfn
    return {"qik": defender.char("qik"), "ability": ability, "weapon": dfn,
            **common_penalty(defender, catalog),
            "encumbrance": -physical_encumbrance(defender, catalog, rulings),
            "virtues_flaws": defender.vf_mod("defense"), "modifier": action.integer("defense_modifier", 0)}


def earns_advantage(rule: str, attack_total: int, defense_total: int) -> bool:
    """Seed: the defender's excess doubles the Attack Total (DT 30 vs AT 10).

    An Attack Total of 0 or less (a botch, or heavy penalties) is doubled as it stands, so any real
    defence beats it; but the defender needs a Defense Total of 1 or more: one who botched, made no
    roll (in shock, unconscious) or totals 0 or less has not defended and earns nothing."""
    excess = defense_total - attack_total
    if excess <= 0 or defense_total < 1:
        return False
    if rule == "total_doubles":
        return defense_total >= 2 * attack_total
    return excess >= 2 * attack_total


def land(ctx: Ctx, defender: Character, damage: int, damage_type: str, aim: str, source: str
         ) -> tuple[Blow, Wounding, Character]:
    """Roll the location, take off the Soak Total, and inflict the injury the table gives."""
    catalog = ctx.catalog
    roll = ctx.dice.d100("location").total
    location = catalog.strike(aim, roll, defender.body)
    side = (HANDS[1] if roll % 2 else HANDS[0]) if location.paired else None
    protection, pieces = armour_at(defender, location.key, damage_type)
    sb = soak_base(defender)
    soak = sb + protection + defender.vf_mod("soak")
    impact = damage - soak
    blow = Blow(location_roll=roll, location=location.key, side=side, damage_total=damage, soak_base=sb,
                armour=protection, armour_pieces=tuple(pieces), soak_total=soak, effective_impact=impact,
                part=catalog.part_word(defender.body, location.key) if defender.body else None)
    code = catalog.injury_code(location, impact)
    if code is None:
        return blow, Wounding(), defender
    new = NewInjury(location=location, side=side, aspect=damage_type, code=code, source=source,
                    band=catalog.band_index(impact))
    defender, wounding = inflict(ctx, defender, new, "defender")
    return blow, wounding, defender


def initiative(ctx: Ctx, action: Options, c: Character) -> tuple[Character, InitiativeRoll]:
    """ArM5: Qik + weapon Init - Encumbrance + stress die, with wound and fatigue penalties."""
    held = [c.weapons[i] for i in c.held_indices()]
    main = next((w for w in held if w.skill != "Shield"), held[0] if held else None)
    parts = {"qik": c.char("qik"), "weapon": main.init if main else 0,
             "encumbrance": -encumbrance(c, ctx.catalog), **common_penalty(c, ctx.catalog),
             "virtues_flaws": c.vf_mod("initiative"), "modifier": action.integer("modifier", 0)}
    total, die, botched = combat_roll(ctx, "initiative", parts)
    return replace(c, initiative=total), InitiativeRoll(name=c.name, total=total, die=die.total, botched=botched,
                                                        modifiers=parts, weapon=main.name if main else None)
