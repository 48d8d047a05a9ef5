"""King Arthur Pendragon outcomes as words: opposed exchanges, knockdown, major wounds, treatment, rest.

One describer per record type (rules/pendragon/outcomes.py), chosen by type (``DESCRIBERS``). Each is put
together from small parts, and each part words the full form (the Details fields) and the public one (the
brief lines and the totals) at once, so the two cannot disagree."""

from __future__ import annotations

from collections.abc import Callable, Sequence
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
    plural,
    signed,
    text,
    worst,
)
from bot.ui.outcomes.decisions import decision_severity, decision_words
from rules.outcome import Outcome
from rules.pendragon.outcomes import (
    SIDES,
    AttackOutcome,
    ChirurgeryOutcome,
    ConditionOutcome,
    EndFightOutcome,
    Fall,
    FallOutcome,
    FirstAidOutcome,
    GmDecideOutcome,
    InitiativeOutcome,
    Knockdown,
    KnockdownOutcome,
    MajorWoundEffects,
    MajorWoundOutcome,
    RearmOutcome,
    RestOutcome,
    RollView,
    SideRoll,
    StandOutcome,
    UnequipOutcome,
)

Names = tuple[str, str]
_PASSES = ("success", "critical")


@dataclass
class Part:
    """One piece of an outcome in words: its Details fields, the effects said together in one public line, its
    other public lines, its totals (each with the side whose roll it is: the target's are left out under secret
    rolls, ``OutcomeText.own_numbers``) and how bad it is."""

    fields: list[Field] = field(default_factory=list)
    effects: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    rolls: list[tuple[str, str]] = field(default_factory=list)  # the d20s, said ``14 success vs 9 failure``
    numbers: list[tuple[str, str]] = field(default_factory=list)
    severity: Severity = Severity.INFO  # the lowest: a part that says nothing of harm leaves the headline's


def _put_together(headline: str, parts: Sequence[Part], severity: Severity, brief: bool = True) -> OutcomeText:
    rolls = [r for part in parts for r in part.rolls]
    numbers = [n for part in parts for n in part.numbers]
    effects = joined([e for part in parts for e in part.effects])
    lines = ([effects] if effects else []) + [line for part in parts for line in part.lines]

    def totals(sides: Sequence[str]) -> str | None:
        return joined([" vs ".join(r for side, r in rolls if side in sides),
                       *(n for side, n in numbers if side in sides)]) or None

    return OutcomeText(
        headline, [f for part in parts for f in part.fields], worst(severity, *(p.severity for p in parts)),
        lines if brief else None, totals(SIDES), own_numbers=totals(("attacker",)))


def _side(names: Names, side: str) -> str:
    return {"attacker": names[0], "defender": names[1]}.get(side, text(side))


def _check(total: int | None, target: int | None, passed: bool | None, result: str | None) -> str:
    """A check as ``12 vs 9: **passed**`` (``waiting for the GM`` while neither is known); a secret one (its
    numbers left out by the projection) by what it did: ``**passed**``."""
    if total is None and target is None and (passed is not None or result):
        return f"**{'passed' if passed else 'failed'}**" if passed is not None else f"**{human(result)}**"
    line = _num(total)
    if target is not None:
        line += f" vs {_num(target)}"
    if passed is not None:
        return line + (": **passed**" if passed else ": **failed**")
    return line + (f": **{human(result)}**" if result else ": waiting for the GM")


# -- the exchange's parts -------------------------------------------------------------------------------------


def _opposed(roll: SideRoll | RollView) -> str:
    """A d20 in full: ``11 +3 = 14 vs 23: **success** (mounted +5)``; a secret one (its numbers left out,
    ``SideRoll.hiding_numbers``) by what it did: ``**success**``."""
    if roll.face is None and roll.total is None:
        return f"**{human(roll.result or '?')}**"
    shown = _num(roll.total if roll.total is not None else roll.face)
    if roll.face is not None and roll.total is not None and roll.face != roll.total:
        shown = f"{roll.face} {signed(roll.total - roll.face)} = {roll.total}"
    line = f"{shown} vs {_num(roll.target)}: **{human(roll.result or '?')}**"
    extras = [f"{human(name)} {signed(value)}" for name, value in roll.modifiers] if isinstance(roll, SideRoll) else []
    return line + (f" ({', '.join(extras)})" if extras else "")


