"""The attack: goal roll, optional defense, hit location, final damage against armour, the wound."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.dice import CRITICAL, CRITICAL_FAILURE, SUCCESS, Roll
from rules.errors import IllegalAction, RulesError
from rules.fading_suns.catalog import DAMAGE_TYPES, Location, Weapon, unknown
from rules.fading_suns.character import Character
from rules.fading_suns.context import Ctx
from rules.fading_suns.goals import Goal, goal_roll, parse_modifiers, report, situational
from rules.fading_suns.injury import SideLog, aftermath, apply_hit, wound_roll
from rules.fading_suns.outcomes import (
    AttackOutcome,
    Defense,
    InitiativeOutcome,
    InitiativeSide,
    InitiativeSides,
    InjureOutcome,
    Shield,
)

CANNOT_ACT = ("dead", "dying", "unconscious", "stunned")


def require_able(char: Character, who: str, doing: str) -> None:
    for condition in CANNOT_ACT:
        if char.has(condition):
            raise IllegalAction(f"{who} ({char.name}) is {condition} and cannot {doing}")


def own_defense(ctx: Ctx, char: Character, mode: str, action: Mapping[str, Any]
                ) -> tuple[str | None, str | None, str | None]:
    """The defense the defender's side makes when the attack names none: the sheet's ``defense``, else the
    ruling ``unnamed_defense`` (dodge). Returns (defense, where it came from, why there is none)."""
    chosen, source = (char.defense, "sheet") if char.defense is not None else (ctx.rulings.unnamed_defense, "ruling")
    if chosen == "none":
        return None, source, "none_chosen"
    for condition in CANNOT_ACT:
        if char.has(condition):
            return None, source, condition
    defense = ctx.catalog.defense(chosen)
    if defense is not None and defense.skill == "weapon":
        try:
            parry_with = pick_weapon(ctx, char, action.get("defense_weapon"), "defender", "melee")
        except (IllegalAction, RulesError):
            parry_with = None
        if parry_with is None or "melee" not in parry_with.modes:
            defense = None  # nothing in hand to parry with: dodge instead
    if defense is None or mode not in defense.against:
        dodge = ctx.catalog.defense("dodge")
        if dodge is None or mode not in dodge.against:
            return None, source, f"cannot_{chosen}"
        return "dodge", f"{source}_fallback", None
    return chosen, source, None


def pick_weapon(ctx: Ctx, char: Character, spec: Any, who: str, mode: str | None = None) -> Weapon:
    """The weapon an action names: a sheet weapon by name or 1-based number, or an unarmed attack.
    With no name, the first weapon still in hand (that has ``mode``), else the first unarmed attack."""
    ready = char.ready_weapons()
    if spec is None:
        for weapon in ready:
            if mode is None or mode in weapon.modes:
                return weapon
        for name in ctx.catalog.unarmed:
            weapon = ctx.catalog.weapons[name]
            if mode is None or mode in weapon.modes:
                return weapon
        raise IllegalAction(f"{who} ({char.name}) has no weapon in hand for a {mode} action")
    if isinstance(spec, int) and not isinstance(spec, bool):
        if not 1 <= spec <= len(char.weapons):
            raise RulesError(f"action: {who} has no weapon number {spec} (the sheet lists {len(char.weapons)})")
        chosen = char.weapons[spec - 1]
        # the n-th entry is dropped when fewer copies of its name are in hand than precede it, itself included
        same_before = sum(1 for w in char.weapons[:spec] if w.name == chosen.name)
        in_hand = sum(1 for w in ready if w.name == chosen.name)
        if same_before > in_hand:
            raise IllegalAction(f"{who} ({char.name}) dropped the {chosen.name}; recover it first")
        return chosen
    if not isinstance(spec, str):
        raise RulesError(f"action: weapon must be a weapon's name or number, not {spec!r}")
    for weapon in ready:
        if weapon.name == spec:
            return weapon
    if any(w.name == spec for w in char.weapons):
        raise IllegalAction(f"{who} ({char.name}) dropped the {spec}; recover it first")
    if spec in ctx.catalog.unarmed:
        return ctx.catalog.weapons[spec]
    raise unknown(f"weapon on {who}'s sheet", spec, [w.name for w in char.weapons] + list(ctx.catalog.unarmed))


def armour_at(ctx: Ctx, char: Character, location: str, damage_type: str) -> tuple[int, list[str]]:
    """The armour at one location against one damage type: the best piece, or all pieces summed."""
    pieces = [p for p in char.armour if location in p.covers]
    ratings = [p.rating(damage_type) for p in pieces]
    if ctx.rulings.armour_layers == "sum":
        value = sum(ratings)
    else:
        value = max(ratings, default=0)
    return value, [p.name for p in pieces]


def effect_dice(ctx: Ctx, label: str, count: int) -> Roll:
    """Fading Suns effect dice (damage_mode rolled): each d6 showing 1-4 counts one."""
    sides, success = ctx.catalog.effect_die_sides, ctx.catalog.effect_die_success
    faces = tuple(ctx.dice.face(label, sides) for _ in range(count))
    hits = sum(1 for f in faces if f <= success)
    return ctx.dice.record(Roll(label=label, kind=f"{count}d{sides} effect", faces=faces, total=hits))


def roll_location(ctx: Ctx, column: str) -> tuple[Location, int]:
    face = ctx.dice.dice("location", 1, 20).total
    return ctx.catalog.location_for(column, face), face


def parse_location(ctx: Ctx, value: Any, field: str) -> Location:
    if not isinstance(value, str):
        raise RulesError(f"action: {field} must be a location name, not {value!r}")
    found = ctx.catalog.find_location(value)
    if found is None:
        names = [ctx.catalog.display_name(name) for name in ctx.catalog.location_names()]
        raise unknown("location", value, names)
    return found


def parse_choice(action: Mapping[str, Any], key: str, choices: tuple[str, ...], default: str | None) -> str | None:
    value = action.get(key)
    if value is None:  # left out, or given as null: the default
        value = default
    if value is None:
        return None
    if value not in choices:
        raise RulesError(f"action: {key} must be one of {', '.join(choices)}, not {value!r}")
    return str(value)


@dataclass(frozen=True)
class HitDamage:
    """A blow's damage on its way through: the raw damage, the energy shield, the armour, what gets through."""

    raw: int
    shield: Shield | None
    armour_rating: int
    armour_pieces: tuple[str, ...]
    armour: int
    damage: int


