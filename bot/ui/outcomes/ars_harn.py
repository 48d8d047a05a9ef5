"""ars-harn outcomes as words, one function per record type (``DESCRIBERS``), each built from small parts.

A part (the attack line, the blow, the wound's rolls, what was lost ...) is worded once and gives both forms:
its fields for the Details button and its lines for the public message (``brief``, ``numbers``), so the two
cannot disagree. What shows is decided by the record's fields, never by a key being there.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.ui.outcomes.common import (
    MORTAL_MARK,
    Field,
    OutcomeText,
    Severity,
    human,
    joined,
    modifiers,
    plural,
    text,
    worst,
)
from bot.ui.outcomes.decisions import decision_words
from rules.ars_harn.outcomes import (
    AdvantageOutcome,
    AttackOutcome,
    Blow,
    CastOutcome,
    Check,
    ConditionOutcome,
    EndFightOutcome,
    FatigueOutcome,
    GmDecisionOutcome,
    HealingRoll,
    HealOutcome,
    InflictOutcome,
    InitiativeOutcome,
    Injury,
    KillOutcome,
    ReadyOutcome,
    RecoverOutcome,
    RestOutcome,
    ShockOutcome,
    UnequipOutcome,
    Wounding,
)
from rules.outcome import Outcome

Names = tuple[str, str]

_SEVERITY = {"M": Severity.LIGHT, "S": Severity.SERIOUS, "G": Severity.GRIEVOUS, "K": Severity.MORTAL}
_SEVERITY_WORDS = {"M": "minor", "S": "serious", "G": "grievous", "K": "kill"}
_CHECK_TITLES = {"shock": "Shock", "kill": "Kill roll", "fumble": "Fumble", "stumble": "Stumble",
                 "amputation": "Amputation"}
_LIMB = {"fumble": "arm", "stumble": "leg"}
# HarnMaster's treatment results
_RESULTS = {"CS": "critical success", "MS": "success", "MF": "failure", "CF": "critical failure"}
# a failed check -> the condition it brings, and how its line says so
_FAILED_MEANS = {"shock": ("shock", "in shock"), "stumble": ("prone", "falls prone")}
# a limb roll's result -> the public line saying what happened ("": the Lost line says it, a severed or dropped
# thing); "Amputation failed" read as the limb kept, and "Fumble failed" did not say whose roll it was
_HAPPENED: dict[tuple[str, bool | None], str] = {
    ("amputation", True): "{who} keeps the limb", ("amputation", False): "",
    ("fumble", True): "{who} keeps hold of their weapon", ("fumble", False): "",
    ("stumble", True): "{who} keeps their feet", ("stumble", False): "{who} falls prone"}
_BLEEDING = "\u22121 to Shock and Fatigue rolls until a treatment succeeds or it heals below grievous"


@dataclass
class Words:
    """An outcome's words as the parts add them: the Details fields and the public lines."""

    fields: list[Field] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    severity: Severity = Severity.NONE

    def add(self, name: str, value: str, inline: bool = True) -> None:
        self.fields.append((name, value, inline))


def _num(value: int | None) -> str:
    return "?" if value is None else text(value)


def _check_line(check: Check) -> str:
    """``12 vs 9: **passed**``; one the rules failed unrolled says so (a Fumble after a grievous arm wound)."""
    if check.total is None and check.passed is not None:  # a secret roll: what it did, not its numbers
        return "**passed**" if check.passed else "**failed**"
    line = f"{_num(check.total)} vs {_num(check.ease_factor)}" if check.ease_factor is not None \
        else _num(check.total)
    if check.passed is None:
        return f"{line}: waiting for the GM"
    return f"{line}: **passed**" if check.passed else f"{line}: **failed**"


def _automatic_line(name: str, limb: str | None = None) -> str:
    """``fails with no roll: the arm is useless``; a body the pack words names its own limb (``foreleg``)."""
    return f"fails with no roll: the {limb or _LIMB.get(name, 'limb')} is useless"


def _with_modifiers(line: str, parts: dict[str, int] | None) -> str:
    shown = modifiers(parts)
    return f"{line} ({shown})" if shown else line


def _declared(*parts: str | None) -> list[str]:
    return [text(p) for p in parts if p]


# -- the parts --------------------------------------------------------------------------------------------------