def _rolls(out: AttackOutcome, names: Names) -> Part:
    part = Part()
    for who in SIDES:
        roll = out.roll_of(who)
        if roll is None:
            continue
        name = _side(names, who)
        part.fields.append((f"{name} ({text(roll.weapon)})" if roll.weapon else name, _opposed(roll), True))
        total = roll.total if roll.total is not None else roll.face
        part.rolls.append((who, f"{_num(total)} {human(roll.result or '?')}" if total is not None
                             else human(roll.result or "?")))
    return part


def _damage(out: AttackOutcome) -> Part:
    if out.damage_rolled is None:
        return Part()
    armour = f"armour {_num(out.armour)}"
    line = f"{out.damage_rolled} rolled" + (f" on {out.damage_dice}" if out.damage_dice else "")
    if out.critical:
        line += ", **critical**: doubled"
    if out.damage_notes:
        line += f" ({', '.join(human(n) for n in out.damage_notes)})"
    shield = " with shield" if out.shield_applied else ""
    if out.armour is None and out.damage_taken is None:  # the target's armour is the GM's (secret rolls)
        return Part(fields=[("Damage", f"{line}, against armour the GM keeps secret", False)],
                    numbers=[(out.winner, f"damage {out.damage_rolled}")])
    total = f"critical: damage {out.damage_rolled} doubled \u2212 {armour}" if out.critical \
        else f"damage {out.damage_rolled} \u2212 {armour}"
    return Part(fields=[("Damage", f"{line} \u2212 {armour}{shield} = **{_num(out.damage_taken)}**", False)],
                numbers=[(out.winner, total)])


def _knockdown(knockdown: Knockdown | None, hurt: str) -> Part:
    if knockdown is None:
        return Part()
    down = knockdown.passed is False or knockdown.automatic
    check = _check(knockdown.total, knockdown.target, knockdown.passed, knockdown.result)
    if knockdown.pending:  # the public message's "Waiting for the GM" says so: not said twice (issue 22 §4)
        line = f"{hurt} rolls DEX against the blow: waiting for the GM"
    elif knockdown.automatic:
        line = f"twice {hurt}'s SIZ: **knocked down**"
    elif down:
        line = f"{check}\n{hurt} is **knocked down**"
    else:
        line = f"{check}\n{hurt} keeps their feet"
    if knockdown.fall_damage:
        line += f", and the fall deals {knockdown.fall_damage}"
    return Part(fields=[("Knockdown", line, True)], effects=[f"{hurt} is **knocked down**"] if down else [],
                severity=Severity.SERIOUS if down else Severity.INFO)


def _roll_words(roll: RollView) -> str:
    """``3 vs 10, success``; a secret one (its numbers left out by the projection): ``success``."""
    if roll.face is None and roll.total is None and roll.target is None:
        return human(roll.result or "?")
    return f"{_num(roll.total if roll.total is not None else roll.face)} vs {_num(roll.target)}, " \
           f"{human(roll.result or '?')}"


