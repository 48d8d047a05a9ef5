"""Fading Suns outcomes as words: goal rolls, defences, wounds and their effects, healing, rest.

Each action's record (rules/fading_suns/outcomes.py) has one describer in ``DESCRIBERS``, chosen by the record's
type. A describer is put together from parts: each part (the goal roll, the defence, the damage, the wound's
effect, the checks...) is one small function that words its piece once for both forms, the full one (``fields``,
the Details button) and the brief one (the public message's ``numbers`` and ``brief`` lines).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.ui.outcomes.common import (
    MORTAL_MARK,
    Field,
    OutcomeText,
    Severity,
    _num,
    human,
    joined,
    signed,
    text,
    worst,
)
from bot.ui.outcomes.decisions import decision_severity, decision_words
from rules.fading_suns.outcomes import (
    Aftermath,
    AttackOutcome,
    Check,
    ConditionOutcome,
    EffectOutcome,
    EndFightOutcome,
    GmDecideOutcome,
    GoalRoll,
    HealOutcome,
    InitiativeOutcome,
    InitiativeSide,
    InjureOutcome,
    Penalties,
    RecoverOutcome,
    RestOutcome,
    UnequipOutcome,
)
from rules.outcome import Outcome

Names = tuple[str, str]  # the acting character's and the target's, as the message shows them

_SEVERITY = {"minor": Severity.LIGHT, "major": Severity.SERIOUS, "grievous": Severity.GRIEVOUS,
             "crippled": Severity.MORTAL}
_EFFECT_SEVERITY = {"stun": Severity.SERIOUS, "unconscious": Severity.GRIEVOUS, "death": Severity.MORTAL}
_EFFECT_WORDS = {"stun": "**stunned**", "unconscious": "knocked **unconscious**", "death": "**killed**",
                 "pending": "waiting for the effect roll"}
_COLUMNS = {"stun": "STUN", "stun_uncon": "STUN/UNCON", "uncon_death": "UNCON/DEATH", "death": "DEATH",
            "stumble": "STUMBLE", "fumble": "FUMBLE"}
_CONSEQUENCES = {"prone": "falls prone", "drop_weapon": "drops the weapon"}
_DEFENCE_VERBS = {"dodge": "dodges", "parry": "parries", "block": "blocks"}
# Who chose the defence (the defender's side does: the attack named it only if its caller controls the target).
_DEFENCE_FROM = {"attack": "chosen for the defender's side", "sheet": "the defence on the target's sheet",
                 "ruling": "no defence named: a dodge, as this server rules (ruling `unnamed_defense`)",
                 "sheet_fallback": "the sheet's defence cannot meet this attack: a dodge instead",
                 "ruling_fallback": "a dodge"}
_NO_DEFENCE = {"none_chosen": "its side chose none", "stunned": "stunned", "unconscious": "unconscious",
               "dying": "dying", "dead": "dead"}
_ENDED = {"prone": "gets up", "stunned": "shakes off the stun", "shield_spent": "recharges the energy shield"}


@dataclass
class Part:
    """One piece of an outcome in words: its Details fields, its public lines, its totals (each with the side
    whose roll it is: an NPC target's are left out under secret rolls, ``OutcomeText.own_numbers``) and how bad
    it is."""

    fields: list[Field] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    numbers: list[tuple[str, str]] = field(default_factory=list)
    severity: Severity = Severity.INFO  # the lowest: a part that says nothing of harm leaves the headline's


def _put_together(headline: str, parts: Sequence[Part], severity: Severity, brief: bool = True) -> OutcomeText:
    numbers = [n for part in parts for n in part.numbers]
    return OutcomeText(
        headline, [f for part in parts for f in part.fields], worst(severity, *(p.severity for p in parts)),
        [line for part in parts for line in part.lines] if brief else None,
        joined([n for _, n in numbers]) or None,
        own_numbers=joined([n for side, n in numbers if side == "attacker"]) or None)


def _side(names: Names, side: str) -> str:
    return {"attacker": names[0], "defender": names[1]}.get(side, text(side))


# -- the parts ------------------------------------------------------------------------------------------------


def _goal(roll: GoalRoll) -> str:
    """A goal roll in full: ``7 vs goal 11: **success**, 2 VP (dex 6, melee 5)``; a secret one (its numbers
    left out, ``GoalRoll.hiding_numbers``) by what it did: ``**success**``."""
    if not roll.made and roll.result:
        return f"**{human(roll.result)}**"
    line = f"{_num(roll.roll)} vs goal {_num(roll.goal)}"
    if roll.result:
        line += f": **{human(roll.result)}**"
    if roll.victory_points:
        line += f", {roll.victory_points} VP"
    shown = [f"{human(k)} {v if v >= 0 else signed(v)}" for k, v in roll.modifiers.items() if v]
    return line + (f" ({', '.join(shown)})" if shown else "")


def _goal_brief(roll: GoalRoll) -> str:
    """A goal roll in the public line: ``7 vs 11: success, 2 VP``."""
    vp = f", {roll.victory_points} VP" if roll.victory_points else ""
    return f"{_num(roll.roll)} vs {_num(roll.goal)}: {human(roll.result or '?')}{vp}"


def _defends(kind: str) -> str:
    """``dodges``, ``parries``: the defence's verb, third person."""
    return _DEFENCE_VERBS.get(kind) or (f"{human(kind)}s" if kind else "defends")


def _attack_roll(o: AttackOutcome) -> Part:
    name = f"Goal roll ({text(o.weapon)})" if o.weapon else "Goal roll"
    numbers = [("attacker", _goal_brief(o.attack_roll))] if o.attack_roll.made else []
    return Part([(name, _goal(o.attack_roll), False)], numbers=numbers)


def _critical_failure(o: AttackOutcome, names: Names) -> Part:
    """A passed FUMBLE after a critical failure: nothing worse happened, and the public message says so."""
    fumble = o.fumble
    if fumble is None or not fumble.passed:
        return Part()
    return Part(lines=[f"FUMBLE passed: {names[0]} keeps hold of the {text(o.weapon)}"])


def _defence(o: AttackOutcome, names: Names) -> Part:
    defender = names[1]
    if o.defense is not None:
        line = f"{defender} {_defends(o.defense.kind)}: {_goal(o.defense.roll)}"
        if o.net_victory_points is not None and not o.defended:
            line += f"\n{o.net_victory_points} VP get through"
        where = _DEFENCE_FROM.get(str(o.defense_from))
        if where:
            line += f"\n{where}"
        numbers = [("defender", f"{human(o.defense.kind or 'defence')} {_num(o.defense.roll.roll)} vs "
                                f"{_num(o.defense.roll.goal)}")] if o.defense.roll.made else []
        return Part([("Defence", line, False)], numbers=numbers)
    if o.no_defense and o.hit:
        why = _NO_DEFENCE.get(o.no_defense, human(o.no_defense))
        return Part([("Defence", f"{defender} makes none: {why}", False)])
    return Part()


def _damage(o: AttackOutcome) -> Part:
    if not o.hit or (o.damage is None and o.damage_before_armor is None):
        return Part()
    line = f"{_num(o.base)} + {_num(o.bonus)} VP = {_num(o.damage_before_armor)}"
    if o.damage is None:  # the target's armour is the GM's (secret rolls): what the attacker dealt, not what got in
        return Part([("Damage", f"{line}, against armour the GM keeps secret", False)],
                    numbers=[("attacker", f"damage {_num(o.damage_before_armor)}")])
    if o.shield is not None and o.shield.activated:
        line += f" \u2212 {text(o.shield.name)} shield {o.shield.absorbed} ({o.shield.hits_left} hits left)"
    line += f" \u2212 armour {_num(o.armor)}" + (f" ({text(list(o.armor_pieces))})" if o.armor_pieces else "")
    line += f" = **{o.damage}**"
    if o.damage_type:
        line += f" {human(o.damage_type)}"
    return Part([("Damage", line, False)],
                numbers=[("attacker", f"damage {_num(o.damage_before_armor)} \u2212 armour {_num(o.armor)}")])


def _wound(severity: str | None, location: str | None, wound: int | None) -> Part:
    if not severity:
        return Part()
    where = text(location) if location else None
    return Part([("Wound", f"**{human(severity)}** on the {where} (wound `{_num(wound)}`)", True)],
                severity=_SEVERITY.get(severity, Severity.NONE))


def _effect(after: Aftermath, who: str) -> Part:
    """The wound's effect roll and what it did to ``who``."""
    part = Part()
    roll = after.effect_roll
    if roll is not None:
        column = _COLUMNS.get(roll.column, human(roll.column))
        result = human(roll.effect or after.effect or "none")
        totals = f"{_num(roll.roll.roll)} vs {_num(roll.roll.goal)}: " if roll.roll.made else ""
        part.fields.append((f"{column} roll (2 \u00d7 END)", f"{totals}**{human(roll.roll.result or '?')}** \u2192 "
                            + ("no effect" if result == "none" else result), True))
    effect = after.effect
    if effect and effect != "none":
        words = _EFFECT_WORDS.get(effect, human(effect))
        if after.dying:
            words = "**dying**: the GM confirms death or spares them"
            part.lines.append(f"{MORTAL_MARK} {who} is **dying**")  # the waiting line says what the GM decides
        else:
            part.lines.append(f"{who} is {_EFFECT_WORDS.get(effect, human(effect))}")
        part.fields.append(("Effect", f"{who} is {words}", True))
        part.severity = _EFFECT_SEVERITY.get(effect, Severity.SERIOUS)
    return part


def _checks(after: Aftermath, names: Names) -> Part:
    """Every STUMBLE and FUMBLE: in full each roll, in public what came of it (a dropped weapon is said once,
    on the line of its own that ``_dropped`` gives)."""
    part = Part()
    for check in after.checks:
        who = _side(names, check.who)
        name = _COLUMNS.get(check.check, human(check.check))
        part.fields.append((name, _check_line(check, who), True))
        if check.consequences:
            said = [_CONSEQUENCES.get(c, human(c)) for c in check.consequences
                    if not (c == "drop_weapon" and after.dropped)]
            part.lines.append(f"{name}: {who} {', '.join(said)}" if said else f"{name} failed")
    return part


def _check_line(check: Check, who: str) -> str:
    if not check.roll.made and (check.note or not check.roll.result):
        return f"{who}: {human(check.note or 'not rolled')}"
    line = f"{who}: {_goal(check.roll)}"
    if check.consequences:
        line += f" \u2192 {', '.join(human(c) for c in check.consequences)}"
    return line


def _per_side(value: Mapping[str, Sequence[str]], names: Names) -> list[tuple[str, Sequence[str]]]:
    return [(_side(names, side), items) for side, items in value.items() if items]


def _conditions(after: Aftermath, names: Names) -> Part:
    return Part([("Condition", f"{who}: {text(list(items))}", True) for who, items in _per_side(after.conditions,
                                                                                                   names)])


def _dropped(after: Aftermath, names: Names, in_full: bool = True, thrown: str | None = None) -> Part:
    """Weapons that left a hand: dropped, or the attacker's ``thrown`` one ("Thug 1 drops the knife" read wrong
    after a throw, issue 34, F2)."""
    dropped = {side: tuple(i for i in items if not (side == "attacker" and i == thrown))
               for side, items in after.dropped.items()}
    said = [f"{who} drops the {text(list(items))}" for who, items in _per_side(dropped, names)]
    fields = [("Dropped", line, True) for line in said]
    if thrown is not None:
        line = f"{names[0]} threw the {text(thrown)}: it lies where it landed"
        said.insert(0, line)
        fields.insert(0, ("Thrown", line, True))
    return Part(fields if in_full else [], lines=said)


def _thrown(o: AttackOutcome) -> str | None:
    """The hand weapon a missile attack threw, unless a fumble had already dropped it."""
    if o.mode != "missile" or o.weapon not in o.after.dropped.get("attacker", ()):
        return None
    fumbled = any(c is not None and c.who == "attacker" and "drop_weapon" in c.consequences
                  for c in (*o.after.checks, o.after.fumble_roll))
    return None if fumbled else o.weapon


def _penalties(penalties: Penalties, who: str) -> Part:
    if not penalties.any:
        return Part()
    shown = ", ".join(f"{name} {signed(value)}" for name, value in (("goal", penalties.goal),
                                                                    ("initiative", penalties.initiative)) if value)
    return Part([("Wound penalties", f"{who}: {shown}", True)])


# -- one describer per record -----------------------------------------------------------------------------------


def _attack_headline(o: AttackOutcome, names: Names) -> tuple[str, Severity]:
    attacker, defender = names
    where = text(o.location) if o.location else None
    if o.missed:
        if o.attack_roll.critical_failure:
            if o.went_wrong:
                return f"**Critical failure**: {attacker}'s attack goes badly wrong.", Severity.NONE
            return f"**Critical failure**: {attacker}'s attack fails.", Severity.NONE
        return f"**Miss**: {attacker}'s attack fails.", Severity.NONE
    if o.defended:
        verb = _defends(o.defense.kind) if o.defense is not None else "turns aside"
        return f"**{defender}** {verb} the attack.", Severity.NONE
    if o.severity:
        return f"**Hit** on {defender}'s **{where}**: a **{human(o.severity)}** wound.", Severity.NONE
    if where is not None:
        return f"**Hit** on {defender}'s **{where}**, but nothing gets through.", Severity.NONE
    return f"{attacker} acts.", Severity.INFO


def attack(o: AttackOutcome, names: Names) -> OutcomeText:
    headline, severity = _attack_headline(o, names)
    parts = [_attack_roll(o), _critical_failure(o, names), _defence(o, names), _damage(o),
             _wound(o.severity, o.location, o.wound), _effect(o.after, names[1]), _checks(o.after, names),
             _conditions(o.after, names), _dropped(o.after, names, thrown=_thrown(o)),
             _penalties(o.after.penalties, names[1])]
    return _put_together(headline, parts, severity)


def injure(o: InjureOutcome, names: Names) -> OutcomeText:
    """A GM-applied injury: the character is ``names[1]`` (the target, or the one acted on)."""
    who = names[1]
    where = text(o.location) if o.location else None
    if o.severity:
        headline = f"**Hit** on {who}'s **{where}**: a **{human(o.severity)}** wound."
    elif where is not None:
        headline = f"**Hit** on {who}'s **{where}**, but nothing gets through."
    else:
        headline = f"{names[0]} acts."
    parts = [_wound(o.severity, o.location, o.wound), _effect(o.after, who), _checks(o.after, names),
             _conditions(o.after, names), _dropped(o.after, names), _penalties(o.after.penalties, who)]
    return _put_together(headline, parts, Severity.NONE)


def effect(o: EffectOutcome, names: Names) -> OutcomeText:
    """A roll the GM made for ``names[0]``: the wound's effect, or a STUMBLE or FUMBLE."""
    who = names[0]
    own = (who, who)
    after = o.after
    if not after.effect or after.effect == "none":
        said = "no effect."
    elif after.dying:
        said = "a deadly wound, for the GM to confirm."
    else:
        said = f"{_EFFECT_WORDS.get(after.effect, human(after.effect))}."
    numbers = Part()
    if after.effect_roll is not None:
        roll = after.effect_roll
        column = _COLUMNS.get(roll.column, human(roll.column))
        numbers.numbers.append(("attacker", f"{column} roll {_num(roll.roll.roll)} vs {_num(roll.roll.goal)}: "
                                            f"{human(roll.roll.result or '?')}"))
    rolled = _effect(after, who)
    if not after.dying:
        rolled.lines = []  # the headline says the effect
    parts = [rolled, _checks(after, own), _conditions(after, own), _penalties(after.penalties, who),
             _dropped(after, own, in_full=False), numbers]
    return _put_together(f"**{who}** rolls for the wound's effect: {said}", parts, Severity.NONE)


def heal(o: HealOutcome, names: Names) -> OutcomeText:
    healer, patient = names
    skill = human(o.skill or "treatment").title()
    whose = "their own" if healer == patient else f"{patient}'s"
    wound = f"{human(o.severity)} " if o.severity else ""
    headline = f"{healer} treats {whose} {wound}wound `{_num(o.wound)}` with {skill}: " \
               f"**{human(o.heal_roll.result or '?')}**."
    fields: list[Field] = [(f"{skill} roll", _goal(o.heal_roll), False)]
    if o.treated:
        days = o.days_credited
        fields.append(("Treated", "the wound heals faster" + (f"; {days} day{'s' if days != 1 else ''} of healing "
                                                               "credited" if days else ""), True))
    fields += _penalties(o.penalties, patient).fields
    return OutcomeText(headline, fields, Severity.LIGHT if o.heal_roll.success else Severity.SERIOUS)


def _healing(o: RestOutcome) -> Part:
    """Each wound's steps on one line, with the day of the rest each came (events stored before the days were
    kept say the steps alone); in full, one line a step."""
    steps = [f"wound `{step.wound}` ({human(step.from_)}) " + (f"mends to {human(step.to)}" if step.to else "heals")
             + (f" on day {step.day}" if step.day is not None else "") for step in o.healed]
    by_wound: dict[int, list[str]] = {}
    for step in o.healed:
        if not by_wound.get(step.wound):
            by_wound[step.wound] = [f"wound `{step.wound}` {human(step.from_)}"]
        when = f" (day {step.day})" if step.day is not None else ""
        by_wound[step.wound].append(f"{human(step.to) if step.to else 'healed'}{when}")
    lines = [" \u2192 ".join(chain) for chain in by_wound.values()] or ["no wound mends yet"]
    lines[0] = f"Healing: {lines[0]}"
    return Part([("Healing", "\n".join(steps) or "no wound mends yet", False)], lines=lines)


_RESTED_OFF = {"unconscious": "comes round", "stunned": "shakes off the stun", "prone": "gets up"}  # in this order


def rest(o: RestOutcome, names: Names) -> OutcomeText:
    who = names[0]
    left = ", ".join(f"`{w.index}` {text(w.location)} {human(w.severity)}" for w in o.wounds)
    after = Part([("Wounds left", left, False)] if left else [], lines=[f"Wounds left: {left}"] if left else [])
    # what the rest ended, as the character does it ("Recovered: prone" read as a condition gained, issue 34, F5)
    cleared = sorted(o.conditions_cleared, key=lambda c: list(_RESTED_OFF).index(c) if c in _RESTED_OFF else 9)
    recovered = f"{who} {' and '.join(_RESTED_OFF.get(c, f'is no longer {human(c)}') for c in cleared)}" \
        if cleared else ""
    penalties = _penalties(o.penalties, who)
    inline = ([recovered] if recovered else []) + [f"{n}: {v}" for n, v, _ in penalties.fields]
    # short ones side by side, as the other small outcomes' lines are (action_embeds._compact)
    tail = Part([("Recovered", recovered, True)] if recovered else [],
                lines=[" \u00b7 ".join(inline)] if all(len(x) <= 40 for x in inline) and inline else inline)
    tail.fields += penalties.fields
    return _put_together(f"**{who}** rests {o.days} day{'s' if o.days != 1 else ''}.", [_healing(o), after, tail],
                         Severity.LIGHT)


def recover(o: RecoverOutcome, names: Names) -> OutcomeText:
    who = names[0]
    if o.picked_up:
        headline = f"**{who}** picks up the {text(list(o.picked_up))}."
    elif o.cleared:
        headline = f"**{who}** is no longer {text(list(o.cleared))}."
    else:
        headline = f"**{who}** has nothing to recover from."
    fields: list[Field] = [("Condition", f"{who}: {text(list(o.conditions))}", True)] if o.conditions else []
    return OutcomeText(headline, fields, Severity.INFO)


def gm_decided(o: GmDecideOutcome, names: Names) -> OutcomeText:
    who = names[0]
    fields: list[Field] = [("Condition", f"{who}: {text(list(o.conditions))}", True)] if o.conditions else []
    return OutcomeText(decision_words(o.decision, o.choice, who), fields, decision_severity(o.choice))


def _initiative_side(side: InitiativeSide) -> str:
    acts = "" if side.can_act else ", cannot act"
    return f"{side.name}: initiative **{side.score}** ({text(side.weapon)}{acts})"


def initiative(o: InitiativeOutcome, names: Names) -> OutcomeText:
    sides = [side for side in (o.initiative.attacker, o.initiative.defender) if side is not None]
    first = {"attacker": names[0], "defender": names[1]}.get(str(o.first))
    headline = (f"**{first}** acts first." if first else "Both act at once." if o.first == "simultaneous"
                else "Neither can act.")
    return OutcomeText(headline, [("Initiative", "\n".join(_initiative_side(s) for s in sides), False)],
                       Severity.INFO)


def unequip(o: UnequipOutcome, names: Names) -> OutcomeText:
    return OutcomeText(f"**{names[0]}** no longer carries the {text(o.removed)}.", [], Severity.INFO)


def end_fight(o: EndFightOutcome, names: Names) -> OutcomeText:
    who = names[0]
    said = [_ENDED.get(x, f"is no longer {human(x)}") for x in o.ended]
    if o.gathered:
        said.append(f"gathers the {text(list(o.gathered))}")
    headline = f"**{who}** " + (", ".join(said) if said else "has nothing that lasts only for a fight") + "."
    return OutcomeText(headline, [], Severity.INFO)


def condition(o: ConditionOutcome, names: Names) -> OutcomeText:
    who = names[0]
    return OutcomeText(f"**{who}**: {text(list(o.conditions)) if o.conditions else 'no condition'}.",
                       [("Condition", f"{who}: {text(list(o.conditions))}", True)] if o.conditions else [],
                       Severity.INFO)


# record type -> its words (bot/ui/outcomes/__init__.py's describe dispatches on the record's type)
DESCRIBERS: dict[type[Outcome], Callable[[Any, Names], OutcomeText]] = {
    AttackOutcome: attack,
    InjureOutcome: injure,
    EffectOutcome: effect,
    HealOutcome: heal,
    RestOutcome: rest,
    RecoverOutcome: recover,
    GmDecideOutcome: gm_decided,
    InitiativeOutcome: initiative,
    UnequipOutcome: unequip,
    EndFightOutcome: end_fight,
    ConditionOutcome: condition,
}