def _injury_words(injury: Injury | None) -> tuple[str, Severity]:
    """``**G4**, grievous, 4 injury levels, bleeding`` and how bad it is."""
    if injury is None:
        return "", Severity.NONE
    letter = injury.code[:1].upper()
    words = injury.severity or _SEVERITY_WORDS.get(letter, "")
    levels = plural(injury.levels, "injury level") if injury.levels else ""  # none: left out for a secret target
    parts = [f"**{injury.code}**" if injury.code else "", human(words), levels]
    if injury.bleeding:
        parts.append("bleeding")
    return ", ".join(p for p in parts if p), _SEVERITY.get(letter, Severity.LIGHT)


def _place(blow: Blow) -> str:
    """``right hand``; a body the pack words names its own part (``right forepaw``, ruling 21)."""
    return " ".join(text(p) for p in (blow.side, blow.part or blow.location) if p) or "none"


def _attack_part(out: AttackOutcome, words: Words) -> None:
    """The Attack and Defense Totals: a field with every modifier, and the public totals line."""
    how = _declared(*out.declared, f"at {out.range} range" if out.range else None)
    line = (f"{', '.join(how)}: " if how else "") + f"**{_num(out.attack_total)}**"
    line = _with_modifiers(line, out.attack_modifiers)
    if out.attack_botched:
        line += " **botched**"
    line += (_with_modifiers(f"\nagainst defence **{out.defense_total}**", out.defense_modifiers)
             if out.defense_total is not None else "\nagainst a defence the GM keeps secret")
    if out.defense_botched:
        line += " **botched**"
    if out.excess:
        line += f"\nexcess {out.excess}" + (", saved for next round" if out.excess_saved else "")
    words.add("Attack", line, False)
    if out.saved_points or out.saved_points_used:
        kept = f"{out.saved_points} kept for later"
        if out.saved_points_used:
            kept += f", {out.saved_points_used} spent"
        if out.saved_points_capped:
            kept += " (capped at three times the skill)"
        words.add("Saved points", kept)


def _attack_numbers(out: AttackOutcome, defence_shown: bool) -> str:
    """The public totals line: ``Broadsword edge high: 12 vs 13``; with the defender's rolls secret, only the
    attacker's own total."""
    how = " ".join(_declared(*out.declared))
    if defence_shown:
        totals = f"{_num(out.attack_total)} vs {_num(out.defense_total)}"
        if out.attack_botched or out.defense_botched:
            totals += f" ({'attack' if out.attack_botched else 'defence'} **botched**)"
    else:
        totals = f"attack {_num(out.attack_total)}" + (" (**botched**)" if out.attack_botched else "")
    impact = out.blow.effective_impact
    return joined([f"{how}: {totals}" if how else totals,
                   f"impact {impact}" if defence_shown and impact is not None and impact > 0 and out.hit else None,
                   "excess saved" if out.excess_saved else None])


def _targeting_part(out: CastOutcome, words: Words) -> str | None:
    """A damaging spell's Targeting roll: its field, and the public line (None for a Body Level spell)."""
    if out.targeting is None:
        if out.body_levels is not None:
            words.add("Body Levels", str(out.body_levels))
        return None
    how = ", ".join(_declared(*out.declared))
    line = f"{how}: {_check_line(out.targeting)}" if how else _check_line(out.targeting)
    words.add("Targeting", _with_modifiers(line, out.targeting.modifiers), False)
    passed = out.targeting.passed
    verdict = "on target" if passed else "off target" if passed is False else "waiting"
    impact = out.blow.effective_impact
    return joined([f"targeting {_num(out.targeting.total)} vs {_num(out.targeting.ease_factor)}: {verdict}",
                   f"impact {impact}" if impact is not None and out.hit else None])


def _blow_part(blow: Blow, words: Words) -> None:
    """What got through: damage less Soak (armour and its pieces), the Effective Impact."""
    if blow.damage_total is None and blow.effective_impact is None:
        return
    if blow.soak_total is None and blow.damage_total is not None:  # the target's Soak is the GM's (secret rolls)
        words.add("Impact", f"damage **{blow.damage_total}**, against a soak the GM keeps secret")
        return
    soak = f"soak {_num(blow.soak_total)}"
    if blow.armour:
        soak += f" (armour {blow.armour}" + (f": {text(blow.armour_pieces)})" if blow.armour_pieces else ")")
    words.add("Impact", f"damage {_num(blow.damage_total)} \u2212 {soak} = **{_num(blow.effective_impact)}**")