def _major_wound(effects: MajorWoundEffects | None, hurt: str) -> Part:
    """A major wound: chirurgery needed, and what its rolls did (the CON roll, Valorous, a characteristic)."""
    said: list[tuple[str, bool]] = []  # (words, whether the public line says it too)
    if effects is not None:
        conscious, valorous = effects.conscious_roll, effects.valorous_roll
        if conscious is not None:
            said.append((f"stays conscious ({_roll_words(conscious)})", False) if conscious.result in _PASSES
                        else (f"falls **unconscious** ({_roll_words(conscious)})", True))
        if valorous is not None:
            said.append((f"fights on (Valorous {_roll_words(valorous)})", False) if valorous.result in _PASSES
                        else (f"loses heart and **leaves the fight** (Valorous {_roll_words(valorous)})", True))
        lost = effects.stat_lost
        said.append((f"loses a point of **{lost.upper()}**", True) if lost and lost != "none"
                    else ("loses no statistic", False))
    value = f"{hurt} suffers a **major wound** and needs chirurgery" + "".join(f"\n{hurt} {w}" for w, _ in said)
    return Part(fields=[("Major wound", value, False)],
                effects=[f"{hurt} suffers a **major wound**"] + [f"{hurt} {w.split(' (')[0]}" for w, public in said
                                                                 if public],
                severity=Severity.GRIEVOUS)


def _said_unconscious(effects: MajorWoundEffects | None) -> bool:
    roll = effects.conscious_roll if effects is not None else None
    return roll is not None and roll.result not in _PASSES


def _fall(fall: Fall | None, hurt: str) -> Part:
    if fall is None:
        return Part()
    if fall.pending:
        return Part(fields=[("Fall", f"{hurt} falls unconscious: the DEX roll waits for the GM", True)])
    line = f"{_check(fall.total, fall.target, fall.passed, fall.result)}: " + \
        ("a gentle fall" if fall.passed else f"{hurt} falls hard")
    if fall.fall_damage:
        line += f", {fall.fall_damage} damage"
    return Part(fields=[("Fall", line, True)])


def _life(hurt: str, hit_points: int | None, *, dying: bool, unconscious: bool, hurt_now: bool,
          said_unconscious: bool) -> Part:
    """Hit points left, dying, unconscious: ``hurt_now`` the blow (or the flail's) took hit points."""
    part = Part()
    if hit_points is not None and hurt_now:
        part.fields.append(("Hit points", f"{hurt}: {text(hit_points)}", True))
    if dying or (hit_points is not None and hit_points <= 0):
        part.fields.append(("Dying", f"{hurt} is **dying**", True))
        # hit points the GM keeps secret (an NPC's, under secret rolls) are left out
        known = f" ({_num(hit_points)} hit points)" if hit_points is not None else ""
        part.lines.append(f"{MORTAL_MARK} {hurt} is **dying**{known}")
        part.severity = Severity.MORTAL
    elif unconscious:
        part.fields.append(("Unconscious", f"{hurt} falls **unconscious**", True))
        if not said_unconscious:
            left = f" ({plural(hit_points, 'hit point')} left)" if hit_points is not None else ""
            part.lines.append(f"{hurt} falls **unconscious**{left}")
        elif hit_points is not None:  # the major wound's line said it: the hit points left only
            part.lines.append(f"{hurt}: {plural(hit_points, 'hit point')} left")
        part.severity = Severity.GRIEVOUS
    elif hit_points is not None and hurt_now:
        part.lines.append(f"{hurt}: {plural(hit_points, 'hit point')} left")
    return part


def _sides(whose: str | None) -> tuple[str, ...]:
    return () if not whose else SIDES if whose == "both" else (whose,)


def _weapons(out: AttackOutcome, names: Names) -> Part:
    """Weapons broken or dropped, and lances broken on a charge (each weapon said once, issue 22 §4: a charge's
    broken lance is also its side's broken weapon)."""
    part = Part()
    lost = {item.who: item.weapon for item in out.weapons_lost}
    for whose, verb, name in ((out.weapon_broken, "breaks", "Weapon broken"),
                              (out.weapon_dropped, "is dropped", "Weapon dropped")):
        for side in _sides(whose):
            said = f"{_side(names, side)}'s {text(lost[side]) if lost.get(side) else 'weapon'} {verb}"
            part.fields.append((name, f"{said}: they must re-arm (/ready)", True))
            part.lines.append(said)
            part.severity = Severity.LIGHT
    lances = [side for side in _sides(out.lance_broken) if side not in _sides(out.weapon_broken)]
    if lances:
        owners = " and ".join(f"{_side(names, side)}'s" for side in lances)
        lance = "lances break" if len(lances) > 1 else "lance breaks"
        part.fields.append(("Lance", f"{owners} {lance} on the blow", True))
        part.lines.append(f"{owners} {lance}")
    return part


