"""The loser's phase and what follows a wound: knockdown, major wounds, collapse, dying, falls."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rules.dice import Roll
from rules.errors import no_room_for_a_wound
from rules.pendragon.character import MAX_LIST, Character, WoundRecord
from rules.pendragon.context import Ctx
from rules.pendragon.opposed import SUCCESSES
from rules.pendragon.outcomes import Fall, Knockdown, MajorWoundEffects, RollView


def roll_view(roll: Roll) -> RollView:
    return RollView(face=roll.faces[0], total=roll.total, target=roll.target, result=roll.result)


@dataclass
class WoundNote:
    """What ``apply_wound`` did, for the record of the action that dealt the wound (filled as it goes)."""

    wound_index: int | None = None
    major_wound: bool = False
    major_wound_effects: MajorWoundEffects | None = None


def add_decision(char: Character, decision: dict[str, Any]) -> Character:
    same = [d for d in char.pending_decisions if d.get("kind") == decision["kind"]
            and d.get("skill") == decision.get("skill")]
    if same:
        return char
    return char.with_(pending_decisions=(*char.pending_decisions, decision))


def add_pending_roll(char: Character, roll: dict[str, Any]) -> Character:
    return char.with_(pending_rolls=(*char.pending_rolls, roll))


def drop_pending_roll(char: Character, kind: str) -> tuple[Character, dict[str, Any] | None]:
    for number, roll in enumerate(char.pending_rolls):
        if roll.get("kind") == kind:
            rest = char.pending_rolls[:number] + char.pending_rolls[number + 1:]
            return char.with_(pending_rolls=rest), dict(roll)
    return char, None


# -- knockdown ----------------------------------------------------------------------------------


def knockdown_triggered(ctx: Ctx, char: Character, damage: int) -> tuple[bool, bool]:
    """(roll needed or automatic, automatic) for a blow of ``damage`` against the Knockdown value."""
    size = ctx.derived(char).knockdown
    if ctx.rulings.text("knockdown_trigger") == "exceeds":
        triggered = damage > size
    else:
        triggered = damage >= size
    automatic = triggered and ctx.rulings.flag("knockdown_automatic_at_double") and damage >= 2 * size
    return triggered, automatic


def knockdown_check(ctx: Ctx, char: Character, damage: int, mounted: bool, events: list[str]
                    ) -> tuple[Character, Knockdown | None]:
    """First in the loser's phase: Knockdown from the rolled damage. None when no roll is called for, nor for
    one already lying on the ground (prone, not on a horse): he cannot be knocked down further."""
    triggered, automatic = knockdown_triggered(ctx, char, damage)
    if not triggered or (char.prone and not mounted):
        return char, None
    size = ctx.derived(char).knockdown
    view = Knockdown(damage=damage, size=size, automatic=automatic, skill="horsemanship" if mounted else "dex")
    if automatic:
        view = replace(view, passed=False)
    elif not ctx.rulings.flag("auto_rolls"):
        char = add_pending_roll(char, {"kind": "knockdown", "damage": damage, "mounted": mounted})
        events.append("knockdown_pending")
        return char, replace(view, pending=True)
    else:
        target = char.skill("horsemanship") if mounted else ctx.dex_target(char)
        roll = ctx.dice.pendragon("knockdown", target)
        view = replace(view, face=roll.faces[0], total=roll.total, target=roll.target, result=roll.result,
                       passed=roll.result in SUCCESSES)
    if not view.passed:
        char, fall = knocked_down(ctx, char, "horse" if mounted else None, events,
                                  ctx.catalog.combat.knockdown_fall_damage)
        view = replace(view, fall_damage=fall)
    return char, view


def knocked_down(ctx: Ctx, char: Character, height: str | None, events: list[str], spec: Any
                 ) -> tuple[Character, int | None]:
    """Fall prone; from horseback (``height`` "horse") or a wall the fall itself hurts."""
    events.append("knocked_down")
    char = char.with_(prone=True, mounted=False)
    if height is None:
        return char, None
    events.append("fell_from_horse" if height == "horse" else "fell_from_wall")
    amount = ctx.roll_spec("fall_damage", spec)
    char = apply_wound(ctx, char, amount, "fall", events)
    return char, amount


# -- wounds -------------------------------------------------------------------------------------


def is_major(ctx: Ctx, char: Character, amount: int) -> bool:
    threshold = ctx.derived(char).major_wound
    if ctx.rulings.text("major_wound_threshold") == "exceeds":
        return amount > threshold
    return amount >= threshold


def apply_wound(ctx: Ctx, char: Character, amount: int, source: str, events: list[str],
                details: WoundNote | None = None) -> Character:
    """Record a wound, subtract it from hit points, then major wound, collapse and dying, in that order."""
    if amount <= 0:
        return char
    if len(char.wounds) >= MAX_LIST:
        raise no_room_for_a_wound(char.name, MAX_LIST)
    derived = ctx.derived(char)
    major = is_major(ctx, char, amount)
    mortal = amount >= derived.hit_points
    index = char.wounds_taken + 1
    wound = WoundRecord(index=index, amount=amount, remaining=amount, major=major, mortal=mortal, source=source)
    char = char.with_(wounds=(*char.wounds, wound), wounds_taken=index)
    events.append("wounded")
    if details is not None:
        details.wound_index = index
        details.major_wound = major
    if major:
        events.append("major_wound")
        char = char.with_(chirurgery_needed=True)
        if ctx.rulings.flag("auto_rolls"):
            char, effects = major_wound_effects(ctx, char, index, events)
            if details is not None:
                details.major_wound_effects = effects
        else:
            char = add_pending_roll(char, {"kind": "major_wound", "wound": index})
            events.append("major_wound_pending")
    return check_condition(ctx, char, events, mortal=mortal)


def check_condition(ctx: Ctx, char: Character, events: list[str], mortal: bool = False) -> Character:
    """Current hit points against the Unconscious value, then 0 or less: dying."""
    hp = ctx.hp(char)
    derived = ctx.derived(char)
    if hp < derived.unconscious and not char.unconscious:
        char = char.with_(unconscious=True, prone=True, chirurgery_needed=True)
        events.append("unconscious")
    if hp <= 0 and not char.dying and not char.dead:
        char = char.with_(dying=True, mortal=mortal, chirurgery_needed=True, unconscious=True, prone=True)
        events.append("dying")
    elif hp <= 0 and mortal and char.dying and not char.mortal:
        char = char.with_(mortal=True)
    return offer_dying(char)


def offer_dying(char: Character) -> Character:
    """The GM's death-or-survival decision for the dying, once nothing still owed can change his hit points:
    a knockdown, major wound or fall roll that waits for the GM (a fall's wound, a lost SIZ or CON), or the
    GM's own word on a gentle fall's damage. Offered with them, Survival ("at 1 hit point") would be undone by
    the roll made after it and asked again (issue 18); the roll that settles the last of them offers it."""
    if not char.dying or char.dead or any(d.get("kind") == "dying" for d in char.pending_decisions):
        return char
    if char.pending_rolls or any(d.get("kind") == "fall_damage" for d in char.pending_decisions):
        return char
    return add_decision(char, {"kind": "dying", "options": ["death", "survival"],
                               "deadline": "hour" if char.mortal else "midnight"})


def hold_dying(char: Character) -> Character:
    """Take back a death-or-survival decision still open while something that can change his hit points is owed
    (``offer_dying`` offers it again after)."""
    return char.with_(pending_decisions=tuple(d for d in char.pending_decisions if d.get("kind") != "dying"))


def major_wound_effects(ctx: Ctx, char: Character, index: int, events: list[str]
                        ) -> tuple[Character, MajorWoundEffects]:
    """Stay conscious (d20 against current hit points), stay in the fight (Valorous), Statistics Lost."""
    out = MajorWoundEffects()
    mode = ctx.rulings.text("major_wound_unconscious")
    # Already collapsing (hit points under the Unconscious value): no roll can keep him up.
    collapsed = char.unconscious or ctx.hp(char) < ctx.derived(char).unconscious
    conscious = not collapsed
    if not collapsed and mode == "always":
        conscious = False
    elif not collapsed and mode == "roll":
        roll = ctx.dice.pendragon("major_wound", ctx.hp(char))
        out = replace(out, conscious_roll=roll_view(roll))
        conscious = roll.result in SUCCESSES
    if not conscious and not char.unconscious:
        char = char.with_(unconscious=True, prone=True)
        events.append("unconscious")
    if conscious and ctx.rulings.flag("valorous_roll"):
        roll = ctx.dice.pendragon("valorous", char.trait("valorous", ctx.catalog.combat.default_valorous))
        out = replace(out, valorous_roll=roll_view(roll))
        if roll.result not in SUCCESSES:
            char = char.with_(out_of_fight=True)
            events.append("out_of_fight")
    if ctx.rulings.flag("stat_loss"):
        char, lost = lose_stat(ctx, char, index)
        out = replace(out, stat_lost=lost)
    return char, out


def lose_stat(ctx: Ctx, char: Character, index: int | None) -> tuple[Character, str | None]:
    """One roll on the Statistics Lost table (1d6)."""
    face = ctx.dice.dice("stat_loss", 1, 6).total
    stat = ctx.catalog.combat.stat_loss.get(face)
    if stat is None:
        return char, None
    amount = ctx.catalog.combat.stat_loss_amount
    stats = dict(char.stats)
    stats[stat] = max(1, stats[stat] - amount)
    record = {"stat": stat, "amount": amount, "wound": index}
    return char.with_(stats=stats, stats_lost=(*char.stats_lost, record)), stat


# -- falling unconscious ------------------------------------------------------------------------


def fall_check(ctx: Ctx, char: Character, mounted: bool, on_wall: bool, events: list[str]
               ) -> tuple[Character, Fall | None]:
    """Unconscious on horseback or a wall: DEX roll; success a gentle fall, failure a Knockdown."""
    if not (mounted or on_wall):
        return char, None
    if not ctx.rulings.flag("auto_rolls"):
        events.append("fall_pending")
        char = hold_dying(add_pending_roll(char, {"kind": "fall", "mounted": mounted, "on_wall": on_wall}))
        return char, Fall(pending=True)
    return roll_fall(ctx, char, mounted, on_wall, events)


def roll_fall(ctx: Ctx, char: Character, mounted: bool, on_wall: bool, events: list[str]
              ) -> tuple[Character, Fall]:
    roll = ctx.dice.pendragon("fall", ctx.dex_target(char))
    passed = roll.result in SUCCESSES
    amount: int | None = None
    if passed:
        events.append("gentle_fall")
        char = char.with_(prone=True, mounted=False)
        # the GM's word on the fall's damage comes before death or survival (which it could undo)
        char = hold_dying(add_decision(char, {"kind": "fall_damage", "options": ["none", "damage"]}))
    else:
        char, amount = knocked_down(ctx, char, "horse" if mounted else "wall", events,
                                    ctx.catalog.combat.unconscious_fall_damage)
    return char, Fall(face=roll.faces[0], total=roll.total, target=roll.target, result=roll.result, passed=passed,
                      fall_damage=amount)


# -- recovering ---------------------------------------------------------------------------------


def after_healing(ctx: Ctx, char: Character, events: list[str]) -> Character:
    """Back to 1 hit point saves the dying (a mortal wound then costs three Statistics Lost rolls);
    back to the Unconscious value wakes the unconscious."""
    hp = ctx.hp(char)
    if char.dying and hp >= 1:
        events.append("saved")
        was_mortal = char.mortal
        char = char.with_(dying=False, mortal=False,
                          pending_decisions=tuple(d for d in char.pending_decisions if d.get("kind") != "dying"))
        if was_mortal and ctx.rulings.flag("stat_loss"):
            for _ in range(ctx.catalog.combat.mortal_stat_rolls):
                char, _lost = lose_stat(ctx, char, None)
    if char.unconscious and not char.dying and hp >= ctx.derived(char).unconscious:
        events.append("woke")
        char = char.with_(unconscious=False)
    return char


def heal(char: Character, amount: int, wound_index: int | None = None) -> tuple[Character, int]:
    """Take ``amount`` off the wounds (one wound, or oldest first); healed wounds leave the sheet."""
    left = amount
    wounds: list[WoundRecord] = []
    for wound in char.wounds:
        if left > 0 and (wound_index is None or wound.index == wound_index):
            used = min(left, wound.remaining)
            left -= used
            wound = WoundRecord(wound.index, wound.amount, wound.remaining - used, wound.major, wound.mortal,
                                wound.first_aid, wound.source)
        if wound.remaining > 0:
            wounds.append(wound)
    return char.with_(wounds=tuple(wounds)), amount - left