def _wound_part(wounding: Wounding, injury_levels: int | None, hit: bool, who: str, words: Words) -> None:
    """The injury, with what bleeding does, and the target's Injury Levels after."""
    injury_text, level = _injury_words(wounding.injury)
    if injury_text:
        now = f"\n{who} now has {plural(injury_levels, 'injury level')}" if injury_levels is not None else ""
        bleeding = f"\nbleeding: {_BLEEDING}" if wounding.injury is not None and wounding.injury.bleeding else ""
        words.add("Injury", injury_text + now + bleeding, False)
        words.severity = worst(words.severity, level)
    elif injury_levels is not None and hit:
        words.add("Injury levels", f"{who}: {injury_levels}")


def _checks_part(wounding: Wounding, who: str, conditions: Sequence[str], words: Words) -> None:
    """The rolls the wound called for: a field each, one public line for them all (a failed one with the
    condition it brings), then the rest of the target's state. A roll made in the open has its figures in the
    Details' dice list (``shock stress+1 [2] = 3 vs 3: success``): its field says only what it did (``Shock:
    passed``), not ``3 vs 3`` a second time (issue 34, the reader's 8)."""
    verdicts = []
    explained: set[str] = set()
    for name, check in wounding.checks:
        if check.automatic:
            shown = _automatic_line(name, wounding.limb)
        else:
            shown = _check_line(check) if check.passed is None else "**passed**" if check.passed else "**failed**"
        words.add(_CHECK_TITLES[name], shown)
        if check.passed is False:
            words.severity = worst(words.severity, Severity.MORTAL if name in ("kill", "amputation")
                                   else Severity.SERIOUS)
        verdict = _verdict(name, check, who, conditions, explained)
        if verdict:
            verdicts.append(verdict)
    if verdicts:
        words.lines.append(joined(verdicts))
    _conditions_part(wounding, who, conditions, explained, words)


def _verdict(name: str, check: Check, who: str, conditions: Sequence[str], explained: set[str]) -> str:
    """A roll's part of the public line ("" for nothing); the condition it says is added to ``explained``."""
    happened = _HAPPENED.get((name, check.passed))
    if happened is not None:  # say what happened, not whose roll passed (issue 34, A1)
        if name == "stumble" and check.passed is False:
            explained.add("prone")
        return happened.format(who=who) if happened else ""
    verdict = "waiting for the GM" if check.passed is None else "passed" if check.passed else "**failed**"
    said = _FAILED_MEANS.get(name)
    if check.passed is False and said and said[0] in conditions:
        verdict += f": {said[1]}"
        explained.add(said[0])
    return f"{_CHECK_TITLES[name]} {verdict}"


def _conditions_part(wounding: Wounding, who: str, conditions: Sequence[str], explained: set[str],
                     words: Words) -> None:
    """The target's conditions: a field, and a line with those no roll's verdict said (or that it falls)."""
    if conditions:
        words.add("Condition", f"{who}: {text(list(conditions))}")
    # a condition the failed roll's line already says is not said again ("Shock failed" / "Bandit 2: shock")
    others = [c for c in conditions if c not in explained]
    if wounding.gm_decision is not None:
        # the GM chooses death or incapacitation: the character falls either way (the decision drops this line)
        others = [c for c in others if c != "incapacitated"]
        words.lines.append(f"{MORTAL_MARK} {who} falls" + (f" ({text(others)})" if others else ""))
    elif others:
        words.lines.append(f"{who}: {text(others)}")


def _losses_part(wounding: Wounding, side: str | None, who: str, words: Words, beast: bool = False) -> None:
    """A limb severed, a weapon dropped: what the target has lost. ``beast``: a body the pack words for itself
    (ruling 21), which holds nothing in a hand: its natural weapons are never dropped, and that is not news."""
    lost = []
    if wounding.severed:
        lost.append(f"{who}'s **{text(wounding.severed)}** is severed")
    if wounding.dropped:
        lost.append(f"{who} drops the {text(wounding.dropped)}")
    elif wounding.fumble is not None and wounding.fumble.passed is False and not beast:
        lost.append(f"{who} fumbles, but the {f'{text(side)} hand' if side else 'hand'} holds nothing to drop")
    for line in lost:
        words.add("Lost", line)
    words.lines.extend(lost)


def _advantage_part(side: str | None, names: Names, words: Words) -> None:
    if side is None:
        return
    who = {"attacker": names[0], "defender": names[1]}.get(side, text(side))
    words.add("Tactical advantage", f"{who} gains a tactical advantage", False)
    words.lines.append(f"{who} gains a tactical advantage")