def _self_hit(out: AttackOutcome, names: Names) -> Part:
    own = out.self_hit
    if own is None:
        return Part()
    line = f"the flail hits its wielder, {_side(names, own.who)}: {own.damage_rolled} rolled on {own.damage_dice} " \
           f"\u2212 armour {own.armour} = **{own.damage_taken}**"
    if own.major_wound:
        line += ", a **major wound**"
    return Part(fields=[("Flail", line, False)])


def _experience(out: AttackOutcome) -> Part:
    if out.experience_check is None:
        return Part()
    return Part(fields=[("Experience", "a notable success: the GM may grant an experience check", True)])


def _attack_headline(out: AttackOutcome, names: Names) -> tuple[str, Severity]:
    defender = names[1]
    severity = Severity.NONE
    if out.tie:
        headline = "**Tie**: the blows meet and nobody is hurt."
    elif out.winner not in SIDES:
        headline = "**Both miss**: nobody is hurt this round."
    else:
        winner, loser = _side(names, out.winner), _side(names, "defender" if out.winner == "attacker" else "attacker")
        if out.damage_taken:
            headline = f"**{winner}** wins the exchange: {loser} takes **{out.damage_taken}** damage."
            severity = Severity.LIGHT
        elif out.damage_taken is None and out.armour is None and out.damage_rolled is not None:
            # the loser's armour is the GM's (secret rolls): the blow, not what got through
            headline = f"**{winner}** wins the exchange: a blow of **{out.damage_rolled}** on {loser}, before armour."
            severity = Severity.LIGHT
        elif out.damage_rolled is not None:
            headline = f"**{winner}** wins the exchange, but {loser}'s armour holds."
        else:
            headline = f"**{winner}** wins the exchange."
    if out.unopposed:
        headline += f" {defender} could not fight back" + (
            " (a missile, unopposed at range)." if out.unopposed_why == "missile" else ".")
    return headline, severity


def _attack(out: AttackOutcome, names: Names) -> OutcomeText:
    # who the blow fell on: the loser (the defender when nobody won); a flail's own blow is its wielder's
    hurt = _side(names, out.loser) if out.loser in SIDES else names[1]
    headline, severity = _attack_headline(out, names)
    parts = [
        _rolls(out, names), _damage(out), _knockdown(out.knockdown, hurt),
        _major_wound(out.major_wound_effects, hurt) if out.major_wound else Part(), _fall(out.fall, hurt),
        _life(hurt, out.hit_points, dying=out.dying, unconscious=out.unconscious,
              hurt_now=bool(out.damage_taken or out.self_hit is not None),
              said_unconscious=out.major_wound and _said_unconscious(out.major_wound_effects)),
        _weapons(out, names), _self_hit(out, names), _experience(out),
    ]
    return _put_together(headline, parts, severity)


# -- a roll the GM's buttons made later (knockdown, major wound, fall) ------------------------------------------


def _later(headline: str, parts: Sequence[Part]) -> OutcomeText:
    return _put_together(headline, parts, Severity.INFO)


def _knockdown_roll(out: KnockdownOutcome, names: Names) -> OutcomeText:
    who = names[0]
    kept = out.knockdown is not None and out.knockdown.passed is True
    headline = f"**{who}** keeps their feet." if kept else f"**{who}** is **knocked down**."
    return _later(headline, [_knockdown(out.knockdown, who),
                             _life(who, out.hit_points, dying=False, unconscious=False, hurt_now=False,
                                   said_unconscious=False)])


