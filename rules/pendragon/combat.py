"""One opposed exchange: both roll, the winner deals damage, the loser takes it (docs/rules/pendragon.md)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rules.dice import CRITICAL, FAILURE, FUMBLE, Roll
from rules.errors import IllegalAction, NotInHand, SheetError
from rules.pendragon.catalog import Weapon, key
from rules.pendragon.character import Character
from rules.pendragon.context import Ctx
from rules.pendragon.damage import plan_damage
from rules.pendragon.injury import (
    WoundNote,
    add_decision,
    apply_wound,
    drop_pending_roll,
    fall_check,
    knockdown_check,
    offer_dying,
)
from rules.pendragon.opposed import NOBODY, SUCCESSES, compare
from rules.pendragon.options import Options
from rules.pendragon.outcomes import (
    AttackOutcome,
    Events,
    ExperienceCheck,
    PendragonDecision,
    SelfHit,
    SideRoll,
    Sides,
    WeaponLost,
)

SIDES = ("attacker", "defender")
PER_SIDE = ("weapon", "shield", "mounted", "charge", "modifier", "situation", "tactic", "on_wall", "notable")
ATTACK_OPTIONS: tuple[str, ...] = (*PER_SIDE, *(f"defender_{o}" for o in PER_SIDE), "unopposed")


@dataclass(frozen=True)
class Side:
    who: str
    char: Character
    weapon: Weapon
    shield: bool
    mounted: bool
    charge: bool
    tactic: str
    on_wall: bool
    notable: bool
    modifier: int
    situations: tuple[str, ...]


def can_act(char: Character, who: str) -> None:
    for flag, why in (("dead", "is dead"), ("dying", "is dying"), ("unconscious", "is unconscious"),
                      ("out_of_fight", "has left the fight (failed Valorous)")):
        if getattr(char, flag):
            raise IllegalAction(f"{who} {why} and cannot attack")
    if char.must_rearm:
        lost = (char.broken_weapons or char.dropped_weapons or (char.wielding or "weapon",))[-1]
        broken = lost in char.broken_weapons
        raise NotInHand(char.name, lost, broken, char.ready_choices(),
                        f"{who} must re-arm before attacking again (action rearm)")


def usable(ctx: Ctx, char: Character, who: str, name: str | None, mounted: bool = True) -> Weapon:
    """The named weapon, or with no name the one in hand, else the first on the sheet that is whole, held and
    usable as the fighter stands (a lance only on horseback; a ruling, docs/rules/pendragon.md)."""
    unarmed = ctx.catalog.weapon(ctx.catalog.unarmed)
    if name is None:
        candidates = ([char.wielding] if char.wielding else []) + [w.name for w in char.weapons]
        for candidate in candidates:
            if candidate == unarmed.name:
                return unarmed
            if candidate not in char.broken_weapons and candidate not in char.dropped_weapons:
                weapon = char.carried_weapon(candidate)
                if weapon is not None and (mounted or not weapon.mounted_only):
                    return weapon
        return unarmed
    if key(name) == unarmed.name:
        return unarmed
    weapon = char.carried_weapon(name)
    if weapon is None:
        carried = ", ".join(w.name for w in char.weapons) or "none"
        raise SheetError(f"{who}: weapon '{key(name)}' is not on the sheet (weapons: {carried})")
    if weapon.name in char.broken_weapons:
        raise NotInHand(char.name, weapon.name, True, char.ready_choices(),
                        f"{who}'s {weapon.name} is broken: re-arm with another weapon")
    if weapon.name in char.dropped_weapons:
        raise NotInHand(char.name, weapon.name, False, char.ready_choices(),
                        f"{who}'s {weapon.name} was dropped: re-arm first")
    return weapon


def build_side(ctx: Ctx, opts: Options, who: str, char: Character, forced_unarmed: bool) -> Side:
    p = "" if who == "attacker" else "defender_"
    weapon_name = opts.text(p + "weapon")
    if forced_unarmed and weapon_name is None:
        weapon_name = ctx.catalog.unarmed
    mounted = bool(opts.flag(p + "mounted", char.mounted))
    weapon = usable(ctx, char, who, weapon_name, mounted)
    has_shield = char.shield is not None
    asked = opts.flag(p + "shield")
    if asked and not has_shield:
        raise IllegalAction(f"{who} carries no shield")
    if asked and weapon.hands == 2:
        raise IllegalAction(f"{who}'s {weapon.name} is two-handed: no hand is free for a shield")
    shield = has_shield and weapon.hands == 1 and (asked if asked is not None else True)
    charge = bool(opts.flag(p + "charge", False))
    if weapon.mounted_only and not mounted:
        raise IllegalAction(f"{who} can only use a {weapon.name} on horseback")
    if weapon.hands == 2 and mounted and not ctx.rulings.flag("two_handed_mounted"):
        raise IllegalAction(f"{who} cannot wield the two-handed {weapon.name} on horseback")
    if charge:
        if not mounted:
            raise IllegalAction(f"{who} must be mounted to charge")
        if weapon.charge_skill is None:
            raise IllegalAction(f"{who} needs a lance or spear to charge")
        if weapon.charge_uses_horse and char.horse is None:
            horses = ctx.catalog.sheet_names("horses")
            raise IllegalAction(f"{who} has no horse on the sheet for a charge: set its field 'horse' "
                                f"(the pack has {', '.join(horses) or 'none'})")
    return Side(who=who, char=char, weapon=weapon, shield=shield, mounted=mounted, charge=charge,
                tactic=opts.text(p + "tactic", "attack", ("attack", "defend")) or "attack",
                on_wall=bool(opts.flag(p + "on_wall", False)), notable=bool(opts.flag(p + "notable", False)),
                modifier=opts.whole(p + "modifier", 0, -100, 100) or 0, situations=opts.names(p + "situation"))


def target_for(ctx: Ctx, me: Side, foe: Side | None) -> tuple[int, list[tuple[str, int]]]:
    """The modified weapon skill and the modifiers that made it, as (name, value) pairs."""
    c = ctx.catalog.combat
    skill_name = me.weapon.charge_skill if me.charge and me.weapon.charge_skill else me.weapon.skill
    base = me.char.skill(skill_name)
    mods: list[tuple[str, int]] = []
    negate = ctx.rulings.text("great_spear_vs_horse") == "negate"
    if foe is not None:
        foe_spear = foe.weapon.negates_mounted_bonus and not foe.mounted
        my_spear = me.weapon.negates_mounted_bonus and not me.mounted
        if me.mounted and not foe.mounted and not (foe_spear and negate):
            mods.append(("mounted", c.mounted_bonus))
        if not me.mounted and foe.mounted:
            if my_spear and not negate:
                mods.append(("great_spear", c.great_spear_bonus))
            elif ctx.rulings.flag("footman_penalty") and not my_spear:
                mods.append(("footman", c.footman_penalty))
        if me.charge and not foe.weapon.lance and not (foe_spear and negate):
            mods.append(("charge", c.charge_bonus))
        if foe.char.prone:
            mods.append(("foe_prone", c.prone_foe))
        for name in foe.situations:
            situation = ctx.catalog.situation(name)
            if situation.foe_modifier:
                mods.append((f"foe_{situation.name}", situation.foe_modifier))
    if me.char.prone:
        mods.append(("prone", c.prone_self))
    if me.tactic == "defend":
        mods.append(("defend", c.defend_bonus))
    for name in me.situations:
        situation = ctx.catalog.situation(name)
        mods.append((situation.name, situation.modifier))
    if me.modifier:
        mods.append(("modifier", me.modifier))
    return base + sum(value for _, value in mods), mods


def effective(ctx: Ctx, side: Side, roll: Roll) -> tuple[str, bool]:
    """The result as the exchange reads it, and whether a flail hit its own wielder (natural 1)."""
    if side.weapon.natural_1_hits_self and roll.faces[0] == 1:
        ruling = ctx.rulings.text("flail_natural_1")
        if ruling == "hits_self":
            return FAILURE, True
        if ruling == "fumble":
            return FUMBLE, False
    return roll.result or FAILURE, False


def lose_weapon(char: Character, name: str, how: str) -> Character:
    """A fumble (or a sword on a tie) leaves the character to re-arm: a sword is dropped, others break."""
    if how == "drop":
        char = char.with_(dropped_weapons=(*char.dropped_weapons, name))
    else:
        char = char.with_(broken_weapons=(*char.broken_weapons, name))
    return char.with_(must_rearm=True, wielding=None)


class Exchange:
    """The state of one attack action while it is resolved (local and short-lived)."""

    def __init__(self, ctx: Ctx, sides: dict[str, Side]) -> None:
        self.ctx = ctx
        self.sides = sides
        self.chars = {who: side.char.with_(mounted=side.mounted) for who, side in sides.items()}
        self.events: dict[str, list[str]] = {who: [] for who in sides}
        self.lost: list[WeaponLost] = []
        self.decisions: list[PendragonDecision] = []

    def weapon_lost(self, who: str, how: str) -> None:
        side = self.sides[who]
        if how == "drop" or (how == "break" and side.weapon.breakable):
            self.chars[who] = lose_weapon(self.chars[who], side.weapon.name, how)
            self.lost.append(WeaponLost(who=who, weapon=side.weapon.name, how="dropped" if how == "drop" else "broken"))
            self.events[who].append("weapon_dropped" if how == "drop" else "weapon_broken")

    def whose(self, how: str) -> str | None:
        names = sorted({x.who for x in self.lost if x.how == how})
        if not names:
            return None
        return names[0] if len(names) == 1 else "both"


def other(who: str) -> str:
    return "defender" if who == "attacker" else "attacker"


def damage_label(who: str) -> str:
    """The label of ``who``'s damage dice: faces typed for one side's blow are never the other side's
    (``damage`` is the attacker's, ``defender_damage`` the defender's; docs/rules/pendragon.md)."""
    return "damage" if who == "attacker" else "defender_damage"


def resolve_attack(ctx: Ctx, attacker: Character, defender: Character, action: Any
                   ) -> tuple[AttackOutcome, Character, Character]:
    opts = Options(action, "attack", ATTACK_OPTIONS)
    can_act(attacker, "attacker")
    if defender.dead:
        raise IllegalAction("defender is already dead")
    disarmed = defender.must_rearm and opts.text("defender_weapon") is None
    a_side = build_side(ctx, opts, "attacker", attacker, False)
    d_side = build_side(ctx, opts, "defender", defender, disarmed)
    # A missile attack is unopposed at range (11b): the default for a missile weapon; unopposed: false
    # makes it an exchange (the target closes, or shoots back), true makes any attack unopposed.
    asked = opts.flag("unopposed")
    why: str | None = None
    if defender.unconscious or defender.dying:
        why = "defender_down"
    elif asked is None and a_side.weapon.missile:
        why = "missile"
    elif asked:
        why = "asked"
    elif disarmed:
        why = "disarmed"  # re-arming, he cannot strike back: the attacker rolls alone
    unopposed = why is not None
    sides = {"attacker": a_side, "defender": d_side}
    a_target, a_mods = target_for(ctx, a_side, d_side)
    a_roll = ctx.dice.pendragon("attacker", a_target)
    d_roll: Roll | None = None
    d_mods: list[tuple[str, int]] = []
    if not unopposed:
        d_target, d_mods = target_for(ctx, d_side, a_side)
        d_roll = ctx.dice.pendragon("defender", d_target)

    ex = Exchange(ctx, sides)
    results: dict[str, str] = {}
    self_hits: list[str] = []
    for who, roll in (("attacker", a_roll), ("defender", d_roll)):
        if roll is None:
            continue
        results[who], hit_self = effective(ctx, sides[who], roll)
        if hit_self:
            self_hits.append(who)
            ex.events[who].append("natural_1_hits_self")
    if d_roll is None:
        winner, tie = ("attacker" if results["attacker"] in SUCCESSES else NOBODY), False
    else:
        winner, tie = compare(results["attacker"], a_roll.total, results["defender"], d_roll.total)

    # Tie: as if both failed, but a sword breaks a non-sword. Criticals are successes, so two on the same
    # number are the seed's same-number tie; two on different numbers break a weapon only by the ruling.
    both_crit = tie and results.get("defender") == CRITICAL and results["attacker"] == CRITICAL
    same_number = d_roll is not None and a_roll.total == d_roll.total
    if tie and (not both_crit or same_number or ctx.rulings.flag("sword_breaks_on_double_critical")):
        for who in SIDES:
            mine, theirs = sides[who].weapon, sides[other(who)].weapon
            if mine.sword and not theirs.sword:
                ex.weapon_lost(other(who), "break")
                ex.events[who].append("sword_broke_foe_weapon")
    for who, result in results.items():
        if result == FUMBLE:
            ex.events[who].append("fumble")
            ex.weapon_lost(who, sides[who].weapon.fumble)

    outcome = AttackOutcome(
        attacker_roll=_roll_out(a_roll, results.get("attacker"), a_mods, a_side),
        defender_roll=None if d_roll is None else _roll_out(d_roll, results.get("defender"), d_mods, d_side),
        unopposed=d_roll is None,
        unopposed_why=why,  # missile, asked, defender_down, disarmed (None: an exchange)
        winner=winner, loser=NOBODY, tie=tie)

    if winner != NOBODY:
        outcome = _winners_phase(ctx, ex, outcome, winner, results)
    for who in self_hits:
        with ctx.dice.rolling_for(who):  # the wielder's own fall and wounds are his side's rolls
            outcome = replace(outcome, self_hit=_self_hit(ctx, ex, who))
    outcome = _lance(ctx, ex, outcome, winner, a_roll, d_roll)

    for who in SIDES:
        side = sides[who]
        char = ex.chars[who]
        if side.weapon.name != ctx.catalog.unarmed and not char.must_rearm:
            char = char.with_(wielding=side.weapon.name)
        ex.chars[who] = char

    outcome = replace(outcome, weapon_broken=ex.whose("broken"), weapon_dropped=ex.whose("dropped"),
                      weapons_lost=tuple(ex.lost),
                      events=Events(attacker=tuple(ex.events["attacker"]), defender=tuple(ex.events["defender"])))
    loser = outcome.loser
    if loser != NOBODY:
        outcome = replace(outcome, hit_points=ctx.hp(ex.chars[loser]), unconscious=ex.chars[loser].unconscious,
                          dying=ex.chars[loser].dying)
    outcome = replace(outcome, hit_points_after=Sides(attacker=ctx.hp(ex.chars["attacker"]),
                                                      defender=ctx.hp(ex.chars["defender"])),
                      decisions=tuple(ex.decisions))
    return outcome, ex.chars["attacker"], ex.chars["defender"]


def _roll_out(roll: Roll, result: str | None, mods: list[tuple[str, int]], side: Side) -> SideRoll:
    skill = side.weapon.charge_skill if side.charge and side.weapon.charge_skill else side.weapon.skill
    return SideRoll(face=roll.faces[0], total=roll.total, target=roll.target, result=result,
                    rolled_result=roll.result, natural_1="natural_1" in roll.flags, modifiers=tuple(mods),
                    weapon=side.weapon.name, skill=skill)


def _winners_phase(ctx: Ctx, ex: Exchange, outcome: AttackOutcome, winner: str, results: dict[str, str]
                   ) -> AttackOutcome:
    loser = other(winner)
    w_side, l_side = ex.sides[winner], ex.sides[loser]
    w_char = ex.chars[winner]
    critical = results[winner] == CRITICAL
    outcome = replace(outcome, critical=critical)
    # only a player knight earns a check: the GM's NPCs (beasts, and knights too) leave with their encounter and
    # have no Winter Phase to spend one in (docs/rules/pendragon.md, "Experience checks")
    if (critical or w_side.notable) and winner not in ctx.npcs:
        won = outcome.roll_of(winner)
        assert won is not None  # the winner rolled
        skill = won.skill
        ex.chars[winner] = add_decision(w_char, {"kind": "experience_check", "skill": skill,
                                                 "options": ["approve", "deny"]})
        outcome = replace(outcome, experience_check=ExperienceCheck(who=winner, skill=skill))
        ex.decisions.append(PendragonDecision(kind="experience_check", who=winner, options=("approve", "deny"),
                                              skill=skill))
    if w_side.tactic == "defend":
        ex.events[winner].append("defended")
        return outcome
    outcome = replace(outcome, loser=loser)
    horse = w_char.horse.damage_dice if (w_side.charge and w_side.weapon.charge_uses_horse and w_char.horse) else None
    plan = plan_damage(w_side.weapon, ctx.derived(w_char).damage_dice, horse_dice=horse,
                       foe_shield=l_side.shield, foe_mail=ex.chars[loser].wears_mail)
    count = plan.count
    doubled_dice = critical and ctx.rulings.text("critical_damage") == "double_dice"
    if doubled_dice:
        count *= 2
    roll = ctx.dice.dice(damage_label(winner), count, 6, plan.bonus)
    rolled = roll.total * 2 if critical and not doubled_dice else roll.total
    outcome = replace(outcome, damage_dice=f"{count}d6" + (f"{plan.bonus:+d}" if plan.bonus else ""),
                      damage_notes=(*plan.notes, *(["critical_double"] if critical else [])),
                      damage_roll_total=roll.total, damage_rolled=rolled)

    # Loser's phase: knockdown, then armour (and shield), the wound, major wound, collapse.
    # the loser's rolls (knockdown, major wound, Valorous, fall) take the faces typed for the loser's side
    with ctx.dice.rolling_for(loser):
        char = ex.chars[loser]
        events = ex.events[loser]
        char, knockdown = knockdown_check(ctx, char, rolled, char.mounted, events)
        shield_applied = (l_side.shield and results.get(loser) in SUCCESSES and not w_side.weapon.ignores_shield
                          and char.shield is not None)
        armour = char.armour_points + (char.shield.points if shield_applied and char.shield else 0)
        taken = max(0, rolled - armour)
        was_unconscious = char.unconscious
        details = WoundNote()
        char = apply_wound(ctx, char, taken, w_side.weapon.name, events, details)
        if knockdown is not None and knockdown.pending and char.unconscious and not char.mounted:
            # a knockdown roll left for the GM, and the wound laid him on the ground: it can change nothing now
            char, _ = drop_pending_roll(char, "knockdown")
            events.remove("knockdown_pending")
            knockdown = None
            char = offer_dying(char)
        fell = "knocked_down" in events
        fall = None
        if char.unconscious and not was_unconscious and not fell:
            char, fall = fall_check(ctx, char, char.mounted, l_side.on_wall, events)
        ex.chars[loser] = char
    _note_dying(ex, loser)
    return replace(outcome, knockdown=knockdown, shield_applied=shield_applied, armour=armour, damage_taken=taken,
                   wound_index=details.wound_index, major_wound=details.major_wound,
                   major_wound_effects=details.major_wound_effects, fall=fall)


def _note_dying(ex: Exchange, who: str) -> None:
    # death or survival waits while a roll or fall-damage word that can change his hit points is owed
    if "dying" in ex.events[who] and any(d.get("kind") == "dying" for d in ex.chars[who].pending_decisions):
        ex.decisions.append(PendragonDecision(kind="dying", who=who, options=("death", "survival")))
    if "gentle_fall" in ex.events[who]:
        ex.decisions.append(PendragonDecision(kind="fall_damage", who=who, options=("none", "damage")))


def _self_hit(ctx: Ctx, ex: Exchange, who: str) -> SelfHit:
    """Flail natural 1: the wielder's own damage against his own armour (no shield, no knockdown)."""
    side = ex.sides[who]
    char = ex.chars[who]
    plan = plan_damage(side.weapon, ctx.derived(char).damage_dice, foe_mail=char.wears_mail)
    roll = ctx.dice.dice(damage_label(who), plan.count, 6, plan.bonus)
    taken = max(0, roll.total - char.armour_points)
    was_unconscious = char.unconscious
    details = WoundNote()
    events = ex.events[who]
    char = apply_wound(ctx, char, taken, f"own {side.weapon.name}", events, details)
    fall = None
    if char.unconscious and not was_unconscious and "knocked_down" not in events:
        char, fall = fall_check(ctx, char, char.mounted, side.on_wall, events)
    ex.chars[who] = char
    _note_dying(ex, who)
    return SelfHit(who=who, damage_dice=plan.text(), damage_rolled=roll.total, armour=char.armour_points,
                   damage_taken=taken, major_wound=details.major_wound, fall=fall, hit_points=ctx.hp(char))


def _lance(ctx: Ctx, ex: Exchange, outcome: AttackOutcome, winner: str, a_roll: Roll, d_roll: Roll | None
          ) -> AttackOutcome:
    ruling = ctx.rulings.text("lance_breaks")
    rolls = {"attacker": a_roll, "defender": d_roll}
    for who in SIDES:
        side = ex.sides[who]
        if not (side.charge and side.weapon.breaks_on_charge) or ex.chars[who].must_rearm:
            continue
        roll = rolls[who]
        odd = False
        if ruling == "odd_damage" and who == winner and outcome.damage_roll_total is not None:
            odd = outcome.damage_roll_total % 2 == 1
        elif ruling == "odd_roll" and roll is not None:
            odd = roll.faces[0] % 2 == 1
        if odd:
            ex.weapon_lost(who, "break")
            outcome = replace(outcome, lance_broken=who if outcome.lance_broken is None else "both")
    return outcome