# -- attacks, spells and the GM's wounds --------------------------------------------------------------------------


def _struck_headline(hit: bool, wounding: Wounding, blow: Blow, names: Names, missed: str,
                     held_back: bool = False) -> tuple[str, Severity]:
    attacker, defender = names
    injury_text, level = _injury_words(wounding.injury)
    if not hit:
        return missed, Severity.NONE
    if held_back:
        return f"**Hit**, held back: {attacker} saves the excess for a later blow.", Severity.LIGHT
    if injury_text:
        return f"**Hit** on {defender}'s **{_place(blow)}**: {injury_text}.", level
    return f"**Hit** on {defender}'s **{_place(blow)}**, but the armour takes it all.", Severity.LIGHT


def attack(out: AttackOutcome, names: Names) -> OutcomeText:
    attacker, defender = names
    headline, severity = _struck_headline(
        out.hit, out.wounding, out.blow, names,
        f"**Miss**: {attacker}'s attack does not get through {defender}'s defence.", out.excess_saved)
    words = Words(severity=severity)
    _attack_part(out, words)
    _blow_part(out.blow, words)
    _wound_part(out.wounding, out.injury_levels, out.hit, defender, words)
    _checks_part(out.wounding, defender, out.conditions, words)
    _losses_part(out.wounding, out.blow.side, defender, words, beast=out.blow.part is not None)
    _advantage_part(out.advantage_to, names, words)
    return OutcomeText(headline, words.fields, words.severity, words.lines, _attack_numbers(out, True),
                       own_numbers=_attack_numbers(out, False))


def cast(out: CastOutcome, names: Names) -> OutcomeText:
    attacker, defender = names
    missed = (f"**Miss**: {attacker}'s {text(out.spell)} misses {defender}." if out.spell
              else f"**Miss**: {attacker}'s attack does not get through {defender}'s defence.")
    headline, severity = _struck_headline(out.hit, out.wounding, out.blow, names, missed)
    words = Words(severity=severity)
    numbers = _targeting_part(out, words)
    _blow_part(out.blow, words)
    _wound_part(out.wounding, out.injury_levels, out.hit, defender, words)
    _checks_part(out.wounding, defender, out.conditions, words)
    _losses_part(out.wounding, out.blow.side, defender, words, beast=out.blow.part is not None)
    return OutcomeText(headline, words.fields, words.severity, words.lines, numbers, own_numbers=numbers)


def inflict(out: InflictOutcome, names: Names) -> OutcomeText:
    who = names[0]
    blow = Blow(location=out.location, side=out.side, effective_impact=out.effective_impact)
    if out.wounding.injury is None:
        impact = f" (Effective Impact {out.effective_impact})" if out.effective_impact is not None else ""
        return OutcomeText(f"The GM's blow does {who} no injury{impact}.", [], Severity.NONE, [])
    headline, severity = _struck_headline(True, out.wounding, blow, (who, who), "")
    words = Words(severity=severity)
    _wound_part(out.wounding, out.injury_levels, True, who, words)
    _checks_part(out.wounding, who, out.conditions, words)
    _losses_part(out.wounding, out.side, who, words)
    return OutcomeText(headline, words.fields, words.severity, words.lines)


# -- the later rolls and the GM's word ----------------------------------------------------------------------------


def shock(out: ShockOutcome, names: Names) -> OutcomeText:
    """One fact, one line: passed or failed, and so in shock or not."""
    who = names[0]
    fields: list[Field] = []
    if out.shock is None:
        return OutcomeText(f"**{who}** {'is in' if out.in_shock else 'is not in'} shock.", fields, Severity.INFO, [])
    passed = out.shock.passed
    state = "In shock." if out.in_shock else "Not in shock."
    headline = f"**{who}** {'passes' if passed else 'fails'} the shock roll. {state}"
    fields.append(("Shock", _check_line(out.shock), True))
    if out.conditions:
        fields.append(("Condition", f"{who}: {text(list(out.conditions))}", True))
    return OutcomeText(headline, fields, Severity.NONE if passed else Severity.SERIOUS, [])