def _major_wound_roll(out: MajorWoundOutcome, names: Names) -> OutcomeText:
    who = names[0]
    return _later(f"**{who}** suffers the major wound's effects.", [
        _major_wound(out.major_wound_effects, who), _fall(out.fall, who),
        _life(who, out.hit_points, dying=False, unconscious=out.unconscious, hurt_now=False,
              said_unconscious=_said_unconscious(out.major_wound_effects))])


def _fall_roll(out: FallOutcome, names: Names) -> OutcomeText:
    who = names[0]
    gentle = out.fall is not None and out.fall.passed is True
    headline = f"**{who}** falls gently." if gentle else f"**{who}** falls hard."
    return _later(headline, [_fall(out.fall, who),
                             _life(who, out.hit_points, dying=False, unconscious=False, hurt_now=False,
                                   said_unconscious=False)])


# -- care -----------------------------------------------------------------------------------------------------


def _figures_left_out(out: FirstAidOutcome | ChirurgeryOutcome | RestOutcome) -> bool:
    """The projection left this care's figures out (an NPC's, behind the screen: the profile's secret fields): the
    engine always gives the hit points after it, so none here, and nothing healed or lost, is a record without them."""
    return out.hit_points is None and not out.healed and not getattr(out, "lost", 0) and not getattr(out, "harmed", 0)


def _treatment(out: FirstAidOutcome | ChirurgeryOutcome, names: Names) -> OutcomeText:
    patient, healer = names[0], names[1] if names[1] != names[0] else None
    chirurgery = isinstance(out, ChirurgeryOutcome)
    what = "Chirurgery" if chirurgery else "First aid"
    harmed = out.harmed if isinstance(out, FirstAidOutcome) else 0
    lost = out.lost if isinstance(out, ChirurgeryOutcome) else 0
    change = f"heals **{out.healed}** hit point{'s' if out.healed != 1 else ''}" if out.healed else "heals nothing"
    if harmed:
        change = f"**worsens the wound by {harmed}**"
    if _figures_left_out(out):  # an NPC's treatment behind the screen: what its hit points did is the GM's
        change = ""
    headline = f"{what} for **{patient}**" + (f" by {healer}" if healer else "") + \
        f": {human(out.roll.result) if out.roll.result else 'done'}" + (f", {change}." if change else ".")
    if isinstance(out, ChirurgeryOutcome):
        # a week of chirurgery ends the need only once the patient is out of danger: say which
        headline += " More chirurgery is needed (another week: /heal method:chirurgy)." \
            if out.chirurgery_needed else " No more chirurgery is needed: rest heals the rest."
    fields: list[Field] = [("Roll", _opposed(out.roll), True)]
    if out.hit_points is not None:
        fields.append(("Hit points", f"{patient}: {text(out.hit_points)}", True))
    if lost:
        fields.append(("Worsened", f"{patient} loses **{lost}** hit points: the wound deteriorates", True))
    return OutcomeText(headline, fields, Severity.SERIOUS if harmed or lost else Severity.LIGHT)


def _rest_stopped(why: str | None, who: str) -> str | None:
    """Why a rest stopped early, naming the character as every other line of the outcome does."""
    return {"healed": "every wound has healed", "dying": f"{who} is dying", "dead": f"{who} died"}.get(str(why))