def hit_damage(ctx: Ctx, defender: Character, weapon: Weapon, bonus: int, location: Location
               ) -> tuple[Character, HitDamage]:
    """Final damage = weapon base + victory bonus (energy shield first) - armour at the location for the type."""
    if ctx.rulings.damage_mode == "rolled":
        raw = effect_dice(ctx, "damage", weapon.damage + bonus).total
    else:
        raw = weapon.damage + bonus
    before_armour = raw
    shield_report = None
    shield = defender.shield
    if ctx.rulings.energy_shields and shield is not None and not weapon.ignores_shield:
        hits_left = max(0, shield.hits - defender.shield_hits_used)
        absorbed = 0
        activated = hits_left > 0 and raw >= shield.min
        if activated:
            absorbed = min(shield.max, raw)
            raw -= absorbed
            defender = dataclasses.replace(defender, shield_hits_used=defender.shield_hits_used + 1)
            hits_left -= 1
        shield_report = Shield(name=shield.name, activated=activated, absorbed=absorbed, hits_left=hits_left)
    rating, pieces = (0, []) if weapon.ignores_armour else armour_at(ctx, defender, location.name, weapon.type)
    if ctx.rulings.damage_mode == "rolled" and rating > 0 and raw > 0:
        armour = effect_dice(ctx, "armor", rating).total
    elif ctx.rulings.damage_mode == "rolled":
        armour = 0
    else:
        armour = rating
    return defender, HitDamage(before_armour, shield_report, rating, tuple(pieces), armour, max(0, raw - armour))


