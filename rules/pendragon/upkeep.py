"""Single-character actions between blows: re-arm, stand, the GM's decisions, rolls that waited.

Each concerns the ``attacker`` sheet only (the bot puts the character acted on there).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from rules.errors import IllegalAction, NotInHand, RulesError
from rules.pendragon.catalog import key
from rules.pendragon.character import Character
from rules.pendragon.context import Ctx
from rules.pendragon.injury import (
    after_healing,
    apply_wound,
    check_condition,
    drop_pending_roll,
    fall_check,
    heal,
    knockdown_check,
    major_wound_effects,
    offer_dying,
    roll_fall,
)
from rules.pendragon.options import Options
from rules.pendragon.outcomes import (
    FallOutcome,
    GmDecideOutcome,
    InitiativeOutcome,
    KnockdownOutcome,
    MajorWoundOutcome,
    RearmOutcome,
    StandOutcome,
    UnequipOutcome,
)

# what each action takes besides "type" (the engine's ACTIONS table lists them)
REARM_OPTIONS: tuple[str, ...] = ("weapon", "replace", "in_fight")
STAND_OPTIONS: tuple[str, ...] = ("mount",)
INITIATIVE_OPTIONS: tuple[str, ...] = ()
GM_DECIDE_OPTIONS: tuple[str, ...] = ("kind", "decision", "skill", "amount", "wound", "source")
KNOCKDOWN_OPTIONS: tuple[str, ...] = ("damage", "mounted")
MAJOR_WOUND_OPTIONS: tuple[str, ...] = ("wound", "mounted", "on_wall")
FALL_OPTIONS: tuple[str, ...] = ("mounted", "on_wall")
UNEQUIP_OPTIONS: tuple[str, ...] = ("kind", "item")

def rearm(ctx: Ctx, char: Character, action: Any) -> tuple[RearmOutcome, Character]:
    """Take up a weapon again: the dropped one by default, or any unbroken one on the sheet.
    ``replace: true`` gives the character a new one of a broken weapon."""
    opts = Options(action, "rearm", REARM_OPTIONS)
    name = opts.text("weapon")
    renew = bool(opts.flag("replace", False))
    if renew and opts.flag("in_fight", False) and not ctx.rulings.flag("replace_broken_in_fight"):
        raise NotInHand(char.name, key(name) if name else (char.broken_weapons or ("weapon",))[0], True,
                        char.ready_choices(), "a broken weapon is replaced between fights; in this one, re-arm "
                        "with another (ruling replace_broken_in_fight)")
    if char.dead or char.unconscious or char.dying:
        raise IllegalAction("attacker cannot re-arm while dead, dying or unconscious")
    if name is None:
        choices = [*char.dropped_weapons] + [w.name for w in char.weapons if w.name not in char.broken_weapons]
        if renew:
            choices += list(char.broken_weapons)
        if not choices:
            raise IllegalAction("attacker has no weapon left to re-arm with (name one with replace: true)")
        chosen = choices[0]
    else:
        chosen = key(name)
        if chosen != ctx.catalog.unarmed and char.carried_weapon(chosen) is None:
            raise RulesError(f"action rearm: '{chosen}' is not on the attacker's sheet")
        if chosen in char.broken_weapons and not renew:
            raise IllegalAction(f"attacker's {chosen} is broken (replace: true for a new one)")
    broken = tuple(w for w in char.broken_weapons if w != chosen)
    dropped = tuple(w for w in char.dropped_weapons if w != chosen)
    wielding = None if chosen == ctx.catalog.unarmed else chosen
    out = char.with_(must_rearm=False, wielding=wielding, broken_weapons=broken, dropped_weapons=dropped)
    return RearmOutcome(weapon=chosen, replaced=renew and chosen in char.broken_weapons, events=("rearmed",)), out


def stand(ctx: Ctx, char: Character, action: Any) -> tuple[StandOutcome, Character]:
    """Get up after a knockdown (and remount with ``mount: true``)."""
    opts = Options(action, "stand", STAND_OPTIONS)
    mount = bool(opts.flag("mount", False))
    if char.dead or char.unconscious or char.dying:
        raise IllegalAction("attacker cannot stand while dead, dying or unconscious")
    if mount and char.horse is None:
        raise IllegalAction("attacker has no horse on the sheet to mount")
    out = char.with_(prone=False, mounted=mount or char.mounted)
    return StandOutcome(mounted=out.mounted, events=("stood",)), out


def initiative(ctx: Ctx, char: Character | None, action: Any) -> InitiativeOutcome:
    """Pendragon has no initiative: both combatants roll at once in the opposed exchange."""
    Options(action, "initiative", INITIATIVE_OPTIONS)
    return InitiativeOutcome(initiative="simultaneous", winner="none", order=(), events=("no_initiative_in_pendragon",))


@dataclass(frozen=True)
class _Choice:
    """The GM's decision as gm_decide read it, handed to the kind's rule."""

    kind: str
    decision: str
    skill: str | None  # the one named, else the pending decision's
    opts: Options


def _experience_check(ctx: Ctx, char: Character, choice: _Choice, out: GmDecideOutcome, events: list[str]
                      ) -> tuple[GmDecideOutcome, Character]:
    """Approved, the skill gets its experience check."""
    skill = choice.skill
    if skill is None:
        raise RulesError("action gm_decide: an experience check needs a 'skill'")
    if choice.decision == "approve" and key(skill) not in char.experience_checks:
        char = char.with_(experience_checks=(*char.experience_checks, key(skill)))
        events.append("experience_check")
    return replace(out, skill=key(skill)), char


def _dying(ctx: Ctx, char: Character, choice: _Choice, out: GmDecideOutcome, events: list[str]
           ) -> tuple[GmDecideOutcome, Character]:
    """Death, or saved in time."""
    if choice.decision == "death":
        # the dead make no more rolls: a knockdown, major wound or fall roll still waiting is dropped
        events.append("dead")
        return out, char.with_(dead=True, dying=False, pending_rolls=())
    # Saved in time: back to 1 hit point (a mortal wound also costs Statistics Lost rolls; a lost SIZ
    # or CON among them lowers his hit points, and the GM's word is that he lives at 1).
    deficit = 1 - ctx.hp(char)
    if deficit > 0:
        char, _ = heal(char, deficit)
    char = after_healing(ctx, char, events)
    deficit = 1 - ctx.hp(char)
    if deficit > 0:
        char, _ = heal(char, deficit)
    return out, char


def _damage(ctx: Ctx, char: Character, choice: _Choice, out: GmDecideOutcome, events: list[str]
            ) -> tuple[GmDecideOutcome, Character]:
    """Damage the GM sets (a gentle fall's, or any): a new wound, or added to the wound named."""
    fall = choice.kind == "fall_damage"
    amount = choice.opts.whole("amount", 0, 0, 1000) or 0
    if fall and choice.decision == "none":
        amount = 0
    source = choice.opts.text("source", "fall" if fall else "gm") or "gm"
    target = choice.opts.whole("wound", None, 1, 1000000)
    if target is not None:
        if not any(w.index == target for w in char.wounds):
            raise IllegalAction(f"attacker has no wound #{target}")
        char = char.with_(wounds=tuple(replace(w, amount=w.amount + amount, remaining=w.remaining + amount)
                                       if w.index == target else w for w in char.wounds))
        char = check_condition(ctx, char, events)
    else:
        char = apply_wound(ctx, char, amount, source, events)
    return replace(out, amount=amount), char


def _wake(ctx: Ctx, char: Character, choice: _Choice, out: GmDecideOutcome, events: list[str]
          ) -> tuple[GmDecideOutcome, Character]:
    if char.dying or char.dead:
        raise IllegalAction("attacker is dying or dead and cannot wake")
    events.append("woke")
    return out, char.with_(unconscious=False)


def _rejoin(ctx: Ctx, char: Character, choice: _Choice, out: GmDecideOutcome, events: list[str]
            ) -> tuple[GmDecideOutcome, Character]:
    events.append("rejoined")
    return out, char.with_(out_of_fight=False)


@dataclass(frozen=True)
class DecisionKind:
    """One kind of GM decision: the choices the GM has (the first is the default when it is the only one), the
    rule that applies the one made to the character (adding its events), and whether the GM may make it only
    when the character waits on it (a pending decision of that kind), not at will."""

    choices: tuple[str, ...]
    rule: Callable[[Ctx, Character, _Choice, GmDecideOutcome, list[str]], tuple[GmDecideOutcome, Character]]
    only_when_pending: bool = False


DECISIONS: dict[str, DecisionKind] = {
    "experience_check": DecisionKind(("approve", "deny"), _experience_check),
    "dying": DecisionKind(("death", "survival"), _dying, only_when_pending=True),
    "fall_damage": DecisionKind(("none", "damage"), _damage, only_when_pending=True),
    "wake": DecisionKind(("wake",), _wake),
    "rejoin": DecisionKind(("rejoin",), _rejoin),
    "damage": DecisionKind(("apply",), _damage),
}


def gm_decide(ctx: Ctx, char: Character, action: Any) -> tuple[GmDecideOutcome, Character]:
    opts = Options(action, "gm_decide", GM_DECIDE_OPTIONS)
    kind = opts.text("kind", None, tuple(DECISIONS))
    if kind is None:
        raise RulesError(f"action gm_decide: option 'kind' is missing (one of {', '.join(DECISIONS)})")
    decides = DECISIONS[kind]
    choices = decides.choices
    decision = opts.text("decision", choices[0] if len(choices) == 1 else None, choices)
    if decision is None:
        raise RulesError(f"action gm_decide: option 'decision' is missing (one of {', '.join(choices)})")
    skill = opts.text("skill")
    pending = [d for d in char.pending_decisions if d.get("kind") == kind
               and (skill is None or d.get("skill") == key(skill))]
    if decides.only_when_pending and not pending:
        raise IllegalAction(f"attacker has no pending '{kind}' decision")
    if pending:
        first = pending[0]
        char = char.with_(pending_decisions=tuple(d for d in char.pending_decisions if d is not first))
        if skill is None and isinstance(first.get("skill"), str):
            skill = first["skill"]
    events: list[str] = []
    out, char = decides.rule(ctx, char, _Choice(kind, decision, skill, opts),
                             GmDecideOutcome(kind=kind, decision=decision), events)
    char = offer_dying(char)  # a gentle fall's damage settled: death or survival may be asked now
    return replace(out, hit_points=ctx.hp(char), events=tuple(events)), char


def knockdown(ctx: Ctx, char: Character, action: Any) -> tuple[KnockdownOutcome, Character]:
    """The Knockdown roll that waited (auto_rolls off), or one the GM calls for with ``damage``."""
    opts = Options(action, "knockdown", KNOCKDOWN_OPTIONS)
    char, pending = drop_pending_roll(char, "knockdown")
    damage = opts.whole("damage", None, 0, 100000)
    if damage is None:
        if pending is None:
            raise IllegalAction("attacker has no knockdown roll waiting (give 'damage' to call one)")
        damage = int(pending.get("damage", 0)) if isinstance(pending.get("damage"), int) else 0
    mounted = opts.flag("mounted", bool(pending.get("mounted")) if pending else char.mounted)
    events: list[str] = []
    live = ctx.with_auto_rolls()
    char, view = knockdown_check(live, char, damage, bool(mounted), events)
    char = offer_dying(char)  # the last roll owed made: death or survival may be asked now
    return KnockdownOutcome(knockdown=view, prone=char.prone, hit_points=ctx.hp(char), events=tuple(events)), char


def major_wound(ctx: Ctx, char: Character, action: Any) -> tuple[MajorWoundOutcome, Character]:
    """The major wound rolls that waited: stay conscious, Valorous, Statistics Lost."""
    opts = Options(action, "major_wound", MAJOR_WOUND_OPTIONS)
    char, pending = drop_pending_roll(char, "major_wound")
    index = opts.whole("wound", None, 1, 1000000)
    if index is None and pending is not None and isinstance(pending.get("wound"), int):
        index = pending["wound"]
    if index is None:
        majors = [w for w in char.wounds if w.major]
        if not majors:
            raise IllegalAction("attacker has no major wound")
        index = majors[-1].index
    events: list[str] = []
    was_unconscious = char.unconscious
    char, effects = major_wound_effects(ctx.with_auto_rolls(), char, index, events)
    char = check_condition(ctx, char, events)
    fall = None
    mounted = bool(opts.flag("mounted", char.mounted))
    on_wall = bool(opts.flag("on_wall", False))
    if char.unconscious and not was_unconscious and (mounted or on_wall):
        char, fall = fall_check(ctx, char, mounted, on_wall, events)
    char = offer_dying(char)
    return MajorWoundOutcome(wound_index=index, major_wound_effects=effects, unconscious=char.unconscious, fall=fall,
                             hit_points=ctx.hp(char), events=tuple(events)), char


def fall(ctx: Ctx, char: Character, action: Any) -> tuple[FallOutcome, Character]:
    """DEX roll for a character falling unconscious on horseback or a wall (if not already rolled)."""
    opts = Options(action, "fall", FALL_OPTIONS)
    char, pending = drop_pending_roll(char, "fall")
    mounted = bool(opts.flag("mounted", bool(pending.get("mounted")) if pending else char.mounted))
    on_wall = bool(opts.flag("on_wall", bool(pending.get("on_wall")) if pending else False))
    if pending is None and not char.unconscious:
        raise IllegalAction("attacker is not falling unconscious (no fall roll is called for)")
    if not (mounted or on_wall):
        raise IllegalAction("attacker is neither mounted nor on a wall: the fall needs no roll")
    events: list[str] = []
    char, view = roll_fall(ctx, char, mounted, on_wall, events)
    char = offer_dying(char)
    return FallOutcome(fall=view, prone=char.prone, hit_points=ctx.hp(char), events=tuple(events)), char


def unequip(ctx: Ctx, char: Character, action: Any) -> tuple[UnequipOutcome, Character]:
    """An owner's edit: a weapon or armour piece taken off the sheet, and with a weapon whatever state it had
    (in hand, dropped, broken): a weapon added again later comes whole."""
    opts = Options(action, "unequip", UNEQUIP_OPTIONS)
    kind = opts.text("kind", None, ("weapon", "armour"))
    item = opts.text("item")
    if kind is None or item is None:
        raise RulesError("action unequip needs 'kind' (weapon or armour) and 'item'")
    wanted = key(item)
    if kind == "armour":
        piece = next((a for a in char.armour if key(a.name) == wanted), None)
        if piece is None:
            worn = ", ".join(a.name for a in char.armour) or "nothing"
            raise IllegalAction(f"attacker wears no '{item}' (wears: {worn})")
        return (UnequipOutcome(kind=kind, removed=piece.name),
                char.with_(armour=tuple(a for a in char.armour if a is not piece)))
    weapon = next((w for w in char.weapons if key(w.name) == wanted), None)
    if weapon is None:
        carried = ", ".join(w.name for w in char.weapons) or "nothing"
        raise IllegalAction(f"attacker carries no '{item}' (carries: {carried})")
    name = weapon.name
    out = char.with_(weapons=tuple(w for w in char.weapons if w is not weapon),
                     wielding=None if char.wielding == name else char.wielding,
                     dropped_weapons=tuple(w for w in char.dropped_weapons if w != name),
                     broken_weapons=tuple(w for w in char.broken_weapons if w != name))
    return UnequipOutcome(kind=kind, removed=name), out