def _rest(out: RestOutcome, names: Names) -> OutcomeText:
    who = names[0]
    weeks, healed, lost = out.weeks_counted, out.healed, out.lost
    headline = f"**{who}** rests {weeks} week{'s' if weeks != 1 else ''}"
    if _figures_left_out(out):  # an NPC's rest behind the screen: what its hit points did is the GM's
        headline += " (a chirurgeon is needed: /heal method:chirurgy)." if out.chirurgery_needed else "."
    else:
        deteriorates = f", **loses {lost}** to deterioration (a chirurgeon is needed: /heal method:chirurgy)"
        headline += f": heals {healed} hit point{'s' if healed != 1 else ''}" + (deteriorates if lost else "") + "."
    stopped = _rest_stopped(out.stopped, who)
    if stopped and out.weeks > weeks:
        headline += f" The rest stopped after {weeks} of {out.weeks} weeks: {stopped}."
    if out.days_unused:
        headline += f" Pendragon heals by the week: the {out.days_unused} day{'s' if out.days_unused != 1 else ''}" \
                    " left over heal nothing."
    if out.chirurgery_needed and not lost and out.wounds_left:
        headline += " Chirurgery is still needed."
    fields: list[Field] = []
    if out.hit_points is not None:
        fields.append(("Hit points", f"{who}: {text(out.hit_points)}", True))
    fields.append(("Wounds left", str(out.wounds_left), True))
    return OutcomeText(headline, fields, Severity.SERIOUS if lost else Severity.LIGHT)


# -- between blows --------------------------------------------------------------------------------------------


def _rearm(out: RearmOutcome, names: Names) -> OutcomeText:
    if out.replaced:
        headline = f"**{names[0]}** replaces the broken {text(out.weapon)} and re-arms with it."
    else:
        headline = f"**{names[0]}** re-arms" + (f" with the {text(out.weapon)}." if out.weapon else ".")
    return OutcomeText(headline, [], Severity.INFO)


def _stand(out: StandOutcome, names: Names) -> OutcomeText:
    return OutcomeText(f"**{names[0]}** gets up" + (" and mounts again." if out.mounted else "."), [], Severity.INFO)


def _initiative(out: InitiativeOutcome, names: Names) -> OutcomeText:
    return OutcomeText("Pendragon rolls no initiative: both sides of an exchange roll at once.", [], Severity.INFO)


def _unequip(out: UnequipOutcome, names: Names) -> OutcomeText:
    item = text(out.removed) if out.removed else "it"
    words = f"puts the {item} away" if out.kind == "weapon" else f"takes the {item} off"
    return OutcomeText(f"**{names[0]}** {words}.", [], Severity.INFO)


_ENDED = {"prone": "gets up", "out_of_fight": "is back with the others"}


def _end_fight(out: EndFightOutcome, names: Names) -> OutcomeText:
    done = [_ENDED.get(state, f"is no longer {human(state)}") for state in out.ended]
    done += [f"picks up the {text(weapon)}" for weapon in out.gathered]
    said = f": {', '.join(done)}" if done else ""
    return OutcomeText(f"The fight is over for **{names[0]}**{said}.", [], Severity.INFO)


def _condition(out: ConditionOutcome, names: Names) -> OutcomeText:
    if not out.conditions:
        return OutcomeText(f"**{names[0]}** has no condition now.", [], Severity.INFO)
    return OutcomeText(f"**{names[0]}** is now {', '.join(human(c) for c in out.conditions)}.", [], Severity.INFO)


def _gm_decide(out: GmDecideOutcome, names: Names) -> OutcomeText:
    fields: list[Field] = []
    if out.hit_points is not None:
        fields.append(("Hit points", f"{names[0]}: {text(out.hit_points)}", True))
    return OutcomeText(decision_words(out.kind, out.decision, names[0]), fields, decision_severity(out.decision))


# record type -> its words
DESCRIBERS: dict[type[Outcome], Callable[[Any, Names], OutcomeText]] = {
    AttackOutcome: _attack,
    KnockdownOutcome: _knockdown_roll,
    MajorWoundOutcome: _major_wound_roll,
    FallOutcome: _fall_roll,
    FirstAidOutcome: _treatment,
    ChirurgeryOutcome: _treatment,
    RestOutcome: _rest,
    RearmOutcome: _rearm,
    StandOutcome: _stand,
    InitiativeOutcome: _initiative,
    UnequipOutcome: _unequip,
    EndFightOutcome: _end_fight,
    ConditionOutcome: _condition,
    GmDecideOutcome: _gm_decide,
}