def attack(ctx: Ctx, attacker: Character, defender: Character,
           action: Mapping[str, Any]) -> tuple[AttackOutcome, Character, Character]:
    cat = ctx.catalog
    require_able(attacker, "attacker", "attack")
    if defender.has("dead"):
        raise IllegalAction(f"defender ({defender.name}) is already dead")
    weapon = pick_weapon(ctx, attacker, action.get("weapon"), "attacker")
    mode = parse_choice(action, "mode", weapon.modes, weapon.modes[0])
    assert mode is not None
    aim = None if action.get("aim") is None else parse_location(ctx, action.get("aim"), "aim")
    # "none": the defender's side chose to make no defence (the one who asked it, docs/rules/fading-suns.md)
    defense_name = parse_choice(action, "defense", (*cat.defense_names(), "none"), None)
    modifiers = parse_modifiers(action.get("modifiers"), "modifiers")
    defense_mods = parse_modifiers(action.get("defense_modifiers"), "defense_modifiers")

    goal = Goal(((weapon.characteristic, attacker.char(weapon.characteristic)),
                 (weapon.skill, attacker.skill(weapon.skill, cat)))).plus(
        ("weapon", weapon.goal), ("modifiers", modifiers), ("aim", aim.called_shot if aim else 0),
        *situational(attacker, cat, ctx.rulings, "attack", (weapon.characteristic, weapon.skill)),
    )
    roll = goal_roll(ctx.dice, "attack", goal, cat)
    att, dfd = SideLog("attacker", hand=weapon.name), SideLog("defender")
    head = AttackOutcome(attacker=attacker.name, defender=defender.name, weapon=weapon.name, mode=mode, column=mode,
                         damage_type=weapon.type, attack_roll=report(roll, goal))

    def done(outcome: AttackOutcome) -> tuple[AttackOutcome, Character, Character]:
        return dataclasses.replace(outcome, after=aftermath(ctx, [att, dfd], dfd, defender)), attacker, defender

    check = cat.attack_critical_failure_check
    if roll.result == CRITICAL_FAILURE and ctx.rulings.fumble_on_critical_failure and check:
        attacker = wound_roll(ctx, attacker, check, None, att, "attack")
    if mode == "missile" and "melee" in weapon.modes and any(w.name == weapon.name for w in attacker.ready_weapons()):
        # a thrown hand weapon leaves the hand, hit or miss (unless a fumble has dropped it already)
        attacker = dataclasses.replace(attacker, dropped=(*attacker.dropped, weapon.name))
        att.dropped.append(weapon.name)
    if roll.result not in (SUCCESS, CRITICAL):
        return done(head)

    points, dice_bonus = roll.victory_points or 0, roll.victory_dice or 0
    no_defense: str | None = None
    defense_from: str | None = "attack"
    if defense_name == "none":
        defense_name, defense_from, no_defense = None, "attack", "none_chosen"
    elif defense_name is None:
        defense_name, defense_from, no_defense = own_defense(ctx, defender, mode, action)
    head = dataclasses.replace(head, defense_from=defense_from, no_defense=no_defense)
    if defense_name is not None:
        defense = cat.defense(defense_name)
        assert defense is not None
        if mode not in defense.against:
            raise IllegalAction(f"defender cannot {defense_name} a {mode} attack")
        require_able(defender, "defender", defense_name)
        parts: list[tuple[str, int]] = [(defense.characteristic, defender.char(defense.characteristic))]
        used: str | None = None
        if defense.skill == "weapon":
            parry_with = pick_weapon(ctx, defender, action.get("defense_weapon"), "defender", "melee")
            if "melee" not in parry_with.modes:
                raise IllegalAction(f"defender cannot {defense_name} with the {parry_with.name}")
            used = parry_with.name
            dfd.hand = parry_with.name
            parts += [(parry_with.skill, defender.skill(parry_with.skill, cat)), ("weapon", parry_with.goal)]
        else:
            parts.append((defense.skill, defender.skill(defense.skill, cat)))
        dgoal = Goal(tuple(parts[:2])).plus(*parts[2:], ("modifiers", defense_mods),
                                            *situational(defender, cat, ctx.rulings, defense_name,
                                                         (parts[0][0], parts[1][0])))
        droll = goal_roll(ctx.dice, "defense", dgoal, cat)
        head = dataclasses.replace(head, defense=Defense(kind=defense_name, weapon=used, roll=report(droll, dgoal)))
        if droll.result == CRITICAL_FAILURE and defense.critical_failure_check:
            defender = wound_roll(ctx, defender, defense.critical_failure_check, None, dfd, "defense")
        if droll.result in (SUCCESS, CRITICAL):
            points -= droll.victory_points or 0
            dice_bonus = max(0, dice_bonus - (droll.victory_points or 0))
            if points < 1:
                return done(dataclasses.replace(head, defended=True, net_victory_points=points))
    bonus = points if ctx.rulings.victory_bonus == "points" else dice_bonus
    if aim is not None:
        location, face = aim, None
    else:
        location, face = roll_location(ctx, mode)
    defender, blow = hit_damage(ctx, defender, weapon, bonus, location)
    defender, wound = apply_hit(ctx, defender, location, blow.damage, weapon.type, dfd)
    return done(dataclasses.replace(
        head, hit=True, net_victory_points=points, location=location.name, location_roll=face, aimed=aim is not None,
        base=weapon.damage, bonus=bonus, damage_before_armor=blow.raw, shield=blow.shield, armor=blow.armour,
        armor_rating=blow.armour_rating, armor_pieces=blow.armour_pieces, damage=blow.damage,
        severity=wound.severity if wound else None, wound=wound.index if wound else None,
        wound_roll=location.wound_effect(wound.severity).roll if wound else None))