def kill(out: KillOutcome, names: Names) -> OutcomeText:
    """Passed, or failed: dead, incapacitated, or (the waiting line says it) the GM's choice."""
    who = names[0]
    fields: list[Field] = []
    if out.kill is None:
        return OutcomeText(f"**{who}** owes no Kill roll.", fields, Severity.INFO, [])
    passed = out.kill.passed
    if passed:
        headline = f"**{who}** passes the kill roll."
    elif "dead" in out.conditions:
        headline = f"**{who}** fails the kill roll and dies."
    elif out.gm_decision is None and "incapacitated" in out.conditions:
        headline = f"**{who}** fails the kill roll: **incapacitated**."
    else:  # the waiting line says what the GM chooses
        headline = f"**{who}** fails the kill roll."
    fields.append(("Kill roll", _check_line(out.kill), True))
    if out.conditions and out.gm_decision is None:
        fields.append(("Condition", f"{who}: {text(list(out.conditions))}", True))
    return OutcomeText(headline, fields, Severity.NONE if passed else Severity.MORTAL, [])


_DECIDED = {"death": Severity.MORTAL, "incapacitation": Severity.GRIEVOUS}


def gm_decided(out: GmDecisionOutcome, names: Names) -> OutcomeText:
    who = names[0]
    fields: list[Field] = [("Condition", f"{who}: {text(list(out.conditions))}", True)] if out.conditions else []
    return OutcomeText(decision_words(None, out.decision, who), fields, _DECIDED.get(out.decision, Severity.INFO))


# -- healing ----------------------------------------------------------------------------------------------------


def heal(out: HealOutcome, names: Names) -> OutcomeText:
    healer, patient = names
    fields: list[Field] = []
    if out.method == "spell":
        headline = f"{healer}'s healing spell mends **{patient}**."
        severity = Severity.LIGHT
        if out.steps:
            fields.append(("Healed", "\n".join(f"wound `{s.wound}`: {s.before} \u2192 {s.after or 'healed'}"
                                               for s in out.steps), False))
    else:
        result = out.result or ""
        whose = "their own" if healer == patient else f"{patient}'s"
        headline = (f"{healer} treats {whose} wound `{_num(out.wound)}` with chirurgy: "
                    f"**{_RESULTS.get(result, human(result) or 'done')}**.")
        severity = Severity.LIGHT if result in ("CS", "MS") else Severity.SERIOUS
        if out.chirurgy is not None:
            fields.append(("Chirurgy", f"rolled {_num(out.chirurgy.total)}, needed {_num(out.chirurgy.ease_factor)}"
                                       f": {'**passed**' if out.chirurgy.passed else '**failed**'}", True))
        if out.healing_rate is not None:
            fields.append(("Heals", f"a healing roll every 5 days of rest, +{out.healing_rate} for the treatment",
                           True))
        if out.bleeding:
            fields.append(("Bleeding", f"still bleeding: {_BLEEDING}", False))
    if out.bleeding_stopped:
        fields.append(("Bleeding", "stopped", True))
    if out.injury_levels is not None:
        fields.append(("Now", f"{patient} has {plural(out.injury_levels, 'injury level')}", True))
    return OutcomeText(headline, fields, severity)


_HEALING_RESULTS = {"CS": "critical success", "MS": "success", "MF": "failed", "CF": "botch"}


def _healing_step(roll: HealingRoll) -> str:
    """``wound `1` G4 → G3 (12 vs 9)``; a roll that heals nothing: ``wound `2` S2 stays (4 vs 9: failed)``."""
    change = f"{roll.before} \u2192 {roll.after or 'healed'}" if roll.after != roll.before else f"{roll.before} stays"
    if roll.total is None:
        said = " (no roll: its rate heals it)" if roll.result == "automatic" else ""
    else:
        failed = f": {_HEALING_RESULTS[roll.result]}" if roll.result in ("MF", "CF") else ""
        said = f" ({roll.total} vs {roll.ease_factor}{failed})"
    return f"wound `{roll.wound}` {change}{said}"


def _healing_days(out: RestOutcome) -> dict[str, list[str]]:
    """The healing rolls by the day they came on (``Day 5``). Events stored before the day was kept say which
    roll of the rest it was, or, with one, nothing more."""
    by_day: dict[str, list[str]] = {}
    for roll in out.healing:
        when = (f"Day {roll.day}" if roll.day is not None else f"Roll {roll.interval}" if out.intervals > 1
                else "Healing")
        by_day.setdefault(when, []).append(_healing_step(roll))
    return by_day