def injure(ctx: Ctx, char: Character, action: Mapping[str, Any]) -> tuple[InjureOutcome, Character]:
    """A GM-applied injury (a fall, fire, a beam): damage at a location, less armour unless told otherwise."""
    cat = ctx.catalog
    if char.has("dead"):
        raise IllegalAction(f"attacker ({char.name}) is already dead")
    raw = action.get("damage")
    if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw <= 1000:
        raise RulesError(f"action: damage must be a whole number from 0 to 1000, not {raw!r}")
    damage_type = parse_choice(action, "damage_type", DAMAGE_TYPES, "impact")
    assert damage_type is not None
    column = parse_choice(action, "column", cat.columns, "melee")
    assert column is not None
    use_armour = action.get("armour", True)
    if not isinstance(use_armour, bool):
        raise RulesError(f"action: armour must be true or false, not {use_armour!r}")
    if action.get("location") is not None:
        location, face = parse_location(ctx, action.get("location"), "location"), None
    else:
        location, face = roll_location(ctx, column)
    rating, pieces = armour_at(ctx, char, location.name, damage_type) if use_armour else (0, [])
    damage = max(0, raw - rating)
    after = SideLog("attacker")
    char, wound = apply_hit(ctx, char, location, damage, damage_type, after)
    outcome = InjureOutcome(
        character=char.name, damage_type=damage_type, column=column, location=location.name, location_roll=face,
        damage_before_armor=raw, armor=rating, armor_pieces=tuple(pieces), damage=damage,
        severity=wound.severity if wound else None, wound=wound.index if wound else None,
        wound_roll=location.wound_effect(wound.severity).roll if wound else None,
        after=aftermath(ctx, [after], after, char))
    return outcome, char


def initiative(ctx: Ctx, attacker: Character, defender: Character | None,
               action: Mapping[str, Any]) -> InitiativeOutcome:
    """Fading Suns order of action: the higher of characteristic + skill + weapon initiative goes first,
    less wound initiative penalties; ties go to the higher Wits, then both act at once."""
    sides: dict[str, InitiativeSide] = {}
    for who, char, spec_key, mod_key in (("attacker", attacker, "weapon", "modifiers"),
                                         ("defender", defender, "defender_weapon", "defender_modifiers")):
        if char is None:
            continue
        weapon = pick_weapon(ctx, char, action.get(spec_key), who)
        mods = parse_modifiers(action.get(mod_key), mod_key)
        parts = Goal(((weapon.characteristic, char.char(weapon.characteristic)),
                      (weapon.skill, char.skill(weapon.skill, ctx.catalog)))).plus(
            ("weapon", weapon.init), ("wounds", sum(ctx.catalog.severity(w.severity).initiative
                                                     for w in char.wounds)), ("modifiers", mods))
        can_act = not any(char.has(c) for c in CANNOT_ACT)
        sides[who] = InitiativeSide(name=char.name, weapon=weapon.name, score=parts.total, parts=parts.to_dict(),
                                    wits=char.char("wits"), can_act=can_act)
    first: str | None = None
    a, d = sides["attacker"], sides.get("defender")
    if d is not None:
        if a.can_act != d.can_act:
            first = "attacker" if a.can_act else "defender"
        elif not a.can_act:
            first = None
        elif a.score != d.score:
            first = "attacker" if a.score > d.score else "defender"
        elif a.wits != d.wits:
            first = "attacker" if a.wits > d.wits else "defender"
        else:
            first = "simultaneous"
    else:
        first = "attacker" if a.can_act else None
    return InitiativeOutcome(initiative=InitiativeSides(attacker=a, defender=d), first=first,
                             penalties={who: side.parts.get("wounds", 0) for who, side in sides.items()})