def rest(out: RestOutcome, names: Names) -> OutcomeText:
    """A line a day that had healing rolls; in Details, a line a roll."""
    who = names[0]
    by_day = _healing_days(out)
    lines = ([f"{when}: " + " \u00b7 ".join(steps) for when, steps in by_day.items()]
             or [f"Healing: {'no wound to heal' if out.intervals else 'no roll due yet'}"])
    each = [f"{when} \u00b7 {step}" if when != "Healing" else step for when, steps in by_day.items() for step in steps]
    fields: list[Field] = [("Healing rolls", "\n".join(each) or lines[0].removeprefix("Healing: "), False)]
    if out.injury_levels is not None:
        now = f"{who} has {plural(out.injury_levels, 'injury level')}"
        fields.append(("Now", now, True))
        lines.append(f"Now: {now}")
    return OutcomeText(f"**{who}** rests {out.days} day{'s' if out.days != 1 else ''}.", fields, Severity.LIGHT,
                       lines)


# -- the small actions ------------------------------------------------------------------------------------------


def ready(out: ReadyOutcome, names: Names) -> OutcomeText:
    headline = f"**{names[0]}** readies the {text(out.weapon)}." if out.weapon else f"**{names[0]}** readies a weapon."
    return OutcomeText(headline, [], Severity.INFO)


_ADVANTAGE_USES = {"pick_up": "picks up the {weapon}", "switch": "switches to the {weapon}",
                   "stand_up": "stands up", "fast_cast": "casts fast"}


def advantage(out: AdvantageOutcome, names: Names) -> OutcomeText:
    does = _ADVANTAGE_USES.get(out.use, human(out.use)).format(weapon=text(out.weapon))
    return OutcomeText(f"**{names[0]}** {does}, free with the tactical advantage.", [], Severity.INFO, [])


_RECOVERS = {"prone": "gets up", "unconscious": "comes round", "incapacitated": "is no longer incapacitated"}


def recover(out: RecoverOutcome, names: Names) -> OutcomeText:
    does = _RECOVERS.get(out.condition, f"is no longer {human(out.condition)}")
    return OutcomeText(f"**{names[0]}** {does}.", [], Severity.INFO, [])


def fatigue(out: FatigueOutcome, names: Names) -> OutcomeText:
    fields: list[Field] = []
    if out.fatigue_roll is not None:
        fields.append(("Fatigue roll", _with_modifiers(_check_line(out.fatigue_roll), out.fatigue_roll.modifiers),
                       True))
    state = f"**{human(out.fatigue_level)}**" if out.fatigue_level else f"at fatigue {out.fatigue}"
    return OutcomeText(f"**{names[0]}** is now {state}.", fields, Severity.INFO, [])


def conditions(out: ConditionOutcome, names: Names) -> OutcomeText:
    now = text(list(out.conditions)) if out.conditions else "no conditions"
    return OutcomeText(f"**{names[0]}**: {now}.", [], Severity.INFO, [])


def unequip(out: UnequipOutcome, names: Names) -> OutcomeText:
    return OutcomeText(f"The {text(out.removed)} is taken off {names[0]}'s sheet.", [], Severity.INFO, [])


_ENDED = {"prone": "gets up"}


def end_fight(out: EndFightOutcome, names: Names) -> OutcomeText:
    parts = [_ENDED.get(state, f"is no longer {human(state)}") for state in out.ended]
    if out.gathered:
        parts.append(f"picks up the {' and the '.join(text(w) for w in out.gathered)}")
    said = " and ".join(parts) if parts else "has nothing left to end"
    return OutcomeText(f"The fight is over: {names[0]} {said}.", [], Severity.INFO, [])


def initiative(out: InitiativeOutcome, names: Names) -> OutcomeText:
    rolls = [r for r in (out.attacker, out.defender) if r is not None]
    fields: list[Field] = [(r.name or "Initiative", _with_modifiers(f"**{r.total}**", r.modifiers), True)
                           for r in rolls]
    return OutcomeText("Initiative: " + ", ".join(f"{r.name} **{r.total}**" for r in rolls) + ".", fields,
                       Severity.INFO, [])


DESCRIBERS: dict[type[Outcome], Callable[[Any, Names], OutcomeText]] = {
    AttackOutcome: attack, CastOutcome: cast, InflictOutcome: inflict, ShockOutcome: shock, KillOutcome: kill,
    GmDecisionOutcome: gm_decided, HealOutcome: heal, RestOutcome: rest, ReadyOutcome: ready,
    AdvantageOutcome: advantage, RecoverOutcome: recover, FatigueOutcome: fatigue, ConditionOutcome: conditions,
    UnequipOutcome: unequip, EndFightOutcome: end_fight, InitiativeOutcome: initiative,
}
